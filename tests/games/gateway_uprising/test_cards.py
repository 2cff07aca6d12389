"""Gateway: Uprising: every card's effect, as a snapshot.

Cards a player plays are played from hand in the Deployment Phase; Runestones are used in an
attack on a district held by a Guard Veteran; each City Guard and Monster Horde card defends a
district alone against two Sledges; Event cards and district rewards are resolved. Every
decision is answered with the first option. `python -m pytest tests/games/gateway_uprising
--snapshot-update` accepts a changed effect; review the diff of the snapshot files.
"""

from __future__ import annotations

import pytest

import ludus
from ludus.testing import Position
from tests.games.gateway_uprising.test_rules import attack
from tests.helpers import GAMES

GAME = ludus.load(GAMES / "gateway-uprising" / "gateway-uprising.ludus")


def names(*kinds: str) -> list[str]:
    return sorted(d.name for d in GAME.defs.values() if d.kind in kinds)


PLAYED = names("Insurgent", "Support", "Merchant", "Leader")
STONES = names("Runestone")
ENEMIES = names("CityGuard", "Horde")
EVENTS = names("Event")
DISTRICTS = names("DistrictBoard")
SCENARIOS = names("Scenario")


def start(ludus_position) -> Position:
    pos = ludus_position(GAME, players=2, seed=1)
    pos.do("random")
    pos.run_on()
    # a position where abilities have something to work on: Red holds a district next to
    # Guards, has cards in its discard pile, and has no Runestone to be asked about;
    pos.given("set controller of UpperRight to Red")
    pos.given("move guards_at(UpperRight) to guard_discard")
    pos.given("move runestones of Red to removed")
    pos.given("move runestones of Blue to removed")
    pos.given('move first([c for c in cards("Sledge") where c.loc == SledgePile]) to discard of Red')
    pos.given("move hand of Red to deck of Red")
    # and the Horde holds a district already, for the events that look for it (its Guards
    # gone first: the rules never leave Guards and Horde in one district)
    pos.given("move guards_at(LowerLeft) to guard_discard")
    pos.given('move first(cards("Drueggar Grunt")) to LowerLeft')
    pos.effect()
    return pos


def answer_all(pos) -> None:
    for _ in range(200):
        pos.run_on()
        if pos.match.pending is None or not pos.match.pending["prompt"].startswith(("Red: ", "Blue: ")):
            return
        options = pos.match.legal_actions()
        if pos.match.pending["kind"] == "offer":
            return
        pos.answer("yes" if "yes" in options else options[0])
    raise AssertionError("more than 200 decisions")


@pytest.mark.parametrize("name", PLAYED)
def test_played_card_effect(name, ludus_position, effect_snapshot):
    pos = start(ludus_position)
    pos.given(f'move first([c for c in cards("{name}") where c.loc != hand of Red]) to hand of Red')
    pos.do(f"play {name}")
    answer_all(pos)
    assert pos.effect(f"{name}, played") == effect_snapshot


@pytest.mark.parametrize("name", STONES)
def test_runestone_in_battle(name, ludus_position, effect_snapshot):
    pos = start(ludus_position)
    pos.given('move [c for c in cards("Guard Veteran")] to guard_discard')
    pos.given("move guards_at(LowerRight) to guard_discard")
    pos.given('move first(cards("Guard Veteran")) to LowerRight')
    pos.given('move first([c for c in cards("Rebel") where c.loc == RebelPile]) to army of Red')
    pos.given(f'move first(cards("{name}")) to runestones of Red')
    pos.do("end deployment")
    pos.do("end recruiting")
    attack(pos, "LowerRight")
    answer_all(pos)
    assert pos.effect(f"{name}, used against a Guard Veteran") == effect_snapshot


@pytest.mark.parametrize("name", ENEMIES)
def test_enemy_defends_a_district(name, ludus_position, effect_snapshot):
    pos = start(ludus_position)
    pos.given("move guards_at(LowerRight) to guard_discard")
    pos.given(f'move first(cards("{name}")) to LowerRight')
    for _ in range(2):
        pos.given('move first([c for c in cards("Sledge") where c.loc == SledgePile]) to army of Red')
    pos.do("end deployment")
    pos.do("end recruiting")
    attack(pos, "LowerRight")
    answer_all(pos)
    assert pos.effect(f"{name}, defending against two Sledges") == effect_snapshot


def test_a_guard_captain_calls_another_guard_when_it_arrives(ludus_position):
    pos = start(ludus_position)
    pos.given("move guards_at(LowerRight) to guard_discard")
    pos.given('move first(cards("Guard Captain")) to guard_deck')
    pos.given('move first(cards("Guard Recruit")) to guard_deck')
    pos.given('move first(cards("Guard Captain")) to guard_deck')
    pos.resolve("Guard Patrol at the " + pos.value("first(m.name for m in markers_at(LowerRight))")[0], "Red")
    answer_all(pos)
    pos.expect('[c.name for c in guards_at(LowerRight)] == ["Guard Recruit", "Guard Captain"]')


@pytest.mark.parametrize("name", EVENTS)
def test_event_effect(name, ludus_position, effect_snapshot):
    pos = start(ludus_position)
    pos.resolve(name, "Red")
    answer_all(pos)
    assert pos.effect(f"{name}, drawn") == effect_snapshot


@pytest.mark.parametrize("name", DISTRICTS)
def test_district_reward(name, ludus_position, effect_snapshot):
    pos = start(ludus_position)
    pos.resolve(name, "Red", "freed")
    answer_all(pos)
    assert pos.effect(f"{name}, freed by Red") == effect_snapshot


@pytest.mark.parametrize("name", SCENARIOS)
def test_scenario_sets_its_piles_and_districts(name):
    pos = Position(GAME, players=4, seed=2)
    pos.do("scenario")
    pos.answer(name)
    pos.run_on()
    wanted = pos.value(f'[top(p).name for p in revolution_piles] == first(s.revolution for s in Scenarios where s.name == "{name}")')
    assert wanted[0] is True
    assert pos.value(f'[board_at(d).name for d in outer_ring] == first(s.suggested for s in Scenarios where s.name == "{name}")')[0] is True
    assert pos.value("all(size(p) == 5 for p in revolution_piles)")[0] is True


def test_every_card_is_covered():
    assert len(PLAYED) == 5 + 30 + 8
    assert len(STONES) == 9 and len(ENEMIES) == 8 and len(EVENTS) == 26 and len(DISTRICTS) == 10 and len(SCENARIOS) == 7


def test_the_box_holds_the_rulebooks_counts():
    copies = {d.name: d.copies for d in GAME.defs.values()}
    by_kind: dict = {}
    for d in GAME.defs.values():
        by_kind[d.kind] = by_kind.get(d.kind, 0) + d.copies
    assert by_kind["CityGuard"] == 22 and by_kind["Horde"] == 16 and by_kind["Event"] == 26
    assert by_kind["Runestone"] == 42 and by_kind["Leader"] == 8 and by_kind["Merchant"] == 48
    assert by_kind["Insurgent"] + by_kind["Support"] == 130 + 84
    assert all(copies[n] == 5 for n in names("Support")) and copies["Claw Knight"] == 5
