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

// passOutcomes returns the outcomes of a pass in v: just after a pass the stalemate; otherwise the
// hand-over's forgetting of the remembered cards, the other seat moving just after a pass.
func (s *copiesDecaySolver[T]) passOutcomes(v copiesVec, after bool) []cdOutcome[T] {
	if after {
		return []cdOutcome[T]{{o: cmOutcome{next: cmStalemateKey}, p: s.one}}
	}
	var out []cdOutcome[T]
	at := map[cmOutcome]int{}
	add := func(o cmOutcome, p T) {
		if s.f.IsZero(p) {
			return
		}
		o.next += cmAfterPass
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
