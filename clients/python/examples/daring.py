#!/usr/bin/env python3
"""memsim's daring policy played card by card (events view), with perfect memory.

Its memory is the game's public record (game.faces: every card seen that is still on the
table). First card: one card of a pair it has seen whole, if any; otherwise a card never seen.
Second card: the first card's partner if it has been seen; after a singleton, a seen card
(the earliest seen); otherwise another card never seen (docs/models.md §3.2, §5.2).
Option pick: how it picks among cards never seen, "random" (the game's seeded random.Random,
the default) or "lowest" (the lowest position).
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import memsim_player as mp  # noqa: E402


class Daring(mp.Player):
    name = "daring-py"
    version = "1.0"
    view = "events"
    options = [mp.Option("pick", "choice", "random", choices=["random", "lowest"])]

    def configure(self):
        self.lowest = self.values["pick"] == "lowest"

    def unseen(self, g, legal):
        u = [p for p in legal if p not in g.faces]
        if not u:  # every legal card has been seen: any legal card
            u = legal
        return u[0] if self.lowest else g.rng.choice(u)

    def flip(self, g):
        legal = g.legal
        if g.card == 1:
            if g.known_pairs:
                p = min(g.positions_of(min(g.known_pairs)))
                if p in legal:
                    return g.flip(p)
            return g.flip(self.unseen(g, legal))
        pos, face = g.first
        partner = g.partner(pos)
        if partner is not None and partner in legal:
            return g.flip(partner)
        if face >= g.rules.pairs:  # a singleton: a seen card if there is one
            for p in g.faces:
                if p != pos and p in legal:
                    return g.flip(p)
        others = [p for p in legal if p != pos]
        return g.flip(self.unseen(g, others or legal))


if __name__ == "__main__":
    Daring().run()
