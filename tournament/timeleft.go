package tournament

import (
	"fmt"
	"strings"
	"time"
)

// MatchPlan is what a time-left estimate knows of a match before it is played.
type MatchPlan struct {
	// Games is the number of games the match plays: its deals (of the tournament's shard) in
	// each of its seat orders.
	Games int64
	// Pairs is its deal size.
	Pairs int
	// Kind names the kind of game it plays, its deal size and its players' kinds (a strategy or
	// a table, and their memory), as "26 pairs: strategy perfect; table perfect". Matches of one
	// kind play at about one pace.
	Kind string
}

// Plans returns the plan of every match of the tournament, in the order of Matches.
func (t *Tournament) Plans() []MatchPlan {
	out := make([]MatchPlan, len(t.Matches))
	for i := range t.Matches {
		m := &t.Matches[i]
		var kinds []string
		for _, p := range m.Setup.Players {
			kind := "strategy"
			if p.Table != nil {
				kind = "table"
			}
			kinds = append(kinds, kind+" "+p.Memory.String())
		}
		out[i] = MatchPlan{Games: m.ShardDeals() * int64(len(m.Orders)), Pairs: m.Setup.Pairs,
			Kind: fmt.Sprintf("%d pairs: %s", m.Setup.Pairs, strings.Join(kinds, "; "))}
	}
	return out
}

// TimeLeft estimates the time the play of a tournament has left from the measured pace of each
// match: the match under way at its own pace, a match still to play at the pace of a played match
// of the same kind, or else at the pace measured so far per game and pair (or, before any match
// has finished, at the pace of the match under way, scaled by the pairs). Games that a resumed
// checkpoint holds are not counted as played now.
//
// The count of games done it is given is the one Options.Progress keeps: the games played, and
// those of a resumed checkpoint as Play adds them. A TimeLeft is not safe for concurrent use.
type TimeLeft struct {
	plans   []MatchPlan
	cur     int       // the match under way
	start   time.Time // when it started (zero: none has)
	doneAt  int64     // the count of games done when it started, its resumed games added
	resumed int64     // the games of the match under way that the checkpoint held
	seconds map[string]float64
	perPair float64 // seconds per game and pair, over the matches played
	sumSec  float64
	sumWork float64
}

// NewTimeLeft returns an estimate for the matches plans describes, in the order they are played.
func NewTimeLeft(plans []MatchPlan) *TimeLeft {
	return &TimeLeft{plans: plans, seconds: map[string]float64{}}
}

// StartMatch records that match i starts at now, when done games are done, resumed of them of
// match i and from a checkpoint (Play counts a resumed match's games before it starts it, see
// Options.Match). It measures the pace of the match just finished, if any games of it were
// played now.
func (e *TimeLeft) StartMatch(i int, done, resumed int64, now time.Time) {
	if i < 0 || i >= len(e.plans) {
		return
	}
	if i > 0 && e.cur == i-1 && !e.start.IsZero() {
		// The match just finished: its pace per game played now (none for a match the checkpoint
		// held whole, whose pace stays unknown).
		played := float64(done - resumed - e.doneAt)
		if el := now.Sub(e.start).Seconds(); played > 0 {
			prev := e.plans[e.cur]
			e.seconds[prev.Kind] = el / played
			e.sumSec += el
			e.sumWork += played * float64(prev.Pairs)
			e.perPair = e.sumSec / e.sumWork
		}
	}
	e.cur, e.start, e.doneAt, e.resumed = i, now, done, resumed
}

// Left returns the time left at now, when done games are done, and whether there is an estimate:
// false before any match has started, or before anything has been measured to base it on.
func (e *TimeLeft) Left(done int64, now time.Time) (time.Duration, bool) {
	if e.start.IsZero() {
		return 0, false
	}
	cur := e.plans[e.cur]
	playedCur := done - e.doneAt
	el := now.Sub(e.start).Seconds()
	pace := 0.0 // seconds per game of the match under way
	switch {
	case playedCur > 0 && el > 0.2:
		pace = el / float64(playedCur)
	case e.seconds[cur.Kind] > 0:
		pace = e.seconds[cur.Kind]
	case e.perPair > 0:
		pace = e.perPair * float64(cur.Pairs)
	default:
		return 0, false
	}
	secs := float64(max(cur.Games-playedCur-e.resumed, 0)) * pace
	for _, m := range e.plans[e.cur+1:] {
		switch {
		case e.seconds[m.Kind] > 0:
			secs += float64(m.Games) * e.seconds[m.Kind]
		case e.perPair > 0:
			secs += float64(m.Games) * e.perPair * float64(m.Pairs)
		default:
			secs += float64(m.Games) * pace * float64(m.Pairs) / float64(cur.Pairs)
		}
	}
	return time.Duration(secs * float64(time.Second)), true
}

// Rate returns the games per second played now in the match under way, at now when done games
// are done: 0 before any match has started.
func (e *TimeLeft) Rate(done int64, now time.Time) float64 {
	if e.start.IsZero() {
		return 0
	}
	return float64(done-e.doneAt) / now.Sub(e.start).Seconds()
}
