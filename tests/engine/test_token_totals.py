"""The token totals (Runtime.tix: by place, by owner, in all) are kept from one decision to the
next and changed with every token added or removed: after every move of seeded random
matches they are what a count of the state's tokens gives."""

from __future__ import annotations

import random

import pytest

import ludus
from ludus.engine.runtime import TIX, Runtime
from tests.helpers import ROOT


def _fresh(game, state) -> dict:
    totals = Runtime(game, state, [])._token_index()
    return {k: v for k, v in totals.items() if v}


# Connect Four spelled out asks "Disc at c" of every cell, the totals by place, after every move
@pytest.mark.parametrize("path", [ROOT / "benchmarks/games/connect-four-spaces.ludus"])
def test_kept_totals_are_the_tokens_counted_again(path):
    game = ludus.load(path)
    checked = 0
    for seed in range(3):
        match = game.new_match(2, seed=seed)
        rng = random.Random(seed)
        while not match.is_over:
            match.apply(rng.choice(match.legal_actions()))
            state, memo = game.carried
            if state is match.state and memo is not None and TIX in memo:
                assert {k: v for k, v in memo[TIX].items() if v} == _fresh(game, match.state)
                checked += 1
    assert checked > 50  # the totals were kept across decisions, and so checked
