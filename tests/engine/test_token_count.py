"""Counting unowned tokens at a place looks the count up; it must agree with a full scan."""

from __future__ import annotations

from ludus.engine.display import merge_options
from ludus.engine.runtime import Runtime
from tests.helpers import game_from_text

GAME = """game "Cubes"
players 2
token Cube
token Pawn per seat
board map:
    area A
    area B
flow:
    add 2 Cube to A
    add 1 Pawn of P1 to A
    add 3 Pawn of P2 to A
"""


def test_unowned_and_owned_counts(tmp_path):
    game = game_from_text(tmp_path, GAME)
    match = game.new_match(2)
    rt = Runtime(game, match.state, [])
    assert rt.token_count("Cube", None, "A") == 2
    assert rt.token_count("Cube", None, "B") == 0
    assert rt.token_count("Pawn", None, "A") == 4   # every owner's, by a scan
    assert rt.token_count("Pawn", 1, "A") == 3


def test_merge_options_keeps_distinct_values_under_one_label(tmp_path):
    game = game_from_text(tmp_path, GAME)
    rt = Runtime(game, game.new_match(2).state, [])
    labels, values = merge_options(rt, ["x", "y", "x", "x"], [1, 2, 1, 3], True)
    assert values == [1, 2, 3] and labels == ["x", "y", "x #2"]
