package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"

	"memsim/analysis/review"
	"memsim/sim/record"
)

// playWait bounds every wait for what a memsim play process prints: far more than any step of a
// game of three pairs takes, so that a test that would hang fails instead.
const playWait = 20 * time.Second

func TestPlayBadInput(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--seat", "2"}, "memsim play: --seat 2: must be between 0 and 1 (the number of opponents)"},
		{[]string{"--seat", "-1", "--against", "daring,parity"}, "memsim play: --seat -1: must be between 0 and 2 (the number of opponents)"},
		{[]string{"--against", "darnig"}, `memsim play: --against "darnig": no player "darnig" in configs/default.yaml (did you mean daring?)`},
		{[]string{"--against", "zzz"}, `(allowed: optimal, parity, daring, forgetful, win-optimal)`},
		{[]string{"--against", ""}, `memsim play: --against "": give the names of your opponents, comma-separated`},
		{[]string{"--pairs", "0"}, "memsim play: --pairs 0: must be between 1 and 100"},
		{[]string{"--singletons", "21"}, "memsim play: --singletons 21: must be between 0 and 20"},
		{[]string{"--pass", "sometimes"}, `memsim play: --pass "sometimes": allowed: never, two-known, always`},
		{[]string{"--delay", "-1s"}, "memsim play: --delay -1s: must be 0 or more"},
		{[]string{"--coach", "--pairs", "31", "--against", "daring"}, "memsim play: --coach: the coach judges deals of at most 30 pairs (this one has 31)"},
		{[]string{"--name", ""}, `memsim play: --name "": must not be empty`},
		{[]string{"--name", "daring", "--against", "daring"}, `memsim play: --name "daring": an opponent's name: choose another`},
		{[]string{"--record", ""}, `memsim play: --record "": give the file to write the game record to`},
		{[]string{"extra"}, `memsim play: unexpected argument "extra" (give the configuration with --config)`},
		{[]string{"--against", "win-optimal,daring", "--pairs", "60"}, `win-optimal at 3 seats is solved for deals of at most 41 pairs, not 60`},
		{[]string{"--config", "/nonexistent.yaml"}, "memsim play: read configuration: "},
		{[]string{"--record", "/nonexistent/game.jsonl"}, "memsim play: --record /nonexistent/game.jsonl: the folder /nonexistent does not exist: give a file in an existing folder"},
	}
	for _, tt := range tests {
		_, stderr, code := runArgs(t, append([]string{"play"}, tt.args...)...)
		if code != exitUsage || !strings.Contains(stderr, tt.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("play %q: exit %d, %q; want exit 2 and one line with %q", tt.args, code, stderr, tt.want)
		}
	}
}

// memsim play interrupted before its game begins exits 1 saying so, and writes no record.
func TestPlayInterruptedBeforeTheGame(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	dir := t.TempDir()
	rec := filepath.Join(dir, "game.jsonl")
	var out, errb strings.Builder
	code := run(ctx, []string{"play", "--against", "daring", "--pairs", "3", "--record", rec}, noEnv, &out, &errb)
	wantInterrupted(t, "play", "play", code, errb.String())
	if _, err := os.Stat(rec); err == nil {
		t.Errorf("a record was written: %s", rec)
	}
}

// ---------------------------------------------------------------------------------------------
// A player that reads what memsim play prints.

var (
	flipLine   = regexp.MustCompile(`(?:flips?|flipped) ([a-l][0-9]+) ([PS][0-9]+)`)
	cellText   = regexp.MustCompile(`^(##|\.\.|[PS][0-9]+)$`)
	memoryLine = regexp.MustCompile(`remembers (.*)$`)
	memoryCard = regexp.MustCompile(`([a-l][0-9]+) ([PS][0-9]+)`)
)

// reader plays the person's seat from what memsim play prints: the cards flipped (in the log
// lines, or in what a bot of perfect memory remembers) and the board.
type reader struct {
	faces map[string]string // the face of every card seen, by coordinate
	cells map[string]string // the board last printed: ##, .., or a face
	order []string          // the coordinates, in the order of the positions
}

func newReader() *reader { return &reader{faces: map[string]string{}, cells: map[string]string{}} }

// see reads a line memsim play printed.
func (r *reader) see(line string) {
	for _, m := range flipLine.FindAllStringSubmatch(line, -1) {
		r.faces[m[1]] = m[2]
	}
	if m := memoryLine.FindStringSubmatch(line); m != nil {
		for _, c := range memoryCard.FindAllStringSubmatch(m[1], -1) {
			r.faces[c[1]] = c[2]
		}
	}
	f := strings.Fields(strings.NewReplacer("[", " ", "]", " ").Replace(line))
	if len(f) < 2 {
		return
	}
	row, err := strconv.Atoi(f[0])
	if err != nil {
		return
	}
	for _, c := range f[1:] {
		if !cellText.MatchString(c) {
			return
		}
	}
	if row == 1 {
		clear(r.cells)
		r.order = r.order[:0]
	}
	for i, c := range f[1:] {
		coord := fmt.Sprintf("%c%d", 'a'+i, row)
		r.cells[coord] = c
		r.order = append(r.order, coord)
		if c != "##" && c != ".." {
			r.faces[coord] = c
		}
	}
}

// move chooses a card: the first card of a seen pair, or its partner, else a card never seen.
func (r *reader) move(second bool) string {
	known := func(c string) bool { return r.cells[c] != ".." && r.faces[c] != "" }
	if second {
		for _, first := range r.order {
			if c := r.cells[first]; c == "##" || c == ".." {
				continue
			}
			for _, c := range r.order {
				if c != first && known(c) && r.faces[c] == r.faces[first] {
					return c
				}
			}
		}
	} else {
		for i, a := range r.order {
			for _, b := range r.order[i+1:] {
				if known(a) && known(b) && r.faces[a] == r.faces[b] {
					return a
				}
			}
		}
	}
	for _, c := range r.order {
		if r.cells[c] == "##" && r.faces[c] == "" {
			return c
		}
	}
	return "none"
}

// taken returns the coordinate of a card taken, or "".
func (r *reader) taken() string {
	for _, c := range r.order {
		if r.cells[c] == ".." {
			return c
		}
	}
	return ""
}

// ---------------------------------------------------------------------------------------------
// Line mode, over pipes.

// lineProcess is memsim play run with its standard input and output on pipes.
type lineProcess struct {
	t      *testing.T
	cmd    *exec.Cmd
	in     io.WriteCloser
	lines  chan string // stdout, line by line; closed at its end
	out    strings.Builder
	stderr strings.Builder
	done   chan struct{}
}

// startPlay starts this test binary as memsim play with args in dir.
func startPlay(t *testing.T, dir string, args ...string) *lineProcess {
	t.Helper()
	p := &lineProcess{t: t, lines: make(chan string, 1024), done: make(chan struct{})}
	p.cmd = exec.Command(os.Args[0], append([]string{"play"}, args...)...)
	p.cmd.Dir = dir
	p.cmd.Env = append(os.Environ(), "MEMSIM_RUN_MAIN=1")
	p.cmd.Stderr = &p.stderr
	var err error
	if p.in, err = p.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, err := p.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		p.cmd.Process.Kill()
		<-p.done
	})
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
		close(p.lines)
		p.cmd.Wait()
		close(p.done)
	}()
	return p
}

// next returns the next line printed, and false at the end of the output.
func (p *lineProcess) next() (string, bool) {
	p.t.Helper()
	select {
	case l, ok := <-p.lines:
		if ok {
			p.out.WriteString(l + "\n")
		}
		return l, ok
	case <-time.After(playWait):
		p.t.Fatalf("nothing printed for %v; so far:\n%s", playWait, p.out.String())
	}
	return "", false
}

// send writes a line to the process's input.
func (p *lineProcess) send(line string) {
	p.t.Helper()
	if _, err := io.WriteString(p.in, line+"\n"); err != nil {
		p.t.Fatalf("writing %q: %v; so far:\n%s", line, err, p.out.String())
	}
}

// wait waits for the process to exit and returns its exit status.
func (p *lineProcess) wait() int {
	p.t.Helper()
	for {
		if _, ok := p.next(); !ok {
			break
		}
	}
	select {
	case <-p.done:
	case <-time.After(playWait):
		p.t.Fatalf("still running %v after its output ended", playWait)
	}
	return p.cmd.ProcessState.ExitCode()
}

// resultScores reads the scores of a result line: "result after 6 turns (...): you 1, daring 2;
// daring wins".
func resultScores(t *testing.T, out string) []float64 {
	t.Helper()
	_, line, ok := strings.Cut(out, "\nresult after ")
	if !ok {
		t.Fatalf("no result line in:\n%s", out)
	}
	line, _, _ = strings.Cut(line, "\n")
	_, list, _ := strings.Cut(line, "): ")
	list, _, _ = strings.Cut(list, ";")
	var scores []float64
	for _, part := range strings.Split(list, ", ") {
		f := strings.Fields(part)
		s, err := strconv.ParseFloat(f[len(f)-1], 64)
		if err != nil {
			t.Fatalf("result line %q: %v", line, err)
		}
		scores = append(scores, s)
	}
	return scores
}

// checkRecord reads the record at path and checks it against the game memsim play printed: the
// players, times that never go back, and, for a finished game, the scores of the result line.
func checkRecord(t *testing.T, path string, person int, out string, finished bool) *record.Game {
	t.Helper()
	games, err := record.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 1 {
		t.Fatalf("%s: %d games, want 1", path, len(games))
	}
	g := games[0]
	for i, p := range g.Players {
		if want := map[bool]string{true: record.KindPerson, false: record.KindBuiltIn}[i == person]; p.Kind != want {
			t.Errorf("%s: seat %d is of kind %q, want %q", path, i, p.Kind, want)
		}
	}
	if g.Meta["source"] != "memsim play" || g.Meta["seed"] == "" || g.Meta["config"] != "default" {
		t.Errorf("%s: meta %v", path, g.Meta)
	}
	for i, m := range g.Moves {
		if m.MS < 0 || i > 0 && m.MS < g.Moves[i-1].MS {
			t.Errorf("%s: move %d at %d ms, after %d", path, i, m.MS, g.Moves[max(i-1, 0)].MS)
		}
	}
	if g.Result.Over != finished {
		t.Errorf("%s: game over %v, want %v", path, g.Result.Over, finished)
	}
	if finished {
		if want := resultScores(t, out); !slices.Equal(g.Result.Scores, want) {
			t.Errorf("%s: scores %v; memsim play printed %v", path, g.Result.Scores, want)
		}
	}
	return g
}

// A whole game played line by line over a pipe, answering each prompt from what the output
// shows; lines that are no legal move get a one-line reason and the prompt again; the record,
// written to its default name, reads back with the printed scores.
func TestPlayLineByLineOverAPipe(t *testing.T) {
	t.Parallel()
	for _, seat := range []int{0, 1} {
		dir := t.TempDir()
		p := startPlay(t, dir, "--against", "daring", "--pairs", "4", "--seed", "7", "--seat", strconv.Itoa(seat), "--show-memory")
		r := newReader()
		bad := []struct{ line, reason string }{
			{"garbage", `not allowed: "garbage" is not a card: name a card by its coordinate, a1 to d2, or its number, 0 to 7`},
			{"99", "not allowed: no card 99: the positions are 0 to 7"},
			{"pass", "not allowed: no passing: the pass rule is never"},
		}
		prompts, tookTaken := 0, false
		for {
			line, ok := p.next()
			if !ok {
				break
			}
			r.see(line)
			if strings.HasPrefix(line, "not allowed: ") {
				t.Fatalf("seat %d: a move refused: %s\n%s", seat, line, p.out.String())
			}
			if !strings.HasPrefix(line, "your move (card ") {
				continue
			}
			prompts++
			second := strings.HasPrefix(line, "your move (card 2")
			switch {
			case len(bad) > 0:
				p.send(bad[0].line)
				if l, _ := p.next(); l != bad[0].reason {
					t.Fatalf("seat %d: %q answered with %q, want %q", seat, bad[0].line, l, bad[0].reason)
				}
				bad = bad[1:]
				continue
			case !tookTaken && r.taken() != "":
				tookTaken = true
				c := r.taken()
				p.send(c)
				if l, _ := p.next(); l != "not allowed: "+c+" has been taken: flip a card on the table" {
					t.Fatalf("seat %d: the taken card %s answered with %q", seat, c, l)
				}
				continue
			}
			p.send(r.move(second))
		}
		if code := p.wait(); code != exitOK {
			t.Fatalf("seat %d: exit %d: %s\n%s", seat, code, p.stderr.String(), p.out.String())
		}
		out := p.out.String()
		// With seed 7, daring takes a pair before the person's second turn from seat 0.
		if prompts < 4 || len(bad) > 0 || seat == 0 && !tookTaken {
			t.Errorf("seat %d: %d prompts, %d bad lines not sent, a taken card tried: %v:\n%s", seat, prompts, len(bad), tookTaken, out)
		}
		if !strings.Contains(out, "\nrecord written to memsim-game-7.jsonl\n") {
			t.Errorf("seat %d: no record written to memsim-game-7.jsonl:\n%s", seat, out)
		}
		if !strings.HasPrefix(out, "memsim play: 4 pairs, pass never, seed 7 (--seed 7 deals this game again), configuration default\n") {
			t.Errorf("seat %d: the header:\n%s", seat, out)
		}
		if !strings.Contains(out, "memory: daring (seat "+strconv.Itoa(1-seat)+", perfect memory) remembers ") {
			t.Errorf("seat %d: --show-memory shows no memory:\n%s", seat, out)
		}
		if strings.Contains(out, "\x1b") {
			t.Errorf("seat %d: an escape sequence in line mode:\n%q", seat, out)
		}
		checkRecord(t, filepath.Join(dir, "memsim-game-7.jsonl"), seat, out, true)
	}
}

// The input ends in the middle of a game: memsim play exits 1 saying the game was not finished,
// and the record holds the moves made.
func TestPlayEndOfInputMidGame(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	rec := filepath.Join(dir, "game.jsonl")
	p := startPlay(t, dir, "--against", "daring", "--pairs", "3", "--seed", "7", "--record", rec)
	for {
		line, ok := p.next()
		if !ok {
			t.Fatalf("no prompt: %s", p.stderr.String())
		}
		if strings.HasPrefix(line, "your move (card 1") {
			break
		}
	}
	p.send("a1")
	for {
		line, _ := p.next()
		if strings.HasPrefix(line, "your move (card 2") {
			break
		}
	}
	p.in.Close()
	code := p.wait()
	want := "memsim play: the input ended after 0 turns: the game was not finished; its record is in " + rec + "\n"
	if code != exitError || p.stderr.String() != want {
		t.Errorf("exit %d, stderr %q; want exit 1 and %q", code, p.stderr.String(), want)
	}
	if g := checkRecord(t, rec, 0, p.out.String(), false); len(g.Moves) != 1 {
		t.Errorf("%d moves recorded, want 1", len(g.Moves))
	}
}

// quit ends the game at once, and SIGINT while memsim play waits for the person interrupts it:
// both exit 1 with the record of the unfinished game.
func TestPlayQuitAndInterrupt(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ name, want string }{
		{"quit", "memsim play: you quit after 0 turns: the game was not finished; its record is in "},
		{"SIGINT", "memsim play: interrupted after 0 turns: the game was not finished; its record is in "},
	} {
		dir := t.TempDir()
		rec := filepath.Join(dir, "game.jsonl")
		p := startPlay(t, dir, "--against", "daring", "--pairs", "3", "--seed", "7", "--record", rec)
		for {
			line, ok := p.next()
			if !ok {
				t.Fatalf("%s: no prompt: %s", tt.name, p.stderr.String())
			}
			if strings.HasPrefix(line, "your move (card 1") {
				break
			}
		}
		if tt.name == "quit" {
			p.send("quit")
		} else if err := p.cmd.Process.Signal(syscall.SIGINT); err != nil {
			t.Fatal(err)
		}
		if code := p.wait(); code != exitError || p.stderr.String() != tt.want+rec+"\n" {
			t.Errorf("%s: exit %d, stderr %q; want exit 1 and %q", tt.name, code, p.stderr.String(), tt.want+rec)
		}
		checkRecord(t, rec, 0, p.out.String(), false)
	}
}

// ---------------------------------------------------------------------------------------------
// Raw mode, on a pseudo-terminal.

// ptyProcess is memsim play run on a pseudo-terminal.
type ptyProcess struct {
	t         *testing.T
	cmd       *exec.Cmd
	ptmx, tty *os.File
	out       chan []byte // what the process writes, as it comes
	seen      []byte
	done      chan struct{}
	before    *unix.Termios // the terminal's settings before the process started
	after     *unix.Termios // and once it exited
}

// startPlayOnPTY starts this test binary as memsim play with args on a new pseudo-terminal, or
// skips the test when there is none.
func startPlayOnPTY(t *testing.T, args ...string) *ptyProcess {
	t.Helper()
	if _, err := os.Stat("/dev/ptmx"); err != nil {
		t.Skipf("no pseudo-terminals here (/dev/ptmx: %v)", err)
	}
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	if err := pty.Setsize(ptmx, &pty.Winsize{Rows: 40, Cols: 100}); err != nil {
		t.Fatal(err)
	}
	p := &ptyProcess{t: t, ptmx: ptmx, tty: tty, out: make(chan []byte, 1024), done: make(chan struct{})}
	p.cmd = exec.Command(os.Args[0], append([]string{"play"}, args...)...)
	p.cmd.Dir = t.TempDir()
	p.cmd.Env = append(os.Environ(), "MEMSIM_RUN_MAIN=1", "TERM=xterm")
	p.cmd.Stdin, p.cmd.Stdout, p.cmd.Stderr = tty, tty, tty
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	p.before = p.termios()
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := ptmx.Read(buf)
			if n > 0 {
				p.out <- slices.Clone(buf[:n])
			}
			if err != nil {
				close(p.out)
				return
			}
		}
	}()
	go func() {
		p.cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() {
		p.cmd.Process.Kill()
		<-p.done
		ptmx.Close()
		tty.Close()
	})
	return p
}

// termios returns the terminal's settings.
func (p *ptyProcess) termios() *unix.Termios {
	p.t.Helper()
	st, err := unix.IoctlGetTermios(int(p.tty.Fd()), unix.TCGETS)
	if err != nil {
		p.t.Fatal(err)
	}
	return st
}

// screen returns what the process drew since it last cleared the screen, line by line.
func (p *ptyProcess) screen() []string {
	s := string(p.seen)
	if i := strings.LastIndex(s, "\x1b[H\x1b[2J"); i >= 0 {
		s = s[i+len("\x1b[H\x1b[2J"):]
	}
	return strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
}

// promptKey identifies the question a screen asks (its board without the cursor, the turn, the
// reason of a refusal, the prompt), or "" for a screen that asks nothing yet.
func promptKey(screen []string) string {
	last := strings.TrimRight(screen[len(screen)-1], " ")
	if !strings.HasPrefix(last, "your move (card ") || !strings.HasSuffix(last, "):") {
		return ""
	}
	return strings.NewReplacer("[", " ", "]", " ").Replace(strings.Join(screen, "\n"))
}

// waitPrompt reads what the process draws until it asks a question other than the one of key,
// and returns its screen and key; or nil when the process exits.
func (p *ptyProcess) waitPrompt(key string) ([]string, string) {
	p.t.Helper()
	timeout := time.After(playWait)
	for {
		if s := p.screen(); promptKey(s) != "" && promptKey(s) != key {
			return s, promptKey(s)
		}
		select {
		case b, ok := <-p.out:
			if !ok {
				return nil, ""
			}
			p.seen = append(p.seen, b...)
		case <-p.done:
			return nil, ""
		case <-timeout:
			p.t.Fatalf("no new question for %v; the screen:\n%s", playWait, strings.Join(p.screen(), "\n"))
		}
	}
}

// send types keys.
func (p *ptyProcess) send(keys string) {
	p.t.Helper()
	if _, err := p.ptmx.WriteString(keys); err != nil {
		p.t.Fatal(err)
	}
}

// exit waits for the process to exit, reads the terminal's settings then, and reads what is
// left of the output (all of it once the terminal is closed); it returns the exit status.
func (p *ptyProcess) exit() int {
	p.t.Helper()
	select {
	case <-p.done:
	case <-time.After(playWait):
		p.t.Fatalf("still running %v later; the screen:\n%s", playWait, strings.Join(p.screen(), "\n"))
	}
	p.after = p.termios()
	p.tty.Close()
	timeout := time.After(playWait)
	for {
		select {
		case b, ok := <-p.out:
			if !ok {
				return p.cmd.ProcessState.ExitCode()
			}
			p.seen = append(p.seen, b...)
		case <-timeout:
			p.t.Fatalf("the output did not end %v after the process exited", playWait)
		}
	}
}

// sameTerminal reports whether two settings of a terminal are the same in their modes.
func sameTerminal(a, b *unix.Termios) bool {
	return a.Iflag == b.Iflag && a.Oflag == b.Oflag && a.Cflag == b.Cflag && a.Lflag == b.Lflag
}

// On a terminal, memsim play redraws the board in raw mode and reads keys: a game is played to
// its end by typing coordinates and by the arrows, and the terminal is as it was afterwards.
func TestPlayOnATerminal(t *testing.T) {
	t.Parallel()
	p := startPlayOnPTY(t, "--against", "daring", "--pairs", "3", "--seed", "7", "--delay", "0", "--show-memory", "--record", "game.jsonl")
	before := p.before
	if before.Lflag&unix.ICANON == 0 {
		t.Fatal("a new pseudo-terminal is not in canonical mode")
	}
	r := newReader()
	screen, key := p.waitPrompt("")
	if st := p.termios(); st.Lflag&(unix.ICANON|unix.ECHO) != 0 {
		t.Errorf("waiting for a key, the terminal is not in raw mode: lflag %#x", st.Lflag)
	}
	// The first card by the arrows: right, down, left; then Enter flips a2.
	p.send("\x1b[C\x1b[B\x1b[D\r")
	screen, key = p.waitPrompt(key)
	if !slices.ContainsFunc(screen, func(l string) bool { return strings.HasPrefix(l, "you flip a2 ") }) {
		t.Fatalf("the arrows and Enter did not flip a2:\n%s", strings.Join(screen, "\n"))
	}
	for moves := 0; screen != nil; moves++ {
		if moves > 100 {
			t.Fatal("more than 100 moves in a game of 3 pairs")
		}
		for _, l := range screen {
			r.see(l)
		}
		p.send(r.move(strings.HasPrefix(screen[len(screen)-1], "your move (card 2")) + "\r")
		screen, key = p.waitPrompt(key)
	}
	if code := p.exit(); code != exitOK {
		t.Fatalf("exit %d; the screen:\n%s", code, strings.Join(p.screen(), "\n"))
	}
	if !sameTerminal(before, p.after) {
		t.Errorf("the terminal is not restored: lflag %#x, was %#x", p.after.Lflag, before.Lflag)
	}
	out := strings.Join(p.screen(), "\n")
	if !strings.Contains(out, "\nrecord written to game.jsonl\n") {
		t.Fatalf("the end of the game:\n%s", out)
	}
	checkRecord(t, filepath.Join(p.cmd.Dir, "game.jsonl"), 0, out, true)
}

// On a terminal, q then y quits, and Ctrl-C interrupts: either way the terminal is restored and
// memsim play exits 1 with the record of the unfinished game.
func TestPlayOnATerminalQuitAndCtrlC(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ keys, want string }{
		{"qy", "memsim play: you quit after 0 turns: the game was not finished; its record is in game.jsonl"},
		{"qnqy", "memsim play: you quit after 0 turns: the game was not finished; its record is in game.jsonl"},
		{"\x03", "memsim play: interrupted after 0 turns: the game was not finished; its record is in game.jsonl"},
	} {
		p := startPlayOnPTY(t, "--against", "daring", "--pairs", "3", "--seed", "7", "--record", "game.jsonl")
		before := p.before
		p.waitPrompt("")
		p.send(tt.keys)
		if code := p.exit(); code != exitError {
			t.Errorf("keys %q: exit %d, want 1", tt.keys, code)
		}
		if out := string(p.seen); !strings.Contains(out, tt.want) {
			t.Errorf("keys %q: the output does not say %q:\n%q", tt.keys, tt.want, out)
		}
		if !sameTerminal(before, p.after) {
			t.Errorf("keys %q: the terminal is not restored: lflag %#x, was %#x", tt.keys, p.after.Lflag, before.Lflag)
		}
		checkRecord(t, filepath.Join(p.cmd.Dir, "game.jsonl"), 0, "", false)
	}
}

// sessionLine is the first line of a documented memsim play session: the lines given, then the
// command.
var sessionLine = regexp.MustCompile(`^\$ printf '([^']*)' \| memsim (play .*)$`)

// The sessions of memsim play that docs/cli.md shows (a fenced block that begins "$ printf
// '...' | memsim play ...") print what the documentation says, given those lines.
func TestPlayDocSession(t *testing.T) {
	t.Parallel()
	sessions := 0
	for _, f := range fences(readLines(t, "../../docs/cli.md")) {
		if len(f.lines) == 0 {
			continue
		}
		m := sessionLine.FindStringSubmatch(f.lines[0])
		if m == nil {
			continue
		}
		sessions++
		cmd := exec.Command(os.Args[0], strings.Fields(m[2])...)
		cmd.Dir = t.TempDir()
		cmd.Env = append(os.Environ(), "MEMSIM_RUN_MAIN=1")
		cmd.Stdin = strings.NewReader(strings.ReplaceAll(m[1], `\n`, "\n"))
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("docs/cli.md:%d: %v: %s", f.first, err, stderr.String())
			}
		case <-time.After(playWait):
			cmd.Process.Kill()
			<-done
			t.Fatalf("docs/cli.md:%d: still running after %v", f.first, playWait)
		}
		if want := strings.Join(f.lines[1:], "\n") + "\n"; stdout.String() != want {
			t.Errorf("docs/cli.md:%d: output differs:\n--- got\n%s--- documented\n%s", f.first, stdout.String(), want)
		}
	}
	if sessions == 0 {
		t.Error("docs/cli.md shows no memsim play session")
	}
}

// TestPlayWithTheCoach plays a whole game against win-optimal with --coach over a pipe and
// checks the coach against two other routes: its first advice, on the fresh board of 4 pairs,
// values a new card as memsim solve values the better of daring and safe in (n=4, j=4); and each
// "your last move ... cost" it gives is the cost memsim review finds for that move in the game's
// record.
func TestPlayWithTheCoach(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := startPlay(t, dir, "--against", "win-optimal", "--pairs", "4", "--seed", "3", "--coach", "--record", "game.jsonl")
	r := newReader()
	var advice []string
	for {
		line, ok := p.next()
		if !ok {
			break
		}
		r.see(line)
		if a, ok := strings.CutPrefix(line, "coach: "); ok {
			advice = append(advice, a)
		}
		if strings.HasPrefix(line, "your move (card ") {
			p.send(r.move(strings.HasPrefix(line, "your move (card 2")))
		}
	}
	if code := p.wait(); code != exitOK {
		t.Fatalf("exit %d: %s\n%s", code, p.stderr.String(), p.out.String())
	}
	if len(advice) < 3 {
		t.Fatalf("%d lines of advice:\n%s", len(advice), p.out.String())
	}
	// The first advice: a new card, worth the better of daring and safe.
	out, _, _ := runArgs(t, "solve", "--pairs", "4", "--float")
	daring := regexp.MustCompile(`daring: +([0-9.]+) pairs`).FindStringSubmatch(out)
	if daring == nil {
		t.Fatalf("no value of daring in:\n%s", out)
	}
	v, _ := strconv.ParseFloat(daring[1], 64)
	if want := fmt.Sprintf("first card, expected pairs from this turn on and win score: a new card %.4f pairs", v); !strings.HasPrefix(advice[0], want) {
		t.Errorf("the first advice %q, want it to begin %q", advice[0], want)
	}
	// The costs of the person's moves, as the review finds them in the record.
	rv, stderr, code := runArgs(t, "review", "--json", filepath.Join(dir, "game.jsonl"))
	if code != exitOK {
		t.Fatalf("review: exit %d: %s", code, stderr)
	}
	var rj review.JSON
	if err := json.Unmarshal([]byte(rv), &rj); err != nil {
		t.Fatal(err)
	}
	costs := map[string]string{} // "turn N, card" -> "pairs and win"
	for _, d := range rj.Decisions {
		if d.Seat != 0 {
			continue
		}
		card := "first card"
		if d.Card == 2 {
			card = "second card"
		}
		costs[fmt.Sprintf("turn %d, %s: %s)", d.Turn+1, card, d.Chosen)] = fmt.Sprintf("%.4f %.4f", d.Cost.Pairs.Float, d.Cost.Win.Float)
	}
	seen := 0
	for _, a := range advice {
		m := regexp.MustCompile(`^your last move \((turn \d+, [a-z]+ card: [^)]+\)) (?:cost ([0-9.]+) pairs and ([0-9.]+) win|was the best)`).FindStringSubmatch(a)
		if m == nil {
			continue
		}
		seen++
		got := "0.0000 0.0000"
		if m[2] != "" {
			got = m[2] + " " + m[3]
		}
		if want, ok := costs[m[1]]; !ok || want != got {
			t.Errorf("the coach says %q; the review of the record: %q", a, want)
		}
	}
	if seen == 0 {
		t.Errorf("the coach never said what a move cost:\n%s", strings.Join(advice, "\n"))
	}
}
