"""A test's `given` line may call a rule, run inline as its own statements would be."""

from __future__ import annotations

import pytest

import ludus
from ludus.testing.blocks import own_tests, run_test_decl
from ludus.testing.position import TestError
from tests.helpers import EXAMPLES

RULES = '''
rule rich(s: seat, n: number):
    set coins of s to n
    add 1 Stall of s to Docks

rule deeper(s: seat):
    rich(s, 7)

rule asks:
    choose q from quarters
    add 1 Stall to q

rule forever(k: number):
    forever(k + 1)

'''


def run(tmp_path, body: str):
    path = tmp_path / "t.ludus"
    path.write_text(f'extends "{(EXAMPLES / "market-town.ludus").as_posix()}"\n{RULES}test "t":\n{body}',
                    encoding="utf-8")
    game = ludus.load(path)
    run_test_decl(game, own_tests(game, path)[0], lambda effect, name, span: None)


def test_a_given_rule_call_runs_the_rule_and_the_rules_it_calls(tmp_path):
    run(tmp_path, "    given rich(Basil, 5)\n    expect coins of Basil == 5 and Stall of Basil at Docks == 1\n")
    run(tmp_path, "    given deeper(Amber)\n    expect coins of Amber == 7 and Stall of Amber at Docks == 1\n"
                  '    expect legal "buy Guild Charter"\n')


def test_a_given_rule_that_asks_a_decision_is_refused_where_it_asks(tmp_path):
    with pytest.raises(TestError, match="a position can only be set up with statements that need no decision") as info:
        run(tmp_path, "    given asks()\n")
    assert info.value.span.line == 11  # the `choose` inside the rule


def test_a_given_rule_that_calls_itself_without_end_is_an_error_not_a_crash(tmp_path):
    with pytest.raises(TestError, match="rules called one another more than 100 deep"):
        run(tmp_path, "    given forever(0)\n")


HANDS = """game "Hands"
players 2
zone hand per seat
card "A"
card "B"
action Play(c in hand):
    label "play {c}"
    move c to box
flow:
    move card("A") to hand of P1
    for each s in seats:
        turn s:
            offer Play
    end game

test "t":
"""


def run_hands(tmp_path, body: str):
    path = tmp_path / "hands.ludus"
    path.write_text(HANDS + body, encoding="utf-8")
    game = ludus.load(path)
    run_test_decl(game, own_tests(game, path)[0], lambda effect, name, span: None)


def test_given_lines_in_a_row_set_up_one_position_before_the_decision_is_asked_again(tmp_path):
    # P1's hand emptied, then filled: asked again in between, the offer had nothing to offer,
    # so P1's turn (and the match) went on before the second line gave P1 a card
    refilled = '    given move hand of P1 to box\n    given move card("B") to hand of P1\n'
    run_hands(tmp_path, refilled + '    expect current == P1\n    expect legal "play B"\n')
    # a line between two givens ends the run: the decision is asked again there, the match
    # ends with nothing to play, and the second given says so rather than change nothing
    with pytest.raises(TestError, match=r"cannot set up the position with 'given': the match is over \(no one wins"):
        run_hands(tmp_path, refilled.replace("    given move card", "    expect true\n    given move card")
                  + '    expect legal "play B"\n')


# ── the Python API ──

def test_position_given_and_expect_keep_the_did_you_mean_hint_of_a_bad_line():
    # as resolve_rule does: the hint is the error's detail, printed under it
    from ludus.testing import Position

    pos = Position(ludus.load(EXAMPLES / "market-town.ludus"), 2)
    with pytest.raises(TestError) as info:
        pos.given("set coins of Ambr to 3")
    assert info.value.message == "unknown seat 'Ambr'"
    assert info.value.detail == "    hint: did you mean 'Amber'?"
    assert str(info.value) == "<given>:1:14: error: unknown seat 'Ambr'\n    hint: did you mean 'Amber'?"
    with pytest.raises(TestError) as info:
        pos.expect("coins of Basill == 0")
    assert info.value.detail == "    hint: did you mean 'Basil'?"
    # a line without a hint has no detail, and the position is as it was
    with pytest.raises(TestError) as info:
        pos.given("set coins of Amber to")
    assert info.value.detail is None
    pos.expect("coins of Amber == 3")
