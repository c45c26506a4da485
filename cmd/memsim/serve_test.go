package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
)

// memsim serve refuses bad flags with one line naming the flag, and an address reachable from
// the network without --public.
func TestServeFlags(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"serve", "extra"}, `memsim serve: unexpected argument "extra" (give the configuration with --config)`},
		{[]string{"serve", "--addr", "0.0.0.0:8080"}, "memsim serve: --addr 0.0.0.0:8080: not a loopback address, so reachable from the network: give --public as well to serve it there"},
		{[]string{"serve", "--addr", ":8080"}, "memsim serve: --addr :8080: not a loopback address, so reachable from the network: give --public as well to serve it there"},
		{[]string{"serve", "--addr", "localhost"}, `memsim serve: --addr "localhost": not host:port, such as 127.0.0.1:8080`},
		{[]string{"serve", "--addr", "127.0.0.1:99999"}, `memsim serve: --addr "127.0.0.1:99999": port "99999": give a number from 0 to 65535`},
		{[]string{"serve", "--max-games", "0"}, "memsim serve: --max-games 0: must be between 1 and 1000"},
		{[]string{"serve", "--idle", "1s"}, "memsim serve: --idle 1s: must be between 1m and 24h"},
		{[]string{"serve", "--config", ""}, `memsim serve: --config "": give a configuration file or a run folder`},
	}
	for _, tt := range tests {
		wantUsageError(t, tt.args, tt.want)
	}
}

// memsim serve prints its URL, serves the page there, and stops cleanly when its context ends.
func TestServeServesAndStops(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r, w := io.Pipe()
	var errb strings.Builder
	code := make(chan int, 1)
	go func() {
		code <- run(ctx, []string{"serve", "--addr", "127.0.0.1:0"}, noEnv, w, &errb)
		w.Close()
	}()
	lines := bufio.NewScanner(r)
	if !lines.Scan() {
		t.Fatalf("no line printed; stderr %q", errb.String())
	}
	first := lines.Text()
	url, ok := strings.CutPrefix(first, "memsim serve: ")
	url, _, _ = strings.Cut(url, " ")
	if !ok || !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Fatalf("first line %q", first)
	}
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(string(page), "<title>memsim</title>") {
		t.Errorf("GET %s: %d %.80q", url, res.StatusCode, page)
	}
	cancel()
	rest, _ := io.ReadAll(r)
	if c := <-code; c != exitOK || string(rest) != "memsim serve: stopped\n" || errb.String() != "" {
		t.Errorf("stopped: exit %d, stdout %q, stderr %q", c, rest, errb.String())
	}
}
