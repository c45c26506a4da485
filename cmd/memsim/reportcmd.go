package main

import (
	"context"
	"encoding/json"
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
config.yaml: report.md, report.html with its plots, and the PNG copies in DIR/plots/ (a folder
memsim replaces whole). Whatever else DIR holds (shard folders, a merged run, your own files) is
left as it is.
`,
		run: runReport,
	}
}

func runReport(ctx context.Context, c *command, inv invocation, args []string) int {
	fs := newFlagSet("memsim report")
	if code, done := c.parseFlags(fs, args, inv); done {
		return code
	}
	return exitFor(fs.Name(), regenerate(ctx, fs.Args(), inv.stdout), inv.stderr)
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
	data, err := os.ReadFile(filepath.Join(dir, report.ResultsFile))
	if err != nil {
		return usagef("read the run: %v", err)
	}
	var r report.Run
	if err := json.Unmarshal(data, &r); err != nil {
		return usagef("%s: %v", filepath.Join(dir, report.ResultsFile), err)
	}
	if r.SchemaVersion != report.SchemaVersion {
		return usagef("%s: schema version %d, this memsim reads %d (run it again)", filepath.Join(dir, report.ResultsFile), r.SchemaVersion, report.SchemaVersion)
	}
	cfg, err := readRunConfig(dir)
	if err != nil {
		return err
	}
	if err := tournament.CheckRunConfig(cfg, &r); err != nil {
		return usagef("%s is not the run of %s: %v", filepath.Join(dir, report.ResultsFile), filepath.Join(dir, report.ConfigFile), err)
	}
	t, err := tournament.New(ctx, cfg)
	if err != nil {
		return badInput(err)
	}
	figs, err := t.Figures(ctx, &r)
	if err != nil {
		return err
	}
	err = f.Refresh(func(staging string) error { return report.WriteDir(staging, &r, cfg.YAML(), figs) })
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s and %s with %d figures\n", filepath.Join(dir, report.ReportFile), filepath.Join(dir, report.HTMLFile), len(figs))
	return nil
}
