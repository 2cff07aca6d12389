"""No view names, counts or locates a card its seat may not see: every view of random matches of
every shipped game is scanned for the names of cards the seat cannot know are there."""

from __future__ import annotations

import random

import pytest

import ludus
from tests.helpers import EXAMPLES, GAMES

SHIPPED = [GAMES / "uprising.ludus", GAMES / "votes-for-women" / "votes-for-women.ludus",
           EXAMPLES / "market-town.ludus", EXAMPLES / "uprising-great-country.ludus"]


def visible(game, state, e: dict, seat: int) -> bool:
    """Whether `seat` may see this card where it is; written apart from the engine's view, as a check."""
    loc = e["l"] or "box"
    if loc in game.spaces:
        return True
    zone, _, owner = loc.partition("@")
    spec = game.zones.get(zone)
    if spec is None or zone == "box":
        return False
    return spec.visibility == "public" or (spec.visibility == "owner only" and owner == str(seat)) or bool(e.get("rev"))


def strings(value, out: list) -> list:
    if isinstance(value, dict):
        for k, v in value.items():
            out.append(str(k))
            strings(v, out)
    elif isinstance(value, list):
        for v in value:
            strings(v, out)
    elif isinstance(value, str):
        out.append(value)
    return out


def secrets(game, state, seat: int) -> set[str]:
    """Names of cards that are only where `seat` cannot see them (no visible copy, no mention in
    the public parts of the game such as a var naming the card)."""
    hidden, seen = set(), set()
    for e in state["ents"]:
        if e["l"] in (None, "box"):
            continue
        (seen if visible(game, state, e, seat) else hidden).add(e["d"])
    return hidden - seen


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_views_never_name_a_card_the_seat_cannot_see(path):
    game = ludus.load(path)
    checked = secret_names = 0
    for seed in range(3):
        match = game.new_match(game.min_players, seed=seed)
        rng = random.Random(seed)
        for _ in range(250):
            if match.is_over:
                break
            for seat in range(match.state["nseats"]):
                view = match.view(seat)
                view.pop("decision", None)  # the seat's own options: what it may choose, which it knows
                text = strings(view, [])
                for name in secrets(game, match.state, seat):
                    secret_names += 1
                    leaks = [t for t in text if name in t]
                    assert not leaks, f"{match.seat_name(seat)} sees '{name}' in {leaks[:3]} (seed {seed})"
                checked += 1
            match.apply(rng.choice(match.legal_actions()))
    assert checked > 100
    has_hidden_zones = any(z.visibility != "public" for name, z in game.zones.items() if name != "box")
    assert (secret_names > 0) == has_hidden_zones  # the scan looked for something wherever there is something to hide


def test_the_scan_finds_a_leak(monkeypatch):
    """Make the view show every hand to everyone, and the scan must notice."""
    from ludus.engine import view as view_module

    monkeypatch.setattr(view_module, "_zone_view", lambda rt, visibility, cards, seat, owner:
                        [rt.state["ents"][c]["d"] for c in cards])
    with pytest.raises(AssertionError, match="sees"):
        test_views_never_name_a_card_the_seat_cannot_see(EXAMPLES / "market-town.ludus")
