package external

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"

	"memsim/sim"
	"memsim/sim/rules"
	"memsim/strategies/external/protocol"
)

// TableSpec says which count states Conn.Tabulate asks a player about: every state at the start
// of a turn of a two-seat game of Pairs pairs and Singletons singletons under pass rule Pass and
// choice set Choices, with perfect memory.
type TableSpec struct {
	Pairs, Singletons int
	Pass              rules.PassRule
	Choices           rules.ChoiceSet
	// FirstID is the id of the first query; the queries take the ids from it up, which the
	// caller must not have used on the connection.
	FirstID int64
	// InFlight is the number of queries written at once before their replies are read
	// (DefaultInFlight when 0).
	InFlight int
}

// DefaultInFlight is the number of position queries Tabulate writes at once by default.
const DefaultInFlight = 256

// Tabulation is what Conn.Tabulate produced: the player's choices as a table and the number of
// queries it answered.
type Tabulation struct {
	Table   *rules.ChoiceTable
	Queries int
	// NextID is the first query id Tabulate did not use.
	NextID int64
}

// Position is one count state a player is asked about: the state (its lead included) and
// whether the previous seat's turn was a pass.
type Position struct {
	State     rules.State
	AfterPass bool
}

// String writes the position as the protocol names its fields: "(n=5, j=3, s=0, f=0, lead=0,
// after_pass=false)".
func (p Position) String() string {
	st := p.State
	return fmt.Sprintf("(n=%d, j=%d, s=%d, f=%d, lead=%d, after_pass=%t)", st.N, st.J, st.S, st.F, st.Lead, p.AfterPass)
}

// Positions returns the count states Tabulate asks about, in order of n, j, f, lead and
// after_pass: every state with 1 to spec.Pairs pairs and spec.Singletons singletons; with
// withLead, once for each lead a game can reach there (|lead| at most the pairs taken), otherwise
// at lead 0; after a pass by the previous seat as well where the pass rule allows a pass.
func Positions(spec TableSpec, withLead bool) []Position {
	var out []Position
	for n := 1; n <= spec.Pairs; n++ {
		reach := 0
		if withLead {
			reach = spec.Pairs - n
		}
		for j := 0; j <= n; j++ {
			for f := 0; f <= spec.Singletons; f++ {
				for d := -reach; d <= reach; d++ {
					st := rules.State{N: n, J: j, S: spec.Singletons, F: f, Lead: d}
					out = append(out, Position{State: st})
					if spec.Pass.Allows(st) {
						out = append(out, Position{State: st, AfterPass: true})
					}
				}
			}
		}
	}
	return out
}

// open returns the choices of set open in st, in the protocol's order.
func open(set rules.ChoiceSet, pass rules.PassRule, st rules.State) []string {
	return choiceNames(set, func(c rules.Choice) bool { return rules.Legal(st, c, pass) })
}

// Tabulate asks the process, whose player declared positions at its handshake, for its
// first-card choice in every count state of spec (Positions), InFlight queries at a time, and
// returns its answers as a table: with a lead dimension (leads up to spec.Pairs) when the player
// declared that its choice depends on the lead. Each reply must come within the player's time per
// move of the one before. An error names the query's state and the line at fault; any error stops
// the process.
func (c *Conn) Tabulate(spec TableSpec) (Tabulation, error) {
	info := c.Info()
	var res Tabulation
	switch {
	case info.View != protocol.ViewState || info.Positions == "":
		return res, fmt.Errorf("%s: the player (%s %s) answers no position queries: it declares no positions at its handshake (docs/protocol.md, position queries)",
			c.p.describe(), info.Name, info.Version)
	case spec.Pairs < 1 || spec.Pairs > protocol.MaxPairs:
		return res, fmt.Errorf("pairs %d: must be from 1 to %d", spec.Pairs, protocol.MaxPairs)
	case spec.Singletons < 0 || spec.Singletons > protocol.MaxSingletons:
		return res, fmt.Errorf("singletons %d: must be from 0 to %d", spec.Singletons, protocol.MaxSingletons)
	}
	withLead := info.Positions == protocol.PositionsLead
	var err error
	if withLead {
		res.Table, err = rules.NewLeadChoiceTable(spec.Pairs, spec.Singletons, spec.Pairs)
	} else {
		res.Table, err = rules.NewChoiceTable(spec.Pairs, spec.Singletons)
	}
	if err != nil {
		return res, err
	}
	protoRules := protocol.Rules{Pairs: spec.Pairs, Singletons: spec.Singletons, Seats: 2, Pass: spec.Pass.String(),
		Choices: choiceNames(spec.Choices, nil)}
	batch := spec.InFlight
	if batch <= 0 {
		batch = DefaultInFlight
	}
	all := Positions(spec, withLead)
	id := spec.FirstID
	inFlight := make(map[int64]*protocol.Position, batch)
	at := make(map[int64]Position, batch)
	for start := 0; start < len(all); start += batch {
		for _, pos := range all[start:min(start+batch, len(all))] {
			st := pos.State
			q := &protocol.Position{Game: id, Rules: protoRules,
				State:   protocol.State{N: st.N, J: st.J, S: st.S, F: st.F, Lead: st.Lead, AfterPass: pos.AfterPass},
				Choices: open(spec.Choices, spec.Pass, st)}
			if err := c.Write(q); err != nil {
				return res, c.wrap(err)
			}
			inFlight[id], at[id] = q, pos
			id++
		}
		if err := c.Flush(); err != nil {
			return res, c.wrap(err)
		}
		for len(inFlight) > 0 {
			m, line, err := c.Read(c.p.cmd.timePerMove())
			if err != nil {
				return res, c.wrap(fmt.Errorf("%d position queries unanswered: %w", len(inFlight), err))
			}
			game, _ := protocol.ReplyGame(m)
			q := inFlight[game]
			if q == nil {
				return res, c.wrap(c.s.fail(fmt.Errorf("line %d: a %s message, not the reply to a position query in flight%s", line, m.Type(), quote(c.s.r.Text()))))
			}
			pos := at[game]
			if err := protocol.CheckPositionReply(q, m); err != nil {
				return res, c.wrap(c.s.fail(fmt.Errorf("line %d: the reply to the position query %d in state %v: %s: %w", line, game, pos, m.Type(), err)))
			}
			ch, _ := rules.ParseChoice(m.(*protocol.Choice).Choice)
			res.Table.Set(pos.State, pos.AfterPass, ch)
			delete(inFlight, game)
			delete(at, game)
			res.Queries++
		}
	}
	res.NextID = id
	return res, nil
}

// wrap names the player and its process in an error.
func (c *Conn) wrap(err error) error {
	return fmt.Errorf("%s, process %d: %w", c.p.describe(), c.Pid(), err)
}

// CheckSpec says how Player.CheckTable plays: Games games of Pairs pairs and Singletons
// singletons under pass rule Pass, two seats, perfect memory, the process in one seat and each of
// Opponents in turn in the other, every deal played from both seats.
type CheckSpec struct {
	Pairs, Singletons int
	Pass              rules.PassRule
	// Variant is the games' rule variant: a turn limit is played, the table read at the count
	// state whatever the turns left; the zero Variant is the standard game.
	Variant   rules.Variant
	Opponents []sim.Player
	Games     int64
	Seed      uint64
}

// CheckResult is what a check that passed saw: the games played and the choices the process made
// in them, each the table's.
type CheckResult struct {
	Games, Choices int64
}

// Mismatch is the first choice of a process that differs from its table: the state, the table's
// choice and the process's (or that the process flipped a card itself).
type Mismatch struct {
	Position Position
	Table    rules.Choice
	// Process is the process's choice; Flipped is set when it answered with a flip instead.
	Process rules.Choice
	Flipped bool
}

// Error says where the process and its table differ, on one line.
func (m *Mismatch) Error() string {
	did := "chose " + m.Process.String()
	if m.Flipped {
		did = "flipped a card itself instead of answering a choice"
	}
	return fmt.Sprintf("in state %v the table holds %s and the process %s", m.Position, m.Table, did)
}

// CheckTable plays the games of spec through the engine with a process of the player in one seat
// and compares every first-card choice the process makes with the table's choice in the same
// count state (its lead and whether it follows a pass included). It returns the first difference
// as an error wrapping a *Mismatch, which stops the games; any other error of the games (a
// process that breaks the protocol) is returned as it is.
func (p *Player) CheckTable(ctx context.Context, table *rules.ChoiceTable, spec CheckSpec) (CheckResult, error) {
	var res CheckResult
	if len(spec.Opponents) == 0 {
		return res, errors.New("no opponent to check the table against")
	}
	per := max(spec.Games/int64(2*len(spec.Opponents)), 1)
	var seen int64
	for k, opp := range spec.Opponents {
		me := sim.Player{Name: p.name, NewStrategy: func() sim.Strategy {
			s := p.Strategy()
			return &recordingSeat{seat: s.(*seat), table: table, seen: &seen}
		}}
		m := &sim.Match{Setup: sim.Setup{Pairs: spec.Pairs, Singletons: spec.Singletons, Pass: spec.Pass, Variant: spec.Variant,
			Players: []sim.Player{me, opp}}, Orders: [][]int{{0, 1}, {1, 0}}, Deals: per,
			Seed: spec.Seed, DealStream: uint64(k)}
		if err := m.Validate(); err != nil {
			return res, err
		}
		if _, err := m.Play(ctx, 1, nil); err != nil {
			return res, err
		}
		res.Games += 2 * per
	}
	res.Choices = seen
	return res, nil
}

// recordingSeat is a seat of a player process that compares each first-card choice of the
// process with its table's.
type recordingSeat struct {
	*seat
	table  *rules.ChoiceTable
	me     int
	scores [2]int
	seen   *int64
}

func (r *recordingSeat) BeginGame(info sim.GameInfo) error {
	r.me, r.scores = info.Seat, [2]int{}
	return r.seat.BeginGame(info)
}

func (r *recordingSeat) Observe(e sim.Event) {
	if e.Kind == sim.EventPair && e.Seat >= 0 && e.Seat < 2 {
		r.scores[e.Seat]++
	}
	r.seat.Observe(e)
}

func (r *recordingSeat) Flip(v *sim.View) sim.Move {
	m := r.seat.Flip(v)
	if v.Second || r.seat.err != nil {
		return m
	}
	if _, _, ok := v.KnownPair(); ok {
		return m // the seat takes a pair it remembers whole, asking nothing
	}
	st := v.State
	st.Lead = r.scores[r.me] - r.scores[1-r.me]
	pos := Position{State: st, AfterPass: v.AfterPass}
	want, ok := r.table.Lookup(st, v.AfterPass)
	if !ok {
		return sim.Fail(fmt.Errorf("in state %v the table holds no choice", pos))
	}
	for _, c := range rules.Choices() {
		if m == sim.Choose(c) {
			*r.seen++
			if c != want {
				return sim.Fail(&Mismatch{Position: pos, Table: want, Process: c})
			}
			return m
		}
	}
	return sim.Fail(&Mismatch{Position: pos, Table: want, Flipped: true})
}

// WriteTableCSV writes the choices a table holds for positions as CSV: a header
// "n,j,s,f,lead,after_pass,choice", then one row per position; lead is "any" for a table whose
// choices do not depend on the lead.
func WriteTableCSV(w io.Writer, table *rules.ChoiceTable, positions []Position) error {
	if _, err := io.WriteString(w, "n,j,s,f,lead,after_pass,choice\n"); err != nil {
		return err
	}
	var b []byte
	for _, p := range positions {
		c, ok := table.Lookup(p.State, p.AfterPass)
		if !ok {
			return fmt.Errorf("the table holds no choice in state %v", p)
		}
		st := p.State
		b = b[:0]
		for _, v := range []int{st.N, st.J, st.S, st.F} {
			b = strconv.AppendInt(b, int64(v), 10)
			b = append(b, ',')
		}
		if table.MaxLead() < 0 {
			b = append(b, "any"...)
		} else {
			b = strconv.AppendInt(b, int64(st.Lead), 10)
		}
		b = append(b, ',')
		b = strconv.AppendBool(b, p.AfterPass)
		b = append(b, ',')
		b = append(b, c.String()...)
		b = append(b, '\n')
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	return nil
}
