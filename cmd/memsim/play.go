package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"golang.org/x/term"

	"memsim/analysis/review"
	"memsim/cmd/memsim/internal/play"
	"memsim/configs"
	"memsim/sim"
	"memsim/sim/record"
	"memsim/sim/rules"
	"memsim/tournament"
)

// Bounds of memsim play's deals: a board a person can play, at most play.MaxColumns wide; and
// of the coach's, whose exact values are solved when the game begins (2 s at 30 pairs, 7 s at 40).
const (
	maxPlayPairs      = 100
	maxPlaySingletons = 20
	maxCoachPairs     = 30
)

// The random streams of memsim play's game: with --seed, the same deal and the same random draws
// of the bots.
const (
	playDealStream = 0x6d656d73696d2d64 // "memsim-d"
	playPlayStream = 0x6d656d73696d2d70 // "memsim-p"
)

// defaultOpponent is the player memsim play seats against the person when --against is not
// given and the configuration has it; otherwise its first player.
const defaultOpponent = "win-optimal"

// playCommand returns memsim play.
func playCommand() *command {
	return &command{
		name: "play",
		usage: []string{
			"memsim play [--config F|DIR] [--against NAME[,NAME...]] [--seat K] [--pairs N]\n" +
				"[--singletons S] [--pass RULE] [--seed S] [--coach] [--show-memory]\n" +
				"[--record FILE] [--name YOU] [--delay D]",
		},
		short: "play a game yourself against the players of a configuration",
		long: `
You play one game against the players --against names (default: win-optimal if the
configuration has it, else its first player) of the configuration F (or the run folder DIR; with
no --config the embedded default), at seat K (default 0), with their memories as configured. The
cards lie face down in a grid: columns a, b, ..., rows 1, 2, ...; flip one by its coordinate (c2)
or its position number (0 to 2N+S-1). Faces are named as memsim replay names them: P0, P1, ...
for the pairs, S0, ... for the singletons. --pairs, --singletons and --pass replace the
configuration's rules (default: its first deal size, its singletons and its pass rule).

On a terminal, memsim play redraws the board in place and reads keys: type a card and Enter, or
move the cursor with the arrows and press Enter or space; p passes, m shows what each bot
remembers, ? shows the keys, q quits (after y). Otherwise it reads lines: a card, pass, memory,
help or quit, one per line, after each prompt "your move (card 1):"; the end of the input quits.

--coach shows, before each of your moves, what every move open is worth, in expected pairs from
this turn on (both seats playing optimally afterwards) and in win score, P(win) + P(draw)/2 (both
playing to win afterwards), the best marked, and what your last move cost; its values are exact,
those of memsim review and memsim solve (perfect memory, the game's rules, two seats); under a
rule variant, the value of each choice of the variant's exact model at the start of your turns.
With three or more seats it gives, at the start of your turns, the value of each choice in your
expected pairs, every seat for itself afterwards (no win scores; no values under a rule variant).

The seed is printed (default: from the clock); --seed S deals the same game again. At the end,
finished or not, the game is written as a game record (docs/records.md) to --record FILE (default
memsim-game-SEED.jsonl in the current folder, with -2, -3, ... added when it exists). A game not
finished (quit, the end of the input, Ctrl-C) exits with status 1.
`,
		run: runPlay,
	}
}

type playFlags struct {
	config, against, record, name, pass string
	seat, pairs, singletons             int
	seed                                uint64
	showMemory, coach                   bool
	delay                               time.Duration
	set                                 map[string]bool // the flags given on the command line
}

func runPlay(ctx context.Context, c *command, inv invocation, args []string) int {
	var fl playFlags
	fs := newFlagSet("memsim play")
	fs.StringVar(&fl.config, "config", "", "the configuration `file`, or a run folder, whose players you play (default: the embedded default)")
	fs.StringVar(&fl.against, "against", "", "the `names` of your opponents, comma-separated, in seat order (default: "+defaultOpponent+" if the configuration has it, else its first player)")
	fs.IntVar(&fl.seat, "seat", 0, "your seat `K`, 0 to the number of opponents (seat 0 moves first)")
	fs.IntVar(&fl.pairs, "pairs", 0, fmt.Sprintf("deal size `N`, 1 to %d (default: the configuration's first)", maxPlayPairs))
	fs.IntVar(&fl.singletons, "singletons", 0, fmt.Sprintf("`S` singletons, 0 to %d (default: the configuration's)", maxPlaySingletons))
	fs.StringVar(&fl.pass, "pass", "", "pass `rule`: never, two-known or always (default: the configuration's)")
	fs.Uint64Var(&fl.seed, "seed", 0, "the `seed` of the deal and of the bots' random draws (default: from the clock)")
	fs.BoolVar(&fl.showMemory, "show-memory", false, "show what each bot remembers after every turn")
	fs.BoolVar(&fl.coach, "coach", false, "show what every move is worth before each of yours, and what your last one cost")
	fs.StringVar(&fl.record, "record", "", "write the game record to `FILE` (default: memsim-game-SEED.jsonl)")
	fs.StringVar(&fl.name, "name", "you", "your `name` at the table and in the record")
	fs.DurationVar(&fl.delay, "delay", 0, "the pause after each card a bot flips, a `duration` such as 400ms (default: 400ms on a terminal, 0 otherwise)")
	if code, done := c.parseFlags(fs, args, inv); done {
		return code
	}
	fl.set = given(fs)
	out := checkedStdout(inv.stdout)
	return exitFor(fs.Name(), out.result(playGame(ctx, fl, fs.Args(), inv.stdin, out)), inv.stderr)
}

// checkPlayFlags checks the flags that need no configuration.
func checkPlayFlags(fl playFlags, args []string) error {
	switch {
	case len(args) > 0:
		return usagef("unexpected argument %q (give the configuration with --config)", args[0])
	case fl.set["config"] && fl.config == "":
		return usagef("--config \"\": give a configuration file or a run folder")
	case fl.set["against"] && strings.TrimSpace(fl.against) == "":
		return usagef("--against \"\": give the names of your opponents, comma-separated")
	case fl.set["pairs"] && (fl.pairs < 1 || fl.pairs > maxPlayPairs):
		return usagef("--pairs %d: must be between 1 and %d", fl.pairs, maxPlayPairs)
	case fl.set["singletons"] && (fl.singletons < 0 || fl.singletons > maxPlaySingletons):
		return usagef("--singletons %d: must be between 0 and %d", fl.singletons, maxPlaySingletons)
	case fl.set["record"] && fl.record == "":
		return usagef("--record \"\": give the file to write the game record to")
	case fl.delay < 0:
		return usagef("--delay %s: must be 0 or more", fl.delay)
	}
	if err := checkName(fl.name); err != nil {
		return usagef("--name %q: %v", cut40(fl.name), err)
	}
	if fl.record != "" {
		// The game is written at its end: a folder that is not there would lose it.
		dir := filepath.Dir(fl.record)
		if info, err := os.Stat(dir); err != nil || !info.IsDir() {
			return usagef("--record %s: the folder %s does not exist: give a file in an existing folder", configs.ShortPath(fl.record), configs.ShortPath(dir))
		}
	}
	return nil
}

// checkName checks the person's name: 1 to 40 characters, printable.
func checkName(name string) error {
	switch {
	case strings.TrimSpace(name) == "":
		return errors.New("must not be empty")
	case len([]rune(name)) > 40:
		return errors.New("must be at most 40 characters")
	case strings.IndexFunc(name, func(r rune) bool { return !unicode.IsPrint(r) }) >= 0:
		return errors.New("must be printable characters")
	}
	return nil
}

// cut40 cuts a value quoted in a message to 40 characters.
func cut40(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return s
}

// playGame plays the game of the flags: it seats the person and the bots, plays, and writes the
// record.
func playGame(ctx context.Context, fl playFlags, args []string, stdin io.Reader, stdout io.Writer) error {
	if err := checkPlayFlags(fl, args); err != nil {
		return err
	}
	cfg, err := replayConfig(replayFlags{config: fl.config, set: fl.set})
	if err != nil {
		return err
	}
	against, err := opponents(cfg, fl)
	if err != nil {
		return err
	}
	seats := len(against) + 1
	switch {
	case fl.seat < 0 || fl.seat >= seats:
		return usagef("--seat %d: must be between 0 and %d (the number of opponents)", fl.seat, seats-1)
	case seats > rules.MaxPlayers:
		return usagef("--against %q: %d opponents, at most %d", cut40(fl.against), len(against), rules.MaxPlayers-1)
	case slices.Contains(against, fl.name):
		return usagef("--name %q: an opponent's name: choose another", fl.name)
	}
	if err := playRules(cfg, fl, seats); err != nil {
		return err
	}
	if !fl.set["seed"] {
		fl.seed = uint64(time.Now().UnixNano())
	}
	t, idx, err := buildOpponents(ctx, cfg, against)
	if err != nil {
		return err
	}
	defer t.Close()
	if err := ctx.Err(); err != nil {
		return err // interrupted before the game: no record
	}

	rawFile, raw := stdin.(*os.File)
	raw = raw && term.IsTerminal(int(rawFile.Fd()))
	if !fl.set["delay"] && raw {
		fl.delay = 400 * time.Millisecond
	}
	table, setupSeats := seatTable(cfg, t, idx, against, fl)
	gctx, interrupt := context.WithCancel(ctx)
	defer interrupt()
	person := &play.Person{Ctx: gctx, Table: table}
	if fl.coach {
		if p := cfg.Rules.Pairs[0]; p > maxCoachPairs {
			return usagef("--coach: the coach judges deals of at most %d pairs (this one has %d): its exact values take seconds beyond", maxCoachPairs, p)
		}
		if seats > 2 {
			r := record.Rules{Pairs: cfg.Rules.Pairs[0], Singletons: cfg.Rules.Singletons, Seats: seats, Pass: cfg.Rules.Pass, Variant: cfg.Rules.Variant}
			coach, err := play.NewSeatsCoach(ctx, r)
			switch {
			case errors.Is(err, review.ErrNoSeatsValues):
				person.Coach = &play.NoValuesCoach{Variant: cfg.Rules.Variant, Why: err}
			case err != nil:
				return err
			default:
				person.Coach = coach
			}
		} else if v := cfg.Rules.Variant; !v.Standard() {
			coach, err := play.NewVariantCoach(ctx, record.Rules{Pairs: cfg.Rules.Pairs[0], Singletons: cfg.Rules.Singletons,
				Seats: seats, Pass: cfg.Rules.Pass, Variant: v})
			switch {
			case errors.Is(err, review.ErrNoVariantModel):
				person.Coach = &play.NoValuesCoach{Variant: v, Why: err}
			case err != nil:
				return err
			default:
				person.Coach = coach
			}
		} else {
			coach, err := play.NewExactCoach(ctx, record.Rules{Pairs: cfg.Rules.Pairs[0], Singletons: cfg.Rules.Singletons,
				Seats: seats, Pass: cfg.Rules.Pass})
			if err != nil {
				return err
			}
			person.Coach = coach
		}
	}
	setup := sim.Setup{Pairs: cfg.Rules.Pairs[0], Singletons: cfg.Rules.Singletons, Pass: cfg.Rules.Pass, Players: setupSeats,
		Variant: cfg.Rules.Variant}
	setup.Players[fl.seat] = sim.Player{Name: fl.name, NewStrategy: func() sim.Strategy { return person }}
	g, err := sim.NewGame(setup)
	if err != nil {
		return badInput(fmt.Errorf("%s: %w", cfg.File, err))
	}
	defer g.Close()
	person.Memories = func(seat int) []sim.Card { return g.Remembered(seat, nil) }

	header := playHeader(cfg, fl, table)
	var restore func()
	if raw {
		ui := play.NewRawUI(stdin, stdout, interrupt)
		ui.Header, ui.Delay, ui.ShowMemory = header, fl.delay, fl.showMemory
		person.UI = ui
		state, err := term.MakeRaw(int(rawFile.Fd()))
		if err != nil {
			return fmt.Errorf("setting the terminal to raw mode: %w", err)
		}
		restore = func() {
			term.Restore(int(rawFile.Fd()), state)
			fmt.Fprint(stdout, "\x1b[H\x1b[2J")
		}
		defer func() {
			if restore != nil {
				restore()
			}
		}()
	} else {
		ui := play.NewLineUI(stdin, stdout)
		ui.ShowMemory = fl.showMemory
		person.UI = ui
		for _, l := range header {
			fmt.Fprintln(stdout, l)
		}
	}
	started := time.Now()
	playErr := g.Play(sim.GameID{Seed: fl.seed, DealStream: playDealStream, PlayStream: playPlayStream}, nil)
	if restore != nil {
		restore()
		restore = nil
		for _, l := range header {
			fmt.Fprintln(stdout, l)
		}
	}
	finished := playErr == nil && gctx.Err() == nil
	if finished || raw {
		// The line mode showed the board at the last question; the screen of the raw mode is gone.
		for _, l := range play.Board(table, -1) {
			fmt.Fprintln(stdout, l)
		}
	}
	if finished {
		fmt.Fprintln(stdout, resultLine(table, g.Outcome()))
	}
	path, err := saveRecord(fl, cfg, idx, against, table, g.Outcome(), started, finished)
	if err != nil {
		return err
	}
	return unfinished(playErr, gctx.Err(), table, path, stdout)
}

// unfinished returns the error that ended the game, if it did not finish, saying where its record
// is; or, for a finished game, prints where the record is and returns nil.
func unfinished(playErr, interrupted error, table *play.Table, path string, stdout io.Writer) error {
	turns := count(table.TurnNo-1, "turn")
	switch {
	case playErr == nil && interrupted == nil:
		fmt.Fprintf(stdout, "record written to %s\n", path)
		return nil
	case errors.Is(playErr, play.ErrQuit):
		return fmt.Errorf("you quit after %s: the game was not finished; its record is in %s", turns, path)
	case errors.Is(playErr, play.ErrInputEnded):
		return fmt.Errorf("the input ended after %s: the game was not finished; its record is in %s", turns, path)
	case interrupted != nil || errors.Is(playErr, context.Canceled):
		return fmt.Errorf("interrupted after %s: the game was not finished; its record is in %s", turns, path)
	}
	return fmt.Errorf("the game stopped: %w; the record of the unfinished game is in %s", playErr, path)
}

// opponents returns the names of the players --against names, checked against the
// configuration's players, or the default opponent.
func opponents(cfg *configs.Tournament, fl playFlags) ([]string, error) {
	names := make([]string, len(cfg.Players))
	for i, p := range cfg.Players {
		names[i] = p.Name
	}
	if !fl.set["against"] {
		if slices.Contains(names, defaultOpponent) {
			return []string{defaultOpponent}, nil
		}
		return names[:1], nil
	}
	var out []string
	for _, name := range strings.Split(fl.against, ",") {
		name = strings.TrimSpace(name)
		if slices.Contains(names, name) {
			out = append(out, name)
			continue
		}
		msg := fmt.Sprintf("--against %q: no player %q in %s", cut40(fl.against), cut40(name), cfg.File)
		if s := suggest(name, names); s != "" {
			return nil, usagef("%s (did you mean %s?)", msg, s)
		}
		return nil, usagef("%s (allowed: %s)", msg, strings.Join(names, ", "))
	}
	return out, nil
}

// playRules sets the configuration's rules to the game's: one deal size, the flags' model, seats
// players per game and nothing else to lay out (no luck tables, no stopping rule).
func playRules(cfg *configs.Tournament, fl playFlags, seats int) error {
	r := &cfg.Rules
	if fl.set["pairs"] {
		r.Pairs = []int{fl.pairs}
	}
	r.Pairs = r.Pairs[:1]
	if fl.set["singletons"] {
		r.Singletons = fl.singletons
	}
	if fl.set["pass"] {
		p, err := rules.ParsePassRule(fl.pass)
		if err != nil {
			return usagef("--pass %q: allowed: never, two-known, always", cut40(fl.pass))
		}
		r.Pass = p
	}
	switch {
	case r.Pairs[0] > maxPlayPairs:
		return usagef("%s: %d pairs: memsim play deals at most %d (give --pairs)", cfg.File, r.Pairs[0], maxPlayPairs)
	case r.Singletons > maxPlaySingletons:
		return usagef("%s: %d singletons: memsim play deals at most %d (give --singletons)", cfg.File, r.Singletons, maxPlaySingletons)
	}
	r.PlayersPerGame = seats
	cfg.LuckAdjusted, cfg.Stop, cfg.Paired = false, nil, false
	return nil
}

// buildOpponents builds the players against names through tournament.New, as a tournament
// builds them (their tables for the game's rules and seats, their memories as configured), and
// starts those that are processes. It returns the tournament and the index of each name in its
// players. The tournament has more seats than players, so it lays out no match.
func buildOpponents(ctx context.Context, cfg *configs.Tournament, against []string) (*tournament.Tournament, map[string]int, error) {
	idx := map[string]int{}
	var players []configs.Player
	for _, p := range cfg.Players {
		if slices.Contains(against, p.Name) {
			idx[p.Name] = len(players)
			players = append(players, p)
		}
	}
	cfg.Players = players
	t, err := tournament.New(ctx, cfg)
	if err != nil {
		return nil, nil, badInput(err)
	}
	if err := t.StartPlayers(ctx, nil); err != nil {
		t.Close()
		return nil, nil, badInput(err)
	}
	return t, idx, nil
}

// seatTable returns the table of the game and its seats' players, the person's seat left empty.
func seatTable(cfg *configs.Tournament, t *tournament.Tournament, idx map[string]int, against []string, fl playFlags) (*play.Table, []sim.Player) {
	n := len(against) + 1
	seats := make([]play.Seat, n)
	players := make([]sim.Player, n)
	k := 0
	for i := range n {
		if i == fl.seat {
			seats[i] = play.Seat{Name: fl.name, Person: true}
			continue
		}
		b := t.Players[idx[against[k]]]
		k++
		players[i] = b.Player
		seats[i] = play.Seat{Name: b.Player.Name, Memory: b.Player.Memory.String(), Program: b.External != nil}
	}
	table := play.NewTable(cfg.Rules.Pairs[0], cfg.Rules.Singletons, seats)
	table.Variant = cfg.Rules.Variant
	return table, players
}

// playHeader is what memsim play says of the game before it begins: the rules and the seed, then
// who sits where.
func playHeader(cfg *configs.Tournament, fl playFlags, t *play.Table) []string {
	game := fmt.Sprintf("memsim play: %s", count(t.Pairs, "pair"))
	if t.Singletons > 0 {
		game += ", " + count(t.Singletons, "singleton")
	}
	game += ", pass " + cfg.Rules.Pass.String()
	if v := cfg.Rules.Variant; !v.Standard() {
		game += ", " + v.String()
	}
	game += fmt.Sprintf(", seed %d (--seed %d deals this game again), configuration %s", fl.seed, fl.seed, cfg.Name)
	seats := make([]string, len(t.Seats))
	for i, s := range t.Seats {
		switch {
		case s.Person:
			seats[i] = fmt.Sprintf("%d %s (person)", i, s.Name)
		case s.Program:
			seats[i] = fmt.Sprintf("%d %s (a program)", i, s.Name)
		default:
			seats[i] = fmt.Sprintf("%d %s (%s memory)", i, s.Name, s.Memory)
		}
	}
	return []string{game, "seats: " + strings.Join(seats, ", ")}
}

// resultLine says how the game ended: "result after 9 turns (all pairs taken): you 2, daring 1;
// you win".
func resultLine(t *play.Table, o *sim.Outcome) string {
	p := len(t.Seats)
	res := make([]string, p)
	best := slices.Max(o.Share)
	var winners []int
	for i := range t.Seats {
		res[i] = fmt.Sprintf("%s %s", t.Name(i), shareString(o.Share[i], p))
		if o.Share[i] == best {
			winners = append(winners, i)
		}
	}
	end := "all pairs taken"
	switch {
	case o.Stalemate:
		end = fmt.Sprintf("stalemate with %s left, shared equally", count(o.Left, "pair"))
	case o.Limited:
		end = fmt.Sprintf("turn limit with %s left, counted for nobody", count(o.Left, "pair"))
	}
	verdict := ""
	switch {
	case p == 1:
	case len(winners) > 1:
		names := make([]string, len(winners))
		for k, i := range winners {
			names[k] = t.Name(i)
		}
		verdict = "; a draw between " + strings.Join(names, " and ")
	case t.Seats[winners[0]].Person:
		verdict = "; you win"
	default:
		verdict = fmt.Sprintf("; %s wins", t.Name(winners[0]))
	}
	return fmt.Sprintf("result after %s (%s): %s%s", count(o.Turns, "turn"), end, strings.Join(res, ", "), verdict)
}

// saveRecord writes the game's record, whole or not at all, to --record or to a new file
// memsim-game-SEED.jsonl (-2, -3, ... added when one exists), and returns its path.
func saveRecord(fl playFlags, cfg *configs.Tournament, idx map[string]int, against []string,
	table *play.Table, o *sim.Outcome, started time.Time, finished bool) (string, error) {
	g := &record.Game{
		Rules: record.Rules{Pairs: table.Pairs, Singletons: table.Singletons, Seats: len(table.Seats), Pass: cfg.Rules.Pass,
			Variant: cfg.Rules.Variant},
		Started: started.UTC(),
		Meta: map[string]string{
			"source":  "memsim play",
			"config":  cfg.Name,
			"seed":    strconv.FormatUint(fl.seed, 10),
			"against": strings.Join(against, ","),
			"seat":    strconv.Itoa(fl.seat),
		},
		Moves: table.Moves,
		Ended: finished && o.Stalemate,
	}
	k := 0
	for i, s := range table.Seats {
		if i == fl.seat {
			g.Players = append(g.Players, record.Player{Name: s.Name, Kind: record.KindPerson})
			continue
		}
		rp := tournament.RecordPlayer(cfg.Players[idx[against[k]]])
		k++
		rp.Name = s.Name
		g.Players = append(g.Players, rp)
	}
	path := fl.record
	if path == "" {
		path = freeName(fmt.Sprintf("memsim-game-%d", fl.seed), ".jsonl")
	}
	if err := writeRecord(path, g); err != nil {
		return "", fmt.Errorf("writing the game record: %w", err)
	}
	return path, nil
}

// freeName returns base+ext, or base-2+ext, base-3+ext, ..., the first that names no file.
func freeName(base, ext string) string {
	name := base + ext
	for i := 2; ; i++ {
		if _, err := os.Lstat(name); errors.Is(err, os.ErrNotExist) {
			return name
		}
		name = fmt.Sprintf("%s-%d%s", base, i, ext)
	}
}
