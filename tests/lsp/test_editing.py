"""Formatting, references, rename and quick fixes: the server's edits, in-process and over stdio."""

from __future__ import annotations

import asyncio
import logging

import pytest

pytest.importorskip("pygls")

from lsprotocol import types as t  # noqa: E402

from ludus.lsp.server import make_server  # noqa: E402
from ludus.lsp.text import Text  # noqa: E402
from ludus.tools.fmt import format_text  # noqa: E402


@pytest.fixture
def server():
    s = make_server()
    s.published_messages = []
    s.text_document_publish_diagnostics = s.published_messages.append
    return s


def handler(server, method):
    return server.protocol.fm.features[method]


def run(call):
    return asyncio.run(call) if asyncio.iscoroutine(call) else call


def applied(text: str, edits: list[t.TextEdit], encoding: str = "utf-16") -> str:
    """The text with an answer's edits made, as an editor makes them: each range in the text as
    it was, so from the last to the first."""
    ranges = [((e.range.start.line, e.range.start.character), (e.range.end.line, e.range.end.character)) for e in edits]
    assert ranges == sorted(ranges) and all(a[1] <= b[0] for a, b in zip(ranges, ranges[1:], strict=False))
    for edit in reversed(edits):
        r = edit.range
        text = Text(text, encoding).edited((r.start.line, r.start.character), (r.end.line, r.end.character), edit.new_text)
    return text


def format_buffer(server, path, text: str) -> list[t.TextEdit]:
    server.ludus.open(str(path), text)
    return run(handler(server, t.TEXT_DOCUMENT_FORMATTING)(t.DocumentFormattingParams(
        t.TextDocumentIdentifier(uri=path.as_uri()), t.FormattingOptions(tab_size=4, insert_spaces=True))))


# ── formatting ──

MESSY = ('game "Ünïcode 😀"\r\nplayers 2\r\ncounter   coins per seat\r\nflow:\r\n'
         '  gain 1 coins   # 😀 one\r\n  win P1\r\n')


def test_formatting_makes_the_buffer_what_ludus_fmt_makes_it_counting_utf16(server, tmp_path):
    path = tmp_path / "g.ludus"
    path.write_text("not what the editor shows\n", encoding="utf-8")   # the buffer counts, not the disk
    edits = format_buffer(server, path, MESSY)
    assert applied(MESSY, edits) == format_text(MESSY)
    # the first line keeps its text: only its line end changes, after 17 UTF-16 units (16 characters)
    first = edits[0]
    assert (first.range.start.line, first.range.start.character, first.range.end.line, first.range.end.character,
            first.new_text) == (0, 17, 1, 0, "\n")


def test_formatting_changes_only_the_lines_that_need_it(server, tmp_path):
    path = tmp_path / "g.ludus"
    text = 'game "G"\nplayers 2\ncounter coins per seat\nflow:\n    gain 1    coins\n    win P1\n'
    edits = format_buffer(server, path, text)
    assert [(e.range.start.line, e.range.start.character, e.range.end.line, e.range.end.character, e.new_text)
            for e in edits] == [(3, 0, 3, 0, "\n"), (4, 0, 5, 0, "    gain 1 coins\n")]   # a blank line before the flow
    assert format_buffer(server, path, format_text(text)) == []     # formatted already: nothing to do


def test_a_buffer_that_does_not_parse_gets_no_edits_and_no_error(server, tmp_path):
    path = tmp_path / "g.ludus"
    assert format_buffer(server, path, 'game "G"\nplayers 2\nflow:\n    gain 1 coins for\n') == []


def test_a_format_that_would_change_the_meaning_is_not_sent(server, tmp_path, monkeypatch, caplog):
    import ludus.tools.fmt as fmt

    path = tmp_path / "g.ludus"
    text = 'game "G"\nplayers 2\ncounter coins per seat\nflow:\n    gain 1    coins\n    win P1\n'
    # a formatter gone wrong: its result would gain 2 coins, not 1, and it refuses
    layout = fmt._layout
    monkeypatch.setattr(fmt, "_layout", lambda *a: [
        fmt.Out(o.kind, o.level, o.text.replace("gain 1", "gain 2"), o.comment, o.comment_column, o.indent,
                o.opens_block, o.continuation) for o in layout(*a)])
    with caplog.at_level(logging.WARNING, logger="ludus.lsp"):
        assert format_buffer(server, path, text) == []
    assert "would change what the file means" in caplog.text


def test_a_document_that_is_not_ludus_is_not_formatted(server, tmp_path):
    path = tmp_path / "notes.txt"
    assert format_buffer(server, path, "a   b\n") == []
