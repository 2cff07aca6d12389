"""`show ACTION` says what an action does, in the words `ludus cards` gives a card's effect, and
whether the screen's seat may play it now (its moves, or why not); a move's label finds the
action behind it; rules and defines are shown in words too."""

from __future__ import annotations

import functools

import pytest

from tests.helpers import EXAMPLES, game_from_text, repl_of, said

SOURCE = """game "Shown"
players 2
counter coins per seat start 2
zone market
kind Card:
    cost: number
card "Lamp": cost 1
card "Rope": cost 5
action Build:
    label "build a stall"
    cost 3 coins
action Rest:
    label "rest"
    require coins > 5
action Buy(c in market):
    label "buy {c}"
    require c.cost <= coins
    pay c.cost coins
action Wait:
    label "wait"
    gain 1 coins
    tidy()
action Later:
    label "later"
rule tidy:
    set coins to coins
define richest = most(coins of s for s in seats)
flow:
    move box to market
    turn P1:
        offer Build, Rest, Buy, Wait else "stop"
    end game
"""


@pytest.fixture(autouse=True)
def no_history(monkeypatch, tmp_path):
    monkeypatch.setenv("LUDUS_HISTORY", str(tmp_path / "history"))
    monkeypatch.setenv("LUDUS_SESSIONS", "")


make_repl = functools.partial(repl_of, players=2, seed=0, width=120)


@pytest.fixture
def shown(tmp_path):
    game_from_text(tmp_path, SOURCE, "shown.ludus")
    return make_repl(tmp_path / "shown.ludus")


def test_an_action_is_shown_with_what_it_does_and_its_moves_now(shown):
    repl, out = shown
    assert said(repl, out, "show Wait") == [
        'Wait (action, its move "wait"):',
        "  Gain 1 coin.",
        "  Tidy.",
        "  legal now for P1: wait",
    ]
    assert said(repl, out, "show buy") == [  # any case, as every name `show` takes
        'Buy (action, its move "buy {c}"):',
        "  c is one of the market.",
        "  Only if c's cost is at most your coins.",
        "  Pay c's cost coins.",
        "  legal now for P1: buy Lamp",
    ]
    assert repl.rejected == 0


def test_an_action_not_legal_now_says_why(shown):
    repl, out = shown
    assert said(repl, out, "show Build")[-1] == "  not legal now for P1: it needs 3 coins, and P1 has 2"
    assert (
        said(repl, out, "show action Rest")[-1]
        == "  not legal now for P1: its requirement 'coins > 5' does not hold (coins is 2)"
    )
    assert said(repl, out, "show Later") == [
        'Later (action, its move "later"):',
        "  No effect.",
        "  not offered to P1 at this decision",
    ]


def test_a_moves_label_shows_its_action_and_the_else_answer_says_what_it_is(shown):
    repl, out = shown
    assert said(repl, out, "show buy Lamp")[0] == 'Buy (action, its move "buy {c}"):'
    assert said(repl, out, "show stop") == [
        "'stop': the offer's `else` answer, no action: it takes none and ends the offer"
    ]
    assert repl.match.moves == [] and repl.rejected == 0


def test_the_label_of_a_move_not_offered_now_finds_its_action(shown):
    # `build a stall` is not legal (3 coins, P1 has 2), so no option on screen has that label
    repl, out = shown
    assert said(repl, out, "show Build  a STALL")[0] == 'Build (action, its move "build a stall"):'
    assert repl.rejected == 0


def test_a_rule_and_a_define_are_shown_in_words(shown):
    repl, out = shown
    assert said(repl, out, "show tidy") == ["tidy (rule):", "  Set your coins to your coins."]
    assert said(repl, out, "show define richest") == ["richest (define): each s in the seats with the most coins"]


def test_another_seats_decision_and_the_end_of_the_match_are_said(shown):
    repl, out = shown
    repl.handle("view P2")
    assert said(repl, out, "show Wait")[-1] == "  now: P1 decides, not P2"
    repl.handle("view auto")
    repl.handle("stop")
    assert repl.match.result is not None
    assert said(repl, out, "show Wait")[-1] == "  now: the match is over"


def test_a_name_not_found_suggests_the_actions_too(shown):
    repl, out = shown
    assert said(repl, out, "show Biuld") == ["error: nothing called 'Biuld' to show; closest: Build, Buy, tidy"]


def test_no_thanks_no_thanks_shows_its_cost_and_what_it_does():
    repl, out = make_repl(EXAMPLES / "no-thanks.ludus", players=3, seed=1)
    assert said(repl, out, "show no thanks") == [
        'NoThanks (action, its move "no thanks"):',
        "  Costs 1 chip.",
        "  Increase pot by 1.",
        "  Set deciding to the seat left of you.",
        "  legal now for P1: no thanks",
    ]
