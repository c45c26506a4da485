package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/analysis/report"
	"memsim/configs"
	"memsim/sim"
	"memsim/sim/rules"
	"memsim/strategies"
	"memsim/strategies/external"
	"memsim/strategies/external/protocol"
	"memsim/tournament"
)

// engineCommand returns memsim engine.
func engineCommand() *command {
	return &command{
		name: "engine",
		usage: []string{
			"memsim engine check [--games G] [--against P] [--option NAME=VALUE]... [--time-per-move D]\n" +
				"[--handshake D] [--batch N] [--rounds R] [--log FILE] -- CMD [ARGS...]",
			"memsim engine table [--pairs N] [--singletons S] [--pass RULE] [--choices SET] [--against P,...]\n" +
				"[--games G] [--out FILE] [--json] [--option NAME=VALUE]... [--time-per-move D]\n" +
				"[--handshake D] [--batch N] [--log FILE] -- CMD [ARGS...]",
		},
		short: "check a player process, or tabulate its policy and solve it exactly",
		long: `
Checks that the program CMD (with its arguments ARGS) plays as a player of memsim-player/1
(docs/protocol.md), and roughly how strong it is, within seconds. It prints one line per check,
"ok" or "FAIL" with the reason, and exits 0 when every check passes, 1 when one fails, 2 for bad
usage. The checks:

  handshake       a process starts and answers hello within --handshake D: its name, version,
                  view and options (no other check runs without it)
  options         the values of --option NAME=VALUE (typed by the option the player declares;
                  the others keep their defaults) are sent, and the process keeps running
  positions       for a state-view player that declares "positions": a new process answers a
                  position query for every count state of 12 pairs (pass rule never, the full
                  choice set) with one of the choices each query offers (memsim engine table then
                  checks the answers against its play and gives their exact values)
  play            G games against the built-in player P at 12 pairs, two seats, pass rule never,
                  the full choice set, G/2 deals each played from both seats, through the engine
                  as a tournament plays them; passes when every game ends. It prints the player's
                  mean pairs per game, luck-adjusted, with its 95% interval (6 is an even match),
                  and in each seat, with what P scores there against itself (exact, where the
                  solver has P's values)
  legal moves     every reply of those games is legal: any engine error fails it, with the error
  time per move   the slowest reply of those games against the limit --time-per-move D
  variants        for a player that declares rule variants: 10 games against daring at 12 pairs
                  under every variant it declares together (copies 4, blind flips, a limit of
                  24 turns), each played to its end with every reply legal
  crash restart   the processes are killed (SIGKILL to their process groups) and a new process
                  starts and plays a game
  round trip      over the protocol directly, R requests one at a time (the median time per
                  decision), then R rounds of first-card requests for N new games in one write
                  (decisions per second); every reply is checked against its request

The player's stderr is discarded, or appended to --log FILE.

memsim engine table tabulates a state-view player that declares "positions" at its handshake
(its first-card choice is a function of the count state, docs/protocol.md): it asks the process
for its choice in every count state of a game of N pairs and S singletons under pass rule RULE
and choice set SET, with perfect memory (--batch N queries at once); checks the table against
the process on G sampled games, the process against each policy of --against in turn, comparing
every choice it makes with the table's (the first difference refuses the table, naming the state,
exit 1); and prints, from the exact solver in rationals, the table's expected pairs and its win,
draw and loss probabilities against each built-in policy of --against, moving first and second,
and its exact best response with what it gains over optimal and over the best of those policies.
--out FILE writes the table as CSV (n,j,s,f,lead,after_pass,choice), --json prints one object.
`,
		run: runEngine,
	}
}

// engineSubcommands lists memsim engine's subcommands.
var engineSubcommands = []string{"check", "table"}

// checkFlags are memsim engine check's flags and the player's command.
type checkFlags struct {
	games                  int64
	against, log           string
	options                optionFlag
	timePerMove, handshake time.Duration
	batch, rounds          int
	argv                   []string
}

// optionFlag collects the values of a repeatable --option NAME=VALUE flag, in order.
type optionFlag []string

func (o *optionFlag) String() string { return strings.Join(*o, " ") }

// Set adds a value; check checks its form.
func (o *optionFlag) Set(v string) error {
	*o = append(*o, v)
	return nil
}

// Bounds of memsim engine check's flags.
const (
	maxCheckGames  = 1_000_000
	maxCheckBatch  = 4096
	maxCheckRounds = 100_000
)

// checkPairs is the deal size of the checks' games.
const checkPairs = 12

func runEngine(ctx context.Context, c *command, inv invocation, args []string) int {
	if len(args) == 0 {
		fmt.Fprintf(inv.stderr, "memsim engine: missing subcommand (allowed: %s)\n", strings.Join(engineSubcommands, ", "))
		return exitUsage
	}
	sub := args[0]
	switch {
	case sub == "-h" || sub == "-help" || sub == "--help":
		sub = "check"
	case sub == "table":
		return runEngineTable(ctx, c, inv, args[1:])
	case sub != "check":
		fmt.Fprintf(inv.stderr, "memsim engine: unknown subcommand %q (allowed: %s)\n", sub, strings.Join(engineSubcommands, ", "))
		return exitUsage
	default:
		args = args[1:]
	}
	var fl checkFlags
	fs := newFlagSet("memsim engine " + sub)
	fs.Int64Var(&fl.games, "games", 100, "`G` games to play, an even number: G/2 deals, each played from both seats")
	fs.StringVar(&fl.against, "against", "daring", "the built-in `policy` to play against: "+strings.Join(strategies.Names(), ", "))
	fs.Var(&fl.options, "option", "`NAME=VALUE` of an option the player declares (repeatable; the others keep their defaults)")
	fs.DurationVar(&fl.timePerMove, "time-per-move", external.DefaultTimePerMove, "the time `D` allowed for each reply")
	fs.DurationVar(&fl.handshake, "handshake", external.DefaultHandshake, "the time `D` allowed for the answer to hello")
	fs.IntVar(&fl.batch, "batch", 64, "`N` games at once in the batched round trip")
	fs.IntVar(&fl.rounds, "rounds", 300, "`R` requests one at a time, and R rounds of N at once, in the round trip")
	fs.StringVar(&fl.log, "log", "", "append the player's stderr to `FILE` (default: discarded)")
	if code, done := c.parseFlags(fs, args, inv); done {
		return code
	}
	fl.argv = fs.Args()
	if err := fl.check(); err != nil {
		return exitFor(fs.Name(), err, inv.stderr)
	}
	out := checkedStdout(inv.stdout)
	ok, err := engineCheck(ctx, fl, out)
	if err == nil {
		err = out.result(nil)
	}
	if code := exitFor(fs.Name(), err, inv.stderr); code != exitOK {
		return code
	}
	if !ok {
		return exitError
	}
	return exitOK
}

// check checks the flags' values.
func (fl *checkFlags) check() error {
	switch {
	case len(fl.argv) == 0:
		return required("the player's command", "the program and its arguments, after -- (memsim engine check -- python3 my_player.py)")
	case fl.argv[0] == "":
		return usagef("the player's command: the program must not be empty")
	case fl.games < 2 || fl.games > maxCheckGames || fl.games%2 != 0:
		return usagef("--games %d: must be an even number from 2 to %d (each deal is played from both seats)", fl.games, maxCheckGames)
	case !slices.Contains(strategies.Names(), fl.against):
		return usagef("--against %q: unknown policy (allowed: %s)", fl.against, strings.Join(strategies.Names(), ", "))
	case fl.timePerMove < time.Millisecond || fl.timePerMove > configs.MaxTimePerMove:
		return usagef("--time-per-move %v: must be from 1ms to %v", fl.timePerMove, configs.MaxTimePerMove)
	case fl.handshake < time.Millisecond || fl.handshake > configs.MaxTimePerMove:
		return usagef("--handshake %v: must be from 1ms to %v", fl.handshake, configs.MaxTimePerMove)
	case fl.batch < 1 || fl.batch > maxCheckBatch:
		return usagef("--batch %d: must be between 1 and %d", fl.batch, maxCheckBatch)
	case fl.rounds < 1 || fl.rounds > maxCheckRounds:
		return usagef("--rounds %d: must be between 1 and %d", fl.rounds, maxCheckRounds)
	}
	return checkOptionForms(fl.options)
}

// checker runs the checks and prints a line for each.
type checker struct {
	ctx    context.Context
	fl     checkFlags
	out    io.Writer
	log    io.Writer // the player's stderr, or nil
	where  string
	failed bool
}

// line prints the outcome of one check: "ok   name: detail", or "FAIL name: the reason".
func (c *checker) line(name, detail string, err error) {
	if err != nil {
		c.failed = true
		fmt.Fprintf(c.out, "FAIL %s: %s\n", name, oneLine(err.Error()))
		return
	}
	fmt.Fprintf(c.out, "ok   %s: %s\n", name, detail)
}

// oneLine joins the lines of a message with "; ".
func oneLine(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", " ; ")), " ")
}

// newPlayer returns a player of the checked command with the given option values.
func (c *checker) newPlayer(values map[string]any) (*external.Player, error) {
	x, err := external.New("player", external.Command{Argv: c.fl.argv, Options: values,
		TimePerMove: c.fl.timePerMove, Handshake: c.fl.handshake})
	if err != nil {
		return nil, err
	}
	if c.log != nil {
		x.SetLog(c.log, c.where)
	}
	return x, nil
}

// engineCheck runs the checks of fl, printing a line for each on out, and reports whether they
// all passed. An error is bad input (a command that cannot be found, an option the player does
// not declare) or an interruption.
func engineCheck(ctx context.Context, fl checkFlags, out io.Writer) (bool, error) {
	c := &checker{ctx: ctx, fl: fl, out: out}
	if fl.log != "" {
		f, err := os.OpenFile(fl.log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return false, usagef("--log %s: %v", fl.log, err)
		}
		defer f.Close()
		c.log, c.where = f, fl.log
	}
	x, conn, info, err := c.checkHandshake()
	defer func() {
		if x != nil {
			x.Close()
		}
	}()
	if err != nil || conn == nil {
		return false, err
	}
	values, err := optionValues(info, fl.options)
	if err != nil {
		return false, err
	}
	if len(values) > 0 {
		// The values are typed by the handshake: a new process gets them.
		x.Close()
		if x, err = c.newPlayer(values); err != nil {
			return false, usagef("%v", err)
		}
		if conn, err = x.Dial(); err != nil {
			conn = nil
			c.line("options", "", err)
		}
	}
	if conn != nil {
		c.checkOptions(conn, values)
	}
	if info.Positions != "" {
		c.checkPositions(x)
	}
	played, err := c.checkPlay(values)
	if played != nil {
		defer played.Close()
	}
	if err != nil {
		return false, err
	}
	if len(info.Variants) > 0 {
		if err := c.checkVariants(values, info.Variants); err != nil {
			return false, err
		}
	}
	c.checkRestart(played)
	c.checkRoundTrip(x, conn, info)
	return !c.failed, ctx.Err()
}

// checkHandshake starts a process of the player and reads its handshake: it returns the player
// and the process for the next checks, or no process when the check failed; err is bad input.
func (c *checker) checkHandshake() (*external.Player, *external.Conn, protocol.Player, error) {
	x, err := c.newPlayer(nil)
	if err != nil {
		return nil, nil, protocol.Player{}, usagef("%v", err)
	}
	start := time.Now()
	conn, err := x.Dial()
	took := time.Since(start)
	if err != nil {
		c.line("handshake", "", err)
		return x, nil, protocol.Player{}, nil
	}
	info := conn.Info()
	view := string(info.View)
	if info.Positions != "" {
		view += ", positions " + string(info.Positions)
	}
	if len(info.Variants) > 0 {
		view += ", variants (" + strings.Join(info.Variants, ", ") + ")"
	}
	c.line("handshake", fmt.Sprintf("%s %s, view %s, %s (answered hello in %s)",
		info.Name, info.Version, view, describeOptions(info.Options), durationText(took)), nil)
	return x, conn, info, nil
}

// describeOptions lists a player's declared options: "options noise (float, default 0, 0 to 1),
// ...", or "no options".
func describeOptions(opts []protocol.Option) string {
	if len(opts) == 0 {
		return "no options"
	}
	parts := make([]string, len(opts))
	for i, o := range opts {
		d := fmt.Sprintf("%s (%s, default %s", o.Name, o.Type, jsonText(o.Default))
		if o.Min != nil || o.Max != nil {
			lo, hi := "…", "…"
			if o.Min != nil {
				lo = jsonText(*o.Min)
			}
			if o.Max != nil {
				hi = jsonText(*o.Max)
			}
			d += fmt.Sprintf(", %s to %s", lo, hi)
		}
		if o.Type == "choice" {
			d += ", one of " + strings.Join(o.Choices, ", ")
		}
		parts[i] = d + ")"
	}
	return "options " + strings.Join(parts, ", ")
}

// jsonText writes a value as JSON does.
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// optionValues types the values of --option NAME=VALUE by the options the player declares (a
// bool, a number for int and float, a string for string and choice) and checks each against its
// option's bounds or choices.
func optionValues(info protocol.Player, given []string) (map[string]any, error) {
	values := map[string]any{}
	for _, g := range given {
		name, v, _ := strings.Cut(g, "=")
		i := slices.IndexFunc(info.Options, func(o protocol.Option) bool { return o.Name == name })
		if i < 0 {
			declared := "none"
			if len(info.Options) > 0 {
				var names []string
				for _, o := range info.Options {
					names = append(names, o.Name)
				}
				declared = strings.Join(names, ", ")
			}
			return nil, usagef("--option %s: the player declares no option %q (it declares: %s)", g, name, declared)
		}
		switch o := info.Options[i]; o.Type {
		case "bool":
			b, err := strconv.ParseBool(v)
			if err != nil {
				return nil, usagef("--option %s: option %q is a bool: true or false", g, name)
			}
			values[name] = b
		case "int", "float":
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				return nil, usagef("--option %s: option %q is a number (%s)", g, name, o.Type)
			}
			values[name] = f
		default:
			values[name] = v
		}
		if err := info.CheckValues(map[string]any{name: values[name]}); err != nil {
			return nil, usagef("--option %s: %v", g, err)
		}
	}
	return values, nil
}

// optionsSettle is how long the options check gives a process to fail on its options.
const optionsSettle = 100 * time.Millisecond

// checkOptions sends the option values to the process and checks that it is still running a
// moment later.
func (c *checker) checkOptions(conn *external.Conn, values map[string]any) {
	const name = "options"
	if err := conn.Flush(); err != nil {
		c.line(name, "", fmt.Errorf("sending the options: %w", err))
		return
	}
	select {
	case <-time.After(optionsSettle):
	case <-c.ctx.Done():
		return
	}
	if running, err := conn.Running(); !running {
		c.line(name, "", fmt.Errorf("after the options, the process %w", err))
		return
	}
	sent := "no values sent: every option at its default"
	if len(values) > 0 {
		var kv []string
		for _, g := range c.fl.options {
			n, _, _ := strings.Cut(g, "=")
			kv = append(kv, n+"="+jsonText(values[n]))
		}
		sent = "sent " + strings.Join(kv, ", ")
		if len(values) < len(conn.Info().Options) {
			sent += " (the others at their defaults)"
		}
	}
	c.line(name, fmt.Sprintf("%s; the process is running %s later", sent, durationText(optionsSettle)), nil)
}

// checkPositions asks a new process of the player about every count state of a game at the
// check's size, as memsim engine table does, and checks that every answer is a choice its query
// offers.
func (c *checker) checkPositions(x *external.Player) {
	const name = "positions"
	conn, err := x.Dial()
	if err != nil {
		c.line(name, "", err)
		return
	}
	defer conn.Close()
	start := time.Now()
	tab, err := conn.Tabulate(external.TableSpec{Pairs: checkPairs, Pass: rules.PassNever})
	if err != nil {
		c.line(name, "", err)
		return
	}
	c.line(name, fmt.Sprintf("%s position queries answered in %s, each with a choice the query offered (memsim engine table checks them against play and gives their exact values)",
		grouped(fmt.Sprint(tab.Queries)), durationText(time.Since(start))), nil)
}

// replyTimes keeps the number of replies of a player's seats and the slowest.
type replyTimes struct {
	mu      sync.Mutex
	n       int64
	slowest time.Duration
}

func (r *replyTimes) add(d time.Duration) {
	r.mu.Lock()
	r.n++
	r.slowest = max(r.slowest, d)
	r.mu.Unlock()
}

// timedSeat is a seat of a player process that times its replies: the engine's Flip, from the
// request to the reply read and checked.
type timedSeat struct {
	sim.Strategy
	obs   sim.Observer
	times *replyTimes
}

func (t *timedSeat) Flip(v *sim.View) sim.Move {
	start := time.Now()
	m := t.Strategy.Flip(v)
	t.times.add(time.Since(start))
	return m
}

func (t *timedSeat) BeginGame(info sim.GameInfo) error { return t.obs.BeginGame(info) }
func (t *timedSeat) Observe(e sim.Event)               { t.obs.Observe(e) }
func (t *timedSeat) EndGame(o *sim.Outcome) error      { return t.obs.EndGame(o) }

func (t *timedSeat) Close() error {
	if c, ok := t.Strategy.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// checkConfig returns the configuration of the checks' games: the player (its command, option
// values and time per move) against the built-in, paired and luck-adjusted, at 12 pairs.
func (c *checker) checkConfig(values map[string]any) ([]byte, error) {
	player := map[string]any{"name": "player", "command": c.fl.argv, "time_per_move": c.fl.timePerMove.String()}
	if len(values) > 0 {
		player["options"] = values
	}
	cfg := map[string]any{
		"name": "engine-check", "seed": 1, "games": c.fl.games / 2, "workers": 1, "paired": true,
		"luck_adjusted": true, "rules": map[string]any{"pairs": []int{checkPairs}, "players_per_game": 2, "pass": "never"},
		"players": []any{player, map[string]any{"name": c.fl.against, "policy": c.fl.against}},
	}
	// JSON is YAML: the command's strings and the options' values keep their types.
	return json.Marshal(cfg)
}

// Games of the variants check.
const (
	variantGames     = 10
	variantCopies    = 4
	variantTurnLimit = 2 * checkPairs
)

// checkVariants plays variantGames games against daring under every rule variant the player
// declares, together, and prints the variants check.
func (c *checker) checkVariants(values map[string]any, declared []string) error {
	const name = "variants"
	r := map[string]any{"pairs": []int{checkPairs}, "players_per_game": 2, "pass": "never"}
	var v rules.Variant
	for _, d := range declared {
		switch d {
		case protocol.VariantCopies:
			r["copies"], v.Copies = variantCopies, variantCopies
		case protocol.VariantFlips:
			r["flips"], v.Flips = rules.FlipsBlind.String(), rules.FlipsBlind
		case protocol.VariantTurnLimit:
			r["turn_limit"], v.TurnLimit = variantTurnLimit, variantTurnLimit
		}
	}
	player := map[string]any{"name": "player", "command": c.fl.argv, "time_per_move": c.fl.timePerMove.String()}
	if len(values) > 0 {
		player["options"] = values
	}
	data, err := json.Marshal(map[string]any{"name": "engine-check-variants", "seed": 1, "games": variantGames, "workers": 1,
		"rules": r, "players": []any{player, map[string]any{"name": "daring", "policy": "daring"}}})
	if err != nil {
		return err
	}
	cfg, err := configs.Parse("engine check", data, tournament.ConfigOptions())
	if err != nil {
		return fmt.Errorf("the variant games' configuration: %w", err)
	}
	t, err := tournament.New(c.ctx, cfg)
	if err != nil {
		return badInput(err)
	}
	defer t.Close()
	if c.log != nil {
		t.Players[0].External.SetLog(c.log, c.where)
	}
	what := fmt.Sprintf("%s under %s against daring (%s, two seats, pass rule never)", count(variantGames, "game"), v, count(checkPairs, "pair"))
	if _, err := t.Play(c.ctx, tournament.Options{Workers: 1}); err != nil {
		if interrupted(err) {
			return err
		}
		c.line(name, "", fmt.Errorf("%s: %w", what, err))
		return nil
	}
	c.line(name, what+": every game played to its end, every reply legal", nil)
	return nil
}

// checkPlay plays the games against the built-in and prints the play, legal moves and time per
// move checks. It returns the player process of the games, for the restart check.
func (c *checker) checkPlay(values map[string]any) (*external.Player, error) {
	data, err := c.checkConfig(values)
	if err != nil {
		return nil, err
	}
	cfg, err := configs.Parse("engine check", data, tournament.ConfigOptions())
	if err != nil {
		return nil, fmt.Errorf("the games' configuration: %w", err)
	}
	t, err := tournament.New(c.ctx, cfg)
	if err != nil {
		return nil, badInput(err)
	}
	x := t.Players[0].External
	if c.log != nil {
		x.SetLog(c.log, c.where)
	}
	times := &replyTimes{}
	for i := range t.Matches {
		for k, id := range t.Matches[i].IDs {
			if id == 0 {
				t.Matches[i].Setup.Players[k].NewStrategy = func() sim.Strategy {
					s := x.Strategy()
					return &timedSeat{Strategy: s, obs: s.(sim.Observer), times: times}
				}
			}
		}
	}
	what := fmt.Sprintf("%s against %s (%s, each from both seats; %s, two seats, pass rule never, choices %s)",
		count(c.fl.games, "game"), c.fl.against, count(c.fl.games/2, "deal"), count(checkPairs, "pair"),
		strings.Join(strings.Split(rules.FullChoices.String(), ","), ", "))
	res, err := t.Play(c.ctx, tournament.Options{Workers: 1})
	if interrupted(err) {
		return x, err
	}
	if err != nil {
		c.line("play", "", fmt.Errorf("%s: the games stopped at an error (see legal moves)", what))
		c.line("legal moves", "", err)
	} else {
		strength, rerr := c.strength(t, res)
		if rerr != nil {
			return x, rerr
		}
		c.line("play", what+": "+strength, nil)
		c.line("legal moves", fmt.Sprintf("%s, every one legal", replies(times.n)), nil)
	}
	limit := c.fl.timePerMove
	switch {
	case times.n == 0:
		c.line("time per move", "", fmt.Errorf("no reply to time"))
	case times.slowest >= limit:
		c.line("time per move", "", fmt.Errorf("slowest reply %s, limit %v", durationText(times.slowest), limit))
	default:
		c.line("time per move", fmt.Sprintf("slowest reply %s of %s, limit %v", durationText(times.slowest),
			replies(times.n), limit), nil)
	}
	return x, nil
}

// strength says how the player fared: its luck-adjusted mean pairs per game over both seats and
// in each, with what the built-in scores in its place.
func (c *checker) strength(t *tournament.Tournament, res *tournament.MatchResults) (string, error) {
	run, err := t.Report(c.ctx, res)
	if err != nil {
		return "", err
	}
	exactBySeat, err := c.exactSelfPlay(t)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	half := float64(checkPairs) / 2
	if len(run.Pairings) == 1 {
		p := run.Pairings[0]
		mean, ci, adjusted := half+p.MeanAdvantage, [2]float64{half + p.CI95[0], half + p.CI95[1]}, "raw"
		if p.LuckAdjusted != nil {
			mean = half + p.LuckAdjusted.MeanAdvantage
			ci = [2]float64{half + p.LuckAdjusted.CI95[0], half + p.LuckAdjusted.CI95[1]}
			adjusted = "luck-adjusted"
		}
		fmt.Fprintf(&b, "%.3f pairs per game, 95%% interval [%.3f, %.3f], %s (%s is an even match)", mean, ci[0], ci[1], adjusted,
			ratText(new(big.Rat).SetFloat64(half)))
	}
	for seat := range 2 {
		mu := matchupWith(run, seat)
		if mu == nil {
			continue
		}
		mean, ci := mu.MeanPairs[seat], mu.CI95[seat]
		if mu.LuckAdjusted != nil {
			mean, ci = mu.LuckAdjusted.MeanPairs[seat], mu.LuckAdjusted.CI95[seat]
		}
		fmt.Fprintf(&b, "; seat %d: %.3f [%.3f, %.3f]", seat, mean, ci[0], ci[1])
		if exactBySeat != nil {
			fmt.Fprintf(&b, ", %s against itself %s (exact)", c.fl.against, ratText(exactBySeat[seat]))
		} else {
			fmt.Fprintf(&b, ", %s against itself: no exact value", c.fl.against)
		}
	}
	return b.String(), nil
}

// matchupWith returns the matchup in which the player sits in seat, or nil.
func matchupWith(run *report.Run, seat int) *report.Matchup {
	for i := range run.Matchups {
		if mu := &run.Matchups[i]; len(mu.Players) == 2 && mu.Players[seat] == "player" {
			return mu
		}
	}
	return nil
}

// exactSelfPlay returns the built-in's exact expected pairs in each seat of a game against
// itself, or nil where the solver has no value for it.
func (c *checker) exactSelfPlay(t *tournament.Tournament) ([]*big.Rat, error) {
	model, mu, ok := t.ExactModel(checkPairs, []int{1, 1})
	if !ok {
		return nil, nil
	}
	st := rules.State{N: checkPairs, J: checkPairs, S: model.Singletons, F: model.Singletons}
	r, err := exact.Evaluate(c.ctx, field.Rat{}, model, mu, st)
	if err != nil {
		return nil, fmt.Errorf("exact value of %s against itself: %w", c.fl.against, err)
	}
	return r.PairsBySeat, nil
}

// ratText writes an exact value: a whole number as it is, any other to 4 decimals.
func ratText(r *big.Rat) string {
	if r.IsInt() {
		return r.RatString()
	}
	return r.FloatString(4)
}

// checkRestart kills the processes of the games' player and plays one more game, which must
// start a new process.
func (c *checker) checkRestart(x *external.Player) {
	const name = "crash restart"
	defer x.Close()
	killed := x.Kill()
	killedText := "no process was running"
	if len(killed) > 0 {
		killedText = "killed " + pidList(killed) + " (SIGKILL to the process group)"
	}
	m, err := c.oneGame(x)
	if err != nil {
		c.line(name, "", err)
		return
	}
	if err := m.Validate(); err != nil {
		c.line(name, "", err)
		return
	}
	if _, err := m.Play(c.ctx, 1, nil); err != nil {
		c.line(name, "", fmt.Errorf("%s; a new process did not play a game: %w", killedText, err))
		return
	}
	fresh := x.Processes()
	if len(fresh) == 0 {
		c.line(name, "", fmt.Errorf("%s; no process played the game", killedText))
		return
	}
	c.line(name, fmt.Sprintf("%s; a new %s made its handshake and played a game", killedText, pidList(fresh)), nil)
}

// oneGame returns a match of one game of the player against the built-in, the player in seat 0.
func (c *checker) oneGame(x *external.Player) (*sim.Match, error) {
	b, err := strategies.Build(c.ctx, strategies.Spec{Name: c.fl.against, Policy: c.fl.against},
		strategies.Env{MaxPairs: checkPairs, Players: 2, Pass: rules.PassNever, Tables: strategies.NewTables()})
	if err != nil {
		return nil, err
	}
	player := sim.Player{Name: "player", NewStrategy: x.Strategy}
	return &sim.Match{Setup: sim.Setup{Pairs: checkPairs, Pass: rules.PassNever, Players: []sim.Player{player, b.Player}},
		Orders: [][]int{{0, 1}}, Deals: 1, Seed: 2}, nil
}

// replies writes a number of replies: "1 reply", "1,121 replies".
func replies(n int64) string {
	if n == 1 {
		return "1 reply"
	}
	return grouped(strconv.FormatInt(n, 10)) + " replies"
}

// pidList writes process ids: "process 12", "processes 12 and 13", "processes 12, 13 and 14".
func pidList(pids []int) string {
	slices.Sort(pids)
	s := make([]string, len(pids))
	for i, p := range pids {
		s[i] = strconv.Itoa(p)
	}
	switch len(s) {
	case 0:
		return "no process"
	case 1:
		return "process " + s[0]
	}
	return "processes " + strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// checkRoundTrip measures the time per decision over the protocol directly, on the process of
// the options check (a new one of x if it has stopped): requests one at a time, then many games
// at once.
func (c *checker) checkRoundTrip(x *external.Player, conn *external.Conn, info protocol.Player) {
	const name = "round trip"
	if conn == nil || conn.Err() != nil {
		var err error
		if conn, err = x.Dial(); err != nil {
			c.line(name, "", err)
			return
		}
	}
	rt := &roundTrip{conn: conn, view: info.View, deadline: c.fl.timePerMove}
	single := make([]time.Duration, 0, c.fl.rounds)
	for range c.fl.rounds {
		d, err := rt.round(1)
		if err != nil {
			c.line(name, "", fmt.Errorf("one request at a time: %w", err))
			return
		}
		single = append(single, d)
	}
	slices.Sort(single)
	var total time.Duration
	for range c.fl.rounds {
		d, err := rt.round(c.fl.batch)
		if err != nil {
			c.line(name, "", fmt.Errorf("%s at once: %w", count(c.fl.batch, "game"), err))
			return
		}
		total += d
	}
	perSec := float64(c.fl.batch*c.fl.rounds) / total.Seconds()
	c.line(name, fmt.Sprintf("one request at a time: %s per decision (median of %d); %s at once: %s decisions/s (%s); "+
		"bounded by the pipes, JSON on both sides and the player's language, not by the engine",
		durationText(single[len(single)/2]), c.fl.rounds, count(c.fl.batch, "game"), rateText(perSec), count(c.fl.rounds, "round")), nil)
}

// roundTrip speaks to a process directly: each round starts new games, sends a first-card
// request of a fresh deal for each in one write, and reads the replies.
type roundTrip struct {
	conn     *external.Conn
	view     string
	deadline time.Duration
	next     int64 // the next game id
	flushed  bool  // the options went out
}

// round starts n games with a request each and returns the time from the write to the last reply.
func (rt *roundTrip) round(n int) (time.Duration, error) {
	cards := 2 * checkPairs
	legal := make([]int, cards)
	for i := range legal {
		legal[i] = i
	}
	var choiceNames []string
	fresh := rules.State{N: checkPairs, J: checkPairs}
	for ch := rules.Choice(0); ch < rules.NumChoices; ch++ {
		if rules.Legal(fresh, ch, rules.PassNever) {
			choiceNames = append(choiceNames, ch.String())
		}
	}
	var all []string
	for ch := rules.Choice(0); ch < rules.NumChoices; ch++ {
		all = append(all, ch.String())
	}
	reqs := make(map[int64]*protocol.Move, n)
	for range n {
		id := rt.next
		rt.next++
		ng := &protocol.NewGame{Game: id, Seat: 0, Seed: id, Rules: protocol.Rules{Pairs: checkPairs, Seats: 2,
			Pass: rules.PassNever.String(), Choices: all}}
		req := &protocol.Move{Game: id, Card: 1, Legal: legal, DeadlineMS: int(max(rt.deadline.Milliseconds(), 1))}
		if rt.view == protocol.ViewState {
			req.State = &protocol.State{N: checkPairs, J: checkPairs}
			req.Choices = choiceNames
		}
		if err := rt.conn.Write(ng); err != nil {
			return 0, err
		}
		if err := rt.conn.Write(req); err != nil {
			return 0, err
		}
		reqs[id] = req
	}
	if !rt.flushed {
		// The options go out before the first round is timed.
		if err := rt.conn.Flush(); err != nil {
			return 0, err
		}
		rt.flushed = true
	}
	start := time.Now()
	if err := rt.conn.Flush(); err != nil {
		return 0, err
	}
	for range n {
		m, line, err := rt.conn.Read(rt.deadline)
		if err != nil {
			return 0, err
		}
		game, ok := protocol.ReplyGame(m)
		req := reqs[game]
		if !ok || req == nil {
			return 0, fmt.Errorf("line %d: a %s message, not a reply to a request in flight", line, m.Type())
		}
		if err := protocol.CheckReply(req, m); err != nil {
			return 0, fmt.Errorf("line %d: %s: %w", line, m.Type(), err)
		}
		delete(reqs, game)
	}
	return time.Since(start), nil
}

// durationText writes a duration to 3 significant digits in a unit that suits it: "48.2 µs",
// "1.25 ms", "2.00 s".
func durationText(d time.Duration) string {
	switch s := d.Seconds(); {
	case s >= 1:
		return significant(s, 3) + " s"
	case s >= 1e-3:
		return significant(s*1e3, 3) + " ms"
	default:
		return significant(s*1e6, 3) + " µs"
	}
}
