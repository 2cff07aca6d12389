"""The whole pipeline in one place: text to checked declarations (`analyse`), and on to a Game (`load`).

    text ──language.parser──▶ Lark tree ──language.build──▶ nodes ──language.loader──▶ declarations
         ──language.checker──▶ symbols + diagnostics ──compiler──▶ Game ──engine.Match──▶ play
"""

from __future__ import annotations

import contextlib
import functools
import gc
import hashlib
import os
import re
from pathlib import Path

import attrs

from .compiler import Game, compile_game
from .engine.dice import order_zone_problem, test_line_problem
from .language.checker import Checked, check
from .language.checker.declarations import PART_ALONE
from .language.discover import games_including, near, sort_out
from .language.loader import load_declarations
from .language.snapshot_names import tests_run_by
from .language.source import Diagnostic, LudusError, Sources


@contextlib.contextmanager
def collector_paused():
    """Python's cycle collector off while a game is read, checked and compiled, and back on after
    (if it was on). Loading makes many objects and frees almost none, and each collection walks
    all of them again: it took 43% of the check of a game of 20,000 counters, and 15% of
    Uprising's first load. Nothing is lost: garbage made meanwhile is collected once it is back on."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


@collector_paused()
def analyse(path: str | Path, overrides: dict[str, str] | None = None) -> tuple[list, Checked | None, Sources]:
    """Load and check a game without compiling it: every diagnostic, errors and warnings, as
    `ludus check` reports them. `overrides` (resolved path -> text) stands in for files on disk,
    as an editor's unsaved buffers.

    A `force` line of the game's tests that no roll of the game can take (a die it never rolls)
    is one of them, here where every caller gets it: the language server shows what `ludus
    check` reports."""
    _check_path(path, "analyse")
    if overrides is not None and not (isinstance(overrides, dict) and all(
            isinstance(k, str) and isinstance(v, str) for k, v in overrides.items())):
        raise ValueError(f"overrides maps resolved paths to texts, both str, not {overrides!r:.60}")
    diags, checked, sources = _analysed(path, overrides)
    if checked is None:
        return diags, checked, sources
    faulty = {(d.span.path, d.span.line) for d in diags if d.severity == "error" and d.span is not None}
    return sorted(diags + force_errors(checked, sources, path, faulty), key=lambda d: d.sort_key), checked, sources


def _check_path(path, what: str) -> None:
    """A ValueError naming the argument unless `path` is a path: a list or None failed in `open`."""
    if not isinstance(path, (str, os.PathLike)):
        raise ValueError(f"{what} takes the path of a .ludus file (text or a Path), not {path!r:.60}")


def _analysed(path, overrides: dict[str, str] | None = None) -> tuple[list, Checked | None, Sources]:
    """The declarations' diagnostics, without those of the tests' `force` lines."""
    items, loader = load_declarations(path, overrides)
    diags = sorted(loader.diagnostics, key=lambda d: d.sort_key)
    if any(d.severity == "error" for d in diags):
        return diags, None, loader.sources
    checked = check(items, loader.sources)
    checked.removed = {name: (removal, loader.taken[name]) for name, removal in loader.removed.items()}
    found = [_part_alone(d, path) if d.code == PART_ALONE else _blame_removal(d, loader) for d in checked.diagnostics]
    return sorted(diags + found, key=lambda d: d.sort_key), checked, loader.sources


def force_errors(checked: Checked, sources: Sources, path, faulty=frozenset()) -> list[Diagnostic]:
    """An error at each `force` line of the tests `path` runs that no roll or shuffle of the game can
    take (a die it never rolls, a face no such die has, a zone it never shuffles), in the words the test gives when it runs
    (the tests a file runs: snapshot_names.tests_run_by). `faulty`: the (path, line) of the
    errors found already, where a forced order is not told another."""
    rules = _Rules(checked)
    out = []
    for decl in tests_run_by(checked, sources, path):
        for line in decl.lines:
            if line.kind == "force_order":
                # a zone the game never shuffles (dice.order_zone_problem), pointed at as the
                # checker points at a zone it does not have. A line the checker found fault with
                # (`faulty`: its lines with an error, a zone, seat or card the game does not have)
                # is not told a second thing: the first is what to mend
                zone = line.value[0].partition(" ")[0]
                if zone in checked.symbols.zones and (line.span.path, line.span.line) not in faulty:
                    problem = order_zone_problem(rules, zone)
                    if problem is not None:
                        out.append(Diagnostic("error", problem, sources.locate_after(line.span, "order", zone)))
                continue
            if line.kind != "force_die":
                continue
            sides, *values = line.value
            problem = test_line_problem(rules, sides, values)
            if problem is not None:
                out.append(Diagnostic("error", problem, line.span))
    return out


class _Rules:
    """What `die_problem` reads of a game, before it is compiled: its declarations and title."""

    __slots__ = ("checked", "title", "__weakref__")

    def __init__(self, checked: Checked) -> None:
        self.checked, self.title = checked, checked.symbols.title


def _part_alone(diag: Diagnostic, path) -> Diagnostic:
    """The error of a part of a game checked on its own (a file with no `game` or `extends` line
    and no flow) in the words of the one who checked it: whether a game includes it, and if none
    does, where ludus looks for one and the line that would include it. `ludus check`, `ludus
    test`, the language server and `ludus.load` all say the same."""
    part = Path(path)
    try:
        including = games_including(part)
        folders = near(part)
        games = [g for f in folders for g, _text in sort_out(f, recursive=False).games]
    except (OSError, ValueError):  # a path the file system refuses: the checker's words stand
        return diag
    if including:
        return attrs.evolve(diag, hint=f"{', '.join(str(g) for g in including)} include"
                                       f"{'s' if len(including) == 1 else ''} it: check that game instead")
    where = (f"ludus looks for the game that includes a part in the part's folder and the one above "
             f"({' and '.join(repr(str(f)) for f in folders)})")
    if games:
        try:
            line = os.path.relpath(part, games[0].parent).replace(os.sep, "/")
        except ValueError:  # on another drive (Windows)
            line = str(part.resolve())
        hint = (f"{where}; the games there: {', '.join(str(g) for g in games)}. {games[0]} would include it "
                f"with `include \"{line}\"`")
    else:
        hint = f"{where}, and there is no game file there"
    message = "this file is a part of a game (it has no `game` or `extends` line), and no game includes it"
    return attrs.evolve(diag, message=message, hint=hint)


_UNKNOWN = re.compile(r"unknown (?:[a-z ]+ )?'([^']+)'")


def _blame_removal(diag, loader):
    """An error in a base file about a name the variant removed is the variant's doing: report it
    at the variant's `remove` line, saying where the base still uses the name. A use that comes
    after the `remove` (in the variant, or in a file it includes later) keeps its own error."""
    m = _UNKNOWN.match(diag.message) if diag.severity == "error" else None
    removal = loader.removed.get(m.group(1)) if m else None
    if removal is None or removal.span.path == diag.span.path or not _before(loader.spliced, diag.span, removal):
        return diag
    where = f"{diag.span.path}:{diag.span.line}:{diag.span.column}"
    return Diagnostic("error", f"'remove {removal.kind} {removal.name}' leaves it used in the base game, at {where}",
                      loader.sources.locate(removal.span, removal.name),
                      hint=f"replace what uses it with 'override' in this file, or keep the {removal.kind}")


def _before(spliced: list, span, removal) -> bool:
    """Whether the declaration holding `span` is merged before `removal`."""
    for item in spliced:
        if item is removal:
            return False
        at = item.span
        if at is not None and at.path == span.path and at.line <= span.line <= at.end_line:
            return True
    return False


# a quoted string (kept whole: a '#' inside it is text), or a comment (dropped)
_STRING_OR_COMMENT = re.compile(r'"(?:[^"\\\n]|\\.)*"|#[^\n]*')


_SPACES = re.compile(r"(\w?)[ \t]+(?=(\w?))")


def _space(m: re.Match) -> str:
    """Spaces between two words are one space (`not x` is not `notx`); elsewhere none (`a+1` is `a + 1`)."""
    return m.group(1) + (" " if m.group(1) and m.group(2) else "")


def fingerprint(texts: dict[str, str]) -> str:
    """A hash of what the game files say, not how they are laid out: comments, blank lines,
    trailing spaces, runs of spaces and the width of indentation do not count, so a saved match
    still loads after such an edit. Indentation counts by its depth, which is its meaning."""
    h = hashlib.sha256()
    for name in sorted(texts):
        h.update(_meaning(Path(name).name, texts[name]))
    return h.hexdigest()[:16]


@functools.lru_cache(maxsize=256)
def _meaning(name: str, text: str) -> bytes:
    """One file's part of the fingerprint; kept, like its built declarations, while the file
    does not change, so loading a game again does not read every line again."""
    out = [f"\0file {name}\n"]
    widths = [0]
    for raw in text.splitlines():
        parts, at = [], 0
        for m in _STRING_OR_COMMENT.finditer(raw):
            parts.append(_SPACES.sub(_space, raw[at:m.start()]))
            parts.append(m.group() if m.group().startswith('"') else "")
            at = m.end()
        parts.append(_SPACES.sub(_space, raw[at:]))
        body = "".join(parts).strip()
        if not body:
            continue
        width = len(raw) - len(raw.lstrip(" \t"))
        while widths[-1] > width:
            widths.pop()
        if width > widths[-1]:
            widths.append(width)
        out.append(f"{len(widths) - 1}|{body}\n")
    return "".join(out).encode()


@collector_paused()
def load(path: str | Path) -> Game:
    """Parse, check and compile a .ludus file; bad input raises LudusError with every diagnostic.
    A test's `force` line that no roll can take does not stop the game loading: the test fails
    at that line when it runs, and the game's other tests run."""
    _check_path(path, "load")
    diags, checked, sources = _analysed(path)
    errors = [d for d in diags if d.severity == "error"]
    if errors or checked is None:
        raise LudusError(errors, sources)
    game = compile_game(checked, str(path), fingerprint(sources.texts), sources)
    game.warnings = [d for d in diags if d.severity == "warning"]
    return game
