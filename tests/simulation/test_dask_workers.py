"""Dask workers that die during a run: Dask plays their matches again where another worker is
left, and the result is that of one worker; with none left, the run stops with the report so far
and says why, where it waited without end."""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys

import pytest

from ludus.pipeline import load
from ludus.simulation import parallel
from ludus.simulation.parallel import Job, run
from ludus.simulation.records import play_match
from tests.helpers import EXAMPLES, bounded

distributed = pytest.importorskip("distributed")

MARKET = str(EXAMPLES / "market-town.ludus")
BOTS = {1: "random"}
GAMES = 4000  # 63 chunks on one worker: the run is far from its end when the worker dies


def _bounded(call):
    return bounded(call, waiting="the run still waits, with no worker left")


@pytest.fixture
def lone_worker():
    """A scheduler with one worker of its own process, without a nanny: killed, it stays dead,
    as a machine that goes down. Yields (scheduler address, the worker's process)."""
    with distributed.LocalCluster(n_workers=0, processes=False, protocol="tcp://", dashboard_address=None,
                                  silence_logs=logging.CRITICAL) as cluster:
        worker = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", cluster.scheduler_address,
                                   "--no-nanny", "--nthreads", "1", "--no-dashboard"],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            with distributed.Client(cluster.scheduler_address) as client:
                client.wait_for_workers(1, timeout=60)
            yield cluster.scheduler_address, worker
        finally:
            worker.kill()
            worker.wait(timeout=30)


def _same_as_one_worker(records) -> None:
    game = load(MARKET)
    seeds = [r.seed for r in records]
    assert seeds == sorted(set(seeds))  # each match once, whatever was played twice
    assert records == [play_match(game, 2, s, BOTS) for s in seeds]


def test_a_run_whose_only_worker_dies_stops_with_the_matches_finished(lone_worker):
    address, worker = lone_worker
    killed = []

    def kill_at_the_first_chunk(n):
        if not killed:
            worker.kill()
            worker.wait(timeout=30)
            killed.append(n)

    result = _bounded(lambda: run([Job(MARKET, 2, BOTS)], GAMES, 5, backend="dask", scheduler=address,
                                  progress=kill_at_the_first_chunk, connect_timeout="1s"))
    assert killed and not result.interrupted
    assert result.stopped == (f"the Dask scheduler at {address} has had no worker for 1s: the last one died "
                              "or was stopped during the run, with the matches it was playing")
    assert 0 < result.done() < GAMES
    _same_as_one_worker(result.records[0])


def test_the_command_prints_and_writes_the_report_so_far_and_exits_1(lone_worker, tmp_path, monkeypatch):
    from click.testing import CliRunner

    import ludus.simulation.cli as sim_cli
    from ludus.cli import main

    address, worker = lone_worker
    real_take, real_run = parallel._take, sim_cli.run

    def take_then_kill(*args, **kwargs):
        real_take(*args, **kwargs)
        if worker.poll() is None:
            worker.kill()
            worker.wait(timeout=30)

    monkeypatch.setattr(parallel, "_take", take_then_kill)
    monkeypatch.setattr(sim_cli, "run", lambda *a, **k: real_run(*a, connect_timeout="1s", **k))
    out = tmp_path / "out.json"
    report = tmp_path / "report"
    result = _bounded(lambda: CliRunner().invoke(main, [
        "simulate", MARKET, "-n", str(GAMES), "--seed", "5", "--bot", "Basil=random", "--backend", "dask",
        "--scheduler", address, "--json", str(out), "--report", str(report)]))
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = result.output.splitlines()
    played = int(lines[0].split()[2])
    assert lines[0] == f"stopped after {played} of {GAMES} matches: the report so far"
    assert lines[1].startswith(f"Market Town: {played} matches, 2 players")
    assert lines[-1] == (f"error: the Dask scheduler at {address} has had no worker for 1s: the last one died or "
                         "was stopped during the run, with the matches it was playing")
    assert f"report: {report / 'index.html'}" in lines
    written = json.loads(out.read_text(encoding="utf-8"))
    assert written["runs"][0]["matches"] == played and written["run"]["stopped"] == lines[-1][len("error: "):]
    assert json.loads((report / "results.json").read_text(encoding="utf-8")) == written
    assert "The run stopped before its end" in (report / "index.html").read_text(encoding="utf-8")


def test_a_worker_that_dies_where_another_is_left_changes_nothing():
    """Dask plays the chunks of the dead worker again on the other: the records are those of
    one worker, each match once."""
    one = run([Job(MARKET, 2, BOTS)], 400, 5, workers=1)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=logging.CRITICAL) as cluster:
        victim = next(iter(cluster.workers.values()))
        killed = []

        def kill_one_at_the_first_chunk(n):
            if not killed:
                os.kill(victim.process.pid, signal.SIGKILL)  # its nanny starts it again
                killed.append(n)

        on_dask = _bounded(lambda: run([Job(MARKET, 2, BOTS)], 400, 5, backend="dask",
                                       scheduler=cluster.scheduler_address, progress=kill_one_at_the_first_chunk))
    assert killed and on_dask.stopped is None and not on_dask.interrupted
    assert on_dask.records == one.records


def test_matches_that_take_down_their_worker_again_and_again_stop_the_run():
    """Dask gives up on a chunk whose worker died too often (KilledWorker): that went up as a
    traceback, with the matches finished lost. Here Dask is told to give up at the first death."""
    import dask

    with dask.config.set({"distributed.scheduler.allowed-failures": 0}), distributed.LocalCluster(
            n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None,
            silence_logs=logging.CRITICAL) as cluster:
        victim = next(iter(cluster.workers.values()))
        killed = []

        def kill_at_the_first_chunk(n):
            if not killed:
                os.kill(victim.process.pid, signal.SIGKILL)
                killed.append(n)

        result = _bounded(lambda: run([Job(MARKET, 2, BOTS)], GAMES, 5, backend="dask",
                                      scheduler=cluster.scheduler_address, progress=kill_at_the_first_chunk))
    assert killed and not result.interrupted
    assert result.stopped is not None and result.stopped.startswith("a Dask worker died while playing the matches of seeds ")
    assert result.stopped.endswith(", 1 time in all, and Dask does not try them again; the workers' logs say why "
                                   "(memory, most often)")
    assert 0 < result.done() < GAMES
    _same_as_one_worker(result.records[0])
