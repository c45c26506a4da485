package client_test

import (
	"testing"

	"memsim/strategies/external/client"
	"memsim/strategies/external/protocol"
)

// benchRules are the games of the benchmarks: 12 pairs, two seats, both played by the player.
var benchRules = protocol.Rules{Pairs: 12, Seats: 2, Pass: "never", Choices: []string{"daring"}}

// benchMatch plays b.N decisions of Daring against the fake host with inFlight games (so
// inFlight requests) in flight, and reports decisions per second. Each decision is a request, a
// reply and the events that follow it, written and read by both sides.
func benchMatch(b *testing.B, inFlight int) {
	b.ReportAllocs()
	h := match(b, client.Daring{}, benchRules, 4, nil, inFlight, 0, b.N)
	b.ReportMetric(float64(h.moves)/b.Elapsed().Seconds(), "decisions/s")
	b.ReportMetric(0, "ns/op")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(h.moves), "ns/decision")
}

// BenchmarkRoundTrip: one request at a time.
func BenchmarkRoundTrip(b *testing.B) { benchMatch(b, 1) }

// BenchmarkBatched: 256 requests in flight.
func BenchmarkBatched(b *testing.B) { benchMatch(b, 256) }
