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
