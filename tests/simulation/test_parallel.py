"""Many workers, one answer: the records and the report data of a run do not depend on how many
processes played it, nor on whether a Dask cluster did."""

from __future__ import annotations

import pytest

from ludus.pipeline import load
from ludus.simulation import parallel, play_match, simulate
from ludus.simulation.analysis import report_data
from ludus.simulation.parallel import Job, run
from ludus.simulation.playout import fold
from tests.helpers import EXAMPLES, bounded

MARKET = str(EXAMPLES / "market-town.ludus")
BOTS = {1: "random"}


def data_of(result, path=MARKET, players=2, bots=BOTS):
    names = load(path).seat_names(players)
    return report_data(result.records[0], names, bots, path=path, seed=5, requested=result.wanted)


def test_two_workers_give_the_records_and_report_data_of_one():
    one = run([Job(MARKET, 2, BOTS)], 60, 5, workers=1)
    two = run([Job(MARKET, 2, BOTS)], 60, 5, workers=2)
    assert not one.interrupted and not two.interrupted
    assert [r.seed for r in one.records[0]] == [5 * 1_000_003 + i for i in range(60)]
    assert one.records == two.records
    assert data_of(one) == data_of(two)
    assert two.cpu_seconds > 0  # the workers' CPU time came back with their records


def test_the_records_fold_to_the_report_simulate_gives():
    game = load(MARKET)
    plain = simulate(game, 40, seed=2, bots=BOTS)
    ran = run([Job(MARKET, 2, BOTS)], 40, 2, workers=2)
    folded = fold(ran.records[0], 40, 2, game.seat_names(2), BOTS)
    for attr in ("wins", "shared", "shared_matches", "no_winner", "lengths", "errors", "unfinished", "warnings",
                 "payoffs", "bots"):
        assert getattr(folded, attr) == getattr(plain, attr), attr


def test_chunks_cover_every_seed_once_for_both_files_of_a_comparison():
    jobs = [Job(MARKET, 2, {}), Job(MARKET, 3, {})]
    chunks = list(parallel._chunks(jobs, list(range(37)), parallel.chunk_size(37, 2)))
    for j in (0, 1):
        seeds = [s for job, _, _, players, _, part in chunks if job == j for s in part]
        assert seeds == list(range(37))
        assert {players for job, _, _, players, _, _ in chunks if job == j} == {2 + j}


def test_ctrl_c_keeps_what_came_back(monkeypatch):
    calls = {"n": 0}
    real = parallel.play_match

    def stop_at_the_eighth(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 8:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(parallel, "play_match", stop_at_the_eighth)
    result = run([Job(MARKET, 2, {})], 50, 1, workers=1)
    assert result.interrupted and result.done() == 7
    assert [r.seed for r in result.records[0]] == [1_000_003 + i for i in range(7)]


def test_ctrl_c_in_a_pool_stops_it_and_keeps_the_chunks_that_came_back():
    seen = {"n": 0}

    def progress(n):
        seen["n"] += n
        raise KeyboardInterrupt  # as if Ctrl-C came while the first chunk was being taken

    result = run([Job(MARKET, 2, {})], 400, 1, workers=2, progress=progress)
    assert result.interrupted
    assert 0 < result.done() < 400
    seeds = [r.seed for r in result.records[0]]
    assert seeds == sorted(seeds) and len(set(seeds)) == len(seeds)


@pytest.mark.parametrize("processes", [False, True])
def test_a_dask_cluster_gives_the_report_data_of_one_worker(processes):
    distributed = pytest.importorskip("distributed")
    one = run([Job(MARKET, 2, BOTS)], 30, 5, workers=1)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=processes,
                                  dashboard_address=None) as cluster:
        on_dask = run([Job(MARKET, 2, BOTS)], 30, 5, backend="dask", scheduler=cluster.scheduler_address)
    assert on_dask.records == one.records
    assert data_of(on_dask) == data_of(one)


def test_an_unreachable_scheduler_is_a_backend_error_not_a_hang():
    pytest.importorskip("distributed")
    with pytest.raises(parallel.BackendError, match="cannot reach the Dask scheduler at tcp://127.0.0.1:9"):
        run([Job(MARKET, 2, {})], 2, 0, backend="dask", scheduler="tcp://127.0.0.1:9", connect_timeout="2s")


@pytest.mark.parametrize("workers", [1, 2])
def test_a_match_that_fails_outside_the_rules_names_its_seed(monkeypatch, workers):
    import multiprocessing

    if workers > 1 and multiprocessing.get_start_method() != "fork":
        pytest.skip("the broken play_match reaches the workers only when they are forked")
    real = parallel.play_match

    def broken_at_seed_7(game, players, seed, bots):
        if seed == 7_000_021 + 3:
            raise ZeroDivisionError("a bot divided by zero")
        return real(game, players, seed, bots)

    monkeypatch.setattr(parallel, "play_match", broken_at_seed_7)  # the pool's workers are forked after this
    with pytest.raises(parallel.MatchFailed, match="match seed 7000024: ZeroDivisionError: a bot divided by zero"):
        run([Job(MARKET, 2, {})], 40, 7, workers=workers)


def test_the_command_reports_such_a_match_without_a_traceback(monkeypatch):
    from click.testing import CliRunner

    from ludus.cli import main

    def broken(game, players, seed, bots):
        raise KeyError("oops")

    monkeypatch.setattr(parallel, "play_match", broken)
    result = CliRunner().invoke(main, ["simulate", MARKET, "-n", "3", "-w", "1"])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
    assert "error: match seed 0: KeyError: 'oops'" in result.output
    assert "not of the game" in result.output


def _edit_during_the_run(monkeypatch, game, text):
    """Rewrite the game file once the run's first match is played, as a designer saving an edit
    while a long run goes on would."""
    real = parallel.play_match
    seen = {"n": 0}

    def play_then_edit(*args, **kwargs):
        seen["n"] += 1
        if seen["n"] == 1:
            game.write_text(text, encoding="utf-8")
        return real(*args, **kwargs)

    monkeypatch.setattr(parallel, "play_match", play_then_edit)  # a pool's workers are forked after this


@pytest.mark.parametrize("edit", ["game ??? broken\n", None])
@pytest.mark.parametrize("workers", [1, 2])
def test_a_game_file_edited_during_a_run_does_not_change_the_game_played(tmp_path, monkeypatch, workers, edit):
    import multiprocessing

    if workers > 1 and multiprocessing.get_start_method() != "fork":
        pytest.skip("the editing play_match reaches the workers only when they are forked")
    game = tmp_path / "mt.ludus"
    text = (EXAMPLES / "market-town.ludus").read_text(encoding="utf-8")
    game.write_text(text, encoding="utf-8")
    before = run([Job(str(game), 2, {})], 40, 3, workers=1)
    # an edit that breaks the file, or one that changes the game (a festival pays more)
    changed = text + edit if edit is not None else text.replace("gain 1 coins for s", "gain 5 coins for s")
    if edit is None:
        other = tmp_path / "other.ludus"
        other.write_text(changed, encoding="utf-8")
        assert run([Job(str(other), 2, {})], 40, 3, workers=1).records[0] != before.records[0]
    _edit_during_the_run(monkeypatch, game, changed)
    during = run([Job(str(game), 2, {})], 40, 3, workers=workers)
    assert during.records == before.records


def test_a_worker_that_reads_a_changed_or_broken_file_refuses_to_play_it(tmp_path):
    game = tmp_path / "mt.ludus"
    text = (EXAMPLES / "market-town.ludus").read_text(encoding="utf-8")
    game.write_text(text, encoding="utf-8")
    job = run([Job(str(game), 2, {})], 1, 0, workers=1)
    fingerprint = load(str(game)).fingerprint
    parallel._GAMES.clear()  # a fresh worker, which has to read the file
    game.write_text(text.replace("gain 1 coins for s", "gain 5 coins for s"), encoding="utf-8")
    with pytest.raises(parallel.GameUnavailable, match="has changed since the run began"):
        parallel.play_chunk(0, str(game), fingerprint, 2, {}, [0])
    game.write_text(text + "game ??? broken\n", encoding="utf-8")
    with pytest.raises(parallel.GameUnavailable, match=r"a worker cannot load .*mt.ludus, which loaded when the run "
                                                      r"began: .*mt.ludus:\d+:6: error: unexpected character"):
        parallel.play_chunk(0, str(game), fingerprint, 2, {}, [0])
    game.write_text("# the same rules, with a comment\n" + text, encoding="utf-8")
    _, records, _ = parallel.play_chunk(0, str(game), fingerprint, 2, {}, [0])
    assert records == job.records[0]


def test_the_command_reports_a_game_a_worker_cannot_play_without_a_traceback(monkeypatch):
    from click.testing import CliRunner

    from ludus.cli import main

    def changed(path, fingerprint):
        raise parallel.GameUnavailable(f"{path} has changed since the run began")

    monkeypatch.setattr(parallel, "_game", changed)
    result = CliRunner().invoke(main, ["simulate", MARKET, "-n", "3", "-w", "1"])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
    assert "error: " in result.output and "market-town.ludus has changed since the run began" in result.output


def _run_bounded(*args, **kwargs):
    """`run`, given a minute (tests.helpers.bounded): what it raised, or its result."""
    try:
        return bounded(lambda: run(*args, **kwargs))
    except Exception as exc:
        return exc


def test_a_server_that_never_answers_is_a_backend_error_not_a_hang():
    pytest.importorskip("distributed")
    import socket

    with socket.socket() as server:  # takes connections and says nothing, as another service's port may
        server.bind(("127.0.0.1", 0))
        server.listen()
        address = f"tcp://127.0.0.1:{server.getsockname()[1]}"
        error = _run_bounded([Job(MARKET, 2, {})], 2, 0, backend="dask", scheduler=address, connect_timeout="1s")
    assert isinstance(error, parallel.BackendError), error
    assert str(error) == f"the server at {address} took the connection but did not answer as a Dask scheduler"


def test_a_scheduler_without_workers_is_a_backend_error_not_a_hang():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=0, processes=False, dashboard_address=None) as cluster:
        error = _run_bounded([Job(MARKET, 2, {})], 2, 0, backend="dask", scheduler=cluster.scheduler_address,
                             connect_timeout="1s")
    assert isinstance(error, parallel.BackendError), error
    assert f"the Dask scheduler at {cluster.scheduler_address} has no workers (none joined within 1s)" in str(error)


@pytest.mark.parametrize("address", ["garbage", "http://127.0.0.1:8786"])
def test_a_scheduler_address_that_is_not_one_says_so(address):
    pytest.importorskip("distributed")
    with pytest.raises(parallel.BackendError, match=f"{address} is not a Dask scheduler's address .*; give one like"):
        run([Job(MARKET, 2, {})], 2, 0, backend="dask", scheduler=address, connect_timeout="1s")


@pytest.mark.parametrize("call, message", [
    (lambda game: simulate(game, -1), "a run plays 0 matches or more, not -1"),
    (lambda game: simulate(game, 3, bots={7: "random"}), "a bot for seat 7, but the seats of a 2-player match are 0 to 1"),
    (lambda game: simulate(game, 3, bots={-1: "greedy"}), "a bot for seat -1"),  # not the last seat, as names[-1] had it
    (lambda game: run([Job(MARKET, 2, {})], -1, 0), "a run plays 0 matches or more, not -1"),
    (lambda game: run([Job(MARKET, 2, {})], 3, 0, workers=0), "a run plays on 1 worker or more, not 0"),
    (lambda game: run([Job(MARKET, 2, {2: "random"})], 3, 0), "a bot for seat 2"),
    (lambda game: run([Job(MARKET, 9, {})], 3, 0), "Market Town is for 2 to 4 players, not 9"),
    # each of these failed deep inside: an AttributeError, a TypeError of an operator, or none
    (lambda game: simulate(MARKET, 3), "^a simulation plays a loaded game \\(ludus.load\\(path\\)\\), not '"),
    (lambda game: simulate(game, "3"), "^games, the matches a run plays, is a whole number, not '3'$"),
    (lambda game: simulate(game, 3, seed="1"), "^seed, a run's seed, is a whole number, not '1'$"),
    (lambda game: simulate(game, 3, bots=["greedy"]), "^bots maps seats to bots, as {1: 'greedy'}, not \\['greedy'\\]$"),
    (lambda game: play_match(game, 2, 1, bots=["greedy"]), "^bots maps seats to bots"),
    (lambda game: play_match(game, "2", 1), "^Market Town is for 2 to 4 players, not '2'$"),
    (lambda game: run([Job(MARKET, 2, {})], 3, 0, workers=True), "^workers is a whole number, not True$"),
    (lambda game: run([Job(MARKET, 2, {})], 3, 0, backend="dusk"), "^backend is 'local' or 'dask', not 'dusk'$"),
    (lambda game: run(Job(MARKET, 2, {}), 3, 0), "^jobs is a list of Job\\(path, players, bots\\), not Job\\("),
    (lambda game: run([Job(MARKET, 2, {})], 3, 0, preload=[game]), "^preload maps paths to loaded games"),
])
def test_bad_arguments_from_python_are_value_errors_before_a_match_is_played(call, message):
    with pytest.raises(ValueError, match=message):
        call(load(MARKET))
