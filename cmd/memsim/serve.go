package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net"
	"net/http"
	"time"

	"memsim/cmd/memsim/internal/serve"
	"memsim/configs"
)

// defaultServeAddr is where memsim serve listens unless told otherwise: this computer only.
const defaultServeAddr = "127.0.0.1:8080"

// serveCommand returns memsim serve.
func serveCommand() *command {
	return &command{
		name: "serve",
		usage: []string{
			"memsim serve [--config F|DIR] [--addr HOST:PORT] [--public] [--max-games N] [--idle D]",
		},
		short: "a local web page to play, watch, review and explore",
		long: `
Serves a web page at http://127.0.0.1:8080/ (--addr) for a browser on this computer: play a game
against any player of the configuration F (or the run folder DIR; with no --config the embedded
default) with the exact coach's values of every move and the bots' memories shown; watch two
players play; review a game record, with its evaluation graph; explore the optimal strategy
tables as a heat map. The page and its scripts are embedded in memsim and load nothing from
elsewhere; the server serves no file of the disk.

The server listens on the loopback address only unless --addr names another and --public is
given: then anyone who can reach the address can use it, which memsim serve says on stderr.
--max-games bounds the games played at once (default 8); a game no request touches for --idle
(default 30m) ends. Requests are checked and bounded: body sizes, a rate per client, deal sizes
(docs/cli.md lists the API and its limits). Ctrl-C stops the server.
`,
		run: runServe,
	}
}

type serveFlags struct {
	config, addr string
	public       bool
	maxGames     int
	idle         time.Duration
	set          map[string]bool
}

func runServe(ctx context.Context, c *command, inv invocation, args []string) int {
	var fl serveFlags
	fs := newFlagSet("memsim serve")
	fs.StringVar(&fl.config, "config", "", "the configuration `file`, or a run folder, whose players the page plays (default: the embedded default)")
	fs.StringVar(&fl.addr, "addr", defaultServeAddr, "the `address` to listen on, host:port (port 0: any free port)")
	fs.BoolVar(&fl.public, "public", false, "allow an --addr that is not a loopback address, reachable from the network")
	fs.IntVar(&fl.maxGames, "max-games", 8, "the most games `N` played at once, 1 to 1000")
	fs.DurationVar(&fl.idle, "idle", 30*time.Minute, "end a game no request touches for this `duration`, 1m to 24h")
	if code, done := c.parseFlags(fs, args, inv); done {
		return code
	}
	fl.set = given(fs)
	return exitFor(fs.Name(), serveMain(ctx, fl, fs.Args(), inv), inv.stderr)
}

// checkServeFlags checks memsim serve's flags and returns the address to listen on.
func checkServeFlags(fl serveFlags, args []string) error {
	switch {
	case len(args) > 0:
		return usagef("unexpected argument %q (give the configuration with --config)", args[0])
	case fl.set["config"] && fl.config == "":
		return usagef("--config \"\": give a configuration file or a run folder")
	case fl.maxGames < 1 || fl.maxGames > 1000:
		return usagef("--max-games %d: must be between 1 and 1000", fl.maxGames)
	case fl.idle < time.Minute || fl.idle > 24*time.Hour:
		return usagef("--idle %s: must be between 1m and 24h", fl.idle)
	}
	host, port, err := net.SplitHostPort(fl.addr)
	if err != nil {
		return usagef("--addr %q: not host:port, such as %s", cut40(fl.addr), defaultServeAddr)
	}
	if _, err := net.LookupPort("tcp", port); err != nil {
		return usagef("--addr %q: port %q: give a number from 0 to 65535", cut40(fl.addr), cut40(port))
	}
	if !loopback(host) && !fl.public {
		return usagef("--addr %s: not a loopback address, so reachable from the network: give --public as well to serve it there", cut40(fl.addr))
	}
	return nil
}

// loopback reports whether host names only this computer: localhost or a loopback IP.
func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// serveMain checks the flags, loads the configuration, and serves until ctx ends.
func serveMain(ctx context.Context, fl serveFlags, args []string, inv invocation) error {
	if err := checkServeFlags(fl, args); err != nil {
		return err
	}
	load := func() (*configs.Tournament, error) { return replayConfig(replayFlags{config: fl.config, set: fl.set}) }
	cfg, err := load()
	if err != nil {
		return err
	}
	if len(cfg.Players) == 0 {
		return usagef("%s: no players", cfg.File)
	}
	srv, err := serve.New(serve.Options{Config: load, MaxGames: fl.maxGames, IdleTimeout: fl.idle,
		Log: log.New(inv.stderr, "", log.LstdFlags)})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", fl.addr)
	if err != nil {
		return usagef("--addr %s: %v", cut40(fl.addr), err)
	}
	host, _, _ := net.SplitHostPort(fl.addr)
	if !loopback(host) {
		fmt.Fprintf(inv.stderr, "memsim serve: listening on %s, reachable from the network: anyone who can reach it can use this server\n", ln.Addr())
	}
	fmt.Fprintf(inv.stdout, "memsim serve: http://%s/ (players of %s; Ctrl-C stops)\n", ln.Addr(), cfg.Name)
	hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second, ReadTimeout: time.Minute,
		WriteTimeout: 2 * time.Minute, IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 16 << 10}
	sctx, stop := context.WithCancel(ctx)
	defer stop()
	swept := make(chan struct{})
	go func() {
		srv.Run(sctx)
		close(swept)
	}()
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	select {
	case err = <-served:
	case <-ctx.Done():
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		hs.Shutdown(shut)
		cancel()
		err = ctx.Err()
	}
	stop()
	<-swept
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	if errors.Is(err, context.Canceled) {
		fmt.Fprintln(inv.stdout, "memsim serve: stopped")
		return nil
	}
	return err
}
