package tournament_test

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"memsim/analysis/report"
	"memsim/configs"
	"memsim/tournament"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/golden from this build")

// The golden tournament's results.json, report.md and matchups.csv are pinned byte for byte, so
// that any change to the numbers a configuration gives (its streams, the engine, the statistics,
// the report) is deliberate and recorded here with -update. They were first written by the memsim
// of before the tournament became a library (the library gave them byte for byte), and written
// again when the streams came to follow the matches' content (streams v1).
func TestGoldenTournament(t *testing.T) {
	dir := filepath.Join("testdata", "golden")
	src, err := os.ReadFile(filepath.Join(dir, "golden.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := configs.Parse("golden.yaml", src, tournament.ConfigOptions())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	tr, err := tournament.New(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	res, err := tr.Play(ctx, tournament.Options{Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	run, err := tr.Report(ctx, res)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]func(*bytes.Buffer) error{
		report.ResultsFile:  func(b *bytes.Buffer) error { return report.WriteJSON(b, run) },
		report.ReportFile:   func(b *bytes.Buffer) error { return report.WriteMarkdown(b, run, nil) },
		report.MatchupsFile: func(b *bytes.Buffer) error { return report.WriteCSV(b, run) },
	}
	for name, write := range files {
		var got bytes.Buffer
		if err := write(&got); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name)
		if *update {
			if err := os.WriteFile(path, got.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Errorf("%s differs from %s: the numbers of a configuration changed (run go test ./tournament -run Golden -args -update to accept a deliberate change)", name, path)
		}
	}
}
