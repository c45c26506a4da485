package stats

import (
	"errors"
	"fmt"
	"math"
)

// sprtSigmaFloor is the smallest standard deviation SPRT uses, as a fraction of the effect d. At
// σ = d/1000 a single observation moves the log-likelihood ratio by about d²/(2σ²) = 5·10⁵, far
// beyond any threshold, so the floor only matters for (nearly) noise-free data, where an immediate
// decision is right anyway; it keeps d/σ ≤ 1000, so the ratio cannot overflow through the division.
const sprtSigmaFloor = 1e-3

// SPRT is Wald's sequential probability ratio test for the hypothesis "A beats B by at least d per
// game", run on a stream of real-valued observations such as the per-deal lead of A over B. The
// observations are modelled as independent normal with mean μ and variance σ², and the test decides
// between the simple hypotheses H0: μ = 0 and H1: μ = d (d > 0) with error rates about alpha
// (accepting H1 when H0 holds) and beta (accepting H0 when H1 holds). For means between 0 and d
// either decision may be taken; for means beyond either end the corresponding decision is taken
// with a probability that is better than its nominal rate.
//
// The log-likelihood ratio of n observations with sum S is
//
//	llr = (d/σ²)·(S - n·d/2) = (d/σ)·(n·(mean - d/2)/σ),
//
// evaluated in the second form, without exponentials. σ² is Sigma2 if that is set, otherwise the
// pooled sample variance of all observations added so far (Moments.Variance of their merge), which
// makes the test approximate — with an estimated σ the error rates are not exactly alpha and beta,
// but for the hundreds of observations it typically needs the difference is negligible. In both
// cases σ is floored at d/1000 so that a noise-free stream cannot divide by zero.
//
// Observations arrive in batches through Add; the caller checks Decision after each batch and stops
// at the first nonzero decision, so decisions are only taken at batch boundaries. The overshoot of
// the thresholds this causes makes the test slightly conservative (lower error rates, a few more
// observations).
//
// Create an SPRT with NewSPRT; the zero value is not usable.
type SPRT struct {
	// Sigma2, if positive and finite, is the known variance of one observation, in squared units,
	// used instead of the running estimate. NewSPRT leaves it 0 (estimate from the data).
	Sigma2 float64
	// MinN is the number of observations below which Decision always returns 0 (continue) when the
	// variance is estimated, because with very few observations the estimate is unreliable.
	// NewSPRT sets it to 2, the fewest with any variance estimate; raise it when batches are tiny.
	MinN int64

	d            float64
	lower, upper float64 // B = log(beta/(1-alpha)) < 0 < A = log((1-beta)/alpha)
	obs          Moments
}

// NewSPRT returns a sequential test of H0: mean 0 against H1: mean d, where d > 0 is the smallest
// lead per observation worth detecting, alpha the tolerated probability of accepting H1 when H0
// holds and beta that of accepting H0 when H1 holds. The thresholds are Wald's
// A = log((1-beta)/alpha) and B = log(beta/(1-alpha)). It returns an error unless d is positive and
// finite, alpha and beta are in (0, 1) and alpha + beta < 1 (otherwise A ≤ 0 or B ≥ 0 and the test
// would decide without data). To test for B beating A, negate the observations.
func NewSPRT(d, alpha, beta float64) (*SPRT, error) {
	if !(d > 0) || math.IsInf(d, 1) {
		return nil, fmt.Errorf("stats: NewSPRT: effect d = %v is not positive and finite", d)
	}
	if !(alpha > 0 && alpha < 1) || !(beta > 0 && beta < 1) {
		return nil, fmt.Errorf("stats: NewSPRT: error rates alpha = %v, beta = %v are not in (0, 1)", alpha, beta)
	}
	if alpha+beta >= 1 {
		return nil, errors.New("stats: NewSPRT: alpha + beta must be below 1")
	}
	return &SPRT{
		MinN:  2,
		d:     d,
		upper: math.Log((1 - beta) / alpha),
		lower: math.Log(beta / (1 - alpha)),
	}, nil
}

// Add adds a batch of observations summarised by their moments (typically accumulated by a worker
// with Moments.Add or built with MomentsFromHistogram). An empty batch changes nothing.
func (s *SPRT) Add(m Moments) {
	s.obs.Merge(m)
}

// Observations returns the moments of every observation added so far.
func (s *SPRT) Observations() Moments {
	return s.obs
}

// Thresholds returns Wald's stopping thresholds for the log-likelihood ratio: the test accepts H0
// when it is at or below lower = log(beta/(1-alpha)) and H1 when it is at or above
// upper = log((1-beta)/alpha).
func (s *SPRT) Thresholds() (lower, upper float64) {
	return s.lower, s.upper
}

// Decision returns the log-likelihood ratio of H1 against H0 for the observations added so far (see
// SPRT for the formula and the variance used) and the decision it implies: +1 to accept H1 (llr ≥
// upper threshold), -1 to accept H0 (llr ≤ lower threshold), 0 to continue sampling. With no
// observations llr is 0; while fewer than MinN observations have been added and Sigma2 is not set,
// the decision is 0 whatever llr is. llr is never NaN; it may be ±Inf for data enormous compared
// with d. Decision does not latch: it reflects all data added, so stop adding at the first nonzero
// decision.
func (s *SPRT) Decision() (decision int, llr float64) {
	n := s.obs.N
	if n == 0 {
		return 0, 0
	}
	known := s.Sigma2 > 0 && !math.IsInf(s.Sigma2, 1)
	var sigma float64
	if known {
		sigma = math.Sqrt(s.Sigma2)
	} else {
		sigma = s.obs.StdDev()
	}
	sigma = math.Max(sigma, sprtSigmaFloor*s.d)
	llr = (s.d / sigma) * (float64(n) * (s.obs.Mean - s.d/2) / sigma)
	if !known && n < s.MinN {
		return 0, llr
	}
	switch {
	case llr >= s.upper:
		return 1, llr
	case llr <= s.lower:
		return -1, llr
	}
	return 0, llr
}
