"""The disk caches of the parser's tables and of generated code (ludus/language/cache.py): read
only whole, for their key, and from a folder no other user may write in."""

from __future__ import annotations

import os
import sys
import tempfile

import pytest
from lark import Lark

from ludus.language import cache, parser

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
