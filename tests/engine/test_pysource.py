"""Expressions compiled to Python source (ludus/compiler/pysource.py): the same behaviour as
the closures they replace, located errors, and the on-disk cache of compiled modules."""

from __future__ import annotations

import pytest

import ludus
from ludus.compiler import pysource
from ludus.engine.runtime import RuleError
from tests.engine.playouts import ROOT, key, play
from tests.engine.test_playouts import REFERENCE

GENERATED = "<ludus generated expressions>"

SOURCE = '''game "Generated"
players 2
counter coins per seat start 3
token Stone
board land:
    region A adjacent to B
    region B adjacent to A
define stones(r) = Stone at r
define rich = [s for s in seats where coins of s >= 3]
action Take(r in [A, B]):
    label "take from {r} ({stones(r)} there)"
    require stones(r) > 0 and size(rich) > 0
    remove 1 Stone from r
    increase coins by 1
action Split(r in [A, B]):
    require coins / (stones(r) - stones(r)) > 0
flow:
    add 2 Stone to A
    add 1 Stone to B
    repeat 3 times:
        turn P1:
            offer Take
    win P1
'''


@pytest.fixture(autouse=True)
def generated(monkeypatch):
    """Generation on, as by default, even when the suite runs with LUDUS_CLOSURES=1."""
    monkeypatch.setattr(pysource, "ENABLED", True)


def test_the_closures_play_exactly_as_recorded_too(monkeypatch):
    """The closures stay the reference: with generation off, the digests are the same."""
    monkeypatch.setattr(pysource, "ENABLED", False)
    for path, players in [("examples/connect-four.ludus", 2), ("games/uprising.ludus", 2),
                          ("games/votes-for-women/votes-for-women.ludus", 2)]:
        game = ludus.load(ROOT / path)
        requires = [f for a in game.actions.values() for f in a.requires]
        assert requires and all(f.__code__.co_filename != GENERATED for f in requires)
        expected = REFERENCE[key(path, players)]
        assert [play(game, players, seed) for seed in range(6)] == expected[:6]


def test_requirements_and_labels_run_generated_code(tmp_path):
    path = tmp_path / "g.ludus"
    path.write_text(SOURCE, encoding="utf-8")
    game = ludus.load(path)
    assert game.actions["Take"].requires[0].__code__.co_filename == GENERATED
    m = game.new_match(2)
    assert m.legal_actions() == ["take from A (2 there)", "take from B (1 there)"]
    m.apply("take from B (1 there)")
    assert m.legal_actions() == ["take from A (2 there)"]


def test_an_error_in_generated_code_is_located_at_its_rule(tmp_path):
    path = tmp_path / "g.ludus"
    path.write_text(SOURCE.replace("offer Take", "offer Split"), encoding="utf-8")
    with pytest.raises(RuleError, match="division by zero") as err:
        ludus.load(path).new_match(2)
    assert str(err.value).startswith(f"{path}:")


def test_a_warm_load_reads_the_cache_and_a_damaged_cache_is_compiled_again(tmp_path, monkeypatch):
    monkeypatch.setenv("LUDUS_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(pysource, "_LOADED", {})
    path = tmp_path / "g.ludus"
    path.write_text(SOURCE, encoding="utf-8")
    first = ludus.load(path).new_match(2).legal_actions()
    files = list((tmp_path / "cache").iterdir())
    assert len(files) == 1
    stamp = files[0].stat().st_mtime_ns
    pysource._LOADED.clear()  # as a new process would
    assert ludus.load(path).new_match(2).legal_actions() == first
    assert files[0].stat().st_mtime_ns == stamp  # read, not written again
    files[0].write_bytes(b"not a code object")
    assert ludus.load(path).new_match(2).legal_actions() == first  # this process remembers it
    pysource._LOADED.clear()
    assert ludus.load(path).new_match(2).legal_actions() == first
    assert files[0].read_bytes() != b"not a code object"
    files[0].write_bytes(b"N")  # good marshal data, but None, not a code object
    pysource._LOADED.clear()
    assert ludus.load(path).new_match(2).legal_actions() == first


def test_the_cache_keeps_only_the_newest_files(tmp_path, monkeypatch):
    import os

    monkeypatch.setenv("LUDUS_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(pysource, "_LOADED", {})
    monkeypatch.setattr(pysource, "CACHE_FILES", 3)
    path = tmp_path / "g.ludus"
    for i in range(5):  # five versions of a game being edited
        path.write_text(SOURCE.replace("start 3", f"start {i + 3}"), encoding="utf-8")
        ludus.load(path)
        for f in (tmp_path / "cache").iterdir():  # older files look older
            os.utime(f, (f.stat().st_mtime - 10, f.stat().st_mtime - 10))
    assert len(list((tmp_path / "cache").iterdir())) == 3


def test_without_a_home_folder_the_game_loads_and_nothing_is_cached(tmp_path, monkeypatch):
    from pathlib import Path

    def no_home():
        raise RuntimeError("Could not determine home directory")

    monkeypatch.delenv("LUDUS_CACHE_DIR", raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setattr(Path, "home", staticmethod(no_home))
    monkeypatch.setattr(pysource, "_LOADED", {})
    path = tmp_path / "g.ludus"
    path.write_text(SOURCE, encoding="utf-8")
    assert ludus.load(path).new_match(2).legal_actions() == ["take from A (2 there)", "take from B (1 there)"]
