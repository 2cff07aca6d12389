"""A bot that fails in the REPL, choosing its move or making it, is named with its seat and why
(`the greedy bot playing P2 stopped: ...`), hands its seat back, and leaves the match as it was
before the failing choice or move. A built-in bot's failure other than a broken rule went to the
REPL's catch-all, which named no bot and kept it on its seat to fail again at the next line."""

from __future__ import annotations

import pytest

from ludus.bots.greedy import GreedyBot
from ludus.engine.runtime import RuleError
from tests.helpers import game_from_text, repl_on, said

pytestmark = pytest.mark.usefixtures("no_home_files")

SOURCE = '''game "Deep"
players 2
counter pts per seat
define f(n) = if n <= 0 then 0 else 1 + f(n - 1)
define score(s) = SCORE
action Gain(k in [1, 2]):
    label "gain {k}"
    increase pts by k
action Break:
    label "break"
    increase pts by 3 / (pts of P1 - pts of P1)
flow:
    repeat 3 times:
        turn P1:
            offer Gain
        turn P2:
            offer OFFER
    end game
'''


def after_p1_moves(tmp_path, score="pts of s", offer="Gain", bot="greedy"):
    """P1 (a person) gains 1; then P2's bot plays: what that prints, the REPL, and the match
    as P1's move left it."""
    game = game_from_text(tmp_path, SOURCE.replace("SCORE", score).replace("OFFER", offer))
    repl, out = repl_on(game.new_match(2, seed=0), tmp_path / "game.ludus", 120, bots={1: bot})
    lines = said(repl, out, "1")
    return [x for x in lines if x.startswith("error")], repl


def made_only_p1s_move(repl) -> bool:
    """The match is as P1's move left it: nothing of the bot's failing choice or move is in it."""
    fresh = repl.game.new_match(2, seed=0)
    fresh.apply("gain 1")
    return repl.match.moves == ["gain 1"] and repl.match.view(None) == fresh.view(None)


def test_a_bot_too_deep_to_choose_is_named_and_its_seat_handed_back(tmp_path):
    errors, repl = after_p1_moves(tmp_path, score="f(pts of s + 100000)")
    assert errors == ["error: the greedy bot playing P2 stopped: its move was too large or too deep to work out "
                      "(RecursionError); P2 is yours now"]
    assert repl.bots == {} and made_only_p1s_move(repl)
    assert said(repl, repl.console.file, "2")[0].startswith("  changed: pts of P2: 0 → 2")  # P2 is the person's


@pytest.mark.parametrize(("raised", "why"), [
    # a fault in a built-in bot's own code
    (ZeroDivisionError("division by zero"),
     "it failed choosing its move, a fault to report: ZeroDivisionError: division by zero"),
    # as an mcts bot's playout raises a payoff it cannot read: no move was made, none is named ('?')
    (RuleError("division by zero"), "a rule broke as it chose its move: division by zero"),
])
def test_a_bot_failing_as_it_chooses_is_named_with_its_seat(tmp_path, monkeypatch, raised, why):
    def fails(self, obs):
        raise raised
    monkeypatch.setattr(GreedyBot, "choose", fails)
    errors, repl = after_p1_moves(tmp_path)
    assert errors == [f"error: the greedy bot playing P2 stopped: {why}; P2 is yours now"]
    assert repl.bots == {} and made_only_p1s_move(repl)


def test_a_bots_move_that_breaks_a_rule_is_named_and_undone(tmp_path):
    errors, repl = after_p1_moves(tmp_path, offer="Break", bot="random")
    line = SOURCE.splitlines().index("    increase pts by 3 / (pts of P1 - pts of P1)") + 1
    assert errors == [f"error: the random bot playing P2 stopped: its move 'break' broke a rule at "
                      f"{tmp_path / 'game.ludus'}:{line}:5: division by zero; P2 is yours now"]
    assert repl.bots == {} and made_only_p1s_move(repl)
