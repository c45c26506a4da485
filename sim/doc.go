// Package sim is memsim's card-level engine: it deals shuffled cards and plays games of Memory
// between players, turn by turn, as the rules of package sim/rules define them.
//
// A Player either follows a policy table (rules.ChoiceTable), which the engine plays itself on
// its fast paths, or implements Strategy, which chooses each flip from a View of what the player
// remembers. A Game plays one deal (Game.Play, Game.PlayDeal) and records its Outcome; a Log
// records its moves. A Match is a set of players meeting over many deals in one or more seat
// orders: Match.Play runs them on a pool of worker goroutines and returns a Result, the tallies
// of every seat (pairs, wins, draws, losses, game lengths, luck terms). Every deal derives from
// the match's streams (Match.Streams) and the deal's index, so a Result is the same on any number
// of workers, and shards of a match (Match.ShardDeals, Match.MergeShards) add up to the whole.
//
// The engine knows nothing of the exact solver, the strategies' internals or reports: what it
// shares with the solver is the model state and the rules, in package sim/rules.
package sim
