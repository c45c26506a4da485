package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"memsim/analysis/report"
	"memsim/configs"
	"memsim/tournament"
)

// usageError is bad input: reported as one line, exit status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return &usageError{fmt.Sprintf(format, args...)} }

// badInput marks err, when not nil, as bad input, unless it is an interruption (see
// interrupted), which it returns as it is.
func badInput(err error) error {
	if err == nil || interrupted(err) {
		return err
	}
	return &usageError{err.Error()}
}

// interrupted reports whether err comes from a cancelled context: the command was interrupted
// (SIGINT, SIGTERM), which is neither bad input nor a failure to report in detail.
func interrupted(err error) bool {
	return errors.Is(err, context.Canceled)
}

// checkGames checks a --games value against its command's least value and tournament.MaxGames.
func checkGames(g, least int64) error {
	if g < least || g > tournament.MaxGames {
		return usagef("--games %d: must be between %d and %d", g, least, int64(tournament.MaxGames))
	}
	return nil
}

// checkWorkers checks a --workers value: 0 (one per CPU) up to tournament.MaxWorkers.
func checkWorkers(w int) error {
	if w < 0 || w > tournament.MaxWorkers {
		return usagef("--workers %d: must be between 0 (one per CPU) and %d", w, tournament.MaxWorkers)
	}
	return nil
}

// newFlagSet returns an empty flag set for the command name ("memsim run"), which reports its
// errors through parseFlags rather than printing them.
func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// parseFlags parses args, the arguments of command c, into fs, flags and arguments in any order
// (see interleave). It returns done with the exit status when the command should stop: after
// printing c's help on inv's stdout for -h, or after a one-line error on its stderr.
func (c *command) parseFlags(fs *flag.FlagSet, args []string, inv invocation) (code int, done bool) {
	err := fs.Parse(interleave(fs, args))
	switch {
	case err == nil:
		return exitOK, false
	case errors.Is(err, flag.ErrHelp):
		out := checkedStdout(inv.stdout)
		c.printHelp(out, fs)
		return exitFor(fs.Name(), out.result(nil), inv.stderr), true
	}
	fmt.Fprintln(inv.stderr, fs.Name()+": "+flagError(fs, err))
	return exitUsage, true
}

// flagError rewrites the flag package's errors as one line naming the flag.
func flagError(fs *flag.FlagSet, err error) string {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		if s := suggest(name, flagNames(fs)); s != "" {
			return fmt.Sprintf("unknown flag --%s (did you mean %s?)", name, s)
		}
		return fmt.Sprintf("unknown flag --%s (see %s -h)", name, fs.Name())
	}
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: -"); ok {
		if f := fs.Lookup(name); f != nil {
			_, use := flag.UnquoteUsage(f)
			return fmt.Sprintf("--%s needs a value: %s", name, use)
		}
	}
	// invalid value "x" for flag -pairs: parse error, or invalid boolean value "x" for -quiet: ...
	for _, form := range [][2]string{{"invalid value ", " for flag -"}, {"invalid boolean value ", " for -"}} {
		rest, ok := strings.CutPrefix(msg, form[0])
		if !ok {
			continue
		}
		value, name, ok := strings.Cut(rest, form[1])
		if !ok {
			break
		}
		name, _, _ = strings.Cut(name, ":")
		kind := "a whole number"
		if f := fs.Lookup(name); f != nil {
			if isBool(f) {
				kind = "true or false"
			} else if g, ok := f.Value.(flag.Getter); ok {
				switch g.Get().(type) {
				case float64:
					kind = "a number"
				case time.Duration:
					kind = "a duration such as 5s or 1m"
				}
			}
		}
		return fmt.Sprintf("--%s %s: must be %s", name, value, kind)
	}
	return msg
}

// required is the message for a required flag (or argument) that was not given, one wording for
// every command: "--out DIR is required: the run folder to write".
func required(what, format string, args ...any) error {
	return usagef("%s is required: %s", what, fmt.Sprintf(format, args...))
}

// requiredWith is the message for a flag that another one needs: "--cards K is required with
// --gerez: the cards on the table".
func requiredWith(what, with, format string, args ...any) error {
	return usagef("%s is required with %s: %s", what, with, fmt.Sprintf(format, args...))
}

// checkFolderFlag checks the folder a flag names (audit --output, merge --out) before anything is
// created, by the rules a configuration's output follows (configs.CheckFolder).
func checkFolderFlag(flag, dir string) error {
	if err := configs.CheckFolder(dir); err != nil {
		return usagef("%s %v (a path of at most %d bytes without control characters, names of at most %d bytes)",
			flag, err, configs.MaxOutputLength, configs.MaxComponentLength)
	}
	return nil
}

// exitFor reports err, if any, on one line of stderr prefixed with the command's name and returns
// the exit status: exitUsage for bad input, exitError otherwise. An interruption is reported as
// "NAME: interrupted", exit status 1.
func exitFor(name string, err error, stderr io.Writer) int {
	if err == nil {
		return exitOK
	}
	if interrupted(err) {
		fmt.Fprintln(stderr, name+": interrupted")
		return exitError
	}
	fmt.Fprintln(stderr, name+": "+err.Error())
	var ue *usageError
	if errors.As(err, &ue) {
		return exitUsage
	}
	return exitError
}

// readInput reads the one file args names (what names a kind of file in messages), within
// configs.ReadFile's bounds, or returns the embedded default when args is empty.
func readInput(args []string, what string, embedded func() (string, []byte)) (string, []byte, error) {
	switch len(args) {
	case 0:
		file, data := embedded()
		return file, data, nil
	case 1:
		data, err := configs.ReadFile(args[0])
		if err != nil {
			return "", nil, usagef("read %s: %v", what, err)
		}
		return args[0], data, nil
	}
	return "", nil, usagef("one %s file at most, got %d: %s", what, len(args), configs.ShortPath(fmt.Sprint(args)))
}

// loadConfig reads and parses the configuration named by args (at most one file), or the
// embedded default.
func loadConfig(args []string) (*configs.Tournament, error) {
	file, data, err := readInput(args, "configuration", configs.Default)
	if err != nil {
		return nil, err
	}
	cfg, err := configs.Parse(file, data, tournament.ConfigOptions())
	return cfg, badInput(err)
}

// readRunConfig reads and parses the config.yaml of a run or shard folder, within
// configs.ReadFile's bounds.
func readRunConfig(dir string) (*configs.Tournament, error) {
	file := filepath.Join(dir, report.ConfigFile)
	data, err := configs.ReadFile(file)
	if err != nil {
		return nil, usagef("%v", err)
	}
	cfg, err := configs.Parse(file, data, tournament.ConfigOptions())
	return cfg, badInput(err)
}

// loadSuite reads the suite named by args (at most one file), or the embedded one.
func loadSuite(args []string) ([]*configs.Tournament, error) {
	file, data, err := readInput(args, "suite", configs.ValidationSuite)
	if err != nil {
		return nil, err
	}
	suite, err := configs.ParseSuite(file, data, tournament.ConfigOptions())
	return suite, badInput(err)
}
