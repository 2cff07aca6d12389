"""Reading and writing the files ludus works with: game files, replays, saved matches.

One place decides what a readable file is, so every front end gives the same clear message:
a path has no NUL byte and a sane length, names a regular file (never a device, a FIFO or a
folder, which could be read forever), and the file is UTF-8 text within the size limit.
"""

from __future__ import annotations

import os
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
    """Write text to a file, or FileProblem saying why not; returns the path written."""
    p = checked_path(path)
    try:
        p.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise FileProblem(f"cannot write '{_shown(str(p))}': {exc.strerror or exc}") from None
    return p


def _shown(text: str) -> str:
    """A path fit to print: control characters escaped, very long ones shortened."""
    text = text.encode("unicode_escape").decode("ascii")
    return text if len(text) <= 120 else text[:100] + "..." + text[-17:]
