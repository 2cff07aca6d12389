"""The greedy bot: tries each legal move once, one move ahead, and keeps the best.

A move is judged in the position it leads to: a won match is best (a win shared by k seats
worth 1/k of a sole one) and a lost one worst, a match no one won even (as `lose seats` is: the
engine records a shared loss as it does `end game`); otherwise by the game's `define score(s)`
(its own score against the best of the others), or, in a game without one, as even. A game with
a `payoff` is played for it instead: a move is worth what the position it leads to is worth to
the bot's seat (`Evaluator.value`: the payoff of a finished match, else its own `score(s)`, else
the payoff read there), not its margin over the others, so that a shared score is a score to
raise and not a tie. When the game has hidden cards or chance, each move is tried on several
determinizations (the budget; 8 by default) and its values averaged. Ties are broken at random,
from the bot's seed.

A `score(s)` or `payoff` may not be readable in every position: a payoff that divides by a count
still at 0, or reads the top card of a zone still empty, breaks a rule there. When the estimate of
any position a move leads to cannot be read, the whole decision is judged again as in a game with
neither: by the wins and losses the moves reach at once, the rest even (a move worth nothing
known is not a move that broke a rule, and the moves' values must share one scale). The next
decision reads the estimate again. A move that itself breaks a rule is still the worst.
"""

from __future__ import annotations

import random
import time

from ..engine.hidden import has_hidden_information
from ..engine.runtime import RuleError
from .base import DEFAULT_BUDGETS, Budget, Observation
from .evaluate import Evaluator

WON, LOST = 1e12, -1e12


class Unread(Exception):
    """The game's `score(s)` or `payoff` broke a rule when read in a position a move leads to."""


class GreedyBot:
    def __init__(self, game, seat: int, seed: int, budget: Budget | None = None) -> None:
        self.spec = "greedy"
        self.game = game
        self.seat = seat
        self.rng = random.Random(seed)
        self.evaluator = Evaluator(game)
        self.hidden = has_hidden_information(game)
        self.budget = budget or DEFAULT_BUDGETS["greedy"]
        self.unread = 0  # of the last decision: 1 when it was judged without the estimate it could not read

    def value(self, match, estimate: bool = True) -> float:
        """What the position is worth to the bot's seat; with `estimate` false, by the result
        alone (an unfinished match is even). An estimate that cannot be read is `Unread`."""
        state = match._state
        if estimate and self.evaluator.plays_for_payoff:
            return self._estimate(self.evaluator.value, state, self.seat)
        if state["result"] is not None:
            winners = state["result"]["winners"]
            if self.seat in winners:
                return WON / len(winners)
            return LOST if winners else 0.0
        if not estimate or not self.evaluator.has_score:
            return 0.0
        score = self.evaluator.score
        mine = self._estimate(score, state, self.seat)
        others = [self._estimate(score, state, s) for s in range(state["nseats"]) if s != self.seat]
        return mine - max(others) if others else mine

    @staticmethod
    def _estimate(read, state: dict, seat: int) -> float:
        try:
            return read(state, seat)
        except RuleError as err:
            raise Unread(err) from None

    def choose(self, obs: Observation) -> int:
        self.unread = 0
        if len(obs.legal) == 1:
            return 0
        try:
            return self._choose(obs, estimate=True)
        except Unread:
            self.unread += 1
            return self._choose(obs, estimate=False)

    def _choose(self, obs: Observation, estimate: bool) -> int:
        samples, deadline = self._samples()
        totals = [0.0] * len(obs.legal)
        done = 0
        while done < samples:
            world = obs.sample(self.rng)
            for i in range(len(obs.legal)):
                trial = world if i == len(obs.legal) - 1 else _copy(world)
                try:
                    trial.apply_fast(i)
                except RuleError:
                    totals[i] += LOST  # a move that breaks a rule in this sample is a move to avoid
                    continue
                totals[i] += self.value(trial, estimate)
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
