"""The file names `save`, `load` and `export` take, read as a shell reads them: `~` is the home
folder, and a file's kind is known by what it holds as well as by its name."""

from __future__ import annotations

import io

import pytest

import ludus
from ludus.repl import Repl
from tests.helpers import EXAMPLES, repl_on, said

GAME_PATH = EXAMPLES / "market-town.ludus"
GAME = ludus.load(GAME_PATH)


def make_repl(**kw) -> tuple[Repl, io.StringIO]:
    return repl_on(GAME.new_match(2, seed=3), GAME_PATH, **kw)


@pytest.fixture
def home(monkeypatch, tmp_path):
    """A home folder of its own, and a current folder elsewhere, where no file may appear."""
    monkeypatch.setenv("LUDUS_SESSIONS", str(tmp_path / "sessions"))
    (tmp_path / "home").mkdir()
    (tmp_path / "here").mkdir()
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path / "here")
    yield tmp_path / "home"
    assert list((tmp_path / "here").iterdir()) == []


def test_save_and_load_read_a_tilde_as_the_home_folder(home):
    repl, out = make_repl()
    repl.handle("2")
    assert said(repl, out, "save ~/match.json") == ["saved to ~/match.json (1 move)"]
    assert (home / "match.json").is_file()
    repl.handle("undo")
    assert said(repl, out, "load ~/match.json")[0] == "loaded ~/match.json: 1 move"
    assert repl.match.moves == ["buy Tax Collector"] and repl.rejected == 0


def test_export_and_load_read_a_tilde_as_the_home_folder(home):
    repl, out = make_repl()
    repl.handle("2")
    assert said(repl, out, "export ~/match.replay")[0].startswith("exported 1 move to ~/match.replay")
    text = (home / "match.replay").read_text(encoding="utf-8")
    # the game is named from where the replay is, in the home folder
    game_line = next(line for line in text.splitlines() if line.startswith("game "))
    assert (home / game_line.removeprefix("game ")).resolve() == GAME_PATH.resolve()
    repl.handle("undo")
    assert said(repl, out, "load ~/match.replay")[0] == "played ~/match.replay: 1 move"
    assert repl.rejected == 0


def test_save_to_the_home_folder_itself_is_refused(home):
    repl, out = make_repl()
    lines = said(repl, out, "save ~")
    assert len(lines) == 1 and lines[0].startswith("error: "), lines
    assert repl.rejected == 1


# ── a file's kind, known by what it holds ──


def test_a_replay_under_another_name_is_played_as_a_replay(home):
    repl, out = make_repl()
    repl.handle("2")
    repl.handle(f"export {home / 'match.replay'}")
    (home / "match.replay").rename(home / "match.txt")
    repl.handle("undo")
    assert said(repl, out, f"load {home / 'match.txt'}")[0] == f"played {home / 'match.txt'}: 1 move"
    assert repl.match.moves == ["buy Tax Collector"] and repl.rejected == 0


def test_a_save_named_as_a_replay_is_loaded_as_a_save(home):
    repl, out = make_repl()
    repl.handle("2")
    repl.handle(f"save {home / 'match.json'}")
    (home / "match.json").rename(home / "match.replay")
    repl.handle("undo")
    assert said(repl, out, f"load {home / 'match.replay'}")[0] == f"loaded {home / 'match.replay'}: 1 move"
    assert repl.rejected == 0


def test_a_file_that_is_neither_says_so(home):
    repl, out = make_repl()
    (home / "notes.txt").write_text("buy low, sell high\n", encoding="utf-8")
    before = repl.match.to_json()
    assert said(repl, out, f"load {home / 'notes.txt'}") == [
        f"error: cannot load '{home / 'notes.txt'}': it is neither a saved match (a JSON file that `save` wrote) "
        "nor a replay (a replay names its game on a line like `game market-town.ludus`)"]
    assert repl.match.to_json() == before


def test_a_broken_replay_under_another_name_gets_the_replays_located_error(home):
    repl, out = make_repl()
    (home / "match.txt").write_text(f"game {GAME_PATH}\nplayers 2\nseed 3\nbuy nothing at all\n", encoding="utf-8")
    lines = said(repl, out, f"load {home / 'match.txt'}")
    # the lines before the failing one are played, as for any replay, and the stop is said
    assert lines[0].startswith(f"played {home / 'match.txt'}: 0 moves; stopped at line 4"), lines
