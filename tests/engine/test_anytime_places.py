"""`at any time` and `when ... becomes true` are checked after every change they may read,
including the cards on a space the rules find as they run (Hanabi's firework of a card's colour),
not only those on a space or zone named in the rules."""

from __future__ import annotations

from tests.helpers import game_from_text

STACK = '''game "Stack"
players 2
counter alarms
board table:
    pile Left with side "left"
    pile Right with side "right"
card "Stone":
    copies 3
define pile_on(side) = first(p for p in piles where p.side == side)
at any time:
    if size(pile_on("left")) >= 2:
        win P1
when size(pile_on("right")) >= 1 becomes true:
    increase alarms by 1
flow:
    repeat 3 times:
        turn P2:
            choose p from piles "Where does the stone go?"
            move top(box) to p
    win P2
'''


def test_at_any_time_sees_cards_reach_a_space_found_as_the_rules_run(tmp_path):
    game = game_from_text(tmp_path, STACK)
    m = game.new_match(2)
    m.apply("Left")
    assert m.result is None
    m.apply("Left")
    assert m.result is not None and m.result["winners"] == ["P1"]


def test_becomes_true_sees_them_too(tmp_path):
    game = game_from_text(tmp_path, STACK)
    m = game.new_match(2)
    m.apply("Right")
    assert m.view(None)["counters"]["alarms"] == 1
