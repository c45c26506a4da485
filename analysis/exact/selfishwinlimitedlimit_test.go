package exact

import (
	"context"
	"fmt"
	"math/big"
	"slices"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// limitedLimitModel returns the standard game under a shared memory of capacity capacity
// forgetting by fg, pass rule rule and a turn limit.
func limitedLimitModel(fg rules.Forgetting, capacity int, rule rules.PassRule, limit int) Model {
	return Model{Pass: rule, Memory: rules.Memory{Capacity: capacity, Forget: fg}, Variant: rules.Variant{TurnLimit: limit}}
}

// sameSelfWinResult reports where two results differ: the values, the mover's choice, and every
// legal choice's values.
func sameSelfWinResult(t *testing.T, name string, got, want SelfWinResult[*big.Rat]) {
	t.Helper()
	sameSelfWinValues(t, name, &got.SelfWinValues, &want.SelfWinValues)
	if got.Choice != want.Choice {
		t.Errorf("%s: choice %s, want %s", name, got.Choice, want.Choice)
	}
	for _, ch := range rules.Choices() {
		switch {
		case (got.Choices[ch] == nil) != (want.Choices[ch] == nil):
			t.Errorf("%s: %s valued %v, want %v", name, ch, got.Choices[ch] != nil, want.Choices[ch] != nil)
		case got.Choices[ch] != nil:
			sameSelfWinValues(t, fmt.Sprintf("%s: %s", name, ch), got.Choices[ch], want.Choices[ch])
		}
	}
}

// TestSelfWinLimitedLimitFullCapacityIsPerfect checks that lru and handover-uniform of capacity
// 2n, which never forget in a game of n pairs, give under a turn limit the values, the choice and
// every choice's values of perfect memory under the same limit exactly, from states part known
// and uneven standings, every seat win-optimal and in mixed lineups, under every pass rule.
func TestSelfWinLimitedLimitFullCapacityIsPerfect(t *testing.T) {
	ctx, f := context.Background(), field.Rat{}
	W := rules.PolicyWinOptimal
	lineups := [][]rules.Policy{{W, W, W}, {rules.PolicyDaring, W, rules.PolicySafe}, {W, rules.PolicyOptimal, W}, {W, W, rules.PolicySafe, W}}
	for _, c := range []struct {
		st    rules.State
		limit int
		rule  rules.PassRule
	}{
		{rules.State{N: 3, J: 3}, 5, rules.PassNever},
		{rules.State{N: 3, J: 2}, 4, rules.PassAlways},
		{rules.State{N: 4, J: 3}, 7, rules.PassTwoKnown},
		{rules.State{N: 4, J: 2}, 6, rules.PassNever},
	} {
		if testing.Short() && c.rule != rules.PassAlways {
			continue
		}
		for i, pol := range lineups {
			// The long form plays four seats from the smaller states only.
			if testing.Short() && i != 0 || len(pol) > 3 && c.st.N > 3 {
				continue
			}
			mu := SeatLineup(pol...)
			standings := []int{1, 0, 2, 0}[:len(pol)]
			want, err := EvaluateStandings(ctx, f, Model{Pass: c.rule, Variant: rules.Variant{TurnLimit: c.limit}}, mu, c.st, standings)
			if err != nil {
				t.Fatalf("%v, perfect: %v", pol, err)
			}
			for _, fg := range []rules.Forgetting{rules.ForgetLRU, rules.ForgetHandoverUniform} {
				m := limitedLimitModel(fg, 2*c.st.N, c.rule, c.limit)
				name := fmt.Sprintf("%v, %v, limit %d, pass %s, %v", m.Memory, c.st, c.limit, c.rule, pol)
				got, err := EvaluateStandings(ctx, f, m, mu, c.st, standings)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				sameSelfWinResult(t, name, got, want)
			}
		}
	}
}

// TestSelfWinLimitedLimitTwoSeatsIsLimitWin checks that the sweep run at two seats under lru and
// handover-uniform and a turn limit gives the two-player win objective's P(win) and P(draw) under
// the same limit (limitwin.go, a sweep over the lead) for the mover, at several leads so far,
// under pass rules never and always.
func TestSelfWinLimitedLimitTwoSeatsIsLimitWin(t *testing.T) {
	ctx := context.Background()
	for _, fg := range []rules.Forgetting{rules.ForgetLRU, rules.ForgetHandoverUniform} {
		for k, c := range []struct {
			st              rules.State
			capacity, limit int
			rule            rules.PassRule
		}{
			{rules.State{N: 3, J: 3}, 2, 4, rules.PassNever},
			{rules.State{N: 4, J: 2}, 3, 6, rules.PassAlways},
			{rules.State{N: 4, J: 3}, 2, 9, rules.PassTwoKnown},
			{rules.State{N: 5, J: 4}, 3, 7, rules.PassNever},
		} {
			if testing.Short() && k != oneIf(fg == rules.ForgetLRU) {
				continue
			}
			m := limitedLimitModel(fg, c.capacity, c.rule, c.limit)
			for i, standings := range [][]int{{0, 0}, {2, 0}, {0, 1}} {
				if testing.Short() && i == 0 {
					continue
				}
				sameTwoSeatLimitWin(ctx, t, m, c.st, standings)
			}
		}
	}
}

// sameTwoSeatLimitWin checks that the sweep of the win objective under a turn limit, run at two
// seats in model m from state st at the standings, gives the mover the two-player win
// objective's P(win), P(draw) and score under the same limit (limitWinDrawLoss), exactly.
func sameTwoSeatLimitWin(ctx context.Context, t *testing.T, m Model, st rules.State, standings []int) {
	t.Helper()
	f := field.Rat{}
	mu := Lineup{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}
	name := fmt.Sprintf("%v, %v, limit %d, pass %s, standings %v", m.Memory, st, m.Variant.TurnLimit, m.Pass, standings)
	got, err := evaluateSelfWinLimit(ctx, f, m, 2, st, standings, nil, nil)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	at := st
	at.Lead = standings[0] - standings[1]
	wdl, err := limitWinDrawLoss(ctx, f, m, mu, at)
	if err != nil {
		t.Fatalf("%s: two-player win: %v", name, err)
	}
	want := new(big.Rat).Add(wdl[0].Win, new(big.Rat).Mul(big.NewRat(1, 2), wdl[0].Draw))
	if got.Score[0].Cmp(want) != 0 || got.Win[0].Cmp(wdl[0].Win) != 0 || got.Draw[0].Cmp(wdl[0].Draw) != 0 {
		t.Errorf("%s: score %v (alone %v, tied %v), two-player win %v (win %v, draw %v)", name,
			got.Score[0].RatString(), got.Win[0].RatString(), got.Draw[0].RatString(), want.RatString(), wdl[0].Win.RatString(), wdl[0].Draw.RatString())
	}
}

// TestSelfWinLimitedLimitScoresAddUp checks under limited memory (lru, handover-uniform, decay)
// and a turn limit that the seats' scores sum to 1, that alone and tied bound a seat's score, that the expected pairs (a
// stalemate's shares included) sum to at most the pairs on the table, for every legal choice too,
// that float64 agrees with the exact values, and that a win-best-response seat beside win-optimal
// gets win-optimal's values.
func TestSelfWinLimitedLimitScoresAddUp(t *testing.T) {
	ctx := context.Background()
	W := rules.PolicyWinOptimal
	for _, c := range []struct {
		fg              rules.Forgetting
		capacity, limit int
		rule            rules.PassRule
		st              rules.State
		pol             []rules.Policy
		q               float64 // decay forgetting's probability
	}{
		{rules.ForgetLRU, 2, 5, rules.PassNever, rules.State{N: 3, J: 3}, []rules.Policy{W, W, W}, 0},
		{rules.ForgetHandoverUniform, 3, 4, rules.PassAlways, rules.State{N: 3, J: 2}, []rules.Policy{W, rules.PolicySafe, rules.PolicyDaring}, 0},
		{rules.ForgetLRU, 3, 9, rules.PassTwoKnown, rules.State{N: 6, J: 5}, []rules.Policy{W, W, W}, 0},
		{rules.ForgetHandoverUniform, 2, 8, rules.PassNever, rules.State{N: 4, J: 3}, []rules.Policy{W, W, rules.PolicyOptimal, W}, 0},
		{rules.ForgetLRU, 4, 7, rules.PassAlways, rules.State{N: 3, J: 2}, []rules.Policy{W, W, W, W, W}, 0},
		{rules.ForgetDecay, 0, 4, rules.PassAlways, rules.State{N: 2, J: 2}, []rules.Policy{W, W, W}, 0.5},
		{rules.ForgetDecay, 2, 5, rules.PassNever, rules.State{N: 3, J: 2}, []rules.Policy{W, rules.PolicyDaring, rules.PolicyOptimal}, 0.1},
		{rules.ForgetDecay, 0, 5, rules.PassTwoKnown, rules.State{N: 3, J: 3}, []rules.Policy{W, W, W, W}, 0.2},
	} {
		if testing.Short() && (c.fg == rules.ForgetLRU || c.st.N > 3 || c.q > 0 && c.st.N > 2) {
			continue
		}
		m := limitedLimitModel(c.fg, c.capacity, c.rule, c.limit)
		m.Memory.Decay = c.q
		mu := SeatLineup(c.pol...)
		name := fmt.Sprintf("%v, %v, limit %d, pass %s, %v", m.Memory, c.st, c.limit, c.rule, c.pol)
		exactRes, err := EvaluateStandings(ctx, field.Rat{}, m, mu, c.st, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		floatRes, err := EvaluateStandings(ctx, field.Float{}, m, mu, c.st, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		vals := []*SelfWinValues[*big.Rat]{&exactRes.SelfWinValues}
		fvals := []*SelfWinValues[float64]{&floatRes.SelfWinValues}
		for ch, v := range exactRes.Choices {
			if v != nil {
				vals, fvals = append(vals, v), append(fvals, floatRes.Choices[ch])
			}
		}
		for i, v := range vals {
			score, pairs := new(big.Rat), new(big.Rat)
			for s := range v.Score {
				score.Add(score, v.Score[s])
				pairs.Add(pairs, v.Pairs[s])
				if v.Win[s].Cmp(v.Score[s]) > 0 || new(big.Rat).Add(v.Win[s], v.Draw[s]).Cmp(v.Score[s]) < 0 {
					t.Errorf("%s: seat %d: alone %v and tied %v do not bound its score %v", name, s, v.Win[s], v.Draw[s], v.Score[s])
				}
				for _, x := range [][2]any{{v.Score[s], fvals[i].Score[s]}, {v.Win[s], fvals[i].Win[s]}, {v.Draw[s], fvals[i].Draw[s]}, {v.Pairs[s], fvals[i].Pairs[s]}} {
					e, _ := x[0].(*big.Rat).Float64()
					if d := e - x[1].(float64); d > 1e-12 || d < -1e-12 {
						t.Errorf("%s: seat %d: float64 %v, exact %v", name, s, x[1], e)
					}
				}
			}
			if score.Cmp(big.NewRat(1, 1)) != 0 || pairs.Cmp(big.NewRat(int64(c.st.N), 1)) > 0 || pairs.Sign() <= 0 {
				t.Errorf("%s: scores sum to %v, pairs to %v", name, score.RatString(), pairs.RatString())
			}
		}
		if floatRes.Choice != exactRes.Choice {
			t.Errorf("%s: float64 chooses %s, exact %s", name, floatRes.Choice, exactRes.Choice)
		}
		if c.pol[0] == W && !slices.ContainsFunc(c.pol[1:], func(p rules.Policy) bool { return p != W }) {
			// A win-best-response seat replies to win-optimal at every other seat, not to a mix.
			reply := append([]rules.Policy{rules.PolicyWinBestResponse}, c.pol[1:]...)
			got, err := EvaluateStandings(ctx, field.Rat{}, m, SeatLineup(reply...), c.st, nil)
			if err != nil {
				t.Fatalf("%s: reply: %v", name, err)
			}
			sameSelfWinResult(t, name+": win-best-response", got, exactRes)
		}
	}
}

// oneIf returns 1 when b holds, 0 otherwise.
func oneIf(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestSelfWinLimitedLimitReplyCostsWinOptimal checks that under limited memory and a turn limit
// the estimate of a win-best-response seat beside win-optimal is that of win-optimal at every
// seat, the one sweep that solves both, not the sweep per mover's seat of a reply to a table.
func TestSelfWinLimitedLimitReplyCostsWinOptimal(t *testing.T) {
	W, B := rules.PolicyWinOptimal, rules.PolicyWinBestResponse
	for _, rule := range []rules.PassRule{rules.PassNever, rules.PassAlways} {
		m := limitedLimitModel(rules.ForgetLRU, 3, rule, 9)
		for _, call := range []Call{CallEvaluate, CallPolicyTable} {
			want, err := Estimate(m, SeatLineup(W, W, W), 6, Options{Call: call})
			if err != nil {
				t.Fatal(err)
			}
			got, err := Estimate(m, SeatLineup(B, W, W), 6, Options{Call: call})
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("pass %s, call %v: win-best-response costs %+v, win-optimal %+v", rule, call, got, want)
			}
		}
	}
}
