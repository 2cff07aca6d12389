"""Snapshot files are read and written without a traceback and without losing one."""

from __future__ import annotations

import errno
import os

import pytest

from ludus.testing.snapshot_files import SnapshotFileError, read_snapshot, write_snapshot


def test_a_snapshot_that_is_not_text_or_not_a_file_is_an_error_and_none_is_missing(tmp_path):
    assert read_snapshot(tmp_path / "missing.txt") is None
    assert read_snapshot(tmp_path / "missing" / "folder" / "t.txt") is None
    (tmp_path / "a file").write_text("x", encoding="utf-8")
    assert read_snapshot(tmp_path / "a file" / "t.txt") is None  # its folder cannot be there: not stored
    (tmp_path / "folder.txt").mkdir()
    with pytest.raises(SnapshotFileError, match="it is a folder"):
        read_snapshot(tmp_path / "folder.txt")
    (tmp_path / "bytes.txt").write_bytes(b"ok\xff\n")
    with pytest.raises(SnapshotFileError, match=r"it is not UTF-8 text \(byte 0xff at offset 2\)"):
        read_snapshot(tmp_path / "bytes.txt")


def test_a_snapshot_that_cannot_be_written_is_an_error_and_what_is_there_stays(tmp_path):
    (tmp_path / "__snapshots__").write_text("precious\n", encoding="utf-8")
    with pytest.raises(SnapshotFileError) as err:
        write_snapshot(tmp_path / "__snapshots__" / "g" / "t.txt", "effect\n")
    assert str(err.value).endswith(f"'{tmp_path / '__snapshots__'}' is a file, not a folder")
    assert (tmp_path / "__snapshots__").read_text(encoding="utf-8") == "precious\n"
    (tmp_path / "t.txt").mkdir()
    with pytest.raises(SnapshotFileError, match="it is a folder"):
        write_snapshot(tmp_path / "t.txt", "effect\n")
    assert list((tmp_path / "t.txt").iterdir()) == []


def test_a_write_that_fails_midway_leaves_the_old_snapshot_whole(tmp_path, monkeypatch):
    stored = tmp_path / "t.txt"
    stored.write_text("the old effect\n", encoding="utf-8")

    def disk_full(src, dst):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "replace", disk_full)
    with pytest.raises(SnapshotFileError, match="no space left on device"):
        write_snapshot(stored, "the new effect\n")
    assert stored.read_text(encoding="utf-8") == "the old effect\n"
    assert [p.name for p in tmp_path.iterdir()] == ["t.txt"]  # nothing half-written left beside it
    monkeypatch.undo()
    write_snapshot(stored, "the new effect\n")
    assert stored.read_text(encoding="utf-8") == "the new effect\n"


def test_a_linked_snapshot_is_written_through_and_stays_a_link(tmp_path):
    # the new snapshot was renamed over the link: a regular file took its place, and the shared
    # snapshot it led to kept the old effect
    shared = tmp_path / "shared"
    shared.mkdir()
    (shared / "t.txt").write_text("the old effect\n", encoding="utf-8")
    folder = tmp_path / "__snapshots__" / "g"
    folder.mkdir(parents=True)
    (folder / "t.txt").symlink_to(shared / "t.txt")
    (folder / "chain.txt").symlink_to(folder / "t.txt")  # a link to a link
    write_snapshot(folder / "chain.txt", "the new effect\n")
    assert (folder / "t.txt").is_symlink() and (folder / "chain.txt").is_symlink()
    assert (shared / "t.txt").read_text(encoding="utf-8") == "the new effect\n"
    assert sorted(p.name for p in shared.iterdir()) == ["t.txt"]  # nothing left beside it
    (folder / "new.txt").symlink_to(shared / "new.txt")  # a link made before its first update
    write_snapshot(folder / "new.txt", "first\n")
    assert (folder / "new.txt").is_symlink() and (shared / "new.txt").read_text(encoding="utf-8") == "first\n"


def test_a_link_that_leads_nowhere_is_an_error_and_is_left_as_it_is(tmp_path):
    loop = tmp_path / "loop.txt"
    loop.symlink_to(loop)
    with pytest.raises(SnapshotFileError, match="it is a symbolic link that leads round in a loop"):
        write_snapshot(loop, "effect\n")
    lost = tmp_path / "lost.txt"
    lost.symlink_to(tmp_path / "gone" / "t.txt")
    with pytest.raises(SnapshotFileError, match="it is a symbolic link to '.*t.txt', in a folder that does not exist"):
        write_snapshot(lost, "effect\n")
    assert loop.is_symlink() and lost.is_symlink() and not (tmp_path / "gone").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["loop.txt", "lost.txt"]


def test_a_snapshot_and_the_folders_made_for_it_are_synced_to_the_disk(tmp_path, monkeypatch):
    # an update that a power cut followed could leave a snapshot empty, or its new folder gone
    synced = []
    real = os.fsync

    def fsync(fd):
        synced.append(os.fstat(fd).st_ino)
        real(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    stored = tmp_path / "__snapshots__" / "g" / "t.txt"
    write_snapshot(stored, "the effect\n")
    assert stored.read_text(encoding="utf-8") == "the effect\n"
    folders = [tmp_path, tmp_path / "__snapshots__", stored.parent]
    assert sorted(synced) == sorted([os.stat(stored).st_ino, *(os.stat(f).st_ino for f in folders)])
