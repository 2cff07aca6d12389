"""Shared test helpers: paths and small game-building utilities."""

from __future__ import annotations

import io
from collections import Counter
from pathlib import Path

import ludus

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
GAMES = ROOT / "games"


def shipped_games() -> list[str]:
    """Every game a user may load from games/ and examples/ (discover.games_in: each game and
    variant file), as paths from the root, but not the test files (`NAME.tests.ludus`, which
    extend the game they test). Lists that must name every shipped game (the adapters', the
    playout digests') are checked against it."""
    from ludus.language.discover import games_in

    return sorted(path.relative_to(ROOT).as_posix() for folder in (GAMES, EXAMPLES) for path in games_in(folder)
                  if not path.name.endswith(".tests.ludus"))


def game_from_text(tmp_path: Path, text: str, name: str = "game.ludus") -> ludus.Game:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return ludus.load(path)


def no_home_files(monkeypatch) -> None:
    """Keep a REPL from the user's files: no history file and no kept sessions, both turned off
    (the fixture `no_home_files` of tests/repl does this; tests elsewhere call it from theirs)."""
    monkeypatch.setenv("LUDUS_HISTORY", "")
    monkeypatch.setenv("LUDUS_SESSIONS", "")


def repl_on(match, path: Path, width: int = 100, terminal: bool = False, **kw):
    """A REPL on `match` (a match of the game at `path`) that prints plain text, `width` columns
    wide, to a buffer: the REPL and the buffer. With `terminal` the buffer is taken for a
    terminal, so what the REPL sends only to one (clearing the screen) is printed too, still
    without colour. `kw` goes to the REPL (bots=, view=, ...)."""
    from rich.console import Console

    from ludus.repl import Repl

    out = io.StringIO()
    console = Console(file=out, width=width, color_system=None, highlight=False, markup=False,
                      **({"force_terminal": True, "legacy_windows": False} if terminal else {}))
    return Repl(match, path, console, **kw), out


def repl_of(path: Path, players: int | None = None, seed: int = 0, width: int = 100, terminal: bool = False,
            **kw):
    """`repl_on` a new match of the game at `path`, loaded afresh."""
    return repl_on(ludus.load(path).new_match(players, seed=seed), path, width, terminal, **kw)


def printed(repl, out: io.StringIO, line: str) -> str:
    """What `repl` prints to `out` (as made by `repl_on`) as it handles `line`."""
    start = len(out.getvalue())
    repl.handle(line)
    return out.getvalue()[start:]


def said(repl, out: io.StringIO, line: str) -> list[str]:
    """The lines `repl` prints to `out` as it handles `line`."""
    return printed(repl, out, line).splitlines()


def play_random(match, rng, limit: int = 5000) -> int:
    steps = 0
    while not match.is_over and steps < limit:
        match.apply(rng.choice(match.legal_actions()))
        steps += 1
    return steps


def work_charges(monkeypatch) -> Counter:
    """Every amount the runtimes' count of work (Runtime.work) grows by, counted from now on: a
    define's body charges the length of the list it builds, whether its closure charges it or
    generated code adds it in place, so its runs can be counted by that amount."""
    from ludus.engine.runtime import Runtime

    count: Counter = Counter()
    slot = Runtime.__dict__["work"]

    def set_work(self, value):
        try:
            count[value - slot.__get__(self)] += 1
        except AttributeError:  # the first value, set when the runtime is made
            pass
        slot.__set__(self, value)
    monkeypatch.setattr(Runtime, "work", property(slot.__get__, set_work))
    return count


def bounded(call, seconds: float = 60, waiting: str = "the run still waits"):
    """What `call` returned, or what it raised, run in a thread given `seconds`: a call that
    would wait for ever fails the test (`waiting` says what waited) instead of hanging it."""
    import threading

    out = {}

    def target():
        try:
            out["result"] = call()
        except BaseException as exc:
            out["error"] = exc

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), waiting
    if "error" in out:
        raise out["error"]
    return out["result"]


def no_crash(result) -> bool:
    """Whether a command run by click's CliRunner ended as the command meant it to, returning or
    exiting with a status it chose, rather than by an exception it let escape. CliRunner keeps
    such an exception in `result.exception` and prints no traceback, so `"Traceback" not in
    result.output` passes on a crash; this does not. (A crash exits 1, as many clean errors do.)"""
    return result.exception is None or isinstance(result.exception, SystemExit)
