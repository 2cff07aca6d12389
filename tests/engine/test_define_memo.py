"""A define's value is remembered until something it reads changes, across decisions too.

Body runs are counted through the runtime's count of work: the define sums over a list of
seven, so each run of its body adds exactly 7 (nothing else in these games builds a list of seven).
"""

from __future__ import annotations

import pytest

import ludus
from ludus.engine.runtime import Runtime
from tests.helpers import game_from_text, work_charges

SOURCE = '''game "Memo"
players 2
counter a
counter b
zone pile
card "Pebble":
    copies 2
define sevens = sum(a for x in [1, 2, 3, 4, 5, 6, 7])
define in_zone(z) = size(z)
define through = sevens + 1
define pile_count = size(pile)
flow:
    move box to pile
    repeat 6 times:
        turn P1:
            choose n from 0 to 4 "sevens is {sevens}"
            if n == 1:
                increase a by 1
            if n == 2:
                increase b by 1
            if n == 3:
                move top(pile) to box
            if n == 4:
                increase a by 1
                log "seen: {sevens}"
                set b to a / b
            log "after: {sevens}, {through}, {in_zone(pile)}"
            log "pile: {pile_count}"
    win P1
'''


@pytest.fixture
def game(tmp_path):
    path = tmp_path / "memo.ludus"
    path.write_text(SOURCE, encoding="utf-8")
    return ludus.load(path)


@pytest.fixture
def runs(monkeypatch):
    """runs[7]: how many times the body of `sevens` has run so far (each run charges 7)."""
    return work_charges(monkeypatch)


def logged(m) -> list[str]:
    return [e["text"] for e in m.log if e["t"] == "log" and not e["text"].startswith("pile")]


def piles(m) -> list[str]:
    return [e["text"] for e in m.log if e["t"] == "log" and e["text"].startswith("pile")]


def test_a_define_is_read_again_after_what_it_reads_changes(game):
    m = game.new_match(2)
    assert m.pending["prompt"] == "P1: sevens is 0"
    m.apply("1")  # a goes up inside the turn: the log line after it must see it
    assert logged(m)[-1].startswith("after: 7, 8, ")
    assert m.pending["prompt"] == "P1: sevens is 7"
    m.apply("1")
    assert logged(m)[-1].startswith("after: 14, 15, ")
    assert m.pending["prompt"] == "P1: sevens is 14"


def test_a_zone_handed_to_a_define_counts_as_read(game):
    m = game.new_match(2)
    m.apply("0")
    assert logged(m)[-1] == "after: 0, 1, 2"
    m.apply("3")  # a card leaves the pile: in_zone(pile) must not stay 2
    assert logged(m)[-1] == "after: 0, 1, 1"
    assert piles(m) == ["pile: 2", "pile: 1"]


def test_a_change_to_something_else_keeps_the_value(game, runs):
    m = game.new_match(2)
    first = runs[7]
    assert first >= 1
    for _ in range(4):
        m.apply("2")  # only b changes: sevens reads a
    assert m.pending["prompt"] == "P1: sevens is 0"
    assert runs[7] == first  # not once more, over four decisions and their log lines


def test_a_define_whose_reads_are_unknown_is_read_again_after_any_change(game, runs):
    # what the compiler does for a define it cannot see through: it is dropped by every change
    m = game.new_match(2)  # the tables are made when a match first runs
    game.define_unknown = ("sevens",)
    game.define_drops = {dep: tuple(d for d in names if d != "sevens") + ("sevens",)
                         for dep, names in game.define_drops.items()}
    game.move_drops.clear()
    before = runs[7]
    m.apply("2")  # b changes, which sevens does not read as far as anyone can tell
    assert runs[7] > before
    again = runs[7]
    m.apply("0")  # nothing changes: the value is kept
    assert runs[7] == again


def test_undo_and_a_failed_move_leave_no_value_behind(game):
    m = game.new_match(2)
    m.apply("1")
    assert m.pending["prompt"] == "P1: sevens is 7"
    m.undo()
    assert m.pending["prompt"] == "P1: sevens is 0"
    m.apply("0")
    assert logged(m)[-1].startswith("after: 0, 1, ")
    with pytest.raises(ludus.RuleError, match="division by zero"):
        m.apply("4")  # a goes up and sevens is read as 7, then the move fails and is undone
    m.apply("0")
    assert logged(m)[-1].startswith("after: 0, 1, ")
    other = m.clone()
    other.apply("1")
    m.apply("0")  # the clone's change is not this match's
    assert logged(m)[-1].startswith("after: 0, 1, ")


def test_what_each_define_reads(game):
    game.new_match(2)  # the tables are made when a match first runs
    assert "sevens" in game.define_drops["a"] and "through" in game.define_drops["a"]
    assert "sevens" not in game.define_drops.get("b", ())
    assert "in_zone" in game.define_drops["$ents"]  # any zone may be handed to it
    assert "pile_count" in game.define_drops["@pile"] and "pile_count" not in game.define_drops["$ents"]
    assert game.define_unknown == ()


def test_a_state_changed_in_place_outside_the_rules_is_forgotten_on_request(game):
    # what an undo that puts the state back in place (not a new object) must do
    from ludus.engine import vm

    m = game.new_match(2)
    m.apply("0")
    assert logged(m)[-1].startswith("after: 0, 1, ")
    m.state["vars"]["a"] = 5
    vm.forget(game)
    m.apply("0")
    assert logged(m)[-1].startswith("after: 35, 36, ")


def test_a_state_changed_in_place_and_put_back_into_its_match_is_forgotten(game):
    m = game.new_match(2)
    m.apply("0")
    m.state["vars"]["a"] = 5
    m.state = m.state  # what Match.state asks of a change made in place
    m.apply("0")
    assert logged(m)[-1].startswith("after: 35, 36, ")


def test_without_the_tables_a_change_drops_every_define(game):
    m = game.new_match(2)
    game.define_drops = None  # as before the first match of a game runs
    rt = Runtime(game, m.state, [])
    rt.memo = {"sevens": {None: 0}, "through": {None: 1}}
    rt.set_var("b", None, 3)
    assert rt.memo == {}
    rt.memo = {"sevens": {None: 0}}
    rt.move_entity(m.state["places"]["pile"][0], "box")
    assert rt.memo == {}


READS = '''game "Reads"
players 2
counter a
counter b start a + 1
zone pile
kind Thing:
    worth: number = a * 3
card "Stone" is Thing:
    copies 1
board land:
    region North with bonus a * 2
define b_now = b
define worth_of(c) = c.worth
define bonus_here = North.bonus
flow:
    move box to pile
    repeat 3 times:
        turn P1:
            log "{b_now} {worth_of(top(pile))} {bonus_here}"
            choose n from 0 to 1 "go on?"
            increase a by 1
    win P1
'''


def test_a_start_value_a_kind_default_and_a_space_property_count_as_read(tmp_path):
    path = tmp_path / "reads.ludus"
    path.write_text(READS, encoding="utf-8")
    game = ludus.load(path)
    m = game.new_match(2)
    assert {"b_now", "worth_of", "bonus_here"} <= set(game.define_drops["a"])
    m.apply("0")
    m.apply("0")
    assert [e["text"] for e in m.log if e["t"] == "log"] == ["1 0 0", "2 3 2", "3 6 4"]


PLACES = '''game "Places"
players 2
board land:
    region North adjacent to South
    region South adjacent to North
token Stone
define stones_at(r) = sum(Stone at r for x in [1, 2, 3, 4, 5, 6, 7])
define everywhere = sum(Stone at r for r in [North, South])
flow:
    repeat 6 times:
        turn P1:
            choose n from 0 to 2 "{stones_at(North)} {stones_at(South)} {everywhere}"
            if n == 1:
                add 1 Stone to North
            if n == 2:
                add 1 Stone to South
    win P1
'''


@pytest.fixture
def places(tmp_path):
    path = tmp_path / "places.ludus"
    path.write_text(PLACES, encoding="utf-8")
    return ludus.load(path)


def test_a_token_change_at_one_place_keeps_a_define_s_values_for_other_places(places, runs):
    m = places.new_match(2)
    assert m.pending["prompt"] == "P1: 0 0 0"
    assert places.define_token_places["Stone"]["stones_at"] == 0  # its first argument is the place
    first = runs[7]
    assert first == 2  # stones_at(North) and stones_at(South)
    m.apply("1")  # a stone in the North: only stones_at(North) is worked out again
    assert m.pending["prompt"] == "P1: 7 0 1"  # seven times the stones there, by the sum
    assert runs[7] == first + 1
    m.apply("2")
    assert m.pending["prompt"] == "P1: 7 7 2"
    assert runs[7] == first + 2
    m.apply("0")  # nothing changes
    assert m.pending["prompt"] == "P1: 7 7 2"
    assert runs[7] == first + 2


NEAR = '''game "Near"
players 2
board land:
    region North adjacent to South
    region South adjacent to North, East
    region East adjacent to South
token Stone
define near(r) = sum(Stone at a for a in adjacent(r)) + sum(0 for x in [1, 2, 3, 4, 5, 6, 7])
define far(r) = sum(near(a) for a in adjacent(r)) + sum(0 for x in [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11])
define total = sum(Stone at r for r in regions)
flow:
    repeat 6 times:
        turn P1:
            choose n from 0 to 3 "{far(North)} {near(North)} {near(South)} {near(East)} {far(East)}"
            if n == 1:
                add 1 Stone to North
            if n == 2:
                add 1 Stone to South
            if n == 3:
                add 1 Stone to East
    win P1
'''


@pytest.fixture
def reads(tmp_path):
    return game_from_text(tmp_path, NEAR)


def test_a_define_reading_places_it_works_out_keeps_its_values_for_places_it_did_not_read(reads, runs):
    # near(r) reads the places next to r, found as it runs; far(r) reads them through near,
    # whose places it read too, whether near was worked out inside it (far(North), first in
    # the text) or remembered already (far(East) comes after near(South))
    from ludus.compiler.pysource import ENABLED
    from ludus.engine.runtime import READ

    m = reads.new_match(2)
    assert m.pending["prompt"] == "P1: 0 0 0 0 0"
    if ENABLED:  # the closures (LUDUS_CLOSURES=1) drop these defines at any change of Stone
        assert reads.define_token_places["Stone"] == {"near": READ, "far": READ}  # `total` reads every region
    counted = [(runs[7], runs[11])]
    m.apply("1")  # a stone in the North: near(South) read it, and so did both far
    assert m.pending["prompt"] == "P1: 1 0 1 0 1"
    counted.append((runs[7], runs[11]))
    m.apply("2")  # in the South: near(North) and near(East) read it; far read near(South) only
    assert m.pending["prompt"] == "P1: 1 1 1 1 1"
    counted.append((runs[7], runs[11]))
    m.apply("3")  # in the East: near(South) and both far again
    assert m.pending["prompt"] == "P1: 2 1 2 1 2"
    counted.append((runs[7], runs[11]))
    m.apply("0")  # nothing changes
    assert m.pending["prompt"] == "P1: 2 1 2 1 2"
    counted.append((runs[7], runs[11]))
    if ENABLED:
        assert counted == [(3, 2), (4, 4), (6, 4), (7, 6), (7, 6)]


def test_a_value_that_read_many_places_goes_at_any_change():
    from ludus.engine.runtime import MAX_READS, READ_AT, READS, index_reads

    known: dict = {}
    index_reads(known, "few", ["A", "B", "A", 3])
    index_reads(known, "many", [f"P{i}" for i in range(MAX_READS + 1)])
    index_reads(known, "same", ["A"] * (MAX_READS + 1))  # many reads of few places
    assert known[READ_AT] == {"A": {"few", "same"}, "B": {"few"}, "#3": {"few"}, None: {"many"}}
    assert known[READS]["many"] == [None]  # what a define reading it read: everything



def test_a_define_reading_places_records_its_own_parameter_too(tmp_path):
    # around(r) reads Stone at r itself and at the places next to it, found as it runs
    around = NEAR.replace('"{far(North)} {near(North)} {near(South)} {near(East)} {far(East)}"',
                          '"{around(North)} {around(East)}"').replace(
        "define total", "define around(r) = Stone at r * 10 + sum(Stone at a for a in adjacent(r))\ndefine total")
    m = game_from_text(tmp_path, around).new_match(2)
    assert m.pending["prompt"] == "P1: 0 0"
    m.apply("1")  # a stone in the North
    assert m.pending["prompt"] == "P1: 10 0"
    m.apply("3")  # and in the East
    assert m.pending["prompt"] == "P1: 10 10"
    m.apply("2")  # and in the South, next to both
    assert m.pending["prompt"] == "P1: 11 11"
