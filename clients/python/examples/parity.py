#!/usr/bin/env python3
"""memsim's parity policy (state view): Alfthan's rule, docs/models.md §3.3.

At each first card it answers a choice and memsim flips the cards: daring when the count
state's j is odd, safe when j is even, daring where safe is not open. Like every fixed policy it
never passes and never plays known-first, whatever the pass rule and after_pass. Option noise:
the probability of playing the other one of daring and safe where it is open (default 0: exactly
memsim's parity).

It declares positions "count": its choice is a function of the count state, so memsim can
tabulate it (memsim engine table) by asking choose_at about every state. With noise above 0 its
play is no longer that function, and the table's check on sampled games refuses it.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import memsim_player as mp  # noqa: E402


def parity_choice(state, choices):
    """Alfthan's rule: daring when j is odd, safe when j is even and safe is open."""
    if state.j % 2 == 0 and "safe" in choices:
        return "safe"
    return "daring"


class Parity(mp.Player):
    name = "parity-py"
    version = "1.0"
    view = "state"
    options = [mp.Option("noise", "float", 0, min=0, max=1)]
    positions = "count"

    def choose_at(self, rules, state, choices):
        return parity_choice(state, choices)

    def flip(self, g):
        if g.card == 1:
            c = self.choose_at(g.rules, g.state, g.choices)
            noise = self.values["noise"]
            if noise and g.rng.random() < noise:
                other = "safe" if c == "daring" else "daring"
                if other in g.choices:
                    c = other
            return g.choose(c)
        # Only if memsim ever asks for a second card: the remembered partner, else a card it
        # does not remember.
        pos, face = g.first
        legal = g.legal
        for p, f in g.known.items():
            if f == face and p in legal:
                return g.flip(p)
        unknown = [p for p in legal if p not in g.known]
        return g.flip(g.rng.choice(unknown or legal))


if __name__ == "__main__":
    Parity().run()
