"""The REPL's messages speak the game being played: an example in an error names that game's
seats, zones, cards and counters (never Market Town's in Love Letter), a word a user may
reach for instead of a command points to the command, and a name an expression does not know
gets the names near it."""

from __future__ import annotations

import io

import pytest

import ludus
from ludus.repl import Repl
from tests.helpers import EXAMPLES, repl_on

GAMES = {name: ludus.load(EXAMPLES / f"{name}.ludus") for name in ("love-letter", "market-town", "connect-four",
                                                                    "cant-stop")}


def make_repl(name: str = "love-letter", players: int = 2, seed: int = 5, **kw) -> tuple[Repl, io.StringIO]:
    return repl_on(GAMES[name].new_match(players, seed=seed), EXAMPLES / f"{name}.ludus", **kw)


def error_of(repl: Repl, out: io.StringIO, line: str) -> str:
    """The one error line `line` gets."""
    start, count = len(out.getvalue()), repl.rejected
    repl.handle(line)
    printed = out.getvalue()[start:].splitlines()
    assert repl.rejected == count + 1 and len(printed) == 1 and printed[0].startswith("error: "), printed
    return printed[0]


pytestmark = pytest.mark.usefixtures("sessions_in_tmp")


# ── examples in the game's own words ──


@pytest.mark.parametrize("line", ["force", "force d6", "force order", "force order foo", "eval", "expect", "?"])
def test_love_letters_examples_name_none_of_market_towns_things(line):
    repl, out = make_repl()
    error = error_of(repl, out, line)
    # an example is given, in Love Letter's words ...
    assert error.endswith(("`force order deck = Guard, Priest`", "affection of Red`", "affection of Red == 0`")), error
    # ... and none of Market Town's
    for word in ("Amber", "Basil", "Town Crier", "Copper Coin", "coins"):
        assert word not in error, error


def test_love_letters_examples_are_its_own():
    repl, out = make_repl()
    # Love Letter shuffles its deck and rolls no dice: no die is offered as an example
    assert error_of(repl, out, "force") == "error: what to force? `force order deck = Guard, Priest`"
    assert error_of(repl, out, "force order foo") == "error: write a forced order as `force order deck = Guard, Priest`"
    assert error_of(repl, out, "force d6") == \
        "error: cannot read the forced outcome 'd6'; write `force order deck = Guard, Priest`"
    assert error_of(repl, out, "eval") == "error: `eval` needs an expression, like `eval affection of Red`"
    # the value now, so the example holds
    assert error_of(repl, out, "expect") == "error: `expect` needs an expression, like `expect affection of Red == 0`"


def test_an_example_given_is_one_the_game_takes():
    repl, out = make_repl()
    example = error_of(repl, out, "force").split("`")[1]
    repl.handle(example)
    assert "forced: the next shuffle of deck" in out.getvalue()
    example = error_of(repl, out, "expect").split("`")[-2]
    repl.handle(example)
    assert out.getvalue().rstrip().endswith("ok: kept for the exported replay")


def test_market_towns_examples_name_its_seat_shuffled_zone_and_die():
    repl, out = make_repl("market-town", seed=3)
    assert error_of(repl, out, "force") == \
        "error: what to force? `force d6 = 5` or `force order deck of Amber = Copper Coin, Street Musician`"
    assert error_of(repl, out, "eval") == "error: `eval` needs an expression, like `eval coins of Amber`"


def test_an_example_names_cards_the_screen_shows_in_the_zone_and_no_hidden_ones():
    repl, out = make_repl("market-town", seed=3)
    repl.handle("view all")
    # the designer sees the supply: two of the cards in it, in the order the game declares them
    assert error_of(repl, out, "force") == \
        "error: what to force? `force d6 = 5` or `force order supply = Copper Coin, Street Musician`"
    repl.match.state["places"]["supply"] = [c for c in repl.match.state["places"]["supply"]
                                            if repl.match.state["ents"][c]["d"] in ("Town Crier", "Guild Charter")]
    assert error_of(repl, out, "force") == \
        "error: what to force? `force d6 = 5` or `force order supply = Town Crier, Guild Charter`"
    repl.handle("view Amber")
    # Amber sees no deck nor the supply: not what is in them, only the game's first cards
    assert error_of(repl, out, "force") == \
        "error: what to force? `force d6 = 5` or `force order deck of Amber = Copper Coin, Street Musician`"


def test_a_game_with_no_dice_nor_shuffle_says_there_is_nothing_to_force():
    repl, out = make_repl("connect-four")
    assert error_of(repl, out, "force") == \
        "error: Connect Four rolls no dice and shuffles nothing, so there is nothing to force"
    # nothing of the game's to name: the examples are neutral
    assert error_of(repl, out, "force order foo") == "error: write a forced order as `force order ZONE = CARD, CARD`"
    assert error_of(repl, out, "expect") == "error: `expect` needs an expression, like `expect players == 2`"


def test_a_counter_kept_per_column_is_not_given_as_a_plain_example():
    # Can't Stop's counters are kept per seat and column: `progress == 3` would not compile
    repl, out = make_repl("cant-stop")
    assert error_of(repl, out, "force") == "error: what to force? `force d6 = 5`"
    assert error_of(repl, out, "expect") == "error: `expect` needs an expression, like `expect players == 2`"


# ── a word for a command that is not one ──


@pytest.mark.parametrize(("line", "meant"), [
    ("history", "log"), ("History 3", "log 3"), ("options", "moves"), ("actions", "moves"), ("board", "show"),
    ("leave", "quit"), ("commands", "help"), ("seat Blue", "view Blue"), ("reset", "restart"),
])
def test_a_word_for_a_command_names_the_command(line, meant):
    repl, out = make_repl()
    assert error_of(repl, out, line) == f"error: '{line}' is neither a legal move nor a command; did you mean `{meant}`?"


def test_a_word_for_a_command_is_not_a_command_of_its_own():
    repl, out = make_repl()
    before = repl.match.to_json()
    assert error_of(repl, out, "history") == \
        "error: 'history' is neither a legal move nor a command; did you mean `log`?"
    assert repl.match.to_json() == before and "Guard" not in out.getvalue()  # nothing was listed


def test_help_of_a_word_for_a_command_names_the_command():
    repl, out = make_repl()
    assert error_of(repl, out, "help history") == "error: no command 'history'; did you mean `help log`?"
    assert error_of(repl, out, "help zzz").startswith("error: no command 'zzz'; the commands are help, moves")


def test_a_word_for_a_command_after_the_match_names_the_command():
    repl, out = make_repl("connect-four", seed=1)
    repl.bots = {0: "random", 1: "random"}
    repl.play_bots()
    assert repl.match.result is not None
    assert error_of(repl, out, "history") == \
        "error: 'history' is not a command, and the match is over; did you mean `log`?"


# ── an expression's unknown name ──


def test_an_unknown_name_near_none_lists_the_games_names():
    repl, out = make_repl()
    assert error_of(repl, out, "? nonsense_name") == (
        "error: column 3: unknown name 'nonsense_name' (this game's names include counters, flags and vars "
        "affection, out, protected, starter; zones deck, hand, played, aside, aside_up; seats Red, Blue; "
        "and every game's seats, current, actor, players)")


def test_an_unknown_name_near_one_is_given_the_nearest():
    repl, out = make_repl()
    assert error_of(repl, out, "expect affecton of Red == 0") == \
        "error: column 8: unknown name 'affecton' (did you mean 'affection'?)"


def test_an_unknown_seat_lists_the_seats_at_the_table():
    repl, out = make_repl()
    assert error_of(repl, out, "eval affection of Purple") == \
        "error: column 19: unknown seat 'Purple' (the seats are Red, Blue)"


# ── a seat named in any case ──


def test_view_takes_a_seat_in_any_case():
    repl, out = make_repl("market-town", seed=3)
    repl.handle("view basil")
    assert repl.view_mode == 1 and repl.rejected == 0
    repl.handle("view ALL")
    assert repl.view_mode == "all"
    repl.handle("view Auto")
    assert repl.view_mode == "auto" and repl.rejected == 0


def test_bot_takes_a_seat_in_any_case_and_says_it_as_the_game_spells_it():
    repl, out = make_repl("market-town", seed=3)
    repl.handle("bot basil greedy")
    assert repl.bots == {1: "greedy"} and "Basil is played by the greedy bot" in out.getvalue()
    repl.handle("bot BASIL off")
    assert repl.bots == {} and out.getvalue().rstrip().endswith("Basil is yours")
    assert repl.rejected == 0


def test_a_seat_spelt_in_no_case_is_still_refused():
    repl, out = make_repl("market-town", seed=3)
    assert error_of(repl, out, "view bazil") == \
        "error: no seat 'bazil'; the seats are Amber, Basil (or `view all`, `view auto`)"
    assert error_of(repl, out, "bot bazil") == "error: no seat 'bazil'; the seats are Amber, Basil"


def test_a_seat_named_in_any_case_when_two_seats_differ_only_by_case():
    from ludus.repl.session import seat_named

    assert seat_named("red", ["Red", "RED"]) is None  # which one: not guessed
    assert seat_named("RED", ["Red", "RED"]) == 1  # spelt exactly
    assert seat_named("blue", ["Red", "Blue"]) == 1


def test_a_word_for_a_command_that_a_move_holds_gets_the_closest_moves(monkeypatch):
    # a word of a legal move's label is more likely that move than a command: the moves are offered
    from ludus.repl import session

    repl, out = make_repl()
    option = repl.visible_options()[0]  # `play Priest`
    word = option.split()[-1].lower()
    monkeypatch.setitem(session.SYNONYMS, word, "show")  # as if `priest` were a word for `show`
    error = error_of(repl, out, word)
    assert "did you mean `show`" not in error and option in error, error


def test_help_names_every_alias_in_its_command_s_line():
    # `q` and `h` were taken and said nowhere in `help`: a player reads help, not the guide
    import re

    from ludus.repl.session import ALIASES, COMMANDS

    for alias, command in ALIASES.items():
        usage, what = COMMANDS[command]
        assert re.search(rf"(^|[ (:,]){re.escape(alias)}([ ,)]|$)", f"{usage} {what}"), (alias, usage, what)
