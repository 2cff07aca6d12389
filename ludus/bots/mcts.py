"""Monte Carlo tree search: UCT, or information-set MCTS for hidden cards and chance.

Each iteration takes a world to play in, walks down the tree choosing moves by UCB1, adds one new
move, plays on at random to the end of the match, and credits the result to every move on the
way (`Evaluator.rewards`: 1 for a sole win, less for a shared one, 1/2 each when no one won, 0 for
a seat that did not win). A playout that has not ended after `depth` random moves (the spec's
`depth=N`; 1,000 when not given) stops there and is judged by the game's `define score(s)`: each
seat's share of the seats it scores above, or 1/2 each, as a match no one won, without a score.

A game with a `payoff` is searched for it instead (`Evaluator.values`): each seat's reward is what
the playout's end is worth to it, in the payoff's units (its payoff when the match ended, else its
`score(s)`, else the payoff read there, as if the match ended at the cut: the documented
heuristic, which a `score(s)` replaces when the payoff means little before the end), and UCB1
scales the averages by the least and greatest reward seen in this decision's search so that its
constant keeps its meaning. Seats that share a payoff (a cooperative game) then all play for the
table's score. The check for a move that wins at once is left out: a win need not be the best
payoff.

Where the estimate at a cut cannot be read (a `score` or `payoff` that divides by a count still
at 0 breaks a rule there), the playout goes on at random, up to 1,000 moves in all, and is judged
where it ends; only one that still cannot be read teaches nothing.

- In a game of perfect information without dice or shuffles (Connect Four), the world is the
  one true position every time: this is plain UCT. Before searching, the bot plays a move that
  wins at once, and leaves out of the search the moves that let another seat win at once.
- Otherwise (single-observer ISMCTS), each iteration plays in a fresh determinization from the
  engine (`Observation.sample`): the cards this seat has not seen dealt anew, the dice to come
  reseeded. The tree's moves are keyed by their labels, and since a move may be legal in one
  sample and not in another, UCB1 counts how often a move was available rather than how often
  its parent was visited.

The budget is iterations (100 by default) or seconds per decision; with an iteration budget the
bot plays the same moves for the same seed.
"""

from __future__ import annotations

import math
import random
import time

from ..engine.hidden import has_hidden_information
from ..engine.match import Match
from ..engine.runtime import RuleError, copy_state
from .base import DEFAULT_BUDGETS, DEPTH_RULE, MAX_DEPTH, BadBotSpec, Budget, Observation
from .evaluate import Evaluator

EXPLORATION = 0.7  # UCB1's constant, for rewards between 0 and 1
ROLLOUT_CAP = 1_000  # random moves in one rollout, without a depth, before the position is judged by `score`
DECISIVE_REPLIES = 400  # most replies tried when looking for a move that loses at once (UCT only)


class Node:
    __slots__ = ("children", "visits", "reward", "avail", "seat")

    def __init__(self, seat) -> None:
        self.children: dict[str, Node] = {}
        self.visits = 0
        self.reward = 0.0  # summed rewards of `seat`, the seat whose move led here
        self.avail = 0  # iterations in which this move was legal
        self.seat = seat


class MctsBot:
    def __init__(self, game, seat: int, seed: int, budget: Budget | None = None,
                 rollout_cap: int = ROLLOUT_CAP, *, depth: int | None = None) -> None:
        self.spec = "mcts"
        self.game = game
        self.seat = seat
        self.rng = random.Random(seed)
        self.budget = budget or DEFAULT_BUDGETS["mcts"]
        self.evaluator = Evaluator(game)
        self.information_sets = has_hidden_information(game)
        self.variant = "ISMCTS" if self.information_sets else "UCT"
        if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int) or not 0 < depth <= MAX_DEPTH):
            raise BadBotSpec(f"{DEPTH_RULE}, not {depth!r}")
        self.depth = depth
        self.rollout_cap = rollout_cap if depth is None else depth
        if depth is not None:
            self.spec = f"mcts:depth={depth}"
        # of the last decision, for benchmarks and tests:
        self.iterations = 0
        self.failed = 0  # iterations whose sample broke a rule
        self.playout_moves = 0  # random moves played in all its playouts
        self.cut = 0  # playouts stopped at the depth (or the rollout cap) before the match ended
        self.played_on = 0  # playouts that went on past their depth, where the estimate could not be read
        self.low = self.high = None  # in a game with a payoff: the least and greatest reward seen

    def choose(self, obs: Observation) -> int:
        self.playout_moves = self.cut = self.played_on = 0
        if len(obs.legal) == 1:
            self.iterations = 0
            return 0
        root = Node(None)
        fixed = None if self.information_sets else obs.sample(self.rng)
        allowed = None
        self.low = self.high = None  # the least and greatest payoff backed up in this search
        if fixed is not None and not self.evaluator.plays_for_payoff:
            win, losing = self._decisive(fixed)
            if win is not None:
                self.iterations = self.failed = 0
                return win
            if losing and len(losing) < len(obs.legal):
                allowed = [i for i in range(len(obs.legal)) if i not in losing]
        deadline = None if self.budget.seconds is None else time.perf_counter() + self.budget.seconds
        limit = self.budget.iterations or 1
        done = failed = 0
        while True:
            world = obs.sample(self.rng) if fixed is None else _copy(fixed)
            try:
                self._iterate(root, world, allowed)
            except RuleError:
                failed += 1  # a sample the rules cannot play on; it teaches nothing
            done += 1
            if deadline is not None:
                if time.perf_counter() >= deadline:
                    break
            elif done >= limit:
                break
        self.iterations, self.failed = done, failed
        best, best_key = 0, None
        for i, label in enumerate(obs.legal):
            child = root.children.get(label)
            if child is None:
                continue
            key = (child.visits, child.reward)
            if best_key is None or key > best_key:
                best, best_key = i, key
        return best

    def _decisive(self, fixed: Match) -> tuple[int | None, set[int]]:
        """In a game of perfect information without chance, where this is exact and cheap: a move
        that wins the match at once, and the moves after which another seat can win at once
        (searching those would only waste iterations on a loss random rollouts may not see)."""
        labels = fixed._state["pending"]["options"]
        replies_left = DECISIVE_REPLIES
        losing: set[int] = set()
        for i in range(len(labels)):
            world = _copy(fixed)
            try:
                world.apply_fast(i)
            except RuleError:
                continue
            state = world._state
            if state["result"] is not None:
                if state["result"]["winners"] == [self.seat]:
                    return i, set()
                continue
            pending = state["pending"]
            if pending is None or pending["seat"] == self.seat or replies_left < len(pending["options"]):
                continue
            for j in range(len(pending["options"])):
                replies_left -= 1
                reply = _copy(world)
                try:
                    reply.apply_fast(j)
                except RuleError:
                    continue
                result = reply._state["result"]
                if result is not None and result["winners"] and self.seat not in result["winners"]:
                    losing.add(i)
                    break
        return None, losing

    def _iterate(self, root: Node, world: Match, allowed: list[int] | None = None) -> None:
        state = world._state
        node, path = root, []
        rng = self.rng
        # selection and expansion
        while state["result"] is None and state["pending"] is not None:
            pending = state["pending"]
            labels = pending["options"]
            seat = pending["seat"]
            children = node.children
            indices = allowed if node is root and allowed is not None else range(len(labels))
            untried = []
            for i in indices:
                label = labels[i]
                child = children.get(label)
                if child is None or child.visits == 0:  # never tried, or its only try broke a rule
                    untried.append(i)
                else:
                    child.avail += 1
            if untried:
                i = untried[rng.randrange(len(untried))]
                child = children.setdefault(labels[i], Node(seat))
                child.avail += 1
                world.apply_fast(i)
                path.append(child)
                break
            best_i, best_value = 0, -1.0
            # shares of a win are already between 0 and 1 (x - 0.0 and x / 1.0 are x exactly);
            # payoffs are scaled to it by the range seen so far (all alike: 0)
            low, span = (0.0, 1.0) if self.low is None else (self.low, self.high - self.low)
            for i in indices:
                child = children[labels[i]]
                mean = (child.reward / child.visits - low) / span if span > 0 else 0.0
                value = mean + EXPLORATION * math.sqrt(math.log(child.avail) / child.visits)
                if value > best_value:
                    best_i, best_value = i, value
            node = children[labels[best_i]]
            world.apply_fast(best_i)
            path.append(node)
        # rollout, judged where it ends or is cut
        steps, cap = 0, self.rollout_cap
        while True:
            while state["result"] is None and state["pending"] is not None and steps < cap:
                world.apply_fast(rng.randrange(len(state["pending"]["options"])))
                state = world._state
                steps += 1
            try:
                rewards = self._judge(state)
                break
            except RuleError:
                # the estimate cannot be read here (a payoff that divides by a count still at 0):
                # a cut at the depth plays on instead, as a rollout without one would
                if state["result"] is not None or state["pending"] is None or cap >= ROLLOUT_CAP:
                    self.playout_moves += steps
                    raise
                self.played_on += 1
                cap = ROLLOUT_CAP
        self.playout_moves += steps
        if steps == cap and state["result"] is None and state["pending"] is not None:
            self.cut += 1
        if self.evaluator.plays_for_payoff:
            low, high = min(rewards), max(rewards)
            self.low = low if self.low is None else min(self.low, low)
            self.high = high if self.high is None else max(self.high, high)
        for n in path:
            n.visits += 1
            n.reward += rewards[n.seat] if n.seat is not None else 0.0
        root.visits += 1

    def _judge(self, state: dict) -> list[float]:
        """Each seat's reward where a rollout stopped (see the module doc)."""
        if self.evaluator.plays_for_payoff:
            return self.evaluator.values(state)
        return self.evaluator.rewards(state)


def _copy(match: Match) -> Match:
    return Match(match.game, copy_state(match._state), [], match.seed)
