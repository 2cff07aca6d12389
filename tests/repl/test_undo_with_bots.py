"""`undo` with bots: it takes back one decision of a person, with the bots' moves after it; with
bots on every seat, one move, after which the bots wait. The `undid:` line stays one short line
however many moves went."""

from __future__ import annotations

import io

import pytest

import ludus
from ludus.repl import Repl
from tests.helpers import EXAMPLES, repl_on, said

GAME_PATH = EXAMPLES / "love-letter.ludus"
GAME = ludus.load(GAME_PATH)


def make_repl(players: int, seed: int, bots: dict[int, str]) -> tuple[Repl, io.StringIO]:
    repl, out = repl_on(GAME.new_match(players, seed=seed), GAME_PATH, bots=bots)
    repl.play_bots()  # as a session starts: the bots play until a person decides or the match ends
    return repl, out


pytestmark = pytest.mark.usefixtures("sessions_in_tmp")


def test_undo_at_the_end_of_a_match_of_bots_takes_back_one_move_and_the_bots_wait():
    repl, out = make_repl(2, 5, {0: "random", 1: "random"})
    assert repl.match.result is not None and repl.prompt() == "ludus> "
    moves = list(repl.match.moves)
    lines = said(repl, out, "undo")
    assert repl.match.moves == moves[:-1]
    assert lines[0] == f"undid: {moves[-1]} (Whose hand do you compare with yours?)"
    assert lines[1] == ("the bots wait: Blue (a bot) decides next; make its move to let them play on, `undo` again, "
                        "`redo`, or `bot Blue off` to play it yourself")
    assert repl.prompt() == "Blue (bot)> "  # a bot's seat waits: the prompt says so
    said(repl, out, "undo")
    assert repl.match.moves == moves[:-2] and repl.match.result is None
    said(repl, out, "redo")
    assert repl.match.moves == moves[:-1]
    assert repl.rejected == 0


def test_a_move_made_for_the_waiting_bot_lets_the_bots_play_on():
    repl, out = make_repl(2, 5, {0: "random", 1: "random"})
    said(repl, out, "undo")
    said(repl, out, "1")
    assert repl.match.result is not None and repl.rejected == 0


def test_undo_of_a_persons_move_takes_back_the_bots_moves_after_it_in_one_short_line():
    # seed 1: Red plays the Princess and is out; the bots play the round out and the next one
    # up to Red's turn, 18 moves
    repl, out = make_repl(4, 1, {1: "random", 2: "random", 3: "random"})
    before = list(repl.match.moves)
    said(repl, out, "1")
    lines = said(repl, out, "undo")
    assert repl.match.moves == before
    assert lines[0] == "undid: 18 moves: play Princess; ...; Yellow (Who discards their hand?)"
    # Red's screen follows at once, where the bots' waiting would be said, and asks Red
    assert lines[1] == "Love Letter  (turn of Red)  · as Red sees it" and "Red: take an action" in lines
    assert repl.prompt() == "Red> " and not any("bots wait" in line for line in lines)
    lines = said(repl, out, "redo")
    assert lines[0] == "redid: 18 moves: play Princess; ...; Yellow (Who discards their hand?)"


def test_a_few_moves_are_each_named():
    repl, out = make_repl(4, 8, {1: "random", 2: "random", 3: "random"})
    said(repl, out, "1")
    # each answer with the question it answered, as `log` writes it
    assert said(repl, out, "undo")[0] == ("undid: play Handmaid; play Prince; Green (Who discards their hand?); "
                                          "play Princess; play Baron; Blue (Whose hand do you compare with yours?)")
