package rundir

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"time"

	"memsim/analysis/report"
	"memsim/tournament"
)

// CheckpointWriter writes a run's checkpoint to its folder's checkpoint.json, at most every so
// often and when asked. Its Update fits tournament.Options.Checkpoint.
type CheckpointWriter struct {
	f     *Folder
	every time.Duration
	last  time.Time
	state *tournament.Checkpoint // the latest state Play reported
}

// CheckpointWriter returns a writer of the folder's checkpoint that writes at most every
// interval, counting from now. The caller holds the folder's lock, taken by f, while it writes;
// without it a write is refused with ErrNotLocked.
func (f *Folder) CheckpointWriter(every time.Duration) *CheckpointWriter {
	return &CheckpointWriter{f: f, every: every, last: time.Now()}
}

// Path is the checkpoint file the writer writes.
func (c *CheckpointWriter) Path() string { return c.f.CheckpointPath() }

// Update takes the run's state and writes it when the last write is older than the interval.
func (c *CheckpointWriter) Update(ck *tournament.Checkpoint) error {
	c.state = ck
	if time.Since(c.last) < c.every {
		return nil
	}
	return c.Write()
}

// Write writes the latest state atomically (nothing before the first Update). When it fails, the
// file holds the state of the last write that succeeded, if any, and the error reads "write PATH:
// cause".
func (c *CheckpointWriter) Write() error {
	if c.state == nil {
		return nil
	}
	data, err := json.Marshal(c.state)
	if err != nil {
		return fmt.Errorf("encode %s: %w", c.Path(), err)
	}
	token := c.f.token()
	if token == "" {
		return fmt.Errorf("write %s: %w", c.Path(), c.f.errLocked())
	}
	if err := writeFileAtomic(c.f.fs, c.Path(), data, token); err != nil {
		return err
	}
	c.last = time.Now()
	return nil
}

// CheckpointPath is the path of the folder's checkpoint file.
func (f *Folder) CheckpointPath() string { return filepath.Join(f.path, CheckpointFile) }

// HasCheckpoint reports whether the folder holds a checkpoint file.
func (f *Folder) HasCheckpoint() bool {
	_, err := f.fs.Stat(f.CheckpointPath())
	return err == nil
}

// ReadCheckpoint reads the folder's checkpoint and checks, with t.LoadCheckpoint, that it belongs
// to t and every number in it; it sets t's shard to the checkpoint's. It is refused with a
// CheckpointError: ErrNoCheckpoint, ErrVersion, tournament.ErrForeignCheckpoint or what is wrong
// with it.
func (f *Folder) ReadCheckpoint(t *tournament.Tournament) (*tournament.Checkpoint, error) {
	data, err := f.read(CheckpointFile)
	if err != nil {
		return nil, err
	}
	ck, err := t.LoadCheckpoint(data)
	if err != nil {
		return nil, f.loadError(CheckpointFile, data, err)
	}
	return ck, nil
}

// ReadShard reads the finished shard's results of the folder (a shard folder, ShardDir) and checks,
// with t.LoadShardResult, that they belong to t (the unsharded tournament of its configuration)
// and every number in them. It is refused with a CheckpointError, as ReadCheckpoint.
func (f *Folder) ReadShard(t *tournament.Tournament) (*tournament.ShardResult, error) {
	data, err := f.read(ShardFile)
	if err != nil {
		return nil, err
	}
	s, err := t.LoadShardResult(data)
	if err != nil {
		return nil, f.loadError(ShardFile, data, err)
	}
	return s, nil
}

// WriteShard replaces the folder, a shard folder (ShardDir), with the shard's configuration
// (config.yaml) and its results (shard.json), as Replace does unforced.
func (f *Folder) WriteShard(config []byte, s *tournament.ShardResult) error {
	data, err := json.Marshal(s)
	if err != nil {
		return err
	}
	return f.Replace(false, func(staging string) error {
		if err := writeFileAtomic(f.fs, filepath.Join(staging, report.ConfigFile), config, f.token()); err != nil {
			return err
		}
		return writeFileAtomic(f.fs, filepath.Join(staging, ShardFile), data, f.token())
	})
}

// read reads the folder's file name (readFile, at most MaxFileSize bytes), refusing a missing one
// with ErrNoCheckpoint.
func (f *Folder) read(name string) ([]byte, error) {
	data, err := readFile(f.fs, filepath.Join(f.path, name), MaxFileSize)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, &CheckpointError{Dir: f.path, File: name, Err: ErrNoCheckpoint}
	}
	if err != nil {
		return nil, &CheckpointError{Dir: f.path, File: name, Err: err}
	}
	return data, nil
}

// loadError is the CheckpointError of the file name, whose content data the tournament refused
// with err: of another version (ErrVersion) when the version it states is not this memsim's.
func (f *Folder) loadError(name string, data []byte, err error) error {
	var head struct {
		Version *int `json:"version"`
	}
	if json.Unmarshal(data, &head) == nil && head.Version != nil && *head.Version != tournament.CheckpointVersion {
		err = versionError{err}
	}
	return &CheckpointError{Dir: f.path, File: name, Err: err}
}
