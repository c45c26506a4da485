#!/usr/bin/env python3
"""A memsim player that flips a uniformly random legal card (events view).

It draws with each game's seeded random.Random, so the same seed gives the same play. Option
pass_prob: the probability of passing where the request allows it (default 0: never passes).
It decides with flip_batch, the form a vectorised agent uses.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import memsim_player as mp  # noqa: E402


class RandomPlayer(mp.Player):
    name = "random-py"
    version = "1.0"
    view = "events"
    options = [mp.Option("pass_prob", "float", 0.0, min=0, max=1)]

    def flip_batch(self, games):
        q = self.values["pass_prob"]
        replies = []
        for g in games:
            rng = g.rng
            if q and g.can_pass and rng.random() < q:
                replies.append(g.pass_turn())
            else:
                replies.append(g.flip(rng.choice(g.legal)))
        return replies


if __name__ == "__main__":
    RandomPlayer().run()
