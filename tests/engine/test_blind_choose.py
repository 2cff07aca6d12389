"""`choose d from LIST by s blind`: a pick among cards by their places, `1` to `n`, never by the
cards' names, to any seat, in any label, log line or view (docs/language.md, Hidden information)."""

from __future__ import annotations

import random

import pytest

from ludus.engine.determinize import Determinizer
from ludus.engine.display import describe_entry
from ludus.engine.match import Match, MatchError
from ludus.simulation import simulate
from tests.helpers import game_from_text

# Blue takes one of Red's cards without seeing them (Red sees its own hand, in order); Green
# watches. Then Blue picks two places of a face-down pile, one at a time.
GAME = '''game "Blind"
players 3
seats Red, Blue, Green
zone hand per seat owner only
zone pile count only
zone removed count only
card "Rose"
card "Skull"
card "Lily"
card "Flower":
    copies 3
var taken
flow:
    move card("Rose") to hand of Red
    move card("Skull") to hand of Red
    move card("Lily") to hand of Red
    move box to pile
    choose d from hand of Red by Blue blind "Which of Red's cards do you take?"
    set taken to d
    move d to hand of Blue
    choose ds from pile by Blue blind, exactly 2 "Which discs are lost?"
    move ds to removed
    end game
'''
NAMES = ("Rose", "Skull", "Lily", "Flower")


@pytest.fixture
def game(tmp_path):
    return game_from_text(tmp_path, GAME)


def names_in(text) -> list[str]:
    return [name for name in NAMES if name in str(text)]


def test_the_options_are_places_in_the_list_never_the_cards(game):
    match = game.new_match(3, seed=1)
    assert match.legal_actions() == ["1", "2", "3"]
    assert match.pending["kind"] == "choose" and match.pending["values"] == [1, 2, 3]
    for seat in (None, 0, 1, 2):
        decision = match.view(seat)["decision"]
        assert decision["blind"] is True
        assert names_in(decision) == []
    assert match.view(1)["decision"]["options"] == ["1", "2", "3"]
    # Red sees its hand in the list's order (top first): a place tells it which card was taken
    assert match.view(0)["zones"]["hand of Red"] == ["Lily", "Skull", "Rose"]


def test_the_name_is_bound_to_the_card_at_the_place_picked(game):
    for place, name in ((1, "Lily"), (2, "Skull"), (3, "Rose")):
        match = game.new_match(3, seed=1)
        match.apply(str(place))
        assert match.view(None)["counters"]["taken"] == name
        assert match.view(1)["zones"]["hand of Blue"] == [name]


def test_the_log_says_the_place_to_every_seat_and_the_views_follow_the_visibility_rules(game):
    match = game.new_match(3, seed=1)
    match.apply("2")  # the Skull
    index = next(i for i, e in enumerate(match.log) if e["t"] == "answer")
    for seat in (None, 0, 1, 2):
        said = describe_entry(match, match.log[index], True, seat, index)
        assert said == "Blue: 2 (Which of Red's cards do you take?)"
        assert names_in(said) == []
        assert match.hidden_answer(index, seat) is None
    # after the pick, the card shows as its new place shows it: to Blue, whose hand it is in
    assert match.view(1)["zones"]["hand of Blue"] == ["Skull"]
    assert match.view(2)["zones"]["hand of Blue"] == {"count": 1}
    assert match.view(0)["zones"]["hand of Blue"] == {"count": 1}
    assert match.view(0)["zones"]["hand of Red"] == ["Lily", "Rose"]


def test_a_pick_of_several_offers_the_places_left_and_binds_the_cards_in_the_order_picked(game):
    match = game.new_match(3, seed=4)
    match.apply("1")
    pile = [match._state["ents"][e]["d"] for e in match.pending["pool"]]
    assert len(pile) == 3 and set(pile) == {"Flower"}
    assert match.legal_actions() == ["1", "2", "3"]
    match.apply("3")
    assert match.legal_actions() == ["1", "2"]  # place 3 is taken: the others keep their numbers
    assert match.view(1)["decision"]["picked"] == ["3"]
    assert "(1 chosen)" in match.view(1)["decision"]["prompt"]
    first, third = match.pending["pool"][0], match.pending["pool"][2]
    match.apply("1")
    assert match.is_over
    ents = match._state["ents"]
    assert ents[first]["l"] == "removed" and ents[third]["l"] == "removed"
    assert [e["label"] for e in match.log if e["t"] == "answer"] == ["1", "3", "1"]


def test_up_to_offers_done_once_enough_are_picked(tmp_path):
    game = game_from_text(tmp_path, '''game "Up to"
players 2
zone pile count only
zone removed count only
card "Flower":
    copies 3
flow:
    move box to pile
    choose ds from pile by P2 blind, up to 2 "Which discs?"
    move ds to removed
    end game
''')
    match = game.new_match(2, seed=0)
    assert match.legal_actions() == ["1", "2", "3", "done"]
    match.apply("2")
    assert match.legal_actions() == ["1", "3", "done"]
    match.apply("done")
    assert match.is_over and len(match._state["places"]["removed"]) == 1


def test_an_empty_list_asks_nothing_as_a_choice_that_names_its_cards_does(tmp_path):
    game = game_from_text(tmp_path, '''game "Empty"
players 2
zone pile count only
zone removed count only
var got start 1
var gots start 1
flow:
    choose d from pile by P2 blind "Which disc?"
    choose ds from pile by P2 blind, up to 2 "Which discs?"
    set got to d
    set gots to ds
    end game
''')
    match = game.new_match(2, seed=0)
    assert match.is_over
    counters = match.view(None)["counters"]
    assert counters["got"] is None and counters["gots"] == []


def test_undo_takes_the_pick_back_and_another_place_takes_another_card(game):
    match = game.new_match(3, seed=1)
    match.apply("1")
    assert match.view(None)["counters"]["taken"] == "Lily"
    match.undo()
    assert match.legal_actions() == ["1", "2", "3"]
    match.apply("3")
    assert match.view(None)["counters"]["taken"] == "Rose"


def test_a_match_saved_in_the_middle_of_a_blind_pick_loads_and_goes_on(game):
    match = game.new_match(3, seed=2)
    match.apply("2")
    match.apply("2")
    text = match.to_json()
    loaded = Match.from_json(game, text)
    assert loaded.legal_actions() == ["1", "3"]
    assert loaded.view(1)["decision"]["picked"] == ["2"]
    loaded.apply("3")
    match.apply("3")
    assert loaded.to_json() == match.to_json()


@pytest.mark.parametrize(("key", "bad", "why"), [
    ("values", [1, 7], "the pending blind choice offers what is not a place in its list"),
    ("picked", [9], "the progress of the pending choice is damaged"),
    ("pool", [], "the list of the pending blind choice is damaged"),
    ("blind", None, "the pending choice is not blind as the game's is, or blind where the game's is not"),
])
def test_a_damaged_blind_pick_in_a_save_is_refused(game, key, bad, why):
    import json

    match = game.new_match(3, seed=2)
    match.apply("2")
    match.apply("2")
    data = json.loads(match.to_json())
    pending = data["state"]["pending"]
    if bad is None:
        del pending[key]
    else:
        pending[key] = bad
    with pytest.raises(MatchError) as err:
        Match.from_json(game, json.dumps(data))
    assert str(err.value) == f"the saved match is damaged: {why}"


def test_a_bots_samples_offer_the_same_places_whatever_cards_they_deal(game):
    match = game.new_match(3, seed=1)
    match.apply("1")  # Blue's next pick is among the face-down pile
    real = match.legal_actions()
    sampler = Determinizer(match, 1)
    rng = random.Random(0)
    for _ in range(20):
        sample = sampler.sample(rng)
        assert sample.legal_actions() == real
        assert sample.view(1)["decision"] == match.view(1)["decision"]


def test_bots_play_a_blind_pick(game):
    report = simulate(game, 6, seed=3, players=3, bots={1: "mcts:30", 2: "greedy"})
    assert not report.errors and report.unfinished == 0
    assert len(report.lengths) == 6
