// Package audit checks the published claims about Memory against the exact solver: strategy
// tables cell by cell, worked examples with their intermediate values, Velleman & Warrington's
// solitaire asymptotics and first match, Alfthan's percentages, Sjölund & Åstrand's
// interval-halving duel, Foerster & Wattenhofer's solitaire bounds, Zwick & Paterson's table of
// optimal moves and the value of naive blind solitaire. Every verdict is computed when the audit
// runs; a claim is data (the published text or table), never an expected verdict.
package audit

import (
	"context"
	"fmt"
	"math/big"
	"strings"

	"memsim/sim/rules"
)

// Verdict is the outcome of checking one claim.
type Verdict string

// The verdicts.
const (
	Confirmed    Verdict = "confirmed"
	Refuted      Verdict = "refuted"
	Inconclusive Verdict = "inconclusive"
)

// Finding is the audit of one claim.
type Finding struct {
	ID string `json:"id"`
	// Claim says in a few words what was claimed.
	Claim string `json:"claim"`
	// Published, Exact and Simulated give the published value, the exact value under the rules of
	// docs/models.md and, where the claim is about an expectation, a simulation estimate with its 95%
	// interval; empty where they do not apply.
	Published string  `json:"published"`
	Exact     string  `json:"exact"`
	Simulated string  `json:"simulated,omitempty"`
	Verdict   Verdict `json:"verdict"`
	// Reason is one line saying why.
	Reason string `json:"reason"`
	// Detail is Markdown shown under the finding in the report (a table side by side, say).
	Detail string `json:"detail,omitempty"`
}

// Simulator estimates expectations by simulation, for the claims about them. The audit does not
// play card games itself: the caller passes a simulator built on the engine.
type Simulator interface {
	// Solitaire returns the mean number of turns and of lucky matches of the optimal solitaire
	// player on n pairs, with half-widths of their 95% intervals.
	Solitaire(ctx context.Context, n int) (turns, turnsHW, lucky, luckyHW float64, err error)
	// Share returns the mean share of the pairs of the player that is optimal within the choice
	// set choices, against opponent ("daring" or "safe"), on n pairs, over both seat orders, with
	// the half-width of its 95% interval.
	Share(ctx context.Context, opponent string, n int, choices rules.ChoiceSet) (share, hw float64, err error)
	// LRUWins returns the rate at which an optimal player with a private lru memory of capacity
	// caps[0] beats one of capacity caps[1] on n pairs, moving first and moving second, over games
	// games each, with the half-widths of their 95% intervals (Zwick & Paterson's game: pass rule
	// two-known, choices daring, safe and pass; each reads the table of its own capacity).
	LRUWins(ctx context.Context, n int, caps [2]int, games int64) (rate, hw [2]float64, err error)
	// FluctuationGain returns the mean lead of the optimum of a shared lru(m) memory over Zwick &
	// Paterson's strategy on n pairs, both with private lru(m) memories whose capacity fluctuates
	// by sigma, averaged over both seat orders of games deals each, with the half-width of its 95%
	// interval (their game: pass rule two-known, choices daring, safe and pass).
	FluctuationGain(ctx context.Context, n, m, sigma int, games int64) (gain, hw float64, err error)
}

// SourceChoices is the choice set of Sjölund & Åstrand's and Alfthan's models, {daring, safe}
// (docs/models.md §3.5): their tables, examples and values are judged in it. The full game adds
// known-first and pass; what that changes is reported apart, beyond the sources (Beyond).
var SourceChoices = rules.NewChoiceSet(rules.Daring, rules.Safe)

// Seed is the seed of the audit's simulations.
const Seed = 20261121

// rat parses "p/q" or "p".
func rat(s string) *big.Rat {
	r, ok := new(big.Rat).SetString(strings.TrimSpace(s))
	if !ok {
		panic(fmt.Sprintf("audit: bad rational %q in a claim", s))
	}
	return r
}

// ratString formats a rational with its decimal value.
func ratString(r *big.Rat) string {
	return fmt.Sprintf("%s (%s)", r.RatString(), r.FloatString(4))
}

// simString formats a simulation estimate with its 95% interval.
func simString(mean, hw float64) string {
	return fmt.Sprintf("%.4f [%.4f, %.4f]", mean, mean-hw, mean+hw)
}
