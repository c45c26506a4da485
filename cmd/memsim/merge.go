package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"memsim/configs"
	"memsim/tournament"
	"memsim/tournament/rundir"
)

// mergeCommand returns memsim merge.
func mergeCommand() *command {
	return &command{
		name: "merge",
		usage: []string{
			"memsim merge --out DIR [--force] [--no-figures] SHARD_DIR...",
			"memsim merge SHARD_DIR... --out DIR [--force] [--no-figures]",
		},
		short: "merge the shards of a run",
		long: `
Merges the shard folders of one run (memsim run --shard i/N, each written to
<output>/<name>/shard-i-of-N/) into the run folder DIR, with its results.json and reports: the
same files, bit for bit, as one process playing the whole run. Shards of different
configurations or seeds, and missing or duplicated shards, are refused. A DIR that is not empty
(a run, the shard folders themselves, any file) is only written with --force, which replaces the
run's own files there and keeps everything else (the shard folders among them). --no-figures
writes the reports without figures (memsim report DIR draws them later). Flags may come before or
after the shard folders; -- ends them.
`,
		run: runMerge,
	}
}

func runMerge(ctx context.Context, c *command, inv invocation, args []string) int {
	fs := newFlagSet("memsim merge")
	out := fs.String("out", "", "the run folder `DIR` to write (required)")
	force := fs.Bool("force", false, "replace the run in an existing run folder, keeping its shard folders and other files")
	noFigures := fs.Bool("no-figures", false, "draw no figures (memsim report DIR draws them later)")
	if code, done := c.parseFlags(fs, args, inv); done {
		return code
	}
	return exitFor(fs.Name(), merge(ctx, *out, *force, !*noFigures, fs.Args(), inv.stderr), inv.stderr)
}

// readShard reads the configuration of a finished shard folder, and checks that its results
// belong to it (its configuration hash) before anything else is read.
func readShard(dir string) (*configs.Tournament, []byte, error) {
	cfg, err := readRunConfig(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("shard %s: %w", configs.ShortPath(dir), err)
	}
	raw, err := rundir.ReadFile(filepath.Join(dir, shardFile), rundir.MaxFileSize)
	var notRegular *rundir.NotRegularError
	var tooLarge *rundir.TooLargeError
	switch {
	case errors.As(err, &notRegular), errors.As(err, &tooLarge):
		return nil, nil, usagef("shard %s: %v", dir, err)
	case err != nil:
		return nil, nil, usagef("shard %s is not finished (%v)", dir, err)
	}
	return cfg, raw, nil
}

func merge(ctx context.Context, out string, force, figures bool, dirs []string, stderr io.Writer) error {
	switch {
	case out == "":
		return required("--out DIR", "the run folder to write")
	case len(dirs) == 0:
		return required("SHARD_DIR...", "the shard folders to merge")
	case checkFolderFlag("--out", out) != nil:
		return checkFolderFlag("--out", out)
	}
	f, err := rundir.Open(out)
	if err != nil {
		return badInput(folderError(err)) // a path that names no folder memsim can use: a link to nothing, say
	}
	out = f.Path()
	var t *tournament.Tournament
	var set *tournament.ShardSet
	for _, dir := range dirs {
		cfg, raw, err := readShard(dir)
		if err != nil {
			return err
		}
		if t == nil {
			if t, err = tournament.New(ctx, cfg); err != nil {
				return badInput(err)
			}
			defer t.Close()
			set = tournament.NewShardSet(t, dir)
		} else if err := set.CheckConfig(dir, cfg); err != nil {
			return badInput(err)
		}
		path := filepath.Join(dir, shardFile)
		s, err := t.LoadShardResult(raw) // t's configuration is this shard's own

		switch {
		case errors.Is(err, tournament.ErrForeignCheckpoint):
			return usagef("%s does not belong to its own config.yaml", path)
		case err != nil:
			return usagef("%s: %v", path, err)
		}
		if err := set.Add(dir, s); err != nil {
			return badInput(err)
		}
	}
	shards, err := set.Shards()
	if err != nil {
		return badInput(err)
	}
	res, err := t.Merge(shards)
	if err != nil {
		return badInput(err)
	}
	lock, err := f.Lock()
	if err != nil {
		return folderError(err)
	}
	defer lock.Release()
	if err := f.Check(force); err != nil {
		return folderError(err)
	}
	if err := finish(ctx, t, f, force, figures, res, nil, false); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "memsim merge: %s merged into %s\n", count(len(shards), "shard"), out)
	return nil
}
