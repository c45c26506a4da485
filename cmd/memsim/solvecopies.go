package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/big"
	"strings"

	"memsim/analysis/exact"
	"memsim/analysis/exact/answer"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// copiesBigStates is the largest number of count states memsim solve --copies solves without
// --big, in exact rationals (copiesBigFloatStates in float64): about 30 s on one core.
const (
	copiesBigStates      = 200000
	copiesBigFloatStates = 2000000
	// Under a decay memory a hand-over may forget any number of cards, and the solver solves
	// systems over the states that refer to each other, whose exact fractions grow fast: about
	// 8 s at 495 count states in exact rationals (16 pairs of copies 4), 15 s at 10,626 in float64
	// (40 pairs of copies 4).
	copiesDecayBigStates      = 600
	copiesDecayBigFloatStates = 15000
)

// copiesModelJSON is the model of a memsim solve --copies answer.
type copiesModelJSON struct {
	Copies int    `json:"copies"`
	Pairs  int    `json:"pairs"`
	Faces  string `json:"faces"`
	// Memory is the shared limited memory, "handover-uniform(M)"; left out with perfect memory.
	Memory    string `json:"memory,omitempty"`
	Pass      string `json:"pass"`
	Choices   string `json:"choices"`
	TurnLimit int    `json:"turn_limit,omitempty"`
	// Flips is "blind" under blind flips, left out with sequential ones.
	Flips      string   `json:"flips,omitempty"`
	Players    int      `json:"players"`
	Policy     string   `json:"policy,omitempty"`
	Opponent   string   `json:"opponent,omitempty"`
	Seats      []string `json:"seats,omitempty"`
	Arithmetic string   `json:"arithmetic"`
	// First, with --first, is seat 0's choice now: the values are of that choice, then its policy.
	First string `json:"first,omitempty"`
}

// copiesResultJSON is the JSON answer of memsim solve --copies.
type copiesResultJSON struct {
	Model          copiesModelJSON `json:"model"`
	ExpectedPairs  *answer.Number  `json:"expected_pairs,omitempty"`
	ExpectedLead   *answer.Number  `json:"expected_lead,omitempty"`
	ExpectedBySeat []answer.Number `json:"expected_pairs_by_seat,omitempty"`
	ExpectedTurns  *answer.Number  `json:"expected_turns,omitempty"`
	ExpectedLucky  *answer.Number  `json:"expected_lucky,omitempty"`
	// ScoreDistribution, with --distribution, gives the probability of each share of seat 0,
	// Win, Draw and Loss seat 0's chances to end ahead, level or behind, and Score
	// P(win) + P(draw)/2.
	ScoreDistribution []answer.Share `json:"score_distribution,omitempty"`
	// SeatDistributions, with --distribution and three or more players, gives every seat's
	// distribution of its share (in P-ths of a pair under a pass rule).
	SeatDistributions []answer.SeatShares `json:"seat_distributions,omitempty"`
	Win               *answer.Number      `json:"win,omitempty"`
	Draw              *answer.Number      `json:"draw,omitempty"`
	Loss              *answer.Number      `json:"loss,omitempty"`
	Score             *answer.Number      `json:"score,omitempty"`
	// ChoiceValues values every legal choice of seat 0 (but with --value-only), as memsim solve
	// does in the standard game, without the values to win.
	ChoiceValues *answer.ChoiceValues `json:"choice_values,omitempty"`
	// TurnsDistribution, with --distribution --players 1, gives solitaire's distribution of the
	// number of turns (exact.SolitaireTurns).
	TurnsDistribution *answer.TurnsDistribution `json:"turns_distribution,omitempty"`
}

// solveCopies answers memsim solve --copies K: the value of the policies in the copies model
// (docs/models.md §4.16) from the start of a game of --pairs pairs, or from the state --faces.
func solveCopies(ctx context.Context, fl solveFlags, fs *flag.FlagSet, inv invocation) error {
	set := given(fs)
	for _, name := range []string{"unknown", "singletons", "unseen-singletons", "table", "pairs-max", "lead", "fluctuation"} {
		if set[name] {
			return usagef("--%s does not go with --copies (the copies model has perfect memory, a shared handover-uniform memory of a fixed capacity or a shared decay memory, no singletons, and gives the value of the policies from the start of a game or from --faces)", name)
		}
	}
	if set["faces"] && !set["copies"] {
		return requiredWith("--copies K", "--faces", "the cards of a face (even, 2 to %d)", rules.MaxCopies)
	}
	v := rules.Variant{Copies: fl.copies}
	if err := v.Validate(); err != nil || fl.copies == 0 {
		return usagef("--copies %d: must be an even number from 2 to %d", fl.copies, rules.MaxCopies)
	}
	q := &solveQuery{float: fl.float, json: fl.json, dist: fl.distribution, choices: !fl.valueOnly}
	if err := fl.variant(q); err != nil {
		return err
	}
	v.Flips, v.TurnLimit = q.model.Variant.Flips, q.model.Variant.TurnLimit
	q.model.Variant = v
	pass, err := rules.ParsePassRule(fl.pass)
	if err != nil {
		return usagef("--pass %s: unknown pass rule (allowed: never, two-known, always)", fl.pass)
	}
	q.model.Pass = pass
	if q.model.Choices, err = rules.ParseChoiceSet(fl.choices); err != nil {
		return usagef("--choices %q: %v", fl.choices, err)
	}
	if q.model.Memory, err = copiesMemory(fl, set); err != nil {
		return err
	}
	st, err := copiesState(fl, set)
	if err != nil {
		return err
	}
	if fl.players < 1 || fl.players > rules.MaxPlayers {
		return usagef("--players %d: must be between 1 and %d", fl.players, rules.MaxPlayers)
	}
	if err := fl.lineup(q, set); err != nil {
		return err
	}
	if err := q.checkMatchup(set["opponent"], set["seats"]); err != nil {
		return err
	}
	if err := q.copiesSolitaireTurns(fl, set, st); err != nil {
		return err
	}
	if q.dist && (q.matchup.Players >= 3 || q.matchup.PerSeat) {
		if err := exact.CheckSeatsDistribution(q.model, q.matchup); err != nil {
			return usagef("--distribution with --players %d: %v", q.matchup.Players, err)
		}
	}
	if err := exact.CheckCopies(q.model, q.matchup); err != nil {
		return usagef("--copies %d: %v", fl.copies, err)
	}
	q.opponentGiven = set["opponent"] || set["seats"]
	if set["first"] {
		if err := q.setCopiesFirst(fl.first, st); err != nil {
			return err
		}
	}
	if exact.IsCopiesSelfWin(q.model, q.matchup) || set["standings"] {
		return solveCopiesSelfWin(ctx, fl, q, st, set, inv) // solvecopiesselfwin.go
	}
	limit := int64(copiesBigStates)
	if fl.float {
		limit = copiesBigFloatStates
	}
	if q.model.Memory.Forget == rules.ForgetDecay {
		limit = copiesDecayBigStates
		if fl.float {
			limit = copiesDecayBigFloatStates
		}
	}
	s := exact.CopiesStates(st.Pairs(), fl.copies)
	if t := int64(q.model.Variant.TurnLimit); t > 0 && s > 0 {
		s *= t // a state per number of turns left
	}
	what := "count states"
	if playsToWin(q.matchup) {
		s, what = exact.CopiesWinCells(st.Pairs(), fl.copies, q.model.Variant.TurnLimit), "count states times leads" // a value per lead
	}
	if !fl.big && (s < 0 || s > limit) {
		return usagef("--pairs %d with --copies %d%s: about %d %s, more than %d (estimated more than 30 s; --big solves it anyway%s)",
			st.Pairs(), fl.copies, turnLimitNote(q.model.Variant.TurnLimit), s, what, limit, map[bool]string{false: ", or use --float", true: ""}[fl.float])
	}
	out := checkedStdout(inv.stdout)
	if fl.float {
		err = writeCopies(ctx, field.Float{}, q, st, out)
	} else {
		err = writeCopies[*big.Rat](ctx, field.Rat{}, q, st, out)
	}
	return out.result(err)
}

// copiesMemoryName names the memory in memsim solve --copies's headline: "perfect", "shared
// handover-uniform(M)", "shared decay(q=Q)" or "shared decay(M, q=Q)".
func copiesMemoryName(m rules.Memory) string {
	if m.Perfect() {
		return "perfect"
	}
	return "shared " + m.String()
}

// copiesMemory returns the memory of --memory, --forget and --q with --copies: perfect memory
// without them, a shared handover-uniform memory of capacity M with --memory M --forget
// handover-uniform, a shared decay memory with --forget decay --q Q (of capacity M with
// --memory M, without a capacity otherwise).
func copiesMemory(fl solveFlags, set map[string]bool) (rules.Memory, error) {
	switch {
	case set["q"] && fl.forget != rules.ForgetDecay.String():
		return rules.Memory{}, usagef("--q %g goes with --forget decay", fl.decay)
	case fl.forget == rules.ForgetDecay.String():
		return copiesDecayMemory(fl, set)
	case !set["memory"] && !set["forget"]:
		return rules.Memory{}, nil
	case fl.memory == 0 && set["forget"]:
		return rules.Memory{}, usagef("--forget %s needs --memory M with M >= 2", fl.forget)
	case fl.memory == 0:
		return rules.Memory{}, nil
	case fl.memory < 2:
		return rules.Memory{}, usagef("--memory %d: must be 0 (perfect memory) or at least 2", fl.memory)
	case !set["forget"]:
		return rules.Memory{}, requiredWith("--forget RULE", fmt.Sprintf("--memory %d", fl.memory), "the forgetting rule of the limited memory (with --copies: handover-uniform or decay)")
	case fl.forget != rules.ForgetHandoverUniform.String():
		return rules.Memory{}, usagef("--forget %s with --copies: no exact model (allowed: handover-uniform, decay; lru forgets by the order faces were seen, which the state of faces does not hold)", fl.forget)
	}
	return rules.Memory{Capacity: fl.memory, Forget: rules.ForgetHandoverUniform}, nil
}

// copiesDecayMemory returns the shared decay memory of --forget decay --q Q [--memory M] with
// --copies.
func copiesDecayMemory(fl solveFlags, set map[string]bool) (rules.Memory, error) {
	switch {
	case !set["q"]:
		return rules.Memory{}, requiredWith("--q Q", "--forget decay", "the probability that each remembered card is forgotten at a hand-over, 0 < Q <= 1")
	case !(fl.decay > 0 && fl.decay <= 1):
		return rules.Memory{}, usagef("--q %g: must be in (0, 1]", fl.decay)
	case fl.memory < 0 || fl.memory == 1:
		return rules.Memory{}, usagef("--memory %d: must be 0 (no capacity) or at least 2", fl.memory)
	}
	m := rules.Memory{Capacity: fl.memory, Forget: rules.ForgetDecay, Decay: fl.decay}
	if err := m.Validate(); err != nil {
		return rules.Memory{}, usagef("--forget decay: %v", err)
	}
	if _, err := exact.DecayRate(m); err != nil {
		return rules.Memory{}, usagef("--q %g: %v", fl.decay, err)
	}
	return m, nil
}

// copiesState returns the state of --faces, or the start of a game of --pairs pairs.
func copiesState(fl solveFlags, set map[string]bool) (exact.CopiesState, error) {
	if set["faces"] {
		st, err := exact.ParseCopiesState(fl.faces, fl.copies)
		if err != nil {
			return st, usagef("--faces: %v", err)
		}
		if set["pairs"] && fl.pairs != st.Pairs() {
			return st, usagef("--pairs %d with --faces %q: the faces hold %d pairs (leave --pairs out)", fl.pairs, fl.faces, st.Pairs())
		}
		if st.Pairs() == 0 {
			return st, usagef("--faces %q: no card on the table", fl.faces)
		}
		return st, nil
	}
	if !set["pairs"] {
		return exact.CopiesState{}, required("--pairs N", "the pairs of the deal, a multiple of --copies/2 (or --faces STATE)")
	}
	if fl.pairs < 1 {
		return exact.CopiesState{}, usagef("--pairs %d: must be at least 1", fl.pairs)
	}
	st, err := exact.StartCopiesState(fl.pairs, fl.copies)
	if err != nil {
		return st, usagef("--pairs %d: %v", fl.pairs, err)
	}
	return st, nil
}

// turnLimitNote names a turn limit in a message ("" for none).
func turnLimitNote(limit int) string {
	if limit == 0 {
		return ""
	}
	return fmt.Sprintf(" --turn-limit %d", limit)
}

// setCopiesFirst checks --first name for the copies model: a choice of --choices legal in st
// (daring always, safe and known-first with a remembered card, pass as the pass rule allows).
func (q *solveQuery) setCopiesFirst(name string, st exact.CopiesState) error {
	if q.dist {
		return usagef("--first with --distribution: the score distribution is of the policies' own choices (leave out one of the two)")
	}
	c, err := rules.ParseChoice(name)
	if err != nil {
		return usagef("--first %q: unknown choice (allowed: %s)", name, choiceList(rules.FullChoices))
	}
	rs := st.RulesState()
	legal := []string{}
	for _, x := range rules.Choices() {
		if q.model.Choices.Has(x) && rules.Legal(rs, x, q.model.Pass) {
			legal = append(legal, x.String())
		}
	}
	switch {
	case !q.model.Choices.Has(c):
		return usagef("--first %s: not in --choices %s (legal in %v: %s)", c, q.model.Choices, st, strings.Join(legal, ", "))
	case !rules.Legal(rs, c, q.model.Pass):
		return usagef("--first %s: not legal in %v with pass %s (legal there: %s)", c, st, q.model.Pass, strings.Join(legal, ", "))
	}
	q.first = &c
	return nil
}

// writeCopies solves the copies model from st and writes the answer, as text or JSON.
func writeCopies[T any](ctx context.Context, f field.Field[T], q *solveQuery, st exact.CopiesState, w io.Writer) error {
	var res exact.Result[T]
	var cs *exact.Choices[T]
	var wc *exact.WinChoices[T]
	var err error
	if playsToWin(q.matchup) {
		// One solve gives the values, the choices' values and their values to win.
		c, win, err := exact.CopiesWinValues(ctx, f, q.model, q.matchup, st, 0)
		if err != nil {
			return err
		}
		res, cs, wc = c.Value, &c, &win
	} else if res, err = exact.EvaluateCopies(ctx, f, q.model, q.matchup, st); err != nil {
		return err
	}
	if (q.choices || q.first != nil) && cs == nil {
		c, err := exact.CopiesChoiceValues(ctx, f, q.model, q.matchup, st)
		if err != nil {
			return err
		}
		cs = &c
	}
	if cs != nil {
		c := *cs
		if q.first != nil {
			v, ok := c.Of(*q.first)
			if !ok {
				return fmt.Errorf("%s is not legal in %v", *q.first, st)
			}
			res = exact.Result[T]{State: res.State, Players: res.Players, ExpectedPairs: v.Pairs, ExpectedLead: v.Lead,
				PairsBySeat: v.PairsBySeat, ExpectedTurns: v.Turns, ExpectedLucky: v.Lucky}
		}
	}
	mu := q.matchup
	r := copiesResultJSON{Model: copiesModelJSON{Copies: st.Copies(), Pairs: st.Pairs(), Faces: st.String(),
		Pass: q.model.Pass.String(), Choices: q.model.Choices.String(), TurnLimit: q.model.Variant.TurnLimit, Players: mu.Players, Arithmetic: answer.Arithmetic(f)}}
	if q.first != nil {
		r.Model.First = q.first.String()
	}
	if !q.model.Memory.Perfect() {
		r.Model.Memory = q.model.Memory.String()
	}
	if q.model.Variant.Flips == rules.FlipsBlind {
		r.Model.Flips = q.model.Variant.Flips.String()
	}
	switch {
	case mu.PerSeat:
		for _, p := range mu.SeatPolicies() {
			r.Model.Seats = append(r.Model.Seats, p.String())
		}
	case mu.Players == 1:
		r.Model.Policy = mu.Policy.String()
	default:
		r.Model.Policy, r.Model.Opponent = mu.Policy.String(), mu.Opponent.String()
	}
	num := func(v T) *answer.Number { n := answer.NumberOf(f, v); return &n }
	if mu.Players == 1 {
		r.ExpectedTurns, r.ExpectedLucky = num(res.ExpectedTurns), num(res.ExpectedLucky)
		if q.dist {
			if r.TurnsDistribution, err = copiesTurnsDistribution(ctx, f, q, st); err != nil {
				return err
			}
		}
		if q.model.Variant.TurnLimit > 0 {
			r.ExpectedPairs = num(res.ExpectedPairs) // the pairs taken within the limit
		}
	} else {
		r.ExpectedPairs = num(res.ExpectedPairs)
		for _, v := range res.PairsBySeat {
			r.ExpectedBySeat = append(r.ExpectedBySeat, *num(v))
		}
		if mu.Players == 2 {
			r.ExpectedLead = num(res.ExpectedLead)
		}
	}
	if q.dist && mu.Players >= 3 {
		d, err := exact.CopiesSeatsDistribution(ctx, f, q.model, mu, st)
		if err != nil {
			return err
		}
		for seat, prob := range d.Prob {
			sd := answer.SeatShares{Seat: seat}
			for i, p := range prob {
				sd.Shares = append(sd.Shares, answer.Share{Share: float64(i) / float64(d.Unit), Probability: answer.NumberOf(f, p)})
			}
			r.SeatDistributions = append(r.SeatDistributions, sd)
		}
	} else if q.dist && mu.Players == 2 {
		d, err := exact.CopiesDistribution(ctx, f, q.model, mu, st)
		if err != nil {
			return err
		}
		for i, p := range d.Prob {
			r.ScoreDistribution = append(r.ScoreDistribution, answer.Share{Share: float64(i) / 2, Probability: answer.NumberOf(f, p)})
		}
		r.Win, r.Draw, r.Loss = num(d.Win), num(d.Draw), num(d.Loss)
		r.Score = num(f.Add(d.Win, f.Div(d.Draw, f.FromInt(2))))
	}
	if cs != nil && q.choices {
		r.ChoiceValues = answer.ChoiceValuesOf(f, q.model, mu, *cs)
	}
	if wc != nil {
		copiesWinValues(f, q, *wc, &r)
	}
	if q.json {
		return json.NewEncoder(w).Encode(r)
	}
	fmt.Fprintf(w, "copies %d, %d pairs, faces %s, %s memory, pass %s%s%s%s, %s arithmetic\n",
		st.Copies(), st.Pairs(), st.String(), copiesMemoryName(q.model.Memory), q.model.Pass, choicesNote(q.model.Choices), blindText(q.model.Variant.Flips), turnLimitText(q.model.Variant.TurnLimit), r.Model.Arithmetic)
	fmt.Fprintln(w, seatsLine(q))
	if mu.Players == 1 {
		if r.ExpectedPairs != nil {
			fmt.Fprintf(w, "expected pairs taken:   %s\n", human(*r.ExpectedPairs))
		}
		fmt.Fprintf(w, "expected turns:         %s\n", human(*r.ExpectedTurns))
		fmt.Fprintf(w, "expected lucky matches: %s\n", human(*r.ExpectedLucky))
		if r.ChoiceValues != nil {
			writeChoicesText(q, r.ChoiceValues, w)
		}
		if r.TurnsDistribution != nil {
			writeTurnsText(r.TurnsDistribution, w)
		}
		return nil
	}
	for i, v := range r.ExpectedBySeat {
		fmt.Fprintf(w, "expected pairs, seat %d: %s\n", i, human(v))
	}
	if mu.Players == 2 {
		fmt.Fprintf(w, "expected lead, seat 0:  %s\n", human(*r.ExpectedLead))
	}
	if r.Win != nil {
		fmt.Fprintf(w, "seat 0 wins %s, draws %s, loses %s\n", human(*r.Win), human(*r.Draw), human(*r.Loss))
		fmt.Fprintf(w, "seat 0's score (a win 1, a draw 1/2): %s\n", human(*r.Score))
	}
	if q.dist {
		for _, p := range r.ScoreDistribution {
			if p.Probability.Float != 0 {
				fmt.Fprintf(w, "  share %4.1f: %s\n", p.Share, human(p.Probability))
			}
		}
		for _, sd := range r.SeatDistributions {
			fmt.Fprintf(w, "score distribution, seat %d:\n", sd.Seat)
			for _, p := range sd.Shares {
				if p.Probability.Float != 0 {
					fmt.Fprintf(w, "  share %s: %s\n", seatShareText(p.Share), human(p.Probability))
				}
			}
		}
	}
	if r.ChoiceValues != nil {
		writeChoicesText(q, r.ChoiceValues, w)
	}
	return nil
}

// blindText names blind flips for text output ("" for sequential flips).
func blindText(flips rules.Flips) string {
	if flips == rules.FlipsBlind {
		return ", blind flips"
	}
	return ""
}

// turnLimitText describes a turn limit for text output ("" for none).
func turnLimitText(limit int) string {
	if limit == 0 {
		return ""
	}
	return fmt.Sprintf(", turn limit %d", limit)
}

// playsToWin reports whether a seat of the two-player lineup mu plays to win.
func playsToWin(mu exact.Lineup) bool {
	return mu.Players == 2 && !mu.PerSeat && (mu.Policy.PlaysToWin() || mu.Opponent.PlaysToWin())
}

// copiesWinValues sets, for a lineup in which a seat plays to win, seat 0's probabilities to win,
// draw and lose at lead 0 from wc (of its choice --first, then the lineup, when given) and, with
// the choices' values, every choice's score.
func copiesWinValues[T any](f field.Field[T], q *solveQuery, wc exact.WinChoices[T], r *copiesResultJSON) {
	p := wc.Value
	if q.first != nil {
		v, _ := wc.Of(*q.first)
		p = exact.WDL[T]{Win: v.Win, Draw: v.Draw, Loss: v.Loss}
	}
	num := func(v T) *answer.Number { n := answer.NumberOf(f, v); return &n }
	r.Win, r.Draw, r.Loss = num(p.Win), num(p.Draw), num(p.Loss)
	r.Score = num(f.Add(p.Win, f.Div(p.Draw, f.FromInt(2))))
	if r.ChoiceValues != nil {
		r.ChoiceValues.Win = answer.WinChoicesOf(f, q.matchup, wc)
	}
}
