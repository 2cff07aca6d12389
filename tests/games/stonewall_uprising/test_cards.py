"""Stonewall Uprising: every card's effect, as a snapshot.

People are played the way a player plays them, from a position where their effects do
something (people detained, a Law token on a track, AIDS Deaths on the track); Event cards
are resolved on both sides, automa cards for each decade (in the solo game). Every decision
is answered with the first option. `python -m pytest tests/games/stonewall_uprising
--snapshot-update` accepts a changed effect; review the diff of the snapshot files.
"""

from __future__ import annotations

import pytest

import ludus
from tests.helpers import GAMES

GAME = ludus.load(GAMES / "stonewall-uprising" / "stonewall-uprising.ludus")
SOLO = ludus.load(GAMES / "stonewall-uprising" / "stonewall-uprising-solo.ludus")


def names(game, kind: str) -> list[str]:
    return sorted(d.name for d in game.defs.values() if d.kind == kind)


PEOPLE = names(GAME, "PrideCard") + names(GAME, "ManCard")
EVENTS = names(GAME, "Event")
AUTOMA = names(SOLO, "AutomaCard")
AUTOMA_EVENTS = sorted(d.name for d in SOLO.defs.values() if d.kind == "Event" and d.name not in EVENTS)

BUSY = [
    'move cards("Bar Regulars") to detained',
    'add 1 Law to space(systemic, -2)',
    'add 1 Law to space(individual, 2)',
    "set aids_deaths to 6",
]


def answer_all(pos) -> None:
    for _ in range(200):
        if pos._outer is None or pos.match.pending is None:
            return
        pos.answer(pos.match.legal_actions()[0])
    raise AssertionError("the effect asked more than 200 decisions")


def side_of(name: str) -> str:
    return "Pride" if name in names(GAME, "PrideCard") else "TheMan"


@pytest.mark.parametrize("name", PEOPLE)
def test_person_effect(name, ludus_position, effect_snapshot):
    pos = ludus_position(GAME, seed=1)
    for statement in BUSY:
        pos.given(statement)
    pos.given("move hand of TheMan to deck of TheMan")
    pos.given("move hand of Pride to deck of Pride")
    pos.given(f'move first([c for c in cards("{name}") where c.loc != played of TheMan]) to hand of {side_of(name)}')
    if side_of(name) == "Pride":
        pos.given('move card("City Ordinance") to hand of TheMan')
        pos.do("play City Ordinance")
        pos.effect()
    else:
        pos.given('move card("Bar Regulars") to hand of Pride')   # Pride has a turn to come
    pos.do(f"play {name}")
    answer_all(pos)
    assert pos.effect(f"{name}, played") == effect_snapshot


@pytest.mark.parametrize("side", ["pride", "man"])
@pytest.mark.parametrize("name", EVENTS)
def test_event_effect(name, side, ludus_position, effect_snapshot):
    pos = ludus_position(GAME, seed=1)
    for statement in BUSY:
        pos.given(statement)
    pos.given(f'move card("{name}") to event_in_effect')
    pos.resolve(name, "Pride" if side == "pride" else "TheMan", side)
    answer_all(pos)
    assert pos.effect(f"{name}, {side}'s side") == effect_snapshot


@pytest.mark.parametrize("decade", ["sixties", "seventies", "eighties"])
@pytest.mark.parametrize("name", AUTOMA)
def test_automa_card_effect(name, decade, ludus_position, effect_snapshot):
    pos = ludus_position(SOLO, seed=1)
    for statement in BUSY:
        pos.given(statement)
    pos.given(f"set decade to {dict(sixties=60, seventies=70, eighties=80)[decade]}")
    pos.resolve(name, "TheMan", decade)
    answer_all(pos)
    assert pos.effect(f"{name}, {decade}") == effect_snapshot


def test_newspaper_expose_lets_pride_stop_it_with_a_card(ludus_position):
    pos = ludus_position(SOLO, seed=1)
    before = pos.value("overton")[0]
    pos.resolve("Tabloid Outing", "TheMan", "after")
    pos.answer("yes")
    pos.answer(pos.match.legal_actions()[0])
    pos.expect(f"overton == {before} and size(discard of Pride) == 1")


@pytest.mark.parametrize("name", AUTOMA_EVENTS)
def test_automa_event_effect(name, ludus_position, effect_snapshot):
    pos = ludus_position(SOLO, seed=1)
    for statement in BUSY:
        pos.given(statement)
    pos.resolve(name, "TheMan", "man")
    answer_all(pos)
    assert pos.effect(f"{name}, the automa's event") == effect_snapshot


def test_every_card_is_covered():
    # a side: 4 different starting cards and 18 market cards (one a slot a decade)
    assert len(PEOPLE) == 2 * (4 + 18)
    assert len(EVENTS) == 6 and len(AUTOMA) == 12 and len(AUTOMA_EVENTS) == 3


def test_only_the_card_the_rulebook_gives_is_marked_exact(ludus_position):
    pos = ludus_position(GAME, seed=1)
    exact = pos.value("[c.name for c in PrideCards + ManCards + Events where not c.stand_in]")[0]
    assert exact == ["Marsha P. Johnson"]
    solo = ludus_position(SOLO, seed=1)
    assert solo.value("[c.name for c in AutomaCards + Events where not c.stand_in]")[0] == []
