"""How well the MCTS bot plays against random play, and how long it thinks, on four games.

    python benchmarks/bots.py [--matches N] [--bot SPEC] [--game NAME ...] [--seed S]
                              [--only GAME=SPEC ...] [--matches-for GAME=N ...] [--timing K]
    python benchmarks/bots.py --compare SPEC --compare SPEC ... [--game NAME ...] [--timing K]

For each game, N seeded matches with MCTS in the first seat and random play in the others, and
N with MCTS in the second seat; then, for comparison, the same seat's win rate when every seat
plays at random (many more matches: random play is cheap). Printed per seat: MCTS wins with a
95% confidence interval (Wilson), the random baseline, and seconds per MCTS decision (CPU time of
this process, and wall time; decisions with one legal move are not searched and not counted).

N is small (default 10 per seat: a few minutes per game on one free core) so the intervals are
wide; they still separate a bot that plays from one that does not. Long games (Votes for Women:
some 240 Suffragist decisions a match, seconds each at the default budget) can be given fewer
matches (`--matches-for votes-for-women=2`) or a smaller budget for the matches
(`--only votes-for-women=mcts:20`); `--timing K` then still times the first K decisions of each
seat at the `--bot` spec, so the seconds per decision are always those of that budget.

`--compare` times several specs on the same positions instead (and plays no matches): one match
per game played at random, and at each of the first K decisions (`--timing`, default 20) of the
first seat every spec chooses a move there; printed per spec: seconds per decision, the random
moves its playouts played, and how many playouts stopped at a depth. Hearts (4 players, some 700
decisions a match) is run only when named: `--game hearts --compare mcts:10 --compare
mcts:10:depth=40`.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ludus.bots import make_bot, observe  # noqa: E402
from ludus.pipeline import load  # noqa: E402
from ludus.simulation import simulate  # noqa: E402

GAMES = {  # name -> (path, players)
    "connect-four": ("examples/connect-four.ludus", 2),
    "market-town": ("examples/market-town.ludus", 2),
    "uprising": ("games/uprising.ludus", 2),
    "votes-for-women": ("games/votes-for-women/votes-for-women.ludus", 2),
    "hearts": ("examples/hearts.ludus", 4),
}
DEFAULT_GAMES = ["connect-four", "market-town", "uprising", "votes-for-women"]
MAX_DECISIONS = 20_000


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def match_with_bot(game, players: int, seat: int, spec: str, seed: int) -> tuple[float, int, float, float]:
    """One match, the bot in `seat`: (its share of the win, searched decisions, CPU s, wall s)."""
    match = game.new_match(players, seed=seed)
    bot = make_bot(spec, game, seat, seed * 31 + seat)
    rng = random.Random(seed)
    decisions, cpu, wall = 0, 0.0, 0.0
    for _ in range(MAX_DECISIONS):
        if match.is_over:
            break
        cur = match.current
        legal = match.state["pending"]["options"]
        if cur == seat and len(legal) > 1:
            c0, w0 = time.process_time(), time.perf_counter()
            index = bot.choose(observe(match, seat))
            cpu += time.process_time() - c0
            wall += time.perf_counter() - w0
            decisions += 1
        elif cur == seat:
            index = 0
        else:
            index = rng.randrange(len(legal))
        match.apply_fast(index)
    winners = match.state["result"]["winners"] if match.state["result"] else []
    share = 1.0 / len(winners) if seat in winners else 0.0
    return share, decisions, cpu, wall


def time_decisions(game, players: int, seat: int, spec: str, k: int, seed: int) -> tuple[int, float, float]:
    """The first `k` searched decisions of `seat` in one match: (decisions, CPU s, wall s)."""
    match = game.new_match(players, seed=seed)
    bot = make_bot(spec, game, seat, seed)
    rng = random.Random(seed)
    done, cpu, wall = 0, 0.0, 0.0
    while not match.is_over and done < k:
        legal = match.state["pending"]["options"]
        if match.current == seat and len(legal) > 1:
            c0, w0 = time.process_time(), time.perf_counter()
            index = bot.choose(observe(match, seat))
            cpu += time.process_time() - c0
            wall += time.perf_counter() - w0
            done += 1
        else:
            index = rng.randrange(len(legal))
        match.apply_fast(index)
    return done, cpu, wall


def compare_specs(game, players: int, specs: list[str], k: int, seed: int) -> None:
    """Every spec chooses at the same first `k` decisions of seat 0 of one random match."""
    match = game.new_match(players, seed=seed)
    bots = [make_bot(spec, game, 0, seed) for spec in specs]
    cpu = [0.0] * len(specs)
    moves = [0] * len(specs)
    cut = [0] * len(specs)
    searched = [0] * len(specs)
    rng = random.Random(seed)
    done = 0
    while not match.is_over and done < k:
        legal = match.state["pending"]["options"]
        if match.current == 0 and len(legal) > 1:
            obs = observe(match, 0)
            for i, bot in enumerate(bots):
                c0 = time.process_time()
                bot.choose(obs)
                cpu[i] += time.process_time() - c0
                moves[i] += bot.playout_moves
                cut[i] += bot.cut
                searched[i] += bot.iterations
            done += 1
        match.apply_fast(rng.randrange(len(legal)))
    for i, spec in enumerate(specs):
        print(f"  {spec}: {done} decisions, {cpu[i] / max(done, 1):.3f}s CPU per decision, "
              f"{moves[i] / max(searched[i], 1):.1f} random moves per playout, "
              f"{cut[i]} of {searched[i]} playouts stopped at the depth", flush=True)


def pairs(values: list[str] | None, flag: str, cast) -> dict:
    out = {}
    for value in values or ():
        name, sep, rest = value.partition("=")
        if not sep or name not in GAMES:
            raise SystemExit(f"{flag} takes GAME=VALUE with GAME one of {', '.join(GAMES)}, not {value!r}")
        out[name] = cast(rest)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", "-n", type=int, default=10, help="matches per seat (default 10)")
    parser.add_argument("--bot", default="mcts", help="the bot's spec (default: mcts at its default budget)")
    parser.add_argument("--game", action="append", choices=sorted(GAMES), help="only these games (repeatable)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--baseline", type=int, default=400, help="random-vs-random matches for the baseline")
    parser.add_argument("--only", action="append", metavar="GAME=SPEC", help="another bot spec for one game's matches")
    parser.add_argument("--matches-for", action="append", metavar="GAME=N", help="another number of matches for one game")
    parser.add_argument("--seat", type=int, action="append", help="only these seats, by number from 0 (repeatable)")
    parser.add_argument("--timing", type=int, default=0, metavar="K",
                        help="also time the first K decisions per seat at the --bot spec (default: no)")
    parser.add_argument("--compare", action="append", metavar="SPEC",
                        help="only time these mcts specs on the same positions (repeatable; see above)")
    args = parser.parse_args()
    if args.compare:
        for name in args.game or DEFAULT_GAMES:
            path, players = GAMES[name]
            game = load(ROOT / path)
            print(f"\n{game.title} ({path}, {players} players), seat {game.seat_names(players)[0]}:")
            compare_specs(game, players, args.compare, args.timing or 20, args.seed + 7)
        return
    specs = pairs(args.only, "--only", str)
    counts = pairs(args.matches_for, "--matches-for", int)
    print(f"{args.bot} against random play, {args.matches} matches per seat per game unless said; "
          f"baseline: {args.baseline} matches of random play; 95% Wilson intervals")
    for name in args.game or DEFAULT_GAMES:
        path, players = GAMES[name]
        spec = specs.get(name, args.bot)
        n = counts.get(name, args.matches)
        game = load(ROOT / path)
        names = game.seat_names(players)
        base = simulate(game, args.baseline, seed=args.seed + 99, players=players)
        print(f"\n{game.title} ({path}, {players} players): {spec}, {n} matches per seat")
        for seat in range(players):
            if args.seat and seat not in args.seat:
                continue
            if args.timing:
                d, c, w = time_decisions(game, players, seat, args.bot, args.timing, args.seed + 7)
                print(f"  timing {args.bot} as {names[seat]}: {d} decisions, {c / max(d, 1):.2f}s CPU, "
                      f"{w / max(d, 1):.2f}s wall per decision", flush=True)
            won = 0.0
            decisions, cpu, wall = 0, 0.0, 0.0
            start = time.perf_counter()
            for k in range(n):
                share, d, c, w = match_with_bot(game, players, seat, spec, args.seed * 1_000 + k)
                won += share
                decisions, cpu, wall = decisions + d, cpu + c, wall + w
            lo, hi = wilson(won, n)
            rnd = base.wins[names[seat]] / max(base.games, 1)
            per = f"{cpu / decisions:.2f}s CPU, {wall / decisions:.2f}s wall" if decisions else "no decisions"
            print(f"  {spec} as {names[seat]}: won {won:g}/{n} = {100 * won / n:.0f}% "
                  f"[{100 * lo:.0f}%, {100 * hi:.0f}%]; random as {names[seat]}: {100 * rnd:.1f}%; "
                  f"{decisions} decisions, {per} per decision; {time.perf_counter() - start:.0f}s", flush=True)


if __name__ == "__main__":
    main()
