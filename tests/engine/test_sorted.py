"""`sorted(KEY for X in LIST where COND)`: the elements of LIST by a number or a text, lowest first,
ties kept in LIST's order; in the rules (compiled to Python source) and in a test's expectations
(compiled to closures) alike (docs/language.md, Expressions)."""

from __future__ import annotations

import pytest

import ludus
from ludus.compiler.probe import compile_expression
from ludus.engine.runtime import RuleError

SOURCE = '''game "Sorted"
players 3
counter bid per seat
zone hand per seat
kind Card:
    rank: number
card "Nine":
    rank 9
card "Two":
    rank 2
card "Five":
    rank 5
card "Other Five":
    rank 5
var order: list of seat start []
define odd(c) = if c.rank == 9 then "nine" else c.rank
define nine(c) = if c.rank == 9 then true else c.rank
setup:
    move Cards to the bottom of hand of P1
flow:
    for each s in seats:
        turn s:
            choose b from 0 to 3 "Bid?"
            set bid of s to b
    # the lowest bid acts first; a tie keeps seat order
    set order to sorted(bid of s for s in seats)
    move sorted(-c.rank for c in hand of P1 where c.rank > 2) to the bottom of hand of P1
    # by name: texts in character order
    move sorted(c.name for c in hand of P1 where c.rank == 5) to the bottom of hand of P1
    win first(order)
'''


@pytest.fixture
def game(tmp_path):
    path = tmp_path / "sorted.ludus"
    path.write_text(SOURCE, encoding="utf-8")
    return ludus.load(path)


def value(game, match, text):
    return compile_expression(game, text)(match)[0]


def test_sorted_orders_by_a_number_and_keeps_ties_in_the_list_s_order(game):
    m = game.new_match(3)
    for bid in ("2", "0", "2"):
        m.apply(bid)
    assert m.result["winners"] == ["P2"]
    assert m.view(None)["counters"]["order"] == ["P2", "P1", "P3"]
    # the rules moved the cards over 2 to the bottom, highest first (Five before Other Five, as
    # the hand held them), then the two fives by name
    assert list(m.view(None)["zones"]["hand of P1"]) == ["Two", "Nine", "Five", "Other Five"]
    names = "[c.name for c in sorted(c.rank for c in Cards)]"
    assert value(game, m, names) == ["Two", "Five", "Other Five", "Nine"]
    assert value(game, m, "[c.name for c in sorted(-c.rank for c in Cards where c.rank >= 5)]") == [
        "Nine", "Five", "Other Five"]
    assert value(game, m, "sorted(c.rank for c in Cards where c.rank > 100)") == []


def test_sorted_orders_texts_by_their_characters(game):
    m = game.new_match(3)
    assert value(game, m, "[c.name for c in sorted(c.name for c in Cards)]") == [
        "Five", "Nine", "Other Five", "Two"]
    # ties keep the list's order, as for numbers
    assert value(game, m, '[c.name for c in sorted(if c.rank == 5 then "b" else "a" for c in Cards)]') == [
        "Nine", "Two", "Five", "Other Five"]


def test_sorting_numbers_with_texts_stops_the_rule_with_an_error(game):
    m = game.new_match(3)
    with pytest.raises(RuleError, match="'sorted' orders numbers with numbers and texts with texts, "
                                        "and cannot compare 'nine' with 2"):
        value(game, m, "sorted(odd(c) for c in Cards)")


def test_sorting_by_what_is_neither_a_number_nor_a_text_stops_the_rule_with_an_error(game):
    m = game.new_match(3)
    with pytest.raises(RuleError, match="the sorted value should be a number or a text, and it is True"):
        value(game, m, "sorted(nine(c) for c in Cards)")


PLAIN = '''game "Plain"
players 2
var bids: list of number start []
var words: list of text start []
define named = sorted(["pear", "Apple", "fig"])
flow:
    set bids to sorted([3, 1, 2, 1])
    set words to named
    end game
'''


def test_a_plain_list_of_numbers_or_of_texts_sorts_by_itself(tmp_path):
    path = tmp_path / "plain.ludus"
    path.write_text(PLAIN, encoding="utf-8")
    game = ludus.load(path)
    m = game.new_match(2)
    # in the rules (generated code) and in a test's expectations (closures) alike
    assert m.view(None)["counters"]["bids"] == [1, 1, 2, 3]
    assert m.view(None)["counters"]["words"] == ["Apple", "fig", "pear"]
    assert value(game, m, "sorted([5, 2, 9])") == [2, 5, 9]
    assert value(game, m, "sorted(bids)") == [1, 1, 2, 3]
    assert value(game, m, "sorted([])") == []
    with pytest.raises(RuleError, match="'sorted' orders numbers with numbers and texts with texts"):
        value(game, m, 'sorted([1, "a"])')


# Through a parameter without a type the checker cannot see what a list holds, nor can the match
# (a seat is its number, a card its number in the match, a space its name): `sorted` orders the
# plain data, seats in seat order, cards in the order the game makes them (whatever order a
# shuffle left them in), spaces by name. Declared, the type makes it the checker's error.
UNTYPED = '''game "Untyped"
players 3
board land:
    region South
    region North
zone deck
card "Two"
card "One"
card "Three"
define tidy(xs) = sorted(xs)
rule show(xs):
    log "{sorted(xs)}"
setup:
    move Cards to deck
    shuffle deck
flow:
    log "{tidy([P3, P1, P2])}"
    show([P3, P1, P2])
    log "{[c.name for c in tidy(deck)]}"
    log "{tidy(regions)}"
    end game
'''


def test_sorted_through_a_parameter_without_a_type_orders_plain_data(tmp_path):
    path = tmp_path / "untyped.ludus"
    path.write_text(UNTYPED, encoding="utf-8")
    assert [d.message for d in ludus.analyse(path)[0]] == []
    for seed in range(3):
        m = ludus.load(path).new_match(3, seed=seed)
        # the define's value is shown as the call's type, seats by name; the rule's parameter,
        # given seats and read by `sorted`, which would refuse them, keeps no type (numbers)
        assert [e["text"] for e in m.log if e["t"] == "log"] == [
            "P1, P2, P3", "0, 1, 2", "Two, One, Three", "North, South"]
    typed = UNTYPED.replace("define tidy(xs)", "define tidy(xs: list of seat)")
    path.write_text(typed, encoding="utf-8")
    assert [d.message for d in ludus.analyse(path)[0] if d.severity == "error"] == [
        "'sorted' orders a list of numbers or of texts by their own values, not a list of seats: order "
        "other things by a number or a text worked out for each, as in 'sorted(c.rank for c in hand)'"]
