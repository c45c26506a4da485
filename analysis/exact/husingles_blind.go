package exact

import (
	"fmt"

	"memsim/sim/rules"
)

// Blind flips with singletons under a shared handover-uniform memory (docs/models.md §4.17,
// "Singletons under a handover-uniform memory"): both positions are named before either is
// seen. Safe names an unknown card and a remembered one, a half-known pair's card when there is
// one, otherwise a seen singleton, the card known-first flips: the hand-over forgets among the
// cards remembered before the turn whichever is flipped first, so safe has known-first's
// outcomes. Daring names two unknown cards, uniform among the u(u - 1)/2 pairs of them, and may
// leave the next seat two pairs known whole; the hand-over then forgets among the old cards of
// both, and a pair whose old card is forgotten stays on the table, half-known through the card
// just seen.

// checkHUSBlind reports whether the blind model solves mu in m: two seats, without a turn limit,
// the expected values, each choice's values and the engine's tables.
func checkHUSBlind(m Model, mu Lineup) error {
	if m.Variant.Flips != rules.FlipsBlind {
		return nil
	}
	if mu.Players != 2 || mu.PerSeat {
		return fmt.Errorf("players %d: blind flips with singletons and %s memory are solved at two seats only (use perfect memory, or the simulator)", mu.Players, m.Memory)
	}
	return nil
}

// husBlindOutcomes returns the outcomes of the legal choice ch in st under blind flips and a
// shared handover-uniform memory of the given capacity (a pass, husingles_pass.go, has one).
func husBlindOutcomes(st rules.State, ch rules.Choice, capacity int) []husOutcome {
	if ch != rules.Daring {
		return husOutcomes(st, rules.KnownFirst, capacity)
	}
	n, j, f := st.N, st.J, st.F
	k, ks := n-j, st.S-st.F
	u := int64(st.Unknown())
	var out []husOutcome
	add := func(num, den int64, next rules.State, keep bool, handed int) {
		if num == 0 {
			return
		}
		g := gcd64(num, den)
		out = append(out, husOutcome{num: num / g, den: den / g, next: next, keep: keep, handed: handed})
	}
	at := func(n, half, seen int) rules.State { return rules.State{N: n, J: n - half, S: st.S, F: st.S - seen} }
	if u < 2 {
		// One unknown card left (n = 1, j = 0, f = 0): the remembered card named is its partner.
		add(1, 1, at(n-1, k-1, ks), true, 0)
		return out
	}
	pairs := u * (u - 1) / 2
	// miss: half half-known pairs and seen seen singletons after the flips, full pairs (0 to 2)
	// known whole besides, whose old cards were remembered before the turn.
	miss := func(num int64, half, seen, full int) {
		x := max(0, half+seen+2*full-capacity)
		husForget(num, pairs, n, half, seen, k-full, ks, full, x, add, at)
	}
	if j > 0 {
		// Both cards of an unknown pair: taken, and the mover moves again.
		add(int64(j), pairs, at(n-1, k, ks), true, 0)
		out[len(out)-1].lucky = true
	}
	miss(int64(k*(k-1)/2), k-2, ks, 2) // two remembered cards' partners
	miss(int64(2*k*j), k, ks, 1)       // a remembered card's partner and a new pair card
	miss(int64(k*f), k-1, ks+1, 1)     // a remembered card's partner and an unseen singleton
	miss(int64(2*j*(j-1)), k+2, ks, 0) // two new cards of different pairs
	miss(int64(2*j*f), k+1, ks+1, 0)   // a new pair card and an unseen singleton
	miss(int64(f*(f-1)/2), k, ks+2, 0) // two unseen singletons
	return out
}
