package stats

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// Errors returned by BradleyTerry, wrapped with details; test for them with errors.Is.
var (
	// ErrMismatchedSizes reports that the win matrix is not square with one row per name, or that
	// there are no players.
	ErrMismatchedSizes = errors.New("stats: BradleyTerry: mismatched sizes")
	// ErrInvalidCount reports a negative, NaN or infinite win count, or a nonzero diagonal entry
	// (a player beating itself).
	ErrInvalidCount = errors.New("stats: BradleyTerry: invalid win count")
	// ErrNoGames reports a player that played no games, whose strength is not identified.
	ErrNoGames = errors.New("stats: BradleyTerry: player with no games")
	// ErrNotStronglyConnected reports that the players can be split into two groups such that no
	// player of one group ever beat a player of the other: the likelihood then increases without
	// bound as that group's strengths go to infinity, so the maximum-likelihood estimate does not
	// exist (Zermelo 1929; Ford 1957; Hunter 2004, Assumption 1).
	ErrNotStronglyConnected = errors.New("stats: BradleyTerry: comparison graph not strongly connected; the maximum-likelihood estimate does not exist")
)

// Rating is one player's fitted Bradley–Terry strength; see BradleyTerry.
type Rating struct {
	// Name is the player's name, as passed to BradleyTerry.
	Name string
	// Score is the maximum-likelihood log-strength, centred so that the scores of all players sum
	// to zero: Score_i - Score_j is the estimated log-odds that i beats j (multiply by
	// 400/ln 10 ≈ 173.7 for Elo points).
	Score float64
	// Lo and Hi bound the Wald confidence interval of Score at the requested level:
	// Score ∓ Z(level)·SE, SE from the inverse Fisher information of the centred log-strengths.
	Lo, Hi float64
}

// BradleyTerry fits the Bradley–Terry model P(i beats j) = π_i/(π_i + π_j) by maximum likelihood.
// names[i] labels player i and wins[i][j] is the number of games i won against j; counts may be
// fractional (a caller may pass a draw as half a win to each side) and the diagonal must be 0. The
// ratings are returned in the order of names.
//
// Parametrisation: the log-strengths θ_i = log π_i are identified only up to a common constant,
// which is fixed by centring them to sum to zero, so Score is a player's strength relative to the
// (geometric) average of the players in this fit; adding or removing players shifts every Score.
// Differences of scores are invariant.
//
// The fit is Newton's method with step halving on the concave log-likelihood, started from equal
// strengths and run to convergence (steps below 1e-10); it agrees with Hunter's (2004) MM algorithm
// to rounding. The intervals are marginal Wald intervals Score ± Z(level)·SE_i, where SE_i² is the
// i-th diagonal entry of the covariance of the centred estimates: the inverse of the Fisher
// information of the log-strengths with one of them held at 0 (a positive-definite matrix, inverted
// with gonum's mat.Cholesky), transformed linearly to the centred parametrisation. For this model the
// observed and expected information coincide. Each interval covers its player's centred log-strength
// with probability about level in large samples; the intervals are not simultaneous, and an
// interval for a difference Score_i - Score_j is not implied by them (the estimates are correlated).
//
// BradleyTerry returns an error wrapping ErrMismatchedSizes, ErrInvalidCount, ErrNoGames or
// ErrNotStronglyConnected for the corresponding faults of the input, and a plain error if level is
// not in (0, 1).
func BradleyTerry(names []string, wins [][]float64, level float64) ([]Rating, error) {
	if !(level > 0 && level < 1) {
		return nil, fmt.Errorf("stats: BradleyTerry: confidence level %v is not in (0, 1)", level)
	}
	k := len(names)
	if k == 0 {
		return nil, fmt.Errorf("%w: no players", ErrMismatchedSizes)
	}
	if len(wins) != k {
		return nil, fmt.Errorf("%w: %d names but %d rows of wins", ErrMismatchedSizes, k, len(wins))
	}
	for i, row := range wins {
		if len(row) != k {
			return nil, fmt.Errorf("%w: row %d of wins has %d entries, want %d", ErrMismatchedSizes, i, len(row), k)
		}
		for j, w := range row {
			if !(w >= 0) || math.IsInf(w, 1) {
				return nil, fmt.Errorf("%w: wins[%d][%d] = %v", ErrInvalidCount, i, j, w)
			}
			if i == j && w != 0 {
				return nil, fmt.Errorf("%w: wins[%d][%d] = %v, a player cannot play itself", ErrInvalidCount, i, i, w)
			}
		}
	}
	for i := range k {
		var games float64
		for j := range k {
			games += wins[i][j] + wins[j][i]
		}
		if games == 0 {
			return nil, fmt.Errorf("%w: %q", ErrNoGames, names[i])
		}
	}
	if i, ok := stronglyConnected(wins); !ok {
		return nil, fmt.Errorf("%w (e.g. %q and %q are not linked both ways by chains of wins)", ErrNotStronglyConnected, names[0], names[i])
	}

	theta, cov, err := fitBT(wins)
	if err != nil {
		return nil, err
	}

	// Centre θ and transform the covariance V of (θ_1, ..., θ_{k-1}) given θ_0 = 0 to that of
	// c_i = θ_i - mean(θ): Var(c_i) = V_ii - (2/k)·Σ_j V_ij + (1/k²)·Σ_jl V_jl, with V's row and
	// column 0 zero.
	var mean float64
	for _, t := range theta {
		mean += t
	}
	mean /= float64(k)
	rowSum := make([]float64, k)
	var total float64
	for i := 1; i < k; i++ {
		for j := 1; j < k; j++ {
			rowSum[i] += cov.At(i-1, j-1)
		}
		total += rowSum[i]
	}
	fk := float64(k)
	z := Z(level)
	out := make([]Rating, k)
	for i := range k {
		var vii float64
		if i > 0 {
			vii = cov.At(i-1, i-1)
		}
		v := math.Max(0, vii-2*rowSum[i]/fk+total/(fk*fk))
		h := z * math.Sqrt(v)
		s := theta[i] - mean
		out[i] = Rating{Name: names[i], Score: s, Lo: s - h, Hi: s + h}
	}
	return out, nil
}

// stronglyConnected reports whether every player can be reached from player 0 along edges i→j with
// wins[i][j] > 0 and can reach player 0 along such edges. If not, it returns a player that fails.
func stronglyConnected(wins [][]float64) (int, bool) {
	k := len(wins)
	seen := make([]bool, k)
	stack := make([]int, 0, k)
	for dir := range 2 {
		clear(seen)
		seen[0] = true
		stack = append(stack[:0], 0)
		for len(stack) > 0 {
			i := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for j := range k {
				w := wins[i][j] // edge i→j: i beat j
				if dir == 1 {
					w = wins[j][i] // reversed graph: who beat i
				}
				if w > 0 && !seen[j] {
					seen[j] = true
					stack = append(stack, j)
				}
			}
		}
		for i, s := range seen {
			if !s {
				return i, false
			}
		}
	}
	return 0, true
}

// logSigmoid returns log(1/(1+exp(-x))) without overflow.
func logSigmoid(x float64) float64 {
	if x >= 0 {
		return -math.Log1p(math.Exp(-x))
	}
	return x - math.Log1p(math.Exp(x))
}

// btLogLik returns the Bradley–Terry log-likelihood Σ_{i≠j} wins[i][j]·log P(i beats j).
func btLogLik(wins [][]float64, theta []float64) float64 {
	var ll float64
	for i, row := range wins {
		for j, w := range row {
			if w > 0 {
				ll += w * logSigmoid(theta[i]-theta[j])
			}
		}
	}
	return ll
}

// fitBT maximises the Bradley–Terry likelihood over θ with θ_0 = 0 by Newton's method with step
// halving. It returns θ and the inverse of the Fisher information of (θ_1, ..., θ_{k-1}) at the
// maximum. wins must have passed BradleyTerry's checks, which guarantee that the maximum exists and
// the information is positive definite.
func fitBT(wins [][]float64) (theta []float64, cov *mat.SymDense, err error) {
	k := len(wins) // at least 2: a lone player has no games
	theta = make([]float64, k)
	m := k - 1
	info := mat.NewSymDense(m, nil)
	grad := mat.NewVecDense(m, nil)
	step := mat.NewVecDense(m, nil)
	trial := make([]float64, k)
	var chol mat.Cholesky

	// information fills info and grad at theta (free coordinates 1..k-1 map to indices 0..m-1).
	information := func() {
		info.Zero()
		grad.Zero()
		for i := range k {
			for j := i + 1; j < k; j++ {
				n := wins[i][j] + wins[j][i]
				if n == 0 {
					continue
				}
				p := math.Exp(logSigmoid(theta[i] - theta[j])) // P(i beats j)
				f := n * p * (1 - p)
				g := wins[i][j] - n*p // d loglik / d θ_i from this pair; the opposite for θ_j
				if i > 0 {
					info.SetSym(i-1, i-1, info.At(i-1, i-1)+f)
					grad.SetVec(i-1, grad.AtVec(i-1)+g)
				}
				if j > 0 {
					info.SetSym(j-1, j-1, info.At(j-1, j-1)+f)
					grad.SetVec(j-1, grad.AtVec(j-1)-g)
				}
				if i > 0 && j > 0 {
					info.SetSym(i-1, j-1, info.At(i-1, j-1)-f)
				}
			}
		}
	}

	// Far from the maximum, Newton steps are damped by halving until the log-likelihood does not
	// decrease. Near it — the Newton decrement λ² = gradᵀ·info⁻¹·grad (twice the predicted gain in
	// log-likelihood) is small, or the step is short compared with the scale, about 1, on which the
	// information changes — the quadratic model is accurate but log-likelihood differences drown in
	// rounding, so full steps are taken until they are negligible or stop shrinking.
	const (
		maxIter   = 500
		nearLam2  = 1e-6
		nearStep  = 1e-3
		smallStep = 1e-10
	)
	ll := btLogLik(wins, theta)
	prevSize := math.Inf(1)
	for iter := 0; ; iter++ {
		if iter == maxIter {
			return nil, nil, fmt.Errorf("stats: BradleyTerry: Newton iteration did not converge in %d steps", maxIter)
		}
		information()
		if !chol.Factorize(info) {
			return nil, nil, errors.New("stats: BradleyTerry: Fisher information is not positive definite")
		}
		if err := chol.SolveVecTo(step, grad); err != nil {
			return nil, nil, fmt.Errorf("stats: BradleyTerry: %w", err)
		}
		var size float64
		for i := range m {
			size = math.Max(size, math.Abs(step.AtVec(i)))
		}
		if size < nearStep || mat.Dot(grad, step) < nearLam2 {
			if size >= prevSize {
				break // rounding floor reached
			}
			for i := range m {
				theta[i+1] += step.AtVec(i)
			}
			if size < smallStep {
				break
			}
			prevSize = size
			continue
		}
		improved := false
		for t := 1.0; t > 1e-15; t /= 2 {
			for i := range m {
				trial[i+1] = theta[i+1] + t*step.AtVec(i)
			}
			if tl := btLogLik(wins, trial); tl >= ll {
				ll = tl
				copy(theta, trial)
				improved = true
				break
			}
		}
		if !improved {
			break // only rounding can stop an ascent direction from ascending
		}
	}
	information()
	if !chol.Factorize(info) {
		return nil, nil, errors.New("stats: BradleyTerry: Fisher information is not positive definite")
	}
	cov = mat.NewSymDense(m, nil)
	if err := chol.InverseTo(cov); err != nil {
		return nil, nil, fmt.Errorf("stats: BradleyTerry: %w", err)
	}
	return theta, cov, nil
}
