package strategies_test

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim"
	"memsim/sim/rules"
	"memsim/strategies"
)

// refPassLimitGame plays a deal of the standard game (two cards to a face) card by card as
// docs/models.md §5.2 describes a table player's turn, with perfect memory, for the given seats,
// (under blind flips both cards of a turn named before either is turned up: daring two unseen
// cards, or the last unseen one and its remembered match, safe and known-first a remembered card
// and an unseen one), until no card is left, the turn limit is reached or every seat passed in turn (a pass uses a
// turn; the seats-th pass in a row ends the game, before the limit is looked at). Each seat
// chooses with choose from the count state, the turns left (this one included), the seats that
// passed in a row just before the turn and every seat's pairs so far. It returns every seat's
// pairs and, after a stalemate, the pairs left (0 otherwise). Its next unknown card is the first
// in position order: under a uniform deal this is as good as a uniform choice, so its totals over
// every deal are the engine's.
func refPassLimitGame(deal []int, seats, limit int, blind bool, choose func(seat, left, passes int, st rules.State, pairs []int) rules.Choice) (pairs []int, stalemate int) {
	present, known := make([]bool, len(deal)), make([]bool, len(deal))
	for i := range present {
		present[i] = true
	}
	first := func(ok func(pos int) bool) int {
		for pos := range deal {
			if present[pos] && ok(pos) {
				return pos
			}
		}
		return -1
	}
	pairs = make([]int, seats)
	seat, passes := 0, 0
	take := func(a, b int) { present[a], present[b] = false, false; pairs[seat]++; passes = 0 }
	miss := func() { seat = (seat + 1) % seats; passes = 0 }
	unknown := func(p int) bool { return !known[p] }
	for turn := 1; turn <= limit && first(func(int) bool { return true }) >= 0; turn++ {
		var st rules.State
		whole := -1
		seen := make([]int, len(deal)/2) // each face's cards known, -1 once taken
		for face := range seen {
			seen[face] = -1
		}
		for p := range deal {
			if present[p] {
				seen[deal[p]] = max(seen[deal[p]], 0)
				if known[p] {
					seen[deal[p]]++
				}
			}
		}
		for face, k := range seen {
			if k >= 0 {
				st.N++
			}
			switch {
			case k == 0:
				st.J++
			case k == 2 && whole < 0:
				whole = face
			}
		}
		if whole >= 0 { // a pair remembered whole is taken first, a turn of its own
			a := first(func(p int) bool { return deal[p] == whole })
			take(a, first(func(p int) bool { return p != a && deal[p] == whole }))
			continue
		}
		c := choose(seat, limit-turn+1, passes, st, pairs)
		if c == rules.Pass {
			passes++
			if passes == seats {
				return pairs, st.N
			}
			seat = (seat + 1) % seats
			continue
		}
		if blind {
			x := first(unknown)
			y := first(func(p int) bool { return known[p] })
			if c == rules.Daring {
				if z := first(func(p int) bool { return !known[p] && p != x }); z >= 0 {
					y = z
				}
			}
			known[x], known[y] = true, true
			if deal[x] == deal[y] {
				take(x, y)
			} else {
				miss()
			}
			continue
		}
		var x int
		if c == rules.KnownFirst {
			x = first(func(p int) bool { return known[p] })
		} else {
			x = first(unknown)
			known[x] = true
			if p := first(func(p int) bool { return p != x && known[p] && deal[p] == deal[x] }); p >= 0 {
				take(x, p)
				continue
			}
			if c == rules.Safe {
				miss()
				continue
			}
		}
		y := first(unknown)
		known[y] = true
		if deal[y] == deal[x] {
			take(x, y)
			continue
		}
		miss()
	}
	return pairs, 0
}

// TestEnginePlaysSelfWinLimitTables builds win-optimal at three seats in the standard game under
// a turn limit, under pass rule never and under two-known and always, sequential and blind flips
// (at every seat, beside daring and safe in its seating's table, and win-best-response to safe),
// plays every deal of small decks with the engine, and compares every seat's pairs, wins and draws and the
// stalemates over the deals with a card-by-card reference that reads the model's table in the
// layer of the turns left (and at the pass streak) at every seat's pairs so far, exactly; and
// every seat's wins and draws, and its pairs with a stalemate's share, with the model's values.
// Where every seat plays to win under a pass rule, some game must end in a stalemate.
func TestEnginePlaysSelfWinLimitTables(t *testing.T) {
	ctx := context.Background()
	win, safe, daring, reply := rules.PolicyWinOptimal, rules.PolicySafe, rules.PolicyDaring, rules.PolicyWinBestResponse
	type game struct {
		pairs, limit int
		rule         rules.PassRule
		seats        []rules.Policy
		flips        rules.Flips
	}
	never, two, always := rules.PassNever, rules.PassTwoKnown, rules.PassAlways
	blind := rules.FlipsBlind
	games := []game{
		{3, 4, never, []rules.Policy{win, win, win}, 0},
		{4, 6, never, []rules.Policy{win, win, win}, 0},
		{4, 5, never, []rules.Policy{daring, win, safe}, 0},
		{4, 7, never, []rules.Policy{reply, safe, safe}, 0},
		{3, 5, always, []rules.Policy{win, win, win}, 0},
		{4, 7, two, []rules.Policy{win, win, win}, 0},
		{4, 9, always, []rules.Policy{win, win, win}, 0},
		{4, 6, two, []rules.Policy{safe, win, daring}, 0},
		{4, 8, always, []rules.Policy{reply, safe, safe}, 0},
		{3, 4, never, []rules.Policy{win, win, win}, blind},
		{3, 6, always, []rules.Policy{win, win, win}, blind},
		{4, 7, two, []rules.Policy{daring, win, win}, blind},
	}
	if testing.Short() {
		// The short form: 3 pairs beside daring and safe (4 pairs in the full form), all playing to win under always, sequential and blind.
		games = []game{{3, 4, never, []rules.Policy{daring, win, safe}, 0}, games[4], games[10]}
	}
	for _, g := range games {
		v := rules.Variant{TurnLimit: g.limit, Flips: g.flips}
		name := fmt.Sprintf("%d pairs, limit %d, pass %s, %s flips, %v", g.pairs, g.limit, g.rule, v.Flips, g.seats)
		tables := strategies.NewTables()
		env := strategies.Env{MaxPairs: g.pairs, Players: 3, Pass: g.rule, Variant: v, Tables: tables}
		model := exact.Model{Pass: g.rule, Variant: v}
		mu := exact.SeatLineup(g.seats...)
		players := make([]sim.Player, 3)
		ref := make([]*rules.ChoiceTable, 3)
		for s, p := range g.seats {
			opp := ""
			if p == reply {
				opp = safe.String()
			}
			b, err := strategies.Build(ctx, strategies.Spec{Name: p.String(), Policy: p.String(), Opponent: opp}, env)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			players[s] = b.Player
			if !p.PlaysToWin() {
				continue
			}
			seen := exact.RotateSeats(mu, s)
			if mu.SelfWinMixed() && p == win {
				// Beside other policies win-optimal plays the table of its seating.
				tab, err := tables.SeatWinTable(ctx, model, seen, g.pairs)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				players[s].Table = tab
			}
			if ref[s], err = exact.PolicyTable(ctx, field.Rat{}, model, seen, g.pairs); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if ref[s].TurnLimit() != g.limit {
				t.Fatalf("%s: seat %d's table has %d layers of turns left, want %d", name, s, ref[s].TurnLimit(), g.limit)
			}
		}
		choose := func(seat, left, passes int, st rules.State, ps []int) rules.Choice {
			if tab := ref[seat]; tab != nil {
				from := []int{ps[seat], ps[(seat+1)%3], ps[(seat+2)%3]}
				c, ok := tab.StandingsTurnsLeft(left).LookupPasses(st, from, passes)
				if !ok {
					t.Fatalf("%s: the model's table has no choice in %v at %v, %d passes, %d turns left", name, st, from, passes, left)
				}
				return c
			}
			if g.seats[seat] == safe && st.Known() > 0 {
				return rules.Safe
			}
			return rules.Daring
		}
		gm, err := sim.NewGame(sim.Setup{Pairs: g.pairs, Pass: g.rule, Variant: v, Players: players})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var got, want [3][3]int64 // each seat's pairs, wins and draws
		var gotStale, wantStale int64
		tally := func(out *[3][3]int64, ps []int) {
			most, top := mostOf(ps)
			for s := range 3 {
				out[s][0] += int64(ps[s])
				if ps[s] == most && top == 1 {
					out[s][1]++
				} else if ps[s] == most {
					out[s][2]++
				}
			}
		}
		count, shared := int64(0), new(big.Rat) // shared: the stalemates' pairs left, summed
		everyDeal(g.pairs, 2, func(deal []int) {
			if err := gm.PlayDeal(sim.GameID{Seed: 1, Index: uint64(count)}, deal, nil); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			o := gm.Outcome()
			tally(&got, o.Pairs)
			if o.Stalemate {
				gotStale++
				shared.Add(shared, big.NewRat(int64(o.Left), 3))
			}
			ps, left := refPassLimitGame(deal, 3, g.limit, g.flips == blind, choose)
			tally(&want, ps)
			if left > 0 {
				wantStale++
			}
			count++
		})
		if got != want || gotStale != wantStale {
			t.Errorf("%s: the engine's pairs, wins and draws by seat over %d deals %v and %d stalemates, the reference %v and %d", name, count, got, gotStale, want, wantStale)
		}
		if g.rule != never && !mu.SelfWinMixed() && gotStale == 0 {
			t.Errorf("%s: no game ended in a stalemate, so the case checks nothing of it", name)
		}
		res, err := exact.EvaluateStandings(ctx, field.Rat{}, model, mu, rules.State{N: g.pairs, J: g.pairs}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for s := range 3 {
			w, d := big.NewRat(got[s][1], count), big.NewRat(got[s][2], count)
			pairs := new(big.Rat).Add(big.NewRat(got[s][0], 1), shared)
			pairs.Quo(pairs, big.NewRat(count, 1))
			if w.Cmp(res.Win[s]) != 0 || d.Cmp(res.Draw[s]) != 0 || pairs.Cmp(res.Pairs[s]) != 0 {
				t.Errorf("%s: seat %d wins %v, draws %v and takes %v pairs a deal, the model %v, %v and %v", name, s, w, d, pairs, res.Win[s], res.Draw[s], res.Pairs[s])
			}
		}
	}
}
