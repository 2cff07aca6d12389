"""`undid:` and `redid:` say each answer with the question it answered, as `log` does (`1 (choose
n)`), in the words of the seat viewed: a pick it may not see stays `chose a card`, and a card
asked of that it may not see is `a card`. An action and an offer's `else` say what they do on
their own, as in `log`."""

from __future__ import annotations

import io

import pytest

from ludus.repl.session import Repl
from tests.helpers import game_from_text, repl_on
from tests.repl.test_log_questions import SOURCE

pytestmark = pytest.mark.usefixtures("no_home_files")


def played(tmp_path, view: str) -> tuple[Repl, io.StringIO]:
    game = game_from_text(tmp_path, SOURCE)
    repl, out = repl_on(game.new_match(2, seed=1), tmp_path / "game.ludus", 160)
    for move in ("1", "1", "1.", "view Blue", "yes", "view Red", "keep them", f"view {view}"):
        repl.handle(move)
    return repl, out


def first_lines(repl: Repl, out: io.StringIO, command: str, times: int) -> list[str]:
    lines = []
    for _ in range(times):
        start = len(out.getvalue())
        repl.handle(command)
        lines.append(out.getvalue()[start:].splitlines()[0])
    return lines


def test_undo_and_redo_say_each_answer_with_its_question_as_the_seat_viewed_reads_it(tmp_path):
    repl, out = played(tmp_path, "Blue")
    undone = first_lines(repl, out, "undo", 5)
    assert undone == [
        "undid: keep them",  # an offer's `else` says what it does, as in `log`
        "undid: yes (Do you accept?)",
        "undid: Red gave a share to a card (Spread the wear: 2 left to give; how many to a card?)",
        "undid: 1 (choose n)",
        "undid: Red chose a card (Which card do you keep?)",
    ]
    redone = first_lines(repl, out, "redo", 5)
    assert redone == [line.replace("undid:", "redid:") for line in reversed(undone)]


def test_the_designer_reads_the_cards_in_the_questions(tmp_path):
    repl, out = played(tmp_path, "all")
    card = repl.match.log[0]["label"]
    share = repl.match.log[2]["label"]
    assert first_lines(repl, out, "undo", 5)[2:] == [
        f"undid: {share} (Spread the wear: 2 left to give; how many to {card}?)",
        "undid: 1 (choose n)",
        f"undid: {card} (Which card do you keep?)",
    ]
