package external_test

import (
	"bufio"
	"bytes"
	"io"
	"os/exec"
	"sync/atomic"
	"testing"

	"memsim/sim"
	"memsim/sim/rules"
	"memsim/strategies/external"
)

// BenchmarkProcessRoundTrip plays games of a process running the Go client's Daring player against
// a daring table at 12 pairs with perfect memory, on one worker, one request at a time, and
// reports the time per decision (each card the process chooses): the round trip of a request,
// its reply and the events before it, through the pipes, the protocol on both sides and the
// engine.
func BenchmarkProcessRoundTrip(b *testing.B) {
	ext, err := external.New("ext", external.Command{Argv: testCommand("client-daring")})
	if err != nil {
		b.Fatal(err)
	}
	defer ext.Close()
	tb, err := rules.FixedChoiceTable(rules.PolicyDaring, 12, 0)
	if err != nil {
		b.Fatal(err)
	}
	counter := &countingStrategy{}
	m := &sim.Match{Setup: sim.Setup{Pairs: 12, Players: []sim.Player{
		{Name: "client-daring", NewStrategy: func() sim.Strategy { counter.s = ext.Strategy(); return counter }},
		{Name: "daring", Table: tb}}}, Orders: [][]int{{0, 1}}, Deals: int64(b.N), Seed: 1}
	b.ResetTimer()
	if _, err := m.Play(b.Context(), 1, nil); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(counter.flips), "ns/decision")
}

// countingStrategy counts the decisions of the strategy it wraps.
type countingStrategy struct {
	s     sim.Strategy
	flips int
	total *atomic.Int64 // when not nil, counts the decisions of every seat
}

func (c *countingStrategy) Flip(v *sim.View) sim.Move {
	c.flips++
	if c.total != nil {
		c.total.Add(1)
	}
	return c.s.Flip(v)
}
func (c *countingStrategy) BeginGame(info sim.GameInfo) error {
	return c.s.(sim.Observer).BeginGame(info)
}
func (c *countingStrategy) Observe(e sim.Event)          { c.s.(sim.Observer).Observe(e) }
func (c *countingStrategy) EndGame(o *sim.Outcome) error { return c.s.(sim.Observer).EndGame(o) }
func (c *countingStrategy) Close() error                 { return c.s.(interface{ Close() error }).Close() }

// BenchmarkProcessInFlight plays games of a process running the Go client's Daring player
// against a daring table at 12 pairs with perfect memory, with 32 games in flight in the one
// process (32 workers share it), and reports the decisions per second: the requests come
// together and the client answers those that arrived together in one write. Give it at least
// 32 × 1024 games (-benchtime 65536x) so that every worker has deals to play.
func BenchmarkProcessInFlight(b *testing.B) {
	const inFlight = 32
	ext, err := external.New("ext", external.Command{Argv: testCommand("client-daring"), GamesInFlight: inFlight})
	if err != nil {
		b.Fatal(err)
	}
	defer ext.Close()
	tb, err := rules.FixedChoiceTable(rules.PolicyDaring, 12, 0)
	if err != nil {
		b.Fatal(err)
	}
	var flips atomic.Int64
	m := &sim.Match{Setup: sim.Setup{Pairs: 12, Players: []sim.Player{
		{Name: "client-daring", NewStrategy: func() sim.Strategy { return &countingStrategy{s: ext.Strategy(), total: &flips} }},
		{Name: "daring", Table: tb}}}, Orders: [][]int{{0, 1}}, Deals: int64(b.N), Seed: 1}
	b.ResetTimer()
	if _, err := m.Play(b.Context(), inFlight, nil); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(flips.Load())/b.Elapsed().Seconds(), "decisions/s")
}

// BenchmarkPipeRoundTrip measures the pipes alone, the floor of BenchmarkProcessRoundTrip: the
// bytes of one of its decisions (two flips, a handover and a move request, in one write) to a Go
// process that answers each request line with a reply line at once, in one write, decoding
// nothing; the reply is read back through a bufio.Reader, as the session reads. The time per op is
// one round trip.
func BenchmarkPipeRoundTrip(b *testing.B) {
	argv := testCommand("echo")
	cmd := exec.Command(argv[0], argv[1:]...)
	in, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer cmd.Wait()
	defer in.Close()
	r := bufio.NewReaderSize(out, 64<<10)
	b.ResetTimer()
	for range b.N {
		if _, err := in.Write(echoRequest); err != nil {
			b.Fatal(err)
		}
		if _, err := r.ReadSlice('\n'); err != nil {
			b.Fatal(err)
		}
	}
}

// echoRequest is what the engine writes for a decision of BenchmarkProcessRoundTrip.
var echoRequest = []byte(`{"type":"flip","game":130,"seat":1,"pos":7,"face":3}
{"type":"flip","game":130,"seat":1,"pos":12,"face":9}
{"type":"handover","game":130,"seat":0}
{"type":"move","game":130,"card":1,"legal":[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23],"deadline_ms":1000}
`)

// echo answers each move request line of r with a reply line on w, in one write, decoding
// nothing: the test player "echo".
func echo(r io.Reader, w io.Writer) int {
	in := bufio.NewReaderSize(r, 64<<10)
	reply := []byte(`{"type":"flip","game":130,"pos":7}` + "\n")
	for {
		line, err := in.ReadSlice('\n')
		if err != nil {
			return 0
		}
		if bytes.HasPrefix(line, []byte(`{"type":"move"`)) {
			if _, err := w.Write(reply); err != nil {
				return 1
			}
		}
	}
}
