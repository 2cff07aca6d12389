"""Stonewall Uprising, two players: the rulebook's worked examples and each rule, from
described positions. The Man holds the first player token, so every match opens on its turn."""

from __future__ import annotations

import random

import pytest

import ludus
from ludus.testing import Position
from tests.helpers import GAMES, play_random

GAME = ludus.load(GAMES / "stonewall-uprising" / "stonewall-uprising.ludus")


def card(name: str) -> str:
    return f'card("{name}")'


def position(seed: int = 1) -> Position:
    return Position(GAME, seed=seed)


def hands(pos: Position, pride: list[str], man: list[str]) -> None:
    """Replace both hands with these cards (from wherever they are)."""
    pos.given("move hand of Pride to deck of Pride")
    pos.given("move hand of TheMan to deck of TheMan")
    for name in pride:
        pos.given(f'move first([c for c in cards("{name}") where c.loc != hand of Pride]) to hand of Pride')
    for name in man:
        pos.given(f'move first([c for c in cards("{name}") where c.loc != hand of TheMan]) to hand of TheMan')


def test_marsha_p_johnson_example():
    """Rulebook, Playing cards: Marsha P. Johnson moves Public Support 2 toward Pride into the
    end zone, the Overton Window down 1, and the end zone pays a d6; the cube goes back to S."""
    pos = position()
    hands(pos, ["Marsha P. Johnson"], ["City Ordinance"])
    pos.given("set public to 2")
    pos.do("play City Ordinance")
    pos.expect("systemic == -1")
    pos.next_roll(6, 5)
    pos.do("play Marsha P. Johnson")
    pos.expect("overton == 29")
    pos.expect("pool == [6] and pool_total == 5")
    pos.expect("public == 0")                     # reset to S
    pos.expect("event_tokens of Pride == 1")      # the end zone placed an event token
    pos.expect(f"{card('Marsha P. Johnson')}.loc == played of Pride")


def test_market_example_two_cards_of_2_or_one_of_4_on_top_of_the_deck():
    """Rulebook, Market Phase: a 3 and a 2 in hand buy two 2-cost cards (or one 4-cost card);
    with only 2 cards to pay with they go on top of the deck, and the 1 left over is lost."""
    pos = position()
    hands(pos, ["Frank Kameny", "Marsha P. Johnson"], ["City Ordinance"])
    pos.do("fold")                 # The Man folds first: a push toward Pride
    pos.answer("systemic")
    pos.do("fold")                 # Pride folds too, keeping both cards
    pos.do("stop buying")          # The Man, first in turn order, buys nothing
    pos.run_on()
    options = pos.match.legal_actions()
    # 5 to spend: every 60s card in a slot costing 5 or less
    assert "buy Sylvia Rivera from slot D for 4" in options and "buy Frank Kameny from slot F for 5" not in options
    pos.do("buy Mattachine Society from slot A for 2")
    pos.do("buy Daughters of Bilitis from slot B for 2")
    # 1 left: nothing costs 1, and the slots' next cards (the 70s) wait for their decade
    pos.run_on()
    assert pos.match.legal_actions() == ["stop buying"]
    pos.do("stop buying")
    pos.expect('top(deck of Pride).name == "Daughters of Bilitis"')
    pos.expect('item(deck of Pride, 2).name == "Mattachine Society"')
    pos.run_on()                   # the next round: the purchases are drawn first; the 1 is gone
    pos.expect(f"{card('Daughters of Bilitis')}.loc == hand of Pride and {card('Mattachine Society')}.loc == hand of Pride")
    pos.expect("spending of Pride == 0")


def test_market_one_4_cost_card_instead():
    pos = position()
    hands(pos, ["Frank Kameny", "Marsha P. Johnson"], ["City Ordinance"])
    pos.do("fold")
    pos.answer("systemic")
    pos.do("fold")
    pos.do("stop buying")
    pos.do("buy Sylvia Rivera from slot D for 4")
    pos.run_on()
    assert pos.match.legal_actions() == ["stop buying"]
    pos.expect('top(deck of Pride).name == "Sylvia Rivera"')


def test_with_three_cards_to_pay_bought_cards_go_to_the_discard():
    pos = position()
    hands(pos, ["Frank Kameny", "Marsha P. Johnson", "Bar Regulars"], ["City Ordinance"])
    pos.do("fold")
    pos.answer("systemic")
    pos.do("fold")
    pos.do("stop buying")
    pos.do("buy Mattachine Society from slot A for 2")
    pos.expect(f"{card('Mattachine Society')}.loc == discard of Pride")


def test_the_first_fold_pushes_doubles_and_earns_extra_cards_the_second_does_nothing():
    pos = position()
    hands(pos, ["Letter Campaign", "Bar Regulars", "Homophile Pamphlets"], ["City Ordinance", "Beat Cop"])
    pos.given("set public to 3")
    pos.do("fold")
    # The Man pushes toward Pride's end zone, but never into it: Public Support (at 3) is not offered
    assert pos.match.legal_actions() == ["systemic", "individual"]
    pos.answer("individual")
    pos.expect("individual == 1 and doubled of Pride and not doubled of TheMan")
    pos.do("play Letter Campaign")            # value 1, doubled
    pos.expect("systemic == 2")
    pos.expect("extra_cards of TheMan == 1")  # one token per card played after the fold
    pos.do("play Bar Regulars")
    pos.expect("extra_cards of TheMan == 2 and individual == 3")
    pos.do("fold")                            # the second fold: nothing more happens
    pos.expect("not doubled of TheMan and systemic == 2 and public == 3 and individual == 3")


def test_extra_card_tokens_draw_more_next_round_then_go_back():
    pos = position()
    hands(pos, [], ["City Ordinance"])
    pos.given("set extra_cards of Pride to 2")
    pos.do("play City Ordinance")   # Pride has no card: it passes without folding; The Man is out too
    pos.do("stop buying")
    pos.do("stop buying")
    pos.run_on()                    # the next round: both draw
    pos.expect("size(hand of Pride) == 7 and extra_cards of Pride == 0")
    pos.expect("size(hand of TheMan) == 5")


def test_playing_out_your_hand_is_not_a_fold():
    pos = position()
    hands(pos, ["Bar Regulars"], ["City Ordinance", "Beat Cop"])
    pos.do("play City Ordinance")
    pos.do("play Bar Regulars")      # Pride's last card: Pride is out, but has not folded
    pos.do("play Beat Cop")
    pos.expect("not folded of Pride and not doubled of TheMan and extra_cards of Pride == 0")


def test_detaining_takes_from_the_discard_pride_choosing_then_from_the_deck():
    pos = position()
    hands(pos, [], ["Police Raid"])
    pos.given(f"move {card('Frank Kameny')} to discard of Pride")
    pos.do("play Police Raid")       # detain 2: one in the discard, then the deck's top card
    assert pos.match.pending["prompt"] == "Pride: Which of your people is detained?"
    pos.answer("Frank Kameny")
    pos.expect("size(detained) == 2")
    pos.expect(f"{card('Frank Kameny')}.loc == detained")


def test_undetaining_lets_pride_pick_who_returns_to_the_discard():
    pos = position()
    hands(pos, ["Lavender Menace"], ["City Ordinance"])
    for name in ("Harvey Milk", "ACT UP", "Lambda Legal"):
        pos.given(f"move {card(name)} to detained")
    pos.do("play City Ordinance")
    pos.do("play Lavender Menace")   # undetain 2
    pos.answer("ACT UP")
    pos.answer("Lambda Legal")
    pos.expect(f"{card('ACT UP')}.loc == discard of Pride and {card('Lambda Legal')}.loc == discard of Pride")
    pos.expect(f"{card('Harvey Milk')}.loc == detained")


def test_demoralizing_is_random_among_the_detained_and_permanent():
    pos = position()
    hands(pos, [], ["Psychiatric Diagnosis"])
    for name in ("Harvey Milk", "ACT UP"):
        pos.given(f"move {card(name)} to detained")
    pos.do("play Psychiatric Diagnosis")
    pos.expect("size(demoralized) == 1 and size(detained) == 1")


def test_demoralizing_more_than_are_detained_in_the_two_player_game():
    """Decision 9: only the automa detains for the shortfall; here it stops at the detained."""
    pos = position()
    hands(pos, [], ["Conversion Clinics"])
    pos.do("play Conversion Clinics")   # demoralize 1 (no one is detained), then detain 1
    pos.expect("size(demoralized) == 0 and size(detained) == 1")


def test_the_man_wins_at_ten_demoralized():
    pos = position()
    hands(pos, [], ["Psychiatric Diagnosis"])
    for name in ("Homophile Pamphlets", "Bar Regulars", "Letter Campaign"):
        pos.given(f'move cards("{name}") to demoralized')
    pos.given(f"move {card('Sympathetic Lawyer')} to demoralized")
    pos.given(f"move {card('Harvey Milk')} to detained")
    pos.expect("size(demoralized) == 9")
    pos.do("play Psychiatric Diagnosis")
    assert pos.match.result["winners"] == ["TheMan"]


def test_pride_wins_when_the_pool_rolls_at_least_the_window():
    pos = position()
    hands(pos, ["Marsha P. Johnson"], ["City Ordinance"])
    pos.given("set pool to [10, 10]")
    pos.given("set overton to 23")
    pos.given("set public to 2")
    pos.do("play City Ordinance")
    pos.next_roll(10, 7, 9)
    pos.next_roll(6, 6)
    pos.do("play Marsha P. Johnson")   # window to 22; a d6: the pool rolls 7 + 9 + 6 = 22
    assert pos.match.result["winners"] == ["Pride"]


def test_pride_wins_when_the_window_comes_down_to_the_pool():
    pos = position()
    hands(pos, ["Frank Kameny"], ["City Ordinance"])
    pos.given("set pool to [10, 10]")
    pos.given("set pool_total to 14")
    pos.given("set overton to 15")
    pos.do("play City Ordinance")
    pos.do("play Frank Kameny")        # the window down 1, to 14: the pool's total
    assert pos.match.result["winners"] == ["Pride"]


def test_gained_dice_respect_the_components():
    """Decision 5: with both d6s in the pool, a d6 won becomes a d4."""
    pos = position()
    hands(pos, ["Marsha P. Johnson"], ["City Ordinance"])
    pos.given("set pool to [6, 6]")
    pos.given("set public to 2")
    pos.do("play City Ordinance")
    pos.do("play Marsha P. Johnson")
    pos.expect("pool == [6, 6, 4]")


def test_a_law_token_acts_only_where_the_marker_stops_then_returns():
    pos = position()
    hands(pos, ["Homophile Pamphlets", "Frank Kameny"], ["City Ordinance", "Beat Cop"])
    pos.given("add 1 Law to space(public, 1)")
    pos.given("add 1 Law to space(systemic, 1)")
    pos.given("set law_supply to 1")
    pos.do("play City Ordinance")      # systemic -1
    pos.do("play Frank Kameny")        # systemic -1 + 3 = 2: passes the Law token on 1
    pos.expect("Law at space(systemic, 1) == 1 and systemic == 2")
    pos.do("play Beat Cop")            # public -1
    pos.do("play Homophile Pamphlets") # public back to 0: no token there
    pos.expect("public == 0 and Law at space(public, 1) == 1")


def test_landing_on_a_law_token_triggers_it():
    pos = position()
    hands(pos, ["Homophile Pamphlets"], ["City Ordinance"])
    pos.given("add 1 Law to space(public, 1)")
    pos.given("set law_supply to 2")
    pos.do("play City Ordinance")
    pos.do("play Homophile Pamphlets")  # lands on 1: the token pushes it back toward The Man
    pos.expect("public == 0 and Law at space(public, 1) == 0 and law_supply == 3")


def test_the_man_places_law_tokens_anywhere_outside_the_end_zones():
    pos = position()
    hands(pos, [], ["Entrapment Sting"])
    pos.do("play Entrapment Sting")
    pos.answer("individual")
    spaces = pos.match.legal_actions()
    assert spaces == ["-3", "-2", "-1", "1", "2", "3"]   # not in an end zone, not under the marker
    pos.answer("-2")
    pos.expect("Law at space(individual, -2) == 1 and law_supply == 2")


def test_the_s_token_moves_but_never_onto_an_end_zone():
    pos = position()
    hands(pos, ["Mattachine Society", "Gay Liberation Front"], ["City Ordinance", "Beat Cop"])
    pos.given("set public.start to 2")
    pos.do("play City Ordinance")
    pos.do("play Mattachine Society")      # S from 2 to 3
    pos.expect("public.start == 3")
    pos.do("play Beat Cop")
    pos.do("play Gay Liberation Front")    # 4 would be Pride's end zone: S stays on 3
    pos.expect("public.start == 3")


def test_end_zone_resets_to_the_moved_s():
    pos = position()
    hands(pos, ["Marsha P. Johnson"], ["City Ordinance"])
    pos.given("set public.start to 2")
    pos.given("set public to 2")
    pos.do("play City Ordinance")
    pos.do("play Marsha P. Johnson")
    pos.expect("public == 2")


def test_crossing_deckthin_tokens_lets_the_man_remove_a_card_each():
    pos = position()
    hands(pos, ["Harvey Milk"], ["City Ordinance"])
    pos.given("set overton to 25")
    pos.do("play City Ordinance")
    pos.do("play Harvey Milk")           # the window from 25 to 23: crosses the token on 24
    assert pos.match.pending["prompt"] == "TheMan: Which card of yours leaves the game?"
    pos.answer("City Ordinance")
    pos.expect("DeckThin at space(overton, 24) == 0 and DeckThin at space(overton, 21) == 1")
    pos.expect('any(c.loc == removed for c in cards("City Ordinance"))')


def test_landing_on_a_deckthin_token_counts_too():
    pos = position()
    hands(pos, ["Frank Kameny"], ["City Ordinance"])
    pos.given("set overton to 28")
    pos.do("play City Ordinance")
    pos.do("play Frank Kameny")          # 28 to 27, the token's space
    pos.expect("DeckThin at space(overton, 27) == 0")


def test_retaliation_dice_join_the_pool_when_the_man_buys_their_card():
    pos = position()
    hands(pos, ["Sylvia Rivera"], ["City Ordinance", "Beat Cop", "Beat Cop", "Beat Cop"])
    pos.do("play City Ordinance")
    pos.do("play Sylvia Rivera")
    pos.answer("ManC")
    pos.expect("Retaliation at ManC == 1 and retaliation_left == 3")
    pos.do("fold")                       # Pride has played its last card: the Market Phase, The Man first
    pos.answer("systemic")
    pos.next_roll(4, 3)
    pos.do("buy Lavender Scare from slot C for 3")
    pos.expect("pool == [4] and pool_total == 3 and Retaliation at ManC == 0")


def test_the_man_buying_in_the_80s_moves_the_aids_death_track():
    pos = position()
    hands(pos, [], ["Beat Cop", "Beat Cop", "Beat Cop"])
    pos.given("set decade to 80")
    for slot in ("ManA", "ManB"):
        pos.given(f"move [c for c in {slot} where c.decade < 80] to removed")
    pos.do("fold")
    pos.answer("systemic")
    pos.do("buy Underfunded Research from slot B for 2")   # The Man buys first
    pos.expect("aids_deaths == 2")


def test_a_full_event_track_changes_the_decade():
    pos = position()
    hands(pos, ["Marsha P. Johnson"], ["City Ordinance"])
    pos.given("set event_tokens of Pride to 3")
    pos.given("set event_tokens of TheMan to 1")
    pos.given("set public to 2")
    pos.do("play City Ordinance")
    pos.do("play Marsha P. Johnson")     # the fifth token: the track is full
    pos.expect("event_tokens of Pride == 4")
    # both sides are out of cards: the round ends and the event track resolves
    pos.play_until("stop buying")
    pos.expect("decade == 70")
    pos.expect("event_tokens of Pride == 0 and event_tokens of TheMan == 0")
    pos.expect("size(event_in_effect) == 1 and boost_side == Pride")
    # the 60s cards nobody bought left the game; the 70s are on top
    pos.expect('top(PrideA).name == "Gay Liberation Front" and top(ManA).name == "Anita Bryant Campaign"')
    pos.expect(f"{card('Mattachine Society')}.loc == removed")


def test_a_full_track_takes_no_more_tokens():
    pos = position()
    hands(pos, ["Marsha P. Johnson"], ["City Ordinance"])
    pos.given("set event_tokens of Pride to 3")
    pos.given("set event_tokens of TheMan to 2")
    pos.given("set public to 2")
    pos.do("play City Ordinance")
    pos.do("play Marsha P. Johnson")
    pos.expect("event_tokens of Pride == 3")


def test_an_event_boosts_the_flipping_sides_cards_on_its_track():
    pos = position()
    hands(pos, ["Homophile Pamphlets"], ["City Ordinance"])
    pos.given("set boost_track to item(tracks, 2)")    # the track Public Support itself
    pos.given("set boost_side to Pride")
    pos.do("play City Ordinance")
    pos.do("play Homophile Pamphlets")   # value 1, +1 from the event
    pos.expect("public == 2")


# ── the rules that decide the match, each resolved alone from a written position ──


def test_the_side_with_more_event_tokens_flips_the_decades_event():
    """Rulebook, Resolving the Event Track: when the track is full the player with the most
    tokens flips an Event card of the current decade; the tokens come off and the next decade
    begins. Here The Man holds more of them."""
    pos = position()
    pos.given("set event_tokens of Pride to 2")
    pos.given("set event_tokens of TheMan to 3")
    pos.resolve_rule("resolve_event_track()")
    pos.expect("boost_side == TheMan")
    # the var says no type, and holds a seat wherever it is set: it is shown by the seat's name
    assert "  var boost_side: none -> TheMan\n" in str(pos.effect())
    assert pos.show("boost_side") == "TheMan"
    pos.expect("size(event_in_effect) == 1 and first(e.decade for e in event_in_effect) == 60")
    pos.expect("event_tokens of Pride == 0 and event_tokens of TheMan == 0 and decade == 70")


def test_an_event_track_not_yet_full_is_left_alone():
    pos = position()
    pos.given("set event_tokens of Pride to 2")
    pos.given("set event_tokens of TheMan to 2")
    pos.resolve_rule("resolve_event_track()")
    pos.expect("decade == 60 and size(event_in_effect) == 0")
    pos.expect("event_tokens of Pride == 2 and event_tokens of TheMan == 2")
    pos.expect('top(PrideA).name == "Mattachine Society"')   # the 60s market stays


def test_end_zones_resolve_systemic_first_and_the_last_event_space_goes_to_it():
    """Rulebook, the solo rules' order for end zones reached together (decision 2, both
    modes): Systemic, Public, Individual. Each end zone places an event token while the track
    has room; a full track takes no more. Each marker goes back to its S."""
    pos = position()
    pos.given("set event_tokens of Pride to 2")
    pos.given("set event_tokens of TheMan to 2")
    pos.given("set individual to -4")    # The Man's end zone, listed last
    pos.given("set systemic to 4")       # Pride's end zone, listed first
    pos.resolve_rule("resolve_end_zones()")
    pos.expect("event_tokens of Pride == 3 and event_tokens of TheMan == 2")
    pos.expect("systemic == 0 and individual == 0")
    pos.expect("overton == 29")          # Pride's Systemic reward: the window down 1



def test_after_the_80s_event_no_decade_begins():
    """Rulebook: only three Event cards are drawn a game, one per decade. A full track after
    the 80s' event is only emptied (decision 10), and the log never announces a 90s."""
    pos = position()
    pos.given("set decade to 80")
    pos.given("set event_tokens of Pride to 5")
    pos.resolve_rule("resolve_event_track()")
    texts = [e["text"] for e in pos.match.log if e["t"] == "log"]
    assert texts[-1] == "the 80s are over: no Event card is left to flip"
    pos.expect("decade == 90 and size(event_in_effect) == 1")
    pos.given("set event_tokens of TheMan to 5")
    pos.resolve_rule("resolve_event_track()")
    texts = [e["text"] for e in pos.match.log if e["t"] == "log"]
    assert not any("90s" in t for t in texts)
    earlier = position()                 # the 60s' full track, by contrast, announces the 70s
    earlier.given("set decade to 60")
    earlier.given("set event_tokens of Pride to 5")
    earlier.resolve_rule("resolve_event_track()")
    assert "the 70s begin" in [e["text"] for e in earlier.match.log if e["t"] == "log"]
    pos.expect("decade == 90 and size(event_in_effect) == 0 and event_tokens of TheMan == 0")

def test_a_first_fold_with_no_legal_push_pushes_nothing_but_still_doubles():
    """Rulebook, Folding: the first fold pushes a cube one space toward the opponent, never
    into an end zone; with no legal space no cube is pushed. The doubling still applies."""
    pos = position()
    hands(pos, ["Bar Regulars"], ["City Ordinance"])
    for t in ("systemic", "public", "individual"):
        pos.given(f"set {t} to 3")        # one more step would be in Pride's end zone
    pos.do("fold")                        # no marker to choose: the fold is done at once
    pos.expect("systemic == 3 and public == 3 and individual == 3")
    pos.expect("folded of TheMan and doubled of Pride")
    pos.run_on()
    assert pos.match.pending["seat"] == 0 and "play Bar Regulars" in pos.match.legal_actions()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_matches_end_with_a_result(seed):
    m = GAME.new_match(2, seed=seed)
    play_random(m, random.Random(seed), limit=20000)
    assert m.is_over


# ── the audit against the rulebook: edge cases the first encoding missed ──


def test_a_retaliation_die_with_no_card_of_the_man_to_sit_on_stays_in_the_supply():
    """Rulebook, Retaliation Dice: they are placed onto cards in The Man's market. With every
    slot empty (after the 80s' event, say) there is nothing to place one on: the die is not used."""
    pos = position()
    hands(pos, ["Sylvia Rivera"], ["City Ordinance"])
    pos.given("move [c for c in ManCards where c.decade > 0] to removed")
    pos.do("play City Ordinance")
    pos.do("play Sylvia Rivera")
    pos.expect("retaliation_left == 4")


def test_the_plain_d4s_are_two_and_retaliation_dice_are_not_among_them():
    """Decision 5: 12 dice, 6 of them d4s, 4 of those the red Retaliation dice: 2 plain d4s.
    With both d6s taken a d6 won becomes a plain d4 while one is free, red dice or not."""
    pos = position()
    hands(pos, ["Marsha P. Johnson"], ["City Ordinance"])
    pos.given("set pool to [6, 6, 4, 4, 4, 4]")   # the 4 red dice, all in the pool; no plain d4
    pos.given("set retaliation_left to 0")
    pos.given("set public to 2")
    pos.do("play City Ordinance")
    pos.do("play Marsha P. Johnson")
    pos.expect("pool == [6, 6, 4, 4, 4, 4, 4]")


def test_with_both_plain_d4s_in_the_pool_a_d4_won_is_lost():
    pos = position()
    hands(pos, ["Marsha P. Johnson"], ["City Ordinance"])
    pos.given("set pool to [6, 6, 4, 4]")         # no red die placed: both d4s are plain
    pos.given("set public to 2")
    pos.do("play City Ordinance")
    pos.do("play Marsha P. Johnson")
    pos.expect("pool == [6, 6, 4, 4] and public == 0")


def test_an_event_that_moves_a_marker_into_an_end_zone_resolves_it_at_once():
    """Rulebook, The Three Tracks: once a cube lands in an end zone its effect resolves and the
    cube goes back to S. Stonewall Inn Raid's pink side moves Public Support 2 toward Pride;
    from 3 that is 2 deep in Pride's end zone: a d8. The event track is full, so no token."""
    pos = position()
    pos.given("set event_tokens of Pride to 3")
    pos.given("set event_tokens of TheMan to 2")
    pos.given("set public to 3")
    pos.given(f"move {card('Stonewall Inn Raid')} to event_deck")   # the 60s' card on top
    pos.next_roll(8, 5)
    pos.resolve_rule("resolve_event_track()")
    pos.expect(f"{card('Stonewall Inn Raid')}.loc == event_in_effect")
    pos.expect("public == 0 and pool == [8] and pool_total == 5")
    pos.expect("event_tokens of Pride == 0 and event_tokens of TheMan == 0 and decade == 70")


def test_a_fold_push_that_lands_on_a_law_token_triggers_it():
    """Rulebook, Law Tokens: a token acts when the cube lands on its space, however it got
    there. The Man folds first and pushes Public Support onto a Law token on 1: the token
    pushes it back toward The Man and returns to the supply."""
    pos = position()
    hands(pos, ["Bar Regulars"], ["City Ordinance"])
    pos.given("add 1 Law to space(public, 1)")
    pos.given("set law_supply to 2")
    pos.do("fold")
    pos.answer("public")
    pos.expect("public == 0 and Law at space(public, 1) == 0 and law_supply == 3")


def test_a_law_token_that_pushes_a_folded_marker_into_an_end_zone_resolves_it():
    """The fold's own push never enters an end zone, but a Law token it lands on may carry the
    marker on into The Man's end zone (decision 29): the end zone resolves as for any move."""
    pos = position()
    hands(pos, ["Bar Regulars", "Letter Campaign"], ["City Ordinance", "Beat Cop"])
    pos.given("add 1 Law to space(public, -3)")
    pos.given("set law_supply to 2")
    pos.given("set public to -2")
    pos.do("play City Ordinance")
    pos.do("fold")                       # Pride folds first: Public Support -2 to -3, the token: -4
    pos.answer("public")                 # The Man's Public Support end zone: 1 detained
    pos.expect("public == 0 and event_tokens of TheMan == 1 and size(detained) == 1")
    pos.expect("Law at space(public, -3) == 0 and law_supply == 3")


def test_messages_name_the_man_as_the_rulebook_writes_it():
    """What a player reads: "The Man", not the seat's identifier, and one die is a die."""
    pos = position()
    hands(pos, ["Bar Regulars"], ["City Ordinance", "Beat Cop"])
    pos.given("set systemic to -3")
    pos.do("play City Ordinance")        # Systemic to -4: The Man's end zone
    pos.do("fold")
    assert pos.match.pending["prompt"] == "Pride: Which marker do you push toward The Man?"
    texts = [e["text"] for e in pos.match.log if e["t"] == "log"]
    assert "The Man reaches systemic's end zone, 1 deep" in texts


def test_one_retaliation_die_joining_the_pool_is_told_as_one_die():
    pos = position()
    hands(pos, ["Sylvia Rivera"], ["City Ordinance", "Beat Cop", "Beat Cop", "Beat Cop"])
    pos.do("play City Ordinance")
    pos.do("play Sylvia Rivera")
    pos.answer("ManC")
    pos.do("fold")
    pos.answer("systemic")
    pos.do("buy Lavender Scare from slot C for 3")
    texts = [e["text"] for e in pos.match.log if e["t"] == "log"]
    assert "a Retaliation die joins Pride's pool" in texts
