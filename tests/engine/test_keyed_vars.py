"""Counters, flags and vars kept per a set of keys: `counter played per colour` and `var best per
seat and colour`, keyed by the texts of `value colours` as a zone family is, and read as
`played of c.colour`, `best of s at "red"`."""

from __future__ import annotations

import json

import pytest

import ludus
from ludus.compiler import pysource
from ludus.engine.effect import changes, facts, unset_values
from ludus.engine.match import Match

SOURCE = '''game "Keyed"
players 2

value colours = ["yellow", "blue", "red"]
counter played per colour
var best per seat and colour start 0
flag seen per colour
counter turns per colour resets each round
counter changes

kind Card:
    colour: text
    number: number

card "Red 3" is Card:
    colour "red"
    number 3

card "Blue 4" is Card:
    colour "blue"
    number 4

card "Yellow 2" is Card:
    colour "yellow"
    number 2

card "Grey 1" is Card:
    colour "grey"
    number 1

zone hand per seat

when played changes:
    increase changes by 1
    log "played {key}: {old} to {new}"

when turns changes:
    log "turns {key}: {old} to {new}"

action Play(c in hand):
    label "play {c}"
    increase played of c.colour by 1
    set best of actor at c.colour to c.number + best of actor at c.colour
    set seen of c.colour to true
    increase turns of c.colour by 1
    move c to box

action Peek(c in hand):
    label "peek {c}"
    log "{played of c.colour}"

flow:
    move box to hand of P1
    for round in 1 to 2:
        repeat 2 times:
            turn P1:
                offer Play, Peek
    end game
'''


@pytest.fixture(params=[True, False], ids=["generated", "closures"])
def game(request, tmp_path, monkeypatch):
    """The game compiled to Python source and to closures: both check the keys."""
    monkeypatch.setattr(pysource, "ENABLED", request.param)
    path = tmp_path / "keyed.ludus"
    path.write_text(SOURCE, encoding="utf-8")
    return ludus.load(path)


def test_each_key_has_its_own_value_shown_in_the_order_of_the_keys(game):
    m = game.new_match(2, seed=0)
    m.apply("play Red 3")
    m.apply("play Blue 4")
    counters = m.view()["counters"]
    assert counters["played"] == {"blue": 1, "red": 1}  # blue before red, as `colours` lists them
    assert list(counters["played"]) == ["blue", "red"]
    assert counters["best"] == {"P1 at blue": 4, "P1 at red": 3}
    assert counters["seen"] == {"blue": True, "red": True}
    assert json.loads(m.to_json())["state"]["vars"] == {
        "best@0|blue": 4, "best@0|red": 3, "changes": 2, "played@blue": 1, "played@red": 1,
        "seen@blue": True, "seen@red": True}
    value = ludus.testing.position.compile_expression(
        game, '[played of "red", played of "yellow", best of P1 at "blue", best of P2 at "blue"]', "<t>", 1, 1)(m)[0]
    assert value == [1, 0, 4, 0]


def test_a_trigger_is_given_the_key_as_its_text_and_a_reset_goes_in_the_order_of_the_keys(game):
    m = game.new_match(2, seed=0)
    m.apply("play Red 3")
    m.apply("play Yellow 2")
    assert [e["text"] for e in m.log if e["t"] == "log"] == [
        "played red: 0 to 1", "turns red: 0 to 1", "played yellow: 0 to 1", "turns yellow: 0 to 1",
        "turns yellow: 1 to 0", "turns red: 1 to 0"]  # yellow first, as `colours` lists it
    assert m.view()["counters"]["changes"] == 2


def test_keys_survive_save_and_load(game):
    m = game.new_match(2, seed=0)
    m.apply("play Blue 4")
    loaded = Match.from_json(game, m.to_json())
    assert loaded.view()["counters"] == m.view()["counters"]
    loaded.apply("play Red 3")
    assert loaded.view()["counters"]["played"] == {"blue": 1, "red": 1}


@pytest.mark.parametrize("move", ["play Grey 1", "peek Grey 1"])
def test_a_key_the_set_lacks_stops_the_rule_naming_the_keys(game, move):
    m = game.new_match(2, seed=0)
    with pytest.raises(ludus.RuleError) as err:
        m.apply(move)
    assert "'played' has no key 'grey': its keys are the colours, yellow, blue, red" in str(err.value)


def test_a_first_change_is_reported_from_the_start_of_that_key(game):
    m = game.new_match(2, seed=0)
    before = facts(m)
    m.apply("play Red 3")
    after = facts(m)
    assert "counter played of red: 0 -> 1" in changes(before, after, unset_values(m, before))
