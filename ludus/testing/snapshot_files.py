"""Reading and writing snapshot files without losing one: `ludus test` and the pytest plugin's
syrupy extension both go through here, so a folder, a file that is not UTF-8 text or a file in the
way of a folder is the same located error on both paths, never a traceback, and is left alone."""

from __future__ import annotations

import errno
import re
import stat
from pathlib import Path

from ..language.discover import is_game_text
from ..language.files import make_folders, read_only, replace_text
from ..language.source import lone_cr_as_newline


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
    """Store a snapshot whole or not at all: a failure (a full disk) leaves the old snapshot as it
    was. A snapshot that is a symbolic link (into a folder of shared snapshots) stays one: the
    file it leads to is written. Raises SnapshotFileError."""
    try:
        # the new file is renamed over the old, which only the folder's permissions govern
        if read_only(path):
            raise PermissionError(errno.EACCES, "it is read-only")
        make_folders(path.parent)
        replace_text(path, text)
    except OSError as exc:
        raise SnapshotFileError("write", path, why_not(path, exc)) from None


# ───────────────────────── whose snapshot folder ─────────────────────────

_TEST_BLOCK = re.compile(r'^test[ \t]+"', re.M)


def runs_own_tests(path: Path) -> bool:
    """Whether `path` is a game file with `test` blocks, as `ludus test FOLDER` finds one
    (`discover.is_game_text`: a `game` or `extends` line, or a flow no file includes): the file
    pytest collects, whose tests keep their snapshots in `__snapshots__/STEM/` beside it.
    Read as the parser reads it: a byte-order mark hid the header on the first line, and lone \\r
    line ends hid every block. A file that is not UTF-8 counts, for its load error to be seen."""
    try:
        if not stat.S_ISREG(path.stat().st_mode):  # a pipe could block the run for ever
            return False
        data = path.read_bytes()
    except (OSError, RuntimeError, ValueError):
        return False
    text = lone_cr_as_newline(data.decode("utf-8", errors="replace").removeprefix("\ufeff"))
    return bool(_TEST_BLOCK.search(text)) and is_game_text(text, path)


def python_namesakes(game: Path) -> list[str]:
    """The Python modules beside a game file with its stem, in any case: syrupy keeps their
    snapshots in `__snapshots__/STEM/` too, the folder of the game's tests."""
    try:
        return sorted(p.name for p in game.parent.iterdir()
                      if p.suffix == ".py" and p.stem.casefold() == game.stem.casefold() and p.is_file())
    except OSError:
        return []
