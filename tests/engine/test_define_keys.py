"""Each define's remembered values are kept under keys of its own layout (pysource.memo_key;
generated code writes them into each define's function): these would break if a key left out
what the value depends on, or told apart calls whose values are the same. Each test runs with
generated code and with the closures, which share one table per define.

Body runs are counted through the runtime's count of work: each define counted sums over a
list of a length no other list in the game has (`sevens` 7, `stones_of` 5, `marks_on` 6)."""

from __future__ import annotations

import pytest

import ludus
from ludus.compiler import pysource
from ludus.engine.runtime import PLACES
from tests.helpers import game_from_text, work_charges

SOURCE = '''game "Keys"
players 2
counter coins per seat start 3
token Stone per seat
token Mark
board land:
    region North adjacent to South
    region South adjacent to North
kind Gem:
    power: number = 1
card "Ruby" is Gem:
    power 4
    on play:
        log "ruby {power_of(this)} {sevens}"
card "Opal" is Gem:
    power 9
    on play:
        log "opal {power_of(this)} {sevens}"
define ruby = card("Ruby")
define opal = card("Opal")
define sevens = sum(1 for x in [1, 2, 3, 4, 5, 6, 7])
define power_of(c) = c.power
define doubled = coins * 2
define shown(x) = "{x}"
define stones_of(s, r) = Stone of s at r + sum(0 for x in [1, 2, 3, 4, 5])
define marks_on(c) = Mark at c + sum(0 for x in [1, 2, 3, 4, 5, 6])
flow:
    turn P1:
        increase coins by 2
    turn P1:
        log "P1 {doubled}"
    turn P2:
        log "P2 {doubled}"
    turn P1:
        log "P1 {doubled}"
    resolve play of ruby
    resolve play of opal
    log "{shown(true)} {shown(1)} {shown([1, 2])} {shown(1)} {shown(true)} {shown(false)} {shown(0)}"
    add 1 Mark to ruby
    repeat 3 times:
        turn P1:
            choose n from 0 to 2 "{stones_of(P1, North)} {stones_of(P1, South)} {stones_of(P2, North)} {marks_on(ruby)} {marks_on(opal)}"
            if n == 1:
                add 1 Stone of P1 to North
            if n == 2:
                add 1 Mark to opal
    win P1
'''


@pytest.fixture(params=[True, False], ids=["generated", "closures"])
def game(request, tmp_path, monkeypatch):
    monkeypatch.setattr(pysource, "ENABLED", request.param)
    path = tmp_path / "keys.ludus"
    path.write_text(SOURCE, encoding="utf-8")
    return ludus.load(path)


@pytest.fixture
def runs(monkeypatch):
    """Every amount of work the runtime has been charged with, counted: a define's body run
    charges the length of its list."""
    return work_charges(monkeypatch)


def logged(m) -> list[str]:
    return [e["text"] for e in m.log if e["t"] == "log"]


def test_a_define_that_reads_a_seat_gives_each_seat_its_own_value(game):
    m = game.new_match(2)
    # `doubled` reads the acting seat's coins: P2's value is not P1's remembered one
    assert logged(m)[:3] == ["P1 10", "P2 6", "P1 10"]


def test_defines_in_two_cards_effects_give_each_card_its_value_and_share_the_rest(game, runs):
    m = game.new_match(2)
    assert logged(m)[3:5] == ["ruby 4 7", "opal 9 7"]
    # `this` is no part of a key: `sevens` in the second card's effect is the first's value
    assert runs[7] == 1


def test_a_bool_and_a_list_argument_are_not_taken_for_a_number(game):
    m = game.new_match(2)
    # true is 1 to a dict and a list is no key: neither is remembered, and neither hides 1
    assert logged(m)[5] == "yes 1 1, 2 1 yes no 0"


def test_a_token_change_at_one_place_drops_the_values_for_that_place_only(game, runs):
    m = game.new_match(2)
    assert m.pending["prompt"] == "P1: 0 0 0 1 0"
    assert game.define_token_places == {"Stone": {"stones_of": 1}, "Mark": {"marks_on": 0}}
    stones, marks = runs[5], runs[6]
    assert (stones, marks) == (3, 2)
    m.apply("1")  # a stone in the North: stones_of(P1, North) and stones_of(P2, North) again
    assert m.pending["prompt"] == "P1: 1 0 0 1 0"
    assert (runs[5], runs[6]) == (stones + 2, marks)
    m.apply("2")  # a mark on a card: only marks_on of that card again
    assert m.pending["prompt"] == "P1: 1 0 0 1 1"
    assert (runs[5], runs[6]) == (stones + 2, marks + 1)


def test_generated_code_and_the_closures_keep_the_same_keys(game):
    from ludus.engine import vm

    m = game.new_match(2)
    memo = vm.memo_for(game, m._state)  # the values kept for the match's state (read, not handed out)
    assert set(memo["stones_of"]) - {PLACES} == {(0, "North"), (0, "South"), (1, "North")}  # two arguments: a tuple
    assert set(memo["marks_on"]) - {PLACES} == {card_id(m, "Ruby"), card_id(m, "Opal")}  # one: itself
    assert set(memo["doubled"]) == {(0, 0), (1, 1)}  # who acts and whose turn it is, then no argument
    assert set(memo["sevens"]) == {()}


def card_id(m, name: str) -> int:
    return next(i for i, e in enumerate(m.state["ents"]) if e["d"] == name)


HANDED = '''game "Handed"
players 2
define shown(x) = "{x}"
define handed(x) = shown(x)
define twice(x) = handed(x) + " " + handed(x)
flow:
    turn P1:
        log "{twice(1)} {twice(true)} {twice(0)} {twice(false)} {handed(1)} {handed(true)}"
    win P1
'''


MIXED = '''game "Mixed"
players 2
value mixed = [1, true, 0, false]
value plain = [2, "two", 2]
define shown(x) = "{x}"
flow:
    turn P1:
        log "{[shown(v) for v in mixed]} / {[shown(v) for v in plain]}"
    win P1
'''


@pytest.mark.parametrize("generated", [True, False])
@pytest.mark.parametrize(("text", "logged"), [
    # shown is called with handed's parameter, handed with twice's: each lookup tests what a
    # call of its caller may hand it, which a bool written at the outer call reaches
    (HANDED, "1 1 yes yes 0 0 no no 1 yes"),
    # a loop over a list of numbers and texts only reads its calls' values from their tables
    # directly; one with true or false in it must not
    (MIXED, "1, yes, 0, no / 2, two, 2"),
], ids=["handed on through parameters", "a loop over a list with true in it"])
def test_true_is_not_taken_for_1(tmp_path, monkeypatch, generated, text, logged):
    # true is 1 to a dict: a define's value for one must not be found for the other
    monkeypatch.setattr(pysource, "ENABLED", generated)
    m = game_from_text(tmp_path, text).new_match(2)
    assert [e["text"] for e in m.log if e["t"] == "log"] == [logged]
