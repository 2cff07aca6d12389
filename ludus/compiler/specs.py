"""What a compiled game is made of: the specs of vars, tracks, zones, cards, spaces, code and actions."""

from __future__ import annotations

from attrs import define, field

from ..engine.runtime import NOT_FIXED, Runtime
from ..language.symbols import per_keys

_MISSING = object()


def unset_value(kind: str):
    """What a var declared with no start holds until set: 0 for a counter, no for a flag, else none."""
    return {"counter": 0, "flag": False}.get(kind)


@define
class VarSpec:
    name: str
    kind: str
    per: str | None
    type: str
    start: object  # fn(rt, env) | None
    low: object
    high: object
    resets: str | None
    visibility: str
    # the start, min and max when the declaration writes them as plain numbers, texts or yes/no,
    # or leaves them out (None; the start: the kind's default), as most do: read without
    # building the expression's environment. NOT_FIXED when an expression gives them.
    fixed_start: object = NOT_FIXED
    fixed_low: object = NOT_FIXED
    fixed_high: object = NOT_FIXED
    # the type that shows its value: `type`, or for a var that declares none the type the
    # checker found for it (Symbols.inferred). Only shown so: a var without a type still
    # takes any value when set and when a saved match is loaded (saved.var_problem)
    shown: str = "any"
    # `unlisted`: bookkeeping the REPL's screen and its `changed:` lines leave out
    unlisted: bool = False

    def env(self, key) -> dict:
        """What a declaration's start/min/max expressions see: `seat` is the owner (the first
        key of a var kept `per seat and ...`)."""
        keys = per_keys(self.per)
        if len(keys) == 2 and keys[0] == "seat" and isinstance(key, str):
            key = int(key.split("|", 1)[0])
        return {"seat": key, "$act": key if keys[:1] == ("seat",) else 0, "$cur": 0}

    def initial(self, rt: Runtime, key):
        if self.fixed_start is not NOT_FIXED:  # always so when no start is written (program.py)
            return self.fixed_start
        return self.start(rt, self.env(key))


@define
class TrackSpec:
    name: str
    low: int
    high: int
    start: int
    zones: dict  # name -> (low, high)

    def zone_at(self, pos: int) -> str | None:
        for name, (lo, hi) in self.zones.items():
            if lo <= pos <= hi:
                return name
        return None


@define
class ZoneSpec:
    name: str
    per: str | None  # "seat" or None: a family's member is kept as a zone of its own
    visibility: str
    refill: str | None
    family: str | None = None  # the family a member belongs to (`expedition` of `expedition yellow`)


@define
class DefSpec:
    name: str
    word: str
    kind: str
    copies: int
    props: dict  # name -> fn(rt, env)
    handlers: dict  # name -> code id
    order: int
    span: object = None  # where the card or piece is declared, to show its text


@define
class SpaceSpec:
    name: str
    kind: str
    label: str | None
    parent: str | None
    adjacent: list
    props: dict
    visibility: str = "public"  # its board's: "top only" shows only the top card of what lies on it


@define
class Code:
    """One compiled block: its instructions, and for each instruction the span it came from."""

    id: str
    label: str
    ops: list = field(factory=list)
    spans: list = field(factory=list)
    # where each compound statement starts: its kind and extent (statements.py), for regions.py
    shapes: dict = field(factory=dict)
    # the instructions vm.run follows: `ops` with generated regions at their first instruction
    # (regions.py); None: `ops` as they are
    fast: list | None = None
    # each `win`, `lose` and `end game` instruction's statement as written, on one line: what a
    # match's result says ended it (vm._reason), so the result does not name a line number
    ends: dict = field(factory=dict)


@define
class ActionSpec:
    name: str
    params: list  # [(name, fn, elem type)]
    requires: list
    costs: list  # [(fn, counter)]
    label: object  # fn(rt, env) -> str
    code: str
    span: object
    require_spans: list = field(factory=list)  # where each `require` is written, for "why not?"
    # per depth (parameters bound so far), the requirements to test there: each one as soon as
    # it and every requirement before it can be read, so a failing prefix is never extended
    stages: list = field(factory=list)
    # costs split for listing: a constant amount is checked once, before any parameter is bound
    # (it is the same for every binding); the others on each whole binding, as before
    fixed_costs: list = field(factory=list)  # [(amount, counter)]
    bound_costs: list = field(factory=list)  # [(fn, counter)]
    # generated (pysource.py): fn(rt, env, seat, labels, values) appends the label and value of
    # every binding `instances` would give, in its order; None to list them with `instances`
    enumerate: object = None
    # each `require`'s condition as written, and by its index, its parts compiled for "why not?"
    # when a refused move first asks (decisions.py, _parts): compiled then, not when the game loads
    require_nodes: tuple = ()
    require_parts: dict = field(factory=dict)


