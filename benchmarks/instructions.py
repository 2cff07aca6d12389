"""Machine instructions a random-playout decision costs, this checkout against another commit.

    python benchmarks/instructions.py [--base REV] [--matches N] [--game PATH --players K ...]

Time on a shared machine moves with whatever else runs there, by a tenth or more between two
runs a minute apart; a change worth 2% cannot be seen through that. Instructions can: Valgrind's
callgrind counts every instruction the Python process executes, and with the same seeds and
PYTHONHASHSEED=0 one tree counts the same from run to run. So this is the measure for small
changes; `compare.py` stays the measure of speed itself (an instruction
is not a fixed amount of time: a change can save instructions and lose to cache misses).

Each tree plays seeded random matches (`legal_actions()` then `apply()`, as compare.py plays
them) under callgrind twice: matches 0..N-1, then 0..2N-1. The difference between the two
counts is what matches N..2N-1 cost, without the start-up and the load that both runs share;
it is divided by those matches' decisions. Start-up and load are about 2,000 million
instructions and vary by a million or two between two folders of the same code, so the counted
matches must cost far more than that: with 5 Market Town matches (37 million) two copies of one
tree read 6.5% apart; the default of 20 matches a game keeps that under half a percent.
Python's cycle collector is off while the matches play, since when it runs depends on how many
objects were made before. Each tree has a cache of generated code of its own for the run, so
that no other process prunes it between the warm-up and the counts. A game the base cannot run
is counted on its twin there, as compare.py measures it (TWINS). It needs `valgrind` on the
PATH; a game takes a minute or two.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.compare import GAMES, export, game_path, twin_stands_in  # noqa: E402

# Runs under callgrind, with the tree to measure first on sys.path; prints the decisions made.
PROBE = r"""
import gc, random, sys
tree, path, players, matches = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
sys.path.insert(0, tree)
import ludus
assert ludus.__file__.startswith(tree), ludus.__file__
game = ludus.load(path)
gc.disable()
decisions = 0
for seed in range(matches):
    rng = random.Random(seed)
    match = game.new_match(players, seed=seed)
    while not match.is_over and decisions < 10**6:
        options = match.legal_actions()
        match.apply(options[rng.randrange(len(options))])
        decisions += 1
print(decisions)
"""


CACHES: dict[Path, Path] = {}  # tree -> its own cache of generated code, in the run's temporary folder


def environment(tree: Path) -> dict:
    return {**os.environ, "PYTHONHASHSEED": "0", "LUDUS_CACHE_DIR": str(CACHES[tree])}


def count(tree: Path, path: Path, players: int, matches: int) -> tuple[int, int] | None:
    """(instructions, decisions) of one callgrind run of `matches` matches, or None if it failed."""
    out = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
         sys.executable, "-c", PROBE, str(tree), str(path), str(players), str(matches)],
        capture_output=True, text=True, cwd=tree, env=environment(tree))
    found = re.search(r"Collected : (\d+)", out.stderr)
    if out.returncode != 0 or found is None:
        last = [line for line in out.stderr.splitlines() if not line.startswith("==")][-1:]
        print(f"  {path.name} in {tree}: the run failed: {last}", file=sys.stderr)
        return None
    return int(found.group(1)), int(out.stdout.strip().splitlines()[-1])


def per_decision(tree: Path, game: str, players: int, matches: int, twin: bool = False) -> float | None:
    path = game_path(tree, game, twin)  # with `twin`, the game's twin when the tree has no such game
    if path is None:
        return None
    # once outside callgrind first: Python's bytecode caches and the generated-code cache are
    # written then, not in the first counted run only (the difference would leave their cost out)
    subprocess.run([sys.executable, "-c", PROBE, str(tree), str(path), str(players), "1"],
                   capture_output=True, cwd=tree, env=environment(tree))
    first = count(tree, path, players, matches)
    both = count(tree, path, players, 2 * matches) if first else None
    if both is None or both[1] <= first[1]:
        return None
    return (both[0] - first[0]) / (both[1] - first[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="4ddb1ef", help="the commit to compare with (default: 4ddb1ef)")
    parser.add_argument("--matches", type=int, default=20, help="matches measured a game (default: 20)")
    parser.add_argument("--game", action="append", help="a game file instead of the default list (repeatable)")
    parser.add_argument("--players", type=int, action="append", help="players for each --game, in order")
    args = parser.parse_args()
    if args.matches < 1:
        parser.error("--matches must be at least 1")
    if shutil.which("valgrind") is None:
        parser.error("valgrind is not on the PATH: install it (e.g. apt install valgrind) to count instructions")
    games = GAMES
    if args.game:
        players = args.players or []
        games = [(g, players[i] if i < len(players) else 2) for i, g in enumerate(args.game)]

    head = f"{'game':<46} {'p':>2} {'base instr/dec':>15} {'head instr/dec':>15} {'base/head':>9}"
    print(f"base {args.base} against this checkout; matches {args.matches}..{2 * args.matches - 1} of each game")
    print(head)
    print("-" * len(head))
    with tempfile.TemporaryDirectory(prefix="ludus-instructions-") as tmp:
        base = export(args.base, Path(tmp))
        CACHES[base], CACHES[ROOT] = Path(tmp) / "cache-base", Path(tmp) / "cache-head"
        for game, players in games:
            b = per_decision(base, game, players, args.matches, twin=True)
            h = per_decision(ROOT, game, players, args.matches)
            ratio = f"{b / h:.3f}" if b and h else "-"
            shown = game + (" (twin)" if twin_stands_in(base, game) else "")
            print(f"{shown:<46} {players:>2} {format(b, '15,.0f') if b else '-':>15} "
                  f"{format(h, '15,.0f') if h else '-':>15} {ratio:>9}", flush=True)


if __name__ == "__main__":
    main()
