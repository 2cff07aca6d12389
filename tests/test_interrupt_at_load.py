"""Ctrl-C before a command's own handling of it begins (most often while the game loads): one
line and exit 130, as where the commands handle it, not click's "Aborted!" and exit 1.

Each command runs in a subprocess whose loading step is replaced by one that says it has begun
and then waits: the signal lands there, and only there, whatever the machine's speed."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

import pytest

from tests.helpers import EXAMPLES

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
    proc = subprocess.Popen([sys.executable, "-c", LOADING_FOR_EVER, str(flag), target, *args],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=str(tmp_path), preexec_fn=_default_sigint)
    try:
        for _ in range(6000):                   # until it is loading (bounded)
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
