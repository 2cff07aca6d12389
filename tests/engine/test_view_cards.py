"""How a seat's view shows cards held outside a zone's list: a var holding a card (by its name,
or `hidden` when the seat may not see the card where it is), and the tokens laid on a card in
a hand the seat sees only the backs of (by their place in the hand, as Hanabi's marks), and
the keys of a counter kept per card (by the card's name, or one `hidden` key for the cards the
seat may not see)."""

from __future__ import annotations

import json
import random

import pytest

from ludus.engine.determinize import Determinizer
from ludus.engine.view import HIDDEN
from ludus.repl.render import cards_text
from tests.helpers import game_from_text

SOURCE = '''game "Marked"
players 3
zone hand per seat owner only
zone deck count only
zone table
token Wound
var held: Card
var seen start none
var pair: list of Card
var leader: seat start P2
card "Lamp"
card "Rope"
card "Coin"
card "Bell"
card "Fern"
flow:
    move card("Lamp") to hand of P2
    move card("Rope") to hand of P2
    move card("Coin") to table
    move card("Bell") to deck
    move card("Fern") to hand of P3
    set held to card("Rope")
    set seen to card("Coin")
    set pair to [card("Coin"), card("Rope")]
    turn P1:
        choose n from 0 to 1 "lay the wounds?"
    add 2 Wound to card("Rope")
    add 1 Wound to card("Coin")
    add 1 Wound to card("Bell")
    turn P1:
        choose n from 0 to 1 "lay a card down?"
    move card("Rope") to table
    turn P1:
        choose n from 0 to 1 "done?"
    end game
'''


@pytest.fixture
def game(tmp_path):
    return game_from_text(tmp_path, SOURCE)


# ── a var holding a card ──


def test_the_vars_that_hold_cards_are_typed_so(game):
    # `held` says its type, `seen` has it found by the checker from its one `set`
    assert game.vars["held"].shown == "entity:Card"
    assert game.vars["seen"].shown.startswith("entity")
    assert game.vars["pair"].shown == "list:entity:Card"


def test_a_var_holding_a_card_the_seat_sees_shows_the_cards_name(game):
    m = game.new_match(3)
    counters = m.view(0)["counters"]
    assert counters["seen"] == "Coin"                 # on the table: every seat sees it
    assert counters["leader"] == "P2"                 # as a seat is shown by its name
    assert m.view(1)["counters"]["held"] == "Rope"    # in P2's own hand
    assert m.view(None)["counters"]["held"] == "Rope"  # the designer sees every card
    assert m.view(None)["counters"]["pair"] == ["Coin", "Rope"]


def test_a_var_holding_a_card_the_seat_may_not_see_shows_it_hidden(game):
    m = game.new_match(3)
    # the var is the game's, public; the card it names is in P2's hand: P1 and P3 are told
    # that it holds a card they may not see, never which (nor its number, which tells it too)
    assert m.view(0)["counters"]["held"] == "hidden"
    assert m.view(2)["counters"]["held"] == "hidden"
    assert m.view(0)["counters"]["pair"] == ["Coin", "hidden"]
    assert m.view((0, 1))["counters"]["held"] == "hidden"  # two seats: as the one that sees less
    assert "Rope" not in json.dumps(m.view(0)) and "Rope" not in json.dumps(m.view(2))
    m.apply("0")
    m.apply("0")                                        # the Rope is laid on the table
    assert m.view(0)["counters"]["held"] == "Rope"
    assert m.view(0)["counters"]["pair"] == ["Coin", "Rope"]


def test_a_seats_samples_show_its_card_vars_as_it_does(game):
    m = game.new_match(3)
    sampler = Determinizer(m, 0)
    rng = random.Random(3)
    for _ in range(10):
        assert sampler.sample(rng).view(0)["counters"] == m.view(0)["counters"]


# ── tokens on a card the seat sees the back of ──


def test_tokens_on_a_card_in_an_owner_only_hand_are_on_its_back_for_the_others(game):
    m = game.new_match(3)
    m.apply("0")                                        # the wounds are laid
    # the others see the hand's backs, and the tokens on them by their place in the hand; not
    # under the card's name, which would tell them what it is
    for seat in (0, 2):
        view = m.view(seat)
        assert view["zones"]["hand of P2"] == {"count": 2, "marks": [{"Wound": 2}, {}]}
        assert view["elsewhere"] == {"Coin": {"Wound": 1}}
        assert "Rope" not in json.dumps(view)
    assert cards_text(m.view(0)["zones"]["hand of P2"]) == "2 cards; card 1: Wound ×2"
    # the owner sees its cards, and the tokens on them by name
    assert m.view(1)["zones"]["hand of P2"] == ["Rope", "Lamp"]
    assert m.view(1)["elsewhere"] == {"Coin": {"Wound": 1}, "Rope": {"Wound": 2}}
    # a deck is a stack: no back but the top one shows, and the tokens under it stay hidden
    assert m.view(0)["zones"]["deck"] == {"count": 1}
    assert m.view(None)["elsewhere"]["Bell"] == {"Wound": 1}


def test_a_hand_without_tokens_on_it_shows_no_marks(game):
    m = game.new_match(3)
    assert m.view(0)["zones"]["hand of P2"] == {"count": 2}
    assert m.view(0)["zones"]["hand of P3"] == {"count": 1}


# ── tokens on copies of one card ──

COPIES = '''game "Ropes"
players 2
zone table
zone hand per seat owner only
token Wound
card "Rope":
    copies 3
flow:
    move cards("Rope") to table
    add 1 Wound to item(cards("Rope"), 1)
    add 2 Wound to item(cards("Rope"), 3)
    turn P1:
        choose n from 0 to 1 "lay on?"
    move item(cards("Rope"), 3) to hand of P2
    turn P1:
        choose n from 0 to 1 "done?"
    end game
'''


def test_tokens_on_two_copies_of_a_card_are_listed_apart_by_copy(tmp_path):
    match = game_from_text(tmp_path, COPIES).new_match(2, seed=0)
    assert match.view(0)["elsewhere"] == {"Rope (copy 1)": {"Wound": 1}, "Rope (copy 3)": {"Wound": 2}}
    match.apply("0")  # the third copy goes into P2's hand: P1 sees its tokens on its back only
    assert match.view(0)["elsewhere"] == {"Rope": {"Wound": 1}}
    assert match.view(1)["elsewhere"] == {"Rope (copy 1)": {"Wound": 1}, "Rope (copy 3)": {"Wound": 2}}


# ── counters kept per card ──

PER_CARD = '''game "Wounds"
players 2
zone table
zone hand per seat owner only
zone deck count only
card "Lamp"
card "Rope":
    copies 2
card "Bell"
counter wounds per Card
counter marks per seat and Card
action Hurt(c in table):
    label "hurt {c}"
    increase wounds of c by 1
    increase marks of actor at c by 1
action Play(c in hand):
    label "play {c}"
    move c to table
flow:
    move card("Lamp") to table
    move item(cards("Rope"), 1) to table
    move item(cards("Rope"), 2) to hand of P2
    move card("Bell") to deck
    increase wounds of item(cards("Rope"), 2) by 3
    increase wounds of card("Bell") by 1
    turn P1:
        offer Hurt
    turn P2:
        offer Play
    end game
'''


GUARDS = '''game "Guards"
players 2
seats Red, Blue
board yard:
    space Gate
piece Guard
counter alert per Piece
action Recruit:
    label "recruit"
    create Guard at Gate for actor as g
    set alert of g to 2
flow:
    create Guard at Gate for Red as first
    set alert of first to 1
    turn Red:
        offer Recruit
    end game
'''


@pytest.fixture
def per_card(tmp_path):
    return game_from_text(tmp_path, PER_CARD).new_match(2, seed=0)


def test_a_counter_kept_per_card_is_keyed_by_the_cards_name(per_card):
    # the designer sees every card by name; two copies of one card, by which copy each is, so
    # that neither key reads as the other (the numbers the state keeps them under say nothing)
    assert per_card.view(None)["counters"]["wounds"] == {"Rope (copy 2)": 3, "Bell": 1}
    per_card.apply("hurt Lamp")
    assert per_card.view(None)["counters"] == {"wounds": {"Lamp": 1, "Rope (copy 2)": 3, "Bell": 1},
                                               "marks": {"P1 at Lamp": 1}}


def test_a_copy_keeps_its_name_as_the_other_copies_come_and_go(per_card):
    # the first copy is written plain and the second as the second, whichever of them the row
    # holds: a key that changed its name as others were set would read as one gone and one new
    per_card.apply("hurt Rope")
    assert per_card.view(0)["counters"]["wounds"] == {"Rope": 1, HIDDEN: [1, 3]}
    assert per_card.view(0)["counters"]["marks"] == {"P1 at Rope": 1}
    assert per_card.view(None)["counters"]["wounds"] == {"Rope": 1, "Rope (copy 2)": 3, "Bell": 1}


def test_a_piece_made_later_renames_none_made_before_it(tmp_path):
    # a second Red Guard made in play is the second: the first keeps its name, as a change line
    # reads it before and after (it would have become "Red Guard (copy 1)")
    match = game_from_text(tmp_path, GUARDS).new_match(2, seed=0)
    assert match.view(None)["counters"]["alert"] == {"Red Guard": 1}
    match.apply("recruit")
    assert match.view(None)["counters"]["alert"] == {"Red Guard": 1, "Red Guard (copy 2)": 2}


def test_the_cards_a_seat_may_not_see_are_one_hidden_key(per_card):
    # P1 sees neither P2's Rope nor the Bell in the deck: their values, under one key, sorted,
    # never the cards' names nor their numbers (the Rope's number, 2, is less than the Bell's,
    # 3, and its value the greater: the list follows the values)
    view = per_card.view(0)
    assert view["counters"]["wounds"] == {HIDDEN: [1, 3]}
    text = json.dumps(view)
    assert "Rope" not in json.dumps(view["counters"]) and "Bell" not in text
    assert not any(key.isdigit() for key in view["counters"]["wounds"])
    # P2 holds its Rope: named to it, the deck's Bell hidden
    assert per_card.view(1)["counters"]["wounds"] == {"Rope (copy 2)": 3, HIDDEN: [1]}
    assert per_card.view((0, 1))["counters"]["wounds"] == {HIDDEN: [1, 3]}  # as the one that sees less


def test_a_card_laid_in_sight_is_named_in_the_counters_row(per_card):
    per_card.apply("hurt Lamp")
    per_card.apply("play Rope")
    assert per_card.view(0)["counters"]["wounds"] == {"Lamp": 1, "Rope (copy 2)": 3, HIDDEN: [1]}


def test_the_starts_of_per_card_keys_are_keyed_as_the_view_keys_them(per_card):
    from ludus.engine.view import counter_starts

    per_card.apply("hurt Lamp")
    assert counter_starts(per_card, 0) == {("wounds", "Lamp"): 0, ("wounds", HIDDEN): [0, 0], ("marks", "P1 at Lamp"): 0}
    assert counter_starts(per_card) == {("wounds", "Lamp"): 0, ("wounds", "Rope (copy 2)"): 0, ("wounds", "Bell"): 0,
                                        ("marks", "P1 at Lamp"): 0}


def test_a_seats_samples_show_its_per_card_counters_as_it_does(per_card):
    sampler = Determinizer(per_card, 0)
    rng = random.Random(5)
    for _ in range(10):
        assert sampler.sample(rng).view(0)["counters"] == per_card.view(0)["counters"]


# keys in the order the game makes them, not as texts: card 10 after card 2 ("10" < "2" as
# texts), a space where the board declares it (South before North), a pair by its seat first
ORDERED = '''game "Lamps"
players 2
board land:
    space South
    space North
zone table
card "Lamp":
    copies 12
counter lit per Card
counter glow per seat and Card
flag cold per space
flow:
    for each c in cards("Lamp"):
        move c to table
    for each c in cards("Lamp"):
        increase lit of c by 1
        increase glow of P2 at c by 1
    increase glow of P1 at item(cards("Lamp"), 10) by 1
    set cold of North to true
    set cold of South to true
    turn P1:
        choose n from 0 to 1 "go"
    end game
'''


def test_a_rows_keys_come_in_the_order_of_the_cards_spaces_and_seats(tmp_path):
    view = game_from_text(tmp_path, ORDERED).new_match(2, seed=0).view(None)["counters"]
    copies = ["Lamp"] + [f"Lamp (copy {k})" for k in range(2, 13)]
    assert list(view["lit"]) == copies
    assert list(view["glow"]) == ["P1 at Lamp (copy 10)"] + [f"P2 at {c}" for c in copies]
    assert list(view["cold"]) == ["South", "North"]


def test_a_choice_names_its_cards_to_the_seat_deciding_even_cards_it_may_not_see(tmp_path):
    # docs/language.md (Hidden information) says so, and that a pick that must not name them
    # is written `blind` (the Skull example's lost disc; tests/engine/test_blind_choose.py):
    # if options ever hide such cards without it, the doc changes
    game = game_from_text(tmp_path, '''game "Pile"
players 2
zone pile count only
card "Flower":
    copies 3
card "Skull"
flow:
    move box to pile
    shuffle pile
    choose d from pile by P2 "Which face-down disc is lost?"
    exile d
    end game
''')
    match = game.new_match(2, seed=0)
    assert sorted(match.legal_actions()) == ["Flower", "Skull"]
    assert sorted(match.view(1)["decision"]["options"]) == ["Flower", "Skull"]
    assert match.view(1)["zones"]["pile"] == {"count": 4}  # the pile itself shows P2 no card
