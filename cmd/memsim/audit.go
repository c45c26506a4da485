package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"memsim/analysis/audit"
	"memsim/analysis/report"
	"memsim/configs"
	"memsim/tournament"
	"memsim/tournament/rundir"
)

// auditCommand returns memsim audit.
func auditCommand() *command {
	return &command{
		name: "audit",
		usage: []string{
			"memsim audit [--games G] [--workers W] [--win-pairs LIST] [--json] [--output DIR] [--force]",
		},
		short: "check the published claims",
		long: `
Checks the published claims (configs/claims/CLAIMS.md and its tables) against the exact solver and
simulation, each in its source's own model, and writes audit.md, audit.json and audit.html to DIR
(default results/audit), with a section on what the full game changes beyond the sources: where
known-first is strictly best, how the published tables move, and what playing to win changes at
the deal sizes of --win-pairs (exact). As a run folder, DIR is replaced whole once the audit is
written, so that it holds the old audit or the new one, never a mix; a DIR that is not empty (an
audit, any file) is only replaced with --force. A refuted claim is a finding, not a failure: the
exit status is 0 unless the audit could not run.

A flag not given takes its default; a value given is used as it is: --games below 100 is an
error, --workers 0 means one worker per CPU.
`,
		run: runAudit,
	}
}

type auditFlags struct {
	games    int64
	workers  int
	json     bool
	force    bool
	output   string
	winPairs string
}

func runAudit(ctx context.Context, c *command, inv invocation, args []string) int {
	var fl auditFlags
	fs := newFlagSet("memsim audit")
	fs.Int64Var(&fl.games, "games", 200000, "`G` games (or duels) per simulation")
	fs.IntVar(&fl.workers, "workers", 0, "`W` worker goroutines (0: one per CPU)")
	fs.BoolVar(&fl.json, "json", false, "print audit.json on stdout instead of the summary")
	fs.StringVar(&fl.winPairs, "win-pairs", "12,26,52", "deal sizes of the win findings, a comma-separated `LIST` of 1 to 60")
	fs.StringVar(&fl.output, "output", filepath.Join("results", "audit"), "`DIR` for audit.md, audit.json and audit.html")
	fs.BoolVar(&fl.force, "force", false, "replace an existing audit in DIR")
	if code, done := c.parseFlags(fs, args, inv); done {
		return code
	}
	out := checkedStdout(inv.stdout)
	return exitFor(fs.Name(), out.result(runAuditTo(ctx, fl, fs.Args(), out, inv.stderr)), inv.stderr)
}

// runAuditTo runs the audit, writes its folder and prints its summary (or audit.json) on stdout,
// then the folder and its files on stderr.
func runAuditTo(ctx context.Context, fl auditFlags, args []string, stdout, stderr io.Writer) error {
	switch {
	case len(args) > 0:
		return usagef("unexpected argument %q", args[0])
	case checkGames(fl.games, 100) != nil:
		return checkGames(fl.games, 100)
	case checkWorkers(fl.workers) != nil:
		return checkWorkers(fl.workers)
	case fl.output == "":
		return usagef("--output \"\": give the folder to write the audit to")
	case checkFolderFlag("--output", fl.output) != nil:
		return checkFolderFlag("--output", fl.output)
	}
	var sizes []int
	for _, f := range strings.Split(fl.winPairs, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 || n > 60 {
			return usagef("--win-pairs %q: must be a comma-separated list of deal sizes from 1 to 60", fl.winPairs)
		}
		sizes = append(sizes, n)
	}
	// The lock first, and the folder checked before the audit runs, not after.
	f, err := rundir.Options{Layout: auditLayout()}.Open(fl.output)
	if err != nil {
		return badInput(folderError(err)) // a path that names no folder memsim can use: a link to nothing, say
	}
	lock, err := f.Lock()
	if err != nil {
		return folderError(err)
	}
	defer lock.Release()
	if err := f.Check(fl.force); err != nil {
		return folderError(err)
	}
	sim := &tournament.Simulator{Games: fl.games, Workers: fl.workers, Seed: audit.Seed}
	res, err := audit.Run(ctx, configs.Claims(), audit.Options{Sim: sim, Games: fl.games, SolitaireN: 100, DuelN: 9, WinSizes: sizes})
	if err != nil {
		return err
	}
	js, err := res.JSON()
	if err != nil {
		return err
	}
	html, err := res.HTML()
	if err != nil {
		return err
	}
	files := auditLayout().Files
	err = f.Replace(fl.force, func(staging string) error {
		for i, data := range [][]byte{js, []byte(res.Markdown()), html} {
			if err := report.WriteFileAtomic(filepath.Join(staging, files[i]), data); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return folderError(err)
	}
	if fl.json {
		_, err = stdout.Write(js)
	} else {
		_, err = io.WriteString(stdout, res.Summary())
	}
	if err == nil {
		fmt.Fprintf(stderr, "memsim audit: wrote %s (%s)\n", f.Path(), strings.Join(files, ", "))
	}
	return err
}

// auditLayout is what memsim audit writes in its folder: audit.json, audit.md and audit.html,
// each of which shows that the folder holds an audit.
func auditLayout() rundir.Layout {
	files := []string{"audit.json", "audit.md", "audit.html"}
	return rundir.Layout{Name: "audit", Files: files, Marks: files}
}
