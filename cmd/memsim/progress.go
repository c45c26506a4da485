package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// progress reports the games played so far: a progress bar with games/s and the time left when w
// is a terminal, otherwise a plain line every few seconds, so that logs stay readable. The plain
// lines begin with the name of the command that plays ("memsim validate: ...").
type progress struct {
	name  string
	done  *atomic.Int64
	total int64
	stop  chan struct{}
	wg    sync.WaitGroup

	mu   sync.Mutex
	est  *estimate // the time left, match by match (nil: from the overall rate)
	note string    // the interim result of the match under way
}

// matchPlan is what the estimate knows of a match before it is played: its games, and the kind
// of game it plays (its deal size and its players' kinds), whose pace a played match of the same
// kind tells.
type matchPlan struct {
	games int64
	pairs int
	kind  string
}

// estimate tells the time left from the measured pace of each match: the match under way at its
// own pace, a match still to play at the pace of a played match of the same kind, or else at the
// pace measured so far per game and pair. Games a resumed checkpoint holds are not counted as
// played now.
type estimate struct {
	plans   []matchPlan
	stopped bool // a stopping rule may end matches early: the estimate is at most
	cur     int
	start   time.Time
	doneAt  int64 // the progress count when the match under way started, its resumed games added
	resumed int64 // the games of the match under way that the checkpoint held
	seconds map[string]float64
	perPair float64 // seconds per game and pair, over the matches played
	sumSec  float64
	sumWork float64
}

// startMatch records that match i starts, with resumed of its games already in the checkpoint.
func (p *progress) startMatch(i int, resumed int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	e := p.est
	if e == nil {
		return
	}
	// The progress count holds match i's resumed games already (Play adds them before it starts
	// the match): they were not played by the match before, nor now.
	now, done := time.Now(), p.done.Load()
	if i > 0 && e.cur == i-1 && !e.start.IsZero() {
		// The match just finished: its pace per game played now (none for a match the checkpoint
		// held whole, whose pace stays unknown).
		played := float64(done - resumed - e.doneAt)
		if el := now.Sub(e.start).Seconds(); played > 0 {
			prev := e.plans[e.cur]
			e.seconds[prev.kind] = el / played
			e.sumSec += el
			e.sumWork += played * float64(prev.pairs)
			e.perPair = e.sumSec / e.sumWork
		}
	}
	e.cur, e.start, e.doneAt, e.resumed = i, now, done, resumed
	p.note = ""
}

// setNote sets the interim result shown with the progress.
func (p *progress) setNote(s string) {
	p.mu.Lock()
	p.note = s
	p.mu.Unlock()
}

// left returns the time left and whether it is an upper bound, or false when nothing has been
// measured yet.
func (e *estimate) left(done int64, now time.Time) (time.Duration, bool) {
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
	case e.seconds[cur.kind] > 0:
		pace = e.seconds[cur.kind]
	case e.perPair > 0:
		pace = e.perPair * float64(cur.pairs)
	default:
		return 0, false
	}
	secs := float64(max(cur.games-playedCur-e.resumed, 0)) * pace
	for _, m := range e.plans[e.cur+1:] {
		switch {
		case e.seconds[m.kind] > 0:
			secs += float64(m.games) * e.seconds[m.kind]
		case e.perPair > 0:
			secs += float64(m.games) * e.perPair * float64(m.pairs)
		default:
			secs += float64(m.games) * pace * float64(m.pairs) / float64(cur.pairs)
		}
	}
	return time.Duration(secs * float64(time.Second)), true
}

// plainEvery is the interval between plain progress lines.
const plainEvery = 5 * time.Second

func startProgress(w io.Writer, name string, total int64, quiet bool) *progress {
	return startProgressEvery(w, name, total, quiet, plainEvery)
}

// startProgressPlanned is startProgress with the time left estimated match by match (see
// estimate); stopped says whether a stopping rule may end matches early.
func startProgressPlanned(w io.Writer, name string, total int64, quiet bool, plans []matchPlan, stopped bool) *progress {
	p := &progress{name: name, done: new(atomic.Int64), total: total, stop: make(chan struct{}),
		est: &estimate{plans: plans, stopped: stopped, seconds: map[string]float64{}}}
	p.run(w, quiet, plainEvery)
	return p
}

// startProgressEvery is startProgress with plain lines every interval.
func startProgressEvery(w io.Writer, name string, total int64, quiet bool, every time.Duration) *progress {
	p := &progress{name: name, done: new(atomic.Int64), total: total, stop: make(chan struct{})}
	p.run(w, quiet, every)
	return p
}

// run starts the reports, unless quiet.
func (p *progress) run(w io.Writer, quiet bool, every time.Duration) {
	if quiet {
		return
	}
	tty := false
	if f, ok := w.(*os.File); ok {
		tty = term.IsTerminal(int(f.Fd()))
	}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		if tty {
			p.bar(w)
		} else {
			p.plain(w, every)
		}
	}()
}

func (p *progress) bar(w io.Writer) {
	bar := progressbar.NewOptions64(p.total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription("games"),
		progressbar.OptionShowCount(),
		progressbar.OptionSetPredictTime(false),
		progressbar.OptionThrottle(200*time.Millisecond),
		progressbar.OptionClearOnFinish(),
	)
	start := time.Now()
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-p.stop:
			_ = bar.Set64(p.done.Load())
			_ = bar.Finish()
			return
		case <-tick.C:
			done := p.done.Load()
			rate, left := p.rate(done, time.Since(start))
			_ = bar.Set64(done)
			bar.Describe(fmt.Sprintf("games, %.3g/s, %s", rate, left))
		}
	}
}

// rate returns the games per second played so far and the time left, as "about h:mm:ss left"
// ("at most" where a stopping rule may end matches early), with the interim result of the match
// under way.
func (p *progress) rate(done int64, elapsed time.Duration) (float64, string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	rate := float64(done) / elapsed.Seconds()
	var left time.Duration
	ok := false
	bound := "about"
	if p.est != nil {
		left, ok = p.est.left(done, time.Now())
		rate = float64(done-p.est.doneAt) / time.Since(p.est.start).Seconds()
		if p.est.stopped {
			bound = "at most"
		}
	} else if rate > 0 {
		left, ok = time.Duration(float64(p.total-done)/rate*float64(time.Second)), true
	}
	text := "time left unknown yet"
	if ok {
		text = fmt.Sprintf("%s %s left", bound, hms(left))
	}
	if p.note != "" {
		text += "; " + p.note
	}
	return max(rate, 0), text
}

// hms formats a duration as h:mm:ss.
func hms(d time.Duration) string {
	s := int64(d.Round(time.Second) / time.Second)
	return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
}

// plain writes a plain line every interval until finish.
func (p *progress) plain(w io.Writer, every time.Duration) {
	start := time.Now()
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-tick.C:
			done := p.done.Load()
			rate, left := p.rate(done, time.Since(start))
			fmt.Fprintf(w, "%s: %d of %d games (%.1f%%), %.3g games/s, %s\n",
				p.name, done, p.total, 100*float64(done)/float64(p.total), rate, left)
		}
	}
}

// finish stops the reports.
func (p *progress) finish() {
	close(p.stop)
	p.wg.Wait()
}
