"""A board space stands for the cards and pieces on it where a statement takes a zone's cards:
`move`, `discard`, `exile` and `reveal` of a space act on everything lying there, as they do for
a zone. The checker refused it ('only cards and pieces ... can be moved, not a slot'), though a
space is a list of its cards everywhere else (`top(A)`, `size(A)`, `for each c in A`)."""

from __future__ import annotations

import pytest

from ludus.language.source import LudusError
from tests.helpers import game_from_text

SOURCE = '''game "Stalls"
players 2
zone pile
zone hand per seat
board market:
    slot A with cost 2
    slot B with cost 3
card "Ash":
    copies 3
card "Elm"
card "Oak"
flow:
    move [c for c in box where c.name == "Ash"] to A
    move card("Elm") to B
    move card("Oak") to B
    move A to pile
    move B to the bottom of hand of P2
    reveal hand of P2
    exile top(pile)
    end game
'''


def test_a_spaces_cards_are_moved_as_a_zones_are(tmp_path):
    game = game_from_text(tmp_path, SOURCE)
    match = game.new_match(2, seed=0)
    state, ents = match.state, match.state["ents"]
    assert state["places"].get("A", []) == [] and state["places"].get("B", []) == []
    assert [ents[e]["d"] for e in state["places"]["pile"]] == ["Ash", "Ash"]
    # moved to the bottom, the space's cards keep their order: its top card first
    assert [ents[e]["d"] for e in state["places"]["hand@1"]] == ["Oak", "Elm"]
    assert sum(1 for e in ents if e["l"] == "removed") == 1


@pytest.mark.parametrize("statement", ["move A to pile", "exile A", "discard A", "reveal B"])
def test_the_checker_takes_a_space_where_it_takes_a_zone(tmp_path, statement):
    text = SOURCE.replace("    move A to pile\n", f"    {statement}\n").replace("zone pile", "zone pile\nzone discard per seat")
    game_from_text(tmp_path, text)  # no LudusError


def test_a_list_of_spaces_is_still_not_movable(tmp_path):
    text = SOURCE.replace("    move A to pile\n", "    move slots to pile\n")
    with pytest.raises(LudusError, match=r"only cards and pieces \(or the cards of a zone or a space\) can be moved, not a list of slots"):
        game_from_text(tmp_path, text)
