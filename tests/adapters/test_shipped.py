"""SHIPPED names every game a user may load: the README says each passes both adapters' tests."""

from __future__ import annotations

from tests.adapters.shipped import SHIPPED
from tests.helpers import shipped_games


def test_every_shipped_game_is_run_by_the_adapters_tests():
    # a game added to games/ or examples/ must join SHIPPED (No Thanks! was once left out)
    assert sorted(SHIPPED) == shipped_games()
