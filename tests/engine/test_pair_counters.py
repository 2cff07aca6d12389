"""Counters kept per pair: `counter progress per seat and column`, read as `progress of s at c`."""

from __future__ import annotations

import json

import ludus
from ludus.engine.match import Match

SOURCE = '''game "Columns"
players 2
board columns:
    column C2 "2"
    column C3 "3"
counter progress per seat and column start (if seat == P2 then 1 else 0) max 3
flow:
    for each s in seats:
        turn s:
            choose c from columns "Which column do you climb?"
            increase progress of s at c by 2
    end game
'''


def game(tmp_path):
    path = tmp_path / "columns.ludus"
    path.write_text(SOURCE, encoding="utf-8")
    return ludus.load(path)


def test_each_pair_has_its_own_value_its_start_and_its_limits(tmp_path):
    g = game(tmp_path)
    m = g.new_match(2, seed=0)
    m.apply("C3")                 # P1 climbs column 3 by 2
    m.apply("C3")                 # P2 starts at 1 (its start), climbs by 2, held at the max of 3
    view = m.view()["counters"]["progress"]
    assert view == {"P1 at C3": 2, "P2 at C3": 3}
    value = ludus.testing.position.compile_expression(g, "[progress of P1 at C2, progress of P1 at C3, progress of P2 at C2]",
                                                      "<t>", 1, 1)(m)[0]
    assert value == [0, 2, 1]


def test_pairs_survive_save_and_load(tmp_path):
    g = game(tmp_path)
    m = g.new_match(2, seed=0)
    m.apply("C2")
    loaded = Match.from_json(g, m.to_json())
    assert loaded.view()["counters"]["progress"] == {"P1 at C2": 2}
    assert json.loads(m.to_json())["state"]["vars"] == {"progress@0|C2": 2}


def test_a_first_change_is_reported_from_the_start_of_that_key(tmp_path):
    # a key of a pair counter is in the state only once set: an effect report (a test's
    # snapshot) used to read its first change as "none -> 3", whatever its start was
    from ludus.engine.effect import changes, facts, unset_values

    match = game(tmp_path).new_match(2)
    match.apply("C3")
    before = facts(match)
    match.apply("C3")  # P2, whose start is 1
    after = facts(match)
    assert changes(before, after, unset_values(match, before)) == [
        "result: playing -> no one wins (end game, flow)", "counter progress of P2 at C3: 1 -> 3"]


CARD_PAIRS = '''game "Links"
players 2
zone table
card "{a}"
card "{b}"
card "{c}"
card "{d}"
counter links per Card and Card
setup:
    move Cards to table
flow:
    increase links of card("{a}") at card("{b}") by 1
    increase links of card("{c}") at card("{d}") by 2
    turn P1:
        choose x from [1, 2]
    end game
'''


def test_two_pairs_of_cards_never_read_alike(tmp_path):
    # joined by a space, "A B" with "C" and "A" with "B C" were both "A B C": one value hid the other
    path = tmp_path / "links.ludus"
    path.write_text(CARD_PAIRS.format(a="A B", b="C", c="A", d="B C"), encoding="utf-8")
    view = ludus.load(path).new_match(2).view()["counters"]["links"]
    assert view == {"A B at C": 1, "A at B C": 2}
    # a name that holds the word between the two itself: each card of the pair in quotes
    path.write_text(CARD_PAIRS.format(a="A at B", b="C", c="A", d="B at C"), encoding="utf-8")
    view = ludus.load(path).new_match(2).view()["counters"]["links"]
    assert view == {'"A at B" at "C"': 1, '"A" at "B at C"': 2}


MARKS = '''game "Marks"
players 2
board columns:
    column C2 "2"
    column C3 "3"
    column C4 "4"
counter marks per column
flow:
    for each c in columns:
        increase marks of c by 1
    turn P1:
        choose x from [1, 2]
    end game
'''


def test_keys_of_spaces_are_listed_by_the_order_kept_on_the_game(tmp_path):
    # the spaces' places are made once with the game, not again for every keyed row of every
    # view: a view follows game.space_order (here turned round)
    path = tmp_path / "marks.ludus"
    path.write_text(MARKS, encoding="utf-8")
    g = ludus.load(path)
    assert g.space_order == {"C2": 0, "C3": 1, "C4": 2}
    m = g.new_match(2)
    assert list(m.view()["counters"]["marks"]) == ["C2", "C3", "C4"]
    g.space_order = {"C4": 0, "C3": 1, "C2": 2}
    assert list(m.view()["counters"]["marks"]) == ["C4", "C3", "C2"]
