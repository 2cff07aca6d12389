"""The disk caches that make a second process start fast: the parser's tables, and the code
generated for each game (ludus/compiler/pysource.py).

Both hold things that are run (a pickle, a code object), so a cache file is read only:
- from this user's own folder: under `LUDUS_CACHE_DIR`, else `$XDG_CACHE_HOME/ludus` or
  `~/.cache/ludus`, one folder per kind, made so that only its owner may use it. A folder someone
  else owns is not read from or written to: a file planted there would run as whoever loads a
  game; nothing is cached then, and everything still works, only slower to start. A folder of
  the user's own that others may write in (made by an older ludus under a umask of 002) is
  closed to them and emptied, since a file may have been planted while it was open.
- whole and for its key: each file starts with a header naming its kind, then its key, then a
  sha256 digest of the rest. A file torn by a crash (the writes are not fsync'd: a cache is
  made again when lost), damaged, or written for another key is never used, and is written
  again.

Each write goes to a file of its own random name and is renamed over the cache file once whole,
so no reader sees part of it and two processes writing at once never mix their bytes.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import secrets
import stat
from pathlib import Path

FILES_KEPT = 256  # per kind: a game edited many times leaves one file per version, the oldest go


def cache_folder(kind: str) -> Path | None:
    """Where the `kind` cache lives; None when there is no home folder to find (nothing is
    cached then)."""
    root = os.environ.get("LUDUS_CACHE_DIR")
    if not root:
        try:
            root = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
        except (RuntimeError, KeyError):
            return None
        root = os.path.join(root, "ludus")
    return Path(root) / kind


def private(folder: Path) -> bool:
    """Whether `folder` is this user's own and no other user may add or rename files in it. One
    of the user's own that others may write in is closed to them first, and the files in it
    removed. Platforms without user ids (Windows) leave that to the folder's access rules."""
    getuid = getattr(os, "getuid", None)
    try:
        info = folder.stat()
    except OSError:
        return False
    if not stat.S_ISDIR(info.st_mode):
        return False
    if getuid is None:
        return True
    if info.st_uid != getuid():
        return False
    if info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        try:
            folder.chmod(0o700)
            for f in folder.iterdir():
                f.unlink()
        except OSError:
            return False
    return True


def _header(kind: str, key: str) -> bytes:
    return f"ludus-{kind}\0{key}".encode("ascii")


def read(kind: str, key: str, suffix: str = ".bin") -> bytes | None:
    """The bytes cached for `key`, or None when there are none whole (no file, torn, damaged,
    written for another key, or in a folder that is not the user's own)."""
    folder = cache_folder(kind)
    if folder is None or not private(folder):
        return None
    try:
        raw = (folder / f"{key}{suffix}").read_bytes()
    except OSError:
        return None
    head = _header(kind, key)
    data = raw[len(head) + 32:]
    if raw[:len(head)] != head or raw[len(head):len(head) + 32] != hashlib.sha256(data).digest():
        return None
    return data


def write(kind: str, key: str, data: bytes, suffix: str = ".bin") -> None:
    """Keep `data` for `key`, quietly doing nothing when the cache cannot be written (no home
    folder, a full disk, a folder that is not the user's own): it is only a cache."""
    folder = cache_folder(kind)
    if folder is None:
        return
    tmp = folder / f".{key}.{secrets.token_hex(6)}.tmp"  # two processes, or threads, never share one
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(FileExistsError):
            folder.mkdir(mode=0o700)
        if not private(folder):
            return
        with open(tmp, "xb") as f:
            f.write(_header(kind, key) + hashlib.sha256(data).digest() + data)
        os.replace(tmp, folder / f"{key}{suffix}")
        _prune(folder, suffix)
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink()
    except BaseException:  # an interrupt: no file of the write is left behind
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


def _prune(folder: Path, suffix: str) -> None:
    files = list(folder.glob(f"*{suffix}"))
    if len(files) <= FILES_KEPT:
        return
    files.sort(key=lambda f: f.stat().st_mtime)
    for old in files[: len(files) - FILES_KEPT]:
        old.unlink(missing_ok=True)
