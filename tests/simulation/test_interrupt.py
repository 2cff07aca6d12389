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


@pytest.fixture
def ctrl_c():
    """Press Ctrl-C in this process, as a terminal does: SIGINT, handled where the code is."""
    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        pytest.skip("Ctrl-C is handled by something else in this test run")
    return lambda: signal.raise_signal(signal.SIGINT)


def test_a_second_ctrl_c_while_a_pool_stops_stops_its_workers_and_keeps_what_came_back(monkeypatch, ctrl_c):
    import multiprocessing.synchronize

    from ludus.simulation.parallel import Job, run
    from tests.helpers import EXAMPLES

    real_set = multiprocessing.synchronize.Event.set

    def set_and_press_again(self):  # the second press comes as the run tells its workers to stop
        ctrl_c()
        real_set(self)

    monkeypatch.setattr(multiprocessing.synchronize.Event, "set", set_and_press_again)
    presses = {"n": 0}

    def progress(n):
        presses["n"] += 1
        if presses["n"] == 1:
            ctrl_c()

    try:
        result = run([Job(str(EXAMPLES / "market-town.ludus"), 2, {})], 2000, 1, workers=2, progress=progress)
    except KeyboardInterrupt:
        pytest.fail("the second Ctrl-C went up out of the run, and the matches played with it")
    assert result.interrupted and 0 < result.done() < 2000
    seeds = [r.seed for r in result.records[0]]
    assert seeds == sorted(seeds) and len(set(seeds)) == len(seeds)


def test_a_second_ctrl_c_after_the_run_stopped_still_prints_the_report_so_far(monkeypatch, ctrl_c):
    from click.testing import CliRunner

    import ludus.simulation.cli as sim_cli
    from ludus.cli import main
    from ludus.simulation import parallel
    from tests.helpers import EXAMPLES

    real_play, real_fold = parallel.play_match, sim_cli.fold
    played = {"n": 0}

    def play_and_press(*args, **kwargs):
        played["n"] += 1
        if played["n"] == 6:
            ctrl_c()
        return real_play(*args, **kwargs)

    def press_and_fold(*args, **kwargs):  # the second press, as the report so far is being made
        ctrl_c()
        return real_fold(*args, **kwargs)

    monkeypatch.setattr(parallel, "play_match", play_and_press)
    monkeypatch.setattr(sim_cli, "fold", press_and_fold)
    result = CliRunner().invoke(main, ["simulate", str(EXAMPLES / "market-town.ludus"), "-n", "50", "-w", "1"])
    assert result.exit_code == 130, result.output
    assert result.output.startswith("interrupted after 5 of 50 matches: the report so far\n")
    assert "Market Town: 5 matches, 2 players" in result.output and "Aborted" not in result.output


def test_ctrl_c_from_a_terminal_on_a_local_dask_cluster_prints_no_worker_tracebacks():
    # a terminal's Ctrl-C reaches every process of the command, the cluster's workers too: they
    # went down with KeyboardInterrupt tracebacks printed over the report so far
    pytest.importorskip("distributed")
    import os

    command = [sys.executable, "-m", "ludus", "simulate", str(GAMES / "uprising.ludus"), "-n", "100000", "-w", "2",
               "--backend", "dask"]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=_default_sigint, start_new_session=True)
    try:
        note = proc.stderr.readline()  # written once the cluster has started
        assert note.startswith("no --scheduler: started a local Dask cluster"), note
        time.sleep(3)
        os.killpg(proc.pid, signal.SIGINT)  # as a terminal sends it: to the whole process group
        out, err = proc.communicate(timeout=60)
    except BaseException:
        proc.kill()
        raise
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert out.startswith("interrupted after "), out


def test_a_local_cluster_s_workers_keep_dask_s_error_logs_off_the_report():
    # closing a stopped run's cluster, a worker whose heartbeat met the scheduler already gone
    # logged an ERROR with a traceback over the report so far (a race, seen once under load):
    # a cluster the run starts keeps Dask's logs to the critical, in its workers too
    pytest.importorskip("distributed")
    code = (
        "import logging\n"
        "from ludus.simulation.parallel import _connect\n"
        "client, cluster = _connect(None, 1, None, '30s')\n"
        "client.run(lambda: logging.getLogger('distributed.worker').error('a worker error, logged'))\n"
        "client.close(); cluster.close()\n"
        "print('closed')\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.stdout.strip() == "closed", proc.stderr
    assert "a worker error, logged" not in proc.stderr, proc.stderr
