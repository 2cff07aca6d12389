"""`others only`: a seat's zone (or counter) that every seat sees but its owner, as a Hanabi hand.
The owner sees how many cards it holds and what lies on their backs, never which cards they are."""

from __future__ import annotations

import json
import random

import pytest

from ludus.engine.determinize import Determinizer, hidden_cards
from ludus.language.source import LudusError
from ludus.repl.render import cards_text
from tests.helpers import game_from_text

SOURCE = '''game "Backs"
players 3
zone deck count only
zone hand per seat others only
counter hunch per seat others only start 7
token Mark
card "Lamp"
card "Rope"
card "Coin"
card "Bell"
card "Fern"
action Point(i in range(1, size(hand of left(actor)))):
    label "mark card {i} of {left(actor)}"
    add 1 Mark to item(hand of left(actor), i)
flow:
    move card("Lamp") to hand of P1
    move card("Rope") to hand of P2
    move card("Bell") to hand of P2
    move card("Coin") to hand of P3
    move card("Fern") to deck
    turn P1:
        offer Point
    draw 1 from deck into hand of P2
    end game
'''


@pytest.fixture
def game(tmp_path):
    return game_from_text(tmp_path, SOURCE)


def test_every_seat_but_the_owner_sees_the_hand(game):
    m = game.new_match(3)
    assert m.view(0)["zones"]["hand of P2"] == ["Bell", "Rope"]
    assert m.view(2)["zones"]["hand of P2"] == ["Bell", "Rope"]
    assert m.view(1)["zones"]["hand of P2"] == {"count": 2}        # its owner: only how many
    assert m.view(1)["zones"]["hand of P1"] == ["Lamp"]
    assert m.view(0)["zones"]["hand of P1"] == {"count": 1}
    assert m.view(None)["zones"]["hand of P2"] == ["Bell", "Rope"]  # the designer's view


def test_the_owners_view_names_none_of_its_cards_anywhere(game):
    m = game.new_match(3)
    m.apply("mark card 2 of P2")
    own = json.dumps(m.view(1))
    assert "Rope" not in own and "Bell" not in own
    assert "Rope" in json.dumps(m.view(0)) and "Rope" in json.dumps(m.view(2))


def test_the_owner_sees_the_marks_on_its_cards_backs_by_position(game):
    m = game.new_match(3)
    m.apply("mark card 2 of P2")                                   # the Rope; then P2 draws the Fern
    assert m.view(1)["zones"]["hand of P2"] == {"count": 3, "marks": [{}, {}, {"Mark": 1}]}
    assert m.view(1)["elsewhere"] == {}                            # not under the card's name
    assert m.view(0)["elsewhere"] == {"Rope": {"Mark": 1}}         # the others see which card it is
    assert m.view(0)["zones"]["hand of P2"] == ["Fern", "Bell", "Rope"]
    assert cards_text(m.view(1)["zones"]["hand of P2"]) == "3 cards; card 3: Mark"


def test_a_counter_others_only_is_hidden_from_its_owner_alone(game):
    m = game.new_match(3)
    assert m.view(0)["counters"]["hunch"] == {"P1": "hidden", "P2": 7, "P3": 7}
    assert m.view(1)["counters"]["hunch"] == {"P1": 7, "P2": "hidden", "P3": 7}


def test_a_seat_searching_deals_its_own_hand_again_but_not_the_others(game):
    m = game.new_match(3)
    places = m.state["places"]
    names = {eid: m.state["ents"][eid]["d"] for eid in hidden_cards(m, 1)}
    assert sorted(names.values()) == ["Bell", "Fern", "Rope"]      # its own hand and the deck
    sampler = Determinizer(m, 1)
    rng = random.Random(5)
    dealt = set()
    for _ in range(30):
        sample = sampler.sample(rng)
        assert sample.view(1) == m.view(1)
        ents = sample.state["ents"]
        assert [ents[e]["d"] for e in places["hand@0"]] == ["Lamp"]   # what P2 sees stays put
        assert [ents[e]["d"] for e in places["hand@2"]] == ["Coin"]
        dealt.add(tuple(ents[e]["d"] for e in places["hand@1"]))
    assert len(dealt) == 6                                         # any two of Bell, Rope, Fern


def test_others_only_needs_a_seat_to_hide_from(tmp_path):
    with pytest.raises(LudusError) as err:
        game_from_text(tmp_path, 'game "Bad"\nplayers 2\nzone pile others only\ncounter coins others only\n'
                                 'board street others only:\n    stall Corner\n'
                                 'flow:\n    move box to pile\n    gain 1 coins\n    end game\n')
    messages = [(d.span.line, d.span.column, d.message) for d in err.value.diagnostics if d.severity == "error"]
    assert messages == [
        (3, 11, "'others only' hides a zone from the seat it belongs to: it needs 'per seat'"),
        (4, 15, "'others only' hides a counter from the seat it belongs to: it needs 'per seat'"),
        (5, 14, "a board's spaces are 'public' or 'top only' (piles that show their top card), not 'others only'"),
    ]


def test_others_is_still_a_name_where_no_visibility_is_expected(tmp_path):
    game = game_from_text(tmp_path, 'game "Names"\nplayers 2\nzone hand per seat others only\n'
                                    'define others(s) = [o for o in seats where o != s]\n'
                                    'flow:\n    let others = size(others(P1))\n    if others == 1:\n'
                                    '        win P1\n    end game\n')
    m = game.new_match(2)
    assert m.result["winners"] == ["P1"]
