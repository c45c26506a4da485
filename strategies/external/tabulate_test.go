package external_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"memsim/sim"
	"memsim/sim/rules"
	"memsim/strategies/external"
)

// tabulate dials a process of the test player of mode and tabulates it for spec.
func tabulate(t *testing.T, mode string, spec external.TableSpec) (*external.Player, external.Tabulation, error) {
	t.Helper()
	p, _ := newTestPlayer(t, mode, external.Command{})
	conn, err := p.Dial()
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	tab, err := conn.Tabulate(spec)
	return p, tab, err
}

// TestTabulateParityIsTheParityTable: the table of a process answering the parity policy's
// choices to position queries holds, in every state, the choice of memsim's own parity table.
func TestTabulateParityIsTheParityTable(t *testing.T) {
	for _, spec := range []external.TableSpec{
		{Pairs: 7, Pass: rules.PassNever, Choices: rules.FullChoices, InFlight: 5},
		{Pairs: 5, Singletons: 2, Pass: rules.PassAlways, Choices: rules.FullChoices},
	} {
		_, tab, err := tabulate(t, "parity", spec)
		if err != nil {
			t.Fatal(err)
		}
		want, err := rules.FixedChoiceTable(rules.PolicyParity, spec.Pairs, spec.Singletons)
		if err != nil {
			t.Fatal(err)
		}
		if tab.Table.MaxLead() != -1 {
			t.Errorf("a lead-free player's table has leads up to %d", tab.Table.MaxLead())
		}
		queries := 0
		for n := 1; n <= spec.Pairs; n++ {
			for j := 0; j <= n; j++ {
				for f := 0; f <= spec.Singletons; f++ {
					st := rules.State{N: n, J: j, S: spec.Singletons, F: f}
					for _, afterPass := range []bool{false, true} {
						if afterPass && !spec.Pass.Allows(st) {
							continue
						}
						queries++
						got, ok := tab.Table.Lookup(st, afterPass)
						w, _ := want.Lookup(st, afterPass)
						if !ok || got != w {
							t.Errorf("%+v after a pass %t: table %v (%t), parity %v", st, afterPass, got, ok, w)
						}
					}
				}
			}
		}
		if tab.Queries != queries || tab.NextID != int64(queries) {
			t.Errorf("%d queries, next id %d; want %d of each", tab.Queries, tab.NextID, queries)
		}
	}
}

// TestTabulateWithLead: a player that declares a choice depending on the lead is asked at every
// lead a game can reach, and its table plays each.
func TestTabulateWithLead(t *testing.T) {
	const pairs = 5
	_, tab, err := tabulate(t, "lead", external.TableSpec{Pairs: pairs, Pass: rules.PassNever, Choices: rules.FullChoices})
	if err != nil {
		t.Fatal(err)
	}
	if tab.Table.MaxLead() != pairs {
		t.Fatalf("table of leads up to %d, want %d", tab.Table.MaxLead(), pairs)
	}
	queries := 0
	for n := 1; n <= pairs; n++ {
		for j := 0; j <= n; j++ {
			for d := -(pairs - n); d <= pairs-n; d++ {
				queries++
				st := rules.State{N: n, J: j, Lead: d}
				want := rules.PolicyParity.Decide(st)
				if d < 0 {
					want = rules.Daring
				}
				if got, ok := tab.Table.Lookup(st, false); !ok || got != want {
					t.Errorf("%+v: %v (%t), want %v", st, got, ok, want)
				}
			}
		}
	}
	if tab.Queries != queries {
		t.Errorf("%d queries, want %d", tab.Queries, queries)
	}
}

// TestTabulateRefusesABadAnswer: a choice that is not open in the state queried stops the
// tabulation with an error naming the state and the line.
func TestTabulateRefusesABadAnswer(t *testing.T) {
	_, _, err := tabulate(t, "known-first", external.TableSpec{Pairs: 4, Pass: rules.PassNever, Choices: rules.FullChoices})
	want := `the reply to the position query 1 in state (n=1, j=1, s=0, f=0, lead=0, after_pass=false): choice: field choice: "known-first" is not open`
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "line 3") {
		t.Errorf("got %v, want an error containing %q at line 3", err, want)
	}
}

// TestTabulateNeedsPositions: a player that declares no positions is not queried.
func TestTabulateNeedsPositions(t *testing.T) {
	_, _, err := tabulate(t, "greedy", external.TableSpec{Pairs: 4, Pass: rules.PassNever, Choices: rules.FullChoices})
	if err == nil || !strings.Contains(err.Error(), "declares no positions") {
		t.Errorf("got %v, want an error saying the player declares no positions", err)
	}
}

// TestCheckTable: the table of a process that is a function of the count state passes the
// check on sampled games; one whose choices in a game depend on the game's history is refused at
// the first choice that differs, with the state.
func TestCheckTable(t *testing.T) {
	const pairs = 6
	spec := external.TableSpec{Pairs: pairs, Pass: rules.PassNever, Choices: rules.FullChoices}
	check := external.CheckSpec{Pairs: pairs, Pass: rules.PassNever, Games: 20, Seed: 4,
		Opponents: []sim.Player{tablePlayer(t, "daring", rules.PolicyDaring, pairs), tablePlayer(t, "safe", rules.PolicySafe, pairs)}}
	for _, mode := range []string{"parity", "lead"} {
		p, tab, err := tabulate(t, mode, spec)
		if err != nil {
			t.Fatal(err)
		}
		res, err := p.CheckTable(context.Background(), tab.Table, check)
		if err != nil {
			t.Fatalf("%s: %v", mode, err)
		}
		if res.Games != 20 || res.Choices < 20 {
			t.Errorf("%s: %d games, %d choices; want 20 games, a choice or more each", mode, res.Games, res.Choices)
		}
	}
	p, tab, err := tabulate(t, "history", spec)
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.CheckTable(context.Background(), tab.Table, check)
	var m *external.Mismatch
	if !errors.As(err, &m) {
		t.Fatalf("got %v, want a mismatch", err)
	}
	st := m.Position.State
	if m.Table != rules.Safe || m.Process != rules.Daring || m.Flipped || rules.PolicyParity.Decide(st) != rules.Safe {
		t.Errorf("mismatch %+v: want the table's safe (parity's in that state) against the process's daring", m)
	}
	want := "in state " + m.Position.String() + " the table holds safe and the process chose daring"
	if !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
		t.Errorf("error %q: want one line containing %q", err, want)
	}
}

// TestWriteTableCSV writes a table's choices, one row per state.
func TestWriteTableCSV(t *testing.T) {
	tb, err := rules.FixedChoiceTable(rules.PolicyParity, 2, 0)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	spec := external.TableSpec{Pairs: 2, Pass: rules.PassNever}
	if err := external.WriteTableCSV(&b, tb, external.Positions(spec, false)); err != nil {
		t.Fatal(err)
	}
	want := "n,j,s,f,lead,after_pass,choice\n" +
		"1,0,0,0,any,false,safe\n1,1,0,0,any,false,daring\n" +
		"2,0,0,0,any,false,safe\n2,1,0,0,any,false,daring\n2,2,0,0,any,false,daring\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}
