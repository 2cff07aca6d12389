"""Syntax-tree nodes: frozen attrs classes named after their grammar rules, each with a span.

The span is excluded from equality so tests can compare trees built from different texts.
"""

from __future__ import annotations

from attrs import field, fields, frozen, has

from .source import NO_SPAN, Span


def _span():
    return field(default=NO_SPAN, eq=False, repr=False, kw_only=True)


NOT_NODES = ("span", "repeated")


def each_node(tree, skip: tuple = ()):
    """Every node in `tree` (a node, or a tuple or list of them, nested), each one before the
    nodes inside it, these in the order of its fields; spans are not entered (a declaration's
    `repeated` options are spans), nor nodes of the classes in `skip` (which are not given
    either)."""
    stack = [tree]
    while stack:
        x = stack.pop()
        if isinstance(x, (tuple, list)):
            stack.extend(reversed(x))
        elif has(type(x)):
            if skip and isinstance(x, skip):
                continue
            yield x
            stack.extend(getattr(x, f.name) for f in reversed(fields(type(x))) if f.name not in NOT_NODES)


# ───────────────────────── expressions ─────────────────────────


@frozen
class Number:
    value: int
    span: Span = _span()


@frozen
class String:
    value: str
    span: Span = _span()


@frozen
class Bool:
    value: bool
    span: Span = _span()


@frozen
class NoneLit:
    span: Span = _span()


@frozen
class Name:
    name: str
    span: Span = _span()


@frozen
class ListLit:
    items: tuple
    span: Span = _span()


@frozen
class Comprehension:
    """`[elem for var in source where cond]`, or the argument of sum/count/max/min/any/all/most."""

    elem: object
    var: str
    source: object
    cond: object | None
    span: Span = _span()


@frozen
class Call:
    func: str
    args: tuple
    span: Span = _span()
    comp: Comprehension | None = field(default=None, kw_only=True)


@frozen
class Attr:
    obj: object
    name: str
    span: Span = _span()


@frozen
class Access:
    """`vp of s`, `Follower of s at r`, `Unstable at r`, `hand of s`."""

    name: str
    of: object | None
    at: object | None
    span: Span = _span()


@frozen
class BinOp:
    op: str
    left: object
    right: object
    span: Span = _span()


@frozen
class Not:
    operand: object
    span: Span = _span()


@frozen
class Neg:
    operand: object
    span: Span = _span()


@frozen
class CondExpr:
    cond: object
    then: object
    other: object
    span: Span = _span()


@frozen
class Template:
    """A string with `{expr}` holes, used by log lines and action labels."""

    parts: tuple  # str | expression node
    span: Span = _span()


# ───────────────────────── statements ─────────────────────────


@frozen
class Let:
    name: str
    value: object
    span: Span = _span()


@frozen
class SetStmt:
    target: object
    value: object
    span: Span = _span()


@frozen
class Change:
    """increase/decrease/gain/pay: `op` is one of those four words."""

    op: str
    target: object  # expression (increase/decrease) or counter name (gain/pay)
    amount: object
    seat: object | None
    span: Span = _span()


@frozen
class AddTokens:
    amount: object
    token: str
    owner: object | None
    place: object
    span: Span = _span()


@frozen
class RemoveTokens:
    amount: object | None  # None means all
    token: str
    owner: object | None
    place: object
    span: Span = _span()


@frozen
class MoveTokens:
    amount: object
    token: str
    owner: object | None
    source: object
    dest: object
    span: Span = _span()


@frozen
class MoveStmt:
    what: object
    dest: object
    bottom: bool
    span: Span = _span()


@frozen
class Draw:
    amount: object
    source: object | None
    dest: object | None
    span: Span = _span()


@frozen
class Shuffle:
    zone: object
    into: object | None
    span: Span = _span()


@frozen
class ZoneOp:
    """discard / exile / reveal."""

    op: str
    what: object
    to: object = None  # `reveal X to SEATS`: the seats that see it (everyone without)
    span: Span = _span()


@frozen
class Create:
    definition: str
    place: object
    owner: object | None
    bind: str | None
    span: Span = _span()


@frozen
class Roll:
    kind: str  # one | many | sized | pool
    count: object | None
    sides: object | int
    bind: str
    span: Span = _span()


@frozen
class Choose:
    bind: str
    source: object
    by: object | None
    count_kind: str | None  # None | up_to | exactly
    count: object | None
    question: Template | None = None  # what the seat is asked; a default prompt without it
    span: Span = _span()
    # `blind`: the options are the places in the list (1, 2, ...), never the cards at them;
    # `blind_span` is where the word is written (the checker's errors about it point there)
    blind: bool = False
    blind_span: Span = _span()


@frozen
class ChooseRange:
    bind: str
    low: object
    high: object
    by: object | None
    question: Template | None = None
    span: Span = _span()


@frozen
class Ask:
    seat: object
    question: Template
    bind: str
    span: Span = _span()


@frozen
class Distribute:
    amount: object
    targets: object
    by: object | None
    bind: str
    question: Template | None = None
    span: Span = _span()


@frozen
class Offer:
    actions: tuple  # names; empty means every action
    seat: object | None
    stop_label: str | None
    bind: str | None
    question: Template | None = None  # what the seat is asked; "take an action" without it
    span: Span = _span()


@frozen
class Pass:
    span: Span = _span()


@frozen
class Break:
    span: Span = _span()


@frozen
class Win:
    seats: object
    span: Span = _span()


@frozen
class Lose:
    seats: object
    span: Span = _span()


@frozen
class EndGame:
    span: Span = _span()


@frozen
class Log:
    text: Template
    span: Span = _span()


@frozen
class Resolve:
    handler: str
    card: object
    span: Span = _span()


@frozen
class CallStmt:
    name: str
    args: tuple
    span: Span = _span()


@frozen
class If:
    branches: tuple  # ((cond, body), ...)
    otherwise: tuple | None
    span: Span = _span()


@frozen
class For:
    var: str
    source: object
    end: object | None  # `for round in 1 to rounds`
    body: tuple
    span: Span = _span()


@frozen
class Repeat:
    count: object
    body: tuple
    span: Span = _span()


@frozen
class While:
    cond: object
    body: tuple
    span: Span = _span()


@frozen
class Alternate:
    var: str
    seats: object
    body: tuple
    # `until one left`: the loop ends once a single seat has not passed, and `var` names that
    # seat after it; else `until all pass`
    one_left: bool = False
    span: Span = _span()


@frozen
class Turn:
    seat: object
    body: tuple
    span: Span = _span()


@frozen
class Phase:
    name: str
    body: tuple
    span: Span = _span()


# ───────────────────────── declarations ─────────────────────────


@frozen
class GameDecl:
    title: str
    span: Span = _span()


@frozen
class PlayersDecl:
    low: int
    high: int
    span: Span = _span()


@frozen
class SidesDecl:
    names: tuple
    span: Span = _span()


@frozen
class SeatsDecl:
    names: tuple
    span: Span = _span()


@frozen
class IncludeDecl:
    path: str
    extends: bool
    span: Span = _span()


@frozen
class RemoveDecl:
    kind: str
    name: str
    span: Span = _span()


@frozen
class ValueDecl:
    name: str
    value: object
    override: bool
    span: Span = _span()


@frozen
class VarDecl:
    kind: str  # counter | flag | var
    name: str
    per: str | None
    type: object | None
    start: object | None
    low: object | None
    high: object | None
    resets: str | None
    visibility: str
    override: bool
    # `unlisted`: bookkeeping the REPL's screen leaves out (`show NAME` still reads it)
    unlisted: bool = False
    # options written a second time, (key, span) each: an error the checker reports
    repeated: tuple = field(default=(), eq=False, repr=False)
    span: Span = _span()


@frozen
class ZoneDecl:
    name: str
    per: str | None
    visibility: str
    refill: str | None
    override: bool
    repeated: tuple = field(default=(), eq=False, repr=False)
    span: Span = _span()


@frozen
class TokenDecl:
    names: tuple
    per: str | None
    override: bool
    span: Span = _span()


@frozen
class GroupDecl:
    name: str
    members: tuple
    override: bool
    span: Span = _span()


@frozen
class TypeRef:
    name: str
    of: TypeRef | None = None  # `list of T`
    span: Span = _span()


@frozen
class FieldDecl:
    name: str
    type: TypeRef
    default: object | None
    span: Span = _span()


@frozen
class KindDecl:
    name: str
    parent: str | None
    fields: tuple
    override: bool
    span: Span = _span()


@frozen
class Prop:
    name: str
    value: object
    span: Span = _span()


@frozen
class Handler:
    name: str
    body: tuple
    span: Span = _span()


@frozen
class CardRun:
    """`for n in 3 to 35` after a card's or piece's quoted name: one card for each number from
    `low` to `high`, named by `name` (the quoted name with its `{holes}`). Each end is an int,
    or a NumberName until the loader has put the value's number there (language/runs.py)."""

    var: str
    low: object
    high: object
    name: Template
    span: Span = _span()


@frozen
class EntityDecl:
    word: str  # card | piece
    name: str  # a run's (`run` set): its quoted name as written, holes and all: "{n}"
    kind: str
    props: tuple
    handlers: tuple
    override: bool
    span: Span = _span()
    # a run of cards, declared at once; the loader puts the cards it makes in its place
    run: CardRun | None = field(default=None, kw_only=True)
    # a card a run made: (the run's declaration, its number); its span is the run's line
    origin: tuple | None = field(default=None, eq=False, repr=False, kw_only=True)


@frozen
class SpaceDecl:
    kind: str
    name: str
    label: str | None
    parent: str | None
    adjacent: tuple
    props: tuple
    span: Span = _span()


@frozen
class BoardDecl:
    name: str
    spaces: tuple
    override: bool
    span: Span = _span()
    visibility: str = "public"  # "top only": each space is a pile, and only its top card shows
    grid: tuple | None = None  # (columns, rows) of a board declared as a grid, its cells made for it


@frozen
class EndZone:
    name: str
    low: int
    high: int
    span: Span = _span()


@frozen
class NumberName:
    """A track's end or start written as a value's name: the checker puts the value's number
    in its place (Checker.track_numbers)."""
    name: str
    span: Span = _span()


@frozen
class TrackDecl:
    # each number an int, or a NumberName until the checker has put its value's number there;
    # `start` is None when not written (the checker then starts it at 0, or at its low end)
    name: str
    low: int
    high: int
    start: int | None
    zones: tuple
    override: bool
    span: Span = _span()


@frozen
class Param:
    name: str
    type: TypeRef | None
    span: Span = _span()


@frozen
class DefineDecl:
    name: str
    params: tuple | None
    value: object
    override: bool
    span: Span = _span()


@frozen
class RuleDecl:
    name: str
    params: tuple
    body: tuple
    override: bool
    span: Span = _span()


@frozen
class ActionParam:
    name: str
    source: object
    span: Span = _span()


@frozen
class Cost:
    amount: object
    counter: str
    span: Span = _span()


@frozen
class ActionDecl:
    name: str
    params: tuple
    label: Template | None
    costs: tuple
    requires: tuple
    body: tuple
    override: bool
    span: Span = _span()


@frozen
class SetupDecl:
    body: tuple
    override: bool
    span: Span = _span()


@frozen
class PayoffDecl:
    """`payoff EXPR`: each seat's score when a match ends (`seat` names the seat)."""

    value: object
    override: bool
    span: Span = _span()


@frozen
class FlowDecl:
    body: tuple
    override: bool
    span: Span = _span()


@frozen
class WhenDecl:
    watched: str
    zone: str | None  # `enters ZONE`; None for `changes`
    body: tuple
    span: Span = _span()


@frozen
class WhenBecomes:
    """`when COND becomes true:` runs its block each time COND turns from false to true."""

    cond: object
    body: tuple
    var: str | None = None  # `for each VAR in LIST`: one condition per element
    source: object = None
    span: Span = _span()


@frozen
class AnytimeDecl:
    body: tuple
    span: Span = _span()


@frozen
class TestLine:
    kind: str  # players | seed | given | force_die | force_order | do | answer | resolve | resolve_rule | until | expect | snapshot
    value: object
    span: Span = _span()


@frozen
class TestDecl:
    name: str
    lines: tuple
    span: Span = _span()


@frozen
class Program:
    """All the declarations of one file, in order."""

    path: str
    items: tuple
    span: Span = _span()
