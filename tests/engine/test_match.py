"""The Match API: determinism, JSON round trip, undo, illegal moves, views."""

from __future__ import annotations

import json
import random

import pytest

import ludus
from ludus.engine.match import Match, MatchError
from tests.helpers import EXAMPLES, game_from_text, play_random

GAME = ludus.load(EXAMPLES / "market-town.ludus")


def moves_of_random_match(seed: int, players: int = 3) -> tuple[Match, list[str]]:
    match = GAME.new_match(players, seed=seed)
    play_random(match, random.Random(seed))
    return match, list(match.moves)


def test_same_seed_and_moves_give_the_same_match():
    first, moves = moves_of_random_match(11)
    again = GAME.new_match(3, seed=11)
    for m in moves:
        again.apply(m)
    assert again.to_json() == first.to_json()
    assert again.log == first.log


def test_different_seeds_give_different_matches():
    a, _ = moves_of_random_match(1)
    b, _ = moves_of_random_match(2)
    assert a.log != b.log


def test_json_round_trip_is_exact_mid_match():
    match = GAME.new_match(2, seed=4)
    rng = random.Random(4)
    for _ in range(12):
        match.apply(rng.choice(match.legal_actions()))
    assert not match.is_over
    text = match.to_json()
    restored = Match.from_json(GAME, text)
    assert restored.to_json() == text
    # the restored match goes on exactly like the original, to the end
    while not match.is_over:
        move = rng.choice(match.legal_actions())
        match.apply(move)
        restored.apply(move)
    assert restored.to_json() == match.to_json()
    assert restored.result == match.result


def test_undo_restores_the_previous_state_exactly():
    match = GAME.new_match(2, seed=9)
    before = match.to_json()
    label = match.legal_actions()[0]
    match.apply(label)
    assert match.to_json() != before
    assert match.undo() == label
    assert match.to_json() == before


def test_illegal_action_is_rejected_and_changes_nothing():
    match = GAME.new_match(2, seed=9)
    before = match.to_json()
    with pytest.raises(ludus.IllegalAction) as info:
        match.apply("buy the moon")
    assert "not a legal move" in str(info.value)
    assert match.to_json() == before


def test_illegal_action_suggests_the_closest_labels():
    match = GAME.new_match(2, seed=9)
    legal = match.legal_actions()
    target = next(m for m in legal if m.startswith("buy "))
    with pytest.raises(ludus.IllegalAction) as info:
        match.apply(target.upper())
    assert target in info.value.near


def test_view_hides_other_hands_and_deck_order():
    match = GAME.new_match(2, seed=3)
    full = match.view()
    amber = match.view(0)
    assert isinstance(full["zones"]["deck of Amber"], list)
    assert amber["zones"]["deck of Amber"] == {"count": len(full["zones"]["deck of Amber"])}
    assert isinstance(amber["zones"]["hand of Amber"], list)
    basil_hand = amber["zones"]["hand of Basil"]
    assert basil_hand == {"count": len(full["zones"]["hand of Basil"])}


DICE_GAME = """
game "Dice"
players 2
counter total per seat
flow:
    for each s in seats:
        turn s:
            roll 2 d6 as pair
            gain sum(pair) total
    win most(total of s for s in seats)
"""


def test_forced_dice_are_used_in_order_and_logged(tmp_path):
    game = game_from_text(tmp_path, DICE_GAME + "\n")
    seen = set()
    for seed in range(5):
        match = game.new_match(seed=seed)
        seen.add(json.dumps(match.log))
    assert len(seen) > 1  # unforced dice vary with the seed
    match = Match.new(game, 2, seed=0, chance="manual")
    assert match.current == ludus.CHANCE
    match.apply("d6 = 6")
    match.apply("d6 = 6")
    match.apply("d6 = 1")
    match.apply("d6 = 2")
    assert match.result["winners"] == ["P1"]
    assert [e["value"] for e in match.log if e["t"] == "roll"] == [6, 6, 1, 2]


def test_forced_outcomes_replace_the_generator(tmp_path):
    game = game_from_text(tmp_path, DICE_GAME)
    match = game.new_match(seed=0, forced=[["die", 6, 1], ["die", 6, 1], ["die", 6, 6], ["die", 6, 6]])
    assert match.is_over
    assert [e["value"] for e in match.log if e["t"] == "roll"] == [1, 1, 6, 6]
    assert match.result["winners"] == ["P2"]


MIXED_DICE = """game "Mixed"
players 1
seats P1
counter seen
flow:
    roll dice [6, 8, 6] as r
    set seen to size(r)
    end game
"""


@pytest.mark.parametrize(("forced", "asked", "answers", "seen"), [
    ([["die", 8, 3]], ["d6", "d6"], ["d6 = 2", "d6 = 5"], 235),  # the d8 forced: both d6 asked
    ([["die", 6, 4]], ["d8", "d6"], ["d8 = 7", "d6 = 1"], 471),  # the first d6 forced, the rest asked
    ([["die", 6, 4], ["die", 0, 8], ["die", 6, 6]], [], [], 486),  # every die forced: none asked
    ([], ["d6", "d8", "d6"], ["d6 = 1", "d8 = 1", "d6 = 1"], 111),
])
def test_chance_by_hand_asks_each_die_no_force_covers(tmp_path, forced, asked, answers, seen):
    # a force of one die once made every die of the roll come from the generator, none asked
    game = game_from_text(tmp_path, MIXED_DICE)
    match = Match.new(game, 1, seed=0, chance="manual", forced=forced)
    for die, answer in zip(asked, answers, strict=True):
        assert match.current == ludus.CHANCE and match.legal_actions()[0] == f"{die} = 1"
        match.apply(answer)
    assert match.is_over and match.state["vars"]["seen"] == 3
    rolls = [(e["die"], e["value"]) for e in match.log if e["t"] == "roll"]  # in the dice's order
    assert rolls == [(6, seen // 100), (8, seen // 10 % 10), (6, seen % 10)]


SIZED_DIE = """game "Sized"
players 1
seats P1
counter faces start 6
flow:
    roll die faces as r
    end game
"""


@pytest.mark.parametrize(("faces", "message"), [
    (0, "a die has 1 to 1,000,000 faces, not 0"),
    (-3, "a die has 1 to 1,000,000 faces, not -3"),
    (20_000, "a d20,000 rolled by hand would offer 20,000 options; a decision offers at most 10,000"),
])
def test_chance_by_hand_refuses_a_die_the_generator_would_refuse_or_too_many_faces(tmp_path, faces, message):
    # a d0 rolled by hand was asked of chance with no options at all
    game = game_from_text(tmp_path, SIZED_DIE.replace("start 6", f"start {faces}"))
    with pytest.raises(ludus.RuleError) as err:
        Match.new(game, 1, seed=0, chance="manual")
    assert err.value.message == message
    if faces <= 0:  # the same error as the generator's
        with pytest.raises(ludus.RuleError) as auto:
            Match.new(game, 1, seed=0)
        assert auto.value.message == message
    match = Match.new(game_from_text(tmp_path, SIZED_DIE.replace("start 6", "start 10000")), 1, chance="manual")
    assert len(match.legal_actions()) == 10_000


def test_a_forced_face_that_the_die_lacks_is_an_error(tmp_path):
    # refused as Match.force refuses it, before setup: it was a RuleError only when setup
    # rolled that die, and otherwise stayed queued, in a save that would not load
    game = game_from_text(tmp_path, DICE_GAME)
    with pytest.raises(ValueError, match="^forced: a forced outcome cannot be used: 7 is not a face of a d6$"):
        game.new_match(seed=0, forced=[["die", 6, 7]])


def test_saved_match_from_other_game_version_is_refused():
    match = GAME.new_match(2, seed=1)
    data = json.loads(match.to_json())
    data["fingerprint"] = "0" * 16
    with pytest.raises(ludus.MatchError, match="different version"):
        Match.from_json(GAME, json.dumps(data))


def test_a_save_names_what_is_wrong_with_its_game_or_fingerprint():
    data = json.loads(GAME.new_match(2, seed=1).to_json())
    cases = [
        ({"game": "Connect Four"}, "it is a saved match of 'Connect Four', not of 'Market Town'"),
        ({"fingerprint": None}, "the saved match is damaged: its 'fingerprint' is not a text"),
        ({"game": 5}, "the saved match is damaged: its 'game' is not a text"),
    ]
    for change, message in cases:
        with pytest.raises(ludus.MatchError) as err:
            Match.from_json(GAME, json.dumps({**data, **change}))
        assert str(err.value) == message
    del data["fingerprint"]
    with pytest.raises(ludus.MatchError) as err:
        Match.from_json(GAME, json.dumps(data))
    assert str(err.value) == "the saved match is damaged: its 'fingerprint' is missing"


def test_damaged_saved_match_is_refused_with_a_reason():
    with pytest.raises(ludus.MatchError, match="not a saved match"):
        Match.from_json(GAME, "{not json")
    match = GAME.new_match(2, seed=1)
    data = json.loads(match.to_json())
    data["state"]["stack"][0]["c"] = "no such block"
    with pytest.raises(ludus.MatchError, match="damaged"):
        Match.from_json(GAME, json.dumps(data))


def test_wrong_player_count_is_a_clear_error():
    with pytest.raises(ValueError, match="2 to 4 players, not 5"):
        GAME.new_match(5)


def test_counter_caps_may_depend_on_the_seat(tmp_path):
    game = game_from_text(tmp_path, """
game "Caps"
sides Big, Small
counter buttons per seat start 1 min 0 max (if seat == Big then 12 else 6)
flow:
    gain 20 buttons for Big
    gain 20 buttons for Small
    if buttons of Big == 12 and buttons of Small == 6:
        win Big
    win Small
""")
    assert game.new_match().result["winners"] == ["Big"]


FAILING_MOVE = """
game "Halfway"
players 2
counter coins per seat
action Gamble:
    gain 1 coins
    pay 5 coins
flow:
    repeat 3 times:
        for each s in seats:
            turn s:
                offer Gamble
"""


def test_a_move_that_fails_halfway_leaves_the_match_as_it_was(tmp_path):
    game = game_from_text(tmp_path, FAILING_MOVE)
    match = game.new_match(2)
    before, log_before = match.to_json(), list(match.log)
    with pytest.raises(ludus.RuleError, match="cannot pay"):
        match.apply("Gamble")
    assert match.to_json() == before  # the coin gained before the failing payment is gone too
    assert match.log == log_before
    assert match.history == [] and match.moves == []


def test_a_clone_and_its_original_undo_independently():
    match = GAME.new_match(2, seed=4)
    rng = random.Random(4)
    for _ in range(6):
        match.apply(rng.choice(match.legal_actions()))
    replayed = GAME.new_match(2, seed=4)  # what the original's undo must give back
    for label in match.moves[:-1]:
        replayed.apply(label)
    clone = match.clone()
    clone.undo()
    clone.force(6, 6, 6, 6)  # changes the clone's state in place after its undo
    clone.apply(clone.legal_actions()[-1])
    match.undo()
    assert match.to_json() == replayed.to_json()


@pytest.mark.parametrize("sides, values, words", [
    (0, (0,), "0 is not a face of any die"),
    (0, (1_000_001,), "1000001 is not a face of any die: a die has at most 1,000,000 faces"),
    (10**8, (5,), "a die has 1 to 1,000,000 faces, not 100,000,000"),
    (-6, (1,), "a die has 1 to 1,000,000 faces, not -6"),
    (6, (5, 9), "9 is not a face of a d6"),
])
def test_force_refuses_a_roll_no_die_can_show_and_forces_nothing(sides, values, words):
    match = GAME.new_match(2, seed=3)
    with pytest.raises(ValueError) as info:
        match.force(sides, *values)
    assert str(info.value) == words
    assert match.state["forced"] == []  # not the values before the bad one either
    match.force(0, 6)
    assert match.state["forced"] == [["die", 0, 6]]


def test_force_refuses_a_die_the_game_never_rolls():
    # a forced roll waits for its die: a d20 in a game of d6 would wait for ever
    match = GAME.new_match(2, seed=3)
    for sides, values, words in [(20, (3,), "Market Town never rolls a d20; it rolls a d6"),
                                 (0, (7,), "no die of Market Town shows 7; it rolls a d6")]:
        with pytest.raises(ValueError) as info:
            match.force(sides, *values)
        assert str(info.value) == words
    assert match.state["forced"] == []


NEVER_TAKEN = [
    (["order", "hand@0", ["Copper Coin"]],
     "Market Town never shuffles 'hand', so this order would never be used; it shuffles 'deck' and 'supply'"),
    (["die", 20, 3], "Market Town never rolls a d20; it rolls a d6"),
]


@pytest.mark.parametrize("entry, words", NEVER_TAKEN)
def test_match_new_refuses_a_forced_outcome_the_game_never_takes(entry, words):
    # as force_order, force, `ludus test`, replays and the REPL refuse it: it would wait for ever
    with pytest.raises(ValueError) as info:
        GAME.new_match(2, seed=1, forced=[entry])
    assert str(info.value) == f"forced: {words}"
    with pytest.raises(ValueError) as info:
        GAME.new_match(2, seed=1).force_order("hand@0", ["Copper Coin"])
    assert str(info.value) == NEVER_TAKEN[0][1]


@pytest.mark.parametrize("entry, words", NEVER_TAKEN)
def test_a_saved_match_with_a_forced_outcome_the_game_never_takes_does_not_load(entry, words):
    data = json.loads(GAME.new_match(2, seed=1).to_json())
    data["state"]["forced"] = [entry]
    with pytest.raises(MatchError) as info:
        Match.from_json(GAME, json.dumps(data))
    assert str(info.value) == f"the saved match is damaged: a forced outcome cannot be used: {words}"
    data["state"]["forced"] = [["order", "deck@0", ["Copper Coin"]], ["die", 6, 3]]  # ones it takes
    assert Match.from_json(GAME, json.dumps(data)).state["forced"] == data["state"]["forced"]


def test_a_forced_order_naming_a_card_not_in_the_zone_names_the_zone_as_the_game_does():
    with pytest.raises(ludus.RuleError, match=r"the order forced for the next shuffle of deck of Amber \(Guild Charter\) "
                                              r"names 'Guild Charter', and deck of Amber does not hold 'Guild Charter' "
                                              r"when it is shuffled"):
        GAME.new_match(2, seed=1, forced=[["order", "deck@0", ["Guild Charter"]]])


def test_a_seat_valued_var_shows_as_the_seats_name_in_views():
    uprising = ludus.load(EXAMPLES.parent / "games" / "uprising.ludus")
    match = uprising.new_match(2, seed=1)
    assert match.view(0)["counters"]["first_player"] in match.seat_names()
    assert match.view(None)["counters"]["first_player"] == match.seat_name(match.state["vars"].get("first_player", 0))


def test_apply_fast_leaves_the_state_and_log_apply_leaves():
    # Market Town offers "buy nothing" and "build nothing": answers that only the log records
    slow, fast = GAME.new_match(2, seed=9), GAME.new_match(2, seed=9)
    rng = random.Random(9)
    answers = 0
    while not slow.is_over:
        i = rng.randrange(len(slow.legal_actions()))
        answers += slow.pending["values"][i] is None
        slow.apply(i)
        fast.apply_fast(i)
    assert answers > 0
    assert fast.log == slow.log
    assert fast.state == slow.state


@pytest.mark.parametrize("index", [-1, 99])
def test_apply_fast_refuses_an_index_out_of_range_and_changes_nothing(index):
    match = GAME.new_match(2, seed=3)
    before = json.dumps(match.state, sort_keys=True)
    with pytest.raises(ludus.IllegalAction) as err:
        match.apply_fast(index)
    assert "not a legal move" in str(err.value)
    assert json.dumps(match.state, sort_keys=True) == before and match.log == GAME.new_match(2, seed=3).log
