"""Zone families (`zone expedition per seat and colour`): one zone per key of a list value, and
per seat too; each member a zone of its own in the state, the views, samples and saved matches,
named by the rules with its keys (`expedition of s at c.colour`, `discards of "red"`)."""

from __future__ import annotations

import json
import random

import pytest

from ludus.compiler.probe import evaluate
from ludus.engine.determinize import Determinizer, groups
from ludus.engine.match import Match
from ludus.engine.runtime import RuleError
from tests.helpers import game_from_text

SOURCE = '''game "Expeditions"
players 2
seats North, South

value colours = ["red", "blue"]
var chosen: text start "red"

zone hand per seat owner only
zone expedition per seat and colour
zone discards per colour top only
zone stock per colour count only
zone secret per seat and colour owner only

kind Card:
    colour: text

card "Red 1" is Card: colour "red"
card "Red 2" is Card: colour "red"
card "Red 3" is Card: colour "red"
card "Blue 1" is Card: colour "blue"
card "Blue 2" is Card: colour "blue"
card "Green 1" is Card: colour "green"

define laid(s) = sum(size(expedition of s at colour) for colour in colours)

action Play(c in hand):
    label "play {c}"
    move c to the bottom of expedition of actor at c.colour

action Discard(c in hand):
    label "discard {c}"
    move c to discards of c.colour

action Hide(c in hand):
    label "hide {c}"
    move c to secret of actor at c.colour

action Choose(colour in colours):
    label "watch {colour}"
    set chosen to colour

at any time:
    if size(discards of chosen) >= 2:
        win South

flow:
    move [card("Red 1"), card("Red 2"), card("Blue 1"), card("Green 1")] to hand of North
    move [card("Red 3"), card("Blue 2")] to stock of "red"
    while true:
        turn North:
            offer Play, Discard, Hide, Choose
'''


@pytest.fixture
def game(tmp_path):
    return game_from_text(tmp_path, SOURCE)


def test_a_card_goes_to_the_member_its_keys_name(game):
    m = game.new_match(2)
    m.apply("play Red 1")
    m.apply("play Blue 1")
    m.apply("play Red 2")
    places = m.state["places"]
    names = [[m.state["ents"][e]["d"] for e in places.get(k, [])]
             for k in ("expedition red@0", "expedition blue@0", "expedition red@1")]
    assert names == [["Red 1", "Red 2"], ["Blue 1"], []]
    rt_card = m.state["ents"][places["expedition red@0"][0]]
    assert rt_card["o"] == 0                                        # a seat's member: the card is the seat's
    ev = lambda text: evaluate(m, text)[0]  # noqa: E731
    assert ev("laid(North)") == 3 and ev("laid(South)") == 0
    assert ev('card("Red 1").zone') == "expedition"                 # the family, as the rules name it
    assert ev('card("Red 1").loc == expedition of North at "red"') is True
    assert ev('size(stock of "red")') == 2


def test_a_key_the_family_lacks_stops_the_rule_and_lists_the_keys(game):
    m = game.new_match(2)
    with pytest.raises(RuleError, match=r"zone 'expedition' has no member for 'green': its keys are the colours, red, blue"):
        m.apply("play Green 1")
    assert m.legal_actions()                                       # the match is as it was
    assert "Green 1" in m.view(0)["zones"]["hand of North"]


def test_at_any_time_sees_a_member_chosen_as_the_rules_run(game):
    # `discards of chosen`: the member is known only when the condition is read, so every
    # member's change must wake it, not only the one it read last
    m = game.new_match(2)
    m.apply("watch blue")
    m.apply("discard Blue 1")
    m.apply("discard Red 1")
    assert m.result is None
    m.apply("watch red")
    m.apply("discard Red 2")
    assert m.result is not None and m.result["winners"] == ["South"]


def test_views_name_each_member_and_hide_it_as_the_family_says(game):
    m = game.new_match(2)
    m.apply("discard Red 1")
    m.apply("discard Red 2")  # South has won: the board is as it was left
    north, south = m.view(0)["zones"], m.view(1)["zones"]
    # in the order of the keys, and of the seats for each key
    assert [k for k in north if k.startswith("expedition")] == [
        "expedition red of North", "expedition red of South", "expedition blue of North", "expedition blue of South"]
    assert north["discards red"] == {"count": 2, "top": "Red 2"}   # top only: each member a pile
    assert south["discards blue"] == {"count": 0}
    assert north["stock red"] == {"count": 2} and south["stock red"] == {"count": 2}   # count only


def test_an_owner_only_member_is_its_owners_alone(game):
    m = game.new_match(2)
    m.apply("hide Red 1")
    assert m.view(0)["zones"]["secret red of North"] == ["Red 1"]
    assert m.view(1)["zones"]["secret red of North"] == {"count": 1}
    assert "Red 1" not in json.dumps(m.view(1))


def test_a_sample_deals_a_piles_hidden_cards_among_that_member_alone(game):
    m = game.new_match(2)
    m.apply("watch blue")
    m.apply("discard Red 1")
    m.apply("discard Red 2")                                       # Red 1 lies covered under it
    m.apply("hide Blue 1")
    ents = m.state["ents"]
    found = [sorted(ents[e]["d"] for e in g) for g in groups(m, 1)]
    assert ["Red 1"] in found                                      # a `top only` member is a pile of its own
    assert not any("Red 1" in g and len(g) > 1 for g in found)
    sampler = Determinizer(m, 1)
    rng = random.Random(3)
    for _ in range(20):
        sample = sampler.sample(rng)
        assert sample.view(1) == m.view(1)                         # what South sees stays as it is
        places, sents = sample.state["places"], sample.state["ents"]
        assert [sents[e]["d"] for e in places["discards red"]] == ["Red 2", "Red 1"]


def test_a_saved_match_with_members_loads_again(game):
    m = game.new_match(2)
    m.apply("play Red 1")
    m.apply("discard Blue 1")
    again = Match.from_json(game, m.to_json())
    assert again.view(None) == m.view(None)
    assert again.legal_actions() == m.legal_actions()


def test_a_define_reading_members_is_forgotten_when_one_of_them_changes_alone(game):
    # `laid(s)` reads the members its keys name as the rules run: it depends on every member of
    # the family, and on nothing else that moves (not on every card's move, "$ents")
    m = game.new_match(2)
    assert all("laid" in game.define_drops[f"@expedition {c}"] for c in ("red", "blue"))
    assert "laid" not in game.define_drops.get("$ents", ())
    assert "laid" not in game.define_drops.get("@discards red", ())
    assert evaluate(m, "laid(North)")[0] == 0
    m.apply("play Blue 1")
    assert evaluate(m, "laid(North)")[0] == 1
