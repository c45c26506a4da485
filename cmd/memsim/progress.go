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
}

// plainEvery is the interval between plain progress lines.
const plainEvery = 5 * time.Second

func startProgress(w io.Writer, name string, total int64, quiet bool) *progress {
	return startProgressEvery(w, name, total, quiet, plainEvery)
}

// startProgressEvery is startProgress with plain lines every interval.
func startProgressEvery(w io.Writer, name string, total int64, quiet bool, every time.Duration) *progress {
	p := &progress{name: name, done: new(atomic.Int64), total: total, stop: make(chan struct{})}
	if quiet {
		return p
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
	return p
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
			bar.Describe(fmt.Sprintf("games, %.3g/s, about %s left", rate, left))
		}
	}
}

// rate returns the games per second so far and a rough time left.
func (p *progress) rate(done int64, elapsed time.Duration) (float64, string) {
	rate := float64(done) / elapsed.Seconds()
	if rate <= 0 {
		return 0, "?"
	}
	return rate, fmt.Sprintf("%.0f s", float64(p.total-done)/rate)
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
			fmt.Fprintf(w, "%s: %d of %d games (%.1f%%), %.3g games/s, about %s left\n",
				p.name, done, p.total, 100*float64(done)/float64(p.total), rate, left)
		}
	}
}

// finish stops the reports.
func (p *progress) finish() {
	close(p.stop)
	p.wg.Wait()
}
