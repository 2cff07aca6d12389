"""Runtime.move_entities moves a list of cards exactly as moving them one at a time does (what
it does once for the whole list, it would do for each card): the same places in the same
order, the same owners, the same names marked changed, the same define values dropped."""

from __future__ import annotations

import copy
import random

import pytest

from ludus.engine.runtime import RuleError, Runtime
from tests.helpers import game_from_text

TEXT = """game "M"
players 2
zone deck
zone hand per seat
zone pile
card "Stone":
    copies 9
define in_pile = size(pile)
define in_deck = size(deck)
setup:
    move box to deck
flow:
    end game
"""


def _runtime(game, state):
    rt = Runtime(game, state, [])
    rt.memo = {"in_pile": {(None,): 0}, "in_deck": {(None,): 9}}
    return rt


@pytest.mark.parametrize("seed", range(12))
def test_moving_a_list_is_moving_each_card_in_turn(tmp_path, seed):
    game = game_from_text(tmp_path, TEXT)
    start = game.new_match(2, seed=seed).state
    rng = random.Random(seed)
    # spread the cards over places first, one of them out of every place
    spread = copy.deepcopy(start)
    rt = Runtime(game, spread, [])
    for eid in range(9):
        rt.move_entity(eid, rng.choice(["deck", "pile", "hand@0", "hand@1"]), rng.random() < 0.5)
    spread["places"][spread["ents"][4]["l"]].remove(4)
    spread["ents"][4]["l"] = None
    cards = [rng.randrange(9) for _ in range(rng.randrange(2, 8))]  # repeats, and cards already there
    dest, bottom = rng.choice(["pile", "hand@1", "deck"]), rng.random() < 0.5

    one, many = copy.deepcopy(spread), copy.deepcopy(spread)
    rt_one, rt_many = _runtime(game, one), _runtime(game, many)
    for eid in cards:
        rt_one.move_entity(eid, dest, bottom)
    rt_many.move_entities(cards, dest, bottom)
    assert many == one
    assert rt_many.changed == rt_one.changed
    assert rt_many.memo == rt_one.memo


def test_moving_no_card_makes_no_place(tmp_path):
    game = game_from_text(tmp_path, TEXT)
    state = game.new_match(2).state
    before = copy.deepcopy(state)
    Runtime(game, state, []).move_entities([], "hand@0")
    assert state == before


def test_none_where_a_card_is_needed_is_named_as_the_rules_write_it(tmp_path):
    # as 'owner_of' says it: not "#None", Python's name, which no rule writes
    game = game_from_text(tmp_path, TEXT)
    rt = Runtime(game, game.new_match(2, seed=0).state, [])
    for reach in (lambda: rt.ent(None), lambda: rt.move_entity(None, "pile"), lambda: rt.field(None, "cost"),
                  lambda: rt.set_field(None, "cost", 1)):
        with pytest.raises(RuleError) as err:
            reach()
        assert err.value.message == "a card or piece is needed here, and the value here is none"
    with pytest.raises(RuleError) as err:  # a number that is no card's keeps its number
        rt.ent(99)
    assert err.value.message == "no card or piece #99"
