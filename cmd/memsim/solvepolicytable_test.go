package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
	"memsim/strategies"
)

// policyTableCase is a two-seat table printed from the engine's table of seat 0's policy.
type policyTableCase struct {
	policy, opponent        string
	pairsMax, limit, single int
	blind                   bool
	mem                     rules.Memory
	pass                    rules.PassRule
}

func (c policyTableCase) args() []string {
	args := []string{"solve", "--table", "--pairs-max", strconv.Itoa(c.pairsMax), "--pass", c.pass.String(), "--policy", c.policy}
	if c.opponent != "" {
		args = append(args, "--opponent", c.opponent)
	}
	if c.limit > 0 {
		args = append(args, "--turn-limit", strconv.Itoa(c.limit))
	}
	if c.single > 0 {
		args = append(args, "--singletons", strconv.Itoa(c.single))
	}
	if c.blind {
		args = append(args, "--flips", "blind")
	}
	switch {
	case c.mem.Forget == rules.ForgetDecay:
		args = append(args, "--memory", strconv.Itoa(c.mem.Capacity), "--forget", "decay", "--q", strconv.FormatFloat(c.mem.Decay, 'g', -1, 64))
	case c.mem.Capacity > 0:
		args = append(args, "--memory", strconv.Itoa(c.mem.Capacity), "--forget", c.mem.Forget.String())
	}
	return args
}

// model is the case's model with turns turns left (the case's limit when turns is 0).
func (c policyTableCase) model(turns int) exact.Model {
	if turns == 0 {
		turns = c.limit
	}
	return exact.Model{Memory: c.mem, Pass: c.pass, Singletons: c.single, Variant: c.variant(turns)}
}

// variant is the case's rule variant with a limit of turns turns (0: none).
func (c policyTableCase) variant(turns int) rules.Variant {
	v := rules.Variant{TurnLimit: turns}
	if c.blind {
		v.Flips = rules.FlipsBlind
	}
	return v
}

// engineTable builds the table the engine plays for seat 0 of the case, as a tournament player of
// its policy gets it.
func (c policyTableCase) engineTable(t *testing.T) *rules.ChoiceTable {
	t.Helper()
	env := strategies.Env{MaxPairs: c.pairsMax, Singletons: c.single, Players: 2, Pass: c.pass, Variant: c.variant(c.limit)}
	return buildEngineTable(t, c.policy, c.opponent, c.mem, env)
}

// buildEngineTable builds the table the engine plays for a player of policy against opponent with
// memory mem (its own where it is limited or decays) in env, as a tournament player gets it.
func buildEngineTable(t *testing.T, policy, opponent string, mem rules.Memory, env strategies.Env) *rules.ChoiceTable {
	t.Helper()
	spec := strategies.Spec{Name: policy, Policy: policy, Opponent: opponent}
	if mem.Capacity > 0 || mem.Forget == rules.ForgetDecay {
		capacity, forget, decay := mem.Capacity, mem.Forget, mem.Decay
		spec.Memory = strategies.MemoryOverride{Capacity: &capacity, Forget: &forget, Decay: &decay}
	}
	b, err := strategies.Build(context.Background(), spec, env)
	if err != nil {
		t.Fatalf("%s: %v", policy, err)
	}
	if b.Player.Table == nil {
		t.Fatalf("%s: the engine's player has no table", policy)
	}
	return b.Player.Table
}

// policyCell is one choice read back from a printed table.
type policyCell struct {
	st        rules.State
	turns     int
	afterPass bool
	choice    rules.Choice
}

// readPolicyTable reads every choice of a printed two-seat policy table back: rows "n: ..." or
// "n d=D: ..." (under a turn limit in blocks t=A..B), a letter per j the memory allows from j = 1
// (two under a pass rule: after no pass, then after a pass).
func readPolicyTable(t *testing.T, c policyTableCase, out string) []policyCell {
	t.Helper()
	blocks := map[int][]string{0: nil}
	if c.limit > 0 {
		blocks = limitRows(t, out, c.limit)
	} else {
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			if !strings.HasPrefix(line, "#") {
				blocks[0] = append(blocks[0], line)
			}
		}
	}
	letters := map[byte]rules.Choice{}
	for _, ch := range rules.Choices() {
		letters[choiceLetters[ch]] = ch
	}
	m := c.model(0)
	var cells []policyCell
	for turns, rows := range blocks {
		for _, row := range rows {
			head, rest, ok := strings.Cut(row, ":")
			f := strings.Fields(head)
			n, err := strconv.Atoi(f[0])
			if !ok || err != nil || len(f) > 2 {
				t.Fatalf("%q t=%d: row %q", c.args(), turns, row)
			}
			d := 0
			if len(f) == 2 {
				if d, err = strconv.Atoi(strings.TrimPrefix(f[1], "d=")); err != nil {
					t.Fatalf("%q: row %q", c.args(), row)
				}
			}
			var js []int
			for j := 1; j <= n; j++ {
				if (rules.State{N: n, J: j, S: c.single, F: c.single}).Validate(m.Memory) == nil {
					js = append(js, j)
				}
			}
			words := strings.Fields(rest)
			if len(words) != len(js) {
				t.Fatalf("%q t=%d: row %q has %d choices, want one per j in %v", c.args(), turns, row, len(words), js)
			}
			for i, word := range words {
				st := rules.State{N: n, J: js[i], S: c.single, F: c.single, Lead: d}
				want := 1
				if c.pass != rules.PassNever {
					want = 2
				}
				if len(word) != want {
					t.Fatalf("%q: row %q: %q, want %d letters", c.args(), row, word, want)
				}
				for k := range len(word) {
					ch, ok := letters[word[k]]
					if !ok {
						t.Fatalf("%q: row %q: letter %q", c.args(), row, word[k])
					}
					cells = append(cells, policyCell{st: st, turns: turns, afterPass: k == 1, choice: ch})
				}
			}
		}
	}
	return cells
}

// replyChoice returns the best reply's choice in st by another route than its table: the value of
// every choice of the lineup there (exact.ChoiceValues, the reply played afterwards), the largest
// expected lead first and ties in the order daring, safe, known-first, pass; just after a pass a
// pass ends the game in a stalemate, lead 0.
func replyChoice(t *testing.T, m exact.Model, mu exact.Lineup, st rules.State, afterPass bool) rules.Choice {
	t.Helper()
	f := field.Rat{}
	cs, err := exact.ChoiceValues(context.Background(), f, m, mu, st)
	if err != nil {
		t.Fatalf("%v: %v", st, err)
	}
	best, bestLead := rules.Choice(0), f.FromInt(0)
	found := false
	for _, v := range cs.Values { // in the order daring, safe, known-first, pass
		lead := v.Lead
		if afterPass && v.Choice == rules.Pass {
			lead = f.FromInt(0)
		}
		if !found || f.Cmp(lead, bestLead) > 0 {
			best, bestLead, found = v.Choice, lead, true
		}
	}
	if !found {
		t.Fatalf("%v: no legal choice", st)
	}
	return best
}

func replyTableCases() []policyTableCase {
	out := []policyTableCase{
		{policy: "best-response", opponent: "daring", pairsMax: 4, pass: rules.PassNever},
		{policy: "best-response", opponent: "safe", pairsMax: 3, pass: rules.PassTwoKnown},
		{policy: "best-response", opponent: "daring", pairsMax: 3, limit: 3, pass: rules.PassAlways},
		{policy: "best-response", opponent: "safe", pairsMax: 3, mem: rules.Memory{Capacity: 3, Forget: rules.ForgetDecay, Decay: 0.5}, pass: rules.PassTwoKnown},
	}
	if !testing.Short() {
		out = append(out,
			policyTableCase{policy: "best-response", opponent: "optimal", pairsMax: 3, single: 1, pass: rules.PassAlways},
			policyTableCase{policy: "best-response", opponent: "parity", pairsMax: 4, mem: rules.Memory{Capacity: 2, Forget: rules.ForgetLRU}, pass: rules.PassTwoKnown},
			policyTableCase{policy: "best-response", opponent: "optimal", pairsMax: 4, mem: rules.Memory{Capacity: 2, Forget: rules.ForgetHandoverUniform}, pass: rules.PassNever},
			policyTableCase{policy: "best-response", opponent: "optimal", pairsMax: 4, mem: rules.Memory{Capacity: 3, Forget: rules.ForgetDecay, Decay: 0.5}, pass: rules.PassAlways},
			policyTableCase{policy: "best-response", opponent: "safe", pairsMax: 3, limit: 4, mem: rules.Memory{Capacity: 2, Forget: rules.ForgetLRU}, pass: rules.PassNever},
			policyTableCase{policy: "best-response", opponent: "daring", pairsMax: 4, blind: true, pass: rules.PassTwoKnown})
	}
	return out
}

// --table --policy best-response --opponent B prints, in every state (and under a turn limit with
// every number of turns left), the choice the engine's reply makes there, after no pass and just
// after a pass; each is also the best choice by the values of the lineup's choices in that state.
// The reply to daring chooses otherwise than the optimum somewhere.
func TestSolveReplyTableIsTheReplysChoice(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, c := range replyTableCases() {
		args := c.args()
		out, stderr, code := runArgs(t, args...)
		if code != exitOK {
			t.Fatalf("%q: exit %d: %s", args, code, stderr)
		}
		tab := c.engineTable(t)
		opt, err := exact.PolicyTable(ctx, field.Rat{}, c.model(0), exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}, c.pairsMax)
		if err != nil {
			t.Fatal(err)
		}
		opp, err := rules.ParsePolicy(c.opponent)
		if err != nil {
			t.Fatal(err)
		}
		mu := exact.Lineup{Players: 2, Policy: rules.PolicyBestResponse, Opponent: opp}
		cells := readPolicyTable(t, c, out)
		differs := false
		for _, cell := range cells {
			want, ok := tab.LookupTurnsLeft(cell.st, cell.afterPass, cell.turns)
			if !ok || cell.choice != want {
				t.Errorf("%q t=%d %v after a pass %v: printed %s, the engine's %s", args, cell.turns, cell.st, cell.afterPass, cell.choice, want)
			}
			if o, _ := opt.LookupTurnsLeft(cell.st, cell.afterPass, cell.turns); o != cell.choice {
				differs = true
			}
			if got := replyChoice(t, c.model(cell.turns), mu, cell.st, cell.afterPass); got != cell.choice {
				t.Errorf("%q t=%d %v after a pass %v: printed %s, the best by the choices' values %s", args, cell.turns, cell.st, cell.afterPass, cell.choice, got)
			}
		}
		if want := countStates(c); len(cells) != want {
			t.Errorf("%q: %d choices printed, want %d", args, len(cells), want)
		}
		if c.opponent == "daring" && c.limit == 0 && !differs {
			t.Errorf("%q: the reply to daring chooses as the optimum everywhere", args)
		}
	}
}

// countStates returns the number of choices a case's table holds: every state with 1 to
// pairs-max pairs, j >= 1 and a count the memory holds, at every lead |d| <= pairs-max - n for a
// policy that plays to win, with every number of turns left, two choices under a pass rule.
func countStates(c policyTableCase) int {
	count := 0
	m := c.model(0)
	for n := 1; n <= c.pairsMax; n++ {
		for j := 1; j <= n; j++ {
			if (rules.State{N: n, J: j, S: c.single, F: c.single}).Validate(m.Memory) == nil {
				count++
				if strings.HasPrefix(c.policy, "win-") {
					count += 2 * (c.pairsMax - n)
				}
			}
		}
	}
	if c.pass != rules.PassNever {
		count *= 2
	}
	return count * max(c.limit, 1)
}

// --table --json of a reply gives the choices of its text, cell by cell.
func TestSolveReplyTableJSONIsItsText(t *testing.T) {
	t.Parallel()
	c := policyTableCase{policy: "best-response", opponent: "safe", pairsMax: 3, limit: 2, pass: rules.PassTwoKnown}
	out, stderr, code := runArgs(t, c.args()...)
	if code != exitOK {
		t.Fatalf("%q: exit %d: %s", c.args(), code, stderr)
	}
	text := map[string]rules.Choice{}
	for _, cell := range readPolicyTable(t, c, out) {
		text[fmt.Sprint(cell.turns, cell.st.N, cell.st.J, cell.afterPass)] = cell.choice
	}
	args := append(c.args(), "--json")
	out, stderr, code = runArgs(t, args...)
	if code != exitOK {
		t.Fatalf("%q: exit %d: %s", args, code, stderr)
	}
	var tab struct {
		Model struct {
			Policy, Opponent string
		}
		Cells []struct {
			TurnsLeft       int `json:"turns_left"`
			Pairs, Unknown  int
			Choice          string
			ChoiceAfterPass string `json:"choice_after_pass"`
		}
	}
	if err := json.Unmarshal([]byte(out), &tab); err != nil {
		t.Fatalf("%q: %v", args, err)
	}
	if tab.Model.Policy != "best-response" || tab.Model.Opponent != "safe" || 2*len(tab.Cells) != len(text) {
		t.Fatalf("%q: model %+v and %d cells, want best-response to safe and %d", args, tab.Model, len(tab.Cells), len(text)/2)
	}
	for _, cell := range tab.Cells {
		for k, name := range []string{cell.Choice, cell.ChoiceAfterPass} {
			want := text[fmt.Sprint(cell.TurnsLeft, cell.Pairs, cell.Unknown, k == 1)]
			if name != want.String() {
				t.Errorf("%q: cell %+v: %s, the text's %s", args, cell, name, want)
			}
		}
	}
}

// --table --policy win-optimal (or win-best-response --opponent B) --turn-limit T prints, for every
// number of turns left, state and lead, the choice the engine's table makes there (after no pass,
// and under a pass rule just after a pass).
func TestSolveWinLimitTableIsTheEngines(t *testing.T) {
	t.Parallel()
	cases := []policyTableCase{
		{policy: "win-optimal", pairsMax: 3, limit: 5, pass: rules.PassNever},
	}
	if !testing.Short() {
		cases = append(cases,
			policyTableCase{policy: "win-optimal", pairsMax: 3, limit: 4, mem: rules.Memory{Capacity: 2, Forget: rules.ForgetLRU}, pass: rules.PassAlways},
			policyTableCase{policy: "win-best-response", opponent: "daring", pairsMax: 3, limit: 4, pass: rules.PassTwoKnown})
	}
	for _, c := range cases {
		args := c.args()
		out, stderr, code := runArgs(t, args...)
		if code != exitOK {
			t.Fatalf("%q: exit %d: %s", args, code, stderr)
		}
		tab := c.engineTable(t)
		cells := readPolicyTable(t, c, out)
		for _, cell := range cells {
			want, ok := tab.LookupTurnsLeft(cell.st, cell.afterPass, cell.turns)
			if !ok || cell.choice != want {
				t.Errorf("%q t=%d %v lead %d after a pass %v: printed %s, the engine's %s", args, cell.turns, cell.st, cell.st.Lead, cell.afterPass, cell.choice, want)
			}
		}
		if want := countStates(c); len(cells) != want {
			t.Errorf("%q: %d choices printed, want %d", args, len(cells), want)
		}
	}
}
