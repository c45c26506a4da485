package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
)

// countedRun is a two-seat run of four games at two pairs whose score counts were worked out by
// hand: seat 0 scored 0, 1, 1 and 2 pairs (0, 2, 2 and 4 half pairs), seat 1 the rest. Each seat's
// mean is 1 pair, its standard deviation sqrt(8/3)/2 (squared deviations 4, 0, 0, 4 half pairs
// over 3), and it won once (more than 1 pair), drew twice and lost once.
func countedRun() *Run {
	sd := math.Sqrt(8.0/3) / 2
	r := &Run{
		SchemaVersion: SchemaVersion, Name: "counted", Seed: 1, Games: 4, Format: "round-robin",
		Rules:   Rules{Pairs: []int{2}, PlayersPerGame: 2, Pass: "never"},
		Players: []Player{{Name: "a", Policy: "optimal", Memory: "perfect"}, {Name: "b", Policy: "daring", Memory: "perfect"}},
		Matchups: []Matchup{{
			Pairs: 2, Players: []string{"a", "b"}, Games: 4,
			MeanPairs: []float64{1, 1}, StdDev: []float64{sd, sd},
			CI95:       [][2]float64{{1 - 1.3, 1 + 1.3}, {1 - 1.3, 1 + 1.3}},
			ExactPairs: []*string{ptr("1"), ptr("1")},
			Wins:       []int64{1, 1}, Draws: []int64{2, 2}, Losses: []int64{1, 1},
			MeanTurns: 2.5, CI95Turns: [2]float64{2, 3},
			WinCI95:           [][2]float64{{0.05, 0.7}, {0.05, 0.7}},
			DrawCI95:          [][2]float64{{0.15, 0.85}, {0.15, 0.85}},
			LossCI95:          [][2]float64{{0.05, 0.7}, {0.05, 0.7}},
			ShareCounts:       [][]int64{{1, 0, 2, 0, 1}, {1, 0, 2, 0, 1}},
			ExactDistribution: []float64{0.25, 0, 0.5, 0, 0.25},
			Convergence:       []ConvergencePoint{{Games: 2, Mean: 0.5, Lo: -0.5, Hi: 1.5}, {Games: 4, Mean: 1, Lo: 0, Hi: 2}},
		}},
	}
	r.Judge()
	return r
}

// Validate refuses each value out of range with one line naming its field in results.json.
func TestValidateRanges(t *testing.T) {
	if err := countedRun().Validate(); err != nil {
		t.Fatalf("the counted run: %v", err)
	}
	tests := []struct {
		name  string
		spoil func(r *Run)
		want  string
	}{
		{"a mean of 5e307", func(r *Run) { r.Matchups[0].MeanPairs[0] = 5e307 }, "matchups[0].mean_pairs[0]: 5e+307 is not within [0, 2]"},
		{"a negative mean", func(r *Run) { r.Matchups[0].MeanPairs[1] = -0.5 }, "matchups[0].mean_pairs[1]: -0.5 is not within [0, 2]"},
		{"a mean the counts do not give", func(r *Run) { r.Matchups[0].MeanPairs[0] = 1.25 }, "matchups[0].mean_pairs[0]: 1.25, but its score counts give 1"},
		{"a deviation the counts do not give", func(r *Run) { r.Matchups[0].StdDev[0] = 0.5 }, "matchups[0].sd_pairs[0]: 0.5, but its score counts give"},
		{"no means", func(r *Run) { r.Matchups[0].MeanPairs = nil }, "matchups[0].mean_pairs: 0 entries for 2 seats"},
		{"no exact values", func(r *Run) { r.Matchups[0].ExactPairs = []*string{} }, "matchups[0].exact_pairs: 0 entries for 2 seats"},
		{"an exact value beyond the pairs", func(r *Run) { r.Matchups[0].ExactPairs[1] = ptr("7/3") }, "matchups[0].exact_pairs[1]: exact value 7/3 is not within [0, 2]"},
		{"a million score counts", func(r *Run) { r.Matchups[0].ShareCounts[1] = make([]int64, 1_000_000) }, "matchups[0].share_counts[1]: 1000000 counts, not pairs·seats + 1 = 2·2 + 1"},
		{"an empty score row", func(r *Run) { r.Matchups[0].ShareCounts[0] = []int64{} }, "matchups[0].share_counts[0]: 0 counts"},
		{"counts short of the games", func(r *Run) { r.Matchups[0].ShareCounts[0][4] = 0 }, "matchups[0].share_counts[0]: the counts add up to 3 games, not 4"},
		{"a negative count", func(r *Run) { r.Matchups[0].ShareCounts[0][1] = -1 }, "matchups[0].share_counts[0][1]: -1:"},
		{"a count of 2^62", func(r *Run) { r.Matchups[0].ShareCounts[0][1] = 1 << 62 }, "matchups[0].share_counts[0][1]: 4611686018427387904:"},
		{"a win the counts do not give", func(r *Run) {
			m := &r.Matchups[0]
			m.Wins[0], m.Losses[0], m.WinCI95, m.DrawCI95, m.LossCI95 = 2, 0, nil, nil, nil
		}, "matchups[0].wins[0]: wins 2, draws 2 and losses 0, but its score counts give 1, 2 and 1"},
		{"more winners than games", func(r *Run) {
			m := &r.Matchups[0]
			m.Wins, m.Draws, m.Losses, m.ShareCounts = []int64{3, 3}, []int64{0, 0}, []int64{1, 1}, nil
			m.WinCI95, m.DrawCI95, m.LossCI95 = nil, nil, nil
		}, "matchups[0].wins: more outright winners than games 4"},
		{"wins, draws and losses apart from the games", func(r *Run) { r.Matchups[0].Draws[1] = 3 }, "matchups[0].wins[1]: seat 1: wins 1, draws 3 and losses 1 do not add up to games 4"},
		{"an interval without its mean", func(r *Run) { r.Matchups[0].CI95[0] = [2]float64{1.5, 2} }, "matchups[0].ci95[0]: [1.5, 2] does not hold its estimate 1"},
		{"a reversed interval", func(r *Run) { r.Matchups[0].CI95Turns = [2]float64{3, 2} }, "matchups[0].ci95_turns: [3, 2] has low > high"},
		{"an interval of ±5e307", func(r *Run) { r.Matchups[0].CI95[1] = [2]float64{-5e307, 5e307} }, "matchups[0].ci95[1]: [-5e+307, 5e+307] reaches further than 14 from its estimate 1"},
		{"no turns", func(r *Run) { r.Matchups[0].MeanTurns, r.Matchups[0].CI95Turns = 0, [2]float64{0, 0} }, "matchups[0].mean_turns: 0 is not within [1, 14000]"},
		{"turns beyond the engine's limit", func(r *Run) { r.Matchups[0].MeanTurns = 1e6 }, "matchups[0].mean_turns: 1e+06 is not within [1, 14000]"},
		{"a Wilson interval without its rate", func(r *Run) { r.Matchups[0].WinCI95[0] = [2]float64{0.5, 0.7} }, "matchups[0].win_ci95[0]: [0.5, 0.7] is not an interval holding the rate 1/4"},
		{"a Wilson interval beyond 1", func(r *Run) { r.Matchups[0].LossCI95[1] = [2]float64{0.1, 1.5} }, "matchups[0].loss_ci95[1]: 1.5 is not within [0, 1]"},
		{"a distribution of the wrong length", func(r *Run) { r.Matchups[0].ExactDistribution = []float64{1} }, "matchups[0].exact_distribution: 1 probabilities, not 2·pairs + 1 = 5"},
		{"a distribution not summing to 1", func(r *Run) { r.Matchups[0].ExactDistribution[2] = 0.25 }, "matchups[0].exact_distribution: the probabilities sum to 0.75, not 1"},
		{"a convergence point beyond the games", func(r *Run) { r.Matchups[0].Convergence[1].Games = 5 }, "matchups[0].convergence[1].games: 5 is not within [3, 4]"},
		{"a last convergence point short of the games", func(r *Run) { r.Matchups[0].Convergence[1].Games = 3 }, "matchups[0].convergence[1].games: 3, but the last point holds every game, 4"},
		{"a convergence mean of 5e307", func(r *Run) { r.Matchups[0].Convergence[0].Mean = 5e307 }, "matchups[0].convergence[0].mean: 5e+307 is not within [0, 2]"},
		{"an unknown player", func(r *Run) { r.Matchups[0].Players[1] = "mallory" }, `matchups[0].players[1]: "mallory" is not one of the players`},
		{"a seat too many", func(r *Run) { r.Matchups[0].Players = append(r.Matchups[0].Players, "a") }, "matchups[0].players: 3 players for the 2 seats of rules.players_per_game"},
		{"a matchup of -3 pairs", func(r *Run) { r.Matchups[0].Pairs = -3 }, "matchups[0].pairs: -3 is not one of the deal sizes of rules.pairs"},
		{"a matchup of 10^8 pairs", func(r *Run) { r.Matchups[0].Pairs = 100_000_000 }, "matchups[0].pairs: 100000000 is not one of the deal sizes of rules.pairs"},
		{"rules of -3 pairs", func(r *Run) { r.Rules.Pairs = []int{-3} }, "rules.pairs[0]: -3 is not a deal size (positive, each once)"},
		{"no deal size", func(r *Run) { r.Rules.Pairs = nil }, "rules.pairs: no deal size"},
		{"games of a matchup not the run's", func(r *Run) { r.Games = 5 }, "matchups[0].games: 4, not the run's 5, and the match did not stop early"},
		{"two players of one name", func(r *Run) { r.Players[1].Name = "a" }, `players[1].name: "a" is empty or names two players`},
		{"a pairing in an unpaired run", func(r *Run) { r.Pairings = []Pairing{{Pairs: 2, Players: [2]string{"a", "b"}}} }, "pairings[0]: a pairing in a run that is not paired"},
		{"a p-value of 2", func(r *Run) { r.Comparisons = []Comparison{{Pairs: 2, Opponent: "a", A: "a", B: "b", P: 2}} }, "comparisons[0].p: 2 is not within [0, 1]"},
		{"a rating of an unknown player", func(r *Run) { r.Ratings = []Ratings{{Pairs: 2, Players: []Rating{{Name: "c"}}}} }, `ratings[0].players[0].name: "c" is not one of the players`},
	}
	for _, tt := range tests {
		r := countedRun()
		tt.spoil(r)
		err := r.Validate()
		var fe *FieldError
		switch {
		case err == nil:
			t.Errorf("%s: accepted", tt.name)
		case !strings.HasPrefix(err.Error(), tt.want):
			t.Errorf("%s: %q, want it to start %q", tt.name, err, tt.want)
		case !errors.As(err, &fe) || strings.ContainsAny(err.Error(), "\n\r"):
			t.Errorf("%s: %q is not one line of a *FieldError", tt.name, err)
		}
	}
}

// turnLimitedRun is countedRun played under a turn limit of 3, worked out by hand: seat 0 scored
// 0, 1, 1 and 2 pairs as before, seat 1 1, 0, 1 and 0, the second game ending at the limit with a
// pair on the table (and the first, with seat 1 ahead, too). Seat 0 lost, won, drew and won; seat
// 1 won, lost, drew and lost. Seat 1's scores 0, 0, 1, 1 have mean 1/2 and deviation sqrt(1/3).
func turnLimitedRun() *Run {
	r := countedRun()
	r.Rules.TurnLimit = 3
	m := &r.Matchups[0]
	m.TurnLimited = 2
	m.MeanPairs[1], m.StdDev[1] = 0.5, math.Sqrt(1.0/3)
	m.CI95[1] = [2]float64{0.5 - 1.3, 0.5 + 1.3}
	m.ExactPairs, m.ExactDistribution = []*string{nil, nil}, nil
	m.ShareCounts[1] = []int64{2, 0, 2, 0, 0}
	m.Wins, m.Draws, m.Losses = []int64{2, 1}, []int64{1, 1}, []int64{1, 2}
	m.WinCI95 = [][2]float64{{0.15, 0.85}, {0.05, 0.7}}
	m.DrawCI95 = [][2]float64{{0.05, 0.7}, {0.05, 0.7}}
	m.LossCI95 = [][2]float64{{0.05, 0.7}, {0.15, 0.85}}
	r.Judge()
	return r
}

// Under a turn limit the pairs left count for nobody, so a seat wins or draws with half of the
// pairs or fewer; Validate accepts such outcomes and still refuses fewer wins than the games a
// seat took more than half of the pairs in.
func TestValidateTurnLimitedOutcomes(t *testing.T) {
	if err := turnLimitedRun().Validate(); err != nil {
		t.Fatalf("the turn-limited run: %v", err)
	}
	r := turnLimitedRun()
	m := &r.Matchups[0]
	m.Wins[0], m.Draws[0], m.WinCI95, m.DrawCI95, m.LossCI95 = 0, 3, nil, nil, nil
	want := "matchups[0].wins[0]: wins 0, but its score counts give 1 games with more than half of the pairs"
	if err := r.Validate(); err == nil || err.Error() != want {
		t.Errorf("no wins for a seat that took both pairs once: %v, want %q", err, want)
	}
}

// A sealed run verifies; any change to it, the configuration hash included, does not, until it
// is sealed again.
func TestSealAndVerify(t *testing.T) {
	r := countedRun()
	if err := Verify(r, "cfg"); !errors.Is(err, ErrUnsealed) {
		t.Errorf("unsealed: %v, want ErrUnsealed", err)
	}
	if err := Seal(r, "cfg"); err != nil {
		t.Fatal(err)
	}
	if len(r.ContentHash) != 64 || r.ConfigHash != "cfg" {
		t.Errorf("seal %q, %q", r.ContentHash, r.ConfigHash)
	}
	if err := Verify(r, "cfg"); err != nil {
		t.Errorf("sealed: %v", err)
	}
	if err := Verify(r, "other"); !errors.Is(err, ErrOtherConfiguration) {
		t.Errorf("another configuration: %v, want ErrOtherConfiguration", err)
	}
	changes := map[string]func(r *Run){
		"a mean":               func(r *Run) { r.Matchups[0].MeanPairs[0] = 1.0000000000000002 },
		"the name":             func(r *Run) { r.Name = "counted " },
		"the configuration":    func(r *Run) { r.ConfigHash = "other" },
		"an exact value":       func(r *Run) { r.Matchups[0].ExactPairs[0] = nil },
		"a count":              func(r *Run) { r.Matchups[0].ShareCounts[0][0]++ },
		"an empty pairing set": func(r *Run) { r.Pairings = []Pairing{} },
	}
	for name, change := range changes {
		c := countedRun()
		if err := Seal(c, "cfg"); err != nil {
			t.Fatal(err)
		}
		change(c)
		if err := Verify(c, c.ConfigHash); !errors.Is(err, ErrChanged) {
			t.Errorf("%s changed: %v, want ErrChanged", name, err)
		}
	}
	if err := Seal(&Run{Matchups: []Matchup{{MeanTurns: math.NaN()}}}, "cfg"); err == nil {
		t.Error("a NaN was sealed")
	}
}

// ReadJSON reads back what WriteJSON writes, whitespace aside, and refuses any other spelling of
// it, another schema version first.
func TestReadJSON(t *testing.T) {
	r := countedRun()
	r.Name = "a <b> & c"
	if err := Seal(r, "cfg"); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteJSON(&buf, r); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	back, err := ReadJSON(data)
	if err != nil {
		t.Fatal(err)
	}
	if err := Verify(back, "cfg"); err != nil {
		t.Errorf("read back: %v", err)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, data); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadJSON(compact.Bytes()); err != nil {
		t.Errorf("compacted: %v", err)
	}
	replace := func(old, new string) []byte {
		if !bytes.Contains(data, []byte(old)) {
			t.Fatalf("no %q in the file", old)
		}
		return bytes.Replace(data, []byte(old), []byte(new), 1)
	}
	// A file of version 4 as memsim wrote it: no verdicts.
	v4 := replace(`"schema_version": 5,`, `"schema_version": 4,`)
	verdict := []byte(`,
      "verdict": {
        "basis": "raw",
        "outside": []
      }`)
	if !bytes.Contains(v4, verdict) {
		t.Fatalf("no verdict %s in the file", verdict)
	}
	v4 = bytes.Replace(v4, verdict, nil, 1)
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"schema version 3, with a field it had", replace(`"schema_version": 5,`, `"schema_version": 3, "old": 1,`), "schema version 3, this memsim reads 5 (run it again)"},
		{"schema version 4, without the verdicts", v4, "schema version 4, this memsim reads 5 (run it again)"},
		{"schema version 6", replace(`"schema_version": 5,`, `"schema_version": 6,`), "schema version 6, this memsim reads 5"},
		{"no schema version", replace(`"schema_version": 5,`, ``), "schema version 0, this memsim reads 5"},
		{"an escaped character", replace(`"a <b> & c"`, `"a \u003cb> & c"`), "changed after memsim wrote it: its JSON is not as memsim writes it"},
		{"a key in capitals", replace(`"seed"`, `"Seed"`), "changed after memsim wrote it"},
		{"a repeated key", replace(`"seed": 1,`, `"seed": 2, "seed": 1,`), "changed after memsim wrote it"},
		{"a float respelt", replace(`"mean_turns": 2.5,`, `"mean_turns": 25e-1,`), "changed after memsim wrote it"},
		{"an unknown field", replace(`"seed": 1,`, `"seed": 1, "x": 1,`), `not a valid results file: json: unknown field "x"`},
		{"a second object", append(append([]byte{}, data...), "{}"...), "not a valid results file: more data after its object"},
		{"a number out of range", replace(`"mean_turns": 2.5,`, `"mean_turns": 1e999,`), "not a valid results file"},
	}
	for _, tt := range tests {
		_, err := ReadJSON(tt.data)
		if err == nil || !strings.Contains(err.Error(), tt.want) || strings.ContainsAny(err.Error(), "\n\r") {
			t.Errorf("%s: %v, want one line holding %q", tt.name, err, tt.want)
		}
	}
}
