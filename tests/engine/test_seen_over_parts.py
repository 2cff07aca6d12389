"""A decision asked in several parts (`choose cs from hand, exactly 2`, one pick at a time) is
one move for who may see its picks: a card picked first and shown once the last is picked (the
picks discarded face up) is named to every seat, though the rules showed it only after the
next part; a card that stays out of sight stays hidden. Worked out only when asked, and kept
only once the decision is closed (Match._sight_of), also across a save made mid-decision."""

from __future__ import annotations

import pytest

from ludus.engine.match import Match
from tests import helpers
from tests.helpers import game_from_text, printed, repl_on

SOURCE = """game "Picks"
players 2
seats Red, Blue

zone deck count only
zone hand per seat owner only
zone discard
zone pile count only

card "Ace"
card "King"
card "Queen"
card "Jack"
card "Ten"
card "Nine"

flow:
    move box to deck
    shuffle deck
    for each s in seats:
        draw 3 from deck into hand of s
    turn Red:
        choose shown from hand of Red, exactly 2 "Which two cards do you discard face up?"
        move shown to discard
    turn Blue:
        choose kept from hand of Blue, up to 2 "Which cards do you put face down?"
        move kept to pile
    end game
"""

RED, BLUE = 0, 1


@pytest.fixture
def game(tmp_path):
    return game_from_text(tmp_path, SOURCE)


@pytest.fixture(autouse=True)
def no_home_files(monkeypatch):
    helpers.no_home_files(monkeypatch)


def picks(match) -> list[int]:
    return [i for i, e in enumerate(match.log) if e["t"] == "answer"]


def test_every_pick_of_a_choice_discarded_face_up_is_named_to_the_other_seat(game):
    m = game.new_match(2, seed=1)
    m.apply(0)
    first = picks(m)[0]
    # the decision is open: the card is still in Red's hand, and Blue is told only of a pick
    assert m.hidden_answer(first, BLUE) == "chose a card"
    assert m.sight == {}  # not kept: the parts to come may show it
    m.apply(0)  # the second pick closes the decision, and both cards go face up
    second = picks(m)[1]
    assert sorted(m.view(BLUE)["zones"]["discard"]) == sorted(m.log[i]["label"] for i in (first, second))
    assert [m.hidden_answer(i, BLUE) for i in (first, second)] == [None, None]
    assert m.sight == {first: None, second: None}


def test_picks_put_face_down_stay_hidden_after_the_whole_move(game):
    m = game.new_match(2, seed=1)
    for _ in range(4):  # Red's two picks, Blue's two: Blue's close at its limit, face down
        m.apply(0)
    blue = [i for i in picks(m) if m.log[i]["seat"] == BLUE]
    assert len(blue) == 2 and m.is_over
    assert [m.hidden_answer(i, RED) for i in blue] == ["chose a card", "chose a card"]
    assert [m.hidden_answer(i, BLUE) for i in blue] == [None, None]


def test_a_pick_closed_by_done_is_watched_to_the_end_of_the_decision(game):
    m = game.new_match(2, seed=1)
    m.apply(0)
    m.apply(0)
    m.apply(0)  # Blue picks one card, then says done: face down all the same
    assert m.legal_actions()[-1] == "done"
    m.apply("done")
    blue = [i for i in picks(m) if m.log[i]["seat"] == BLUE]
    assert m.log[blue[-1]]["label"] == "done"
    assert m.hidden_answer(blue[0], RED) == "chose a card"
    assert m.hidden_answer(blue[1], RED) is None  # `done` names no card


def test_undoing_the_part_that_closed_the_decision_hides_the_earlier_pick_again(game):
    m = game.new_match(2, seed=1)
    m.apply(0)
    m.apply(0)
    first = picks(m)[0]
    assert m.hidden_answer(first, BLUE) is None
    m.undo()  # the decision is open again: the first pick is back in Red's hand
    assert first not in m.sight
    assert m.hidden_answer(first, BLUE) == "chose a card"
    clone = m.clone()
    clone.apply(0)
    assert clone.hidden_answer(first, BLUE) is None and m.hidden_answer(first, BLUE) == "chose a card"


def test_a_match_saved_mid_decision_names_the_earlier_pick_once_the_decision_closes(game):
    m = game.new_match(2, seed=1)
    m.apply(0)
    first = picks(m)[0]
    before = m.sights()
    assert before == {first: ((RED,), "chose a card")}  # as it stands at the save
    loaded = Match.from_json(game, m.to_json())
    assert loaded.open_at_load == (first, first + 1)
    loaded.sight.update(before)  # what the REPL's save records, or its moves played again say
    assert loaded.hidden_answer(first, BLUE) == "chose a card"
    loaded.apply(0)
    assert loaded.hidden_answer(first, BLUE) is None
    assert loaded.sights()[first] is None  # a save made now records it seen
    loaded.undo()
    assert loaded.hidden_answer(first, BLUE) == "chose a card"


def test_the_repl_log_names_a_pick_after_the_whole_move_across_a_save(tmp_path, game):
    path = tmp_path / "game.ludus"
    repl, out = repl_on(game.new_match(2, seed=1), path, 120)
    repl.handle("1")
    first = repl.match.log[picks(repl.match)[0]]["label"]
    repl.handle(f"save {tmp_path / 'mid.json'}")
    again, out = repl_on(game.new_match(2, seed=1), path, 120)
    again.handle(f"load {tmp_path / 'mid.json'}")
    again.handle("view Blue")
    assert "Red chose a card" in printed(again, out, "log")
    again.handle("view Red")
    again.handle("1")
    again.handle("view Blue")
    seen = printed(again, out, "log")
    assert f"Red: {first}" in seen and "chose a card" not in seen
