package tournament_test

import (
	"fmt"

	"memsim/tournament"
)

// A process of a Slurm job array finds its shard in the environment: task 12 of an array whose
// tasks are numbered from 10, three tasks in all, plays the third shard.
func ExampleShardFromEnv() {
	env := map[string]string{"SLURM_ARRAY_TASK_ID": "12", "SLURM_ARRAY_TASK_MIN": "10", "SLURM_ARRAY_TASK_COUNT": "3"}
	s, err := tournament.ShardFromEnv(func(name string) string { return env[name] }) // os.Getenv in a program
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("shard", s)

	// Outside a cluster engine's job there is no shard: the zero Shard plays the whole run.
	s, _ = tournament.ShardFromEnv(func(string) string { return "" })
	fmt.Println(s == tournament.Shard{})
	// Output:
	// shard 3/3
	// true
}
