"""A saved match whose moves do not lead to the position it holds: loaded, but never exported
or reloaded as if they did (a replay of them would play another match)."""

from __future__ import annotations

import json

import pytest

from tests.helpers import printed
from tests.repl.test_odd_input import GAME, make_repl, refused


@pytest.fixture(autouse=True)
def no_sessions(monkeypatch, tmp_path):
    monkeypatch.setenv("LUDUS_SESSIONS", str(tmp_path / "sessions"))


def saved(tmp_path, moves=None, state=None) -> str:
    match = GAME.new_match(2, seed=3)
    match.apply("buy nothing")
    match.apply("build nothing")
    data = json.loads(match.to_json())
    if moves is not None:
        data["moves"] = moves
    path = tmp_path / "s.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(("moves", "why"), [
    (["fly to the moon", "build nothing"], "move 1: 'fly to the moon' is not a legal move for Amber now"),
    ([], "they lead to another position"),  # a position a program put in, saved with no moves
    (["buy nothing"], "they lead to another position"),
])
def test_moves_that_do_not_lead_to_the_position_turn_export_and_reload_off(tmp_path, moves, why):
    repl, out = make_repl(keep_unsaved=True)
    repl.handle(f"load {saved(tmp_path, moves)}")
    assert "so `export` and `reload` are off for this match" in out.getvalue()
    assert why in out.getvalue()
    assert refused(repl, out, f"export {tmp_path / 'e.replay'}").startswith(
        f"error: this match's moves do not lead to its position ({why}")
    assert not (tmp_path / "e.replay").exists()
    assert refused(repl, out, "reload").startswith("error: cannot reload: this match's moves do not lead")
    # its unsaved moves are kept as a save, which holds the position itself
    repl.handle(repl.match.legal_actions()[0])
    kept = repl._keep()
    assert kept is not None and kept.suffix == ".json"
    # a new match has moves that lead to it again
    repl.handle("restart")
    repl.handle(f"export {tmp_path / 'e.replay'}")
    assert (tmp_path / "e.replay").exists()


def test_a_save_whose_moves_lead_to_it_exports_as_before(tmp_path):
    repl, out = make_repl()
    path = saved(tmp_path)
    loaded = printed(repl, out, f"load {path}")
    assert loaded.startswith(f"loaded {path}: 2 moves\n") and "Basil: take an action" in loaded
    assert "off for this match" not in loaded
    repl.handle(f"export {tmp_path / 'e.replay'}")
    assert "exported 2 moves" in out.getvalue()
