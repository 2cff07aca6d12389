"""Undo by replay: a match keeps a whole copy of the state every so many moves and the option
each move took; undoing takes the copy before a move and answers the options since again, and
must give back exactly the state before the move, whatever changed the state in between."""

from __future__ import annotations

import json
import marshal
import random

import pytest

import ludus
from ludus.engine.match import CHECKPOINT_EVERY
from ludus.testing.position import Position
from tests.engine.playouts import GAMES
from tests.helpers import ROOT, game_from_text


def _exact(match) -> tuple:
    """The state as saved, and the order of its places (which to_json's sorted keys hide),
    read without handing the state out (`Match.state` would make the next move keep a copy)."""
    return match.to_json(), list(match._state["places"]), list(match.log)


def _play(match, labels) -> list:
    seen = []
    for label in labels:
        seen.append(_exact(match))
        match.apply(label)
    return seen


def _undo_each(match, seen) -> None:
    for before in reversed(seen):
        match.undo()
        assert _exact(match) == before


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
        _undo_each(match, seen)
        assert match.history == []
        _undo_each(clone, seen[-10:])


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


def test_a_match_keeps_a_whole_state_only_every_so_many_moves():
    game = ludus.load(ROOT / "games/votes-for-women/votes-for-women.ludus")
    match = game.new_match(2, seed=3)
    rng = random.Random(3)
    for _ in range(100):
        match.apply(rng.choice(match.legal_actions()))
    kept = [i for i, (copy, *_rest) in enumerate(match.history) if copy is not None]
    assert kept == list(range(0, 100, CHECKPOINT_EVERY))
    assert all(isinstance(index, int) for *_rest, index in match.history)
    # so a finished match's history is a few states, not one a move
    whole = len(marshal.dumps(match.state))
    assert sum(len(copy) for copy, *_rest in match.history if copy is not None) < 5 * whole


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
    _undo_each(match, seen)


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


def test_moves_kept_after_fast_moves_undo_to_the_state_the_fast_moves_left():
    game = ludus.load(ROOT / "games/uprising.ludus")
    match = game.new_match(2, seed=7)
    rng = random.Random(7)
    match.apply(rng.choice(match.legal_actions()))
    for _ in range(4):
        match.apply_fast(rng.randrange(len(match.legal_actions())))
    seen = []
    for _ in range(3):
        seen.append(_exact(match))
        match.apply(rng.choice(match.legal_actions()))
    _undo_each(match, seen)


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
    match.apply("3")  # the first pick
    states.append(_exact(match))
    match.apply("1")  # the second: asked by the answer to the first
    _undo_each(match, states)


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


DICE = """
game "Dice"
players 2
counter score per seat
counter coins per seat
token Follower per seat
board land:
    region Hill
action Roll:
    roll d6 as x
    increase score by x
action Earn:
    increase coins by 1
action Gamble:
    add 2 Follower to Hill
    roll d6 as x
    increase score by x
    pay 5 coins
flow:
    repeat 40 times:
        for each s in seats:
            turn s:
                offer Roll, Earn, Gamble
"""


def test_an_outcome_forced_between_moves_is_kept_for_undo(tmp_path):
    # the REPL's `force` and a replay's force line add to the state's forced outcomes in place,
    # between two moves: playing the moves again from a copy taken before must not lose them
    game = game_from_text(tmp_path, DICE)
    match = game.new_match(2, seed=4)
    seen = _play(match, ["Earn", "Roll", "Earn"])
    match.state["forced"].append(["die", 6, 6])
    seen += _play(match, ["Roll"])
    assert [e["value"] for e in match.log if e["t"] == "roll"][-1] == 6
    seen += _play(match, ["Roll", "Earn", "Roll"])
    _undo_each(match, seen)


def test_a_state_changed_in_place_and_put_back_is_kept_for_undo(tmp_path):
    game = game_from_text(tmp_path, DICE)
    match = game.new_match(2, seed=4)
    seen = _play(match, ["Earn", "Earn", "Roll"])
    match.state["vars"]["coins@1"] = 9
    match.state = match.state  # once needed after a change in place: it still works
    seen += _play(match, ["Gamble", "Earn"])
    assert match.state["vars"]["coins@1"] == 4  # the Gamble paid 5 of the 9 put in
    _undo_each(match, seen)


RICH = """
game "Rich"
players 2
counter coins per seat
counter got
define rich = coins of P1 >= 3
flow:
    repeat 40 times:
        turn P1:
            choose n from 0 to 1 "go"
            if rich:
                increase got by 1
    end game
"""


def _copies(match) -> list[bool]:
    return [copy is not None for copy, *_rest in match.history]


@pytest.mark.parametrize("fast", [False, True])
def test_a_state_changed_in_place_is_seen_by_the_next_move(tmp_path, fast):
    game = game_from_text(tmp_path, RICH)
    match = game.new_match(2)
    match.apply("0")
    match.apply("0")  # `rich` read twice, and remembered as false
    match.state["vars"]["coins@0"] = 5  # changed in place, and not put back
    if fast:
        match.apply_fast(1)
    else:
        match.apply("1")
    assert match.to_json().count('"got": 1') == 1  # `rich` read the 5


def test_a_state_changed_in_place_is_kept_for_undo(tmp_path):
    game = game_from_text(tmp_path, RICH)
    match = game.new_match(2)
    seen = []
    for label in ["0", "0", "1"]:
        seen.append(match.to_json())
        match.apply(label)
    match.state["vars"]["coins@0"] = 5
    for label in ["1", "0", "1"]:
        seen.append(match.to_json())
        match.apply(label)
    assert _copies(match) == [True, False, False, True, False, False]
    for before in reversed(seen):
        match.undo()
        assert match.to_json() == before


def test_reading_a_match_through_its_own_api_keeps_no_more_copies(tmp_path):
    # views, saves, offers and results read the state without handing it out: the moves after
    # them keep a copy only as often as ever (the first, then every CHECKPOINT_EVERY)
    game = game_from_text(tmp_path, RICH)
    match = game.new_match(2)
    for label in ["0", "1", "0", "1"]:
        match.view()
        match.view(0)
        match.to_json()
        match.legal_actions()
        match.scopes()
        match.apply(label)
    assert _copies(match) == [True, False, False, False]


def test_a_move_failing_moves_after_the_last_copy_leaves_the_match_as_it_was(tmp_path):
    game = game_from_text(tmp_path, DICE)
    match = game.new_match(2, seed=4)
    seen = _play(match, ["Earn", "Roll", "Earn", "Roll", "Roll"])
    assert [copy is not None for copy, *_rest in match.history] == [True, False, False, False, False]
    before = _exact(match)
    with pytest.raises(ludus.RuleError, match="pay"):
        match.apply("Gamble")  # rolls and adds pieces, then cannot pay
    assert _exact(match) == before
    assert len(match.history) == 5
    seen += _play(match, ["Earn"])
    _undo_each(match, seen)


@pytest.mark.parametrize("bots", [None, {0: "mcts:20", 1: "greedy:3"}])
def test_simulations_and_bots_read_states_without_dropping_their_define_values(monkeypatch, bots):
    # they read the state at every move: handing it out (Match.state) would drop the define
    # values remembered for it each time, and every define would be worked out again
    from ludus.engine import vm
    from ludus.simulation.records import play_match

    forgotten = []
    real = vm.forget
    monkeypatch.setattr(vm, "forget", lambda game: (forgotten.append(1), real(game)))
    game = ludus.load(ROOT / "examples/market-town.ludus")
    record = play_match(game, 2, seed=1, bots=bots, limit=60)
    assert record.outcome != "error" and record.length > 0
    assert forgotten == []
