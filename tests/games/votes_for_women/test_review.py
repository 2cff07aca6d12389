"""Votes for Women: the card-by-card review's findings (decisions R1 to R10 in the game file's
header), each from a position where it matters."""

from __future__ import annotations

import ludus
from ludus.testing import Position
from tests.helpers import GAMES

GAME = ludus.load(GAMES / "votes-for-women" / "votes-for-women.ludus")


def card(name: str) -> str:
    return f'cards("{name}")'


def position(seed: int = 1) -> Position:
    return Position(GAME, seed=seed)


def on_top(pos: Position, seat: str, names: list[str]) -> None:
    """Put these cards on top of the seat's deck, the first name on top."""
    for name in reversed(names):
        pos.given(f"move {card(name)} to deck of {seat}")


def hand(pos: Position, seat: str, names: list[str]) -> None:
    """These cards in the seat's hand, the others to its discard pile (added first, so the hand
    is never empty while the flow waits on it)."""
    for name in names:
        pos.given(f"move {card(name)} to hand of {seat}")
    listed = ", ".join(f'"{n}"' for n in names)
    pos.given(f"move [c for c in hand of {seat} where c.name not in [{listed}]] to discard of {seat}")


def claim(pos: Position, seat: str, name: str) -> None:
    """The card is claimed by the seat, and the Suffragist plays a hand card first, so that the
    claimed card is offered after it."""
    pos.given(f"move {card(name)} to claimed of {seat}")
    if seat == "Suffragist":
        pos.do("organize with Seneca Falls Convention")
        pos.run_on()


def test_r1_the_winning_plan_keeps_its_other_cards_apart_while_the_chosen_one_resolves():
    pos = position()
    claim(pos, "Suffragist", "The Winning Plan")
    on_top(pos, "Suffragist", ["A Vindication of the Rights of Woman", "Frances Willard", "Pioneer Women",
                               "Lucy Stone", "Sojourner Truth", "Helen Keller", "Carrie Chapman Catt", "Inez Milholland"])
    pos.do("play claimed The Winning Plan")
    pos.answer("A Vindication of the Rights of Woman")
    # Vindication draws its own 2 (Carrie Chapman Catt, Inez Milholland): the choice covers them only
    assert sorted(pos.match.legal_actions()) == ["Carrie Chapman Catt", "Inez Milholland"]
    pos.answer("Carrie Chapman Catt")
    # Carrie Chapman Catt's own choices, then the Winning Plan's five come back to be sorted
    while "top of your deck" not in pos.match.pending["prompt"]:
        pos.answer(pos.match.legal_actions()[0])
    assert sorted(pos.match.legal_actions()) == ["Frances Willard", "Helen Keller", "Lucy Stone", "Pioneer Women",
                                                 "Sojourner Truth", "done"]
    pos.answer("done")
    for _ in range(4):   # the player orders the bottom ones (R10)
        assert pos.match.pending["prompt"] == "Suffragist: Which card goes to the bottom of your deck next?"
        pos.answer(pos.match.legal_actions()[0])
    pos.expect('count(c for c in deck of Suffragist where c.name == "Frances Willard" or c.name == "Pioneer Women" '
               'or c.name == "Lucy Stone" or c.name == "Sojourner Truth" or c.name == "Helen Keller") == 5')
    pos.expect('first(c.loc for c in cards("Inez Milholland")) == discard of Suffragist')


def test_r2_transcontinental_railroad_shows_a_campaigner_so_change_in_plans_cannot_take_it():
    pos = position()
    pos.expect('first(c.campaigner for c in cards("Transcontinental Railroad"))')
    hand(pos, "Opposition", ["Transcontinental Railroad", "Old Dixie"])
    claim(pos, "Suffragist", "Change In Plans")
    pos.do("play claimed Change In Plans")
    assert pos.match.legal_actions() == ["Old Dixie"]      # not the Railroad, which shows a campaigner
    pos.answer("Old Dixie")
    pos.expect('first(c.loc for c in cards("Old Dixie")) == discard of Opposition')
    pos.expect('first(c.loc for c in cards("Transcontinental Railroad")) == hand of Opposition')


def test_r3_xenophobia_must_remove_a_colour_from_a_state():
    pos = position()
    pos.given("add 2 Purple to NY")
    pos.given("add 1 Purple to CA")
    pos.given("add 3 Yellow to OH")
    hand(pos, "Opposition", ["Xenophobia"])
    pos.do("organize with Seneca Falls Convention")
    pos.run_on()
    pos.do("play Xenophobia as an event")
    # no "done": a Purple state must be chosen, then a Yellow one
    assert sorted(pos.match.legal_actions()) == ["CA", "NY"]
    pos.answer("NY")
    assert pos.match.legal_actions() == ["OH"]
    pos.answer("OH")
    pos.expect("Purple at NY == 0 and Purple at CA == 1 and Yellow at OH == 0")


def test_r4_reconsideration_offers_no_state_where_the_civil_war_forbids_adding():
    pos = position()
    pos.given("set sent to true")
    pos.given("add 1 X to GA")
    pos.given("add 1 X to NY")
    pos.given(f"move first({card('The Civil War')}) to rest_of_turn")
    claim(pos, "Suffragist", "Reconsideration")
    pos.do("play claimed Reconsideration")
    assert pos.match.legal_actions() == ["NY"]


def test_r4_reconsideration_cannot_be_played_when_only_blocked_states_hold_an_x():
    pos = position()
    pos.given("set sent to true")
    pos.given("add 1 X to GA")
    pos.given(f"move first({card('The Civil War')}) to rest_of_turn")
    claim(pos, "Suffragist", "Reconsideration")
    pos.run_on()
    # it cannot be played: no claimed card is offered, and the turn has passed to the Opposition
    assert pos.match.pending["prompt"] == "Opposition: take an action"
    pos.expect('first(c.loc for c in cards("Reconsideration")) == claimed of Suffragist')


def test_r5_only_a_card_that_can_be_played_is_offered_and_with_none_one_is_kept():
    pos = position()
    hand(pos, "Suffragist", ["A Vindication of the Rights of Woman"])
    # Union Victory needs The Civil War in effect: it cannot be played; Frances Willard can
    on_top(pos, "Suffragist", ["Union Victory", "Frances Willard"])
    pos.do("play A Vindication of the Rights of Woman as an event")
    pos.run_on()
    assert pos.match.pending["prompt"].endswith("The other is discarded.") and pos.match.legal_actions() == ["Frances Willard"]
    pos2 = position()
    hand(pos2, "Suffragist", ["A Vindication of the Rights of Woman"])
    on_top(pos2, "Suffragist", ["Union Victory", "Women and World War I"])
    pos2.do("play A Vindication of the Rights of Woman as an event")
    pos2.run_on()
    assert pos2.match.pending["prompt"] == "Suffragist: Neither card can be played: which one do you discard?"
    pos2.answer("Union Victory")
    pos2.expect('first(c.loc for c in cards("Women and World War I")) == hand of Suffragist')


def test_r6_an_event_tax_applies_to_a_card_played_through_another():
    pos = position()
    pos.given("set buttons of Suffragist to 5")
    pos.given(f"move first({card('1918 Pandemic')}) to rest_of_turn")
    hand(pos, "Suffragist", ["A Vindication of the Rights of Woman"])
    on_top(pos, "Suffragist", ["Frances Willard", "Pioneer Women"])
    pos.do("play A Vindication of the Rights of Woman as an event")   # 1 button: the tax
    pos.answer("Frances Willard")                                      # 1 more: the tax again
    # 5, less the two taxes, plus Frances Willard's 2 (without the second tax it would be 6)
    pos.expect("buttons of Suffragist == 5")
    pos.expect('first(c.loc for c in cards("Frances Willard")) != deck of Suffragist')


def test_r6_war_in_europe_taxes_transportations_campaigning():
    pos = position()
    pos.given("set buttons of Suffragist to 0")
    pos.given(f"move first({card('War in Europe')}) to rest_of_turn")
    pos.given("create PurpleCampaigner at Northeast for Suffragist")
    claim(pos, "Suffragist", "Transportation")
    pos.do("play claimed Transportation")
    pos.answer("Northeast")
    pos.run_on()
    pos.expect("Purple at NY + Purple at VT + Purple at CT + Purple at MA + Purple at NH + Purple at ME + Purple at RI == 0")


def test_r7_anti_suffrage_riots_against_a_hand_of_one_card():
    pos = position()
    hand(pos, "Suffragist", ["Frances Willard"])
    pos.resolve("Anti-Suffrage Riots", "Opposition")
    pos.expect('first(c.loc for c in cards("Frances Willard")) == discard of Suffragist')
    pos.expect("size(hand of Suffragist) == 2")


def test_r9_no_campaigner_no_campaigning_or_lobbying_but_organizing_stays():
    pos = position()
    options = pos.match.legal_actions()
    assert not any(o.startswith(("campaign with", "lobby with")) for o in options)
    assert any(o.startswith("organize with") for o in options)
    pos.given("create PurpleCampaigner at Northeast for Suffragist")
    pos.run_on()
    options = pos.match.legal_actions()
    assert any(o.startswith("campaign with") for o in options) and any(o.startswith("lobby with") for o in options)


def test_r9_no_lobbying_once_the_amendment_is_sent():
    pos = position()
    pos.given("create PurpleCampaigner at Northeast for Suffragist")
    pos.run_on()
    assert any(o.startswith("lobby with") for o in pos.match.legal_actions())
    pos.given("set sent to true")
    pos.run_on()
    assert not any(o.startswith("lobby with") for o in pos.match.legal_actions())


def test_r9_no_re_roll_when_every_die_shows_its_best_face():
    pos = position()
    pos.given("set buttons of Suffragist to 3")
    pos.given("create PurpleCampaigner at Northeast for Suffragist")
    pos.next_roll(6, 6)
    pos.do("lobby with Seneca Falls Convention")
    pos.run_on()
    # the 6 succeeded: the next question is what the success does, not a re-roll
    assert pos.match.legal_actions() == ["add a marker", "remove a marker"]


def test_r9_a_strategy_commitment_stops_one_above_the_oppositions_buttons():
    import random

    seen = 0
    for seed in range(6):
        m = GAME.new_match(2, seed=seed)
        rng = random.Random(seed)
        while not m.is_over and seen < 3:
            pending = m.state["pending"]
            if pending["prompt"] == "Suffragist: How many buttons do you commit?":
                opposition = m.view()["counters"]["buttons"]["Opposition"]
                suffragist = m.view()["counters"]["buttons"]["Suffragist"]
                assert m.legal_actions() == [str(v) for v in range(0, min(suffragist, opposition + 1) + 1)]
                seen += 1
            m.apply(rng.choice(m.legal_actions()))
    assert seen == 3


def test_r9_a_final_voting_re_roll_is_offered_only_when_the_best_face_could_change_the_vote():
    import random

    from ludus.testing.position import compile_expression

    def value(m, text):
        return compile_expression(GAME, text, "<test>", 1, 1)(m)[0]

    asked = 0
    for seed in range(8):
        m = GAME.new_match(2, seed=seed)
        rng = random.Random(seed)
        while not m.is_over:
            if m.state["pending"]["prompt"].endswith("Spend a button to re-roll your die?"):
                env = m.state["stack"][-1]["env"]
                st, sd, od = env["st"], env["sd"], env["od"]
                if env["behind"] == 0:   # the Suffragist: its best face must win the vote
                    assert value(m, f"suffragist_wins_vote({st}, voting_die(Suffragist), {od})")
                else:                    # the Opposition: its best face must stop the Suffragist
                    assert not value(m, f"suffragist_wins_vote({st}, {sd}, voting_die(Opposition))")
                asked += 1
            m.apply(rng.choice(m.legal_actions()))
    assert asked > 5


def test_r4_bellwether_state_offers_no_state_where_the_civil_war_forbids_adding():
    pos = position()
    pos.given(f"move first({card('The Civil War')}) to rest_of_turn")
    claim(pos, "Suffragist", "Bellwether State")
    pos.do("play claimed Bellwether State")
    offered = pos.match.legal_actions()
    assert "NY" in offered and "GA" not in offered and "VA" not in offered
    without = position()                 # no Civil War: Georgia and Virginia are offered too
    claim(without, "Suffragist", "Bellwether State")
    without.do("play claimed Bellwether State")
    assert "GA" in without.match.legal_actions() and "VA" in without.match.legal_actions()


def test_r8_two_taxes_at_once_cost_two_buttons():
    pos = position()
    pos.given("set buttons of Suffragist to 2")
    pos.given(f"move first({card('1918 Pandemic')}) to rest_of_turn")
    pos.given(f"move first({card('A Threat to the Ideal of Womanhood')}) to rest_of_turn")
    hand(pos, "Suffragist", ["Pioneer Women"])
    pos.do("play Pioneer Women as an event")
    pos.expect("buttons of Suffragist == 0")
    pos2 = position()
    pos2.given("set buttons of Suffragist to 1")
    pos2.given(f"move first({card('1918 Pandemic')}) to rest_of_turn")
    pos2.given(f"move first({card('A Threat to the Ideal of Womanhood')}) to rest_of_turn")
    hand(pos2, "Suffragist", ["Pioneer Women"])
    pos2.run_on()
    assert "play Pioneer Women as an event" not in pos2.match.legal_actions()
