package main

import (
	"context"
	"math/big"
	"strconv"
	"strings"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
	"memsim/strategies"
)

// seatsReplyCase is the table of seat 0's best reply to one policy at every other seat of a game
// of three or more seats.
type seatsReplyCase struct {
	policyTableCase
	players int
}

func (c seatsReplyCase) args() []string {
	return append(c.policyTableCase.args(), "--players", strconv.Itoa(c.players))
}

// lineup is the case's lineup with the reply at seat 0.
func (c seatsReplyCase) lineup(t *testing.T) exact.Lineup {
	t.Helper()
	opp, err := rules.ParsePolicy(c.opponent)
	if err != nil {
		t.Fatal(err)
	}
	return exact.Lineup{Players: c.players, Policy: rules.PolicyBestResponse, Opponent: opp}
}

// engineTable builds the table the engine plays for a best-response player at a table of the
// case's seats, as a tournament player of that policy gets it.
func (c seatsReplyCase) engineTable(t *testing.T) *rules.ChoiceTable {
	t.Helper()
	env := strategies.Env{MaxPairs: c.pairsMax, Singletons: c.single, Players: c.players, Pass: c.pass, Variant: c.variant(0)}
	return buildEngineTable(t, c.policy, c.opponent, c.mem, env)
}

// seatsReplyCell is one choice read back from a printed table: in st after passes seats passed in
// a row.
type seatsReplyCell struct {
	st     rules.State
	passes int
	choice rules.Choice
}

// readSeatsReplyTable reads every choice of a printed reply table back: a row "n j: ..." per
// state the memory allows, one letter, or under a pass rule one per pass streak 0 .. P-1.
func readSeatsReplyTable(t *testing.T, c seatsReplyCase, out string) []seatsReplyCell {
	t.Helper()
	letters := map[string]rules.Choice{}
	for _, ch := range rules.Choices() {
		letters[string(choiceLetters[ch])] = ch
	}
	streaks := 1
	if c.pass != rules.PassNever {
		streaks = c.players
	}
	var cells []seatsReplyCell
	for _, row := range strings.Split(strings.TrimSpace(out), "\n") {
		if strings.HasPrefix(row, "#") {
			continue
		}
		head, rest, ok := strings.Cut(row, ":")
		f := strings.Fields(head)
		if !ok || len(f) != 2 {
			t.Fatalf("%q: row %q", c.args(), row)
		}
		n, err1 := strconv.Atoi(f[0])
		j, err2 := strconv.Atoi(f[1])
		words := strings.Fields(rest)
		if err1 != nil || err2 != nil || len(words) != streaks {
			t.Fatalf("%q: row %q, want n j: and %d letters", c.args(), row, streaks)
		}
		st := rules.State{N: n, J: j, S: c.single, F: c.single}
		for k, word := range words {
			ch, ok := letters[word]
			if !ok {
				t.Fatalf("%q: row %q: %q is no choice", c.args(), row, word)
			}
			cells = append(cells, seatsReplyCell{st: st, passes: k, choice: ch})
		}
	}
	return cells
}

// seatsReplyChoice returns the reply's choice in st after k seats passed in a row by another
// route than its table: the largest of its own expected pairs among the values of the lineup's
// choices there (exact.ChoiceValues, the lineup played afterwards), ties in the order daring,
// safe, known-first, pass. Daring, safe and known-first are worth the same at every streak
// (they end it); a pass at streak P-1 ends the game in the stalemate, n/P pairs to every seat; a
// pass at a streak k < P-1 hands the state to seat 1 at k+1: against a fixed policy, which never
// passes, that is ChoiceValues' pass; against optimal, the seats after seat 0 play the optimum's
// table (opt) at their streaks until one does not pass, and seat 0 gets its pairs of that seat's
// choice, from ChoiceValues of the lineup turned to put that seat first, or the stalemate.
func seatsReplyChoice(t *testing.T, c seatsReplyCase, cs exact.Choices[*big.Rat], opt *rules.ChoiceTable, st rules.State, k int) rules.Choice {
	t.Helper()
	f := field.Rat{}
	p := c.players
	m := c.model(0)
	stalemate := f.Div(f.FromInt(int64(st.N)), f.FromInt(int64(p)))
	passValue := func() *big.Rat {
		if k == p-1 {
			return stalemate
		}
		v, ok := cs.Of(rules.Pass)
		if !ok {
			t.Fatalf("%v: pass is not legal", st)
		}
		if c.opponent != "optimal" || k == 0 {
			return v.Pairs
		}
		if m.Memory.Forget == rules.ForgetDecay {
			t.Fatalf("%q: a pass changes the state under decay; this route reads the same state at the next streak", c.args())
		}
		for i := 1; k+i < p; i++ {
			ch, ok := opt.LookupPasses(st, k+i)
			if !ok {
				t.Fatalf("%v: the optimum's table has no choice after %d passes", st, k+i)
			}
			if ch == rules.Pass {
				continue
			}
			seats := make([]rules.Policy, p)
			for s := range seats {
				seats[s] = rules.PolicyOptimal
			}
			seats[p-i] = rules.PolicyBestResponse // seat 0, with seat i first
			turned, err := exact.ChoiceValues(context.Background(), f, m, exact.SeatLineup(seats...), st)
			if err != nil {
				t.Fatalf("%v seats %v: %v", st, seats, err)
			}
			v, ok := turned.Of(ch)
			if !ok {
				t.Fatalf("%v: the optimum's choice %s is not legal", st, ch)
			}
			return v.PairsBySeat[p-i]
		}
		return stalemate
	}
	var best rules.Choice
	var bestPairs *big.Rat
	found := false
	for _, v := range cs.Values { // in the order daring, safe, known-first, pass
		pairs := v.Pairs
		if v.Choice == rules.Pass {
			pairs = passValue()
		}
		if !found || f.Cmp(pairs, bestPairs) > 0 {
			best, bestPairs, found = v.Choice, pairs, true
		}
	}
	if !found {
		t.Fatalf("%v: no legal choice", st)
	}
	return best
}

func seatsReplyCases() []seatsReplyCase {
	br := func(opp string, players, pairsMax int, pass rules.PassRule) seatsReplyCase {
		return seatsReplyCase{policyTableCase{policy: "best-response", opponent: opp, pairsMax: pairsMax, pass: pass}, players}
	}
	lru2 := rules.Memory{Capacity: 2, Forget: rules.ForgetLRU}
	out := []seatsReplyCase{
		br("daring", 3, 3, rules.PassAlways),
		br("optimal", 3, 3, rules.PassAlways),
		br("safe", 3, 4, rules.PassNever),
	}
	if !testing.Short() {
		withMem := func(c seatsReplyCase, mem rules.Memory) seatsReplyCase { c.mem = mem; return c }
		single := br("optimal", 3, 3, rules.PassTwoKnown)
		single.single = 1
		blind := br("daring", 3, 3, rules.PassTwoKnown)
		blind.blind = true
		out = append(out,
			br("optimal", 4, 4, rules.PassTwoKnown),
			br("safe", 5, 3, rules.PassAlways),
			withMem(br("daring", 3, 4, rules.PassAlways), lru2),
			withMem(br("optimal", 3, 4, rules.PassAlways), lru2),
			withMem(br("parity", 3, 4, rules.PassAlways), rules.Memory{Capacity: 2, Forget: rules.ForgetHandoverUniform}),
			withMem(br("daring", 3, 3, rules.PassTwoKnown), rules.Memory{Capacity: 3, Forget: rules.ForgetDecay, Decay: 0.5}),
			withMem(br("safe", 4, 3, rules.PassNever), rules.Memory{Capacity: 3, Forget: rules.ForgetDecay, Decay: 0.5}),
			single, blind)
	}
	return out
}

// --table --players P --policy best-response --opponent X prints, in every state and at every
// pass streak, the choice the engine's best-response player at P seats makes there; each is also
// the best of the reply's own expected pairs among the values of the lineup's choices in that
// state. The reply to daring chooses otherwise than the optimum at P seats somewhere.
func TestSolveSeatsReplyTableIsTheReplysChoice(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := field.Rat{}
	for _, c := range seatsReplyCases() {
		args := c.args()
		out, stderr, code := runArgs(t, args...)
		if code != exitOK {
			t.Fatalf("%q: exit %d: %s", args, code, stderr)
		}
		tab := c.engineTable(t)
		opt, err := exact.PolicyTable(ctx, f, c.model(0), exact.Lineup{Players: c.players, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}, c.pairsMax)
		if err != nil {
			t.Fatal(err)
		}
		mu := c.lineup(t)
		cells := readSeatsReplyTable(t, c, out)
		differs := false
		var cs exact.Choices[*big.Rat]
		for i, cell := range cells {
			want, ok := tab.LookupPasses(cell.st, cell.passes)
			if !ok || cell.choice != want {
				t.Errorf("%q %v after %d passes: printed %s, the engine's %s", args, cell.st, cell.passes, cell.choice, want)
			}
			if o, _ := opt.LookupPasses(cell.st, cell.passes); o != cell.choice {
				differs = true
			}
			if i == 0 || cells[i-1].st != cell.st {
				if cs, err = exact.ChoiceValues(ctx, f, c.model(0), mu, cell.st); err != nil {
					t.Fatalf("%q %v: %v", args, cell.st, err)
				}
			}
			if got := seatsReplyChoice(t, c, cs, opt, cell.st, cell.passes); got != cell.choice {
				t.Errorf("%q %v after %d passes: printed %s, the best by the choices' values %s", args, cell.st, cell.passes, cell.choice, got)
			}
		}
		want := countStates(c.policyTableCase) / 2 * c.players
		if c.pass == rules.PassNever {
			want = countStates(c.policyTableCase)
		}
		if len(cells) != want {
			t.Errorf("%q: %d choices printed, want %d", args, len(cells), want)
		}
		if c.opponent == "daring" && c.mem == (rules.Memory{}) && !c.blind && !differs {
			t.Errorf("%q: the reply to daring chooses as the optimum everywhere", args)
		}
	}
}

// The reply's table at three or more seats refuses, in one line naming the flag, what it does not
// print.
func TestSolveSeatsReplyTableBadInput(t *testing.T) {
	t.Parallel()
	base := []string{"solve", "--table", "--pairs-max", "3", "--players", "3"}
	for _, c := range []struct {
		extra []string
		want  string
	}{
		{[]string{"--opponent", "safe"}, "--opponent with --table --players 3: give --policy best-response"},
		{[]string{"--policy", "optimal", "--opponent", "safe"}, "--policy optimal --opponent with --table --players 3"},
		{[]string{"--policy", "best-response", "--opponent", "safe", "--json"}, "--json with --table --players 3 --policy best-response"},
		{[]string{"--policy", "best-response", "--opponent", "safe", "--turn-limit", "4"}, "--turn-limit 4 with --table --players 3 --policy best-response"},
		{[]string{"--policy", "best-response", "--opponent", "safe", "--memory", "3", "--forget", "lru", "--fluctuation", "1"}, "--fluctuation 1 with --table: the table is of the optimal policy"},
		{[]string{"--policy", "best-response", "--opponent", "nobody"}, "--opponent"},
		{[]string{"--policy", "best-response"}, "or of best-response with --opponent"},
	} {
		args := append(append([]string{}, base...), c.extra...)
		_, stderr, code := runArgs(t, args...)
		if code != exitUsage || !strings.Contains(stderr, c.want) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("%q: exit %d, stderr %q; want a usage error with %q on one line", args, code, stderr, c.want)
		}
	}
}
