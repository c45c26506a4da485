package audit

import (
	"context"
	"fmt"
	"math/big"
	"slices"
	"strings"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// Example is a published worked example: the value of a choice in one state (optimal play
// afterwards), and what its computation used.
type Example struct {
	ID, Claim string
	Model     exact.Model
	State     rules.State
	Choice    rules.Choice // daring or safe
	Value     string       // the published value, "p/q"
	// Better, when not nil, is the choice the example says is the better one in State.
	Better *rules.Choice
	// Uses are the optimal values E of other states the computation used, "p/q".
	Uses map[rules.State]string
	// Weights are the outcome probabilities the computation used, "p/q", in any order.
	Weights []string
}

// cellValues holds what the solver's table says of one state.
type cellValues struct {
	value  *big.Rat
	code   int
	choice [rules.NumChoices]*big.Rat
}

// tableOf returns the solver's table of model m up to maxN pairs.
func tableOf(ctx context.Context, m exact.Model, maxN int) (map[rules.State]cellValues, error) {
	out := map[rules.State]cellValues{}
	err := exact.Table(ctx, field.Rat{}, m, maxN, func(c *exact.TableCell[*big.Rat]) error {
		v := cellValues{value: c.Value, code: c.Code}
		for ch := range c.ChoiceValue {
			if c.Legal[ch] {
				v.choice[ch] = c.ChoiceValue[ch]
			}
		}
		out[c.State] = v
		return nil
	})
	return out, err
}

// AuditExample checks a worked example's value, its better choice, the values it used and its
// outcome weights against the solver.
func AuditExample(ctx context.Context, ex Example) Finding {
	fd := Finding{ID: ex.ID, Claim: ex.Claim, Published: ex.Value}
	tab, err := tableOf(ctx, ex.Model, ex.State.N)
	if err != nil {
		fd.Verdict, fd.Reason = Inconclusive, "the solver cannot compute the state: "+err.Error()
		return fd
	}
	cell, ok := tab[ex.State]
	if !ok || cell.choice[ex.Choice] == nil {
		fd.Verdict, fd.Reason = Inconclusive, fmt.Sprintf("%s is not a legal choice of a state of the model %v", ex.Choice, ex.State)
		return fd
	}
	got := cell.choice[ex.Choice]
	fd.Exact = ratString(got)
	var wrong []string
	if got.Cmp(rat(ex.Value)) != 0 {
		wrong = append(wrong, fmt.Sprintf("%s in %v is %s, not %s", ex.Choice, ex.State, got.RatString(), ex.Value))
	}
	if ex.Better != nil {
		best := map[int]rules.Choice{exact.CodeSafe: rules.Safe, exact.CodeDaring: rules.Daring}
		if b, ok := best[cell.code]; !ok || b != *ex.Better {
			wrong = append(wrong, fmt.Sprintf("%s is not the better choice (code %d)", *ex.Better, cell.code))
		}
	}
	states := make([]rules.State, 0, len(ex.Uses))
	for st := range ex.Uses {
		states = append(states, st)
	}
	slices.SortFunc(states, func(a, b rules.State) int { return (a.N*100+a.J)*100 + a.F - ((b.N*100+b.J)*100 + b.F) })
	for _, st := range states {
		c, ok := tab[st]
		switch {
		case !ok:
			wrong = append(wrong, fmt.Sprintf("E%v is not a state of the model", st))
		case c.value.Cmp(rat(ex.Uses[st])) != 0:
			wrong = append(wrong, fmt.Sprintf("E%v is %s, not %s", st, c.value.RatString(), ex.Uses[st]))
		}
	}
	if len(ex.Weights) > 0 {
		if msg := checkWeights(ex); msg != "" {
			wrong = append(wrong, msg)
		}
	}
	if len(wrong) == 0 {
		fd.Verdict, fd.Reason = Confirmed, "the value, and every number the computation used, agree with the solver"
		return fd
	}
	fd.Verdict, fd.Reason = Refuted, strings.Join(wrong, "; ")
	return fd
}

// checkWeights compares the published outcome weights with the solver's, grouped by event.
func checkWeights(ex Example) string {
	outs := ex.Model.Outcomes(ex.State, ex.Choice, nil)
	byEvent := map[exact.Event]*big.Rat{}
	var order []exact.Event
	for _, o := range outs {
		p := new(big.Rat).SetFrac64(o.Prob.Num, o.Prob.Den)
		if byEvent[o.Event] == nil {
			byEvent[o.Event] = new(big.Rat)
			order = append(order, o.Event)
		}
		byEvent[o.Event].Add(byEvent[o.Event], p)
	}
	var ours []string
	for _, e := range order {
		ours = append(ours, byEvent[e].RatString())
	}
	pub := append([]string(nil), ex.Weights...)
	sum := new(big.Rat)
	for _, w := range pub {
		sum.Add(sum, rat(w))
	}
	norm := func(xs []string) []string {
		out := make([]string, len(xs))
		for i, x := range xs {
			out[i] = rat(x).RatString()
		}
		slices.Sort(out)
		return out
	}
	if slices.Equal(norm(pub), norm(ours)) {
		return ""
	}
	msg := fmt.Sprintf("the outcome weights %s are not the solver's %s", strings.Join(pub, ", "), strings.Join(ours, ", "))
	if sum.Cmp(big.NewRat(1, 1)) != 0 {
		msg += fmt.Sprintf(" (they add up to %s, not 1)", sum.RatString())
	}
	return msg
}

func choice(c rules.Choice) *rules.Choice { return &c }

// Examples lists the worked examples of Sjölund & Åstrand (chapters 4 and 5), as published, in
// their model (choices daring and safe).
func Examples() []Example {
	m3 := exact.Model{Memory: rules.Memory{Capacity: 3, Forget: rules.ForgetHandoverUniform}, Choices: SourceChoices}
	s2 := exact.Model{Singletons: 2, Choices: SourceChoices}
	st := func(n, j int) rules.State { return rules.State{N: n, J: j} }
	sf := func(n, j, f int) rules.State { return rules.State{N: n, J: j, S: 2, F: f} }
	return []Example{
		{ID: "SA-Ex1a", Claim: "m = 3, (4,3): daring gives 1657/945", Model: m3, State: st(4, 3), Choice: rules.Daring, Value: "1657/945",
			Uses:    map[rules.State]string{st(4, 1): "1363/540", st(3, 2): "14/15", st(3, 3): "37/27"},
			Weights: []string{"24/35", "6/35", "6/35", "1/7"}},
		{ID: "SA-Ex1b", Claim: "m = 3, (4,3): safe gives 1328/735, the better choice", Model: m3, State: st(4, 3), Choice: rules.Safe, Value: "1328/735", Better: choice(rules.Safe)},
		{ID: "SA-Ex2a", Claim: "m = 3, (4,1): daring gives 1363/540", Model: m3, State: st(4, 1), Choice: rules.Daring, Value: "1363/540"},
		{ID: "SA-Ex2b", Claim: "m = 3, (4,1): safe gives 27/14, daring is better", Model: m3, State: st(4, 1), Choice: rules.Safe, Value: "27/14", Better: choice(rules.Daring)},
		{ID: "SA-Ex5a", Claim: "s = 2, (3,1,2,1): daring gives 7/5", Model: s2, State: sf(3, 1, 1), Choice: rules.Daring, Value: "7/5"},
		{ID: "SA-Ex5b", Claim: "s = 2, (3,1,2,1): safe gives 19/10, the better choice", Model: s2, State: sf(3, 1, 1), Choice: rules.Safe, Value: "19/10", Better: choice(rules.Safe),
			Uses: map[rules.State]string{sf(2, 1, 1): "7/6", sf(3, 0, 1): "3/2", sf(3, 1, 0): "5/6"}},
	}
}
