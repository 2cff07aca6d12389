"""`reload` reads the game files again and replays the session on the new rules (issue 17, item 6)."""

from __future__ import annotations

import shutil

import pytest

from tests.helpers import EXAMPLES, repl_of


@pytest.fixture
def session(tmp_path, monkeypatch):
    monkeypatch.setenv("LUDUS_HISTORY", str(tmp_path / "history"))
    path = tmp_path / "market-town.ludus"
    shutil.copy(EXAMPLES / "market-town.ludus", path)
    repl, out = repl_of(path, 2, 3, 160)
    repl.handle("buy Tax Collector")
    repl.handle("build nothing")
    return repl, out, path


def test_an_edit_that_changes_no_rule_replays_every_move(session):
    repl, out, path = session
    path.write_text(path.read_text(encoding="utf-8") + "\n# a comment\n", encoding="utf-8")
    repl.handle("reload")
    assert "reloaded" in out.getvalue() and "2 moves replayed" in out.getvalue()
    assert repl.match.moves == ["buy Tax Collector", "build nothing"]


def test_a_rule_change_stops_at_the_first_move_it_refuses(session):
    repl, out, path = session
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('card "Tax Collector" is Good:\n    copies 4\n    cost 3',
                                 'card "Tax Collector" is Good:\n    copies 4\n    cost 9'), encoding="utf-8")
    repl.handle("reload")
    assert "0 moves replayed; stopped at move 1: 'buy Tax Collector' is not a legal move for Amber now" in out.getvalue()
    assert repl.match.moves == []
    assert repl.game.defs["Tax Collector"] is not None


def test_a_file_that_no_longer_loads_changes_nothing(session):
    repl, out, path = session
    path.write_text(path.read_text(encoding="utf-8").replace("flow:", "flow"), encoding="utf-8")
    repl.handle("reload")
    # the first error, named once: its place, then what is wrong
    assert out.getvalue().splitlines()[-1] == (
        f"error: the game does not load now (1 error; nothing changed): {path}:156:5: unexpected end of line; "
        "expected ':'")
    assert repl.match.moves == ["buy Tax Collector", "build nothing"]
