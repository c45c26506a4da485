package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"memsim/analysis/report"
	"memsim/tournament"
	"memsim/tournament/rundir"
)

// reportCommand returns memsim report.
func reportCommand() *command {
	return &command{
		name: "report",
		usage: []string{
			"memsim report DIR",
		},
		short: "regenerate a run folder's report.md and report.html",
		long: `
Regenerates the report of the run folder DIR (written by memsim run) from its results.json and
config.yaml: report.md, report.html with its plots, and the PNG copies in DIR/plots/, each file
replaced by one rename. A results.json or config.yaml that was changed since memsim wrote it is
refused. Whatever else DIR holds (shard folders, a merged run, your own files) is left as it is;
a plots/ holding files memsim did not write there is refused.
`,
		run: runReport,
	}
}

func runReport(ctx context.Context, c *command, inv invocation, args []string) int {
	fs := newFlagSet("memsim report")
	if code, done := c.parseFlags(fs, args, inv); done {
		return code
	}
	out := checkedStdout(inv.stdout)
	return exitFor(fs.Name(), out.result(regenerate(ctx, fs.Args(), out)), inv.stderr)
}

func regenerate(ctx context.Context, args []string, stdout io.Writer) error {
	switch {
	case len(args) == 0:
		return required("DIR", "the run folder whose report to regenerate")
	case len(args) > 1:
		return usagef("one run folder at most, got %d: %v", len(args), args)
	}
	f, err := rundir.Open(args[0])
	if err != nil {
		return badInput(folderError(err)) // a path that names no folder memsim can use: a link to nothing, say
	}
	dir := f.Path()
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		if err == nil {
			err = fmt.Errorf("%s is a file, not a run folder", args[0])
		}
		return usagef("read the run: %v", err)
	}
	// The lock first: a run writing this folder meanwhile must not have its results replaced by
	// the ones read here.
	lock, err := f.Lock()
	if err != nil {
		return folderError(err)
	}
	defer lock.Release()
	results := filepath.Join(dir, report.ResultsFile)
	data, err := rundir.ReadFile(results, rundir.MaxFileSize)
	if err != nil {
		return usagef("read the run: %v", err)
	}
	// What needs no configuration first: a file that does not parse, of another schema version,
	// or not as memsim writes it.
	if _, err := report.ReadJSON(data); err != nil {
		return usagef("%s: %v", results, err)
	}
	cfg, err := readRunConfig(dir)
	if err != nil {
		return err
	}
	// The file is verified (its seal, against config.yaml's identity) and every value checked
	// before anything is rendered.
	r, err := tournament.ReadRun(cfg, data)
	switch {
	case errors.Is(err, report.ErrOtherConfiguration):
		return usagef("%s is not the run of %s: %v", results, filepath.Join(dir, report.ConfigFile), err)
	case err != nil:
		return usagef("%s: %v", results, err)
	}
	t, err := tournament.New(ctx, cfg)
	if err != nil {
		return badInput(err)
	}
	defer t.Close()
	if err := t.CheckRun(r); err != nil {
		return usagef("%s: %v", results, err)
	}
	figs, err := t.Figures(ctx, r)
	if err != nil {
		return err
	}
	err = f.Refresh(func(staging string) error { return report.WriteDir(staging, r, cfg.YAML(), figs, t.Records(nil)...) })
	if err != nil {
		return folderError(err)
	}
	fmt.Fprintf(stdout, "wrote %s and %s with %s\n", filepath.Join(dir, report.ReportFile), filepath.Join(dir, report.HTMLFile), count(len(figs), "figure"))
	return nil
}
