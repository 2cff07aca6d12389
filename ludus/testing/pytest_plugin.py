"""pytest plugin: fixtures for game tests and collection of `test` blocks in .ludus files.

Installed with the package (the `pytest11` entry point `ludus`): nothing to copy into a conftest.

Fixtures:
    ludus_game(path)                     a compiled game, loaded once per session
    ludus_position(game_or_path, ...)    a `ludus.testing.Position`: a match to set up and drive
    effect_snapshot                      syrupy's `snapshot`, writing readable `.txt` effect reports
"""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest

from .blocks import own_tests, refuse_shared_folder, run_test_decl, unused_snapshots, unused_text
from .position import Position, TestError
from .snapshot import EffectSnapshotExtension
from .snapshot_files import SnapshotFileError, runs_own_tests, why_not

_games: dict = {}
# the game files whose `test` blocks syrupy is shown in this run: resolved path -> the tests
SHOWN_GAMES = pytest.StashKey[dict]()
# the game files all of whose `test` blocks are selected: resolved path -> (path, tests, node ids)
WHOLE_GAMES = pytest.StashKey[dict]()
# the node ids of the `test` blocks that ran
RAN_BLOCKS = pytest.StashKey[set]()
# what the run found of snapshots no block uses: (what came of each, the line to print)
UNUSED_FOUND = pytest.StashKey[list]()


def _load(path: Path):
    """A game loaded once per session (a failing load is reported once per test that needs it)."""
    from ..pipeline import load

    key = str(path.resolve())
    mtime = path.stat().st_mtime_ns if path.exists() else None
    cached = _games.get(key)
    if cached is None or cached[0] != mtime:
        cached = (mtime, load(path))
        _games[key] = cached
    return cached[1]


def _fail_load(err) -> None:
    from ..language.source import render_all

    pytest.fail(render_all(err.diagnostics, err.sources), pytrace=False)


# ───────────────────────── fixtures ─────────────────────────


@pytest.fixture
def ludus_game(request):
    """`ludus_game("examples/market-town.ludus")`: a path relative to the test file or the rootdir."""
    from ..language.source import LudusError

    def get(path):
        p = Path(path)
        if not p.is_absolute():
            here = Path(request.node.path).parent / p
            p = here if here.exists() else Path(request.config.rootpath) / p
        if not p.exists():
            pytest.fail(f"no game file '{path}'", pytrace=False)
        # failed outside the `except`: inside it, pytest printed the message twice, joined by
        # "During handling of the above exception, another exception occurred"
        try:
            return _load(p)
        except LudusError as err:
            error = err
        _fail_load(error)

    return get


@pytest.fixture
def ludus_position(ludus_game):
    """`ludus_position(game_or_path, players=None, seed=0)`: a match to put in a position and drive."""

    def make(game, players: int | None = None, seed: int = 0) -> Position:
        if isinstance(game, (str, Path)):
            game = ludus_game(game)
        try:
            return Position(game, players, seed)
        except TestError as err:
            error = err
        pytest.fail(error.render(), pytrace=False)

    return make


@pytest.fixture
def effect_snapshot(snapshot, request):
    """syrupy's `snapshot` with the effect-report extension: `assert position.effect() == effect_snapshot`.
    An update writes the test's snapshots once the test has passed: a test that fails (an
    `expect` after the snapshot, say) leaves them as they are (`_write_or_drop_snapshots`)."""
    assertion = snapshot.use_extension(_HeldEffectSnapshotExtension)
    request.node.stash.setdefault(HELD_ASSERTIONS, []).append(assertion)
    return assertion


class _HeldEffectSnapshotExtension(EffectSnapshotExtension):
    """The effect extension whose updates syrupy holds until the test is over, instead of
    writing each at its assertion."""

    write_immediately = False


# the assertions of `effect_snapshot` a Python test asked for, whose updates wait for its end
HELD_ASSERTIONS = pytest.StashKey[list]()


# ───────────────────────── `test` blocks in .ludus files ─────────────────────────


def pytest_collect_file(file_path: Path, parent):
    # a part of a game (no `game` or `extends` line, and no flow of its own, or included by a
    # game): its tests run with the file that includes it
    if file_path.suffix == ".ludus" and runs_own_tests(file_path):
        return LudusFile.from_parent(parent, path=file_path)
    return None


class LudusFile(pytest.File):
    """A game file: one test item per `test` block declared in it (or in the parts it includes)."""

    def collect(self):
        from ..language.source import LudusError

        try:
            game = _load(self.path)
        except LudusError as err:
            yield LudusLoadItem.from_parent(self, name="load", error=err)
            return
        # its blocks are shown to syrupy, which may clean up their snapshots
        tests = own_tests(game, self.path)
        self.config.stash.setdefault(SHOWN_GAMES, {})[str(self.path.resolve())] = tests
        try:
            refuse_shared_folder(self.path, tests, game.sources)
        except LudusError as err:
            # each block still stands as an item, failing with the error, so that syrupy counts
            # the snapshots already stored as a failed test's, kept, and not as unused ones
            refusal = err
        else:
            refusal = None
        yield from _nodes(self, [(_name_parts(decl.name), decl) for decl in tests], game, refusal)


def _name_parts(name: str) -> list[str]:
    """A test's name cut as pytest cuts a node id typed on its command line: at each `::` before
    the first `[` (what follows a `[` stays with the last part, as a parametrization would)."""
    base, squacket, rest = name.partition("[")
    parts = base.split("::")
    parts[-1] += squacket + rest
    return parts


def _nodes(parent, tests: list, game, refusal=None):
    """The items of `tests` ((name parts, block) pairs) under `parent`: a block named `Guild::buy`
    is item `buy` of a node `Guild`, which holds every block whose name starts `Guild::`. Its node
    id reads `file.ludus::Guild::buy` either way; as one item named `Guild::buy`, that id, copied
    from pytest's report to run the block again, was "not found": pytest looks for `Guild`."""
    groups: dict[str, list] = {}
    for parts, decl in tests:
        if len(parts) > 1:
            groups.setdefault(parts[0], []).append((parts[1:], decl))
    for parts, decl in tests:
        if len(parts) == 1:
            yield LudusTestItem.from_parent(parent, name=parts[0], decl=decl, game=game, refusal=refusal)
        elif parts[0] in groups:  # the group comes where its first block does
            yield LudusGroup.from_parent(parent, name=parts[0], tests=groups.pop(parts[0]), game=game, refusal=refusal)


class LudusGroup(pytest.Collector):
    """The blocks of a game file whose names start with this node's name and `::`."""

    def __init__(self, *, tests, game, refusal=None, **kwargs) -> None:
        super().__init__(**kwargs)
        self.tests, self.game, self.refusal = tests, game, refusal

    def collect(self):
        yield from _nodes(self, self.tests, self.game, self.refusal)


class LudusLoadItem(pytest.Item):
    """Stands for a game file that does not load: its diagnostics are the failure."""

    def __init__(self, *, error, **kwargs) -> None:
        super().__init__(**kwargs)
        self.error = error

    def runtest(self) -> None:
        raise self.error

    def repr_failure(self, excinfo, style=None):
        from ..language.source import render_all

        return render_all(self.error.diagnostics, self.error.sources)

    def reportinfo(self):
        return self.path, None, f"{self.path.name}: load"


class LudusTestItem(pytest.Item):
    """One `test "name":` block; its `snapshot` lines go through syrupy."""

    def __init__(self, *, decl, game, refusal=None, **kwargs) -> None:
        super().__init__(**kwargs)
        self.decl, self.game = decl, game
        self.refusal = refusal  # a LudusError that keeps the block from running
        self.keep_snapshots = False  # set when the block fails: its snapshots are not unused
        # syrupy locates snapshots through the item's path and a test object with a name
        self.obj = _named(decl.name, self.path.stem)
        self.syrupy_view = _SyrupyView(self)
        if getattr(self.config, "_syrupy", None) is not None:
            self.add_marker("syrupy_snapshot")

    def runtest(self) -> None:
        if self.refusal is not None:
            raise self.refusal
        # the block runs to its end before any snapshot is compared: a block that fails (an
        # `expect`, a step that cannot run, a rule's error) has an effect that is not one to
        # accept, and `--snapshot-update` leaves its stored snapshots as they are
        effects: list = []
        try:
            run_test_decl(self.game, self.decl, lambda effect, name, span: effects.append((effect, name, span)))
        except TestError as err:
            error = err
        else:
            error = None
        failures = self._compare(effects, failed=error is not None)
        if error is not None:
            if not failures:
                raise error
            # an expect failed and a snapshot differs: show both, the expect first
            raise LudusSnapshotMismatch("\n".join([error.render(self.game.sources), *failures]))
        if failures:
            raise LudusSnapshotMismatch("\n".join(failures))

    def _compare(self, effects: list, failed: bool) -> list[str]:
        """What is wrong with the block's snapshots, `effects` ((effect, name, span) of each
        `snapshot` line, in order), one message each; an update writes those of a block that
        has not `failed`."""
        from syrupy.assertion import SnapshotAssertion
        from syrupy.location import PyTestLocation

        config = self.config
        if getattr(config, "_syrupy", None) is None:
            # syrupy turned off (`-p no:syrupy`): each snapshot line fails, saying why, where
            # the block failed with a traceback; its other lines still run and check
            return [f"{span}: error: cannot compare the snapshot: pytest runs without syrupy (`-p no:syrupy`)"
                    for _effect, _name, span in effects]
        update = bool(config.option.update_snapshots)
        new_only = bool(getattr(config.option, "update_new_snapshots_only", False))
        assertion = SnapshotAssertion(
            update_snapshots=update and not failed,
            update_new_snapshots_only=new_only and not failed,
            extension_class=EffectSnapshotExtension,
            test_location=PyTestLocation(self.syrupy_view),
            session=config._syrupy,
        )
        failures: list[str] = []
        for effect, name, span in effects:
            target = assertion(name=name) if name else assertion
            if target == effect:
                continue
            result = assertion.executions[assertion.num_executions - 1]
            problem = _file_problem(result)
            if problem is not None:  # syrupy's diff would be its traceback
                failures.append(f"{span}: error: {problem}")
                continue
            diff = "\n".join("    " + line for line in assertion.get_assert_diff())
            what = f"the snapshot “{name}” of “{self.decl.name}”" if name else f"the snapshot of “{self.decl.name}”"
            if result.recalled_data is None:
                how = ("not written: the test failed" if failed and (update or new_only)
                       else "run `pytest --snapshot-update` to write it")
                failures.append(f"{span}: {what} is not stored yet ({how})\n{diff}")
            else:
                how = "not updated: the test failed" if failed and update else "run `pytest --snapshot-update` to accept it"
                failures.append(f"{span}: {what} changed ({how})\n{diff}")
        return failures

    def repr_failure(self, excinfo, style=None):
        err = excinfo.value
        if isinstance(err, TestError):
            return err.render(self.game.sources)
        if isinstance(err, LudusSnapshotMismatch):
            return str(err)
        if err is self.refusal:
            from ..language.source import render_all

            return render_all(err.diagnostics, err.sources)
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.path, self.decl.span.line - 1, f"test “{self.decl.name}”"


def _file_problem(result) -> str | None:
    """What kept a snapshot file from being read or written, said as `ludus test` says it."""
    err, path = result.exception, Path(result.snapshot_location)
    with contextlib.suppress(ValueError):
        path = path.relative_to(Path.cwd())
    if isinstance(err, SnapshotFileError):
        return f"cannot {err.doing} snapshot '{path}': {err.reason}"
    if isinstance(err, OSError):  # syrupy makes the snapshot's folder before our extension writes
        return f"cannot write snapshot '{path}': {why_not(path, err)}"
    return None


class _SyrupyView:
    """A `test` block as syrupy is shown it: a test function named as its snapshot file is.

    syrupy relates a stored file to the test that owns it by reading the test's pytest node id,
    splitting it at `::` as a class's name, and comparing the Python names at the start of
    each: "a::b" reads as class "a", test "a::b", whose start "a.a" is not the file's "a.ab";
    neither are "a/b" and its file "ab", nor a long name and its file cut to 251 characters. It
    warned "Can not relate snapshot name" on each write, and when such a block failed before its
    `snapshot` line, `--snapshot-update` deleted the snapshot as unused. Named as its first
    snapshot file, with no class, the block owns its files by syrupy's own reading, and the
    names syrupy gives them are those `ludus test` gives (tests/language/test_snapshot_names.py).
    Anything else syrupy reads (the item's path, its stash) is the item's."""

    def __init__(self, item: LudusTestItem) -> None:
        from ..language.snapshot_names import snapshot_stem

        self._item = item
        self.name = snapshot_stem(item.decl.name, 0)
        # one per file: two blocks of one file with one stem are an error, and do not load
        self.nodeid = f"{item.getparent(LudusFile).nodeid}::{self.name}"
        self.obj = _named(self.name, item.path.stem)

    def __getattr__(self, attr):
        return getattr(self._item, attr)


class LudusSnapshotMismatch(Exception):
    """A `snapshot` line whose effect differs from the stored one."""


def _named(name: str, module: str):
    def test() -> None:  # pragma: no cover - only its name is used
        pass

    test.__name__ = test.__qualname__ = name
    test.__module__ = module
    return test


# ───────────────────────── syrupy and `test` blocks ─────────────────────────
# syrupy decides which stored snapshots are unused (and deletes them on --snapshot-update) from
# the test items it knows, and it knows only Python test functions. Without these hooks a run
# that deselects `test` blocks (-k, a node id) or fails one before its `snapshot` line would
# count their snapshots as unused and delete them. syrupy is shown each block as its
# `_SyrupyView`, under the view's node id, and is kept away from the files in a game's snapshot
# folder: which of them no block uses is found as `ludus test` finds it (`_unused_of_whole_games`).


@pytest.hookimpl(tryfirst=True)  # before -k and other filters deselect any
def pytest_collection_modifyitems(session, config, items):
    syrupy = getattr(config, "_syrupy", None)
    if syrupy is not None:
        for item in items:
            if isinstance(item, LudusTestItem):
                syrupy._collected_items[item.syrupy_view.nodeid] = item.syrupy_view


@pytest.hookimpl(trylast=True)
def pytest_collection_finish(session):
    syrupy = getattr(session.config, "_syrupy", None)
    if syrupy is not None:
        from syrupy.session import ItemStatus

        for item in session.items:
            if isinstance(item, LudusTestItem):
                syrupy._selected_items[item.syrupy_view.nodeid] = ItemStatus.NOT_RUN
        _keep_game_snapshots_from_syrupy(session.config, syrupy)
    _note_whole_games(session)


def _note_whole_games(session) -> None:
    """Note the game files all of whose `test` blocks this run selected (no `-k`, no node id
    that leaves one out), which load and whose snapshot folder is theirs alone: only in such a
    run are the files no block uses told (as `ludus test` tells them in a run of all the tests)."""
    config = session.config
    picked: dict[str, list] = {}
    for item in session.items:
        if isinstance(item, LudusTestItem):
            picked.setdefault(str(item.path.resolve()), []).append(item)
    whole = {}
    for key, tests in config.stash.get(SHOWN_GAMES, {}).items():
        items = picked.get(key, [])
        if not tests or any(item.refusal is not None for item in items):
            continue
        if {id(item.decl) for item in items} == {id(decl) for decl in tests}:
            whole[key] = (items[0].path, tests, {item.nodeid for item in items})
    config.stash[WHOLE_GAMES] = whole


def _keep_game_snapshots_from_syrupy(config, syrupy) -> None:
    """syrupy looks through the whole `__snapshots__` folder beside each test file it collects,
    and takes any file there that no test of this run used for an unused snapshot, deleted on
    `--snapshot-update` (syrupy's default extension claims every file in the folder, of any
    extension). It cannot tell that a folder `__snapshots__/STEM/` holds the snapshots of the
    game file `STEM.ludus`, so it deleted them when that game's blocks were not in the run (not
    named, `--ignore`d, or failing to load); where a Python module `STEM.py` shares the folder,
    an update of either file deleted the other's; and it relates a file to a test by the Python
    name each starts with, so to syrupy `Buy.txt`, left by a test renamed `Buy a card`, was that
    test's: kept while the test failed, and deleted as unused by a run of that test alone.
    syrupy deletes nothing that a skipped test owns: each file in the snapshot folder of a game
    file is given one, a stand-in that only syrupy sees, and the files no block uses are told
    and deleted by this plugin (`_unused_of_whole_games`), as `ludus test` tells them. A folder
    shared with a Python module is no one's, until one of the two files is renamed (the game's
    blocks fail till then); one whose game file is gone is syrupy's to clean up."""
    from syrupy.session import ItemStatus

    dirname = str(getattr(config.option, "snapshot_dirname", None) or "__snapshots__")
    for site in {Path(item.path).parent for item in list(syrupy._collected_items.values())}:
        try:
            folders = [p for p in (site / dirname).iterdir() if p.is_dir()]
        except OSError:
            continue
        for folder in folders:
            game = site / f"{folder.name}.ludus"
            if not runs_own_tests(game):
                continue
            try:
                files = [p for p in folder.iterdir() if not p.name.startswith(".") and p.is_file()]
            except OSError:
                continue
            for file in files:
                owner = _SnapshotOwner(game, file)
                syrupy._collected_items[owner.nodeid] = owner
                syrupy._selected_items[owner.nodeid] = ItemStatus.SKIPPED


class _SnapshotOwner:
    """A skipped test, as syrupy reads one, that owns the stored snapshot `file` of `game`:
    named as the file is, at the game's path (what syrupy relates a snapshot to a test by)."""

    def __init__(self, game: Path, file: Path) -> None:
        self.path = game
        self.name = file.stem
        # a node id of no real item: no `::` inside, which syrupy would read as a class
        self.nodeid = f"{game.resolve()} (stored snapshot)::{file.stem}"
        self.obj = _named(file.stem, game.stem)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """A failed `test` block keeps its snapshots, even those after the line that failed: syrupy
    deletes nothing that a skipped test owns, so the block is recorded as skipped for that purpose.
    Each outcome is recorded for the block's view too: syrupy's own hook records it under the
    item's node id, which syrupy was not shown."""
    report = yield
    if call.when == "call" and item.stash.get(HELD_ASSERTIONS, None):
        _write_or_drop_snapshots(item, report)
    if isinstance(item, LudusTestItem):
        if call.when == "call":
            item.config.stash.setdefault(RAN_BLOCKS, set()).add(item.nodeid)
        if call.when == "call" and call.excinfo is not None:
            item.keep_snapshots = True
        syrupy = getattr(item.config, "_syrupy", None)
        if syrupy is not None and call.when != "teardown":
            syrupy.ran_item(item.syrupy_view.nodeid, report.outcome)
    return report


@pytest.hookimpl(trylast=True)
def pytest_runtest_teardown(item):
    syrupy = getattr(item.config, "_syrupy", None)
    if syrupy is not None and getattr(item, "keep_snapshots", False):
        from syrupy.session import ItemStatus

        syrupy._selected_items[item.syrupy_view.nodeid] = ItemStatus.SKIPPED


def pytest_sessionfinish(session):
    """The snapshot files of the game files whose blocks all ran that no block uses: told, and
    deleted by `--snapshot-update` (not with `--snapshot-no-cleanup`); as syrupy does with
    unused snapshots, a run that is no update fails for them, unless `--snapshot-warn-unused`."""
    config = session.config
    option = config.option
    if (getattr(config, "_syrupy", None) is None or hasattr(config, "workerinput")
            or getattr(option, "disable_unused_snapshots", False)):
        return
    found = _unused_of_whole_games(config, delete=bool(option.update_snapshots) and not option.no_cleanup)
    config.stash[UNUSED_FOUND] = found
    unused_fails = not option.update_snapshots and not option.warn_unused_snapshots
    if any(kind == "error" or (kind == "unused" and unused_fails) for kind, _line in found) \
            and session.exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def _unused_of_whole_games(config, delete: bool) -> list[tuple[str, str]]:
    """Each file no block uses in the snapshot folder of a game file whose blocks all ran
    (`blocks.unused_snapshots`, what `ludus test` names), deleted if `delete`, as what came of
    it ("unused", "deleted", "error" for one that could not be deleted, or "count") and a line
    to print."""
    from ..language.files import sync_folder

    ran = config.stash.get(RAN_BLOCKS, set())
    found: list[tuple[str, str]] = []
    count = deleted = 0
    for path, tests, nodeids in config.stash.get(WHOLE_GAMES, {}).values():
        if not nodeids <= ran:  # stopped early (-x, Ctrl-C): not a run of all its tests
            continue
        files = unused_snapshots(path, tests)
        for file in files:
            count += 1
            shown = _shown_path(file)
            if not delete:
                found.append(("unused", unused_text(shown, path.name)))
                continue
            try:
                file.unlink()
            except OSError as exc:
                found.append(("error", f"cannot delete unused snapshot {shown}: {why_not(file, exc)}"))
                continue
            deleted += 1
            found.append(("deleted", f"deleted {shown}: no test of {path.name} stores a snapshot there"))
        if files and delete:
            sync_folder(files[0].parent)
    if count:
        if delete:
            if deleted:
                found.append(("count", f"{deleted} unused snapshot{'' if deleted == 1 else 's'} of test blocks deleted."))
        else:
            found.append(("count", f"{count} snapshot{'' if count == 1 else 's'} of test blocks unused."))
    return found


def _shown_path(path: Path) -> Path:
    with contextlib.suppress(ValueError):
        return path.relative_to(Path.cwd())
    return path


def pytest_terminal_summary(terminalreporter, config):
    found = config.stash.get(UNUSED_FOUND, [])
    if found:
        terminalreporter.write_sep("-", "snapshots no test block uses")
        for _kind, line in found:
            terminalreporter.write_line(line)


def _write_or_drop_snapshots(item, report) -> None:
    """The snapshots a Python test's `effect_snapshot` would update, written now that it passed,
    or dropped, and said so, when it failed: its effect is not one to accept. A snapshot that
    cannot be written fails the test, at its file."""
    import dataclasses

    session = item.config._syrupy
    failed = report.outcome != "passed"
    notes, problems = [], []
    for assertion in item.stash[HELD_ASSERTIONS]:
        for number, result in list(assertion.executions.items()):
            if not (result.created or result.updated):
                continue
            key = (type(assertion.extension), result.snapshot_location)
            shown = _shown_path(Path(result.snapshot_location))
            if failed:
                session._queued_snapshot_writes.pop(key, None)
                notes.append(f"{'not written' if result.created else 'not updated'} {shown}: the test failed")
            else:
                try:
                    session._flush_snapshot_write_queue_key(key)
                    continue
                except (SnapshotFileError, OSError) as err:
                    problems.append(f"cannot write snapshot '{shown}': "
                                    f"{err.reason if isinstance(err, SnapshotFileError) else why_not(Path(shown), err)}")
            # syrupy's summary counts it as it is: not written
            assertion.executions[number] = dataclasses.replace(result, created=False, updated=False, success=False)
    if notes:
        report.sections.append(("snapshots", "\n".join(notes)))
    if problems:
        report.outcome = "failed"
        report.longrepr = "\n".join(problems)
