"""`and` / `or` read their right side only when it decides the answer (docs/language.md, Control)."""

from __future__ import annotations

import pytest

import ludus
from ludus.engine.runtime import RuleError

SOURCE = '''game "Short circuit"
players 2
zone hand per seat
flag cheap
flag any_card
kind Good:
    cost: number
card "Lamp" is Good:
    cost 2
flow:
    set cheap to size(hand of P1) > 0 and top(hand of P1).cost < 3
    set any_card to size(hand of P1) == 0 or top(hand of P1).cost > 0
    win P1
'''


def test_the_right_side_is_not_read_when_the_left_decides(tmp_path):
    path = tmp_path / "sc.ludus"
    path.write_text(SOURCE, encoding="utf-8")
    m = ludus.load(path).new_match(2, seed=0)
    # an empty hand: reading top(hand).cost would stop the rules with an error
    assert m.result["winners"] == ["P1"]
    assert m.view()["counters"] == {"cheap": False, "any_card": True}


def test_reading_a_property_of_nothing_is_an_error_when_not_guarded(tmp_path):
    path = tmp_path / "sc.ludus"
    path.write_text(SOURCE.replace("size(hand of P1) > 0 and ", ""), encoding="utf-8")
    with pytest.raises(RuleError, match="cost"):
        ludus.load(path).new_match(2, seed=0)
