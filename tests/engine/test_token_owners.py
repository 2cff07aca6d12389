"""Removing tokens without naming an owner takes every owner's, in the order of their keys; the
keys at a place are kept in an index instead of scanned, and it must agree with a scan."""

from __future__ import annotations

import random

from ludus.engine import vm
from ludus.engine.runtime import Runtime, copy_state
from tests.helpers import game_from_text

GAME = """game "Pawns"
players 2 to 12
token Cube
token Pawn per seat
board map:
    area A
    area B
flow:
    add 1 Cube to A
"""


def _scanned(state, token, pk) -> list:
    """The owners as a scan of every key finds them, sorted by key (the order before the index)."""
    keys = sorted(k for k in state["tokens"] if k.split("|", 2)[0] == token and k.split("|", 2)[2] == pk)
    return [int(o) if o else None for o in (k.split("|", 2)[1] for k in keys)]


def test_owners_at_a_place_agree_with_a_scan_through_adds_removes_and_states_put_back(tmp_path):
    game = game_from_text(tmp_path, GAME)
    rng = random.Random(4)
    # two states in turn (the index is kept with one state's define values at a time, as
    # vm.run keeps them), owners 0 to 11 ("10" sorts before "2" as keys do), and now and then a
    # state put back as it was some steps before (a new object, as Match.undo puts it back)
    states = [game.new_match(12).state, game.new_match(12).state]
    kept = [copy_state(s) for s in states]
    most = 0
    for step in range(600):
        i = rng.randrange(2)
        state = states[i]
        rt = Runtime(game, state, [])
        rt.memo = vm.memo_for(game, state)
        token, pk = rng.choice(["Pawn", "Cube"]), rng.choice(["A", "B"])
        owner = rng.randrange(12) if token == "Pawn" else None
        roll = rng.random()
        if roll < 0.6:
            rt.add_tokens(token, owner, pk, rng.randrange(3))
        elif roll < 0.88:
            rt.remove_tokens(token, owner if rng.random() < 0.3 else None, pk, rng.choice([None, 1, 2, 5]))
        elif roll < 0.93:
            kept[i] = copy_state(state)
        elif roll < 0.98:
            state = states[i] = copy_state(kept[i])
            vm.forget(game)
        else:
            state["tokens"].clear()  # changed outside the rules, as a test may: they say so
            vm.forget(game)
        rt = Runtime(game, state, [])
        rt.memo = vm.memo_for(game, state)  # what the next run over the state starts from
        for t in ("Pawn", "Cube"):
            for p in ("A", "B"):
                assert rt._owners_at(t, p) == _scanned(state, t, p), (step, t, p)
        most = max(most, len(_scanned(state, "Pawn", pk)))
    assert most >= 4  # several owners at once, not one at a time


def test_removing_without_an_owner_takes_in_key_order(tmp_path):
    game = game_from_text(tmp_path, GAME)
    state = game.new_match(12).state
    rt = Runtime(game, state, [])
    for owner in (2, 10, 1):
        rt.add_tokens("Pawn", owner, "A", 1)
    assert rt._owners_at("Pawn", "A") == [10, 1, 2]  # "Pawn|10|A" sorts before "Pawn|1|A"
    assert rt.remove_tokens("Pawn", None, "A", 2) == 2
    assert list(state["tokens"]) == ["Cube||A", "Pawn|2|A"]
    assert rt._owners_at("Pawn", "A") == [2]
