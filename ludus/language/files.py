"""Reading and writing the files ludus works with: game files, replays, saved matches.

One place decides what a readable file is, so every front end gives the same clear message:
a path has no NUL byte and a sane length, names a regular file (never a device, a FIFO or a
folder, which could be read forever), and the file is UTF-8 text within the size limit.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from pathlib import Path

from .limits import MAX_FILE_BYTES, MAX_PATH


class FileProblem(Exception):
    """A file that cannot be read or written; the message says which and why, in a person's words.
    `missing` is true when there is simply no such file."""

    def __init__(self, message: str, missing: bool = False) -> None:
        super().__init__(message)
        self.missing = missing


def checked_path(path: str | os.PathLike) -> Path:
    text = os.fspath(path)
    if not isinstance(text, str):
        raise FileProblem("a file path must be text")
    if "\0" in text:
        raise FileProblem(f"the path {_shown(text)} contains a NUL character")
    if not text.strip():
        raise FileProblem("the path is empty")
    if len(text) > MAX_PATH:
        raise FileProblem(f"the path is {len(text):,} characters long; the limit is {MAX_PATH:,}")
    return Path(text)


def resolved_path(path: str | os.PathLike) -> Path:
    """The absolute path a path names, symbolic links followed. A link that leads round in a loop
    is left as written (made absolute), as Python 3.13 leaves it; before 3.13 `resolve` raised
    RuntimeError for it, which no caller's `except OSError` caught, and `ludus check`, `play` and
    the language server stopped with a traceback. Reading the path then says what is wrong."""
    try:
        return Path(path).resolve()
    except RuntimeError:
        return Path(os.path.abspath(path))


def read_text_file(path: str | os.PathLike, limit: int = MAX_FILE_BYTES, shown: str | None = None) -> str:
    """The whole text of a regular file, or FileProblem saying why not (naming it `shown`, if given,
    as the person wrote it)."""
    p = checked_path(path)
    name = shown if shown is not None else str(p)
    try:
        info = os.stat(p)
        if stat.S_ISDIR(info.st_mode):
            raise FileProblem(f"cannot read '{_shown(name)}': it is a folder, not a file")
        if not stat.S_ISREG(info.st_mode):
            raise FileProblem(f"cannot read '{_shown(name)}': it is not a regular file")
        if info.st_size > limit:
            raise FileProblem(f"cannot read '{_shown(name)}': it is {info.st_size:,} bytes; the limit is {limit:,}")
        with open(p, "rb") as f:
            data = f.read(limit + 1)
    except OSError as exc:
        raise FileProblem(f"cannot read '{_shown(name)}': {exc.strerror or exc}",
                          missing=isinstance(exc, FileNotFoundError)) from None
    if len(data) > limit:
        raise FileProblem(f"cannot read '{_shown(name)}': it is larger than the limit of {limit:,} bytes")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FileProblem(f"cannot read '{_shown(name)}': it is not UTF-8 text (byte {exc.start + 1})") from None
    return text.removeprefix("\ufeff")  # a byte-order mark some editors write


def write_text_file(path: str | os.PathLike, text: str) -> Path:
    """Write text to a file whole or not at all, or FileProblem saying why not; returns the path
    written. A symbolic link is written through and stays a link (see `replace_text`)."""
    p = checked_path(path)
    try:
        replace_text(p, text)
    except (OSError, UnicodeError) as exc:
        if isinstance(exc, UnicodeError):
            why = "the text cannot be written as UTF-8"
        else:
            why = exc.strerror or exc
        raise FileProblem(f"cannot write '{_shown(str(p))}': {why}") from None
    return p


def replace_text(path: Path, text: str) -> Path:
    """Write text to a file whole or not at all, and return the file written (`replace_bytes`):
    UTF-8, each new line the system's line end, as a file opened as text writes it. Raises
    OSError, and UnicodeError for text that is not UTF-8, before any file is touched."""
    return replace_bytes(path, (text if os.linesep == "\n" else text.replace("\n", os.linesep)).encode("utf-8"))


def replace_bytes(path: Path, data: bytes) -> Path:
    """Write bytes to a file whole or not at all, and return the file written. They go to a new
    file beside the old one, renamed over it once written, so a failure halfway (a full disk)
    leaves the old file as it was; the file keeps its permissions. The new file is on the disk
    (fsync'd) before the rename, and the rename is made durable by an fsync of the folder
    (`sync_folder`), so a crash of the machine or a power cut right after the write leaves the
    old bytes or the new, never an empty file. A symbolic link (or a chain of them) is written
    through, as opening it would be: the file at its end changes and the link stays, where the
    rename put a new file in the link's place, cutting it from the shared file it led to. A file
    with more than one name (a hard link) is written through too, in place, and so not
    atomically (`_rewrite_in_place` says why): renamed over, the name written would have led to
    a new file, and every other name kept the old bytes. Raises OSError."""
    target = link_target(path)
    try:
        info = os.stat(target)
    except FileNotFoundError:
        info = None
    if info is not None and stat.S_ISDIR(info.st_mode):
        raise IsADirectoryError(errno.EISDIR, "it is a folder")
    if info is not None and stat.S_ISREG(info.st_mode) and info.st_nlink > 1:
        _rewrite_in_place(target, data)
        return target
    tmp = target.parent / f".{target.name[:40]}.{secrets.token_hex(6)}.tmp"
    try:
        with open(tmp, "xb", buffering=0) as f:  # unbuffered: each byte is the file's before the fsync
            _write_from_start(f, data)
            if info is not None:
                os.chmod(tmp, stat.S_IMODE(info.st_mode))
            os.fsync(f.fileno())  # the bytes are on the disk before their name is: never an empty file
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    sync_folder(target.parent)
    return target


def sync_folder(folder: Path) -> None:
    """Make what changed in a folder's listing (a file renamed into it, made or removed) durable,
    by an fsync of the folder. A platform that cannot open a folder or fsync one (Windows)
    refuses with OSError, which is ignored: the change is made, only not yet sure to be on the
    disk, as every write there is."""
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def make_folders(folder: Path) -> None:
    """`folder` and the folders it is in, made where missing (as `mkdir -p`), each made durable
    in the folder that holds it (`sync_folder`). Raises OSError."""
    missing = []
    for place in (folder, *folder.parents):
        if place.is_dir():
            break
        missing.append(place)
    folder.mkdir(parents=True, exist_ok=True)
    for place in reversed(missing):
        sync_folder(place.parent)


def _rewrite_in_place(target: Path, data: bytes) -> None:
    """Write bytes over a file with several names (hard links), so that every name reads them.

    Not atomic, by choice: no rename can change the file behind names it does not know, and the
    file's other names cannot be found without searching the disk. Text that cannot be encoded
    is refused before the file is opened (`replace_text`); a write that fails (a full disk, an
    interrupt) puts the old bytes back, which fit in the room they had. Only a crash of the
    machine or the process while the few kilobytes are written could leave the file
    half-written. The new bytes are fsync'd before this returns, so once a save is said done it
    is on the disk."""
    with open(target, "r+b", buffering=0) as f:  # unbuffered: nothing is left to write at close
        old = f.readall()
        try:
            _write_from_start(f, data)
            os.fsync(f.fileno())
        except BaseException:
            with contextlib.suppress(OSError):
                _write_from_start(f, old)
            raise


def _write_from_start(f, data: bytes) -> None:
    """Write `data` over an unbuffered file from its start, and cut the file where it ends."""
    f.seek(0)
    view = memoryview(data)
    while view:
        view = view[f.write(view):]
    f.truncate(len(data))


def link_target(path: Path) -> Path:
    """The file a write to `path` changes: `path`, or the file at the end of the symbolic link
    (or chain of links) it is. Raises OSError for a link that leads round in a loop, or to a file
    whose folder is not there: nothing is written through it then, and the link is left as it is."""
    if not path.is_symlink():
        return path
    try:
        target = path.resolve()
    except RuntimeError:  # Python before 3.13 says a loop so
        target = None
    if target is None or target.is_symlink():  # after 3.13, a loop resolves to a link in it
        raise OSError(errno.ELOOP, "it is a symbolic link that leads round in a loop")
    if not target.parent.is_dir():
        raise FileNotFoundError(errno.ENOENT, f"it is a symbolic link to '{_shown(str(target))}', "
                                              "in a folder that does not exist")
    return target


def read_only(path: str | os.PathLike) -> bool:
    """Whether the file's permissions keep it from being written. A write that renames a new
    file over the old one (write_text_file, a snapshot's) needs only its folder's permissions:
    a file marked read-only (by a person, or a checkout that is not theirs to change) was
    rewritten anyway. The bits are read as well as access(), which lets root write anything.
    False for a file that is not there: the write says what is wrong."""
    try:
        info = os.stat(path)
    except OSError:
        return False
    return not info.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH) or not os.access(path, os.W_OK)


def same_file(path: str | os.PathLike, others) -> bool:
    """Whether `path` names one of `others`: the same path once resolved (links followed), or,
    for files that exist, the same file by identity (a hard link, or another spelling on a file
    system that ignores case)."""
    try:
        where = Path(path).resolve()
        info = os.stat(where) if where.exists() else None
    except (OSError, RuntimeError, ValueError):
        return False
    for other in others:
        try:
            there = Path(other).resolve()
            if there == where:
                return True
            if info is not None and there.exists():
                o = os.stat(there)
                if (o.st_dev, o.st_ino) == (info.st_dev, info.st_ino):
                    return True
        except (OSError, RuntimeError, ValueError):
            continue
    return False


def _shown(text: str) -> str:
    """A path fit to print: control characters escaped, very long ones shortened. Letters such as
    'é' are kept: escaped ('caf\\xe9.ludus'), a name could not be told from another that looks
    the same but is written apart in Unicode."""
    text = "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text)
    return text if len(text) <= 120 else text[:100] + "..." + text[-17:]
