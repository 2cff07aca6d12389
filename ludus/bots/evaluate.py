"""How bots judge a position: by the result when the match is over, else by the game's own
`define score(s)` when the designer wrote one (a number, higher is better for seat `s`).

A game without a `payoff` is played for the win. Rewards lie between 0 and 1 per seat: a sole
winner gets 1; each of k winners together (1 + 1/k) / 2, half for having won and half the win's
share, so that a sole win is worth more than a shared one, and a win shared by the whole table
(a cooperative game's `win seats`) more than a match no one won; a match no one won 1/2 each, as
even (`lose seats`, `end game` and a flow that runs out all end a match without a winner, and
bots cannot tell them apart); a seat that did not win a match others won 0. Greedy's values are
the same on its own scale (ludus/bots/greedy.py); as in `match.returns()`, any win is worth more
than a match no one won, and that more than a loss. A position cut short is judged by `score`:
each seat gets the share of the other seats it scores above (half for a tie); without `score`,
1/2 each, as a match no one won.

A game with a `payoff` is played for the payoff: what the game says each seat gets is what each
seat's bot maximises (`values`), its own number and not its margin over the others. A finished
match is worth its payoffs; a position cut short is worth each seat's `score(s)` when the game
has one (read as an estimate of the payoff, on its scale), else the payoff read in that position,
as if the match ended there. So in a cooperative game, whose seats share one payoff (Hanabi's
`payoff show_score`), every bot plays for the table's score; in a zero-sum one (chips), for its
own chips, which is the same as its margin.
"""

from __future__ import annotations

from ..engine.runtime import Runtime

SCORE = "score"
EVEN = 0.5  # a match no one won, or a position without a score to tell the seats apart


def judges_positions(game) -> bool:
    """Whether the game says what a position before the end is worth: a `define score(s)`, or a
    `payoff` (read in any position, as if the match ended there)."""
    return SCORE in game.defines or game.payoff is not None


def no_score_note(game) -> str | None:
    """What a designer handing a seat to a greedy bot should know when the game has no
    `define score(s)`: the bot then judges a move only by a win it reaches at once, which in
    most games is a random move. When 'score' already names something else (a counter, say,
    in a game whose points are its score), that thing is not read, and it takes the name a
    define would need. None when the game has a `define score`, or a `payoff` (read in every
    position, it judges every move)."""
    if judges_positions(game):
        return None
    return (f"{game.title} has no `define score(s)`{_taken(game)}: a greedy bot judges a move only by a win "
            "it reaches at once, and otherwise moves at random (see docs/simulation.md)")


def no_depth_score_note(game) -> str | None:
    """What a designer giving an mcts bot a playout depth should know when the game has no
    `define score(s)`: a playout cut at the depth counts as even for every seat, so the search
    learns only from the playouts that end within it. None when the game has a `define score`,
    or a `payoff` (read where the playout is cut)."""
    if judges_positions(game):
        return None
    return (f"{game.title} has no `define score(s)`{_taken(game)}: an mcts bot with a playout depth counts a "
            "playout cut at the depth as even for every seat, and learns only from the playouts that end "
            "within it (see docs/simulation.md)")


def _taken(game) -> str:
    """Why 'score' is not read when the game uses the name for something other than a define."""
    sym = game.checked.symbols
    if SCORE in sym.vars:
        return f" ('score' is its {sym.vars[SCORE].kind}, which bots do not read: give it another name to free 'score' for a define)"
    if SCORE in sym.values:
        return " ('score' is its value, which bots do not read: give it another name to free 'score' for a define)"
    if SCORE in sym.rules:
        return " ('score' is its rule, which bots do not call: give it another name to free 'score' for a define)"
    return ""


class NotAScore(ValueError):
    """A game's `define score` that does not take exactly one seat."""


class Evaluator:
    def __init__(self, game) -> None:
        self.game = game
        self.payoff_fn = game.payoff  # fn(rt, env) of `payoff EXPR`, or None
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

    @property
    def plays_for_payoff(self) -> bool:
        """Whether the game has a `payoff`: then bots maximise it (`values`), not their share of wins."""
        return self.payoff_fn is not None

    def score(self, state: dict, seat: int) -> float:
        """The game's `score(seat)` in this state (0 when the game has none)."""
        if self.score_fn is None:
            return 0.0
        return _number(self.score_fn(Runtime(self.game, state, []), [seat], {"$cur": seat, "$act": seat}))

    def payoff_now(self, state: dict, seat: int) -> float:
        """The game's `payoff` for `seat` read in this state, as if the match ended here (the
        engine reads it so, for every seat, the moment a match ends). A rule it breaks is
        raised, as a move that breaks one is."""
        return _number(self.payoff_fn(Runtime(self.game, state, []), {"seat": seat, "$act": seat, "$cur": seat}))

    def value(self, state: dict, seat: int) -> float:
        """In a game with a `payoff`: what this position is worth to `seat` (see the module doc)."""
        result = state["result"]
        if result is not None and "payoffs" in result:
            return float(result["payoffs"][seat])
        if self.score_fn is not None:
            return self.score(state, seat)
        return self.payoff_now(state, seat)

    def values(self, state: dict) -> list[float]:
        """In a game with a `payoff`: what this position is worth to each seat, in the payoff's units."""
        return [self.value(state, s) for s in range(state["nseats"])]

    @staticmethod
    def result_rewards(state: dict) -> list[float]:
        """Each seat's reward for a finished match (see the module doc)."""
        n = state["nseats"]
        winners = state["result"]["winners"]
        if not winners:
            return [EVEN] * n
        won = (1.0 + 1.0 / len(winners)) / 2
        return [won if s in winners else 0.0 for s in range(n)]

    def rewards(self, state: dict) -> list[float]:
        """Each seat's reward: from the result when the match is over, else from `score`."""
        if state["result"] is not None:
            return self.result_rewards(state)
        n = state["nseats"]
        if self.score_fn is None or n < 2:
            return [EVEN] * n
        scores = [self.score(state, s) for s in range(n)]
        out = []
        for s in range(n):
            above = sum(1.0 if scores[s] > scores[o] else 0.5 if scores[s] == scores[o] else 0.0
                        for o in range(n) if o != s)
            out.append(above / (n - 1))
        return out


def _number(value) -> float:
    """A score or payoff as a float: true and false are 1 and 0; anything but a number is 0."""
    if isinstance(value, bool):
        return float(value)
    if not isinstance(value, (int, float)):
        return 0.0
    return float(value)
