package audit

import (
	"context"
	"testing"

	"memsim/sim/rules"
)

// fixedWins is a Simulator whose lru players win at fixed rates.
type fixedWins struct{ rate, hw [2]float64 }

func (fixedWins) Solitaire(context.Context, int) (float64, float64, float64, float64, error) {
	return 0, 0, 0, 0, nil
}

func (fixedWins) Share(context.Context, string, int, rules.ChoiceSet) (float64, float64, error) {
	return 0, 0, nil
}

func (f fixedWins) LRUWins(context.Context, int, [2]int, int64) ([2]float64, [2]float64, error) {
	return f.rate, f.hw, nil
}

func (f fixedWins) FluctuationGain(context.Context, int, int, int, int64) (float64, float64, error) {
	return f.rate[0], f.hw[0], nil
}

// TK-WIN is judged on the simulated rates: within five points of 80% (by the 95% interval) in
// both seat orders, or not.
func TestPeerWinJudgesTheSimulatedRates(t *testing.T) {
	for _, tc := range []struct {
		rate, hw [2]float64
		want     Verdict
	}{
		{[2]float64{0.80, 0.79}, [2]float64{0.01, 0.01}, Confirmed},
		{[2]float64{0.74, 0.86}, [2]float64{0.02, 0.02}, Confirmed}, // 0.72 .. 0.76 and 0.84 .. 0.88 meet 75-85%
		{[2]float64{0.90, 0.80}, [2]float64{0.01, 0.01}, Refuted},
		{[2]float64{0.80, 0.60}, [2]float64{0.01, 0.01}, Refuted},
	} {
		f := peerWin(context.Background(), fixedWins{tc.rate, tc.hw}, 1000)
		if f.Verdict != tc.want {
			t.Errorf("rates %v ± %v: %s (%s), want %s", tc.rate, tc.hw, f.Verdict, f.Reason, tc.want)
		}
	}
	if f := peerWin(context.Background(), nil, 1000); f.Verdict != Inconclusive {
		t.Errorf("without a simulation: %s", f.Verdict)
	}
}

// TK-FLUCT is judged on the simulated gain's interval against 2 pairs.
func TestPeerFluctuationJudgesTheSimulatedGain(t *testing.T) {
	for _, tc := range []struct {
		gain, hw float64
		want     Verdict
	}{
		{2.5, 0.1, Confirmed},
		{1.5, 0.1, Refuted},
		{2.05, 0.1, Inconclusive},
	} {
		f := peerFluctuation(context.Background(), fixedWins{rate: [2]float64{tc.gain}, hw: [2]float64{tc.hw}}, 1000)
		if f.Verdict != tc.want {
			t.Errorf("gain %v ± %v: %s (%s), want %s", tc.gain, tc.hw, f.Verdict, f.Reason, tc.want)
		}
	}
}
