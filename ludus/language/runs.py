"""Runs of numbered cards: `card "{n}" for n in 3 to 35: number n` made into 33 ordinary cards.

A run is one declaration until the game's declarations are merged: a variant overrides or
removes it whole, by its quoted name as written (`remove card "{n}"`), and changes its numbers
through the values its ends name (`override value highest = 20`). Once merged, the values are
known, and each run is replaced, where it stands, by one ordinary card for each number from its
first to its last, ascending (the order the box holds them in, which shuffles and digests read).
So the checker, the compiler and the engine see ordinary cards, each with the run's line as its
place; a card made by a run keeps `origin` (the run, its number) for the checker, which counts
the values the ends name as used, and for the language server.

What may be worked out this early is what a track's ends may be (checker.track_numbers): a
number, or a `value` set to a number written in the rules (`+`, `-`, `*` of numbers and other
such values), never one that reads the number of players or the state, which are known only
once a match starts. The holes of the name take the same, and the run's number (`{n}`,
`{n * 1000}`). The properties are any expression, read when needed as every card's are, with
each use of the run's name put as its number (`cost n * 1000` is `cost 3 * 1000` on card 3);
`copies` is worked out here, as it must be a number written in the rules.
"""

from __future__ import annotations

import attrs

from . import nodes as n
from .checker.declarations import fixed_number
from .limits import MAX_RUN, number_in_range
from .source import Diagnostic, declared_at, diagnostic, suggest

# what the holes of a run's name, its ends and its `copies` may be, in an error's hint
_KNOWN = "numbers, the run's own name, values set to a number, and +, - and * of them"


def expand_runs(items: list, loader) -> list:
    """`items` with each run of cards replaced by its cards; a run with an error is dropped,
    its error in `loader.diagnostics`."""
    if not any(isinstance(i, n.EntityDecl) and i.run is not None for i in items):
        return items
    values = {i.name: i for i in items if isinstance(i, n.ValueDecl)}
    out: list = []
    for item in items:
        if isinstance(item, n.EntityDecl) and item.run is not None:
            out += _cards(item, values, loader)
        else:
            out.append(item)
    # a run is one declaration, and a variant changes it whole: one of its cards is no
    # declaration of its own to override or remove (language.md, "Runs of cards")
    made = {i.name: i.origin[0] for i in out if isinstance(i, n.EntityDecl) and i.origin is not None}
    for at, name in loader.missed_cards:
        run = made.get(name)
        if run is not None:
            loader.diagnostics[at] = attrs.evolve(
                loader.diagnostics[at],
                hint=f"'{name}' is one of the {run.word}s of the run \"{run.name}\" {declared_at(run.span, loader.diagnostics[at].span)}: "
                f"override or remove the whole run, by that quoted name, or change the values that end it",
            )
    return out


def _cards(decl: n.EntityDecl, values: dict, loader) -> list:
    run, errors = decl.run, loader.diagnostics
    before = len(errors)
    low, high = run_end(run.low, decl, values, errors), run_end(run.high, decl, values, errors)
    if len(errors) > before:
        return []
    where = loader.sources.locate(run.span, "for")
    if low > high:
        errors.append(
            Diagnostic(
                "error",
                f"the run goes from {low} to {high}: its first number must not be above its last",
                run.span,
                "write the lower number first, as in `for n in 3 to 35`",
            )
        )
        return []
    if high - low + 1 > MAX_RUN:
        errors.append(
            Diagnostic(
                "error",
                f"a run makes at most {MAX_RUN:,} cards, and this one would make "
                f"{high - low + 1:,} ({low:,} to {high:,})",
                where,
            )
        )
        return []
    cards, made = [], {}  # name -> the number that made it
    for k in range(low, high + 1):
        bound = {**values, run.var: n.ValueDecl(run.var, n.Number(k), False)}
        name = _name(run, bound, errors)
        if name is None:
            return []
        if name in made:
            errors.append(
                Diagnostic(
                    "error",
                    f"this run names two {decl.word}s '{name}': for {run.var} = {made[name]} and for {run.var} = {k}",
                    run.name.span,
                    f"put {{{run.var}}} in the quoted name, so that each {decl.word} of the run has its own",
                )
            )
            return []
        made[name] = k
        props = []
        for p in decl.props:
            value = _fold(_put(p.value, run.var, k))
            if p.name == "copies" and value.__class__ is not n.Number:
                fixed = fixed_number(value, bound)
                if fixed is not None:  # the checker reports a `copies` left unknown
                    value = n.Number(fixed, span=p.value.span)
            props.append(attrs.evolve(p, value=value))
        cards.append(
            n.EntityDecl(
                decl.word, name, decl.kind, tuple(props), decl.handlers, False, span=decl.span, origin=(decl, k)
            )
        )
    return cards


def run_end(end, decl: n.EntityDecl, values: dict, errors: list) -> int:
    """A run's end as a number: written so, or the number of the value it names (as a track's)."""
    if end.__class__ is not n.NumberName:
        return end
    value = values.get(end.name)
    if value is None:
        errors.append(
            diagnostic(
                "error",
                f"'{end.name}' is not a value: a run's ends are numbers, or values set to one",
                end.span,
                suggest(end.name, values),
            )
        )
        return 0
    got = fixed_number(value.value, values)
    if got is None:
        errors.append(
            Diagnostic(
                "error",
                f"value '{end.name}' is not a number written in the rules, so it cannot end the run "
                f'of {decl.word}s "{decl.name}" (its {decl.word}s are made before a match starts)',
                end.span,
                "a run's ends are numbers, or values set to a number written in the rules (+, - and * "
                "of numbers and such values); not the number of players, nor anything of the state",
            )
        )
        return 0
    if not number_in_range(got):
        errors.append(Diagnostic("error", f"value '{end.name}' is {got:,}, beyond the numbers ludus allows", end.span))
        return 0
    return got


def _name(run: n.CardRun, bound: dict, errors: list) -> str | None:
    """The name of the run's card for the number in `bound`: its quoted name, each hole worked out."""
    out = []
    for part in run.name.parts:
        if isinstance(part, str):
            out.append(part)
            continue
        got = fixed_number(part, bound)
        if got is None:
            errors.append(
                Diagnostic(
                    "error",
                    "a hole in the name of a run is worked out before a match starts, and this one cannot be",
                    part.span,
                    f"a hole there holds {_KNOWN}",
                )
            )
            return None
        out.append(str(got))
    return "".join(out)


def _put(node, var: str, k: int):
    """`node` (an expression) with each use of the run's name `var` put as the number `k`;
    a comprehension that binds the same name keeps its own inside it."""
    if node.__class__ is n.Name:
        return n.Number(k, span=node.span) if node.name == var else node
    if isinstance(node, tuple):
        return tuple(_put(x, var, k) for x in node)
    if not attrs.has(type(node)):
        return node
    changes = {}
    for f in attrs.fields(type(node)):
        if f.name == "span":
            continue
        if node.__class__ is n.Comprehension and node.var == var and f.name != "source":
            continue
        value = getattr(node, f.name)
        if isinstance(value, tuple) or attrs.has(type(value)):
            new = _put(value, var, k)
            if new is not value:
                changes[f.name] = new
    return attrs.evolve(node, **changes) if changes else node


def _fold(node):
    """`3 * 1000` as `3000`: the sums, differences and products of numbers alone that putting the
    run's number in leaves, worked out, so that `ludus cards` reads `Cost: 3000`. Anything else
    (a value, a division, a result beyond the numbers ludus allows) is left to be read in play."""
    if node.__class__ is n.BinOp and node.op in ("+", "-", "*"):
        left, right = _fold(node.left), _fold(node.right)
        if left.__class__ is n.Number and right.__class__ is n.Number:
            a, b = left.value, right.value
            got = a + b if node.op == "+" else a - b if node.op == "-" else a * b
            if number_in_range(got):
                return n.Number(got, span=node.span)
        return attrs.evolve(node, left=left, right=right)
    if node.__class__ is n.Neg:
        inner = _fold(node.operand)
        if inner.__class__ is n.Number:
            return n.Number(-inner.value, span=node.span)
        return attrs.evolve(node, operand=inner)
    return node
