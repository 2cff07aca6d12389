"""Bots: players that choose a move from what their seat may see.

A bot never holds the match. It is given an `Observation`: its seat, `match.view(seat)`, the
legal actions, and `sample(rng)`, which returns a copy of the match whose hidden parts (cards the
seat has not seen, the dice to come) are drawn anew consistently with that view; a bot that
searches plays its simulations on such samples. Bots are named by a spec, `KIND[:BUDGET]`, as
on the command line (`--bot Red=mcts:400`, `--bot Red=mcts:2s`), and built by `make_bot`.

The kinds: `random`; `greedy` (`ludus.bots.greedy`: one move ahead, judged by the game's
`define score(s)` when it has one, else by winning and losing); `mcts` (`ludus.bots.mcts`: UCT
search, or information-set MCTS on determinizations when the game has hidden cards or chance).
A budget is a number of iterations (`mcts:400`; for greedy, samples per move) or a time per
decision (`mcts:2s`, `mcts:500ms`); without one, each kind has its default (`DEFAULT_BUDGETS`).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from .base import DEFAULT_BUDGETS, Bot, Budget, Observation

__all__ = ["BOTS", "DEFAULT_BUDGETS", "BadBotSpec", "Bot", "Budget", "Observation", "RandomBot", "make_bot",
           "observe", "parse_budget", "parse_spec"]


class RandomBot:
    """Uniformly random legal moves."""

    def __init__(self, game, seat: int, seed: int, budget: Budget | None = None) -> None:
        self.spec = "random"
        self.rng = random.Random(seed)

    def choose(self, obs: Observation) -> int:
        return self.rng.randrange(len(obs.legal))


def _greedy(game, seat: int, seed: int, budget: Budget | None = None) -> Bot:
    from .greedy import GreedyBot

    return GreedyBot(game, seat, seed, budget)


def _mcts(game, seat: int, seed: int, budget: Budget | None = None) -> Bot:
    from .mcts import MctsBot

    return MctsBot(game, seat, seed, budget)


# kind -> factory(game, seat, seed, budget)
BOTS: dict[str, Callable[..., Bot]] = {"random": RandomBot, "greedy": _greedy, "mcts": _mcts}

MAX_ITERATIONS = 10_000_000
MAX_SECONDS = 3600.0


class BadBotSpec(ValueError):
    """A `--bot` value that names no bot, or a budget that is neither a count nor a time."""


def parse_budget(text: str) -> Budget:
    """'400' -> 400 iterations; '2s', '1.5s', '500ms' -> seconds per decision. Raises BadBotSpec."""
    raw = text.strip().lower()
    shown = text.strip() if len(text.strip()) <= 40 else f"{text.strip()[:20]}... ({len(text.strip())} characters)"
    bad = BadBotSpec(f"a bot's budget is a whole number of iterations from 1 to {MAX_ITERATIONS:,} or a time "
                     f"per decision such as 2s or 500ms (at most {MAX_SECONDS:g}s), not '{shown}'")
    # ASCII digits only: str.isdigit() takes '²' and '٣' too, which int() refuses or reads as
    # a number the user did not type; and no more digits than a budget can have, as int() refuses
    # a string of thousands of them
    if raw.isascii() and raw.isdigit():
        if len(raw.lstrip("0")) > len(str(MAX_ITERATIONS)) or not 0 < int(raw) <= MAX_ITERATIONS:
            raise bad
        return Budget(iterations=int(raw))
    for unit, scale in (("ms", 0.001), ("s", 1.0)):
        if raw.endswith(unit):
            number = raw[: -len(unit)].strip()
            if (not number or not number.isascii() or not all(ch.isdigit() or ch == "." for ch in number)
                    or number.count(".") > 1 or number == "."):
                raise bad
            seconds = float(number) * scale
            if not 0 < seconds <= MAX_SECONDS:
                raise bad
            return Budget(seconds=seconds)
    raise bad


def parse_spec(spec: str) -> tuple[str, Budget | None]:
    """'mcts:400' -> ('mcts', Budget(400)); 'mcts:2s' -> ('mcts', Budget(seconds=2.0));
    'random' -> ('random', None). Raises BadBotSpec."""
    kind, sep, budget = spec.strip().partition(":")
    kind = kind.strip().lower() or "random"
    if kind not in BOTS:
        raise BadBotSpec(f"no bot '{kind}'; the bots are {', '.join(BOTS)}")
    if not sep:
        return kind, None
    return kind, parse_budget(budget)


def make_bot(spec: str, game, seat: int, seed: int) -> Bot:
    """The bot a spec names, for one seat of one match, seeded for reproducible play."""
    kind, budget = parse_spec(spec)
    bot = BOTS[kind](game, seat, seed, budget)
    bot.spec = spec.strip()
    return bot


def observe(match, seat: int, sampler: Callable[[random.Random], object] | None = None) -> Observation:
    """The observation of `seat` at the current decision: its view, the legal actions, and the
    engine's determinizer for this match and seat (or `sampler`, when given)."""
    if sampler is None:
        from ..engine.determinize import Determinizer

        sampler = Determinizer(match, seat).sample
    return Observation(seat, match.view(seat), match.legal_actions(), sampler)
