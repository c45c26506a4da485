package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"math/big"
	"strings"
	"sync/atomic"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// solveCommand returns memsim solve.
func solveCommand() *command {
	return &command{
		name: "solve",
		usage: []string{
			"memsim solve --pairs N [--unknown J] [--singletons S] [--unseen-singletons F]\n" +
				"[--memory M --forget handover-uniform|lru|decay] [--q Q] [--pass never|two-known|always]\n" +
				"[--choices LIST] [--players P] [--policy A] [--opponent B] [--lead D] [--standings LIST]\n" +
				"[--seats LIST] [--two-player-optimal] [--flips sequential|blind] [--turn-limit T]\n" +
				"[--first C] [--value-only] [--distribution] [--float] [--json] [--big]",
			"memsim solve --table --pairs-max N [model flags] [--flips sequential|blind] [--turn-limit T]\n" +
				"[--players P] [--policy win-optimal|win-best-response|best-response\n" +
				"[--opponent B]] [--seats LIST (--fluctuation S)] [--float] [--json] [--big]",
			"memsim solve --gerez --cards K --known B --paired P [--json] [--big]",
			"memsim solve --pairs N [--memory M --forget lru] --opponent-memory M2 [--pass RULE]\n" +
				"[--choices LIST] [--policy A] [--opponent B] [--float] [--json]",
			"memsim solve --pairs N [--unknown J] --memory M --forget lru|handover-uniform --fluctuation S\n" +
				"[--capacity C [--after-pass | --streak K] [--first CHOICE]] [--pass RULE] [--choices LIST] [--players P]\n" +
				"[--policy A] [--opponent B] [--seats LIST] [--lead D] [--standings LIST] [--distribution]\n" +
				"[--float] [--json] [--big]",
			"memsim solve --copies K (--pairs N | --faces STATE) [--memory M --forget handover-uniform | [--memory M] --forget decay --q Q]\n" +
				"[--choices LIST] [--players P] [--policy A] [--opponent B] [--seats LIST] [--two-player-optimal]\n" +
				"[--turn-limit T] [--standings LIST] [--first C] [--value-only] [--distribution] [--float] [--json] [--big]",
		},
		short: "exact values and strategy tables of a model",
		long: `
The mover (seat 0) plays --policy, every other seat --opponent; --seats gives every seat a policy
of its own (optimal, win-optimal, safe, daring or parity, and at one seat best-response or
win-best-response, the best reply to the others' policies; 3 to 8 seats). With 3 or more players
optimal is the optimum of every seat for itself (each maximises its own expected pairs);
--two-player-optimal plays the two-player optimum's choices instead (also under --fluctuation and
--copies; under a pass rule its choice just after a pass at every streak of one pass or more).
Under pass rules two-known and always, 3 or more players are solved with any memory (not
--two-player-optimal under decay), the values those of a turn that follows no pass (they depend
on how many seats passed in a row). With 3 to 8 players --distribution gives every seat's
distribution of its share (optimal, fixed policies per seat, best-response at one seat; perfect
memory, lru and handover-uniform of a fixed or fluctuating capacity, decay forgetting, every pass
rule, a stalemate sharing the pairs left in P-ths of a pair; under --turn-limit too, but not with
a fluctuating capacity or decay, and under --copies; for win-optimal and win-best-response with
perfect memory, every pass rule, after every seat's P(most pairs)). Defaults: J = N, S = 0, F = S,
M = 0 (perfect memory), pass never, every choice (daring,safe,known-first,pass), P = 2, policy
optimal, opponent = the policy, lead 0. Policies: optimal, safe, daring, parity, best-response
(the best reply to the other policy; with 3 or more players seat 0's best reply to --opponent at
every other seat, a fixed policy or optimal's table), and win-optimal and win-best-response,
which play to win (for two players they maximise P(win) + P(draw)/2, so their choice depends on
the mover's lead D so far, its pairs minus the other seat's; with 3 or more players
win-best-response maximises seat 0's P(most pairs) against --opponent at every other seat,
perfect memory, or lru, handover-uniform and decay, under every pass rule). With 3 or more players
win-optimal at every seat is the win objective of every seat for itself (each maximises its own
P(most pairs), a tie for the most shared, a stalemate giving every seat an equal share of the
pairs left; perfect memory, lru and handover-uniform, under every pass rule, and decay under
pass rule never, a stationary equilibrium selected where a forgotten card hands the state to
the next seat; under --turn-limit that turn uses a turn, so no equilibrium is selected: the
values are backward induction over the turns left, with perfect memory, lru and
handover-uniform): solve gives every
seat's P(most pairs), its chances of ending alone with the most and tied for it, and its expected
pairs, from --standings LIST, every seat's pairs so far, seat 0's first (default: none yet);
--standings with optimal, safe, daring or parity at every seat gives the same for that play, and
--seats mixing win-optimal with the others the same, each win-optimal seat maximising its own
P(most pairs) against the others' play (perfect memory, lru, handover-uniform, decay). --choices
restricts the choices of every seat: the published models use daring,safe (Sjölund & Åstrand,
Alfthan) or daring,safe,pass (Zwick & Paterson). --table prints the optimal strategy table, or with
--policy win-optimal (or win-best-response and --opponent) the table of that policy's choices at
every lead, or with --policy best-response --opponent B (two players) the best reply's choices (a
letter per state; under a pass rule a second letter, the choice just after a pass; the table the
engine plays). With --players P (3 to 8) it prints the table of every seat for itself: per state the
mover's choice (under a pass rule one per pass streak, the seats that passed in a row before the
turn) and every seat's expected pairs, or with --policy best-response --opponent B seat 0's best
reply to B at every other seat (its choice per state and pass streak; the table the engine plays;
no turn limit or fluctuation, text only); with --policy win-optimal, per state, the standings (every
seat's deficit to the most pairs so far) at which win-optimal chooses otherwise than the optimum in
pairs (--json: every state at every standings, with the seats' P(most pairs)). Under --fluctuation S
the table has a block per capacity drawn (at two seats the optimum's, best-response's to --opponent
B, under --turn-limit T too, or a policy's that plays to win; --json for the optimum's and
best-response's without a turn limit, a cell per capacity, n and j), at 3 or more seats the
choices only (a letter per pass streak under a pass rule), and with a seat that plays to win
(--policy win-optimal, with --opponent B, --seats LIST, or win-best-response --opponent B) a block
per seat that plays to win and capacity,
a row per state (and pass streak) with the standings at which the seat chooses otherwise than the
optimum in pairs; there --capacity C --streak K values seat 0's turn after K seats passed in a row
(3 or more seats under a pass rule: each choice's values and --first at that streak); --distribution
gives every seat's distribution of its share (optimal, safe, daring, also per seat, best-response at
one seat; under a pass rule in thirds, quarters ... of a pair, as a stalemate shares the pairs
left).
At 3 or more seats --table --turn-limit T prints a block per turns left (t=A..B for equal blocks):
the optimum's choices (a letter per pass streak under a pass rule) or, with --policy win-optimal,
per state the optimum's choice within the turns left and the standings at which win-optimal
chooses otherwise (the choices the engine reads; text only). At two seats --fluctuation S
--turn-limit T prints in each capacity's block a block per turns left (t=A..B for equal blocks);
there --capacity C values each choice with T turns left, and --distribution gives both seats'
shares taken by the limit. With --players 1 --fluctuation S (solitaire, pass
never) solve gives the expected turns and lucky matches of optimal, safe, daring and parity,
--capacity C each choice's turns after the draw, and --table the optimum's choices in a block per
capacity drawn (--json: a cell per capacity, n and j); not --distribution.

--flips blind solves the game in which both cards of a turn are named before either is turned up
(no singletons; perfect memory, or a shared lru or handover-uniform memory of capacity 3 or
more, lru also 2, at 1 to 8 seats: for the policies that play for pairs under every pass rule
without --turn-limit, solitaire under never, and under never with --turn-limit at 2 to 8; to win
at 2 to 8 under never without --turn-limit; with --fluctuation S at 2 seats under never without
--turn-limit, optimal, safe, daring, parity and best-response to one of them: the values, each
choice's values with --capacity, --distribution and --table). --turn-limit T ends the game after
T turns, the pairs left counting for nobody: the values count the pairs taken within the T turns
left in the state (one player: the expected pairs taken, turns and lucky matches), and a policy
that plays to win plays to win by then. Under a limit the list of the choices names as best,
with two players, the largest lead (the seats' pairs need not add up to those on the table),
with one player the most pairs taken and then the fewest turns. --table under a limit prints the
optimal table (or, with two players, the table of best-response, win-optimal or
win-best-response) for every number of turns left (blocks t=A..B of equal rows), and
--distribution the distribution of seat 0's pairs taken by the limit (the two seats' pairs need
not add up to N).

After the value of the policies, solve answers "what should I play here?": it lists every legal
choice of seat 0 (daring, safe, known-first, pass) with its expected pairs when made now, the
policies played afterwards, and for two players its score to win at the lead D (P(win) +
P(draw)/2, each choice now, then win-optimal for both seats, or the policies given when one plays
to win), and names the best by each measure. --value-only leaves the list out. --first C values
the state with seat 0 playing choice C now and its policy afterwards ("safe now, optimal
afterwards"); C must be legal in the state.

Before solving, memsim estimates the work and memory of the request; one estimated to take more
than 30 s on one core or 2 GiB is refused with the estimate, unless --big. A solve estimated to
take more than a few seconds shows its progress on stderr when that is a terminal.

--opponent-memory M2 solves two private lru memories of different capacities from the start of
a deal: seat 0 with lru(M) plays --policy, seat 1 with lru(M2) --opponent, each reading its own
memory's count state (optimal: the shared optimum of its own memory). A capacity of 0 is a
perfect memory: without --memory (or --forget) seat 0 has one, and --opponent-memory 0 gives
one to seat 1 (perfect memory against lru). Its choices default to daring,safe
(daring,safe,pass under a pass rule); known-first has no exact model here.

--copies K solves the model of K cards to a face (any two of a face match; no singletons;
perfect memory, a shared handover-uniform memory, --memory M --forget handover-uniform, or a
shared decay memory, --forget decay --q Q with or without --memory M; which seats, pass rules
and turn limits each memory solves is in docs/models.md §4.16) from the start of a game of
--pairs N pairs (N a multiple of K/2), or from --faces STATE: comma-separated groups R:Au+Bh,
A faces with R cards on the table none of which is remembered and B with one remembered
(4:3u+1h,2:2u). It gives the value of the policies (optimal, safe, daring,
best-response) and lists the value of each choice (without the scores to win); --first,
--distribution, --turn-limit and --flips blind go with it as in the standard game. With 3 to 8
players win-optimal (at every seat, or --seats beside optimal, safe and daring, or
win-best-response and --opponent) gives what it gives in the standard game, from --standings
LIST, without a turn limit.

A flag not given takes its default; a value given is used as it is: --pairs 0 and --players 0 are
errors, --memory 0 means perfect memory and --unknown 0 a state with every pair half known.
`,
		run: runSolve,
	}
}

// solveFlags holds the parsed flags of memsim solve.
type solveFlags struct {
	pairs, unknown, singletons, unseen, memory, players, pairsMax, lead int
	opponentMemory                                                      int
	fluctuation, capacity, streak                                       int
	forget, pass, policy, opponent, choices, first, seats               string
	decay                                                               float64
	table, distribution, float, json, valueOnly, twoPlayerOptimal       bool
	afterPass                                                           bool
	gerez, big                                                          bool
	cards, known, paired                                                int
	copies                                                              int
	faces                                                               string
	flips                                                               string
	turnLimit                                                           int
	standings                                                           string
	turnsMax                                                            int
}

func newSolveFlagSet(fl *solveFlags) *flag.FlagSet {
	fs := newFlagSet("memsim solve")
	fs.IntVar(&fl.pairs, "pairs", 0, "`N` pairs on the table (at least 1)")
	fs.IntVar(&fl.unknown, "unknown", -1, "`J` pairs with no card known, 0..N (default: N)")
	fs.IntVar(&fl.singletons, "singletons", 0, "`S` singletons on the table: with perfect memory, or a shared memory that forgets by --forget handover-uniform (--fluctuation F too) or decay; lru is refused. Which seats, pass rules, --turn-limit, --flips blind, policies and outputs each model solves: docs/models.md §4.4, §4.14, §4.17; what it does not is refused in one line")
	fs.IntVar(&fl.unseen, "unseen-singletons", -1, "`F` singletons not yet seen, 0..S (default: S)")
	fs.IntVar(&fl.memory, "memory", 0, "shared memory capacity `M` (0: perfect memory; otherwise at least 2)")
	fs.StringVar(&fl.forget, "forget", "", "forgetting `rule` with --memory: handover-uniform or lru; or decay, with or without --memory")
	fs.IntVar(&fl.fluctuation, "fluctuation", 0, "with --memory M --forget lru or handover-uniform: the capacity of every turn is max(2, M + d), d uniform on -`S` .. S; the state is before the draw, each choice's values need --capacity C. Which seats, pass rules, --turn-limit, --flips blind, singletons, policies and outputs are solved: docs/models.md §4.4, §4.17; the rest is refused in one line")
	fs.IntVar(&fl.capacity, "capacity", 0, "with --fluctuation S: the capacity `C` drawn for seat 0's turn now, M - S .. M + S (at least 2); the state is then the one after the draw and solve gives each choice's values and --first (3 or more players: the turn after no pass, or after --streak K passes)")
	fs.IntVar(&fl.streak, "streak", 0, "with --fluctuation S --capacity C, 3 or more players and --pass two-known or always: the pass streak `K` before seat 0's turn, the seats that passed in a row just before it, 0 .. P-1 (at P-1 a pass ends the game in a stalemate)")
	fs.BoolVar(&fl.afterPass, "after-pass", false, "with --fluctuation S --capacity C and --pass two-known or always: seat 0's turn comes just after a pass by seat 1 (a pass now ends the game in a stalemate)")
	fs.Float64Var(&fl.decay, "q", 0, "with --forget decay: the probability `Q` (0 < Q <= 1) that each remembered card is forgotten at a hand-over, solved as the exact decimal written")
	fs.IntVar(&fl.opponentMemory, "opponent-memory", 0, "seat 1's private lru capacity `M2` (0: perfect memory) against seat 0's private lru(M) (with --memory M --forget lru) or perfect memory (without --memory), from the start of a deal")
	fs.StringVar(&fl.pass, "pass", "never", "pass `rule`: never, two-known or always")
	fs.StringVar(&fl.flips, "flips", "sequential", "flip `rule`: sequential, or blind (both cards named before either is turned up; which memories, seats and outputs are solved: docs/models.md §4.17)")
	fs.IntVar(&fl.turnLimit, "turn-limit", 0, "end the game after `T` turns, the pairs left counting for nobody (0: no limit)")
	fs.StringVar(&fl.choices, "choices", rules.FullChoices.String(), "the choices a mover may make, a comma-separated `LIST` of daring, safe, known-first and pass that includes daring")
	fs.IntVar(&fl.players, "players", 2, "`P` players (1 to 8; 1 is solitaire)")
	fs.StringVar(&fl.policy, "policy", "optimal", "the mover's `policy`")
	fs.StringVar(&fl.opponent, "opponent", "", "the other seats' `policy` (default: the mover's)")
	fs.StringVar(&fl.seats, "seats", "", "every seat's `policy`, seat 0's first, comma-separated: optimal, win-optimal, safe, daring or parity (3 to 8 seats; sets --players)")
	fs.BoolVar(&fl.twoPlayerOptimal, "two-player-optimal", false, "with 3 or more players, optimal plays the two-player optimum's choices instead of every seat's own optimum")
	fs.IntVar(&fl.lead, "lead", 0, "the mover's lead `D` so far, its pairs minus the other seat's (two players; -1000000..1000000)")
	fs.StringVar(&fl.standings, "standings", "", "with --players P (3 or more) --policy win-optimal, or --seats: every seat's pairs so far, seat 0's first, a comma-separated `LIST` (default: none yet); with --distribution every seat's share of the pairs left, its pairs so far not counted")
	fs.StringVar(&fl.first, "first", "", "seat 0's `choice` now, its --policy afterwards: daring, safe, known-first or pass (legal in the state)")
	fs.BoolVar(&fl.valueOnly, "value-only", false, "print the value of the policies only, not the value of each legal choice")
	fs.BoolVar(&fl.table, "table", false, "print the strategy table for every state with n <= --pairs-max (2 players, or with --players 3 to 8 every seat for itself or one seat's best reply, or with --players 1 solitaire's optimum)")
	fs.IntVar(&fl.pairsMax, "pairs-max", 0, "largest `N` of the table")
	fs.BoolVar(&fl.distribution, "distribution", false, "also give the exact distribution of seat 0's final share (2 players); with 3 to 8 players every seat's, with perfect memory, lru or handover-uniform (a fixed or fluctuating capacity), under a turn limit too (a fixed or fluctuating capacity), with --copies K (every pass rule; perfect memory, a shared handover-uniform or decay memory; a turn limit with perfect memory), under decay (a turn limit too), and with a policy that plays to win with perfect memory or lru and handover-uniform of a fixed capacity (every pass rule, no turn limit; from --standings each seat's share of the pairs left, its pairs so far not counted); with --players 1 solitaire's distribution of the number of turns up to --turns-max (decay forgetting, --copies K and a turn limit too, the last with the probability that the limit stops the game; --copies K without a limit, perfect memory or a shared handover-uniform or decay memory)")
	fs.IntVar(&fl.turnsMax, "turns-max", 0, "with --distribution --players 1: give the distribution of the number of turns up to `T` turns and the probability of more (default 4 × (pairs + singletons), every game of a memory that never forgets; under --turn-limit the limit)")
	fs.BoolVar(&fl.float, "float", false, "compute in float64 instead of exact rationals")
	fs.BoolVar(&fl.json, "json", false, "print one JSON object")
	fs.BoolVar(&fl.big, "big", false, fmt.Sprintf("solve even when the solve is estimated to take more than %d s or %d GiB, and give the choices' scores to win even when estimated at more than %d s", bigSeconds, bigBytes>>30, winChoicesSeconds))
	fs.BoolVar(&fl.gerez, "gerez", false, "solve Gerez's state <k, B, P> (perfect memory, pass always) with --cards, --known, --paired")
	fs.IntVar(&fl.cards, "cards", 0, "with --gerez: `K` cards on the table (even, at least 2)")
	fs.IntVar(&fl.known, "known", 0, "with --gerez: `B` known cards")
	fs.IntVar(&fl.paired, "paired", 0, "with --gerez: `P` known cards whose partner is known (even)")
	fs.IntVar(&fl.copies, "copies", 0, "solve the copies model: `K` cards to a face, even, 2 to 64, with perfect memory or a shared handover-uniform (--memory M) or decay (--forget decay --q Q) memory, no singletons; which seats, pass rules, --turn-limit, --flips blind, policies and outputs are solved: docs/models.md §4.16; the rest is refused in one line")
	fs.StringVar(&fl.faces, "faces", "", "with --copies: the `STATE` to solve from, comma-separated groups R:Au+Bh (A unknown and B half-known faces with R cards on the table; default: the start of the game)")
	return fs
}

func runSolve(ctx context.Context, c *command, inv invocation, args []string) int {
	var fl solveFlags
	fs := newSolveFlagSet(&fl)
	if code, done := c.parseFlags(fs, args, inv); done {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(inv.stderr, "memsim solve: unexpected argument %q (all input is given by flags; see memsim solve -h)\n", fs.Arg(0))
		return exitUsage
	}
	set := given(fs)
	if fl.gerez {
		return exitFor(fs.Name(), solveGerez(ctx, fl, fs, inv), inv.stderr)
	}
	if set["opponent-memory"] {
		return exitFor(fs.Name(), solveUnequal(ctx, fl, set, inv.stdout), inv.stderr)
	}
	for _, name := range []string{"cards", "known", "paired"} {
		if set[name] {
			fmt.Fprintf(inv.stderr, "memsim solve: --%s goes with --gerez\n", name)
			return exitUsage
		}
	}
	if set["copies"] || set["faces"] {
		return exitFor(fs.Name(), solveCopies(ctx, fl, fs, inv), inv.stderr)
	}
	return exitFor(fs.Name(), solve(ctx, fl, fs, inv), inv.stderr)
}

// solve answers the request of the flags fl, parsed by fs: it checks the flags and the cost of
// the request, then solves, writing the answer to inv's stdout and the progress of a long solve
// to its stderr when that is a terminal.
func solve(ctx context.Context, fl solveFlags, fs *flag.FlagSet, inv invocation) error {
	q, err := fl.query(given(fs))
	if err != nil {
		return err
	}
	c, err := q.cost()
	if err != nil {
		return badInput(err)
	}
	if err := checkCost(c, fl.big, fs); err != nil {
		return err
	}
	var done atomic.Int64
	prog := startSolveProgress(inv.stderr, c, &done)
	out := bufio.NewWriter(inv.stdout)
	err = q.run(exact.WithProgress(ctx, &done), out)
	prog.finish()
	if ferr := out.Flush(); err == nil && ferr != nil {
		err = fmt.Errorf("writing output: %w", ferr)
	}
	return err
}

// solveQuery is a validated memsim solve request.
type solveQuery struct {
	model    exact.Model
	matchup  exact.Lineup
	state    rules.State
	pairsMax int
	table    bool
	dist     bool
	float    bool
	json     bool
	// opponentGiven says whether --opponent was given (otherwise the others play the policy).
	opponentGiven bool
	// first is --first, seat 0's choice now (nil: its policy's).
	first *rules.Choice
	// capacity is --capacity, the capacity drawn for seat 0's turn under a fluctuating capacity
	// (0: before the draw), afterPass --after-pass, that turn just after a pass by seat 1 (two
	// players), and streak --streak, the seats that passed in a row before it (3 or more).
	capacity  int
	afterPass bool
	streak    int
	// choices asks for the value of every legal choice (not --value-only); winLineup, when not
	// nil, for their values to win with that lineup afterwards, at the cost winCost; winLeftOut
	// says why not, when they are left out.
	choices    bool
	winLineup  *exact.Lineup
	winCost    exact.Cost
	winLeftOut string
	// standings is --standings, every seat's pairs so far (win-optimal at three or more seats).
	standings []int
	// turnsMax is --turns-max, the turns up to which solitaire's distribution of the number of
	// turns is given (0: exact.DefaultMaxTurns).
	turnsMax int
}

// query validates the flags (set names those given on the command line).
func (fl *solveFlags) query(set map[string]bool) (*solveQuery, error) {
	q := &solveQuery{table: fl.table, dist: fl.distribution, float: fl.float, json: fl.json}
	pass, err := rules.ParsePassRule(fl.pass)
	if err != nil {
		return nil, usagef("--pass %q: unknown rule (allowed: never, two-known, always)", fl.pass)
	}
	q.model.Pass = pass
	if err := fl.variant(q); err != nil {
		return nil, err
	}
	if q.model.Choices, err = rules.ParseChoiceSet(fl.choices); err != nil {
		return nil, usagef("--choices %q: %v", fl.choices, err)
	}
	if fl.singletons < 0 || fl.singletons > exact.MaxSingletons {
		return nil, usagef("--singletons %d: must be between 0 and %d", fl.singletons, exact.MaxSingletons)
	}
	q.model.Singletons = fl.singletons
	switch {
	case fl.memory < 0 || fl.memory == 1:
		return nil, usagef("--memory %d: must be 0 (perfect memory) or at least 2", fl.memory)
	case set["q"] && fl.forget != "decay":
		return nil, usagef("--q %g goes with --forget decay", fl.decay)
	case fl.forget == "decay":
		if !set["q"] {
			return nil, requiredWith("--q Q", "--forget decay", "the probability that each remembered card is forgotten at a hand-over, 0 < Q <= 1")
		}
		if !(fl.decay > 0 && fl.decay <= 1) {
			return nil, usagef("--q %g: must be in (0, 1]", fl.decay)
		}
		q.model.Memory = rules.Memory{Capacity: fl.memory, Forget: rules.ForgetDecay, Decay: fl.decay}
		if err := q.model.Validate(); err != nil {
			return nil, usagef("--forget decay: %v", err)
		}
	case fl.memory == 0 && set["forget"]:
		return nil, usagef("--forget %s needs --memory M with M >= 2", fl.forget)
	case fl.memory > 0:
		if !set["forget"] {
			return nil, requiredWith("--forget RULE", fmt.Sprintf("--memory %d", fl.memory), "the forgetting rule of the limited memory (allowed: handover-uniform, lru, decay)")
		}
		fg, err := rules.ParseForgetting(fl.forget)
		if err != nil || (fg != rules.ForgetHandoverUniform && fg != rules.ForgetLRU) {
			return nil, usagef("--forget %q: no exact model (allowed: handover-uniform, lru, decay)", fl.forget)
		}
		if fl.singletons > 0 && fg == rules.ForgetLRU {
			return nil, usagef("--singletons %d with --forget lru: no exact model (the count state does not say which card lru forgets; use --forget handover-uniform or --memory 0)", fl.singletons)
		}
		q.model.Memory = rules.Memory{Capacity: fl.memory, Forget: fg}
	}
	if set["fluctuation"] {
		if err := fl.fluctuationQuery(q, set); err != nil {
			return nil, err
		}
	} else if set["capacity"] {
		return nil, usagef("--capacity %d goes with --fluctuation S", fl.capacity)
	} else if set["after-pass"] {
		return nil, usagef("--after-pass goes with --fluctuation S --capacity C and --pass two-known or always")
	} else if set["streak"] {
		return nil, usagef("--streak %d goes with --fluctuation S --capacity C, 3 or more players and --pass two-known or always (without a fluctuating capacity the values are of the turn after no pass)", fl.streak)
	}
	if set["turns-max"] && (q.table || !q.dist || fl.players != 1) {
		return nil, usagef("--turns-max goes with --distribution --players 1 (solitaire's distribution of the number of turns)")
	}
	if set["turns-max"] && fl.turnsMax < 1 {
		return nil, usagef("--turns-max %d: must be at least 1", fl.turnsMax)
	}
	q.turnsMax = fl.turnsMax
	if q.table {
		if err := fl.tableQuery(q, set); err != nil {
			return nil, err
		}
		return q, q.checkSize(q.pairsMax, "--pairs-max")
	}
	if set["pairs-max"] {
		return nil, usagef("--pairs-max goes with --table")
	}
	if fl.pairs < 1 {
		if !set["pairs"] {
			return nil, required("--pairs N", "the pairs on the table, a whole number of at least 1")
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
	if st.F, err = fl.unseenSingletons(set); err != nil {
		return nil, err
	}
	if q.capacity > 0 && q.model.Memory.Forget == rules.ForgetLRU && st.Known() > q.capacity {
		return nil, usagef("--unknown %d: %d known cards exceed --capacity %d, which lru keeps after the draw (need --unknown >= %d)",
			st.J, st.Known(), q.capacity, st.N-q.capacity)
	}
	if mx := q.model.Memory.Capacity + q.model.Memory.Fluctuation; q.model.Memory.Fluctuation > 0 && st.Known() > mx {
		return nil, usagef("--unknown %d: %d known cards exceed the largest capacity %d of --memory %d --fluctuation %d (need --unknown >= %d)",
			st.J, st.Known(), mx, fl.memory, fl.fluctuation, st.N-mx)
	}
	if q.model.Memory.Fluctuation == 0 && !q.model.Memory.Holds(st.Known()) {
		return nil, usagef("--unknown %d: %d known cards exceed --memory %d (need --unknown >= %d)",
			st.J, st.Known(), fl.memory, st.N+st.S-st.F-fl.memory)
	}
	if fl.lead < -exact.MaxLead || fl.lead > exact.MaxLead {
		return nil, usagef("--lead %d: must be between %d and %d", fl.lead, -exact.MaxLead, exact.MaxLead)
	}
	st.Lead = fl.lead
	q.state = st
	if fl.players < 1 || fl.players > rules.MaxPlayers {
		return nil, usagef("--players %d: must be between 1 and %d", fl.players, rules.MaxPlayers)
	}
	if err := fl.lineup(q, set); err != nil {
		return nil, err
	}
	if err := q.checkMatchup(set["opponent"], set["seats"]); err != nil {
		return nil, err
	}
	if set["streak"] {
		if err := q.setStreak(fl.streak); err != nil {
			return nil, err
		}
	}
	if fl.lead != 0 && q.matchup.Players != 2 {
		return nil, usagef("--lead %d with --players %d: the lead is defined for 2 players", fl.lead, q.matchup.Players)
	}
	q.opponentGiven = set["opponent"] || set["seats"]
	if set["standings"] {
		if err := q.setStandings(fl.standings); err != nil {
			return nil, err
		}
	}
	if set["first"] {
		if err := q.setFirst(fl.first); err != nil {
			return nil, err
		}
	}
	if err := q.checkSize(q.state.N, "--pairs"); err != nil {
		return nil, err
	}
	q.choices = !fl.valueOnly
	q.planWinChoices(fl.big)
	return q, nil
}

// lineup sets the matchup of --players, --policy and --opponent, or of --seats, and
// --two-player-optimal.
func (fl *solveFlags) lineup(q *solveQuery, set map[string]bool) error {
	var err error
	if set["seats"] {
		if set["policy"] || set["opponent"] {
			return usagef("--seats goes without --policy and --opponent (it names every seat's policy)")
		}
		names := strings.Split(fl.seats, ",")
		if len(names) < 3 || len(names) > rules.MaxPlayers {
			return usagef("--seats %q: %d policies, must be 3 to %d (one per seat)", fl.seats, len(names), rules.MaxPlayers)
		}
		if set["players"] && fl.players != len(names) {
			return usagef("--players %d with --seats %q: %d seats", fl.players, fl.seats, len(names))
		}
		pols := make([]rules.Policy, len(names))
		for i, name := range names {
			p, err := rules.ParsePolicy(strings.TrimSpace(name))
			if err != nil || (p != rules.PolicyOptimal && p != rules.PolicyWinOptimal && p.Opponents() == nil && !p.Fixed()) {
				return usagef("--seats %q: seat %d: %q is not a policy a seat may play here (allowed: optimal, win-optimal, best-response, win-best-response, safe, daring, parity)", fl.seats, i, name)
			}
			pols[i] = p
		}
		q.matchup = exact.SeatLineup(pols...)
	} else {
		q.matchup.Players = fl.players
		if q.matchup.Policy, err = parsePolicy("--policy", fl.policy); err != nil {
			return err
		}
		q.matchup.Opponent = q.matchup.Policy
		if set["opponent"] {
			if q.matchup.Opponent, err = parsePolicy("--opponent", fl.opponent); err != nil {
				return err
			}
		}
	}
	if fl.twoPlayerOptimal {
		if q.matchup.Players < 3 {
			return usagef("--two-player-optimal with --players %d: it goes with 3 or more players", q.matchup.Players)
		}
		q.matchup.TwoPlayerOptimal = true
	}
	return nil
}

// checkSize refuses a request beyond the solver's bounds (exact.CheckSize), naming the flag that
// sets its size.
func (q *solveQuery) checkSize(n int, flagName string) error {
	err := exact.CheckSize(q.model, q.matchup, n, q.float)
	var se *exact.SizeError
	if !errors.As(err, &se) {
		return badInput(err)
	}
	hint := ""
	if !q.float {
		hint = " (or use --float)"
	}
	if se.TooManyPairs() {
		return usagef("%s %d: must be at most %d%s", flagName, n, se.MaxPairs, hint)
	}
	return usagef("%s %d with --singletons %d: %.0f states, at most %.0f%s", flagName, n, se.Singletons, se.States, se.MaxStates, hint)
}

// seatNames lists every seat's policy, comma-separated.
func seatNames(mu exact.Lineup) string {
	var names []string
	for _, p := range mu.SeatPolicies() {
		names = append(names, p.String())
	}
	return strings.Join(names, ",")
}

func parsePolicy(flagName, name string) (rules.Policy, error) {
	p, err := rules.ParsePolicy(name)
	if err != nil {
		return 0, usagef("%s %q: unknown policy (allowed: %s)", flagName, name, strings.Join(rules.PolicyNames(), ", "))
	}
	return p, nil
}

// checkMatchup asks the solver whether it can evaluate the matchup in the model; hasOpponent
// and hasSeats say whether --opponent and --seats were given.
func (q *solveQuery) checkMatchup(hasOpponent, hasSeats bool) error {
	mu := q.matchup
	if allowed := mu.Policy.Opponents(); allowed != nil && !hasOpponent && !hasSeats && mu.Players > 1 {
		var names []string
		for _, p := range allowed {
			names = append(names, p.String())
		}
		return requiredWith("--opponent B", "--policy "+mu.Policy.String(), "the policy it answers (allowed: %s)", strings.Join(names, ", "))
	}
	if err := mu.Validate(q.model); err != nil {
		given := fmt.Sprintf("--players %d", mu.Players)
		if q.model.Pass != rules.PassNever {
			given += " --pass " + q.model.Pass.String()
		}
		if !q.model.Choices.Full() {
			given += " --choices " + q.model.Choices.String()
		}
		if mu.PerSeat || hasSeats {
			given += " --seats " + seatNames(mu)
		} else {
			given += " --policy " + mu.Policy.String()
			if mu.Players > 1 {
				given += " --opponent " + mu.Opponent.String()
			}
		}
		return usagef("%s: %v", given, err)
	}
	if q.dist && mu.Players == 1 {
		if err := exact.CheckSolitaireTurnsOf(q.model); err != nil {
			return usagef("--distribution with --players 1: %v", err)
		}
	}
	if q.dist && mu.Players >= 3 {
		if err := exact.CheckSeatsDistribution(q.model, mu); err != nil {
			return usagef("--distribution with --players %d: %v", mu.Players, err)
		}
	}
	return nil
}

func (q *solveQuery) run(ctx context.Context, w *bufio.Writer) error {
	if q.float {
		return runQuery[float64](ctx, q, field.Float{}, w)
	}
	return runQuery[*big.Rat](ctx, q, field.Rat{}, w)
}

// unseenSingletons is --unseen-singletons, checked against --singletons (which it defaults to).
func (fl *solveFlags) unseenSingletons(set map[string]bool) (int, error) {
	if !set["unseen-singletons"] {
		return fl.singletons, nil
	}
	if fl.unseen < 0 || fl.unseen > fl.singletons {
		return 0, usagef("--unseen-singletons %d: must be between 0 and --singletons %d", fl.unseen, fl.singletons)
	}
	return fl.unseen, nil
}

// variant sets the model's rule variant of --flips and --turn-limit, refusing the models that
// have no exact solution under it.
func (fl *solveFlags) variant(q *solveQuery) error {
	flips, err := rules.ParseFlips(fl.flips)
	if err != nil {
		return usagef("--flips %q: unknown rule (allowed: sequential, blind)", fl.flips)
	}
	if fl.turnLimit < 0 {
		return usagef("--turn-limit %d: must be at least 1 (or 0 for no limit)", fl.turnLimit)
	}
	if flips == rules.FlipsBlind {
		switch {
		case fl.singletons != 0 && (fl.memory != 0 || fl.forget != "" || fl.fluctuation != 0) &&
			(fl.forget != "handover-uniform" || fl.fluctuation != 0):
			return usagef("--flips blind with --singletons %d: blind flips with singletons have an exact model with perfect memory or a handover-uniform memory of a fixed capacity only (use --memory 0, --forget handover-uniform without --fluctuation, or --singletons 0)", fl.singletons)
		}
	}
	q.model.Variant = rules.Variant{Flips: flips, TurnLimit: fl.turnLimit}
	return nil
}
