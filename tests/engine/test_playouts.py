"""Seeded random matches of every shipped game give exactly the recorded moves and final JSON.

The reference digests in playouts.json were recorded from the engine before the speed work of
issue #15 (see tests/engine/playouts.py, which also re-records them).
"""

from __future__ import annotations

import json

import pytest

import ludus
from tests.engine.playouts import GAMES, RECORD, ROOT, key, play
from tests.helpers import shipped_games

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


def test_an_edit_that_changes_no_rule_leaves_the_digests_as_they_are(tmp_path):
    # declaring a counter `unlisted` changes the game files' fingerprint (a saved match of the
    # old files is refused), not a move or the state: the digests pin what the rules do
    source = (ROOT / "examples/market-town.ludus").read_text(encoding="utf-8")
    assert source.count("counter round_number start 1\n") == 1
    edited = tmp_path / "market-town.ludus"
    edited.write_text(source.replace("counter round_number start 1\n", "counter round_number start 1 unlisted\n"),
                      encoding="utf-8")
    game, again = ludus.load(ROOT / "examples/market-town.ludus"), ludus.load(edited)
    assert game.fingerprint != again.fingerprint
    expected = REFERENCE[key("examples/market-town.ludus", 2)]
    assert [play(again, 2, seed) for seed in range(3)] == expected[:3]


def test_every_shipped_game_has_recorded_playouts():
    assert set(shipped_games()) <= {p for p, _, _ in GAMES}
