"""docs/ml.md's examples run as written, at a small budget."""

from __future__ import annotations

import re

import pytest

from tests.helpers import ROOT

DOC = ROOT / "docs" / "ml.md"


def python_block(containing: str) -> str:
    text = DOC.read_text(encoding="utf-8")
    blocks = [m.group(1) for m in re.finditer(r"^```python\n(.*?)^```", text, re.S | re.M) if containing in m.group(1)]
    assert len(blocks) == 1, f"docs/ml.md has {len(blocks)} python blocks with {containing!r}"
    return blocks[0]


def test_the_mcts_example_runs_at_a_tiny_budget(monkeypatch, capsys):
    pytest.importorskip("pyspiel")
    code = python_block("MCTSBot")
    budget = "GAMES, SIMULATIONS = 10, 100"
    assert budget in code, "the example's budget line changed: update this test with it"
    monkeypatch.chdir(ROOT)
    exec(compile(code.replace(budget, "GAMES, SIMULATIONS = 1, 3"), "docs/ml.md", "exec"), {"__name__": "__docs__"})
    out = capsys.readouterr().out
    m = re.search(r"MCTS \(3 simulations a move\) against random: won (\d+), drew (\d+), lost (\d+) of 2$", out, re.M)
    assert m, out
    assert sum(int(x) for x in m.groups()) == 2


def test_the_pettingzoo_example_plays_a_match_to_the_end(monkeypatch, capsys):
    pytest.importorskip("pettingzoo")
    code = python_block("agent_iter")
    monkeypatch.chdir(ROOT)
    exec(compile(code, "docs/ml.md", "exec"), {"__name__": "__docs__"})
    lines = capsys.readouterr().out.splitlines()
    # each seat, once, at the end: its reward and the winners
    assert sorted(line.split()[0] for line in lines) == ["Amber", "Basil"]
    for line in lines:
        assert re.fullmatch(r"\w+ -?[01] \[.*\]", line), line
