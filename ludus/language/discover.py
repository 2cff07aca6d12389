"""Which files are games: a game file starts a game (`game "..."`) or a variant (`extends`); a
part (a card list, a board) is included by a game and checked through it.

Read from the text alone (no parsing), so a folder of files in any state can be sorted out.
"""

from __future__ import annotations

import re
from pathlib import Path

from .files import FileProblem, read_text_file

HEADER = re.compile(r'^(?:game|extends)\s+"', re.M)
INCLUDES = re.compile(r'^\s*(?:include|extends)\s+"([^"]+)"', re.M)


def _text(path: Path) -> str:
    try:
        return read_text_file(path)
    except FileProblem:
        return ""


def is_game(path: Path) -> bool:
    """A file that starts a game or a variant, as opposed to a part that another file includes."""
    return bool(HEADER.search(_text(path)))


def games_including(part: Path) -> list[Path]:
    """The game files, in the part's folder and the one above it, that include or extend it."""
    target = part.resolve()
    found = []
    for folder in dict.fromkeys([part.parent, part.parent.parent]):
        for candidate in sorted(folder.glob("*.ludus")):
            text = _text(candidate)
            if not HEADER.search(text):
                continue
            if any((candidate.parent / name).resolve() == target for name in INCLUDES.findall(text)):
                found.append(candidate)
    return found


def games_in(folder: Path) -> list[Path]:
    """Every game and variant file under a folder, in path order."""
    return [p for p in sorted(folder.rglob("*.ludus")) if is_game(p)]
