// Package configs parses and validates tournament configurations: YAML files that say which
// players meet, under which rules, how many games they play and where the results go. It also
// holds the default tournament (default.yaml), which is compiled into the binary.
//
// Parsing is strict: unknown keys, duplicate keys, values of the wrong type, values out of range,
// more than one YAML document and YAML syntax errors are all rejected, each with an *Error that
// reads "file:line:col: message" and points at the offending node. The schema, the defaults and
// the checks are described in docs/tournaments.md; the reading of YAML itself, which knows
// no schema, is in the internal package yamlnode. ReadFile reads a configuration or suite file
// within MaxFileSize bytes, checked before it is read; ShortPath and Quote cut a path or a value
// short for a message.
//
// A parsed Tournament keeps the positions of the values its file gives (Positions, and a
// player's in Player), for errors found later (Tournament.At). Tournament.YAML writes the
// resolved configuration back as text; Tournament.Identity encodes what identifies it (its
// resolved settings, workers and records aside), whatever the text of its file.
package configs

import (
	"embed"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"time"

	"memsim/configs/internal/yamlnode"
	"memsim/sim/rules"
)

//go:embed default.yaml
var defaultYAML []byte

// defaultFile is the name under which Default reports the embedded configuration.
const defaultFile = "configs/default.yaml"

// Default returns the default tournament configuration, which `memsim run` runs when it is given
// no file: its file name ("configs/default.yaml") and a copy of its bytes, ready for Parse.
func Default() (file string, data []byte) { return embedded(defaultFile, defaultYAML) }

// embedded returns an embedded file's name and a copy of its bytes, so that callers cannot
// change what the binary holds.
func embedded(file string, data []byte) (string, []byte) { return file, append([]byte(nil), data...) }

// Options are the values the caller accepts.
type Options struct {
	Policies []string // policy names accepted in players[].policy
	// Opponents returns the policy names a player of the given policy may answer in
	// players[].opponent, or nil for a policy that takes no opponent (strategies.Opponents).
	Opponents func(policy string) []string
	MaxPairs  int // largest deal size accepted in rules.pairs (and largest singletons count)
	// MaxGames and MaxWorkers bound games and workers (0: no bound beyond the int's).
	MaxGames, MaxWorkers int
}

// MaxNameLength bounds the length of a tournament's name (a folder name), MaxOutputLength that of
// its output path and MaxComponentLength that of each name in the path, in bytes: what file
// systems accept.
const (
	MaxNameLength      = 200
	MaxOutputLength    = 4000
	MaxComponentLength = 255
)

// CheckPath checks a path that memsim is to create folders and files on (a configuration's
// output) before anything is created: at most MaxOutputLength bytes, no control characters, and
// no folder or file name in it longer than MaxComponentLength bytes. Its error, one line, quotes
// the path (cut short) and says which rule it breaks.
func CheckPath(path string) error {
	switch {
	case len(path) > MaxOutputLength:
		return fmt.Errorf("%s: %d bytes: a path has at most %d", yamlnode.Quote(path), len(path), MaxOutputLength)
	case strings.ContainsFunc(path, func(r rune) bool { return r < 0x20 || r == 0x7f }):
		return fmt.Errorf("%s: a path must not hold control characters", yamlnode.Quote(path))
	}
	for _, name := range strings.FieldsFunc(path, func(r rune) bool { return r == '/' || r == filepath.Separator }) {
		if len(name) > MaxComponentLength {
			return fmt.Errorf("%s: a name of %d bytes in it: a path's folder and file names have at most %d", yamlnode.Quote(path), len(name), MaxComponentLength)
		}
	}
	return nil
}

// CheckFolder checks the path of a folder that memsim is to write whole (the folder of memsim
// merge --out or memsim audit --output) before anything is created: CheckPath's rules, and a
// folder name of at most MaxNameLength bytes, as a tournament's name, for the files memsim writes
// beside the folder (.NAME.lock, .NAME.staging-*).
func CheckFolder(path string) error {
	if err := CheckPath(path); err != nil {
		return err
	}
	if base := filepath.Base(filepath.Clean(path)); len(base) > MaxNameLength {
		return fmt.Errorf("%s: its folder name has %d bytes: a folder memsim writes has a name of at most %d", yamlnode.Quote(path), len(base), MaxNameLength)
	}
	return nil
}

// Format says which players meet.
type Format uint8

const (
	// RoundRobin: every player meets every other player.
	RoundRobin Format = iota
	// Gauntlet: the first player meets each of the others, who do not meet among themselves.
	Gauntlet
)

// String returns the format's name as written in configurations: "round-robin" or "gauntlet".
func (f Format) String() string {
	switch f {
	case RoundRobin:
		return "round-robin"
	case Gauntlet:
		return "gauntlet"
	}
	return fmt.Sprintf("Format(%d)", uint8(f))
}

// formatNames lists the names of the formats in order.
func formatNames() []string { return []string{RoundRobin.String(), Gauntlet.String()} }

// Pos is a position in a configuration file: a 1-based line and a 1-based column (counted in
// characters), as the YAML reader gives it.
type Pos = yamlnode.Pos

// Tournament is a parsed and validated configuration with every default filled in.
type Tournament struct {
	File    string // as passed to Parse
	Name    string
	Seed    uint64
	Games   int // games per matchup and deal size
	Workers int // 0: one per CPU
	Paired  bool
	// LuckAdjusted says whether the games are luck-adjusted (docs/models.md §5.6), as they are
	// unless the file says luck_adjusted: false.
	LuckAdjusted bool
	Format       Format
	Rules        Rules
	Players      []Player
	Output       string
	// Stop is an optional rule to end a matchup before Games: nil plays every game.
	Stop *Stop
	// Records is the number of games of each matchup, from the first, that a run writes as game
	// records to its run folder (0 to MaxRecords; 0: none). It does not change the results.
	Records int
	// Positions gives the positions of the values the file gives, for errors found after parsing
	// (Tournament.At).
	Positions Positions
}

// Positions gives the position of the value of each key of a configuration, for errors found
// after parsing (Tournament.At). A zero Pos means that the file does not give the key (or gives
// it as null, which counts as absent). The positions of a player's entry and of its memory and
// choices are in its Player.
type Positions struct {
	Name, Seed, Games, Workers, Paired, LuckAdjusted, Format Pos
	Rules                                                    RulesPositions
	Players, Output, Stop, Records                           Pos
}

// RulesPositions gives the position of the value of each key of the rules mapping, or a zero Pos
// where the file does not give it.
type RulesPositions struct {
	Pairs, Singletons, PlayersPerGame, Pass Pos
	Board, Copies, Flips, TurnLimit         Pos
}

// Stop says when a match may end before its games are all played. Rules are checked every
// sim.RoundBatches batches of deals; either one ends the match.
type Stop struct {
	// Precision, when positive, ends a match once the 95% half-width of every seat's mean pairs
	// is at most Precision (pairs per game).
	Precision float64
	// SPRT, when not nil, ends a paired match once Wald's sequential test decides whether the
	// first player's mean lead over the second is 0 or at least D pairs per game.
	SPRT *SPRT
}

// SPRT is a sequential probability ratio test of H0 "the mean lead is 0" against H1 "it is D",
// with error rates Alpha (rejecting H0 when it holds) and Beta (accepting it when H1 holds).
type SPRT struct {
	D, Alpha, Beta float64
}

// Rules are the rules of the game every matchup is played under.
type Rules struct {
	Pairs          []int // deal sizes, in the order given
	Singletons     int
	PlayersPerGame int
	Pass           rules.PassRule
	// Variant holds the rules in which the games differ from the standard game (copies, flips,
	// turn_limit, or a board preset's), written out: Copies is 0 unless the file (or its board)
	// gives a number other than 2.
	Variant rules.Variant
}

// Player is one entry of the players list.
type Player struct {
	Name     string
	Policy   string
	Opponent string     // "" unless given
	Memory   MemorySpec // fields nil when not given
	// Choices is the set of choices the player may make, nil when not given (the full game).
	Choices    *rules.ChoiceSet
	Pos        Pos // position of the player's entry (the mapping node)
	MemoryPos  Pos // position of its memory: value, or the entry's Pos if absent
	ChoicesPos Pos // position of its choices list, or the entry's Pos if absent
	// External, when not nil, makes the player a process speaking the player protocol
	// (docs/protocol.md) instead of a policy; Policy is then empty.
	External *External
}

// External is a player that runs as a process of its own.
type External struct {
	// Command is the program and its arguments; CommandPos the position of the command's value.
	Command    []string
	CommandPos Pos
	// Options gives values to options the player declares: a bool, a float64 or a string each.
	Options map[string]any
	// TimePerMove is the time allowed for each reply, 0 when not given (the default).
	TimePerMove time.Duration
	// GamesInFlight is the number of games one process plays at once, 0 when not given (1).
	GamesInFlight int
	// OnError says what a failure of the process does: OnErrorStop or OnErrorForfeit.
	OnError string
}

// What a failure of an external player's process does.
const (
	// OnErrorStop stops the run, keeping the games played (a run folder's checkpoint resumes it).
	OnErrorStop = "stop"
	// OnErrorForfeit loses the game the process failed in, and plays on with a new process
	// (docs/tournaments.md, "Players in any language").
	OnErrorForfeit = "forfeit"
)

// MaxRecords is the most games of each matchup a configuration may have recorded (records).
const MaxRecords = 1000

// MaxGamesInFlight is the most games one player process may play at once.
const MaxGamesInFlight = 1024

// MaxTimePerMove is the longest time per move a configuration may give: one day.
const MaxTimePerMove = 24 * time.Hour

// MemorySpec is a player's memory: as given, field by field (nil when not given). The fields are
// checked one by one, not in combination: the caller merges them with the policy's defaults and
// validates the result (rules.Memory.Validate), reporting errors with Tournament.At at MemoryPos.
type MemorySpec struct {
	Capacity    *int
	Forget      *rules.Forgetting
	Scope       *rules.Scope
	Q           *float64
	Fluctuation *int
}

// Error is a configuration error at a position of a file: Error() returns "file:line:col: message".
type Error struct {
	File         string
	Line, Column int
	Msg          string
}

// Error returns "file:line:col: message", the file's name shortened as ShortPath does.
func (e *Error) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", ShortPath(e.File), e.Line, e.Column, e.Msg)
}

// At returns an *Error at pos in t's file wrapping err's message, on one line and cut to 1,000
// bytes (used by callers to report errors found later, e.g. while building a player, at the
// player's position). It returns nil when err is nil.
func (t *Tournament) At(pos Pos, err error) error {
	if err == nil {
		return nil
	}
	return &Error{File: t.File, Line: pos.Line, Column: pos.Column, Msg: shortMessage(yamlnode.OneLine(err.Error()))}
}

// fileError converts an error of the reader to an *Error; it returns any other error as it is.
func fileError(err error) error {
	if e, ok := err.(*yamlnode.Error); ok {
		return &Error{File: e.File, Line: e.Line, Column: e.Column, Msg: e.Msg}
	}
	return err
}

//go:embed claims
var claimsFS embed.FS

// Claims returns the published claims the audit checks, copied from the project's specification:
// CLAIMS.md and the strategy tables it names, by file name.
func Claims() fs.FS {
	sub, err := fs.Sub(claimsFS, "claims")
	if err != nil {
		panic(err) // the embedded directory is fixed at build time
	}
	return sub
}
