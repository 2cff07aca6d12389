"""A bot's answer to a question is said with the question (`Suffragist (bot): 1 (Idaho gets 1
of your cubes: how many of them are Purple? The rest are Yellow.)`): the answer alone, `1`, `IN`
or `yes`, did not say what it answered. The question is said as the seats at the screen may read
it; an action says what it does alone."""

from __future__ import annotations

import functools
import io
import re
from pathlib import Path

import pytest

from tests import helpers

ROOT = Path(__file__).resolve().parent.parent.parent
VOTES = ROOT / "games" / "votes-for-women" / "votes-for-women.ludus"


pytestmark = pytest.mark.usefixtures("no_home_files")


repl_of = functools.partial(helpers.repl_of, width=200)


def bot_lines(out: io.StringIO) -> list[str]:
    return [line for line in out.getvalue().splitlines() if "(bot)" in line]


def test_a_bots_answers_say_their_questions_and_its_actions_do_not():
    repl, out = repl_of(VOTES, 2, 5, bots={0: "random"})
    repl.play_bots()
    for _ in range(12):
        repl.handle("1")
    lines = bot_lines(out)
    # its actions, as before
    assert "Suffragist (bot): organize with Susan B. Anthony Indicted" in lines
    # its answers, each with what it answered
    assert (
        "Suffragist (bot): 2 (New York gets 2 of your cubes: how many of them are Purple? The rest are Yellow.)"
        in lines
    )
    assert "Suffragist (bot): yes (Spend a button to re-roll?)" in lines
    assert "Suffragist (bot): NY (Which state gets your next cube? 1 to place, at most 1 in a state.)" in lines
    assert "Suffragist (bot): 0 (How many buttons do you commit?)" in lines
    # an offer's `else` says what it does, as an action does
    assert "Suffragist (bot): keep claimed cards for now" in lines


def test_a_hidden_answer_keeps_its_question_and_names_no_card():
    from tests.repl.test_hidden_answers import CARD, coup_until_blue_exchanges

    _repl, out = coup_until_blue_exchanges()
    lines = bot_lines(out)
    assert "Blue (bot) chose a card (Which two cards do you return to the court deck? (0 chosen))" in lines
    assert "Blue (bot) chose a card (Which two cards do you return to the court deck? (1 chosen))" in lines
    assert not any(re.search(rf"\b{CARD}\b", line.replace("(Ambassador)", "").replace("(Duke)", "")) for line in lines)


SHARES = '''game "Shares"
players 2
zone hand per seat owner only
kind Thing:
    cost: number = 0
card "Lamp" is Thing
card "Rope" is Thing
flow:
    move card("Lamp") to hand of P2
    move card("Rope") to hand of P2
    turn P2:
        distribute 2 among hand of P2 as shares "Spread the marks"
    turn P1:
        choose n from 0 to 1 "How many?"
    win P1
'''


def test_a_question_naming_a_card_the_screen_may_not_see_says_a_card(tmp_path):
    path = tmp_path / "shares.ludus"
    path.write_text(SHARES, encoding="utf-8")
    repl, out = repl_of(path, 2, 0, bots={1: "random"})  # P1's screen: P2's hand is hidden
    repl.play_bots()
    assert bot_lines(out) == ["P2 (bot) gave a share to a card (Spread the marks: 2 left to give; how many to a card?)"]
    repl, out = repl_of(path, 2, 0, bots={1: "random"}, view="all")  # the designer reads it all
    repl.play_bots()
    assert bot_lines(out) == ["P2 (bot): 1 to Rope (Spread the marks: 2 left to give; how many to Rope?)"]


def test_the_help_says_a_bot_may_be_a_file_of_your_own():
    repl, out = repl_of(VOTES, 2, 1)
    repl.handle("help")
    assert "let a bot (random, greedy, mcts, or a FILE.py of your own) play a seat" in " ".join(out.getvalue().split())
