"""Matches of one game played side by side, move for move or in threads, play exactly as each
played alone: the define values a game keeps between runs (vm.memo_for, Game.carried) belong
to one match state, and a run over another state must never read them."""

from __future__ import annotations

import hashlib
import random
import threading

import pytest

import ludus
from tests.engine.playouts import ROOT, key, play
from tests.engine.test_playouts import REFERENCE

GAMES = [("examples/connect-four.ludus", 2), ("examples/market-town.ludus", 2),
         ("games/uprising.ludus", 2), ("games/votes-for-women/votes-for-women.ludus", 2)]


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _stepper(game, players: int, seed: int):
    """The moves of tests/engine/playouts.play, one a step; its digest once the match is over."""
    rng = random.Random(seed)
    match = game.new_match(players, seed=seed)
    moves = []
    while not match.is_over:
        options = match.legal_actions()
        label = options[rng.randrange(len(options))]
        match.apply(label)
        if len(moves) % 5 == 4:
            assert match.undo() == label
            assert match.legal_actions() == options
            match.apply(label)
        moves.append(label)
        yield None
    yield f"{_sha(chr(10).join(moves))} {_sha(match.to_json())}"


@pytest.mark.parametrize(("path", "players"), GAMES, ids=[key(p, n) for p, n in GAMES])
def test_matches_played_move_for_move_side_by_side(path, players):
    game = ludus.load(ROOT / path)
    expected = REFERENCE[key(path, players)]
    for seed in range(0, 6, 2):
        a, b = _stepper(game, players, seed), _stepper(game, players, seed + 1)
        done = {}
        while len(done) < 2:
            for name, steps in (("a", a), ("b", b)):
                if name not in done and (digest := next(steps)) is not None:
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
