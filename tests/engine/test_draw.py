"""`draw N` without `from`/`into`: the actor's deck, or the game's one shared deck."""

from __future__ import annotations

import ludus

SHARED = '''game "Shared deck"
players 2
zone deck
zone hand per seat
card "Lamp":
    copies 3
setup:
    move Cards to deck
flow:
    for each s in seats:
        turn s:
            draw 1
    end game
'''


def test_a_bare_draw_takes_from_the_shared_deck(tmp_path):
    path = tmp_path / "shared.ludus"
    path.write_text(SHARED, encoding="utf-8")
    m = ludus.load(path).new_match(2, seed=0)
    zones = m.view(None)["zones"]
    assert len(zones["hand of P1"]) == 1 and len(zones["hand of P2"]) == 1
    assert len(zones["deck"]) == 1


def test_a_bare_draw_takes_from_the_actors_own_deck(tmp_path):
    path = tmp_path / "own.ludus"
    path.write_text(SHARED.replace("zone deck\n", "zone deck per seat\n")
                    .replace("move Cards to deck", "move Cards to deck of P2"), encoding="utf-8")
    m = ludus.load(path).new_match(2, seed=0)
    zones = m.view(None)["zones"]
    assert len(zones["hand of P1"]) == 0 and len(zones["hand of P2"]) == 1


ORDER = '''game "Draw order"
players 1
zone deck refill from discard
zone discard
zone hand
card "A":
    copies 1
card "B":
    copies 1
card "C":
    copies 1
card "D":
    copies 1
card "E":
    copies 1
setup:
    move [c for c in Cards where c.name == "A" or c.name == "B"] to deck
    move [c for c in Cards where c.name != "A" and c.name != "B"] to discard
flow:
    turn P1:
        DRAWS
    end game
'''


def _zones_after(tmp_path, draws: str) -> dict:
    path = tmp_path / "order.ludus"
    path.write_text(ORDER.replace("DRAWS", draws), encoding="utf-8")
    return ludus.load(path).new_match(1, seed=3).view(None)["zones"]


def test_drawing_several_cards_is_drawing_them_one_at_a_time(tmp_path):
    # three cards from a deck of two: the third comes after the discard is shuffled in
    at_once = _zones_after(tmp_path, "draw 3 into hand")
    one_by_one = _zones_after(tmp_path, "draw 1 into hand\n        draw 1 into hand\n        draw 1 into hand")
    assert at_once == one_by_one
    assert len(at_once["hand"]) == 3 and len(at_once["deck"]) == 2 and at_once["discard"] == []


def test_a_deck_drawn_into_itself_keeps_its_order(tmp_path):
    before = _zones_after(tmp_path, "draw 0 into hand")
    after = _zones_after(tmp_path, "draw 2 from deck into deck")
    assert after == before
    assert len(after["deck"]) == 2
