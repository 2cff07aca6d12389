"""Ctrl-C before a command's own handling of it begins (most often while the game loads): one
line and exit 130, as where the commands handle it, not click's "Aborted!" and exit 1.

Each command runs in a subprocess whose loading step is replaced by one that says it has begun
and then waits: the signal lands there, and only there, whatever the machine's speed. `ludus test`
and `ludus replay`, which do not handle Ctrl-C themselves, are stopped so mid-run too: what they
printed stays, as their docs say."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

import pytest

from tests.helpers import EXAMPLES, ROOT

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="sends SIGINT")

# argv: the flag file, the function to replace (module.name), then the command's arguments
LOADING_FOR_EVER = """
import importlib
import sys
import threading
from pathlib import Path

flag, target, args = Path(sys.argv[1]), sys.argv[2], sys.argv[3:]
module, _, name = target.rpartition(".")


def loading(*_args, **_kwargs):
    flag.write_text("loading", encoding="utf-8")
    threading.Event().wait()


setattr(importlib.import_module(module), name, loading)
from ludus.cli import main

main(args, prog_name="ludus")
"""

MARKET = str(EXAMPLES / "market-town.ludus")


def _default_sigint() -> None:  # a shell's background job may have been started with Ctrl-C ignored
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def interrupted_while_loading(tmp_path, target: str, args: list[str]) -> tuple[int, str, str]:
    """The exit status, stdout and stderr of the command, sent SIGINT once it is loading."""
    flag = tmp_path / "loading"
    return _interrupted(tmp_path, flag, [LOADING_FOR_EVER, str(flag), target, *args])


def _interrupted(tmp_path, flag, script_and_argv: list[str]) -> tuple[int, str, str]:
    """Run `python -c SCRIPT ARGV...`, wait (bounded) until it writes `flag`, send it SIGINT:
    its exit status, stdout and stderr."""
    proc = subprocess.Popen([sys.executable, "-c", *script_and_argv],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=str(tmp_path), preexec_fn=_default_sigint)
    try:
        for _ in range(6000):                   # until it is there (bounded)
            if flag.exists() or proc.poll() is not None:
                break
            time.sleep(0.01)
        assert flag.exists(), proc.communicate(timeout=30)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    return proc.returncode, out, err


@pytest.mark.parametrize("target, args", [
    ("ludus.cli.load", ["simulate", MARKET, "-n", "5"]),
    ("ludus.cli.load", ["play", MARKET]),
    ("ludus.testing.blocks.run_file", ["test", str(EXAMPLES / "market-town.tests.ludus")]),
    ("ludus.replay.load_replay", ["replay", "match.replay"]),
], ids=["simulate", "play", "test", "replay"])
def test_ctrl_c_while_loading_is_one_line_and_exit_130(tmp_path, target, args):
    assert interrupted_while_loading(tmp_path, target, args) == (130, "", "interrupted (Ctrl-C)\n")


def test_ctrl_c_while_the_language_server_starts_is_exit_130_and_nothing_on_stderr(tmp_path):
    """As Ctrl-C once the server runs (tests/lsp/test_lifecycle.py): stderr is the editor's log."""
    pytest.importorskip("pygls")
    assert interrupted_while_loading(tmp_path, "ludus.lsp.server.make_server", ["lsp"]) == (130, "", "")



# argv: the flag file, the function to replace (module.name), which call of it waits, then the
# command's arguments: the calls before that one run as they would
WAITING_AT_CALL = """
import importlib
import sys
import threading
from pathlib import Path

flag, target, at, args = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4:]
module, _, name = target.rpartition(".")
real = getattr(importlib.import_module(module), name)
calls = []


def waiting(*args, **kwargs):
    calls.append(1)
    if len(calls) == at:
        flag.write_text("running", encoding="utf-8")
        threading.Event().wait()
    return real(*args, **kwargs)


setattr(importlib.import_module(module), name, waiting)
from ludus.cli import main

main(args, prog_name="ludus")
"""


def interrupted_while_running(tmp_path, target: str, args: list[str]) -> tuple[int, str, str]:
    """The exit status, stdout and stderr of the command, sent SIGINT at the third call of target."""
    flag = tmp_path / "running"
    return _interrupted(tmp_path, flag, [WAITING_AT_CALL, str(flag), target, "3", *args])


def test_ctrl_c_while_tests_run_keeps_their_results_and_exits_130(tmp_path):
    """As docs/testing.md says: the results so far stay printed, the count line is not."""
    status, out, err = interrupted_while_running(tmp_path, "ludus.testing.blocks.run_test_decl",
                                                 ["test", str(EXAMPLES / "market-town.tests.ludus")])
    assert (status, err) == (130, "interrupted (Ctrl-C)\n")
    assert out.count("\nok   ") + out.startswith("ok   ") == 2 and "passed" not in out


def test_ctrl_c_while_a_replay_runs_keeps_its_transcript_and_exits_130(tmp_path):
    """As docs/replays.md says: the transcript so far stays printed."""
    status, out, err = interrupted_while_running(tmp_path, "ludus.replay.script.apply_move",
                                                 ["replay", str(EXAMPLES / "replays" / "full-match.replay")])
    assert (status, err) == (130, "interrupted (Ctrl-C)\n")
    assert out.startswith("# Market Town") and len([x for x in out.splitlines() if ": buy " in x or ": build " in x]) == 2


def test_the_docs_of_play_test_and_replay_say_what_ctrl_c_does():
    from ludus.repl.session import INTERRUPTED as IN_A_SESSION

    for page in ("repl.md", "testing.md", "replays.md"):
        text = " ".join((ROOT / "docs" / page).read_text(encoding="utf-8").split())
        assert "`interrupted (Ctrl-C)`" in text and "130" in text, page
    assert f"error: {IN_A_SESSION}" in (ROOT / "docs" / "repl.md").read_text(encoding="utf-8")
