"""`show` names counters, flags and vars by what the game declares them to be: a flag or a var
may be asked for with its own word (`show flag ready`) as a counter is with `counter`, and a
seat with nothing kept per seat is not said to lack only counters."""

from __future__ import annotations

import pytest

from tests.helpers import game_from_text, repl_on
from tests.helpers import printed as said

SOURCE = '''game "Kinds"
players 2
counter turns start 4
flag ready start true
var leader: seat start P2
card "Flag Bearer":
    copies 1
flow:
    turn P1:
        choose n from 0 to 1 "Go?"
    end game
'''


pytestmark = pytest.mark.usefixtures("history_in_tmp")


def make_repl(tmp_path):
    return repl_on(game_from_text(tmp_path, SOURCE, "kinds.ludus").new_match(2), tmp_path / "kinds.ludus", 120)


@pytest.mark.parametrize("line, shown", [
    ("show counter turns", "turns: 4"),
    ("show flag ready", "ready: yes"),
    ("show var leader", "leader: P2"),
    ("show Flag ready", "ready: yes"),
    ("show ready", "ready: yes"),
])
def test_a_flag_or_var_is_shown_after_its_own_word(tmp_path, line, shown):
    repl, out = make_repl(tmp_path)
    text = said(repl, out, line)
    assert text.splitlines() == [shown], text
    assert repl.rejected == 0


def test_a_name_that_starts_with_a_kind_word_is_found_whole(tmp_path):
    # "Flag Bearer" is a card: `show flag bearer` names it, not a flag called "bearer"
    repl, out = make_repl(tmp_path)
    text = said(repl, out, "show flag bearer")
    assert text.startswith("Flag Bearer ("), text
    assert repl.rejected == 0


def test_a_name_not_found_after_a_kind_word_is_reported_by_that_name(tmp_path):
    repl, out = make_repl(tmp_path)
    text = said(repl, out, "show flag redy")
    assert text.startswith("error: nothing called 'redy' to show; closest: ready"), text
    assert repl.rejected == 1


def test_a_seat_with_nothing_kept_per_seat_says_so_in_every_kind(tmp_path):
    repl, out = make_repl(tmp_path)
    assert said(repl, out, "show P1").splitlines()[0] == "P1: no counter, flag or var kept per seat"


def test_help_names_every_kind_word_show_takes(tmp_path):
    repl, out = make_repl(tmp_path)
    assert "show [zone|track|region|card|seat|counter|flag|var|action|rule|define NAME]" in said(repl, out, "help show")


@pytest.mark.parametrize("line, said_back", [
    ("show flag", "error: `show flag` takes the name of a flag after it: show flag NAME; here: ready"),
    ("show counter", "error: `show counter` takes the name of a counter after it: show counter NAME; here: turns"),
    ("show action ", "error: `show action` takes the name of an action after it: show action NAME "
                     "(this game has no action)"),
    ("show card", "error: `show card` takes the name of a card after it: show card NAME; here: Flag Bearer"),
])
def test_a_kind_word_without_a_name_says_what_show_takes(tmp_path, line, said_back):
    repl, out = make_repl(tmp_path)
    text = said(repl, out, line)
    assert text.splitlines()[0] == said_back, text
    assert repl.rejected == 1
