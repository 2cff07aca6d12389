"""The dice a game rolls, as far as its text says, and the forced rolls it can never take."""

from __future__ import annotations

import contextlib
import weakref

from attrs import fields, has

from ..language import nodes as n
from ..language.limits import MAX_DIE_SIDES
from .saved import force_problem


def die_problem(game, sides: int, values: list[int]) -> str | None:
    """Why a forced roll of a d`sides` (0: of any die) is one the game can never take, or None.

    A forced roll waits for a roll of its die, and a force of a die the game never rolls (`force
    d20 = 3` where only a d6 is rolled) would wait for ever while the session says it is forced.
    So when every die the game rolls is written as a number (`roll d6`, `roll 2 d8`, `roll die
    6`, `roll dice [6, 8]`), a force of another die is refused, and so is `force die = N` with
    N above the largest. When a die's size is worked out as the game runs (`roll die size(seats)`),
    the game's dice are not known until then, and any die with that face is taken."""
    dice = game_dice(game)
    if dice is None:
        return None
    if not dice:
        return f"{game.title} rolls no dice, so there is no roll to force"
    names = [f"d{d}" for d in sorted(dice)]
    rolled = "it rolls " + (f"a {names[0]}" if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1])
    if sides and sides not in dice:
        return f"{game.title} never rolls a d{sides}; {rolled}"
    if not sides and max(values) > max(dice):
        return f"no die of {game.title} shows {max(values)}; {rolled}"
    return None


def forcing_problem(game, sides: int, values) -> str | None:
    """Why rolls forced to come out as `values` on a d`sides` could never be taken: a value no
    such die shows (saved.force_problem), or a die the game never rolls (die_problem); None
    when they can be. What `Match.force` refuses and `ludus check` reports of a test's `force`."""
    for v in values:
        problem = force_problem(sides, v)
        if problem is not None:
            return problem
    return die_problem(game, sides, list(values)) if values else None


def test_line_problem(game, sides: int, values) -> str | None:
    """Why a test's `force dN = ...` line could never be taken: as `forcing_problem`, except that a
    `d0` there is a die with no faces, as in `roll d0`, not any die (0 sides to the Python API and
    the engine; a test line has no `force die`), which left the line forcing whatever die rolled
    next, and `ludus check` silent."""
    if sides < 1:
        return f"a die has 1 to {MAX_DIE_SIDES:,} faces, not {sides}"
    return forcing_problem(game, sides, values)


def game_dice(game) -> frozenset | None:
    """The sizes of every die the game's rules roll, or None when some die's size is worked out
    as the game runs (or the game keeps no checked declarations to look in). `test` blocks are
    not the game's rules: their rolls do not count. Worked out once a game: a replay or a
    session forces dice at every few moves, and this walks all the game's declarations."""
    try:
        return _DICE[game]
    except (KeyError, TypeError):
        pass
    dice = _dice(game)
    with contextlib.suppress(TypeError):  # a game that cannot be weakly referred to is asked again
        _DICE[game] = dice
    return dice


_DICE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # an entry goes with its game


def _dice(game) -> frozenset | None:
    checked = getattr(game, "checked", None)
    if checked is None:
        return None
    symbols = checked.symbols
    dice: set[int] | None = set()
    stack = [getattr(symbols, f.name) for f in fields(type(symbols)) if f.name != "tests"]
    seen: set[int] = set()
    while stack and dice is not None:
        x = stack.pop()
        if isinstance(x, n.Roll):
            sides = x.sides
            if isinstance(sides, n.ListLit):
                sides = list(sides.items)
            sizes = sides if isinstance(sides, list) else [sides]
            sizes = [d.value if isinstance(d, n.Number) else d for d in sizes]
            if all(isinstance(d, int) and not isinstance(d, bool) for d in sizes):
                dice.update(sizes)
            else:
                dice = None
        elif isinstance(x, (list, tuple, set, frozenset)):
            stack.extend(x)
        elif isinstance(x, dict):
            stack.extend(x.values())
        elif has(type(x)) and id(x) not in seen:
            seen.add(id(x))
            stack.extend(getattr(x, f.name) for f in fields(type(x)) if f.name != "span")
    return None if dice is None else frozenset(dice)
