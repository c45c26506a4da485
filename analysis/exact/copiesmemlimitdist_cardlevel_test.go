package exact

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"slices"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// cmLimitDistRef is the card-level reference of the score distribution of the copies model under
// a limited memory, a turn limit and a pass rule, both memories: the game is played card by card
// as in cmLimitRef and cdLimitRef (turn and pass give a turn's and a pass's card-level outcomes),
// and a card-level state's distribution is that of the pairs the mover and the other seat take
// by the limit, in half pairs (a stalemate shares the pairs left equally).
type cmLimitDistRef struct {
	copies    int
	pass      rules.PassRule
	turn      func(tab cmTable, c rules.Choice) []cmEdge
	passTurn  func(tab cmTable) []cmEdge
	choose    func(role int, counts []int, after bool, t int) rules.Choice
	memo      map[string]map[[2]int]float64
	passLegal func(tab cmTable) bool
}

// dist returns the distribution of the half pairs (mover's, other seat's) taken from tab with t
// turns left.
func (r *cmLimitDistRef) dist(tab cmTable, after bool, t int) map[[2]int]float64 {
	if t == 0 || len(tab.cards) == 0 {
		return map[[2]int]float64{{0, 0}: 1}
	}
	tab.cards = append([]cmCard(nil), tab.cards...)
	slices.SortFunc(tab.cards, func(a, b cmCard) int {
		if a.face != b.face {
			return a.face - b.face
		}
		if a.rem == b.rem {
			return 0
		}
		if a.rem {
			return 1
		}
		return -1
	})
	k := fmt.Sprintf("%s/%d", passKey(tab, after), t)
	if x, ok := r.memo[k]; ok {
		return x
	}
	var c rules.Choice // a pair known whole is taken whatever the choice (cmRef.turn)
	if !knownWhole(tab) {
		c = r.choose(tab.role, tab.counts(r.copies), after, t)
	}
	x := map[[2]int]float64{}
	switch {
	case c == rules.Pass && !knownWhole(tab):
		if !r.passLegal(tab) {
			panic(fmt.Sprintf("a pass where it is not legal: %v", tab))
		}
		if after {
			h := len(tab.cards) / 2
			x[[2]int{h, h}] = 1
			break
		}
		for _, e := range r.passTurn(tab) {
			for o, p := range r.dist(tableOfKey(e.to), true, t-1) {
				x[[2]int{o[1], o[0]}] += e.p * p
			}
		}
	default:
		for _, e := range r.turn(tab, c) {
			g := int(math.Round(2 * e.gain))
			for o, p := range r.dist(tableOfKey(e.to), false, t-1) {
				if e.keep {
					x[[2]int{g + o[0], o[1]}] += e.p * p
					continue
				}
				x[[2]int{o[1], g + o[0]}] += e.p * p
			}
		}
	}
	r.memo[k] = x
	return x
}

// checkCMLimitDistribution compares the solver's distribution of m (a limited memory, a turn
// limit) with the card-level reference's from st over tables (each as likely), and checks its
// identities: the probabilities add up to 1, its means are the solved pairs, and big.Rat agrees.
func checkCMLimitDistribution(t *testing.T, name string, m Model, mu Lineup, st CopiesState, ref *cmLimitDistRef, tables []cmTable) {
	t.Helper()
	ctx := context.Background()
	d, err := CopiesDistribution(ctx, field.Float{}, m, mu, st)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	l, err := newCMLimit(ctx, field.Float{}, m, mu, st)
	if err != nil {
		t.Fatal(err)
	}
	ref.choose = cmLimitChooserOf(t, l, [2]rules.Policy{mu.Policy, mu.Opponent})
	ref.memo = map[string]map[[2]int]float64{}
	n := st.Pairs()
	want0, want1 := make([]float64, 2*n+1), make([]float64, 2*n+1)
	var win, draw, loss float64
	for _, tab := range tables {
		for o, p := range ref.dist(tab, false, m.Variant.TurnLimit) {
			p /= float64(len(tables))
			want0[o[0]] += p
			want1[o[1]] += p
			switch {
			case o[0] > o[1]:
				win += p
			case o[0] == o[1]:
				draw += p
			default:
				loss += p
			}
		}
	}
	for i := range want0 {
		if math.Abs(d.Prob[i]-want0[i]) > 1e-9 || math.Abs(d.Prob1[i]-want1[i]) > 1e-9 {
			t.Errorf("%s: seat shares %g pairs: %.12f, %.12f; card play %.12f, %.12f", name, float64(i)/2, d.Prob[i], d.Prob1[i], want0[i], want1[i])
		}
	}
	if math.Abs(d.Win-win) > 1e-9 || math.Abs(d.Draw-draw) > 1e-9 || math.Abs(d.Loss-loss) > 1e-9 {
		t.Errorf("%s: win/draw/loss %.12f/%.12f/%.12f; card play %.12f/%.12f/%.12f", name, d.Win, d.Draw, d.Loss, win, draw, loss)
	}
	// Identities: total probability 1, the means are the values solved.
	res := l.result(st)
	var sum, mean0, mean1 float64
	for i := range d.Prob {
		sum += d.Prob[i]
		mean0 += d.Prob[i] * float64(i) / 2
		mean1 += d.Prob1[i] * float64(i) / 2
	}
	if math.Abs(sum-1) > 1e-9 || math.Abs(d.Win+d.Draw+d.Loss-1) > 1e-9 {
		t.Errorf("%s: probabilities add up to %.12f, win/draw/loss to %.12f", name, sum, d.Win+d.Draw+d.Loss)
	}
	if math.Abs(mean0-res.PairsBySeat[0]) > 1e-9 || math.Abs(mean1-res.PairsBySeat[1]) > 1e-9 {
		t.Errorf("%s: means %.12f, %.12f; the values %.12f, %.12f", name, mean0, mean1, res.PairsBySeat[0], res.PairsBySeat[1])
	}
	dr, err := CopiesDistribution(ctx, field.Rat{}, m, mu, st)
	if err != nil {
		t.Fatal(err)
	}
	var rf field.Rat
	for i := range dr.Prob {
		if a, b := rf.Float64(dr.Prob[i]), rf.Float64(dr.Prob1[i]); math.Abs(a-d.Prob[i]) > 1e-9 || math.Abs(b-d.Prob1[i]) > 1e-9 {
			t.Errorf("%s: share %g: big.Rat %s, %s; float64 %.12f, %.12f", name, float64(i)/2, dr.Prob[i].RatString(), dr.Prob1[i].RatString(), d.Prob[i], d.Prob1[i])
		}
	}
	var one big.Rat
	for _, p := range dr.Prob {
		one.Add(&one, p)
	}
	if one.Cmp(big.NewRat(1, 1)) != 0 {
		t.Errorf("%s: the big.Rat probabilities add up to %s", name, one.RatString())
	}
}

// TestCopiesLimitedMemoryLimitDistributionMatchesCardPlay checks the score distribution of the
// copies model under a handover-uniform or decay memory and a turn limit against card play over
// every deal and every forgetting draw, under every pass rule, for fixed policies, the optimum
// and best responses: both seats' shares and win/draw/loss, with the identities of
// checkCMLimitDistribution.
func TestCopiesLimitedMemoryLimitDistributionMatchesCardPlay(t *testing.T) {
	type deck struct {
		faces, copies, capacity, limit int
		q                              float64 // 0: handover-uniform
	}
	decks := []deck{{2, 4, 2, 5, 0}, {2, 4, 0, 5, 0.25}}
	lineups := []Lineup{
		{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicyOptimal},
	}
	passes := []rules.PassRule{rules.PassAlways}
	if !testing.Short() {
		decks = append(decks, deck{3, 4, 3, 6, 0}, deck{2, 4, 2, 7, 0.5}, deck{2, 6, 2, 6, 0.25})
		lineups = append(lineups,
			Lineup{Players: 2, Policy: rules.PolicySafe, Opponent: rules.PolicyDaring},
			Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal},
			Lineup{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicySafe})
		passes = []rules.PassRule{rules.PassNever, rules.PassTwoKnown, rules.PassAlways}
	}
	for _, pass := range passes {
		for _, d := range decks {
			for _, mu := range lineups {
				st, err := StartCopiesState(d.faces*d.copies/2, d.copies)
				if err != nil {
					t.Fatal(err)
				}
				ref := &cmLimitDistRef{copies: d.copies, pass: pass, passLegal: (&cmPassRef{pass: pass}).passLegal}
				var m Model
				if d.q == 0 {
					m = handoverCopies(d.capacity, d.copies)
					cr := &cmRef{capacity: d.capacity, copies: d.copies}
					ref.turn = cr.turn
					ref.passTurn = func(tab cmTable) []cmEdge {
						return []cmEdge{{p: 1, to: cmTable{cards: tab.cards, role: 1 - tab.role}.key()}}
					}
				} else {
					m = decayCopies(d.q, d.capacity, d.copies)
					cr := &cdPassRef{cdRef: cdRef{q: d.q, capacity: d.capacity, copies: d.copies}, pass: pass}
					ref.turn, ref.passTurn = cr.turn, cr.passTurn
				}
				m.Pass, m.Variant.TurnLimit = pass, d.limit
				name := fmt.Sprintf("pass %s, %d faces of %d, %s, turn limit %d, %s", pass, d.faces, d.copies, m.Memory, d.limit, lineupName(mu))
				checkCMLimitDistribution(t, name, m, mu, st, ref, cmDeals(d.faces, d.copies))
			}
		}
	}
}

// TestCopiesLimitedMemoryDistributionUnderALimitThatDoesNotBindIsTheUnlimitedOne checks that
// under a turn limit far longer than the games last but with a vanishing probability, the
// distribution of a fixed lineup is the one solved without a limit (seat 1's the mirror image).
func TestCopiesLimitedMemoryDistributionUnderALimitThatDoesNotBindIsTheUnlimitedOne(t *testing.T) {
	ctx := context.Background()
	mu := Lineup{Players: 2, Policy: rules.PolicySafe, Opponent: rules.PolicyDaring}
	for _, m := range []Model{handoverCopies(2, 4), decayCopies(0.25, 2, 4)} {
		st, err := StartCopiesState(4, 4)
		if err != nil {
			t.Fatal(err)
		}
		free, err := CopiesDistribution(ctx, field.Float{}, m, mu, st)
		if err != nil {
			t.Fatal(err)
		}
		m.Variant.TurnLimit = 120
		d, err := CopiesDistribution(ctx, field.Float{}, m, mu, st)
		if err != nil {
			t.Fatal(err)
		}
		if d.Prob1 == nil {
			t.Fatalf("%s: no seat-1 distribution under a turn limit", m.Memory)
		}
		for i := range free.Prob {
			if math.Abs(d.Prob[i]-free.Prob[i]) > 1e-9 || math.Abs(d.Prob1[i]-free.Prob[len(free.Prob)-1-i]) > 1e-9 {
				t.Errorf("%s: share %g: limit 120 %.12f, %.12f; unlimited %.12f, %.12f", m.Memory, float64(i)/2, d.Prob[i], d.Prob1[i], free.Prob[i], free.Prob[len(free.Prob)-1-i])
			}
		}
	}
}
