package rundir_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"memsim/analysis/report"
	"memsim/configs"
	"memsim/tournament"
	"memsim/tournament/rundir"
)

// A program keeps its run folder as memsim run does: it takes the folder's lock, claims the
// folder for the new run, writes checkpoints while it plays, and replaces the folder with the
// run's files at the end, atomically.
func Example() {
	out, err := os.MkdirTemp("", "example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(out)
	ctx := context.Background()
	cfg, err := configs.Parse("tiny.yaml", []byte(tiny), tournament.ConfigOptions())
	if err != nil {
		fmt.Println(err)
		return
	}
	t, err := tournament.New(ctx, cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	f, err := rundir.Open(filepath.Join(out, cfg.Name))
	if err != nil {
		fmt.Println(err)
		return
	}
	lock, err := f.Lock()
	if err != nil {
		fmt.Println(err) // "run folder ... is in use by memsim process 1234 (lock ...)"
		return
	}
	defer lock.Release()
	if err := f.Claim(false, cfg.YAML()); err != nil {
		fmt.Println(err) // "run folder ... already holds a run (results.json)"
		return
	}
	ck := f.CheckpointWriter(5 * time.Second)
	res, err := t.Play(ctx, tournament.Options{Workers: 2, Checkpoint: ck.Update})
	if err != nil {
		ck.Write() // for rundir.Folder.ReadCheckpoint and Options.Resume
		fmt.Println(err)
		return
	}
	run, err := t.Report(ctx, res)
	if err != nil {
		fmt.Println(err)
		return
	}
	err = f.Replace(false, func(staging string) error { return report.WriteDir(staging, run, cfg.YAML(), nil) })
	if err != nil {
		fmt.Println(err)
		return
	}
	entries, _ := os.ReadDir(f.Path())
	for _, e := range entries {
		fmt.Println(e.Name())
	}
	// Output:
	// config.yaml
	// matchups.csv
	// plots
	// report.html
	// report.md
	// results.json
}
