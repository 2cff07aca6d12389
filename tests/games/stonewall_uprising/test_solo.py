"""Stonewall Uprising, solo: The Man's automa, rule by rule, from described positions. The
automa holds the first player token, so each match opens after its first card, on Pride's
turn; `automa_deck` is ordered by moving cards onto its top."""

from __future__ import annotations

import random

import pytest

import ludus
from ludus.testing import Position
from tests.helpers import GAMES, play_random

GAME = ludus.load(GAMES / "stonewall-uprising" / "stonewall-uprising-solo.ludus")


def card(name: str) -> str:
    return f'card("{name}")'


def position(*automa_top: str, pride: tuple[str, ...] = ("Letter Campaign", "Bar Regulars"), seed: int = 1) -> Position:
    """Pride holds `pride` (two cards by default, so that after one automa card the turn comes
    back to Pride); the automa's next cards are `automa_top`, first one first."""
    pos = Position(GAME, seed=seed)
    pos.given("move hand of Pride to deck of Pride")
    for name in pride:
        pos.given(f'move first([c for c in cards("{name}") where c.loc != hand of Pride]) to hand of Pride')
    for name in reversed(automa_top):
        pos.given(f"move {card(name)} to automa_deck")
    return pos


def test_the_automa_resolves_only_the_current_decades_ability():
    pos = position("Undercover Officers")
    pos.given("set decade to 70")
    pos.given("set individual to 0")
    pos.do("play Letter Campaign")
    pos.run_on()
    # the 70s ability: Individual 2 toward The Man and 1 detained (not the 60s' 1 space)
    pos.expect("individual == -2 and size(detained) == 1")


# Church Sermons (1 hand icon, the automa's first card at seed 1) and Raids on the Baths (2):
# the next card with a hand icon makes the automa fold, so it plays just that one
THREE_HANDS = f"move {card('Raids on the Baths')} to played of TheMan"


def test_bold_numbers_double_after_pride_folds_first():
    pos = position("Undercover Officers")
    pos.given(THREE_HANDS)
    pos.given("set individual to 0")
    pos.do("fold")
    pos.answer("systemic")
    pos.run_on()
    pos.expect("doubled of TheMan")
    pos.expect("individual == -2")           # bold 1, doubled


def test_boxed_numbers_never_double():
    pos = position("Bar Closures")
    pos.given(THREE_HANDS)
    pos.given("set decade to 80")
    pos.given("set systemic to 0")
    pos.do("fold")
    pos.answer("public")
    pos.run_on()
    pos.expect("systemic == -2")             # a boxed 2, not doubled


def test_the_automa_folds_at_four_hand_icons_and_pushes_its_cards_track():
    pos = position("Loitering Arrests")
    pos.given(f"move {card('Raids on the Baths')} to played of TheMan")   # 1 + 2 hand icons so far
    pos.given("set individual to 0")
    pos.do("play Letter Campaign")
    pos.run_on()
    pos.expect("folded of TheMan")
    pos.expect("individual == 1")            # Loitering Arrests' fold symbol: Individual, toward Pride
    pos.expect("not doubled of Pride")       # decision 20


def test_the_automas_fold_push_stops_one_space_from_prides_end_zone():
    pos = position("Loitering Arrests")
    pos.given(f"move {card('Raids on the Baths')} to played of TheMan")
    pos.given("set individual to 3")
    pos.do("play Letter Campaign")
    pos.run_on()
    pos.expect("folded of TheMan and individual == 3")



def test_the_automas_fold_push_that_lands_on_a_law_token_triggers_it():
    """Decision 29: a Law token acts wherever a marker's move stops on it, the automa's fold
    push too; it pushes the marker back toward The Man and returns to the supply."""
    pos = position("Loitering Arrests")
    pos.given(f"move {card('Raids on the Baths')} to played of TheMan")
    pos.given("set individual to 0")
    pos.given("add 1 Law to space(individual, 1)")
    pos.given("set law_supply to 2")
    pos.do("play Letter Campaign")
    pos.run_on()
    pos.expect("folded of TheMan and individual == 0")
    pos.expect("Law at space(individual, 1) == 0 and law_supply == 3")

def test_shortfall_example_one_detained_three_to_demoralize():
    """Rulebook, solo: 1 detained, 3 to demoralize: demoralize the 1, then detain 2 (from the
    top of Pride's deck: the discard pile is empty). Psychiatric Ward's 80s ability
    demoralizes a boxed 3."""
    pos = position()
    pos.given(f"move {card('Harvey Milk')} to detained")
    pos.expect("size(discard of Pride) == 0")
    pos.resolve("Psychiatric Ward", "TheMan", "eighties")
    pos.expect("size(demoralized) == 1 and size(detained) == 2")
    pos.expect(f"{card('Harvey Milk')}.loc == demoralized")


def test_extra_card_tokens_make_the_automa_play_at_the_next_rounds_start():
    pos = position("Blacklisting", "Church Sermons", "Funding Cuts", "Backlash", "Bar Closures", "Undercover Officers")
    pos.given(f"move {card('Raids on the Baths')} to played of TheMan")
    pos.given("set extra_cards of TheMan to 2")
    pos.do("fold")
    pos.answer("systemic")
    pos.run_on()                             # the automa plays Blacklisting: 4 hand icons, it folds
    pos.expect("folded of TheMan")
    pos.do("stop buying")
    pos.run_on()                             # the next round opens with 2 automa cards, then discarded
    pos.expect("extra_cards of TheMan == 0")
    pos.expect(f"{card('Church Sermons')}.loc == automa_discard and {card('Funding Cuts')}.loc == automa_discard")


def test_retaliation_dice_on_a_track_join_the_pool_when_the_automa_reaches_its_end():
    pos = position("Undercover Officers", pride=("Sylvia Rivera", "Bar Regulars"))
    pos.given("set individual to -5")
    pos.do("play Sylvia Rivera")             # Individual +2, to -3; a Retaliation die
    pos.answer("individual")
    pos.expect("Retaliation at space(individual, 0) == 1")
    pos.next_roll(4, 3)
    pos.run_on()                             # the automa moves Individual to -4: The Man's end zone
    pos.expect("pool == [4] and pool_total == 3 and Retaliation at space(individual, 0) == 0")


def test_an_alternative_win_condition_in_the_80s():
    pos = position("Moral Panic")
    pos.given("set decade to 80")
    pos.given('move [c for c in PrideCards where c.decade == 0 and c.loc != hand of Pride] to demoralized')
    pos.expect("size(demoralized) >= 6")
    pos.do("play Letter Campaign")
    pos.run_on()
    assert pos.match.result["winners"] == ["TheMan"]


def test_the_alternative_win_condition_needs_its_condition():
    pos = position("Moral Panic")
    pos.given("set decade to 80")
    pos.do("play Letter Campaign")
    pos.run_on()
    assert pos.match.result is None


def test_aids_deaths_on_an_automa_card_move_the_track_in_any_decade():
    pos = position("Funding Cuts")
    pos.do("play Letter Campaign")
    pos.run_on()
    pos.expect("aids_deaths == 2")


def test_the_man_flips_the_automas_fixed_event_of_the_decade():
    pos = position("Undercover Officers", pride=())
    pos.given("set event_tokens of TheMan to 4")
    pos.given("set individual to -3")
    pos.run_on()                             # Pride has no card; the automa reaches its end zone: 5 tokens
    pos.play_until("stop buying")
    pos.expect('first(c.name for c in event_in_effect) == "Purge Hearings"')
    pos.expect("decade == 70 and boost_side == TheMan")


def test_deckthin_tokens_just_leave_in_the_solo_game():
    pos = position(pride=("Harvey Milk", "Bar Regulars"))
    pos.given("set overton to 25")
    pos.do("play Harvey Milk")               # 25 to 23, over the token on 24
    pos.expect("DeckThin at space(overton, 24) == 0 and overton == 23")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_solo_matches_end_with_a_result(seed):
    m = GAME.new_match(2, seed=seed)
    play_random(m, random.Random(seed), limit=20000)
    assert m.is_over


def test_the_setup_shuffles_pride_s_deck_and_the_automa_s_but_no_empty_deck_of_the_man():
    # the automa's deck is made apart: The Man has no deck of starting cards to shuffle, and a
    # log line "shuffled deck of The Man" would tell of a shuffle of nothing
    match = GAME.new_match(players=2, seed=0)
    shuffled = [entry["zone"] for entry in match.log if entry.get("t") == "shuffle"]
    assert shuffled == ["deck@0", "event_deck", "automa_deck"]
