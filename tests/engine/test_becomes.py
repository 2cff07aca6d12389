"""`when COND becomes true:` runs each time the condition turns from false to true."""

from __future__ import annotations

import json

import pytest

import ludus
from ludus.engine.match import Match, MatchError

SOURCE = '''game "Becomes"
players 2
counter coins per seat
counter alarms
when coins of P1 >= 3 becomes true:
    increase alarms by 1
flow:
    repeat 5 times:
        turn P1:
            choose n from 0 to 2 "How many coins?"
            gain n coins
            if n == 0:
                set coins of P1 to 0
    win P1
'''


@pytest.fixture
def game(tmp_path):
    path = tmp_path / "becomes.ludus"
    path.write_text(SOURCE, encoding="utf-8")
    return ludus.load(path)


def alarms(m) -> int:
    return m.view()["counters"]["alarms"]


def test_fires_when_the_condition_turns_true_not_while_it_stays_true(game):
    m = game.new_match(2, seed=1)
    m.apply("2")
    assert alarms(m) == 0           # 2 coins: still false
    m.apply("2")
    assert alarms(m) == 1           # 4 coins: turned true
    m.apply("1")
    assert alarms(m) == 1           # 5 coins: stayed true, nothing more
    m.apply("0")                    # back to 0: false again
    m.apply("2")
    assert alarms(m) == 1


def test_fires_again_after_turning_false_and_true_again(game):
    m = game.new_match(2, seed=1)
    for move in ("2", "2", "0", "2", "2"):
        m.apply(move)
    assert alarms(m) == 2


def test_a_condition_true_before_setup_does_not_fire(tmp_path):
    path = tmp_path / "true.ludus"
    path.write_text(SOURCE.replace("coins of P1 >= 3", "coins of P1 >= 0"), encoding="utf-8")
    m = ludus.load(path).new_match(2, seed=1)
    for move in ("2", "2", "2", "2", "2"):
        m.apply(move)
    assert alarms(m) == 0


def test_the_last_value_survives_save_and_load_and_is_validated(game):
    m = game.new_match(2, seed=1)
    m.apply("2")
    m.apply("2")
    loaded = Match.from_json(game, m.to_json())
    loaded.apply("1")
    assert alarms(loaded) == 1      # it remembered the condition was already true
    data = json.loads(m.to_json())
    data["state"]["became"] = ["yes"]
    with pytest.raises(MatchError, match="becomes true"):
        Match.from_json(game, json.dumps(data))


SPOTS = '''game "Spots"
players 2
board field grid 3 by 1
token Bug
counter alarms per cell
flow:
    repeat 6 times:
        turn P1:
            choose c from cells "Where does a bug land?"
            add 1 Bug to c
    end game
when Bug at c >= 2 becomes true for each c in cells:
    increase alarms of c by 1
    remove all Bug from c
'''


def test_a_condition_for_each_element_fires_for_that_element(tmp_path):
    path = tmp_path / "spots.ludus"
    path.write_text(SPOTS, encoding="utf-8")
    game = ludus.load(path)
    m = game.new_match(2, seed=0)
    for move in ("a1", "b1", "a1"):
        m.apply(move)
    assert m.view()["counters"]["alarms"] == {"a1": 1}      # a1 reached 2 bugs; b1 has 1
    for move in ("a1", "b1", "c1"):
        m.apply(move)
    assert m.view()["counters"]["alarms"] == {"a1": 1, "b1": 1}
    # each element's last value is kept, and saved
    assert Match.from_json(game, m.to_json()).state["became"] == [{"a1": False, "b1": False, "c1": False}]
