package exact

import "memsim/sim/rules"

// The copies model under blind flips (docs/models.md §4.16, §4.17): the state of faces is the
// same, and so are the choices, but the mover names both cards before either is turned up, as
// the engine does (§5.2). Daring names two unknown cards; safe and known-first name the
// remembered card of a half-known face with the most cards on the table and an unknown card, so
// their outcomes are those of known-first with sequential flips. A turn may leave two faces with
// two remembered cards each, and the next seat takes both pairs first.

// outcomes returns the outcomes of the legal choice ch in the state of faces v under the
// solver's flip rule.
func (s *copiesSolver[T]) outcomes(v copiesVec, ch rules.Choice) []copiesOutcome {
	if s.m.Variant.Flips == rules.FlipsBlind {
		return copiesBlindOutcomes(v, ch, nil)
	}
	return copiesOutcomes(v, ch, nil)
}

// copiesBlindOutcomes appends to out the outcomes of the legal choice c in v under blind flips.
// Daring names two unknown cards, uniform among the U(U-1)/2 pairs of them: two of one face are
// a lucky match, taken (the face keeps its remembered card, if any); two of different faces are
// a miss, after which each face that had a remembered card is known whole, a pair the next seat
// takes first, and each that had none is half-known. With one unknown card left (one face of two
// cards, one remembered) daring names it and the remembered card, a match. Safe and known-first
// name a remembered card of a face with the most cards on the table and an unknown card.
func copiesBlindOutcomes(v copiesVec, c rules.Choice, out []copiesOutcome) []copiesOutcome {
	u := int64(unknownCards(v))
	if c != rules.Daring {
		return knownFirstOutcomes(v, u, out)
	}
	if u == 1 {
		return append(out, copiesOutcome{num: 1, den: 1, keep: true, next: v.moved(copiesMove{copiesClass(2, 1), -1})})
	}
	den := u * (u - 1) / 2
	for cl, a := range v {
		if a == 0 {
			continue
		}
		r, b := cl&^1+2, cl&1
		x := int64(r - b) // the unknown cards of one face of the class
		if x >= 2 {
			// r >= 4 when b = 1, so a face of the class keeps cards after the pair leaves.
			next := copiesClass(r-2, b)
			if r == 2 {
				next = -1
			}
			out = append(out, copiesOutcome{num: int64(a) * x * (x - 1) / 2, den: den, keep: true, lucky: true,
				next: v.moved(copiesMove{cl, -1}, copiesMove{next, 1})})
		}
		if a >= 2 {
			out = append(out, blindMiss(v, cl, cl, int64(a)*int64(a-1)/2*x*x, den))
		}
		for cl2 := cl + 1; cl2 < len(v); cl2++ {
			if a2 := v[cl2]; a2 > 0 {
				x2 := int64(cl2&^1 + 2 - cl2&1)
				out = append(out, blindMiss(v, cl, cl2, int64(a)*x*int64(a2)*x2, den))
			}
		}
	}
	return out
}

// blindMiss returns the outcome, of weight num/den, of two unknown cards of two different faces
// of classes cl1 and cl2 turned up together: a face with a remembered card is then known whole
// and handed to the next seat, which takes that pair first; a face without one becomes half-known.
func blindMiss(v copiesVec, cl1, cl2 int, num, den int64) copiesOutcome {
	o := copiesOutcome{num: num, den: den}
	var moves []copiesMove
	for _, cl := range [2]int{cl1, cl2} {
		r := cl&^1 + 2
		if cl&1 == 1 {
			moves = append(moves, copiesMove{cl, -1}, copiesMove{taken(r), 1})
			o.handed++
			continue
		}
		moves = append(moves, copiesMove{cl, -1}, copiesMove{copiesClass(r, 1), 1})
	}
	o.next = v.moved(moves...)
	return o
}
