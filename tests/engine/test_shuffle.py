"""Runtime.shuffle is a Fisher-Yates shuffle drawing from rng_below: the order it deals and the
generator state it leaves are part of every seeded match, replay and saved position, so a
shuffle made faster or rewritten must deal exactly these."""

from __future__ import annotations

import pytest

from ludus.engine.runtime import Runtime, rng_below
from tests.helpers import game_from_text

TEXT = """game "S"
players 2
zone deck
card "Stone":
    copies 40
setup:
    move box to deck
flow:
    end game
"""


def _reference(state: dict, cards: list) -> list:
    cards = list(cards)
    for i in range(len(cards) - 1, 0, -1):
        j = rng_below(state, i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


@pytest.mark.parametrize("seed", [0, 1, 7, 2**63 + 5, 2**64 - 1])
@pytest.mark.parametrize("size", [0, 1, 2, 3, 17, 40])
def test_a_shuffle_deals_what_rng_below_deals(tmp_path, seed, size):
    game = game_from_text(tmp_path, TEXT)
    state = game.new_match(2, seed=0).state
    state["places"]["deck"] = state["places"]["deck"][:size]
    state["rng"] = seed
    expected_state = {"rng": seed}
    expected = _reference(expected_state, state["places"]["deck"])
    rt = Runtime(game, state, [])
    rt.shuffle("deck")
    assert state["places"]["deck"] == expected
    assert state["rng"] == expected_state["rng"]
