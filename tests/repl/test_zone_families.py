"""The REPL names a zone family's members as views do (`discards red`, `expedition red of North`)
and `show` finds them by the family's name: every member, or a seat's."""

from __future__ import annotations

import pytest

from tests.helpers import game_from_text, repl_on
from tests.helpers import printed as said

SOURCE = '''game "Families"
players 2
seats North, South
value colours = ["red", "blue"]
zone hand per seat
zone expedition per seat and colour
zone discards per colour top only
kind Card:
    colour: text
card "Red 1" is Card: colour "red"
card "Blue 1" is Card: colour "blue"
action Play(c in hand):
    label "play {c}"
    move c to expedition of actor at c.colour
flow:
    move box to hand of North
    turn North:
        offer Play
    turn North:
        offer Play
    end game
'''


pytestmark = pytest.mark.usefixtures("history_in_tmp")


def make_repl(tmp_path):
    return repl_on(game_from_text(tmp_path, SOURCE, "families.ludus").new_match(2), tmp_path / "families.ludus", 120)


def test_a_move_into_a_member_is_said_by_the_members_name(tmp_path):
    repl, out = make_repl(tmp_path)
    text = said(repl, out, "play Red 1")
    assert "changed: expedition red of North: empty → Red 1" in text


@pytest.mark.parametrize("line, shown", [
    ("show discards", ["discards red: 0 cards", "discards blue: 0 cards"]),
    ("show expedition of North", ["expedition red of North (1, top first): Red 1", "expedition blue of North: empty"]),
    ("show zone expedition", ["expedition red of North (1, top first): Red 1", "expedition red of South: empty",
                              "expedition blue of North: empty", "expedition blue of South: empty"]),
    ("show expedition red of North", ["expedition red of North (1, top first): Red 1"]),
])
def test_show_finds_a_familys_members_by_its_name(tmp_path, line, shown):
    repl, out = make_repl(tmp_path)
    repl.handle("play Red 1")
    text = said(repl, out, line)
    assert text.splitlines() == shown, text
    assert repl.rejected == 0
