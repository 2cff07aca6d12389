"""display_all shows a list of values exactly as display shows each one, for every type a
choice can offer."""

from __future__ import annotations

import pytest

import ludus
from ludus.engine.display import display, display_all
from ludus.engine.runtime import Runtime
from tests.helpers import EXAMPLES

VALUES = [None, True, False, 0, 1, 3, -2, 10**40, "Docks", "hand@1", "deck@0", "nowhere@x", "", "market",
          [], [1, 2], ["Docks", "hand@0"], [["Docks", 2], ["Hill", 0]]]
TYPES = ["any", "number", "text", "seat", "zone", "space", "space:quarter", "entity", "entity:Good",
         "list:seat", "list:entity", "shares", "flag"]


@pytest.mark.parametrize("typ", TYPES)
def test_display_all_is_display_of_each(typ):
    game = ludus.load(EXAMPLES / "market-town.ludus")
    rt = Runtime(game, game.new_match(2, seed=1).state, [])
    shown = []  # the values display can show as this type
    for v in VALUES:
        try:
            one = display(rt, v, typ)
        except (IndexError, KeyError, ValueError, TypeError) as exc:
            with pytest.raises(type(exc)):  # and display_all fails the same way
                display_all(rt, [v], typ)
            continue
        assert display_all(rt, [v], typ) == [one], (v, typ)
        shown.append(v)
    assert len(shown) >= 12
    assert display_all(rt, shown, typ) == [display(rt, v, typ) for v in shown]
