"""The REPL draws per-seat values in seat columns and the game's own values apart (issue 17, 10)."""

from __future__ import annotations

import io

from rich.console import Console

import ludus
from ludus.repl.render import view_renderable

SOURCE = '''game "Tables"
players 2
counter coins per seat start 3
flag ready
var leader: seat start P2
counter round_number start 1
flow:
    turn P1:
        choose n from 0 to 1 "Go?"
    end game
'''


def test_game_wide_values_are_not_drawn_in_the_first_seats_column(tmp_path):
    path = tmp_path / "tables.ludus"
    path.write_text(SOURCE, encoding="utf-8")
    m = ludus.load(path).new_match(2)
    out = io.StringIO()
    Console(file=out, width=100, color_system=None).print(view_renderable(m.view(None), list(m.seat_names())))
    lines = [line.rstrip() for line in out.getvalue().splitlines()]
    assert lines[1].split() == ["per", "seat", "P1", "P2"]
    assert lines[2].split() == ["coins", "3", "3"]
    assert lines[3].split() == ["game", "value"]
    # the game's flag, its seat-valued var (by name) and its counter, each in the value column
    assert [line.split() for line in lines[4:7]] == [["ready", "no"], ["leader", "P2"], ["round_number", "1"]]
    assert not any(line.split()[0] == "counter" for line in lines if line.split())
