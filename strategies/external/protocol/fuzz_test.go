package protocol_test

import (
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"

	"memsim/strategies/external/protocol"
)

// FuzzReader reads arbitrary input from either side: the Reader never panics, every error is
// one line naming a line number, and every message it accepts is written back by Encode and read
// again as the same message.
func FuzzReader(f *testing.F) {
	for _, l := range docExample(f) {
		f.Add(l.text+"\n", l.side == protocol.FromPlayer)
	}
	f.Add("{\"type\":\"flip\",\"game\":1,\"pos\":3}", true)
	f.Add("{\"type\":\"flip\",\"game\":1,\"pos\":\"3\"}\n", true)
	f.Add("\xff\n", false)
	f.Add("{}\n[]\n", false)
	f.Fuzz(func(t *testing.T, input string, fromPlayer bool) {
		side := protocol.FromMemsim
		if fromPlayer {
			side = protocol.FromPlayer
		}
		r := protocol.NewReader(strings.NewReader(input), side)
		for {
			m, err := r.Read()
			if err == io.EOF {
				return
			}
			if err != nil {
				var e *protocol.Error
				if !errors.As(err, &e) || !strings.HasPrefix(err.Error(), "line ") || strings.Contains(err.Error(), "\n") {
					t.Fatalf("error %q: not one line naming a line", err)
				}
				return
			}
			line, err := protocol.Encode(m)
			if err != nil {
				if strings.Contains(err.Error(), "longer than") {
					continue // escaping can make a line longer
				}
				t.Fatalf("Encode(%#v) of an accepted message: %v", m, err)
			}
			again, err := protocol.Decode(line[:len(line)-1], side)
			if err != nil || !reflect.DeepEqual(again, m) {
				t.Fatalf("%s read back as %#v, %v; want %#v", line, again, err, m)
			}
		}
	})
}
