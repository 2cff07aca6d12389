"""The dice a game rolls and the zones it shuffles, as far as its text says, and the forced rolls
it can never take."""

from __future__ import annotations

import contextlib
import functools
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


def _once_per_game(find):
    """`find(game)`, worked out once a game: a replay or a session asks at every few moves, and
    each walks all the game's declarations. An entry goes with its game."""
    found: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    @functools.wraps(find)
    def once(game):
        try:
            return found[game]
        except (KeyError, TypeError):
            pass
        value = find(game)
        with contextlib.suppress(TypeError):  # a game that cannot be weakly referred to is asked again
            found[game] = value
        return value
    return once


def _rule_nodes(game):
    """Every syntax node of the game's checked declarations, `test` blocks left out (they are not
    the game's rules: their rolls and shuffles do not count); nothing for a game that keeps no
    checked declarations."""
    checked = getattr(game, "checked", None)
    if checked is None:
        return
    symbols = checked.symbols
    stack = [getattr(symbols, f.name) for f in fields(type(symbols)) if f.name != "tests"]
    seen: set[int] = set()
    while stack:
        x = stack.pop()
        if isinstance(x, (list, tuple, set, frozenset)):
            stack.extend(x)
        elif isinstance(x, dict):
            stack.extend(x.values())
        elif has(type(x)) and id(x) not in seen:
            seen.add(id(x))
            yield x
            stack.extend(getattr(x, f.name) for f in fields(type(x)) if f.name != "span")


@_once_per_game
def game_dice(game) -> frozenset | None:
    """The sizes of every die the game's rules roll, or None when some die's size is worked out
    as the game runs (or the game keeps no checked declarations to look in)."""
    if getattr(game, "checked", None) is None:
        return None
    dice: set[int] = set()
    for x in _rule_nodes(game):
        if isinstance(x, n.Roll):
            sides = x.sides
            if isinstance(sides, n.ListLit):
                sides = list(sides.items)
            sizes = sides if isinstance(sides, list) else [sides]
            sizes = [d.value if isinstance(d, n.Number) else d for d in sizes]
            if not all(isinstance(d, int) and not isinstance(d, bool) for d in sizes):
                return None
            dice.update(sizes)
    return frozenset(dice)


@_once_per_game
def _shuffled(game) -> tuple:
    """The zone each `shuffle` of the game's rules shuffles (into a zone, or in place), as
    written: a zone's name, or an expression worked out as the game runs."""
    return tuple(x.into if x.into is not None else x.zone for x in _rule_nodes(game) if isinstance(x, n.Shuffle))


@_once_per_game
def shuffled_zones(game) -> frozenset:
    """The names of the zones the game's rules shuffle: by a `shuffle` (into a zone, or in place),
    or by refilling, which shuffles the zone refilled from."""
    found = {name for name, spec in game.zones.items() if spec.refill}
    for zone in _shuffled(game):
        name = getattr(zone, "name", None)
        if isinstance(name, str) and name in game.zones:
            found.add(name)
    return frozenset(found)


@_once_per_game
def game_shuffles(game) -> frozenset | None:
    """The names of the zones the game's rules shuffle (as `shuffled_zones`, read from the game's
    declarations alone, so a game not yet compiled is asked too), or None when some shuffle's
    zone is worked out as the game runs (`shuffle z` for a rule's parameter) or the game keeps no
    checked declarations to look in: then any zone may be shuffled."""
    checked = getattr(game, "checked", None)
    if checked is None:
        return None
    zones = checked.symbols.zones
    found = {name for name, decl in zones.items() if getattr(decl, "refill", None)}
    for zone in _shuffled(game):
        name = getattr(zone, "name", None)
        if not (isinstance(zone, (n.Name, n.Access)) and name in zones):
            return None
        found.add(name)
    return frozenset(found)


def order_zone_problem(game, zone: str, quote: str = "'") -> str | None:
    """Why a forced order of zone `zone` (its name, or a family member's, without a seat) is one the game can never take,
    or None. A forced order waits for the next shuffle of its zone, and one of a zone the game
    never shuffles (`force order hand = ...` where only the deck is shuffled) would wait for ever
    while the test, replay or session says the order is forced, and the line would do nothing: an
    error, as a force of a die the game never rolls is (die_problem). A test runs on one game, the
    one whose file names it (a variant's own tests on the variant), and the line is read against
    that game's rules, so a zone only a variant shuffles is taken in the variant's tests and
    refused in the base game's. When some shuffle's zone is worked out as the game runs, any zone
    is taken (game_shuffles)."""
    zone = zone.partition(" ")[0]  # a family's member (`deck red`) is shuffled as its family is
    zones = game_shuffles(game)
    if zones is None or zone in zones:
        return None
    title = getattr(game, "title", "the game")
    if not zones:
        return f"{title} shuffles no zone, so there is no order to force"
    names = [f"{quote}{z}{quote}" for z in sorted(zones)]
    shuffled = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return f"{title} never shuffles {quote}{zone}{quote}, so this order would never be used; it shuffles {shuffled}"
