"""What every part of the builder shares: spans, text templates with holes, small helpers."""

from __future__ import annotations

import re

from lark import Token, Transformer

from .. import nodes as n
from ..parser import parse
from ..source import Diagnostic, LudusError, Span

_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "{": "\\{", "}": "\\}"}


def unquote(raw: str) -> str:
    body = raw[1:-1]
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(1)), body)


def _tok(tok: Token | None) -> str | None:
    return None if tok is None else str(tok)


def _block(children) -> tuple:
    return tuple(c for c in children if c is not None)



class BuilderBase(Transformer):
    def __init__(self, path: str) -> None:
        super().__init__()
        self.path = path

    def span(self, meta) -> Span:
        if getattr(meta, "empty", True) and not hasattr(meta, "line"):
            return Span(self.path, 1, 1, 1, 1)
        return Span(self.path, meta.line, meta.column, meta.end_line, meta.end_column)

    def tspan(self, tok: Token) -> Span:
        return Span(self.path, tok.line, tok.column, tok.end_line or tok.line, tok.end_column or tok.column + len(tok))

    def template(self, tok: Token) -> n.Template:
        """Split a string literal on its `{expr}` holes and parse each hole as an expression."""
        raw = str(tok)[1:-1]
        parts: list = []
        pos = 0
        buf = ""
        while pos < len(raw):
            ch = raw[pos]
            if ch == "\\" and pos + 1 < len(raw):
                buf += _ESCAPES.get(raw[pos + 1], raw[pos + 1]).replace("\\{", "{").replace("\\}", "}")
                pos += 2
                continue
            if ch == "{":
                end = raw.find("}", pos)
                if end < 0:
                    col = tok.column + 1 + pos
                    span = Span(self.path, tok.line, col, tok.line, col + 1)
                    raise LudusError([Diagnostic("error", "'{' opens a hole that is never closed with '}'", span)])
                if buf:
                    parts.append(buf)
                    buf = ""
                inner = raw[pos + 1 : end]
                column = tok.column + 1 + pos + 1
                parts.append(self.hole(inner, tok.line, column))
                pos = end + 1
                continue
            buf += ch
            pos += 1
        if buf:
            parts.append(buf)
        return n.Template(tuple(parts), span=self.tspan(tok))

    def hole(self, text: str, line: int, column: int):
        try:
            tree = parse(text, self.path, start="expr")
        except LudusError as err:
            moved = []
            for d in err.diagnostics:
                col = column + d.span.column - 1
                # the hole's text ends at its '}', not at the end of a file
                message = d.message.replace("unexpected end of file", "unexpected '}'", 1)
                moved.append(Diagnostic(d.severity, message, Span(self.path, line, col, line, col + 1)))
            raise LudusError(moved) from None
        sub = type(self)(self.path)
        node = sub.transform(tree)
        return shift_spans(node, line - 1, column - 1)



def shift_spans(node, dline: int, dcol: int):
    """Move a node parsed from a template hole to its place in the file (holes are one line)."""
    import attrs

    if isinstance(node, tuple):
        return tuple(shift_spans(x, dline, dcol) for x in node)
    if not attrs.has(type(node)):
        return node
    changes = {}
    for f in attrs.fields(type(node)):
        value = getattr(node, f.name)
        if f.name == "span":
            s = value
            changes["span"] = Span(s.path, s.line + dline, s.column + dcol, s.end_line + dline, s.end_column + dcol)
        elif isinstance(value, tuple) or attrs.has(type(value)):
            changes[f.name] = shift_spans(value, dline, dcol)
    return attrs.evolve(node, **changes)
