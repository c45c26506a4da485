#!/usr/bin/env python3
"""A memsim-player/1 player written from docs/protocol.md alone (standard library only).

It sits at the table with the `state` view and declares `positions: "count"`: its first-card
choice is a pure function of the rules and of the count state (n, j, s, f, after_pass), so
`memsim engine table` may ask it about count states out of play.

Policy ("odd-or-few"), with the option `threshold` (int, default 2):
  known = n - j + s - f   (the cards remembered at the start of the turn)
  - daring when j is odd, or when fewer than `threshold` cards are known;
  - otherwise safe, if the request offers it;
  - daring in every other case (daring is always among the choices).
With threshold 1 this is Alfthan's parity rule; larger thresholds dare more often.
It never passes and never plays known-first.

Usage: python3 standalone_player.py   (memsim starts it and speaks on stdin/stdout)
"""
import json
import os
import select
import sys

NAME, VERSION = "standalone-py", "1.0"
OPTIONS = [{"name": "threshold", "type": "int", "default": 2, "min": 0, "max": 3000}]


def log(*args):
    """stderr is free for our own logging (memsim keeps it in the run's logs/)."""
    print("standalone-py:", *args, file=sys.stderr, flush=True)


def choose(state, choices, threshold):
    """The policy: a pure function of the count state (and the choices it allows)."""
    n, j, s, f = state["n"], state["j"], state["s"], state["f"]
    known = n - j + s - f
    if j % 2 == 1 or known < threshold:
        return "daring"
    if "safe" in choices:
        return "safe"
    return "daring"


class Player:
    def __init__(self):
        self.threshold = OPTIONS[0]["default"]
        self.handshake_done = False
        self.games = {}  # game id -> {"seat": int, "first_face": face of the face-up first card}

    def handle(self, msg):
        """Returns the list of reply objects for one message from memsim."""
        t = msg.get("type")
        if not self.handshake_done:
            if t != "hello" or msg.get("protocol") != "memsim-player/1":
                raise SystemExit("standalone-py: expected hello memsim-player/1, got %r" % msg)
            self.handshake_done = True
            return [{"type": "player", "name": NAME, "version": VERSION, "view": "state",
                     "options": OPTIONS, "positions": "count"}]
        if t == "options":
            values = msg.get("values", {})
            if "threshold" in values:
                self.threshold = int(values["threshold"])
            log("threshold =", self.threshold)
            return []
        if t == "new_game":
            self.games[msg["game"]] = {"seat": msg["seat"], "first_face": None}
            return []
        if t == "flip":  # an event: remember the face of the turn's latest face-up card
            g = self.games.get(msg["game"])
            if g is not None:
                g["first_face"] = msg["face"]
            return []
        if t in ("pair", "pass", "handover"):
            g = self.games.get(msg["game"])
            if g is not None:
                g["first_face"] = None  # the face-up cards are gone or turned down
            return []
        if t == "end":
            self.games.pop(msg["game"], None)
            return []
        if t == "position":  # a position query: same policy, no game
            return [{"type": "choice", "game": msg["game"],
                     "choice": choose(msg["state"], msg["choices"], self.threshold)}]
        if t == "move":
            return [self.move(msg)]
        log("ignoring unknown message type", t)
        return []

    def move(self, msg):
        gid, legal = msg["game"], msg["legal"]
        if msg["card"] == 1:
            if "choices" in msg and "state" in msg:
                return {"type": "choice", "game": gid,
                        "choice": choose(msg["state"], msg["choices"], self.threshold)}
            return {"type": "flip", "game": gid, "pos": legal[0]}
        # Second card (only if memsim ever asks): the first card's remembered partner if we
        # know it, else a card we do not remember, else any legal card.
        g = self.games.get(gid, {})
        known = {k["pos"]: k["face"] for k in msg.get("known", [])}
        face = g.get("first_face")
        for pos in legal:
            if face is not None and known.get(pos) == face:
                return {"type": "flip", "game": gid, "pos": pos}
        unknown = [pos for pos in legal if pos not in known]
        return {"type": "flip", "game": gid, "pos": (unknown or legal)[0]}


def write_all(data):
    while data:
        n = os.write(1, data)
        data = data[n:]


def main():
    player = Player()
    buf = b""
    while True:
        chunk = os.read(0, 1 << 16)  # blocks until memsim writes something
        if not chunk:  # stdin closed: memsim has nothing more to send
            if buf.strip():
                log("ignoring an unterminated last line")
            return 0
        buf += chunk
        # Gather everything already waiting, so that requests written together are
        # answered together in one write (many games in flight).
        while select.select([0], [], [], 0)[0]:
            more = os.read(0, 1 << 16)
            if not more:
                break
            buf += more
        *lines, buf = buf.split(b"\n")
        replies = []
        for line in lines:
            if line.strip():
                replies.extend(player.handle(json.loads(line)))
        if replies:
            write_all(b"".join(json.dumps(r, separators=(",", ":")).encode() + b"\n"
                               for r in replies))


if __name__ == "__main__":
    sys.exit(main())
