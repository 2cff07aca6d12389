"""`ludus check --format json`: every diagnostic as data, for editors and other tools; exit codes as in text."""

from __future__ import annotations

import json

from click.testing import CliRunner

from ludus.cli import main
from tests.helpers import EXAMPLES, GAMES

BROKEN = 'game "G"\nplayers 2\nseats A, B\ncounter c per seat\nflow:\n    gain 1 coins\n    win A\n'


def run(*args):
    return CliRunner().invoke(main, ["check", "--format", "json", *map(str, args)])


def test_each_diagnostic_is_an_object_with_its_place(tmp_path):
    path = tmp_path / "g.ludus"
    path.write_text(BROKEN, encoding="utf-8")
    result = run(path)
    assert result.exit_code == 1
    found = json.loads(result.stdout)  # stdout is the JSON and nothing else
    assert found == [
        {"file": str(path), "line": 4, "column": 9, "end_line": 4, "end_column": 10, "severity": "warning",
         "code": None, "message": "counter 'c' is never used", "hint": None, "suggestion": None, "game": str(path)},
        {"file": str(path), "line": 6, "column": 12, "end_line": 6, "end_column": 17, "severity": "error",
         "code": None, "message": "unknown counter 'coins'", "hint": None, "suggestion": None, "game": str(path)},
    ]


def test_a_did_you_mean_names_the_name_meant_as_data(tmp_path):
    path = tmp_path / "g.ludus"
    path.write_text(BROKEN.replace("counter c per seat", "counter coin per seat"), encoding="utf-8")
    [found] = [d for d in json.loads(run(path).stdout) if d["severity"] == "error"]
    assert (found["message"], found["hint"]) == ("unknown counter 'coins'", "did you mean 'coin'?")
    assert found["suggestion"] == {"name": "coins", "meant": ["coin"]}


def test_quiet_and_strict_work_as_in_text(tmp_path):
    path = tmp_path / "g.ludus"
    path.write_text(BROKEN.replace("gain 1 coins", 'log "x"'), encoding="utf-8")  # only the warning is left
    result = run(path)
    assert result.exit_code == 0 and [d["severity"] for d in json.loads(result.stdout)] == ["warning"]
    assert run("--strict", path).exit_code == 1
    quiet = run("-q", path)
    assert quiet.exit_code == 0 and json.loads(quiet.stdout) == []


def test_a_syntax_error_and_a_missing_file_are_diagnostics_too(tmp_path):
    path = tmp_path / "s.ludus"
    path.write_text("value x =\n", encoding="utf-8")
    result = run(path, tmp_path / "missing.ludus")
    assert result.exit_code == 1
    found = json.loads(result.stdout)
    assert [(d["file"], d["line"], d["column"]) for d in found] == [(str(path), 1, 10),
                                                                  (str(tmp_path / "missing.ludus"), 1, 1)]
    assert "cannot read" in found[1]["message"]


def test_a_part_is_checked_through_its_games_and_listed_once():
    result = run(GAMES / "stonewall-uprising" / "board.ludus")
    assert result.exit_code == 0
    assert json.loads(result.stdout) == []
    assert "is part of" in result.stderr  # the note goes to stderr, keeping stdout JSON


def test_every_shipped_game_checks_clean_as_json():
    result = run(GAMES, EXAMPLES)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == []
