"""Where a random playout's time goes: cProfile over seeded matches, through the public API.

    python benchmarks/hotspots.py [GAME] [--players N] [--matches N] [--top N] [--sort tottime|cumtime]

Plays the same seeded random matches as compare.py (`legal_actions()`, then `apply()` of a move
picked by `random.Random(seed)`) under cProfile and prints the functions that cost the most, with
the share of all profiled time each takes. The profiler slows call-heavy code more than the rest,
so read the shares as a guide to where to look, and measure a change with compare.py.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", default="games/uprising.ludus")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--matches", type=int, default=10)
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--sort", choices=("tottime", "cumtime"), default="tottime")
    args = parser.parse_args()
    if args.matches < 1 or args.top < 1:
        parser.error("--matches and --top must be at least 1")
    sys.path.insert(0, str(ROOT))
    import ludus

    try:
        game = ludus.load(args.game)
        game.new_match(args.players, seed=0)
    except (ludus.LudusError, ValueError, OSError) as exc:
        parser.error(str(exc))

    decisions = 0

    def play() -> None:
        nonlocal decisions
        for seed in range(args.matches):
            rng = random.Random(seed)
            match = game.new_match(args.players, seed=seed)
            while not match.is_over and decisions < 10**7:
                options = match.legal_actions()
                match.apply(options[rng.randrange(len(options))])
                decisions += 1

    profile = cProfile.Profile()
    profile.runcall(play)
    stats = pstats.Stats(profile)
    total = stats.total_tt
    print(f"{args.game}, {args.players} players: {args.matches} matches, {decisions} decisions, "
          f"{total:.3f} s under the profiler ({total / max(decisions, 1) * 1e6:.0f} us a decision)")
    print(f"{'own %':>6} {'with callees %':>14} {'calls':>9}  function")
    key = 2 if args.sort == "tottime" else 3
    rows = sorted(stats.stats.items(), key=lambda kv: kv[1][key], reverse=True)[: args.top]
    for (path, line, name), (_cc, calls, own, cum, _callers) in rows:
        where = Path(path).name if path.startswith(str(ROOT)) else path
        print(f"{own / total * 100:6.1f} {cum / total * 100:14.1f} {calls:9,}  {name} ({where}:{line})")


if __name__ == "__main__":
    main()
