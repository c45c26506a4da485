package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"memsim/analysis/exact"
	"memsim/analysis/exact/answer"
	"memsim/analysis/field"
	"memsim/configs"
	"memsim/sim"
	"memsim/sim/rules"
	"memsim/strategies"
	"memsim/strategies/external"
)

// tableFlags are memsim engine table's flags and the player's command.
type tableFlags struct {
	pairs, singletons      int
	turnLimit              int
	pass, choices, against string
	games                  int64
	out, log               string
	json                   bool
	options                optionFlag
	timePerMove, handshake time.Duration
	inFlight               int
	argv                   []string

	passRule  rules.PassRule
	choiceSet rules.ChoiceSet
	opponents []rules.Policy
}

// tableOpponents are the built-in policies memsim engine table may evaluate a table against.
var tableOpponents = []string{"daring", "safe", "parity", "optimal", "win-optimal"}

// Bounds of memsim engine table's flags.
const (
	maxTableInFlight = 4096
	maxTableGames    = 1_000_000
)

// runEngineTable runs memsim engine table.
func runEngineTable(ctx context.Context, c *command, inv invocation, args []string) int {
	var fl tableFlags
	fs := newFlagSet("memsim engine table")
	fs.IntVar(&fl.pairs, "pairs", 12, "`N` pairs: the deal the table is for, and its states (1 to 200)")
	fs.IntVar(&fl.singletons, "singletons", 0, "`S` singletons")
	fs.IntVar(&fl.turnLimit, "turn-limit", 0, "end each game after `T` turns, the pairs left counting for nobody (0: no limit); the table is read at the count state whatever the turns left")
	fs.StringVar(&fl.pass, "pass", "never", "the pass `rule`: never, two-known, always")
	fs.StringVar(&fl.choices, "choices", rules.FullChoices.String(), "the choice `set`: daring and any of safe, known-first, pass, comma-separated")
	fs.StringVar(&fl.against, "against", "daring,safe,parity,optimal", "the built-in `policies` to evaluate the table against, comma-separated: "+strings.Join(tableOpponents, ", "))
	fs.Int64Var(&fl.games, "games", 200, "`G` games of the check, an even number: the process against each policy of --against in turn, each deal from both seats")
	fs.StringVar(&fl.out, "out", "", "write the table to `FILE` (CSV: n,j,s,f,lead,after_pass,choice)")
	fs.BoolVar(&fl.json, "json", false, "print one JSON object")
	fs.Var(&fl.options, "option", "`NAME=VALUE` of an option the player declares (repeatable; the others keep their defaults)")
	fs.DurationVar(&fl.timePerMove, "time-per-move", external.DefaultTimePerMove, "the time `D` allowed for each reply")
	fs.DurationVar(&fl.handshake, "handshake", external.DefaultHandshake, "the time `D` allowed for the answer to hello")
	fs.IntVar(&fl.inFlight, "batch", external.DefaultInFlight, "`N` position queries written at once")
	fs.StringVar(&fl.log, "log", "", "append the player's stderr to `FILE` (default: discarded)")
	if code, done := c.parseFlags(fs, args, inv); done {
		return code
	}
	fl.argv = fs.Args()
	if err := fl.check(); err != nil {
		return exitFor(fs.Name(), err, inv.stderr)
	}
	out := checkedStdout(inv.stdout)
	err := engineTable(ctx, &fl, out)
	if err == nil {
		err = out.result(nil)
	}
	return exitFor(fs.Name(), err, inv.stderr)
}

// check checks the flags' values and parses the rules, the choice set and the opponents.
func (fl *tableFlags) check() error {
	switch {
	case len(fl.argv) == 0:
		return required("the player's command", "the program and its arguments, after -- (memsim engine table -- python3 my_player.py)")
	case fl.argv[0] == "":
		return usagef("the player's command: the program must not be empty")
	case fl.pairs < 1 || fl.pairs > exact.RationalLimit:
		return usagef("--pairs %d: must be from 1 to %d", fl.pairs, exact.RationalLimit)
	case fl.singletons < 0 || fl.singletons > exact.RationalLimit:
		return usagef("--singletons %d: must be from 0 to %d", fl.singletons, exact.RationalLimit)
	case fl.turnLimit < 0:
		return usagef("--turn-limit %d: must be at least 1 (or 0 for no limit)", fl.turnLimit)
	case fl.games < 2 || fl.games > maxTableGames || fl.games%2 != 0:
		return usagef("--games %d: must be an even number from 2 to %d (each deal is played from both seats)", fl.games, maxTableGames)
	case fl.timePerMove < time.Millisecond || fl.timePerMove > configs.MaxTimePerMove:
		return usagef("--time-per-move %v: must be from 1ms to %v", fl.timePerMove, configs.MaxTimePerMove)
	case fl.handshake < time.Millisecond || fl.handshake > configs.MaxTimePerMove:
		return usagef("--handshake %v: must be from 1ms to %v", fl.handshake, configs.MaxTimePerMove)
	case fl.inFlight < 1 || fl.inFlight > maxTableInFlight:
		return usagef("--batch %d: must be between 1 and %d", fl.inFlight, maxTableInFlight)
	}
	var err error
	if fl.passRule, err = rules.ParsePassRule(fl.pass); err != nil {
		return usagef("--pass %q: unknown pass rule (allowed: never, two-known, always)", fl.pass)
	}
	if fl.choiceSet, err = rules.ParseChoiceSet(fl.choices); err != nil {
		return usagef("--choices %q: %v (allowed: daring and any of safe, known-first, pass, comma-separated)", fl.choices, err)
	}
	fl.opponents = nil
	for _, name := range strings.Split(fl.against, ",") {
		name = strings.TrimSpace(name)
		p, err := rules.ParsePolicy(name)
		if err != nil || !slices.Contains(tableOpponents, name) {
			return usagef("--against %q: %q is not a built-in policy to evaluate against (allowed: %s)", fl.against, name, strings.Join(tableOpponents, ", "))
		}
		if slices.Contains(fl.opponents, p) {
			return usagef("--against %q: %s is given twice", fl.against, name)
		}
		if err := p.CheckChoices(fl.choiceSet); err != nil {
			return usagef("--against %q: %v", fl.against, err)
		}
		fl.opponents = append(fl.opponents, p)
	}
	return checkOptionForms(fl.options)
}

// checkOptionForms checks that each --option is NAME=VALUE and names an option once.
func checkOptionForms(options optionFlag) error {
	seen := map[string]bool{}
	for _, o := range options {
		name, _, ok := strings.Cut(o, "=")
		if !ok || name == "" {
			return usagef("--option %q: must be NAME=VALUE, an option the player declares and its value", o)
		}
		if seen[name] {
			return usagef("--option %s: option %q is given twice", o, name)
		}
		seen[name] = true
	}
	return nil
}

// model returns the exact model of the flags' rules: perfect shared memory, under the turn limit
// if any.
func (fl *tableFlags) model() exact.Model {
	return exact.Model{Pass: fl.passRule, Singletons: fl.singletons, Choices: fl.choiceSet,
		Variant: rules.Variant{TurnLimit: fl.turnLimit}}
}

// tableReport is what memsim engine table prints, and its --json object.
type tableReport struct {
	Player    string       `json:"player"`
	Version   string       `json:"version"`
	Positions string       `json:"positions"`
	Rules     tableRules   `json:"rules"`
	States    int          `json:"states"`
	Seconds   float64      `json:"seconds"`
	Check     tableCheck   `json:"check"`
	Against   []tableValue `json:"against"`
	Best      tableBest    `json:"best_response"`
	Out       string       `json:"out,omitempty"`
}

type tableRules struct {
	Pairs      int      `json:"pairs"`
	Singletons int      `json:"singletons"`
	Pass       string   `json:"pass"`
	Choices    []string `json:"choices"`
	Memory     string   `json:"memory"`
	TurnLimit  int      `json:"turn_limit,omitempty"`
}

type tableCheck struct {
	Games   int64    `json:"games"`
	Choices int64    `json:"choices"`
	Against []string `json:"against"`
}

// exactNumber is an exact value as memsim solve --json gives one: the fraction and the nearest
// float64.
type exactNumber = answer.Number

func number(r *big.Rat) exactNumber { return answer.NumberOf(field.Rat{}, r) }

// dec writes a value to 6 decimals.
func dec(n exactNumber) string { return strconv.FormatFloat(n.Float, 'f', 6, 64) }

// tableSeat is the table's value in one seat against one opponent.
type tableSeat struct {
	Pairs exactNumber `json:"pairs"`
	Win   exactNumber `json:"win"`
	Draw  exactNumber `json:"draw"`
	Loss  exactNumber `json:"loss"`
}

type tableValue struct {
	Opponent string      `json:"opponent"`
	First    tableSeat   `json:"first"`
	Second   tableSeat   `json:"second"`
	Mean     exactNumber `json:"mean"`
	mean     *big.Rat
	// against is the mean of what the opponent makes against the table over both seat orders.
	against *big.Rat
}

type tableBest struct {
	First          exactNumber `json:"first"`
	Second         exactNumber `json:"second"`
	Mean           exactNumber `json:"mean"`
	GainOptimal    exactNumber `json:"gain_over_optimal"`
	BestBuiltin    string      `json:"best_builtin"`
	BestBuiltinVal exactNumber `json:"best_builtin_mean"`
	GainBuiltin    exactNumber `json:"gain_over_best_builtin"`
}

// engineTable tabulates the player of fl, checks its table on sampled games, and prints the
// table's exact values. A player that declares no positions, an answer that breaks the protocol
// and a table the check refuses are failures (exit 1).
func engineTable(ctx context.Context, fl *tableFlags, out io.Writer) error {
	model := fl.model()
	if err := model.Validate(); err != nil {
		return usagef("%v", err)
	}
	var logw io.Writer
	if fl.log != "" {
		f, err := os.OpenFile(fl.log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return usagef("--log %s: %v", fl.log, err)
		}
		defer f.Close()
		logw = f
	}
	x, conn, err := fl.dial(nil, logw)
	if err != nil {
		return err
	}
	defer func() { x.Close() }()
	info := conn.Info()
	if len(fl.options) > 0 {
		values, err := optionValues(info, fl.options)
		if err != nil {
			return err
		}
		x.Close()
		if x, conn, err = fl.dial(values, logw); err != nil {
			return err
		}
	}
	if info.Positions == "" {
		return fmt.Errorf("the player (%s %s, view %s) declares no positions at its handshake: it cannot be tabulated (docs/protocol.md#position-queries)", info.Name, info.Version, info.View)
	}
	withLead := info.Positions == "lead"
	if withLead && fl.pairs > exact.WinRationalLimit {
		return usagef("--pairs %d: a table that depends on the lead is solved exactly up to %d pairs", fl.pairs, exact.WinRationalLimit)
	}
	rep := &tableReport{Player: info.Name, Version: info.Version, Positions: info.Positions,
		Rules: tableRules{Pairs: fl.pairs, Singletons: fl.singletons, Pass: fl.passRule.String(),
			Choices: strings.Split(fl.choiceSet.String(), ","), Memory: "perfect", TurnLimit: fl.turnLimit}}
	spec := external.TableSpec{Pairs: fl.pairs, Singletons: fl.singletons, Pass: fl.passRule, Choices: fl.choiceSet, InFlight: fl.inFlight}
	start := time.Now()
	tab, err := conn.Tabulate(spec)
	if err != nil {
		return err
	}
	rep.States, rep.Seconds = tab.Queries, time.Since(start).Seconds()
	conn.Close()
	if err := fl.checkTable(ctx, x, tab.Table, rep); err != nil {
		return err
	}
	if err := fl.values(ctx, tab.Table, rep); err != nil {
		return err
	}
	if fl.out != "" {
		if err := writeTableFile(fl.out, tab.Table, external.Positions(spec, withLead)); err != nil {
			return err
		}
		rep.Out = fl.out
	}
	if fl.json {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	rep.print(out, fl)
	return nil
}

// dial starts the player with the given option values and makes its handshake.
func (fl *tableFlags) dial(values map[string]any, logw io.Writer) (*external.Player, *external.Conn, error) {
	x, err := external.New("player", external.Command{Argv: fl.argv, Options: values, TimePerMove: fl.timePerMove,
		Handshake: fl.handshake, Choices: fl.choiceSet, Variant: rules.Variant{TurnLimit: fl.turnLimit}})
	if err != nil {
		return nil, nil, usagef("%v", err)
	}
	if logw != nil {
		x.SetLog(logw, fl.log)
	}
	conn, err := x.Dial()
	if err != nil {
		x.Close()
		return nil, nil, err
	}
	return x, conn, nil
}

// checkTable plays the check's games and records what they saw; a mismatch refuses the table.
func (fl *tableFlags) checkTable(ctx context.Context, x *external.Player, table *rules.ChoiceTable, rep *tableReport) error {
	variant := rules.Variant{TurnLimit: fl.turnLimit}
	env := strategies.Env{MaxPairs: fl.pairs, Singletons: fl.singletons, Players: 2, Pass: fl.passRule, Variant: variant, Tables: strategies.NewTables()}
	var opps []sim.Player
	for _, p := range fl.opponents {
		set := fl.choiceSet
		b, err := strategies.Build(ctx, strategies.Spec{Name: p.String(), Policy: p.String(), Choices: &set}, env)
		if err != nil {
			return usagef("--against %s: %v", p, err)
		}
		opps = append(opps, b.Player)
		rep.Check.Against = append(rep.Check.Against, p.String())
	}
	res, err := x.CheckTable(ctx, table, external.CheckSpec{Pairs: fl.pairs, Singletons: fl.singletons, Pass: fl.passRule, Variant: variant,
		Opponents: opps, Games: fl.games, Seed: 1})
	var m *external.Mismatch
	switch {
	case errors.As(err, &m):
		return fmt.Errorf("the table is refused: on a sampled game %v (the process's choices depend on more than the count state it declares)", m)
	case err != nil:
		return fmt.Errorf("the check's games: %w", err)
	}
	rep.Check.Games, rep.Check.Choices = res.Games, res.Choices
	return nil
}

// values computes the table's exact values against each opponent and its best response.
func (fl *tableFlags) values(ctx context.Context, table *rules.ChoiceTable, rep *tableReport) error {
	f, m := field.Rat{}, fl.model()
	st := rules.State{N: fl.pairs, J: fl.pairs, S: fl.singletons, F: fl.singletons}
	var best *tableValue
	for _, p := range fl.opponents {
		first, err := exact.EvaluateTable(ctx, f, m, table, p, st)
		if err != nil {
			return fmt.Errorf("the table against %s: %w", p, err)
		}
		second, err := exact.Evaluate(ctx, f, m, exact.Lineup{Players: 2, Policy: p, OpponentTable: table}, st)
		if err != nil {
			return fmt.Errorf("the table against %s, moving second: %w", p, err)
		}
		wdl, err := exact.WinDrawLossTable(ctx, f, m, table, p, st)
		if err != nil {
			return fmt.Errorf("the table's win probability against %s: %w", p, err)
		}
		secondPairs := second.PairsBySeat[1] // under a limit the seats' pairs need not add up to n
		mean := new(big.Rat).Add(first.ExpectedPairs, secondPairs)
		mean.Quo(mean, big.NewRat(2, 1))
		// Moving second, the table's win is the opponent's loss.
		against := new(big.Rat).Add(first.PairsBySeat[1], second.ExpectedPairs)
		against.Quo(against, big.NewRat(2, 1))
		v := tableValue{Opponent: p.String(), mean: mean, against: against, Mean: number(mean),
			First:  tableSeat{Pairs: number(first.ExpectedPairs), Win: number(wdl[0].Win), Draw: number(wdl[0].Draw), Loss: number(wdl[0].Loss)},
			Second: tableSeat{Pairs: number(secondPairs), Win: number(wdl[1].Loss), Draw: number(wdl[1].Draw), Loss: number(wdl[1].Win)}}
		rep.Against = append(rep.Against, v)
	}
	for i := range rep.Against {
		// The best built-in against the table is the one that takes the most pairs from it.
		if best == nil || rep.Against[i].against.Cmp(best.against) > 0 {
			best = &rep.Against[i]
		}
	}
	br, err := fl.bestResponse(ctx, table, st)
	if err != nil {
		return fmt.Errorf("the best response to the table: %w", err)
	}
	half := big.NewRat(1, 2)
	brMean := new(big.Rat).Mul(new(big.Rat).Add(br.Pairs[0], br.Pairs[1]), half)
	gainOpt := new(big.Rat).Mul(new(big.Rat).Add(br.Gain[0], br.Gain[1]), half)
	builtin := best.against // what the best built-in makes against the table
	rep.Best = tableBest{First: number(br.Pairs[0]), Second: number(br.Pairs[1]), Mean: number(brMean),
		GainOptimal: number(gainOpt), BestBuiltin: best.Opponent, BestBuiltinVal: number(builtin),
		GainBuiltin: number(new(big.Rat).Sub(brMean, builtin))}
	return nil
}

// bestResponse returns the best response in expected pairs to the table from st and what optimal
// makes in its place, in both seat orders: BestResponseTo without a turn limit; under one, the
// reply's values from Evaluate (its choices depend on the turns left).
func (fl *tableFlags) bestResponse(ctx context.Context, table *rules.ChoiceTable, st rules.State) (exact.Response[*big.Rat], error) {
	f, m := field.Rat{}, fl.model()
	if fl.turnLimit == 0 {
		return exact.BestResponseTo(ctx, f, m, table, fl.pairs)
	}
	var res exact.Response[*big.Rat]
	for i, p := range []rules.Policy{rules.PolicyBestResponse, rules.PolicyOptimal} {
		first, err := exact.Evaluate(ctx, f, m, exact.Lineup{Players: 2, Policy: p, OpponentTable: table}, st)
		if err != nil {
			return res, err
		}
		second, err := exact.Evaluate(ctx, f, m, exact.Lineup{Players: 2, Table: table, Opponent: p}, st)
		if err != nil {
			return res, err
		}
		v := [2]*big.Rat{first.ExpectedPairs, second.PairsBySeat[1]}
		if i == 0 {
			res.Pairs = v
		} else {
			res.Optimal = v
		}
	}
	res.State = st
	for k := range 2 {
		res.Gain[k] = new(big.Rat).Sub(res.Pairs[k], res.Optimal[k])
	}
	return res, nil
}

// writeTableFile writes the table as CSV to path.
func writeTableFile(path string, table *rules.ChoiceTable, positions []external.Position) error {
	f, err := os.Create(path)
	if err != nil {
		return usagef("--out %s: %v", path, err)
	}
	if err := external.WriteTableCSV(f, table, positions); err != nil {
		f.Close()
		return fmt.Errorf("--out %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("--out %s: %w", path, err)
	}
	return nil
}

// print writes the report as text.
func (r *tableReport) print(w io.Writer, fl *tableFlags) {
	lead := "the lead aside"
	if r.Positions == "lead" {
		lead = "with the lead"
	}
	desc := fmt.Sprintf("%s, %s, pass rule %s, choices %s, perfect memory", count(r.Rules.Pairs, "pair"),
		count(r.Rules.Singletons, "singleton"), r.Rules.Pass, strings.Join(r.Rules.Choices, ", "))
	if r.Rules.TurnLimit > 0 {
		desc += fmt.Sprintf(", turn limit %d", r.Rules.TurnLimit)
	}
	fmt.Fprintf(w, "player: %s %s, positions %s (a function of the count state, %s)\n", r.Player, r.Version, r.Positions, lead)
	fmt.Fprintf(w, "states: %s queried in %s (%s)\n", grouped(fmt.Sprint(r.States)), durationText(time.Duration(r.Seconds*float64(time.Second))), desc)
	fmt.Fprintf(w, "check: %s games against %s, %s choices of the process, every one the table's\n",
		grouped(fmt.Sprint(r.Check.Games)), listText(r.Check.Against), grouped(fmt.Sprint(r.Check.Choices)))
	fmt.Fprintf(w, "exact values of the table (%s; pairs of %d, win/draw/loss probabilities):\n", desc, r.Rules.Pairs)
	for _, v := range r.Against {
		fmt.Fprintf(w, "  against %-11s moving first %s pairs, win %s draw %s loss %s; moving second %s pairs, win %s draw %s loss %s; mean %s\n",
			v.Opponent+":", dec(v.First.Pairs), dec(v.First.Win), dec(v.First.Draw), dec(v.First.Loss),
			dec(v.Second.Pairs), dec(v.Second.Win), dec(v.Second.Draw), dec(v.Second.Loss), dec(v.Mean))
	}
	b := r.Best
	fmt.Fprintf(w, "best response to the table: %s pairs moving first, %s moving second, mean %s; it gains %s over optimal and %s over the best built-in (%s, %s)\n",
		dec(b.First), dec(b.Second), dec(b.Mean), dec(b.GainOptimal), dec(b.GainBuiltin), b.BestBuiltin, dec(b.BestBuiltinVal))
	if r.Out != "" {
		fmt.Fprintf(w, "table written to %s\n", r.Out)
	}
}

// listText joins names: "a", "a and b", "a, b and c".
func listText(names []string) string {
	switch len(names) {
	case 0:
		return "none"
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
