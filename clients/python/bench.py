#!/usr/bin/env python3
"""Write a scripted memsim session to stdout, to time a player on it.

    python3 clients/python/bench.py --view events --requests 100000 > /tmp/session.txt
    time python3 clients/python/examples/random_player.py < /tmp/session.txt > /dev/null

The session deals games (test_memsim_player.FakeGame: 2 seats, the other seat daring; its lines
written as memsim writes them, which the library reads without the JSON decoder), keeps
--inflight of them running at once and sends all their move requests together, as memsim does
with many games in flight. The player's seat is played here (daring in the events view, parity
in the state view), so the session does not depend on the replies. After --requests move
requests it starts no new game and finishes those in flight; the count of requests goes to
stderr.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_memsim_player import FakeGame, hello  # noqa: E402


def reply(g, req):
    """The reply of the player's seat: parity in the state view, daring otherwise."""
    if g.view == "state":
        j = req["state"]["j"]
        c = "safe" if j % 2 == 0 and "safe" in req["choices"] else "daring"
        return {"type": "choice", "game": g.gid, "choice": c}
    if req["card"] == 1:
        w = g.whole()
        pos = w[0] if w else g.rng.choice(g.unseen())
    else:
        first = g.first
        pos = g.partner(first)
        if pos is None:
            rest = g.unseen(first)
            pos = g.rng.choice(rest) if rest else req["legal"][0]
    return {"type": "flip", "game": g.gid, "pos": pos}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--view", choices=["events", "state"], default="events")
    ap.add_argument("--requests", type=int, default=100000)
    ap.add_argument("--pairs", type=int, default=12)
    ap.add_argument("--inflight", type=int, default=200)
    a = ap.parse_args()
    out = sys.stdout
    write = lambda m: out.write(json.dumps(m, separators=(",", ":")) + "\n")  # noqa: E731
    write(hello())
    write({"type": "options", "values": {}})
    count, next_id, live = 0, 0, {}
    while live or count < a.requests:
        while count < a.requests and len(live) < a.inflight:
            g = FakeGame(next_id, next_id, pairs=a.pairs, seat=next_id % 2, view=a.view)
            gen = g.play()
            live[next_id] = (g, gen, next(gen, None))
            next_id += 1
        for gid, (g, gen, req) in list(live.items()):
            for m in g.out:
                write(m)
            g.out = []
            if req is None:
                del live[gid]
        reqs = [(gid, g, gen, req) for gid, (g, gen, req) in live.items()]
        for gid, g, gen, req in reqs:
            write(req)
            count += 1
        for gid, g, gen, req in reqs:
            try:
                live[gid] = (g, gen, gen.send(reply(g, req)))
            except StopIteration:
                live[gid] = (g, gen, None)
    print(f"{count} move requests", file=sys.stderr)


if __name__ == "__main__":
    main()
