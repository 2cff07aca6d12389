"""Writing files whole or not at all: a failure leaves the old file as it was."""

from __future__ import annotations

import errno
import os
import stat

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


def fsyncs_recorded(monkeypatch, fail=None):
    """Record each fsync and rename as it happens: ("fsync", "file" or "folder", inode, bytes
    on the disk) and ("replace", inode). `fail(kind)` may raise instead of an fsync of that kind."""
    events = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd):
        info = os.fstat(fd)
        kind = "folder" if stat.S_ISDIR(info.st_mode) else "file"
        if fail is not None:
            fail(kind)
        events.append(("fsync", kind, info.st_ino, info.st_size if kind == "file" else None))
        real_fsync(fd)

    def replace(src, dst):
        events.append(("replace", os.stat(src).st_ino))
        real_replace(src, dst)

    monkeypatch.setattr(files.os, "fsync", fsync)
    monkeypatch.setattr(files.os, "replace", replace)
    return events


def test_the_new_text_is_on_the_disk_before_its_rename_and_the_rename_after(tmp_path, monkeypatch):
    # the temporary file was renamed over the old one unsynced: a power cut soon after could
    # leave the name leading to an empty file, the old text gone and the new one not there
    target = tmp_path / "save.json"
    target.write_text("old", encoding="utf-8")
    events = fsyncs_recorded(monkeypatch)
    write_text_file(target, "the new text")
    new = os.stat(target).st_ino
    # the whole text flushed to the file before its fsync, the fsync before the rename, and the
    # folder's fsync after it
    assert events == [("fsync", "file", new, len("the new text")), ("replace", new),
                      ("fsync", "folder", os.stat(tmp_path).st_ino, None)]


def test_a_failed_fsync_leaves_the_old_file_and_no_stray_file(tmp_path, monkeypatch):
    target = tmp_path / "save.json"
    target.write_text("old", encoding="utf-8")

    def broken_disk(kind):
        raise OSError(errno.EIO, "Input/output error")

    fsyncs_recorded(monkeypatch, broken_disk)
    with pytest.raises(FileProblem, match="cannot write '.*save.json': Input/output error"):
        write_text_file(target, "new")
    assert target.read_text(encoding="utf-8") == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["save.json"]


def test_a_platform_that_refuses_to_sync_a_folder_still_writes_the_file(tmp_path, monkeypatch):
    target = tmp_path / "save.json"
    target.write_text("old", encoding="utf-8")

    def no_folders(kind):
        if kind == "folder":
            raise OSError(errno.EINVAL, "Invalid argument")

    fsyncs_recorded(monkeypatch, no_folders)
    write_text_file(target, "new")
    assert target.read_text(encoding="utf-8") == "new"
    real_open = os.open

    def no_open_folder(path, flags, *args):  # as Windows refuses to open a folder at all
        if os.path.isdir(path):
            raise PermissionError(errno.EACCES, "Permission denied")
        return real_open(path, flags, *args)

    monkeypatch.setattr(files.os, "open", no_open_folder)
    write_text_file(target, "newer")
    assert target.read_text(encoding="utf-8") == "newer"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["save.json"]


def test_a_file_with_two_names_is_synced_after_its_write_in_place(tmp_path, monkeypatch):
    one = tmp_path / "one.txt"
    one.write_text("old text, longer than the new\n", encoding="utf-8")
    (tmp_path / "other.txt").hardlink_to(one)
    events = fsyncs_recorded(monkeypatch)
    write_text_file(one, "new\n")
    assert events == [("fsync", "file", os.stat(one).st_ino, len("new\n"))]
    monkeypatch.undo()

    def broken_disk(kind):
        raise OSError(errno.EIO, "Input/output error")

    fsyncs_recorded(monkeypatch, broken_disk)
    with pytest.raises(FileProblem, match="Input/output error"):
        write_text_file(one, "newer text\n")
    assert (tmp_path / "other.txt").read_text(encoding="utf-8") == "new\n"  # the old text put back


def test_folders_made_for_a_file_are_synced_in_the_folders_that_hold_them(tmp_path, monkeypatch):
    events = fsyncs_recorded(monkeypatch)
    folder = tmp_path / "__snapshots__" / "g"
    files.make_folders(folder)
    assert folder.is_dir()
    synced = [event[2] for event in events if event[1] == "folder"]
    assert synced == [os.stat(tmp_path).st_ino, os.stat(tmp_path / "__snapshots__").st_ino]
    events.clear()
    files.make_folders(folder)  # there already: nothing to make durable
    assert events == []
