"""At game over the REPL lists each seat's figure by the game's `define score(s)`, highest first,
as a short table: in a game whose fewest points win, everyone's standing, not the winner alone.
A game without one gets nothing new."""

from __future__ import annotations

import pytest

from tests.helpers import game_from_text, repl_on

SOURCE = """game "Ranked"
players 3
counter points per seat start 0
define score(s) = -points of s
flow:
    for each s in seats:
        turn s:
            choose n from 0 to 9 "How many points?"
            gain n points for s
    win least(points of s for s in seats)
"""
# the same game, with nothing that ranks the seats but its `win`
NO_SCORE = SOURCE.replace("define score(s) = -points of s\n", "")


pytestmark = pytest.mark.usefixtures("no_home_files")


def play_out(tmp_path, source: str, view: str | None = None) -> str:
    game = game_from_text(tmp_path, source)
    repl, out = repl_on(game.new_match(3, seed=0), tmp_path / "game.ludus", 120)
    start = len(out.getvalue())
    for n in ("5", "2", "7"):
        repl.handle(n)
    assert repl.match.result is not None
    if view:  # drawn again as that seat sees it
        start = len(out.getvalue())
        repl.handle(f"view {view}")
    return out.getvalue()[start:]


def test_game_over_lists_every_seats_score_highest_first(tmp_path):
    text = play_out(tmp_path, SOURCE)
    lines = [line.rstrip() for line in text.splitlines()]
    over = next(i for i, line in enumerate(lines) if line.startswith("game over: P2 won"))
    assert lines[over + 1 : over + 6] == [
        "the seats by the game's `define score(s)`, highest first:",
        "seat  score",
        "P2       -2",
        "P1       -5",
        "P3       -7",
    ]


def test_a_seats_view_gets_the_table_too(tmp_path):
    assert "the seats by the game's `define score(s)`" in play_out(tmp_path, SOURCE, view="P3")


def test_a_game_without_a_score_gets_nothing_new(tmp_path):
    text = play_out(tmp_path, NO_SCORE)
    assert "game over: P2 won" in text and "define score" not in text
    assert text.rstrip().splitlines()[-1].startswith("game over: P2 won")
