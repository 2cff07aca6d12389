"""Changes made by no statement of their own are changes all the same: a var put back to its
start when its block ends, a shuffled deck, a track's start moved. `at any time` and
`when ... becomes true` see them at once, with the flow's runs of statements compiled to one
function (regions) and without them."""

from __future__ import annotations

import pytest

from tests.engine.test_regions import _fused, _without_regions
from tests.helpers import game_from_text

RESETS = '''game "Calm"
players 2
counter calm start 3 resets each round
counter alarms
when calm == 3 becomes true:
    increase alarms by 1
flow:
    for round in 1 to 4:
        turn P1:
            choose n from 0 to 2 "calm {calm}"
            if n == 1:
                decrease calm by 1
            if n == 2:
                decrease calm by 1
                break
    end game
at any time:
    if calm == 3:
        log "calm again"
'''

# the rounds run inside one region (no decision in them): a var put back as a round ends, or
# as a break leaves it, is seen before the next statement
IN_REGION = '''game "Rounds"
players 2
counter calm start 3 resets each round
counter other
flow:
    repeat 2 times:
        turn P1:
            decrease calm by 1
            choose n from 0 to 1 "break at once?"
            for round in 1 to 2:
                log "round {round}"
                increase other by 1
                if n == 1:
                    break
            log "after"
    end game
at any time:
    if calm == 3:
        log "calm again"
'''

DECK = '''game "Deck"
players 2
zone deck
card "Ace":
    copies 1
card "King":
    copies 1
card "Queen":
    copies 1
track mood from 0 to 5 start 0:
    end Calm from 5 to 5
flow:
    move box to deck
    repeat 4 times:
        turn P1:
            choose n from 0 to 2 "again?"
            if n == 1:
                shuffle deck
            if n == 2:
                set mood.start to mood.start + 1
    end game
at any time:
    log "{top(deck)} on top, start {mood.start}"
'''


def load(tmp_path, text, regions):
    game = game_from_text(tmp_path, text)
    if not regions:
        _without_regions(game)
    return game


def logged(m) -> list[str]:
    return [e["text"] for e in m.log if e["t"] == "log"]


@pytest.mark.parametrize("regions", [True, False])
def test_a_var_put_back_when_its_round_ends_is_seen_at_once(tmp_path, regions):
    game = load(tmp_path, RESETS, regions)
    m = game.new_match(2)
    m.apply("1")  # calm 2, then back to 3 as the round ends
    assert logged(m) == ["calm again"]
    assert m.view()["counters"]["alarms"] == 1
    assert m.pending["prompt"] == "P1: calm 3"
    m.apply("0")  # calm stays 3 all round: nothing is put back, nothing changes
    assert logged(m) == ["calm again"]
    m.apply("2")  # calm 2, and a break out of the round puts it back
    assert logged(m) == ["calm again", "calm again"]
    assert m.view()["counters"]["alarms"] == 2


@pytest.mark.parametrize("regions", [True, False])
def test_a_var_put_back_inside_a_run_of_statements_is_seen_before_the_next(tmp_path, regions):
    from ludus.compiler.pysource import ENABLED
    game = load(tmp_path, IN_REGION, regions)
    if regions and ENABLED:
        assert "flow" in _fused(game)  # so this tests them
    m = game.new_match(2)
    m.apply("0")
    assert logged(m) == ["round 1", "calm again", "round 2", "after"]
    m.apply("1")
    assert logged(m)[4:] == ["round 1", "calm again", "after"]


@pytest.mark.parametrize("regions", [True, False])
def test_a_shuffle_and_a_track_start_moved_are_seen_at_once(tmp_path, regions):
    game = load(tmp_path, DECK, regions)
    m = game.new_match(2, seed=3)
    seen = len(logged(m))  # the cards put in the deck were a change too
    assert seen >= 1
    m.apply("1")
    assert len(logged(m)) == seen + 1  # the shuffle
    m.apply("2")
    assert logged(m)[-1].endswith("start 1")
    assert len(logged(m)) == seen + 2
    m.apply("0")
    assert len(logged(m)) == seen + 2


# `when NAME changes:` for a var put back by `resets each`: one run per key whose value was not
# its start, as the block closes, with its old and new values and its key
SPEND = '''game "Spend"
players 2
counter spent per seat resets each round
flag tired resets each round
counter total
when spent changes:
    log "spent of {key}: {old} -> {new}"
when tired changes:
    log "tired: {old} -> {new}"
flow:
    for round in 1 to 2:
        for each s in seats:
            turn s:
                choose n from 0 to 3 "spend?"
                increase spent by n
                if n == 2:
                    decrease spent by 2
                if n == 3:
                    set tired to true
        log "round {round} ends"
    log "game ends"
    end game
'''

# no decision in the rounds: they run inside one region, and a break puts the var back too
SPEND_IN_REGION = '''game "Spend"
players 2
counter spent per seat start 1 resets each round
counter after
when spent changes:
    log "spent of {key}: {old} -> {new}"
    increase after by 1
flow:
    choose k from 1 to 2 "rounds?"
    for round in 1 to 3:
        increase spent of P2 by round
        if round == k:
            break
        log "round {round}"
    log "after {after}"
    end game
'''

# keys of other kinds: a space's name, a pair as the view names it (`P2 at South`; the state's
# own "1|South" said nothing to a player reading the log)
KEYS = '''game "Keys"
players 2
board land:
    region North
    region South
flag unstable per region resets each round
counter cubes per seat and region resets each round
when unstable changes:
    log "unstable {key}: {old} -> {new}"
when cubes changes:
    log "cubes {key}: {old} -> {new}"
flow:
    for round in 1 to 2:
        turn P1:
            choose r from regions "where?"
            set unstable of r to true
            increase cubes of P2 at r by 2
    end game
'''

MODES = ["regions", "no regions", "closures"]


def load_in(tmp_path, monkeypatch, text, mode):
    """The game with its generated regions, with them taken away, or compiled to closures only
    (as LUDUS_CLOSURES=1 does)."""
    from ludus.compiler import pysource
    monkeypatch.setattr(pysource, "ENABLED", mode != "closures")
    return load(tmp_path, text, mode == "regions")


@pytest.mark.parametrize("mode", MODES)
def test_a_var_put_back_fires_its_changes_trigger_once_per_key_as_the_block_closes(tmp_path, monkeypatch, mode):
    m = load_in(tmp_path, monkeypatch, SPEND, mode).new_match(2)
    m.apply("1")  # P1 spends 1
    m.apply("2")  # P2 spends 2 and takes it back: kept as 0, its start, so not put back
    assert logged(m) == ["spent of P1: 0 -> 1", "spent of P2: 0 -> 2", "spent of P2: 2 -> 0",
                         "round 1 ends", "spent of P1: 1 -> 0"]
    m.apply("0")
    m.apply("3")
    assert logged(m)[5:] == ["spent of P2: 0 -> 3", "tired: no -> yes", "round 2 ends",
                             "spent of P2: 3 -> 0", "tired: yes -> no", "game ends"]


@pytest.mark.parametrize("mode", MODES)
def test_a_var_put_back_inside_a_run_of_statements_fires_before_the_next(tmp_path, monkeypatch, mode):
    game = load_in(tmp_path, monkeypatch, SPEND_IN_REGION, mode)
    if mode == "regions":
        assert "flow" in _fused(game)  # so this tests them
    m = game.new_match(2)
    m.apply("2")  # round 1 ends, round 2 breaks out
    assert logged(m) == ["spent of P2: 1 -> 2", "round 1", "spent of P2: 2 -> 1",
                         "spent of P2: 1 -> 3", "spent of P2: 3 -> 1", "after 4"]
    m = game.new_match(2)
    m.apply("1")
    assert logged(m) == ["spent of P2: 1 -> 2", "spent of P2: 2 -> 1", "after 2"]


@pytest.mark.parametrize("mode", MODES)
def test_a_var_put_back_names_its_space_or_pair_as_its_key(tmp_path, monkeypatch, mode):
    m = load_in(tmp_path, monkeypatch, KEYS, mode).new_match(2)
    m.apply("South")
    m.apply("North")
    assert logged(m) == ["unstable South: no -> yes", "cubes P2 at South: 0 -> 2",
                         "unstable South: yes -> no", "cubes P2 at South: 2 -> 0",
                         "unstable North: no -> yes", "cubes P2 at North: 0 -> 2",
                         "unstable North: yes -> no", "cubes P2 at North: 2 -> 0"]


# keys put back as a round ends fire in the order the view lists them: spaces as the board
# declares them (not by name), cards by number (card 10 after card 2, not as texts)
PUT_BACK_ORDER = '''game "Order"
players 2
board land:
    region South
    region North
zone table
card "Rope":
    copies 12
flag unstable per region resets each round
counter marks per seat and Card resets each round
when unstable changes:
    log "unstable {key}: {old} -> {new}"
when marks changes:
    log "marks {key}: {old} -> {new}"
flow:
    for round in 1 to 1:
        set unstable of North to true
        set unstable of South to true
        increase marks of P1 at item(cards("Rope"), 11) by 1
        increase marks of P1 at item(cards("Rope"), 3) by 1
    turn P1:
        choose n from 0 to 1 "go"
    end game
'''


@pytest.mark.parametrize("mode", MODES)
def test_keys_put_back_fire_in_the_order_the_view_lists_them(tmp_path, monkeypatch, mode):
    m = load_in(tmp_path, monkeypatch, PUT_BACK_ORDER, mode).new_match(2)
    assert logged(m)[4:] == ["unstable South: yes -> no", "unstable North: yes -> no",
                             "marks P1 at Rope (copy 3): 1 -> 0", "marks P1 at Rope (copy 11): 1 -> 0"]


# a pair of a seat and a card: the card by its name and which copy it is, as the view's row
PAIR_CARD = '''game "Marks"
players 2
zone table
card "Rope":
    copies 2
counter marks per seat and Card
when marks changes:
    log "marks of {key}: {old} -> {new}"
flow:
    move item(cards("Rope"), 2) to table
    increase marks of P2 at item(cards("Rope"), 2) by 1
    turn P1:
        choose n from 0 to 1 "go"
    end game
'''


@pytest.mark.parametrize("mode", MODES)
def test_a_pair_with_a_card_names_the_card_as_the_view_does(tmp_path, monkeypatch, mode):
    m = load_in(tmp_path, monkeypatch, PAIR_CARD, mode).new_match(2)
    assert logged(m) == ["marks of P2 at Rope (copy 2): 0 -> 1"]
    assert list(m.view(None)["counters"]["marks"]) == ["P2 at Rope (copy 2)"]


# two cards, copies and a name holding the word between a pair's parts: a trigger's key reads
# as the view's row names the pair (both name a key's parts by one helper, view._parts_named)
PAIR_CARDS = '''game "Links"
players 2
zone table
zone box
card "A at B":
    copies 2
card "C"
counter links per Card and Card
when links changes:
    log "{key}"
setup:
    move cards("A at B") to table
    move cards("C") to box
flow:
    increase links of item(cards("A at B"), 2) at card("C") by 1
    increase links of card("C") at item(cards("A at B"), 1) by 2
    turn P1:
        choose n from 0 to 1 "go"
    end game
'''


@pytest.mark.parametrize("mode", MODES)
def test_a_pair_of_cards_names_its_key_as_the_view_does(tmp_path, monkeypatch, mode):
    m = load_in(tmp_path, monkeypatch, PAIR_CARDS, mode).new_match(2)
    assert logged(m) == ['"A at B (copy 2)" at "C"', '"C" at "A at B"']
    assert list(m.view(None)["counters"]["links"]) == logged(m)


# a var kept per card: `key` is the card, named as `{c}` names one and read as one (`key.cost`);
# it was the card's number, typed as anything
PER_CARD = '''game "Charge"
players 2
zone table
kind Gadget:
    cost: number
card "Lamp" is Gadget:
    cost 3
card "Rope" is Gadget:
    cost 2
counter charge per Gadget resets each round
when charge changes:
    log "charge of {key} (cost {key.cost}): {old} -> {new}"
flow:
    for round in 1 to 1:
        increase charge of item(cards("Rope"), 1) by 1
    turn P1:
        choose n from 0 to 1 "go"
    end game
'''


@pytest.mark.parametrize("mode", MODES)
def test_a_var_kept_per_card_gives_its_trigger_the_card_as_key(tmp_path, monkeypatch, mode):
    m = load_in(tmp_path, monkeypatch, PER_CARD, mode).new_match(2)
    assert logged(m) == ["charge of Rope (cost 2): 0 -> 1", "charge of Rope (cost 2): 1 -> 0"]


# a per-seat var given a text as its key, through a rule's parameter without a type (the
# checker cannot tell): the rule is stopped where it sets it, as a state holding it could be
# saved and not loaded again
ODD_KEY = '''game "Odd"
players 2
counter spent per seat resets each round
when spent changes:
    log "spent of {key}: {old} -> {new}"
rule spend_on(who):
    increase spent of who by 1
flow:
    for round in 1 to 1:
        spend_on("x")
        turn P1:
            choose n from 0 to 1 "go"
    end game
'''


@pytest.mark.parametrize("mode", MODES)
def test_a_per_seat_var_given_a_key_that_is_no_seat_stops_the_rule(tmp_path, monkeypatch, mode):
    from ludus.engine.runtime import RuleError

    with pytest.raises(RuleError, match=r"game.ludus:7:5: error: counter 'spent' is kept per seat, and 'x' names no such thing"):
        load_in(tmp_path, monkeypatch, ODD_KEY, mode).new_match(2)
