"""The language server's answers on mutated buffers: whatever the editor holds, every question
gets an answer or none, never an exception (seeded, like tests/fuzz; LUDUS_FUZZ_EXAMPLES for more)."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ludus.lsp.workspace import Refused, Workspace
from tests.helpers import EXAMPLES, GAMES

FUZZ = settings(max_examples=int(os.environ.get("LUDUS_FUZZ_EXAMPLES", "30")), derandomize=True, deadline=None,
                database=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

BASES = [(EXAMPLES / "market-town.ludus").read_text(encoding="utf-8"),
         (GAMES / "stonewall-uprising" / "events.ludus").read_text(encoding="utf-8")]
PIECES = ['"', "{", "}", ":", "(", ")", "[", "]", "#", "\n", "\t", "    ", "-", "\\", "\x00", "é", "card ",
          "rule x(", "if ", "when ", "include \"cards.ludus\"\n", "extends \"game.ludus\"\n", "9" * 30]


@st.composite
def mutated(draw):
    text = draw(st.sampled_from(BASES))
    for _ in range(draw(st.integers(1, 12))):
        at = draw(st.integers(0, len(text)))
        cut = draw(st.integers(0, 8))
        text = text[:at] + draw(st.sampled_from(PIECES)) + text[at + cut:]
    return text


@FUZZ
@given(text=mutated(), spots=st.lists(st.tuples(st.integers(-3, 300), st.integers(-3, 120)), min_size=1, max_size=6))
def test_any_buffer_gets_answers_not_exceptions(tmp_path, text, spots):
    path = str(tmp_path / "game.ludus")
    ws = Workspace()
    ws.open(path, text)
    analysis = ws.analyse(path)
    assert all(isinstance(d.message, str) for ds in analysis.diagnostics.values() for d in ds)
    for line, column in spots:
        ws.hover(path, line, column)
        ws.definition(path, line, column)
        ws.completions(path, line, column)
        ws.references(path, line, column, True)
        try:
            ws.rename(path, line, column, "renamed")
        except Refused:
            pass
    ws.outline(path)
    ws.formatted(text, path)
