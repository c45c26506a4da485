// Package serve is memsim serve's web server: one page (embedded, no external resource) to play
// a game against the players of a configuration with an exact coach, watch two players, review a
// game record with its evaluation graph and explore the optimal strategy tables, and the JSON API
// the page talks to. Every request is bounded (body size, rate per client, live games) and
// checked: a bad one gets a 4xx status and a one-line JSON message, {"error": "..."}.
package serve

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log"
	"net"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"time"

	"memsim/configs"
)

//go:embed assets
var assets embed.FS

// Bounds of the requests.
const (
	// MaxBody is the largest body of a request other than a review, in bytes.
	MaxBody = 4 << 10
	// MaxRecordBody is the largest record POST /api/review reads, in bytes.
	MaxRecordBody = 1 << 20
	// MaxPairs and MaxSingletons bound the deals of the games played and watched; MaxSingletons
	// those of the games reviewed and the tables too.
	MaxPairs      = 30
	MaxSingletons = 10
	// MaxCoachPairs is the largest deal the coach judges (exact values).
	MaxCoachPairs = 20
	// MaxExactReviewPairs is the largest deal reviewed in exact arithmetic; MaxReviewPairs the
	// largest reviewed at all (in float64 beyond MaxExactReviewPairs).
	MaxExactReviewPairs = 20
	MaxReviewPairs      = 60
	// MaxExactTablePairs is the largest strategy table computed in exact arithmetic;
	// MaxTablePairs the largest at all (in float64 beyond MaxExactTablePairs).
	MaxExactTablePairs = 40
	MaxTablePairs      = 100
)

// Options configure a Server.
type Options struct {
	// Config returns a fresh copy of the configuration whose players the page plays against and
	// watches (each game changes its rules and players).
	Config func() (*configs.Tournament, error)
	// MaxGames bounds the games under way at once (default 8).
	MaxGames int
	// IdleTimeout ends a game no request has touched for that long (default 30 minutes);
	// GameTimeout ends any game after that long (default 2 hours).
	IdleTimeout, GameTimeout time.Duration
	// Rate and Burst are each client's allowance of requests: Burst at once, refilled at Rate a
	// second (default 20 and 60).
	Rate  float64
	Burst int
	// Log receives a line for each failure of the server's own (a recovered panic); nil
	// discards them.
	Log *log.Logger
}

// Server serves the page and its API. Its games run on goroutines of their own; Close ends them.
type Server struct {
	opts    Options
	mux     *http.ServeMux
	limiter *limiter
	// heavy holds a token for each solve under way (a coach's values, a review, a table, a
	// watched game): at most one per CPU at once, the others wait their turn.
	heavy chan struct{}

	mu    sync.Mutex
	games map[string]*game
	// starting counts the games being started, each holding a place among those under way.
	starting int
}

// New returns a server with options o, the defaults filled in.
func New(o Options) (*Server, error) {
	if o.Config == nil {
		return nil, errors.New("serve: no configuration")
	}
	if o.MaxGames <= 0 {
		o.MaxGames = 8
	}
	if o.IdleTimeout <= 0 {
		o.IdleTimeout = 30 * time.Minute
	}
	if o.GameTimeout <= 0 {
		o.GameTimeout = 2 * time.Hour
	}
	if o.Rate <= 0 {
		o.Rate = 20
	}
	if o.Burst <= 0 {
		o.Burst = 60
	}
	if o.Log == nil {
		o.Log = log.New(io.Discard, "", 0)
	}
	s := &Server{opts: o, games: map[string]*game{}, limiter: newLimiter(o.Rate, o.Burst),
		heavy: make(chan struct{}, runtime.NumCPU())}
	s.mux = http.NewServeMux()
	s.route("/", s.static, http.MethodGet, http.MethodHead)
	s.route("/api/players", s.players, http.MethodGet)
	s.route("/api/games", s.solving(s.createGame), http.MethodPost)
	s.route("/api/games/{id}", s.getGame, http.MethodGet)
	s.route("/api/games/{id}/flip", s.flip, http.MethodPost)
	s.route("/api/games/{id}/record", s.gameRecord, http.MethodGet)
	s.route("/api/watch", s.solving(s.watch), http.MethodPost)
	s.route("/api/review", s.solving(s.review), http.MethodPost)
	s.route("/api/table", s.solving(s.table), http.MethodGet)
	return s, nil
}

// Handler returns the server's handler: every route behind the panic guard and the rate limit.
func (s *Server) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				s.opts.Log.Printf("memsim serve: %s %s: panic: %v", r.Method, r.URL.Path, p)
				writeError(w, http.StatusInternalServerError, fmt.Sprintf("the server failed on this request: %v", p))
			}
		}()
		if !s.limiter.allow(clientOf(r), time.Now()) {
			w.Header().Set("Retry-After", "1")
			writeError(w, http.StatusTooManyRequests, fmt.Sprintf("too many requests: at most %d at once and %g a second from one client", s.opts.Burst, s.opts.Rate))
			return
		}
		s.mux.ServeHTTP(w, r)
	})
}

// route registers h at pattern for the methods given; other methods get a 405.
func (s *Server) route(pattern string, h http.HandlerFunc, methods ...string) {
	s.mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
		for _, m := range methods {
			if r.Method == m {
				h(w, r)
				return
			}
		}
		w.Header().Set("Allow", strings.Join(methods, ", "))
		writeError(w, http.StatusMethodNotAllowed, fmt.Sprintf("method %s not allowed on %s: use %s", r.Method, r.URL.Path, strings.Join(methods, " or ")))
	})
}

// solving runs h once a token of s.heavy is free, or not at all if the client leaves first.
func (s *Server) solving(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		select {
		case s.heavy <- struct{}{}:
		case <-r.Context().Done():
			return
		}
		defer func() { <-s.heavy }()
		h(w, r)
	}
}

// clientOf names the client of a request: its address without the port.
func clientOf(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// The embedded files the page is made of, by path.
var pageFiles = map[string]struct{ file, kind string }{
	"/":          {"assets/index.html", "text/html; charset=utf-8"},
	"/app.js":    {"assets/app.js", "text/javascript; charset=utf-8"},
	"/style.css": {"assets/style.css", "text/css; charset=utf-8"},
}

// static serves the page's embedded files and nothing else.
func (s *Server) static(w http.ResponseWriter, r *http.Request) {
	f, ok := pageFiles[r.URL.Path]
	if !ok {
		writeError(w, http.StatusNotFound, fmt.Sprintf("no page %s: the page is at /", cut(r.URL.Path)))
		return
	}
	data, err := fs.ReadFile(assets, f.file)
	if err != nil {
		writeError(w, http.StatusInternalServerError, err.Error())
		return
	}
	h := w.Header()
	h.Set("Content-Type", f.kind)
	h.Set("Cache-Control", "no-cache")
	h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'")
	h.Set("X-Content-Type-Options", "nosniff")
	if r.Method == http.MethodHead {
		return
	}
	w.Write(data)
}

// errorJSON is the body of every failed request.
type errorJSON struct {
	Error string `json:"error"`
	// Field names the request's field at fault, when one is.
	Field string `json:"field,omitempty"`
}

// writeError answers a failed request with status and the one-line message msg.
func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, errorJSON{Error: msg})
}

// writeJSON answers with status and v as JSON.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// requestError is a bad request: its status and message, and the field at fault.
type requestError struct {
	status int
	field  string
	msg    string
}

func (e *requestError) Error() string { return e.msg }

// badField returns the error of a bad field: a 400 naming it.
func badField(field, format string, args ...any) error {
	return &requestError{status: http.StatusBadRequest, field: field, msg: field + ": " + fmt.Sprintf(format, args...)}
}

// fail answers a request that failed with err: its status and message for a requestError,
// a 413 for a body too large, and a 500 otherwise.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	var re *requestError
	var mb *http.MaxBytesError
	switch {
	case errors.As(err, &re):
		writeJSON(w, re.status, errorJSON{Error: re.msg, Field: re.field})
	case errors.As(err, &mb):
		writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("the request's body is larger than %d bytes", mb.Limit))
	case errors.Is(err, context.Canceled) && r.Context().Err() != nil:
		// The client left: nobody reads the answer.
	default:
		s.opts.Log.Printf("memsim serve: %s %s: %v", r.Method, r.URL.Path, err)
		writeError(w, http.StatusInternalServerError, err.Error())
	}
}

// decode reads the JSON body of r, at most limit bytes, into v: unknown fields and trailing data
// are errors.
func decode(w http.ResponseWriter, r *http.Request, limit int64, v any) error {
	r.Body = http.MaxBytesReader(w, r.Body, limit)
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var mb *http.MaxBytesError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &mb):
			return err
		case errors.As(err, &te):
			return badField(te.Field, "must be a JSON %s", te.Type)
		case errors.Is(err, io.EOF):
			return &requestError{status: http.StatusBadRequest, msg: "the request has no JSON body"}
		}
		return &requestError{status: http.StatusBadRequest, msg: "the request's body is not the JSON expected: " + err.Error()}
	}
	if dec.More() {
		return &requestError{status: http.StatusBadRequest, msg: "the request's body holds more than one JSON value"}
	}
	return nil
}

// cut shortens a text quoted in a message to 40 characters.
func cut(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return s
}

// limiter is a token bucket per client.
type limiter struct {
	rate  float64
	burst float64

	mu      sync.Mutex
	buckets map[string]*bucket
}

// bucket is a client's tokens at a time.
type bucket struct {
	tokens float64
	at     time.Time
}

// maxClients bounds the buckets kept: past it, the full ones are dropped.
const maxClients = 4096

func newLimiter(rate float64, burst int) *limiter {
	return &limiter{rate: rate, burst: float64(burst), buckets: map[string]*bucket{}}
}

// allow takes a token of client's bucket at now, and reports whether there was one.
func (l *limiter) allow(client string, now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.buckets[client]
	if b == nil {
		if len(l.buckets) >= maxClients {
			l.prune(now)
		}
		if len(l.buckets) >= maxClients {
			return false // as many clients as the table holds are busy: the new one waits
		}
		b = &bucket{tokens: l.burst, at: now}
		l.buckets[client] = b
	}
	b.tokens = min(l.burst, b.tokens+now.Sub(b.at).Seconds()*l.rate)
	b.at = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// prune drops the buckets that have refilled by now (their clients are as new ones).
func (l *limiter) prune(now time.Time) {
	for c, b := range l.buckets {
		if b.tokens+now.Sub(b.at).Seconds()*l.rate >= l.burst {
			delete(l.buckets, c)
		}
	}
}
