"""Matches of one game played side by side, move for move or in threads, play exactly as each
played alone: the define values a game keeps between runs (vm.memo_for, Game.carried) belong
to one match state, and a run over another state must never read them."""

from __future__ import annotations

import threading

import pytest

import ludus
from tests.engine.playouts import ROOT, key, play, steps
from tests.engine.test_playouts import REFERENCE

GAMES = [("examples/connect-four.ludus", 2), ("examples/market-town.ludus", 2),
         ("games/uprising.ludus", 2), ("games/votes-for-women/votes-for-women.ludus", 2)]


@pytest.mark.parametrize(("path", "players"), GAMES, ids=[key(p, n) for p, n in GAMES])
def test_matches_played_move_for_move_side_by_side(path, players):
    game = ludus.load(ROOT / path)
    expected = REFERENCE[key(path, players)]
    for seed in range(0, 6, 2):
        a, b = steps(game, players, seed), steps(game, players, seed + 1)
        done = {}
        while len(done) < 2:
            for name, match in (("a", a), ("b", b)):
                if name not in done and (digest := next(match)) is not None:
                    done[name] = digest
        assert (done["a"], done["b"]) == (expected[seed], expected[seed + 1])


def test_matches_played_in_threads():
    path, players = "games/uprising.ludus", 2
    game = ludus.load(ROOT / path)
    expected = REFERENCE[key(path, players)]
    got: dict = {}

    def worker(seeds):
        for seed in seeds:
            got[seed] = play(game, players, seed)

    threads = [threading.Thread(target=worker, args=(range(k, 8, 2),)) for k in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [got[s] for s in range(8)] == expected[:8]
