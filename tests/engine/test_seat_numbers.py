"""A seat written as a number the match has no seat for (a var's `start 2` in a match of two)
is a located rule error, not an internal one."""

from __future__ import annotations

import pytest

from ludus.engine.runtime import RuleError
from tests.helpers import game_from_text

SOURCE = """game "Dealer"
players 2 to 3
seats Red, Blue, Green

var dealer: seat start 2
counter rounds

action Go:
    increase rounds by 1

flow:
    log "{dealer} deals"
    turn Red:
        offer Go
"""


def test_a_seat_the_match_does_not_have_stops_the_rules_at_the_line_that_names_it(tmp_path):
    game = game_from_text(tmp_path, SOURCE)
    assert game.new_match(3).current == 0  # Green deals in a match of three
    with pytest.raises(RuleError) as caught:
        game.new_match(2)
    text = str(caught.value)
    assert ":12:" in text  # the log line
    assert "there is no seat 2 in a match of 2 players: a seat written as a number counts from 0 (Red) to 1 (Blue)" in text
    assert "IndexError" not in text

