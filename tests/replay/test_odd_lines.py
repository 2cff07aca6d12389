"""Odd and extreme lines in a replay: one located error (path:line:column), never a traceback."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from ludus.cli import main
from ludus.replay import ReplayError, load_replay
from ludus.replay.script import visible
from tests.helpers import EXAMPLES, no_crash

GAME_PATH = EXAMPLES / "market-town.ludus"


def error_of(path) -> ReplayError:
    with pytest.raises(ReplayError) as info:
        load_replay(path).run()
    return info.value


def test_a_game_file_name_too_long_for_the_file_system_is_a_located_error(tmp_path):
    path = tmp_path / "r.replay"
    name = "x" * 300 + ".ludus"  # each part of a path is at most 255 bytes on common file systems
    path.write_text(f"game {name}\nplayers 2\n", encoding="utf-8")
    err = error_of(path)
    assert (err.line, err.column) == (1, 6)
    assert err.message == f"cannot read the game file '{name}': File name too long"
    result = CliRunner().invoke(main, ["replay", str(path)])
    assert result.exit_code == 1 and no_crash(result)
    assert result.output.startswith(f"{path}:1:6: error: cannot read the game file")


def test_control_characters_in_a_line_are_shown_as_escapes(tmp_path):
    # printed as they are, `\x1b[2J` would clear the terminal the error is printed on
    path = tmp_path / "r.replay"
    path.write_text(f"game {GAME_PATH}\nplayers 2\nseed 3\nbuy Copper Coin\x1b[2J\n", encoding="utf-8")
    err = error_of(path)
    assert err.message.startswith("'buy Copper Coin\\x1b[2J' is not a legal move for Amber now")
    assert "\x1b" not in str(err)
    result = CliRunner().invoke(main, ["replay", "-q", str(path)])
    assert result.exit_code == 1 and "\x1b" not in result.output
    assert f"{path}:4:1: error: 'buy Copper Coin\\x1b[2J' is not a legal move" in result.output


@pytest.mark.parametrize("odd", ["\x0b", "\x0c", "\x85", "\u2028"])
def test_a_line_ends_only_at_a_line_end_as_in_game_files(tmp_path, odd):
    # str.splitlines cut a replay's line at a form feed, U+2028...: the line numbers of the
    # errors after it were not the editor's, and a move written with one was read as two lines
    path = tmp_path / "r.replay"
    path.write_text(f"game {GAME_PATH}\rplayers 2\r\n# a{odd}note\nseed 3\nbuy{odd}nothing\n", encoding="utf-8")
    err = error_of(path)
    assert (err.line, err.column) == (5, 1)
    assert err.message.startswith("'buy" + visible(odd) + "nothing' is not a legal move"), err.message
