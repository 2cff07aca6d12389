"""Votes for Women: the rulebook's examples and the key rules, with forced dice."""

from __future__ import annotations

import random

import pytest

import ludus
from ludus.simulation import random_playout
from ludus.testing import Position
from tests.helpers import GAMES

GAME = ludus.load(GAMES / "votes-for-women" / "votes-for-women.ludus")


def card(name: str) -> str:
    return f'cards("{name}")'



def states_except(*codes: str) -> list[str]:
    """The board's states in their order, less the named ones."""
    return [s for s in GAME.space_kinds["state"] if s not in codes]

def position(seed: int = 1) -> Position:
    return Position(GAME, seed=seed)


def test_campaigning_example():
    """Rulebook, Campaigning: 1 and 1, a button re-rolls 3 and 4; 3 to the Purple campaigner
    (2 in Vermont, 1 in Connecticut); the Yellow one moves West for a button, 4 in California."""
    pos = position()
    pos.given("create PurpleCampaigner at Northeast for Suffragist")
    pos.given("create YellowCampaigner at Northeast for Suffragist")
    pos.given("set buttons of Suffragist to 2")
    pos.next_roll(4, 1, 1, 3, 4)
    pos.do("campaign with Seneca Falls Convention")
    pos.answer("yes")   # re-roll the 1 and 1
    pos.answer("no")    # keep 3 and 4
    pos.answer("3")     # the 3 to the Purple campaigner
    pos.answer("no")    # it stays in the Northeast
    pos.answer("VT")
    pos.answer("VT")
    pos.answer("CT")
    pos.answer("yes")   # the Yellow campaigner (given the 4) moves, for a button
    pos.answer("West")
    for _ in range(4):
        pos.answer("CA")
    pos.expect("Purple at VT == 2 and Purple at CT == 1 and Yellow at CA == 4")
    pos.expect("buttons of Suffragist == 0")
    pos.expect("first(c.loc for c in YellowCampaigner of Suffragist) == West")


def test_final_voting_example():
    """Rulebook, Final Voting: 35 checks, 12 Xs, Tennessee last with 2 Red cubes; Voter
    Registration and Miss Febb Wins the Last Vote in effect; 5 against 4 + 2, the Suffragist's
    last button re-rolls a 6: a tie, which Miss Febb gives to the Suffragist, who wins."""
    pos = position()
    states = states_except("TN")
    pos.given("set sent to true")
    for st in states[:35]:
        pos.given(f"add 1 Check to {st}")
    for st in states[35:]:
        pos.given(f"add 1 X to {st}")
    pos.given("add 2 Red to TN")
    pos.play_until("TN")
    pos.given(f"move {card('Voter Registration')} to final_voting")
    pos.given(f"move {card('Miss Febb Wins the Last Vote')} to final_voting")
    pos.given("set buttons of Suffragist to 1")
    pos.given("set buttons of Opposition to 0")
    pos.next_roll(8, 5, 6)
    pos.next_roll(6, 4)
    pos.do("TN")
    pos.answer("yes")   # the Suffragist, behind 5 to 6, spends the last button
    pos.expect("Check at TN == 1")
    assert pos.match.result["winners"] == ["Suffragist"]


def test_final_voting_ties_go_to_the_opposition():
    pos = position()
    states = states_except("TN")
    pos.given("set sent to true")
    for st in states[:35]:
        pos.given(f"add 1 Check to {st}")
    for st in states[35:]:
        pos.given(f"add 1 X to {st}")
    pos.given("add 2 Red to TN")
    pos.play_until("TN")
    pos.given("set buttons of Suffragist to 0")
    pos.given("set buttons of Opposition to 0")
    pos.next_roll(6, 6, 4)
    pos.do("TN")
    pos.expect("X at TN == 1")
    assert pos.match.result["winners"] == ["Opposition"]


def test_adding_cubes_removes_opposing_cubes_first():
    pos = position()
    pos.given("add 1 Red to CA")
    pos.given(f"move {card('Maria de Lopez')} to hand of Suffragist")
    pos.do("play Maria de Lopez as an event")
    pos.answer("1")     # CA: the second cube (after removing the Red one) is Purple
    pos.expect("Red at CA == 0 and Purple at CA == 1")
    pos.answer("0")     # NV: two Yellow
    pos.answer("2")     # AZ: two Purple
    pos.expect("Yellow at NV == 2 and Purple at AZ == 2 and buttons of Suffragist == 2")


def test_a_claimed_state_card_stays_when_the_cubes_drop():
    pos = position()
    pos.given(f"move {card('New York')} to state_cards")
    pos.given("add 2 Purple to NY")
    pos.do("play Seneca Falls Convention as an event")
    pos.answer("2")
    pos.do("play no claimed card")
    pos.given(f"move {card('Horace Greeley')} to hand of Opposition")
    pos.do("play Horace Greeley as an event")   # 2 Red cubes remove 2 Purple in New York
    pos.expect("Purple at NY == 2 and Red at NY == 0")
    pos.expect('any(c.name == "New York" for c in claimed of Suffragist)')


def test_state_card_claimed_at_four_cubes():
    pos = position()
    pos.given(f"move {card('New York')} to state_cards")
    pos.given("add 2 Purple to NY")
    pos.do("play Seneca Falls Convention as an event")
    pos.answer("2")    # two Purple in New York: four
    pos.expect('any(c.name == "New York" for c in claimed of Suffragist)')
    pos.expect('not any(c.name == "New York" for c in state_cards)')


def test_sixth_marker_sends_the_amendment_and_converts_states():
    pos = position()
    pos.given("set congress to 5")
    pos.given("add 4 Purple to NY")
    pos.given("add 5 Red to GA")
    pos.given("add 3 Yellow to OH")
    pos.given(f"move {card('Maud Wood Park')} to hand of Suffragist")
    pos.do("play Maud Wood Park as an event")
    pos.expect("sent and congress == 0")
    pos.expect("Check at NY == 1 and Purple at NY == 0")
    pos.expect("X at GA == 1 and Red at GA == 0")
    pos.expect("Yellow at OH == 3 and Check at OH == 0")


def test_after_sending_four_cubes_convert_at_once_and_decided_states_take_no_cubes():
    pos = position()
    pos.given("set sent to true")
    pos.given("add 3 Purple to NJ")
    pos.given("add 1 X to DE")
    pos.given(f"move {card('Women to the Polls')} to hand of Suffragist")
    pos.do("play Women to the Polls as an event")
    pos.answer("0")   # NJ: 2 Yellow: 5 cubes, ratifies
    pos.expect("Check at NJ == 1 and Purple at NJ + Yellow at NJ == 0")
    pos.answer("0")   # PA
    pos.expect("Purple at DE + Yellow at DE == 0 and X at DE == 1")


def test_36_checks_win_for_the_suffragist():
    pos = position()
    states = states_except()
    pos.given("set sent to true")
    for st in states[:35]:
        if st != "NY":
            pos.given(f"add 1 Check to {st}")
    pos.given("add 3 Purple to NY")
    pos.given("add 1 Check to TN")
    pos.do("play Seneca Falls Convention as an event")
    pos.answer("0")
    assert pos.match.result["winners"] == ["Suffragist"]


def test_13_xs_win_for_the_opposition():
    pos = position()
    states = states_except("GA")
    pos.given("set sent to true")
    for st in states[:12]:
        pos.given(f"add 1 X to {st}")
    pos.given("add 2 Red to GA")
    pos.do("organize with Seneca Falls Convention")
    pos.given(f"move {card('Senator Joseph Brown')} to hand of Opposition")
    pos.do("play Senator Joseph Brown as an event")
    assert pos.match.result["winners"] == ["Opposition"]


def test_not_sent_by_the_end_of_turn_6_is_an_opposition_win():
    pos = position()
    match = pos.match
    while not match.is_over:
        match.apply(match.legal_actions()[-1])
    assert match.result["winners"] == ["Opposition"]
    assert not pos.value("sent")[0]


def test_button_caps():
    pos = position()
    pos.given("set buttons of Suffragist to 30")
    pos.given("set buttons of Opposition to 30")
    pos.expect("buttons of Suffragist == 12 and buttons of Opposition == 6")


def test_civil_war_forbids_suffragist_cubes_in_the_south_and_atlantic():
    pos = position()
    pos.given(f"move {card('The Civil War')} to rest_of_turn")
    pos.given("add 1 Red to VA")
    pos.given(f"move {card('Jeannette Rankin')} to hand of Suffragist")
    pos.expect("size(addable(Suffragist, states)) == 32")
    pos.expect("size(addable(Opposition, states)) == 48")


def test_processions_lobbying_d8_adds_a_marker_on_6_7_8():
    pos = position()
    pos.given("create PurpleCampaigner at Northeast for Suffragist")
    pos.given("create YellowCampaigner at Northeast for Suffragist")
    pos.given(f"move {card('Processions for Suffrage')} to rest_of_turn")
    pos.next_roll(8, 7, 6)
    pos.do("lobby with Seneca Falls Convention")
    pos.expect("congress == 2")


def test_property_rights_campaigns_with_d6():
    pos = position()
    pos.given("create PurpleCampaigner at Northeast for Suffragist")
    pos.given(f"move {card('Property Rights for Women')} to rest_of_turn")
    pos.expect("campaign_die(Suffragist) == 6 and campaign_die(Opposition) == 4")
    pos.next_roll(6, 6)
    pos.do("campaign with Seneca Falls Convention")
    for _ in range(6):
        pos.answer("NY")
    pos.expect("Purple at NY == 6")


def test_two_event_taxes_cost_two_buttons():
    pos = position()
    pos.given(f"move {card('1918 Pandemic')} to rest_of_turn")
    pos.given(f"move {card('A Threat to the Ideal of Womanhood')} to rest_of_turn")
    pos.given("set buttons of Suffragist to 1")
    assert "play Seneca Falls Convention as an event" not in pos.match.legal_actions()
    pos.given("set buttons of Suffragist to 2")
    pos.do("play Seneca Falls Convention as an event")
    pos.answer("0")
    pos.expect("buttons of Suffragist == 2")   # paid 2, then received 2


def test_war_in_europe_taxes_suffragist_campaigning():
    pos = position()
    pos.given("create PurpleCampaigner at Northeast for Suffragist")  # campaigning needs a campaigner
    pos.run_on()
    assert "campaign with Seneca Falls Convention" in pos.match.legal_actions()
    pos.given(f"move {card('War in Europe')} to rest_of_turn")
    assert "campaign with Seneca Falls Convention" not in pos.match.legal_actions()  # no button for the tax
    pos.given("set buttons of Suffragist to 1")
    assert "campaign with Seneca Falls Convention" in pos.match.legal_actions()


def test_voting_dice_and_failed_success_roll():
    pos = position()
    pos.given(f"move {card('Voter Suppression')} to final_voting")
    pos.expect("voting_die(Opposition) == 8 and voting_die(Suffragist) == 6")
    pos.given(f"move {card('1918 Midterm Elections')} to hand of Suffragist")
    pos.next_roll(6, 2)
    pos.do("play 1918 Midterm Elections as an event")
    pos.expect("congress == 0")
    pos.expect('any(c.name == "1918 Midterm Elections" for c in discard of Suffragist)')


# ── the rules that decide the match, each resolved alone from a written position ──


@pytest.mark.parametrize(("answer", "suffragist", "opposition", "claimer"), [
    ("defer", 1, 3, "Suffragist"),       # the Suffragist spends its 2 and takes a card
    ("match", 1, 1, None),               # both spend 2; nobody takes a card
    ("supersede", 1, 0, "Opposition"),   # the Opposition spends one more, 3, and takes it
])
def test_strategy_phase_defer_match_supersede(answer, suffragist, opposition, claimer):
    """Rulebook, Strategy Phase: the Suffragist commits buttons; the Opposition defers,
    matches or supersedes, and the one who gets a Strategy card sees it replaced."""
    pos = position()
    pos.given("set buttons of Suffragist to 3\nset buttons of Opposition to 3")
    pos.resolve_rule("strategy_phase()")
    pos.answer("2")
    pos.answer(answer)
    if claimer:
        assert pos.match.pending["prompt"].startswith(f"{claimer}: ")
        pos.answer("Reconsideration")
        pos.expect(f'any(c.name == "Reconsideration" for c in claimed of {claimer})')
    pos.expect(f"buttons of Suffragist == {suffragist} and buttons of Opposition == {opposition}")
    pos.expect("size(claimed of Suffragist) + size(claimed of Opposition) == " + ("1" if claimer else "0"))
    pos.expect("size(strategy_cards) == 3")   # three always available


def test_final_voting_adds_the_suffragist_cubes_and_the_higher_total_wins():
    """Rulebook, Final Voting: each side rolls a d6 and adds its cubes in the state; the
    higher total wins the state, which takes a check or an X (and keeps no cubes)."""
    pos = position()
    pos.given("set sent to true\nadd 2 Purple to NY\nadd 1 Yellow to NY")
    pos.given("set buttons of Suffragist to 0\nset buttons of Opposition to 0")
    pos.next_roll(6, 3, 5)    # the Suffragist's 3 + 3 cubes = 6 beats the Opposition's 5 (the roll alone loses)
    pos.resolve_rule("vote(NY)")
    pos.expect("Check at NY == 1 and X at NY == 0")
    pos.expect("Purple at NY + Yellow at NY == 0")


def test_final_voting_without_cubes_the_higher_roll_wins():
    pos = position()
    pos.given("set sent to true")
    pos.given("set buttons of Suffragist to 0\nset buttons of Opposition to 0")
    pos.next_roll(6, 4, 3)
    pos.resolve_rule("vote(CA)")
    pos.expect("Check at CA == 1")


def test_final_voting_the_suffragist_chooses_first_and_the_13th_x_ends_it():
    """Rulebook, Final Voting: the players take turns choosing a state, the Suffragist first;
    the 13th X wins for the Opposition at once (Sending the Nineteenth Amendment)."""
    pos = position()
    states = states_except("NY", "CA", "TX")
    pos.given("set sent to true")
    for st in states[:33]:
        pos.given(f"add 1 Check to {st}")
    for st in states[33:]:
        pos.given(f"add 1 X to {st}")
    pos.given("set buttons of Suffragist to 0\nset buttons of Opposition to 0")
    pos.next_roll(6, 6, 1, 1, 6)
    pos.resolve_rule("hold_final_voting()")
    assert pos.match.pending["prompt"].startswith("Suffragist: ")
    pos.answer("NY")          # 6 against 1: the 34th check
    assert pos.match.pending["prompt"].startswith("Opposition: ")
    pos.answer("CA")          # 1 against 6: the 13th X, and Texas is never voted on
    pos.expect("Check at NY == 1 and X at CA == 1 and not decided(TX)")
    assert pos.match.result["winners"] == ["Opposition"]


def test_cleanup_keeps_one_card_per_side_and_empties_the_rest_of_the_turn_box():
    """Rulebook, Cleanup Phase: the Rest of the Turn box is discarded; each player keeps one
    card in hand for the next turn (decision: the player picks which)."""
    pos = position()
    pos.given(f"move {card('Processions for Suffrage')} to rest_of_turn")
    pos.given("move hand of Opposition to discard of Opposition")
    pos.given(f"move {card('Horace Greeley')} to hand of Opposition")
    pos.resolve_rule("cleanup()")
    pos.answer("Seneca Falls Convention")           # the Suffragist's choice among 7 cards
    pos.expect("size(rest_of_turn) == 0")
    pos.expect('[c.name for c in hand of Suffragist] == ["Seneca Falls Convention"]')
    pos.expect("size(discard of Suffragist) == 7")  # the other 6 and Processions for Suffrage
    pos.expect('[c.name for c in hand of Opposition] == ["Horace Greeley"]')  # one card: kept, no question


@pytest.mark.parametrize("seed", range(30))
def test_random_matches_end(seed):
    match, steps, finished = random_playout(GAME, 2, seed, random.Random(seed))
    assert finished and match.result["winners"]


def test_the_end_of_turn_6_asks_no_card_to_carry_over():
    """Rulebook, Cleanup Phase: a card is carried over to the next Turn only at the end of Turns
    1-5; the end of Turn 6 discards the persistent boxes and ends the game or goes to Final
    Voting, so nobody is asked which card to keep."""
    pos = position()
    match = pos.match
    asked = []
    given_in = set()
    while not match.is_over:
        turn = pos.value("turn_number")[0]
        if turn >= 5 and turn not in given_in:
            pos.given("move top(deck of Suffragist, 2) to hand of Suffragist")
            given_in.add(turn)    # 2 cards more than the 6 rounds use, in Turns 5 and 6
        if "keep in hand" in (match.pending or {}).get("prompt", ""):
            asked.append(turn)
        match.apply(match.legal_actions()[-1])
    assert asked == [5]   # at the end of Turn 5, not of Turn 6
    assert match.result["winners"] == ["Opposition"]
