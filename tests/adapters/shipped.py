"""The shipped games every adapter must run, and how hard the default test run tries them.

The default run plays each game a little (every game at least once); LUDUS_ML_FULL=1 plays more
matches and every player count (`LUDUS_ML_FULL=1 python -m pytest tests/adapters`).
"""

from __future__ import annotations

import os

from tests.helpers import ROOT

SHIPPED = [
    "games/uprising.ludus",
    "games/votes-for-women/votes-for-women.ludus",
    "games/stonewall-uprising/stonewall-uprising.ludus",
    "games/stonewall-uprising/stonewall-uprising-solo.ludus",
    "games/gateway-uprising/gateway-uprising.ludus",
    "games/gateway-uprising/gateway-uprising-hidden-runestones.ludus",
    "examples/market-town.ludus",
    "examples/connect-four.ludus",
    "examples/love-letter.ludus",
    "examples/cant-stop.ludus",
    "examples/for-sale.ludus",
    "examples/no-thanks.ludus",
    "examples/sushi-go.ludus",
    "examples/hearts.ludus",
    "examples/coup.ludus",
    "examples/skull.ludus",
    "examples/hanabi.ludus",
    "examples/lost-cities.ludus",
    "examples/jaipur.ludus",
    "examples/azul.ludus",
    "examples/uprising-great-country.ludus",
]

FULL = os.environ.get("LUDUS_ML_FULL", "") not in ("", "0")


def path(name: str) -> str:
    return str(ROOT / name)


def player_counts(name: str) -> list[int]:
    """The least player count; with LUDUS_ML_FULL, every count the game allows."""
    import ludus

    game = ludus.load(path(name))
    if not FULL:
        return [game.min_players]
    return list(range(game.min_players, game.max_players + 1))


def cases() -> list[tuple[str, int]]:
    return [(name, n) for name in SHIPPED for n in player_counts(name)]
