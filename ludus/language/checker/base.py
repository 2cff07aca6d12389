"""The checker's shared parts: the result (`Checked`), scopes, reporting, and small helpers."""

from __future__ import annotations

from attrs import define, field

from .. import nodes as n
from ..source import Sources, Span, Suggestion, diagnostic
from ..symbols import (
    Symbols,
)

TRACK_FUNCTIONS = {"zone_of", "depth", "space", "marker"}
ANYTIME_STATEMENTS = (n.Let, n.If, n.For, n.Log, n.Win, n.Lose, n.EndGame)
BASIC_TYPES = {"number", "bool", "text", "seat", "zone", "token", "track", "space", "entity", "any"}



@define
class Checked:
    symbols: Symbols
    res: dict = field(factory=dict)  # id(node) -> resolution tuple
    types: dict = field(factory=dict)  # id(node) -> type string
    diagnostics: list = field(factory=list)
    keep: list = field(factory=list)  # keeps resolved nodes alive so ids stay unique
    track_targets: set = field(factory=set)  # ids of set/increase targets that hold a track
    # where the text binds a name in a block (`let`, `for each`, `choose`, a parameter...), for
    # the language server: (name, span, keyword) -> its type, the name being the first of
    # that spelling after the keyword (None: the first) inside the span, a statement's or a
    # parameter's; and id(node) -> that (name, span, keyword) for each Name that reads it
    binders: dict = field(factory=dict)
    bound: dict = field(factory=dict)
    # what a variant's `remove` lines took out of its base, for the language server's hover on
    # them: name -> (the `remove`, the declaration it took the name out of); set by the pipeline
    removed: dict = field(factory=dict)
    # what each define and value gives (see infer_define_types), kept for the expressions
    # checked later against the game (a test's `expect`, the REPL's `eval`), so that a define
    # without parameters that gives cards shows them by name there too, not by their numbers
    define_types: dict = field(factory=dict)
    value_types: dict = field(factory=dict)

    @property
    def errors(self) -> list:
        return [d for d in self.diagnostics if d.severity == "error"]


class Scope:
    def __init__(self, parent: Scope | None = None, **flags) -> None:
        self.parent = parent
        self.names: dict[str, str] = {}
        self.binders: dict[str, tuple] = {}  # name -> where the text binds it (Checked.binders)
        self.flags = dict(parent.flags) if parent else {}
        self.flags.update(flags)

    def lookup(self, name: str) -> str | None:
        scope = self
        while scope:
            if name in scope.names:
                return scope.names[name]
            scope = scope.parent
        return None

    def binder(self, name: str) -> tuple | None:
        """Where the text binds the name this scope knows (Checked.binders); None for one
        the language binds unwritten (`this`, `seat` of a payoff)."""
        scope = self
        while scope:
            if name in scope.names:
                return scope.binders.get(name)
            scope = scope.parent
        return None

    def all(self) -> list[str]:
        """Every name known here, each once: the innermost block's first, each block's in the
        order they were named (an order of their own, so a "did you mean" hint among them
        never depends on a set's)."""
        out: dict[str, None] = {}
        scope = self
        while scope:
            out.update(dict.fromkeys(scope.names))
            scope = scope.parent
        return list(out)

    def child(self, **flags) -> Scope:
        return Scope(self, **flags)



class CheckerBase:
    """What every part of the checker shares: its tables and its way of reporting."""

    def __init__(self, items: list, symbols: Symbols | None = None, sources: Sources | None = None) -> None:
        self.items = items
        self.sources = sources
        self.type_refs: dict[int, str] = {}
        self.define_types: dict[str, str] = {}
        # (define, the types of its arguments) -> what it gives then: see define_at_call
        self.call_types: dict[tuple, str] = {}
        self.value_types: dict[str, str] = {}
        self.wanted: tuple = (None, "")  # (id of the node being read, what it should be)
        self.sym = symbols if symbols is not None else Symbols()
        self.out = Checked(self.sym)
        self.used: set[tuple[str, str]] = set()
        self.called_rules: set[str] = set()
        self.offered: set[str] = set()
        self.offer_all = False
        # names bound inside a block that has ended (name -> path -> the first lines of such
        # blocks, sorted: an unknown name finds the nearest before it by bisection), per declaration
        self.block_names: dict[str, dict[str, list[int]]] = {}
        # while infer_untyped reads the game: the types each untyped parameter and var is given
        # (("param", rule, index) or ("var", name) -> [types]), and the inferred names read
        self.given: dict | None = None
        self.touched: set = set()
        # while a quiet pass reads one item: what it read whose type inference may change (an
        # untyped var or parameter, a define, a value), so the next pass reads it again only
        # when one of those changed (see quiet_pass)
        self.reading: set | None = None
        # infer_define_types's reading of each define and value, kept for its next call:
        # ("define" or "value", name) -> (what it read, with their types; its type; what its
        # last `expect` wanted, None if none), and whether the one read now called a define
        # for the types of its arguments (see read_kept)
        self.kept_types: dict[tuple, tuple] = {}
        self.typed_call = False
        # ids of the type names that named no type (their error is reported where each is
        # first looked up: type_ref), and whether the item being read looked one up
        self.unknown_types: set[int] = set()
        self.read_unknown_type = False
        # quiet_pass's last reading of each item (index -> Reading), for the passes after it
        self.quiet_memo: dict = {}
        self.alternates: bool | None = None  # whether the game has an `alternate` loop (game_alternates)

    # ── reporting ──

    # a hint may be a Suggestion (source.suggest): the diagnostic carries the name it suggests
    def error(self, message: str, span: Span, hint: str | Suggestion | None = None, code: str | None = None) -> None:
        self.out.diagnostics.append(diagnostic("error", message, span, hint, code))

    def warn(self, message: str, span: Span, hint: str | Suggestion | None = None) -> None:
        self.out.diagnostics.append(diagnostic("warning", message, span, hint))

    def at(self, span: Span, word: str) -> Span:
        """Point at the name `word` inside a declaration's or statement's span, when the text is known."""
        return self.sources.locate(span, word) if self.sources is not None else span

    def bind(self, scope: Scope, name: str, type_: str, span: Span, after: str | None = None) -> None:
        """Names `name` in `scope` as a `type_`, bound in the text inside `span` (a statement's,
        a parameter's) by the first such name after the keyword `after`: kept for the language
        server's hover and definition, located only when it asks."""
        scope.names[name] = type_
        scope.binders[name] = where = (name, span, after)
        self.out.binders[where] = type_

    def note_binder(self, node, scope: Scope) -> None:
        """Keep, for the language server, where the text binds the local a Name `node` reads."""
        where = scope.binder(node.name)
        if where is not None:
            self.out.bound[id(node)] = where

    def resolve(self, node, res: tuple, type_: str) -> str:
        self.out.res[id(node)] = res
        self.out.types[id(node)] = type_
        self.out.keep.append(node)
        return type_



def _merge(a: str, b: str) -> str:
    """The type of a value that is either an `a` or a `b`: the more precise when they agree."""
    if a == b or b == "none":
        return a
    if a == "none":
        return b
    if a.startswith("list:") and b.startswith("list:"):
        return "list:" + _merge(a[5:], b[5:])
    if a == "any" or b == "any":
        return b if a == "any" else a
    if a.split(":")[0] == b.split(":")[0]:
        return a.split(":")[0]
    return "any"


def _agree(a: str, b: str) -> str:
    """The type of a value given as an `a` in one place and as a `b` in another, for a name that
    says no type of its own: the one type both are (a card of kind A and one of kind B are both
    cards), `none` being any type's; "any" as soon as one of them is unknown, or they differ.
    Stricter than _merge, which trusts the precise side: a value inferred to be a seat is shown
    by a seat's name, so every value it may hold must be one."""
    if a == b or b == "none":
        return a
    if a == "none":
        return b
    if "any" in (a, b):
        return "any"
    if a.startswith("list:") and b.startswith("list:"):
        return "list:" + _agree(a[5:], b[5:])
    if not a.startswith("list:") and a.split(":")[0] == b.split(":")[0]:
        return a.split(":")[0]
    return "any"


def _const_false(node) -> bool:
    if isinstance(node, n.Bool):
        return not node.value
    if isinstance(node, n.BinOp) and isinstance(node.left, n.Number) and isinstance(node.right, n.Number):
        a, b = node.left.value, node.right.value
        ops = {"==": a == b, "!=": a != b, "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}
        return node.op in ops and not ops[node.op]
    return False


def _always_ends(stmts: tuple, rules: dict, seen: frozenset = frozenset()) -> bool:
    """Whether a block always ends the game (or never leaves a `while true` loop) before its end;
    a call to a rule that always ends it counts."""
    return any(_ends(s, rules, seen) for s in stmts)


def _ends(last, rules: dict, seen: frozenset) -> bool:
    if isinstance(last, (n.Win, n.Lose, n.EndGame)):
        return True
    if isinstance(last, n.If):
        return last.otherwise is not None and all(_always_ends(body, rules, seen) for _c, body in last.branches) \
            and _always_ends(last.otherwise, rules, seen)
    if isinstance(last, n.While):
        return isinstance(last.cond, n.Bool) and last.cond.value and not _breaks(last.body)
    if isinstance(last, (n.Turn, n.Phase)):
        return _always_ends(last.body, rules, seen)
    if isinstance(last, n.CallStmt) and last.name in rules and last.name not in seen:
        return _always_ends(rules[last.name].body, rules, seen | {last.name})
    return False


def _breaks(stmts: tuple) -> bool:
    """Whether a `break` leaves this loop (not one nested inside it)."""
    for s in stmts:
        if isinstance(s, n.Break):
            return True
        if isinstance(s, n.If) and any(_breaks(b) for _c, b in s.branches) or \
                isinstance(s, n.If) and s.otherwise and _breaks(s.otherwise):
            return True
        if isinstance(s, (n.Turn, n.Phase)) and _breaks(s.body):
            return True
    return False


def _children(s) -> list:
    out = []
    for attr in ("body", "otherwise"):
        v = getattr(s, attr, None)
        if isinstance(v, tuple):
            out.append(v)
    if isinstance(s, n.If):
        out.extend(body for _, body in s.branches)
    return out

