"""Report data: a pure fold over match records, as plain JSON-ready values.

The same records give the same data whatever order they came in and whoever played them (one
process, a pool, a cluster): records are taken in seed order and nothing here reads a clock.
How long the run took is kept apart, under "run" in results.json, and is not report data.
"""

from __future__ import annotations

from collections import Counter

from .records import MAX_DECISIONS, MatchRecord
from .stats import difference, mean_ci, mean_difference, wilson


def _r(x: float) -> float:
    return round(x, 6)


def _rate(k: int, n: int) -> dict:
    low, high = wilson(k, n)
    return {"count": k, "of": n, "rate": _r(k / n) if n else 0.0, "ci95": [_r(low), _r(high)]}


def _uses(records: list[MatchRecord], attr: str, names) -> list[dict]:
    """For each action (or card) name: how often each seat played it, in how many of its matches,
    and the win rate of the seat in the matches where it played it (shared wins count as wins)."""
    plays: dict[str, Counter] = {}
    used: Counter = Counter()
    won: Counter = Counter()
    for rec in records:
        winners = set(rec.winners)
        for seat, counts in enumerate(getattr(rec, attr)):
            for name, n in counts:
                plays.setdefault(name, Counter())[names[seat]] += n
                used[name] += 1
                if seat in winners:
                    won[name] += 1
    out = []
    for name in sorted(plays, key=lambda k: (-sum(plays[k].values()), k)):
        out.append({
            "name": name,
            "plays": sum(plays[name].values()),
            "per_match": _r(sum(plays[name].values()) / max(len(records), 1)),
            "by_seat": {seat: plays[name][seat] for seat in names if plays[name][seat]},
            "win_rate_of_player": _rate(won[name], used[name]),
        })
    return out


def report_data(records: list[MatchRecord], names, bots: dict[int, str] | None = None, *, title: str = "",
                path: str = "", seed: int = 0, requested: int | None = None) -> dict:
    """Everything a report shows, from the records of one game's run."""
    records = sorted(records, key=lambda r: r.seed)
    names = list(names)
    bots = bots or {}
    n = len(records)
    outcomes = Counter(r.outcome for r in records)
    sole = Counter(r.winners[0] for r in records if r.outcome == "won")
    shared = Counter(s for r in records if r.outcome == "shared" for s in r.winners)
    any_win = Counter(s for r in records for s in r.winners)
    seats = []
    for i, name in enumerate(names):
        seats.append({
            "seat": name,
            "bot": bots.get(i, "random"),
            "wins": _rate(sole[i], n),
            "shared_wins": _rate(shared[i], n),
            "wins_alone_or_shared": _rate(any_win[i], n),
        })
    lengths = [r.length for r in records if r.outcome != "error"]
    mean, low, high = mean_ci(lengths)
    ordered = sorted(lengths)
    firsts = [r for r in records if r.first is not None and r.outcome in ("won", "shared", "none")]
    first_won = sum(1 for r in firsts if r.first in r.winners)
    payoffs: dict[str, list] = {}
    for r in records:
        for name, value in r.payoffs:
            payoffs.setdefault(name, []).append(value)
    return {
        "game": title,
        "file": path,
        "players": len(names),
        "seats": names,
        "seed": seed,
        "match_seeds": f"{seed} * 1000003 + i",
        "matches": n,
        "requested": requested if requested is not None else n,
        "outcomes": {
            "won_by_one": _rate(outcomes["won"], n),
            "shared": _rate(outcomes["shared"], n),
            "no_winner": _rate(outcomes["none"], n),
            "unfinished": _rate(outcomes["unfinished"], n),
            "errors": _rate(outcomes["error"], n),
        },
        "per_seat": seats,
        "length": {
            "unit": "decisions",
            "matches": len(lengths),
            "mean": _r(mean), "ci95": [_r(low), _r(high)],
            "median": ordered[len(ordered) // 2] if ordered else 0,
            "min": ordered[0] if ordered else 0,
            "max": ordered[-1] if ordered else 0,
            "limit": MAX_DECISIONS,
            "histogram": sorted(Counter(lengths).items()),
        },
        "first_player": {
            "what": "the seat that took the first action of the match; its win rate (alone or shared) "
                    "against 1 / players, in matches that ended",
            "by_seat": {names[s]: c for s, c in sorted(Counter(r.first for r in firsts).items())},
            "wins": _rate(first_won, len(firsts)),
            "fair": _r(1 / len(names)) if names else 0.0,
        },
        "actions": _uses(records, "actions", names),
        "cards": _uses(records, "cards", names),
        "payoffs": {name: {"mean": _r(sum(v) / len(v)), "min": min(v), "max": max(v)} for name, v in payoffs.items()},
        "warnings": sum(1 for r in records if r.warning is not None),
        "first_errors": [[r.seed, r.error] for r in records if r.outcome == "error"][:10],
    }


def _diff(a: dict, b: dict) -> dict:
    d, low, high = difference(a["count"], a["of"], b["count"], b["of"])
    return {"base": a["rate"], "variant": b["rate"], "difference": _r(d), "ci95": [_r(low), _r(high)],
            "significant": not (low <= 0 <= high)}


def compare_data(base: dict, variant: dict, base_lengths: list[int], variant_lengths: list[int]) -> dict:
    """The differences variant minus base, each with its 95% interval; "significant" when the
    interval leaves out 0."""
    seats = []
    for a, b in zip(base["per_seat"], variant["per_seat"], strict=True):
        seats.append({"seat": a["seat"], "wins": _diff(a["wins"], b["wins"]),
                      "wins_alone_or_shared": _diff(a["wins_alone_or_shared"], b["wins_alone_or_shared"])})
    d, low, high = mean_difference(base_lengths, variant_lengths)
    acts = {}
    for kind in ("actions", "cards"):
        old = {u["name"]: u for u in base[kind]}
        new = {u["name"]: u for u in variant[kind]}
        rows = []
        for name in sorted(set(old) | set(new)):
            a, b = old.get(name), new.get(name)
            rows.append({"name": name,
                         "per_match": [a["per_match"] if a else 0.0, b["per_match"] if b else 0.0],
                         "win_rate_of_player": _diff(a["win_rate_of_player"] if a else _rate(0, 0),
                                                     b["win_rate_of_player"] if b else _rate(0, 0))})
        acts[kind] = rows
    return {
        "base": base["file"], "variant": variant["file"], "matches": [base["matches"], variant["matches"]],
        "same_seeds": True,
        "per_seat": seats,
        "no_winner": _diff(base["outcomes"]["no_winner"], variant["outcomes"]["no_winner"]),
        "shared": _diff(base["outcomes"]["shared"], variant["outcomes"]["shared"]),
        "length": {"base": base["length"]["mean"], "variant": variant["length"]["mean"],
                   "difference": _r(d), "ci95": [_r(low), _r(high)], "significant": not (low <= 0 <= high)},
        "first_player": _diff(base["first_player"]["wins"], variant["first_player"]["wins"]),
        "actions": acts["actions"],
        "cards": acts["cards"],
    }
