"""A typed number is a position in the list, unless a family of labels that differ only in a
number (`bid 4` ... `bid 8`) holds a label carrying that number elsewhere in the list: then the
number could mean either, and it is refused, naming both and how to type each (`5.` is always
the position)."""

from __future__ import annotations

import io

import pytest

from ludus.repl import Repl
from tests.helpers import repl_of

AUCTION = """game "Auction"
players 2
counter coins per seat start 8
counter bid per seat
define high_bid = max(bid of s for s in seats)

action Bid(n in range(high_bid + 1, coins)):
    label "bid {n}"
    set bid to n

action Pass:
    label "pass"

flow:
    turn P1:
        offer Bid, Pass
    turn P2:
        offer Bid, Pass
    turn P1:
        choose n from 2 to 6 "How many lots?"
    end game
"""


pytestmark = pytest.mark.usefixtures("sessions_in_tmp", "no_history")


@pytest.fixture
def no_history(monkeypatch):
    monkeypatch.setenv("LUDUS_HISTORY", "")


def make_repl(tmp_path) -> tuple[Repl, io.StringIO]:
    path = tmp_path / "auction.ludus"
    path.write_text(AUCTION, encoding="utf-8")
    return repl_of(path, 2, seed=1)


def type_line(repl: Repl, out: io.StringIO, line: str) -> str:
    start = len(out.getvalue())
    assert repl.handle(line) is True
    return out.getvalue()[start:]


def at_the_second_bid(tmp_path) -> tuple[Repl, io.StringIO]:
    """P1 has bid 3: P2's options are bid 4 ... bid 8, then pass."""
    repl, out = make_repl(tmp_path)
    type_line(repl, out, "bid 3")
    assert repl.match.legal_actions() == ["bid 4", "bid 5", "bid 6", "bid 7", "bid 8", "pass"]
    return repl, out


def test_a_number_a_bid_carries_elsewhere_in_the_list_is_refused_with_both_readings(tmp_path):
    repl, out = at_the_second_bid(tmp_path)
    before, count = repl.match.to_json(), repl.rejected
    printed = type_line(repl, out, "5")
    assert printed.splitlines() == ["error: '5' could be option 5 (bid 8) or bid 5: type 'bid 5', or '5.' for option 5"]
    # refused whole: the match as it was, counted as refused (a script exits 1)
    assert repl.match.to_json() == before
    assert repl.rejected == count + 1


def test_the_label_typed_picks_the_bid(tmp_path):
    repl, out = at_the_second_bid(tmp_path)
    type_line(repl, out, "bid 5")
    assert repl.match.moves == ["bid 3", "bid 5"]


def test_the_position_form_picks_the_option_at_that_place(tmp_path):
    repl, out = at_the_second_bid(tmp_path)
    type_line(repl, out, "5.")
    assert repl.match.moves == ["bid 3", "bid 8"]


def test_a_position_beyond_the_list_in_the_position_form_is_refused(tmp_path):
    repl, out = at_the_second_bid(tmp_path)
    assert type_line(repl, out, "9.").splitlines() == ["error: there is no option 9; choose 1 to 6"]
    assert repl.match.moves == ["bid 3"]


@pytest.mark.parametrize(("typed", "picked"), [("1", "bid 4"), ("2", "bid 5"), ("3", "bid 6")])
def test_a_number_no_option_carries_is_the_position(tmp_path, typed, picked):
    # bid 1 to bid 3 are not offered now: nothing else the number could mean
    repl, out = at_the_second_bid(tmp_path)
    type_line(repl, out, typed)
    assert repl.match.moves == ["bid 3", picked]


@pytest.mark.parametrize(("typed", "picked"), [("3", "bid 3"), ("9", "pass")])
def test_a_number_whose_option_carries_it_or_that_none_carries_is_the_position(tmp_path, typed, picked):
    # the first bid: bid 1 ... bid 8, pass; option 3 is bid 3 itself, and no bid carries 9
    repl, out = make_repl(tmp_path)
    assert repl.match.legal_actions()[:3] == ["bid 1", "bid 2", "bid 3"]
    type_line(repl, out, typed)
    assert repl.match.moves == [picked]


def test_labels_without_a_family_keep_numbers_as_positions(tmp_path):
    # one label with a number (`take 32`) beside one without: no family, the number is the position
    repl, out = make_repl(tmp_path)
    repl.match.state["pending"]["options"] = ["no thanks", "take 32"]
    repl.match.state["pending"]["values"] = [None, None]
    chosen = []
    repl.move = chosen.append
    type_line(repl, out, "2")
    assert chosen == ["take 32"]


def test_a_number_decision_takes_the_number_not_a_position(tmp_path):
    # `choose n from 2 to 6`: the labels 2 ... 6 are a family too, but a typed number is the
    # number itself there, as before (5, not the fifth option, 6)
    repl, out = make_repl(tmp_path)
    type_line(repl, out, "bid 1")
    type_line(repl, out, "pass")
    assert "type a number: 2 to 6" in out.getvalue()
    # the position form has no list to point into here
    assert type_line(repl, out, "5.").splitlines() == [
        "error: the options here are numbers, not a list: type 5 for the number 5"
    ]
    assert repl.match.moves == ["bid 1", "pass"]
    type_line(repl, out, "5")
    assert repl.match.moves == ["bid 1", "pass", "5"]
