"""Snapshot file names: which file each `snapshot` line of a `test` block is stored in, and which
lines would share one. Here, below the checker, because `ludus check` reports the clashes.

`ludus test` and the pytest plugin (through syrupy) must read and write the same files, so the
names follow syrupy's single-file rule: the test's name, then `.1`, `.2`... for the second and
later snapshot lines, or `[name]` for a named one; without the characters file names cannot
hold; cut to fit 255 characters with `.txt`; and a name with `::` in it read as pytest reads a
node id. tests/language/test_snapshot_names.py keeps this module and syrupy in step. Nothing
here imports syrupy, so `ludus check` does not load it.

Two snapshot lines with one file between them would overwrite each other on every update, and no
update could make both tests pass: the checker reports them, so no run ever writes such a file.
It reports too the names a file system refuses (`refused`), before a test runs, not when its
snapshot is written; the names themselves stay syrupy's, as the files already stored have them.
"""

from __future__ import annotations

import unicodedata
from pathlib import Path

from .discover import is_game_text

EXTENSION = "txt"
LEFT_OUT = '\\/?*:|"<>'
MAX_STEM = 255 - len("." + EXTENSION)
# Linux's file systems count a name's length in UTF-8 bytes, macOS's and Windows' in characters:
# a name that fits in bytes fits everywhere
MAX_FILE_BYTES = 255
# device names Windows keeps whatever the case and the extension: `con.txt` is no file there, so a
# clone of a game holding one fails on Windows (the list Python's ntpath.isreserved uses)
WINDOWS_DEVICES = frozenset({"CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$"}
                            | {f"{port}{digit}" for port in ("COM", "LPT") for digit in "123456789\u00b9\u00b2\u00b3"})


def tests_run_by(checked, sources, path) -> list:
    """The tests a game file runs: its own, and those of the parts it includes; a base game's
    tests run with the base, not with each variant. Which files are parts and which are games is
    `discover.is_game_text`'s to say, as for `ludus check FOLDER`: a base with a flow and no
    `game` line is a game, and its tests are not run (and stored) again with each variant."""
    own = _resolved(path)
    read: dict = {}
    out = []
    for decl in checked.symbols.tests:
        if _resolved(decl.span.path) != own and is_game_read(decl.span.path, sources, read):
            continue
        out.append(decl)
    return out


def is_game_read(path, sources, read: dict | None = None) -> bool:
    """Whether a file a game read is a game or a variant (which runs its own tests), not a part
    (whose tests run with the game), its text as `sources` holds it; `read` as
    `discover.is_game_text` keeps it."""
    text = sources.texts.get(path, "") if sources else ""
    return is_game_text(text, Path(path), read)


def _resolved(path) -> Path:
    try:
        return Path(path).resolve()
    except (OSError, RuntimeError, ValueError):  # a path the system cannot resolve: as written
        return Path(path)


def _raw(test_name: str, index) -> str:
    suffix = f"[{index}]" if isinstance(index, str) else (f".{index}" if index else "")
    # syrupy reads the `::` of a pytest node id as a class's: a test "a::b" is stored as "a.a::b"
    outer = ".".join(test_name.split("::")[:-1])
    return f"{outer}.{test_name}{suffix}" if outer else f"{test_name}{suffix}"


def _sanitized(text: str) -> str:
    return "".join(c for c in text if c not in LEFT_OUT and not unicodedata.category(c).startswith("C"))


def snapshot_stem(test_name: str, index) -> str:
    """The file name, without `.txt`, of a test's snapshot: `index` is the line's name, or its
    place among the test's snapshot lines (0 for the first), every line counted, named or not."""
    return _sanitized(_raw(test_name, index))[:MAX_STEM]


def refused(file: str) -> str | None:
    """Why a file system would refuse the snapshot file named `file`: "long" (over 255 bytes in
    UTF-8, which a name of letters such as 'é' is long before syrupy's cut at 251 characters), or
    "windows" (a device name before its first dot, spaces after it not counting, as on Windows);
    None if every file system takes it. Windows also refuses a name ending in a dot or a space,
    which a snapshot file's, ending in '.txt', never does."""
    if len(file.encode("utf-8")) > MAX_FILE_BYTES:
        return "long"
    if file.split(".", 1)[0].rstrip(" ").upper() in WINDOWS_DEVICES:
        return "windows"
    return None


def refusals(tests) -> list[tuple]:
    """The first snapshot line of each test whose file a file system would refuse, in source
    order: (test, line, file name, why, by name), why as `refused` says, and by name whether
    the test's name alone is the cause (its first snapshot's file, `NAME.txt`, is refused too): a test with one
    bad name is one error, not one per snapshot line."""
    out = []
    for decl in tests:
        for line, index in snapshot_lines(decl):
            file = f"{snapshot_stem(decl.name, index)}.{EXTENSION}"
            why = refused(file)
            if why is not None:
                out.append((decl, line, file, why, refused(f"{snapshot_stem(decl.name, 0)}.{EXTENSION}") == why))
                break
    return out


def snapshot_lines(decl) -> list[tuple[object, str]]:
    """Each `snapshot` line of a test with the index its file is named by, in order."""
    out, count = [], 0
    for line in decl.lines:
        if line.kind == "snapshot":
            out.append((line, line.value if line.value else count))
            count += 1
    return out


def same_file(stem: str) -> str:
    """What a file system that ignores case (macOS, Windows) and Unicode normalisation (macOS)
    keeps of a name: two stems with one key are one file there, so a clash anywhere is a clash."""
    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", stem).casefold())


def _why(raw: str, other_raw: str) -> str:
    """Why two snapshot lines end up with one file: "case" and "normalisation" name what the
    two file names differ in (a letter's case; an accented letter written as one character or
    as a letter and a combining accent, which look the same), or "case and normalisation"."""
    if raw == other_raw:
        return "numbered"
    one, other = _sanitized(raw), _sanitized(other_raw)
    if one == other:
        return "left out"
    one, other = one[:MAX_STEM], other[:MAX_STEM]
    if one == other:
        return "cut"
    if unicodedata.normalize("NFC", one) == unicodedata.normalize("NFC", other):
        return "normalisation"
    return "case" if one.casefold() == other.casefold() else "case and normalisation"


def written_apart(one: str, other: str) -> tuple[str, str] | None:
    """The first letter (with its accents) that two names write differently, as each writes
    it, when the two spellings are one letter in Unicode's eyes (é as U+00E9, or as e and the
    combining U+0301); None if the names differ otherwise there."""
    for a, b in zip(_letters(one), _letters(other), strict=False):
        if a != b:
            return (a, b) if unicodedata.normalize("NFC", a) == unicodedata.normalize("NFC", b) else None
    return None


def code_points(text: str) -> str:
    """How Unicode writes a text, for saying what `written_apart` found: "U+0065 U+0301"."""
    return " ".join(f"U+{ord(c):04X}" for c in text)


def _letters(text: str) -> list[str]:
    """Each character with the combining accents that follow it."""
    out: list[str] = []
    for c in text:
        if out and unicodedata.combining(c):
            out[-1] += c
        else:
            out.append(c)
    return out


def clashes(tests) -> list[tuple]:
    """Snapshot lines of `tests` (the tests of one file, which keep their snapshots in one folder)
    whose file an earlier line has taken, in source order: (test, line, file name, earlier test,
    earlier line, earlier file name, why), why being "numbered", "left out", "cut", "case",
    "normalisation" or "case and normalisation" (as `_why` says). A test that clashes with
    another is listed once, at its first clashing line."""
    taken: dict[str, tuple] = {}
    out = []
    for decl in tests:
        reported: set[int] = set()
        for line, index in snapshot_lines(decl):
            raw = _raw(decl.name, index)
            stem = snapshot_stem(decl.name, index)
            key = same_file(stem)
            if key not in taken:
                taken[key] = (decl, line, raw, stem)
                continue
            other, other_line, other_raw, other_stem = taken[key]
            if other is not decl:
                if id(other) in reported:
                    continue
                reported.add(id(other))
            out.append((decl, line, f"{stem}.{EXTENSION}", other, other_line, f"{other_stem}.{EXTENSION}",
                        _why(raw, other_raw)))
    return out
