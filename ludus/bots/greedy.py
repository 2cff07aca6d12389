"""The greedy bot: tries each legal move once, one move ahead, and keeps the best.

A move is judged in the position it leads to: a won match is best and a lost one worst;
otherwise by the game's `define score(s)` (its own score against the best of the others), or,
in a game without one, as even. A game with a `payoff` is played for it instead: a move is worth
what the position it leads to is worth to the bot's seat (`Evaluator.value`: the payoff of a
finished match, else its own `score(s)`, else the payoff read there), not its margin over the
others, so that a shared score is a score to raise and not a tie. When the game has hidden cards or chance, each move is tried on
several determinizations (the budget; 8 by default) and its values averaged. Ties are broken at
random, from the bot's seed.
"""

from __future__ import annotations

import random
import time

from ..engine.determinize import has_hidden_information
from ..engine.runtime import RuleError
from .base import DEFAULT_BUDGETS, Budget, Observation
from .evaluate import Evaluator

WON, LOST = 1e12, -1e12


class GreedyBot:
    def __init__(self, game, seat: int, seed: int, budget: Budget | None = None) -> None:
        self.spec = "greedy"
        self.game = game
        self.seat = seat
        self.rng = random.Random(seed)
        self.evaluator = Evaluator(game)
        self.hidden = has_hidden_information(game)
        self.budget = budget or DEFAULT_BUDGETS["greedy"]

    def value(self, match) -> float:
        state = match._state
        if self.evaluator.plays_for_payoff:
            return self.evaluator.value(state, self.seat)
        if state["result"] is not None:
            winners = state["result"]["winners"]
            if self.seat in winners:
                return WON / len(winners)
            return LOST if winners else 0.0
        if not self.evaluator.has_score:
            return 0.0
        mine = self.evaluator.score(state, self.seat)
        others = [self.evaluator.score(state, s) for s in range(state["nseats"]) if s != self.seat]
        return mine - max(others) if others else mine

    def choose(self, obs: Observation) -> int:
        if len(obs.legal) == 1:
            return 0
        samples, deadline = self._samples()
        totals = [0.0] * len(obs.legal)
        done = 0
        while done < samples:
            world = obs.sample(self.rng)
            for i in range(len(obs.legal)):
                trial = world if i == len(obs.legal) - 1 else _copy(world)
                try:
                    trial.apply_fast(i)
                    totals[i] += self.value(trial)
                except RuleError:
                    totals[i] += LOST  # a move that breaks a rule in this sample is a move to avoid
            done += 1
            if deadline is not None and time.perf_counter() >= deadline:
                break
        best = max(totals)
        ties = [i for i, t in enumerate(totals) if t == best]
        return ties[self.rng.randrange(len(ties))] if len(ties) > 1 else ties[0]

    def _samples(self) -> tuple[int, float | None]:
        if not self.hidden:
            return 1, None  # one ply of a deterministic game of perfect information: nothing to average
        if self.budget.seconds is not None:
            return 1_000_000, time.perf_counter() + self.budget.seconds
        return self.budget.iterations or 1, None


def _copy(match):
    from ..engine.match import Match
    from ..engine.runtime import copy_state

    return Match(match.game, copy_state(match._state), [], match.seed)
