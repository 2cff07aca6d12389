"""Positions and effect reports (ludus.testing, ludus.effect) and the test-block runner."""

from __future__ import annotations

import pytest

import ludus
from ludus.engine.effect import Effect, changes
from ludus.testing import Position, TestError
from tests.helpers import EXAMPLES, game_from_text

GAME = ludus.load(EXAMPLES / "market-town.ludus")


def position(**kw) -> Position:
    return Position(GAME, 2, **kw)


def test_resolve_runs_the_effect_apart_and_reports_chance_and_changes():
    pos = position()
    assert "buy Guild Charter" not in pos.match.legal_actions()  # 3 coins; it costs 6
    pos.next_roll(6, 5)
    pos.resolve("Fortune Teller", "Amber")
    assert pos.effect().report() == (
        "Fortune Teller, played by Amber\n"
        "chance:\n  d6 -> 5\n"
        "log:\n  Amber sees a 5 in the cards\n"
        "changes:\n  counter coins of Amber: 3 -> 6\n")
    # the flow's own decision is asked again, with fresh options
    assert pos.match.pending["prompt"] == "Amber: take an action"
    assert "buy Guild Charter" in pos.match.legal_actions()


def test_a_decision_inside_an_effect_waits_then_is_answered_and_recorded():
    pos = position()
    pos.resolve("Town Crier", "Basil")
    waiting = pos.effect()
    assert waiting.waiting == "Basil: Which quarter gets the stall?  (options: Docks, Square, Hill)"
    pos.answer("Square")
    done = pos.effect()
    assert done.title == "Town Crier, played by Basil"
    assert done.decisions == ["Basil: Which quarter gets the stall? -> Square  (options: Docks, Square, Hill)"]
    assert done.changes == ["token Basil Stall at Square: 0 -> 1"]
    assert done.waiting is None


def test_do_stops_right_after_the_action_and_the_next_step_goes_on():
    pos = position()
    pos.do("buy nothing")
    pos.do("build a stall in Hill")
    pos.expect("coins of Amber == 0")
    eff = pos.effect()
    assert eff.title == "Amber: buy nothing; Amber: build a stall in Hill"
    assert eff.changes == ["counter coins of Amber: 3 -> 0", "token Amber Stall at Hill: 0 -> 1"]
    pos.play_until("build nothing")  # the rules go on: Amber's turn ends, Basil's begins
    assert pos.match.pending["prompt"] == "Basil: take an action"


def test_triggers_of_an_effect_are_part_of_it():
    pos = position()
    pos.given("set mood to 2")
    pos.resolve("Street Musician", "Amber")
    assert pos.effect().changes == [
        "counter coins of Amber: 3 -> 4", "counter coins of Basil: 0 -> 1", "track mood: 2 -> 0"]


def test_effects_are_the_same_on_every_run():
    def run() -> str:
        pos = position(seed=3)
        pos.resolve("Fortune Teller")  # not forced: the seed decides, and the report says so
        return pos.effect().report()

    first = run()
    assert "(from the seed)" in first
    assert all(run() == first for _ in range(3))


@pytest.mark.parametrize("step, message", [
    (lambda p: p.resolve("Fortune Teler"), "unknown card 'Fortune Teler'; did you mean 'Fortune Teller'?"),
    (lambda p: p.resolve("Town Crier", "Amberr"), "unknown seat 'Amberr' (the seats are Amber, Basil); did you mean 'Amber'?"),
    (lambda p: p.resolve("Copper Coin"), "'Copper Coin' has no 'on play:' effect (it has none)"),
    (lambda p: p.do("buy Guild Chater"), "'buy Guild Chater' is not a legal move now; closest: buy Copper Coin"),
    (lambda p: p.given("pay 9 coins for Amber"), "cannot pay 9 coins: Amber has only 3"),
    (lambda p: p.given("set coins of Amber to"), "<given>:1:22: error: unexpected end of line"),
    (lambda p: p.next_roll(6, 7), "7 is not a face of a d6"),
    # a misspelt zone or card of a forced order gets the nearest name, as a test's line does
    (lambda p: p.next_order("dek@1", ["Copper Coin"]),
     "a forced order is for no zone 'dek@1' of the game; did you mean 'deck@1'?"),
    (lambda p: p.next_order("deck@0", ["Coper Coin"]),
     "a forced order names no card 'Coper Coin' of the game; did you mean 'Copper Coin'?"),
    # a test's `force order` line, in Python: what `ludus check` finds, in its words, and more
    (lambda p: p.force_order_line("dek", "Amber", ["Copper Coin"]), "unknown zone 'dek'; did you mean 'deck'?"),
    (lambda p: p.force_order_line("deck", None, ["Copper Coin"]),
     "zone 'deck' is kept per seat: name the seat, as in 'force order deck of Amber = ...'"),
    (lambda p: p.force_order_line("deck", "Ambr", ["Copper Coin"]), "unknown seat 'Ambr'; did you mean 'Amber'?"),
    (lambda p: p.force_order_line("deck", "Cobalt", ["Copper Coin"]),
     "no seat 'Cobalt' in this match (its seats are Amber, Basil)"),
    (lambda p: p.force_order_line("deck", "Amber", ["Coper Coin"]), "unknown card 'Coper Coin'; did you mean 'Copper Coin'?"),
    # more copies than the match holds: no rule can bring them to the shuffle (one elsewhere
    # waits for it: tests/testing/test_block_lines.py)
    (lambda p: p.force_order_line("deck", "Amber", ["Guild Charter"] * 4),
     "cannot force this order: the match holds 3 'Guild Charter', and the order names it 4 times"),
    # a zone the game never shuffles: the order would wait for ever, and the line do nothing;
    # said before the cards the hand holds are looked at
    (lambda p: p.force_order_line("hand", "Amber", ["Guild Charter"]),
     "Market Town never shuffles 'hand', so this order would never be used; it shuffles 'deck' and 'supply'"),
    (lambda p: p.next_order("hand@0", ["Copper Coin"]), "Market Town never shuffles 'hand'"),
    (lambda p: p.force_order_line("deck", "Amber", "Copper Coin"), "names is a list of card names, not 'Copper Coin'"),
    (lambda p: p.force_order_line("deck", 0, ["Copper Coin"]), "seat is a seat's name or None, not 0"),
    # a position's statements have the step budget of any run: an endless loop is an error, not a hang
    (lambda p: p.given("while true: set mood to 0"),
     "the rules ran 200000 steps without asking for a decision: 'given' seems to loop forever"),
])
def test_bad_steps_raise_readable_errors(step, message):
    with pytest.raises(TestError) as info:
        step(position())
    assert message in info.value.message or message in info.value.render()


def test_a_failing_expectation_shows_the_actual_values():
    pos = position()
    with pytest.raises(TestError) as info:
        pos.expect("coins of Amber == 4")
    assert info.value.message == "expected coins of Amber == 4"
    assert info.value.detail == "    coins of Amber is 3"


def test_resolving_while_an_effect_waits_is_refused():
    pos = position()
    pos.resolve("Town Crier")
    with pytest.raises(TestError, match="still waiting for Amber: Which quarter gets the stall?"):
        pos.resolve("Town Crier")


def test_big_zones_report_what_came_and_went():
    before = {"zone supply": ["A"] * 12 + ["B"], "zone hand": ["C", "C", "D"]}
    after = {"zone supply": ["A"] * 12, "zone hand": ["C", "C"]}
    assert changes(before, after) == [
        "zone supply: 13 cards -> 12 cards; - B", "zone hand: C x2, D -> C x2"]


def test_a_big_zone_emptied_to_one_card_says_card():
    before = {"zone hand": [f"K{i}" for i in range(13)]}
    after = {"zone hand": ["K0"]}
    assert changes(before, after) == ["zone hand: 13 cards -> 1 card; - K1, K10, K11, K12, K2, K3, K4, K5, K6, K7, K8, K9"]
    assert changes(after, before)[0].startswith("zone hand: 1 card -> 13 cards; + ")


def test_an_empty_effect_says_so():
    assert Effect("X").report() == "X\nchanges:\n  (nothing changed)\n"


def test_first_offers_reaches_every_action_and_do_replays_to_it():
    from ludus.testing import first_offers

    offers = first_offers(GAME, 2, seed=1)
    assert list(offers) == ["Buy", "Build"]
    moves, label = offers["Build"]
    pos = position(seed=1)
    for move in moves:
        pos.do(move)
    pos.effect()  # the report starts here
    pos.do(label)
    eff = pos.effect()
    assert eff.title == f"Amber: {label}"
    assert eff.decisions == [f"Amber: take an action -> {label}  (one of 4 options)"]


def test_a_flow_offer_of_a_single_move_is_the_only_option():
    pos = position()
    pos.do("buy nothing")
    pos.given("set coins of Amber to 0")  # too poor to build: not building is all there is
    pos.effect()  # the report starts at Amber's second offer
    pos.do("build nothing")
    assert pos.effect().decisions == ["Amber: take an action -> build nothing  (the only option)"]


WORN = '''game "Worn"
players 2
zone hand per seat
kind Tool:
    wear: number = 2
card "Saw" is Tool:
    on play:
        set this.wear to 0
card "File" is Tool:
    wear 5
    on play:
        set this.wear to this.wear + 1
card "Awl" is Tool:
    on play:
        set this.wear to 2
flow:
    move card("Saw") to hand of P1
    move card("File") to hand of P1
    move card("Awl") to hand of P1
    turn P1:
        choose x from [1, 2] "go"
    end game
'''


@pytest.mark.parametrize(("card", "changed"), [
    ("Saw", ["wear of Saw: 2 -> 0"]),      # from its kind's default, not from none
    ("File", ["wear of File: 5 -> 6"]),    # from what the card has written
    ("Awl", []),                                  # set to what it read already: no change
])
def test_a_property_set_the_first_time_is_reported_from_what_it_read(tmp_path, card, changed):
    pos = Position(game_from_text(tmp_path, WORN), 2)
    pos.resolve(card, "P1")
    assert pos.effect().changes == changed


def test_a_property_set_on_one_copy_names_that_copy(tmp_path):
    # named as views name it, not by the card's number in the state, nor by whose hand it is in
    text = WORN.replace('card "Saw" is Tool:', 'card "Saw" is Tool:\n    copies 2').replace(
        'move card("Saw") to hand of P1', 'move item(cards("Saw"), 2) to hand of P1')
    pos = Position(game_from_text(tmp_path, text), 2)
    pos.resolve("Saw", "P1")
    assert pos.effect().changes == ["wear of Saw (copy 2): 2 -> 0"]


SHOWN = '''game "Shown"
players 3
zone hand per seat owner only
card "Lamp"
card "Rope"
card "Coin":
    on play:
        reveal hand of P2 to P1
        reveal hand of P3
flow:
    move card("Lamp") to hand of P2
    move card("Rope") to hand of P3
    move card("Coin") to hand of P1
    turn P1:
        choose x from [1, 2] "go"
    end game
'''


def test_a_card_shown_to_some_seats_says_to_whom(tmp_path):
    # a Priest's look and a card turned up for the table read apart, so a snapshot changes when
    # a look meant for one seat is made public
    pos = Position(game_from_text(tmp_path, SHOWN), 3)
    pos.resolve("Coin", "P1")
    assert pos.effect().log == ["reveal Lamp to P1", "reveal Rope"]
