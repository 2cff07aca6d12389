"""Writing files whole or not at all: a failure leaves the old file as it was."""

from __future__ import annotations

import os

import pytest

from ludus.language import files
from ludus.language.files import FileProblem, same_file, write_text_file


def test_a_failure_before_the_rename_leaves_the_old_file_and_no_stray_file(tmp_path, monkeypatch):
    target = tmp_path / "save.json"
    target.write_text("old", encoding="utf-8")

    def full(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files.os, "replace", full)
    with pytest.raises(FileProblem, match="No space left on device"):
        write_text_file(target, "new")
    assert target.read_text(encoding="utf-8") == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["save.json"]


def test_text_that_cannot_be_encoded_is_a_problem_and_the_old_file_stays(tmp_path):
    target = tmp_path / "save.json"
    target.write_text("old", encoding="utf-8")
    with pytest.raises(FileProblem, match="cannot be written as UTF-8"):
        write_text_file(target, "new \ud800")  # a lone surrogate
    assert target.read_text(encoding="utf-8") == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["save.json"]


def test_a_link_is_written_through_and_the_file_keeps_its_permissions(tmp_path):
    real = tmp_path / "real.json"
    real.write_text("old", encoding="utf-8")
    os.chmod(real, 0o640)
    link = tmp_path / "link.json"
    link.symlink_to(real)
    write_text_file(link, "new")
    assert link.is_symlink() and real.read_text(encoding="utf-8") == "new"
    assert os.stat(real).st_mode & 0o777 == 0o640


def test_same_file_knows_a_file_by_any_of_its_names(tmp_path):
    game = tmp_path / "g.ludus"
    game.write_text("x", encoding="utf-8")
    (tmp_path / "hard").hardlink_to(game)
    (tmp_path / "soft").symlink_to(game)
    (tmp_path / "sub").mkdir()
    other = tmp_path / "other"
    other.write_text("x", encoding="utf-8")
    for name in ("hard", "soft", "sub/../g.ludus"):
        assert same_file(tmp_path / name, [game])
    assert not same_file(other, [game])
    assert not same_file(tmp_path / "missing", [game])
    assert same_file(tmp_path / "missing", [tmp_path / "sub" / ".." / "missing"])  # a new file, by its path


def test_a_link_that_leads_round_in_a_loop_is_a_problem_not_a_crash(tmp_path):
    # Path.resolve raised RuntimeError for it, out of `save` in the REPL and `--json`
    loop = tmp_path / "loop.json"
    loop.symlink_to(loop)
    with pytest.raises(FileProblem, match="cannot write '.*loop.json': it is a symbolic link that leads round in a loop"):
        write_text_file(loop, "new")
    assert loop.is_symlink() and sorted(p.name for p in tmp_path.iterdir()) == ["loop.json"]


def test_a_file_with_two_names_is_written_in_place_and_both_read_the_new_text(tmp_path):
    # renamed over, the name written led to a new file and the other kept the old text
    one = tmp_path / "one.txt"
    one.write_text("old text\n", encoding="utf-8")
    os.chmod(one, 0o640)
    other = tmp_path / "other.txt"
    other.hardlink_to(one)
    inode = os.stat(one).st_ino
    write_text_file(other, "new\n")
    assert one.read_text(encoding="utf-8") == other.read_text(encoding="utf-8") == "new\n"
    assert os.stat(one).st_ino == os.stat(other).st_ino == inode and os.stat(one).st_nlink == 2
    assert os.stat(one).st_mode & 0o777 == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["one.txt", "other.txt"]  # no stray file
    # written through a symbolic link to one of the names, as well
    (tmp_path / "soft.txt").symlink_to(one)
    write_text_file(tmp_path / "soft.txt", "newer\n")
    assert other.read_text(encoding="utf-8") == "newer\n"


def test_a_failed_write_in_place_puts_the_old_text_back(tmp_path, monkeypatch):
    one = tmp_path / "one.txt"
    one.write_text("old text, longer than the new\n", encoding="utf-8")
    (tmp_path / "other.txt").hardlink_to(one)
    with pytest.raises(FileProblem, match="cannot be written as UTF-8"):
        write_text_file(one, "new \ud800")  # refused before the file is opened
    assert one.read_text(encoding="utf-8") == "old text, longer than the new\n"
    real = files._write_from_start
    calls = []

    def full(f, data):  # the disk fills after the first bytes of the new text are written
        calls.append(data)
        if len(calls) == 1:
            f.seek(0)
            f.write(data[:3])
            raise OSError(28, "No space left on device")
        real(f, data)

    monkeypatch.setattr(files, "_write_from_start", full)
    with pytest.raises(FileProblem, match="No space left on device"):
        write_text_file(one, "new text\n")
    assert len(calls) == 2 and (tmp_path / "other.txt").read_text(encoding="utf-8") == "old text, longer than the new\n"
