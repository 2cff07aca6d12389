"""A forced roll of a die the game never rolls is refused, at the REPL and in a replay, when
every die the game rolls is written as a number; a die whose size is worked out as the game
runs leaves the game's dice unknown, and then any die is taken."""

from __future__ import annotations

import io

import pytest

import ludus
from ludus.engine.dice import game_dice
from ludus.repl import Repl
from ludus.replay import ReplayError, load_replay
from tests.helpers import EXAMPLES, game_from_text, repl_on

MARKET = EXAMPLES / "market-town.ludus"
GAME = ludus.load(MARKET)


def make_repl(game=GAME, path=MARKET, **kw) -> tuple[Repl, io.StringIO]:
    return repl_on(game.new_match(2, seed=3, **kw), path, 200)


@pytest.mark.parametrize("line, message", [
    ("force d20 = 3", "error: Market Town never rolls a d20; it rolls a d6"),
    ("roll d20 = 3", "error: Market Town never rolls a d20; it rolls a d6"),
    ("force d6 = 2, 3\nforce d8 = 1", "error: Market Town never rolls a d8; it rolls a d6"),
    ("force die = 7", "error: no die of Market Town shows 7; it rolls a d6"),
    ("force die = 2, 9", "error: no die of Market Town shows 9; it rolls a d6"),
])
def test_the_repl_refuses_a_die_the_game_never_rolls(line, message):
    repl, out = make_repl()
    *before_lines, last = line.split("\n")
    for text in before_lines:
        assert repl.handle(text)
    before, notes = repl.match.to_json(), list(repl.notes)
    assert repl.handle(last)
    assert out.getvalue().rstrip().splitlines()[-1] == message
    assert repl.match.to_json() == before and repl.notes == notes


def test_the_repl_takes_a_die_the_game_rolls():
    repl, out = make_repl()
    assert repl.handle("force d6 = 6") and repl.handle("force die = 1")
    assert repl.rejected == 0
    assert repl.match._state["forced"] == [["die", 6, 6], ["die", 0, 1]]


def test_a_replay_refuses_a_die_the_game_never_rolls_at_its_line_before_any_move(tmp_path):
    path = tmp_path / "r.replay"
    path.write_text(f"game {MARKET}\nplayers 2\nseed 3\nbuy Tax Collector\nforce d20 = 3\nbuild nothing\n",
                    encoding="utf-8")
    lines: list[str] = []
    with pytest.raises(ReplayError) as info:
        load_replay(path).run(echo=lines.append)
    assert str(info.value) == f"{path}:5:7: error: Market Town never rolls a d20; it rolls a d6"
    assert lines == []  # checked with the expectations, before the first move is played
    path.write_text(f"game {MARKET}\nplayers 2\nsetup force die = 8\n", encoding="utf-8")
    with pytest.raises(ReplayError) as info:
        load_replay(path).run()
    assert str(info.value) == f"{path}:3:13: error: no die of Market Town shows 8; it rolls a d6"


def test_a_game_without_dice_refuses_every_forced_roll():
    game = ludus.load(EXAMPLES / "connect-four.ludus")
    repl, out = make_repl(game, EXAMPLES / "connect-four.ludus")
    assert repl.handle("force die = 1")
    assert out.getvalue().rstrip().endswith("error: Connect Four rolls no dice, so there is no roll to force")
    assert repl.match._state["forced"] == []


DICE = '''game "Dice"
players 2
counter total
rule twice:
    roll 2 d10 as pair
card "Stone":
    on play:
        roll die 12 as r
flow:
    repeat 3 times:
        turn P1:
            choose n from 0 to 1 "which die?"
            if n == 0:
                roll d6 as r
                increase total by r
            else:
                roll dice [4, 20] as both
    win P1
'''


def test_the_game_s_dice_are_found_in_every_kind_of_roll(tmp_path):
    game = game_from_text(tmp_path, DICE)
    assert game_dice(game) == {4, 6, 10, 12, 20}
    assert game_dice(ludus.load(EXAMPLES / "connect-four.ludus")) == frozenset()


def test_a_die_of_a_size_worked_out_as_the_game_runs_leaves_any_die_forceable(tmp_path):
    game = game_from_text(tmp_path, DICE.replace("roll die 12 as r", "roll die players as r"))
    assert game_dice(game) is None
    repl, _ = make_repl(game, tmp_path / "game.ludus")
    assert repl.handle("force d100 = 50")
    assert repl.rejected == 0 and repl.match._state["forced"] == [["die", 100, 50]]


def test_any_die_forced_above_the_next_roll_s_faces_fails_that_move_and_force_off_mends_it(tmp_path):
    # the game rolls a d6 and a d20: a 7 is a face of one of them, so it is taken, and the
    # move that rolls the d6 first fails; `force off` drops it, and the move goes through
    game = game_from_text(tmp_path, DICE)
    repl, out = make_repl(game, tmp_path / "game.ludus")
    assert repl.handle("force die = 7") and repl.rejected == 0
    before = repl.match.to_json()
    assert repl.handle("0")
    assert "the forced outcome 7 is not a face of a d6" in out.getvalue().splitlines()[-1]
    assert repl.match.to_json() == before
    assert repl.handle("force off") and repl.handle("0")
    assert repl.rejected == 1 and repl.match.moves == ["0"]
