"""Grid boards: `board field grid 7 by 6`, cells a1 to g6, directions, step(), line(), forward()."""

from __future__ import annotations

import pytest

import ludus
from ludus.testing import Position
from ludus.testing.position import TestError

CONNECT_FOUR = '''game "Connect Four"
seats Red, Yellow
board field grid 7 by 6
token Disc per seat

define lowest_free(col) = first([c for c in cells where c.column == col and Disc at c == 0])
define owner_at(c) = first([s for s in seats where Disc of s at c > 0])
define four_from(c, d) = size(line(c, d, 4)) == 4 and all(owner_at(x) == owner_at(c) for x in line(c, d, 4))
define connected(s) = any(owner_at(c) == s and any(four_from(c, d) for d in [east, north, northeast, southeast]) for c in cells)

action Drop(col in [1, 2, 3, 4, 5, 6, 7]):
    label "drop in column {col}"
    require lowest_free(col) != none
    add 1 Disc of actor to lowest_free(col)

flow:
    while any(lowest_free(col) != none for col in [1, 2, 3, 4, 5, 6, 7]):
        for each s in seats:
            turn s:
                offer Drop
            if connected(s):
                win s
    end game
'''


@pytest.fixture
def game(tmp_path):
    path = tmp_path / "c4.ludus"
    path.write_text(CONNECT_FOUR, encoding="utf-8")
    return ludus.load(path)


def value(game, text, pos=None):
    pos = pos or Position(game)
    return pos.value(text)[0]


def test_cells_are_named_by_column_letter_and_row_number_in_row_order(game):
    assert list(game.space_kinds["cell"])[:8] == ["a1", "b1", "c1", "d1", "e1", "f1", "g1", "a2"]
    assert len(game.space_kinds["cell"]) == 42
    assert value(game, "[d4.column, d4.row]") == [4, 4]
    assert sorted(value(game, "adjacent(a1)")) == ["a2", "b1"]


def test_step_and_line_go_in_a_direction_and_stop_at_the_edge(game):
    assert value(game, "step(d4, north)") == "d5"
    assert value(game, "step(d4, southwest)") == "c3"
    assert value(game, "step(a1, west)") is None
    assert value(game, "line(b2, northeast, 4)") == ["b2", "c3", "d4", "e5"]
    assert value(game, "line(f1, east, 4)") == ["f1", "g1"]
    assert value(game, "[forward(Red), forward(Yellow)]") == ["north", "south"]


def test_a_step_from_something_that_is_not_a_cell_is_a_located_error(game):
    with pytest.raises(TestError, match="is not a cell of a grid board"):
        value(game, "step(3, north)")
    with pytest.raises(TestError, match="is not a direction"):
        value(game, 'step(a1, "up")')


def test_four_in_a_column_wins(game):
    pos = Position(game)
    for _ in range(3):
        pos.do("drop in column 1")
        pos.do("drop in column 2")
    pos.do("drop in column 1")
    pos.run_on()
    assert pos.match.result["winners"] == ["Red"]


def test_four_on_a_diagonal_wins(game):
    pos = Position(game)
    for statement in ("add 1 Disc of Yellow to b1", "add 1 Disc of Yellow to c1", "add 1 Disc of Yellow to c2",
                      "add 1 Disc of Yellow to d1", "add 1 Disc of Yellow to d2", "add 1 Disc of Yellow to d3",
                      "add 1 Disc of Red to a1", "add 1 Disc of Red to b2", "add 1 Disc of Red to c3"):
        pos.given(statement)
    pos.do("drop in column 4")        # d4: a1, b2, c3, d4
    pos.run_on()
    assert pos.match.result["winners"] == ["Red"]


def test_random_matches_end(game):
    from ludus.simulation import simulate
    report = simulate(game, 30, seed=1)
    assert not report.errors and report.unfinished == 0
