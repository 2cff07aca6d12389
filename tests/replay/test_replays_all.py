"""Every replay under examples/ and games/ plays through and meets its expectations.

New `.replay` files are picked up on their own: a replay is a test."""

from __future__ import annotations

import pytest

from ludus.replay import ReplayError, load_replay
from tests.helpers import EXAMPLES, GAMES, ROOT

REPLAYS = sorted([*EXAMPLES.rglob("*.replay"), *GAMES.rglob("*.replay")])


def test_there_are_replays_to_run():
    assert any(p.parent.name == "replays" for p in REPLAYS)


@pytest.mark.parametrize("path", REPLAYS, ids=[str(p.relative_to(ROOT)) for p in REPLAYS])
def test_replay_plays_through(path):
    try:
        load_replay(path).run()
    except ReplayError as err:
        pytest.fail(str(err), pytrace=False)
