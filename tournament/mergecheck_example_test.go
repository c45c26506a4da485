package tournament_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"

	"memsim/configs"
	"memsim/tournament"
)

// Two processes each play one shard of a run and write its results; a third gathers the shard
// files, checks that they make up the run, and merges them.
func ExampleShardSet() {
	src := []byte("seed: 5\ngames: 3000\nrules: {pairs: [4]}\nplayers: [{name: a, policy: parity}, {name: b, policy: daring}]\n")
	ctx := context.Background()
	build := func() *tournament.Tournament {
		cfg, err := configs.Parse("run.yaml", src, tournament.ConfigOptions())
		if err != nil {
			log.Fatal(err)
		}
		t, err := tournament.New(ctx, cfg)
		if err != nil {
			log.Fatal(err)
		}
		return t
	}
	files := map[string][]byte{}
	for i := 1; i <= 2; i++ {
		t := build()
		if err := t.SetShard(tournament.Shard{Index: i, Count: 2}); err != nil {
			log.Fatal(err)
		}
		res, err := t.Play(ctx, tournament.Options{Workers: 1})
		if err != nil {
			log.Fatal(err)
		}
		files[fmt.Sprintf("shard-%d-of-2", i)], _ = json.Marshal(t.ShardResult(res))
	}

	whole := build()
	set := tournament.NewShardSet(whole, "shard-1-of-2")
	for _, label := range []string{"shard-2-of-2", "shard-2-of-2"} {
		s, err := whole.LoadShardResult(files[label])
		if err != nil {
			log.Fatal(err)
		}
		if err := set.Add(label, s); err != nil {
			fmt.Println(err)
		}
	}
	if _, err := set.Shards(); err != nil {
		fmt.Println(err)
	}
	s, _ := whole.LoadShardResult(files["shard-1-of-2"])
	if err := set.Add("shard-1-of-2", s); err != nil {
		fmt.Println(err)
	}
	shards, err := set.Shards()
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := whole.Merge(shards)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d matches, %d deals each\n", len(res.Matches), res.Matches[0].Deals)
	// Output:
	// shard 2 of 2 given twice: shard-2-of-2 and shard-2-of-2
	// missing shards of 2: 1
	// 2 matches, 3000 deals each
}
