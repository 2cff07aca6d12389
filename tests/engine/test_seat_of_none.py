"""A seat's `.name` read of none (a seat var not set yet, `first` of an empty list of seats)
says a seat was needed and the value is none, at the value, as a card's none is named
(runtime._no_entity, `owner_of`): not as a seat numbered None."""

from __future__ import annotations

import pytest

from ludus.engine.runtime import RuleError
from tests.helpers import game_from_text

SOURCE = '''game "Nobody"
players 2
var leader: seat start none
var who: text start ""
flow:
    set who to VALUE.name
    end game
'''


@pytest.mark.parametrize("value", ["leader", "first([s for s in seats where s != s])"])
def test_the_name_of_no_seat_is_refused_at_the_value(tmp_path, value):
    game = game_from_text(tmp_path, SOURCE.replace("VALUE", value))
    with pytest.raises(RuleError) as err:
        game.new_match(2)
    assert err.value.message == "'.name' needs a seat, and the value here is none"
    line = SOURCE.splitlines().index("    set who to VALUE.name") + 1
    span = err.value.span
    assert (span.line, span.column, span.end_column) == (line, 16, 16 + len(value))


def test_the_name_of_a_seat_is_read_as_before(tmp_path):
    game = game_from_text(tmp_path, SOURCE.replace("start none", "start P2").replace("VALUE", "leader"))
    assert game.new_match(2).state["vars"]["who"] == "P2"
