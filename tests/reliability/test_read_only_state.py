"""A test position only looks at the match when it reports or gets a step ready: it reads
without counting as a change from outside, so the define values the match remembers stay.

Reading `Match.state` hands the state out for changing and drops those values; the position's
readers use `_state`. Runs of the define are counted as tests/engine/test_define_memo.py counts
them: its body sums over a list of seven, so each run charges exactly 7 to the count of work.
"""

from __future__ import annotations

import pytest

from ludus.testing.position import Position
from tests.helpers import game_from_text, work_charges

SOURCE = '''game "Memo"
players 2
counter a
define sevens = sum(a for x in [1, 2, 3, 4, 5, 6, 7])
flow:
    repeat 3 times:
        turn P1:
            choose n from 0 to 1 "sevens is {sevens}"
            if n == 1:
                increase a by 1
    win P1
'''


@pytest.fixture
def runs(monkeypatch):
    return work_charges(monkeypatch)


def test_a_step_a_report_and_the_seat_keep_the_remembered_define_values(tmp_path, runs):
    pos = Position(game_from_text(tmp_path, SOURCE, "memo.ludus"), 2)
    pos.do("1")  # a changes: the next prompt works `sevens` out again, and it is remembered
    assert pos.match.pending["prompt"] == "P1: sevens is 7"
    before = runs[7]
    pos.effect()
    assert pos.seat() == 0
    pos.do("0")  # nothing `sevens` reads changes: the next prompt uses the value remembered
    assert pos.match.pending["prompt"] == "P1: sevens is 7"
    assert runs[7] == before
