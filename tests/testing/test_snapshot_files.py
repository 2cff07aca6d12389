"""Snapshot files are read and written without a traceback and without losing one."""

from __future__ import annotations

import errno

import pytest

from ludus.testing import snapshot_files
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

    monkeypatch.setattr(snapshot_files.os, "replace", disk_full)
    with pytest.raises(SnapshotFileError, match="no space left on device"):
        write_snapshot(stored, "the new effect\n")
    assert stored.read_text(encoding="utf-8") == "the old effect\n"
    assert [p.name for p in tmp_path.iterdir()] == ["t.txt"]  # nothing half-written left beside it
    monkeypatch.undo()
    write_snapshot(stored, "the new effect\n")
    assert stored.read_text(encoding="utf-8") == "the new effect\n"
