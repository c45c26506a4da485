// Package external seats players that run as processes of their own and speak memsim-player/1,
// the line protocol of docs/protocol.md (package protocol is its wire format). A Player is one
// such player as a tournament defines it: its command, its option values and its time per move.
// It starts processes as the engine's workers need them, makes the handshake, and lends each
// process to one engine at a time (Player.Strategy), so that a worker reuses its process across
// games and matches; Close stops them all, with every process they started.
//
// Under a rule variant (Command.Variant) a process must declare the variant's rules in its
// handshake; its games then carry the variant, and a blind turn is one request answered by both
// cards.
//
// A process that breaks the protocol, answers late or illegally, or exits, fails the game it was
// playing with an error naming the process and the offending line, a *sim.Fault of the kind of
// what it did; the session is then stopped and never reused, and the seat's next game starts or
// takes another process.
package external

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"memsim/sim"
	"memsim/sim/rules"
	"memsim/strategies/external/protocol"
)

// Defaults of a Command's times.
const (
	// DefaultTimePerMove is the time a player has to answer a move request.
	DefaultTimePerMove = time.Second
	// DefaultHandshake is the time a player has to answer hello.
	DefaultHandshake = 10 * time.Second
	// MaxLog is the most of a player's stderr kept in its log: the rest is counted, not kept.
	MaxLog = 4 << 20
)

// Command is a player process as a tournament defines it.
type Command struct {
	// Argv is the program and its arguments; the program is looked up in PATH unless it names a
	// file (it contains a slash). Dir is the process's working directory ("": memsim's).
	Argv []string
	Dir  string
	// Options gives values to options the player declares: a bool, a float64 or a string each.
	Options map[string]any
	// TimePerMove is the time allowed for each reply (DefaultTimePerMove when 0); Handshake the
	// time allowed for the handshake (DefaultHandshake when 0).
	TimePerMove, Handshake time.Duration
	// Choices is the player's choice set, told to it in every new_game (the zero value is the
	// full game).
	Choices rules.ChoiceSet
	// Variant is the rule variant of the games the player plays (the zero value is the standard
	// game), told to it in every new_game: a process that does not declare every rule of it in
	// its handshake (protocol.Player.Variants) is refused.
	Variant rules.Variant
	// GamesInFlight is the number of games a process plays at once (1 when 0, at most
	// MaxGamesInFlight): the engines of that many seats share one process, so that a player that
	// answers the requests that arrive together in one batch is not bound by one round trip per
	// card.
	GamesInFlight int
}

// MaxGamesInFlight bounds Command.GamesInFlight.
const MaxGamesInFlight = 1024

// gamesInFlight returns the number of games a process plays at once.
func (c *Command) gamesInFlight() int { return max(c.GamesInFlight, 1) }

// timePerMove returns the time allowed for each reply.
func (c *Command) timePerMove() time.Duration {
	if c.TimePerMove > 0 {
		return c.TimePerMove
	}
	return DefaultTimePerMove
}

// handshake returns the time allowed for the handshake.
func (c *Command) handshake() time.Duration {
	if c.Handshake > 0 {
		return c.Handshake
	}
	return DefaultHandshake
}

// Player is a player process definition and the processes running it.
type Player struct {
	name string
	cmd  Command
	path string // the program, resolved
	logs *logSink

	starting    sync.Mutex // held while a process starts
	mu          sync.Mutex
	users       map[*session]int  // every running process, with the number of seats using it
	handshaking map[*session]bool // the processes making their handshake
	info        *protocol.Player
	closed      bool
}

// New returns the player name (its name in the tournament) that runs c. It refuses a program
// that cannot be found or is not executable; it starts nothing.
func New(name string, c Command) (*Player, error) {
	if len(c.Argv) == 0 || c.Argv[0] == "" {
		return nil, fmt.Errorf("player %q: no command", name)
	}
	path, err := exec.LookPath(c.Argv[0])
	if err != nil {
		return nil, fmt.Errorf("player %q: command %q: %w", name, c.Argv[0], unwrapExec(err))
	}
	if c.Dir != "" {
		if fi, err := os.Stat(c.Dir); err != nil || !fi.IsDir() {
			return nil, fmt.Errorf("player %q: dir %q: not a directory", name, c.Dir)
		}
	}
	if c.GamesInFlight < 0 || c.GamesInFlight > MaxGamesInFlight {
		return nil, fmt.Errorf("player %q: %d games in flight: must be from 1 to %d", name, c.GamesInFlight, MaxGamesInFlight)
	}
	return &Player{name: name, cmd: c, path: path, logs: &logSink{}, users: map[*session]int{}, handshaking: map[*session]bool{}}, nil
}

// unwrapExec shortens exec's errors ("exec: "x": executable file not found in $PATH").
func unwrapExec(err error) error {
	var ee *exec.Error
	if errors.As(err, &ee) {
		return ee.Err
	}
	return err
}

// Name returns the player's name in the tournament.
func (p *Player) Name() string { return p.name }

// Command returns the player's command.
func (p *Player) Command() Command { return p.cmd }

// SetLog sends the stderr of the player's processes to w, at most MaxLog bytes of it; where names
// w in errors ("logs/my-agent.log"). Without it stderr is discarded. Call it before the first
// process starts.
func (p *Player) SetLog(w io.Writer, where string) {
	p.logs = &logSink{w: w, where: where}
}

// describe names the player's command in errors.
func (p *Player) describe() string {
	return fmt.Sprintf("player %q (%s)", p.name, strings.Join(p.cmd.Argv, " "))
}

// writeTimeout is how long a write to the player's input may block: a player busy deciding a
// batch may leave its input unread for a while, but not for ever.
func (p *Player) writeTimeout() time.Duration {
	return max(10*p.cmd.timePerMove(), 10*time.Second)
}

// Hello starts a process, if none is running, and returns its handshake: what the player says it
// is, its view and its options. The process is kept for the engines.
func (p *Player) Hello() (protocol.Player, error) {
	s, err := p.acquire()
	if err != nil {
		return protocol.Player{}, err
	}
	info := *s.info
	p.release(s)
	return info, nil
}

// acquire lends a running process with room for another game in flight, starting one if there is
// none. Processes start one at a time, so that seats arriving together share the first.
func (p *Player) acquire() (*session, error) {
	if s, err := p.lend(); s != nil || err != nil {
		return s, err
	}
	p.starting.Lock()
	defer p.starting.Unlock()
	if s, err := p.lend(); s != nil || err != nil {
		return s, err
	}
	return p.startWith(1)
}

// startWith starts a process and counts it as used by users seats: the player's until Close.
func (p *Player) startWith(users int) (*session, error) {
	s, err := p.start()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.describe(), unclassified(err))
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		go s.kill()
		return nil, fmt.Errorf("%s: closed", p.describe())
	}
	p.users[s] = users
	return s, nil
}

// lend returns a running process with room for another game in flight, if there is one.
func (p *Player) lend() (*session, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil, fmt.Errorf("%s: closed", p.describe())
	}
	var best *session
	for s, n := range p.users {
		// The fullest process with room, so that seats gather on as few processes as they can.
		if n < p.cmd.gamesInFlight() && s.broken() == nil && (best == nil || n > p.users[best]) {
			best = s
		}
	}
	if best != nil {
		p.users[best]++
	}
	return best, nil
}

// release takes a process back from a seat: a sound one waits for the next seat, a broken one is
// stopped.
func (p *Player) release(s *session) {
	p.mu.Lock()
	p.users[s]--
	closed := p.closed
	if s.broken() != nil || closed {
		delete(p.users, s)
	}
	p.mu.Unlock()
	switch {
	case s.broken() != nil:
		s.kill()
	case closed:
		go s.close()
	}
}

// sameProgram checks that a process's handshake matches the first one's: the processes of one
// player are one program.
func (p *Player) sameProgram(info *protocol.Player) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.info == nil {
		p.info = info
		return nil
	}
	if info.Name != p.info.Name || info.Version != p.info.Version || info.View != p.info.View {
		return fmt.Errorf("handshake: %s %s (view %s), where an earlier process of the same command said %s %s (view %s)",
			info.Name, info.Version, info.View, p.info.Name, p.info.Version, p.info.View)
	}
	return nil
}

// Close stops every process of the player: each is told that no more games come (its input
// closes) and given a moment to exit, then its process group is killed. The player starts no
// process after.
func (p *Player) Close() error {
	each(p.detach(true), (*session).close)
	return p.logs.err()
}

// Abort kills every process of the player at once, those making their handshake included, and
// starts no other: every wait for them ends. It is Close for an interrupt.
func (p *Player) Abort() { each(p.detach(true), (*session).kill) }

// detach takes every process away from the player, those making their handshake included, and
// with closed, closes the player to new ones.
func (p *Player) detach(closed bool) []*session {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = p.closed || closed
	all := make([]*session, 0, len(p.users)+len(p.handshaking))
	for s := range p.users {
		all = append(all, s)
	}
	for s := range p.handshaking {
		all = append(all, s)
	}
	p.users, p.handshaking = map[*session]int{}, map[*session]bool{}
	return all
}

// each calls stop on every session at once and waits for them all.
func each(all []*session, stop func(*session)) {
	var wg sync.WaitGroup
	for _, s := range all {
		wg.Add(1)
		go func() {
			defer wg.Done()
			stop(s)
		}()
	}
	wg.Wait()
}

// Strategy returns a new seat of the player for one engine: sim.Player.NewStrategy. The seat
// takes a process when its first game begins and gives it back when the engine is closed.
func (p *Player) Strategy() sim.Strategy { return &seat{p: p} }

// FileHash is the SHA-256 of a file a player's command runs.
type FileHash struct {
	Path, SHA256 string
}

// Files returns the hashes of the files the command names: the program and every argument that
// is a regular file (a script, a model's weights), so that results say which program played.
func (p *Player) Files() ([]FileHash, error) {
	paths := []string{p.path}
	for _, a := range p.cmd.Argv[1:] {
		f := a
		if p.cmd.Dir != "" && !strings.HasPrefix(a, "/") {
			f = p.cmd.Dir + "/" + a
		}
		if fi, err := os.Stat(f); err == nil && fi.Mode().IsRegular() {
			paths = append(paths, f)
		}
	}
	var out []FileHash
	for _, path := range paths {
		sum, err := hashFile(path)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p.describe(), err)
		}
		out = append(out, FileHash{Path: path, SHA256: sum})
	}
	return out, nil
}

// hashFile returns the hex SHA-256 of a file.
func hashFile(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// logSink collects the stderr of a player's processes: at most MaxLog bytes are kept, the rest
// counted.
type logSink struct {
	mu      sync.Mutex
	w       io.Writer
	where   string
	kept    int64
	dropped int64
	werr    error
}

// copy copies one process's stderr into the sink until it ends.
func (l *logSink) copy(r *os.File) {
	defer r.Close()
	buf := make([]byte, 32<<10)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			l.write(buf[:n])
		}
		if err != nil {
			return
		}
	}
}

func (l *logSink) write(b []byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.w == nil || l.werr != nil {
		return
	}
	keep := min(int64(len(b)), MaxLog-l.kept)
	if keep > 0 {
		if _, err := l.w.Write(b[:keep]); err != nil {
			l.werr = err
			return
		}
		l.kept += keep
	}
	if drop := int64(len(b)) - keep; drop > 0 {
		if l.dropped == 0 {
			fmt.Fprintf(l.w, "\n[memsim: this log keeps the first %d bytes of the player's stderr; the rest is counted, not kept]\n", MaxLog)
		}
		l.dropped += drop
	}
}

// err returns the error of writing the log, if any.
func (l *logSink) err() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.werr != nil {
		return fmt.Errorf("writing %s: %w", l.where, l.werr)
	}
	return nil
}

// hint names where the stderr goes, for an error message.
func (l *logSink) hint() string {
	if l.where == "" {
		return ""
	}
	return "; its stderr is in " + l.where
}
