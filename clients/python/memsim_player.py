"""Write a memsim player in Python: the player side of the protocol memsim-player/1.

A player subclasses Player, declares its name, version, view ("events" or "state") and
options, and implements flip(game) (one request, one reply) or flip_batch(games) (every
request that arrived together, one reply each). Player.run() speaks the protocol on
stdin/stdout: handshake, options, games, events, move requests and replies, and exits when
memsim closes stdin. The protocol is specified in docs/protocol.md; the game in
docs/models.md.

    import memsim_player as mp

    class Lowest(mp.Player):
        name = "lowest"
        def flip(self, game):
            return game.flip(game.legal[0])

    if __name__ == "__main__":
        Lowest().run()

The library checks every line memsim sends against the protocol and the game's public record
and stops at the first one it cannot accept, with a one-line message on stderr and exit
status 1. print() in a player goes to stderr: stdout carries protocol lines only.
"""

import json
import math
import operator
import os
import random
import re
import sys
from collections import namedtuple

__all__ = ["Player", "Game", "Option", "Rules", "State", "PlayerError", "ProtocolError",
           "PROTOCOL", "CHOICES", "POSITIONS", "VARIANTS"]

PROTOCOL = "memsim-player/1"
#: The four choices, in the protocol's order.
CHOICES = ("daring", "safe", "known-first", "pass")
PASS_RULES = ("never", "two-known", "always")
VIEWS = ("events", "state")
#: What a state-view player may declare in `positions`: its first-card choice is a function of
#: the rules and the count state without the lead ("count") or with it ("lead").
POSITIONS = ("count", "lead")
OPTION_TYPES = ("bool", "int", "float", "string", "choice")
#: The rule variants a player may declare in `variants` (docs/models.md §1.7): k cards of a
#: face, blind flips (both cards named in one reply, game.flip_both), a turn limit.
VARIANTS = ("copies", "flips", "turn_limit")
FLIP_RULES = ("sequential", "blind")

MAX_LINE = 1 << 20
MAX_ID = (1 << 53) - 1
MAX_DEADLINE_MS = 86_400_000
READ_SIZE = 1 << 20


class ProtocolError(Exception):
    """A line from memsim that the protocol does not allow."""


class PlayerError(Exception):
    """A mistake of the player: a bad declaration or a reply that does not fit the request."""


class Rules(namedtuple("Rules", "pairs singletons seats pass_rule choices cards faces "
                                "copies flips turn_limit", defaults=(2, "sequential", 0))):
    """The rules of a game: `pass_rule` is the protocol's `pass`; `cards` = 2*pairs +
    singletons; `faces` = pair_faces + singletons. The rule variant: `copies` cards of each
    pair face (2 in the standard game), `flips` "sequential" or "blind", `turn_limit` (0 for
    none)."""

    __slots__ = ()

    @property
    def pair_faces(self):
        """The number of pair faces, 2*pairs/copies: faces below it are pair faces."""
        return 2 * self.pairs // self.copies

    def variant_rules(self):
        """The rule variants in which the game differs from the standard one."""
        return tuple(v for v, on in zip(VARIANTS, (self.copies != 2, self.flips != "sequential",
                                                   self.turn_limit != 0)) if on)

#: The count state of a state-view move request, at the start of the turn.
State = namedtuple("State", "n j s f lead after_pass")


def _show(v, limit=60):
    s = json.dumps(v) if not isinstance(v, str) or len(v) < limit else json.dumps(v[:limit])
    return s if len(s) <= limit else s[:limit] + "..."


def _reject_constant(name):
    raise ValueError(f"{name} is not a JSON value")


_decoder = json.JSONDecoder(parse_constant=_reject_constant)
_scan = _decoder.scan_once


def _parse(line):
    """The JSON value of a line, slowly, with the decoder's message on error."""
    try:
        return _decoder.decode(line)
    except ValueError as e:
        raise ProtocolError(f"not a JSON object: {e}") from None


def _is_number(v):
    t = type(v)
    return (t is int) or (t is float and math.isfinite(v))


class Option:
    """An option the player accepts: name, type ("bool", "int", "float", "string", "choice"),
    default, and min/max (int, float) or choices (choice)."""

    __slots__ = ("name", "type", "default", "min", "max", "choices")

    def __init__(self, name, type, default, min=None, max=None, choices=None):
        self.name, self.type, self.default = name, type, default
        self.min, self.max, self.choices = min, max, choices
        self._validate()

    def _validate(self):
        where = f"option {self.name!r}"
        if not isinstance(self.name, str) or not self.name:
            raise PlayerError(f"{where}: the name must be a non-empty string")
        if self.type not in OPTION_TYPES:
            raise PlayerError(f"{where}: type must be one of {', '.join(OPTION_TYPES)}")
        if self.type not in ("int", "float") and (self.min is not None or self.max is not None):
            raise PlayerError(f"{where}: min and max are for int and float options")
        if self.type != "choice" and self.choices is not None:
            raise PlayerError(f"{where}: choices are for choice options")
        for bound in (self.min, self.max):
            if bound is not None and not _is_number(bound):
                raise PlayerError(f"{where}: min and max must be numbers")
        if self.type == "choice":
            c = self.choices
            if (not isinstance(c, (list, tuple)) or not c
                    or not all(isinstance(x, str) for x in c) or len(set(c)) != len(c)):
                raise PlayerError(f"{where}: choices must be a non-empty list of distinct strings")
            self.choices = list(c)
        try:
            self.check(self.default)
        except ProtocolError as e:
            raise PlayerError(f"{where}: default: {e}") from None

    def check(self, v):
        """Return v if it is a valid value of the option, else raise ProtocolError."""
        t = self.type
        if t == "bool":
            ok = type(v) is bool
        elif t == "int":
            ok = type(v) is int
        elif t == "float":
            ok = _is_number(v)
        elif t == "string":
            ok = type(v) is str
        else:
            ok = type(v) is str and v in self.choices
            if not ok:
                raise ProtocolError(f"{_show(v)} is not one of {', '.join(self.choices)}")
        if not ok:
            raise ProtocolError(f"{_show(v)} is not a {t}")
        if (self.min is not None and v < self.min) or (self.max is not None and v > self.max):
            raise ProtocolError(f"{_show(v)} is outside {self.min} .. {self.max}")
        return v

    def to_json(self):
        """The option as the handshake declares it."""
        d = {"name": self.name, "type": self.type, "default": self.default}
        if self.min is not None:
            d["min"] = self.min
        if self.max is not None:
            d["max"] = self.max
        if self.choices is not None:
            d["choices"] = self.choices
        return d


class Game:
    """One game of the player: its rules and public record, and the move request in flight.

    Public record (every view): `faces` {pos: face} of the cards seen that are still on the
    table, in the order they were first seen; `table` the set of positions on the table;
    `known_pairs` the faces whose two cards have both been seen and are on the table;
    `scores` the pairs each seat took; `mover` the seat to move; `after_pass` whether the
    turn that handed the move over was a pass (False after a pair); `first` the turn's
    face-up first card as (pos, face), or None.

    Request (set when memsim asks): `card` (1 or 2), `legal` (list of positions), `can_pass`,
    `deadline_ms`, `blind` (a blind request, under blind flips: name both cards at once with
    flip_both), `turn` (the turn's number from 1 under a turn limit, else 0); state view only:
    `state` (a State), `known` {pos: face} and, for the first card, `choices` (a tuple).
    `turns` counts the turns over.

    With copies of a face, `known_pairs` holds the faces with at least two seen cards on the
    table, and partner(pos) is any other seen card of the face.

    `data` is a dict for the player's own use. Reply with flip(pos), flip_both(a, b),
    pass_turn() or choose(choice).
    """

    def __init__(self, gid, seat, seed, rules):
        self.id = gid
        self.seat = seat
        self.seed = seed
        self.rules = rules
        self._rng = None
        self.faces = {}
        self.table = set(range(rules.cards))
        self.known_pairs = set()
        self.scores = [0] * rules.seats
        self.pairs_left = rules.pairs
        self.turns = 0
        self.turn = 0
        self.blind = False
        self.mover = 0
        self.after_pass = False
        self.first = None
        self.card = 0
        self.legal = None
        self.can_pass = False
        self.deadline_ms = 0
        self.state = None
        self.known = None
        self.choices = None
        self.data = {}
        self._where = {}
        self._shown = {}
        self._copies = rules.copies
        self._npairs = rules.pair_faces
        self._nfaces = rules.faces
        self._choice_set = frozenset(rules.choices)
        self._second = None
        self._passed = False
        self._pending = False
        self._answered = False
        self._replied = False
        # The sorted positions on the table and their text ("0,1,2"), for the fast path.
        self._table_list = None
        self._table_text = None

    @property
    def rng(self):
        """random.Random(seed): the player's own randomness in this game."""
        if self._rng is None:
            self._rng = random.Random(self.seed)
        return self._rng

    def partner(self, pos):
        """The position of the seen partner of the card at pos, or None."""
        face = self.faces.get(pos)
        if face is None:
            return None
        for p in self._where[face]:
            if p != pos:
                return p
        return None

    def positions_of(self, face):
        """The positions on the table where face has been seen (0, 1 or 2 of them; up to
        copies with copies of a face), in the order they were seen."""
        return tuple(self._where.get(face, ()))

    def unseen(self):
        """The legal positions whose card has never been seen, in increasing order."""
        faces = self.faces
        return [p for p in self.legal if p not in faces]

    def _see(self, pos, face):
        """Record the first sight of the card at pos, showing face; False (and nothing
        recorded) if every card of the face was seen before elsewhere."""
        shown = self._shown.get(face, 0)
        if shown >= (self._copies if face < self._npairs else 1):
            return False
        self._shown[face] = shown + 1
        w = self._where.get(face)
        if w is None:
            self._where[face] = [pos]
        else:
            w.append(pos)
            if len(w) >= 2:
                self.known_pairs.add(face)
        self.faces[pos] = face
        return True

    def _take(self, face, a, b):
        """Record that the pair of face at a and b left the table."""
        w = self._where[face]
        w.remove(a)
        w.remove(b)
        if len(w) < 2:
            self.known_pairs.discard(face)

    def _check_reply(self):
        if not self._pending:
            raise PlayerError(f"game {self.id}: a reply without a move request in flight")
        if self._answered:
            raise PlayerError(f"game {self.id}: a second reply to the same move request")
        self._answered = True

    def flip(self, pos):
        """The reply that flips the card at pos (one of legal)."""
        if type(pos) is not int:
            if isinstance(pos, bool):
                raise PlayerError(f"game {self.id}: flip({pos!r}): a position is an integer")
            pos = operator.index(pos)
        if pos not in self.legal:
            raise PlayerError(f"game {self.id}: flip({pos}): not among the legal positions")
        if self.blind:
            raise PlayerError(f"game {self.id}: flip({pos}): a blind request takes both cards: "
                              "flip_both")
        if not self._pending or self._answered:
            self._check_reply()
        self._answered = True
        return f'{{"type":"flip","game":{self.id},"pos":{pos}}}\n'

    def flip_both(self, first, second):
        """The reply to a blind request (blind flips): flip first, then second, two distinct
        legal positions."""
        if not self.blind:
            raise PlayerError(f"game {self.id}: flip_both(): only a blind request takes both cards")
        for pos in (first, second):
            if type(pos) is not int or pos not in self.legal:
                raise PlayerError(f"game {self.id}: flip_both({first!r}, {second!r}): "
                                  f"{pos!r} is not among the legal positions")
        if first == second:
            raise PlayerError(f"game {self.id}: flip_both({first}, {second}): the same card twice")
        self._check_reply()
        return f'{{"type":"flips","game":{self.id},"positions":[{first},{second}]}}\n'

    def pass_turn(self):
        """The reply that passes (only when the request allows it: can_pass)."""
        if not self.can_pass:
            raise PlayerError(f"game {self.id}: pass_turn(): the request does not allow a pass")
        self._check_reply()
        return f'{{"type":"pass","game":{self.id}}}\n'

    def choose(self, choice):
        """The reply that plays choice (state view, first card, one of choices)."""
        if self.choices is None or choice not in self.choices:
            raise PlayerError(f"game {self.id}: choose({choice!r}): not among the request's "
                              f"choices {list(self.choices or ())}")
        self._check_reply()
        return f'{{"type":"choice","game":{self.id},"choice":"{choice}"}}\n'


class Player:
    """Subclass and set name, version, view and options; implement flip or flip_batch.

    After the options message, self.values maps every option name to its value (the default
    unless memsim set it) and configure() is called. Optional hooks: start(game) after a
    new game, on_event(game, event) after each event (the event as a dict), end(game, scores).
    """

    name = "python-player"
    version = "0"
    view = "events"
    options = ()
    #: The rule variants the player plays, among VARIANTS: memsim seats it under a variant
    #: only if it declares every rule in which the game differs from the standard one.
    variants = ()
    #: None, or (state view only) "count" or "lead": the player's first-card choice is a
    #: function of the rules and the count state (with the lead for "lead"), and it answers
    #: memsim's position queries with choose_at (docs/protocol.md, position queries).
    positions = None

    def choose_at(self, rules, state, choices):
        """Return the first-card choice in state (a State) under rules (a Rules), one of
        choices (a tuple in the protocol's order), without a game: the answer to a position
        query. A player that declares positions implements it, and its flip answers the same
        choice in the same state."""
        raise NotImplementedError("a Player that declares positions implements choose_at")

    def flip(self, game):
        """Return the reply to game's move request (game.flip, game.pass_turn, game.choose)."""
        raise NotImplementedError("a Player implements flip(game) or flip_batch(games)")

    def flip_batch(self, games):
        """Return a list of replies, one per game, for requests that arrived together."""
        flip = self.flip
        return [flip(g) for g in games]

    def configure(self):
        """Called once the option values are known (self.values)."""

    def start(self, game):
        """Called when a game starts."""

    def on_event(self, game, event):
        """Called after each flip, pair, pass or handover event of a game."""

    def end(self, game, scores):
        """Called when a game ends, with its final scores."""

    def run(self, infd=0, outfd=1):
        """Play on infd/outfd until memsim closes the input; exit with status 1 on an error."""
        sys.exit(_Session(self, infd, outfd).run())


def _keys_error(kind, m, required, allowed):
    keys = set(m.keys())
    missing = sorted(required - keys)
    if missing:
        return ProtocolError(f"{kind}: missing field {missing[0]!r}")
    extra = sorted(keys - allowed)
    return ProtocolError(f"{kind}: field {extra[0]!r} is not listed for this message")


def _check_keys(kind, m, required, allowed):
    keys = m.keys()
    if not (keys >= required and keys <= allowed):
        raise _keys_error(kind, m, required, allowed)


def _int(kind, field, v, lo, hi):
    if type(v) is not int or v < lo or v > hi:
        raise ProtocolError(f"{kind}: {field} must be an integer in {lo} .. {hi}, got {_show(v)}")
    return v


_HELLO = frozenset(("type", "protocol"))
_OPTIONS = frozenset(("type", "values"))
_NEW_GAME = frozenset(("type", "game", "seat", "seed", "rules"))
_RULES = frozenset(("pairs", "singletons", "seats", "pass", "choices"))
_RULES_ALL = _RULES | {"copies", "flips", "turn_limit"}
_FLIP = frozenset(("type", "game", "seat", "pos", "face"))
_PAIR = frozenset(("type", "game", "seat", "face", "positions"))
_SEATED = frozenset(("type", "game", "seat"))
_END = frozenset(("type", "game", "scores"))
_MOVE = frozenset(("type", "game", "card", "legal", "deadline_ms"))
_MOVE_EVENTS = _MOVE | {"pass", "blind", "turn"}
_MOVE_STATE = _MOVE | {"state"}
_MOVE_STATE_ALL = _MOVE_STATE | {"pass", "known", "choices", "blind", "turn"}
_STATE = frozenset(("n", "j", "s", "f", "lead", "after_pass"))
_POSITION = frozenset(("type", "game", "rules", "state", "choices"))
_CHOICE_RANK = {c: i for i, c in enumerate(CHOICES)}
# Every non-empty list of choices in the protocol's order, as a tuple.
_CHOICE_LISTS = {t: t for t in (tuple(c for i, c in enumerate(CHOICES) if k >> i & 1)
                                for k in range(1, 1 << len(CHOICES)))}
_INT = {int}


def _read_rules(kind, r):
    """The Rules of a rules object, checked."""
    if type(r) is not dict:
        raise ProtocolError(f"{kind} must be an object, got {_show(r)}")
    _check_keys(kind, r, _RULES, _RULES)
    pairs = _int(kind, "pairs", r["pairs"], 1, 1000)
    singles = _int(kind, "singletons", r["singletons"], 0, 1000)
    seats = _int(kind, "seats", r["seats"], 1, 8)
    rule = r["pass"]
    if type(rule) is not str or rule not in PASS_RULES:
        raise ProtocolError(f"{kind}: pass must be one of {', '.join(PASS_RULES)}, got {_show(rule)}")
    ch = r["choices"]
    if (type(ch) is not list or not all(type(c) is str and c in _CHOICE_RANK for c in ch)
            or len(set(ch)) != len(ch) or "daring" not in ch):
        raise ProtocolError(f"{kind}: choices must be a list of distinct choices among "
                            f"{', '.join(CHOICES)} that holds daring, got {_show(ch)}")
    return Rules(pairs, singles, seats, rule, tuple(ch), 2 * pairs + singles, pairs + singles)


def _positions(ps):
    """Whether ps is a non-empty list of integers in strictly increasing order (>= 0).

    A float sums to a float; a bool (false is 0, true is 1) can only come first or second in
    an increasing list of non-negative numbers, so two type checks find them."""
    return (ps and type(sum(ps)) is int and type(ps[0]) is int and ps[0] >= 0
            and (len(ps) == 1 or type(ps[1]) is int)
            and sorted(ps) == ps and len(set(ps)) == len(ps))


# memsim's own lines for the events and move requests of a game in flight, byte for byte as
# memsim writes them (compact, the fields in the order of docs/protocol.md's tables; events view):
# _FAST recognises exactly these lines and no other, and the session reads them from the match's
# groups (a row), without the JSON decoder. Any other line (other spacing, another order of the
# fields, escapes, a number memsim does not write) goes to the decoder, and so does a line that
# does not fit its game: the fast path never decides what the general one would not. A row's
# fields: 0-3 a flip (game, seat, pos, face), 4-8 a pair (game, seat, face, positions), 9-10 a
# handover (game, seat), 11-15 a move (game, card, the text of legal, the text of a pass,
# deadline_ms); the fields of the other messages are None.
_N = r"(0|[1-9][0-9]{0,15})"
_FAST = re.compile(
    r'\{"type":"(?:'
    r'flip","game":' + _N + r',"seat":' + _N + r',"pos":' + _N + r',"face":' + _N +
    r'|pair","game":' + _N + r',"seat":' + _N + r',"face":' + _N + r',"positions":\[' + _N +
    r',' + _N + r'\]'
    r'|handover","game":' + _N + r',"seat":' + _N +
    r'|move","game":' + _N + r',"card":([12]),"legal":\[([0-9,]{1,20000})\](,"pass":true)?'
    r',"deadline_ms":' + _N + r')\}\Z')
# The integers 0 .. 4095 by their decimal text: faster than int() for seats, positions, faces.
_SMALL = {str(i): i for i in range(4096)}
# Distinct lists of legal positions a session keeps, parsed, before it starts afresh.
_LEGAL_CACHE = 4096


def _legal_text(text):
    """The positions of the text of a legal list of a row ("0,3,5"), as a tuple, if they are
    written as JSON writes integers (no leading zero), are below 4096, and increase strictly;
    else None."""
    try:
        ps = tuple(map(_SMALL.__getitem__, text.split(",")))
    except KeyError:  # an empty part, a leading zero, a large number
        return None
    if not all(map(operator.lt, ps, ps[1:])):
        return None
    return ps


def _row(line):
    """The fields of a line of the fast path (see _FAST), or () for any other line."""
    f = _FAST.match(line)
    return () if f is None else f.groups()


def _fast_messages(text):
    """The messages of the lines of text as the fast path reads them, as the JSON decoder
    returns them, with None for each line it leaves to the decoder. The session does not build
    these dicts; the tests compare them with json.loads."""
    out = []
    for r in map(_row, text.split("\n")):
        if not r:
            out.append(None)
        elif r[0]:
            g, seat, pos, face = map(int, r[0:4])
            out.append({"type": "flip", "game": g, "seat": seat, "pos": pos, "face": face})
        elif r[4]:
            g, seat, face, a, b = map(int, r[4:9])
            out.append({"type": "pair", "game": g, "seat": seat, "face": face,
                        "positions": [a, b]})
        elif r[9]:
            g, seat = map(int, r[9:11])
            out.append({"type": "handover", "game": g, "seat": seat})
        elif r[11] and _legal_text(r[13]) is not None:
            m = {"type": "move", "game": int(r[11]), "card": int(r[12]),
                 "legal": list(_legal_text(r[13]))}
            if r[14]:
                m["pass"] = True
            m["deadline_ms"] = int(r[15])
            out.append(m)
        else:
            out.append(None)
    return out


class _Session:
    """One run of the protocol: reads memsim's lines, keeps the games, writes the replies."""

    def __init__(self, player, infd, outfd):
        self.p = player
        self.infd, self.outfd = infd, outfd
        self.lineno = 0
        self.hello = False
        self.configured = False
        self.started = False
        self.games = {}
        self.batch = []
        self.state_view = player.view == "state"
        cls = type(player)
        self.hook_event = cls.on_event is not Player.on_event
        self.hook_start = cls.start is not Player.start
        self.hook_end = cls.end is not Player.end
        self.after_hello = {
            "hello": self.on_hello, "options": self.on_options, "new_game": self.on_new_game,
            "flip": self.on_flip, "pair": self.on_pair, "pass": self.on_pass,
            "handover": self.on_handover, "end": self.on_end, "move": self.on_move,
            "position": self.on_position,
        }
        self.handlers = {t: self.before_hello for t in self.after_hello}
        self.handlers["hello"] = self.on_hello
        # The fast path (see _FAST): the games in flight by the decimal text of their id, and
        # the legal lists read so far by their text.
        self.by_text = {}
        self.legal_cache = {}

    def fail(self, what, msg):
        sys.stderr.write(f"{self.p.name}: {what}: {msg}\n")
        sys.stderr.flush()
        return 1

    def declaration(self):
        p = self.p
        if not isinstance(p.name, str) or not p.name or any(
                ord(c) < 32 or 127 <= ord(c) < 160 for c in p.name):
            raise PlayerError("name must be a non-empty string without control characters")
        if not isinstance(p.version, str):
            raise PlayerError("version must be a string")
        if p.view not in VIEWS:
            raise PlayerError(f"view must be one of {', '.join(VIEWS)}, not {p.view!r}")
        opts = list(p.options)
        for o in opts:
            if not isinstance(o, Option):
                raise PlayerError(f"options must be Option values, not {o!r}")
        names = [o.name for o in opts]
        if len(set(names)) != len(names):
            raise PlayerError("option names must be distinct")
        self.opts = {o.name: o for o in opts}
        p.values = {o.name: o.default for o in opts}
        line = {"type": "player", "name": p.name, "version": p.version, "view": p.view}
        if opts:
            line["options"] = [o.to_json() for o in opts]
        if p.positions is not None:
            if p.view != "state":
                raise PlayerError("positions: only a state-view player answers position queries")
            if p.positions not in POSITIONS:
                raise PlayerError(f"positions must be None or one of {', '.join(POSITIONS)}, "
                                  f"not {p.positions!r}")
            line["positions"] = p.positions
        vs = list(p.variants)
        if any(v not in VARIANTS for v in vs) or len(set(vs)) != len(vs):
            raise PlayerError(f"variants must be distinct rule variants among "
                              f"{', '.join(VARIANTS)}, not {vs!r}")
        if vs:
            line["variants"] = vs
        return (json.dumps(line, separators=(",", ":")) + "\n").encode()

    def run(self):
        try:
            self.handshake = self.declaration()
        except PlayerError as e:
            return self.fail("declaration", e)
        sys.stdout = sys.stderr  # print() must not reach the protocol channel
        try:
            self.loop()
        except ProtocolError as e:
            return self.fail(f"protocol error: line {self.lineno}", e)
        except PlayerError as e:
            return self.fail("player error", e)
        except BrokenPipeError:
            return self.fail("output", "memsim closed the player's stdout")
        return 0

    def loop(self):
        read, infd = os.read, self.infd
        rest = b""
        while True:
            chunk = read(infd, READ_SIZE)
            if not chunk:
                break
            data = rest + chunk if rest else chunk
            cut = data.rfind(b"\n")
            if cut < 0:
                rest = data
                if len(rest) > MAX_LINE:
                    self.lineno += 1
                    raise ProtocolError(f"a line longer than {MAX_LINE} bytes")
                continue
            rest = data[cut + 1:]
            block = data[:cut]
            # A line that ends in the chunk and starts after its first newline is shorter than
            # the chunk (READ_SIZE <= MAX_LINE): only the first line can be too long.
            if cut > MAX_LINE and data.find(b"\n") > MAX_LINE:
                self.lineno += 1
                raise ProtocolError(f"a line longer than {MAX_LINE} bytes")
            try:
                text = block.decode()
            except UnicodeDecodeError as e:
                self.lineno += block.count(b"\n", 0, e.start) + 1
                raise ProtocolError("a line that is not valid UTF-8") from None
            self.feed(text.split("\n"))
            if self.batch:
                self.decide()
            if len(rest) > MAX_LINE:
                self.lineno += 1
                raise ProtocolError(f"a line longer than {MAX_LINE} bytes")
        if rest:
            self.lineno += 1
            raise ProtocolError("the last line has no end of line")

    def feed(self, lines):
        handlers = self.handlers
        scan = _scan
        match = _FAST.match
        fast_flip, fast_pair = self.fast_flip, self.fast_pair
        fast_handover, fast_move = self.fast_handover, self.fast_move
        n = self.lineno
        try:
            for line in lines:
                n += 1
                f = match(line)
                if f is not None:
                    r = f.groups()
                    if r[0]:
                        if fast_flip(r):
                            continue
                    elif r[4]:
                        if fast_pair(r):
                            continue
                    elif r[9]:
                        if fast_handover(r):
                            continue
                    elif fast_move(r):
                        continue
                try:
                    m, end = scan(line, 0)
                    if end != len(line) and line[end:].strip(" \t\r"):
                        m = _parse(line)
                except (StopIteration, ValueError):
                    m = _parse(line)
                t = m.get("type") if type(m) is dict else None
                h = handlers.get(t) if type(t) is str else None
                if h is None:
                    if type(m) is not dict:
                        raise ProtocolError("not a JSON object")
                    if "type" not in m:
                        raise ProtocolError("missing field 'type'")
                    raise ProtocolError(f"unknown type {_show(t)}")
                h(m)
        finally:
            self.lineno = n

    def decide(self):
        batch, self.batch = self.batch, []
        replies = self.p.flip_batch(batch)
        if not isinstance(replies, list) or len(replies) != len(batch):
            raise PlayerError(f"flip_batch returned {type(replies).__name__} "
                              f"for {len(batch)} requests: it must return a list, one reply each")
        for g in batch:
            if not g._answered:
                raise PlayerError(f"game {g.id}: no reply made with game.flip, game.pass_turn "
                                  "or game.choose")
            g._pending = g._answered = False
            g._replied = True
        try:
            data = "".join(replies).encode()
        except TypeError:
            raise PlayerError("a reply must be the string returned by game.flip, "
                              "game.pass_turn or game.choose") from None
        write, fd = os.write, self.outfd
        while data:
            data = data[write(fd, data):]

    def write_all(self, data):
        while data:
            data = data[os.write(self.outfd, data):]

    # --- messages ------------------------------------------------------------------------

    def on_hello(self, m):
        if self.hello:
            raise ProtocolError("a second hello")
        _check_keys("hello", m, _HELLO, _HELLO)
        if m["protocol"] != PROTOCOL:
            raise ProtocolError(f"hello: protocol {_show(m['protocol'])} is not {PROTOCOL}")
        self.hello = True
        self.handlers.update(self.after_hello)
        self.write_all(self.handshake)

    def before_hello(self, m):
        raise ProtocolError(f"{m['type']} before hello")

    def on_options(self, m):
        if self.configured:
            raise ProtocolError("a second options message")
        if self.started:
            raise ProtocolError("options after the first game")
        _check_keys("options", m, _OPTIONS, _OPTIONS)
        vals = m["values"]
        if type(vals) is not dict:
            raise ProtocolError(f"options: values must be an object, got {_show(vals)}")
        for k, v in vals.items():
            o = self.opts.get(k)
            if o is None:
                raise ProtocolError(f"options: {_show(k)} is not a declared option")
            try:
                self.p.values[k] = o.check(v)
            except ProtocolError as e:
                raise ProtocolError(f"options: {k}: {e}") from None
        self.configured = True
        self.p.configure()

    def on_new_game(self, m):
        if not self.configured:
            self.configured = True  # no options message: the defaults apply
            self.p.configure()
        self.started = True
        _check_keys("new_game", m, _NEW_GAME, _NEW_GAME)
        gid = _int("new_game", "game", m["game"], 0, MAX_ID)
        if gid in self.games:
            raise ProtocolError(f"new_game: game {gid} is already running")
        r = m["rules"]
        if type(r) is not dict:
            raise ProtocolError(f"new_game: rules must be an object, got {_show(r)}")
        _check_keys("new_game: rules", r, _RULES, _RULES_ALL)
        pairs = _int("new_game: rules", "pairs", r["pairs"], 1, 1000)
        singles = _int("new_game: rules", "singletons", r["singletons"], 0, 1000)
        seats = _int("new_game: rules", "seats", r["seats"], 1, 8)
        rule = r["pass"]
        if rule not in PASS_RULES or type(rule) is not str:
            raise ProtocolError(f"new_game: rules: pass must be one of {', '.join(PASS_RULES)}, "
                                f"got {_show(rule)}")
        ch = r["choices"]
        if (type(ch) is not list or not all(type(c) is str and c in _CHOICE_RANK for c in ch)
                or len(set(ch)) != len(ch) or "daring" not in ch):
            raise ProtocolError("new_game: rules: choices must be a list of distinct choices "
                                f"among {', '.join(CHOICES)} that holds daring, got {_show(ch)}")
        seat = _int("new_game", "seat", m["seat"], 0, seats - 1)
        seed = _int("new_game", "seed", m["seed"], 0, MAX_ID)
        copies = _int("new_game: rules", "copies", r.get("copies", 2), 2, 64)
        if copies % 2 or (2 * pairs) % copies:
            raise ProtocolError(f"new_game: rules: copies {copies} must be even and make whole "
                                f"faces of the {2 * pairs} cards")
        flips = r.get("flips", "sequential")
        if flips not in FLIP_RULES or type(flips) is not str:
            raise ProtocolError(f"new_game: rules: flips must be one of {', '.join(FLIP_RULES)}, "
                                f"got {_show(flips)}")
        limit = _int("new_game: rules", "turn_limit", r.get("turn_limit", 0), 0, MAX_ID)
        rules = Rules(pairs, singles, seats, rule, tuple(ch), 2 * pairs + singles,
                      2 * pairs // copies + singles, copies, flips, limit)
        for v in rules.variant_rules():
            if v not in self.p.variants:
                raise ProtocolError(f"new_game: game {gid} is of the rule variant {v}, which the "
                                    "player does not declare (Player.variants)")
        g = self.games[gid] = self.by_text[str(gid)] = Game(gid, seat, seed, rules)
        if self.hook_start:
            self.p.start(g)

    def game(self, kind, m):
        gid = m["game"]
        g = self.games.get(gid) if type(gid) is int else None
        if g is None:
            _int(kind, "game", gid, 0, MAX_ID)
            raise ProtocolError(f"{kind}: game {gid} is not running")
        if g._pending:  # memsim went on with this game: decide the batch first
            self.decide()
        g._replied = False
        return g

    def on_flip(self, m):
        try:
            if len(m) != 5:
                raise KeyError
            gid, seat, pos, face = m["game"], m["seat"], m["pos"], m["face"]
        except KeyError:
            raise _keys_error("flip", m, _FLIP, _FLIP) from None
        g = self.games.get(gid) if type(gid) is int else None
        if g is None or g._pending:
            g = self.game("flip", m)
        g._replied = False
        if seat != g.mover or type(seat) is not int:
            raise ProtocolError(f"flip: seat {_show(seat)} is not the seat to move ({g.mover})")
        if type(pos) is not int or pos not in g.table:
            raise ProtocolError(f"flip: pos {_show(pos)} is not a card on the table")
        if type(face) is not int or not 0 <= face < g._nfaces:
            raise ProtocolError(f"flip: face {_show(face)} is outside 0 .. {g._nfaces - 1}")
        old = g.faces.get(pos)
        if old is None:
            if not g._see(pos, face):
                raise ProtocolError(f"flip: pos {pos} cannot show face {face}: its cards were "
                                    "seen elsewhere or taken")
        elif old != face:
            raise ProtocolError(f"flip: pos {pos} showed face {old} before, not {face}")
        if g.first is None:
            g.first = (pos, face)
        elif g._second is None and pos != g.first[0]:
            g._second = pos
        else:
            raise ProtocolError(f"flip: pos {pos} is a third card or the first card again")
        if self.hook_event:
            self.p.on_event(g, m)

    def on_pair(self, m):
        if m.keys() != _PAIR:
            raise _keys_error("pair", m, _PAIR, _PAIR)
        gid = m["game"]
        g = self.games.get(gid) if type(gid) is int else None
        if g is None or g._pending:
            g = self.game("pair", m)
        g._replied = False
        seat, face, ps = m["seat"], m["face"], m["positions"]
        if seat != g.mover or type(seat) is not int:
            raise ProtocolError(f"pair: seat {_show(seat)} is not the seat to move ({g.mover})")
        if (type(ps) is not list or len(ps) != 2 or set(map(type, ps)) != _INT
                or g._second is None
                or {g.first[0], g._second} != set(ps) or type(face) is not int
                or face != g.first[1] or face != g.faces[g._second]):
            raise ProtocolError(f"pair: face {_show(face)} at {_show(ps)} is not the pair of the "
                                "turn's two flips")
        for p in ps:
            g.table.discard(p)
            del g.faces[p]
        g._table_text = None
        g._take(face, ps[0], ps[1])
        g.scores[seat] += 1
        g.pairs_left -= 1
        g.turns += 1
        g.first = g._second = None
        g.after_pass = g._passed = False
        if self.hook_event:
            self.p.on_event(g, m)

    def on_pass(self, m):
        if m.keys() != _SEATED:
            raise _keys_error("pass", m, _SEATED, _SEATED)
        gid = m["game"]
        g = self.games.get(gid) if type(gid) is int else None
        if g is None or g._pending:
            g = self.game("pass", m)
        g._replied = False
        seat = m["seat"]
        if seat != g.mover or type(seat) is not int:
            raise ProtocolError(f"pass: seat {_show(seat)} is not the seat to move ({g.mover})")
        if g._passed or (g.first is not None and g._second is None):
            raise ProtocolError("pass: not at the end of a turn")
        g._passed = True
        if self.hook_event:
            self.p.on_event(g, m)

    def on_handover(self, m):
        if m.keys() != _SEATED:
            raise _keys_error("handover", m, _SEATED, _SEATED)
        gid = m["game"]
        g = self.games.get(gid) if type(gid) is int else None
        if g is None or g._pending:
            g = self.game("handover", m)
        g._replied = False
        seat = m["seat"]
        nxt = (g.mover + 1) % g.rules.seats
        if seat != nxt or type(seat) is not int:
            raise ProtocolError(f"handover: seat {_show(seat)} is not the next seat ({nxt})")
        if not g._passed and g._second is None:
            raise ProtocolError("handover: the turn has not ended")
        g.after_pass, g._passed = g._passed, False
        g.first = g._second = None
        g.mover = seat
        g.turns += 1
        if self.hook_event:
            self.p.on_event(g, m)

    def on_end(self, m):
        _check_keys("end", m, _END, _END)
        gid = m["game"]
        g = self.games.get(gid) if type(gid) is int else None
        if g is None:
            _int("end", "game", gid, 0, MAX_ID)
            raise ProtocolError(f"end: game {gid} is not running")
        sc = m["scores"]
        # Under a turn limit the pairs left at the limit count for nobody.
        total = g.rules.pairs if g.rules.turn_limit == 0 or g.turns < g.rules.turn_limit \
            else sum(g.scores)
        if (type(sc) is not list or len(sc) != g.rules.seats
                or not all(_is_number(x) and x >= 0 for x in sc)
                or abs(sum(sc) - total) > 1e-6 * g.rules.pairs):
            raise ProtocolError(f"end: scores must be {g.rules.seats} numbers >= 0 adding up to "
                                f"{total} pairs, got {_show(sc)}")
        if g._pending:
            self.batch.remove(g)
            g._pending = False
            sys.stderr.write(f"{self.p.name}: game {gid} ended with its move request "
                             "unanswered\n")
        del self.games[gid]
        del self.by_text[str(gid)]
        if self.hook_end:
            self.p.end(g, sc)

    def on_move(self, m):
        keys = m.keys()
        sv = self.state_view
        if keys != (_MOVE_STATE if sv else _MOVE):
            allowed = _MOVE_STATE_ALL if sv else _MOVE_EVENTS
            if not (keys >= (_MOVE_STATE if sv else _MOVE) and keys <= allowed):
                raise _keys_error("move", m, _MOVE_STATE if sv else _MOVE, allowed)
        gid = m["game"]
        g = self.games.get(gid) if type(gid) is int else None
        if g is None:
            _int("move", "game", gid, 0, MAX_ID)
            raise ProtocolError(f"move: game {gid} is not running")
        if g._pending or g._replied:
            raise ProtocolError(f"move: game {gid} has a request in flight already")
        if g.mover != g.seat:
            raise ProtocolError(f"move: game {gid}: seat {g.mover} is to move, not the player's "
                                f"seat {g.seat}")
        card = m["card"]
        if card == 1 and type(card) is int:
            if g.first is not None:
                raise ProtocolError("move: card 1 while the turn's first card is face up")
        elif card == 2 and type(card) is int:
            if g.first is None or g._second is not None:
                raise ProtocolError("move: card 2 without a face-up first card")
        else:
            raise ProtocolError(f"move: card must be 1 or 2, got {_show(card)}")
        legal = m["legal"]
        if (type(legal) is not list or not _positions(legal) or not g.table.issuperset(legal)
                or (card == 2 and g.first[0] in legal)):
            raise ProtocolError(f"move: legal must be face-down positions on the table in "
                                f"increasing order, got {_show(legal)}")
        dl = m["deadline_ms"]
        if type(dl) is not int or not 1 <= dl <= MAX_DEADLINE_MS:
            raise ProtocolError(f"move: deadline_ms must be an integer in 1 .. {MAX_DEADLINE_MS}, "
                                f"got {_show(dl)}")
        can_pass = m.get("pass", False)
        if can_pass is not False:
            if can_pass is not True:
                raise ProtocolError(f"move: pass must be true or false, got {_show(can_pass)}")
            if card == 2 or g.rules.pass_rule == "never":
                raise ProtocolError("move: pass allowed on a second card or under pass rule never")
        blind = m.get("blind", False)
        if blind is not (card == 1 and g.rules.flips == "blind"):
            raise ProtocolError(f"move: blind is {_show(blind)} on a card {card} request under "
                                f"flips {g.rules.flips}")
        turn = m.get("turn", 0)
        want = g.turns + 1 if g.rules.turn_limit else 0
        if turn != want or type(turn) is not int:
            raise ProtocolError(f"move: turn is {_show(turn)}, but {g.turns} turns are over "
                                f"(turn limit {g.rules.turn_limit})")
        g.blind, g.turn = blind, turn
        g.card, g.legal, g.can_pass, g.deadline_ms = card, legal, can_pass, dl
        if sv:
            g.state = self.read_state(g, m["state"])
            g.known = self.read_known(g, m.get("known"))
            ch = m.get("choices")
            if card == 1:
                if ch is None:
                    raise ProtocolError("move: missing field 'choices' (state view, card 1)")
                try:
                    chs = _CHOICE_LISTS.get(tuple(ch)) if type(ch) is list else None
                except TypeError:
                    chs = None
                if chs is None or not g._choice_set.issuperset(chs):
                    raise ProtocolError(f"move: choices must be choices of the game's set in the "
                                        f"order {', '.join(CHOICES)}, got {_show(ch)}")
                g.choices = chs
            elif ch is not None:
                raise ProtocolError("move: choices on a second-card request")
            else:
                g.choices = None
        g._pending = True
        self.batch.append(g)

    # --- the fast path: memsim's own lines (_FAST) ---------------------------------------
    #
    # Each reader takes the row of a line and returns True once it has applied the message as
    # the general handler above would; it returns False, having changed nothing, for a message
    # the general handler must see (an error, or a game with a request in flight: the decoder
    # then reads the line again and that handler reports or handles it).

    def fast_flip(self, r, small=_SMALL):
        g = self.by_text.get(r[0])
        if g is None:
            return False
        if g._pending:  # memsim went on with this game: decide the batch first
            self.decide()
        try:
            seat, pos, face = small[r[1]], small[r[2]], small[r[3]]
        except KeyError:
            return False
        if seat != g.mover or pos not in g.table or face >= g._nfaces:
            return False
        first = g.first
        if first is not None and (g._second is not None or pos == first[0]):
            return False
        faces = g.faces
        old = faces.get(pos)
        if old is None:
            if not g._see(pos, face):
                return False
        elif old != face:
            return False
        if first is None:
            g.first = (pos, face)
        else:
            g._second = pos
        g._replied = False
        if self.hook_event:
            self.p.on_event(g, {"type": "flip", "game": g.id, "seat": seat, "pos": pos,
                                "face": face})
        return True

    def fast_pair(self, r, small=_SMALL):
        g = self.by_text.get(r[4])
        if g is None:
            return False
        if g._pending:  # memsim went on with this game: decide the batch first
            self.decide()
        try:
            seat, face, a, b = small[r[5]], small[r[6]], small[r[7]], small[r[8]]
        except KeyError:
            return False
        second = g._second
        if seat != g.mover or second is None:
            return False
        first = g.first[0]
        if (not ((a == first and b == second) or (a == second and b == first))
                or face != g.first[1] or face != g.faces[second]):
            return False
        table, faces = g.table, g.faces
        table.discard(a)
        table.discard(b)
        if g._table_text is not None:
            g._table_list.remove(a)
            g._table_list.remove(b)
            g._table_text = f",{g._table_text},".replace(f",{a},", ",", 1).replace(
                f",{b},", ",", 1)[1:-1]
        del faces[a]
        del faces[b]
        g._take(face, a, b)
        g.scores[seat] += 1
        g.pairs_left -= 1
        g.turns += 1
        g.first = g._second = None
        g.after_pass = g._passed = False
        g._replied = False
        if self.hook_event:
            self.p.on_event(g, {"type": "pair", "game": g.id, "seat": seat, "face": face,
                                "positions": [a, b]})
        return True

    def fast_handover(self, r, small=_SMALL):
        g = self.by_text.get(r[9])
        if g is None:
            return False
        if g._pending:  # memsim went on with this game: decide the batch first
            self.decide()
        seat = small.get(r[10])
        if seat != (g.mover + 1) % g.rules.seats or (not g._passed and g._second is None):
            return False
        g.after_pass, g._passed = g._passed, False
        g.first = g._second = None
        g.mover = seat
        g.turns += 1
        g._replied = False
        if self.hook_event:
            self.p.on_event(g, {"type": "handover", "game": g.id, "seat": seat})
        return True

    def fast_move(self, r, small=_SMALL):
        if self.state_view:
            return False
        card, text, can_pass, dl = r[12], r[13], r[14], r[15]
        g = self.by_text.get(r[11])
        if g is None or g._pending or g._replied or g.mover != g.seat:
            return False
        first = g.first
        if card == "1":
            card = 1
            if first is not None:
                return False
        else:
            card = 2
            if first is None or g._second is not None:
                return False
        # Mostly the legal positions are those on the table (but the face-up first card): the
        # game keeps their text, to compare.
        ttext = g._table_text
        if ttext is None:
            g._table_list = sorted(g.table)
            ttext = g._table_text = ",".join(map(str, g._table_list))
        if card == 1:
            legal = g._table_list.copy() if text == ttext else None
        elif text == (f",{ttext},".replace(f",{first[0]},", ",", 1))[1:-1]:
            legal = g._table_list.copy()
            legal.remove(first[0])
        else:
            legal = None
        if legal is None:
            legal = self.legal_cache.get(text)
            if legal is None:
                legal = _legal_text(text)
                if legal is None:
                    return False
                if len(self.legal_cache) >= _LEGAL_CACHE:
                    self.legal_cache.clear()
                self.legal_cache[text] = legal
            if not g.table.issuperset(legal) or (card == 2 and first[0] in legal):
                return False
            legal = list(legal)
        dl = small.get(dl) or int(dl)
        if not 1 <= dl <= MAX_DEADLINE_MS:
            return False
        if can_pass:
            if card == 2 or g.rules.pass_rule == "never":
                return False
            can_pass = True
        else:
            can_pass = False
        g.card, g.legal, g.can_pass, g.deadline_ms = card, legal, can_pass, dl
        g._pending = True
        self.batch.append(g)
        return True

    def read_state(self, g, st):
        if type(st) is not dict:
            raise ProtocolError(f"move: state must be an object, got {_show(st)}")
        if st.keys() != _STATE:
            raise _keys_error("move: state", st, _STATE, _STATE)
        n, j, s, f, lead, ap = st["n"], st["j"], st["s"], st["f"], st["lead"], st["after_pass"]
        r = g.rules
        if type(n) is not int or n != g.pairs_left:
            raise ProtocolError(f"move: state: n is {_show(n)}, but {g.pairs_left} pairs are on "
                                "the table")
        if type(s) is not int or s != r.singletons:
            raise ProtocolError(f"move: state: s is {_show(s)}, but the game has "
                                f"{r.singletons} singletons")
        _int("move: state", "j", j, 0, n)
        _int("move: state", "f", f, 0, s)
        if r.seats == 2:
            want = g.scores[g.seat] - g.scores[1 - g.seat]
        else:
            want = 0
        if type(lead) is not int or lead != want:
            raise ProtocolError(f"move: state: lead is {_show(lead)}, but the scores say {want}")
        if type(ap) is not bool:
            raise ProtocolError(f"move: state: after_pass must be true or false, got {_show(ap)}")
        return State(n, j, s, f, lead, ap)

    def on_position(self, m):
        """A position query: the player's choice in a count state, out of play."""
        if self.p.positions is None:
            raise ProtocolError("position: the player declares no positions")
        _check_keys("position", m, _POSITION, _POSITION)
        qid = _int("position", "game", m["game"], 0, MAX_ID)
        if qid in self.games:
            raise ProtocolError(f"position: id {qid} is a running game's")
        if not self.configured:
            self.configured = True  # no options message: the defaults apply
            self.p.configure()
        r = _read_rules("position: rules", m["rules"])
        st = m["state"]
        if type(st) is not dict:
            raise ProtocolError(f"position: state must be an object, got {_show(st)}")
        if st.keys() != _STATE:
            raise _keys_error("position: state", st, _STATE, _STATE)
        n = _int("position: state", "n", st["n"], 1, r.pairs)
        j = _int("position: state", "j", st["j"], 0, n)
        s = _int("position: state", "s", st["s"], r.singletons, r.singletons)
        f = _int("position: state", "f", st["f"], 0, s)
        reach = r.pairs - n if r.seats == 2 and self.p.positions == "lead" else 0
        lead = _int("position: state", "lead", st["lead"], -reach, reach)
        ap = st["after_pass"]
        if type(ap) is not bool:
            raise ProtocolError(f"position: state: after_pass must be true or false, "
                                f"got {_show(ap)}")
        ch = m["choices"]
        try:
            chs = _CHOICE_LISTS.get(tuple(ch)) if type(ch) is list else None
        except TypeError:
            chs = None
        if chs is None or "daring" not in chs or not set(r.choices).issuperset(chs):
            raise ProtocolError(f"position: choices must be choices of the rules' set in the "
                                f"order {', '.join(CHOICES)}, with daring, got {_show(ch)}")
        c = self.p.choose_at(r, State(n, j, s, f, lead, ap), chs)
        if c not in chs:
            raise PlayerError(f"position {qid}: choose_at returned {c!r}, not one of {list(chs)}")
        self.write_all(f'{{"type":"choice","game":{qid},"choice":"{c}"}}\n'.encode())

    def read_known(self, g, kn):
        if kn is None:
            return {}
        try:
            if type(kn) is not list or set(map(len, kn)) != {2}:
                raise TypeError
            ps = [c["pos"] for c in kn]
            fs = [c["face"] for c in kn]
        except (TypeError, KeyError):
            raise ProtocolError("move: known must be a non-empty list of {\"pos\", \"face\"}, "
                                f"got {_show(kn)}") from None
        if (not _positions(ps) or set(map(type, fs)) != _INT
                or list(map(g.faces.get, ps)) != fs or len(set(fs)) != len(fs)
                or (g.first is not None and g.first[0] in ps)):
            raise ProtocolError(f"move: known: {_show(kn)} are not seen cards on the table in "
                                "increasing order (or hold a whole pair, or the face-up first "
                                "card)")
        return dict(zip(ps, fs))
