// Package strategies will hold the simulator's pluggable players (a policy plus a memory). It is
// empty until the card-level simulator lands; the fixed policies' definitions that the solver and
// the players share live in memsim/sim/rules.
package strategies
