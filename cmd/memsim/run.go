package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"memsim/analysis/report"
	"memsim/configs"
	"memsim/sim"
	"memsim/tournament"
	"memsim/tournament/rundir"
)

// runCommand returns memsim run.
func runCommand() *command {
	return &command{
		name: "run",
		usage: []string{
			"memsim run [--workers W] [--games G] [--quiet] [--no-figures] [--force [--clean-shards]] [CONFIG.yaml]",
			"memsim run --resume DIR [--workers W] [--quiet]",
			"memsim run [CONFIG.yaml] --shard i/N [flags]",
			"memsim run --resume-or-start [flags] [CONFIG.yaml]",
		},
		short: "play a tournament",
		long: `
Plays the tournament CONFIG.yaml describes (with no CONFIG, the embedded default,
configs/default.yaml) and writes config.yaml, results.json, matchups.csv, report.md and
report.html to <output>/<name>/. --workers and --games override the configuration's values. A
run folder that is not empty (a run, shard folders, any file) is only written with --force, which
replaces the run's own files and keeps everything else there: shard folders, merged runs, anyone's
files. --clean-shards, with --force, also deletes the shard folders and merged runs in the run
folder (each a folder holding a run, and nothing but memsim's files). While it runs, and when
interrupted (SIGINT, SIGTERM), memsim writes checkpoint.json to the run folder; --resume DIR
continues from it, to the results an uninterrupted run gives. --shard i/N plays one
slice of every matchup's deals into <output>/<name>/shard-i-of-N/, for memsim merge. It prints a
summary of the results, one line per matchup, or with --markdown the whole report.md; should
that fail, the results are written all the same, and the exit status is 1. --no-figures writes
the reports without figures, which a large tournament takes long to draw; memsim report DIR
draws them later.

--resume-or-start, for a cluster task that may be retried, resumes the run folder's checkpoint
when it is this configuration's and this shard's, exits 0 saying "already complete" when the
folder holds this configuration's finished run or shard, and starts the run otherwise. Another
configuration's or another shard's checkpoint, or another shard's results, are refused, never
replaced.

Flags may come before or after CONFIG.yaml; -- ends them. A flag not given takes its default (for
--games and --workers, the configuration's value); a value given is used as it is: --games 0 is
an error, --workers 0 means one worker per CPU.
`,
		run: runRun,
	}
}

type runFlags struct {
	workers, games  int
	quiet, force    bool
	cleanShards     bool
	markdown        bool
	noFigures       bool
	resumeOrStart   bool
	resume, shard   string
	checkpointEvery time.Duration
	set             map[string]bool // the flags given on the command line
}

func newRunFlagSet(fl *runFlags) *flag.FlagSet {
	fs := newFlagSet("memsim run")
	fs.IntVar(&fl.workers, "workers", 0, "`W` worker goroutines (0: one per CPU; default: the configuration's)")
	fs.IntVar(&fl.games, "games", 0, "`G` games per matchup and deal size, at least 1 (default: the configuration's)")
	fs.BoolVar(&fl.quiet, "quiet", false, "no progress reports")
	fs.BoolVar(&fl.markdown, "markdown", false, "print the whole report (report.md) instead of the summary")
	fs.BoolVar(&fl.noFigures, "no-figures", false, "draw no figures (memsim report DIR draws them later)")
	fs.BoolVar(&fl.force, "force", false, "replace the run in an existing run folder, keeping its shard folders, merged runs and other files")
	fs.BoolVar(&fl.cleanShards, "clean-shards", false, "with --force, also delete the run folder's shard folders and merged runs")
	fs.StringVar(&fl.resume, "resume", "", "continue the interrupted run of the run folder `DIR`")
	fs.BoolVar(&fl.resumeOrStart, "resume-or-start", false, "resume the run folder's interrupted run of this very configuration and shard, or find it already complete, or else start: for cluster tasks that are retried")
	fs.DurationVar(&fl.checkpointEvery, "checkpoint-every", 5*time.Second, "write the checkpoint at most every `D`, a duration such as 5s or 1m")
	fs.StringVar(&fl.shard, "shard", "", "play only shard `i/N` of every matchup (default: from SLURM_ARRAY_TASK_ID, or JOB_COMPLETION_INDEX with MEMSIM_SHARDS)")
	return fs
}

func runRun(ctx context.Context, c *command, inv invocation, args []string) int {
	var fl runFlags
	fs := newRunFlagSet(&fl)
	if code, done := c.parseFlags(fs, args, inv); done {
		return code
	}
	fl.set = given(fs)
	return exitFor(fs.Name(), runTournament(ctx, fl, fs.Args(), inv), inv.stderr)
}

// runPlan is what a run does: the tournament to play, the folder it writes, and the checkpoint
// it goes on from (nil for a new run).
type runPlan struct {
	t      *tournament.Tournament
	dir    string
	folder *rundir.Folder
	resume *tournament.Checkpoint
	lock   *rundir.Lock // the run folder's, held until the run ends
	// complete says that the folder already holds the finished run (or shard) that
	// --resume-or-start asked for: there is nothing to play.
	complete bool
	// removed names the shard folders and merged runs --clean-shards deleted.
	removed []string
}

// planRun checks the flags and decides the run: a new run (of the whole tournament or of one
// shard) or the resumption of an interrupted one. A new run without --shard reads its shard from
// the environment through getenv (see shardOf).
func planRun(ctx context.Context, fl runFlags, args []string, getenv func(string) string) (*runPlan, error) {
	if err := checkWorkers(fl.workers); err != nil {
		return nil, err
	}
	if fl.set["games"] {
		if err := checkGames(int64(fl.games), 1); err != nil {
			return nil, err
		}
	}
	switch {
	case fl.checkpointEvery <= 0:
		return nil, usagef("--checkpoint-every %v: must be positive", fl.checkpointEvery)
	case fl.set["shard"] && fl.shard == "":
		return nil, usagef("--shard \"\": must be i/N with 1 <= i <= N, for example 2/8")
	case fl.set["resume"] && fl.resume == "":
		return nil, usagef("--resume \"\": give the run folder to resume")
	case fl.resume != "" && (len(args) > 0 || fl.set["games"] || fl.force || fl.set["shard"]):
		return nil, usagef("--resume takes the run folder's own configuration and shard: no CONFIG, --games, --force or --shard")
	case fl.resumeOrStart && (fl.resume != "" || fl.force):
		return nil, usagef("--resume-or-start goes with neither --resume nor --force")
	case fl.cleanShards && !fl.force:
		return nil, usagef("--clean-shards goes with --force: memsim run --force --clean-shards [CONFIG.yaml]")
	case fl.resume != "":
		return planResume(ctx, fl)
	}
	return planNew(ctx, fl, args, getenv)
}

// planNew plans a new run of the configuration args names (or the default), or of one shard of
// it (--shard, or a cluster engine's environment, read through getenv), and claims its folder.
func planNew(ctx context.Context, fl runFlags, args []string, getenv func(string) string) (*runPlan, error) {
	cfg, err := loadConfig(args)
	if err != nil {
		return nil, err
	}
	if fl.set["workers"] {
		cfg.Workers = fl.workers
	}
	if fl.set["games"] {
		cfg.Games = fl.games
	}
	// The shard and the run folder's path are checked before any table is built.
	shard, err := shardOf(fl.shard, getenv)
	if err != nil {
		return nil, err
	}
	if err := tournament.CheckShard(cfg, shard); err != nil {
		return nil, usagef("--shard %s: %v", shard, err)
	}
	dir := filepath.Join(cfg.Output, cfg.Name)
	if shard.Count > 0 {
		dir = rundir.ShardDir(dir, shard)
	}
	// The output and the name are checked apart (configs.CheckPath); together they must fit too.
	if err := configs.CheckPath(dir); err != nil {
		return nil, usagef("run folder %v (the output and the name together)", err)
	}
	folder, err := rundir.Open(dir)
	if err != nil {
		return nil, badInput(folderError(err)) // a path that names no folder memsim can use: a link to nothing, say
	}
	t, err := tournament.New(ctx, cfg)
	if err != nil {
		return nil, badInput(err)
	}
	if err := t.SetShard(shard); err != nil {
		return nil, usagef("--shard %s: %v", shard, err)
	}
	p := &runPlan{t: t, dir: folder.Path(), folder: folder}
	if p.lock, err = p.folder.Lock(); err != nil {
		return nil, folderError(err)
	}
	if fl.resumeOrStart {
		// A retried task: go on from where the folder is, if it is this run's.
		claim, err := p.retry(cfg, fl.set["workers"])
		switch {
		case err != nil:
			p.lock.Release()
			return nil, err
		case !claim:
			return p, nil
		}
	}
	if err = p.claim(fl.force, fl.cleanShards, cfg.YAML()); err != nil {
		p.lock.Release()
		return nil, folderError(err)
	}
	return p, nil
}

// claim claims p's run folder, whose lock p holds, for a new run of config (rundir.Folder.Claim):
// unless force, only an empty folder; with force, the run's own files are replaced and the rest
// kept, unless cleanShards: then the folder's shard folders and merged runs are deleted first
// (rundir.Folder.RemoveRuns).
func (p *runPlan) claim(force, cleanShards bool, config []byte) error {
	if cleanShards {
		if err := p.folder.Check(force); err != nil {
			return err
		}
		removed, err := p.folder.RemoveRuns()
		if err != nil {
			return err
		}
		p.removed = removed
	}
	return p.folder.Claim(force, config)
}

func runTournament(ctx context.Context, fl runFlags, args []string, inv invocation) error {
	p, err := planRun(ctx, fl, args, inv.getenv)
	if err != nil {
		return err
	}
	defer p.lock.Release()
	cfg := p.t.Config
	if len(p.removed) > 0 {
		fmt.Fprintf(inv.stderr, "memsim run: --clean-shards removed %s from %s\n", strings.Join(p.removed, ", "), p.dir)
	}
	if p.complete {
		fmt.Fprintf(inv.stderr, "memsim run: %s is already complete in %s\n", runName(cfg.Name, p.t.Shard()), p.dir)
		return nil
	}
	stdout := checkedStdout(inv.stdout)
	games := p.t.Games()
	fmt.Fprintf(inv.stderr, "memsim run: %s: %s, %s, seed %d, %s, writing to %s\n", cfg.Name,
		count(len(p.t.Matches), "match"), count(games, "game"), cfg.Seed, count(sim.Workers(cfg.Workers), "worker"), p.dir)
	if p.t.HasProcesses() {
		logs, err := openPlayerLogs(p.dir)
		if err != nil {
			return err
		}
		// The processes stop before their logs close, so that their last words are kept.
		defer func() {
			if err := p.t.Close(); err != nil {
				fmt.Fprintf(inv.stderr, "memsim run: %v\n", err)
			}
			logs.close()
		}()
		if err := p.t.StartPlayers(ctx, logs.open); err != nil {
			if ctx.Err() != nil {
				return fmt.Errorf("interrupted before any game was played: %w", ctx.Err())
			}
			return badInput(err)
		}
	}
	prog := startProgressPlanned(inv.stderr, "memsim run", games, fl.quiet, p.t.Plans(), cfg.Stop != nil)
	ck := p.folder.CheckpointWriter(fl.checkpointEvery)
	current := 0
	var resumed int64 // the games the checkpoint held, not played by this process
	ckFailed := false
	res, err := p.t.Play(ctx, tournament.Options{Workers: cfg.Workers, Progress: prog.done, Resume: p.resume,
		Match: func(i int, r int64) { current, resumed = i, resumed+r; prog.startMatch(i, r) },
		Checkpoint: func(c *tournament.Checkpoint) error {
			prog.setNote(interim(p.t, current, c.Current))
			err := ck.Update(c)
			ckFailed = err != nil
			return err
		}})
	prog.finish()
	if err != nil {
		switch {
		case ctx.Err() != nil:
			if werr := ck.Write(); werr != nil {
				return fmt.Errorf("interrupted, and the checkpoint could not be written (%w); %s", werr, p.recovery())
			}
			return fmt.Errorf("interrupted; the finished work is in %s: resume with: memsim run --resume %s", ck.Path(), p.dir)
		case ckFailed:
			return fmt.Errorf("the checkpoint could not be written (%w); %s", err, p.recovery())
		}
		// A player failed: what was played before the failing round is kept.
		if werr := ck.Write(); werr != nil {
			return fmt.Errorf("%w; the checkpoint could not be written (%w); %s", err, werr, p.recovery())
		}
		return fmt.Errorf("%w; the finished work is in %s: resume with: memsim run --resume %s", err, ck.Path(), p.dir)
	}
	// The checkpoint holds every finished match before the folder is replaced: should the final
	// write fail, resuming writes it again without playing. Should the checkpoint itself fail,
	// the results are still written if they can be.
	ckErr := ck.Write()
	if p.t.Shard().Count > 0 {
		err = folderError(p.folder.WriteShard(cfg.YAML(), p.t.ShardResult(res)))
	} else {
		err = finish(ctx, p.t, p.folder, false, !fl.noFigures, res, stdout, fl.markdown)
	}
	if stdout.err != nil {
		// The run folder is complete: only what it prints was lost.
		what := "summary"
		if fl.markdown {
			what = "report"
		}
		return fmt.Errorf("writing the %s to stdout: %w: the results are in %s", what, stdout.err, p.dir)
	}
	switch {
	case err != nil && ckErr == nil && interrupted(err):
		return fmt.Errorf("interrupted; the finished work is in %s: resume with: memsim run --resume %s", ck.Path(), p.dir)
	case err != nil && ckErr != nil:
		return fmt.Errorf("the results could not be written (%w), nor the checkpoint of the finished games (%w); %s", err, ckErr, p.recovery())
	case err != nil:
		return fmt.Errorf("the results could not be written (%w); %s still holds the finished games in %s: free what is needed, then write them with: memsim run --resume %s", err, p.dir, checkpointFile, p.dir)
	}
	fmt.Fprintf(inv.stderr, "memsim run: %s%s; wrote %s\n", playedLine(res, resumed), faultsLine(p.t.Faults(res)), p.dir)
	return nil
}

// faultsLine says, for the players that forfeit a game at a fault (on_error: forfeit), how many
// games each forfeited and why: "; forfeited: my-agent 3 (2 crashes, 1 timeout, 0 illegal
// moves)"; empty when no player forfeits.
func faultsLine(fs []tournament.PlayerFaults) string {
	if len(fs) == 0 {
		return ""
	}
	parts := make([]string, len(fs))
	for i, f := range fs {
		parts[i] = fmt.Sprintf("%s %d (%s, %s, %s)", f.Name, f.Forfeits(),
			count(f.Crash, "crash"), count(f.Timeout, "timeout"), count(f.Illegal, "illegal move"))
	}
	return "; forfeited: " + strings.Join(parts, ", ")
}

// recovery says, after a failed checkpoint write, what the run folder kept and how to go on: from
// the checkpoint it holds (a failed write leaves the last one written, or the one resumed, as it
// was), or else from the start, with the run folder's own config.yaml (the resolved configuration,
// --games included) and the run's shard.
func (p *runPlan) recovery() string {
	if p.folder.HasCheckpoint() {
		return fmt.Sprintf("%s still holds the games of an earlier checkpoint: free what is needed, then go on from it with: memsim run --resume %s", p.folder.CheckpointPath(), p.dir)
	}
	shard := ""
	if s := p.t.Shard(); s.Count > 0 {
		shard = " --shard " + s.String()
	}
	return fmt.Sprintf("no game was kept: free what is needed, then play the run again with: memsim run --force%s %s", shard, filepath.Join(p.dir, report.ConfigFile))
}

// playedLine says how many games this process played, how fast, and how many more a resumed
// checkpoint held: the games the results hold (fewer than planned where a stopping rule ended a
// match) less the resumed ones, so that the pace is this process's own.
func playedLine(res *tournament.MatchResults, resumed int64) string {
	played, secs := res.Games()-resumed, res.Elapsed.Seconds()
	line := fmt.Sprintf("%s in %.2f s", count(played, "game"), secs)
	if played > 0 && secs > 0 {
		line += fmt.Sprintf(" (%s games/s)", rateText(float64(played)/secs))
	}
	if resumed > 0 {
		line += fmt.Sprintf(", %d more resumed from %s", resumed, checkpointFile)
	}
	return line
}

// finish writes the run folder f from the results: config.yaml, results.json, the CSV and the
// reports, with their figures when figures is true, and the game records of the configuration's
// records (tournament.Records: the first games of each matchup, played again), replacing the run's own files and keeping
// anything else (see rundir.Folder.Replace; without force, a folder holding anything is refused).
// When stdout is not nil it prints the summary of the run there, or the whole report.md with
// markdown.
func finish(ctx context.Context, t *tournament.Tournament, f *rundir.Folder, force, figures bool, res *tournament.MatchResults, stdout io.Writer, markdown bool) error {
	r, err := t.Report(ctx, res)
	if err != nil {
		return err
	}
	var figs []report.Figure
	if figures {
		if figs, err = t.Figures(ctx, r); err != nil {
			return err
		}
	}
	recs := t.Records(res)
	err = f.Replace(force, func(staging string) error { return report.WriteDir(staging, r, t.Config.YAML(), figs, recs...) })
	switch {
	case err != nil:
		return folderError(err)
	case stdout == nil:
		return nil
	case markdown:
		return report.WriteMarkdown(stdout, r, figs, recs...)
	}
	return writeSummary(stdout, r, f.Path())
}
