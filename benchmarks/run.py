"""Load time and random-playout speed of every game and example, printed as a table.

    python benchmarks/run.py [--matches N] [--warm N] [--budget SECONDS]

For each game (a `.ludus` file with a `flow:` that no other file includes or extends):

- cold load: parse + check + compile in a fresh Python process, measured inside it, so the
  grammar's parser is built from Lark's cache and nothing of ludus is warm;
- warm load: `ludus.load` again in this process, best of N;
- playout: seeded matches between uniformly random legal moves (the fewest players the game
  allows), in CPU time: decisions per second and matches per second.

Each game's playouts stop early once they have used their share of the time budget, so the
whole run stays short; the table says how many matches were played.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import ludus  # noqa: E402
from ludus.engine.runtime import RuleError  # noqa: E402
from ludus.simulation import random_playout  # noqa: E402

INCLUDE = re.compile(r'^\s*include\s+"([^"]+)"', re.M)
EXTENDS = re.compile(r'^\s*extends\s+"([^"]+)"', re.M)
FLOW = re.compile(r"^(?:override\s+)?flow\s*:", re.M)

COLD = """
import sys, time
t = time.perf_counter()
import ludus
ludus.load(sys.argv[1])
print(time.perf_counter() - t)
"""


def find_games() -> list[Path]:
    """Every main file: has a flow (or extends a game), and is not included by another file.

    A game extended by a variant is still a game; `*.tests.ludus` files hold test blocks only.
    """
    files = sorted(p for d in ("games", "examples") for p in (ROOT / d).rglob("*.ludus"))
    included: set[Path] = set()
    for f in files:
        for target in INCLUDE.findall(f.read_text(encoding="utf-8")):
            included.add((f.parent / target).resolve())
    mains = []
    for f in files:
        text = f.read_text(encoding="utf-8")
        has_flow = FLOW.search(text) or INCLUDE.search(text) or EXTENDS.search(text)
        if has_flow and f.resolve() not in included and not f.name.endswith(".tests.ludus"):
            mains.append(f)
    return mains


def cold_load(path: Path) -> float:
    out = subprocess.run([sys.executable, "-c", COLD, str(path)], capture_output=True, text=True, cwd=ROOT,
                         check=True)
    return float(out.stdout.strip().splitlines()[-1])


def warm_load(path: Path, repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        t = time.perf_counter()
        ludus.load(path)
        best = min(best, time.perf_counter() - t)
    return best


def playouts(game, matches: int, budget: float) -> dict:
    decisions = played = finished = errors = 0
    start = time.process_time()
    for seed in range(matches):
        try:
            _, steps, done = random_playout(game, game.min_players, seed, random.Random(seed))
        except RuleError:
            errors += 1
            continue
        decisions += steps
        played += 1
        finished += done
        if time.process_time() - start > budget:
            break
    cpu = max(time.process_time() - start, 1e-9)
    return {"matches": played, "finished": finished, "errors": errors, "decisions": decisions,
            "dps": decisions / cpu, "mps": played / cpu, "cpu": cpu}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=50, help="seeded matches per game (at most)")
    parser.add_argument("--warm", type=int, default=5, help="warm loads per game; the best is shown")
    parser.add_argument("--budget", type=float, default=15.0, help="CPU seconds of playouts per game (at most)")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON too")
    args = parser.parse_args()

    rows = []
    for path in find_games():
        name = str(path.relative_to(ROOT))
        try:
            game = ludus.load(path)
        except ludus.LudusError as err:
            print(f"{name}: does not load ({len(err.diagnostics)} errors)", file=sys.stderr)
            continue
        row = {"game": name, "cold_ms": cold_load(path) * 1000, "warm_ms": warm_load(path, args.warm) * 1000}
        row.update(playouts(game, args.matches, args.budget))
        rows.append(row)

    head = f"{'game':<48} {'cold ms':>8} {'warm ms':>8} {'matches':>8} {'done':>5} {'err':>4} {'decisions/s':>12} {'matches/s':>10}"
    print(head)
    print("-" * len(head))
    for r in rows:
        print(f"{r['game']:<48} {r['cold_ms']:>8.0f} {r['warm_ms']:>8.1f} {r['matches']:>8} {r['finished']:>5} "
              f"{r['errors']:>4} {r['dps']:>12,.0f} {r['mps']:>10.1f}")
    if args.json:
        print(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
