"""The bots' contract: what a bot is given (`Observation`), what it answers (`Bot.choose`), and
how much it may think (`Budget`). See the package doc."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from attrs import frozen


@frozen
class Budget:
    """How much thinking a bot may do per decision: a number of iterations, or seconds."""

    iterations: int | None = None
    seconds: float | None = None

    def __str__(self) -> str:
        if self.seconds is not None:
            return f"{self.seconds:g}s"
        return str(self.iterations)


@frozen
class Observation:
    """What a bot is given to decide one move."""

    seat: int
    view: dict  # match.view(seat)
    legal: list[str]  # the legal actions' labels; the bot answers with an index into this list
    sample: Callable[[random.Random], object]  # a determinized copy of the match (see ludus/bots/__init__.py)


class Bot(Protocol):
    spec: str  # as given on the command line, e.g. "mcts:400"

    def choose(self, obs: Observation) -> int:
        """The index in `obs.legal` of the move to play."""


# the budget of a kind given without one: greedy tries each move on 8 samples when the game has
# hidden cards or chance (1 otherwise); mcts runs 100 iterations (about a second a decision on
# Connect Four, a tenth of one on Market Town; see benchmarks/bots.py)
DEFAULT_BUDGETS = {"random": Budget(), "greedy": Budget(8), "mcts": Budget(100)}

