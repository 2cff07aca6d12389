"""Run-time warnings: `top(list, n)` that finds fewer than n is allowed (a deck may run short),
but often a content bug, so the match log says so, with the place, and `ludus simulate` counts it."""

from __future__ import annotations

import ludus
from ludus.simulation import simulate
from tests.helpers import EXAMPLES

SHORT = '''game "Short deal"
players 2
zone hand per seat
card "Coin":
    copies 10
setup:
    for each s in seats:
        move top([c for c in box], 7) to hand of s
flow:
    end game
'''


def test_a_short_top_logs_a_located_warning_and_simulate_counts_it(tmp_path):
    path = tmp_path / "short.ludus"
    path.write_text(SHORT, encoding="utf-8")
    game = ludus.load(path)
    m = game.new_match(2)
    [warning] = [e for e in m.log if e["t"] == "warning"]
    assert warning["text"].endswith("short.ludus:8:14: top(..., 7) found only 3")
    report = simulate(game, 5, seed=1)
    assert len(report.warnings) == 5 and "matches with run-time warnings: 5" in report.summary()


def test_market_town_deals_seven_coins_to_each_of_four_players():
    game = ludus.load(EXAMPLES / "market-town.ludus")
    m = game.new_match(4, seed=0)
    zones = m.view(None)["zones"]
    assert [len(zones[f"deck of {s}"]) + len(zones[f"hand of {s}"]) for s in ("Amber", "Basil", "Cobalt", "Dune")] == [7, 7, 7, 7]
    assert not [e for e in m.log if e["t"] == "warning"]
    report = simulate(game, 20, seed=1, players=4)
    assert not report.warnings
