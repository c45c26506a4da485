package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"

	"memsim/analysis/exact"
	"memsim/analysis/exact/answer"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// unequalFlags are the flags of memsim solve that go with --opponent-memory.
var unequalFlags = map[string]bool{
	"pairs": true, "memory": true, "forget": true, "opponent-memory": true, "pass": true,
	"choices": true, "policy": true, "opponent": true, "float": true, "json": true, "big": true,
	"players": true,
}

// unequalQuery reads the flags of a solve with --opponent-memory: seat 0 with a private lru
// memory of capacity --memory (with --forget lru) or a perfect memory (--memory 0, the default)
// playing --policy, seat 1 with a private lru memory of capacity --opponent-memory or a perfect
// memory (0) playing --opponent, from the start of a deal of --pairs pairs (docs/models.md §4.15).
func (fl *solveFlags) unequalQuery(set map[string]bool) (exact.Unequal, error) {
	var u exact.Unequal
	var others []string
	for name := range set {
		if !unequalFlags[name] {
			others = append(others, "--"+name)
		}
	}
	sort.Strings(others)
	switch {
	case len(others) > 0:
		return u, fmt.Errorf("%s does not go with --opponent-memory (it solves from the start of a deal, two seats)", others[0])
	case fl.players != 2:
		return u, fmt.Errorf("--players %d with --opponent-memory: must be 2 (two seats, each with its own memory)", fl.players)
	case fl.pairs < 1:
		return u, fmt.Errorf("--pairs %d: must be at least 1", fl.pairs)
	case fl.memory < 0 || fl.memory == 1:
		return u, fmt.Errorf("--memory %d: must be 0 (perfect memory) or at least 2", fl.memory)
	case fl.memory >= 2 && fl.forget != "lru", fl.memory == 0 && set["forget"]:
		return u, fmt.Errorf("--opponent-memory needs --memory M --forget lru (M at least 2) or no --memory and no --forget (perfect memory): seat 0 has a private lru memory or a perfect one")
	case fl.opponentMemory < 0 || fl.opponentMemory == 1:
		return u, fmt.Errorf("--opponent-memory %d: must be 0 (perfect memory) or at least 2", fl.opponentMemory)
	}
	pass, err := rules.ParsePassRule(fl.pass)
	if err != nil {
		return u, err
	}
	cs, err := rules.ParseChoiceSet(fl.choices)
	if err != nil {
		return u, fmt.Errorf("--choices: %w", err)
	}
	if !set["choices"] {
		cs = rules.NewChoiceSet(rules.Daring, rules.Safe)
		if pass != rules.PassNever {
			cs = rules.NewChoiceSet(rules.Daring, rules.Safe, rules.Pass)
		}
	}
	var pol [2]rules.Policy
	for i, name := range []string{fl.policy, fl.opponent} {
		flagName := [2]string{"--policy", "--opponent"}[i]
		if name == "" {
			name, flagName = fl.policy, "--policy"
		}
		p, err := rules.ParsePolicy(name)
		if err != nil || (p != rules.PolicyOptimal && !p.Fixed()) {
			return u, fmt.Errorf("%s %q: with --opponent-memory the policies are optimal, safe, daring and parity", flagName, name)
		}
		pol[i] = p
	}
	u = exact.Unequal{Pass: pass, Choices: cs, Capacity: [2]int{fl.memory, fl.opponentMemory}, Policy: pol}
	return u, u.Validate()
}

// solveUnequal answers memsim solve --opponent-memory.
func solveUnequal(ctx context.Context, fl solveFlags, set map[string]bool, stdout io.Writer) error {
	u, err := fl.unequalQuery(set)
	if err != nil {
		return badInput(err)
	}
	if p := exact.UnequalPositions(u, fl.pairs); p > exact.MaxUnequalPositions {
		return usagef("%s: %s positions, at most %d", fl.unequalRequest(), sci(p), exact.MaxUnequalPositions)
	}
	if c := exact.EstimateUnequal(u, fl.pairs, !fl.float); !fl.big && (c.Seconds() > bigSeconds || c.Bytes > bigBytes) {
		return usagef("%s: about %s operations and %s, about %s on one core; add --big to solve it anyway",
			fl.unequalRequest(), sci(c.Ops), byteSize(c.Bytes), duration(c.Seconds()))
	}
	w := bufio.NewWriter(stdout)
	if fl.float {
		err = writeUnequal(ctx, field.Float{}, u, fl.pairs, fl.json, w)
	} else {
		err = writeUnequal(ctx, field.Rat{}, u, fl.pairs, fl.json, w)
	}
	if ferr := w.Flush(); err == nil && ferr != nil {
		err = fmt.Errorf("writing output: %w", ferr)
	}
	return err
}

// unequalRequest names the deal and the memories of a solve with --opponent-memory, as flags:
// --memory only when seat 0's memory is lru.
func (fl *solveFlags) unequalRequest() string {
	if fl.memory == 0 {
		return fmt.Sprintf("--pairs %d --opponent-memory %d", fl.pairs, fl.opponentMemory)
	}
	return fmt.Sprintf("--pairs %d --memory %d --opponent-memory %d", fl.pairs, fl.memory, fl.opponentMemory)
}

// unequalAnswer is the JSON answer of memsim solve --opponent-memory.
type unequalAnswer struct {
	Pairs          int              `json:"pairs"`
	Pass           string           `json:"pass"`
	Choices        string           `json:"choices"`
	Memory         [2]string        `json:"memory"`
	Policy         [2]string        `json:"policy"`
	Arithmetic     string           `json:"arithmetic"`
	ExpectedBySeat [2]answer.Number `json:"expected_pairs_by_seat"`
	ExpectedLead   answer.Number    `json:"expected_lead"`
}

func writeUnequal[T any](ctx context.Context, f field.Field[T], u exact.Unequal, pairs int, asJSON bool, w io.Writer) error {
	res, err := exact.EvaluateUnequal(ctx, f, u, pairs)
	if err != nil {
		return err
	}
	num := func(v T) answer.Number { return answer.NumberOf(f, v) }
	a := unequalAnswer{Pairs: pairs, Pass: u.Pass.String(), Choices: u.Choices.String(), Arithmetic: "exact",
		ExpectedLead: num(res.ExpectedLead)}
	if _, ok := f.Exact(res.ExpectedLead); !ok {
		a.Arithmetic = "float64"
	}
	for s := range 2 {
		a.Memory[s] = rules.Memory{}.String()
		if c := u.Capacity[s]; c > 0 {
			a.Memory[s] = rules.Memory{Capacity: c, Forget: rules.ForgetLRU, Scope: rules.ScopePrivate}.String()
		}
		a.Policy[s] = u.Policy[s].String()
		a.ExpectedBySeat[s] = num(res.ExpectedPairs[s])
	}
	if asJSON {
		enc := json.NewEncoder(w)
		return enc.Encode(a)
	}
	fmt.Fprintf(w, "%d pairs, seat 0 first, pass %s%s, %s arithmetic\n", pairs, u.Pass, choicesNote(u.Choices), a.Arithmetic)
	for s := range 2 {
		fmt.Fprintf(w, "seat %d: %s memory, %s\n", s, a.Memory[s], a.Policy[s])
	}
	for s := range 2 {
		fmt.Fprintf(w, "expected pairs, seat %d: %s\n", s, human(a.ExpectedBySeat[s]))
	}
	fmt.Fprintf(w, "expected lead, seat 0:  %s\n", human(a.ExpectedLead))
	return nil
}
