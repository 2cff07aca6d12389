"""The Python API's edges: a loaded Game's seat names and the bots made for it refuse what the game
cannot have, with a ValueError that says what it allows, never an IndexError or a quiet answer."""

from __future__ import annotations

import re

import pytest

from ludus.bots import BadBotSpec, Budget, make_bot
from ludus.bots.mcts import MctsBot
from ludus.engine.match import Match
from ludus.pipeline import analyse, load
from tests.helpers import EXAMPLES

MARKET = EXAMPLES / "market-town.ludus"  # 2 to 4 players, seats Amber, Basil, Cobalt, Dune
CONNECT = EXAMPLES / "connect-four.ludus"  # 2 players, Red and Yellow


@pytest.fixture(scope="module")
def market():
    return load(MARKET)


def test_seat_names_of_a_count_the_game_allows(market):
    assert market.seat_names(2) == ("Amber", "Basil")
    assert market.seat_names(4) == ("Amber", "Basil", "Cobalt", "Dune")


@pytest.mark.parametrize("count", [0, 1, 5, 9, -1, "2", None, [2]])
def test_seat_names_of_a_count_the_game_does_not_allow_say_which_it_allows(market, count):
    # 9 gave P1 to P9 and -1 gave Amber, Basil, Cobalt; "2" and None a TypeError from a comparison
    with pytest.raises(ValueError, match=r"^Market Town is for 2 to 4 players, not "):
        market.seat_names(count)
    assert market.seat_names(3) == ("Amber", "Basil", "Cobalt")  # nothing kept from the refusal


def test_a_count_that_hashes_as_one_asked_before_is_still_refused(market):
    # 2.0 and True hash as 2 and 1: once 2 had been asked, seat_names(2.0) was answered from
    # the names kept for 2 instead of refused
    assert market.seat_names(2) == ("Amber", "Basil")
    for count in (2.0, True):
        with pytest.raises(ValueError, match=r"^Market Town is for 2 to 4 players, not "):
            market.seat_names(count)
    import numpy as np

    assert market.seat_names(np.int64(3)) == ("Amber", "Basil", "Cobalt")  # NumPy's integers are counts


def test_a_two_player_game_has_no_made_up_third_seat():
    game = load(CONNECT)
    with pytest.raises(ValueError, match="^Connect Four is for 2 players, not 3$"):
        game.seat_names(3)


@pytest.mark.parametrize("count, shown", [("2", "'2'"), (True, "True"), (2.0, "2.0"), (None, "None"), (9, "9")])
def test_a_player_count_the_game_does_not_allow_is_shown_as_given(market, count, shown):
    # "2" was shown as 2, the very count the message says is allowed; True passed for 1 player
    assert market.players_problem(count) == f"Market Town is for 2 to 4 players, not {shown}"
    if count is None:  # new_match(None): the fewest players the game allows
        return
    with pytest.raises(ValueError, match=f"^Market Town is for 2 to 4 players, not {re.escape(shown)}$"):
        market.new_match(count)


def test_true_is_not_a_count_of_one_player(tmp_path):
    path = tmp_path / "solo.ludus"
    path.write_text('game "Solo"\nplayers 1 to 2\nflow:\n    end game\n', encoding="utf-8")
    game = load(path)
    assert game.players_problem(True) == "Solo is for 1 to 2 players, not True"  # it passed for 1
    assert game.players_problem(1) is None


SEATS = "a seat of this match is a number from 0 to 1 (0 Amber, 1 Basil)"


@pytest.mark.parametrize("seat", [99, 2, -1, True, "Amber", "terminal", 1.0, None])
def test_a_seat_the_match_does_not_have_is_named_by_seat_name_as_such(market, seat):
    # 99 was an IndexError, -1 the last seat's name and True seat 1's
    with pytest.raises(ValueError, match=f'^{re.escape(SEATS)} or "chance", not {re.escape(repr(seat))}$'):
        market.new_match(2).seat_name(seat)


@pytest.mark.parametrize("seat", [99, 2, -1, True, "Amber", 1.0])
def test_a_seat_the_match_does_not_have_gets_no_view(market, seat):
    # -1 showed the last seat's view, and True seat 1's, each under another seat's name
    with pytest.raises(ValueError, match=f"^{re.escape(SEATS)} or None for everything, not {re.escape(repr(seat))}$"):
        market.new_match(2).view(seat)


def test_the_seats_a_match_has_still_have_names_and_views(market):
    match = market.new_match(2)
    assert [match.seat_name(s) for s in (0, 1, "chance")] == ["Amber", "Basil", "chance"]
    assert match.view(1)["seat"] == "Basil" and match.view(None)["seat"] is None
    np = pytest.importorskip("numpy")
    assert match.seat_name(np.int64(1)) == "Basil" and match.view(np.int64(0))["seat"] == "Amber"


@pytest.mark.parametrize("spec", [5, None, b"mcts", ("mcts", 400)])
def test_a_bot_spec_that_is_not_text_is_a_bad_bot_spec(market, spec):
    with pytest.raises(BadBotSpec, match=r"KIND\[:BUDGET\]\[:OPTION=N\] such as 'mcts:400'.*the bots are random, greedy, mcts"):
        make_bot(spec, market, 0, 1)


@pytest.mark.parametrize("seat", [4, 7, -1, True, "Amber", 1.0, None])
def test_a_bot_for_a_seat_the_game_never_has_is_refused(market, seat):
    # seat 7 and seat -1 were made, and judged positions for a seat that is not there
    with pytest.raises(ValueError, match=r"a bot's seat is a number from 0 to 3, not .*: Market Town is for 2 to 4"):
        make_bot("mcts", market, seat, 1)


@pytest.mark.parametrize("seed", ["x", 1.5, None, True])
def test_a_bot_seed_that_is_not_a_whole_number_is_refused(market, seed):
    # "x" and 1.5 seeded a generator quietly, and None seeded it from the clock: not reproducible
    with pytest.raises(ValueError, match="a bot's seed is a whole number, not "):
        make_bot("greedy", market, 0, seed)


def test_a_bot_game_that_is_not_a_loaded_game_is_refused():
    with pytest.raises(ValueError, match=r"a bot plays a loaded game \(ludus.load\(path\)\), not 'examples/"):
        make_bot("mcts", "examples/market-town.ludus", 0, 1)


def test_a_numpy_seed_is_a_whole_number(market):
    np = pytest.importorskip("numpy")
    assert make_bot("random", market, 1, np.int64(7)).rng.random() == make_bot("random", market, 1, 7).rng.random()


@pytest.mark.parametrize("budget", [
    {"iterations": 0}, {"iterations": -5}, {"iterations": 10_000_001}, {"iterations": 2.5}, {"iterations": True},
    {"seconds": 0}, {"seconds": -1.0}, {"seconds": 3601}, {"seconds": float("nan")}, {"seconds": "2s"},
])
def test_a_budget_out_of_range_is_refused_when_made(budget):
    # MctsBot(..., Budget(iterations=0)) searched once and Budget(iterations=10**9) all day
    with pytest.raises(BadBotSpec, match=r"a bot's budget is a whole number of iterations from 1 to 10,000,000"):
        Budget(**budget)


def test_a_budget_of_both_iterations_and_seconds_is_refused():
    with pytest.raises(BadBotSpec, match="iterations or seconds, not both"):
        Budget(iterations=10, seconds=2.0)


def test_budgets_in_range_still_make_bots(market):
    assert Budget(iterations=10_000_000).iterations == 10_000_000 and Budget(seconds=3600).seconds == 3600
    assert Budget() == Budget(None, None)  # a kind's default
    assert MctsBot(market, 0, 1, Budget(iterations=3)).budget.iterations == 3


# ── the arguments of a match, and of load and analyse: a wrong kind is a ValueError naming it ──


@pytest.mark.parametrize("seed, shown", [("3", "'3'"), (3.5, "3.5"), (None, "None"), (True, "True"), ([3], "[3]")])
def test_a_seed_that_is_not_a_whole_number_is_refused_by_name(market, seed, shown):
    # "3" was an OverflowError (the text repeated 0x9E37... times), 3.5 and None a TypeError of
    # an operator, and True passed for seed 1
    with pytest.raises(ValueError, match=f"^seed is a whole number, not {re.escape(shown)}$"):
        market.new_match(2, seed=seed)


def test_a_seed_no_save_holds_is_refused_and_a_numpy_seed_is_taken(market):
    # a seed of 10**30 started a match whose save was refused as damaged when read back
    with pytest.raises(ValueError, match=r"^seed is a whole number between -2\*\*64 and 2\*\*64 \(what a saved"):
        market.new_match(2, seed=10**30)
    np = pytest.importorskip("numpy")
    match = market.new_match(2, seed=np.int64(3))  # an OverflowError, then a save JSON could not write
    assert type(match.seed) is int
    assert Match.from_json(market, match.to_json()).to_json() == market.new_match(2, seed=3).to_json()


@pytest.mark.parametrize("forced, message", [
    ({"die": 6}, "forced is a list of forced outcomes, not {'die': 6}"),
    ("d6=3", "forced is a list of forced outcomes, not 'd6=3'"),
    ([3], "a forced outcome is ['die', sides, value] or ['order', zone, names], not 3"),
    ([["die", "6", 3]], "forced: a forced outcome is damaged (['die', '6', 3])"),
    ([["order", "nowhere", ["Farm"]]], "forced: a forced order is for no zone 'nowhere' of the game"),
])
def test_forced_outcomes_of_the_wrong_kind_are_refused_by_name(market, forced, message):
    # a dict or a text was split into letters and queued, in a save that would not load
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        market.new_match(2, forced=forced)


@pytest.mark.parametrize("action", [None, 1.0, ["buy Farm"], True])
def test_an_action_that_is_neither_a_label_nor_an_index_is_refused(market, action):
    # an AttributeError ('float' object has no attribute 'lower'), from the search for close labels
    match = market.new_match(2, seed=1)
    before = match.to_json()
    with pytest.raises(ValueError, match="^an action is a legal action's label \\(text\\) or its index \\(a whole "
                                         f"number\\), not {re.escape(repr(action))}$"):
        match.apply(action)
    assert match.to_json() == before
    np = pytest.importorskip("numpy")
    match.apply(np.int64(0))  # NumPy's integers are indices
    assert match.moves == [market.new_match(2, seed=1).legal_actions()[0]]


def test_why_not_force_and_force_order_refuse_arguments_of_the_wrong_kind(market):
    match = market.new_match(2, seed=1)
    with pytest.raises(ValueError, match=r"^why_not takes a move's label \(text\), not None$"):
        match.why_not(None)
    with pytest.raises(ValueError, match=r"^sides is the die's number of faces, a whole number \(0: any die\), not 'd6=3'$"):
        match.force("d6=3")  # nothing was forced, and nothing said
    with pytest.raises(ValueError, match=r"^a forced value is a face of the die, a whole number, not '3'$"):
        match.force(6, "3")
    with pytest.raises(ValueError, match="^names is a list of card names, not 'Farm'$"):
        match.force_order("supply", "Farm")  # forced the cards 'F', 'a', 'r', 'm'
    with pytest.raises(ValueError, match="^a forced order is for no zone 'nowhere' of the game$"):
        match.force_order("nowhere", ["Farm"])  # queued for ever, and the save would not load
    assert match.to_json() == market.new_match(2, seed=1).to_json()


@pytest.mark.parametrize("zone, names, message", [
    ("suply", ["Town Crier"], "a forced order is for no zone 'suply' of the game; did you mean 'supply'?"),
    ("dek@1", ["Town Crier"], "a forced order is for no zone 'dek@1' of the game; did you mean 'deck@1'?"),
    ("supply@0", ["Town Crier"], "a forced order is for no zone 'supply@0' of the game; did you mean 'supply'?"),
    # a seat's zone without its seat, or written as a replay's line writes it: named as the API takes it
    ("deck", ["Town Crier"], "a forced order is for no zone 'deck' of the game; did you mean 'deck@0'?"),
    ("deck of Basil", ["Town Crier"], "a forced order is for no zone 'deck of Basil' of the game; did you mean 'deck@1'?"),
    ("supply", ["Town Crier", "Coper Coin"], "a forced order names no card 'Coper Coin' of the game; did you mean 'Copper Coin'?"),
    ("supply", ["Zzyzx"], "a forced order names no card 'Zzyzx' of the game"),
])
def test_force_order_names_the_nearest_zone_or_card_of_a_misspelt_one(market, zone, names, message):
    match = market.new_match(2, seed=1)
    with pytest.raises(ValueError) as info:
        match.force_order(zone, names)
    assert str(info.value) == message
    assert match.to_json() == market.new_match(2, seed=1).to_json()
    with pytest.raises(ValueError) as info:  # as an outcome forced at the start is told
        market.new_match(2, forced=[["order", zone, names]])
    assert str(info.value) == f"forced: {message}"


def test_a_match_or_a_save_of_something_that_is_not_a_game_is_refused(market):
    with pytest.raises(ValueError, match=r"^a match is of a loaded game \(ludus.load\(path\)\), not 'x.ludus'$"):
        Match.new("x.ludus", 2)
    with pytest.raises(ValueError, match=r"^a saved match is of a loaded game \(ludus.load\(path\)\), not 'x.ludus'$"):
        Match.from_json("x.ludus", market.new_match(2).to_json())
    with pytest.raises(ValueError, match=r"^from_json reads a saved match's JSON text, not \{\}$"):
        Match.from_json(market, {})


@pytest.mark.parametrize("path", [None, 3, [str(MARKET)]])
def test_load_and_analyse_name_a_path_that_is_not_one(path):
    for function in (load, analyse):
        with pytest.raises(ValueError, match=f"^{function.__name__} takes the path of a .ludus file \\(text or a Path\\)"):
            function(path)


@pytest.mark.parametrize("overrides", [[str(MARKET)], {str(MARKET): 3}])
def test_analyse_names_overrides_that_are_not_texts_by_path(overrides):
    # a list was an AttributeError in the loader; a text that is not one failed in the parser
    with pytest.raises(ValueError, match="^overrides maps resolved paths to texts, both str, not "):
        analyse(MARKET, overrides=overrides)
