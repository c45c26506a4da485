package serve

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/configs"
	"memsim/sim/record"
	"memsim/sim/rules"
	"memsim/tournament"
)

// variantConfig returns a configuration of the given rules with the players daring and safe.
func variantConfig(rulesYAML string) func() (*configs.Tournament, error) {
	return func() (*configs.Tournament, error) {
		data := []byte("name: v\nrules: " + rulesYAML + "\nplayers:\n  - {name: daring, policy: daring}\n  - {name: safe, policy: safe}\n")
		return configs.Parse("v.yaml", data, tournament.ConfigOptions())
	}
}

// A game under blind flips and a turn limit played through the API: the state gives the variant
// and the turns left, the second card of a turn names the first card, still face down; the
// coach's values at the start are the solver's with the whole limit left; the record reads back
// with the variant.
func TestVariantGameThroughTheAPI(t *testing.T) {
	_, ts := newTestServer(t, Options{Config: variantConfig("{pairs: 3, flips: blind, turn_limit: 6}")})
	var st State
	callJSON(t, ts, "POST", "/api/games", `{"against":"safe","seed":4,"coach":true}`, http.StatusOK, &st)
	if !st.Blind || st.TurnLimit != 6 || st.TurnsLeft != 6 || st.Variant != "blind flips, turn limit 6" || st.Question == nil || !st.Question.Blind {
		t.Fatalf("the first state: %+v", st)
	}
	m := exact.Model{Variant: rules.Variant{Flips: rules.FlipsBlind, TurnLimit: 6}}
	start := rules.State{N: 3, J: 3}
	ctx := context.Background()
	pairs, err := exact.ChoiceValues(ctx, field.Rat{}, m, exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}, start)
	if err != nil {
		t.Fatal(err)
	}
	win, err := exact.WinChoiceValues(ctx, field.Rat{}, m, exact.Lineup{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}, start)
	if err != nil {
		t.Fatal(err)
	}
	if c := st.Coach; c == nil || !c.Turn || len(c.Options) != len(pairs.Values) {
		t.Fatalf("the coach: %+v, want the %d choices of the solver", c, len(pairs.Values))
	}
	for i, o := range st.Coach.Options {
		if p, w := pairs.Values[i], win.Values[i]; o.Move != p.Choice.String() || ratOf(t, o.PairsRat).Cmp(p.Pairs) != 0 || ratOf(t, o.WinRat).Cmp(w.Score) != 0 {
			t.Errorf("option %d: %+v; the solver's %v %s pairs, win %s", i, o, p.Choice, p.Pairs.RatString(), w.Score.RatString())
		}
	}
	var second State
	callJSON(t, ts, "POST", "/api/games/"+st.ID+"/flip", `{"pos":0}`, http.StatusOK, &second)
	if q := second.Question; q == nil || q.Card != 2 || q.Named == nil || *q.Named != 0 || second.Cells[0].Show != "down" {
		t.Fatalf("the second card of a blind turn: question %+v, cell 0 %+v", second.Question, second.Cells[0])
	}
	st = playOut(t, ts, second)
	if !st.Over || !st.Finished {
		t.Fatalf("the last state: %+v", st)
	}
	code, data := call(t, ts, "GET", "/api/games/"+st.ID+"/record", "")
	if code != http.StatusOK {
		t.Fatalf("record: %d %s", code, data)
	}
	games, err := record.NewReader(bytes.NewReader(data), "record").ReadAll()
	if err != nil || len(games) != 1 {
		t.Fatalf("the record does not read back: %v", err)
	}
	if want := (rules.Variant{Flips: rules.FlipsBlind, TurnLimit: 6}); games[0].Rules.Variant != want {
		t.Errorf("the record's variant %v, want %v", games[0].Rules.Variant, want)
	}
}

// Under copies of a face the coach values the choices in expected pairs and in win score, with
// sequential and blind flips and under pass rule two-known: at the first turn (two faces of four
// cards, none seen, lead 0) each choice's win score is the copies model's; a deal that does not
// make whole faces is refused, naming pairs.
func TestVariantCoachOfCopies(t *testing.T) {
	_, ts := newTestServer(t, Options{Config: variantConfig("{pairs: 4, copies: 4}")})
	var st State
	callJSON(t, ts, "POST", "/api/games", `{"against":"safe","seed":2,"coach":true}`, http.StatusOK, &st)
	if c := st.Coach; st.Copies != 4 || c == nil || c.NoWin || len(c.Options) == 0 || c.Options[0].Move != "daring" {
		t.Fatalf("copies 4: state copies %d, coach %+v", st.Copies, c)
	}
	start, err := exact.ParseCopiesState("4:2u", 4)
	if err != nil {
		t.Fatal(err)
	}
	wmu := exact.Lineup{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}
	ws, err := exact.CopiesWinChoiceValues(context.Background(), field.Rat{}, exact.Model{Variant: rules.Variant{Copies: 4}}, wmu, start, 0)
	if err != nil {
		t.Fatal(err)
	}
	if c := st.Coach; len(c.Options) != len(ws.Values) || c.Options[0].WinRat != ws.Values[0].Score.RatString() {
		t.Errorf("copies 4: the coach's options %+v, the model's win scores %+v", c.Options, ws.Values)
	}
	if code, data := call(t, ts, "POST", "/api/games", `{"against":"safe","pairs":3,"coach":true}`); code != http.StatusBadRequest || !strings.Contains(string(data), "whole faces") {
		t.Errorf("3 pairs of copies 4: %d %s", code, data)
	}
	_, ts = newTestServer(t, Options{Config: variantConfig("{pairs: 4, copies: 4, flips: blind}")})
	callJSON(t, ts, "POST", "/api/games", `{"against":"safe","seed":2,"coach":true}`, http.StatusOK, &st)
	if c := st.Coach; !st.Blind || c == nil || c.Error != "" || c.NoWin || len(c.Options) == 0 || c.Options[0].Move != "daring" {
		t.Fatalf("copies 4, blind flips: coach %+v", c)
	}
	_, ts = newTestServer(t, Options{Config: variantConfig("{pairs: 4, copies: 4, pass: two-known}")})
	callJSON(t, ts, "POST", "/api/games", `{"against":"safe","seed":2,"coach":true}`, http.StatusOK, &st)
	if c := st.Coach; c == nil || c.Error != "" || c.NoWin || len(c.Options) == 0 || c.Options[0].Move != "daring" {
		t.Fatalf("copies 4, pass two-known: coach %+v", c)
	}
}

// The review of a game under a rule variant is judged turn by turn, with the luck of each turn's
// cards and its evaluation graph, under copies with blind flips and with a pass rule too; one under
// copies with singletons, which no exact model covers, is refused with a message naming the rules.
func TestReviewOfVariantGames(t *testing.T) {
	_, ts := newTestServer(t, Options{})
	blind := "{\"type\":\"game\",\"format\":\"memsim-record/1\",\"rules\":{\"pairs\":2,\"flips\":\"blind\"}}\n" +
		"{\"type\":\"flip\",\"pos\":0,\"face\":0}\n{\"type\":\"flip\",\"pos\":1,\"face\":1}\n" +
		"{\"type\":\"flip\",\"pos\":2,\"face\":0}\n{\"type\":\"flip\",\"pos\":3,\"face\":1}\n"
	var rv ReviewJSON
	callJSON(t, ts, "POST", "/api/review", blind, http.StatusOK, &rv)
	if v := rv.Variant; v == nil || v.Variant != "blind flips" || len(v.Decisions) != 2 || v.Decisions[1].Chosen != "daring" || v.Decisions[1].Best != "safe" {
		t.Fatalf("the review of a blind game: %+v", rv.Variant)
	}
	// Seat 0's daring misses, which is worth 2/3 of a lead less than expected: luck -1/3 pair.
	if v := rv.Variant; v.Decisions[0].Luck.Pairs.Exact != "-1/3" || !strings.HasPrefix(rv.SVG, "<svg") {
		t.Errorf("the review of a blind game: the first turn's luck %+v, svg %.20q", v.Decisions[0].Luck, rv.SVG)
	}
	// One face of four cards: any two match, so seat 0 names two unseen cards (daring, its only
	// choice) at 4:1u and then at 2:1u, and takes both pairs.
	cb := strings.Replace(blind, `"flips":"blind"`, `"copies":4,"flips":"blind"`, 1)
	cb = strings.ReplaceAll(cb, `"face":1`, `"face":0`)
	rv = ReviewJSON{}
	callJSON(t, ts, "POST", "/api/review", cb, http.StatusOK, &rv)
	if v := rv.Variant; v == nil || v.Variant != "copies 4, blind flips" || len(v.Decisions) != 2 || v.Decisions[0].Chosen != "daring" || v.Decisions[0].Faces != "4:1u" || v.Decisions[1].Faces != "2:1u" {
		t.Fatalf("the review of copies with blind flips: %+v", rv.Variant)
	}
	// Under pass rule always seat 0 passes, seat 1 passes again: a stalemate, two pairs each.
	pa := "{\"type\":\"game\",\"format\":\"memsim-record/1\",\"rules\":{\"pairs\":2,\"copies\":4,\"pass\":\"always\"}}\n" +
		"{\"type\":\"pass\"}\n{\"type\":\"pass\"}\n{\"type\":\"end\",\"scores\":[1,1]}\n"
	rv = ReviewJSON{}
	callJSON(t, ts, "POST", "/api/review", pa, http.StatusOK, &rv)
	if v := rv.Variant; v == nil || len(v.Decisions) != 2 || v.Decisions[0].Chosen != "pass" || v.Decisions[1].Chosen != "pass" || !v.Decisions[1].State.AfterPass {
		t.Fatalf("the review of copies under pass rule always: %+v", rv.Variant)
	}
	sg := strings.Replace(pa, `"copies":4,`, `"copies":4,"singletons":1,`, 1)
	if code, data := call(t, ts, "POST", "/api/review", sg); code != http.StatusBadRequest || !strings.Contains(string(data), "no exact model of copies 4 with singletons") {
		t.Errorf("copies with singletons: %d %s", code, data)
	}
}
