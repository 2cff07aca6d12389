"""Running a simulation's matches on several cores, or on a Dask cluster.

Every backend does the same thing: split the match seeds into chunks, have each worker load the
game from its path (a compiled game holds closures and is never sent), play its chunk with
`play_match`, and send back the records. The game played is the one the run began with: this
process and a pool's forked workers keep the game loaded at the start, and a worker that must
read the file (a spawned one, a Dask worker) checks that it still means the same game. Reports
are folded from the records in seed order, so one worker, N workers and a cluster give the same
report for the same seeds and bots.

Ctrl-C stops the run: no chunk more is started, the ones not started are cancelled, and the
records that came back are returned with `interrupted` set. A Dask cluster left with no worker
stops it the same way, with `stopped` saying why (see `_gather`).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from contextlib import contextmanager, suppress

from attrs import define, evolve, field

from .records import MatchRecord, check_bots, check_players, match_seeds, play_match


@define
class Job:
    """One game file to simulate: what every worker needs to play its matches."""

    path: str
    players: int
    bots: dict[int, str] = field(factory=dict)
    fingerprint: str = ""  # the game's as `run` loaded it when the run began; set by `run`


@define
class RunResult:
    """The records that came back for each job, and how the run went."""

    records: list[list[MatchRecord]]  # one list per job, sorted by seed
    wanted: int  # matches asked for, per job
    interrupted: bool = False
    stopped: str | None = None  # why the run ended before its matches did, other than Ctrl-C
    seconds: float = 0.0
    cpu_seconds: float = 0.0  # CPU time the matches took, summed over the workers

    def done(self) -> int:
        """Matches played per job (the fewest, when a run of two files was interrupted)."""
        return min(len(r) for r in self.records)


class MatchFailed(Exception):
    """A match stopped on something other than a rule error: a fault of ludus or of a bot, not of
    the game. The message names the match seed, so the match can be played again."""


def _play(game, players: int, seed: int, bots: dict[int, str]) -> MatchRecord:
    try:
        return play_match(game, players, seed, bots)
    except Exception as exc:  # sent back as one picklable message, whatever the worker
        from ..bots import BadBotChoice

        if isinstance(exc, BadBotChoice):  # a bot file's fault, said at its line
            raise MatchFailed(f"match seed {seed}: {exc}") from exc
        raise MatchFailed(f"match seed {seed}: {type(exc).__name__}: {exc}") from exc


class BackendError(Exception):
    """A backend that cannot start: its package is missing, or its scheduler cannot be reached."""


class GameUnavailable(Exception):
    """A worker cannot play the game the run began with: its file no longer loads, or now says
    something else (edited since the run began, or another file at that path on a cluster's
    worker). Playing on would mix two games in one report."""


# a process's loaded games, by (path, fingerprint): each is loaded once per process, and a Dask
# worker, which lives on between runs, loads a file again when a run brings a new fingerprint
_GAMES: dict[tuple[str, str], object] = {}


def _game(path: str, fingerprint: str):
    game = _GAMES.get((path, fingerprint))
    if game is None:
        from ..language.source import LudusError
        from ..pipeline import load

        try:
            game = load(path)
        except LudusError as err:
            first = str(err).splitlines()[0] if str(err) else "it has errors"
            raise GameUnavailable(f"a worker cannot load {path}, which loaded when the run began: {first}") from None
        if game.fingerprint != fingerprint:
            raise GameUnavailable(f"{path} has changed since the run began; a worker that read it now would play "
                                  "another game. Run again once it is saved as you want it")
        for key in [k for k in _GAMES if k[0] == path]:
            del _GAMES[key]
        _GAMES[(path, fingerprint)] = game
    return game


_STOP = None  # in a pool's worker: the event the main process sets on Ctrl-C


def play_chunk(job_index: int, path: str, fingerprint: str, players: int, bots: dict[int, str], seeds: list[int]):
    """A worker's task: the records of these seeds (fewer if the run is being stopped), and the
    CPU seconds they took. `fingerprint` is the game's as the run began (see `_game`)."""
    cpu = time.process_time()
    game = _game(path, fingerprint)
    records = []
    for s in seeds:
        if _STOP is not None and _STOP.is_set():
            break
        records.append(_play(game, players, s, bots))
    return job_index, records, time.process_time() - cpu


def _start_worker(stop) -> None:
    # a pool's workers leave Ctrl-C to the main process, which tells them to stop through `stop`
    import signal

    global _STOP
    _STOP = stop
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def default_workers() -> int:
    counter = getattr(os, "process_cpu_count", None)  # Python 3.13: the cores this process may use
    return max(1, (counter() if counter else None) or os.cpu_count() or 1)


def chunk_size(games: int, workers: int) -> int:
    """Enough chunks for the workers to share the load and the progress bar to move, few enough
    that sending them costs little next to playing them (a record is a few hundred bytes, a match
    a millisecond or more). Small enough too that Ctrl-C on a cluster, where a chunk cannot be
    stopped halfway, loses little."""
    return max(1, min(64, -(-games // (workers * 8))))


def _chunks(jobs: list[Job], seeds: list[int], size: int):
    for start in range(0, len(seeds), size):
        for j, job in enumerate(jobs):
            yield j, job.path, job.fingerprint, job.players, job.bots, seeds[start:start + size]


BACKENDS = ("local", "dask")


def run(jobs: list[Job], games: int, seed: int, workers: int = 1, backend: str = "local",
        scheduler: str | None = None, progress: Callable[[int], None] | None = None,
        note: Callable[[str], None] | None = None, preload: dict | None = None,
        connect_timeout: str = "10s") -> RunResult:
    """Play `games` matches of every job, from seeds seed*1_000_003 + i (the same seeds for each
    job). `progress(n)` is told of every n matches done; `note` of what the backend set up.
    `preload` gives games already loaded in this process, by path; the others are loaded here.
    Every match is played on the game as it was loaded then, whatever happens to its file during
    the run: this process and a pool's forked workers keep that game, other workers check that
    the file still means it (GameUnavailable when it does not)."""
    seeds = match_seeds(seed, games)
    if not isinstance(workers, int) or isinstance(workers, bool):
        raise ValueError(f"workers is a whole number, not {workers!r:.60}")
    if workers < 1:
        raise ValueError(f"a run plays on 1 worker or more, not {workers}")
    if backend not in BACKENDS:
        raise ValueError(f"backend is {' or '.join(map(repr, BACKENDS))}, not {backend!r:.60}")
    if not isinstance(jobs, (list, tuple)) or not all(isinstance(job, Job) for job in jobs):
        raise ValueError(f"jobs is a list of Job(path, players, bots), not {jobs!r:.60}")
    if preload is not None and not isinstance(preload, dict):
        raise ValueError(f"preload maps paths to loaded games (ludus.load(path)), not {preload!r:.60}")
    for job in jobs:
        check_bots(job.bots, job.players)
    result = RunResult([[] for _ in jobs], games)
    _GAMES.clear()
    pinned = []
    for job in jobs:
        game = (preload or {}).get(job.path)
        if game is None:
            from ..pipeline import load

            game = load(job.path)
        check_players(game, job.players)  # a ValueError now, not a failure of every match
        _GAMES[(job.path, game.fingerprint)] = game
        pinned.append(evolve(job, fingerprint=game.fingerprint))
    jobs = pinned
    wall, cpu = time.perf_counter(), time.process_time()
    try:
        with ctrl_c_guard() as ctrl_c:
            if backend == "dask":
                _run_dask(jobs, seeds, workers, scheduler, result, progress, note, connect_timeout)
            elif workers == 1 or games == 1:
                _run_here(jobs, seeds, result, progress)
            else:
                _run_pool(jobs, seeds, workers, result, progress, ctrl_c)
    finally:
        for records in result.records:
            records.sort(key=lambda r: r.seed)
        result.seconds = time.perf_counter() - wall
        if backend != "dask" and (workers == 1 or games == 1):
            result.cpu_seconds = time.process_time() - cpu
    return result


class _CtrlC:
    """Ctrl-C during a run. The first press raises KeyboardInterrupt where the run is, and the
    run stops and keeps what came back. A later press must not raise in the middle of that
    stopping, nor while the report so far is printed: it once left a lock of the pool half
    taken, so the command hung at exit, or went up as "Aborted!" with the report so far lost.
    It only calls `hurry`, which stops the workers at once."""

    def __init__(self) -> None:
        self.presses = 0
        self.hurry: Callable[[], None] | None = None

    def __call__(self, signum, frame) -> None:
        self.presses += 1
        if self.presses == 1:
            raise KeyboardInterrupt
        if self.hurry is not None:
            self.hurry()


@contextmanager
def ctrl_c_guard():
    """Ctrl-C handled as `_CtrlC` says, inside the block (and inside a block it is nested in:
    `ludus simulate` keeps it on until the report so far is written)."""
    import signal
    import threading

    current = signal.getsignal(signal.SIGINT) if threading.current_thread() is threading.main_thread() else None
    if isinstance(current, _CtrlC):
        yield current
        return
    ctrl_c = _CtrlC()
    if current is not signal.default_int_handler:
        yield ctrl_c  # Ctrl-C is ignored here, or handled by whoever called us: theirs to handle
        return
    signal.signal(signal.SIGINT, ctrl_c)
    try:
        yield ctrl_c
    finally:
        signal.signal(signal.SIGINT, current)


def _run_here(jobs, seeds, result: RunResult, progress) -> None:
    games = [_game(job.path, job.fingerprint) for job in jobs]
    try:
        for s in seeds:
            for j, job in enumerate(jobs):
                result.records[j].append(_play(games[j], job.players, s, job.bots))
            if progress:
                progress(1)
    except KeyboardInterrupt:
        result.interrupted = True


def _take(result: RunResult, done, progress) -> None:
    j, records, cpu = done
    result.records[j].extend(records)
    result.cpu_seconds += cpu
    if progress and j == 0:
        progress(len(records))


def _run_pool(jobs, seeds, workers: int, result: RunResult, progress, ctrl_c: _CtrlC | None = None) -> None:
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
    from concurrent.futures.process import BrokenProcessPool

    context = multiprocessing.get_context()
    stop = context.Event()
    size = chunk_size(len(seeds), workers)
    chunks = _chunks(jobs, seeds, size)
    processes = min(workers, -(-len(seeds) // size) * len(jobs))
    pool = ProcessPoolExecutor(max_workers=processes, mp_context=context, initializer=_start_worker,
                               initargs=(stop,))
    # Chunks are handed out a few at a time, not all at once: on Ctrl-C there are then no queued
    # chunks to cancel, and a cancelled one is what Python 3.11's pool trips over when a second
    # Ctrl-C stops its workers (an InvalidStateError traceback from its own thread).
    in_flight: set = set()

    def submit_more() -> None:
        while len(in_flight) < 2 * processes:
            chunk = next(chunks, None)
            if chunk is None:
                return
            in_flight.add(pool.submit(play_chunk, *chunk))

    def hurry() -> None:  # a second Ctrl-C: stop the workers (ours) without waiting for their match
        for proc in list((getattr(pool, "_processes", None) or {}).values()):
            proc.terminate()

    ctrl_c = ctrl_c or _CtrlC()
    ctrl_c.hurry = hurry
    try:
        submit_more()
        while in_flight:
            done, _ = wait(in_flight, return_when=FIRST_COMPLETED)
            for f in done:
                in_flight.discard(f)
                _take(result, f.result(), progress)
            submit_more()
        pool.shutdown()
    except KeyboardInterrupt:
        result.interrupted = True
        stop.set()  # the chunks being played end after their current match and send what they have
        for f in list(in_flight):
            if ctrl_c.presses > 1:
                break
            in_flight.discard(f)
            try:
                _take(result, f.result(), None)
            except BrokenProcessPool:  # its worker was stopped by a second Ctrl-C
                break
        if ctrl_c.presses > 1:
            hurry()
            pool.shutdown(wait=False)
        else:
            pool.shutdown()
    except BaseException:  # a match that failed: stop the others before the error goes up
        stop.set()
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    finally:
        ctrl_c.hurry = None


def _connect(scheduler: str | None, workers: int, note, timeout: str):
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise BackendError("--backend dask needs Dask: pip install 'ludus[dask]'") from None
    if scheduler is None:
        import logging

        # the workers leave Ctrl-C to this process, as a pool's do: they start with it ignored,
        # inherited from here, and one a nanny starts again during the run ignores it as it
        # starts (dask_setup below). Dask's own logs are kept to the critical: a cluster this
        # run starts and stops is no one else's to read, a chunk that fails comes back as its
        # future's error (MatchFailed) and a cluster that cannot go on stops the run with a
        # reason (_gather); while a stopped run closes the cluster, a worker whose heartbeat
        # meets the scheduler already gone logged an ERROR with a traceback over the report
        with _ctrl_c_ignored():
            cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                                   silence_logs=logging.CRITICAL, preload=[__name__])
        if note:
            note(f"no --scheduler: started a local Dask cluster of {workers} worker processes")
        return Client(cluster), cluster
    try:
        _hello(scheduler, timeout)
        client = Client(scheduler, timeout=timeout)
    except BackendError:
        raise
    except ValueError as exc:  # distributed's word for an address it cannot parse
        raise BackendError(f"{scheduler} is not a Dask scheduler's address ({exc}); give one like "
                           "tcp://10.0.0.5:8786") from None
    except MemoryError:  # a server that answers, but not in Dask's protocol: a length read from its bytes
        raise BackendError(f"the server at {scheduler} does not answer as a Dask scheduler") from None
    except Exception as exc:  # any other failure to connect (OSError, TimeoutError, TLS) is the user's to fix
        raise BackendError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None
    try:
        # a scheduler with no workers takes the chunks and waits for workers without end
        client.wait_for_workers(1, timeout=timeout)
    except Exception:
        client.close()
        raise BackendError(f"the Dask scheduler at {scheduler} has no workers (none joined within {timeout}); "
                           f"start some with: dask worker {scheduler}") from None
    return client, None


@contextmanager
def _ctrl_c_ignored():
    """Ctrl-C ignored in this process inside the block, and in the processes started there: a
    terminal sends Ctrl-C to every process of the command, and a local cluster's workers, which
    Dask starts anew rather than forks, went down with KeyboardInterrupt tracebacks printed over
    the report so far. Only an ignored signal passes to a new program; a handler does not, and
    a blocked one does not stay blocked in Python's threads, which start the workers. So a press
    while the cluster starts (a second or two) is lost; the next one stops the run."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


def dask_setup(worker) -> None:
    """Run by each worker of a run's local cluster as it starts (a Dask preload module's hook):
    Ctrl-C is left to the `ludus` process, which stops the run as with a pool. The workers the
    cluster starts with inherit this from `_ctrl_c_ignored`; one a nanny starts again during the
    run (after a death) does not, and is covered here from its start on."""
    import signal
    import threading

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def _hello(address: str, timeout: str) -> None:
    """Connect once and shake hands, within `timeout`. distributed bounds only the connecting: a
    server that takes the connection and never answers (another service's port, a stuck
    scheduler) would keep its Client waiting for ever."""
    import asyncio

    from dask.utils import parse_timedelta
    from distributed.comm import connect

    seconds = parse_timedelta(timeout, default="seconds")

    async def hello() -> None:
        # a few seconds more than `connect` has: one that cannot connect says so itself
        comm = await asyncio.wait_for(connect(address, timeout=seconds), seconds + 5)
        await comm.close()

    try:
        asyncio.run(hello())
    except TimeoutError:
        raise BackendError(f"the server at {address} took the connection but did not answer as a Dask "
                           "scheduler") from None


def _run_dask(jobs, seeds, workers: int, scheduler: str | None, result: RunResult, progress, note,
              timeout: str) -> None:
    try:
        client, cluster = _connect(scheduler, workers, note, timeout)
    except KeyboardInterrupt:  # Ctrl-C while the cluster starts: nothing was played
        result.interrupted = True
        return
    from distributed import as_completed

    futures: list = []
    taken: set = set()
    try:
        info = client.scheduler_info().get("workers", {})
        n = sum(w.get("nthreads", 1) for w in info.values()) or workers
        seeds_of = {}  # a chunk's key -> its seeds, to name them when the chunk cannot be played
        for chunk in _chunks(jobs, seeds, chunk_size(len(seeds), n)):
            futures.append(client.submit(play_chunk, *chunk, pure=False))
            seeds_of[futures[-1].key] = chunk[-1]
        # the results are fetched as the chunks end, by distributed's own thread
        chunks = as_completed(futures, with_results=True, raise_errors=False)
        _gather(client, chunks, seeds_of, scheduler, timeout, result, taken, progress)
    except KeyboardInterrupt:
        result.interrupted = True
    finally:
        if result.interrupted or result.stopped:
            client.cancel([f for f in futures if not f.done()])
            # chunks that ended while we were stopping still count; one whose worker is gone
            # with its records is lost, and is not waited for
            deadline = time.monotonic() + 2
            for f in futures:
                if f.key not in taken and f.status == "finished":
                    with suppress(Exception):
                        _take(result, f.result(timeout=max(0.0, deadline - time.monotonic())), None)
                        taken.add(f.key)
        client.close()
        if cluster is not None:
            cluster.close()


def _gather(client, chunks, seeds_of: dict, scheduler: str | None, timeout: str, result: RunResult, taken: set,
            progress) -> None:
    """Take the chunks as they come back; stop, with `result.stopped` saying why, when the
    cluster can no longer play them. Dask plays a chunk again when its worker dies (on another
    worker, or on the one a nanny starts again), and only one answer per chunk ever comes back:
    no match is counted twice. But a chunk of a worker that died with no other left waits
    for a worker without end, and so did the run; now a cluster with no worker for `timeout`
    stops it. A chunk that took down its worker again and again (Dask's KilledWorker: memory
    most likely) stops it too."""
    from concurrent.futures import CancelledError

    from dask.utils import parse_timedelta
    from distributed import KilledWorker

    grace = parse_timedelta(timeout, default="seconds")
    where = f"the Dask scheduler at {scheduler}" if scheduler else "the local Dask cluster"
    checked = alone_since = None
    while not chunks.is_empty():
        batch = chunks.next_batch(block=False)
        for f, value in batch:
            if isinstance(value, CancelledError):
                result.stopped = f"{where} dropped the matches in play (was it stopped or restarted?)"
                return
            if isinstance(value, tuple) and len(value) == 3 and isinstance(value[1], BaseException):
                if isinstance(value[1], KilledWorker):
                    chunk, deaths = seeds_of.get(f.key) or [0], value[1].allowed_failures + 1
                    result.stopped = (f"a Dask worker died while playing the matches of seeds {chunk[0]} to "
                                      f"{chunk[-1]}, {deaths} time{'s' if deaths != 1 else ''} in all, and Dask "
                                      "does not try them again; the workers' logs say why (memory, most often)")
                    return
                raise value[1].with_traceback(value[2])  # MatchFailed, GameUnavailable: as from a pool
            taken.add(f.key)
            _take(result, value, progress)
        if batch:
            continue
        now = time.monotonic()
        if checked is None or now - checked >= min(1.0, grace):
            checked = now
            try:
                alive = len(client.nthreads())
            except Exception:  # the scheduler itself is gone: as good as no worker
                alive = 0
            alone_since = None if alive else (alone_since or now)
            if alone_since is not None and now - alone_since >= grace:
                result.stopped = (f"{where} has had no worker for {timeout}: the last one died or was "
                                  "stopped during the run, with the matches it was playing")
                return
        time.sleep(0.05)
