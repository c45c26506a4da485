package configs

import (
	"encoding/json"
	"fmt"
	"strconv"

	"memsim/sim/rules"
)

// IdentityVersion heads every identity (Tournament.Identity). It names what the identity covers
// and how it is encoded: a change to either changes it.
const IdentityVersion = "memsim config identity v2"

// Identity returns the identity of the configuration: a canonical encoding of its resolved
// settings (every default filled in) that make what a run of it computes. Two configurations
// have the same identity exactly when those settings are equal, however their files write them.
// A player's memory counts field by field as the file gives it, before its policy's defaults
// complete it.
//
// The identity covers the name, seed, games, paired, luck_adjusted, format, the rules (the deal
// sizes in the order given, singletons, players per game, pass rule, and the variant's copies,
// flips and turn limit, each left out where it is the standard game's), the players in the order
// given (name, policy, opponent, each memory field or its absence, the choice set or its
// absence, and for a player process its command, option values, time per move and on_error),
// output and the stopping rule. It leaves out workers and records, which do not change results,
// and everything about the file rather than the settings: its name (File), the positions,
// comments, the order of keys, the order of a choice list (a set), how values are written (16 or
// 0x10, [12] or 12) and whether a default is written out or left out. In particular, the text
// that YAML writes is not part of it: the identity of the configuration YAML writes, whatever
// its comment line, is t's own.
//
// The encoding is IdentityVersion, a newline, and the settings as JSON with fixed field names
// in sorted order; numbers that need not be integers are written as strings, in the shortest
// form that reads back exactly (strconv.FormatFloat with 'g' and -1), so that every value,
// infinity included, has one encoding.
func (t *Tournament) Identity() []byte {
	id := identity{
		Format:       t.Format.String(),
		Games:        t.Games,
		LuckAdjusted: t.LuckAdjusted,
		Name:         t.Name,
		Output:       t.Output,
		Paired:       t.Paired,
		Players:      make([]playerIdentity, len(t.Players)),
		Rules: rulesIdentity{
			Pairs:          t.Rules.Pairs,
			Pass:           t.Rules.Pass.String(),
			PlayersPerGame: t.Rules.PlayersPerGame,
			Singletons:     t.Rules.Singletons,
			TurnLimit:      t.Rules.Variant.TurnLimit,
		},
		Seed: t.Seed,
	}
	if v := t.Rules.Variant; v.CopiesOf() != rules.DefaultCopies {
		id.Rules.Copies = v.CopiesOf()
	}
	if v := t.Rules.Variant; v.Flips != rules.FlipsSequential {
		id.Rules.Flips = v.Flips.String()
	}
	for i, p := range t.Players {
		pid := playerIdentity{Name: p.Name, Opponent: p.Opponent, Policy: p.Policy}
		m := p.Memory
		pid.Memory.Capacity = m.Capacity
		if m.Forget != nil {
			pid.Memory.Forget = ptrTo(m.Forget.String())
		}
		if m.Q != nil {
			pid.Memory.Q = ptrTo(number(*m.Q))
		}
		if m.Scope != nil {
			pid.Memory.Scope = ptrTo(m.Scope.String())
		}
		pid.Memory.Fluctuation = m.Fluctuation
		if p.Choices != nil {
			pid.Choices = []string{} // an empty set is a set
			for _, c := range p.Choices.Choices() {
				pid.Choices = append(pid.Choices, c.String())
			}
		}
		if x := p.External; x != nil {
			pid.External = &externalIdentity{Command: x.Command, GamesInFlight: x.GamesInFlight, OnError: x.OnError,
				Options: map[string]string{}, TimePerMove: int64(x.TimePerMove)}
			for name, v := range x.Options {
				pid.External.Options[name] = optionIdentity(v)
			}
		}
		id.Players[i] = pid
	}
	if s := t.Stop; s != nil {
		id.Stop = &stopIdentity{Precision: number(s.Precision)}
		if s.SPRT != nil {
			id.Stop.SPRT = &sprtIdentity{Alpha: number(s.SPRT.Alpha), Beta: number(s.SPRT.Beta), D: number(s.SPRT.D)}
		}
	}
	body, err := json.Marshal(id)
	if err != nil {
		// Strings, integers, booleans and slices and pointers of them always encode.
		panic("configs: encoding an identity: " + err.Error())
	}
	return append([]byte(IdentityVersion+"\n"), body...)
}

// identity is the encoding of Tournament.Identity: its fields, and those of the types below, are
// in the order of their JSON names.
type identity struct {
	Format       string           `json:"format"`
	Games        int              `json:"games"`
	LuckAdjusted bool             `json:"luck_adjusted"`
	Name         string           `json:"name"`
	Output       string           `json:"output"`
	Paired       bool             `json:"paired"`
	Players      []playerIdentity `json:"players"`
	Rules        rulesIdentity    `json:"rules"`
	Seed         uint64           `json:"seed"`
	Stop         *stopIdentity    `json:"stop"` // null: no stopping rule
}

type rulesIdentity struct {
	Copies         int    `json:"copies,omitempty"` // left out for 2
	Flips          string `json:"flips,omitempty"`  // left out for sequential
	Pairs          []int  `json:"pairs"`
	Pass           string `json:"pass"`
	PlayersPerGame int    `json:"players_per_game"`
	Singletons     int    `json:"singletons"`
	TurnLimit      int    `json:"turn_limit,omitempty"` // left out for none
}

type playerIdentity struct {
	Choices  []string          `json:"choices"`            // null: not given (the full game)
	External *externalIdentity `json:"external,omitempty"` // left out for a policy
	Memory   memoryIdentity    `json:"memory"`
	Name     string            `json:"name"`
	Opponent string            `json:"opponent"`
	Policy   string            `json:"policy"`
}

// externalIdentity is a player process: its command, its games in flight (0: not given), its
// option values (each as optionIdentity writes it; a map encodes in sorted order), what a failure
// does, and its time per move in nanoseconds (0: not given). Games in flight do not change the
// games, but they are a setting of the configuration like the others.
type externalIdentity struct {
	Command       []string          `json:"command"`
	GamesInFlight int               `json:"games_in_flight"`
	OnError       string            `json:"on_error"`
	Options       map[string]string `json:"options"`
	TimePerMove   int64             `json:"time_per_move"`
}

// optionIdentity writes an option value with its type, so that the string "1" and the number 1
// differ: "bool:true", "number:0.5", "string:fast".
func optionIdentity(v any) string {
	switch v := v.(type) {
	case bool:
		return "bool:" + strconv.FormatBool(v)
	case float64:
		return "number:" + number(v)
	}
	return fmt.Sprintf("string:%s", v)
}

// memoryIdentity is a player's memory as the file gives it, field by field (null: not given).
type memoryIdentity struct {
	Capacity *int    `json:"capacity"`
	Forget   *string `json:"forget"`
	Q        *string `json:"q"`
	Scope    *string `json:"scope"`
	// Fluctuation is left out when not given, so that the identity of a memory without it is as
	// it was before the key existed.
	Fluctuation *int `json:"fluctuation,omitempty"`
}

type stopIdentity struct {
	Precision string        `json:"precision"` // "0": no precision rule
	SPRT      *sprtIdentity `json:"sprt"`      // null: no sequential test
}

type sprtIdentity struct {
	Alpha string `json:"alpha"`
	Beta  string `json:"beta"`
	D     string `json:"d"`
}

// number writes x in the shortest form that reads back exactly.
func number(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// ptrTo returns a pointer to a copy of v.
func ptrTo[T any](v T) *T { return &v }
