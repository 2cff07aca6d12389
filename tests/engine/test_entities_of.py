"""Runtime.entities_of without a place reads the cards a match starts with from a table made
once per game; it must list exactly what a scan of every card and piece lists."""

from __future__ import annotations

import random

import pytest

import ludus
from ludus.engine.runtime import Runtime, copy_state
from tests.helpers import ROOT


def scanned(game, state, kinds, defname, owner) -> list[int]:
    return [eid for eid, e in enumerate(state["ents"])
            if e is not None and e["l"] not in (None, "removed")
            and (defname is None or e["d"] == defname)
            and (kinds is None or game.defs[e["d"]].kind in kinds)
            and (owner is None or e["o"] == owner)]


def asks(game, nseats):
    kinds = [None, *game.kind_tree.values()]
    names = [None, *game.defs]
    owners = [None, *range(nseats)]
    return [(k, d, o) for k in kinds for d in names for o in owners]


@pytest.mark.parametrize("path", ["games/uprising.ludus", "games/votes-for-women/votes-for-women.ludus",
                                  "examples/market-town.ludus"])
def test_the_table_lists_what_a_scan_lists(path):
    game = ludus.load(ROOT / path)
    match = game.new_match(2, seed=3)
    rng = random.Random(3)
    for step in range(60):
        if match.is_over:
            break
        if step % 20 == 0:  # pieces created during play are found too
            rt = Runtime(game, match.state, [])
            for kinds, defname, owner in asks(game, 2):
                assert rt.entities_of(kinds, defname, owner) == scanned(game, match.state, kinds, defname, owner)
        match.apply(rng.choice(match.legal_actions()))


def test_a_state_whose_first_cards_differ_is_scanned_whole():
    game = ludus.load(ROOT / "games/votes-for-women/votes-for-women.ludus")
    state = copy_state(game.new_match(2, seed=1).state)
    ents = state["ents"]
    # a saved match edited by hand: the first card renamed as another card, put in play
    ents[0]["d"] = next(name for name in game.defs if name != ents[0]["d"])
    ents[0]["l"] = "discard@0"
    rt = Runtime(game, state, [])
    for kinds, defname, owner in asks(game, 2):
        assert rt.entities_of(kinds, defname, owner) == scanned(game, state, kinds, defname, owner)
