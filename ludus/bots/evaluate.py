"""How bots judge a position: by the result when the match is over, else by the game's own
`define score(s)` when the designer wrote one (a number, higher is better for seat `s`).

Rewards are shares between 0 and 1 per seat: a sole winner gets 1, winners together share the
win equally, a match no one won gives every seat 1/n. A position cut short is judged by `score`:
each seat gets the share of the other seats it scores above (half for a tie); without `score`,
1/n each, as a match no one won.
"""

from __future__ import annotations

from ..engine.runtime import Runtime

SCORE = "score"


class NotAScore(ValueError):
    """A game's `define score` that does not take exactly one seat."""


class Evaluator:
    def __init__(self, game) -> None:
        self.game = game
        self.score_fn = None
        fn = game.defines.get(SCORE)
        if fn is not None:
            decl = game.checked.symbols.defines.get(SCORE)
            params = getattr(decl, "params", None) or ()
            if len(params) != 1:
                raise NotAScore(f"'define score' must take one seat, as in 'define score(s) = ...'; "
                                f"this one takes {len(params)}")
            self.score_fn = fn

    @property
    def has_score(self) -> bool:
        return self.score_fn is not None

    def score(self, state: dict, seat: int) -> float:
        """The game's `score(seat)` in this state (0 when the game has none)."""
        if self.score_fn is None:
            return 0.0
        value = self.score_fn(Runtime(self.game, state, []), [seat], {"$cur": seat, "$act": seat})
        if isinstance(value, bool):
            return float(value)
        if not isinstance(value, (int, float)):
            return 0.0
        return float(value)

    @staticmethod
    def result_rewards(state: dict) -> list[float]:
        n = state["nseats"]
        winners = state["result"]["winners"]
        if not winners:
            return [1.0 / n] * n
        share = 1.0 / len(winners)
        return [share if s in winners else 0.0 for s in range(n)]

    def rewards(self, state: dict) -> list[float]:
        """Each seat's share: from the result when the match is over, else from `score`."""
        if state["result"] is not None:
            return self.result_rewards(state)
        n = state["nseats"]
        if self.score_fn is None or n < 2:
            return [1.0 / n] * n
        scores = [self.score(state, s) for s in range(n)]
        out = []
        for s in range(n):
            above = sum(1.0 if scores[s] > scores[o] else 0.5 if scores[s] == scores[o] else 0.0
                        for o in range(n) if o != s)
            out.append(above / (n - 1))
        return out
