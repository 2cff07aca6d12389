"""`test` blocks of .ludus files: run one against a Position (for pytest and for `ludus test`)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from ..engine.dice import test_line_problem
from ..engine.effect import place_text, result_text
from ..language.snapshot_names import EXTENSION, same_file, snapshot_lines, snapshot_stem, tests_run_by
from ..language.source import Diagnostic, LudusError, Span, split_lines
from .position import Position, TestError
from .snapshot_files import SnapshotFileError, python_namesakes, read_snapshot, write_snapshot


def source_text(game, span: Span) -> str:
    """The text a span covers in a game file, dedented so it parses on its own."""
    text = game.sources.texts.get(span.path, "") if game.sources else ""
    end_line, end_column = span.end_line, span.end_column
    if end_column == 1 and end_line > span.line:
        # a block's span ends where the next line starts, or past the last line of the file:
        # it covers its own lines whole
        end_line, end_column = end_line - 1, 0
    lines = split_lines(text)[span.line - 1:end_line]
    if not lines:
        return ""
    if end_column == 0:
        end_column = len(lines[-1]) + 1
    if len(lines) == 1:
        return lines[0][span.column - 1:end_column - 1]
    first = lines[0][span.column - 1:]
    indent = span.column - 1
    rest = [ln[indent:] if ln[:indent].strip() == "" else ln.lstrip() for ln in lines[1:]]
    if end_column > 1:
        rest[-1] = rest[-1][:max(end_column - 1 - indent, 0)]
    return "\n".join([first, *rest]).rstrip() + "\n"


def _seats_text(names: list[str]) -> str:
    """`Red`, `Red and Blue`, `Red, Blue and Green`: the seats expected to win."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def check_line(pos, kind: str, value, span) -> None:
    """`expect legal "label"`, `expect not legal "label"`, `expect winner X` (or `X, Y`: exactly
    these seats), `expect no winner`."""
    if kind == "winner":
        pos.run_on(span)
        result = pos.match.result
        if result is None:
            expected = "no winner" if value is None else _seats_text([value] if isinstance(value, str) else list(value)) + " to win"
            raise TestError(f"expected {expected}, "
                            "but the match is not over", span)
        winners = list(result["winners"])
        if value is None and winners:
            raise TestError(f"expected no winner, but {', '.join(winners)} won ({result['reason']}{place_text(result, pos.match.game.path)})", span)
        if value is not None:
            named = [value] if isinstance(value, str) else list(value)
            for seat in named:
                if seat not in pos.match.seat_names():
                    raise TestError(f"'{seat}' is not a seat of this match ({', '.join(pos.match.seat_names())})", span)
            if sorted(winners) != sorted(named):
                won = ", ".join(winners) or "nobody"
                raise TestError(f"expected {_seats_text(named)} to win, but {won} won ({result['reason']}{place_text(result, pos.match.game.path)})", span)
        return
    pos.run_on(span)
    options = pos.match.legal_actions()
    if kind == "legal" and value not in options:
        why = pos.match.why_not(value, detail=True)  # an offered action its requirement or cost refuses
        raise TestError(f"expected '{value}' to be a legal move" + (f", but {why}" if why is not None else ""), span,
                        "    legal now: " + (", ".join(options) or _nothing_legal(pos.match)))
    if kind == "illegal" and value in options:
        raise TestError(f"expected '{value}' not to be a legal move, and it is", span)


def _nothing_legal(match) -> str:
    result = match.result
    return "nothing (no decision is waiting)" if result is None else f"nothing (the match is over: {result_text(result, match.game.path)})"


def run_test_decl(game, decl, compare) -> None:
    """Run one `test` block; `compare(effect, name, span)` handles its `snapshot` lines.
    A failing line raises TestError located at the line. A failed expectation does not stop
    the test, so every one is reported: the first failure raised carries the others, in the
    order of their lines (`TestError.also`), up to the line that stopped the test, if one did."""
    failed_expects: list[TestError] = []
    try:
        _run_lines(game, decl, compare, failed_expects)
    except TestError as err:
        if not failed_expects:
            raise
        raise _together([*failed_expects, err]) from None
    if failed_expects:
        raise _together(failed_expects)


def _together(errors: list[TestError]) -> TestError:
    first = errors[0]
    first.also = [*first.also, *errors[1:]]
    return first


def _run_lines(game, decl, compare, failed_expects: list) -> None:
    players, seed, pos = None, 0, None
    given_setup: set[str] = set()  # `players` and `seed` lines read so far
    for i, line in enumerate(decl.lines):
        kind, value, span = line.kind, line.value, line.span
        if kind in ("players", "seed"):
            if pos is not None:
                raise TestError(f"'{kind}' must come before the test's other lines", span)
            if kind in given_setup:
                raise TestError(f"a second '{kind}' line: a test has one", span)
            given_setup.add(kind)
            if kind == "players":
                players = value
            else:
                seed = value
            continue
        if pos is None:
            try:
                pos = Position(game, players, seed)
            except TestError as err:
                err.span = err.span or span
                raise
        if kind == "given":
            stmt_span = getattr(value, "span", span)
            # given lines in a row set up one position: the waiting decision is asked again after
            # the last of them, not between two (where an emptied hand would end the turn)
            last = i + 1 == len(decl.lines) or decl.lines[i + 1].kind != "given"
            pos.given(source_text(game, stmt_span), stmt_span, ask_again=last)
        elif kind == "force_die":
            sides, *faces = value
            if sides < 1:  # `force d0 = 1`: to next_roll, 0 sides is any die
                raise TestError(test_line_problem(game, sides, faces), span)
            pos.next_roll(sides, *faces, span=span)
        elif kind == "force_order":
            zone, seat, names = value
            pos.force_order_line(zone, seat, list(names), span)
        elif kind in ("do", "answer"):
            pos.do(value, span, verb=kind)
        elif kind == "until":
            pos.play_until(value, span)
        elif kind == "resolve":
            card, seat = value
            pos.resolve(card, seat, span=span)
        elif kind == "resolve_rule":
            call, seat = value
            pos.resolve_rule(source_text(game, call.span), seat, span=call.span)
        elif kind == "expect":
            # a failed expect does not stop the test: the snapshots after it still compare, so
            # their diff is shown (and syrupy sees them used, never as unused ones to delete)
            try:
                pos.expect(source_text(game, value.span), value.span)
            except TestError as err:
                failed_expects.append(err)
        elif kind == "snapshot":
            compare(pos.effect(), value, span)
        elif kind == "run_on":
            # the line asks the rules to go on: after the end there is nothing to go on to, and
            # the test is told so (the Python API's run_on() may be called to make sure, and
            # does nothing then)
            pos.refuse_if_over("run on", span)
            pos.run_on(span)
        elif kind == "report_start":
            pos.effect()   # what came before (setup decisions, say) is left out of the next report
        elif kind in ("legal", "illegal", "winner"):
            try:
                check_line(pos, kind, value, span)
            except TestError as err:
                failed_expects.append(err)
        else:  # pragma: no cover - the grammar has no other lines
            raise TestError(f"unknown test line '{kind}'", span)
    if pos is None:
        Position(game, players, seed)


# ───────────────────────── `ludus test`: test blocks without pytest ─────────────────────────


def snapshot_path(file_path, test_name: str, index) -> Path:
    """Where pytest (through syrupy) keeps a `snapshot` line's report: beside the game file."""
    path = Path(file_path)
    return path.parent / "__snapshots__" / path.stem / f"{snapshot_stem(test_name, index)}.{EXTENSION}"


def run_file(path, echo, keyword: str | None = None, update: bool = False,
             unused: list | None = None) -> tuple[int, int]:
    """Run the `test` blocks of a game file against the stored snapshots; returns (passed, failed).
    `keyword` keeps the tests whose name contains it (any case); `update` writes the new and
    changed snapshots of each test that passes, once it has passed, and deletes none: a test that
    fails (an `expect`, a step that cannot run, a rule's error) writes nothing, and each snapshot
    it would have written is named as not updated. A run of all the tests names the files in the
    game's snapshot folder that none of them uses (`unused_snapshots`), as pytest reports them,
    adds them to `unused` (if given), and leaves them there. Bad files raise LudusError."""
    from ..pipeline import load
    from .snapshot import effect_diff

    game = load(path)
    tests = own_tests(game, path)
    refuse_shared_folder(path, tests, game.sources)
    passed = failed = 0
    for decl in tests:
        if keyword is not None and keyword.casefold() not in decl.name.casefold():
            continue
        problems: list[str | None] = []
        pending: list[tuple] = []  # (place in problems, line, file, stored text or None, text now)
        count = [0]

        def compare(effect, name, span, decl=decl, problems=problems, pending=pending, count=count):
            index = name if name else count[0]  # numbered as syrupy numbers them: every snapshot line counts
            count[0] += 1
            stored_at = snapshot_path(path, decl.name, index)
            now = effect.report()
            try:
                stored = read_snapshot(stored_at)
            except SnapshotFileError as err:
                kept = " (--update leaves it as it is)" if update else ""
                problems.append(f"{span}: error: {err}{kept}")
                return
            if update and stored != now:
                # said or written once the test is over; its place keeps the problems in line order
                pending.append((len(problems), span, stored_at, stored, now))
                problems.append(None)
                return
            if stored is None:
                problems.append(f"{span}: no stored snapshot {stored_at} (write it with `ludus test {path} --update`)")
                return
            if stored != now:
                diff = "\n".join("    " + line for line in effect_diff(stored, now))
                problems.append(f"{span}: the snapshot changed (accept it with `ludus test {path} --update`)\n{diff}")

        error = None
        try:
            run_test_decl(game, decl, compare)
        except TestError as err:
            error = err
        for at, span, stored_at, stored, now in pending:
            if error is not None:  # the effect of a test that fails is not one to accept
                if stored is None:
                    problems[at] = f"{span}: not written {stored_at}: the test failed"
                else:
                    diff = "\n".join("    " + line for line in effect_diff(stored, now))
                    problems[at] = f"{span}: not updated {stored_at}: the test failed\n{diff}"
                continue
            try:
                write_snapshot(stored_at, now)
            except SnapshotFileError as err:
                problems[at] = f"{span}: error: {err}"
                continue
            echo(f"     {'wrote' if stored is None else 'updated'} {stored_at}")
        problems = [p for p in problems if p is not None]
        if error is not None:
            # first, as pytest shows it: the line that failed explains the snapshots' diffs
            problems.insert(0, error.render(game.sources))
        if problems:
            failed += 1
            echo(f"FAIL {decl.span.path}:{decl.span.line}: {decl.name}")
            for p in problems:
                echo("  " + p.replace("\n", "\n  "))
        else:
            passed += 1
            echo(f"ok   {decl.span.path}:{decl.span.line}: {decl.name}")
    if keyword is None:
        for file in unused_snapshots(path, tests):
            echo(f"     {unused_text(file, Path(path).name)}")
            if unused is not None:
                unused.append(file)
    return passed, failed


def unused_text(file, game_name: str) -> str:
    """The line `ludus test` and pytest both print for a snapshot file no test uses."""
    return f"unused {file}: no test of {game_name} stores a snapshot there (delete it, or run `pytest --snapshot-update`)"


def unused_snapshots(path, tests) -> list[Path]:
    """The files in the snapshot folder of the game file `path` that no `snapshot` line of
    `tests` (all the tests it runs) is stored in, in name order: left by a test renamed or
    removed, or by a snapshot line removed. Known from the tests' text, not from a run, so a
    test that fails before its `snapshot` line still owns its file."""
    game = Path(path)
    return _unused_in(game.parent / "__snapshots__" / game.stem, tests)


def unused_snapshot_folders(folder, games) -> list[Path]:
    """The folders in the `__snapshots__` folders under `folder` (walked as `ludus test FOLDER`
    walks it, past names that start with '.') that no game file of `games`, every game found
    there, keeps its snapshots in: left by a game renamed, moved or removed, in path order. A
    game's folder is `__snapshots__/STEM/` beside it (found as the very folder, whatever case a
    file system gives its name); one named after a Python module beside it is that module's
    (syrupy's), not unused."""
    def key(path: Path):
        try:
            info = os.stat(path)
        except (OSError, ValueError):
            return None
        return info.st_dev, info.st_ino

    owned = {key(Path(game).parent / "__snapshots__" / Path(game).stem) for game in games}
    unused: list[Path] = []
    for top, folders, files in os.walk(folder):
        folders[:] = [name for name in folders if not name.startswith(".")]
        if "__snapshots__" not in folders:
            continue
        stored = Path(top) / "__snapshots__"
        modules = {key(stored / name[:-3]) for name in files if name.endswith(".py")}
        try:
            entries = sorted(stored.iterdir())
        except OSError:  # a folder that cannot be listed is passed over
            continue
        for entry in entries:
            if entry.name.startswith(".") or entry.is_symlink() or not entry.is_dir():
                continue
            here = key(entry)
            if here is not None and here not in owned and here not in modules:
                unused.append(entry)
    return sorted(unused)


def _unused_in(folder: Path, tests) -> list[Path]:
    """The files in a game's snapshot folder that no test uses, in name order. A file a test
    uses under another name (a name with the same `snapshot_names.same_file` key, and the very
    file: on a file system that ignores case, `Take.txt` is the file of `test "take"`; on macOS's
    HFS+, `café.txt` is listed with its `é` as `e` and a combining accent) is that test's.
    Hidden files, folders and links that lead nowhere are no snapshot's, as pytest (syrupy)
    reads the folder."""
    names = {f"{snapshot_stem(decl.name, index)}.{EXTENSION}" for decl in tests for _line, index in snapshot_lines(decl)}
    try:
        entries = sorted(folder.iterdir())
    except OSError:  # no folder, or one that cannot be listed
        return []
    stored: dict[str, set] = {}  # a name's key, as a file system that ignores case reads it -> the files
    for name in names:
        try:
            info = os.stat(folder / name)
        except (OSError, ValueError):
            continue
        stored.setdefault(same_file(name), set()).add((info.st_dev, info.st_ino))
    unused = []
    for entry in entries:
        if entry.name in names or entry.name.startswith("."):
            continue
        try:
            info = entry.stat()
        except OSError:  # a link that leads nowhere, which pytest passes over too
            continue
        if not stat.S_ISREG(info.st_mode):
            continue
        if (info.st_dev, info.st_ino) not in stored.get(same_file(entry.name), ()):
            unused.append(entry)
    return unused


def own_tests(game, path) -> list:
    """The tests a game file runs: its own, and those of the parts it includes; a base game's
    tests run with the base, not with each variant (snapshot_names.tests_run_by)."""
    return tests_run_by(game.checked, game.sources, path)


def refuse_shared_folder(path, tests, sources) -> None:
    """Raise LudusError if a Python module beside the game file has its stem (any case): syrupy
    keeps that module's snapshots in the same `__snapshots__/STEM/` folder, and a
    `pytest --snapshot-update` of either file deleted the other's snapshots as unused."""
    if not tests:
        return
    game = Path(path)
    modules = python_namesakes(game)
    if modules:
        raise LudusError([Diagnostic(
            "error", f"the snapshots of these tests would share the folder '__snapshots__/{game.stem}' with those "
                     f"of {modules[0]}: a `pytest --snapshot-update` of either file deletes the other's snapshots",
            tests[0].span, hint=f"rename {game.name} or {modules[0]}")], sources)
