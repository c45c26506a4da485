package exact

import "fmt"

// Bounds on one request to the solver (Evaluate, or Table up to a deal size), from the time and
// memory it takes. A sweep visits every state (n', j, f) with n' <= n, SweepStates of them,
// keeping two rows; exact rationals grow with n. CheckSize applies them.
const (
	// MaxRationalPairs is the largest deal size solved in exact rationals: the value at 1,000
	// pairs takes seconds (5.6 s measured: docs/solver.md), its distribution far longer (the
	// estimate, Estimate, decides whether a request needs memsim solve's --big).
	MaxRationalPairs = 1000
	// MaxWinRationalPairs is the largest deal size solved in exact rationals when a role plays to
	// win: the win table at 60 pairs takes seconds.
	MaxWinRationalPairs = 60
	// MaxFloatPairs is the largest deal size solved in float64: 2·10⁸ states, a few minutes
	// (Estimate).
	MaxFloatPairs = 20000
	// MaxRationalStates is the most states of one sweep in exact rationals (leads included).
	MaxRationalStates = 2_000_000
	// MaxFloatStates is the most states of one sweep in float64 (leads included): those of
	// MaxFloatPairs without singletons, 200,030,001.
	MaxFloatStates = (MaxFloatPairs + 1) * (MaxFloatPairs + 2) / 2
	// MaxSingletons is the most singletons of a model a request may have.
	MaxSingletons = 1000
	// MaxLead bounds the lead so far (rules.State.Lead) of a request: any lead beyond the pairs
	// on the table decides the game, so this only guards against absurd input.
	MaxLead = 1_000_000
)

// SweepStates returns about the number of states a sweep of every deal size up to pairs visits in
// model m for matchup mu: (pairs+1)(pairs+2)/2 × (singletons+1), times the 2·pairs + 3 leads when
// a role plays to win.
func SweepStates(m Model, mu Lineup, pairs int) float64 {
	states := float64(pairs+1) * float64(pairs+2) / 2 * float64(m.Singletons+1)
	if mu.playsToWin() {
		states *= float64(2*pairs + 3)
	}
	return states
}

// SizeError reports a request too large for the solver's bounds: more pairs than MaxPairs, or
// else more states than MaxStates.
type SizeError struct {
	// Pairs is the deal size asked for and MaxPairs the largest allowed: MaxRationalPairs,
	// MaxWinRationalPairs or MaxFloatPairs.
	Pairs, MaxPairs int
	// Singletons is the model's number of singletons.
	Singletons int
	// States is the request's SweepStates and MaxStates the most allowed: MaxRationalStates or
	// MaxFloatStates.
	States, MaxStates float64
	// Float reports whether the request is in float64 rather than exact rationals (which allow
	// less).
	Float bool
}

// TooManyPairs reports whether the deal size is beyond MaxPairs; otherwise the states are
// beyond MaxStates.
func (e *SizeError) TooManyPairs() bool { return e.Pairs > e.MaxPairs }

func (e *SizeError) Error() string {
	hint := ""
	if !e.Float {
		hint = " (or solve in float64)"
	}
	if e.TooManyPairs() {
		return fmt.Sprintf("%d pairs: must be at most %d%s", e.Pairs, e.MaxPairs, hint)
	}
	return fmt.Sprintf("%d pairs with %d singletons: %.0f states, at most %.0f%s", e.Pairs, e.Singletons, e.States, e.MaxStates, hint)
}

// CheckSize returns a *SizeError when solving matchup mu in model m for deals of up to pairs
// pairs, in float64 when inFloat and otherwise in exact rationals, is beyond the solver's bounds
// (see MaxRationalPairs and the others); an error for negative pairs; nil otherwise.
func CheckSize(m Model, mu Lineup, pairs int, inFloat bool) error {
	if pairs < 0 {
		return fmt.Errorf("pairs %d: must be at least 0", pairs)
	}
	e := &SizeError{Pairs: pairs, MaxPairs: MaxFloatPairs, Singletons: m.Singletons,
		States: SweepStates(m, mu, pairs), MaxStates: MaxFloatStates, Float: inFloat}
	if !inFloat {
		e.MaxPairs, e.MaxStates = MaxRationalPairs, MaxRationalStates
		if mu.playsToWin() {
			e.MaxPairs = MaxWinRationalPairs
		}
	}
	if pairs > e.MaxPairs || e.States > e.MaxStates {
		return e
	}
	return nil
}
