package exact

// Pass rules two-known and always in the copies model under a shared decay memory (copiesdecay.go;
// docs/models.md §4.16, "A decay memory"), two seats. A pass shows no card but hands the turn
// over, and the hand-over forgets: each remembered card, all of them old, is forgotten
// independently with probability q (the memory holds no more than its capacity, so no card beyond
// it), and the other seat moves just after a pass in the state left. A pass just after a pass
// ends the game in a stalemate, the pairs left shared equally (lead 0), whatever the hand-over in
// between forgot; whether the mover may pass just after a pass is the rule's in the state the
// hand-over left. Every other turn clears the flag. The cells just after a pass are solved with
// the others, in the strongly connected components of the outcome graph.

//
// At three to eight seats the flag is the pass streak l = 0 .. p-1 (copiesmempass.go): a pass at
// l < p-1 hands the next seat, at streak l+1, the state the hand-over's forgetting leaves, and a
// pass at l = p-1 ends the game in a stalemate, every seat taking its share (1/p) of the pairs
// left, whatever was forgotten in between, as the engine counts passes in a row (as for pairs,
// selfishdecaypass.go).

// passOutcomes returns the outcomes of a pass in v at streak l: at the last streak the stalemate;
// otherwise the hand-over's forgetting of the remembered cards, the next seat moving at the next
// streak.
func (s *copiesDecaySolver[T]) passOutcomes(v copiesVec, l int) []cdOutcome[T] {
	if l == cmLastStreak(s.mu.Players) {
		return []cdOutcome[T]{{o: cmOutcome{next: cmStalemateOf(v, s.mu.Players)}, p: s.one}}
	}
	suffix := cmStreakSuffix(l + 1)
	var out []cdOutcome[T]
	at := map[cmOutcome]int{}
	add := func(o cmOutcome, p T) {
		if s.f.IsZero(p) {
			return
		}
		o.next += suffix
		if i, ok := at[o]; ok {
			out[i].p = s.f.Add(out[i].p, p)
			return
		}
		at[o] = len(out)
		out = append(out, cdOutcome[T]{o: o, p: p})
	}
	old := make([]int, len(v)/2) // the remembered cards by class of faces
	for i := range old {
		old[i] = v[2*i+1]
	}
	s.decay(add, s.one, v.clone(), old, nil, -1)
	return out
}
