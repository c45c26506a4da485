// Package answer gives the exact solver's answers (package analysis/exact) the JSON form memsim
// solve prints: the value of a lineup from one state (Result), the strategy tables (Table and
// WinTable, written a cell at a time by WriteTable and WriteWinTable; at three or more seats
// SeatsTable and SeatsWinTable, by WriteSeatsTable and WriteSeatsWinTable) and a state of Gerez's
// model (Gerez). Every value is a Number: the exact fraction where the arithmetic is exact, and
// the nearest float64.
//
// The types are the schema: a program that reads memsim solve --json decodes into them.
package answer

import (
	"context"
	"strconv"
	"strings"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// Number is a value of an answer: Exact is the value as a reduced fraction "p/q" or an integer
// "p" (absent in float64 arithmetic), and Float the nearest float64.
type Number struct {
	Exact string  `json:"exact,omitempty"`
	Float float64 `json:"float"`
}

// NumberOf returns the value v of the arithmetic f as a Number.
func NumberOf[T any](f field.Field[T], v T) Number {
	n := Number{Float: f.Float64(v)}
	if s, ok := f.Exact(v); ok {
		n.Exact = s
	}
	return n
}

// Arithmetic names the arithmetic f: "exact" for an exact field (field.Rat), else "float64".
func Arithmetic[T any](f field.Field[T]) string {
	if _, ok := f.Exact(f.FromInt(0)); ok {
		return "exact"
	}
	return "float64"
}

// Model says what an answer is about: the model, the state asked about (or the deal sizes of a
// table), who plays, and the arithmetic. Fields that do not apply are left out: a table has no
// state and names its policies only when they play to win, solitaire has no opponent, perfect
// memory forgets nothing.
type Model struct {
	// Pairs is the state's pairs on the table and Unknown its pairs with no card known; PairsMax
	// is the largest deal size of a table.
	Pairs    int  `json:"pairs,omitempty"`
	Unknown  *int `json:"unknown,omitempty"`
	PairsMax int  `json:"pairs_max,omitempty"`
	// Singletons is the model's singletons, Unseen those not yet seen (in the state, or in every
	// cell of a table).
	Singletons int `json:"singletons"`
	Unseen     int `json:"unseen_singletons"`
	// Memory is the shared memory's capacity (0: perfect memory, or no limit under decay) and
	// Forget its forgetting rule, Decay the decay probability q as a decimal (decay forgetting);
	// Pass and Choices are the pass rule and the choices a mover may make.
	Memory int    `json:"memory"`
	Forget string `json:"forget,omitempty"`
	Decay  string `json:"decay,omitempty"`
	// Fluctuation is the capacity's fluctuation σ when it fluctuates (docs/models.md §2.2).
	Fluctuation int `json:"fluctuation,omitempty"`
	// Capacity is the capacity drawn for seat 0's turn in the state, when it is given, and
	// AfterPass says that the turn follows a pass by the other seat (two players), and Streak,
	// at three or more seats, how many seats passed in a row just before it.
	Capacity  int    `json:"capacity,omitempty"`
	AfterPass bool   `json:"after_pass,omitempty"`
	Streak    int    `json:"pass_streak,omitempty"`
	Pass      string `json:"pass"`
	Choices   string `json:"choices"`
	// Flips is the flip rule when it is blind, and TurnLimit the turn limit when there is one
	// (the turns left in the state; docs/models.md §1.7).
	Flips     string `json:"flips,omitempty"`
	TurnLimit int    `json:"turn_limit,omitempty"`
	// Copies, in the copies model (docs/models.md §4.16), is the cards of a face, and Faces the
	// state of faces (exact.CopiesState.String).
	Copies int    `json:"copies,omitempty"`
	Faces  string `json:"faces,omitempty"`
	// Lead is seat 0's lead so far in the state (its pairs minus seat 1's).
	Lead *int `json:"lead,omitempty"`
	// Players is the number of seats; seat 0 plays Policy, the others Opponent.
	Players  int    `json:"players,omitempty"`
	Policy   string `json:"policy,omitempty"`
	Opponent string `json:"opponent,omitempty"`
	// Seats, when the seats after the first do not all play one policy, is every seat's policy,
	// seat 0's first, comma-separated; TwoPlayerOptimal says that optimal plays the two-player
	// optimum's choices.
	Seats            string `json:"seats,omitempty"`
	TwoPlayerOptimal bool   `json:"two_player_optimal,omitempty"`
	// Arithmetic is "exact" or "float64" (see Arithmetic).
	Arithmetic string `json:"arithmetic"`
	// First, when set, is seat 0's choice now: the values are of that choice, then Policy.
	First string `json:"first,omitempty"`
}

// model returns the Model fields of m common to states and tables.
func model[T any](f field.Field[T], m exact.Model, unseen int) Model {
	out := Model{Singletons: m.Singletons, Unseen: unseen, Memory: m.Memory.Capacity, Pass: m.Pass.String(),
		Choices: m.Choices.String(), Arithmetic: Arithmetic(f)}
	if !m.Memory.Perfect() {
		out.Forget = m.Memory.Forget.String()
	}
	out.Fluctuation = m.Memory.Fluctuation
	if m.Memory.Forget == rules.ForgetDecay {
		out.Decay = strconv.FormatFloat(m.Memory.Decay, 'g', -1, 64)
	}
	if m.Variant.Flips != rules.FlipsSequential {
		out.Flips = m.Variant.Flips.String()
	}
	out.TurnLimit = m.Variant.TurnLimit
	return out
}

// stateModel describes the question of lineup mu's values from state st in model m, in the
// arithmetic f.
func stateModel[T any](f field.Field[T], m exact.Model, mu exact.Lineup, st rules.State) Model {
	out := model(f, m, st.F)
	out.Singletons = st.S
	j, lead := st.J, st.Lead
	out.Pairs, out.Unknown, out.Players, out.Lead = st.N, &j, mu.Players, &lead
	out.Policy = mu.Policy.String()
	if mu.Players > 1 {
		out.Opponent = mu.Opponent.String()
	}
	if mu.PerSeat {
		names := make([]string, 0, mu.Players)
		for _, p := range mu.SeatPolicies() {
			names = append(names, p.String())
		}
		out.Seats = strings.Join(names, ",")
	}
	out.TwoPlayerOptimal = mu.TwoPlayerOptimal
	return out
}

// Share is one point of the distribution of seat 0's final share: the share of the pairs (a
// whole or a half pair) and its probability.
type Share struct {
	Share       float64 `json:"share"`
	Probability Number  `json:"probability"`
}

// SeatShares is the distribution of one seat's final share at three or more seats: the share of
// the pairs (a whole pair, or a p-th of a pair after a stalemate of p seats) and its probability,
// from 0 to the pairs on the table.
type SeatShares struct {
	Seat   int     `json:"seat"`
	Shares []Share `json:"shares"`
}

// Result is the value of a lineup from one state, as Solve computes it. With two or more
// players it gives seat 0's expected pairs and every seat's, and with two seat 0's expected lead;
// with one (solitaire) the expected turns and lucky matches, and under a turn limit the expected
// pairs taken within it. ScoreDistribution, when asked for,
// gives the probability of each share of seat 0 from 0 to the pairs on the table in steps of a
// half; Win, Draw and Loss (with Score, P(win) + P(draw)/2) come with the distribution or with a
// policy that plays to win.
type Result struct {
	Model             Model    `json:"model"`
	ExpectedPairs     *Number  `json:"expected_pairs,omitempty"`
	ExpectedLead      *Number  `json:"expected_lead,omitempty"`
	ExpectedBySeat    []Number `json:"expected_pairs_by_seat,omitempty"`
	ExpectedTurns     *Number  `json:"expected_turns,omitempty"`
	ExpectedLucky     *Number  `json:"expected_lucky,omitempty"`
	ScoreDistribution []Share  `json:"score_distribution,omitempty"`
	// SeatDistributions, when asked for with three or more players, gives every seat's
	// distribution.
	SeatDistributions []SeatShares `json:"seat_distributions,omitempty"`
	// TurnsDistribution, when asked for with one player, gives solitaire's distribution of the
	// number of turns.
	TurnsDistribution *TurnsDistribution `json:"turns_distribution,omitempty"`
	Win               *Number            `json:"win,omitempty"`
	Draw              *Number            `json:"draw,omitempty"`
	Loss              *Number            `json:"loss,omitempty"`
	Score             *Number            `json:"score,omitempty"`
	// ChoiceValues, when asked for (SolveWith), values every legal choice of seat 0.
	ChoiceValues *ChoiceValues `json:"choice_values,omitempty"`
}

// Solve computes lineup mu's values from state st in model m in the arithmetic f (see Result):
// exact.Evaluate's, with dist exact.Distribution's (two players), exact.SeatsScoreDistribution's
// (three or more) or exact.SolitaireTurns's up to exact.DefaultMaxTurns (one), and for a lineup with a policy
// that plays to win the win, draw and loss probabilities of exact.WinDrawLoss, which cost far
// less than the whole distribution. An error is the solver's.
func Solve[T any](ctx context.Context, f field.Field[T], m exact.Model, mu exact.Lineup, st rules.State, dist bool) (*Result, error) {
	res, err := exact.Evaluate(ctx, f, m, mu, st)
	if err != nil {
		return nil, err
	}
	out := resultOf(f, m, mu, st, res)
	var wdl *exact.WDL[T]
	switch {
	case dist && mu.Players == 1:
		if out.TurnsDistribution, err = solitaireTurns(ctx, f, m, mu, st, 0); err != nil {
			return nil, err
		}
	case dist && mu.Players >= 3:
		d, err := exact.SeatsScoreDistribution(ctx, f, m, mu, st)
		if err != nil {
			return nil, err
		}
		out.SeatDistributions = seatSharesOf(f, d)
	case dist:
		d, err := exact.Distribution(ctx, f, m, mu, st)
		if err != nil {
			return nil, err
		}
		out.ScoreDistribution = sharesOf(f, d)
		wdl = &exact.WDL[T]{Win: d.Win, Draw: d.Draw, Loss: d.Loss}
	case mu.Policy.PlaysToWin() || mu.Opponent.PlaysToWin():
		both, err := exact.WinDrawLoss(ctx, f, m, mu, st)
		if err != nil {
			return nil, err
		}
		wdl = &both[0]
	}
	setWDL(out, f, wdl)
	return out, nil
}

// resultOf gives the value res of lineup mu from state st in model m its JSON form.
func resultOf[T any](f field.Field[T], m exact.Model, mu exact.Lineup, st rules.State, res exact.Result[T]) *Result {
	out := &Result{Model: stateModel(f, m, mu, st)}
	num := func(v T) *Number { n := NumberOf(f, v); return &n }
	if res.Players == 1 {
		out.ExpectedTurns, out.ExpectedLucky = num(res.ExpectedTurns), num(res.ExpectedLucky)
		if m.Variant.TurnLimit > 0 {
			out.ExpectedPairs = num(res.ExpectedPairs) // the pairs taken within the limit
		}
		return out
	}
	out.ExpectedPairs = num(res.ExpectedPairs)
	for _, v := range res.PairsBySeat {
		out.ExpectedBySeat = append(out.ExpectedBySeat, NumberOf(f, v))
	}
	if res.Players == 2 {
		out.ExpectedLead = num(res.ExpectedLead)
	}
	return out
}

// sharesOf returns the points of distribution d.
func sharesOf[T any](f field.Field[T], d exact.ScoreDistribution[T]) []Share {
	var out []Share
	for i, p := range d.Prob {
		out = append(out, Share{Share: float64(i) / 2, Probability: NumberOf(f, p)})
	}
	return out
}

// seatSharesOf returns every seat's points of distribution d.
func seatSharesOf[T any](f field.Field[T], d exact.SeatsDistribution[T]) []SeatShares {
	out := make([]SeatShares, len(d.Prob))
	for s, prob := range d.Prob {
		out[s].Seat = s
		for i, p := range prob {
			out[s].Shares = append(out[s].Shares, Share{Share: float64(i) / float64(d.Unit), Probability: NumberOf(f, p)})
		}
	}
	return out
}

// setWDL sets out's Win, Draw, Loss and Score from wdl, when not nil.
func setWDL[T any](out *Result, f field.Field[T], wdl *exact.WDL[T]) {
	if wdl == nil {
		return
	}
	num := func(v T) *Number { n := NumberOf(f, v); return &n }
	out.Win, out.Draw, out.Loss, out.Score = num(wdl.Win), num(wdl.Draw), num(wdl.Loss), num(wdl.Score(f))
}
