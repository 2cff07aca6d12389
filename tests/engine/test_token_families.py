"""Tokens kept per a set of keys: `token Told per colour` is a family of tokens, one per colour
(`Told red`, ...), owned by no one, named by its key with `of` (`add 1 Told of c.colour to c`,
`Told of c.colour at c`), as a zone family's members are."""

from __future__ import annotations

import json

import pytest

import ludus
from ludus.compiler import pysource
from ludus.engine.match import Match

SOURCE = '''game "Told"
players 2

value colours = ["red", "blue"]
token Told per colour

kind Card:
    colour: text

card "Red A" is Card:
    colour "red"

card "Blue A" is Card:
    colour "blue"

card "Grey A" is Card:
    colour "grey"

zone hand per seat

define marked(c) = Told of c.colour at c
define marks = sum(sum(Told of k at c for k in colours) for c in hand of P1)

action Clue(c in hand):
    label "clue {c}"
    add 1 Told of c.colour to c

action Wipe(c in hand):
    label "wipe {c}"
    for each k in colours:
        remove all Told of k from c

action Shift(c in hand):
    label "shift {c}"
    move 1 Told of "red" from c to first(x for x in hand where x != c)

action Count(c in hand):
    label "count {c}"
    log "{marked(c)}"

flow:
    move box to hand of P1
    repeat 4 times:
        turn P1:
            offer Clue, Wipe, Shift, Count
    end game
'''


@pytest.fixture(params=[True, False], ids=["generated", "closures"])
def game(request, tmp_path, monkeypatch):
    monkeypatch.setattr(pysource, "ENABLED", request.param)
    path = tmp_path / "told.ludus"
    path.write_text(SOURCE, encoding="utf-8")
    return ludus.load(path)


def read(game, match, text: str):
    return ludus.testing.position.compile_expression(game, text, "<t>", 1, 1)(match)[0]


def test_each_member_is_a_token_of_its_own_in_the_state_and_the_view(game):
    m = game.new_match(2, seed=0)
    m.apply("clue Red A")
    m.apply("clue Blue A")
    assert json.loads(m.to_json())["state"]["tokens"] == {"Told red||#0": 1, "Told blue||#1": 1}
    assert sorted(game.tokens) == ["Told blue", "Told red"]
    assert read(game, m, '[Told of "red" at card("Red A"), Told of "blue" at card("Red A"), marks]') == [1, 0, 2]


def test_a_define_reading_a_member_is_read_again_when_any_member_changes(game):
    m = game.new_match(2, seed=0)
    m.apply("clue Red A")
    assert read(game, m, 'marked(card("Red A"))') == 1
    assert read(game, m, "marks") == 1
    m.apply("wipe Red A")
    assert read(game, m, 'marked(card("Red A"))') == 0
    assert read(game, m, "marks") == 0
    m.apply("clue Red A")
    m.apply("shift Red A")  # the red mark goes to the first other card of the hand
    assert read(game, m, 'marked(card("Red A"))') == 0
    assert read(game, m, '[Told of "red" at c for c in hand of P1]') == [1, 0, 0]


def test_a_define_remembered_in_a_match_is_read_again_when_a_member_changes(game):
    m = game.new_match(2, seed=0)
    for move in ("clue Red A", "count Red A", "wipe Red A", "count Red A"):
        m.apply(move)
    assert [e["text"] for e in m.log if e["t"] == "log"] == ["1", "0"]


def test_a_save_with_members_loads_and_one_with_the_family_alone_is_refused(game):
    m = game.new_match(2, seed=0)
    m.apply("clue Blue A")
    text = m.to_json()
    assert Match.from_json(game, text).view() == m.view()
    data = json.loads(text)
    data["state"]["tokens"] = {"Told||#1": 1}
    with pytest.raises(ludus.MatchError, match="unknown token entry 'Told||#1'"):
        Match.from_json(game, json.dumps(data))


@pytest.mark.parametrize("move", ["clue Grey A", "count Grey A"])
def test_a_key_the_family_lacks_stops_the_rule(game, move):
    m = game.new_match(2, seed=0)
    with pytest.raises(ludus.RuleError, match="token 'Told' has no member for 'grey': its keys are the colours, red, blue"):
        m.apply(move)
