package external

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"memsim/strategies/external/protocol"
)

// session is one running player process: its pipes, its handshake, and the goroutine that reads
// its output. One engine (one worker's seat) uses a session at a time.
type session struct {
	p     *Player
	cmd   *exec.Cmd
	stdin *os.File
	w     *protocol.Writer
	info  *protocol.Player

	// in carries the player's messages, read and checked by the reader goroutine.
	in chan delivery

	mu       sync.Mutex
	pending  int64 // the game of the request in flight, or -1
	greeted  bool  // the handshake was read
	err      error // the first failure: the session is broken
	dead     chan struct{}
	exited   chan struct{} // closed when the process has exited and been reaped
	waitErr  error
	nextGame int64
	timer    *time.Timer
	eof      atomic.Bool // the player's output ended
}

// delivery is one message of the player, with the number of its line.
type delivery struct {
	m    protocol.Message
	line int
}

// noGame marks that no request is in flight.
const noGame = -1

// start starts a process of p and makes the handshake: hello, the player's answer, the options.
func (p *Player) start() (*session, error) {
	argv := p.cmd.Argv
	cmd := exec.Command(p.path, argv[1:]...)
	cmd.Args[0] = argv[0]
	cmd.Dir = p.cmd.Dir
	ownGroup(cmd)
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		closeAll(inR, inW, outR, outW)
		return nil, err
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	if err := cmd.Start(); err != nil {
		closeAll(inR, inW, outR, outW, errR, errW)
		return nil, fmt.Errorf("starting %s: %w", p.describe(), err)
	}
	closeAll(inR, outW, errW) // the child's ends
	s := &session{p: p, cmd: cmd, stdin: inW, in: make(chan delivery, 1), pending: noGame,
		dead: make(chan struct{}), exited: make(chan struct{})}
	s.w = protocol.NewWriter(&deadlineWriter{f: inW, timeout: p.writeTimeout()})
	go func() {
		s.waitErr = cmd.Wait()
		close(s.exited)
	}()
	go p.logs.copy(errR)
	go s.read(protocol.NewReader(outR, protocol.FromPlayer), outR)
	if err := s.handshake(); err != nil {
		s.kill()
		return nil, err
	}
	return s, nil
}

// closeAll closes files, ignoring errors: they are pipe ends no longer needed.
func closeAll(fs ...*os.File) {
	for _, f := range fs {
		f.Close()
	}
}

// deadlineWriter writes to a pipe, giving every write its own deadline, so that a player that
// stops reading its input is an error rather than a hang.
type deadlineWriter struct {
	f       *os.File
	timeout time.Duration
}

func (d *deadlineWriter) Write(b []byte) (int, error) {
	if err := d.f.SetWriteDeadline(time.Now().Add(d.timeout)); err != nil {
		return 0, err
	}
	return d.f.Write(b)
}

// handshake sends hello and the options, and reads the player's answer in between.
func (s *session) handshake() error {
	p := s.p
	if err := s.w.Write(&protocol.Hello{Protocol: protocol.Version}); err != nil {
		return err
	}
	if err := s.flush(); err != nil {
		return fmt.Errorf("handshake: %w", err)
	}
	d, err := s.wait(p.cmd.handshake(), func() error {
		return fmt.Errorf("handshake: no answer to hello within %v", p.cmd.handshake())
	})
	if err != nil {
		return err
	}
	info, ok := d.m.(*protocol.Player)
	if !ok {
		return fmt.Errorf("handshake: line %d: a %s message, expected the player's handshake (player)", d.line, d.m.Type())
	}
	if err := info.CheckValues(p.cmd.Options); err != nil {
		return fmt.Errorf("options: the player (%s %s) %w", info.Name, info.Version, err)
	}
	if err := p.sameProgram(info); err != nil {
		return err
	}
	s.info = info
	values := p.cmd.Options
	if values == nil {
		values = map[string]any{}
	}
	if err := s.w.Write(&protocol.Options{Values: values}); err != nil {
		return fmt.Errorf("options: %w", err)
	}
	return nil // the options go out with the first game's messages
}

// read reads the player's output until it ends or breaks the protocol, checking that every reply
// answers a request in flight. The lines of a batch (those already buffered) are all checked
// before any is delivered, so that a second reply to a request written with the first is caught.
func (s *session) read(r *protocol.Reader, out *os.File) {
	defer out.Close()
	var batch []delivery
	for {
		batch = batch[:0]
		for first := true; first || r.HasLine(); first = false {
			m, err := r.Read()
			if err != nil {
				if errors.Is(err, io.EOF) {
					s.eof.Store(true)
					s.fail(s.ended("closed its output"))
				} else {
					s.fail(fmt.Errorf("%w%s", err, quote(r.Text())))
				}
				return
			}
			if err := s.accept(m, r.Line(), r.Text()); err != nil {
				s.fail(err)
				return
			}
			batch = append(batch, delivery{m: m, line: r.Line()})
		}
		for _, d := range batch {
			select {
			case s.in <- d:
			case <-s.dead:
				return
			}
		}
	}
}

// accept checks that a message of the player may come now: the handshake first and once, then
// replies to the request in flight only.
func (s *session) accept(m protocol.Message, line int, text []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := m.(*protocol.Player); ok {
		if s.greeted {
			return fmt.Errorf("line %d: a second handshake (player)", line)
		}
		s.greeted = true
		return nil
	}
	game := replyGame(m)
	switch {
	case !s.greeted:
		return fmt.Errorf("line %d: a %s message before its handshake (player)%s", line, m.Type(), quote(text))
	case game != s.pending:
		return fmt.Errorf("line %d: a reply for game %d, which has no request in flight%s", line, game, quote(text))
	}
	s.pending = noGame
	return nil
}

// replyGame returns the game a player's reply is for.
func replyGame(m protocol.Message) int64 {
	switch m := m.(type) {
	case *protocol.Flip:
		return m.Game
	case *protocol.Pass:
		return m.Game
	case *protocol.Choice:
		return m.Game
	}
	return noGame
}

// quote returns ": " and the line, shortened, for an error message.
func quote(line []byte) string {
	const most = 120
	s := strings.ToValidUTF8(string(line), "\uFFFD")
	if len(s) > most {
		s = s[:most] + "…"
	}
	if s == "" {
		return ""
	}
	return fmt.Sprintf(" (the line: %s)", s)
}

// ended describes why the process stopped talking: it exited (with its status), or it closed its
// output while still running.
func (s *session) ended(what string) error {
	select {
	case <-s.exited:
	case <-time.After(200 * time.Millisecond):
		return fmt.Errorf("%s while still running%s", what, s.p.logs.hint())
	}
	if s.waitErr != nil {
		return fmt.Errorf("exited (%v)%s", s.waitErr, s.p.logs.hint())
	}
	return fmt.Errorf("exited (status 0)%s", s.p.logs.hint())
}

// fail breaks the session with err, if it is not broken yet, and stops the process.
func (s *session) fail(err error) {
	s.mu.Lock()
	first := s.err == nil
	if first {
		s.err = err
		close(s.dead)
	}
	s.mu.Unlock()
	if first {
		killGroup(s.cmd)
	}
}

// broken returns the session's failure, if any.
func (s *session) broken() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// flush writes the buffered messages.
func (s *session) flush() error {
	if err := s.w.Flush(); err != nil {
		if errors.Is(err, os.ErrDeadlineExceeded) {
			err = fmt.Errorf("it did not read its input within %v", s.p.writeTimeout())
		} else {
			err = s.ended("stopped reading its input")
		}
		s.fail(err)
		return err
	}
	return nil
}

// wait returns the player's next message, or the session's failure, or late()'s error when
// timeout passes first (the session is then broken).
func (s *session) wait(timeout time.Duration, late func() error) (delivery, error) {
	if s.timer == nil {
		s.timer = time.NewTimer(timeout)
	} else {
		s.timer.Reset(timeout)
	}
	select {
	case d := <-s.in:
		s.timer.Stop()
		return d, nil
	case <-s.dead:
		s.timer.Stop()
		return delivery{}, s.broken()
	case <-s.timer.C:
		if s.eof.Load() {
			// The player closed its output: the reader says why.
			<-s.dead
			return delivery{}, s.broken()
		}
		err := late()
		s.fail(err)
		return delivery{}, s.broken()
	}
}

// ask sends the move request req and returns the player's reply, checked against it.
func (s *session) ask(req *protocol.Move) (protocol.Message, error) {
	s.mu.Lock()
	err := s.err
	s.pending = req.Game
	s.mu.Unlock()
	if err != nil {
		return nil, err
	}
	if err := s.w.Write(req); err != nil {
		return nil, fmt.Errorf("move request: %w", err)
	}
	if err := s.flush(); err != nil {
		return nil, err
	}
	timeout := time.Duration(req.DeadlineMS) * time.Millisecond
	d, err := s.wait(timeout, func() error {
		return fmt.Errorf("no reply to the request for card %d within %v", req.Card, timeout)
	})
	if err != nil {
		return nil, err
	}
	if err := protocol.CheckReply(req, d.m); err != nil {
		err = fmt.Errorf("line %d: %s: %w", d.line, d.m.Type(), err)
		s.fail(err)
		return nil, err
	}
	return d.m, nil
}

// send buffers a message about a game; it goes out with the next request or flush.
func (s *session) send(m protocol.Message) error {
	if err := s.broken(); err != nil {
		return err
	}
	return s.w.Write(m)
}

// close ends the session: it closes the player's input, gives it a moment to exit, and stops
// its process group.
func (s *session) close() {
	if s.broken() == nil {
		_ = s.w.Flush()
	}
	s.stdin.Close()
	select {
	case <-s.exited:
	case <-time.After(closeGrace):
	}
	s.kill()
}

// closeGrace is how long a player has to exit once its input is closed.
const closeGrace = time.Second

// kill stops the process group and waits until the process is reaped.
func (s *session) kill() {
	s.fail(errClosed)
	killGroup(s.cmd)
	s.stdin.Close()
	<-s.exited
}

// errClosed is the failure of a session memsim closed.
var errClosed = errors.New("the player process was stopped")
