package stats

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// mmBradleyTerry fits the Bradley–Terry model with Hunter's (2004) MM algorithm,
// π_i ← W_i / Σ_j n_ij/(π_i+π_j), an independent route to the MLE; it returns centred log-strengths.
func mmBradleyTerry(wins [][]float64) []float64 {
	k := len(wins)
	pi := make([]float64, k)
	next := make([]float64, k)
	for i := range pi {
		pi[i] = 1
	}
	for iter := 0; iter < 1_000_000; iter++ {
		for i := range k {
			var w, den float64
			for j := range k {
				w += wins[i][j]
				if n := wins[i][j] + wins[j][i]; n > 0 {
					den += n / (pi[i] + pi[j])
				}
			}
			next[i] = w / den
		}
		var logMean float64
		for _, p := range next {
			logMean += math.Log(p)
		}
		scale := math.Exp(logMean / float64(k))
		var change float64
		for i := range k {
			next[i] /= scale
			change = math.Max(change, math.Abs(math.Log(next[i]/pi[i])))
		}
		pi, next = next, pi
		if change < 1e-14 {
			break
		}
	}
	theta := make([]float64, k)
	for i, p := range pi {
		theta[i] = math.Log(p)
	}
	return theta
}

// simulateWins plays games games between every pair of players with log-strengths theta.
func simulateWins(r *rand.Rand, theta []float64, games int) [][]float64 {
	k := len(theta)
	wins := make([][]float64, k)
	for i := range wins {
		wins[i] = make([]float64, k)
	}
	for i := range k {
		for j := i + 1; j < k; j++ {
			p := 1 / (1 + math.Exp(theta[j]-theta[i]))
			for g := 0; g < games; g++ {
				if r.Float64() < p {
					wins[i][j]++
				} else {
					wins[j][i]++
				}
			}
		}
	}
	return wins
}

func names(k int) []string {
	ns := make([]string, k)
	for i := range ns {
		ns[i] = fmt.Sprintf("p%d", i)
	}
	return ns
}

func TestBradleyTerryHandChecked(t *testing.T) {
	// Strengths π = (4, 2, 1) and game counts whose observed win fractions equal the model's
	// probabilities exactly: A–B 2:1 (4/6), B–C 2:1 (2/3), A–C 4:1 (4/5). The likelihood equations
	// W_i = Σ_j n_ij·π_i/(π_i+π_j) then hold at π, so the centred MLE is
	// log(4, 2, 1) - log 2 = (ln 2, 0, -ln 2).
	//
	// Fisher information per pair n·p(1-p): A–B 2/3, B–C 2/3, A–C 4/5. Holding θ_C = 0, the
	// information of (θ_A, θ_B) is [[22/15, -2/3], [-2/3, 4/3]], determinant 68/45, inverse
	// V = [[15/17, 15/34], [15/34, 33/34]]. The centred θ_A is (2θ_A - θ_B)/3, variance
	// (4·15/17 - 4·15/34 + 33/34)/9 = 31/102; θ_B centred is (2θ_B - θ_A)/3, variance
	// (4·33/34 - 4·15/34 + 15/17)/9 = 1/3; θ_C centred is -(θ_A + θ_B)/3, variance
	// (15/17 + 2·15/34 + 33/34)/9 = 31/102.
	wins := [][]float64{
		{0, 2, 4},
		{1, 0, 2},
		{1, 1, 0},
	}
	rs, err := BradleyTerry([]string{"A", "B", "C"}, wins, 0.95)
	if err != nil {
		t.Fatal(err)
	}
	z := Z(0.95)
	want := []struct {
		name  string
		score float64
		se    float64
	}{
		{"A", math.Ln2, math.Sqrt(31.0 / 102)},
		{"B", 0, math.Sqrt(1.0 / 3)},
		{"C", -math.Ln2, math.Sqrt(31.0 / 102)},
	}
	for i, w := range want {
		r := rs[i]
		if r.Name != w.name || math.Abs(r.Score-w.score) > 1e-12 ||
			math.Abs(r.Lo-(w.score-z*w.se)) > 1e-10 || math.Abs(r.Hi-(w.score+z*w.se)) > 1e-10 {
			t.Errorf("rating %d = %+v, want %s %v ± %v", i, r, w.name, w.score, z*w.se)
		}
	}
}

func TestBradleyTerryTwoPlayersFractional(t *testing.T) {
	// Two players, draws as half wins: 1.5 to 0.5. The MLE of θ_0 - θ_1 is logit(1.5/2) = ln 3, so the
	// centred scores are ±ln(3)/2. The information of the difference is n·p(1-p) = 2·0.75·0.25, so
	// each centred score (half the difference) has variance 1/(4·0.375).
	rs, err := BradleyTerry([]string{"x", "y"}, [][]float64{{0, 1.5}, {0.5, 0}}, 0.9)
	if err != nil {
		t.Fatal(err)
	}
	h := Z(0.9) * math.Sqrt(1/(4*0.375))
	for i, sign := range []float64{1, -1} {
		s := sign * math.Log(3) / 2
		if r := rs[i]; math.Abs(r.Score-s) > 1e-12 || math.Abs(r.Lo-(s-h)) > 1e-10 || math.Abs(r.Hi-(s+h)) > 1e-10 {
			t.Errorf("rating %d = %+v, want %v ± %v", i, r, s, h)
		}
	}
}

func TestBradleyTerryMatchesMM(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for trial := 0; trial < 20; trial++ {
		k := 2 + r.IntN(7)
		theta := make([]float64, k)
		for i := range theta {
			theta[i] = 1.5 * r.NormFloat64()
		}
		wins := simulateWins(r, theta, 5+r.IntN(40))
		// Some fractional counts (draws) and some pairs that never met.
		for i := range k {
			for j := range k {
				if i != j && r.IntN(4) == 0 {
					wins[i][j] += 0.5
				}
			}
		}
		rs, err := BradleyTerry(names(k), wins, 0.95)
		if errors.Is(err, ErrNotStronglyConnected) {
			continue // possible with extreme strengths and few games
		}
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		mm := mmBradleyTerry(wins)
		var sum float64
		for i, rt := range rs {
			sum += rt.Score
			if math.Abs(rt.Score-mm[i]) > 1e-8 {
				t.Errorf("trial %d, player %d: Newton %v, MM %v", trial, i, rt.Score, mm[i])
			}
			if !(rt.Lo < rt.Score && rt.Score < rt.Hi) || !near(rt.Score-rt.Lo, rt.Hi-rt.Score, 1e-9) {
				t.Errorf("trial %d, player %d: bad interval %+v", trial, i, rt)
			}
		}
		if math.Abs(sum) > 1e-9 {
			t.Errorf("trial %d: scores sum to %v, want 0", trial, sum)
		}
	}
}

func TestBradleyTerryLopsided(t *testing.T) {
	// Nearly separated data, strengths about 7 and 14 log-odds apart: the damped Newton iteration
	// must still converge to the MLE found by MM.
	wins := [][]float64{
		{0, 999, 4999.5},
		{1, 0, 999},
		{0.5, 1, 0},
	}
	rs, err := BradleyTerry([]string{"a", "b", "c"}, wins, 0.95)
	if err != nil {
		t.Fatal(err)
	}
	mm := mmBradleyTerry(wins)
	for i, rt := range rs {
		if math.Abs(rt.Score-mm[i]) > 1e-8 || !(rt.Lo < rt.Score && rt.Score < rt.Hi) {
			t.Errorf("player %d: %+v, MM %v", i, rt, mm[i])
		}
	}
	if d := rs[0].Score - rs[2].Score; d < 12 {
		t.Errorf("a - c = %v, want about 14", d)
	}
}

func TestBradleyTerryRecoversStrengths(t *testing.T) {
	theta := []float64{-1.2, -0.5, -0.1, 0.2, 0.6, 1.0} // sums to 0
	r := rand.New(rand.NewPCG(15, 16))
	rs, err := BradleyTerry(names(len(theta)), simulateWins(r, theta, 3000), 0.95)
	if err != nil {
		t.Fatal(err)
	}
	for i, rt := range rs {
		se := (rt.Hi - rt.Lo) / (2 * Z(0.95))
		if math.Abs(rt.Score-theta[i]) > 4*se || se > 0.05 {
			t.Errorf("player %d: %+v (se %v), true %v", i, rt, se, theta[i])
		}
	}
}

func TestBradleyTerryCoverage(t *testing.T) {
	// The 90% Wald intervals should cover the true centred log-strengths about 90% of the time.
	theta := []float64{-0.8, -0.3, 0, 0.4, 0.7} // sums to 0
	r := rand.New(rand.NewPCG(17, 18))
	const reps = 400
	var covered, total int
	for rep := 0; rep < reps; rep++ {
		rs, err := BradleyTerry(names(len(theta)), simulateWins(r, theta, 60), 0.9)
		if err != nil {
			t.Fatal(err)
		}
		for i, rt := range rs {
			total++
			if rt.Lo <= theta[i] && theta[i] <= rt.Hi {
				covered++
			}
		}
	}
	// 2000 intervals, correlated within a replication; ±0.03 is about 4.5 binomial sd.
	if rate := float64(covered) / float64(total); math.Abs(rate-0.9) > 0.03 {
		t.Errorf("coverage of 90%% intervals = %v", rate)
	}
}

func TestBradleyTerryInvariances(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 20))
	theta := []float64{0.3, -0.7, 1.1, 0, -0.4}
	k := len(theta)
	wins := simulateWins(r, theta, 25)
	ns := names(k)
	base, err := BradleyTerry(ns, wins, 0.95)
	if err != nil {
		t.Fatal(err)
	}

	// Relabelling: permuting the players permutes the ratings.
	perm := r.Perm(k)
	pn := make([]string, k)
	pw := make([][]float64, k)
	for a := range k {
		pn[a] = ns[perm[a]]
		pw[a] = make([]float64, k)
		for b := range k {
			pw[a][b] = wins[perm[a]][perm[b]]
		}
	}
	permuted, err := BradleyTerry(pn, pw, 0.95)
	if err != nil {
		t.Fatal(err)
	}
	for a, rt := range permuted {
		w := base[perm[a]]
		if rt.Name != w.Name || math.Abs(rt.Score-w.Score) > 1e-10 || math.Abs(rt.Lo-w.Lo) > 1e-10 || math.Abs(rt.Hi-w.Hi) > 1e-10 {
			t.Errorf("permuted %d = %+v, want %+v", a, rt, w)
		}
	}

	// Scaling every count by c leaves the MLE unchanged and divides the standard errors by sqrt(c).
	for _, c := range []float64{0.01, 4, 1e10} {
		scaled := make([][]float64, k)
		for i := range scaled {
			scaled[i] = make([]float64, k)
			for j := range scaled[i] {
				scaled[i][j] = c * wins[i][j]
			}
		}
		sc, err := BradleyTerry(ns, scaled, 0.95)
		if err != nil {
			t.Fatalf("scale %v: %v", c, err)
		}
		for i, rt := range sc {
			w := base[i]
			if math.Abs(rt.Score-w.Score) > 1e-10 || !near(rt.Hi-rt.Score, (w.Hi-w.Score)/math.Sqrt(c), 1e-9) {
				t.Errorf("scale %v, player %d: %+v, base %+v", c, i, rt, w)
			}
		}
	}
}

func TestBradleyTerryErrors(t *testing.T) {
	ok3 := [][]float64{{0, 1, 1}, {1, 0, 1}, {1, 1, 0}}
	cases := []struct {
		name  string
		names []string
		wins  [][]float64
		level float64
		want  error // nil: any error
	}{
		{"no players", nil, nil, 0.95, ErrMismatchedSizes},
		{"too few rows", []string{"a", "b", "c"}, ok3[:2], 0.95, ErrMismatchedSizes},
		{"short row", []string{"a", "b", "c"}, [][]float64{{0, 1, 1}, {1, 0}, {1, 1, 0}}, 0.95, ErrMismatchedSizes},
		{"negative", []string{"a", "b"}, [][]float64{{0, -1}, {1, 0}}, 0.95, ErrInvalidCount},
		{"NaN", []string{"a", "b"}, [][]float64{{0, math.NaN()}, {1, 0}}, 0.95, ErrInvalidCount},
		{"infinite", []string{"a", "b"}, [][]float64{{0, math.Inf(1)}, {1, 0}}, 0.95, ErrInvalidCount},
		{"self-play", []string{"a", "b"}, [][]float64{{1, 1}, {1, 0}}, 0.95, ErrInvalidCount},
		{"single player", []string{"a"}, [][]float64{{0}}, 0.95, ErrNoGames},
		{"idle player", []string{"a", "b", "c"}, [][]float64{{0, 1, 0}, {1, 0, 0}, {0, 0, 0}}, 0.95, ErrNoGames},
		// a beat b every time: the MLE sends θ_a - θ_b to +∞.
		{"undefeated", []string{"a", "b"}, [][]float64{{0, 3}, {0, 0}}, 0.95, ErrNotStronglyConnected},
		// Two groups {a, b} and {c, d} that never met.
		{"disconnected", []string{"a", "b", "c", "d"}, [][]float64{{0, 1, 0, 0}, {1, 0, 0, 0}, {0, 0, 0, 1}, {0, 0, 1, 0}}, 0.95, ErrNotStronglyConnected},
		// Connected but not strongly: {a, b} beat {c} in every game between the groups.
		{"dominant group", []string{"a", "b", "c"}, [][]float64{{0, 1, 2}, {1, 0, 1}, {0, 0, 0}}, 0.95, ErrNotStronglyConnected},
		{"bad level", []string{"a", "b", "c"}, ok3, 1, nil},
	}
	for _, c := range cases {
		rs, err := BradleyTerry(c.names, c.wins, c.level)
		if err == nil || rs != nil || c.want != nil && !errors.Is(err, c.want) {
			t.Errorf("%s: BradleyTerry = %v, %v; want error %v", c.name, rs, err, c.want)
		}
	}
	// A cycle a > b > c > a is strongly connected although no pair has wins both ways.
	rs, err := BradleyTerry([]string{"a", "b", "c"}, [][]float64{{0, 1, 0}, {0, 0, 1}, {1, 0, 0}}, 0.95)
	if err != nil {
		t.Fatalf("cycle: %v", err)
	}
	for _, rt := range rs {
		if math.Abs(rt.Score) > 1e-12 {
			t.Errorf("cycle: %+v, want score 0 by symmetry", rt)
		}
	}
}
