"""Matches per second of `ludus simulate --workers 1` against `--workers 2` (or any counts).

    python benchmarks/workers.py                       # Uprising, 300 matches, 3 rounds
    python benchmarks/workers.py examples/connect-four.ludus --matches 600 --workers 1 2 4

Each round plays the same seeds once per worker count, in turn (1, 2, 1, 2, ...), so that a busy
machine slows every count alike; the figures are wall-clock matches per second, pool start-up and
game loading included, as a user of `ludus simulate` sees them. The median of the rounds is
printed, with the load average before and after: on a shared machine, read the speed-up with
the load beside it (a 2-core machine with a load of 1 has about one core to give). Matches per
CPU second (this process and the workers together) do not depend on the load: their ratio tells
what the pool itself costs, and so the most N workers can give on N idle cores. The records
of every count are checked to be the same. The target of issue #15 is 1.7x for 2 workers on an
idle 2-core machine; the tests never assert on time.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ludus.pipeline import load  # noqa: E402
from ludus.simulation.parallel import Job, run  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", default=str(ROOT / "games" / "uprising.ludus"))
    parser.add_argument("--matches", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    args = parser.parse_args()

    game = load(args.game)
    players = game.min_players
    job = Job(str(Path(args.game).resolve()), players, {})
    print(f"{game.title}: {args.matches} matches, {players} players, seeds {args.seed} * 1000003 + i; "
          f"{os.cpu_count()} cores")
    load_before = os.getloadavg()
    print(f"load average before: {load_before[0]:.2f} {load_before[1]:.2f} {load_before[2]:.2f}")
    rates: dict[int, list[float]] = {w: [] for w in args.workers}
    per_cpu: dict[int, list[float]] = {w: [] for w in args.workers}
    first = None
    for r in range(args.rounds):
        for w in args.workers:
            start, cpu = time.perf_counter(), time.process_time()
            # as `ludus simulate` does: the game it loaded to check the flags is handed over, and
            # forked workers inherit it (workers started another way load it themselves)
            result = run([job], args.matches, args.seed, workers=w, preload={job.path: game})
            seconds = time.perf_counter() - start
            main_cpu = time.process_time() - cpu
            # CPU time of the whole run: this process, plus the workers' (a pool's workers report theirs)
            cpu_total = main_cpu if w == 1 else main_cpu + result.cpu_seconds
            rates[w].append(args.matches / seconds)
            per_cpu[w].append(args.matches / cpu_total)
            if first is None:
                first = result.records
            elif result.records != first:
                raise SystemExit(f"--workers {w} gave other records than --workers {args.workers[0]}")
            print(f"  round {r + 1}, --workers {w}: {seconds:.2f}s, {args.matches / seconds:.1f} matches/s, "
                  f"{args.matches / cpu_total:.1f} per CPU second, load {os.getloadavg()[0]:.2f}")
    load_after = os.getloadavg()
    print(f"load average after: {load_after[0]:.2f} {load_after[1]:.2f} {load_after[2]:.2f}")
    base = statistics.median(rates[args.workers[0]])
    for w in args.workers:
        m = statistics.median(rates[w])
        c = statistics.median(per_cpu[w])
        print(f"--workers {w}: median {m:.1f} matches/s, {m / base:.2f}x --workers {args.workers[0]}; "
              f"{c:.1f} matches per CPU second ({c / statistics.median(per_cpu[args.workers[0]]):.2f}x)")
    print("the same records from every worker count: yes")


if __name__ == "__main__":
    main()
