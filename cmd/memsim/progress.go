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

	"memsim/tournament"
)

// progress reports the games played so far: a progress bar with games/s and the time left when w
// is a terminal, otherwise a plain line every few seconds, so that logs stay readable. The plain
// lines begin with the name of the command that plays ("memsim validate: ...").
type progress struct {
	name  string
	what  string // what the bar counts: "games" (the default), or "solving" for a solve
	done  *atomic.Int64
	total int64
	stop  chan struct{}
	wg    sync.WaitGroup

	mu      sync.Mutex
	est     *tournament.TimeLeft // the time left, match by match (nil: from the overall rate)
	stopped bool                 // a stopping rule may end matches early: the estimate is at most
	note    string               // the interim result of the match under way
}

// startMatch records that match i starts, with resumed of its games already in the checkpoint.
func (p *progress) startMatch(i int, resumed int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.est != nil {
		// The progress count holds match i's resumed games already (Play adds them before it
		// starts the match).
		p.est.StartMatch(i, p.done.Load(), resumed, time.Now())
	}
	p.note = ""
}

// setNote sets the interim result shown with the progress.
func (p *progress) setNote(s string) {
	p.mu.Lock()
	p.note = s
	p.mu.Unlock()
}

// plainEvery is the interval between plain progress lines.
const plainEvery = 5 * time.Second

func startProgress(w io.Writer, name string, total int64, quiet bool) *progress {
	return startProgressEvery(w, name, total, quiet, plainEvery)
}

// startProgressPlanned is startProgress with the time left estimated match by match (see
// tournament.TimeLeft); stopped says whether a stopping rule may end matches early.
func startProgressPlanned(w io.Writer, name string, total int64, quiet bool, plans []tournament.MatchPlan, stopped bool) *progress {
	p := &progress{name: name, done: new(atomic.Int64), total: total, stop: make(chan struct{}),
		est: tournament.NewTimeLeft(plans), stopped: stopped}
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
	tty := isTerminal(w)
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

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// bar draws a progress bar on w until finish: the games played, or for a solve (what is
// "solving") the share of the estimated work done, with the time left.
func (p *progress) bar(w io.Writer) {
	opts := []progressbar.Option{
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetPredictTime(false),
		progressbar.OptionThrottle(200 * time.Millisecond),
		progressbar.OptionClearOnFinish(),
	}
	solving := p.what == "solving"
	if solving {
		opts = append(opts, progressbar.OptionSetDescription(p.what))
	} else {
		opts = append(opts, progressbar.OptionSetDescription("games"), progressbar.OptionShowCount())
	}
	bar := progressbar.NewOptions64(p.total, opts...)
	start := time.Now()
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-p.stop:
			_ = bar.Set64(min(p.done.Load(), p.total))
			_ = bar.Finish()
			return
		case <-tick.C:
			done := p.done.Load()
			rate, left := p.rate(done, time.Since(start))
			_ = bar.Set64(min(done, p.total))
			if solving {
				bar.Describe("solving, " + left)
			} else {
				bar.Describe(fmt.Sprintf("games, %.3g/s, %s", rate, left))
			}
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
		now := time.Now()
		left, ok = p.est.Left(done, now)
		rate = p.est.Rate(done, now)
		if p.stopped {
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

// finish stops the reports. A nil progress shows nothing.
func (p *progress) finish() {
	if p == nil {
		return
	}
	close(p.stop)
	p.wg.Wait()
}
