#!/usr/bin/env python3
"""memsim's daring policy played card by card (events view), with perfect memory.

Its memory is the game's public record (game.faces: every card seen that is still on the
table). First card: one card of a pair it has seen whole, if any; otherwise a card never seen.
Second card: the first card's partner if it has been seen; after a singleton, a seen card
(the earliest seen); otherwise another card never seen (docs/models.md §3.2, §5.2).
Option pick: how it picks among cards never seen, "random" (the game's seeded random.Random,
the default) or "lowest" (the lowest position).

It plays every rule variant (docs/models.md §1.7): with copies of a face a partner is any seen
card of the face; under blind flips it names a pair it has seen whole, or two cards never seen
(one, and a seen card, when only one is left); a turn limit changes nothing in its play.
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
    variants = mp.VARIANTS

    def configure(self):
        self.lowest = self.values["pick"] == "lowest"

    def unseen(self, g, legal):
        u = [p for p in legal if p not in g.faces]
        if not u:  # every legal card has been seen: any legal card
            u = legal
        return u[0] if self.lowest else g.rng.choice(u)

    def flip(self, g):
        legal = g.legal
        if g.blind:
            if g.known_pairs:
                a, b = g.positions_of(min(g.known_pairs))[:2]
                if a in legal and b in legal:
                    return g.flip_both(a, b)
            first = self.unseen(g, legal)
            return g.flip_both(first, self.unseen(g, [p for p in legal if p != first]))
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
        if face >= g.rules.pair_faces:  # a singleton: a seen card if there is one
            for p in g.faces:
                if p != pos and p in legal:
                    return g.flip(p)
        others = [p for p in legal if p != pos]
        return g.flip(self.unseen(g, others or legal))


if __name__ == "__main__":
    Daring().run()
