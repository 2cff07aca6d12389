"""Bots: players that choose a move from what their seat may see.

A bot never holds the match. It is given an `Observation`: its seat, `match.view(seat)`, the
legal actions, and `sample(rng)`, which returns a copy of the match whose hidden parts (cards the
seat has not seen, the dice to come) are drawn anew consistently with that view; a bot that
searches plays its simulations on such samples. Bots are named by a spec, `KIND[:BUDGET]`, as
on the command line (`--bot Red=mcts:400`), and built by `make_bot`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from attrs import frozen


@frozen
class Observation:
    """What a bot is given to decide one move."""

    seat: int
    view: dict  # match.view(seat)
    legal: list[str]  # the legal actions' labels; the bot answers with an index into this list
    sample: Callable[[random.Random], object]  # a determinized copy of the match (see the module doc)


class Bot(Protocol):
    spec: str  # as given on the command line, e.g. "mcts:400"

    def choose(self, obs: Observation) -> int:
        """The index in `obs.legal` of the move to play."""


class RandomBot:
    """Uniformly random legal moves."""

    def __init__(self, game, seat: int, seed: int, budget: int | None = None) -> None:
        self.spec = "random"
        self.rng = random.Random(seed)

    def choose(self, obs: Observation) -> int:
        return self.rng.randrange(len(obs.legal))


# kind -> factory(game, seat, seed, budget); each bot module adds itself here
BOTS: dict[str, Callable[..., Bot]] = {"random": RandomBot}


class BadBotSpec(ValueError):
    """A `--bot` value that names no bot, or a budget that is not a positive whole number."""


def parse_spec(spec: str) -> tuple[str, int | None]:
    """'mcts:400' -> ('mcts', 400); 'random' -> ('random', None). Raises BadBotSpec."""
    kind, sep, budget = spec.strip().partition(":")
    kind = kind.strip().lower() or "random"
    if kind not in BOTS:
        raise BadBotSpec(f"no bot '{kind}'; the bots are {', '.join(BOTS)}")
    if not sep:
        return kind, None
    if not budget.strip().isdigit() or not 0 < int(budget) <= 10_000_000:
        raise BadBotSpec(f"a bot's budget is a whole number of iterations from 1 to 10,000,000, not '{budget}'")
    return kind, int(budget)


def make_bot(spec: str, game, seat: int, seed: int) -> Bot:
    """The bot a spec names, for one seat of one match, seeded for reproducible play."""
    kind, budget = parse_spec(spec)
    bot = BOTS[kind](game, seat, seed, budget)
    bot.spec = spec.strip()
    return bot


def observe(match, seat: int, sampler: Callable[[random.Random], object] | None = None) -> Observation:
    """The observation of `seat` at the current decision. `sampler` draws determinizations;
    until the engine provides them, a bot that asks for one gets an error."""

    def no_sampler(rng: random.Random):
        raise NotImplementedError("determinization is not available yet")

    return Observation(seat, match.view(seat), match.legal_actions(), sampler or no_sampler)
