package external

import (
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"memsim/strategies/external/protocol"
)

// Conn is a process of a player spoken to directly over the protocol, outside any engine: a
// program that checks a player (memsim engine check) writes the messages it chooses, as many
// requests at once as it likes, and reads the player's messages one by one. The process belongs
// to the player: Player.Close and Player.Kill stop it too.
type Conn struct {
	p *Player
	s *session
}

// Dial starts a new process of the player and makes its handshake; the option values go out with
// the first Flush. An error names the player and what went wrong (no answer to hello within the
// handshake time, a line that breaks the protocol, an option the player does not declare).
func (p *Player) Dial() (*Conn, error) {
	if p.cmd.gamesInFlight() > 1 {
		return nil, fmt.Errorf("%s: a direct connection reads the process itself: it needs one game in flight, not %d", p.describe(), p.cmd.GamesInFlight)
	}
	p.mu.Lock()
	closed := p.closed
	p.mu.Unlock()
	if closed {
		return nil, fmt.Errorf("%s: closed", p.describe())
	}
	s, err := p.startWith(p.cmd.gamesInFlight()) // full: lent to no seat
	if err != nil {
		return nil, err
	}
	return &Conn{p: p, s: s}, nil
}

// Info returns what the player said at its handshake.
func (c *Conn) Info() protocol.Player { return *c.s.info }

// Pid returns the process's id.
func (c *Conn) Pid() int { return c.s.cmd.Process.Pid }

// Write buffers a message to the player; it goes out with the next Flush.
func (c *Conn) Write(m protocol.Message) error {
	if err := c.s.broken(); err != nil {
		return err
	}
	c.s.wmu.Lock()
	defer c.s.wmu.Unlock()
	return c.s.writeFailed(c.s.w.Write(m))
}

// Flush writes the buffered messages to the player's input.
func (c *Conn) Flush() error {
	c.s.wmu.Lock()
	defer c.s.wmu.Unlock()
	return c.s.flush()
}

// Read returns the player's next message, read within timeout, with the number of its line. Any
// error (a line that breaks the protocol, no line in time, the process's exit) stops the process.
func (c *Conn) Read(timeout time.Duration) (protocol.Message, int, error) {
	s := c.s
	if err := s.broken(); err != nil {
		return nil, 0, err
	}
	if err := s.out.SetReadDeadline(time.Now().Add(timeout)); err != nil {
		return nil, 0, s.fail(err)
	}
	m, err := s.r.Read()
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded):
		return nil, 0, s.fail(fmt.Errorf("no line within %v", timeout))
	case errors.Is(err, io.EOF):
		return nil, 0, s.fail(s.ended("closed its output"))
	case err != nil:
		return nil, 0, s.fail(fmt.Errorf("%w%s", err, quote(s.r.Text())))
	}
	return m, s.r.Line(), nil
}

// Err returns the error that stopped the process (a read or write that failed, Close, Kill), or
// nil while it may be spoken to.
func (c *Conn) Err() error { return c.s.broken() }

// Running reports whether the process is still running, and if not how it ended.
func (c *Conn) Running() (bool, error) {
	select {
	case <-c.s.exited:
		return false, c.s.ended("exited")
	default:
		return true, nil
	}
}

// Close ends the process as Player.Close does: its input is closed, it has a moment to exit, and
// then its process group is killed.
func (c *Conn) Close() {
	c.p.mu.Lock()
	delete(c.p.users, c.s)
	c.p.mu.Unlock()
	c.s.close()
}

// Kill stops every process of the player at once (those making their handshake included), as a
// crash would: SIGKILL to its
// process group (the process alone where there are no process groups), without closing its
// input first. It returns their process ids once they are all reaped. The player stays open:
// engines start new processes as they need them.
func (p *Player) Kill() []int {
	all := p.detach(false)
	pids := make([]int, len(all))
	for i, s := range all {
		pids[i] = s.cmd.Process.Pid
	}
	each(all, (*session).kill)
	return pids
}

// Processes returns the ids of the player's running processes, idle or lent to an engine.
func (p *Player) Processes() []int {
	p.mu.Lock()
	defer p.mu.Unlock()
	pids := make([]int, 0, len(p.users))
	for s := range p.users {
		pids = append(pids, s.cmd.Process.Pid)
	}
	return pids
}
