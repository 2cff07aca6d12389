"""Ctrl-C during `ludus simulate`: the run stops and prints the report of the matches played."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

import pytest

from tests.helpers import GAMES


def _default_sigint() -> None:  # a shell's background job may have been started with Ctrl-C ignored
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize("workers", ["1", "2"])
def test_ctrl_c_prints_the_report_so_far_and_exits_130(workers):
    command = [sys.executable, "-m", "ludus", "simulate", str(GAMES / "uprising.ludus"), "-n", "100000", "-w", workers]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=_default_sigint)
    time.sleep(3)
    proc.send_signal(signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    first, second = out.splitlines()[:2]
    played = int(first.split()[2])
    assert first == f"interrupted after {played} of 100000 matches: the report so far"
    assert second.startswith(f"Uprising: {played} matches, 2 players, ")
    assert 0 < played < 100000
