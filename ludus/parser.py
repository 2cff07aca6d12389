"""Text in, Lark tree out; syntax errors become located diagnostics."""

from __future__ import annotations

import functools
from importlib import resources
from pathlib import Path

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.indenter import DedentError, Indenter

from .source import Diagnostic, LudusError, Span

KEYWORD_NAMES = {
    "_NL": "end of line",
    "_INDENT": "an indented block",
    "_DEDENT": "end of block",
    "NAME": "a name",
    "INT": "a number",
    "STRING": "a quoted string",
    "DIE": "a die such as d6",
    "$END": "end of file",
}


class LudusIndenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB"]
    CLOSE_PAREN_types = ["RPAR", "RSQB"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 4


def grammar_path() -> Path:
    """The grammar shipped inside the wheel, or the repository's own when run from a checkout."""
    shipped = resources.files("ludus") / "grammars" / "ludus.lark"
    if shipped.is_file():
        return Path(str(shipped))
    return Path(__file__).resolve().parent.parent / "grammars" / "ludus.lark"


@functools.cache
def _parser() -> Lark:
    return Lark.open(
        str(grammar_path()),
        parser="lalr",
        postlex=LudusIndenter(),
        propagate_positions=True,
        maybe_placeholders=True,
        start=["start", "expr", "statements"],
        cache=True,
    )


def parse(text: str, path: str = "<string>", start: str = "start") -> Tree:
    """Parse a whole file (or one expression with start='expr'); raise LudusError when it fails."""
    if start in ("start", "statements") and not text.endswith("\n"):
        text += "\n"
    try:
        return _parser().parse(text, start=start)
    except UnexpectedInput as exc:
        raise LudusError([_syntax_diagnostic(exc, text, path)]) from None
    except DedentError:
        line = _bad_dedent_line(text)
        span = Span(path, line, 1, line, 2)
        raise LudusError([Diagnostic("error", "this line's indentation matches no enclosing block", span)]) from None


def _bad_dedent_line(text: str) -> int:
    stack = [0]
    for number, raw in enumerate(text.splitlines(), 1):
        stripped = raw.strip()
        if not stripped or stripped.startswith("#"):
            continue
        width = len(raw.expandtabs(4)) - len(raw.expandtabs(4).lstrip())
        if width > stack[-1]:
            stack.append(width)
        else:
            while width < stack[-1]:
                stack.pop()
            if width != stack[-1]:
                return number
    return 1


def _describe(expected: set[str]) -> str:
    names = []
    for name in sorted(expected):
        if name in KEYWORD_NAMES:
            names.append(KEYWORD_NAMES[name])
            continue
        try:
            pattern = _parser().get_terminal(name).pattern
        except KeyError:
            names.append(name.lower())
            continue
        if pattern.type == "str":
            names.append(f"'{pattern.value}'")
        else:
            names.append(name.lower())
    names = sorted(set(names))
    if len(names) > 8:
        names = names[:8] + ["..."]
    return ", ".join(names)


def _syntax_diagnostic(exc: UnexpectedInput, text: str, path: str) -> Diagnostic:
    line = getattr(exc, "line", 1) or 1
    column = getattr(exc, "column", 1) or 1
    if isinstance(exc, UnexpectedToken):
        tok: Token = exc.token
        if tok.type == "$END":
            lines = text.splitlines() or [""]
            line, column = len(lines), len(lines[-1]) + 1
            what = "end of file"
        elif tok.type in ("_NL",):
            what = "end of line"
        elif tok.type in ("_INDENT",):
            what = "an indented block"
        elif tok.type in ("_DEDENT",):
            what = "end of block"
        else:
            what = f"'{tok.value}'"
        width = max(len(str(tok.value)), 1) if tok.type not in ("_NL", "_INDENT", "_DEDENT", "$END") else 1
        if tok.type in ("_INDENT",) or tok.type == "_DEDENT":
            # the indenter's tokens carry the previous line's position: point at the next code
            width = 1
        message = f"unexpected {what}; expected {_describe(set(exc.expected))}"
        span = Span(path, line, column, line, column + width)
        return Diagnostic("error", message, span)
    if isinstance(exc, UnexpectedCharacters):
        ch = text[exc.pos_in_stream] if exc.pos_in_stream < len(text) else "?"
        message = f"unexpected character {ch!r}"
        if ch in "'":
            message += "; strings use double quotes"
        return Diagnostic("error", message, Span(path, line, column, line, column + 1))
    if isinstance(exc, UnexpectedEOF):
        lines = text.splitlines() or [""]
        span = Span(path, len(lines), len(lines[-1]) + 1, len(lines), len(lines[-1]) + 2)
        return Diagnostic("error", "unexpected end of file", span)
    return Diagnostic("error", "syntax error", Span(path, line, column, line, column + 1))
