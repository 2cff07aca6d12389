"""A property read of none (`picked.cost` with `picked` not set yet, `top(deck).cost` of an empty
deck) names the property and what was none, as written, and is located at the read: the
statement's line alone left a designer to guess which of its reads it was. The generated code
and the closures say it alike."""

from __future__ import annotations

import pytest

from ludus.compiler import pysource
from ludus.engine.runtime import RuleError
from tests.helpers import game_from_text

SOURCE = '''game "Nothing"
players 2
counter coins per seat start 3
counter seen
zone deck
kind Thing:
    cost: number = 0
card "Lamp" is Thing: cost 2
var picked: Thing start none
var loose start none
rule look(x):
    set seen to 1 + READ
flow:
    look(picked)
    end game
'''

NONE = "which is none here (a var not set yet, or the top or first of an empty zone or list, is none)"


@pytest.mark.parametrize(("read", "what", "prop"), [
    ("picked.cost", "picked", "cost"),           # a kind's property (a field)
    ("size([picked.owner])", "picked", "owner"),  # what every card has
    ("top(deck).cost", "top(deck)", "cost"),      # an empty zone's top
    ("x.cost", "x", "cost"),                      # of a rule's untyped parameter
    ("loose.cost", "loose", "cost"),              # of an untyped var
])
@pytest.mark.parametrize("generated", [True, False])
def test_a_property_of_none_is_named_with_what_was_none_at_the_read(tmp_path, monkeypatch, read, what, prop,
                                                                     generated):
    monkeypatch.setattr(pysource, "ENABLED", generated)
    game = game_from_text(tmp_path, SOURCE.replace("READ", read))
    with pytest.raises(RuleError) as err:
        game.new_match(2)
    assert err.value.message == f"cannot read '{prop}' of '{what}', {NONE}"
    span = err.value.span
    line = SOURCE.splitlines().index("    set seen to 1 + READ") + 1
    column = 21 + read.index(what)  # where `what` starts: the read `what.prop`
    assert (span.path, span.line, span.column) == (str(tmp_path / "game.ludus"), line, column)
    assert span.end_column == column + len(f"{what}.{prop}")
    assert str(err.value).startswith(f"{tmp_path / 'game.ludus'}:{line}:{column}: error: ")
