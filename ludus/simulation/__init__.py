"""Simulation: many seeded matches played by bots, summed up in a report (`ludus simulate`).

`simulate(game, n)` plays in this process and returns the terminal report. `run([Job(path,
players, bots)], n, seed, workers=...)` plays on a process pool or a Dask cluster and returns
one `MatchRecord` per match; `report_data` and `compare_data` fold records into the numbers of
results.json. See docs/simulation.md."""

from .analysis import compare_data, report_data
from .parallel import GameUnavailable, Job, MatchFailed, RunResult, run
from .playout import SimReport, fold, random_playout, simulate
from .records import MatchRecord, play_match

__all__ = ["GameUnavailable", "Job", "MatchFailed", "MatchRecord", "RunResult", "SimReport", "compare_data", "fold", "play_match",
           "random_playout", "report_data", "run", "simulate"]
