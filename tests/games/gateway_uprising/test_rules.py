"""Gateway: Uprising: the rulebook's worked examples and each rule, from described positions.
At seed 1 the starting player is Red, and every match opens with the choice of how the
Revolution piles are made."""

from __future__ import annotations

import random

import pytest

import ludus
from ludus.testing import Position
from tests.helpers import GAMES, play_random

GAME = ludus.load(GAMES / "gateway-uprising" / "gateway-uprising.ludus")
HIDDEN = ludus.load(GAMES / "gateway-uprising" / "gateway-uprising-hidden-runestones.ludus")


def position(players: int = 2, seed: int = 1, method: str = "random", game=GAME) -> Position:
    pos = Position(game, players=players, seed=seed)
    pos.do(method)
    pos.run_on()
    return pos


def copy_of(name: str, where: str) -> str:
    """A copy of the card that is not in `where` nor in any hand or army."""
    return (f'first([c for c in cards("{name}") where c.loc != {where} and '
            f'all(c.loc != hand of s and c.loc != army of s for s in seats)])')


def hand(pos: Position, seat: str, names: list[str]) -> None:
    pos.given(f"move hand of {seat} to deck of {seat}")
    for name in names:
        pos.given(f"move {copy_of(name, f'hand of {seat}')} to hand of {seat}")


def army(pos: Position, seat: str, names: list[str]) -> None:
    for name in names:
        pos.given(f"move {copy_of(name, f'army of {seat}')} to army of {seat}")


def no_runestones(pos: Position, *seats: str) -> None:
    for seat in seats:
        pos.given(f"move runestones of {seat} to removed")


def only(pos: Position, district: str, names: list[str]) -> None:
    """Empty a district of Guards and Horde, then put these cards there."""
    pos.given(f"move guards_at({district}) to guard_discard")
    pos.given(f"move horde_at({district}) to horde_discard")
    for name in names:
        # a copy still in a deck, a discard pile or the box: not one on the board already
        pos.given(f'move first([c for c in cards("{name}") where c.loc == horde_deck or c.loc == guard_deck '
                  f'or c.loc == horde_discard or c.loc == guard_discard or c.loc == box]) to {district}')


def district(pos: Position, place: str) -> str:
    """The name of the district at `place`: its board's, as every text names it."""
    return pos.value(f"board_at({place}).name")[0]


def lay(pos: Position, board: str, place: str) -> None:
    """Put the district board `board` at `place`, and the board lying there where it was."""
    pos.given(f'move board_at({place}) to card("{board}").loc')
    pos.given(f'move card("{board}") to {place}')


def attack(pos: Position, place: str) -> None:
    """Attack the district at `place`: the move is named by the district board lying there."""
    pos.do(f"attack {pos.value(f'board_at({place}).name')[0]}")


def test_a_district_is_named_by_its_place_before_the_boards_are_dealt_and_by_its_board_after():
    # before set_up_city (setup's first question waits) no board lies anywhere: district_name
    # read `.name` of none, an error for any view or `eval` that named a district then
    pos = Position(GAME, players=2, seed=1)
    assert pos.value("board_at(UpperRight)")[0] is None
    assert [pos.value(f"district_name({d})")[0] for d in ("Center", "UpperRight", "LowerLeft")] == \
        ["Central City", "Upper right", "Lower left"]
    pos.do("random")
    pos.run_on()
    assert pos.value("district_name(UpperRight)")[0] == district(pos, "UpperRight") != "Upper right"
    assert pos.value("district_name(Center)")[0] == "Central City"


# ── the rulebook's examples ──

def test_susans_recruiting_two_carts_and_a_vendor_make_4_gold():
    pos = position()
    hand(pos, "Red", ["Saloran Cart", "Saloran Cart", "Argethian Vendor", "Rebel"])
    pos.do("play Saloran Cart")
    pos.do("play Saloran Cart")
    pos.do("play Argethian Vendor")
    pos.expect("gold of Red == 4")
    pos.expect("action_points of Red == 2")      # Merchants cost no action point


def test_joannas_attack_deals_7_damage():
    pos = position()
    hand(pos, "Red", [])
    army(pos, "Red", ["Blunderbuss Mage", "Rebel", "Rebel"])
    no_runestones(pos, "Red")
    only(pos, "UpperRight", ["Drueggar Brute", "Drueggar Grunt"])
    pos.do("end deployment")
    pos.do("end recruiting")
    attack(pos, "UpperRight")
    pos.run_on()
    assert pos.match.pending["prompt"].startswith(f"Red: Spread 7 damage over the defenders of {district(pos, 'UpperRight')}:")


def test_three_insurgents_against_a_drueggar_soldier():
    """9 damage kills the Soldier; its 6 kills both Sledges (3 each), not the Birdmancer;
    the attacker takes the district and 2 Infamy."""
    pos = position()
    hand(pos, "Red", [])
    army(pos, "Red", ["Sledge", "Sledge", "Birdmancer"])
    no_runestones(pos, "Red")
    only(pos, "UpperRight", ["Drueggar Soldier"])
    pos.do("end deployment")
    pos.do("end recruiting")
    attack(pos, "UpperRight")
    pos.run_on()
    # one defender: the whole 9 goes to it, without a question; then Blue answers for the Horde
    assert pos.match.pending["prompt"] == "Blue: Spread 6 damage over Red's army: 6 left to give; how many to Birdmancer?"
    # the Soldier's 6, spread by Blue (on Red's left): 0 on the Birdmancer, 3 and 3 on the Sledges
    pos.answer("0 to Birdmancer")
    pos.answer("3 to Sledge")
    pos.expect('[c.name for c in army of Red] == ["Birdmancer"]')
    pos.expect("infamy of Red == 2 and controller of UpperRight == Red")
    pos.expect('size(horde_at(UpperRight)) == 0 and first(c.name for c in horde_discard) == "Drueggar Soldier"')


def test_marcs_full_turn():
    """Fearless Four (+1 draw, +1 recruit, +1 gold, +1 Infamy), three Merchants, a Rebel; a
    Swordstone for 5 gold; 10 attack against Canal City's Drueggar Soldier; Marie (on Marc's
    left) kills both Rebels with 4 of its 6; 2 Infamy; Canal City's reward: one more card."""
    pos = position()
    pos.given('move card("Canal City") to LowerLeft')
    pos.given("move [c for c in LowerLeft where c.kind == \"DistrictBoard\" and c.name != \"Canal City\"] to removed")
    only(pos, "LowerLeft", ["Drueggar Soldier"])
    pos.given("set controller of UpperLeft to Red")      # Bridge City, taken last round
    only(pos, "UpperLeft", [])
    hand(pos, "Red", ["The Highway Robber", "Saloran Cart", "Saloran Cart", "Runesmith", "Fearless Four", "Rebel"])
    army(pos, "Red", ["Rebel", "Claw Knight"])
    pos.given("move runestones of Red to removed")
    pos.given(f"move {copy_of('Argethian Vendor', 'hand of Red')} to deck of Red")
    pos.given(f"move {copy_of('Swordstone', 'runestones of Red')} to uncommon_stones")
    pos.do("play Fearless Four")
    pos.expect("infamy of Red == 1 and recruits of Red == 2 and gold of Red == 1 and action_points of Red == 1")
    pos.expect('first(c.name for c in hand of Red) == "Argethian Vendor"')   # the card drawn
    pos.do("play Saloran Cart")
    pos.do("play Saloran Cart")
    pos.do("play Argethian Vendor")
    pos.do("play Rebel")
    pos.expect("gold of Red == 5 and action_points of Red == 0")
    pos.do("end deployment")
    pos.do("recruit Swordstone for 5")
    pos.run_on()
    assert pos.match.legal_actions() == ["end recruiting"]    # a Recruit left, but no gold
    pos.do("end recruiting")
    attack(pos, "LowerLeft")
    pos.answer("Swordstone")
    pos.run_on()
    # the 10 (4 + the Swordstone's 6) all go to the lone Soldier; Marie (Blue) spreads its 6:
    # 2 to each Rebel, the last 2 to the Claw Knight
    assert pos.match.pending["prompt"].startswith("Blue: Spread 6 damage over Red's army")
    for _ in range(2):
        target = pos.match.pending["prompt"].rsplit("how many to ", 1)[1].rstrip("?")
        pos.answer(f"2 to {target}")
    pos.expect('[c.name for c in army of Red] == ["Claw Knight"]')
    pos.expect("infamy of Red == 3 and controller of LowerLeft == Red")
    pos.expect("extra_draws of Red == 1")
    pos.expect(f"{copy_of('Swordstone', 'hand of Red')}.loc == removed")
    pos.run_on()                    # Clean-up: 6 cards, and 1 for Canal City
    pos.expect("size(hand of Red) == 7 and extra_draws of Red == 0")


# ── setup ──

def test_two_player_setup():
    pos = position(players=2)
    pos.expect("ruined of Top and ruined of Bottom")
    # 8 markers, 2 on each of the 4 standing outer districts, then the two X markers removed
    pos.expect('size(cards("X")) == 2 and all(m.loc == removed for m in cards("X"))')
    pos.expect("size(markers_at(Top)) == 0 and size(markers_at(Bottom)) == 0")
    # a Guard on each standing outer district, at least 3 on Central City (a Captain calls one more)
    pos.expect("all(size(guards_at(d)) >= 1 for d in outer_standing) and size(guards_at(Center)) >= 3")
    pos.expect("size(event_deck) == 12 and all(e.players == 2 for e in event_deck)")
    pos.expect("all(size(hand of s) == 6 and size(runestones of s) == 1 for s in seats)")
    pos.expect('all(first(r.rarity for r in runestones of s) == "common" for s in seats)')
    pos.expect("all(size(p) == 5 for p in revolution_piles)")
    pos.expect("size(SledgePile) == 26 and size(RebelPile) == 26 and size(CartPile) == 6")



def test_the_events_left_out_and_the_leaders_not_dealt_go_back_to_the_box_unseen():
    """Rulebook, General Area setup: the Event cards beyond the 12 go back to the box, and
    nobody looks at the Events. Decision 17: nor at the leaders nobody was dealt."""
    pos = position(players=2)
    pos.expect("all(e.loc == box for e in Events where e.loc != event_deck)")
    pos.expect("size([c for c in Leaders where c.loc == box]) == 6")
    seen = pos.match.view(1)["zones"]["removed"]
    assert not any(n in seen for n in pos.value("[c.name for c in Events + Leaders]")[0])


def test_starting_decks_hold_7_carts_a_vendor_3_rebels_and_a_leader():
    pos = position(players=3)
    for seat in ("Red", "Blue", "Green"):
        pos.expect(f"size(hand of {seat}) + size(deck of {seat}) == 12")
        pos.expect(f'count(c for c in [x for x in hand of {seat}] + [x for x in deck of {seat}] where c.name == "Saloran Cart") == 7')
        pos.expect(f'count(c for c in [x for x in hand of {seat}] + [x for x in deck of {seat}] where c.name == "Rebel") == 3')
        pos.expect(f'count(c for c in [x for x in hand of {seat}] + [x for x in deck of {seat}] where c.kind == "Leader") == 1')


def test_markers_in_a_four_player_game_and_no_ruins():
    pos = position(players=4)
    pos.expect("not any(ruined of d for d in districts)")
    # 8 markers over 6 districts from the one right of Central City: 2, 2, 1, 1, 1, 1 before the
    # two X markers leave, so 6 symbols stay on the board
    pos.expect("sum(size(markers_at(d)) for d in outer_ring) == 6 and size(markers_at(Center)) == 0")
    pos.expect("size(event_deck) == 12")


def test_three_player_event_deck_takes_2_and_3_player_cards():
    pos = position(players=3)
    pos.expect("all(e.players <= 3 for e in event_deck) and size(event_deck) == 12")


def test_a_scenario_sets_the_revolution_piles_and_the_districts():
    pos = Position(GAME, players=3, seed=1)
    pos.do("scenario")
    pos.answer("Rise of the Fishmasters")
    pos.run_on()
    pos.expect('[top(p).name for p in revolution_piles] == ["Fishwife", "Fishmancer", "Blunderbuss Mage", '
               '"The Elusive Birdfish", "Trumpeter", "Nightfishermen", "Grand Levitator", "Gravemaster"]')
    pos.expect('board_at(Top).name == "Swamptown" and board_at(UpperLeft).name == "Bridgetown"')


def test_every_seat_is_told_which_scenario_was_chosen():
    # chosen from the box, the scenario card was hidden from the seats that did not choose it:
    # they were told "chose a card" and its var showed as hidden; it lies face up now
    pos = Position(GAME, players=2, seed=1)
    pos.do("scenario")
    pos.answer("Rise of the Fishmasters")
    match = pos.match
    answers = [i for i, e in enumerate(match.log) if e["t"] == "answer"]
    assert [match.hidden_answer(i, 1) for i in answers] == [None, None]
    view = match.view(1)
    assert view["counters"]["scenario"] == "Rise of the Fishmasters"
    assert view["zones"]["scenario_card"] == ["Rise of the Fishmasters"]


def test_the_draft_passes_to_the_left_from_the_starting_player():
    pos = Position(GAME, players=2, seed=1)
    pos.do("draft")
    pos.run_on()
    assert pos.match.pending["prompt"] == "Red: Which Revolution card do you take for the game?"
    assert len(pos.match.legal_actions()) == 30
    pos.answer("Claw Knight")
    pos.run_on()
    assert pos.match.pending["prompt"].startswith("Blue: ")
    assert "Claw Knight" not in pos.match.legal_actions()
    for _ in range(7):
        pos.answer(pos.match.legal_actions()[0])
    pos.run_on()
    pos.expect('top(Rev1).name == "Claw Knight" and size(Rev1) == 5')


# ── the turn ──

def test_deployment_spends_two_action_points_and_cards_can_add_more():
    pos = position()
    hand(pos, "Red", ["Rebel", "Magic Orb", "Rebel", "Rebel", "Rebel"])
    pos.do("play Magic Orb")            # 1 action point, +2
    pos.expect("action_points of Red == 3")
    pos.do("play Rebel")
    pos.do("play Rebel")
    pos.do("play Rebel")
    pos.run_on()
    assert "play Rebel" not in pos.match.legal_actions()
    pos.expect("size(army of Red) == 3 and size(in_play of Red) == 1")


def test_recruiting_one_card_to_the_discard_and_unspent_gold_is_lost():
    pos = position()
    hand(pos, "Red", ["Shadow Market", "Argethian Vendor"])
    pos.do("play Shadow Market")
    pos.do("play Argethian Vendor")
    pos.do("end deployment")
    pos.do("recruit Rebel for 1")
    pos.run_on()
    # one Recruit a turn: the Recruiting phase ends (and, with no army, Red's turn), though 4
    # gold are left; they are lost
    assert pos.match.pending["prompt"].startswith("Blue: ")
    pos.expect("gold of Red == 0")
    pos.expect('count(c for c in discard of Red where c.name == "Rebel") == 1')


def test_a_recruited_runestone_goes_straight_to_the_army():
    pos = position()
    hand(pos, "Red", ["Shadow Market"])
    pos.do("play Shadow Market")
    pos.do("end deployment")
    name = pos.value("top(common_stones).name")[0]
    pos.do(f"recruit {name} for 2")
    pos.expect("size(runestones of Red) == 2")


def test_no_army_no_attack():
    pos = position()
    hand(pos, "Red", [])
    pos.do("end deployment")
    pos.do("end recruiting")
    pos.run_on()
    assert pos.match.pending["prompt"].startswith("Blue: ")   # straight to Clean-up, then Blue


def test_an_attack_is_named_by_the_district_not_by_its_place():
    # "attacking the Canal City" (the rulebook's full example): players name a district by its
    # board; its place on the table (Upper left, ...) is no name a player would use
    pos = position()
    army(pos, "Red", ["Rebel"])
    pos.do("end deployment")
    pos.do("end recruiting")
    pos.run_on()
    boards = [pos.value(f"board_at({d}).name")[0] for d in ("Center", "UpperRight", "LowerRight", "LowerLeft",
                                                            "UpperLeft")]  # Top and Bottom are ruined
    attacks = [o for o in pos.match.legal_actions() if o.startswith("attack ")]
    assert sorted(attacks) == sorted(f"attack {b}" for b in boards)
    assert "attack Central City" in attacks and not any(o.endswith((" left", " right")) for o in attacks)


def test_a_battle_names_its_district_by_its_board_in_the_log_and_the_question():
    # the texts name a district as the attack does, by its board ("attacking the Canal City"),
    # never by its place on the table (Upper right)
    pos = position()
    lay(pos, "Canal City", "UpperRight")
    army(pos, "Red", ["Rebel", "Rebel", "Rebel", "Rebel"])
    no_runestones(pos, "Red", "Blue")
    only(pos, "UpperRight", ["Drueggar Grunt", "Drueggar Grunt"])
    pos.resolve_rule("attack_district(Red, UpperRight)", "Red")
    assert pos.match.pending["prompt"].startswith("Red: Spread 4 damage over the defenders of Canal City: ")
    for _ in range(10):           # 2 on each Grunt, then Blue spreads the Horde's 4 as it likes
        if pos.match.pending is None:
            break
        options = pos.match.legal_actions()
        pos.answer(next((o for o in options if o.startswith("2 to Drueggar Grunt")), options[0]))
    said = [e["text"] for e in pos.match.log if e["t"] == "log"]
    assert "Red attacks Canal City: 4 damage against 4" in said
    assert "Red frees Canal City" in said
    pos.expect("controller of UpperRight == Red")


def test_a_guard_is_sent_to_a_district_chosen_by_its_boards_name():
    # Witchmasker: the districts offered are named by their boards, not by their places
    pos = position()
    lay(pos, "Canal City", "UpperRight")
    hand(pos, "Red", ["Witchmasker"])
    only(pos, "UpperRight", [])
    pos.do("play Witchmasker")
    pos.run_on()
    assert pos.match.pending["prompt"] == "Red: Where do you send it?"
    places = ("Center", "UpperRight", "LowerRight", "LowerLeft", "UpperLeft")    # Top and Bottom are ruined
    assert pos.match.legal_actions() == [district(pos, d) for d in places]
    pos.answer("Canal City")
    pos.expect("size(guards_at(UpperRight)) == 1")
    arrived = pos.value("first(guards_at(UpperRight)).name")[0]
    assert f"{arrived} arrives in Canal City" in [e["text"] for e in pos.match.log if e["t"] == "log"]


def test_a_guard_driven_off_is_picked_by_its_districts_name_then_its_own():
    # Geomancer: a district next to Red's, named by its board; then the Guard, by its name
    pos = position()
    lay(pos, "Canal City", "UpperRight")
    pos.given("set controller of LowerRight to Red")
    only(pos, "LowerRight", [])
    only(pos, "UpperRight", ["Guard Veteran", "Guard Recruit"])
    hand(pos, "Red", ["Geomancer"])
    pos.do("play Geomancer")
    pos.run_on()
    assert pos.match.pending["prompt"] == "Red: From which district is a City Guard driven off?"
    # Central City, Canal City, and across the ruined Bottom, Crystal City (laid where Canal City was)
    assert pos.match.legal_actions() == ["Central City", "Canal City", "Crystal City"]
    pos.answer("Canal City")
    assert pos.match.pending["prompt"] == "Red: Which Guard leaves Canal City?"
    assert sorted(pos.match.legal_actions()) == ["Guard Recruit", "Guard Veteran"]
    pos.answer("Guard Recruit")
    pos.expect('[c.name for c in guards_at(UpperRight)] == ["Guard Veteran"]')


def test_an_uncontrolled_empty_district_is_taken_without_a_fight_or_reward():
    pos = position()
    hand(pos, "Red", [])
    army(pos, "Red", ["Rebel"])
    only(pos, "UpperRight", [])
    pos.do("end deployment")
    pos.do("end recruiting")
    attack(pos, "UpperRight")
    pos.expect("controller of UpperRight == Red and infamy of Red == 0")


def test_killing_every_defender_takes_the_district_even_with_the_army_lost():
    pos = position()
    hand(pos, "Red", [])
    army(pos, "Red", ["Rebel", "Rebel"])
    no_runestones(pos, "Red")
    only(pos, "UpperRight", ["Drueggar Grunt"])
    pos.do("end deployment")
    pos.do("end recruiting")
    attack(pos, "UpperRight")
    pos.run_on()
    pos.answer("2 to Rebel")            # Blue: the Grunt's 2 ... kills one Rebel
    pos.expect("controller of UpperRight == Red and infamy of Red == 1")


def test_attacking_a_players_district_the_defender_spreads_the_damage_and_keeps_runestones():
    pos = position()
    pos.given("set controller of UpperRight to Blue")
    only(pos, "UpperRight", [])
    army(pos, "Blue", ["Claw Knight"])
    hand(pos, "Red", [])
    army(pos, "Red", ["Sledge", "Sledge", "Sledge"])
    no_runestones(pos, "Red", "Blue")
    pos.do("end deployment")
    pos.do("end recruiting")
    attack(pos, "UpperRight")
    pos.run_on()
    # Red's 9 all to the Claw Knight (6); Blue spreads its 2
    assert pos.match.pending["prompt"] == "Blue: Spread 2 damage over Red's army: 2 left to give; how many to Sledge?"
    pos.answer("2 to Sledge")
    pos.expect("controller of UpperRight == Red and size(army of Blue) == 0 and size(army of Red) == 3")


def test_a_defenders_runestone_defends():
    pos = position()
    pos.given("set controller of UpperRight to Blue")
    only(pos, "UpperRight", [])
    army(pos, "Blue", ["Claw Knight"])
    hand(pos, "Red", [])
    army(pos, "Red", ["Sledge", "Sledge"])
    no_runestones(pos, "Red", "Blue")
    pos.given(f"move {copy_of('Wardstone', 'runestones of Blue')} to runestones of Blue")
    pos.do("end deployment")
    pos.do("end recruiting")
    attack(pos, "UpperRight")
    pos.answer("Wardstone")             # Blue's: 2 off Red's 6 damage
    pos.run_on()
    pos.answer("2 to Sledge")
    pos.expect("controller of UpperRight == Blue and size(army of Blue) == 1")
    pos.expect(f"{copy_of('Wardstone', 'hand of Red')}.loc == removed")


def test_clean_up_discards_supports_merchants_and_hand_keeps_the_army_and_draws_6():
    pos = position()
    hand(pos, "Red", ["Saloran Cart", "Rebel", "Magic Orb", "Argethian Vendor"])
    pos.do("play Saloran Cart")
    pos.do("play Rebel")
    pos.do("play Magic Orb")
    pos.do("end deployment")
    pos.do("end recruiting")
    pos.do("no attack")
    pos.run_on()
    pos.expect("size(army of Red) == 1 and size(in_play of Red) == 0 and size(hand of Red) == 6")
    pos.expect("size(discard of Red) == 3")



def test_unused_action_points_and_recruits_are_lost_at_clean_up():
    """Rulebook, Clean-up: unused Action Points and Gold are discarded at the end of the turn;
    the other players do not see them still standing on Red's side during their turns."""
    pos = position()
    hand(pos, "Red", ["Shadow Market"])
    pos.do("play Shadow Market")
    pos.do("end deployment")
    pos.do("end recruiting")
    pos.run_on()
    assert pos.match.pending["prompt"].startswith("Blue: ")
    pos.expect("action_points of Red == 0 and gold of Red == 0 and recruits of Red == 0 and attacks of Red == 0")


def test_a_battle_says_its_damage_and_that_the_district_was_not_taken():
    pos = position()
    hand(pos, "Red", [])
    army(pos, "Red", ["Rebel"])
    no_runestones(pos, "Red")
    only(pos, "UpperRight", ["Guard Veteran"])             # attack 2, defense 3
    pos.do("end deployment")
    pos.do("end recruiting")
    attack(pos, "UpperRight")
    pos.run_on()
    said = [e["text"] for e in pos.match.log if e["t"] == "log"]
    assert f"Red attacks {district(pos, 'UpperRight')}: 1 damage against 2" in said
    assert f"Red does not take {district(pos, 'UpperRight')}; left standing: Guard Veteran" in said


def test_an_empty_deck_is_reshuffled_from_the_discard():
    pos = position()
    hand(pos, "Red", [])
    pos.given("move deck of Red to discard of Red")
    pos.do("end deployment")
    pos.do("end recruiting")
    pos.run_on()
    pos.expect("size(hand of Red) == 6")


# ── the round's end and the city ──

def end_round(pos: Position) -> None:
    """Both players pass their turns (nothing played, no attack)."""
    for _ in range(2):
        pos.run_on()
        pos.do("end deployment")
        pos.do("end recruiting")
        pos.run_on()
        if "no attack" in pos.match.legal_actions():
            pos.do("no attack")


def test_central_city_is_refilled_to_three_guards_at_the_round_end():
    pos = position()
    only(pos, "Center", ["Guard Recruit"])
    pos.given("move top(event_deck) to removed")
    pos.given('move [e for e in event_deck where e.name != "Martial Law"] to removed')
    end_round(pos)
    pos.run_on()
    pos.expect("size(guards_at(Center)) >= 3")


def test_an_event_card_deploys_horde_that_joins_its_own_kind():
    pos = position()
    only(pos, "UpperRight", ["Drueggar Grunt"])
    pos.given('move first([m for m in Markers where m.name == "Moon"]) to UpperRight')
    pos.given('move card("Horde Raid on the Moon") to event_deck')
    end_round(pos)
    pos.run_on()
    pos.expect("size(horde_at(UpperRight)) == 2")


def test_three_horde_cards_destroy_a_district():
    pos = position()
    only(pos, "UpperRight", ["Drueggar Grunt", "Drueggar Grunt"])
    pos.given('move first([m for m in Markers where m.name == "Moon"]) to UpperRight')
    pos.given('move card("Horde Raid on the Moon") to event_deck')
    end_round(pos)
    pos.run_on()
    pos.expect("ruined of UpperRight and size(enemies_at(UpperRight)) == 0 and size(markers_at(UpperRight)) == 0")


def test_adjacency_skips_ruined_districts():
    pos = position(players=2)        # Top and Bottom are ruins
    pos.expect("UpperRight in neighbours(UpperLeft)")     # past the ruined Top
    pos.expect("LowerRight in neighbours(LowerLeft)")     # past the ruined Bottom
    pos.expect("size(neighbours(UpperRight)) == 3")
    pos.given("set ruined of Center to true")
    pos.expect("LowerLeft in neighbours(UpperRight)")     # across the ruined Central City


def test_a_players_district_defends_against_an_event_and_retreating_cards_pay_nothing():
    pos = position()
    pos.given("set controller of UpperRight to Red")
    only(pos, "UpperRight", [])
    army(pos, "Red", ["Claw Knight"])
    no_runestones(pos, "Red", "Blue")
    pos.given('move first([m for m in Markers where m.name == "Moon"]) to UpperRight')
    pos.given('move card("Horde Raid on the Moon") to event_deck')
    pos.given('move first(cards("Drueggar Brute")) to horde_deck')
    end_round(pos)
    pos.run_on()
    # the Brute (4 attack, 6 defense) against the Claw Knight (2 attack, 6 defense): neither dies;
    # the Brute retreats, for no Infamy, and Red keeps the district
    pos.expect("controller of UpperRight == Red and size(horde_at(UpperRight)) == 0 and infamy of Red == 0")
    pos.expect('first(c.name for c in horde_discard) == "Drueggar Brute"')


def test_a_player_whose_army_dies_loses_the_district_to_the_event():
    pos = position()
    pos.given("set controller of UpperRight to Red")
    only(pos, "UpperRight", [])
    army(pos, "Red", ["Rebel"])
    no_runestones(pos, "Red", "Blue")
    pos.given('move first([m for m in Markers where m.name == "Moon"]) to UpperRight')
    pos.given('move card("Horde Raid on the Moon") to event_deck')
    pos.given('move first(cards("Drueggar Warlord")) to horde_deck')
    end_round(pos)
    pos.run_on()
    pos.expect("controller of UpperRight == none and size(horde_at(UpperRight)) == 1 and size(army of Red) == 0")


def test_the_starting_player_names_who_plays_the_horde_with_more_players():
    pos = position(players=3)
    only(pos, "UpperRight", ["Guard Recruit"])
    pos.given('move first([m for m in Markers where m.name == "Moon"]) to UpperRight')
    pos.given('move card("Horde Raid on the Moon") to event_deck')
    pos.given('move first(cards("Drueggar Warlord")) to horde_deck')
    for _ in range(3):
        pos.run_on()
        pos.do("end deployment")
        pos.do("end recruiting")
        pos.run_on()
        if "no attack" in pos.match.legal_actions():
            pos.do("no attack")
    pos.run_on()
    first = pos.show("start_player")
    assert pos.match.pending["prompt"] == f"{first}: Who plays the Horde in {district(pos, 'UpperRight')}?"
    assert pos.match.legal_actions() == [s for s in ("Red", "Blue", "Green") if s != first]


def test_guards_and_horde_fight_without_infamy():
    pos = position()
    only(pos, "UpperRight", ["Guard Recruit"])
    pos.given('move first([m for m in Markers where m.name == "Moon"]) to UpperRight')
    pos.given('move card("Horde Raid on the Moon") to event_deck')
    pos.given('move first(cards("Drueggar Warlord")) to horde_deck')
    end_round(pos)
    pos.run_on()
    # Red (the starting player) plays the Guards; with two players, Blue plays the Horde
    pos.expect("size(guards_at(UpperRight)) == 0 and infamy of Red == 0 and infamy of Blue == 0")



def test_a_horde_card_that_does_not_clear_the_guards_falls_back():
    """Rulebook, District Rules: Guards and Horde deployed into one district fight by the
    Attack Phase's rules. Decision 12: a newcomer that leaves some of the other faction
    standing falls back to its discard pile, so a district never holds both factions."""
    pos = position()
    only(pos, "UpperRight", ["Guard Captain"])             # attack 4, defense 5
    pos.given('move first(cards("Drueggar Brute")) to horde_deck')   # attack 4, defense 6
    pos.resolve_rule('deploy("Horde", [UpperRight])', "Red")
    pos.run_on()
    pos.expect('[c.name for c in enemies_at(UpperRight)] == ["Guard Captain"]')
    pos.expect('first(c.name for c in horde_discard) == "Drueggar Brute"')
    pos.expect("all(c.damage == 0 for c in enemies_at(UpperRight))")


def test_a_horde_card_that_kills_every_guard_holds_the_district():
    pos = position()
    only(pos, "UpperRight", ["Guard Recruit"])             # attack 1, defense 2
    pos.given('move first(cards("Drueggar Warlord")) to horde_deck')  # attack 7, defense 7
    pos.resolve_rule('deploy("Horde", [UpperRight])', "Red")
    pos.run_on()
    pos.expect('[c.name for c in enemies_at(UpperRight)] == ["Drueggar Warlord"]')


def test_a_horde_card_a_players_army_kills_does_not_overrun_the_city():
    """Rulebook, Game End: the city falls when at least 1 Monster card is in each District.
    Decision 16: a Horde card sent into a player's district is not holding it while the army
    fights it; killed there, it never was, and the game goes on."""
    pos = position()
    for d in ("Center", "LowerRight", "LowerLeft", "UpperLeft"):
        only(pos, d, ["Drueggar Grunt"])
    pos.given("set controller of UpperRight to Red")
    only(pos, "UpperRight", [])
    army(pos, "Red", ["Claw Knight"])                        # attack 2: kills a Grunt
    no_runestones(pos, "Red", "Blue")
    pos.given('move first([c for c in cards("Drueggar Grunt") where c.loc == horde_deck or c.loc == box]) to horde_deck')
    pos.resolve_rule('deploy("Horde", [UpperRight])', "Red")
    pos.run_on()
    assert pos.match.result is None
    pos.expect("controller of UpperRight == Red and size(horde_at(UpperRight)) == 0 and infamy of Red == 1")


def test_a_horde_card_that_takes_a_players_last_district_overruns_the_city():
    pos = position()
    for d in ("Center", "LowerRight", "LowerLeft", "UpperLeft"):
        only(pos, d, ["Drueggar Grunt"])
    pos.given("set controller of UpperRight to Red")
    only(pos, "UpperRight", [])
    no_runestones(pos, "Red", "Blue")                        # no army: the district is lost
    pos.given('move first([c for c in cards("Drueggar Grunt") where c.loc == horde_deck or c.loc == box]) to horde_deck')
    pos.resolve_rule('deploy("Horde", [UpperRight])', "Red")
    pos.run_on()
    assert pos.match.result is not None and pos.match.result["winners"] == []


# ── the end ──

def test_the_game_ends_when_no_event_is_left_and_the_most_infamy_wins():
    pos = position()
    pos.given("move event_deck to removed")
    pos.given("set infamy of Blue to 2")
    for d in ("UpperRight", "LowerRight"):
        pos.given(f"set controller of {d} to Red")
        only(pos, d, [])
    end_round(pos)
    pos.run_on()
    # Red: 2 outer districts + its Common Runestone's 1 = 3; Blue: 2 + 1 = 3; tied on Infamy,
    # Red holds more districts (decision 14)
    pos.expect("score of Red == 3 and score of Blue == 3")
    assert pos.match.result["winners"] == ["Red"]


def test_central_city_scores_2_and_infamy_tokens_and_runestones_count():
    pos = position()
    pos.given("set controller of Center to Blue")
    # three Guards stay, so the round's refill sends none against Blue
    only(pos, "Center", ["Guard Recruit", "Guard Recruit", "Guard Recruit"])
    pos.given("move event_deck to removed")
    pos.given("set infamy of Blue to 1")
    pos.given("set infamy of Red to 3")
    pos.given(f"move {copy_of('Crownstone', 'runestones of Red')} to runestones of Red")
    end_round(pos)
    pos.run_on()
    # Red: 3 + Crownstone 5 + its Common Runestone 1; Blue: 1 + 2 (Central City) + its Runestone 1
    pos.expect("score of Red == 9 and score of Blue == 4")
    assert pos.match.result["winners"] == ["Red"]


def test_a_player_holding_the_whole_city_wins_at_once():
    pos = position()
    for d in ("Center", "UpperRight", "LowerRight", "LowerLeft"):
        pos.given(f"set controller of {d} to Red")
        only(pos, d, [])
    hand(pos, "Red", [])
    army(pos, "Red", ["Rebel"])
    only(pos, "UpperLeft", [])
    pos.do("end deployment")
    pos.do("end recruiting")
    attack(pos, "UpperLeft")
    assert pos.match.result["winners"] == ["Red"]


def test_everybody_loses_when_the_horde_destroys_every_outer_district():
    pos = position()
    for d in ("UpperRight", "LowerRight", "LowerLeft"):
        pos.given(f"set ruined of {d} to true")
    only(pos, "UpperLeft", ["Drueggar Grunt", "Drueggar Grunt"])
    pos.given('move first([m for m in Markers where m.name == "Moon"]) to UpperLeft')
    pos.given('move card("Horde Raid on the Moon") to event_deck')
    end_round(pos)
    pos.run_on()
    assert pos.match.result is not None and pos.match.result["winners"] == []


def test_everybody_loses_when_the_horde_is_in_every_district():
    pos = position()
    for d in ("Center", "UpperRight", "LowerRight", "LowerLeft", "UpperLeft"):
        only(pos, d, ["Drueggar Grunt"])
    pos.expect("all(size(horde_at(d)) > 0 for d in standing)")
    hand(pos, "Red", ["Saloran Cart"])
    pos.do("play Saloran Cart")      # the next change of play: the city has fallen
    assert pos.match.result is not None and pos.match.result["winners"] == []


# ── battles and the final count, each rule resolved alone from a written position ──

def test_an_attack_that_leaves_a_defender_pays_infamy_for_its_kills_and_takes_nothing():
    """Rulebook, Attack Phase: a player who kills Guards or Horde in an attack receives their
    Infamy; only killing all the defenders takes the district."""
    pos = position()
    army(pos, "Red", ["Sledge", "Sledge"])
    no_runestones(pos, "Red", "Blue")
    only(pos, "UpperRight", ["Drueggar Grunt", "Drueggar Brute"])
    pos.resolve_rule("attack_district(Red, UpperRight)", "Red")
    assert pos.match.pending["prompt"].startswith(f"Red: Spread 6 damage over the defenders of {district(pos, 'UpperRight')}:")
    # the Grunt (defense 2) takes 2 and dies, the Brute 4 of its 6; the question and its
    # options name the card it is about (the first defender), as `battle` is given a list of
    # cards as its untyped `foes` by every call, not by the card's number
    first_asked = pos.value("first(horde_at(UpperRight)).name")[0]
    amount = 2 if first_asked == "Drueggar Grunt" else 4
    assert pos.match.pending["prompt"].endswith(f"how many to {first_asked} in UpperRight?")
    assert pos.match.legal_actions()[0] == f"6 to {first_asked} in UpperRight"
    pos.answer(f"{amount} to {first_asked} in UpperRight")
    pos.answer("3 to Sledge")            # Blue, on Red's left, spreads the Horde's 6
    pos.expect("infamy of Red == 1")     # the Grunt's Infamy
    pos.expect("controller of UpperRight == none")
    pos.expect('[c.name for c in horde_at(UpperRight)] == ["Drueggar Brute"]')
    pos.expect("size(army of Red) == 0")


def test_a_player_whose_army_dies_but_kills_every_invader_keeps_the_district():
    """Rulebook, District Rules (a card deployed into a player's district): if the Guard or
    Horde kills the whole army but the player kills every enemy card too, the player keeps
    the district, and Infamy is paid for every Guard or Horde card the player kills."""
    pos = position()
    pos.given("set controller of UpperRight to Red")
    army(pos, "Red", ["Blunderbuss Mage"])          # attack 5, defense 3
    no_runestones(pos, "Red", "Blue")
    only(pos, "UpperRight", ["Drueggar Soldier"])   # attack 6, defense 4
    pos.resolve_rule("invade(Red, [UpperRight])", "Red")
    pos.expect("size(army of Red) == 0 and size(horde_at(UpperRight)) == 0")
    pos.expect("controller of UpperRight == Red")
    pos.expect("infamy of Red == 2")


def test_a_defenders_wounded_insurgents_heal_at_the_end_of_the_attackers_turn():
    """Rulebook, Attack Phase: cards that did not take lethal damage have their Defense set back
    to full at the end of the turn. That is the attacker's turn, for the defender's army too:
    a Claw Knight hit for 3 on Red's turn defends 6 again when Blue's turn starts."""
    pos = position()
    pos.given("set controller of UpperRight to Blue")
    only(pos, "UpperRight", [])
    only(pos, "LowerLeft", ["Elite Guard"])          # attack 3, defense 4
    hand(pos, "Red", [])
    army(pos, "Red", ["Sledge"])                     # attack 3, defense 3
    army(pos, "Blue", ["Claw Knight"])               # attack 2, defense 6
    no_runestones(pos, "Red", "Blue")
    pos.do("end deployment")
    pos.do("end recruiting")
    attack(pos, "UpperRight")                     # 3 on the Knight, 2 back on the Sledge
    pos.run_on()                                     # Red's Clean-up; Blue's turn
    assert pos.match.pending["seat"] == 1
    pos.expect("all(c.damage == 0 for c in army of Blue)")
    hand(pos, "Blue", [])
    pos.do("end deployment")
    pos.do("end recruiting")
    attack(pos, "LowerLeft")                      # the Elite Guard's 3 does not kill a whole Knight
    pos.run_on()
    pos.expect('[c.name for c in army of Blue] == ["Claw Knight"]')


def test_a_full_tie_on_infamy_and_districts_is_a_shared_win():
    """Rulebook, Game End and Victory: the most Infamy wins, with 1 per outer district held and
    2 for Central City. Decision 14: a tie goes to the player holding more districts; tied
    there too, the win is shared."""
    pos = position()
    no_runestones(pos, "Red", "Blue")
    pos.given("set infamy of Red to 3")
    pos.given("set infamy of Blue to 3")
    pos.given("set controller of UpperRight to Red")
    pos.given("set controller of LowerLeft to Blue")
    pos.resolve_rule("final_scoring()", "Red")
    pos.expect("score of Red == 4 and score of Blue == 4")
    assert sorted(pos.match.result["winners"]) == ["Blue", "Red"]


def test_the_most_infamy_wins_even_against_more_districts():
    """The districts break a tie only: 2 outer districts (2 Infamy) lose to 3 Infamy tokens."""
    pos = position()
    no_runestones(pos, "Red", "Blue")
    pos.given("set infamy of Blue to 3")
    pos.given("set controller of UpperRight to Red")
    pos.given("set controller of LowerRight to Red")
    pos.resolve_rule("final_scoring()", "Red")
    pos.expect("score of Red == 2 and score of Blue == 3")
    assert pos.match.result["winners"] == ["Blue"]


def test_hidden_runestones_keep_the_piles_tops_secret():
    shown = position(game=GAME)
    hidden = position(game=HIDDEN)
    top_name = shown.value("top(common_stones).name")[0]
    assert top_name in str(shown.match.view(1)["zones"]["common_stones"])
    assert hidden.value("top(common_stones).name")[0] not in str(hidden.match.view(1)["zones"]["common_stones"])



@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_matches_end(players):
    m = GAME.new_match(players, seed=players)
    play_random(m, random.Random(players), limit=20000)
    assert m.is_over
