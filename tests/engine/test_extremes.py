"""max, min, most and least compare numbers with numbers and texts with texts: values of both
kinds (or none) stop the rule with an error in the language's words, located at the statement,
in the rules compiled to Python source and with the closures alike."""

from __future__ import annotations

import pytest

import ludus
from ludus.compiler import pysource
from ludus.engine.runtime import RuleError

SOURCE = '''game "Extremes"
players 3
var high: number start 0
var word: text start ""
var winners: list of seat start []
define mixed(s) = if s == P1 then 1 else "x"
define named(s) = if s == P2 then "b" else "a"
define maybe(s) = if s == P3 then none else 2
flow:
    set high to max(2 * seat_number(s) for s in seats)
    set word to max(named(s) for s in seats)
    set winners to least(named(s) for s in seats)
    HOLE
    win P1
'''


def run(tmp_path, monkeypatch, hole: str, generated: bool):
    monkeypatch.setattr(pysource, "ENABLED", generated)
    path = tmp_path / "extremes.ludus"
    path.write_text(SOURCE.replace("HOLE", hole), encoding="utf-8")
    return ludus.load(path).new_match(3)


@pytest.mark.parametrize("generated", [True, False])
def test_numbers_and_texts_each_still_have_their_extremes(tmp_path, monkeypatch, generated):
    m = run(tmp_path, monkeypatch, "set high to high + min(seat_number(s) for s in seats)", generated)
    shown = m.view(None)["counters"]
    assert (shown["high"], shown["word"], shown["winners"]) == (7, "b", ["P1", "P3"])


@pytest.mark.parametrize("generated", [True, False])
@pytest.mark.parametrize(("hole", "message"), [
    ("set high to max(mixed(s) for s in seats)", "'max' compares numbers with numbers and texts with texts, "
                                                 "and cannot compare 1 with 'x'"),
    ("set high to min(mixed(s) for s in seats where s != P2)", "'min' compares numbers with numbers and texts "
                                                               "with texts, and cannot compare 1 with 'x'"),
    ("set winners to most(mixed(s) for s in seats)", "'most' compares numbers with numbers and texts with texts, "
                                                     "and cannot compare 1 with 'x'"),
    ("set winners to least(maybe(s) for s in seats)", "'least' compares numbers with numbers and texts with texts, "
                                                      "and cannot compare 2 with none"),
    ("set winners to most([mixed(s) for s in seats])", "'most' compares numbers with numbers and texts with texts, "
                                                       "and cannot compare 1 with 'x'"),
    ("set winners to sorted(mixed(s) for s in seats)", "'sorted' orders numbers with numbers and texts with texts, "
                                                       "and cannot compare 1 with 'x'"),
])
def test_values_that_cannot_be_compared_stop_the_rule_with_a_located_error(tmp_path, monkeypatch, hole, message,
                                                                           generated):
    with pytest.raises(RuleError) as caught:
        run(tmp_path, monkeypatch, hole, generated)
    line = SOURCE.splitlines().index("    HOLE") + 1
    assert str(caught.value) == f"{tmp_path / 'extremes.ludus'}:{line}:5: error: {message}"
