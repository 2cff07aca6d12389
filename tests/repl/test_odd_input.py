"""Odd and extreme input at the REPL: each line refused gets one clear error, the session goes
on, the match is as it was (its JSON compared), and no file is written or lost."""

from __future__ import annotations

import io
import json

import pytest
from rich.console import Console

import ludus
from ludus.repl import Repl
from ludus.repl.session import plain_reader
from tests.helpers import EXAMPLES, repl_of, repl_on

GAME_PATH = EXAMPLES / "market-town.ludus"
GAME = ludus.load(GAME_PATH)


def make_repl(**kw) -> tuple[Repl, io.StringIO]:
    return repl_on(GAME.new_match(2, seed=3), GAME_PATH, **kw)


def refused(repl: Repl, out: io.StringIO, line: str) -> str:
    """The one error line `line` gets; the match and the session's notes stay as they were."""
    before, notes, count = repl.match.to_json(), list(repl.notes), repl.rejected
    start = len(out.getvalue())
    assert repl.handle(line) is True
    printed = out.getvalue()[start:].splitlines()
    assert repl.rejected == count + 1
    assert len(printed) == 1 and printed[0].startswith("error: "), printed
    assert "internal error" not in printed[0]
    assert repl.match.to_json() == before and repl.notes == notes
    return printed[0]


pytestmark = pytest.mark.usefixtures("sessions_in_tmp")


@pytest.fixture(autouse=True)
def ctrl_c_as_at_a_terminal():
    """Ctrl-C handled by Python, as in a session at a terminal, even when the tests run in a
    process started with it ignored (a shell's background job, some CI runners): there the REPL
    rightly leaves Ctrl-C alone (ctrl_c_held), and the tests that press it would test nothing."""
    import signal

    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


@pytest.mark.parametrize("command", ["save", "export"])
def test_a_file_name_too_long_for_the_file_system_is_refused(tmp_path, command):
    # each part of a path is at most 255 bytes on common file systems: the OS refuses the name
    repl, out = make_repl()
    name = tmp_path / ("x" * 300 + ".json")
    error = refused(repl, out, f"{command} {name}")
    assert error.endswith(f"x.json ({len(str(name)):,} characters)': File name too long")
    assert error.startswith(f"error: cannot write '{str(name)[:60]}...")
    assert list(tmp_path.iterdir()) == []


def test_a_very_long_line_is_quoted_by_its_start_and_end():
    repl, out = make_repl()
    error = refused(repl, out, "buy " + "x" * 100_000)
    assert len(error) < 400
    assert error.startswith("error: 'buy xxx") and "...xxxxxxxxxxxxxxxxxxxx (100,004 characters)' is" in error
    assert len(refused(repl, out, "show " + "é" * 100_000)) < 400


def test_control_characters_in_a_line_are_shown_as_escapes():
    # printed as they are, they would move the cursor or clear the screen; the terminal's
    # own reading of them would also leave the message saying something else than was typed
    repl, out = make_repl()
    assert refused(repl, out, "moves \x1b[2J") == "error: no move holds '\\x1b[2J' (3 moves; `moves` lists them all)"
    assert refused(repl, out, "help \x07").startswith("error: no command '\\x07'; the commands are")


def test_log_0_is_refused_rather_than_listing_everything():
    repl, out = make_repl()
    assert refused(repl, out, "log 0") == "error: `log` takes a number of entries, 1 or more, not '0'"
    assert repl.handle("log 1")
    assert out.getvalue().splitlines()[-1] == "  shuffled deck of Basil"


def test_bot_without_a_seat_says_what_it_takes():
    repl, out = make_repl()
    assert refused(repl, out, "bot") == \
        "error: `bot` needs a seat: bot SEAT KIND[:BUDGET][:OPTION=N]|off; the seats are Amber, Basil"


def test_a_replay_that_does_not_read_is_named_once_at_its_place(tmp_path):
    repl, out = make_repl()
    path = tmp_path / "r.replay"
    path.write_text(f"game {GAME_PATH}\nplayers 2\nseed abc\n", encoding="utf-8")
    assert refused(repl, out, f"load {path}") == \
        f"error: {path}:3:6: 'seed' needs a whole number of at most 15 digits, not 'abc'"


# ── saved sessions ──


def _saved(tmp_path, change) -> str:
    repl, _ = make_repl()
    assert repl.handle("force d6 = 4") and repl.handle("2")
    path = tmp_path / "s.json"
    assert repl.handle(f"save {path}")
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data["session"])
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("setup", [["rm -rf /"], [{"a": 1}], "force d6 = 1", ["force d6 = 9"],
                                   ["force d6 = 1\nbuy nothing"]])
def test_a_save_whose_setup_lines_are_damaged_is_refused(tmp_path, setup):
    # they go into every export as `setup ...` lines: loaded, the export would not replay
    path = _saved(tmp_path, lambda s: s.update(setup=setup))
    repl, out = make_repl()
    error = refused(repl, out, f"load {path}")
    assert error.startswith(f"error: cannot load '{path}': ")


def test_a_save_with_setup_lines_a_replay_takes_loads_and_exports_them(tmp_path):
    path = _saved(tmp_path, lambda s: s.update(setup=["force d6 = 1", "force order supply = Town Crier"]))
    repl, out = make_repl()
    assert repl.handle(f"load {path}") and repl.rejected == 0
    assert repl.setup == ["force d6 = 1", "force order supply = Town Crier"]


def test_a_save_whose_forced_roll_the_game_never_rolls_says_so(tmp_path):
    path = _saved(tmp_path, lambda s: s.update(notes=[[0, "force", "force d20 = 3", [["die", 20, 3]]]]))
    repl, out = make_repl()
    assert refused(repl, out, f"load {path}") == (
        f"error: cannot load '{path}': a forced outcome of the saved session is refused: "
        "Market Town never rolls a d20; it rolls a d6")


# ── Ctrl-C ──


def test_ctrl_c_while_a_bot_thinks_stops_the_line_and_the_session_goes_on(tmp_path):
    repl, out = make_repl(bots={1: "random"}, keep_unsaved=True)

    class Interrupted:
        def choice(self, options):
            raise KeyboardInterrupt

    repl.rng = Interrupted()
    lines = io.StringIO("2\nbuild nothing\nshow hand of Amber\n")
    try:
        repl.run(plain_reader(lines, repl.console))
    except KeyboardInterrupt:
        pytest.fail("Ctrl-C ended the session")
    text = out.getvalue()
    assert "error: interrupted (Ctrl-C); each move is taken whole or not at all" in text
    assert "hand of Amber" in text.split("interrupted")[1]  # the next line was still read
    # Amber's moves stand, whole; Basil, the bot's seat, is still to move
    by_hand = GAME.new_match(2, seed=3)
    by_hand.apply("buy Tax Collector")
    by_hand.apply("build nothing")
    assert repl.match.to_json() == by_hand.to_json()
    # and the unsaved moves were kept on leaving
    assert len(list((tmp_path / "sessions").iterdir())) == 1


def test_ctrl_c_in_a_move_s_rules_leaves_the_match_as_it_was(monkeypatch):
    repl, out = make_repl()
    before = repl.match.to_json()
    from ludus.engine import vm

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(vm, "answer", interrupted)
    try:
        error = refused(repl, out, "2")
    except KeyboardInterrupt:
        pytest.fail("Ctrl-C ended the session")
    assert error.startswith("error: interrupted (Ctrl-C)")
    assert repl.match.to_json() == before


def _ctrl_c_at_the_rename(monkeypatch, presses: int, times: int = 1) -> list[str]:
    """Ctrl-C pressed `presses` times, as a signal, while a file is renamed into place (the last
    step of a write), for the next `times` writes; returns the files written, in turn."""
    import signal

    from ludus.language import files

    real, written, calls = files.os.replace, [], []

    def replace(src, dst):
        calls.append(dst)
        if len(calls) <= times:
            for _ in range(presses):
                signal.raise_signal(signal.SIGINT)
        real(src, dst)
        written.append(str(dst))

    monkeypatch.setattr(files.os, "replace", replace)
    return written


def _leftovers(folder) -> list[str]:
    return [p.name for p in folder.rglob("*.tmp")]


def test_ctrl_c_while_save_writes_waits_for_the_file_and_the_match_is_saved(tmp_path, monkeypatch):
    # the Ctrl-C came as the file was renamed into place: the file was written, yet the line
    # said "interrupted", and the moves were taken for unsaved
    repl, out = make_repl()
    monkeypatch.chdir(tmp_path)
    assert repl.handle("2")
    written = _ctrl_c_at_the_rename(monkeypatch, presses=1)
    assert repl.handle("save s.json") and repl.rejected == 0
    assert out.getvalue().splitlines()[-1] == "saved to s.json (1 move)"
    assert written == ["s.json"] and repl.saved_moves == repl.match.moves
    assert json.loads((tmp_path / "s.json").read_text())["moves"] == repl.match.moves
    assert _leftovers(tmp_path) == []


def test_a_second_ctrl_c_stops_the_save_and_leaves_the_file_as_it_was(tmp_path, monkeypatch):
    repl, out = make_repl(keep_unsaved=True)
    monkeypatch.chdir(tmp_path)
    assert repl.handle("save s.json") and repl.rejected == 0
    before = (tmp_path / "s.json").read_text()
    assert repl.handle("2")
    _ctrl_c_at_the_rename(monkeypatch, presses=2)
    error = refused(repl, out, "save s.json")
    assert error == "error: interrupted (Ctrl-C) while writing 's.json': the match is not saved, and a file there is as it was"
    assert (tmp_path / "s.json").read_text() == before and _leftovers(tmp_path) == []
    assert repl.saved_moves == [] and repl.match.moves  # the move is still unsaved: leaving keeps it
    assert repl.may_leave() and len(list((tmp_path / "sessions").iterdir())) == 1


def test_ctrl_c_while_quit_keeps_the_unsaved_moves_waits_for_them_to_be_kept(tmp_path, monkeypatch):
    repl, out = make_repl(keep_unsaved=True)
    assert repl.handle("2")
    written = _ctrl_c_at_the_rename(monkeypatch, presses=1)
    try:
        repl.run(plain_reader(io.StringIO("quit\n"), repl.console))
    except KeyboardInterrupt:
        pytest.fail("Ctrl-C while the moves were kept ended the session with a traceback")
    [kept] = (tmp_path / "sessions").iterdir()
    assert written == [str(kept)] and "interrupted" not in out.getvalue()
    assert f"the session's unsaved moves are kept in {kept}" in out.getvalue()
    assert _leftovers(tmp_path) == []
    again = make_repl()[0]
    assert again.handle(f"load {kept}") and again.rejected == 0 and again.match.to_json() == repl.match.to_json()


@pytest.mark.parametrize("leaving", ["quit", "end of input"])
def test_ctrl_c_that_stops_keeping_the_unsaved_moves_refuses_leaving_once(tmp_path, monkeypatch, leaving):
    # at the end of input, the Ctrl-C ended the session with KeyboardInterrupt, the moves kept
    # or not; at `quit`, the error said only that each move is taken whole
    from ludus.language import files

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    repl, out = make_repl(keep_unsaved=True)
    assert repl.handle("2")
    monkeypatch.setattr(files.os, "replace", interrupted)
    lines = iter([EOFError() if leaving == "end of input" else "quit", f"export {tmp_path / 'x.replay'}", EOFError()])

    def read(_prompt: str) -> str:
        line = next(lines)
        if isinstance(line, Exception):
            raise line
        return line

    try:
        repl.run(read)
    except KeyboardInterrupt:
        pytest.fail("Ctrl-C while the moves were kept ended the session with a traceback")
    text = out.getvalue()
    assert (f"error: interrupted (Ctrl-C) before the unsaved moves were kept in {tmp_path / 'sessions'}; "
            "`export FILE` keeps them, or `quit` again to leave without them") in text, text
    # a failure the REPL did not foresee is said as an internal error (it prints no traceback)
    assert "internal error" not in text and _leftovers(tmp_path) == []
    # the session went on: the export was tried, and refused as the disk still refuses
    assert (f"error: interrupted (Ctrl-C) while writing '{tmp_path / 'x.replay'}': the session is not exported, "
            "and a file there is as it was") in text, text
    assert not (tmp_path / "sessions").exists() or not list((tmp_path / "sessions").iterdir())


# ── the prompt history file ──


@pytest.mark.parametrize("kind", ["folder", "missing folder", "fifo"])
def test_a_history_file_that_cannot_be_used_is_named_and_the_session_goes_on(tmp_path, kind):
    # prompt_toolkit would print a traceback at every line and wait for Enter (a folder), or
    # block at the first prompt until something opened the FIFO
    import os

    from prompt_toolkit.history import FileHistory
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from ludus.repl import prompt_reader

    path = tmp_path / "h"
    if kind == "folder":
        path.mkdir()
    elif kind == "missing folder":
        path = tmp_path / "no" / "h"
    else:
        os.mkfifo(path)
    repl, out = make_repl()
    with create_pipe_input() as pipe:
        read = prompt_reader(repl, input=pipe, output=DummyOutput(), history=str(path))
        assert f"warning: no prompt history is kept: cannot use '{path}' (" in out.getvalue()
        assert not isinstance(read.__self__.history, FileHistory)  # never opened again
        pipe.send_text("2\rquit\r")
        repl.run(read)
    assert repl.match.moves == ["buy Tax Collector"]
    assert kind != "missing folder" or not path.parent.exists()


def test_a_history_file_that_stops_working_keeps_the_lines_in_memory(tmp_path):
    from prompt_toolkit.history import FileHistory
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from ludus.repl import prompt_reader

    path = tmp_path / "h"
    repl, out = make_repl()
    with create_pipe_input() as pipe:
        read = prompt_reader(repl, input=pipe, output=DummyOutput(), history=str(path))
        assert isinstance(read.__self__.history, FileHistory)  # the file is taken, and nothing is said of it
        assert out.getvalue() == ""
        path.unlink()
        path.mkdir()  # the file is now a folder: writing to it fails
        history = read.__self__.history
        history.store_string("buy nothing")
        assert list(history.load_history_strings()) == []
        pipe.send_text("2\rquit\r")
        repl.run(read)
    assert repl.match.moves == ["buy Tax Collector"]


def test_load_reads_a_replay_whatever_the_case_of_its_suffix(tmp_path):
    repl, out = make_repl()
    assert repl.handle("2")
    path = tmp_path / "Session.REPLAY"
    assert repl.handle(f"export {path}") and repl.rejected == 0
    other, out = make_repl()
    assert other.handle(f"load {path}")
    assert other.rejected == 0 and other.match.moves == ["buy Tax Collector"]


@pytest.mark.parametrize("how", ["script", "pipe"])
def test_a_line_that_is_not_utf8_is_refused_and_the_script_goes_on(tmp_path, how):
    from click.testing import CliRunner

    from ludus.cli import main

    data = b"\xef\xbb\xbf2\n\xff\xfe\nbuild nothing\n"  # a byte-order mark, then a line of bad bytes
    script = tmp_path / "lines.txt"
    script.write_bytes(data)
    args = ["play", str(GAME_PATH), "--seed", "3"]
    result = CliRunner().invoke(main, args + ["--script", str(script)]) if how == "script" \
        else CliRunner().invoke(main, args, input=data)
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert result.exit_code == 1  # a line was refused
    lines = result.output.splitlines()
    assert "Amber> 2" in lines
    assert "error: '\\xff\\xfe' is neither a command nor a legal move for Amber; the moves are 1. build nothing" in lines
    assert "Amber> build nothing" in lines and lines[-3] == "Basil: take an action"


def test_a_save_of_another_game_is_refused_naming_that_game(tmp_path):
    other = ludus.load(EXAMPLES / "connect-four.ludus").new_match(2)
    path = tmp_path / "c4.json"
    path.write_text(other.to_json(), encoding="utf-8")
    repl, out = make_repl()
    assert refused(repl, out, f"load {path}") == \
        f"error: cannot load '{path}': it is a saved match of 'Connect Four', not of 'Market Town'"


def test_a_very_long_line_with_control_characters_is_cut_and_escaped():
    repl, out = make_repl()
    error = refused(repl, out, "\x1b[2J" + "x" * 100_000)
    assert error.startswith("error: '\\x1b[2Jxxx") and "(100,004 characters)'" in error and len(error) < 400


def test_a_replay_whose_game_is_a_symbolic_link_loop_is_refused(tmp_path):
    (tmp_path / "loop.ludus").symlink_to(tmp_path / "loop.ludus")
    path = tmp_path / "r.replay"
    path.write_text("game loop.ludus\nplayers 2\n", encoding="utf-8")
    repl, out = make_repl()
    assert refused(repl, out, f"load {path}") == f"error: '{path}' replays loop.ludus, not {GAME_PATH}"


def test_a_replay_of_the_game_through_a_hard_link_loads(tmp_path):
    import os
    import shutil

    game = tmp_path / "market-town.ludus"
    shutil.copy(GAME_PATH, game)
    os.link(game, tmp_path / "linked.ludus")
    path = tmp_path / "r.replay"
    path.write_text("game linked.ludus\nplayers 2\nseed 3\nbuy Tax Collector\n", encoding="utf-8")
    repl, _ = repl_of(game, 2, seed=3)
    assert repl.handle(f"load {path}") and repl.rejected == 0
    assert repl.match.moves == ["buy Tax Collector"]


# ── unsaved moves that cannot be kept ──


@pytest.fixture
def nowhere_to_keep(monkeypatch, tmp_path):
    """A sessions folder that cannot be made: its name is taken by a file."""
    taken = tmp_path / "taken"
    taken.write_text("notes\n", encoding="utf-8")
    monkeypatch.setenv("LUDUS_SESSIONS", str(taken))
    return taken


def lines_then_end(*lines: str):
    queue = list(lines)

    def read(prompt: str) -> str:
        if not queue:
            raise EOFError  # the end of input, every time it is asked again (Ctrl-D)
        return queue.pop(0)
    return read


@pytest.mark.parametrize("leave", ["quit", "end of input"])
def test_leaving_with_moves_that_cannot_be_kept_is_refused_once(nowhere_to_keep, leave):
    repl, out = make_repl(keep_unsaved=True)
    first = ["2", "quit"] if leave == "quit" else ["2"]
    repl.run(lines_then_end(*first, "build nothing", "quit") if leave == "quit" else lines_then_end(*first))
    text = out.getvalue()
    assert f"error: could not keep the unsaved moves in {nowhere_to_keep} (" in text
    assert "`export FILE` keeps them, or `quit` again to leave without them" in text
    if leave == "quit":  # the session went on after the first `quit`
        assert repl.match.moves == ["buy Tax Collector", "build nothing"]
    assert text.count("could not keep") == 1  # said once, not again on leaving
    assert nowhere_to_keep.read_text(encoding="utf-8") == "notes\n"


def test_leaving_after_an_export_needs_nothing_kept(nowhere_to_keep, tmp_path):
    repl, out = make_repl(keep_unsaved=True)
    repl.run(lines_then_end("2", f"export {tmp_path / 's.replay'}", "quit"))
    assert f"exported 1 move to {tmp_path / 's.replay'}; " in out.getvalue()
    assert "could not keep" not in out.getvalue()
    assert (tmp_path / "s.replay").is_file()


@pytest.mark.parametrize("line", ["restart", "load {saved}"])
def test_restart_or_load_that_would_drop_moves_it_cannot_keep_changes_nothing(nowhere_to_keep, tmp_path, line):
    other, _ = make_repl()
    saved = tmp_path / "other.json"
    assert other.handle(f"save {saved}")
    repl, out = make_repl(keep_unsaved=True)
    assert repl.handle("2")
    error = refused(repl, out, line.format(saved=saved))
    assert f"could not keep the unsaved moves in {nowhere_to_keep} (" in error
    assert error.endswith("`export FILE` keeps them, then " + ("`restart` again" if line == "restart" else "try again"))
    assert repl.match.moves == ["buy Tax Collector"]
    assert repl.handle(f"export {tmp_path / 's.replay'}") and repl.handle(line.format(saved=saved))
    assert repl.match.moves == [] and repl.rejected == 1


ENDLESS = '''game "Endless"
players 2
counter n per seat

action Pass:
    gain 1 n
    set n to 0

flow:
    while true:
        for each s in seats:
            turn s:
                offer Pass
'''


def test_bots_in_a_match_that_never_ends_stop_with_an_error(tmp_path, monkeypatch):
    # every seat a bot's, in a game whose flow never ends: the line played 100,000 moves, then
    # stopped without a word, its last seat still a bot's at the prompt
    from ludus.repl import session

    monkeypatch.setattr(session, "BOT_MOVES_IN_A_ROW", 50)
    path = tmp_path / "endless.ludus"
    path.write_text(ENDLESS, encoding="utf-8")
    game = ludus.load(path)
    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None, highlight=False, markup=False)
    repl = Repl(game.new_match(2), path, console)
    assert repl.handle("bot P2 random") is True and repl.handle("bot P1 random") is True
    text = out.getvalue()
    assert text.count("(bot): Pass") == 50
    assert ("error: the bots made 50 moves in a row and the match has not ended (does it ever end?); they stop "
            "here: make P1's move to let them go on, or take a seat back with `bot P1 off`") in text
    assert repl.handle("bot P1 off") is True and repl.handle("1") is True  # P1's move, then P2's bot's
    assert out.getvalue().count("(bot): Pass") == 51 and repl.match.current == 0
