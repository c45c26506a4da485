package tournament

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"memsim/analysis/report"
	"memsim/configs"
	"memsim/sim"
	"memsim/sim/record"
	"memsim/sim/rules"
)

// Record plays game (0-based) of the seat order players at the deal size pairs again (Replay)
// and returns it as a game record (docs/records.md): its rules (with the choice set the players
// share, or the full game), its players in seat order, every move, and in Meta where it comes
// from: "config" (the configuration's name), "seed" and "game"; for a game a player forfeited,
// "forfeit" says who and why (the record then stops where the game did). Meta has no "source":
// the caller says which command wrote the record. Errors are Replay's.
func (t *Tournament) Record(game int64, pairs int, players []string) (*record.Game, error) {
	r, err := t.Replay(game, pairs, players)
	if err != nil {
		return nil, err
	}
	return t.GameRecord(r), nil
}

// GameRecord returns the record of r, a game of t played again (Replay), as Record does.
func (t *Tournament) GameRecord(r *Replayed) *record.Game {
	cfg := t.Config
	g := &record.Game{
		Rules: record.Rules{Pairs: r.Pairs, Singletons: cfg.Rules.Singletons, Seats: len(r.Players), Pass: cfg.Rules.Pass,
			Variant: cfg.Rules.Variant},
		Meta: map[string]string{
			"config": cfg.Name,
			"seed":   strconv.FormatUint(cfg.Seed, 10),
			"game":   strconv.FormatInt(r.Game, 10),
		},
		// A game the turn limit ended is ended by its moves (record.Game.Check), a stalemate by
		// its end line.
		Ended: r.Outcome.Stalemate,
	}
	if o := r.Outcome; o.Fault != 0 {
		// A forfeit is no end the rules know: the record stops where the game did.
		g.Meta["forfeit"] = fmt.Sprintf("seat %d (%s), %s conceded", o.FaultSeat, FaultName(o.Fault), pairsText(o.Left))
	}
	var shared *rules.ChoiceSet
	for i, name := range r.Players {
		p := record.Player{Name: name, Kind: record.KindBuiltIn}
		for _, pl := range cfg.Players {
			if pl.Name != name {
				continue
			}
			p = RecordPlayer(pl)
			if i == 0 || shared != nil && pl.Choices != nil && *shared == *pl.Choices {
				shared = pl.Choices
			} else {
				shared = nil
			}
		}
		g.Players = append(g.Players, p)
	}
	if shared != nil {
		g.Rules.Choices = *shared
	}
	for _, turn := range r.Log.Turns {
		if len(turn.Flips) == 0 {
			m := record.PassMove()
			m.Seat = turn.Seat
			g.Moves = append(g.Moves, m)
		}
		for _, c := range turn.Flips {
			m := record.Flip(c.Pos, c.Face)
			m.Seat = turn.Seat
			g.Moves = append(g.Moves, m)
		}
	}
	return g
}

// RecordPlayer returns configured player pl as a game record names it: a built-in player with
// its policy, or a program with its command.
func RecordPlayer(pl configs.Player) record.Player {
	if pl.External != nil {
		return record.Player{Name: pl.Name, Kind: record.KindProgram, About: strings.Join(pl.External.Command, " ")}
	}
	return record.Player{Name: pl.Name, Kind: record.KindBuiltIn, About: pl.Policy}
}

// FaultName names a kind of fault as the reports do: "crash", "timeout" or "illegal move".
func FaultName(k sim.FaultKind) string {
	if k == sim.FaultIllegal {
		return "illegal move"
	}
	return k.String()
}

// pairsText says "1 pair" or "n pairs".
func pairsText(n int) string {
	if n == 1 {
		return "1 pair"
	}
	return fmt.Sprintf("%d pairs", n)
}

// RecordSource is the "source" a run's game records give in their Meta.
const RecordSource = "memsim run"

// maxRecordBase bounds the length of a record file's name built from its players' names; a longer
// one is named after the matchup's place instead (see Records).
const maxRecordBase = 200

// Records returns the files of game records that a run of t writes in its run folder's records/:
// for every deal size and seat order, in the order of the matches, one file holding its first
// games, as many as the configuration's records (none when it is 0), each game played again as
// Record plays it, with RecordSource as its Meta's "source". A file is named
// "PAIRS-A-vs-B.jsonl" after the deal size and the players in seat order ("12-optimal-vs-parity.jsonl",
// "12-optimal.jsonl" for a player alone), each character of a name that is not a letter, a digit,
// '.', '_' or '-' written as '_'; a name that is taken already gets "-2", "-3" and so on before
// ".jsonl", and one that would be longer than 200 bytes is "PAIRS-matchup-K.jsonl", K counting
// the seat orders at that deal size from 1.
//
// res are the run's results: a matchup that a stopping rule ended early records at most the
// games it played. With res nil, the files are named but have no Write: what a report of the run
// lists when it is regenerated.
func (t *Tournament) Records(res *MatchResults) []report.RecordFile {
	k := t.Config.Records
	if k <= 0 {
		return nil
	}
	var files []report.RecordFile
	taken := map[string]bool{}
	seen := map[int]int{} // seat orders seen so far at each deal size
	for i := range t.Matches {
		m := &t.Matches[i]
		pairs := m.Setup.Pairs
		for o, order := range m.Orders {
			seen[pairs]++
			names := t.Names(m.Seats(order))
			f := report.RecordFile{
				Name:  recordName(pairs, names, seen[pairs], taken),
				Title: fmt.Sprintf("%s: %s", pairsText(pairs), strings.Join(names, " vs ")),
			}
			if res != nil {
				games := min(int64(k), res.Matches[i].Orders[o].Games)
				f.Write = func(w io.Writer) error { return t.writeRecords(w, pairs, names, games) }
			}
			files = append(files, f)
		}
	}
	return files
}

// recordName names the record file of the seat order names at pairs, the k-th at that deal size
// (see Records), and adds it to taken.
func recordName(pairs int, names []string, k int, taken map[string]bool) string {
	safe := make([]string, len(names))
	for i, n := range names {
		safe[i] = strings.Map(func(r rune) rune {
			if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-' {
				return r
			}
			return '_'
		}, n)
	}
	base := fmt.Sprintf("%d-%s", pairs, strings.Join(safe, "-vs-"))
	if len(base) > maxRecordBase {
		base = fmt.Sprintf("%d-matchup-%d", pairs, k)
	}
	name := base + ".jsonl"
	for n := 2; taken[name]; n++ {
		name = fmt.Sprintf("%s-%d.jsonl", base, n)
	}
	taken[name] = true
	return name
}

// writeRecords writes games 0 to games-1 of the seat order names at pairs to w as game records.
func (t *Tournament) writeRecords(w io.Writer, pairs int, names []string, games int64) error {
	rw := record.NewWriter(w)
	for g := range games {
		rec, err := t.Record(g, pairs, names)
		if err != nil {
			return err
		}
		rec.Meta["source"] = RecordSource
		if err := rw.Write(rec); err != nil {
			return fmt.Errorf("game %d of %s at %s: %w", g, strings.Join(names, " vs "), pairsText(pairs), err)
		}
	}
	return rw.Flush()
}
