"""What the REPL only looks at, it reads without counting as a change from outside: the define
values the match remembers stay, and the next move keeps no extra copy of the state.

Reading `Match.state` hands the state out for changing, so it drops the remembered define
values; the REPL's readers use `_state`. Runs of the define are counted as
tests/engine/test_define_memo.py counts them: its body sums over a list of seven, so each run
charges exactly 7 to the runtime's count of work.
"""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from ludus.engine.match import CHANCE
from ludus.repl import Repl
from tests.helpers import game_from_text, work_charges

SOURCE = '''game "Memo"
players 2
counter a
card "Pebble":
    copies 1
define sevens = sum(a for x in [1, 2, 3, 4, 5, 6, 7])
flow:
    repeat 3 times:
        turn P1:
            choose n from 0 to 1 "sevens is {sevens}"
            roll d6 as r
            log "after: {sevens}"
    win P1
'''


@pytest.fixture
def repl(tmp_path):
    game = game_from_text(tmp_path, SOURCE, "memo.ludus")
    console = Console(file=io.StringIO(), width=100, color_system=None, highlight=False, markup=False)
    # chance manual: the roll waits for an answer, so the REPL draws a state where chance decides
    return Repl(game.new_match(2, chance="manual"), tmp_path / "memo.ludus", console)


@pytest.fixture
def runs(monkeypatch):
    return work_charges(monkeypatch)


def _at_the_roll(repl: Repl) -> None:
    assert repl.handle("0")
    assert repl.match.current == CHANCE


@pytest.mark.parametrize("line", ["show", "show Pebble", "moves", "log"])
def test_looking_at_the_match_keeps_the_remembered_define_values(repl, runs, line):
    _at_the_roll(repl)
    before = runs[7]
    assert repl.handle(line)
    assert repl.rejected == 0
    assert repl.handle("d6 = 3")  # its log line reads `sevens`, remembered from the prompt
    assert repl.match.log[-1]["text"] == "after: 0"
    assert runs[7] == before

