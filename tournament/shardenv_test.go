package tournament_test

import (
	"errors"
	"math"
	"testing"

	"memsim/tournament"
)

func TestShardFromEnv(t *testing.T) {
	if math.MaxInt != math.MaxInt64 {
		t.Skip("the bounds below are those of a 64-bit int")
	}
	tests := []struct {
		name string
		env  map[string]string
		want tournament.Shard
		err  string // the whole message; "" for none
	}{
		{"no cluster engine", map[string]string{}, tournament.Shard{}, ""},
		{"slurm from 0", map[string]string{"SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_COUNT": "4"},
			tournament.Shard{Index: 1, Count: 4}, ""},
		{"slurm from 1", map[string]string{"SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": "4"},
			tournament.Shard{Index: 4, Count: 4}, ""},
		{"slurm from 6", map[string]string{"SLURM_ARRAY_TASK_ID": "7", "SLURM_ARRAY_TASK_MIN": "6", "SLURM_ARRAY_TASK_COUNT": "3"},
			tournament.Shard{Index: 2, Count: 3}, ""},
		{"slurm without min", map[string]string{"SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "3"},
			tournament.Shard{Index: 3, Count: 3}, ""},
		{"slurm before kubernetes", map[string]string{"SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_COUNT": "2", "JOB_COMPLETION_INDEX": "1", "MEMSIM_SHARDS": "2"},
			tournament.Shard{Index: 1, Count: 2}, ""},
		{"kubernetes", map[string]string{"JOB_COMPLETION_INDEX": "2", "MEMSIM_SHARDS": "5"}, tournament.Shard{Index: 3, Count: 5}, ""},
		{"kubernetes without count", map[string]string{"JOB_COMPLETION_INDEX": "2"}, tournament.Shard{},
			"JOB_COMPLETION_INDEX is set without MEMSIM_SHARDS (the number of shards)"},
		{"kubernetes count not a number", map[string]string{"JOB_COMPLETION_INDEX": "2", "MEMSIM_SHARDS": "x"}, tournament.Shard{},
			`environment variable MEMSIM_SHARDS="x": must be a whole number`},
		{"kubernetes index not a number", map[string]string{"JOB_COMPLETION_INDEX": "2.0", "MEMSIM_SHARDS": "4"}, tournament.Shard{},
			`environment variable JOB_COMPLETION_INDEX="2.0": must be a whole number`},
		{"kubernetes index past the count", map[string]string{"JOB_COMPLETION_INDEX": "5", "MEMSIM_SHARDS": "5"}, tournament.Shard{},
			`shard "6/5": must be i/N with 1 <= i <= N, for example 2/8 (from the environment)`},
		{"kubernetes largest index", map[string]string{"JOB_COMPLETION_INDEX": "9223372036854775807", "MEMSIM_SHARDS": "5"}, tournament.Shard{},
			"JOB_COMPLETION_INDEX=9223372036854775807: the shard number JOB_COMPLETION_INDEX + 1 is out of range"},
		{"slurm id not a number", map[string]string{"SLURM_ARRAY_TASK_ID": "x"}, tournament.Shard{},
			`environment variable SLURM_ARRAY_TASK_ID="x": must be a whole number`},
		{"slurm without count", map[string]string{"SLURM_ARRAY_TASK_ID": "3"}, tournament.Shard{},
			"SLURM_ARRAY_TASK_ID is set without SLURM_ARRAY_TASK_COUNT"},
		{"slurm count not a number", map[string]string{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "four"}, tournament.Shard{},
			`environment variable SLURM_ARRAY_TASK_COUNT="four": must be a whole number`},
		{"slurm min not a number", map[string]string{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "-"}, tournament.Shard{},
			`environment variable SLURM_ARRAY_TASK_MIN="-": must be a whole number`},
		{"slurm id below min", map[string]string{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_MIN": "5", "SLURM_ARRAY_TASK_COUNT": "4"}, tournament.Shard{},
			`shard "-1/4": must be i/N with 1 <= i <= N, for example 2/8 (from the environment)`},
		{"slurm id beyond an int", map[string]string{"SLURM_ARRAY_TASK_ID": "9223372036854775808", "SLURM_ARRAY_TASK_COUNT": "4"}, tournament.Shard{},
			`environment variable SLURM_ARRAY_TASK_ID="9223372036854775808": must be a whole number between -9223372036854775808 and 9223372036854775807`},
		{"slurm id - min overflows", map[string]string{"SLURM_ARRAY_TASK_ID": "9223372036854775807", "SLURM_ARRAY_TASK_MIN": "-9223372036854775808", "SLURM_ARRAY_TASK_COUNT": "4"}, tournament.Shard{},
			"SLURM_ARRAY_TASK_ID=9223372036854775807 and SLURM_ARRAY_TASK_MIN=-9223372036854775808: the shard number SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN + 1 is out of range"},
		{"slurm id - min underflows", map[string]string{"SLURM_ARRAY_TASK_ID": "-9223372036854775808", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": "4"}, tournament.Shard{},
			"SLURM_ARRAY_TASK_ID=-9223372036854775808 and SLURM_ARRAY_TASK_MIN=1: the shard number SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN + 1 is out of range"},
		{"slurm id - min + 1 overflows", map[string]string{"SLURM_ARRAY_TASK_ID": "9223372036854775807", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_COUNT": "4"}, tournament.Shard{},
			"SLURM_ARRAY_TASK_ID=9223372036854775807 and SLURM_ARRAY_TASK_MIN=0: the shard number SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN + 1 is out of range"},
		{"slurm id - min + 1 just overflows", map[string]string{"SLURM_ARRAY_TASK_ID": "9223372036854775806", "SLURM_ARRAY_TASK_MIN": "-1", "SLURM_ARRAY_TASK_COUNT": "4"}, tournament.Shard{},
			"SLURM_ARRAY_TASK_ID=9223372036854775806 and SLURM_ARRAY_TASK_MIN=-1: the shard number SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN + 1 is out of range"},
		{"slurm largest id that fits", map[string]string{"SLURM_ARRAY_TASK_ID": "9223372036854775805", "SLURM_ARRAY_TASK_MIN": "-1", "SLURM_ARRAY_TASK_COUNT": "4"}, tournament.Shard{},
			`shard "9223372036854775807/4": must be i/N with 1 <= i <= N, for example 2/8 (from the environment)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tournament.ShardFromEnv(func(k string) string { return tt.env[k] })
			msg := ""
			if err != nil {
				msg = err.Error()
			}
			if msg != tt.err || got != tt.want {
				t.Errorf("got %+v, %q; want %+v, %q", got, msg, tt.want, tt.err)
			}
		})
	}
}

// An index without the number of shards is told apart, so that a caller can suggest another way of
// giving the shard.
func TestShardFromEnvCountUnset(t *testing.T) {
	for _, env := range []map[string]string{{"SLURM_ARRAY_TASK_ID": "1"}, {"JOB_COMPLETION_INDEX": "1"}} {
		_, err := tournament.ShardFromEnv(func(k string) string { return env[k] })
		var unset *tournament.ShardCountUnsetError
		if !errors.As(err, &unset) {
			t.Errorf("%v: %v, want a *ShardCountUnsetError", env, err)
		}
	}
	_, err := tournament.ShardFromEnv(func(k string) string {
		return map[string]string{"JOB_COMPLETION_INDEX": "1", "MEMSIM_SHARDS": "x"}[k]
	})
	var unset *tournament.ShardCountUnsetError
	if errors.As(err, &unset) {
		t.Errorf("MEMSIM_SHARDS=x: %v, a count that is set", err)
	}
}
