package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

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

// columns returns the width of the terminal w: COLUMNS (as getenv reads it) when it is a positive
// number, else the terminal's own width, else 80.
func columns(w io.Writer, getenv func(string) string) int {
	if n, err := strconv.Atoi(getenv("COLUMNS")); err == nil && n > 0 {
		return n
	}
	if f, ok := w.(*os.File); ok {
		if width, _, err := term.GetSize(int(f.Fd())); err == nil && width > 0 {
			return width
		}
	}
	return 80
}

// bar draws a progress bar on w until finish with progressbar, redrawn five times a second to the
// terminal's width: the games played, or for a solve (what is "solving") the share of the
// estimated work done, with the time left. The bar is drawn anew at another width when the
// terminal's changes.
func (p *progress) bar(w io.Writer) {
	start := time.Now()
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	var pb *progressbar.ProgressBar
	inner := -1
	for {
		select {
		case <-p.stop:
			fmt.Fprint(w, "\r\x1b[K") // the bar is cleared: what follows takes its line
			return
		case <-tick.C:
			l, in := p.line(time.Since(start)).fit(columns(w, os.Getenv))
			if pb == nil || in != inner {
				fmt.Fprint(w, "\r\x1b[K")
				pb = progressbar.NewOptions64(max(l.total, 1), progressbar.OptionSetWriter(w),
					progressbar.OptionSetWidth(in), progressbar.OptionSetPredictTime(false),
					progressbar.OptionSetElapsedTime(false), progressbar.OptionShowDescriptionAtLineEnd(),
					progressbar.OptionThrottle(0), progressbar.OptionUseANSICodes(true),
					progressbar.OptionSetDescription(l.desc()))
				inner = in
			}
			_ = pb.Set64(l.done)
			pb.Describe(l.desc())
		}
	}
}

// line returns what the bar shows after elapsed.
func (p *progress) line(elapsed time.Duration) barLine {
	done := min(p.done.Load(), p.total)
	rate, left := p.rate(done, elapsed)
	l := barLine{done: done, total: p.total, left: left, rateOf: rate}
	p.mu.Lock()
	l.note = p.note
	p.mu.Unlock()
	if p.what == "solving" {
		l.label = "solving"
	} else {
		l.count = grouped(strconv.FormatInt(done, 10)) + "/" + grouped(strconv.FormatInt(p.total, 10)) + " games"
		l.rate = rateText(rate) + " games/s"
	}
	return l
}

// rate returns the games per second played so far and the time left (see leftText).
func (p *progress) rate(done int64, elapsed time.Duration) (float64, string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	rate := float64(done) / elapsed.Seconds()
	var est tournament.Estimate
	ok := false
	if p.est != nil {
		now := time.Now()
		est, ok = p.est.Estimate(done, now)
		rate = p.est.Rate(done, now)
	} else if rate > 0 && done > 0 {
		left := seconds(float64(p.total-done) / rate)
		est, ok = tournament.Estimate{Low: left, Mid: left, High: left}, true
	}
	return max(rate, 0), leftText(est, ok, p.stopped)
}

// seconds is a duration of s seconds.
func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// leftText says how much time is left: "estimating…" without an estimate, "about 5 min left"
// when its range rounds to one value, "4–6 min left" otherwise, or "at most 6 min left" when
// stopped (a stopping rule may end matches early).
func leftText(est tournament.Estimate, ok, stopped bool) string {
	if !ok {
		return "estimating…"
	}
	hi := roughly(est.High, math.Ceil)
	if stopped {
		return "at most " + hi + " left"
	}
	lo := roughly(est.Low, math.Floor)
	if lo == hi {
		return "about " + hi + " left"
	}
	if u, ok := strings.CutSuffix(lo, unit(hi)); ok {
		lo = u // "4–6 min", not "4 min–6 min"
	}
	return lo + "–" + hi + " left"
}

// roughly writes d for people, rounded by round to a whole number of seconds under 90 s (to
// 5 s from 20 s), minutes under 90 minutes, hours under 48 hours (a tenth under 10), else days.
func roughly(d time.Duration, round func(float64) float64) string {
	s := d.Seconds()
	switch {
	case s < 20:
		return fmt.Sprintf("%.0f s", max(round(s), 1))
	case s < 90:
		return fmt.Sprintf("%.0f s", 5*round(s/5))
	case s < 90*60:
		return fmt.Sprintf("%.0f min", round(s/60))
	case s < 10*3600:
		return fmt.Sprintf("%.1f h", round(s/360)/10)
	case s < 48*3600:
		return fmt.Sprintf("%.0f h", round(s/3600))
	}
	return fmt.Sprintf("%.0f days", round(s/86400))
}

// unit returns the unit of a time roughly wrote, with its space: " min".
func unit(s string) string {
	_, u, _ := strings.Cut(s, " ")
	return " " + u
}

// barLine is what a progress bar shows: a label (for a solve), the share done as a percentage and
// a bar, the count done, the rate, the time left and a note (the interim result of the match under
// way); empty parts are not shown.
type barLine struct {
	label             string
	done, total       int64
	count, rate, left string
	note              string
	rateOf            float64 // the games per second that rate writes
}

// The bar's widths: at least minBar columns (or a quarter of the line, when narrower), up to
// maxBar, or noteBar when there is a note, which then takes the room left (at least minNote
// columns of it; the end of a longer note is cut).
const minBar, noteBar, maxBar, minNote = 20, 30, 50, 16

// render writes the line as the progress bar draws it in at most width columns (runes), less
// one: a terminal may wrap a line that fills its last column.
func (l barLine) render(width int) string {
	l, inner := l.fit(width)
	line := l.text(inner)
	if r := []rune(line); len(r) > width-1 {
		line = string(r[:max(width-1, 0)])
	}
	return line
}

// fit lays the line out in width columns, less one, and returns it with the parts that do not
// fit left out and the bar's inner width. The bar keeps at least minBar columns (a quarter of the
// width when narrower); to make room, the note goes first, then the count and the rate, which
// stay only with a bar of noteBar columns (a third of the width when narrower), so that the bar
// does not jump as their widths change, then the label; the share done and the time left stay.
func (l barLine) fit(width int) (barLine, int) {
	width--
	least, roomy := min(minBar, width/4), min(noteBar, width/3)
	// Give way, in this order, until the line fits: the note (put back below if there is room).
	note := l.note
	l.note = ""
	for _, drop := range []*string{&l.count, &l.rate} {
		if l.layout(roomy) <= width {
			break
		}
		*drop = ""
	}
	if l.layout(least) > width {
		l.label = ""
	}
	inner := min(least+width-l.layout(least), maxBar)
	if free := width - l.layout(noteBar) - 2; note != "" && free >= minNote {
		// The note takes the room left by a bar of noteBar columns, or more if it is short.
		if n := utf8.RuneCountInString(note); n > free {
			note = string([]rune(note)[:free-1]) + "…"
		}
		inner = noteBar
		l.note = note
	}
	return l, max(inner, 0)
}

// layout returns the columns the line takes with a bar of inner columns.
func (l barLine) layout(inner int) int {
	return utf8.RuneCountInString(l.text(inner))
}

// text writes the line as progressbar draws it with a bar of inner columns, the description at
// the end: " 12% |███   |  solving, 493,217/4,000,000 games, 173,000 games/s, 4–6 min left;
// note ".
func (l barLine) text(inner int) string {
	pct := int(100 * float64(min(l.done, l.total)) / float64(max(l.total, 1)))
	filled := int(float64(inner) * float64(pct) / 100)
	return fmt.Sprintf("%4d%% |%s%s|  %s ", pct, strings.Repeat("█", filled), strings.Repeat(" ", inner-filled), l.desc())
}

// desc is what the bar shows after it: the label, the count, the rate, the time left and the note.
func (l barLine) desc() string {
	var parts []string
	for _, s := range []string{l.label, l.count, l.rate, l.left} {
		if s != "" {
			parts = append(parts, s)
		}
	}
	line := strings.Join(parts, ", ")
	if l.note != "" {
		line += "; " + l.note
	}
	return line
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
			l := p.line(time.Since(start))
			if l.note != "" {
				l.left += "; " + l.note
			}
			fmt.Fprintf(w, "%s: %d of %d games (%.1f%%), %s games/s, %s\n",
				p.name, l.done, p.total, 100*float64(l.done)/float64(p.total), rateText(l.rateOf), l.left)
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
