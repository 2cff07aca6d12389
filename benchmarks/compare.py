"""This checkout against another commit, side by side in one run: playout speed, warm load, memory.

    python benchmarks/compare.py [--base REV] [--rounds N] [--matches N] [--game PATH --players K ...]

The base commit is exported (`git archive`) into a temporary folder, and every measurement runs
in a fresh Python process that imports ludus from one tree or the other. Rounds alternate between
the two trees (base, head, base, head, ...) so that a machine busy with something else slows both
alike; each figure is the median over the rounds. Time is CPU time of the measuring process.
`speed` is the ratio of the two medians; `rounds` is the lowest and the highest ratio of one
round's head to the same round's base, measured back to back: where the two are far apart, the
machine's noise moved the figures more than a target's margin, and more rounds are needed.

Measured through the public API only, as a user's bot would drive a match:
- playout: seeded matches between uniformly random legal moves, `legal_actions()` then `apply()`
  in a loop; decisions per CPU second;
- first load: the first `ludus.load` in a fresh process, as `ludus play` or `ludus check` pays
  it (Lark's grammar and any generated code read from their disk caches, which an earlier
  round has filled);
- warm load: `ludus.load` a second time in the same process, best of 5 (a file built already
  in the process is not parsed again, so this is mostly the checker and the compiler);
- memory: the bytes Python allocated to keep one finished match with its whole undo history
  (tracemalloc, read after a garbage collection), for the first seed of each round.

A game that exists in only one of the two trees is measured in that tree alone, unless TWINS
names a game that plays move for move as it does and that the base can run: the base is then
measured on the twin in the same alternating rounds, and the row is marked "(twin)". So Connect
Four on a `grid` board, which 4ddb1ef cannot read, is set against 4ddb1ef playing its cells
declared one by one, with the machine's noise shared as it is for every other row.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

GAMES = [  # (path, players)
    ("games/uprising.ludus", 2),
    ("games/uprising.ludus", 4),
    ("games/votes-for-women/votes-for-women.ludus", 2),
    ("games/stonewall-uprising/stonewall-uprising.ludus", 2),
    ("games/stonewall-uprising/stonewall-uprising-solo.ludus", 2),
    ("games/gateway-uprising/gateway-uprising.ludus", 2),
    ("games/gateway-uprising/gateway-uprising.ludus", 4),
    ("examples/market-town.ludus", 2),
    ("examples/connect-four.ludus", 2),
    ("benchmarks/games/connect-four-spaces.ludus", 2),  # the same game, which the base can run too
    ("benchmarks/games/engine-floor.ludus", 2),  # what a decision costs with rules that do next to nothing
]

# A game -> the game the base tree plays in its place when it has none of its own (see above);
# tests/engine/test_benchmark_games.py checks that the two play move for move alike.
TWINS = {"examples/connect-four.ludus": "benchmarks/games/connect-four-spaces.ludus"}

# Runs inside the measuring process, with the tree to measure first on sys.path.
PROBE = r"""
import gc, json, random, sys, time, tracemalloc
tree, path, players, matches, seed0 = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
sys.path.insert(0, tree)
import ludus
assert ludus.__file__.startswith(tree), ludus.__file__
t = time.perf_counter(); ludus.load(path); first = time.perf_counter() - t
best = float("inf")
for _ in range(5):
    t = time.perf_counter(); game = ludus.load(path); best = min(best, time.perf_counter() - t)

def play(seed, keep=False):
    rng = random.Random(seed)
    match = game.new_match(players, seed=seed)
    n = 0
    while not match.is_over and n < 20000:
        options = match.legal_actions()
        match.apply(options[rng.randrange(len(options))])
        n += 1
    return match, n

gc.collect()
tracemalloc.start()
before = tracemalloc.get_traced_memory()[0]
kept, _ = play(seed0)
gc.collect()  # what the match holds, not garbage that a collection had not reached yet
memory = tracemalloc.get_traced_memory()[0] - before
tracemalloc.stop()
del kept
decisions = 0
start = time.process_time()
for seed in range(seed0, seed0 + matches):
    decisions += play(seed)[1]
cpu = time.process_time() - start
print(json.dumps({"decisions": decisions, "cpu": cpu, "warm": best, "first": first, "memory": memory}))
"""


def export(rev: str, into: Path) -> Path:
    """The tree of `rev`, written out under `into` (no .git, nothing installed)."""
    archive = into / "base.tar"
    subprocess.run(["git", "archive", "--format=tar", "-o", str(archive), rev], cwd=ROOT, check=True)
    tree = into / "base"
    tree.mkdir()
    with tarfile.open(archive) as tar:
        tar.extractall(tree, filter="data")
    return tree


def twin_stands_in(tree: Path, game: str) -> bool:
    """Whether `tree` plays `game`'s twin (TWINS) in its place: it has no such game of its own."""
    return game in TWINS and not (tree / game).exists()


def game_path(tree: Path, game: str, twin: bool = False) -> Path | None:
    """The file `tree` plays for `game`: with `twin`, the game's twin when it stands in (see
    twin_stands_in); None when the tree has neither."""
    if twin and twin_stands_in(tree, game):
        game = TWINS[game]
    if game.startswith("benchmarks/games/"):
        return ROOT / game  # a game written for both trees: this checkout's file, run by either
    path = tree / game
    return path if path.exists() else None


def measure(tree: Path, game: str, players: int, matches: int, seed: int, twin: bool = False) -> dict | None:
    """One round of `game` in `tree` (see game_path for `twin`); None when it has no such game."""
    path = game_path(tree, game, twin)
    if path is None:
        return None
    out = subprocess.run([sys.executable, "-c", PROBE, str(tree), str(path), str(players), str(matches), str(seed)],
                         capture_output=True, text=True, cwd=tree)
    if out.returncode != 0:
        print(f"  {tree.name}: {game} failed: {out.stderr.strip().splitlines()[-1:]}", file=sys.stderr)
        return None
    return json.loads(out.stdout.strip().splitlines()[-1])


def dps(row: dict) -> float:
    """One round's decisions per CPU second."""
    return row["decisions"] / max(row["cpu"], 1e-9)


def summary(rows: list[dict]) -> dict | None:
    if not rows:
        return None
    return {
        "dps": statistics.median(dps(r) for r in rows),
        "warm_ms": min(r["warm"] for r in rows) * 1000,
        "first_ms": statistics.median(r["first"] for r in rows) * 1000,
        "memory_kib": statistics.median(r["memory"] for r in rows) / 1024,
    }


def paired(runs: dict) -> tuple[float, float] | None:
    """The lowest and highest speed-up of one round's head over the same round's base: the two
    ran back to back, so the spread shows how far the machine's noise moved the ratio."""
    pairs = [dps(h) / dps(b) for b, h in zip(runs["base"], runs["head"], strict=False)]
    return (min(pairs), max(pairs)) if pairs and len(runs["base"]) == len(runs["head"]) else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="4ddb1ef", help="the commit to compare with (default: 4ddb1ef)")
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds per game (median shown)")
    parser.add_argument("--matches", type=int, default=10, help="seeded matches per round")
    parser.add_argument("--game", action="append", help="a game file instead of the default list (repeatable)")
    parser.add_argument("--players", type=int, action="append", help="players for each --game, in order")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON too")
    args = parser.parse_args()
    if args.rounds < 1 or args.matches < 1:
        parser.error("--rounds and --matches must be at least 1")
    games = GAMES
    if args.game:
        players = args.players or []
        games = [(g, players[i] if i < len(players) else 2) for i, g in enumerate(args.game)]

    results = []
    with tempfile.TemporaryDirectory(prefix="ludus-compare-") as tmp:
        base = export(args.base, Path(tmp))
        for game, players in games:
            runs = {"base": [], "head": []}
            for r in range(args.rounds):
                seed = 1000 * r
                for side, tree in (("base", base), ("head", ROOT)):
                    row = measure(tree, game, players, args.matches, seed, twin=side == "base")
                    if row is not None:
                        runs[side].append(row)
            results.append({"game": game + (" (twin)" if twin_stands_in(base, game) else ""), "players": players,
                            "base": summary(runs["base"]), "head": summary(runs["head"]),
                            "paired": paired(runs)})

    head = (f"{'game':<46} {'p':>2} {'base dec/s':>11} {'head dec/s':>11} {'speed':>6} {'rounds':>11} "
            f"{'base 1st':>8} {'head 1st':>8} {'base warm':>9} {'head warm':>9} {'base KiB':>9} {'head KiB':>9}")
    print(f"base {args.base} against this checkout; {args.rounds} alternating rounds of {args.matches} matches")
    print(head)
    print("-" * len(head))
    for row in results:
        b, h = row["base"], row["head"]
        speed = f"{h['dps'] / b['dps']:.2f}x" if b and h else "-"
        spread = f"{row['paired'][0]:.2f}-{row['paired'][1]:.2f}" if row["paired"] else "-"

        def f(x, key, fmt):
            return format(x[key], fmt) if x else "-"

        print(f"{row['game']:<46} {row['players']:>2} {f(b, 'dps', '11,.0f')} {f(h, 'dps', '11,.0f')} {speed:>6} {spread:>11} "
              f"{f(b, 'first_ms', '8.1f')} {f(h, 'first_ms', '8.1f')} {f(b, 'warm_ms', '9.1f')} {f(h, 'warm_ms', '9.1f')} {f(b, 'memory_kib', '9,.0f')} "
              f"{f(h, 'memory_kib', '9,.0f')}")
    if args.json:
        print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
