package review_test

import (
	"context"
	"slices"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/analysis/review"
	"memsim/sim/record"
	"memsim/sim/rules"
)

// lruTurn is what the card-by-card replay of a record under a shared lru memory says of a turn's
// start: the memory's count state, whether it knows a pair whole (then the turn is the taking of
// that pair, not a decision), the mover and the pass streak.
type lruTurn struct {
	st            rules.State
	whole         bool
	mover, passes int
	made          []rules.Choice
}

// replayLRU replays game g card by card with the lru rule of docs/models.md §2.2, written here
// from the rule and not from the review: the memory is a list of stored cards from the least to
// the most recently seen; a new card whose partner is stored is recognised with it (both kept
// outside the list until taken); any other new card joins the list's end, its head forgotten when
// the list holds more than capacity cards; a stored card turned again moves to the end. A turn
// is a pass when it is a pass line or turns two cards the memory holds that are not a pair.
func replayLRU(g *record.Game, capacity int) []lruTurn {
	p := g.Rules.Seats
	var list []int         // stored positions, least recent first
	pend := map[int]bool{} // recognised cards on the table
	face := map[int]int{}  // faces seen
	pairsLeft := g.Rules.Pairs
	holds := func(pos int) bool { return pend[pos] || slices.Contains(list, pos) }
	see := func(pos, fc int) {
		face[pos] = fc
		if pend[pos] {
			return
		}
		if i := slices.Index(list, pos); i >= 0 {
			list = append(slices.Delete(list, i, i+1), pos)
			return
		}
		for i, q := range list {
			if face[q] == fc {
				list = slices.Delete(list, i, i+1)
				pend[q], pend[pos] = true, true
				return
			}
		}
		list = append(list, pos)
		if len(list) > capacity {
			list = list[1:]
		}
	}
	var out []lruTurn
	mover, passes := 0, 0
	for i := 0; i < len(g.Moves); {
		whole := len(pend) > 0
		out = append(out, lruTurn{st: rules.State{N: pairsLeft, J: pairsLeft - len(list)}, whole: whole, mover: mover, passes: passes})
		a := g.Moves[i]
		if a.Pass {
			out[len(out)-1].made = []rules.Choice{rules.Pass}
			if g.Rules.Pass != rules.PassNever {
				passes++
			}
			mover = (mover + 1) % p
			i++
			continue
		}
		if i+1 >= len(g.Moves) {
			return out[:len(out)-1] // an unfinished turn
		}
		b := g.Moves[i+1]
		bothHeld := holds(a.Pos) && holds(b.Pos)
		out[len(out)-1].made = lruMade(list, pend, face, capacity, a, b)
		see(a.Pos, a.Face)
		see(b.Pos, b.Face)
		i += 2
		if a.Face == b.Face {
			delete(pend, a.Pos)
			delete(pend, b.Pos)
			list = slices.DeleteFunc(list, func(q int) bool { return q == a.Pos || q == b.Pos })
			pairsLeft--
			passes = 0
			continue
		}
		if bothHeld && g.Rules.Pass != rules.PassNever {
			passes++
		} else {
			passes = 0
		}
		mover = (mover + 1) % p
	}
	return out
}

// lruMade returns the choices of docs/models.md §3.2 a turn of cards a then b fits, the lru memory
// holding list (least recent first) and the recognised cards pend: two held cards are a pass, a
// held card then another known-first; a card not held whose partner is stored must be followed
// by that partner (daring and safe); otherwise the first card is stored (the list's head
// forgotten when it overflows) and a held second card is safe, another daring.
func lruMade(list []int, pend map[int]bool, face map[int]int, capacity int, a, b record.Move) []rules.Choice {
	held := func(l []int, pos int) bool { return pend[pos] || slices.Contains(l, pos) }
	if held(list, a.Pos) {
		if held(list, b.Pos) {
			return []rules.Choice{rules.Pass}
		}
		return []rules.Choice{rules.KnownFirst}
	}
	for _, q := range list {
		if face[q] == a.Face {
			if b.Pos == q {
				return []rules.Choice{rules.Daring, rules.Safe}
			}
			return nil
		}
	}
	after := append(slices.Clone(list), a.Pos)
	if len(after) > capacity {
		after = after[1:]
	}
	if held(after, b.Pos) {
		return []rules.Choice{rules.Safe}
	}
	return []rules.Choice{rules.Daring}
}

// TestSeatsReviewUnderLRUIsTheSolversChoiceValues reviews games of three and four seats as a
// shared lru memory of capacity 2 and 3 would judge them, under every pass rule, and checks every
// decision against a card-by-card lru replay of the record: the turns judged are exactly those
// that begin with no pair known whole to the memory, each by its mover, and every legal choice's
// value is exact.ChoiceValues' in the state the memory holds (at the replay's pass streak).
func TestSeatsReviewUnderLRUIsTheSolversChoiceValues(t *testing.T) {
	ctx := context.Background()
	f := field.Rat{}
	pairs, seats, caps, seeds := 6, []int{3, 4}, []int{2, 3}, 4
	passRules := []rules.PassRule{rules.PassNever, rules.PassTwoKnown, rules.PassAlways}
	if testing.Short() {
		pairs, seats, caps, seeds = 5, []int{3}, []int{2}, 2
	}
	forgot := 0 // decisions in which the memory has forgotten a card a perfect memory holds
	for run := range seeds * len(seats) * len(caps) * len(passRules) {
		p, capacity, pass := seats[run%len(seats)], caps[run/len(seats)%len(caps)], passRules[run/len(seats)/len(caps)%len(passRules)]
		mem := rules.Memory{Capacity: capacity, Forget: rules.ForgetLRU}
		g := seatsRandomRecord(t, pass, p, pairs, uint64(run))
		r, err := review.SeatsGameMemory(ctx, f, g, mem)
		if err != nil {
			t.Fatal(err)
		}
		turns := replayLRU(g, capacity)
		var judged []int
		for k, at := range turns {
			if !at.whole {
				judged = append(judged, k)
			}
		}
		if len(r.Decisions) != len(judged) {
			t.Fatalf("%d seats, lru(%d), pass %v: %d decisions, the replay has %d turns with no pair known whole", p, capacity, pass, len(r.Decisions), len(judged))
		}
		m := exact.Model{Pass: pass, Memory: mem, Choices: g.Rules.Choices}
		mu := exact.Lineup{Players: p, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
		for i, d := range r.Decisions {
			at := turns[judged[i]]
			if !slices.Equal(d.Made, at.made) {
				t.Errorf("%d seats, lru(%d), pass %v: turn %d: the cards fit %v, the replay says %v", p, capacity, pass, d.Turn+1, d.Made, at.made)
			}
			if at.st.J != g.Turns[d.Turn].Before.State(d.Seat).J {
				forgot++
			}
			if d.Turn != judged[i] || d.Seat != at.mover || d.State != at.st || d.Passes != at.passes {
				t.Fatalf("%d seats, lru(%d), pass %v: decision %d is turn %d of seat %d in %v at streak %d; the replay says turn %d of seat %d in %v at streak %d",
					p, capacity, pass, i, d.Turn+1, d.Seat, d.State, d.Passes, judged[i]+1, at.mover, at.st, at.passes)
			}
			cs, err := exact.ChoiceValues(ctx, f, m, mu, at.st)
			if err != nil {
				t.Fatal(err)
			}
			want := streakChoices(f, cs, p, at.passes)
			got := seatsChoicesOf(d)
			if len(got) != len(want) {
				t.Fatalf("%d seats, lru(%d), pass %v: turn %d: options %v, the solver has %v", p, capacity, pass, d.Turn+1, got, want)
			}
			for ch, v := range want {
				if g, ok := got[ch]; !ok || g.Cmp(v) != 0 {
					t.Errorf("%d seats, lru(%d), pass %v: turn %d (%v, streak %d): %v is worth %v, the solver says %v",
						p, capacity, pass, d.Turn+1, at.st, at.passes, ch, g, v.RatString())
				}
			}
		}
	}
	if forgot == 0 {
		t.Error("no decision in which the memory forgot a card: the games do not test the memory")
	}
	t.Logf("%d decisions in which the memory forgot a card", forgot)
}
