package protocol_test

import (
	"fmt"
	"os"
	"strings"

	"memsim/strategies/external/protocol"
)

// Example shows memsim's side of a handshake and a move: it writes hello and a request, and
// reads and checks the player's answers.
func Example() {
	w := protocol.NewWriter(os.Stdout)
	w.Write(&protocol.Hello{Protocol: protocol.Version})
	req := &protocol.Move{Game: 1, Card: 1, Legal: []int{0, 1, 2, 3}, DeadlineMS: 50}
	w.Write(req)
	w.Flush()

	player := strings.NewReader(`{"type":"player","name":"first-card","version":"0.1","view":"events"}
{"type":"flip","game":1,"pos":2}
{"type":"flip","game":1,"pos":9}
`)
	r := protocol.NewReader(player, protocol.FromPlayer)
	for {
		m, err := r.Read()
		if err != nil {
			fmt.Println(err)
			return
		}
		switch m := m.(type) {
		case *protocol.Player:
			fmt.Printf("player %s %s, view %s\n", m.Name, m.Version, m.View)
		default:
			if err := protocol.CheckReply(req, m); err != nil {
				fmt.Printf("line %d: %v\n", r.Line(), err)
				continue
			}
			fmt.Printf("line %d: flips %d\n", r.Line(), m.(*protocol.Flip).Pos)
		}
	}
	// Output:
	// {"type":"hello","protocol":"memsim-player/1"}
	// {"type":"move","game":1,"card":1,"legal":[0,1,2,3],"deadline_ms":50}
	// player first-card 0.1, view events
	// line 2: flips 2
	// line 3: field pos: 9 is not a legal position of game 1's card 1
	// EOF
}
