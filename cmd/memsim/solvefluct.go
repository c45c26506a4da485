package main

import "memsim/sim/rules"

// fluctuationQuery sets the fluctuating capacity of --fluctuation S on the memory of --memory M
// --forget RULE, refusing what its exact model does not give: the values of two players under
// pass rule never, from a state of pairs only (docs/models.md §4.4).
func (fl *solveFlags) fluctuationQuery(q *solveQuery, set map[string]bool) error {
	mem := q.model.Memory
	switch {
	case fl.fluctuation < 0 || fl.fluctuation > rules.MaxFluctuation:
		return usagef("--fluctuation %d: must be between 0 and %d", fl.fluctuation, rules.MaxFluctuation)
	case fl.fluctuation == 0:
		return nil // a fixed capacity
	case mem.Forget != rules.ForgetLRU && mem.Forget != rules.ForgetHandoverUniform:
		return usagef("--fluctuation %d goes with --memory M --forget lru or handover-uniform", fl.fluctuation)
	case q.table:
		return usagef("--fluctuation %d with --table: the choices depend on the capacity drawn; the engine builds that table (memsim run), solve prints the values", fl.fluctuation)
	case fl.distribution:
		return usagef("--fluctuation %d with --distribution: the score distribution is not computed under a fluctuating capacity", fl.fluctuation)
	case set["first"]:
		return usagef("--fluctuation %d with --first: the choices' values are not computed under a fluctuating capacity (the mover's choice depends on the capacity drawn)", fl.fluctuation)
	case set["players"] && (fl.players < 2 || fl.players > rules.MaxPlayers):
		return usagef("--fluctuation %d with --players %d: solved for 2 to %d players", fl.fluctuation, fl.players, rules.MaxPlayers)
	case set["standings"]:
		return usagef("--fluctuation %d with --standings: the chances of the most pairs are not computed under a fluctuating capacity", fl.fluctuation)
	case fl.pass != rules.PassNever.String():
		return usagef("--fluctuation %d with --pass %s: solved under pass rule never", fl.fluctuation, fl.pass)
	case fl.lead != 0:
		return usagef("--fluctuation %d with --lead %d: the policies that play to win are not solved under a fluctuating capacity", fl.fluctuation, fl.lead)
	}
	q.model.Memory.Fluctuation = fl.fluctuation
	fl.valueOnly = true // the choices' values depend on the capacity drawn
	return nil
}
