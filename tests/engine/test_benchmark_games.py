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


def test_a_base_without_the_grid_game_is_measured_on_its_twin(tmp_path):
    from benchmarks.compare import TWINS, game_path

    game = "examples/connect-four.ludus"
    assert TWINS[game] == "benchmarks/games/connect-four-spaces.ludus"
    # an old tree without the example: its twin stands in for the base, never for this checkout
    assert game_path(tmp_path, game, twin=True) == ROOT / TWINS[game]
    assert game_path(tmp_path, game) is None
    # a tree that has the example plays its own copy, twin or not
    (tmp_path / "examples").mkdir()
    (tmp_path / game).write_text("", encoding="utf-8")
    assert game_path(tmp_path, game, twin=True) == tmp_path / game
    assert game_path(tmp_path, "examples/none.ludus", twin=True) is None


def test_the_per_round_spread_pairs_each_head_round_with_its_own_base_round():
    from benchmarks.compare import paired

    base = [{"decisions": 100, "cpu": 1.0}, {"decisions": 100, "cpu": 2.0}]
    head = [{"decisions": 400, "cpu": 1.0}, {"decisions": 300, "cpu": 1.0}]
    # round 1: 400 / 100 = 4; round 2: 300 / 50 = 6 (paired across rounds, it would read 3 to 8)
    assert paired({"base": base, "head": head}) == (4.0, 6.0)
    assert paired({"base": base[:1], "head": head}) is None  # a round missing on one side
    assert paired({"base": [], "head": head}) is None
