"""The disk caches of the parser's tables and of generated code (ludus/language/cache.py): read
only whole, for their key, and from a folder no other user may write in."""

from __future__ import annotations

import os
import pickle
import sys
import tempfile

import pytest
from lark import Lark

import ludus
from ludus.language import build, cache, parser
from ludus.language import nodes as n

TEXT = 'game "Tiny"\nplayers 2\n'


def _no_build(*args, **kwargs):
    raise AssertionError("the parser was built, not read from the cache")


def test_the_parser_tables_are_built_once_and_read_by_the_next_process(tmp_path, monkeypatch):
    monkeypatch.setenv("LUDUS_CACHE_DIR", str(tmp_path))
    first = parser._new_parser()
    [kept] = list((tmp_path / "parser").iterdir())
    assert first.parse(TEXT, start="start").data == "start"
    monkeypatch.setattr(parser, "Lark", type("NoBuild", (), {"__init__": _no_build, "load": Lark.load}))
    again = parser._new_parser()  # as a new process would: from the file
    assert again.parse(TEXT, start="start") == first.parse(TEXT, start="start")
    assert again is not first and again.options.postlex is not first.options.postlex  # an indenter of its own
    assert list((tmp_path / "parser").iterdir()) == [kept]


def test_no_file_is_left_in_the_shared_temporary_folder(tmp_path, monkeypatch):
    # Lark's own cache (cache=True) writes a pickle there under a name any user may take first
    monkeypatch.setenv("LUDUS_CACHE_DIR", str(tmp_path / "cache"))
    shared = tmp_path / "tmp"
    shared.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(shared))
    parser._new_parser()
    assert list(shared.iterdir()) == []


@pytest.mark.parametrize("damage", ["empty", "torn", "flipped", "other key", "not lark"])
def test_a_damaged_parser_cache_is_built_again_and_written_whole(tmp_path, monkeypatch, damage):
    monkeypatch.setenv("LUDUS_CACHE_DIR", str(tmp_path))
    parser._new_parser()
    [kept] = list((tmp_path / "parser").iterdir())
    whole = kept.read_bytes()
    head = len(f"ludus-parser\0{kept.stem}")
    bad = {"empty": b"", "torn": whole[: len(whole) // 2], "flipped": whole[:-1] + bytes([whole[-1] ^ 1]),
           "other key": whole.replace(kept.stem.encode(), b"0" * 32, 1)}
    if damage == "not lark":  # whole and for its key, but not a parser this Lark can read
        cache.write("parser", kept.stem, b"\x80\x05N.")
    else:
        kept.write_bytes(bad[damage])
    built = []
    real = parser.Lark

    class Counting(real):
        def __init__(self, *args, **kwargs):
            built.append(1)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(parser, "Lark", Counting)
    assert parser._new_parser().parse(TEXT, start="start").data == "start"
    assert built == [1]
    assert kept.read_bytes()[head + 32:] != b"\x80\x05N."
    assert cache.read("parser", kept.stem) is not None  # whole again


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="folders without an owner's uid")
def test_a_cache_folder_others_could_write_in_is_closed_and_emptied_before_use(tmp_path, monkeypatch):
    # an older ludus made its folders under the umask: 0775 with a umask of 002, and a file
    # planted there while it was open would run as whoever loads a game
    monkeypatch.setenv("LUDUS_CACHE_DIR", str(tmp_path))
    parser._new_parser()
    folder = tmp_path / "parser"
    [kept] = list(folder.iterdir())
    folder.chmod(0o777)
    monkeypatch.setattr(parser, "Lark", type("NoBuild", (), {"__init__": _no_build, "load": Lark.load}))
    with pytest.raises(AssertionError, match="was built"):  # the file that lay there is not read
        parser._new_parser()
    assert folder.stat().st_mode & 0o777 == 0o700
    assert not kept.exists()
    cache.write("parser", "f" * 32, b"data")
    assert cache.read("parser", "f" * 32) == b"data"


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="folders without an owner's uid")
def test_a_cache_folder_another_user_owns_is_never_read_nor_written(tmp_path, monkeypatch):
    monkeypatch.setenv("LUDUS_CACHE_DIR", str(tmp_path))
    cache.write("parser", "e" * 32, b"data")
    assert cache.read("parser", "e" * 32) == b"data"
    monkeypatch.setattr(os, "getuid", lambda: os.stat(tmp_path).st_uid + 1)  # as another user sees it
    assert cache.read("parser", "e" * 32) is None
    cache.write("parser", "f" * 32, b"data")
    assert not (tmp_path / "parser" / ("f" * 32 + ".bin")).exists()


def test_new_cache_folders_are_the_users_alone(tmp_path, monkeypatch):
    monkeypatch.setenv("LUDUS_CACHE_DIR", str(tmp_path / "deep" / "cache"))
    cache.write("pysource", "a" * 32, b"code")
    assert cache.read("pysource", "a" * 32) == b"code"
    if sys.platform != "win32":
        assert (tmp_path / "deep" / "cache" / "pysource").stat().st_mode & 0o777 == 0o700


# ── built files: a game's files are parsed once, and read back by the next process ──

GAME = 'game "Kept"\nplayers 2\ncounter score per seat\n\nflow:\n    win most(score of s for s in seats)\n'


def _fresh_process(monkeypatch):
    """As a new process starts: nothing built in memory, so only the disk cache can spare a parse."""
    monkeypatch.setattr(build, "_BUILT", type(build._BUILT)())


def _parses(monkeypatch) -> list:
    made = []
    real = build._build

    def counting(text, path):
        made.append(path)
        return real(text, path)

    monkeypatch.setattr(build, "_build", counting)
    return made


def test_a_file_built_once_is_read_back_by_the_next_process_without_parsing(tmp_path, monkeypatch):
    monkeypatch.setenv("LUDUS_CACHE_DIR", str(tmp_path / "cache"))
    game = tmp_path / "kept.ludus"
    game.write_text(GAME, encoding="utf-8")
    _fresh_process(monkeypatch)
    made = _parses(monkeypatch)
    first = ludus.load(game)
    assert len(made) == 1
    assert len(list((tmp_path / "cache" / "built").glob("*.bin"))) == 1
    _fresh_process(monkeypatch)
    again = ludus.load(game)
    assert len(made) == 1  # not parsed again
    assert again.title == first.title == "Kept"
    program = build.build(GAME, str(game), keep=True)
    assert program == build._build(GAME, str(game))  # the same nodes, spans and all
    assert again.new_match(2, seed=1).to_json() == first.new_match(2, seed=1).to_json()


def test_a_file_edited_or_moved_is_parsed_again(tmp_path, monkeypatch):
    monkeypatch.setenv("LUDUS_CACHE_DIR", str(tmp_path / "cache"))
    game = tmp_path / "kept.ludus"
    game.write_text(GAME, encoding="utf-8")
    ludus.load(game)
    made = _parses(monkeypatch)
    _fresh_process(monkeypatch)
    game.write_text(GAME.replace("counter score", "counter points").replace("score of", "points of"), encoding="utf-8")
    assert "points" in repr(build.build(game.read_text(encoding="utf-8"), str(game), keep=True))
    moved = tmp_path / "moved.ludus"
    moved.write_text(GAME, encoding="utf-8")
    program = build.build(GAME, str(moved), keep=True)
    assert {d.span.path for d in program.items} == {str(moved)}  # every span names the file it is in
    assert made == [str(game), str(moved)]


def test_a_cached_file_ludus_cannot_read_is_parsed_again_and_kept_whole(tmp_path, monkeypatch):
    monkeypatch.setenv("LUDUS_CACHE_DIR", str(tmp_path / "cache"))
    path = str(tmp_path / "kept.ludus")
    build.build(GAME, path, keep=True)
    [kept] = list((tmp_path / "cache" / "built").glob("*.bin"))
    for bad in (b"\x80\x05N.", b"not a pickle", pickle.dumps(["a list, not nodes"])):
        cache.write("built", kept.stem, bad)
        _fresh_process(monkeypatch)
        made = _parses(monkeypatch)
        assert build.build(GAME, path, keep=True) == build._build(GAME, path)
        assert made[0] == path
        assert isinstance(pickle.loads(cache.read("built", kept.stem)), n.Program)  # written again


def test_texts_not_read_from_a_file_and_files_with_errors_are_not_kept(tmp_path, monkeypatch):
    monkeypatch.setenv("LUDUS_CACHE_DIR", str(tmp_path / "cache"))
    build.build(GAME, "typed.ludus")  # the REPL, an editor's unsaved buffer: not kept
    bad = tmp_path / "bad.ludus"
    bad.write_text(GAME + "flow flow\n", encoding="utf-8")
    with pytest.raises(ludus.LudusError):
        ludus.load(bad)
    assert not list((tmp_path / "cache").glob("built/*.bin"))


def test_a_change_to_the_grammar_changes_every_key(tmp_path, monkeypatch):
    before = build._disk_key("a.ludus", GAME)
    grammar = tmp_path / "ludus.lark"
    grammar.write_text(parser.grammar_path().read_text(encoding="utf-8") + "\n// one more line\n", encoding="utf-8")
    monkeypatch.setattr(build, "grammar_path", lambda: grammar)
    build._code_digest.cache_clear()
    try:
        assert build._disk_key("a.ludus", GAME) != before
    finally:
        monkeypatch.undo()
        build._code_digest.cache_clear()
    assert build._disk_key("a.ludus", GAME) == before
