"""Reading and writing snapshot files without losing one: `ludus test` and the pytest plugin's
syrupy extension both go through here, so a folder, a file that is not UTF-8 text or a file in the
way of a folder is the same located error on both paths, never a traceback, and is left alone."""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from pathlib import Path

from ..language.files import read_only


class SnapshotFileError(Exception):
    """A snapshot file that cannot be read or written, and why, said for a person."""

    def __init__(self, doing: str, path: Path, reason: str) -> None:
        super().__init__(f"cannot {doing} snapshot '{path}': {reason}")
        self.doing, self.path, self.reason = doing, path, reason


def why_not(path: Path, exc: BaseException) -> str:
    """Why a snapshot file could not be read or written, without Python's words for it."""
    if isinstance(exc, UnicodeDecodeError):
        return f"it is not UTF-8 text (byte {exc.object[exc.start]:#04x} at offset {exc.start})"
    if isinstance(exc, IsADirectoryError):
        return "it is a folder"
    if isinstance(exc, (NotADirectoryError, FileExistsError)):
        for folder in reversed(path.parents):  # the outermost in the way is the one to move
            if folder.exists() and not folder.is_dir():
                return f"'{folder}' is a file, not a folder"
    reason = getattr(exc, "strerror", None) or str(exc)
    return reason[:1].lower() + reason[1:]


def read_snapshot(path: Path) -> str | None:
    """A stored snapshot's text, or None if there is none; anything else in its place (a folder,
    a file that is not UTF-8 text) raises SnapshotFileError and is left alone."""
    try:
        info = path.stat()
    except (FileNotFoundError, NotADirectoryError):  # not stored, or its folder cannot be there
        return None
    except OSError as exc:
        raise SnapshotFileError("read", path, why_not(path, exc)) from None
    if stat.S_ISDIR(info.st_mode):
        raise SnapshotFileError("read", path, "it is a folder")
    if not stat.S_ISREG(info.st_mode):  # a pipe or a device could block the run forever
        raise SnapshotFileError("read", path, "it is not a regular file")
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeError) as exc:
        raise SnapshotFileError("read", path, why_not(path, exc)) from None


def write_snapshot(path: Path, text: str) -> None:
    """Store a snapshot whole or not at all: the text goes to a new file beside it, renamed over
    the old one once written, so a failure (a full disk) leaves the old snapshot as it was.
    Raises SnapshotFileError."""
    tmp = None
    try:
        # the new file is renamed over the old, which only the folder's permissions govern
        if read_only(path):
            raise PermissionError(errno.EACCES, "it is read-only")
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.parent / f".ludus-{secrets.token_hex(6)}.tmp"
        with open(tmp, "x", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except OSError as exc:
        if tmp is not None:
            with contextlib.suppress(OSError):
                tmp.unlink()
        raise SnapshotFileError("write", path, why_not(path, exc)) from None
