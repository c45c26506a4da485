package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"memsim/analysis/report"
	"memsim/tournament"
)

const reportUsage = `Usage:
  memsim report DIR

Regenerates the report of the run folder DIR (written by memsim run) from its results.json and
config.yaml: report.md, report.html with its plots, and the PNG copies in DIR/plots/.

Flags:
`

func runReport(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("memsim report", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if code, done := parseFlags(fs, reportUsage, args, stdout, stderr); done {
		return code
	}
	return exitFor(fs.Name(), regenerate(ctx, fs.Args(), stdout), stderr)
}

func regenerate(ctx context.Context, args []string, stdout io.Writer) error {
	if len(args) != 1 {
		return usagef("give one run folder, got %d arguments", len(args))
	}
	dir := args[0]
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
	t, err := tournament.New(ctx, cfg)
	if err != nil {
		return badInput(err)
	}
	figs, err := t.Figures(ctx, &r)
	if err != nil {
		return err
	}
	if err := report.WriteDir(dir, &r, nil, figs); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s and %s with %d figures\n", filepath.Join(dir, report.ReportFile), filepath.Join(dir, report.HTMLFile), len(figs))
	return nil
}
