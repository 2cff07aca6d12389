"""Which files are games: a game file starts a game (`game "..."`) or a variant (`extends`), or
has a `flow:` block and is included by no file (a game need not be named); a part (a card list,
a board) is included by a game and checked through it.

Read from the text alone (no parsing), so a folder of files in any state can be sorted out.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from .files import FileProblem, read_text_file
from .source import lone_cr_as_newline

# a lone \r ends a line too (an old Mac's line ends), as the parser reads it: a header after a
# comment on such a line was not found, and the game was taken for a part (`^` alone follows \n)
HEADER = re.compile(r'(?:^|(?<=\r))(?:game|extends)[ \t]+"', re.M)
INCLUDES = re.compile(r'^\s*(?:include|extends)\s+"([^"]+)"', re.M)
INCLUDE = re.compile(r'^\s*include\s+"([^"]+)"', re.M)
# a top-level `flow:` block (not `override flow:`, which a part of a variant may hold)
FLOW = re.compile(r'(?:^|(?<=\r))flow[ \t]*:', re.M)


def starts_game(text: str) -> bool:
    """Whether a file's text starts a game or a variant: it has a `game` or `extends` line."""
    return HEADER.search(text) is not None


@dataclass
class Sorted:
    """The `.ludus` files of a folder, sorted out, each in path order."""

    games: list[tuple[Path, str]] = field(default_factory=list)  # games and variants, with their text
    parts: list[Path] = field(default_factory=list)
    unreadable: list[Path] = field(default_factory=list)  # cannot be told a game or a part


def ludus_files(folder: Path, recursive: bool = True) -> list[Path]:
    """The `.ludus` files in a folder (and in the folders under it, if `recursive`), in path
    order: the one walk of a folder, for `ludus check`, `ludus test`, `ludus fmt` and the search
    for the games that include a part. A file or folder under it whose name starts with '.'
    (.git, .venv, .tox, an editor's lock file) is left out, as pytest leaves it out: `ludus
    check` of a project checked a game vendored in .venv, or one of .git's, which `ludus fmt`
    left alone. The folder named is read whatever its own name. Links to folders are not
    followed, and a folder that cannot be listed is passed over."""
    found: list[Path] = []
    for top, folders, files in os.walk(folder):
        folders[:] = [name for name in folders if not name.startswith(".")] if recursive else []
        found.extend(Path(top) / name for name in files if name.endswith(".ludus") and not name.startswith("."))
    return sorted(found)


def sort_out(folder: Path, recursive: bool = True) -> Sorted:
    """The `.ludus` files in a folder (and in the folders under it, if `recursive`), each read
    once: the one place that tells games from parts, for `ludus check`, `ludus test` and the
    search for the games that include a part."""
    out = Sorted()
    read: dict[Path, list] = {}  # the folders `included` has listed, kept for the next file
    for path in ludus_files(folder, recursive):
        if not path.is_file():  # a folder named x.ludus, a pipe (which could be read for ever)
            continue
        try:
            text = lone_cr_as_newline(read_text_file(path))
        except FileProblem:
            out.unreadable.append(path)
            continue
        if is_game_text(text, path, read):
            out.games.append((path, text))
        else:
            out.parts.append(path)
    return out


def is_game(path: Path) -> bool:
    """A file that starts a game or a variant, or one with a flow that no file includes, as
    opposed to a part that another file includes."""
    try:
        return is_game_text(lone_cr_as_newline(read_text_file(path)), path)
    except FileProblem:
        return False


def is_game_text(text: str, path: Path, read: dict | None = None) -> bool:
    """Whether the file at `path`, whose text is `text`, is a game (or a variant) rather than a
    part: the one rule of `ludus check FOLDER`, `ludus test`, the pytest plugin (which files it
    collects `test` blocks from), the snapshot folders (a game's tests, and those of the parts it
    includes, keep their snapshots in `__snapshots__/STEM/` beside the game) and the language
    server (which file a file is analysed through). `read` keeps the folders' texts that the
    search for an including file lists, for the next call.

    A file with no `game` or `extends` line but a `flow:` block checks and plays as a game
    (named 'untitled'); it is a part only when a file beside it or in the folder above includes
    it, a game's flow kept in a file of its own. A variant's `extends` does not make its base a
    part: the base is a game too. Only a file with a flow and no header is looked around for."""
    if starts_game(text):
        return True
    return FLOW.search(text) is not None and not included(Path(path), read)


def included(path: Path, read: dict | None = None) -> bool:
    """Whether a `.ludus` file in the folder of `path` or the one above has an `include` line
    that names it. `read` keeps the texts of the folders listed, for the next call."""
    read = {} if read is None else read
    try:
        target = path.resolve()
    except (OSError, RuntimeError, ValueError):
        return False
    for folder in near(path):
        if folder not in read:
            texts = []
            for other in ludus_files(folder, recursive=False):
                try:
                    texts.append((other, lone_cr_as_newline(read_text_file(other))))
                except FileProblem:
                    continue
            read[folder] = texts
        for other, text in read[folder]:
            if any(_same(other.parent / name, target) for name in INCLUDE.findall(text)) \
                    and not _same(other, target):
                return True
    return False


def near(part: Path) -> list[Path]:
    """The folders searched for the games that include a part: its own, and the one above it."""
    here = part.parent
    above = here.parent
    if here.name in ("", ".", ".."):
        # the parent of '.' is '.' itself, and of '..' is '.': `ludus check part.ludus` run in
        # the part's folder never looked in the folder above, where `ludus check x/part.ludus` did
        above = here.resolve().parent
        try:
            above = Path(os.path.relpath(above))
        except ValueError:  # on another drive than the working folder (Windows)
            pass
    try:
        if above.resolve() == here.resolve():  # the root folder
            return [here]
    except (OSError, RuntimeError):
        pass
    return [here, above]


def games_including(part: Path) -> list[Path]:
    """The game files, in the part's folder and the one above it, that include or extend it."""
    target = part.resolve()
    found = []
    for folder in near(part):
        for game, text in sort_out(folder, recursive=False).games:
            if any(_same(game.parent / name, target) for name in INCLUDES.findall(text)):
                found.append(game)
    return found


def _same(path: Path, target: Path) -> bool:
    try:
        return path.resolve() == target
    except (OSError, RuntimeError, ValueError):  # a NUL byte, a loop of links
        return False


def games_in(folder: Path) -> list[Path]:
    """Every game and variant file under a folder, in path order."""
    return [path for path, _text in sort_out(folder).games]
