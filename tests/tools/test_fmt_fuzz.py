"""Fuzzing `ludus fmt`: whatever text goes in, it comes out formatted, idempotent and meaning the
same, or is refused with a located syntax error: never a traceback, never a refusal to keep its
meaning (which would be a formatter bug). `LUDUS_FUZZ_EXAMPLES=2000` searches longer."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ludus.language.source import LudusError
from ludus.tools.fmt import format_text
from tests.fuzz.test_fuzz import CORPUS, FUZZ, WORDS

TEXTS = [p.read_text(encoding="utf-8") for p in CORPUS]
SPACES = [" ", "  ", "\t", "\n", "\n\n", "\r\n", "\\\n", "  # note\n", "\f"]


@FUZZ
@given(st.sampled_from(TEXTS), st.lists(st.tuples(st.floats(0, 1), st.sampled_from(WORDS + SPACES)), max_size=6))
def test_fmt_formats_or_refuses_with_a_place(text, edits):
    for where, piece in edits:
        at = int(where * len(text))
        text = text[:at] + piece + text[at:]
    try:
        out = format_text(text, "fuzz.ludus")
    except LudusError as err:
        assert err.diagnostics and all(d.span.line >= 1 for d in err.diagnostics)
        return
    assert format_text(out, "fuzz.ludus") == out
