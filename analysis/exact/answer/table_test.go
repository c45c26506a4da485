package answer_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"slices"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/exact/answer"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// writeTable writes a table with write and decodes it into v, checking it is one line of JSON.
func writeTable(t *testing.T, write func(*bytes.Buffer) error, v any) {
	t.Helper()
	var buf bytes.Buffer
	if err := write(&buf); err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(buf.Bytes(), []byte("\n")); n != 1 || !bytes.HasSuffix(buf.Bytes(), []byte("]}\n")) {
		t.Fatalf("%d lines: %.200s", n, buf.String())
	}
	dec := json.NewDecoder(&buf)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatal(err)
	}
}

// The optimal strategy table holds one cell for each state with 1 to N pairs (of the unseen
// singletons asked for), in order of n and then j, each worth what exact.Evaluate gives optimal
// self-play from that state, with a code that agrees with its best choices.
func TestWriteTable(t *testing.T) {
	ctx := context.Background()
	twoChoices, err := rules.ParseChoiceSet("daring,safe")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		m      exact.Model
		maxN   int
		unseen int
	}{
		{exact.Model{}, 6, 0},
		{exact.Model{Singletons: 2}, 4, 1},
		{exact.Model{Singletons: 1}, 4, 0},
		{exact.Model{Memory: rules.Memory{Capacity: 3, Forget: rules.ForgetHandoverUniform}, Choices: twoChoices}, 5, 0},
		{exact.Model{Memory: rules.Memory{Forget: rules.ForgetDecay, Decay: 0.25}}, 4, 0},
	}
	self := exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	for _, tt := range tests {
		var tab answer.Table
		writeTable(t, func(b *bytes.Buffer) error {
			return answer.WriteTable(ctx, b, field.Rat{}, tt.m, tt.maxN, tt.unseen)
		}, &tab)
		want := answer.Model{PairsMax: tt.maxN, Singletons: tt.m.Singletons, Unseen: tt.unseen, Memory: tt.m.Memory.Capacity,
			Pass: tt.m.Pass.String(), Choices: tt.m.Choices.String(), Arithmetic: "exact"}
		if !tt.m.Memory.Perfect() {
			want.Forget = tt.m.Memory.Forget.String()
		}
		if tt.m.Memory.Forget == rules.ForgetDecay {
			want.Decay = "0.25"
		}
		if tab.Model != want {
			t.Errorf("model %+v, want %+v", tab.Model, want)
		}
		// The states, in order: every n and j with a known card count the memory can hold.
		var states []rules.State
		for n := 1; n <= tt.maxN; n++ {
			for j := 0; j <= n; j++ {
				st := rules.State{N: n, J: j, S: tt.m.Singletons, F: tt.unseen}
				if tt.m.Memory.Holds(st.Known()) {
					states = append(states, st)
				}
			}
		}
		if len(tab.Cells) != len(states) {
			t.Fatalf("%+v: %d cells, want %d", tt.m, len(tab.Cells), len(states))
		}
		for i, c := range tab.Cells {
			st := states[i]
			if c.Pairs != st.N || c.Unknown != st.J || (c.Unseen != nil) != (st.S > 0) || c.Unseen != nil && *c.Unseen != st.F {
				t.Errorf("cell %d is %+v, want state %v", i, c, st)
				continue
			}
			res, err := exact.Evaluate(ctx, field.Rat{}, tt.m, self, st)
			if err != nil {
				t.Fatal(err)
			}
			if ratOf(t, c.Value).Cmp(res.ExpectedPairs) != 0 {
				t.Errorf("%v: table value %s, Evaluate %s", st, c.Value.Exact, res.ExpectedPairs.RatString())
			}
			daring, safe := slices.Contains(c.Best, "daring"), slices.Contains(c.Best, "safe")
			switch c.Code {
			case exact.CodeDaring:
				if !daring || safe {
					t.Errorf("%v: daring is better, best %v", st, c.Best)
				}
			case exact.CodeSafe:
				if daring {
					t.Errorf("%v: safe is better, best %v", st, c.Best)
				}
			}
		}
	}
}

// The table of a policy that plays to win holds one cell per state and lead |d| <= N - n, each
// worth the score exact.WinDrawLoss gives that state, with the policy's choice first among its
// best ones.
func TestWriteWinTable(t *testing.T) {
	ctx := context.Background()
	const maxN = 4
	mu := exact.Lineup{Players: 2, Policy: rules.PolicyWinBestResponse, Opponent: rules.PolicyParity}
	var tab answer.WinTable
	writeTable(t, func(b *bytes.Buffer) error {
		return answer.WriteWinTable(ctx, b, field.Float{}, exact.Model{}, mu, maxN, 0)
	}, &tab)
	if m := tab.Model; m.Policy != "win-best-response" || m.Opponent != "parity" || m.PairsMax != maxN || m.Arithmetic != "float64" || m.Pairs != 0 || m.Unknown != nil {
		t.Errorf("model %+v", m)
	}
	count := 0
	for n := 1; n <= maxN; n++ {
		count += (n + 1) * (2*(maxN-n) + 1)
	}
	if len(tab.Cells) != count {
		t.Fatalf("%d cells, want %d", len(tab.Cells), count)
	}
	for _, c := range tab.Cells {
		if c.Value.Exact != "" || c.Unseen != nil || len(c.Best) == 0 || c.Best[0] != c.Choice || c.Lead < -(maxN-c.Pairs) || c.Lead > maxN-c.Pairs {
			t.Errorf("cell %+v", c)
		}
		if c.Unknown != c.Pairs || c.Lead < -1 || c.Lead > 1 {
			continue // a sample: every lead near 0 with no card known
		}
		st := rules.State{N: c.Pairs, J: c.Unknown, Lead: c.Lead}
		both, err := exact.WinDrawLoss(ctx, field.Rat{}, exact.Model{}, mu, st)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := both[0].Score(field.Rat{}).Float64()
		if d := c.Value.Float - want; d > 1e-12 || d < -1e-12 {
			t.Errorf("%v: table value %g, WinDrawLoss's score %g", st, c.Value.Float, want)
		}
	}
}

// failWriter fails every write.
type failWriter struct{}

var errWrite = errors.New("disk full")

func (failWriter) Write([]byte) (int, error) { return 0, errWrite }

// Unseen singletons the model cannot have, and a failing writer, are errors.
func TestWriteTableErrors(t *testing.T) {
	ctx := context.Background()
	var buf bytes.Buffer
	if err := answer.WriteTable(ctx, &buf, field.Float{}, exact.Model{Singletons: 1}, 3, 2); err == nil || buf.Len() > 0 {
		t.Errorf("2 unseen of 1 singleton: %v, wrote %q", err, buf.String())
	}
	mu := exact.Lineup{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}
	if err := answer.WriteWinTable(ctx, &buf, field.Float{}, exact.Model{}, mu, 3, -1); err == nil || buf.Len() > 0 {
		t.Errorf("-1 unseen: %v, wrote %q", err, buf.String())
	}
	if err := answer.WriteTable(ctx, failWriter{}, field.Float{}, exact.Model{}, 3, 0); !errors.Is(err, errWrite) {
		t.Errorf("failing writer: %v", err)
	}
	if err := answer.WriteWinTable(ctx, failWriter{}, field.Float{}, exact.Model{}, mu, 3, 0); !errors.Is(err, errWrite) {
		t.Errorf("failing writer, win table: %v", err)
	}
}

// A program writes the optimal strategy table as JSON, one cell at a time.
func ExampleWriteTable() {
	err := answer.WriteTable(context.Background(), os.Stdout, field.Rat{}, exact.Model{}, 2, 0)
	if err != nil {
		panic(err)
	}
	// Output:
	// {"model":{"pairs_max":2,"singletons":0,"unseen_singletons":0,"memory":0,"pass":"never","choices":"daring,safe,known-first,pass","arithmetic":"exact"},"cells":[{"pairs":1,"unknown":0,"code":2,"best":["daring","safe","known-first"],"value":{"exact":"1","float":1}},{"pairs":1,"unknown":1,"code":2,"best":["daring"],"value":{"exact":"1","float":1}},{"pairs":2,"unknown":0,"code":2,"best":["daring","safe"],"value":{"exact":"2","float":2}},{"pairs":2,"unknown":1,"code":1,"best":["daring"],"value":{"exact":"4/3","float":1.3333333333333333}},{"pairs":2,"unknown":2,"code":2,"best":["daring"],"value":{"exact":"2/3","float":0.6666666666666666}}]}
}
