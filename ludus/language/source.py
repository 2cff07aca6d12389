"""Source text, spans and diagnostics: where a message points and how it prints."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable

from attrs import field, frozen

# Where a line of a game file ends: at \n, \r\n or a lone \r, as editors and the language
# server count them. Not str.splitlines(), which also ends a line at a form feed, \x1c-\x1e,
# \x85, U+2028 and U+2029: where a comment held one, the line shown under an error was not the
# line the parser meant, and the lines after it were off by one.
LINE_END = re.compile(r"\r\n|\r|\n")
_LONE_CR = re.compile(r"\r(?!\n)")


def split_lines(text: str, keepends: bool = False) -> list[str]:
    """The lines of a text, without their line ends unless `keepends` (none after a final line
    end, as str.splitlines gives)."""
    if keepends:
        return _WITH_END.findall(text)
    lines = LINE_END.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


_WITH_END = re.compile(r".*?(?:\r\n|\r|\n)|.+\Z", re.DOTALL)


def lone_cr_as_newline(text: str) -> str:
    """The text with each lone \r (an old Mac line end) a \n: same length, so every offset and
    column stays, and the parser, which ends lines at \n, counts them as split_lines does."""
    return _LONE_CR.sub("\n", text) if "\r" in text else text


@frozen
class Span:
    """A region of a source file; lines and columns are 1-based, the end column exclusive."""

    path: str
    line: int
    column: int
    end_line: int
    end_column: int

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"


NO_SPAN = Span("<builtin>", 0, 0, 0, 0)


@frozen
class Suggestion:
    """A name written that is not known, and the known names nearest to it, nearest first: what
    a hint "did you mean ...?" says, as data, so that a tool (the language server's quick fix,
    `ludus check --format json`) never reads it out of the hint's words."""

    name: str  # as written, at the diagnostic's span (inside the quotes of a quoted one)
    meant: tuple[str, ...]

    @property
    def hint(self) -> str:
        return f"did you mean '{self.meant[0]}'?"


@frozen(order=False)
class Diagnostic:
    """One message about a program: an error or a warning, with its place."""

    severity: str  # "error" | "warning"
    message: str
    span: Span
    hint: str | None = field(default=None)
    # a name for the kind of diagnostic, for tools that act on it (`ludus check --format json`,
    # the language server) without reading its words; None for most
    code: str | None = field(default=None)
    # the name the hint suggests in place of the one at the span, as data; None for most
    suggestion: Suggestion | None = field(default=None)

    @property
    def sort_key(self) -> tuple:
        return (self.span.path, self.span.line, self.span.column, self.severity, self.message)


class Sources:
    """The text of every file read, so a diagnostic can show its line."""

    def __init__(self) -> None:
        self.texts: dict[str, str] = {}
        # path -> (text, its lines): split once, not once per diagnostic, which made a file
        # with thousands of warnings take time in the square of its length
        self._lines: dict[str, tuple[str, list[str]]] = {}

    def add(self, path: str, text: str) -> None:
        self.texts[path] = text

    def text_at(self, span) -> str | None:
        """The source a span covers (a `require`'s condition, say), on one line, or None: a
        condition continued over lines (a trailing backslash, or inside brackets) is quoted
        as one line, its comments and line breaks left out and each run of spaces between
        its words one space (spaces inside its quoted strings stay as written)."""
        if span is None or span.end_line < span.line:
            return None
        lines = []
        for number in range(span.line, span.end_line + 1):
            text = self.line(span.path, number)
            if text is None:
                return None
            lines.append(text)
        if len(lines) == 1:
            lines[0] = lines[0][span.column - 1:span.end_column - 1]
        else:
            lines[0], lines[-1] = lines[0][span.column - 1:], lines[-1][:span.end_column - 1]
        return one_line("\n".join(lines)) or None

    def bracketed(self, span):
        """`span` widened over the brackets written around all of it: the node of a condition
        written `(a and b)` spans only `a and b`, so a quote of it would not read as written.
        For a node that is alone inside its brackets, as a `require`'s condition is: the
        opening brackets just before it (spaces, line breaks and comments between) and as many
        closing ones just after it. The span as it was when they do not pair up."""
        if span is None or span.end_line < span.line:
            return span
        opens = []  # (line, column) of each "(" before the node, nearest first
        number, text = span.line, self.line(span.path, span.line)
        before = None if text is None else text[:span.column - 1]
        while before is not None:
            code = before.rstrip(" \t\f")
            if code.endswith("("):
                opens.append((number, len(code)))
                before = code[:-1]
            elif code or number <= 1:
                break
            else:  # only brackets before it on its line: they may open on a line before
                number -= 1
                before = _code_of(self.line(span.path, number))
        if not opens:
            return span
        closes = []  # (line, column after it) of each ")" after the node, nearest first
        number, at = span.end_line, span.end_column - 1
        while len(closes) < len(opens):
            text = self.line(span.path, number)
            if text is None:
                return span
            rest = _code_of(text[at:])
            if rest is None:
                return span
            stripped = rest.lstrip(" \t\f")
            if not stripped:
                number, at = number + 1, 0
                continue
            if not stripped.startswith(")"):
                return span
            at += len(rest) - len(stripped) + 1
            closes.append((number, at + 1))
        (line, column), (end_line, end_column) = opens[len(closes) - 1], closes[-1]
        return Span(span.path, line, column, end_line, end_column)

    def line(self, path: str, line: int) -> str | None:
        text = self.texts.get(path)
        if text is None or line < 1:
            return None
        split = self._lines.get(path)
        if split is None or split[0] is not text:  # `texts` is open to change: split what is there now
            split = self._lines[path] = (text, split_lines(text))
        lines = split[1]
        return lines[line - 1] if line <= len(lines) else None

    def locate(self, span: Span, word: str, code: bool = False) -> Span:
        """The place of `word` (a name, or a quoted name) inside `span`, or `span` if it is not there.
        With `code`, only a name written as code is found: not a word of a quoted text or of a
        comment (the name a statement binds, `as again` of `ask P1 "Roll again?" as again`)."""
        for number in range(span.line, max(span.end_line, span.line) + 1):
            text = self.line(span.path, number)
            if text is None:
                break
            start = span.column - 1 if number == span.line else 0
            if code:
                text = _code_only(text)
            else:
                quoted = '"' + word + '"'
                at = text.find(quoted, start)
                if at >= 0:
                    return Span(span.path, number, at + 1, number, at + 1 + len(quoted))
            at = _find_word(text, word, start)
            if at >= 0:
                return Span(span.path, number, at + 1, number, at + 1 + len(word))
        return span

    def locate_after(self, span: Span, keyword: str, word: str, code: bool = False) -> Span:
        """The place of `word` inside `span` after the first `keyword` there (`order` of a `force
        order` line: a zone called `order` or `force` is the name after it, not the keyword);
        with `code`, both as code, not in a quoted text or a comment (locate)."""
        key = self.locate(span, keyword, code)
        if key != span:
            span = Span(span.path, key.end_line, key.end_column, span.end_line, span.end_column)
        return self.locate(span, word, code)


_NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")


def _find_word(text: str, word: str, start: int) -> int:
    """Where `word` first stands alone in `text` from `start` on (not inside a longer name, nor
    just after a quote), or -1. A loop over str.find, not a regular expression: one compiled per
    word missed Python's cache of 512 patterns for every name of a large game."""
    at = text.find(word, min(max(start, 0), len(text)))  # clamped, as a regular expression's search is
    while at >= 0:
        end = at + len(word)
        if (at == 0 or (text[at - 1] not in _NAME_CHARS and text[at - 1] != '"')) \
                and (end >= len(text) or text[end] not in _NAME_CHARS):
            return at
        at = text.find(word, at + 1)
    return -1


# A source line longer than this is shown only around the error's column (up to _CONTEXT characters
# either side, `...` marking what is cut), so that a generated line megabytes long does not flood
# the terminal with itself and a caret line as wide.
_LINE_SHOWN = 240
_CONTEXT = 100


def render(diag: Diagnostic, sources: Sources | None = None) -> str:
    """`path:line:col: error: message`, then the source line and a caret underline."""
    head = f"{diag.span}: {diag.severity}: {diag.message}"
    out = [head]
    text = sources.line(diag.span.path, diag.span.line) if sources else None
    if text is not None:
        start = max(diag.span.column - 1, 0)
        if diag.span.end_line == diag.span.line and diag.span.end_column > diag.span.column:
            width = diag.span.end_column - diag.span.column
        else:
            width = max(len(text.rstrip()) - start, 1)
        if len(text) > _LINE_SHOWN:
            low = max(min(start, len(text)) - _CONTEXT, 0)
            high = min(start + _CONTEXT, len(text))
            before = "..." if low > 0 else ""
            after = "..." if high < len(text) else ""
            width = max(min(width, high - start), 1)
            text = before + text[low:high] + after
            start = start - low + len(before)
        # tabs drawn as the language reads them (4 columns), and the caret moved with them: a tab
        # left in the line went to the terminal's next 8th column, and the caret, counted in
        # characters, stood left of the word
        shown = text.expandtabs(4)
        if "\t" in text:
            end = len(text[:start + width].expandtabs(4))
            start = len(text[:start].expandtabs(4))
            width = end - start
        out.append("    " + shown)
        out.append("    " + " " * start + "^" * max(width, 1))
    if diag.hint:
        out.append(f"    hint: {diag.hint}")
    return "\n".join(out)


def render_all(diags: Iterable[Diagnostic], sources: Sources | None = None) -> str:
    return "\n".join(render(d, sources) for d in sorted(diags, key=lambda d: d.sort_key))


def declared_at(previous: Span, here: Span) -> str:
    """Where an earlier declaration is, said briefly: 'on line 3', or 'in base.ludus on line 3'."""
    if previous.path == here.path:
        return f"on line {previous.line}"
    return f"in {previous.path.replace(chr(92), '/').rsplit('/', 1)[-1]} on line {previous.line}"


# The pieces of an expression's text that one_line tells apart: a quoted string (as the grammar
# reads one, a hole's own quotes and all; grammars/ludus.lark's STRING), a comment, a line
# continued by a backslash, a run of spaces or line breaks, and anything else.
STRING_PATTERN = r'"(?:[^"\\\n{]|\\.|\{[^{}\n]*\}|\{)*"'  # a quoted string: the grammar's STRING
_PIECE = re.compile(rf'(?P<string>{STRING_PATTERN})|(?P<gap>(?:[ \t\f\n]|#[^\n]*|\\[ \t\f]*\n)+)'
                    r'|(?P<other>[^" \t\f\n#\\]+|.)')
_OPENS, _CLOSES = "([", ")]"


def _code_only(text: str) -> str:
    """A line with its quoted strings and its comment blanked out, each character a space, so
    that a column of it is a column of the line."""
    out = []
    for piece in _PIECE.finditer(text):
        word = piece.group()
        if piece.lastgroup == "string":
            word = " " * len(word)
        elif piece.lastgroup == "gap" and "#" in word:
            word = re.sub(r"#[^\n]*", lambda m: " " * len(m.group()), word)
        out.append(word)
    return "".join(out)


def _code_of(text: str | None) -> str | None:
    """A piece of a line without the comment or the line continuation it ends with (a `#`
    inside a string is no comment); None for no line."""
    if text is None:
        return None
    end = 0
    for piece in _PIECE.finditer(text + "\n"):
        if piece.lastgroup != "gap":
            end = piece.end()
    return text[:end]


def one_line(text: str) -> str:
    """An expression's text, written over lines or not, as one line: its comments and line
    continuations left out, each gap between its words one space (none just inside a bracket
    where the gap broke the line: `(a and` / `b)` is `(a and b)`), its strings as written."""
    out: list[str] = []
    gap = None
    for piece in _PIECE.finditer(text):
        if piece.lastgroup == "gap":
            gap = (gap or "") + piece.group()
            continue
        word = piece.group()
        if gap is not None and out:
            broke = "\n" in gap
            if not (broke and (out[-1][-1] in _OPENS or word[0] in _CLOSES)):
                out.append(" ")
        gap = None
        out.append(word)
    return "".join(out)


# How near a name must be to be suggested: difflib's ratio, as get_close_matches reads it.
SUGGEST_CUTOFF = 0.6


# `return x` in a rule, brought from other languages: the parser reads `return` as a rule's name
RETURN_HINT = ("a rule gives back no value: work the value out in a define ('define best(s) = ...'), "
               "or, where a decision finds it, 'set' a var that the caller reads after the call")


def suggest(name: str, candidates: Iterable[str]) -> Suggestion | None:
    """The nearest candidate to a misspelt name (its hint says "did you mean 'x'?"), or None.

    Near as difflib measures it (a ratio of at least 0.6, as get_close_matches), but of
    candidates equally near, the first in the order given, the order the game declares its
    names in (get_close_matches gives the last in alphabetical order): `Cat` is `Bat`, not
    `Cap`. A set has no order of its own, so its names are taken sorted, and the hint never
    depends on the order Python happens to keep them in."""
    found = nearest(name, candidates, 1)
    return Suggestion(name, (found[0],)) if found else None


def nearest(name: str, candidates: Iterable[str], n: int, cutoff: float = SUGGEST_CUTOFF) -> list[str]:
    """Up to `n` candidates near `name` (difflib's ratio at least `cutoff`), nearest first, and
    of those equally near, in the order given (a set's sorted): see `suggest`."""
    if isinstance(candidates, (set, frozenset)):
        candidates = sorted(candidates)
    scored: list[tuple[float, int, str]] = []
    matcher = difflib.SequenceMatcher()
    matcher.set_seq2(name)
    for place, candidate in enumerate(candidates):
        matcher.set_seq1(candidate)
        # the two quick ratios bound the slow one from above: a candidate whose bound is below
        # the cutoff, or below the n nearest so far, is passed over without working it out
        floor = cutoff if len(scored) < n else max(cutoff, -scored[-1][0])
        if matcher.real_quick_ratio() < floor or matcher.quick_ratio() < floor:
            continue
        score = matcher.ratio()
        if score >= floor:
            scored.append((-score, place, candidate))
            scored.sort()
            del scored[n:]
    return [candidate for _, _, candidate in scored]


def diagnostic(severity: str, message: str, span: Span, hint: str | Suggestion | None = None,
               code: str | None = None) -> Diagnostic:
    """A diagnostic whose hint may be a Suggestion: its words are the hint, and it is kept whole
    beside them."""
    if isinstance(hint, Suggestion):
        return Diagnostic(severity, message, span, hint.hint, code, hint)
    return Diagnostic(severity, message, span, hint, code)


class LudusError(Exception):
    """Bad input: carries diagnostics that the front ends print; never a traceback."""

    def __init__(self, diagnostics: list[Diagnostic], sources: Sources | None = None) -> None:
        self.diagnostics = sorted(diagnostics, key=lambda d: d.sort_key)
        self.sources = sources
        super().__init__(render_all(self.diagnostics, sources))
