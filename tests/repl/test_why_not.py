"""A refused move says why: the requirement that fails, or the cost that cannot be paid (issue 17, 8)."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

import ludus
from ludus.repl import Repl
from tests.helpers import EXAMPLES

SOURCE = '''game "Why"
players 2
counter coins per seat start 2
action Build:
    label "build a stall"
    cost 3 coins
action Rest:
    label "rest"
    require coins > 5
action Wait:
    label "wait"
flow:
    turn P1:
        offer Build, Rest, Wait
    end game
'''


@pytest.fixture(autouse=True)
def no_history(monkeypatch, tmp_path):
    monkeypatch.setenv("LUDUS_HISTORY", str(tmp_path / "history"))


def repl_for(game, path, seed=0):
    out = io.StringIO()
    console = Console(file=out, width=120, color_system=None, highlight=False, markup=False)
    return Repl(game.new_match(2, seed=seed), path, console), out


def test_a_cost_that_cannot_be_paid_and_a_failing_requirement_are_named(tmp_path):
    path = tmp_path / "why.ludus"
    path.write_text(SOURCE, encoding="utf-8")
    game = ludus.load(path)
    assert game.new_match(2).why_not("build a stall") == "it needs 3 coins, and P1 has 2"
    assert game.new_match(2).why_not("Rest") == "its requirement 'coins > 5' does not hold"
    assert game.new_match(2).why_not("fly") is None
    repl, out = repl_for(game, path)
    repl.handle("build a stall")
    assert "'build a stall' is not a legal move for P1 now: it needs 3 coins, and P1 has 2" in out.getvalue()
    assert repl.match.moves == []


def test_market_town_says_why_a_card_cannot_be_bought():
    path = EXAMPLES / "market-town.ludus"
    repl, out = repl_for(ludus.load(path), path, seed=3)
    repl.handle("buy Town Crier")
    assert "'buy Town Crier' is not a legal move for Amber now: its requirement 'c.cost <= coins' does not hold" in out.getvalue()
