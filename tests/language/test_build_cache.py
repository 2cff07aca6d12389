"""A file loaded again unchanged is not parsed again; a changed file always is."""

from __future__ import annotations

import pytest

from ludus.language.build import build
from ludus.language.source import LudusError
from ludus.pipeline import load

GAME = 'game "Cached"\nseats A, B\ncounter n per seat\nflow:\n    turn A:\n        gain {k} n\n    win A\n'


def test_the_same_text_builds_to_the_same_nodes_once():
    text = GAME.format(k=1)
    assert build(text, "c.ludus") is build(text, "c.ludus")
    # the path is part of every span, so another path is another build
    assert build(text, "d.ludus") is not build(text, "c.ludus")


def test_an_edited_file_is_read_afresh(tmp_path):
    path = tmp_path / "g.ludus"
    path.write_text(GAME.format(k=1), encoding="utf-8")
    first = load(path).new_match(seed=0)
    path.write_text(GAME.format(k=5), encoding="utf-8")
    second = load(path).new_match(seed=0)
    assert first.view(None)["counters"]["n"]["A"] == 1
    assert second.view(None)["counters"]["n"]["A"] == 5


def test_a_syntax_error_is_not_remembered(tmp_path):
    bad = GAME.format(k=1).replace("flow:", "flow")
    with pytest.raises(LudusError):
        build(bad, "e.ludus")
    with pytest.raises(LudusError):
        build(bad, "e.ludus")  # raised again, not served from anywhere
