package rules

import (
	"fmt"
	"strings"
)

// ChoiceSet is a set of the choices a mover may make at the start of a turn (docs/models.md
// §3.5). The zero value is every choice: the full game. The published models are smaller:
// Sjölund & Åstrand and Alfthan use {daring, safe}, Zwick & Paterson {daring, safe, pass}. Every
// set holds daring, the move that is forced when nothing is remembered. A choice in the set is
// still only open where it is Legal.
type ChoiceSet struct {
	// excluded has bit c set for each choice c left out, so that the zero value is every choice.
	excluded uint8
}

// FullChoices is the set of every choice: daring, safe, known-first and pass.
var FullChoices = ChoiceSet{}

// NewChoiceSet returns the set of the given choices.
func NewChoiceSet(cs ...Choice) ChoiceSet {
	s := ChoiceSet{excluded: 1<<NumChoices - 1}
	for _, c := range cs {
		s.excluded &^= 1 << c
	}
	return s
}

// Has reports whether c is in the set.
func (s ChoiceSet) Has(c Choice) bool { return c < NumChoices && s.excluded&(1<<c) == 0 }

// Full reports whether the set holds every choice.
func (s ChoiceSet) Full() bool { return s.excluded == 0 }

// Choices lists the set's choices in the tie-breaking order.
func (s ChoiceSet) Choices() []Choice {
	var out []Choice
	for _, c := range Choices() {
		if s.Has(c) {
			out = append(out, c)
		}
	}
	return out
}

// String lists the set's choices, comma-separated, as ParseChoiceSet reads them: for example
// "daring,safe".
func (s ChoiceSet) String() string {
	names := make([]string, 0, NumChoices)
	for _, c := range s.Choices() {
		names = append(names, c.String())
	}
	return strings.Join(names, ",")
}

// Validate reports whether the set holds daring and no unknown choice.
func (s ChoiceSet) Validate() error {
	switch {
	case s.excluded&^(1<<NumChoices-1) != 0:
		return fmt.Errorf("choice set: unknown choices")
	case !s.Has(Daring):
		return fmt.Errorf("choice set %s: must include daring, the move forced when nothing is remembered", s)
	}
	return nil
}

// ParseChoiceSet parses a comma-separated list of choice names (daring, safe, known-first,
// pass), each at most once, which must include daring.
func ParseChoiceSet(list string) (ChoiceSet, error) {
	var cs []Choice
	for _, name := range strings.Split(list, ",") {
		c, err := ParseChoice(strings.TrimSpace(name))
		if err != nil {
			return ChoiceSet{}, err
		}
		for _, d := range cs {
			if d == c {
				return ChoiceSet{}, fmt.Errorf("choice %s listed twice", c)
			}
		}
		cs = append(cs, c)
	}
	s := NewChoiceSet(cs...)
	return s, s.Validate()
}

// ParseChoice parses a choice name: daring, safe, known-first or pass.
func ParseChoice(name string) (Choice, error) {
	return parseName[Choice](choiceNames[:], name, "choice", choiceNames[:])
}

// Needs returns the choices a policy plays in some state: a fixed policy's (safe: daring and safe;
// daring: daring; parity: daring and safe), and daring alone for the solver's policies, which
// choose within whatever set they are given.
func (p Policy) Needs() ChoiceSet {
	switch p {
	case PolicySafe, PolicyParity:
		return NewChoiceSet(Daring, Safe)
	}
	return NewChoiceSet(Daring)
}

// CheckChoices reports whether policy p can be played within the choice set s: a fixed policy
// needs every choice it makes.
func (p Policy) CheckChoices(s ChoiceSet) error {
	if err := s.Validate(); err != nil {
		return err
	}
	for _, c := range p.Needs().Choices() {
		if !s.Has(c) {
			return fmt.Errorf("policy %s plays %s, which the choice set %s leaves out", p, c, s)
		}
	}
	return nil
}
