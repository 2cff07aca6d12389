"""Saved matches damaged by hand: `Match.from_json` refuses them with a MatchError that says what
is wrong, or the match it loads plays on, with ludus's own errors at worst."""

from __future__ import annotations

import json

import pytest

import ludus
from ludus.engine.match import Match
from tests.helpers import EXAMPLES

MARKET = ludus.load(EXAMPLES / "market-town.ludus")


def damaged(game, change) -> str:
    """The save of a new match of `game` with `change` made to its state."""
    data = json.loads(game.new_match(2, seed=1).to_json())
    change(data["state"])
    return json.dumps(data)


def refused(game, text: str) -> str:
    with pytest.raises(ludus.MatchError) as err:
        Match.from_json(game, text)
    return str(err.value)


# ── the cases the fuzzing session found ──


def test_a_decision_with_no_frame_waiting_for_it_is_refused():
    def no_stack(state):
        state["stack"] = []
    assert "the saved match is damaged: a decision is pending, and no VM frame waits for it" in refused(
        MARKET, damaged(MARKET, no_stack))


@pytest.mark.parametrize("values", [[], ["x"], None, "missing"])
def test_a_decision_whose_values_do_not_match_its_options_is_refused(values):
    def change(state):
        if values == "missing":
            del state["pending"]["values"]
        elif values == ["x"]:
            state["pending"]["values"] = state["pending"]["values"][:1]
        else:
            state["pending"]["values"] = values
    message = refused(MARKET, damaged(MARKET, change))
    assert message.startswith("the saved match is damaged: ")
    assert "values" in message


@pytest.mark.parametrize("forced, why", [
    ([1, "a", None], "forced outcome"),
    ([["die", 6, 7]], "not a face of a d6"),
    ([["die", -1, 1]], "forced outcome"),
    ([["die", 6, True]], "forced outcome"),
    ([["die", 0, 10**15]], "forced outcome"),
    ([["order", "nowhere", ["Copper Coin"]]], "no zone 'nowhere'"),
    ([["order", "deck@5", ["Copper Coin"]]], "no zone 'deck@5'"),
    ([["order", "market@0", ["Copper Coin"]]], "no zone 'market@0'"),
    ([["order", "market", ["No Such Card"]]], "no card 'No Such Card'"),
    ([["order", "market", "Copper Coin"]], "forced outcome"),
    ([["roll", 6, 1]], "forced outcome"),
])
def test_junk_in_the_forced_outcomes_is_refused(forced, why):
    message = refused(MARKET, damaged(MARKET, lambda state: state.__setitem__("forced", forced)))
    assert message.startswith("the saved match is damaged: ") and why in message


def test_forced_outcomes_as_the_repl_and_replays_queue_them_load_and_are_used():
    match = MARKET.new_match(2, seed=1)
    match.force(6, 5)
    match.force(0, 2)
    match.force_order("deck@1", ["Copper Coin"])
    back = Match.from_json(MARKET, match.to_json())
    assert back.state["forced"] == [["die", 6, 5], ["die", 0, 2], ["order", "deck@1", ["Copper Coin"]]]


def test_a_decision_at_an_instruction_that_asks_nothing_is_refused():
    def moved(state):
        state["stack"][-1]["pc"] -= 1
    assert "waits at an instruction that asks for no decision" in refused(MARKET, damaged(MARKET, moved))


def test_an_offer_of_an_action_the_game_lacks_is_refused():
    def change(state):
        state["pending"]["values"] = [["No Such Action", []] if v else v for v in state["pending"]["values"]]
    assert "offers an action the game lacks" in refused(MARKET, damaged(MARKET, change))


def test_a_match_neither_waiting_nor_ended_is_refused():
    assert "neither waits for a decision nor has ended" in refused(
        MARKET, damaged(MARKET, lambda state: state.__setitem__("pending", None)))
