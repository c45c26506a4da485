package exact

import "memsim/analysis/field"

// Score returns what a policy that plays to win maximises for the seat: P(win) + P(draw)/2.
func (o WDL[T]) Score(f field.Field[T]) T {
	return f.Add(o.Win, f.Div(o.Draw, f.FromInt(2)))
}
