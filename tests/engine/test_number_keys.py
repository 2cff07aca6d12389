"""A set of keys may be whole numbers (`value numbers = [5, 1, 2]`), for a zone family, a token
family and a counter alike: keys are compared as numbers, shown as their digits, in the list's
order."""

from __future__ import annotations

import json

import pytest

import ludus
from ludus.compiler import pysource
from ludus.engine.match import Match

SOURCE = '''game "Numbers"
players 2

value numbers = [5, 1, 2]
counter played per number
var last per seat and number
token Told per number
zone pile per number

kind Card:
    number: number

card "One" is Card:
    number 1

card "Five" is Card:
    number 5

card "Nine" is Card:
    number 9

zone hand per seat

when played changes:
    log "played {key + 10}: {old} to {new}"

action Play(c in hand):
    label "play {c}"
    increase played of c.number by 1
    set last of actor at c.number to c.number
    add 1 Told of c.number to c
    move c to pile of c.number

flow:
    move box to hand of P1
    repeat 2 times:
        turn P1:
            offer Play
    end game
'''


@pytest.fixture(params=[True, False], ids=["generated", "closures"])
def game(request, tmp_path, monkeypatch):
    monkeypatch.setattr(pysource, "ENABLED", request.param)
    path = tmp_path / "numbers.ludus"
    path.write_text(SOURCE, encoding="utf-8")
    return ludus.load(path)


def test_number_keys_are_kept_shown_and_read_in_the_lists_order(game):
    m = game.new_match(2, seed=0)
    m.apply("play One")
    m.apply("play Five")
    view = m.view()
    assert list(view["counters"]["played"].items()) == [("5", 1), ("1", 1)]  # 5 first, as `numbers` lists it
    assert view["counters"]["last"] == {"P1 at 5": 5, "P1 at 1": 1}
    assert view["zones"]["pile 1"] == ["One"] and view["zones"]["pile 5"] == ["Five"]
    state = json.loads(m.to_json())["state"]
    assert state["vars"]["played@1"] == 1 and state["tokens"] == {"Told 1||#0": 1, "Told 5||#1": 1}
    # a trigger's key is the number itself
    assert [e["text"] for e in m.log if e["t"] == "log"] == ["played 11: 0 to 1", "played 15: 0 to 1"]
    read = ludus.testing.position.compile_expression(
        game, "[played of 1, played of 2, Told of 5 at card(\"Five\"), size(pile of 5)]", "<t>", 1, 1)
    assert read(m)[0] == [1, 0, 1, 1]
    assert Match.from_json(game, m.to_json()).view() == view


def test_a_number_the_set_lacks_stops_the_rule(game):
    m = game.new_match(2, seed=0)
    with pytest.raises(ludus.RuleError, match="'played' has no key 9: its keys are the numbers, 5, 1, 2"):
        m.apply("play Nine")


def test_a_saved_key_that_is_no_number_of_the_set_is_refused(game):
    m = game.new_match(2, seed=0)
    m.apply("play One")
    data = json.loads(m.to_json())
    data["state"]["vars"]["played@01"] = 1
    with pytest.raises(ludus.MatchError, match="is kept per number, and '01' names no such thing"):
        Match.from_json(game, json.dumps(data))
