"""A document's text as an editor addresses it, and as ludus does; edits applied by position.

An editor (LSP) counts lines ending at \\n, \\r\\n or \\r, and a position's character in the code
units of the encoding agreed at `initialize`: UTF-16 unless the editor offers another, so an
emoji counts 2. ludus's spans count lines the same way (language/source.py, split_lines) and
columns in characters. Both are turned into offsets in the Python string here, and back.

A position past the end of a line is the end of that line (the LSP specification's rule), one
past the last line is the end of the text (the rule of the editors' own libraries), and one in
the middle of a character (half of a UTF-16 surrogate pair) is the start of that character.

No pygls here: server.py hands on the positions and edits it receives.
"""

from __future__ import annotations

from bisect import bisect_right

from ..language.source import LINE_END

ENCODINGS = ("utf-8", "utf-16", "utf-32")  # LSP's PositionEncodingKind values


class Text:
    """One version of a document's text, in one position encoding ("utf-8", "utf-16" or
    "utf-32"; another is taken as UTF-16, LSP's default)."""

    def __init__(self, text: str, encoding: str = "utf-16") -> None:
        self.text = text
        self.encoding = encoding if encoding in ENCODINGS else "utf-16"
        self._lines: list[int] | None = None  # where each editor's line starts

    @property
    def lines(self) -> list[int]:
        if self._lines is None:
            self._lines = [0] + [m.end() for m in LINE_END.finditer(self.text)]
        return self._lines

    # ── the editor's positions ──

    def line_end(self, line: int) -> int:
        """The offset of the end of an editor's line, before its line break."""
        lines = self.lines
        if line + 1 >= len(lines):
            return len(self.text)
        end = lines[line + 1]
        return end - 2 if self.text.startswith("\r\n", end - 2) else end - 1

    def offset(self, line: int, character: int) -> int:
        """The offset of an editor's position."""
        if line < 0:
            return 0
        if line >= len(self.lines):
            return len(self.text)
        start, end = self.lines[line], self.line_end(line)
        return start + self._characters(self.text[start:end], character)

    def position(self, offset: int) -> tuple[int, int]:
        """The editor's position (line, character) of an offset. An offset between the \\r and
        the \\n of a line break is the end of the line."""
        offset = min(max(offset, 0), len(self.text))
        line = bisect_right(self.lines, offset) - 1
        start = self.lines[line]
        return line, self.units(self.text[start:min(offset, self.line_end(line))])

    def units(self, text: str) -> int:
        """How many code units the editor counts in a piece of text."""
        if self.encoding == "utf-32" or text.isascii():
            return len(text)
        if self.encoding == "utf-16":
            return len(text.encode("utf-16-le", "surrogatepass")) // 2
        return len(text.encode("utf-8", "surrogatepass"))

    def _characters(self, line: str, units: int) -> int:
        """How many characters of a line (no line break) the first `units` code units cover."""
        if self.encoding == "utf-32" or line.isascii():
            return min(units, len(line))
        counted = 0
        for i, char in enumerate(line):
            counted += self.units(char)
            if counted > units:
                return i
        return len(line)

    def edited(self, start: tuple[int, int], end: tuple[int, int], new: str) -> str:
        """The text with the range from `start` to `end` (editor's positions) replaced by `new`.
        A range whose end comes before its start is taken the right way round."""
        first, last = sorted((self.offset(*start), self.offset(*end)))
        return self.text[:first] + new + self.text[last:]

    # ── ludus's places ──

    def ludus_offset(self, line: int, column: int) -> int:
        """The offset of a place in ludus's terms: line and column counted from 1, as in a span."""
        lines = self.lines  # ludus's lines are the editor's (source.split_lines)
        if line < 1:
            return 0
        if line > len(lines):
            return len(self.text)
        start = lines[line - 1]
        return start + min(max(column - 1, 0), self.line_end(line - 1) - start)

    def ludus_place(self, offset: int) -> tuple[int, int]:
        """The place of an offset in ludus's terms, line and column counted from 0 (as the
        Workspace's questions take them)."""
        offset = min(max(offset, 0), len(self.text))
        line = bisect_right(self.lines, offset) - 1
        return line, offset - self.lines[line]
