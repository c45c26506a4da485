"""Tests of memsim_player and its examples, driven as subprocesses over pipes.

Run from the repository root: python3 -m unittest discover -s clients/python -p 'test_*.py'

FakeGame is a tiny deterministic memsim: it deals a game, plays the seats that are not the
player under test as daring, and speaks memsim-player/1 to the player (docs/protocol.md).
"""

import json
import os
import random
import re
import select
import subprocess
import sys
import tempfile
import textwrap
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = os.path.join(HERE, "examples")
PROTOCOL_MD = os.path.join(HERE, "..", "..", "docs", "protocol.md")
CHOICES = ("daring", "safe", "known-first", "pass")

# Runs a player script with os.write wrapped so that each write to stdout is logged on stderr
# as "WRITE <lines>": how the replies were grouped into writes.
WRAPPER = """
import os, runpy, sys
_write = os.write
def write(fd, data):
    if fd == 1:
        os.write = _write
        try:
            sys.stderr.write("WRITE %d\\n" % data.count(b"\\n"))
            sys.stderr.flush()
        finally:
            os.write = write
    return _write(fd, data)
os.write = write
sys.argv = sys.argv[1:]
runpy.run_path(sys.argv[0], run_name="__main__")
"""


# Players run without the site module (they need the standard library only) and with their
# compiled modules cached in a temporary directory: it starts them faster.
PYTHON = [sys.executable, "-S"]
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def setUpModule():
    global CACHE
    CACHE = tempfile.TemporaryDirectory()
    PYTHON[2:] = ["-X", "pycache_prefix=" + CACHE.name]
    subprocess.run(PYTHON + ["-c", f"import sys; sys.path.insert(0, {HERE!r}); import "
                             "memsim_player"], check=True, env=ENV)


def tearDownModule():
    CACHE.cleanup()


def example(name):
    return PYTHON + [os.path.join(EXAMPLES, name)]


def memsim_line(m):
    """m (a dict whose fields are in the order of docs/protocol.md's tables) as memsim writes it:
    compact, without a newline."""
    return json.dumps(m, separators=(",", ":"))


def spaced_line(m):
    """m written with spaces and its fields after "type" in reverse order: another valid
    encoding of the same message."""
    t = {"type": m["type"]} if "type" in m else {}
    t.update((k, m[k]) for k in reversed(list(m)) if k != "type")
    return json.dumps(t)


def encode(lines, line=memsim_line):
    data = "\n".join(line(x) if isinstance(x, dict) else x for x in lines).encode()
    return data + b"\n" if lines else data


def run(cmd, lines):
    """Run cmd with the given input lines (strings or dicts); return (rc, stdout lines, stderr)."""
    p = subprocess.run(cmd, input=encode(lines), capture_output=True, timeout=20, env=ENV)
    return p.returncode, p.stdout.decode().splitlines(), p.stderr.decode()


def run_all(cmd, inputs):
    """Run cmd once per input (bytes), all at once; return [(rc, stderr)]."""
    procs = [subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, env=ENV) for _ in inputs]
    results = []
    for p, data in zip(procs, inputs):
        _, err = p.communicate(data, timeout=20)
        results.append((p.returncode, err.decode()))
    return results


def hello():
    return {"type": "hello", "protocol": "memsim-player/1"}


def new_game(gid, pairs=2, singletons=0, seats=2, rule="never", choices=CHOICES, seat=0, seed=1):
    return {"type": "new_game", "game": gid, "seat": seat, "seed": seed,
            "rules": {"pairs": pairs, "singletons": singletons, "seats": seats, "pass": rule,
                      "choices": list(choices)}}


def move(gid, legal, card=1, **extra):
    m = {"type": "move", "game": gid, "card": card, "legal": legal}
    if "pass" in extra:
        m["pass"] = extra.pop("pass")
    m["deadline_ms"] = 50
    m.update(extra)
    return m


def position(qid, n, j, pairs=4, singletons=0, f=0, lead=0, after_pass=False, rule="never",
             choices=("daring", "safe", "known-first"), rules_choices=CHOICES, seats=2):
    return {"type": "position", "game": qid,
            "rules": {"pairs": pairs, "singletons": singletons, "seats": seats, "pass": rule,
                      "choices": list(rules_choices)},
            "state": {"n": n, "j": j, "s": singletons, "f": f, "lead": lead,
                      "after_pass": after_pass},
            "choices": list(choices)}


def doc_example():
    """The example session of docs/protocol.md: (memsim's lines, the player's lines)."""
    with open(PROTOCOL_MD, encoding="utf-8") as f:
        text = f.read()
    block = re.search(r"```memsim-player\n(.*?)```", text, re.S).group(1)
    lines = block.splitlines()
    return ([x[2:] for x in lines if x.startswith("> ")],
            [x[2:] for x in lines if x.startswith("< ")])


class FakeGame:
    """One game of the fake memsim, with perfect shared memory (the public record).

    play() is a generator: it yields each move request for the player's seat and receives the
    reply (a dict); the lines for the player accumulate in out. The other seats play daring.
    """

    def __init__(self, gid, seed, pairs=4, singletons=0, seats=2, rule="never",
                 choices=CHOICES, seat=0, view="events"):
        self.gid, self.seed, self.seat, self.view = gid, seed, seat, view
        self.pairs, self.singletons, self.seats, self.rule = pairs, singletons, seats, rule
        self.choice_set = list(choices)
        self.rng = random.Random(seed * 7919 + 1)
        self.deck = list(range(pairs)) * 2 + list(range(pairs, pairs + singletons))
        self.rng.shuffle(self.deck)
        self.table = set(range(len(self.deck)))
        self.seen = {}  # pos -> face, in the order first seen
        self.scores = [0] * seats
        self.mover = 0
        self.after_pass = False
        self.out = [new_game(gid, pairs, singletons, seats, rule, choices, seat, seed)]
        self.turns = []  # the player's turns: (start state, choice or None, first, second)
        self.final = None

    # --- the table -----------------------------------------------------------------------

    def emit(self, kind, **fields):
        m = {"type": kind, "game": self.gid}
        m.update(fields)
        self.out.append(m)

    def flip(self, pos):
        assert pos in self.table, f"game {self.gid}: flip of {pos}, not on the table"
        self.seen[pos] = self.deck[pos]
        self.emit("flip", seat=self.mover, pos=pos, face=self.deck[pos])

    def partner(self, pos):
        for p, f in self.seen.items():
            if f == self.deck[pos] and p != pos:
                return p
        return None

    def whole(self):
        for p in self.seen:
            q = self.partner(p)
            if q is not None:
                return p, q
        return None

    def unseen(self, exclude=-1):
        return sorted(p for p in self.table if p not in self.seen and p != exclude)

    def count_state(self):
        n = sum(1 for f in range(self.pairs) if any(self.deck[p] == f for p in self.table))
        j = sum(1 for f in range(self.pairs)
                if any(self.deck[p] == f for p in self.table)
                and not any(sf == f for sf in self.seen.values()))
        f = sum(1 for p in self.table if self.deck[p] >= self.pairs and p not in self.seen)
        return n, j, self.singletons, f

    def can_pass(self):
        n, j, s, f = self.count_state()
        return self.rule == "always" or (self.rule == "two-known" and n - j + s - f >= 2)

    def legal_first(self, can_pass):
        t = sorted(self.table)
        if can_pass or self.unseen():
            return t
        return [p for p in t if p not in self.seen or self.partner(p) is not None]

    def legal_second(self, first, first_known, can_pass):
        t = [p for p in sorted(self.table) if p != first]
        if can_pass or not first_known:
            return t
        return [p for p in t if p not in self.seen or self.deck[p] == self.deck[first]]

    # --- a game --------------------------------------------------------------------------

    def play(self):
        passes = 0
        while len(self.table) > self.singletons:
            if self.mover == self.seat:
                turn = yield from self.player_turn()
            else:
                turn = self.daring_turn()
            if turn == "pair":
                passes = 0
                continue
            if turn == "pass":
                passes += 1
                self.emit("pass", seat=self.mover)
                if passes == self.seats:
                    left = (len(self.table) - self.singletons) // 2
                    self.final = [s + left / self.seats for s in self.scores]
                    self.emit("end", scores=self.final)
                    return
            else:
                passes = 0
            self.mover = (self.mover + 1) % self.seats
            self.after_pass = turn == "pass"
            self.emit("handover", seat=self.mover)
        self.final = list(self.scores)
        self.emit("end", scores=self.final)

    def resolve(self, a, b, a_known, b_known):
        if self.deck[a] == self.deck[b]:
            self.emit("pair", seat=self.mover, face=self.deck[a], positions=[a, b])
            for p in (a, b):
                self.table.discard(p)
                del self.seen[p]
            self.scores[self.mover] += 1
            self.after_pass = False
            return "pair"
        return "pass" if a_known and b_known else "miss"

    def daring_turn(self):
        w = self.whole()
        if w:
            self.flip(w[0])
            self.flip(w[1])
            return self.resolve(w[0], w[1], True, True)
        a = self.rng.choice(self.unseen())
        self.flip(a)
        b = self.partner(a)
        if b is None and self.deck[a] >= self.pairs:
            b = next((p for p in self.seen if p != a), None)
        if b is None:
            rest = self.unseen(a)
            b = self.rng.choice(rest) if rest else next(p for p in self.seen if p != a)
        b_known = b in self.seen
        self.flip(b)
        return self.resolve(a, b, False, b_known)

    def request(self, card, legal, can_pass, start, first=None):
        m = {"type": "move", "game": self.gid, "card": card, "legal": legal}
        if can_pass:
            m["pass"] = True
        m["deadline_ms"] = 1000
        if self.view == "state":
            n, j, s, f = start
            lead = self.scores[self.seat] - self.scores[1 - self.seat] if self.seats == 2 else 0
            m["state"] = {"n": n, "j": j, "s": s, "f": f, "lead": lead,
                          "after_pass": self.after_pass}
            known = [{"pos": p, "face": self.seen[p]} for p in sorted(self.seen) if p != first]
            if known:
                m["known"] = known
            if card == 1:
                k = n - j + s - f
                m["choices"] = [c for c in self.choice_set if c == "daring"
                                or (c in ("safe", "known-first") and k >= 1)
                                or (c == "pass" and can_pass)]
        return m

    def player_turn(self):
        start = self.count_state()
        if self.view == "state" and self.whole():
            w = self.whole()
            self.flip(w[0])
            self.flip(w[1])
            return self.resolve(w[0], w[1], True, True)
        can_pass = self.can_pass()
        req = self.request(1, self.legal_first(can_pass), can_pass, start)
        rep = yield req
        known_at_start = dict(self.seen)
        if rep["type"] == "choice":
            assert set(rep) == {"type", "game", "choice"}, rep
            assert rep["choice"] in req["choices"], (rep, req)
            self.turns.append((start, req, rep["choice"]))
            return self.play_choice(rep["choice"])
        if rep["type"] == "pass":
            assert set(rep) == {"type", "game"}, rep
            assert can_pass, f"a pass not allowed: {req}"
            self.turns.append((start, req, "pass"))
            return "pass"
        assert rep["type"] == "flip" and set(rep) == {"type", "game", "pos"}, rep
        a = rep["pos"]
        assert a in req["legal"], (rep, req)
        a_known = a in self.seen
        self.first = a
        self.flip(a)
        req2 = self.request(2, self.legal_second(a, a_known, can_pass), False, start, first=a)
        rep2 = yield req2
        assert rep2["type"] == "flip" and set(rep2) == {"type", "game", "pos"}, rep2
        b = rep2["pos"]
        assert b in req2["legal"], (rep2, req2)
        b_known = b in self.seen
        self.turns.append((start, known_at_start, a, b))
        self.flip(b)
        return self.resolve(a, b, a_known, b_known)

    def play_choice(self, choice):
        """memsim's table play of a choice (docs/models.md §5.2), perfect memory."""
        if choice == "pass":
            return "pass"
        if choice == "known-first":
            halves = [p for p in self.seen if self.partner(p) is None]
            a = min(halves, key=lambda p: self.deck[p] >= self.pairs)
            self.flip(a)
            b = self.rng.choice(self.unseen(a))
            self.flip(b)
            return self.resolve(a, b, True, False)
        a = self.rng.choice(self.unseen())
        self.flip(a)
        b = self.partner(a)
        if b is None and (self.deck[a] >= self.pairs or choice == "safe"):
            b = next((p for p in self.seen if p != a), None)
        if b is None:
            b = self.rng.choice(self.unseen(a))
        b_known = b in self.seen
        self.flip(b)
        return self.resolve(a, b, False, b_known)


class FakeMemsim:
    """Plays games against a player process, all in flight at once, over its pipes."""

    def __init__(self, cmd, games, values=None, line=memsim_line):
        self.cmd, self.games, self.values, self.line = cmd, games, values or {}, line
        self.writes = []  # the player's writes: lines per write

    def send(self, lines):
        if lines:
            self.proc.stdin.write("".join(self.line(x) + "\n" for x in lines).encode())
            self.proc.stdin.flush()

    def read_lines(self, k):
        fd = self.proc.stdout.fileno()
        while self.buf.count(b"\n") < k:
            r, _, _ = select.select([fd], [], [], 10)
            if not r:
                raise AssertionError(f"the player sent no reply within 10 s: {self.stderr()}")
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                raise AssertionError(f"the player exited: {self.stderr()}")
            self.buf += chunk
        lines = self.buf.split(b"\n")
        self.buf = b"\n".join(lines[k:])
        return [json.loads(x) for x in lines[:k]]

    def stderr(self):
        self.proc.kill()
        return self.proc.stderr.read().decode()

    def play(self):
        self.proc = subprocess.Popen(self.cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, env=ENV)
        self.buf = b""
        self.send([hello()])
        self.handshake = self.read_lines(1)[0]
        self.send([{"type": "options", "values": self.values}])
        gens = {g.gid: g.play() for g in self.games}
        pending = {gid: next(gen) for gid, gen in gens.items()}
        while True:
            lines = []
            for g in self.games:
                lines += g.out
                g.out = []
                if g.gid in pending:
                    lines.append(pending[g.gid])
            self.send(lines)
            if not pending:
                break
            replies = self.read_lines(len(pending))
            answered = set()
            for rep in replies:
                gid = rep["game"]
                assert gid in pending and gid not in answered, f"reply for game {gid}: {rep}"
                answered.add(gid)
                try:
                    pending[gid] = gens[gid].send(rep)
                except StopIteration:
                    del pending[gid]
        self.proc.stdin.close()
        rc = self.proc.wait(timeout=10)
        err = self.proc.stderr.read().decode()
        self.proc.stdout.close()
        self.proc.stderr.close()
        return rc, err


class LibraryTest(unittest.TestCase):
    """The library's handshake, options, batching, exit and errors."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.wrapper = cls.script("wrapper.py", WRAPPER)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    @classmethod
    def script(cls, name, body):
        path = os.path.join(cls.tmp.name, name)
        with open(path, "w") as f:
            f.write(f"import sys\nsys.path.insert(0, {HERE!r})\nimport memsim_player as mp\n")
            f.write(textwrap.dedent(body))
        return path

    def player(self, body, name="p.py"):
        return PYTHON + [self.script(name, body)]

    def wrapped(self, cmd):
        return PYTHON + [self.wrapper] + cmd[len(PYTHON):]

    def test_doc_example_session(self):
        """Each memsim line of the doc's example is accepted and the replies are the doc's."""
        memsim, player = doc_example()
        cmd = self.player("""
            class Doc(mp.Player):
                name, version, view = "parity-py", "1.0", "state"
                options = [mp.Option("noise", "float", 0, min=0, max=1)]
                def flip(self, g):
                    if g.id == 7:
                        return g.choose("daring")
                    return g.flip(1 if g.card == 1 else 0)
            Doc().run()
            """)
        rc, out, err = run(self.wrapped(cmd), memsim)
        self.assertEqual(rc, 0, err)
        self.assertEqual([json.loads(x) for x in out], [json.loads(x) for x in player])
        self.assertEqual(out[1:], player[1:])
        # The handshake, the first two replies together, then the last one.
        self.assertEqual(re.findall(r"WRITE (\d+)", err), ["1", "2", "1"])

    def test_parity_accepts_doc_example(self):
        memsim, _ = doc_example()
        rc, out, err = run(example("parity.py"), memsim)
        self.assertEqual((rc, err), (0, ""))
        self.assertEqual([json.loads(x) for x in out[1:]], [
            {"type": "choice", "game": 7, "choice": "daring"},  # j = 2, safe not open
            {"type": "choice", "game": 8, "choice": "daring"},  # j = 1
            {"type": "flip", "game": 8, "pos": 0}])  # the only legal second card

    def test_handshake_of_examples(self):
        want = {"random_player.py": ("random-py", "events", "pass_prob", "float"),
                "daring.py": ("daring-py", "events", "pick", "choice"),
                "parity.py": ("parity-py", "state", "noise", "float")}
        for script, (name, view, opt, typ) in want.items():
            with self.subTest(script=script):
                rc, out, err = run(example(script), [hello()])
                self.assertEqual((rc, err), (0, ""))
                self.assertEqual(len(out), 1)
                h = json.loads(out[0])
                self.assertEqual((h["type"], h["name"], h["view"]), ("player", name, view))
                self.assertIsInstance(h["version"], str)
                self.assertEqual((h["options"][0]["name"], h["options"][0]["type"]), (opt, typ))

    OPTIONS_PLAYER = """
        import json
        class Opts(mp.Player):
            name = "opts"
            options = [mp.Option("b", "bool", False), mp.Option("i", "int", 3, min=1, max=9),
                       mp.Option("x", "float", 0.5, min=0, max=1), mp.Option("s", "string", "a"),
                       mp.Option("c", "choice", "lo", choices=["lo", "hi"])]
            def configure(self):
                print(json.dumps(self.values))
            def flip(self, g):
                return g.flip(g.legal[0])
        Opts().run()
        """

    def test_options_declared_and_applied(self):
        cmd = self.player(self.OPTIONS_PLAYER)
        rc, out, err = run(cmd, [hello(), {"type": "options",
                                           "values": {"b": True, "i": 9, "x": 1, "c": "hi"}}])
        self.assertEqual(rc, 0, err)
        self.assertEqual(json.loads(out[0])["options"], [
            {"name": "b", "type": "bool", "default": False},
            {"name": "i", "type": "int", "default": 3, "min": 1, "max": 9},
            {"name": "x", "type": "float", "default": 0.5, "min": 0, "max": 1},
            {"name": "s", "type": "string", "default": "a"},
            {"name": "c", "type": "choice", "default": "lo", "choices": ["lo", "hi"]}])
        self.assertEqual(len(out), 1, "print() must go to stderr")
        self.assertEqual(json.loads(err), {"b": True, "i": 9, "x": 1, "s": "a", "c": "hi"})

    def test_options_rejected(self):
        cmd = self.player(self.OPTIONS_PLAYER)
        cases = [({"i": 10}, "outside 1 .. 9"), ({"i": 2.0}, "not a int"),
                 ({"b": 1}, "not a bool"), ({"c": "mid"}, "not one of lo, hi"),
                 ({"zz": 1}, "not a declared option"), ({"x": None}, "not a float")]
        results = run_all(cmd, [encode([hello(), {"type": "options", "values": v}])
                                for v, _ in cases])
        for (values, want), (rc, err) in zip(cases, results):
            with self.subTest(values=values):
                self.assertEqual(rc, 1)
                self.assertIn(want, err)
                self.assertEqual(err.count("\n"), 1, err)

    def test_batch_decided_together_and_written_once(self):
        cmd = self.player("""
            class Batch(mp.Player):
                name = "batch"
                def flip_batch(self, games):
                    print("BATCH", [g.id for g in games])
                    return [g.flip(g.legal[-1]) for g in games]
            Batch().run()
            """)
        lines = [hello(), {"type": "options", "values": {}}]
        lines += [new_game(g) for g in (1, 2, 3)]
        lines += [move(g, [0, 1, 2, 3]) for g in (1, 2, 3)]
        rc, out, err = run(self.wrapped(cmd), lines)
        self.assertEqual(rc, 0, err)
        self.assertIn("BATCH [1, 2, 3]", err)
        self.assertEqual(re.findall(r"WRITE (\d+)", err), ["1", "3"])
        self.assertEqual([json.loads(x) for x in out[1:]],
                         [{"type": "flip", "game": g, "pos": 3} for g in (1, 2, 3)])

    def test_clean_exit_at_eof(self):
        for lines in ([], [hello()], [hello(), new_game(1)]):
            with self.subTest(lines=lines):
                rc, out, err = run(example("random_player.py"), lines)
                self.assertEqual((rc, err), (0, ""))
                self.assertEqual(len(out), 1 if lines else 0)

    def test_protocol_errors(self):
        """Each bad line stops the player: one line on stderr naming the line, exit status 1."""
        ok = [hello(), {"type": "options", "values": {}}, new_game(1)]
        flip = {"type": "flip", "game": 1, "seat": 0, "pos": 0, "face": 1}
        cases = [
            ("garbage", ["hello world"], "line 1: not a JSON object"),
            ("not an object", ["[1, 2]"], "line 1: not a JSON object"),
            ("empty line", [""], "line 1: not a JSON object"),
            ("unknown type", ok + [{"type": "bogus", "game": 1}], "line 4: unknown type"),
            ("missing type", [{"protocol": "memsim-player/1"}], "missing field 'type'"),
            ("wrong protocol", [{"type": "hello", "protocol": "memsim-player/2"}],
             "is not memsim-player/1"),
            ("before hello", [new_game(1)], "new_game before hello"),
            ("second hello", [hello(), hello()], "a second hello"),
            ("missing field", ok + [{"type": "move", "game": 1, "card": 1, "deadline_ms": 5}],
             "missing field 'legal'"),
            ("field not listed", ok + [dict(flip, extra=1)], "'extra' is not listed"),
            ("null", ok + [dict(flip, face=None)], "flip: face null"),
            ("fraction", ok + [dict(flip, game=1.0)], "must be an integer"),
            ("bool as integer", ok + [dict(flip, pos=True)], "flip: pos true"),
            ("NaN", ok + ['{"type":"end","game":1,"scores":[NaN,2]}'], "NaN"),
            ("game not running", ok + [move(9, [0])], "move: game 9 is not running"),
            ("game id too large", ok + [dict(flip, game=2**53)], "0 .. 9007199254740991"),
            ("game started twice", ok + [new_game(1)], "game 1 is already running"),
            ("bad rules", [hello(), new_game(1, pairs=0)], "pairs must be an integer in 1 .. 1000"),
            ("no daring", [hello(), new_game(1, choices=["safe"])], "that holds daring"),
            ("seat not to move", ok + [dict(flip, seat=1)], "not the seat to move"),
            ("position off the table", ok + [dict(flip, pos=4)], "not a card on the table"),
            ("face changes", ok + [flip, dict(flip, pos=1, face=0),
                                   {"type": "handover", "game": 1, "seat": 1},
                                   {"type": "flip", "game": 1, "seat": 1, "pos": 0, "face": 0}],
             "pos 0 showed face 1 before"),
            ("third card of a face", ok + [flip, dict(flip, pos=1),
                                           {"type": "pair", "game": 1, "seat": 0, "face": 1,
                                            "positions": [0, 1]}, dict(flip, pos=2)],
             "pos 2 cannot show face 1"),
            ("pair that is not the turn's", ok + [flip, dict(flip, pos=1, face=0),
                                                  {"type": "pair", "game": 1, "seat": 0,
                                                   "face": 1, "positions": [0, 1]}],
             "is not the pair of the turn's two flips"),
            ("handover mid-turn", ok + [flip, {"type": "handover", "game": 1, "seat": 1}],
             "the turn has not ended"),
            ("two requests in flight", ok + [move(1, [0, 1]), move(1, [0, 1])],
             "has a request in flight already"),
            ("card 2 without a first card", ok + [move(1, [0, 1], card=2)],
             "card 2 without a face-up first card"),
            ("legal not increasing", ok + [move(1, [1, 0])], "in increasing order"),
            ("legal empty", ok + [move(1, [])], "move: legal must be"),
            ("pass under never", ok + [move(1, [0], **{"pass": True})], "pass rule never"),
            ("deadline", ok + [dict(move(1, [0]), deadline_ms=0)], "deadline_ms must be"),
            ("state for an events player", ok + [move(1, [0], state={})], "'state' is not listed"),
            ("scores do not add up", ok + [{"type": "end", "game": 1, "scores": [1, 0]}],
             "adding up to 2 pairs"),
            ("options twice", ok[:2] + [{"type": "options", "values": {}}],
             "a second options message"),
        ]
        # Written as memsim writes, the lines of a game in flight take the fast path, which
        # leaves a line that does not fit its game to the general one; written otherwise, all
        # take the general path. The error is the same.
        inputs = [encode(c[1], line) for line in (memsim_line, spaced_line) for c in cases]
        results = run_all(example("random_player.py"), inputs)
        for i, (rc, err) in enumerate(results):
            name, lines, want = cases[i % len(cases)]
            with self.subTest(name, spaced=i >= len(cases)):
                self.assertEqual(rc, 1, err)
                self.assertIn(want, err)
                self.assertEqual(err.count("\n"), 1, err)
                self.assertNotIn("Traceback", err)

    def test_byte_level_errors(self):
        cmd = example("random_player.py")
        h = json.dumps(hello()).encode() + b"\n"
        cases = [
            ("invalid UTF-8", h + b'{"type":"\xff"}\n', "line 2: a line that is not valid UTF-8"),
            ("no end of line", h + json.dumps(new_game(1)).encode(),
             "line 2: the last line has no end of line"),
            ("line too long", h + b" " * (1 << 20) + b"{}\n", "line 2: a line longer than"),
            ("line too long, unfinished", h + b" " * (1 << 20 | 1), "line 2: a line longer")]
        for (name, _, want), (rc, err) in zip(cases, run_all(cmd, [c[1] for c in cases])):
            with self.subTest(name):
                self.assertEqual(rc, 1, err)
                self.assertIn(want, err)
                self.assertNotIn("Traceback", err)

    def test_crlf_and_whitespace_accepted(self):
        rc, out, err = run(example("random_player.py"),
                           ['  {"type":"hello","protocol":"memsim-player/1"}\r'])
        self.assertEqual((rc, err, len(out)), (0, "", 1))

    def test_state_view_checks_the_request(self):
        ok = [hello(), new_game(1)]
        st = {"n": 2, "j": 2, "s": 0, "f": 0, "lead": 0, "after_pass": False}
        cases = [
            ("no state", [move(1, [0], choices=["daring"])], "missing field 'state'"),
            ("no choices", [move(1, [0], state=st)], "missing field 'choices'"),
            ("n wrong", [move(1, [0], state=dict(st, n=1), choices=["daring"])],
             "but 2 pairs are on the table"),
            ("choice out of set", [move(1, [0], state=st, choices=["daring", "bold"])],
             "choices must be"),
            ("known unseen", [move(1, [0], state=st, choices=["daring"],
                                   known=[{"pos": 0, "face": 0}])], "are not seen cards"),
            ("after_pass null", [move(1, [0], state=dict(st, after_pass=None),
                                      choices=["daring"])], "after_pass must be true or false"),
        ]
        results = run_all(example("parity.py"), [encode(ok + c[1]) for c in cases])
        for (name, lines, want), (rc, err) in zip(cases, results):
            with self.subTest(name):
                self.assertEqual(rc, 1, err)
                self.assertIn(want, err)
                self.assertNotIn("Traceback", err)

    def test_position_queries_answered_without_a_game(self):
        """A player that declares positions answers each query with choose_at, by its id."""
        queries = [position(10, 3, 2), position(11, 3, 1), position(12, 2, 2, choices=["daring"]),
                   position(13, 4, 0, f=0)]
        rc, out, err = run(example("parity.py"), [hello(), {"type": "options", "values": {}}]
                           + queries)
        self.assertEqual((rc, err), (0, ""))
        self.assertEqual(json.loads(out[0])["positions"], "count")
        self.assertEqual([json.loads(x) for x in out[1:]], [
            {"type": "choice", "game": 10, "choice": "safe"},    # j = 2, safe open
            {"type": "choice", "game": 11, "choice": "daring"},  # j = 1
            {"type": "choice", "game": 12, "choice": "daring"},  # safe not open
            {"type": "choice", "game": 13, "choice": "safe"}])   # j = 0

    def test_parity_answers_the_doc_position_example(self):
        """parity.py writes the player's lines of docs/protocol.md's position-query example."""
        with open(PROTOCOL_MD, encoding="utf-8") as f:
            block = re.findall(r"```memsim-player\n(.*?)```", f.read(), re.S)[1]
        lines = block.splitlines()
        memsim = [x[2:] for x in lines if x.startswith("> ")]
        player = [x[2:] for x in lines if x.startswith("< ")]
        rc, out, err = run(example("parity.py"), memsim)
        self.assertEqual((rc, err), (0, ""))
        self.assertEqual([json.loads(x) for x in out[1:]], [json.loads(x) for x in player[1:]])
        self.assertEqual(json.loads(out[0])["positions"], json.loads(player[0])["positions"])

    def test_position_queries_with_the_lead(self):
        cmd = self.player("""
            class Lead(mp.Player):
                name, view, positions = "lead", "state", "lead"
                def choose_at(self, rules, state, choices):
                    return "safe" if state.lead > 0 and "safe" in choices else "daring"
            Lead().run()
            """)
        rc, out, err = run(cmd, [hello(), position(1, 3, 1, lead=1), position(2, 3, 1, lead=-1)])
        self.assertEqual(rc, 0, err)
        self.assertEqual([json.loads(x)["choice"] for x in out[1:]], ["safe", "daring"])

    def test_position_errors(self):
        """A query that does not fit the rules, or is sent to a player that declares no
        positions, stops the player with one line naming the line."""
        ok = [hello(), {"type": "options", "values": {}}]
        cases = [
            ("no positions declared", "random_player.py", [position(1, 2, 2)],
             "line 3: position: the player declares no positions"),
            ("missing state", "parity.py", [{k: v for k, v in position(1, 2, 2).items()
                                              if k != "state"}], "missing field 'state'"),
            ("field not listed", "parity.py", [dict(position(1, 2, 2), legal=[0])],
             "'legal' is not listed"),
            ("n beyond the pairs", "parity.py", [position(1, 5, 2)], "n must be an integer in 1 .. 4"),
            ("no pairs", "parity.py", [position(1, 0, 0)], "n must be an integer in 1 .. 4"),
            ("lead to a lead-free player", "parity.py", [position(1, 3, 2, lead=1)],
             "lead must be an integer in 0 .. 0"),
            ("s not the rules'", "parity.py", [dict(position(1, 3, 2), state={
                "n": 3, "j": 2, "s": 1, "f": 0, "lead": 0, "after_pass": False})],
             "s must be an integer in 0 .. 0"),
            ("choice outside the rules", "parity.py",
             [position(1, 3, 2, rules_choices=["daring"])], "choices must be choices of the rules"),
            ("id of a running game", "parity.py", [new_game(1), position(1, 2, 2)],
             "position: id 1 is a running game's"),
        ]
        for name, script, lines, want in cases:
            with self.subTest(name):
                rc, out, err = run(example(script), ok + lines)
                self.assertEqual(rc, 1, err)
                self.assertIn(want, err)
                self.assertEqual(err.count("\n"), 1, err)
                self.assertNotIn("Traceback", err)

    def test_positions_declaration_checked(self):
        for body, want in [("view, positions = 'events', 'count'", "only a state-view player"),
                           ("view, positions = 'state', 'all'", "positions must be None or one of")]:
            with self.subTest(body):
                cmd = self.player(f"""
                    class Bad(mp.Player):
                        name = "bad"
                        {body}
                    Bad().run()
                    """)
                rc, out, err = run(cmd, [hello()])
                self.assertEqual((rc, out), (1, []))
                self.assertIn(want, err)

    def test_player_mistake_is_reported(self):
        cmd = self.player("""
            class Bad(mp.Player):
                name = "bad"
                def flip(self, g):
                    return g.flip(99)
            Bad().run()
            """)
        rc, out, err = run(cmd, [hello(), new_game(1), move(1, [0, 1])])
        self.assertEqual(rc, 1)
        self.assertIn("bad: player error: game 1: flip(99): not among the legal positions", err)
        self.assertNotIn("Traceback", err)

    def test_bad_declaration_is_reported(self):
        cmd = self.player("""
            class Bad(mp.Player):
                name = "bad"
                options = [mp.Option("x", "float", 2, min=0, max=1)]
            Bad().run()
            """)
        rc, out, err = run(cmd, [hello()])
        self.assertEqual((rc, out), (1, []))
        self.assertIn("option 'x': default: 2 is outside 0 .. 1", err)


def daring_expected(g, known_at_start, a, b):
    """Whether (a, b) is a daring turn with perfect memory, from the record before it."""
    faces = {}
    for p, f in known_at_start.items():
        faces.setdefault(f, []).append(p)
    whole = [ps for f, ps in faces.items() if len(ps) == 2]
    if whole:
        return any(a in ps for ps in whole) and g.deck[a] == g.deck[b]
    if a in known_at_start:
        return False
    partner = [p for p in faces.get(g.deck[a], [])]
    if partner:
        return b == partner[0]
    if g.deck[a] >= g.pairs and known_at_start:
        return b in known_at_start
    return b not in known_at_start


class FastPathTest(unittest.TestCase):
    """The library reads memsim's own lines of a game in flight without the JSON decoder: it
    reads them as json.loads does, and leaves every other encoding to the decoder."""

    @classmethod
    def setUpClass(cls):
        sys.path.insert(0, HERE)
        try:
            import memsim_player
        finally:
            sys.path.remove(HERE)
        cls.mp = memsim_player

    @staticmethod
    def messages(rng, n):
        """n random messages of the kinds the fast path reads, fields in memsim's order."""
        def num():
            return rng.choice([0, 1, 7, 10, 99, 4095, 4096, 2999, 2**53 - 1, rng.randrange(3000)])
        out = []
        for _ in range(n):
            kind = rng.choice(["flip", "pair", "handover", "move"])
            if kind == "flip":
                m = {"type": "flip", "game": num(), "seat": num(), "pos": num(), "face": num()}
            elif kind == "pair":
                m = {"type": "pair", "game": num(), "seat": num(), "face": num(),
                     "positions": [num(), num()]}
            elif kind == "handover":
                m = {"type": "handover", "game": num(), "seat": num()}
            else:
                legal = sorted(rng.sample(range(rng.choice([3, 24, 3000])), rng.randint(1, 3)))
                m = {"type": "move", "game": num(), "card": rng.choice([1, 2]), "legal": legal}
                if rng.random() < 0.5:
                    m["pass"] = True
                m["deadline_ms"] = num()
            out.append(m)
        return out

    @staticmethod
    def respaced(rng, line):
        """line with a space, a tab or a CR (JSON's whitespace) inserted after one of its commas
        or colons, or around the object."""
        cuts = [i + 1 for i, c in enumerate(line) if c in ",:"] + [0, len(line)]
        i = rng.choice(cuts)
        return line[:i] + rng.choice([" ", "\t", "\r"]) + line[i:]

    def test_memsim_lines_read_as_json_loads_reads_them(self):
        rng = random.Random(5)
        ms = self.messages(rng, 3000)
        lines = [memsim_line(m) for m in ms]
        got = self.mp._fast_messages("\n".join(lines))
        self.assertEqual(len(got), len(lines))
        for line, g in zip(lines, got):
            with self.subTest(line=line):
                self.assertEqual(g, json.loads(line))

    def test_other_encodings_left_to_the_decoder(self):
        rng = random.Random(6)
        other = []
        for m in self.messages(rng, 2000):
            line = memsim_line(m)
            keys = list(m)[1:]
            rng.shuffle(keys)
            shuffled = {"type": m["type"], **{k: m[k] for k in keys}}
            if list(shuffled) != list(m):
                other.append(memsim_line(shuffled))
            other.append(json.dumps({k: m[k] for k in reversed(list(m))}, separators=(",", ":")))
            other.append(json.dumps(m))
            other.append(self.respaced(rng, line))
            other.append(line.replace('"type"', '"\\u0074ype"'))
        for line in other:
            self.assertIsInstance(json.loads(line), dict, line)
        got = self.mp._fast_messages("\n".join(other))
        self.assertEqual(len(got), len(other))
        for line, g in zip(other, got):
            with self.subTest(line=line):
                self.assertIsNone(g)

    def test_lines_that_are_not_memsim_s_left_to_the_decoder(self):
        cases = [
            '{"type":"flip","game":01,"seat":0,"pos":1,"face":2}',  # not JSON: a leading zero
            '{"type":"flip","game":-1,"seat":0,"pos":1,"face":2}',
            '{"type":"flip","game":1.0,"seat":0,"pos":1,"face":2}',
            '{"type":"flip","game":12345678901234567,"seat":0,"pos":1,"face":2}',
            '{"type":"flip","game":1,"seat":0,"pos":1,"face":2,"face":3}',
            '{"type":"flip","game":1,"seat":0,"pos":1,"face":2} ',
            '{"type":"flip","game":1,"seat":0,"pos":1,"face":2}\r',
            '{"type":"flip","game":1,"seat":0,"pos":1}',
            '{"type":"pair","game":1,"seat":0,"face":1,"positions":[1,2,3]}',
            '{"type":"handover","game":1,"seat":true}',
            '{"type":"move","game":1,"card":1,"legal":[],"deadline_ms":50}',
            '{"type":"move","game":1,"card":1,"legal":[2,1],"deadline_ms":50}',
            '{"type":"move","game":1,"card":1,"legal":[1,1],"deadline_ms":50}',
            '{"type":"move","game":1,"card":1,"legal":[01,2],"deadline_ms":50}',
            '{"type":"move","game":1,"card":1,"legal":[1,,2],"deadline_ms":50}',
            '{"type":"move","game":1,"card":3,"legal":[1],"deadline_ms":50}',
            '{"type":"move","game":1,"card":1,"legal":[1],"pass":false,"deadline_ms":50}',
            '{"type":"move","game":1,"card":1,"legal":[1],"deadline_ms":50,"pass":true}',
            '{"type":"move","game":1,"card":1,"legal":[1],"deadline_ms":50,"state":{}}',
            '{"type":"pass","game":1,"seat":0}',
            '{"type":"end","game":1,"scores":[1,0]}',
            '{"type":"new_game","game":1,"seat":0,"seed":1,"rules":{}}',
            '',
        ]
        got = self.mp._fast_messages("\n".join(cases))
        self.assertEqual(len(got), len(cases))
        for line, g in zip(cases, got):
            with self.subTest(line=line):
                self.assertIsNone(g)


class ExamplesAgainstFakeMemsimTest(unittest.TestCase):
    """Each example plays whole games against the fake memsim, several games in flight."""

    def test_readme_player_plays(self):
        with open(os.path.join(HERE, "README.md"), encoding="utf-8") as f:
            code = re.search(r"```python\n(.*?)```", f.read(), re.S).group(1)
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "greedy.py")
            with open(path, "w") as f:
                f.write(f"import sys\nsys.path.insert(0, {HERE!r})\n" + code)
            games = self.games("events")
            fake = FakeMemsim(PYTHON + [path], games, {"lowest": True})
            rc, err = fake.play()
            self.assertEqual((rc, err), (0, ""))
            self.assertEqual(fake.handshake["name"], "greedy-py")
            self.assertTrue(all(g.final is not None for g in games))

    def games(self, view, rule="never", seats=2, choices=CHOICES, singletons=1, n=6):
        return [FakeGame(gid=100 + i, seed=i, pairs=4, singletons=singletons if i % 2 else 0,
                         seats=seats, rule=rule, choices=choices, seat=i % seats, view=view)
                for i in range(n)]

    def play(self, script, games, values=None, line=memsim_line):
        fake = FakeMemsim(example(script) if isinstance(script, str) else script, games, values,
                          line=line)
        rc, err = fake.play()
        self.assertEqual((rc, err), (0, ""))
        for g in games:
            self.assertIsNotNone(g.final, f"game {g.gid} did not end")
            self.assertAlmostEqual(sum(g.final), g.pairs)
        return fake

    def test_random_plays_legal_cards(self):
        games = self.games("events")
        self.play("random_player.py", games)
        self.assertTrue(all(g.turns for g in games))
        self.assertFalse(any(t[2] == "pass" for g in games for t in g.turns))

    def test_random_same_seed_same_play(self):
        runs = []
        for _ in range(2):
            games = self.games("events", rule="always")
            self.play("random_player.py", games, {"pass_prob": 0.3})
            runs.append([[(t[2], t[3]) if len(t) == 4 else t[2] for t in g.turns]
                         for g in games])
        self.assertEqual(runs[0], runs[1])
        self.assertIn("pass", [t for g in runs[0] for t in g])

    def test_same_record_over_other_encodings(self):
        """memsim's own lines (read by the fast path) and the same messages written otherwise
        (read by the JSON decoder) give the player the same events, records and requests."""
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "record.py")
            with open(path, "w") as f:
                f.write(f"import sys\nsys.path.insert(0, {HERE!r})\n" + textwrap.dedent("""
                    import json
                    import memsim_player as mp

                    class Record(mp.Player):
                        name = "record"
                        def on_event(self, g, ev):
                            print(json.dumps(ev, sort_keys=True))
                        def flip(self, g):
                            print(json.dumps([g.id, g.card, g.legal, g.can_pass, g.deadline_ms,
                                              sorted(g.faces.items()), sorted(g.table),
                                              sorted(g.known_pairs), g.scores, g.pairs_left,
                                              g.mover, g.after_pass, g.first,
                                              [g.positions_of(f) for f in range(9)]]))
                            if g.can_pass and g.rng.random() < 0.3:
                                return g.pass_turn()
                            return g.flip(g.rng.choice(g.legal))
                    Record().run()
                    """))
            logs = []
            for line in (memsim_line, spaced_line):
                games = self.games("events", rule="always", n=8)
                fake = FakeMemsim(PYTHON + [path], games, line=line)
                rc, err = fake.play()
                self.assertEqual(rc, 0, err)
                logs.append(err.splitlines())
        self.assertGreater(len(logs[0]), 100)
        self.assertEqual(logs[0], logs[1])

    def test_random_passes_to_a_stalemate_in_solitaire(self):
        games = [FakeGame(gid=i, seed=i, pairs=4, seats=1, rule="always") for i in range(4)]
        self.play("random_player.py", games, {"pass_prob": 0.9})
        self.assertTrue(any(len(g.table) > 0 for g in games), "no game ended in a stalemate")

    def test_daring_follows_the_daring_policy(self):
        for pick in ("random", "lowest"):
            with self.subTest(pick=pick):
                games = self.games("events")
                self.play("daring.py", games, {"pick": pick})
                for g in games:
                    for start, known, a, b in g.turns:
                        self.assertTrue(daring_expected(g, known, a, b),
                                        f"game {g.gid}: {a}, {b} after {known}")

    def test_parity_chooses_by_the_parity_of_j(self):
        for rule, choices in [("never", CHOICES), ("two-known", CHOICES),
                              ("always", ["daring", "safe", "pass"])]:
            with self.subTest(rule=rule):
                games = self.games("state", rule=rule, choices=choices, n=8)
                self.play("parity.py", games)
                made = [(t[0], t[1], t[2]) for g in games for t in g.turns]
                self.assertTrue(made)
                for (n, j, s, f), req, choice in made:
                    want = "daring" if j % 2 == 1 or "safe" not in req["choices"] else "safe"
                    self.assertEqual(choice, want, req)
                self.assertIn("safe", [c for _, _, c in made])

    def test_parity_falls_back_to_daring_without_safe(self):
        games = self.games("state", choices=["daring", "known-first"])
        self.play("parity.py", games)
        self.assertEqual({t[2] for g in games for t in g.turns}, {"daring"})


if __name__ == "__main__":
    unittest.main()


def variant_game(gid, pairs=4, seat=0, **variant):
    g = new_game(gid, pairs=pairs, seat=seat)
    g["rules"].update(variant)
    return g


class VariantsTest(unittest.TestCase):
    """The rule variants: declared in the handshake, read from new_game, blind requests
    answered with one flips reply, the turn checked under a limit."""

    def test_daring_declares_every_variant(self):
        rc, out, err = run(example("daring.py"), [hello()])
        self.assertEqual((rc, err), (0, ""))
        self.assertEqual(json.loads(out[0])["variants"], ["copies", "flips", "turn_limit"])

    def test_daring_names_both_cards_of_a_blind_turn(self):
        # Copies 4: faces 0 and 1 of four cards each. The opponent (seat 1) turned 0 and 1,
        # both face 0, and handed over: daring names that pair whole.
        lines = [hello(), {"type": "options", "values": {}},
                 variant_game(1, seat=1, copies=4, flips="blind", turn_limit=9),
                 {"type": "flip", "game": 1, "seat": 0, "pos": 0, "face": 0},
                 {"type": "flip", "game": 1, "seat": 0, "pos": 1, "face": 0},
                 {"type": "pair", "game": 1, "seat": 0, "face": 0, "positions": [0, 1]},
                 {"type": "flip", "game": 1, "seat": 0, "pos": 2, "face": 0},
                 {"type": "flip", "game": 1, "seat": 0, "pos": 3, "face": 1},
                 {"type": "handover", "game": 1, "seat": 1},
                 move(1, [2, 3, 4, 5, 6, 7], blind=True, turn=3)]
        rc, out, err = run(example("daring.py"), lines)
        self.assertEqual((rc, err), (0, ""))
        reply = json.loads(out[-1])
        self.assertEqual(reply["type"], "flips")
        # Face 0 has one seen card left (2), face 1 one (3): no pair known whole, so two cards
        # never seen.
        self.assertEqual(len(set(reply["positions"]) & {4, 5, 6, 7}), 2)

    def test_a_game_of_an_undeclared_variant_is_refused(self):
        rc, _, err = run(example("random_player.py"),
                         [hello(), {"type": "options", "values": {}}, variant_game(1, copies=4)])
        self.assertEqual(rc, 1)
        self.assertIn("rule variant copies, which the player does not declare", err)

    def test_a_request_with_the_wrong_turn_is_refused(self):
        rc, _, err = run(example("daring.py"),
                         [hello(), {"type": "options", "values": {}},
                          variant_game(1, turn_limit=5), move(1, [0, 1, 2, 3, 4, 5, 6, 7], turn=2)])
        self.assertEqual(rc, 1)
        self.assertIn("move: turn is 2, but 0 turns are over", err)

    def test_a_blind_flag_that_does_not_fit_the_game_is_refused(self):
        rc, _, err = run(example("daring.py"),
                         [hello(), {"type": "options", "values": {}},
                          new_game(1), move(1, [0, 1, 2, 3], blind=True)])
        self.assertEqual(rc, 1)
        self.assertIn("move: blind is true on a card 1 request under flips sequential", err)
