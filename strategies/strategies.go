// Package strategies builds the simulator's players: a policy plus a memory. Policies that read a
// table of choices (optimal, best-response, safe, daring, parity, and the forgetful preset) are
// played by the engine from a rules.ChoiceTable, which this package fills from the exact solver or
// from the fixed policies' definitions; the others (random, greedy-random) implement
// sim.Strategy.
//
// Adding a policy is one file implementing sim.Strategy plus one line in the registry below.
package strategies

import (
	"context"
	"fmt"
	"strings"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim"
	"memsim/sim/rules"
	"memsim/strategies/external"
)

// Spec is a player as a configuration describes it.
type Spec struct {
	Name string
	// Policy is a registered policy name (see Names).
	Policy string
	// Opponent is the policy a best-response player answers.
	Opponent string
	// Memory overrides the fields of the policy's default memory (perfect, or the preset's) that
	// are set.
	Memory MemoryOverride
	// Choices, when not nil, restricts the choices of a table policy (the full game otherwise):
	// optimal and best-response optimise within it, and a fixed policy must not need a choice
	// outside it. For a player process it is the choice set it is told and held to.
	Choices *rules.ChoiceSet
	// External, when not nil, makes the player a process speaking the player protocol
	// (docs/protocol.md) instead of a policy; Policy and Opponent are then empty.
	External *external.Command
}

// MemoryOverride lists memory fields to override; nil fields keep the default.
type MemoryOverride struct {
	Capacity    *int
	Forget      *rules.Forgetting
	Scope       *rules.Scope
	Decay       *float64
	Fluctuation *int
}

// apply returns m with the set fields of o.
func (o MemoryOverride) apply(m rules.Memory) rules.Memory {
	if o.Capacity != nil {
		m.Capacity = *o.Capacity
	}
	if o.Forget != nil {
		m.Forget = *o.Forget
	}
	if o.Scope != nil {
		m.Scope = *o.Scope
	}
	if o.Decay != nil {
		m.Decay = *o.Decay
	}
	if o.Fluctuation != nil {
		m.Fluctuation = *o.Fluctuation
	}
	return m
}

// Env is what building a player needs to know of the games it will play.
type Env struct {
	// MaxPairs is the largest deal size; Singletons, Players and Pass are the rules.
	MaxPairs, Singletons, Players int
	Pass                          rules.PassRule
	// Variant holds the rules in which the games differ from the standard game (docs/models.md
	// §1.7); the exact models, and so the tables of optimal and the other solved policies, cover
	// blind flips and a turn limit with two copies of a face, and more copies under either flip
	// rule, with or without a turn limit (§4.12).
	Variant rules.Variant
	// Tables caches solver tables across players; it may be nil.
	Tables *Tables
}

// Built is a player ready for the engine, with what is known of it.
type Built struct {
	Player sim.Player
	// Policy is the name of the policy played (a preset's underlying policy).
	Policy string
	// Table says which table a table policy plays from, with a note where the player's memory has
	// no exact model; empty for other policies.
	Table string
	// Exact, when not nil, says how the exact solver can evaluate this player: its policy and
	// the memory model it plays in (a shared one, or a private lru memory, which has an exact
	// model against a private lru memory of another capacity).
	Exact *Exact
	// External, when not nil, is the player process definition (and its running processes) of a
	// player that is a process; the caller closes it when done.
	External *external.Player
}

// Exact is a player as the exact solver sees it: its policy (and the policy it answers), and the
// memory (shared, or private lru) and choice set of the model it plays in.
type Exact struct {
	Policy, Opponent rules.Policy
	Memory           rules.Memory
	Choices          rules.ChoiceSet
}

// entry is a registered policy: a table policy of the rules (played by the engine from a table,
// with a default memory), or a strategy.
type entry struct {
	name        string
	table       bool
	policy      rules.Policy
	memory      rules.Memory
	newStrategy func() sim.Strategy
}

// registry lists the built-in policies, in the order Names reports them.
func registry() []entry {
	table := func(name string, p rules.Policy, mem rules.Memory) entry {
		return entry{name: name, table: true, policy: p, memory: mem}
	}
	strategy := func(name string, s func() sim.Strategy) entry { return entry{name: name, newStrategy: s} }
	return []entry{
		table("optimal", rules.PolicyOptimal, rules.Memory{}),
		table("best-response", rules.PolicyBestResponse, rules.Memory{}),
		table("safe", rules.PolicySafe, rules.Memory{}),
		table("daring", rules.PolicyDaring, rules.Memory{}),
		table("parity", rules.PolicyParity, rules.Memory{}),
		table("win-optimal", rules.PolicyWinOptimal, rules.Memory{}),
		table("win-best-response", rules.PolicyWinBestResponse, rules.Memory{}),
		strategy("random", func() sim.Strategy { return Random{} }),
		strategy("greedy-random", func() sim.Strategy { return GreedyRandom{} }),
		table("forgetful", rules.PolicyOptimal, ForgetfulMemory()),
	}
}

// lookup returns the registered policy of that name.
func lookup(name string) (entry, bool) {
	for _, e := range registry() {
		if e.name == name {
			return e, true
		}
	}
	return entry{}, false
}

// ForgetfulMemory returns the default memory of the forgetful preset: private lru of capacity 7.
func ForgetfulMemory() rules.Memory {
	return rules.Memory{Capacity: 7, Forget: rules.ForgetLRU, Scope: rules.ScopePrivate}
}

// Names lists the registered policy names.
func Names() []string {
	var out []string
	for _, r := range registry() {
		out = append(out, r.name)
	}
	return out
}

// Opponents lists the policies a player of the named policy may answer (best-response answers
// the policies the solver knows), or nil for a policy that takes no opponent. It is the one source
// of that rule for configurations and for Build (see rules.Policy.Opponents).
func Opponents(policy string) []string {
	e, ok := lookup(policy)
	if !ok || !e.table {
		return nil
	}
	var out []string
	for _, o := range e.policy.Opponents() {
		out = append(out, o.String())
	}
	return out
}

// CheckChoices reports whether a player of the named policy may play within the choice set s:
// a table policy whose choices s holds (see rules.Policy.CheckChoices); a strategy takes none.
func CheckChoices(policy string, s rules.ChoiceSet) error {
	e, ok := lookup(policy)
	switch {
	case !ok:
		return fmt.Errorf("unknown policy %q (allowed: %s)", policy, strings.Join(Names(), ", "))
	case !e.table:
		return errNoChoiceSet(policy)
	}
	return e.policy.CheckChoices(s)
}

// errNoChoiceSet refuses a choice set to a policy that plays no table of choices.
func errNoChoiceSet(policy string) error {
	return fmt.Errorf("policy %s plays no table of choices, so it takes no choice set", policy)
}

// Build makes the player spec describes.
func Build(ctx context.Context, spec Spec, env Env) (Built, error) {
	if spec.External != nil {
		return buildExternal(spec, env)
	}
	e, ok := lookup(spec.Policy)
	if !ok {
		return Built{}, fmt.Errorf("player %q: unknown policy %q (allowed: %s)", spec.Name, spec.Policy, strings.Join(Names(), ", "))
	}
	build := buildStrategy
	if e.table {
		build = buildTable
	}
	b, err := build(ctx, e, spec, env)
	if err != nil {
		return Built{}, fmt.Errorf("player %q: %w", spec.Name, err)
	}
	b.Player.Name = spec.Name
	return b, nil
}

// ExternalPolicy is the policy name of a player process in Built.Policy.
const ExternalPolicy = "external"

// buildExternal makes a player that is a process. It starts nothing: the processes start when the
// engines play, or with Built.External.Hello.
func buildExternal(spec Spec, env Env) (Built, error) {
	if spec.Policy != "" || spec.Opponent != "" {
		return Built{}, fmt.Errorf("player %q: a process has no policy or opponent", spec.Name)
	}
	mem := spec.Memory.apply(rules.Memory{})
	if err := mem.Validate(); err != nil {
		return Built{}, fmt.Errorf("player %q: %w", spec.Name, err)
	}
	c := *spec.External
	if spec.Choices != nil {
		c.Choices = *spec.Choices
	}
	c.Variant = env.Variant
	x, err := external.New(spec.Name, c)
	if err != nil {
		return Built{}, err
	}
	return Built{Player: sim.Player{Name: spec.Name, Memory: mem, NewStrategy: x.Strategy}, Policy: ExternalPolicy, External: x}, nil
}

// buildStrategy makes a player of a policy that implements sim.Strategy.
func buildStrategy(_ context.Context, e entry, spec Spec, env Env) (Built, error) {
	if spec.Opponent != "" {
		return Built{}, fmt.Errorf("policy %s takes no opponent", spec.Policy)
	}
	if spec.Choices != nil {
		return Built{}, errNoChoiceSet(spec.Policy)
	}
	mem := spec.Memory.apply(rules.Memory{})
	if err := mem.Validate(); err != nil {
		return Built{}, err
	}
	return Built{Player: sim.Player{Memory: mem, NewStrategy: e.newStrategy}, Policy: spec.Policy}, nil
}

// buildTable makes a player of a policy played from a choice table.
func buildTable(ctx context.Context, e entry, spec Spec, env Env) (Built, error) {
	p := e.policy
	mem := spec.Memory.apply(e.memory)
	if err := mem.Validate(); err != nil {
		return Built{}, err
	}
	b := Built{Player: sim.Player{Memory: mem}, Policy: p.String()}
	opp := rules.PolicyOptimal
	if p == rules.PolicyWinOptimal {
		opp = p // its table comes from self-play
	}
	if spec.Opponent != "" {
		o, err := rules.ParsePolicy(spec.Opponent)
		if err != nil {
			return Built{}, fmt.Errorf("opponent %q (allowed: %s)", spec.Opponent, strings.Join(Opponents(spec.Policy), ", "))
		}
		opp = o
	}
	if err := p.CheckReply(opp, spec.Opponent != "", env.Players); err != nil {
		return Built{}, err
	}
	choices := rules.FullChoices
	if spec.Choices != nil {
		choices = *spec.Choices
	}
	if err := p.CheckChoices(choices); err != nil {
		return Built{}, err
	}
	if err := checkVariant(e.name, p, env.Variant); err != nil {
		return Built{}, err
	}
	model, note := tableModel(mem, env, p, opp)
	model.Choices = choices
	if !env.Variant.Standard() {
		model.Variant = env.Variant
		if copiesModel(env.Variant) {
			note = variantNote(model, mem, env.Players)
			if !p.Fixed() {
				return buildCopies(ctx, b, model, mem, e.name, p, opp, env)
			}
		} else if err := model.Validate(); err != nil && note == "" && !fluctLimited(model) {
			if !p.Fixed() {
				return Built{}, fmt.Errorf("policy %s with %s memory: %w", e.name, mem, err)
			}
			note = "no exact model: " + err.Error()
		}
	}
	if p.Fixed() {
		t, err := rules.FixedChoiceTable(p, env.MaxPairs, env.Singletons)
		if err != nil {
			return Built{}, err
		}
		b.Player.Table = t
		b.Table = "fixed rule"
	} else {
		mu := exact.Lineup{Players: tablePlayers(p, model, env), Policy: p, Opponent: opp}
		t, err := env.Tables.get(ctx, model, mu, env.MaxPairs)
		if err != nil {
			return Built{}, fmt.Errorf("policy %s with %s memory: %w", e.name, mem, err)
		}
		if mem.Fluctuation > 0 && model.Memory.Fluctuation == 0 {
			if t, err = coverFluctuation(t, mem.Capacity); err != nil {
				return Built{}, err
			}
		}
		b.Player.Table = t
		b.Table = fmt.Sprintf("%s table, %s memory", tableName(mu), model.Memory)
		if p == rules.PolicyOptimal && env.Players > 2 && mu.Players == 2 {
			b.Table += fmt.Sprintf(" (under pass rule %s the %d-player optimum is solved for perfect memory in the standard game)", env.Pass, env.Players)
		}
		if !choices.Full() {
			b.Table += ", choices " + choices.String()
		}
		if note != "" {
			b.Table += " (" + note + ")"
		}
	}
	// A private lru memory has an exact model against one of another capacity (docs/models.md
	// §4.15), which the tournament finds from the seats' Exact.
	if note == "" || (mem.Forget == rules.ForgetLRU && mem.Scope == rules.ScopePrivate && mem.Fluctuation == 0 && env.Variant.Standard()) {
		em := mem
		if em.Perfect() {
			em = rules.Memory{} // every perfect memory is the same, whatever its scope
		}
		b.Exact = &Exact{Policy: p, Opponent: opp, Memory: em, Choices: choices}
	}
	return b, nil
}

// VariantPolicies lists the policies a player may follow under the variant v: the strategies,
// and the fixed policies that are defined card by card (docs/models.md §1.7); parity only with
// two copies of a face, as it reads the number of unknown pairs; optimal, best-response and the
// policies that play to win (two players) under copies under either flip rule, with or without a
// turn limit (the copies model, §4.16); and with two copies
// the policies the exact models solve under blind flips and a turn limit (§4.17, §4.18): optimal,
// best-response and the policies that play to win, and forgetful (blind flips are solved with a
// shared lru memory, with or without a turn limit, whose table forgetful's private memory reads).
func VariantPolicies(v rules.Variant) []string {
	if copiesModel(v) {
		return []string{"random", "greedy-random", "safe", "daring", "optimal", "best-response", "win-optimal", "win-best-response"}
	}
	return []string{"random", "greedy-random", "safe", "daring", "parity", "optimal", "best-response",
		"win-optimal", "win-best-response", "forgetful"}
}

// checkVariant reports whether the table policy p, written name, can be played under the variant v.
func checkVariant(name string, p rules.Policy, v rules.Variant) error {
	switch {
	case v.Standard() || p == rules.PolicySafe || p == rules.PolicyDaring:
		return nil
	case copiesModel(v) && (p == rules.PolicyOptimal || p == rules.PolicyBestResponse || p.PlaysToWin()):
		return nil
	case p == rules.PolicyParity && v.CopiesOf() == rules.DefaultCopies:
		return nil
	case p == rules.PolicyParity:
		return fmt.Errorf("policy parity reads the number of unknown pairs, defined for two copies of a face, not %d (allowed under %s: %s)",
			v.CopiesOf(), v, strings.Join(VariantPolicies(v), ", "))
	case v.CopiesOf() == rules.DefaultCopies:
		return nil
	}
	return fmt.Errorf("policy %s plays a table of the exact models, which cover the standard game, not %s (allowed under %s: %s)",
		name, v, v, strings.Join(VariantPolicies(v), ", "))
}

// tablePlayers returns the number of seats of the table policy p is played from at a table of
// env.Players seats: optimal plays the optimum of every seat for itself at that many seats (under
// a pass rule a table read at the pass streak); win-optimal plays the win objective of every seat
// for itself at that many seats (refused where it is not solved); best-response and
// win-best-response reply to the named
// policy at every other seat of that many seats (refused where the solver has no such reply);
// the other table policies are two-player ones.
func tablePlayers(p rules.Policy, m exact.Model, env Env) int {
	if p == rules.PolicyOptimal && env.Players > 2 {
		return env.Players
	}
	if (p == rules.PolicyWinOptimal || p.Opponents() != nil) && env.Players > 2 {
		return env.Players
	}
	return min(env.Players, 2)
}

func tableName(mu exact.Lineup) string {
	seats := ""
	if mu.Players > 2 {
		seats = fmt.Sprintf("%d-player ", mu.Players)
	}
	switch {
	case mu.Policy == rules.PolicyBestResponse:
		return seats + "best response to " + mu.Opponent.String()
	case mu.Policy == rules.PolicyWinBestResponse:
		return seats + "win best response to " + mu.Opponent.String()
	case mu.Policy == rules.PolicyWinOptimal && mu.Players > 2:
		return fmt.Sprintf("%d-player win-optimal", mu.Players)
	case mu.Policy == rules.PolicyWinOptimal:
		return "win-optimal"
	case mu.Players == 1:
		return "solitaire optimal"
	case mu.Players > 2:
		return fmt.Sprintf("%d-player optimal", mu.Players)
	}
	return "two-player optimal"
}

// tableModel returns the exact model whose table a player with memory mem plays from, and a note
// when that model is not the player's own: private memories have no exact model, so they use the
// shared-memory table of the same memory; and a memory whose capacity fluctuates uses the table
// of its base capacity.
func tableModel(mem rules.Memory, env Env, p, opp rules.Policy) (exact.Model, string) {
	m := exact.Model{Pass: env.Pass, Singletons: env.Singletons, Memory: mem}
	var note string
	if mem.Fluctuation > 0 && !fluctSolved(m, env, p, opp) {
		m.Memory.Fluctuation = 0
		note = "a fluctuating capacity is solved only with a shared lru or handover-uniform memory and pairs only, for optimal, safe, daring and parity (2 to 8 players under every pass rule), best-response to one of them (two players; also under a turn limit), win-optimal (2 to 8 players; at three or more seats under pass rule never, read by the standings) and win-best-response to one of them or to win-optimal (two players)"
	}
	if mem.Perfect() {
		m.Memory = rules.Memory{} // every perfect memory is the same, whatever its scope
	}
	if mem.Scope == rules.ScopePrivate && !mem.Perfect() {
		m.Memory.Scope = rules.ScopeShared
		if note == "" {
			note = "private memory has no exact model"
		} else {
			note += "; nor has private memory"
		}
	}
	if note != "" {
		note = "no exact model for this memory: " + note + ", so it plays the " + m.Memory.String() + " table"
	}
	return m, note
}

// Tables caches solver tables, keyed by model, matchup and size. It is not safe for concurrent
// use; a nil *Tables computes every table afresh.
type Tables struct {
	cache map[tableKey]*rules.ChoiceTable
}

type tableKey struct {
	model    exact.Model
	mu       exact.Lineup
	maxPairs int
}

// NewTables returns an empty cache.
func NewTables() *Tables { return &Tables{cache: map[tableKey]*rules.ChoiceTable{}} }

func (c *Tables) get(ctx context.Context, m exact.Model, mu exact.Lineup, maxPairs int) (*rules.ChoiceTable, error) {
	key := tableKey{m, mu, maxPairs}
	if c != nil {
		if t, ok := c.cache[key]; ok {
			return t, nil
		}
	}
	var t *rules.ChoiceTable
	var err error
	limit := m.RationalLimit()
	if mu.Policy == rules.PolicyOptimal || mu.Policy == rules.PolicyBestResponse {
		limit = m.SeatsRationalLimit(mu.Players)
	}
	if mixed := mu.SelfWinMixed(); mixed || mu.Policy.PlaysToWin() && mu.Players > 2 {
		if top := exact.SelfWinTableLimitOf(m, mu.Players, mixed); maxPairs > top {
			what := fmt.Sprintf("win-optimal at %d seats", mu.Players)
			if mixed {
				what = fmt.Sprintf("%s at %d seats beside other policies", mu.Policy, mu.Players)
			}
			return nil, fmt.Errorf("%s is solved for deals of at most %d pairs, not %d", what, top, maxPairs)
		}
		limit = exact.SelfWinRationalLimitOf(m)
	} else if mu.Policy.PlaysToWin() {
		if maxPairs > exact.WinTableLimit {
			return nil, fmt.Errorf("a policy that plays to win is solved for deals of at most %d pairs, not %d", exact.WinTableLimit, maxPairs)
		}
		limit = m.WinRationalLimit()
		if m.Variant.TurnLimit > 0 {
			limit = min(limit, exact.WinLimitRationalLimit)
		}
	}
	switch {
	case m.Memory.Fluctuation > 0 && m.Variant.TurnLimit > 0:
		t, err = fluctLimitTable(ctx, m, mu, maxPairs, limit)
	case m.Memory.Fluctuation > 0 && mu.Players > 2 && mu.Policy.PlaysToWin():
		t, err = fluctSelfWinTable(ctx, m, mu, maxPairs, limit)
	case m.Memory.Fluctuation > 0 && mu.Players > 2:
		t, err = fluctSeatsTable(ctx, m, mu, maxPairs, limit)
	case m.Memory.Fluctuation > 0 && mu.Policy.PlaysToWin() && maxPairs <= limit:
		t, err = exact.FluctWinTable(ctx, field.Rat{}, m, mu, maxPairs)
	case m.Memory.Fluctuation > 0 && mu.Policy.PlaysToWin():
		t, err = exact.FluctWinTable(ctx, field.Float{}, m, mu, maxPairs)
	case m.Memory.Fluctuation > 0 && mu.Policy == rules.PolicyBestResponse && maxPairs <= limit:
		t, err = exact.FluctReplyTable(ctx, field.Rat{}, m, mu.Opponent, maxPairs)
	case m.Memory.Fluctuation > 0 && mu.Policy == rules.PolicyBestResponse:
		t, err = exact.FluctReplyTable(ctx, field.Float{}, m, mu.Opponent, maxPairs)
	case m.Memory.Fluctuation > 0 && mu.Players == 1 && maxPairs <= limit:
		t, err = exact.FluctSoloTable(ctx, field.Rat{}, m, maxPairs) // solitaire's fewest turns
	case m.Memory.Fluctuation > 0 && mu.Players == 1:
		t, err = exact.FluctSoloTable(ctx, field.Float{}, m, maxPairs)
	case m.Memory.Fluctuation > 0 && maxPairs <= limit:
		t, err = exact.FluctTable(ctx, field.Rat{}, m, maxPairs)
	case m.Memory.Fluctuation > 0:
		t, err = exact.FluctTable(ctx, field.Float{}, m, maxPairs)
	case m.Variant.CopiesOf() != rules.DefaultCopies:
		t, err = copiesTable(ctx, m, mu, maxPairs)
	case maxPairs <= limit:
		t, err = exact.PolicyTable(ctx, field.Rat{}, m, mu, maxPairs)
	default:
		t, err = exact.PolicyTable(ctx, field.Float{}, m, mu, maxPairs)
	}
	if err != nil {
		return nil, err
	}
	if c != nil {
		c.cache[key] = t
	}
	return t, nil
}

// coverFluctuation returns a copy of table t, the table of a memory of capacity capacity, that
// also covers the states of more remembered cards, which a memory whose capacity fluctuates above
// its base reaches: each takes the choice of the state with as many pairs whose remembered cards
// are brought down to capacity (more unknown pairs, then more unseen singletons), and a table read
// by the seats' standings keeps them (coverStandings).
func coverFluctuation(t *rules.ChoiceTable, capacity int) (*rules.ChoiceTable, error) {
	if st := t.Standings(); st != nil {
		return coverStandings(st, capacity) // fluctselfwin.go
	}
	out, err := rules.NewLeadChoiceTable(t.MaxPairs(), t.Singletons(), t.MaxLead())
	if err != nil {
		return nil, err
	}
	s := t.Singletons()
	for n := 0; n <= t.MaxPairs(); n++ {
		for j := 0; j <= n; j++ {
			for f := 0; f <= s; f++ {
				for lead := -max(t.MaxLead(), 0); lead <= max(t.MaxLead(), 0); lead++ {
					st := rules.State{N: n, J: j, S: s, F: f, Lead: lead}
					near := nearCapacity(st, capacity)
					for _, afterPass := range []bool{false, true} {
						if c, ok := t.Lookup(near, afterPass); ok {
							out.Set(st, afterPass, c)
						}
					}
				}
			}
		}
	}
	return out, nil
}

// fluctSolved reports whether the fluctuating capacity of model m's memory has an exact model for
// policy p in env (docs/models.md §4.4): a shared lru or handover-uniform memory, pairs only, the
// standard game (or blind flips at two seats under every pass rule without a turn limit), and
// optimal, safe or daring (2 to 8 players, every pass rule), or best-response to
// one of them (opp; two players), or win-optimal (at three to eight seats every seat playing it,
// pass rule never, read by the capacity drawn and the standings), or win-best-response to one of
// them or to win-optimal (two players; at three or more seats under pass rule never, one seat
// replying to the others).
func fluctSolved(m exact.Model, env Env, p, opp rules.Policy) bool {
	mu := exact.Lineup{Players: env.Players, Policy: p, Opponent: p}
	if p == rules.PolicyBestResponse || p == rules.PolicyWinBestResponse {
		mu.Opponent = opp
	}
	if v := env.Variant; v.TurnLimit > 0 {
		m.Variant = v // fluctlimit.go: two seats, optimal, safe, daring, parity and best-response
		v.TurnLimit = 0
		return v.Standard() && mu.Validate(m) == nil
	}
	if v := env.Variant; v.Flips == rules.FlipsBlind {
		m.Variant = v // fluctblind.go: 2 to 8 seats, every pass rule, no turn limit
		v.Flips = rules.FlipsSequential
		return v.Standard() && mu.Validate(m) == nil
	}
	return env.Variant.Standard() && mu.Validate(m) == nil
}
