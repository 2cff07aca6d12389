"""A `choose ... blind` in the REPL: its options are places, typed as themselves (`3` is place 3,
even once place 2 is picked and 3 is the second option left), and the screen names no card."""

from __future__ import annotations

import pytest

from tests.engine.test_blind_choose import GAME, NAMES
from tests.helpers import printed, repl_of

pytestmark = pytest.mark.usefixtures("no_home_files")


@pytest.fixture
def path(tmp_path):
    path = tmp_path / "blind.ludus"
    path.write_text(GAME, encoding="utf-8")
    return path


def decision_lines(text: str) -> list[str]:
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Blue: "))
    return lines[start:]


def test_the_screen_asks_for_a_place_and_a_typed_number_is_that_place(path):
    repl, out = repl_of(path, 3, seed=2, view=1)
    shown = decision_lines(printed(repl, out, "show"))
    assert shown == ["Blue: Which of Red's cards do you take?", "  type a place in the list: 1 to 3"]
    printed(repl, out, "2")
    printed(repl, out, "2")
    shown = decision_lines(printed(repl, out, "show"))
    assert shown == ["Blue: Which discs are lost? (1 chosen)", "  picked so far: 2",
                     "  type a place in the list: 1, 3"]
    assert printed(repl, out, "2").strip() == "error: 2 is not among the places offered: 1, 3"
    assert printed(repl, out, "3.").strip() == ("error: the options here are places in a list, not a list of "
                                                "their own: type 3 for place 3")
    pool = repl.match.pending["pool"]
    printed(repl, out, "3")  # place 3, not the second option left
    assert repl.match.is_over
    ents = repl.match._state["ents"]
    assert ents[pool[1]]["l"] == "removed" and ents[pool[2]]["l"] == "removed" and ents[pool[0]]["l"] == "pile"


def test_no_seat_reads_a_card_in_the_decision_or_its_log(path):
    repl, out = repl_of(path, 3, seed=2, view=2)
    shown = decision_lines(printed(repl, out, "show"))
    assert shown == ["Blue: Which of Red's cards do you take?", "  (Blue is deciding)"]
    repl.match.apply("2")
    said = printed(repl, out, "log")
    assert "Blue: 2 (Which of Red's cards do you take?)" in said
    assert [name for name in NAMES if name in said] == []


def test_a_pick_of_up_to_n_offers_done_beside_the_places(tmp_path):
    path = tmp_path / "up.ludus"
    path.write_text('''game "Up to"
players 2
zone pile count only
zone removed count only
card "Flower":
    copies 4
flow:
    move box to pile
    choose ds from pile by P2 blind, up to 2 "Which discs?"
    move ds to removed
    end game
''', encoding="utf-8")
    repl, out = repl_of(path, 2, seed=0, view=1)
    printed(repl, out, "2")
    lines = printed(repl, out, "show").splitlines()
    assert lines[-2:] == ["  picked so far: 2", "  type a place in the list: 1, 3, 4, or done"]
    printed(repl, out, "done")
    assert repl.match.is_over and len(repl.match._state["places"]["removed"]) == 1
