"""Whether a game hides anything from a seat: cards it may not see, counters kept from it, or
dice and shuffles to come. Asked by the bots (which search on determinizations when it does),
the adapters, and a refused move's explanation (Match.why_not), which tells a seat the parts of
a requirement only in a game with nothing hidden."""

from __future__ import annotations

from . import ops as O


def has_hidden_zones(game) -> bool:
    """Whether some zone (besides the box) or board keeps its cards from some seat."""
    return (any(spec.visibility != "public" for name, spec in game.zones.items() if name != "box")
            or any(sp.visibility != "public" for sp in game.spaces.values()))


def has_chance(game) -> bool:
    """Whether the rules roll dice or shuffle (by name, or by refilling a deck)."""
    for code in game.codes.values():
        if any(op and op[0] in (O.ROLL, O.SHUFFLE) for op in code.ops):
            return True
    return any(spec.refill for spec in game.zones.values())


def has_hidden_information(game) -> bool:
    """Whether a search needs determinizations rather than the one true state: hidden cards,
    hidden counters, or dice and shuffles to come."""
    hidden_vars = any(spec.visibility != "public" for spec in game.vars.values())
    return has_hidden_zones(game) or hidden_vars or has_chance(game)
