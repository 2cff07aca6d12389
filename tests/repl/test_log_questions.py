"""`log` says each answer with the question it answered (`Red: 1 (choose n)`), as the seat
viewed may read it: the rules' words, or ludus's where the rules give none; a pick the seat may
not see stays `chose a card`, and a card asked of that it may not see is `a card`. An action
and an offer's `else` say what they do on their own. A saved session keeps the questions."""

from __future__ import annotations

import io
import json

import pytest

from ludus.repl.session import Repl
from tests.helpers import game_from_text, repl_on

SOURCE = """game "Asked"
players 2
seats Red, Blue

counter coins per seat start 3
zone deck count only
zone hand per seat owner only
zone discard

card "Lamp"
card "Rope"
card "Bell"

action Spend:
    cost 1 coins

flow:
    move box to deck
    draw 3 from deck into hand of Red
    turn Red:
        choose c from hand of Red "Which card do you keep?"
        choose n from 0 to 2
        distribute 2 among hand of Red as shares "Spread the wear"
        ask Blue "Do you accept?" as fine
        offer Spend else "keep them"
    end game
"""


pytestmark = pytest.mark.usefixtures("no_home_files")


def played(tmp_path) -> tuple[Repl, io.StringIO]:
    game = game_from_text(tmp_path, SOURCE)
    repl, out = repl_on(game.new_match(2, seed=1), tmp_path / "game.ludus", 160)
    for move in ("1", "1", "1.", "view Blue", "yes", "view Red", "keep them"):  # "1." the first share: "1" is also "1 to Lamp"
        repl.handle(move)
    return repl, out


def log_as(repl: Repl, out: io.StringIO, view: str) -> list[str]:
    repl.handle(f"view {view}")
    start = len(out.getvalue())
    repl.handle("log")
    return [line.strip() for line in out.getvalue()[start:].splitlines()]


def test_log_says_each_answer_with_its_question_as_the_seat_may_read_it(tmp_path):
    repl, out = played(tmp_path)
    card = repl.match.log[0]["label"]
    assert log_as(repl, out, "Blue") == [
        "Red chose a card (Which card do you keep?)",
        "Red: 1 (choose n)",  # the rules give no question: ludus's words for it
        "Red gave a share to a card (Spread the wear: 2 left to give; how many to a card?)",
        "Blue: yes (Do you accept?)",
        "Red: keep them",  # an offer's `else` says what it does
    ]
    assert log_as(repl, out, "all") == [
        f"Red: {card} (Which card do you keep?)",
        "Red: 1 (choose n)",
        f"Red: {repl.match.log[2]['label']} (Spread the wear: 2 left to give; how many to {card}?)",
        "Blue: yes (Do you accept?)",
        "Red: keep them",
    ]


def test_working_out_the_questions_changes_nothing_and_apply_works_none_out(tmp_path):
    repl, out = played(tmp_path)
    assert repl.match.asked == {}  # `apply` works nothing out: a simulation's loop pays nothing for it
    saved = repl.match.to_json()
    log_as(repl, out, "Blue")
    assert repl.match.to_json() == saved
    assert repl.match.question(1) == "choose n" and repl.match.question(4) is None
    repl.handle("undo")
    assert max(repl.match.asked, default=-1) < len(repl.match.log)


@pytest.mark.parametrize("replays", [True, False])
def test_a_loaded_save_says_the_questions_as_the_session_did(tmp_path, replays):
    repl, out = played(tmp_path)
    before = log_as(repl, out, "Blue")
    assert "Blue: yes (Do you accept?)" in before
    repl.handle(f"save {tmp_path / 'asked.json'}")
    if not replays:  # moves that do not lead to the position: only the file says what was asked
        data = json.loads((tmp_path / "asked.json").read_text(encoding="utf-8"))
        data["moves"] = []
        (tmp_path / "asked.json").write_text(json.dumps(data), encoding="utf-8")
    again, out2 = Repl(repl.match.game.new_match(2, seed=1), tmp_path / "game.ludus", repl.console), out
    again.handle(f"load {tmp_path / 'asked.json'}")
    assert log_as(again, out2, "Blue") == before


@pytest.mark.parametrize(
    "asked", ["many", [[0]], [[0, ""]], [[0, "x", [[5, "y"]]]], [[0, "x"], [0, "x"]], [[5, "x"]], [[0, "a\nb"]]]
)
def test_a_damaged_record_of_the_questions_is_refused(tmp_path, asked):
    repl, out = played(tmp_path)
    repl.handle(f"save {tmp_path / 'asked.json'}")
    data = json.loads((tmp_path / "asked.json").read_text(encoding="utf-8"))
    assert data["session"]["asked"][0][0] == 0 and data["log"][4]["label"] == "keep them"
    data["session"]["asked"] = asked
    (tmp_path / "asked.json").write_text(json.dumps(data), encoding="utf-8")
    before = repl.match.to_json()
    repl.handle(f"load {tmp_path / 'asked.json'}")
    assert "the saved session notes are damaged" in out.getvalue()
    assert repl.match.to_json() == before
