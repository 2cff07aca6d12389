"""Undo by journal: a move keeps the small part of the state whole and only the cards, pieces
and places it changed; undoing must still give back exactly the state before the move."""

from __future__ import annotations

import json
import marshal
import random

import pytest

import ludus
from ludus.testing.position import Position
from tests.engine.playouts import GAMES
from tests.helpers import ROOT, game_from_text


def _exact(match) -> tuple:
    """The state as saved, and the order of its places (which to_json's sorted keys hide)."""
    return match.to_json(), list(match.state["places"]), list(match.log)


@pytest.mark.parametrize(("path", "players"), sorted({(p, n) for p, n, _ in GAMES}))
def test_undoing_every_move_gives_back_every_state(path, players):
    game = ludus.load(ROOT / path)
    for seed in (1, 2):
        rng = random.Random(seed)
        match = game.new_match(players, seed=seed)
        seen = []
        while not match.is_over and len(seen) < 120:
            seen.append(_exact(match))
            match.apply(rng.choice(match.legal_actions()))
        # a clone taken now undoes on its own copy, sharing the history entries
        clone = match.clone()
        for before in reversed(seen):
            match.undo()
            assert _exact(match) == before
        assert match.history == []
        for before in reversed(seen[-10:]):
            clone.undo()
            assert _exact(clone) == before


FAILING = """
game "Halfway"
players 2
counter coins per seat
zone deck per seat
zone hand per seat
board land:
    region Hill
kind Thing:
    cost: number = 0
card Coin is Thing:
    copies 6
piece Scout
action Gamble:
    draw 2
    shuffle deck
    create Scout at Hill for actor
    pay 5 coins
setup:
    for each s in seats:
        move top(box, 3) to deck of s
flow:
    repeat 3 times:
        for each s in seats:
            turn s:
                offer Gamble
"""


def test_a_move_that_fails_after_moving_and_creating_cards_leaves_them_as_they_were(tmp_path):
    game = game_from_text(tmp_path, FAILING)
    match = game.new_match(2)
    before = _exact(match)
    with pytest.raises(ludus.RuleError):
        match.apply("Gamble")
    assert _exact(match) == before
    assert len(match.state["ents"]) == 6  # the Scout the move created is gone


def test_a_move_keeps_only_what_it_changed():
    game = ludus.load(ROOT / "games/votes-for-women/votes-for-women.ludus")
    match = game.new_match(2, seed=3)
    rng = random.Random(3)
    for _ in range(40):
        match.apply(rng.choice(match.legal_actions()))
    whole = len(marshal.dumps(match.state))
    kept = [len(before) + len(marshal.dumps(journal.ents or {})) for before, _, _, journal in match.history]
    touched = [len(journal.ents or ()) for *_, journal in match.history]
    # every card of the game is in the state; a move keeps the few it moved, not all of them
    assert max(touched) < len(match.state["ents"]) // 4
    assert sum(kept) / len(kept) < whole / 2


def test_a_state_put_in_from_outside_keeps_undo_exact(tmp_path):
    game = ludus.load(ROOT / "examples/market-town.ludus")
    position = Position(game, 2, seed=5)
    match = position.match
    rng = random.Random(5)
    seen = []
    for _ in range(12):
        seen.append(_exact(match))
        match.apply(rng.choice(match.legal_actions()))
    # a test's `given` line works on a copy and puts it in: here it moves a card elsewhere
    position.given("move top(market) to hand of current")
    assert json.loads(match.to_json())["state"] != json.loads(seen[-1][0])["state"]
    for before in reversed(seen):
        match.undo()
        assert _exact(match) == before


def test_undo_after_fast_moves_takes_back_the_last_apply_and_everything_since():
    game = ludus.load(ROOT / "games/uprising.ludus")
    match = game.new_match(2, seed=7)
    rng = random.Random(7)
    match.apply(rng.choice(match.legal_actions()))
    after_first = _exact(match)
    match.apply(rng.choice(match.legal_actions()))
    for _ in range(6):  # a simulation's moves: no history of their own
        match.apply_fast(rng.randrange(len(match.legal_actions())))
    match.undo()
    assert _exact(match) == after_first


LEDGER = """
game "Ledger"
players 2
counter coins per seat start 2
counter spent per seat resets each turn
var last start 0
token Follower per seat
token Unstable
board land:
    region Hill
    region Vale
track public from -3 to 3 start 0:
    end Pride from 3 to 3
    end TheMan from -3 to -3
action Hire:
    add 2 Follower to Hill
    add 1 Unstable to Hill
    increase spent by 1
    increase coins by 1
action Purge:
    remove all Follower from Hill
    remove 1 Unstable from Hill
    set last to 7
action Push:
    increase public by 1
    set public.start to 1
action Pick:
    choose xs from [1, 2, 3], up to 2
    set last to size(xs)
flow:
    repeat 4 times:
        for each s in seats:
            turn s:
                offer Hire, Purge, Push, Pick
                offer Hire, Purge, Push, Pick
"""

# each move with what it must change: a var set and one reset at the turn's end, tokens added
# and removed to none (without an owner: every owner's), a track's marker and start, the parts
# of a `choose ..., up to 2`
LEDGER_MOVES = ["Hire", "Hire", "Hire", "Purge", "Push", "Push", "Pick", "3", "1", "Pick", "2", "done",
                "Purge", "Hire", "Push", "Push"]


def _keyed(match) -> tuple:
    state = match.state
    return dict(state["vars"]), dict(state["tokens"]), {k: dict(v) for k, v in state["tracks"].items()}


def test_undo_puts_back_vars_tokens_and_tracks_a_move_changed(tmp_path):
    game = game_from_text(tmp_path, LEDGER)
    match = game.new_match(2)
    seen = []
    for label in LEDGER_MOVES:
        seen.append((_exact(match), _keyed(match)))
        match.apply(label)
    # the script does what it claims: a reset var deleted, a token key gone, the track's start moved
    assert "spent@0" in seen[1][1][0] and "spent@0" not in seen[2][1][0]
    assert "Follower|0|Hill" in seen[3][1][1] and "Follower|0|Hill" not in seen[4][1][1]
    assert seen[5][1][2]["public"] == {"pos": 1, "start": 1}
    assert seen[8][0][0] != seen[7][0][0]  # the first pick of two
    clone = match.clone()
    for before, keyed in reversed(seen):
        match.undo()
        assert _exact(match) == before
        assert _keyed(match) == keyed
    for before, _keyed_before in reversed(seen):
        clone.undo()
        assert _exact(clone) == before


def test_a_move_undone_and_taken_again_changes_the_same(tmp_path):
    game = game_from_text(tmp_path, LEDGER)
    match = game.new_match(2)
    for label in LEDGER_MOVES:
        match.apply(label)
        after = _exact(match)
        match.undo()
        match.apply(label)
        assert _exact(match) == after


def test_a_move_keeps_the_vars_tokens_and_tracks_it_changed_not_the_tables(tmp_path):
    game = game_from_text(tmp_path, LEDGER)
    match = game.new_match(2)
    for label in LEDGER_MOVES[:3]:
        match.apply(label)
    before, _, label, journal = match.history[1]
    # the rest of the state is kept whole, but no table the journal keeps: no var or token key
    assert b"coins@0" not in before and b"Follower|0|Hill" not in before and b"Unstable" not in before
    assert b"stack" not in before  # values only, not the state's keys
    # the second Hire: what it added and raised, and the reset at its turn's end, as they were
    assert journal.tokens == {"Follower|0|Hill": 2, "Unstable||Hill": 1}
    assert journal.vars == {"spent@0": 1, "coins@0": 3}
    assert journal.tracks is None


FAILING_KEYED = """
game "Halfway"
players 2
counter coins per seat
counter spent per seat
token Follower per seat
token Unstable
board land:
    region Hill
track public from -3 to 3 start 0:
    end Pride from 3 to 3
    end TheMan from -3 to -3
action Gamble:
    add 2 Follower to Hill
    remove all Unstable from Hill
    increase public by 1
    set public.start to 1
    increase spent by 1
    pay 5 coins
setup:
    add 1 Unstable to Hill
flow:
    repeat 3 times:
        for each s in seats:
            turn s:
                offer Gamble
"""


def test_a_move_that_fails_after_changing_vars_tokens_and_tracks_leaves_them_as_they_were(tmp_path):
    game = game_from_text(tmp_path, FAILING_KEYED)
    match = game.new_match(2)
    before, keyed = _exact(match), _keyed(match)
    with pytest.raises(ludus.RuleError, match="pay"):
        match.apply("Gamble")
    assert _exact(match) == before
    assert _keyed(match) == keyed
    assert match.history == []


def test_a_decision_the_engine_asked_is_asked_again_on_undo_not_kept():
    game = ludus.load(ROOT / "games/votes-for-women/votes-for-women.ludus")
    match = game.new_match(2, seed=1)
    rng = random.Random(1)
    asked = []
    for _ in range(60):
        pending = match.pending
        asked.append((pending["kind"], bool(pending.get("picked")), list(pending["options"])))
        match.apply(rng.choice(match.legal_actions()))
    relisted = [kind for (kind, picked, _), entry in zip(asked, match.history, strict=True) if entry[3].relist]
    # offers, numbers, yes-or-no questions and first picks are asked again; later picks are kept
    assert {"offer", "number", "ask", "choose"} <= set(relisted)
    assert all(kind == "choose" and picked for (kind, picked, _), entry in zip(asked, match.history, strict=True)
               if not entry[3].relist and kind != "chance")
    # what the entry keeps has no option of a decision asked again: here, the offers' labels
    for (kind, _, options), (before, *_rest) in zip(asked, match.history, strict=True):
        if kind == "offer" and _rest[2].relist:
            assert not any(label.encode() in before for label in options if len(label) > 12)
    # the undo test above compares the offers listed again with those the moves answered


PURSE = """
game "Purse"
players 2
counter coins per seat
action Earn:
    increase coins by 3
action Spend:
    require coins >= 3
    decrease coins by 3
flow:
    repeat 4 times:
        for each s in seats:
            turn s:
                offer Earn, Spend
"""


def test_an_offer_in_a_state_put_in_from_outside_is_kept_as_it_is(tmp_path):
    game = game_from_text(tmp_path, PURSE)
    match = game.new_match(2)
    assert match.legal_actions() == ["Earn"]
    # the same offer object in a state with coins now: listed again, it would offer Spend too
    match.state = {**match.state, "vars": {"coins@0": 5}}
    before = _exact(match)
    match.apply("Earn")
    match.undo()
    assert _exact(match) == before
    assert match.legal_actions() == ["Earn"]


def test_a_later_pick_of_a_choice_is_kept_and_undone_exactly(tmp_path):
    game = game_from_text(tmp_path, LEDGER)
    match = game.new_match(2)
    match.apply("Pick")
    states = [_exact(match)]
    match.apply("3")  # the first pick: asked by the choice's start, so asked again on undo
    states.append(_exact(match))
    match.apply("1")  # the second: made by the answer to the first, so kept
    assert [entry[3].relist for entry in match.history[-2:]] == [True, False]
    for before in reversed(states):
        match.undo()
        assert _exact(match) == before


def test_answering_one_part_of_a_choice_leaves_the_decision_asked_as_it_was(tmp_path):
    game = game_from_text(tmp_path, LEDGER)
    match = game.new_match(2)
    match.apply("Pick")
    match.apply("3")
    asked = match.pending
    kept = json.dumps(asked)
    match.apply("1")  # the second of two: `picked` grows in the answer, not in the decision
    assert json.dumps(asked) == kept and asked["picked"] == [3]


def test_undo_after_an_effect_run_apart_ends_gives_back_the_effect_waiting():
    # Position runs a card's effect on a stack of its own and, when the effect has returned,
    # puts the flow's stack back in place: the answer's journal keeps every frame of the effect
    game = ludus.load(ROOT / "examples/market-town.ludus")
    position = Position(game, 2, seed=5)
    position.resolve("Town Crier", "Basil")
    waiting = _exact(position.match)
    position.answer("Square")
    assert position.match.legal_actions() != ["Docks", "Square", "Hill"]  # the flow's offer again
    position.match.undo()
    assert _exact(position.match) == waiting
