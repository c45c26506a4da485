package external_test

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"time"

	"memsim/sim/rules"
	"memsim/strategies/external/client"
	"memsim/strategies/external/protocol"
)

// The test binary doubles as the player processes of the tests: run with the arguments
// "memsim-test-player MODE", it plays over stdin and stdout as MODE says (see runTestPlayer).
const playerArg = "memsim-test-player"

// testCommand returns the argv of a test player process of the given mode.
func testCommand(mode string) []string {
	exe, err := os.Executable()
	if err != nil {
		panic(err)
	}
	return []string{exe, playerArg, mode}
}

// testGame is what a test player keeps of one game: the faces it saw, the cards on the table.
type testGame struct {
	seat  int
	rng   *rand.Rand
	seen  map[int]int // position -> face, for cards on the table
	first int         // the turn's face-up first card, or -1
	// choices counts a state-view player's choices in the game.
	choices int
}

// runTestPlayer plays one test player process of the given mode and returns its exit status:
//
//   - greedy: events view; takes a pair it has seen whole, else flips a card never seen (drawn
//     with the game's seed) and then its partner if seen, else another card never seen.
//   - parity: state view; answers the parity policy's choice (rules.Policy.Decide), in games
//     and to position queries (it declares positions "count").
//   - history: as parity, but in a game, from its fourth choice on, it plays daring: its choice
//     depends on the game's history, not on the count state alone.
//   - lead: state view, positions "lead"; daring while behind (lead below 0), parity otherwise.
//   - known-first: state view, positions "count"; answers known-first to every query and request.
//   - client-daring: the Go client package's Daring example player.
//   - client-first-choice: state view through the Go client, declaring every rule variant: the
//     first open choice of every first-card request.
//   - echo: no protocol: a reply line to each move request line, at once (BenchmarkPipeRoundTrip).
//   - the misbehaviours: garbage, partial, huge, badutf8, early, exit-handshake,
//     silent-handshake, silent, unknown-game, duplicate, illegal, close-stdout, crash-after-5,
//     flood (6 MiB to stderr, then greedy), spawn (starts a sleeping child, then greedy),
//     late-duplicate (its second reply again, 50 ms later), bye (greedy, saying goodbye on stderr
//     when its input ends), slow (greedy, 300 ms a move).
func runTestPlayer(mode string) int {
	out := bufio.NewWriter(os.Stdout)
	in := protocol.NewReader(os.Stdin, protocol.FromMemsim)
	fmt.Fprintf(os.Stderr, "pid %d\n", os.Getpid())
	switch mode {
	case "garbage":
		fmt.Fprintln(out, "uciok")
		out.Flush()
		io.Copy(io.Discard, os.Stdin)
		return 0
	case "partial":
		fmt.Fprint(out, `{"type":"player","name":"x"`)
		out.Flush()
		return 0
	case "huge":
		fmt.Fprintf(out, `{"type":"player","name":"%s","version":"1","view":"events"}`+"\n", strings.Repeat("x", protocol.MaxLine))
		out.Flush()
		io.Copy(io.Discard, os.Stdin)
		return 0
	case "badutf8":
		fmt.Fprint(out, "{\"type\":\"player\",\"name\":\"\xff\xfe\",\"version\":\"1\",\"view\":\"events\"}\n")
		out.Flush()
		io.Copy(io.Discard, os.Stdin)
		return 0
	case "early":
		fmt.Fprintln(out, `{"type":"flip","game":0,"pos":0}`)
		out.Flush()
		io.Copy(io.Discard, os.Stdin)
		return 0
	case "exit-handshake":
		fmt.Fprintln(os.Stderr, "cannot load my model")
		return 3
	case "silent-handshake":
		io.Copy(io.Discard, os.Stdin)
		return 0
	case "flood":
		chunk := strings.Repeat("noise ", 1<<14) + "\n"
		for range (6 << 20) / len(chunk) {
			os.Stderr.WriteString(chunk)
		}
	case "spawn":
		child := exec.Command(os.Args[0], playerArg, "sleeper")
		child.Stdout, child.Stderr = nil, os.Stderr
		if err := child.Start(); err != nil {
			return 1
		}
	case "echo":
		return echo(os.Stdin, os.Stdout)
	case "client-daring":
		info := client.Info{Name: "client-daring", Version: "1.0", View: protocol.ViewEvents, Variants: protocol.Variants()}
		if err := client.Run(os.Stdin, os.Stdout, info, func(map[string]any) (client.Player, error) { return client.Daring{}, nil }); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		return 0
	case "client-first-choice":
		info := client.Info{Name: "client-first-choice", Version: "1.0", View: protocol.ViewState, Variants: protocol.Variants()}
		if err := client.Run(os.Stdin, os.Stdout, info, func(map[string]any) (client.Player, error) { return firstChoice{}, nil }); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		return 0
	case "sleeper":
		fmt.Fprintf(os.Stderr, "sleeper %d\n", os.Getpid())
		time.Sleep(time.Hour)
		return 0
	}
	view, positions := protocol.ViewEvents, ""
	switch mode {
	case "parity", "history", "known-first":
		view, positions = protocol.ViewState, protocol.PositionsCount
	case "lead":
		view, positions = protocol.ViewState, protocol.PositionsLead
	}
	// decide is the first-card choice of a state-view player in a state, after choices earlier
	// choices in the game (-1 for a position query).
	decide := func(st *protocol.State, choices int) string {
		c := rules.PolicyParity.Decide(rules.State{N: st.N, J: st.J, S: st.S, F: st.F})
		switch {
		case mode == "known-first":
			return "known-first"
		case mode == "history" && choices >= 3:
			return "daring"
		case mode == "lead" && st.Lead < 0:
			return "daring"
		}
		return c.String()
	}
	games := map[int64]*testGame{}
	moves := 0
	for {
		m, err := in.Read()
		if err == io.EOF {
			if mode == "bye" {
				fmt.Fprintln(os.Stderr, "goodbye from the player")
			}
			return 0
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		var replies []protocol.Message
		switch m := m.(type) {
		case *protocol.Hello:
			replies = append(replies, &protocol.Player{Name: "test-" + mode, Version: "1.0", View: view, Positions: positions,
				Options: []protocol.Option{{Name: "noise", Type: "float", Default: 0.0}}})
		case *protocol.Position:
			replies = append(replies, &protocol.Choice{Game: m.Game, Choice: decide(&m.State, -1)})
		case *protocol.NewGame:
			games[m.Game] = &testGame{seat: m.Seat, rng: rand.New(rand.NewPCG(uint64(m.Seed), 1)), seen: map[int]int{}, first: -1}
		case *protocol.FlipEvent:
			g := games[m.Game]
			g.seen[m.Pos] = m.Face
		case *protocol.PairEvent:
			g := games[m.Game]
			delete(g.seen, m.Positions[0])
			delete(g.seen, m.Positions[1])
		case *protocol.End:
			delete(games, m.Game)
		case *protocol.Move:
			moves++
			switch {
			case mode == "silent":
				continue
			case mode == "slow":
				time.Sleep(300 * time.Millisecond)
			case mode == "close-stdout":
				os.Stdout.Close()
				time.Sleep(time.Hour)
			case mode == "crash-after-5" && moves > 5:
				fmt.Fprintln(os.Stderr, "segmentation fault (pretend)")
				return 139
			}
			g := games[m.Game]
			var r protocol.Message
			if view == protocol.ViewState && m.Card == 1 {
				r = &protocol.Choice{Game: m.Game, Choice: decide(m.State, g.choices)}
				g.choices++
			} else {
				r = &protocol.Flip{Game: m.Game, Pos: greedyPick(g, m)}
			}
			switch mode {
			case "unknown-game":
				r = &protocol.Flip{Game: m.Game + 1000, Pos: m.Legal[0]}
			case "illegal":
				r = &protocol.Flip{Game: m.Game, Pos: 2999}
			}
			replies = append(replies, r)
			if mode == "duplicate" {
				replies = append(replies, r)
			}
		}
		for _, r := range replies {
			b, err := protocol.Encode(r)
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 2
			}
			out.Write(b)
		}
		if len(replies) > 0 {
			out.Flush()
			if mode == "late-duplicate" && moves == 2 {
				time.Sleep(50 * time.Millisecond)
				b, _ := protocol.Encode(replies[0])
				out.Write(b)
				out.Flush()
				fmt.Fprintln(os.Stderr, "late reply sent")
			}
		}
	}
}

// greedyPick is the greedy player's card: a pair seen whole (the lowest positions), else a card
// never seen and its partner if seen.
func greedyPick(g *testGame, m *protocol.Move) int {
	if m.Card == 2 {
		for _, p := range m.Legal {
			if f, ok := g.seen[p]; ok && f == g.seen[g.first] {
				return p
			}
		}
	} else {
		for i, p := range m.Legal {
			f, ok := g.seen[p]
			if !ok {
				continue
			}
			for _, q := range m.Legal[i+1:] {
				if h, ok := g.seen[q]; ok && h == f {
					g.first = p
					return p
				}
			}
		}
	}
	var unseen []int
	for _, p := range m.Legal {
		if _, ok := g.seen[p]; !ok {
			unseen = append(unseen, p)
		}
	}
	pick := m.Legal[0]
	if len(unseen) > 0 {
		pick = unseen[g.rng.IntN(len(unseen))]
	}
	if m.Card == 1 {
		g.first = pick
	}
	return pick
}

// firstChoice is a state-view player that plays the first open choice of every first-card
// request (daring), and the lowest legal card of a second-card one.
type firstChoice struct{}

func (firstChoice) Move(_ *client.Game, req *protocol.Move) client.Reply {
	if req.Card == 1 {
		return client.Choose(req.Choices[0])
	}
	return client.Flip(req.Legal[0])
}
