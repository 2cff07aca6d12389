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
