"""The benchmark's spelled-out Connect Four is the same game as the example's grid one, so a
figure measured on it (in both trees of benchmarks/compare.py) speaks for the grid game too."""

from __future__ import annotations

import random

import ludus
from tests.helpers import ROOT


def test_the_spelled_out_connect_four_plays_the_grid_one_move_for_move():
    grid = ludus.load(ROOT / "examples/connect-four.ludus")
    spaces = ludus.load(ROOT / "benchmarks/games/connect-four-spaces.ludus")
    endings = set()
    for seed in range(30):
        played = []
        for game in (grid, spaces):
            rng = random.Random(seed)
            match = game.new_match(2, seed=seed)
            while not match.is_over:
                options = match.legal_actions()
                match.apply(options[rng.randrange(len(options))])
            played.append((match.moves, match.result["winners"]))
        assert played[0] == played[1]
        endings.add(len(played[0][1]))
    assert endings == {0, 1} or endings == {1}  # wins happen (a draw is rare in random play)
