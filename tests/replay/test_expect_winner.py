"""`expect winner` in a replay and at the REPL reads as a test block's does: several seats that
won together, in any order (`expect winner P1, P3`), no winner (`expect no winner`, or `expect
winner nobody`), and a seat the match does not have, or one named twice, said as such."""

from __future__ import annotations

import pytest

from ludus.replay import ReplayError, load_replay
from tests import helpers
from tests.helpers import repl_of

TOGETHER = '''game "Together"
players 3
counter lit
flow:
    turn P1:
        choose n from 0 to 2 "Light the fuse?"
        set lit to n
    if lit == 1:
        win [P1, P3]
    if lit == 2:
        end game
    win seats
'''


@pytest.fixture(autouse=True)
def no_home_files(monkeypatch):
    helpers.no_home_files(monkeypatch)


@pytest.fixture
def game_path(tmp_path):
    path = tmp_path / "together.ludus"
    path.write_text(TOGETHER, encoding="utf-8")
    return path


def replay(game_path, move: str, expect: str):
    path = game_path.parent / "t.replay"
    path.write_text(f"game {game_path.name}\nplayers 3\n{move}\nexpect {expect}\n", encoding="utf-8")
    return load_replay(path).run()


def refused(game_path, move: str, expect: str) -> ReplayError:
    with pytest.raises(ReplayError) as info:
        replay(game_path, move, expect)
    assert (info.value.line, info.value.column) == (4, 8)
    return info.value


def test_a_replay_expects_several_winners_in_any_order(game_path):
    assert replay(game_path, "1", "winner P1, P3").result["winners"] == ["P1", "P3"]
    assert replay(game_path, "1", "winner P3, P1").is_over
    assert replay(game_path, "1", "winners P3,P1").is_over
    assert replay(game_path, "0", "winner P1, P2, P3").is_over
    assert "the winners are P1, P3" in refused(game_path, "1", "winner P1").message
    assert "the winners are P1, P2, P3" in refused(game_path, "0", "winner P1, P3").message


def test_a_replay_expects_no_winner_in_either_words(game_path):
    assert replay(game_path, "2", "no winner").result["winners"] == []
    assert replay(game_path, "2", "winner nobody").is_over
    assert refused(game_path, "1", "no winner").message == "expectation failed: no winner: the winners are P1, P3"


def test_a_replay_names_a_seat_it_does_not_have_or_names_twice(game_path):
    error = refused(game_path, "1", "winner P1, P4")
    # every seat is as near 'P4': the hint names the first, as every 'did you mean' does
    assert error.message == "winner P1, P4: 'P4' is not a seat of this match (P1, P2, P3); did you mean 'P1'?"
    error = refused(game_path, "1", "winner P1, P3, P1")
    assert error.message == "winner P1, P3, P1: seat 'P1' is named twice"


def test_a_replay_takes_a_winning_seat_in_any_case(game_path):
    # as the REPL's `view p1` and `--bot p1=random` take it
    assert replay(game_path, "1", "winner p1, P3").is_over
    assert replay(game_path, "1", "winner P3, p1").is_over
    assert "the winners are P1, P3" in refused(game_path, "1", "winner p1").message
    assert refused(game_path, "1", "winner p1, P3, P1").message == "winner p1, P3, P1: seat 'P1' is named twice"


CASE = """game "Case"
players 2
seats Amber, amber
flow:
    win amber
"""


def test_a_seat_spelt_exactly_wins_over_one_that_differs_by_case(tmp_path):
    game = tmp_path / "case.ludus"
    game.write_text(CASE, encoding="utf-8")
    path = tmp_path / "t.replay"
    path.write_text(f"game {game.name}\nexpect winner amber\n", encoding="utf-8")
    assert load_replay(path).run().result["winners"] == ["amber"]
    path.write_text(f"game {game.name}\nexpect winner Amber\n", encoding="utf-8")
    with pytest.raises(ReplayError) as info:
        load_replay(path).run()
    assert info.value.message == "expectation failed: winner Amber: the winners are amber"
    # two seats share AMBER but for case: it names neither
    path.write_text(f"game {game.name}\nexpect winner AMBER\n", encoding="utf-8")
    with pytest.raises(ReplayError) as info:
        load_replay(path).run()
    assert info.value.message.startswith("winner AMBER: 'AMBER' is not a seat of this match (Amber, amber)")


def test_the_repl_checks_expect_winner_as_a_replay_does(game_path):
    repl, out = repl_of(game_path, 3, seed=0, width=200)
    repl.handle("1")  # a number decision: 1 is lit = 1, and P1 and P3 win together
    for line in ("expect winner P3, P1", "expect winner P1", "expect winner P1, P9", "expect no winner",
                 "expect winner p3, p1"):
        repl.handle(line)
    said = [x for x in out.getvalue().splitlines() if x.startswith(("ok:", "error:"))]
    assert said == [
        "ok: kept for the exported replay",
        "error: not so: winner P1: the winners are P1, P3 (not kept for the replay)",
        "error: winner P1, P9: 'P9' is not a seat of this match (P1, P2, P3); did you mean 'P1'? (not kept for the replay)",
        "error: not so: no winner: the winners are P1, P3 (not kept for the replay)",
        "ok: kept for the exported replay",  # a seat in any case, as `view p1` takes it
    ]
    assert [n.text for n in repl.notes] == ["expect winner P3, P1", "expect winner p3, p1"]
    repl.handle("undo")
    repl.handle("2")  # lit = 2: the game ends with no winner
    repl.handle("expect no winner")
    assert out.getvalue().splitlines()[-1] == "ok: kept for the exported replay"
    assert repl.notes[-1].text == "expect no winner"
