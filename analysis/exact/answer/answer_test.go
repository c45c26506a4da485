package answer_test

import (
	"context"
	"encoding/json"
	"math"
	"math/big"
	"os"
	"strings"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/exact/answer"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

func TestNumberOf(t *testing.T) {
	tests := []struct {
		got, want answer.Number
	}{
		{answer.NumberOf[*big.Rat](field.Rat{}, big.NewRat(2, 4)), answer.Number{Exact: "1/2", Float: 0.5}},
		{answer.NumberOf[*big.Rat](field.Rat{}, big.NewRat(-3, 1)), answer.Number{Exact: "-3", Float: -3}},
		{answer.NumberOf[*big.Rat](field.Rat{}, big.NewRat(1, 3)), answer.Number{Exact: "1/3", Float: 1.0 / 3}},
		{answer.NumberOf[float64](field.Float{}, 0.1), answer.Number{Float: 0.1}},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("got %+v, want %+v", tt.got, tt.want)
		}
	}
	if a, b := answer.Arithmetic[*big.Rat](field.Rat{}), answer.Arithmetic[float64](field.Float{}); a != "exact" || b != "float64" {
		t.Errorf("arithmetic %q and %q, want exact and float64", a, b)
	}
}

// Two players on two pairs, both cards of each unknown: the mover's second card matches its first
// with probability 1/3, and then it takes both pairs; otherwise it has shown one card of each pair
// and the other seat takes both. Seat 0 expects 2·1/3 = 2/3 pairs, seat 1 4/3; seat 0 wins
// with probability 1/3 and never draws.
func TestSolveByHand(t *testing.T) {
	st := rules.State{N: 2, J: 2}
	mu := exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	res, err := answer.Solve(context.Background(), field.Rat{}, exact.Model{}, mu, st, true)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"model":{"pairs":2,"unknown":2,"singletons":0,"unseen_singletons":0,"memory":0,"pass":"never",` +
		`"choices":"daring,safe,known-first,pass","lead":0,"players":2,"policy":"optimal","opponent":"optimal","arithmetic":"exact"},` +
		`"expected_pairs":{"exact":"2/3","float":0.6666666666666666},"expected_lead":{"exact":"-2/3","float":-0.6666666666666666},` +
		`"expected_pairs_by_seat":[{"exact":"2/3","float":0.6666666666666666},{"exact":"4/3","float":1.3333333333333333}],` +
		`"score_distribution":[{"share":0,"probability":{"exact":"2/3","float":0.6666666666666666}},` +
		`{"share":0.5,"probability":{"exact":"0","float":0}},{"share":1,"probability":{"exact":"0","float":0}},` +
		`{"share":1.5,"probability":{"exact":"0","float":0}},{"share":2,"probability":{"exact":"1/3","float":0.3333333333333333}}],` +
		`"win":{"exact":"1/3","float":0.3333333333333333},"draw":{"exact":"0","float":0},"loss":{"exact":"2/3","float":0.6666666666666666},` +
		`"score":{"exact":"1/3","float":0.3333333333333333}}`
	if string(b) != want {
		t.Errorf("got\n%s\nwant\n%s", b, want)
	}
}

// ratOf parses a Number's exact fraction.
func ratOf(t *testing.T, n answer.Number) *big.Rat {
	t.Helper()
	r, ok := new(big.Rat).SetString(n.Exact)
	if !ok {
		t.Fatalf("%+v: no exact fraction", n)
	}
	return r
}

// The parts of a result agree with each other: the seats share the pairs, the lead is seat 0's
// pairs minus seat 1's, the distribution adds up to 1 with seat 0's expected pairs as its mean,
// win, draw and loss are its parts above, at and below half the pairs, and the score counts a
// draw half; the float64 arithmetic gives the same to 1e-9.
func TestSolveIdentities(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		m    exact.Model
		mu   exact.Lineup
		st   rules.State
		dist bool
	}{
		{exact.Model{}, exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyParity}, rules.State{N: 6, J: 6}, true},
		{exact.Model{Singletons: 2}, exact.Lineup{Players: 2, Policy: rules.PolicyDaring, Opponent: rules.PolicySafe}, rules.State{N: 5, J: 4, S: 2, F: 1}, true},
		{exact.Model{Memory: rules.Memory{Capacity: 3, Forget: rules.ForgetLRU}}, exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}, rules.State{N: 6, J: 5}, true},
		{exact.Model{}, exact.Lineup{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}, rules.State{N: 5, J: 5, Lead: 1}, false},
		{exact.Model{}, exact.Lineup{Players: 3, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}, rules.State{N: 4, J: 4}, false},
		{exact.Model{}, exact.Lineup{Players: 1, Policy: rules.PolicyOptimal}, rules.State{N: 4, J: 4}, false},
	}
	for _, tt := range tests {
		res, err := answer.Solve(ctx, field.Rat{}, tt.m, tt.mu, tt.st, tt.dist)
		if err != nil {
			t.Fatal(err)
		}
		flt, err := answer.Solve(ctx, field.Float{}, tt.m, tt.mu, tt.st, tt.dist)
		if err != nil {
			t.Fatal(err)
		}
		if res.Model.Players != tt.mu.Players || res.Model.Pairs != tt.st.N || *res.Model.Unknown != tt.st.J || *res.Model.Lead != tt.st.Lead ||
			res.Model.Unseen != tt.st.F || res.Model.Singletons != tt.st.S || res.Model.Arithmetic != "exact" || flt.Model.Arithmetic != "float64" {
			t.Errorf("%v %v: model %+v", tt.mu, tt.st, res.Model)
		}
		if tt.mu.Players == 1 {
			if res.ExpectedTurns == nil || res.ExpectedLucky == nil || res.ExpectedPairs != nil ||
				res.ExpectedTurns.Float < float64(tt.st.N) || math.Abs(flt.ExpectedTurns.Float-res.ExpectedTurns.Float) > 1e-9 {
				t.Errorf("solitaire: %+v", res)
			}
			continue
		}
		sum := new(big.Rat)
		for _, v := range res.ExpectedBySeat {
			sum.Add(sum, ratOf(t, v))
		}
		if len(res.ExpectedBySeat) != tt.mu.Players || sum.Cmp(big.NewRat(int64(tt.st.N), 1)) != 0 ||
			ratOf(t, *res.ExpectedPairs).Cmp(ratOf(t, res.ExpectedBySeat[0])) != 0 {
			t.Errorf("%v %v: the seats expect %+v of %d pairs", tt.mu, tt.st, res.ExpectedBySeat, tt.st.N)
		}
		if tt.mu.Players == 2 {
			lead := new(big.Rat).Sub(ratOf(t, res.ExpectedBySeat[0]), ratOf(t, res.ExpectedBySeat[1]))
			if ratOf(t, *res.ExpectedLead).Cmp(lead) != 0 {
				t.Errorf("%v %v: lead %s, want %s", tt.mu, tt.st, res.ExpectedLead.Exact, lead.RatString())
			}
		} else if res.ExpectedLead != nil {
			t.Errorf("%d players: a lead", tt.mu.Players)
		}
		for i, v := range res.ExpectedBySeat {
			if math.Abs(flt.ExpectedBySeat[i].Float-v.Float) > 1e-9 || flt.ExpectedBySeat[i].Exact != "" {
				t.Errorf("%v %v seat %d: float %+v, exact %+v", tt.mu, tt.st, i, flt.ExpectedBySeat[i], v)
			}
		}
		playsToWin := tt.mu.Policy.PlaysToWin() || tt.mu.Opponent.PlaysToWin()
		if (res.Win != nil) != (tt.dist || playsToWin) || (res.ScoreDistribution != nil) != tt.dist {
			t.Errorf("%v %v: win %v, distribution %v", tt.mu, tt.st, res.Win, res.ScoreDistribution)
		}
		if res.Win != nil {
			w, d, l := ratOf(t, *res.Win), ratOf(t, *res.Draw), ratOf(t, *res.Loss)
			one := new(big.Rat).Add(w, d)
			if one.Add(one, l).Cmp(big.NewRat(1, 1)) != 0 {
				t.Errorf("%v %v: win + draw + loss = %s", tt.mu, tt.st, one.RatString())
			}
			score := new(big.Rat).Add(w, new(big.Rat).Quo(d, big.NewRat(2, 1)))
			if ratOf(t, *res.Score).Cmp(score) != 0 {
				t.Errorf("%v %v: score %s, want %s", tt.mu, tt.st, res.Score.Exact, score.RatString())
			}
		}
		if tt.dist {
			total, mean := new(big.Rat), new(big.Rat)
			win, draw := new(big.Rat), new(big.Rat)
			half := float64(tt.st.N) / 2
			for i, p := range res.ScoreDistribution {
				if p.Share != float64(i)/2 {
					t.Errorf("share %d is %g", i, p.Share)
				}
				x := ratOf(t, p.Probability)
				total.Add(total, x)
				mean.Add(mean, new(big.Rat).Mul(x, big.NewRat(int64(i), 2)))
				switch {
				case p.Share > half:
					win.Add(win, x)
				case p.Share == half:
					draw.Add(draw, x)
				}
			}
			if len(res.ScoreDistribution) != 2*tt.st.N+1 || total.Cmp(big.NewRat(1, 1)) != 0 || mean.Cmp(ratOf(t, *res.ExpectedPairs)) != 0 {
				t.Errorf("%v %v: %d shares adding up to %s with mean %s, want %d, 1 and %s",
					tt.mu, tt.st, len(res.ScoreDistribution), total.RatString(), mean.RatString(), 2*tt.st.N+1, res.ExpectedPairs.Exact)
			}
			if win.Cmp(ratOf(t, *res.Win)) != 0 || draw.Cmp(ratOf(t, *res.Draw)) != 0 {
				t.Errorf("%v %v: the distribution wins %s and draws %s, the result %s and %s",
					tt.mu, tt.st, win.RatString(), draw.RatString(), res.Win.Exact, res.Draw.Exact)
			}
		}
	}
}

// A question the solver cannot answer is its error.
func TestSolveError(t *testing.T) {
	mu := exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	m := exact.Model{Memory: rules.Memory{Capacity: 3, Forget: rules.ForgetLRU}, Variant: rules.Variant{Copies: 4}}
	res, err := answer.Solve(context.Background(), field.Rat{}, m, mu, rules.State{N: 4, J: 4}, false)
	if res != nil || err == nil || strings.Contains(err.Error(), "\n") {
		t.Errorf("four copies of a face under an lru memory: %v, %v", res, err)
	}
}

// A program prints the exact value of a lineup as JSON.
func ExampleSolve() {
	mu := exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyParity}
	res, err := answer.Solve(context.Background(), field.Rat{}, exact.Model{}, mu, rules.State{N: 4, J: 4}, false)
	if err != nil {
		panic(err)
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	enc.Encode(res.ExpectedBySeat)
	// Output:
	// [
	//   {
	//     "exact": "68/35",
	//     "float": 1.9428571428571428
	//   },
	//   {
	//     "exact": "72/35",
	//     "float": 2.057142857142857
	//   }
	// ]
}
