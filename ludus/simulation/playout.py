"""Many matches between random-legal-move players, for balance questions and robustness."""

from __future__ import annotations

import random
import time
from collections import Counter

from attrs import define, field

from .records import MAX_DECISIONS, check_bots, check_game, check_players, chooser, match_seeds, play_match


@define
class SimReport:
    """What many matches came to. Each match counts once: won by one seat, shared by several,
    won by no one, unfinished or errored; the five add up to `games`."""

    games: int
    players: int
    wins: Counter = field(factory=Counter)  # matches each seat won alone
    shared: Counter = field(factory=Counter)  # matches each seat won together with others
    shared_matches: int = 0
    no_winner: int = 0
    lengths: list = field(factory=list)
    errors: list = field(factory=list)  # (match seed, message)
    unfinished: int = 0
    payoffs: dict = field(factory=dict)  # seat -> its payoff in each finished match (games with `payoff`)
    warnings: list = field(factory=list)  # (match seed, first warning) of each match that logged one
    seconds: float = 0.0
    cpu_seconds: float = 0.0  # this process's CPU time: the speed of one core, even on a busy machine
    bots: dict = field(factory=dict)  # seat name -> bot spec; seats not named play uniformly at random

    @property
    def decisions(self) -> int:
        return sum(self.lengths)

    def summary(self) -> str:
        def pct(n: int) -> str:
            return f"{100 * n / max(self.games, 1):.1f}%"

        lines = [f"{self.games} matches, {self.players} players, {self.seconds:.2f}s"]
        if self.bots:
            rest = " (the other seats: random)" if len(self.bots) < self.players else ""
            lines.append("  bots: " + ", ".join(f"{name}={spec}" for name, spec in self.bots.items()) + rest)
        for name, count in sorted(self.wins.items(), key=lambda kv: (-kv[1], kv[0])):
            lines.append(f"  wins {name}: {count} ({pct(count)})")
        if self.shared_matches:
            who = ", ".join(f"{name} in {n}" for name, n in sorted(self.shared.items(), key=lambda kv: (-kv[1], kv[0])))
            lines.append(f"  shared wins: {self.shared_matches} ({pct(self.shared_matches)}): {who}")
        lines.append(f"  no winner: {self.no_winner} ({pct(self.no_winner)})")
        for name, values in self.payoffs.items():
            lines.append(f"  payoff {name}: mean {sum(values) / len(values):.2f}, min {min(values)}, max {max(values)}")
        if self.lengths:
            mean = sum(self.lengths) / len(self.lengths)
            lines.append(f"  length in decisions: mean {mean:.1f}, max {max(self.lengths)}")
        if self.seconds > 0:
            lines.append(f"  speed: {self.decisions / self.seconds:,.0f} decisions/s, {self.games / self.seconds:,.1f} matches/s")
        if self.cpu_seconds > 0:
            lines.append(f"  per CPU second: {self.decisions / self.cpu_seconds:,.0f} decisions, "
                         f"{self.games / self.cpu_seconds:,.1f} matches")
        lines.append(f"  unfinished (over {MAX_DECISIONS} decisions): {self.unfinished}")
        if self.warnings:
            lines.append(f"  matches with run-time warnings: {len(self.warnings)}")
            for seed, text in self.warnings[:3]:
                lines.append(f"    seed {seed}: {text}")
        lines.append(f"  errors: {len(self.errors)}")
        for seed, message in self.errors[:10]:
            lines.append(f"    seed {seed}: {message}")
        return "\n".join(lines)


def random_playout(game, players: int, seed: int, rng: random.Random, limit: int = MAX_DECISIONS,
                   bots: dict[int, str] | None = None):
    """One match; returns (match, decisions, finished). Seats in `bots` (seat -> bot spec, see
    `ludus.bots`) are played by those bots, each seeded from the match seed; the others by
    uniformly random legal moves drawn from `rng`."""
    match = game.new_match(players, seed=seed)
    pick = chooser(game, seed, rng, bots)
    steps = 0
    while not match.is_over and steps < limit:
        match.apply_fast(pick(match))
        steps += 1
    return match, steps, match.is_over


def simulate(game, games: int, seed: int = 0, players: int | None = None, bots: dict[int, str] | None = None) -> SimReport:
    """`games` matches from seeds seed*1_000_003 + i; `bots` maps seats to bot specs (the rest play randomly)."""
    check_game(game)
    players = players or game.min_players
    check_players(game, players)
    check_bots(bots, players)
    names = game.seat_names(players)
    start, cpu_start = time.perf_counter(), time.process_time()
    seeds = match_seeds(seed, games)
    records = [play_match(game, players, s, bots) for s in seeds]
    report = fold(records, games, players, names, bots)
    report.seconds = time.perf_counter() - start
    report.cpu_seconds = time.process_time() - cpu_start
    return report


def fold(records, games: int, players: int, names, bots: dict[int, str] | None = None) -> SimReport:
    """The terminal report of match records, taken in seed order whatever order they came in."""
    report = SimReport(games, players, bots={names[s]: spec for s, spec in sorted((bots or {}).items())})
    for rec in sorted(records, key=lambda r: r.seed):
        if rec.outcome == "error":
            report.errors.append((rec.seed, rec.error))
            continue
        report.lengths.append(rec.length)
        if rec.warning is not None:
            report.warnings.append((rec.seed, rec.warning))
        if rec.outcome == "unfinished":
            report.unfinished += 1
            continue
        for name, value in rec.payoffs:
            report.payoffs.setdefault(name, []).append(value)
        if rec.outcome == "won":
            report.wins[names[rec.winners[0]]] += 1
        elif rec.outcome == "shared":
            report.shared_matches += 1
            report.shared.update(names[s] for s in rec.winners)
        else:
            report.no_winner += 1
    return report
