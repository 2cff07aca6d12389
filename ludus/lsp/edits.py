"""Edits from one version of a text to another, as few and as small as a line diff makes them.

An edit is (start offset, end offset, new text), offsets into the old text; the edits of one
answer never overlap and come in the order of the text. server.py turns the offsets into the
editor's positions (text.py).
"""

from __future__ import annotations

from difflib import SequenceMatcher

from ..language.source import split_lines

Edit = tuple[int, int, str]


def _ending(line: str) -> str:
    if line.endswith("\r\n"):
        return "\r\n"
    return line[-1:] if line[-1:] in ("\r", "\n") else ""


def line_edits(old: str, new: str) -> list[Edit]:
    """The edits that make `old` into `new`: the lines that differ replaced, and where only a
    line's end differs (\\r\\n made \\n), just that end."""
    if old == new:
        return []
    olds, news = split_lines(old, keepends=True), split_lines(new, keepends=True)
    starts = [0]
    for line in olds:
        starts.append(starts[-1] + len(line))
    bodies = [line[:len(line) - len(_ending(line))] for line in olds]
    new_bodies = [line[:len(line) - len(_ending(line))] for line in news]
    edits: list[Edit] = []
    matcher = SequenceMatcher(None, bodies, new_bodies, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op != "equal":
            edits.append((starts[i1], starts[i2], "".join(news[j1:j2])))
            continue
        for i, j in zip(range(i1, i2), range(j1, j2), strict=True):
            was, now = _ending(olds[i]), _ending(news[j])
            if was != now:
                edits.append((starts[i + 1] - len(was), starts[i + 1], now))
    return edits


def apply(text: str, edits: list[Edit]) -> str:
    """The text with edits (in order, not overlapping) made."""
    out, at = [], 0
    for start, end, new in edits:
        out.append(text[at:start])
        out.append(new)
        at = end
    out.append(text[at:])
    return "".join(out)
