package tournament

import (
	"fmt"
	"maps"
	"math"
	"slices"
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
	// Kind describes the kind of game it plays, its deal size and its players' kinds (a strategy
	// or a table, and their memory), as "26 pairs: strategy perfect; table perfect".
	Kind string
	// Players names its participants. The pace of a game depends on the deal size and on who
	// plays it: an estimate learns each player's share of it.
	Players []string
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
			Kind: fmt.Sprintf("%d pairs: %s", m.Setup.Pairs, strings.Join(kinds, "; ")), Players: t.Names(m.IDs)}
	}
	return out
}

// Estimate is an estimate of the time left: it lies between Low and High (as far as the pace
// measured so far tells), most likely near Mid.
type Estimate struct {
	Low, Mid, High time.Duration
}

// The constants of the estimate. A pace (seconds per game) is known up to a factor: e^spread
// either way. Each spread is a log-ratio.
const (
	// minMeasure is the least time a match must have played for its pace to count.
	minMeasure = 0.2
	// priorSpread is how far a match's pace strays from what the other matches of its deal size
	// predict, before enough of them tell: it weighs as one match's residual.
	priorSpread = 0.5
	// unseenSpread is added for a match with a player whose pace at its deal size is unknown yet:
	// what it costs may be anything from a fraction to several times the others'.
	unseenSpread = 1.0
	// driftSpread is a common drift of every pace (the machine's load, say), at least.
	driftSpread = 0.15
	// alpha is the power of the deal size by which a pace grows, between alpha ± alphaSpread: it
	// scales the pace measured at one deal size to another where nothing is measured yet.
	alpha, alphaSpread = 1.5, 1.0
	// ownSpread is the spread of the rest of the match under way, played at its own pace.
	ownSpread = 0.1
)

// TimeLeft estimates the time the play of a tournament has left from the measured pace of each
// match, in seconds per game: the match under way at its own pace, and each match still to play
// at the pace its players have shown at its deal size (each player's share fitted over the
// matches played there), or, at a deal size nothing is measured at yet, at the pace measured at
// the nearest one scaled by a power of the deal sizes. The estimate is a range, as wide as the
// paces measured so far are scattered around what the fit predicts, and as wide as the players
// and deal sizes still unmeasured make it; it narrows as matches are played. Games that a resumed
// checkpoint holds are not counted as played now.
//
// The count of games done it is given is the one Options.Progress keeps: the games played, and
// those of a resumed checkpoint as Play adds them. A TimeLeft is not safe for concurrent use.
type TimeLeft struct {
	plans    []MatchPlan
	cur      int       // the match under way
	start    time.Time // when it started (zero: none has)
	doneAt   int64     // the count of games done when it started, its resumed games added
	resumed  int64     // the games of the match under way that the checkpoint held
	measured []paceOf  // the matches played now, each at its pace
}

// paceOf is the measured pace of a match: the seconds a game took, over games played.
type paceOf struct {
	plan  int
	pace  float64
	games float64
}

// NewTimeLeft returns an estimate for the matches plans describes, in the order they are played.
func NewTimeLeft(plans []MatchPlan) *TimeLeft {
	return &TimeLeft{plans: plans}
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
		if el := now.Sub(e.start).Seconds(); played > 0 && el > 0 {
			e.measured = append(e.measured, paceOf{plan: e.cur, pace: el / played, games: played})
		}
	}
	e.cur, e.start, e.doneAt, e.resumed = i, now, done, resumed
}

// Left returns the most likely time left at now, when done games are done (see Estimate), and
// whether there is an estimate.
func (e *TimeLeft) Left(done int64, now time.Time) (time.Duration, bool) {
	est, ok := e.Estimate(done, now)
	return est.Mid, ok
}

// Estimate returns the time left at now, when done games are done, and whether there is an
// estimate: false before any match has started, or before anything has been measured to base it
// on.
func (e *TimeLeft) Estimate(done int64, now time.Time) (Estimate, bool) {
	if e.start.IsZero() {
		return Estimate{}, false
	}
	data := e.measured
	cur := e.plans[e.cur]
	playedCur := done - e.doneAt
	left := float64(max(cur.Games-playedCur-e.resumed, 0))
	var parts []part
	if el := now.Sub(e.start).Seconds(); playedCur > 0 && el >= minMeasure {
		pace := el / float64(playedCur)
		parts = append(parts, part{seconds: left * pace, spread: ownSpread})
		// The match under way tells of the matches to come as one played.
		data = append(slices.Clip(data), paceOf{plan: e.cur, pace: pace, games: float64(playedCur)})
	} else {
		parts = append(parts, part{plan: e.cur, games: left})
	}
	if len(data) == 0 {
		return Estimate{}, false
	}
	for i := e.cur + 1; i < len(e.plans); i++ {
		parts = append(parts, part{plan: i, games: float64(e.plans[i].Games)})
	}
	return e.sum(parts, data), true
}

// part is a part of the play left: a number of seconds known up to a spread, or games of a match
// whose pace is to be predicted.
type part struct {
	seconds, spread float64
	plan            int
	games           float64
}

// spreads is how far a predicted pace may be from the truth: its own error, independent of the
// other matches', and an error common to the matches predicted at one deal size.
type spreads struct{ own, common float64 }

// recent is the number of the latest matches measured whose paces tell how far the paces to come
// drift from the fit (the machine's load changes, say).
const recent = 3

// sum adds up the parts of the play left, predicting the paces of the matches to come from data,
// the paces measured.
func (e *TimeLeft) sum(parts []part, data []paceOf) Estimate {
	fits := map[int]*paceFit{}
	fitAt := func(n int) *paceFit {
		if f, ok := fits[n]; ok {
			return f
		}
		f := e.fit(n, data)
		fits[n] = f
		return f
	}
	drift := e.drift(data)
	// The matches to come at one deal size are predicted by one fit: their own errors partly
	// cancel (independent, the spread of their sum shrinks with the square root of their
	// number), the common ones do not. The parts are added by the least, the most likely and the
	// most each can be.
	type group struct{ seconds, own2, common float64 }
	groups := map[int]*group{}
	var low, mid, high float64
	add := func(secs, spread float64) {
		low, mid, high = low+secs*math.Exp(-spread), mid+secs, high+secs*math.Exp(spread)
	}
	for _, p := range parts {
		if p.games == 0 {
			add(p.seconds, p.spread)
			continue
		}
		plan := e.plans[p.plan]
		pace, sp := fitAt(plan.Pairs).predict(plan.Players)
		secs := p.games * pace * math.Exp(drift)
		g := groups[plan.Pairs]
		if g == nil {
			g = &group{}
			groups[plan.Pairs] = g
		}
		g.seconds += secs
		g.own2 += secs * secs * sp.own * sp.own
		g.common += secs * sp.common
	}
	// In the order of the deal sizes, so that the same measurements give the same estimate.
	for _, n := range slices.Sorted(maps.Keys(groups)) {
		if g := groups[n]; g.seconds > 0 {
			add(g.seconds, (math.Sqrt(g.own2)+g.common)/g.seconds+driftSpread)
		}
	}
	return Estimate{Low: seconds(low), Mid: seconds(mid), High: seconds(high)}
}

// drift returns how far, as a log-ratio, the latest paces measured stray from what the others
// predict of them: the mean of the recent ones', shrunk toward none by one match's worth.
func (e *TimeLeft) drift(data []paceOf) float64 {
	var sum float64
	k := 0
	for i := len(data) - 1; i >= 0 && k < recent; i-- {
		others := append(slices.Clip(data[:i]), data[i+1:]...)
		if len(others) == 0 {
			break
		}
		plan := e.plans[data[i].plan]
		pace, _ := e.fit(plan.Pairs, others).predict(plan.Players)
		sum += math.Log(data[i].pace / pace)
		k++
	}
	return sum / float64(k+1)
}

// paceFit is the pace of the games at one deal size as the sum of their players' shares: a
// player's share of its games' pace (in seconds per game), and how far the measured paces
// stray from the fit.
type paceFit struct {
	share  map[string]float64
	mean   float64 // the mean pace, the players' shares of it equal
	seats  int     // the players a game has
	spread spreads // of a measured pace around the fit
}

// weighed is a measured pace as it tells of the pace at one deal size: scaled to it, weighed by
// how much less it tells than a pace measured there, with the spread its scaling adds.
type weighed struct {
	players       []string
	pace          float64
	weight, scale float64
}

// fit fits the shares of the players at deal size n to the paces measured there, and to those
// measured at other deal sizes, scaled by the power alpha of the ratio of the deal sizes and
// weighed the less the more that scaling may be wrong.
func (e *TimeLeft) fit(n int, data []paceOf) *paceFit {
	at := make([]weighed, len(data))
	f := &paceFit{share: map[string]float64{}, seats: 1}
	var weights float64
	for i, d := range data {
		plan := e.plans[d.plan]
		ratio := math.Log(float64(n) / float64(plan.Pairs))
		scale := alphaSpread * math.Abs(ratio)
		w := priorSpread * priorSpread / (priorSpread*priorSpread + scale*scale)
		at[i] = weighed{players: plan.Players, pace: d.pace * math.Exp(alpha*ratio), weight: w, scale: scale}
		f.mean += w * at[i].pace
		weights += w
		f.seats = max(f.seats, len(plan.Players))
	}
	f.mean /= weights
	prior := f.mean / float64(f.seats)
	for _, d := range at {
		for _, p := range d.players {
			f.share[p] = prior
		}
	}
	// Backfitting: each player's share is the weighed mean of what its matches leave it once the
	// other players' shares are taken, shrunk toward the prior by one match's worth.
	// The players in the order of their names, so that the same measurements give the same fit.
	players := slices.Sorted(maps.Keys(f.share))
	for range 20 {
		for _, p := range players {
			sum, count := prior, 1.0
			for _, d := range at {
				if !slices.Contains(d.players, p) {
					continue
				}
				rest := d.pace
				for _, q := range d.players {
					if q != p {
						rest -= f.share[q]
					}
				}
				sum += d.weight * rest
				count += d.weight
			}
			f.share[p] = max(sum/count, prior/10)
		}
	}
	// The spread: of each pace, the root mean square of the log-ratios of measured to fitted
	// paces, weighed, with the prior's weighing as one of them; common to all, the spread of the
	// scaling, as far as the fit rests on paces scaled from other deal sizes (the weighed mean of
	// theirs).
	sq, scaled := priorSpread*priorSpread, 0.0
	for _, d := range at {
		got, _ := f.predict(d.players)
		r := math.Log(d.pace / got)
		sq += d.weight * r * r
		scaled += d.weight * d.scale
	}
	f.spread = spreads{own: math.Sqrt(sq / (weights + 1)), common: scaled / weights}
	return f
}

// predict returns the fitted pace of a game of players and its spreads.
func (f *paceFit) predict(players []string) (pace float64, spread spreads) {
	spread = f.spread
	if len(players) == 0 {
		return f.mean, spread
	}
	unseen := false
	for _, p := range players {
		s, ok := f.share[p]
		if !ok {
			s, unseen = f.mean/float64(f.seats), true
		}
		pace += s
	}
	if unseen {
		spread.common += unseenSpread
	}
	return pace, spread
}

// seconds is a duration of s seconds.
func seconds(s float64) time.Duration {
	return time.Duration(s * float64(time.Second))
}

// Rate returns the games per second played now in the match under way, at now when done games
// are done: 0 before any match has started.
func (e *TimeLeft) Rate(done int64, now time.Time) float64 {
	if e.start.IsZero() {
		return 0
	}
	return float64(done-e.doneAt) / now.Sub(e.start).Seconds()
}
