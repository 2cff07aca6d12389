"""Hanabi's hands are `others only`: every way a seat is shown the match (its view, the REPL, the
adapters' observations, a bot's samples) keeps a seat's own cards from it and shows them to the
others, and shows their owner the clue marks on their backs."""

from __future__ import annotations

import json
import random

import pytest

import ludus
from ludus.adapters.profile import view_text
from ludus.engine.determinize import Determinizer
from ludus.repl.render import cards_text
from tests.helpers import ROOT

GAME = ROOT / "examples" / "hanabi.ludus"


@pytest.fixture(scope="module")
def game():
    return ludus.load(GAME)


def traded(m, seat: int):
    """A copy of the match with the first card of `seat`'s hand and a card of the deck of
    another name traded: a match `seat` cannot tell from this one, and the others can."""
    copy = m.clone()
    ents, places = copy.state["ents"], copy.state["places"]
    mine = places[f"hand@{seat}"][0]
    other = next(e for e in places["deck"] if ents[e]["d"] != ents[mine]["d"])
    ents[mine]["d"], ents[other]["d"] = ents[other]["d"], ents[mine]["d"]
    return copy


@pytest.mark.parametrize("players", [2, 5])
def test_a_seat_sees_every_hand_but_its_own(game, players):
    m = game.new_match(players, seed=3)
    names = m.seat_names()
    for seat in range(players):
        view = m.view(seat)
        for owner in range(players):
            hand = [m.state["ents"][e]["d"] for e in m.state["places"][f"hand@{owner}"]]
            shown = view["zones"][f"hand of {names[owner]}"]
            assert shown == ({"count": len(hand)} if owner == seat else hand)


@pytest.mark.parametrize("players", [2, 4])
def test_trading_a_seats_own_card_changes_what_the_others_see_and_not_what_it_sees(game, players):
    m = game.new_match(players, seed=1)
    for seat in range(players):
        other = traded(m, seat)
        assert other.view(seat) == m.view(seat)
        assert view_text(other, seat) == view_text(m, seat)          # the adapters' observation
        for s in range(players):
            if s != seat:
                assert other.view(s) != m.view(s)
                assert view_text(other, s) != view_text(m, s)


def test_the_owner_sees_the_clue_marks_by_place_and_the_repl_shows_them(game):
    m = game.new_match(2, seed=0)
    hand = [m.state["ents"][e]["d"] for e in m.state["places"]["hand@1"]]
    colour = hand[0].split()[0]
    m.apply(f"tell P2 their {colour.lower()} cards")
    marks = m.view(1)["zones"]["hand of P2"]["marks"]
    told = [i for i, name in enumerate(hand) if name.startswith(colour + " ")]
    assert [i for i, on in enumerate(marks) if on] == told
    assert all(marks[i] == {f"ToldColour {colour.lower()}": 1} for i in told)
    assert cards_text(m.view(1)["zones"]["hand of P2"]).startswith(f"5 cards; card 1: ToldColour {colour.lower()}")
    assert all(name not in json.dumps(m.view(1)["elsewhere"]) for name in hand)
    assert m.view(0)["zones"]["hand of P2"] == hand                  # P1 sees the cards themselves


def test_the_moves_name_a_seats_own_cards_by_place_only(game):
    m = game.new_match(3, seed=2)
    own = {m.state["ents"][e]["d"] for e in m.state["places"]["hand@0"]}
    labels = m.legal_actions()
    assert "play card 1" in labels
    assert not any(name in label for label in labels for name in own)


def test_a_bot_searching_deals_its_own_hand_anew_and_keeps_the_others(game):
    m = game.new_match(2, seed=5)
    places = m.state["places"]
    sampler = Determinizer(m, 0)
    rng = random.Random(2)
    own_hands = set()
    for _ in range(10):
        sample = sampler.sample(rng)
        assert sample.view(0) == m.view(0)
        ents = sample.state["ents"]
        assert [ents[e]["d"] for e in places["hand@1"]] == m.view(0)["zones"]["hand of P2"]
        own_hands.add(tuple(ents[e]["d"] for e in places["hand@0"]))
    assert len(own_hands) > 1


def test_the_repl_plays_from_piped_input_showing_each_seat_its_view(tmp_path):
    from click.testing import CliRunner

    from ludus.cli import main

    result = CliRunner().invoke(main, ["play", str(GAME)], input="tell P2 their red cards\nview\nquit\n")
    assert result.exit_code == 0, result.output
    assert "hand of P1  5 cards" in result.output                    # P1's turn: its own hand hidden
    assert "hand of P2  5 cards; card 1: ToldColour red" in result.output   # then P2's, with the marks


def careful_move(match) -> int:
    """A move that never burns a fuse, chosen with the cards in full view: a play that fits,
    else a discard, else a clue. Random play burns three fuses long before the deck runs out."""
    legal = match.legal_actions()
    kinds = ("play", "discard", "tell")
    for kind in kinds:
        for i, label in enumerate(legal):
            if not label.startswith(kind):
                continue
            trial = match.clone()
            trial.apply_fast(i)
            if kind != "play" or trial.state["vars"].get("burnt", 0) == match.state["vars"].get("burnt", 0):
                return i
    return 0


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_last_round_never_empties_a_hand_and_every_turn_has_a_move(game, players):
    """Once the deck is empty each player has one more turn, so a hand loses one card at most and
    a seat always has a card to play: no turn passes for want of a move, and the show ends."""
    hand_size = 5 if players <= 3 else 4
    last_rounds = 0
    for seed in range(3):
        match = game.new_match(players, seed=seed)
        turns_after = 0
        while not match.is_over:
            state = match.state
            assert match.legal_actions(), "a seat with nothing to do"
            if not state["places"]["deck"]:
                turns_after += 1
                assert all(len(state["places"][f"hand@{s}"]) >= hand_size - 1 for s in range(players))
            match.apply_fast(careful_move(match))
        assert match.result["winners"] == list(match.seat_names())
        built = sum(len(match.state["places"].get(f"firework {c}", [])) for c in ("red", "yellow", "green", "blue", "white"))
        # the last round is one turn each, unless the fireworks were completed first
        assert turns_after == players or (built == 25 and turns_after < players)
        last_rounds += turns_after > 0
    assert last_rounds > 0  # the deck ran out in some of them
