package rundir

import (
	"errors"
	"fmt"
	"path/filepath"

	"memsim/analysis/report"
	"memsim/configs"
	"memsim/tournament"
)

// A RetryAction is what a task that may be a retry of an earlier one does with its run folder
// (Folder.PlanRetry).
type RetryAction int

const (
	// RetryClaim: the folder holds nothing of this run; claim it as a new run does (Claim, which
	// refuses a folder that holds anything).
	RetryClaim RetryAction = iota
	// RetryStart: the folder held this configuration's config.yaml alone (an earlier try stopped
	// before its first checkpoint), which PlanRetry wrote afresh: play from the start.
	RetryStart
	// RetryResume: resume the folder's checkpoint (Retry.Checkpoint).
	RetryResume
	// RetryComplete: the folder holds the finished run or shard; there is nothing to do.
	RetryComplete
)

// A Retry is what a task that may be a retry does with its run folder.
type Retry struct {
	Action RetryAction
	// Checkpoint is the checkpoint to resume from (RetryResume).
	Checkpoint *tournament.Checkpoint
	// Held is the configuration the folder holds as its config.yaml, when it holds a checkpoint
	// of this configuration (RetryResume): its workers are the run's own.
	Held *configs.Tournament
}

// OtherShardError refuses a folder that holds the checkpoint or the finished results (File) of
// another shard than the one asked for, which starting afresh would delete. The zero Shard is
// the whole run.
type OtherShardError struct {
	Dir        string
	File       string
	Held, Want tournament.Shard
}

// Error names both shards.
func (e *OtherShardError) Error() string {
	if e.File == CheckpointFile {
		return fmt.Sprintf("run folder %s holds the checkpoint of %s, not of %s, and starting would delete it", e.Dir, shardName(e.Held), shardName(e.Want))
	}
	return fmt.Sprintf("run folder %s holds the results of %s (%s), not of %s", e.Dir, shardName(e.Held), e.File, shardName(e.Want))
}

// ErrOtherConfigurationCheckpoint refuses a folder that holds an interrupted run of another
// configuration, which starting afresh would delete.
var ErrOtherConfigurationCheckpoint = errors.New("holds an interrupted run of another configuration")

// shardName names the shard s in messages: "shard 2/8", or for the zero Shard "the whole run".
func shardName(s tournament.Shard) string {
	if s.Count == 0 {
		return "the whole run"
	}
	return "shard " + s.String()
}

// PlanRetry decides what a task that may be a retry does with the folder, whose lock f holds, to
// play t (of configuration cfg; the shard asked for is set on t with SetShard, the zero Shard for
// the whole run). It looks at what the folder holds and:
//
//   - resumes a checkpoint of this configuration and shard (RetryResume), refusing now, with a
//     ForeignEntriesError, a folder whose own entries hold what memsim did not write there
//     (CheckForeign), which its results, once written, would delete;
//   - finds the run complete (RetryComplete) when the folder holds the finished results of this
//     configuration and shard: shard.json for a shard, a results.json whose seal holds and that
//     belongs to cfg (tournament.ReadRun) for the whole run;
//   - writes cfg's configuration afresh and starts (RetryStart) when the folder holds this
//     configuration's config.yaml alone;
//   - refuses, since starting would delete them, a checkpoint or finished results of another
//     shard (OtherShardError) and another configuration's checkpoint
//     (ErrOtherConfigurationCheckpoint);
//   - and otherwise leaves the folder to be claimed (RetryClaim).
//
// A checkpoint read sets t's shard to the checkpoint's, as ReadCheckpoint does.
func (f *Folder) PlanRetry(t *tournament.Tournament, cfg *configs.Tournament) (*Retry, error) {
	if f.held == nil {
		return nil, f.errLocked()
	}
	want := t.Shard()
	if f.HasCheckpoint() {
		held, err := f.ReadConfig()
		if err != nil {
			return nil, err
		}
		if tournament.ConfigHash(held) != tournament.ConfigHash(cfg) {
			return nil, fmt.Errorf("run folder %s %w", f.path, ErrOtherConfigurationCheckpoint)
		}
		ck, err := f.ReadCheckpoint(t)
		if err != nil {
			return nil, err
		}
		if got := t.Shard(); got != want {
			return nil, &OtherShardError{Dir: f.path, File: CheckpointFile, Held: got, Want: want}
		}
		if err := f.CheckForeign(); err != nil {
			return nil, err
		}
		return &Retry{Action: RetryResume, Checkpoint: ck, Held: held}, nil
	}
	done, err := f.ReadShard(t)
	switch {
	case err == nil:
		if got := (tournament.Shard{Index: done.Shard, Count: done.Shards}); got != want {
			return nil, &OtherShardError{Dir: f.path, File: ShardFile, Held: got, Want: want}
		}
		return &Retry{Action: RetryComplete}, nil
	case errors.Is(err, ErrNoCheckpoint), errors.Is(err, tournament.ErrForeignCheckpoint):
		// No shard's results, or another configuration's: Claim refuses the latter.
	default:
		return nil, err
	}
	names, err := f.entries()
	if err != nil || !f.holdsConfig(cfg) {
		return &Retry{Action: RetryClaim}, nil
	}
	if want.Count == 0 && f.holdsResults(cfg) {
		return &Retry{Action: RetryComplete}, nil
	}
	if len(names) == 1 && names[0] == report.ConfigFile {
		// Only the configuration: no game was kept, nothing but it is replaced.
		err := f.Replace(false, func(staging string) error {
			return writeFileAtomic(f.fs, filepath.Join(staging, report.ConfigFile), cfg.YAML(), f.token())
		})
		if err != nil {
			return nil, err
		}
		return &Retry{Action: RetryStart}, nil
	}
	return &Retry{Action: RetryClaim}, nil
}

// ReadConfig reads and parses the folder's config.yaml, a configuration file of at most
// configs.MaxFileSize bytes, with the options of a tournament's (tournament.ConfigOptions).
func (f *Folder) ReadConfig() (*configs.Tournament, error) {
	path := filepath.Join(f.path, report.ConfigFile)
	data, err := readFile(f.fs, path, configs.MaxFileSize)
	if err != nil {
		return nil, err
	}
	return configs.Parse(path, data, tournament.ConfigOptions())
}

// holdsConfig reports whether the folder holds the configuration cfg (the same
// tournament.ConfigHash) as its config.yaml.
func (f *Folder) holdsConfig(cfg *configs.Tournament) bool {
	held, err := f.ReadConfig()
	return err == nil && tournament.ConfigHash(held) == tournament.ConfigHash(cfg)
}

// holdsResults reports whether the folder holds the results of a run of cfg: a results.json
// whose seal holds and that belongs to cfg (tournament.ReadRun).
func (f *Folder) holdsResults(cfg *configs.Tournament) bool {
	data, err := readFile(f.fs, filepath.Join(f.path, report.ResultsFile), MaxFileSize)
	if err != nil {
		return false
	}
	_, err = tournament.ReadRun(cfg, data)
	return err == nil
}
