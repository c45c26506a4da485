package main

import (
	"flag"

	"memsim/sim/record"
	"memsim/sim/rules"
)

// reviewMemoryFlags are the flags of memsim review that name the shared memory a game of three or
// more seats is judged by.
type reviewMemoryFlags struct {
	capacity, fluctuation int
	forget                string
	q                     float64
}

// register adds the memory's flags to fs.
func (m *reviewMemoryFlags) register(fs *flag.FlagSet) {
	fs.IntVar(&m.capacity, "memory", 0, "judge games of 3 or more seats as a shared memory of capacity `M` would (with --forget)")
	fs.StringVar(&m.forget, "forget", "", "the shared memory's forgetting `rule`: lru (judged), handover-uniform or decay (no values)")
	fs.Float64Var(&m.q, "q", 0, "decay's probability `Q` of forgetting each remembered card at a hand-over, with --forget decay")
	fs.IntVar(&m.fluctuation, "fluctuation", 0, "the capacity's fluctuation `S` (no values: a record does not say which capacity was drawn)")
}

// memory returns the shared memory the flags name: perfect memory when none is given, or a one-line
// usage error naming the flag at fault and its allowed values.
func (m *reviewMemoryFlags) memory(set map[string]bool) (rules.Memory, error) {
	if !set["memory"] && !set["forget"] && !set["q"] && !set["fluctuation"] {
		return rules.Memory{}, nil
	}
	if !set["forget"] {
		return rules.Memory{}, requiredWith("--forget RULE", "--memory, --q or --fluctuation", "the shared memory's forgetting rule (allowed: lru, handover-uniform, decay)")
	}
	fg, err := rules.ParseForgetting(m.forget)
	if err != nil || fg == rules.ForgetNone {
		return rules.Memory{}, usagef("--forget %q: not a forgetting rule (allowed: lru, handover-uniform, decay)", m.forget)
	}
	switch {
	case set["q"] && fg != rules.ForgetDecay:
		return rules.Memory{}, usagef("--q %g goes with --forget decay", m.q)
	case fg == rules.ForgetDecay && !set["q"]:
		return rules.Memory{}, requiredWith("--q Q", "--forget decay", "the probability that each remembered card is forgotten at a hand-over, 0 < Q <= 1")
	case fg != rules.ForgetDecay && !set["memory"]:
		return rules.Memory{}, requiredWith("--memory M", "--forget "+m.forget, "the shared memory's capacity, at least 2")
	case set["fluctuation"] && fg == rules.ForgetDecay:
		return rules.Memory{}, usagef("--fluctuation %d goes with --forget lru or handover-uniform", m.fluctuation)
	}
	mem := rules.Memory{Capacity: m.capacity, Forget: fg, Decay: m.q, Fluctuation: m.fluctuation}
	if err := mem.Validate(); err != nil {
		return rules.Memory{}, usagef("--memory %d --forget %s: %v", m.capacity, m.forget, err)
	}
	return mem, nil
}

// checkReviewMemory refuses, before anything is written, a shared limited memory for a game of two
// seats: the review of two seats judges with perfect memory.
func checkReviewMemory(fl reviewFlags, file string, games []*record.Game) error {
	if fl.mem.Perfect() {
		return nil
	}
	for i, g := range games {
		if fl.set["game"] && i+1 != fl.game {
			continue
		}
		if g.Rules.Seats == 2 {
			return usagef("--memory: %s:%d: game %d has 2 seats: a limited memory judges games of 3 to %d seats (leave out --memory and --forget)", file, g.Line, i+1, rules.MaxPlayers)
		}
	}
	return nil
}
