"""The bots' contract: what a bot is given (`Observation`), what it answers (`Bot.choose`), and
how much it may think (`Budget`). See the package doc."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from attrs import frozen

MAX_ITERATIONS = 10_000_000
MAX_SECONDS = 3600.0
BUDGET_RULE = (f"a bot's budget is a whole number of iterations from 1 to {MAX_ITERATIONS:,} or a time per "
               f"decision such as 2s or 500ms (at most {MAX_SECONDS:g}s)")

MAX_DEPTH = 1_000_000
DEPTH_RULE = f"a playout depth is a whole number of moves from 1 to {MAX_DEPTH:,}, as in depth=40"


class BadBotSpec(ValueError):
    """A `--bot` value that names no bot, a budget that is neither a count nor a time, or an
    option the bot does not take or with a value it cannot have."""


@frozen
class Budget:
    """How much thinking a bot may do per decision: a number of iterations, or seconds (neither:
    the kind's default). Checked when made, as parse_budget checks a typed one: a bot given 0 or
    -5 iterations would play after one, and a billion would not come back."""

    iterations: int | None = None
    seconds: float | None = None

    def __attrs_post_init__(self) -> None:
        its, secs = self.iterations, self.seconds
        if its is not None and secs is not None:
            raise BadBotSpec(f"a bot's budget is iterations or seconds, not both ({its!r} and {secs!r})")
        if its is not None and (isinstance(its, bool) or not isinstance(its, int) or not 0 < its <= MAX_ITERATIONS):
            raise BadBotSpec(f"{BUDGET_RULE}, not {its!r} iterations")
        if secs is not None and (isinstance(secs, bool) or not isinstance(secs, (int, float))
                                 or not 0 < secs <= MAX_SECONDS):
            raise BadBotSpec(f"{BUDGET_RULE}, not {secs!r} seconds")

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

