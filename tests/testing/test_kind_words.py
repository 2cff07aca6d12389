"""An effect report names each thing of the state by the word that declares it: a flag is a
`flag`, a var a `var`, a counter a `counter` (and a track a `track`), whether it is kept for
the whole game, per seat or per space. A report that called them all "counter" told a designer
the wrong kind of thing."""

from __future__ import annotations

from ludus.engine.effect import changes, facts, unset_values
from ludus.testing import Position
from tests.helpers import game_from_text

WORDS = '''game "Words"
players 2
board map:
    region North adjacent to South
    region South adjacent to North
counter score per seat
counter turns
flag ready
flag bold per seat
var leader: seat start none
var motto: text start "none yet"
var owner per region: seat start none
flag lit per region
track heat from 0 to 5 start 0
kind Spell:
    power: number = 0
card "Spark" is Spell:
    on play:
        set score of P2 to 3
        set turns to 1
        set ready to true
        set bold of P1 to true
        set leader to P2
        set motto to "onward"
        set owner of North to P1
        set lit of South to true
        set heat to 2
flow:
    turn P1:
        choose n from 0 to 1 "Go?"
    end game
'''


def position(tmp_path) -> Position:
    return Position(game_from_text(tmp_path, WORDS), 2)


def test_each_kind_of_value_is_named_by_its_own_word(tmp_path):
    pos = position(tmp_path)
    pos.resolve("Spark", "P1")
    assert pos.effect().changes == [
        "counter score of P2: 0 -> 3",
        "counter turns: 0 -> 1",
        "flag ready: false -> true",
        "flag bold of P1: false -> true",
        "var leader: none -> P2",
        "var motto: none yet -> onward",
        "track heat: 0 -> 2",
        # keys kept per space, set for the first time: after the rest, each from its start
        "var owner of North: none -> P1",
        "flag lit of South: false -> true",
    ]


def test_the_words_name_the_facts_themselves(tmp_path):
    # the names a report compares by (facts), and those of a per-space key not set yet
    # (unset_values), use the same words, so a first change is still read from the start
    pos = position(tmp_path)
    match = pos.match
    names = list(facts(match))
    for name in ("counter score of P1", "counter turns", "flag ready", "flag bold of P2", "var leader",
                 "var motto", "track heat"):
        assert name in names
    assert not [n for n in names if n.startswith("counter ") and n.split()[1] not in ("score", "turns")]
    before = facts(match)
    pos.given("set owner of South to P2")
    pos.given("set lit of North to true")
    assert unset_values(match, before) == {"var owner of South": None, "flag lit of North": False}
    assert changes(before, facts(match), unset_values(match, before)) == [
        "var owner of South: none -> P2", "flag lit of North: false -> true"]
