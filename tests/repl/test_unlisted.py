"""A counter, flag or var declared `unlisted` is bookkeeping: the screen after a move and its
`changed:` lines leave it out, naming it on one line; `show NAME` and the whole `show` read it."""

from __future__ import annotations

import pytest

import ludus
from tests.helpers import repl_on

SOURCE = '''game "Ledger"
players 2
seats Amber, Basil
counter coins per seat
counter spent per seat unlisted
flag paid unlisted
flow:
    turn Amber:
        offer Pay
        offer Tally
        offer Tally
    end game

action Pay:
    increase coins by 2
    increase spent by 1
    set paid to true

action Tally:
    increase spent by 1
'''


@pytest.fixture(autouse=True)
def no_history(monkeypatch, tmp_path):
    monkeypatch.setenv("LUDUS_HISTORY", str(tmp_path / "history"))


def ledger(tmp_path):
    path = tmp_path / "ledger.ludus"
    path.write_text(SOURCE, encoding="utf-8")
    return repl_on(ludus.load(path).new_match(2), path, 120)


def test_the_screen_names_unlisted_values_on_one_line_and_draws_the_rest(tmp_path):
    repl, out = ledger(tmp_path)
    repl.show_state()
    lines = [line.strip() for line in out.getvalue().splitlines()]
    assert ["coins", "0", "0"] in [line.split() for line in lines]
    assert "not listed: spent, paid (`show NAME` reads one)" in lines
    assert not any(line.split()[:1] in (["spent"], ["paid"]) for line in lines)


def test_changed_lines_leave_unlisted_values_out(tmp_path):
    repl, out = ledger(tmp_path)
    repl.handle("Pay")
    text = out.getvalue()
    assert "changed: coins of Amber: 0 → 2" in text
    assert "changed: spent" not in text and "changed: paid" not in text


def test_a_move_that_changed_only_unlisted_values_does_not_draw_the_table_again(tmp_path):
    repl, out = ledger(tmp_path)
    repl.handle("Pay")
    before = out.getvalue()
    repl.handle("Tally")
    after = out.getvalue()[len(before):]
    assert after == "nothing on the table changed (`show` draws it again)\nAmber: take an action\n   1. Tally\n"
    assert "changed:" not in after
    assert "per seat" not in after  # the table is not drawn again: nothing on it moved
    assert repl.match.view(None)["counters"]["spent"]["Amber"] == 2


def test_show_reads_unlisted_values(tmp_path):
    repl, out = ledger(tmp_path)
    repl.handle("Pay")
    start = len(out.getvalue())
    repl.handle("show spent")
    assert "spent: Amber: 1, Basil: 0" in out.getvalue()[start:]
    start = len(out.getvalue())
    repl.handle("show")
    whole = [line.split() for line in out.getvalue()[start:].splitlines()]
    assert ["spent", "1", "0"] in whole and ["paid", "yes"] in whole
    assert "not listed" not in out.getvalue()[start:]
