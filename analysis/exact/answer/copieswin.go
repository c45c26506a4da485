package answer

import (
	"memsim/analysis/exact"
	"memsim/analysis/field"
)

// WinChoicesOf gives the choices' values to win wc, lineup mu played afterwards, their JSON form:
// those of exact.WinChoiceValues, or of exact.CopiesWinChoiceValues in the copies model.
func WinChoicesOf[T any](f field.Field[T], mu exact.Lineup, wc exact.WinChoices[T]) *WinChoices {
	return winChoicesOf(f, mu, wc)
}
