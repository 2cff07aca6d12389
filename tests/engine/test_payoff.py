"""`payoff EXPR`: a score per seat when the match ends, for returns(), reports and bots."""

from __future__ import annotations

import pytest

import ludus
from ludus.engine.runtime import RuleError
from ludus.simulation import simulate

SOURCE = '''game "Chips"
players 2 to 3
counter chips per seat start 10
payoff chips of seat - 10
flow:
    for each s in seats:
        turn s:
            choose bet from 0 to 5 "How many chips do you pass on?"
            decrease chips by bet
            increase chips of left(s) by bet
    end game
'''


def load(tmp_path, text=SOURCE):
    path = tmp_path / "chips.ludus"
    path.write_text(text, encoding="utf-8")
    return ludus.load(path)


def test_returns_are_the_payoffs_once_the_match_is_over(tmp_path):
    m = load(tmp_path).new_match(2, seed=1)
    assert m.returns() == [0, 0]
    m.apply("3")                        # P1 passes 3 to P2
    assert m.returns() == [0, 0]        # still running
    m.apply("1")                        # P2 passes 1 back
    assert m.returns() == [-2, 2]
    assert m.result["payoffs"] == {"P1": -2, "P2": 2}


def test_without_a_payoff_returns_are_win_and_loss(tmp_path):
    m = load(tmp_path, SOURCE.replace("payoff chips of seat - 10\n", "").replace("    end game", "    win P1")).new_match(2)
    m.apply("0")
    m.apply("0")
    assert m.returns() == [1, -1] and "payoffs" not in m.result


def test_simulation_reports_each_seats_payoff(tmp_path):
    report = simulate(load(tmp_path), 40, seed=3, players=3)
    assert sorted(report.payoffs) == ["P1", "P2", "P3"]
    assert all(len(v) == 40 for v in report.payoffs.values())
    # chips only change hands: the payoffs of every match add up to 0
    assert sum(sum(v) for v in report.payoffs.values()) == 0
    assert "payoff P1: mean" in report.summary()


def test_a_payoff_that_fails_is_a_located_rule_error(tmp_path):
    game = load(tmp_path, SOURCE.replace("payoff chips of seat - 10", "payoff chips of seat / (chips of seat - chips of seat)"))
    m = game.new_match(2)
    m.apply("0")
    with pytest.raises(RuleError, match="the payoff could not be read: division by zero"):
        m.apply("0")


def test_payoffs_survive_save_and_load_and_damaged_ones_are_refused(tmp_path):
    import json

    from ludus.engine.match import Match, MatchError

    game = load(tmp_path)
    m = game.new_match(2, seed=1)
    m.apply("3")
    m.apply("1")
    assert Match.from_json(game, m.to_json()).returns() == [-2, 2]
    data = json.loads(m.to_json())
    data["state"]["result"]["payoffs"] = ["lots", 2]
    with pytest.raises(MatchError, match="payoffs are damaged"):
        Match.from_json(game, json.dumps(data))
