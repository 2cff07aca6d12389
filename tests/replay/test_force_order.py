"""A forced order that cannot apply fails at its own line, naming the zone as the game does
(issue 17, item 16)."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

import ludus
from ludus.repl import Repl
from ludus.replay import load_replay
from ludus.replay.script import ReplayError
from tests.helpers import EXAMPLES

GAME = EXAMPLES / "market-town.ludus"


def replay(tmp_path, force: str):
    path = tmp_path / "t.replay"
    path.write_text(f"game {GAME.as_posix()}\nplayers 2\nseed 3\nforce order {force}\nbuy nothing\n", encoding="utf-8")
    return load_replay(path)


def test_a_card_not_in_the_zone_fails_at_the_force_line(tmp_path):
    r = replay(tmp_path, "deck of Amber = Guild Charter, Copper Coin")
    with pytest.raises(ReplayError) as err:
        r.run(lambda line: None)
    assert err.value.line == 4
    assert "cannot force this order: 'Guild Charter' is not in deck of Amber; a copy is in supply" in err.value.message


def test_too_many_copies_fail_too(tmp_path):
    r = replay(tmp_path, "deck of Amber = Copper Coin, Copper Coin, Copper Coin, Copper Coin, Copper Coin")
    with pytest.raises(ReplayError, match="deck of Amber holds 4 'Copper Coin', and the order names it 5 times"):
        r.run(lambda line: None)


def test_a_card_that_the_refill_brings_in_is_allowed(tmp_path, monkeypatch):
    # the deck refills from the discard pile: a card in the discard may be ordered
    monkeypatch.setenv("LUDUS_HISTORY", str(tmp_path / "history"))
    game = ludus.load(GAME)
    out = io.StringIO()
    repl = Repl(game.new_match(2, seed=3), GAME, Console(file=out, width=120, color_system=None))
    repl.handle("buy Tax Collector")       # into Amber's discard pile
    repl.handle("force order deck of Amber = Tax Collector")
    assert "forced: the next shuffle of deck of Amber" in out.getvalue()
    repl.handle("force order deck of Basil = Guild Charter")
    assert "error: cannot force this order: 'Guild Charter' is not in deck of Basil" in out.getvalue()
