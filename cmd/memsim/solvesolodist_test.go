package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/exact/answer"
	"memsim/analysis/field"
	"memsim/sim/rules"
	"memsim/strategies"
)

// soloCase is a solitaire model as memsim solve's flags and the engine's rules give it.
type soloCase struct {
	flags   []string
	mem     rules.Memory
	s       int
	variant rules.Variant
}

func soloCases() []soloCase {
	return []soloCase{
		{},
		{flags: []string{"--singletons", "1"}, s: 1},
		{flags: []string{"--memory", "2", "--forget", "lru"}, mem: rules.Memory{Capacity: 2, Forget: rules.ForgetLRU}},
		{flags: []string{"--memory", "3", "--forget", "handover-uniform"}, mem: rules.Memory{Capacity: 3, Forget: rules.ForgetHandoverUniform}},
		{flags: []string{"--flips", "blind"}, variant: rules.Variant{Flips: rules.FlipsBlind}},
		{flags: []string{"--flips", "blind", "--memory", "3", "--forget", "lru"}, mem: rules.Memory{Capacity: 3, Forget: rules.ForgetLRU}, variant: rules.Variant{Flips: rules.FlipsBlind}},
		{flags: []string{"--memory", "2", "--forget", "decay", "--q", "0.5"}, mem: rules.Memory{Capacity: 2, Forget: rules.ForgetDecay, Decay: 0.5}},
		{flags: []string{"--forget", "decay", "--q", "0.3", "--singletons", "1"}, mem: rules.Memory{Forget: rules.ForgetDecay, Decay: 0.3}, s: 1},
	}
}

// TestSolitaireTableLettersAreTheEnginesChoices prints solitaire's table (--table --players 1)
// and checks every row's letter against the choice the engine's solitaire optimal player looks up
// in the table it plays, and the row's count against the states of the model.
func TestSolitaireTableLettersAreTheEnginesChoices(t *testing.T) {
	const pairs = 5
	ctx := context.Background()
	letters := map[byte]rules.Choice{'D': rules.Daring, 'S': rules.Safe, 'K': rules.KnownFirst}
	for _, tc := range soloCases() {
		args := append([]string{"solve", "--table", "--players", "1", "--pairs-max", strconv.Itoa(pairs)}, tc.flags...)
		stdout, stderr, code := runArgs(t, args...)
		if code != 0 {
			t.Fatalf("%q: exit %d, %s", args, code, stderr)
		}
		mem := tc.mem
		spec := strategies.Spec{Name: "optimal", Policy: "optimal",
			Memory: strategies.MemoryOverride{Forget: &mem.Forget, Capacity: &mem.Capacity}}
		if mem.Forget == rules.ForgetDecay {
			spec.Memory.Decay = &mem.Decay
		}
		b, err := strategies.Build(ctx, spec, strategies.Env{MaxPairs: pairs, Singletons: tc.s, Players: 1, Pass: rules.PassNever, Variant: tc.variant})
		if err != nil {
			t.Fatalf("%q: the engine's player: %v", args, err)
		}
		if b.Player.Table == nil {
			t.Fatalf("%q: the engine's optimal player has no table", args)
		}
		rows := 0
		sc := bufio.NewScanner(strings.NewReader(stdout))
		for sc.Scan() {
			line := sc.Text()
			if strings.HasPrefix(line, "#") {
				continue
			}
			var n, j int
			var choice string
			var turns float64
			if _, err := fmt.Sscanf(line, "%d %d: %s %f", &n, &j, &choice, &turns); err != nil {
				t.Fatalf("%q: line %q: %v", args, line, err)
			}
			st := rules.State{N: n, J: j, S: tc.s, F: tc.s}
			want, ok := b.Player.Table.Lookup(st, false)
			if !ok {
				t.Fatalf("%q: state %v: not in the engine's table", args, st)
			}
			if got := letters[choice[0]]; got != want || choice[0] == 0 {
				t.Errorf("%q: state %v: printed %q, the engine plays %v", args, st, choice, want)
			}
			rows++
		}
		want := 0
		for n := 1; n <= pairs; n++ {
			for j := 1; j <= n; j++ {
				if tc.mem.Holds(rules.State{N: n, J: j, S: tc.s, F: tc.s}.Known()) {
					want++
				}
			}
		}
		if rows != want {
			t.Errorf("%q: %d rows, want %d", args, rows, want)
		}
	}
}

// TestSolveSolitaireTurnsDistribution checks that --distribution --players 1 prints, in text and
// in JSON, the distribution exact.SolitaireTurns gives, up to --turns-max and its default.
func TestSolveSolitaireTurnsDistribution(t *testing.T) {
	ctx := context.Background()
	for _, tc := range soloCases() {
		for _, turnsMax := range []int{0, 7} {
			const pairs = 3
			text := append([]string{"solve", "--pairs", strconv.Itoa(pairs), "--players", "1", "--policy", "daring", "--distribution"}, tc.flags...)
			maxTurns := exact.DefaultMaxTurns(pairs, tc.s)
			if turnsMax > 0 {
				text = append(text, "--turns-max", strconv.Itoa(turnsMax))
				maxTurns = turnsMax
			}
			args := append(append([]string(nil), text...), "--json")
			stdout, stderr, code := runArgs(t, args...)
			if code != 0 {
				t.Fatalf("%q: exit %d, %s", args, code, stderr)
			}
			var res answer.Result
			if err := json.Unmarshal([]byte(stdout), &res); err != nil {
				t.Fatalf("%q: %v", args, err)
			}
			m := exact.Model{Pass: rules.PassNever, Memory: tc.mem, Singletons: tc.s, Variant: tc.variant}
			st := rules.State{N: pairs, J: pairs, S: tc.s, F: tc.s}
			d, err := exact.SolitaireTurns[*big.Rat](ctx, field.Rat{}, m, rules.PolicyDaring, st, maxTurns)
			if err != nil {
				t.Fatal(err)
			}
			td := res.TurnsDistribution
			if td == nil || td.MaxTurns != maxTurns || len(td.Turns) != maxTurns+1 {
				t.Fatalf("%q: turns distribution %+v, want %d points", args, td, maxTurns+1)
			}
			for k, p := range td.Turns {
				if p.Turns != k || p.Probability.Exact != d.Prob[k].RatString() {
					t.Errorf("%q: point %d: %+v, want %s", args, k, p, d.Prob[k].RatString())
				}
			}
			if td.More.Exact != d.Tail.RatString() {
				t.Errorf("%q: more than %d turns: %s, want %s", args, maxTurns, td.More.Exact, d.Tail.RatString())
			}
			out, stderr, code := runArgs(t, text...)
			if code != 0 {
				t.Fatalf("%q: exit %d, %s", text, code, stderr)
			}
			for k, p := range d.Prob {
				line := fmt.Sprintf("  turns %3d: ", k)
				if p.Sign() == 0 {
					if strings.Contains(out, line) {
						t.Errorf("%q: a line for %d turns, of probability 0", text, k)
					}
					continue
				}
				if !strings.Contains(out, line) {
					t.Errorf("%q: no line for %d turns:\n%s", text, k, out)
				}
			}
			if !strings.Contains(out, fmt.Sprintf("  more than %d turns: ", maxTurns)) {
				t.Errorf("%q: no line for more than %d turns:\n%s", text, maxTurns, out)
			}
		}
	}
}

// TestSolveSolitaireTurnsUnderLimit checks that --distribution --players 1 --turn-limit T
// prints, in text and in JSON, the distribution exact.SolitaireTurns gives under the limit, up to
// the limit by default, with the probability that the limit stops the game.
func TestSolveSolitaireTurnsUnderLimit(t *testing.T) {
	ctx := context.Background()
	const pairs, limit = 3, 5
	for _, tc := range []soloCase{
		{},
		{flags: []string{"--memory", "3", "--forget", "decay", "--q", "0.3"}, mem: rules.Memory{Capacity: 3, Forget: rules.ForgetDecay, Decay: 0.3}},
	} {
		text := append([]string{"solve", "--pairs", strconv.Itoa(pairs), "--players", "1", "--distribution", "--turn-limit", strconv.Itoa(limit)}, tc.flags...)
		args := append(append([]string(nil), text...), "--json")
		stdout, stderr, code := runArgs(t, args...)
		if code != 0 {
			t.Fatalf("%q: exit %d, %s", args, code, stderr)
		}
		var res answer.Result
		if err := json.Unmarshal([]byte(stdout), &res); err != nil {
			t.Fatalf("%q: %v", args, err)
		}
		m := exact.Model{Pass: rules.PassNever, Memory: tc.mem, Variant: rules.Variant{TurnLimit: limit}}
		d, err := exact.SolitaireTurns[*big.Rat](ctx, field.Rat{}, m, rules.PolicyOptimal, rules.State{N: pairs, J: pairs}, limit)
		if err != nil {
			t.Fatal(err)
		}
		td := res.TurnsDistribution
		if td == nil || td.MaxTurns != limit || len(td.Turns) != limit+1 || td.Stopped == nil {
			t.Fatalf("%q: turns distribution %+v, want %d points and the share stopped by the limit", args, td, limit+1)
		}
		for k, p := range td.Turns {
			if p.Probability.Exact != d.Prob[k].RatString() {
				t.Errorf("%q: point %d: %+v, want %s", args, k, p, d.Prob[k].RatString())
			}
		}
		if td.Stopped.Exact != d.Stopped.RatString() {
			t.Errorf("%q: stopped by the limit %s, want %s", args, td.Stopped.Exact, d.Stopped.RatString())
		}
		out, stderr, code := runArgs(t, text...)
		if code != 0 {
			t.Fatalf("%q: exit %d, %s", text, code, stderr)
		}
		if want := "stopped by the turn limit with pairs on the table (counted at the limit): " + human(*td.Stopped); !strings.Contains(out, want) {
			t.Errorf("%q: no line %q:\n%s", text, want, out)
		}
	}
}

// TestSolveSolitaireRefusals checks the one-line refusals of the solitaire distribution and table.
func TestSolveSolitaireRefusals(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--table", "--pairs-max", "3", "--players", "1", "--forget", "decay", "--q", "0.5", "--turn-limit", "3"}, "--table with --players 1: turn limit 3"},
		{[]string{"--copies", "4", "--pairs", "4", "--players", "1", "--distribution", "--turn-limit", "5"}, "built without a turn limit"},
		{[]string{"--copies", "4", "--faces", "4:1u+1h", "--players", "1", "--distribution"}, "computed from the start of a game"},
		{[]string{"--copies", "4", "--pairs", "4", "--turns-max", "5"}, "--turns-max goes with --distribution --players 1"},
		{[]string{"--copies", "4", "--pairs", "4", "--players", "1", "--distribution", "--turns-max", "0"}, "--turns-max 0: must be at least 1"},
		{[]string{"--pairs", "3", "--turns-max", "5"}, "--turns-max goes with --distribution --players 1"},
		{[]string{"--pairs", "3", "--players", "1", "--distribution", "--turns-max", "0"}, "--turns-max 0: must be at least 1"},
		{[]string{"--table", "--pairs-max", "3", "--players", "1", "--policy", "safe"}, "--policy safe with --table --players 1"},
		{[]string{"--table", "--pairs-max", "3", "--players", "1", "--turn-limit", "3"}, "--table with --players 1: turn limit 3"},
	}
	for _, tc := range cases {
		args := append([]string{"solve"}, tc.args...)
		_, stderr, code := runArgs(t, args...)
		if code != 2 || !strings.Contains(stderr, tc.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%q: exit %d, %q; want exit 2 and one line with %q", args, code, stderr, tc.want)
		}
	}
}
