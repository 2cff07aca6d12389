"""Seeded random matches of every shipped game give exactly the recorded moves and final JSON.

The reference digests in playouts.json were recorded from the engine before the speed work of
issue #15 (see tests/engine/playouts.py, which also re-records them).
"""

from __future__ import annotations

import json

import pytest

import ludus
from tests.engine.playouts import GAMES, RECORD, ROOT, key, play

REFERENCE = json.loads(RECORD.read_text(encoding="utf-8"))


@pytest.mark.parametrize(("path", "players", "seeds"), GAMES, ids=[key(p, n) for p, n, _ in GAMES])
def test_seeded_playouts_match_the_reference(path, players, seeds):
    game = ludus.load(ROOT / path)
    expected = REFERENCE[key(path, players)]
    assert len(expected) == seeds
    wrong = [seed for seed in range(seeds) if play(game, players, seed) != expected[seed]]
    assert not wrong, f"{len(wrong)} of {seeds} seeds play differently from the reference, first: seed {wrong[0]}"


def test_every_game_benchmarked_is_covered():
    # the benchmark's spelled-out Connect Four plays move for move as the example
    # (tests/engine/test_benchmark_games.py), so the example's digests cover it
    covered = {p for p, _, _ in GAMES} | {"benchmarks/games/connect-four-spaces.ludus"}
    from benchmarks.compare import GAMES as BENCH

    assert {p for p, _ in BENCH} <= covered
