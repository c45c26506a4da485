package external

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"memsim/sim"
	"memsim/sim/rules"
	"memsim/strategies/external/protocol"
)

// session is one running player process: its pipes and its handshake. The engines of up to
// Command.GamesInFlight seats share it, each with one game in flight. A session of one game in
// flight is read by the engine itself, with a deadline: no goroutine stands between a reply and
// the engine. A shared session is read by a goroutine of its own, which hands each reply to the
// seat whose game it answers.
type session struct {
	p     *Player
	cmd   *exec.Cmd
	stdin *os.File
	out   *os.File // the player's stdout
	r     *protocol.Reader
	info  *protocol.Player

	wmu      sync.Mutex // guards w
	w        *protocol.Writer
	nextGame atomic.Int64 // the id of the next game

	pending int64 // unshared: the game of the request in flight, or -1
	greeted bool  // the handshake was read

	mu      sync.Mutex
	waiting map[int64]chan delivery // shared: the seats waiting for a reply, by game
	err     error                   // the first failure: the session is broken
	culprit int64                   // the game whose reply or silence broke it, or -1
	dead    chan struct{}           // closed at the first failure
	exited  chan struct{}           // closed when the process has exited, been reaped and its group killed
	waitErr error
	logged  chan struct{} // closed when the process's stderr has been copied to the log

	gmu       sync.Mutex // guards groupGone
	groupGone bool       // the process has exited and its group was killed: never again
}

// delivery is one message of the player, with the number and the text of its line.
type delivery struct {
	m    protocol.Message
	line int
	text []byte
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
	s := &session{p: p, cmd: cmd, stdin: inW, out: outR, pending: noGame, culprit: noGame,
		dead: make(chan struct{}), exited: make(chan struct{}), logged: make(chan struct{})}
	dw, err := newDeadlineWriter(inW, p.writeTimeout())
	if err != nil {
		closeAll(inW, outR, errR)
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return nil, err
	}
	s.w = protocol.NewWriter(dw)
	s.r = protocol.NewReader(outR, protocol.FromPlayer)
	go func() {
		// What the process started goes with it: its group is killed once it exits, while its
		// id is still taken where the system lets memsim wait without reaping, and no one kills
		// the group after.
		early := awaitExit(cmd.Process.Pid)
		if early {
			s.endGroup()
		}
		s.waitErr = cmd.Wait()
		if !early {
			s.endGroup()
		}
		close(s.exited)
	}()
	go func() {
		p.logs.copy(errR)
		close(s.logged)
	}()
	// Abort reaches a process making its handshake.
	p.mu.Lock()
	closed := p.closed
	if !closed {
		p.handshaking[s] = true
	}
	p.mu.Unlock()
	if closed {
		s.kill()
		return nil, errors.New("closed")
	}
	err = s.handshake()
	p.mu.Lock()
	delete(p.handshaking, s)
	p.mu.Unlock()
	if err != nil {
		s.kill()
		return nil, err
	}
	if p.cmd.gamesInFlight() > 1 {
		s.waiting = map[int64]chan delivery{}
		if err := s.out.SetReadDeadline(time.Time{}); err != nil {
			s.kill()
			return nil, err
		}
		go s.dispatch()
	}
	return s, nil
}

// closeAll closes files, ignoring errors: they are pipe ends no longer needed.
func closeAll(fs ...*os.File) {
	for _, f := range fs {
		f.Close()
	}
}

// handshake sends hello and the options, and reads the player's answer in between.
func (s *session) handshake() error {
	p := s.p
	if err := s.writeFailed(s.w.Write(&protocol.Hello{Protocol: protocol.Version})); err != nil {
		return fmt.Errorf("handshake: %w", err)
	}
	if err := s.flush(); err != nil {
		return fmt.Errorf("handshake: %w", err)
	}
	d, err := s.next(p.cmd.handshake(), func() error {
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
	if err := checkVariants(info, p.cmd.Variant); err != nil {
		return err
	}
	s.info = info
	values := p.cmd.Options
	if values == nil {
		values = map[string]any{}
	}
	if err := s.writeFailed(s.w.Write(&protocol.Options{Values: values})); err != nil {
		return fmt.Errorf("options: %w", err)
	}
	return nil // the options go out with the first game's messages
}

// checkVariants refuses a player that does not declare every rule of the variant v in which the
// games differ from the standard one.
func checkVariants(info *protocol.Player, v rules.Variant) error {
	for _, rule := range variantRules(v).VariantRules() {
		if !slices.Contains(info.Variants, rule) {
			return fmt.Errorf("handshake: the games are of %s, and the player (%s %s) does not declare the rule variant %q (its variants: %s): a player declares the variants it plays in its handshake's \"variants\" (docs/protocol.md)",
				v, info.Name, info.Version, rule, variantList(info.Variants))
		}
	}
	return nil
}

// variantList names the variants a player declares, or "none".
func variantList(vs []string) string {
	if len(vs) == 0 {
		return "none"
	}
	return strings.Join(vs, ", ")
}

// variantRules returns the protocol's rules fields of variant v (the standard rules written as
// none).
func variantRules(v rules.Variant) protocol.Rules {
	r := protocol.Rules{TurnLimit: v.TurnLimit}
	if c := v.CopiesOf(); c != rules.DefaultCopies {
		r.Copies = c
	}
	if v.Flips != rules.FlipsSequential {
		r.Flips = v.Flips.String()
	}
	return r
}

// next reads the player's next message, within timeout (late gives the error otherwise), and
// checks that it may come now. The lines of a batch (those already buffered) are all read with
// it, so that a second reply to a request, written with the first, is caught. Any error breaks
// the session.
func (s *session) next(timeout time.Duration, late func() error) (delivery, error) {
	if err := s.broken(); err != nil {
		return delivery{}, err
	}
	if err := s.out.SetReadDeadline(time.Now().Add(timeout)); err != nil {
		return delivery{}, s.fail(err)
	}
	var d delivery
	for first := true; first || s.r.HasLine(); first = false {
		m, err := s.r.Read()
		switch {
		case errors.Is(err, os.ErrDeadlineExceeded):
			return delivery{}, s.failIn(s.pending, timedOut(late()))
		case errors.Is(err, io.EOF):
			return delivery{}, s.fail(s.ended("closed its output"))
		case err != nil:
			return delivery{}, s.fail(illegal(fmt.Errorf("%w%s", err, quote(s.r.Text()))))
		}
		if err := s.accept(m, s.r.Line(), s.r.Text()); err != nil {
			return delivery{}, s.failIn(replyGame(m), illegal(err))
		}
		if first {
			d = delivery{m: m, line: s.r.Line(), text: bytes.Clone(s.r.Text())}
		}
	}
	return d, nil
}

// dispatch reads a shared session's replies and hands each to the seat waiting for it, until the
// output ends or breaks the protocol. The lines of a batch (those already buffered) are all
// checked before any is handed on, so that a second reply to a request, written with the first,
// is caught.
func (s *session) dispatch() {
	type handoff struct {
		ch chan delivery
		d  delivery
	}
	var batch []handoff
	for {
		batch = batch[:0]
		for first := true; first || s.r.HasLine(); first = false {
			m, err := s.r.Read()
			switch {
			case errors.Is(err, io.EOF):
				s.fail(s.ended("closed its output"))
				return
			case err != nil:
				s.fail(illegal(fmt.Errorf("%w%s", err, quote(s.r.Text()))))
				return
			}
			if _, ok := m.(*protocol.Player); ok {
				s.fail(illegal(fmt.Errorf("line %d: a second handshake (player)", s.r.Line())))
				return
			}
			game := replyGame(m)
			s.mu.Lock()
			ch, ok := s.waiting[game]
			delete(s.waiting, game)
			s.mu.Unlock()
			if !ok {
				s.failIn(s.ours(game), illegal(fmt.Errorf("line %d: a reply for game %d, which has no request in flight%s", s.r.Line(), game, quote(s.r.Text()))))
				return
			}
			batch = append(batch, handoff{ch: ch, d: delivery{m: m, line: s.r.Line(), text: bytes.Clone(s.r.Text())}})
		}
		for _, h := range batch {
			h.ch <- h.d
		}
	}
}

// accept checks that a message of the player may come now: the handshake first and once, then
// replies to the request in flight only.
func (s *session) accept(m protocol.Message, line int, text []byte) error {
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

// replyGame returns the game a player's reply is for, or noGame.
func replyGame(m protocol.Message) int64 {
	if g, ok := protocol.ReplyGame(m); ok {
		return g
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
		return crashed(fmt.Errorf("%s while still running%s", what, s.p.logs.hint()))
	}
	if s.waitErr != nil {
		return crashed(fmt.Errorf("exited (%v)%s", s.waitErr, s.p.logs.hint()))
	}
	return crashed(fmt.Errorf("exited (status 0)%s", s.p.logs.hint()))
}

// fail breaks the session with err, if it is not broken yet, stops the process, and returns the
// session's failure.
func (s *session) fail(err error) error { return s.failIn(noGame, err) }

// failIn is fail for a failure of game's reply or silence: the seats of the other games the
// session plays are told that another game stopped them (see errorFor).
func (s *session) failIn(game int64, err error) error {
	s.mu.Lock()
	first := s.err == nil
	if first {
		s.err, s.culprit = err, game
		close(s.dead)
	}
	err = s.err
	s.mu.Unlock()
	if first {
		s.killGroup()
	}
	return err
}

// ours returns game if the session handed that id out, else noGame: a reply for a game that was
// never begun is no game's fault in particular.
func (s *session) ours(game int64) int64 {
	if game >= 0 && game < s.nextGame.Load() {
		return game
	}
	return noGame
}

// errorFor returns the session's failure as the seat playing game sees it: its own, or, when the
// failure was another game's, sim.ErrStopped with that failure.
func (s *session) errorFor(game int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err == nil || s.culprit == noGame || s.culprit == game {
		return s.err
	}
	return fmt.Errorf("%w (its game %d): %v", sim.ErrStopped, s.culprit, s.err)
}

// killGroup kills the process's group, unless the process has exited (its group was killed then).
func (s *session) killGroup() {
	s.gmu.Lock()
	defer s.gmu.Unlock()
	if !s.groupGone {
		killGroup(s.cmd)
	}
}

// endGroup kills the process's group for the last time, once the process has exited.
func (s *session) endGroup() {
	s.gmu.Lock()
	defer s.gmu.Unlock()
	killGroup(s.cmd)
	s.groupGone = true
}

// broken returns the session's failure, if any.
func (s *session) broken() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// flush writes the buffered messages.
func (s *session) flush() error {
	return s.writeFailed(s.w.Flush())
}

// writeFailed turns the failure of a write to the player's input into the session's failure:
// the player stopped reading, or exited (with its status). A nil err stays nil.
func (s *session) writeFailed(err error) error {
	if err == nil {
		return nil
	}
	if err := s.broken(); err != nil {
		return err // memsim stopped it
	}
	if errors.Is(err, os.ErrDeadlineExceeded) {
		err = timedOut(fmt.Errorf("it did not read its input within %v", s.p.writeTimeout()))
	} else {
		err = s.ended("stopped reading its input")
	}
	return s.fail(err)
}

// ask sends the move request req of a seat and returns the player's reply, checked against it;
// replies is the seat's own channel, for a shared session.
func (s *session) ask(req *protocol.Move, replies chan delivery) (protocol.Message, error) {
	if err := s.errorFor(req.Game); err != nil {
		return nil, err
	}
	if s.waiting != nil {
		s.mu.Lock()
		s.waiting[req.Game] = replies
		s.mu.Unlock()
	} else {
		if err := s.quiet(); err != nil {
			return nil, err
		}
		s.pending = req.Game
	}
	s.wmu.Lock()
	err := s.writeFailed(s.w.Write(req))
	if err == nil {
		err = s.flush()
	}
	s.wmu.Unlock()
	if err != nil {
		return nil, s.errorFor(req.Game) // another game's failure may have come first
	}
	timeout := time.Duration(req.DeadlineMS) * time.Millisecond
	late := func() error {
		return fmt.Errorf("no reply to the request for card %d within %v", req.Card, timeout)
	}
	var d delivery
	if s.waiting != nil {
		d, err = s.await(req.Game, replies, timeout, late)
	} else {
		d, err = s.next(timeout, late)
	}
	if err != nil {
		return nil, err
	}
	if err := protocol.CheckReply(req, d.m); err != nil {
		return nil, s.failIn(req.Game, illegal(fmt.Errorf("line %d: %s: %w%s", d.line, d.m.Type(), err, quote(d.text))))
	}
	return d.m, nil
}

// quiet checks, before a request of a session of one game in flight, that the player wrote
// nothing since its last reply: a reply written late, with no request in flight, is an error
// rather than the answer to the next request.
func (s *session) quiet() error {
	if s.r.Buffered() == 0 && !readable(s.out) {
		return nil
	}
	_, err := s.next(s.p.cmd.timePerMove(), func() error {
		return illegal(errors.New("part of a line written with no request in flight"))
	})
	if err == nil {
		err = illegal(errors.New("a line written with no request in flight")) // accept refuses it first
	}
	return s.fail(err)
}

// await waits for the reply a shared session's reader hands to a seat.
func (s *session) await(game int64, replies chan delivery, timeout time.Duration, late func() error) (delivery, error) {
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case d := <-replies:
		return d, nil
	case <-s.dead:
		return delivery{}, s.errorFor(game)
	case <-t.C:
		s.failIn(game, timedOut(late()))
		return delivery{}, s.errorFor(game)
	}
}

// newGame returns the id of a new game of the session.
func (s *session) newGame() int64 {
	return s.nextGame.Add(1) - 1
}

// send buffers a message about a game; it goes out with the next request or flush.
func (s *session) send(game int64, m protocol.Message) error {
	if err := s.errorFor(game); err != nil {
		return err
	}
	s.wmu.Lock()
	err := s.w.Write(m) // a full buffer is written out
	s.wmu.Unlock()
	if err != nil {
		s.writeFailed(err)
		return s.errorFor(game) // another game's failure may have come first
	}
	return nil
}

// close ends the session: it closes the player's input, gives it a moment to exit, and stops
// its process group.
func (s *session) close() {
	if s.broken() == nil {
		s.wmu.Lock()
		_ = s.w.Flush()
		s.wmu.Unlock()
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
	s.killGroup()
	s.stdin.Close()
	<-s.exited
	s.out.Close()
	// The last of its stderr reaches the log, unless something it started and left holds stderr.
	select {
	case <-s.logged:
	case <-time.After(closeGrace):
	}
}

// errClosed is the failure of a session memsim closed.
var errClosed = errors.New("the player process was stopped")
