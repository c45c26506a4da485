package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/big"
	"strconv"
	"strings"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

const solveUsage = `Usage:
  memsim solve --pairs N [--unknown J] [--singletons S] [--unseen-singletons F]
               [--memory M --forget handover-uniform|lru] [--pass never|two-known|always]
               [--players P] [--policy A] [--opponent B] [--distribution] [--float] [--json]
  memsim solve --table --pairs-max N [model flags] [--float] [--json]
  memsim solve --gerez --cards K --known B --paired P [--json]

The mover (seat 0) plays --policy, every other seat --opponent. Defaults: J = N, S = 0, F = S,
M = 0 (perfect memory), pass never, P = 2, policy optimal, opponent = the policy.
Policies: optimal, safe, daring, parity, best-response (the best reply to the other policy).

Flags:
`

// solveFlags holds the parsed flags of memsim solve.
type solveFlags struct {
	pairs, unknown, singletons, unseen, memory, players, pairsMax int
	forget, pass, policy, opponent                                string
	table, distribution, float, json                              bool
	gerez                                                         bool
	cards, known, paired                                          int
}

// usageError is bad input: reported as one line, exit status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return &usageError{fmt.Sprintf(format, args...)} }

func newSolveFlagSet(fl *solveFlags) *flag.FlagSet {
	fs := flag.NewFlagSet("memsim solve", flag.ContinueOnError)
	fs.IntVar(&fl.pairs, "pairs", 0, "`N` pairs on the table (at least 1)")
	fs.IntVar(&fl.unknown, "unknown", -1, "`J` pairs with no card known (0..N; default N)")
	fs.IntVar(&fl.singletons, "singletons", 0, "`S` singletons on the table")
	fs.IntVar(&fl.unseen, "unseen-singletons", -1, "`F` singletons not yet seen (0..S; default S)")
	fs.IntVar(&fl.memory, "memory", 0, "shared memory capacity `M` (0: perfect memory; otherwise at least 2)")
	fs.StringVar(&fl.forget, "forget", "", "forgetting `rule` with --memory: handover-uniform or lru")
	fs.StringVar(&fl.pass, "pass", "never", "pass `rule`: never, two-known or always")
	fs.IntVar(&fl.players, "players", 2, "`P` players (1 to 8; 1 is solitaire)")
	fs.StringVar(&fl.policy, "policy", "optimal", "the mover's `policy`")
	fs.StringVar(&fl.opponent, "opponent", "", "the other seats' `policy` (default: the mover's)")
	fs.BoolVar(&fl.table, "table", false, "print the optimal strategy table for every state with n <= --pairs-max")
	fs.IntVar(&fl.pairsMax, "pairs-max", 0, "largest `N` of the table")
	fs.BoolVar(&fl.distribution, "distribution", false, "also give the exact distribution of seat 0's final share (2 players)")
	fs.BoolVar(&fl.float, "float", false, "compute in float64 instead of exact rationals")
	fs.BoolVar(&fl.json, "json", false, "print one JSON object")
	fs.BoolVar(&fl.gerez, "gerez", false, "solve Gerez's state <k, B, P> (perfect memory, pass always) with --cards, --known, --paired")
	fs.IntVar(&fl.cards, "cards", 0, "with --gerez: `K` cards on the table (even, at least 2)")
	fs.IntVar(&fl.known, "known", 0, "with --gerez: `B` known cards")
	fs.IntVar(&fl.paired, "paired", 0, "with --gerez: `P` known cards whose partner is known (even)")
	fs.SetOutput(io.Discard)
	return fs
}

func runSolve(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var fl solveFlags
	fs := newSolveFlagSet(&fl)
	if code, done := parseFlags(fs, solveUsage, args, stdout, stderr); done {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "memsim solve: unexpected argument %q (all input is given by flags; see memsim solve -h)\n", fs.Arg(0))
		return exitUsage
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if fl.gerez {
		return exitFor(fs.Name(), solveGerez(ctx, fl, set, stdout), stderr)
	}
	for _, name := range []string{"cards", "known", "paired"} {
		if set[name] {
			fmt.Fprintf(stderr, "memsim solve: --%s goes with --gerez\n", name)
			return exitUsage
		}
	}
	q, err := fl.query(set)
	if err == nil {
		out := bufio.NewWriter(stdout)
		err = q.run(ctx, out)
		if ferr := out.Flush(); err == nil && ferr != nil {
			err = fmt.Errorf("writing output: %w", ferr)
		}
	}
	if err != nil {
		fmt.Fprintln(stderr, "memsim solve: "+err.Error())
		var ue *usageError
		if errors.As(err, &ue) {
			return exitUsage
		}
		return exitError
	}
	return exitOK
}

// flagError rewrites the flag package's errors as one line naming the flag.
func flagError(fs *flag.FlagSet, err error) string {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: "); ok {
		return fmt.Sprintf("unknown flag %s (see %s -h)", name, fs.Name())
	}
	// invalid value "x" for flag -pairs: parse error, or invalid boolean value "x" for -quiet: ...
	for _, form := range [][2]string{{"invalid value ", " for flag -"}, {"invalid boolean value ", " for -"}} {
		rest, ok := strings.CutPrefix(msg, form[0])
		if !ok {
			continue
		}
		value, name, ok := strings.Cut(rest, form[1])
		if !ok {
			break
		}
		name, _, _ = strings.Cut(name, ":")
		kind := "a whole number"
		if f := fs.Lookup(name); f != nil {
			if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
				kind = "true or false"
			} else if g, ok := f.Value.(flag.Getter); ok {
				if _, ok := g.Get().(float64); ok {
					kind = "a number"
				}
			}
		}
		return fmt.Sprintf("--%s %s: must be %s", name, value, kind)
	}
	return msg
}

// solveQuery is a validated memsim solve request.
type solveQuery struct {
	model    exact.Model
	matchup  exact.Matchup
	state    rules.State
	pairsMax int
	table    bool
	dist     bool
	float    bool
	json     bool
}

// query validates the flags (set names those given on the command line).
func (fl *solveFlags) query(set map[string]bool) (*solveQuery, error) {
	q := &solveQuery{table: fl.table, dist: fl.distribution, float: fl.float, json: fl.json}
	pass, err := rules.ParsePassRule(fl.pass)
	if err != nil {
		return nil, usagef("--pass %q: unknown rule (allowed: never, two-known, always)", fl.pass)
	}
	q.model.Pass = pass
	if fl.singletons < 0 {
		return nil, usagef("--singletons %d: must be at least 0", fl.singletons)
	}
	q.model.Singletons = fl.singletons
	switch {
	case fl.memory < 0 || fl.memory == 1:
		return nil, usagef("--memory %d: must be 0 (perfect memory) or at least 2", fl.memory)
	case fl.memory == 0 && set["forget"]:
		return nil, usagef("--forget %s needs --memory M with M >= 2", fl.forget)
	case fl.memory > 0:
		if !set["forget"] {
			return nil, usagef("--memory %d needs --forget (allowed: handover-uniform, lru)", fl.memory)
		}
		fg, err := rules.ParseForgetting(fl.forget)
		if err != nil || (fg != rules.ForgetHandoverUniform && fg != rules.ForgetLRU) {
			return nil, usagef("--forget %q: no exact model (allowed: handover-uniform, lru)", fl.forget)
		}
		if fl.singletons > 0 {
			return nil, usagef("--singletons %d with --memory %d: no exact model for singletons with limited memory (use --memory 0)", fl.singletons, fl.memory)
		}
		q.model.Memory = rules.Memory{Capacity: fl.memory, Forget: fg}
	}
	if q.table {
		return q, fl.tableQuery(q, set)
	}
	if set["pairs-max"] {
		return nil, usagef("--pairs-max goes with --table")
	}
	if fl.pairs < 1 {
		if !set["pairs"] {
			return nil, usagef("--pairs is required (a whole number, at least 1)")
		}
		return nil, usagef("--pairs %d: must be at least 1", fl.pairs)
	}
	st := rules.State{N: fl.pairs, J: fl.pairs, S: fl.singletons, F: fl.singletons}
	if set["unknown"] {
		if fl.unknown < 0 || fl.unknown > fl.pairs {
			return nil, usagef("--unknown %d: must be between 0 and --pairs %d", fl.unknown, fl.pairs)
		}
		st.J = fl.unknown
	}
	if set["unseen-singletons"] {
		if fl.unseen < 0 || fl.unseen > fl.singletons {
			return nil, usagef("--unseen-singletons %d: must be between 0 and --singletons %d", fl.unseen, fl.singletons)
		}
		st.F = fl.unseen
	}
	if !q.model.Memory.Holds(st.Known()) {
		return nil, usagef("--unknown %d: %d known cards exceed --memory %d (need --unknown >= %d)",
			st.J, st.Known(), fl.memory, st.N+st.S-st.F-fl.memory)
	}
	q.state = st
	if fl.players < 1 || fl.players > exact.MaxPlayers {
		return nil, usagef("--players %d: must be between 1 and %d", fl.players, exact.MaxPlayers)
	}
	q.matchup.Players = fl.players
	if q.matchup.Policy, err = parsePolicy("--policy", fl.policy); err != nil {
		return nil, err
	}
	q.matchup.Opponent = q.matchup.Policy
	if set["opponent"] {
		if q.matchup.Opponent, err = parsePolicy("--opponent", fl.opponent); err != nil {
			return nil, err
		}
	}
	if err := q.checkMatchup(); err != nil {
		return nil, err
	}
	return q, nil
}

func (fl *solveFlags) tableQuery(q *solveQuery, set map[string]bool) error {
	for _, name := range []string{"pairs", "unknown", "players", "policy", "opponent", "distribution"} {
		if set[name] {
			return usagef("--%s does not go with --table (the table is for 2 players playing optimally, every n <= --pairs-max)", name)
		}
	}
	if fl.pairsMax < 1 {
		return usagef("--table needs --pairs-max N with N >= 1")
	}
	q.pairsMax = fl.pairsMax
	q.state = rules.State{S: fl.singletons, F: fl.singletons}
	if set["unseen-singletons"] {
		if fl.unseen < 0 || fl.unseen > fl.singletons {
			return usagef("--unseen-singletons %d: must be between 0 and --singletons %d", fl.unseen, fl.singletons)
		}
		q.state.F = fl.unseen
	}
	return nil
}

func parsePolicy(flagName, name string) (rules.Policy, error) {
	p, err := rules.ParsePolicy(name)
	if err != nil {
		return 0, usagef("%s %q: unknown policy (allowed: %s)", flagName, name, strings.Join(rules.PolicyNames(), ", "))
	}
	return p, nil
}

func (q *solveQuery) checkMatchup() error {
	mu := q.matchup
	switch {
	case mu.Players != 2 && q.model.Pass != rules.PassNever:
		return usagef("--pass %s with --players %d: only --pass never has an exact model with other than 2 players", q.model.Pass, mu.Players)
	case mu.Players == 1 && mu.Policy == rules.PolicyBestResponse:
		return usagef("--policy best-response with --players 1: solitaire has no opponent (allowed: optimal, safe, daring, parity)")
	case mu.Players > 2 && (mu.Policy == rules.PolicyBestResponse || mu.Opponent == rules.PolicyBestResponse):
		return usagef("best-response with --players %d: solved for 2 players only (allowed: optimal, safe, daring, parity)", mu.Players)
	case mu.Players == 2 && mu.Policy == rules.PolicyBestResponse && mu.Opponent == rules.PolicyBestResponse:
		return usagef("--policy best-response needs --opponent set to optimal, safe, daring or parity")
	case q.dist && mu.Players != 2:
		return usagef("--distribution with --players %d: the score distribution is computed for 2 players", mu.Players)
	}
	return nil
}

func (q *solveQuery) run(ctx context.Context, w *bufio.Writer) error {
	if q.float {
		return runQuery[float64](ctx, q, field.Float{}, w)
	}
	return runQuery[*big.Rat](ctx, q, field.Rat{}, w)
}

func runQuery[T any](ctx context.Context, q *solveQuery, f field.Field[T], w *bufio.Writer) error {
	if q.table {
		return writeTable(ctx, q, f, w)
	}
	res, err := exact.Evaluate(ctx, f, q.model, q.matchup, q.state)
	if err != nil {
		return err
	}
	var dist *exact.ScoreDistribution[T]
	if q.dist {
		d, err := exact.Distribution(ctx, f, q.model, q.matchup, q.state)
		if err != nil {
			return err
		}
		dist = &d
	}
	if q.json {
		return writeResultJSON(q, f, res, dist, w)
	}
	return writeResultText(q, f, res, dist, w)
}

// number is a value as printed in JSON: exact is a reduced fraction (absent in float mode).
type number struct {
	Exact string  `json:"exact,omitempty"`
	Float float64 `json:"float"`
}

func num[T any](f field.Field[T], v T) number {
	n := number{Float: f.Float64(v)}
	if s, ok := f.Exact(v); ok {
		n.Exact = s
	}
	return n
}

// modelJSON describes the model and state of a result.
type modelJSON struct {
	Pairs      int    `json:"pairs,omitempty"`
	Unknown    *int   `json:"unknown,omitempty"`
	PairsMax   int    `json:"pairs_max,omitempty"`
	Singletons int    `json:"singletons"`
	Unseen     int    `json:"unseen_singletons"`
	Memory     int    `json:"memory"`
	Forget     string `json:"forget,omitempty"`
	Pass       string `json:"pass"`
	Players    int    `json:"players,omitempty"`
	Policy     string `json:"policy,omitempty"`
	Opponent   string `json:"opponent,omitempty"`
	Arithmetic string `json:"arithmetic"`
}

func (q *solveQuery) modelJSON() modelJSON {
	m := modelJSON{
		Singletons: q.state.S, Unseen: q.state.F, Memory: q.model.Memory.Capacity, Pass: q.model.Pass.String(),
		Arithmetic: "exact",
	}
	if q.float {
		m.Arithmetic = "float64"
	}
	if !q.model.Memory.Perfect() {
		m.Forget = q.model.Memory.Forget.String()
	}
	if q.table {
		m.PairsMax = q.pairsMax
		return m
	}
	j := q.state.J
	m.Pairs, m.Unknown, m.Players = q.state.N, &j, q.matchup.Players
	m.Policy = q.matchup.Policy.String()
	if q.matchup.Players > 1 {
		m.Opponent = q.matchup.Opponent.String()
	}
	return m
}

type shareJSON struct {
	Share       float64 `json:"share"`
	Probability number  `json:"probability"`
}

type resultJSON struct {
	Model             modelJSON   `json:"model"`
	ExpectedPairs     *number     `json:"expected_pairs,omitempty"`
	ExpectedLead      *number     `json:"expected_lead,omitempty"`
	ExpectedBySeat    []number    `json:"expected_pairs_by_seat,omitempty"`
	ExpectedTurns     *number     `json:"expected_turns,omitempty"`
	ExpectedLucky     *number     `json:"expected_lucky,omitempty"`
	ScoreDistribution []shareJSON `json:"score_distribution,omitempty"`
	Win               *number     `json:"win,omitempty"`
	Draw              *number     `json:"draw,omitempty"`
	Loss              *number     `json:"loss,omitempty"`
}

func ptr(n number) *number { return &n }

func writeResultJSON[T any](q *solveQuery, f field.Field[T], res exact.Result[T], dist *exact.ScoreDistribution[T], w io.Writer) error {
	out := resultJSON{Model: q.modelJSON()}
	if res.Players == 1 {
		out.ExpectedTurns, out.ExpectedLucky = ptr(num(f, res.ExpectedTurns)), ptr(num(f, res.ExpectedLucky))
	} else {
		out.ExpectedPairs = ptr(num(f, res.ExpectedPairs))
		for _, v := range res.PairsBySeat {
			out.ExpectedBySeat = append(out.ExpectedBySeat, num(f, v))
		}
		if res.Players == 2 {
			out.ExpectedLead = ptr(num(f, res.ExpectedLead))
		}
	}
	if dist != nil {
		for i, p := range dist.Prob {
			out.ScoreDistribution = append(out.ScoreDistribution, shareJSON{Share: float64(i) / 2, Probability: num(f, p)})
		}
		out.Win, out.Draw, out.Loss = ptr(num(f, dist.Win)), ptr(num(f, dist.Draw)), ptr(num(f, dist.Loss))
	}
	enc := json.NewEncoder(w)
	return enc.Encode(out)
}

// human formats a value for people: a decimal, and the exact fraction when it is short.
func human[T any](f field.Field[T], v T) string {
	s := strconv.FormatFloat(f.Float64(v), 'f', 6, 64)
	if e, ok := f.Exact(v); ok && len(e) <= 40 && e != s {
		s += " (" + e + ")"
	}
	return s
}

func writeResultText[T any](q *solveQuery, f field.Field[T], res exact.Result[T], dist *exact.ScoreDistribution[T], w io.Writer) error {
	fmt.Fprintf(w, "%s, %s memory, pass %s, %s arithmetic\n", q.state, q.model.Memory, q.model.Pass, q.modelJSON().Arithmetic)
	mu := q.matchup
	if mu.Players == 1 {
		fmt.Fprintf(w, "solitaire, policy %s\n", mu.Policy)
		fmt.Fprintf(w, "expected turns:         %s\n", human(f, res.ExpectedTurns))
		fmt.Fprintf(w, "expected lucky matches: %s\n", human(f, res.ExpectedLucky))
		return nil
	}
	fmt.Fprintf(w, "%d players: seat 0 (to move) plays %s, the others %s\n", mu.Players, mu.Policy, mu.Opponent)
	for i, v := range res.PairsBySeat {
		fmt.Fprintf(w, "expected pairs, seat %d: %s\n", i, human(f, v))
	}
	if mu.Players == 2 {
		fmt.Fprintf(w, "expected lead, seat 0:  %s\n", human(f, res.ExpectedLead))
	}
	if dist != nil {
		fmt.Fprintf(w, "seat 0 wins %s, draws %s, loses %s\n", human(f, dist.Win), human(f, dist.Draw), human(f, dist.Loss))
		for i, p := range dist.Prob {
			if f.Float64(p) != 0 {
				fmt.Fprintf(w, "  share %4.1f: %s\n", float64(i)/2, human(f, p))
			}
		}
	}
	return nil
}

type tableCellJSON struct {
	Pairs   int      `json:"pairs"`
	Unknown int      `json:"unknown"`
	Unseen  *int     `json:"unseen_singletons,omitempty"`
	Code    int      `json:"code"`
	Best    []string `json:"best"`
	Value   number   `json:"value"`
}

// writeTable streams the strategy table: every state with n <= pairs-max (and, with singletons,
// the requested number of unseen singletons).
func writeTable[T any](ctx context.Context, q *solveQuery, f field.Field[T], w *bufio.Writer) error {
	if q.json {
		head, err := json.Marshal(q.modelJSON())
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "{\"model\":%s,\"cells\":[", head)
	} else {
		fmt.Fprintf(w, "# optimal strategy table: %s memory, pass %s, singletons %d (unseen %d)\n",
			q.model.Memory, q.model.Pass, q.state.S, q.state.F)
		fmt.Fprintln(w, "# row n, then one code per j (unknown pairs) from j = 1 (or the least j the memory allows) to n")
		fmt.Fprintln(w, "# codes: 0 safe is better, 1 daring is better, 2 equal or no choice (daring against safe, optimal afterwards)")
	}
	first, row := true, -1
	var cellJSON tableCellJSON
	err := exact.Table(ctx, f, q.model, q.pairsMax, func(c *exact.TableCell[T]) error {
		st := c.State
		if st.F != q.state.F {
			return nil
		}
		if q.json {
			cellJSON = tableCellJSON{Pairs: st.N, Unknown: st.J, Code: c.Code, Value: num(f, c.Value), Best: cellJSON.Best[:0]}
			if st.S > 0 {
				fu := st.F
				cellJSON.Unseen = &fu
			}
			for _, b := range c.Best {
				cellJSON.Best = append(cellJSON.Best, b.String())
			}
			b, err := json.Marshal(cellJSON)
			if err != nil {
				return err
			}
			if !first {
				w.WriteByte(',')
			}
			first = false
			_, err = w.Write(b)
			return err
		}
		if st.J == 0 {
			return nil
		}
		if st.N != row {
			if row >= 0 {
				w.WriteByte('\n')
			}
			row = st.N
			fmt.Fprintf(w, "%d:", st.N)
		}
		_, err := fmt.Fprintf(w, " %d", c.Code)
		return err
	})
	if err != nil {
		return err
	}
	if q.json {
		_, err = w.WriteString("]}\n")
		return err
	}
	if row >= 0 {
		w.WriteByte('\n')
	}
	return nil
}
