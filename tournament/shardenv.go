package tournament

import (
	"fmt"
	"math"
	"strconv"

	"memsim/configs"
)

// ShardFromEnv returns the shard a cluster engine's environment gives, read with getenv (os.Getenv,
// say): a Slurm job array (SLURM_ARRAY_TASK_ID, counted from SLURM_ARRAY_TASK_MIN, 0 when unset,
// with the number of shards in SLURM_ARRAY_TASK_COUNT), or a Kubernetes Indexed Job
// (JOB_COMPLETION_INDEX, from 0, with the number of shards in MEMSIM_SHARDS). Slurm's variables
// are read first. Without either index it returns the zero Shard: the whole run.
//
// A variable that is not a whole number that fits an int, an index without its count (a
// *ShardCountUnsetError), a shard outside 1 .. N and more than MaxShards shards are errors, which
// name the variables at fault or the shard they make (quoting a value cut short, as
// configs.Quote does).
func ShardFromEnv(getenv func(string) string) (Shard, error) {
	id, haveID, err := envInt(getenv, "SLURM_ARRAY_TASK_ID")
	if err != nil {
		return Shard{}, err
	}
	if haveID {
		count, ok, err := envInt(getenv, "SLURM_ARRAY_TASK_COUNT")
		if err != nil {
			return Shard{}, err
		}
		if !ok {
			return Shard{}, &ShardCountUnsetError{Index: "SLURM_ARRAY_TASK_ID", Count: "SLURM_ARRAY_TASK_COUNT"}
		}
		low, _, err := envInt(getenv, "SLURM_ARRAY_TASK_MIN")
		if err != nil {
			return Shard{}, err
		}
		// id - low + 1, unless it overflows.
		if (low < 0 && id > math.MaxInt+low) || (low > 0 && id < math.MinInt+low) || id-low == math.MaxInt {
			return Shard{}, fmt.Errorf("SLURM_ARRAY_TASK_ID=%d and SLURM_ARRAY_TASK_MIN=%d: the shard number SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN + 1 is out of range", id, low)
		}
		return shardFromEnv(id-low+1, count)
	}
	index, haveIndex, err := envInt(getenv, "JOB_COMPLETION_INDEX")
	if err != nil || !haveIndex {
		return Shard{}, err
	}
	count, ok, err := envInt(getenv, "MEMSIM_SHARDS")
	if err != nil {
		return Shard{}, err
	}
	if !ok {
		return Shard{}, &ShardCountUnsetError{Index: "JOB_COMPLETION_INDEX", Count: "MEMSIM_SHARDS"}
	}
	if index == math.MaxInt {
		return Shard{}, fmt.Errorf("JOB_COMPLETION_INDEX=%d: the shard number JOB_COMPLETION_INDEX + 1 is out of range", index)
	}
	return shardFromEnv(index+1, count)
}

// ShardCountUnsetError reports a shard index in the environment without the number of shards: a
// caller may suggest giving the shard another way.
type ShardCountUnsetError struct {
	// Index and Count name the environment variables of the shard's index, which is set, and of
	// the number of shards, which is not.
	Index, Count string
}

func (e *ShardCountUnsetError) Error() string {
	if e.Count == "MEMSIM_SHARDS" {
		// memsim's own variable: not a cluster engine's, so it says what it holds.
		return fmt.Sprintf("%s is set without %s (the number of shards)", e.Index, e.Count)
	}
	return fmt.Sprintf("%s is set without %s", e.Index, e.Count)
}

// envInt reads the environment variable name as an int: ok is false when it is unset or empty.
func envInt(getenv func(string) string, name string) (n int, ok bool, err error) {
	v := getenv(name)
	if v == "" {
		return 0, false, nil
	}
	i, err := strconv.ParseInt(v, 10, strconv.IntSize)
	if err != nil {
		if ne, isNum := err.(*strconv.NumError); isNum && ne.Err == strconv.ErrRange {
			return 0, true, fmt.Errorf("environment variable %s=%s: must be a whole number between %d and %d", name, configs.Quote(v), math.MinInt, math.MaxInt)
		}
		return 0, true, fmt.Errorf("environment variable %s=%s: must be a whole number", name, configs.Quote(v))
	}
	return int(i), true, nil
}

// shardFromEnv returns shard i of n, or the error ParseShard gives for "i/n", marked as coming from
// the environment.
func shardFromEnv(i, n int) (Shard, error) {
	s, err := ParseShard(fmt.Sprintf("%d/%d", i, n))
	if err != nil {
		return s, fmt.Errorf("%w (from the environment)", err)
	}
	return s, nil
}
