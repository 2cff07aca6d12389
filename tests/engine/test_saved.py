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
