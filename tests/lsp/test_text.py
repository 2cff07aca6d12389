"""Positions and edits as an editor sends them (LSP), in the three position encodings."""

from __future__ import annotations

import pytest

from ludus.lsp.text import Text


@pytest.mark.parametrize("text, start, end, new, result", [
    ("abc\ndef\n", (0, 1), (0, 2), "X", "aXc\ndef\n"),
    # past the end of a line: its end, before the line break
    ("abc\ndef\n", (0, 10), (0, 10), "X", "abcX\ndef\n"),
    ("abc\ndef\n", (0, 4), (0, 4), "X", "abcX\ndef\n"),
    ("abc\ndef", (1, 10), (1, 10), "X", "abc\ndefX"),
    ("abc\r\ndef\r\n", (0, 4), (0, 9), "X", "abcX\r\ndef\r\n"),
    ("abc\ndef\n", (0, 2), (0, 99), "", "ab\ndef\n"),
    # past the last line: the end of the text
    ("abc\ndef\n", (2, 0), (2, 0), "X", "abc\ndef\nX"),
    ("abc\ndef\n", (9, 9), (9, 9), "X", "abc\ndef\nX"),
    ("abc\ndef", (5, 0), (7, 3), "X", "abc\ndefX"),
    ("abc\ndef\n", (0, 1), (9, 0), "X", "aX"),
    ("", (3, 3), (3, 3), "X", "X"),
    # a range the wrong way round
    ("abc\ndef\n", (1, 1), (0, 1), "X", "aXef\n"),
    # lines end at \n, \r\n and \r only: not at a form feed, \x85 or U+2028, which Python's splitlines counts
    ("a\x0cb\nc\n", (1, 0), (1, 1), "X", "a\x0cb\nX\n"),
    ("a\u2028b\x85c\nd\n", (1, 0), (1, 1), "X", "a\u2028b\x85c\nX\n"),
    ("ab\rcd\r", (1, 0), (1, 1), "X", "ab\rXd\r"),
    # UTF-16: an emoji is two code units
    ("😀a\nc\n", (0, 2), (0, 3), "X", "😀X\nc\n"),
    ("é😀a\n", (0, 3), (0, 4), "", "é😀\n"),
    ("😀a\n", (0, 1), (0, 1), "X", "X😀a\n"),               # half an emoji: the start of it
])
def test_an_edit_applies_where_the_editor_means_it(text, start, end, new, result):
    assert Text(text).edited(start, end, new) == result


@pytest.mark.parametrize("encoding, character", [("utf-8", 7), ("utf-16", 5), ("utf-32", 4)])
def test_the_three_encodings_count_their_own_units(encoding, character):
    # the closing quote of x="😋", as the LSP specification counts it
    doc = Text('x="😋"\n', encoding)
    assert doc.offset(0, character) == 4
    assert doc.position(4) == (0, character)
    assert doc.units("😋") == {"utf-8": 4, "utf-16": 2, "utf-32": 1}[encoding]


def test_an_unknown_encoding_is_utf_16():
    assert Text("😋x", "utf-7").offset(0, 2) == 1


def test_ludus_places_and_editor_positions_meet_at_offsets():
    text = 'a\rb\r\nvalue e = "😀😀" + coinz\n'
    doc = Text(text)
    # ludus counts lines as the editor does (a lone \r ends one): line 3 from 1, line 2 from 0
    at = doc.ludus_offset(3, 18)
    assert text[at:at + 5] == "coinz"
    assert doc.position(at) == (2, 19)
    assert doc.ludus_place(doc.offset(2, 19)) == (2, 17)
    # the end of the line before a line break, whether ludus points at the \r or the \n
    assert doc.position(text.index("\r\n")) == doc.position(text.index("\r\n") + 1) == (1, 1)
    # past the end of a line or of the text: its end
    assert doc.ludus_offset(1, 99) == text.index("\r") and doc.ludus_offset(2, 99) == text.index("\r\n")
    assert doc.ludus_offset(99, 1) == len(text) and doc.ludus_offset(0, 5) == 0
    assert doc.position(10_000) == (3, 0) and doc.offset(-1, 0) == 0
