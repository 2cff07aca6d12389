"""`reveal X to SEATS`: a card, a hand or a zone shown to some seats only, until it moves."""

from __future__ import annotations

import json

import pytest

import ludus
from ludus.engine.display import describe_entry
from ludus.engine.match import Match, MatchError

SOURCE = '''game "Peek"
players 3
zone hand per seat owner only
zone discard per seat
card "Guard"
card "Priest"
card "Baron"
flow:
    move card("Guard") to hand of P1
    move card("Priest") to hand of P2
    move card("Baron") to hand of P3
    turn P1:
        choose target from [P2, P3] "Whose hand do you look at?"
        reveal hand of target to P1
    turn P2:
        choose next from ["keep", "discard"] "Keep your card?"
        if next == "discard":
            move hand of P2 to discard of P2
            move card("Priest") to hand of P2
    end game
'''


@pytest.fixture
def game(tmp_path):
    path = tmp_path / "peek.ludus"
    path.write_text(SOURCE, encoding="utf-8")
    return ludus.load(path)


def test_only_the_named_seat_sees_the_card(game):
    m = game.new_match(3, seed=0)
    m.apply("P2")
    assert m.view(0)["zones"]["hand of P2"] == {"count": 1, "revealed": ["Priest"]}
    assert m.view(2)["zones"]["hand of P2"] == {"count": 1}
    assert m.view(1)["zones"]["hand of P2"] == ["Priest"]      # its owner sees it anyway


def test_the_log_names_the_card_only_to_those_who_saw_it(game):
    m = game.new_match(3, seed=0)
    m.apply("P2")
    [entry] = [e for e in m.log if e["t"] == "reveal"]
    assert describe_entry(m, entry, viewer=0) == "showed Priest to P1"
    assert describe_entry(m, entry, viewer=2) == "showed a card to P1"
    assert describe_entry(m, entry) == "showed Priest to P1"      # the designer's view


def test_what_was_seen_is_forgotten_when_the_card_moves(game):
    m = game.new_match(3, seed=0)
    m.apply("P2")
    m.apply("discard")        # the Priest leaves P2's hand and comes back: P1 no longer knows it
    assert m.view(0)["zones"]["hand of P2"] == {"count": 1}


def test_it_survives_save_and_load_and_a_damaged_list_is_refused(game):
    m = game.new_match(3, seed=0)
    m.apply("P2")
    assert Match.from_json(game, m.to_json()).view(0)["zones"]["hand of P2"]["revealed"] == ["Priest"]
    data = json.loads(m.to_json())
    priest = next(e for e in data["state"]["ents"] if e["d"] == "Priest")
    priest["see"] = [7]
    with pytest.raises(MatchError, match="damaged"):
        Match.from_json(game, json.dumps(data))


def test_undo_takes_back_what_a_reveal_showed(game):
    # a reveal changes cards in place (not by moving them): undo must put them back too
    m = game.new_match(3)
    before = m.to_json()
    m.apply("P3")
    assert m.view(0)["zones"]["hand of P3"] == {"count": 1, "revealed": ["Baron"]}
    m.undo()
    assert m.to_json() == before
    assert m.view(0)["zones"]["hand of P3"] == {"count": 1}


TWO_GUARDS = '''game "Two Guards"
players 2
zone hand per seat owner only
card "Guard":
    copies 2
action Play(c in hand):
    label "play {c}"
    move c to box
flow:
    move item(cards("Guard"), 1) to hand of P2
    turn P1:
        ask P1 "Look at P2's hand?" as look
        if look:
            reveal hand of P2 to P1
    move item(cards("Guard"), 2) to hand of P2
    turn P2:
        offer Play
    end game
'''


@pytest.mark.parametrize(("look", "options"), [
    ("no", ["play Guard"]),                      # copies no one tells apart: one option
    ("yes", ["play Guard", "play Guard #2"]),    # P1 knows one of them: playing it tells P1 otherwise
])
def test_a_copy_shown_to_a_seat_is_an_option_apart_from_one_that_was_not(tmp_path, look, options):
    path = tmp_path / "guards.ludus"
    path.write_text(TWO_GUARDS, encoding="utf-8")
    m = ludus.load(path).new_match(2, seed=0)
    m.apply(look)
    assert m.legal_actions() == options
