"""Text in, Lark tree out; syntax errors become located diagnostics."""

from __future__ import annotations

import functools
import hashlib
import io
import re
import sys
import threading
from importlib import resources
from pathlib import Path

import lark
from attrs import evolve
from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.indenter import DedentError, Indenter

from . import cache
from .limits import MAX_DIGITS, MAX_NESTING
from .source import RETURN_HINT, STRING_PATTERN, Diagnostic, LudusError, Span, lone_cr_as_newline, split_lines

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


class GluedKeyword(Exception):
    """A keyword with a word glued to it: `valuex` read as `value x`."""

    def __init__(self, keyword: Token, rest: Token) -> None:
        super().__init__(f"{keyword}{rest}")
        self.keyword, self.rest = keyword, rest


class TooDeep(Exception):
    """An expression nested deeper than MAX_NESTING, seen while its tokens are read."""

    def __init__(self, token: Token) -> None:
        super().__init__(str(token))
        self.token = token


# How LudusIndenter.process reads each token to watch the nesting of expressions (see there):
# an operand or what starts one, the operators of each chain the builder nests, and the rest.
(_NAME, _OPERAND, _OR, _AND, _SUM, _PRODUCT, _COMPARE, _NOT, _MINUS, _DOT, _ACCESS, _OPEN_PAR, _OPEN_LIST,
 _CLOSE, _IF, _THEN, _ELSE, _MUTE, _LIST_OF) = range(1, 20)
_KIND_OF_WORD = {"or": _OR, "and": _AND, "==": _COMPARE, "!=": _COMPARE, "<": _COMPARE, "<=": _COMPARE,
                 ">": _COMPARE, ">=": _COMPARE, "in": _COMPARE, "not": _NOT, "-": _MINUS, ".": _DOT,
                 "of": _ACCESS, "at": _ACCESS, "(": _OPEN_PAR, "[": _OPEN_LIST, ")": _CLOSE, "]": _CLOSE,
                 "if": _IF, "then": _THEN, "else": _ELSE, "true": _OPERAND, "false": _OPERAND,
                 "none": _OPERAND, "order": _MUTE, "per": _MUTE, "list": _LIST_OF}
_KIND_OF_TERMINAL = {"NAME": _NAME, "INT": _OPERAND, "STRING": _OPERAND, "DIE": _OPERAND,
                     "ADD_OP": _SUM, "MUL_OP": _PRODUCT}
# `force order discards dark-blue` and `per seat and state` spell a zone and a key with the
# tokens of an expression: read past them
_MUTED = {"NAME", "INT", "ADD_OP", "AND"}


@functools.cache
def _kinds() -> dict[str, int]:
    kinds = dict(_KIND_OF_TERMINAL)
    for term in _parser().terminals:
        if term.pattern.type == "str" and term.pattern.value in _KIND_OF_WORD:
            kinds[term.name] = _KIND_OF_WORD[term.pattern.value]
    return kinds


# the nesting above which LudusIndenter.process stops a parse (tests lower it to check that the
# watch never counts more levels than the tree has)
WATCH_LIMIT = MAX_NESTING


class LudusIndenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB"]
    CLOSE_PAREN_types = ["RPAR", "RSQB"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 4

    def process(self, stream):
        """The tokens, with two checks made as they are read.

        Where the grammar expects a keyword and no name, the lexer matches the keyword alone,
        so `valuex = 1` would read as `value x = 1`. A keyword must end where its word ends.

        And the nesting of expressions is watched, so that `1+1+1+...` two million terms long
        stops at its hundred and first term, not once lark has built all of it (a minute and
        gigabytes later). The watch counts the levels the tree will have (see `_limits`, which
        still makes the exact check on the tree): a chain `a + b + c` one per operator and one
        for itself, a `-` or `not` or `.` or `if` (or a type's `list of`) one each, a bracket what the tree puts under
        it, and each expression one for its comparison node. Where the tokens alone cannot tell
        how an expression nests (a keyword, a comma, two operands side by side), it starts
        counting again from the enclosing bracket: so it may count fewer levels than the tree
        has, never more, and stops only a parse the tree check would refuse.
        """
        kinds, limit = _kinds(), WATCH_LIMIT
        before = None
        frames: list[tuple] = []  # the state outside each open bracket
        # (kept in tuples of constants, not lists: the parse allocates enough for the collector)
        # what an expression starts with: no conditional, chain, `not`, `-` or `.` open in it
        afresh = ((), 0, 0, 0, 0, 0, 0, 0)
        # the level of the enclosing bracket's content; the conditionals open in it ('c' in its
        # condition, 't' in its `then`, 'e' in its `else`); the operators of each chain open
        # at this point; the `not`s, `-`s and `.`s of the operand being read
        base = 0
        conds, ors, ands, sums, products, nots, negs, dots = afresh
        fresh = here = 2  # the level of an operand starting here; at the start of an expression
        # 0: an operand may start here; 1: after a name; 2: after another operand; 3: after '.';
        # 4: in the words after `order` or `per` (see _MUTED)
        after = 0
        layout = (self.INDENT_type, self.DEDENT_type, self.NL_type)
        for token in super().process(stream):
            if (before is not None and token.start_pos == before.end_pos and before.type != "NAME"
                    and str(before)[-1:].isalpha() and str(before).isidentifier()
                    and (str(token)[:1].isalnum() or str(token)[:1] == "_")):
                raise GluedKeyword(before, token)
            ttype = token.type
            before = token if ttype not in layout else None
            kind = kinds.get(ttype)
            if kind is None:  # a keyword, a comma, a newline...: what follows starts afresh
                if after or here != fresh:
                    conds, ors, ands, sums, products, nots, negs, dots = afresh
                    here, after = fresh, 0
            elif kind <= _OPERAND:
                if after:
                    if after == 3 and kind == _NAME:  # `a.b`: b names an attribute
                        after = 2
                        yield token
                        continue
                    if after == 4 and ttype in _MUTED:
                        yield token
                        continue
                    # two operands side by side: two expressions (`gain 3 coins`)
                    conds, ors, ands, sums, products, nots, negs, dots = afresh
                    here = fresh
                if here > limit:
                    raise TooDeep(token)
                after = kind  # 1 after a name, 2 after another operand
            elif kind in (_MINUS, _IF, _LIST_OF) or (kind == _NOT and not after):
                if here > limit:
                    raise TooDeep(token)
                if kind == _IF:
                    conds = (*conds, "c")
                elif kind == _NOT:
                    nots += 1
                else:  # `-x`, and a type's `list of x`: x one level under
                    negs += 1
                here += 1
                after = 0
            elif kind in (_OR, _AND, _SUM, _PRODUCT):
                if after == 4 and ttype in _MUTED:
                    yield token
                    continue
                if kind == _OR:
                    ors, ands, nots = ors + 1, 0, 0
                elif kind == _AND:
                    ands, nots = ands + 1, 0
                if kind == _SUM:
                    sums, products = sums + 1, 0
                elif kind == _PRODUCT:
                    products += 1
                else:
                    sums = products = 0
                negs = dots = 0
                here = (fresh + len(conds) + nots + (ors and ors + 1) + (ands and ands + 1)
                        + (sums and sums + 1) + (products and products + 1))
                after = 0
            elif kind == _COMPARE or kind == _NOT:  # `==`, `in`, `not in`
                sums = products = negs = dots = 0
                here = fresh + len(conds) + nots + (ors and ors + 1) + (ands and ands + 1)
                after = 0
            elif kind == _DOT:
                dots += 1
                here += 1
                if here > limit:  # `a.b.c`: a is under one level for each '.'
                    raise TooDeep(token)
                after = 3
            elif kind == _ACCESS:  # `vp of s`, `Unstable at r`
                here -= dots
                dots = 0
                after = 0
            elif kind == _OPEN_PAR or kind == _OPEN_LIST:
                call = kind == _OPEN_PAR and after == 1  # `f(`; the grammar has no `x[`
                if after and not call:
                    conds, ors, ands, sums, products, nots, negs, dots = afresh
                    here = fresh
                if not call and here > limit:
                    raise TooDeep(token)
                frames.append((base, conds, ors, ands, sums, products, nots, negs, dots, here))
                # `(x)` puts x's expression where the bracket is; `[x]` one under (the list),
                # and `f(x)` one or two (the call, and its arguments: a statement's call has none)
                base = here - 1 if kind == _OPEN_PAR and not call else here
                conds, ors, ands, sums, products, nots, negs, dots = afresh
                here = fresh = base + 2
                after = 0
            elif kind == _CLOSE:
                if frames:
                    base, conds, ors, ands, sums, products, nots, negs, dots, here = frames.pop()
                    fresh = base + 2
                    after = 2
                else:
                    conds, ors, ands, sums, products, nots, negs, dots = afresh
                    here, after = fresh, 0
            elif kind == _THEN or kind == _ELSE:
                # `then` ends the condition of the innermost `if` in its condition, `else` the
                # `then` of the innermost in its `then`: those opened since have ended with it
                wanted = "c" if kind == _THEN else "t"
                end = len(conds)
                while end and conds[end - 1] == "e":
                    end -= 1
                if end and conds[end - 1] == wanted:
                    conds = (*conds[:end - 1], "t" if kind == _THEN else "e")
                else:  # a statement's `else:`, an offer's `else "..."`
                    conds = ()
                ors, ands, sums, products, nots, negs, dots = 0, 0, 0, 0, 0, 0, 0
                here, after = fresh + len(conds), 0
            else:  # `order` and `per`: see _MUTED
                conds, ors, ands, sums, products, nots, negs, dots = afresh
                here, after = fresh, 4
            yield token


def grammar_path() -> Path:
    """The grammar shipped inside the wheel, or the repository's own when run from a checkout."""
    shipped = resources.files("ludus") / "grammars" / "ludus.lark"
    if shipped.is_file():
        return Path(str(shipped))
    return Path(__file__).resolve().parents[2] / "grammars" / "ludus.lark"


@functools.cache
def keywords() -> tuple[str, ...]:
    """Every word the grammar spells out (`card`, `gain`, `becomes`...), sorted: for editors'
    completion and highlighting. Keywords are contextual, so each is a keyword only in places."""
    words = set()
    for term in _parser().terminals:
        pattern = term.pattern
        if type(pattern).__name__ == "PatternStr" and pattern.value.isidentifier():
            words.add(pattern.value)
    return tuple(sorted(words))


_LOCAL = threading.local()


def _parser() -> Lark:
    """This thread's parser. One per thread, not one per process: the indenter keeps its
    indentation stack on itself while it runs, so two threads parsing at once with one parser
    (threads of a Dask worker, say) would corrupt each other's blocks."""
    parser = getattr(_LOCAL, "parser", None)
    if parser is None:
        parser = _LOCAL.parser = _new_parser()
    return parser


PARSER_OPTIONS = {"parser": "lalr", "propagate_positions": True, "maybe_placeholders": True,
                  "start": ["start", "expr", "statements"]}


def _new_parser() -> Lark:
    """The parser, its tables read from the disk cache (ludus/language/cache.py) when an
    earlier process built them for this grammar, this Lark and this Python, else built (about
    a second) and kept there for the next. Lark's own cache is not used: it writes to a name
    any user of the machine may take first in the shared temporary folder, and unpickles what
    it finds there."""
    grammar = grammar_path().read_text(encoding="utf-8")
    key = hashlib.sha256("\0".join([grammar, repr(sorted(PARSER_OPTIONS.items())), lark.__version__,
                                     sys.version]).encode()).hexdigest()[:32]
    data = cache.read("parser", key)
    if data is not None:
        try:
            return Lark.load(io.BytesIO(data))
        except Exception:  # whole and for this key, yet unreadable to this Lark: built again
            pass
    parser = Lark(grammar, postlex=LudusIndenter(), **PARSER_OPTIONS)
    out = io.BytesIO()
    parser.save(out)  # the indenter too: a fresh one, its stack empty
    cache.write("parser", key, out.getvalue())
    return parser


def parse(text: str, path: str = "<string>", start: str = "start") -> Tree:
    """Parse a whole file (or one expression with start='expr'); raise LudusError when it fails."""
    text = lone_cr_as_newline(text)
    if start in ("start", "statements") and not text.endswith("\n"):
        text += "\n"
    try:
        tree = _parser().parse(text, start=start)
    except (UnexpectedInput, DedentError, GluedKeyword, TooDeep) as exc:
        first = _failure(exc, text, path)
        more = _other_failures(text, path, first.span.line) if start == "start" else []
        raise LudusError([first, *more]) from None
    problems = _limits(tree, path)
    if problems:
        raise LudusError(problems)
    return tree


def _failure(exc: Exception, text: str, path: str) -> Diagnostic:
    """The located diagnostic of one failed parse."""
    if isinstance(exc, TooDeep):
        tok = exc.token
        return _too_deep(Span(path, tok.line, tok.column, tok.line, tok.column + max(len(tok), 1)))
    if isinstance(exc, (UnexpectedCharacters, UnexpectedToken)):
        glued = _glued_at(text, exc.pos_in_stream)
        if glued is not None:
            return _glued(path, exc.line, exc.column - len(glued[0]), *glued)
        nested = _nested_hole(text, path, exc.line, exc.column)
        if nested is not None:
            return nested
    if isinstance(exc, UnexpectedInput):
        return _syntax_diagnostic(exc, text, path)
    if isinstance(exc, GluedKeyword):
        kw, rest = exc.keyword, exc.rest
        return _glued(path, kw.line, kw.column, str(kw), str(rest))
    line = _bad_dedent_line(text)
    column = _indent_of(text, line) + 1
    span = Span(path, line, column, line, column + 1)
    tabs = any(raw[: len(raw) - len(raw.lstrip())].count("\t") for raw in split_lines(text))
    hint = "this file indents with tabs: indent with spaces, four for each level" if tabs else None
    return Diagnostic("error", "this line's indentation matches no enclosing block", span, hint)


_LINE_PIECE = re.compile(rf'(?P<string>{STRING_PATTERN})|#[^\n]*|.')


def _nested_hole(text: str, path: str, line: int | None, column: int | None) -> Diagnostic | None:
    """`"{if mine then "their own" else "{s}'s"}"`: a text inside a hole with a hole of its own.
    A hole holds no braces, so the outer text ends at the inner text's first quote, and what
    follows it is unexpected; said as such, that error points at words the writer never meant
    to end a text before. Found here as the text that ends just before the error, one of whose
    holes meets another '{' before its '}'."""
    lines = split_lines(text)
    if not line or not column or not 0 < line <= len(lines):
        return None
    source = lines[line - 1]
    for piece in _LINE_PIECE.finditer(source):
        if piece.start() >= column - 1:
            break
        if piece.lastgroup != "string" or source[piece.end():column - 1].strip():
            continue
        body, pos = piece.group(), 1
        while pos < len(body) - 1:
            if body[pos] == "\\":
                pos += 2
                continue
            if body[pos] == "{":
                close = body.find("}", pos)
                if close < 0:  # this hole runs past the text's end: where does it meet a brace?
                    start = piece.start() + pos
                    inner = next((i for i in range(start + 1, len(source)) if source[i] in "{}"), None)
                    # the quote that cut the text short opened the inner text, so the quotes
                    # between it and the '{' pair up (`"{money" "{x}"` is two texts, not one)
                    if inner is None or source[inner] != "{" or source[piece.end():inner].count('"') % 2:
                        return None
                    return Diagnostic("error", "a text inside a hole cannot have holes of its own",
                                      Span(path, line, inner + 1, line, inner + 2),
                                      hint=f"the hole opened at column {start + 1} holds this '{{' before its '}}': "
                                           "work the inner text out first, with a 'let' on the line before "
                                           "(or a define), and write its name in the hole")
                pos = close
            pos += 1
    return None


def _glued_at(text: str, pos: int | None) -> tuple[str, str] | None:
    """(keyword, rest) when the parse stopped inside a word that starts with a keyword the lexer
    took alone: `counter2` read as `counter` and then `2`, which cannot follow it. (Letters glued
    on, as in `counterx`, read as a name that may follow: LudusIndenter finds those.)"""
    if pos is None or not 0 < pos < len(text) or not (text[pos].isalnum() or text[pos] == "_"):
        return None
    start = pos
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] == "_"):
        start -= 1
    end = pos
    while end < len(text) and (text[end].isalnum() or text[end] == "_"):
        end += 1
    kw = text[start:pos]
    return (kw, text[pos:end]) if kw in keywords() else None


def _glued(path: str, line: int, column: int, kw: str, rest: str) -> Diagnostic:
    word = f"{kw}{rest}"
    return Diagnostic("error", f"'{word}' is not a word here: it would read as the keyword '{kw}' and then '{rest}'",
                      Span(path, line, column, line, column + len(word)),
                      f"put a space after '{kw}', or choose a name that is not built on a keyword" if rest[:1].isdigit()
                      else f"write '{kw} {rest}', or choose a name that is not built on a keyword")


MAX_SYNTAX_ERRORS = 20


def _other_failures(text: str, path: str, first_line: int) -> list[Diagnostic]:
    """Syntax errors in the declarations after the one that failed first.

    The parser stops at its first error. Every declaration starts at column 0, so after a failure
    each later declaration is parsed on its own (padded with blank lines to keep its line
    numbers) and its first error reported too: one run shows the mistakes of the whole file.
    A declaration that cannot be cut out cleanly (a bracket left open across it) is skipped
    rather than reported twice.
    """
    limit = MAX_SYNTAX_ERRORS - 1  # the first failure is one of them
    lines = split_lines(text, keepends=True)
    starts = [i for i, raw in enumerate(lines)
              if raw[:1] not in ("", " ", "\t", "\n", "\r", "#") and i + 1 > first_line]
    found: list[Diagnostic] = []
    for k, start in enumerate(starts):
        end = starts[k + 1] if k + 1 < len(starts) else len(lines)
        chunk = "\n" * start + "".join(lines[start:end])
        if not chunk.endswith("\n"):
            chunk += "\n"
        try:
            _parser().parse(chunk, start="start")
        except (UnexpectedInput, DedentError, GluedKeyword, TooDeep) as exc:
            diag = _failure(exc, chunk, path)
            if diag.span.line <= first_line or "end of file" in diag.message:
                continue
            if len(found) == limit:
                # one more than are shown: say so on the last one shown, so that a fixed file
                # with more errors to come does not look like a surprise
                more = f"only the first {MAX_SYNTAX_ERRORS} syntax errors of a file are shown; the declarations after this one hold more"
                last = found[-1]
                found[-1] = evolve(last, hint=f"{last.hint}; {more}" if last.hint else more)
                break
            found.append(diag)
    return found


# Rules whose operands the builder chains into nested nodes: `a and b and c` is as deep as
# `(a and (b and c))`, so each further operand counts as a level.
CHAINS = {"or_expr", "and_expr", "sum", "product", "comparison"}


def _limits(tree: Tree, path: str) -> list[Diagnostic]:
    """Numbers too long to be numbers, and nesting too deep to build: each a located error.

    Checked here, on the tree, without recursion, so that no later stage (the builder, the
    checker, the compiler, all recursive) ever meets a tree it cannot walk.
    """
    problems: list[Diagnostic] = []
    deep_reported = False
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_NESTING and not deep_reported:
            deep_reported = True
            problems.append(_too_deep(_span_of(node, path)))
        if deep_reported and depth > MAX_NESTING:
            continue  # one report is enough; do not walk a pathological tree further
        extra = 0
        chained = node.data in CHAINS
        for child in node.children:
            if isinstance(child, Tree):
                stack.append((child, depth + 1 + extra))
                if chained:
                    extra += 1
            elif isinstance(child, Token) and child.type in ("INT", "DIE"):
                digits = len(child) - (1 if child.type == "DIE" else 0)
                if digits > MAX_DIGITS:
                    end = (child.end_column or child.column + len(child))
                    problems.append(Diagnostic(
                        "error", f"this number has {digits:,} digits; numbers in ludus have at most {MAX_DIGITS}",
                        Span(path, child.line, child.column, child.end_line or child.line, end)))
    return problems


def _too_deep(span: Span) -> Diagnostic:
    return Diagnostic("error", f"nested too deeply: the limit is {MAX_NESTING} levels of parentheses, operators "
                      "and blocks", span)


def _span_of(node: Tree, path: str) -> Span:
    meta = node.meta
    if getattr(meta, "empty", True) or not hasattr(meta, "line"):
        for tok in node.scan_values(lambda v: isinstance(v, Token)):
            return Span(path, tok.line, tok.column, tok.line, tok.column + len(tok))
        return Span(path, 1, 1, 1, 1)
    return Span(path, meta.line, meta.column, meta.line, meta.column + 1)


def _bad_dedent_line(text: str) -> int:
    stack = [0]
    for number, raw in enumerate(split_lines(text), 1):
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


# Terminals that can start an expression, a statement or a declaration: a list of expected tokens
# holding most of one of these sets reads better as the set's name.
EXPRESSION_START = {"NAME", "INT", "STRING", "LPAR", "LSQB", "MINUS", "TRUE", "FALSE", "NONE", "NOT", "IF", "DIE"}
STATEMENT_START = {
    "LET", "SET", "INCREASE", "DECREASE", "GAIN", "PAY", "ADD", "REMOVE", "MOVE", "DRAW", "SHUFFLE", "DISCARD",
    "EXILE", "REVEAL", "CREATE", "ROLL", "CHOOSE", "ASK", "DISTRIBUTE", "OFFER", "PASS", "BREAK", "WIN", "LOSE",
    "END", "LOG", "RESOLVE", "IF", "FOR", "REPEAT", "WHILE", "ALTERNATE", "TURN", "PHASE", "NAME",
}
DECLARATION_START = {
    "GAME", "PLAYERS", "SIDES", "SEATS", "INCLUDE", "EXTENDS", "REMOVE", "VALUE", "COUNTER", "FLAG", "VAR", "ZONE",
    "TOKEN", "GROUP", "KIND", "CARD", "PIECE", "BOARD", "TRACK", "DEFINE", "RULE", "ACTION", "SETUP", "FLOW",
    "WHEN", "AT", "TEST", "OVERRIDE", "PAYOFF",
}


def _describe(expected: set[str]) -> str:
    expected = set(expected)
    groups = []
    for label, members, needed in (("a declaration", DECLARATION_START, {"COUNTER", "ZONE", "FLOW"}),
                                   ("a statement", STATEMENT_START, {"GAIN", "MOVE", "OFFER"}),
                                   ("an expression", EXPRESSION_START, {"NAME", "INT", "LPAR"})):
        if needed <= expected:
            groups.append(label)
            expected -= members
    names = []
    operators = {"==", "!=", "<", "<=", ">", ">=", "+", "-", "*", "/", "%", ".", "and", "or", "in", "not"}
    if {"LESSTHAN", "MORETHAN"} <= expected:
        groups.append("an operator")
        expected = {e for e in expected if e not in ("ADD_OP", "MUL_OP") and _literal(e) not in operators}
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
    names = groups + sorted(set(names))
    if len(names) > 8:
        names = names[:8] + ["..."]
    if len(names) > 1:
        return ", ".join(names[:-1]) + " or " + names[-1]
    return names[0] if names else "something else"


def _accepted(exc: UnexpectedToken) -> set[str]:
    """The terminals that can come where the parse failed. `exc.expected` is the row of the LALR
    table for the state the parser stands in, and LALR merges states that read alike: a row holds
    the lookaheads of every state merged into it, so after `offer Roll` it listed 'in', 'per'
    and 'adjacent', which follow a name elsewhere (the contextual lexer, which reads a word by
    that row, failed on `or` with that list). Lark's `accepts()` feeds each terminal of the row
    to a copy of the parser and keeps those it shifts: an LR parser never shifts a token that
    cannot follow, so each one it names can. Asked in the state the parser failed in, after the
    reductions the failing token set off, it names what follows the reading the parser chose
    ("expected ':'" after `if x > 2`, not every operator that could extend `2` too)."""
    parser = getattr(exc, "interactive_parser", None)
    try:
        accepted = parser.accepts() if parser is not None else None
    except lark.exceptions.LarkError:
        accepted = None
    return accepted or set(exc.expected)


def _literal(name: str) -> str | None:
    try:
        pattern = _parser().get_terminal(name).pattern
    except KeyError:
        return None
    return pattern.value if pattern.type == "str" else None


def _indent_of(text: str, line: int) -> int:
    lines = split_lines(text)
    raw = lines[line - 1].expandtabs(4) if 0 < line <= len(lines) else ""
    return len(raw) - len(raw.lstrip())


def _next_code_line(text: str, after: int) -> int:
    """The first line after `after` that holds code (not blank, not only a comment)."""
    lines = split_lines(text)
    for number in range(after + 1, len(lines) + 1):
        stripped = lines[number - 1].strip()
        if stripped and not stripped.startswith("#"):
            return number
    return max(len(lines), 1)


# the words that start a line which may open an indented block
_BLOCK_OPENERS = {"card", "piece", "kind", "board", "track", "rule", "action", "setup", "flow", "when", "at",
                  "test", "on", "if", "elif", "else", "for", "repeat", "while", "alternate", "turn", "phase",
                  "override"}


def _previous_code_line(text: str, before: int) -> int | None:
    lines = split_lines(text)
    for number in range(min(before, len(lines) + 1) - 1, 0, -1):
        stripped = lines[number - 1].split("#", 1)[0].strip()
        if stripped:
            return number
    return None


def _empty_block(text: str, tok: Token, line: int, column: int) -> int | None:
    """The line of a ':' that opens a block with nothing indented under it, if that is the error."""
    lines = split_lines(text)
    if tok.type == "$END":
        previous = _previous_code_line(text, len(lines) + 1)
    elif tok.type != "_NL" and column == _indent_of(text, line) + 1:
        previous = _previous_code_line(text, line)
        if previous is not None and _indent_of(text, line) > _indent_of(text, previous):
            return None
    else:
        return None
    if previous is not None and lines[previous - 1].split("#", 1)[0].rstrip().endswith(":"):
        return previous
    return None


def _unclosed_bracket(text: str, line: int, column: int) -> tuple[str, int, int] | None:
    """The innermost bracket still open at (line, column), skipping strings and comments."""
    stack: list[tuple[str, int, int]] = []
    in_string = False
    for number, raw in enumerate(split_lines(text), 1):
        if number > line:
            break
        i = 0
        while i < len(raw):
            if number == line and i + 1 >= column:
                break
            ch = raw[i]
            if in_string:
                if ch == "\\":
                    i += 1
                elif ch == '"':
                    in_string = False
            elif ch == '"':
                in_string = True
            elif ch == "#":
                break
            elif ch in "([":
                stack.append((ch, number, i + 1))
            elif ch in ")]" and stack:
                stack.pop()
            i += 1
        in_string = False
    return stack[-1] if stack else None


# `let` where an expression starts: after `=`, `(`, `,`, `[` or a word that an expression follows
_LET_IN_EXPRESSION = re.compile(r"(?:[=(,\[]|\b(?:then|else|to|by|and|or|not|in|from))\s*let$")


def _slip_hint(tok: Token, text: str, line: int, column: int) -> str | None:
    """A hint for the slips people bring from other languages: `else if`, `=` to compare, `+=`,
    `let` inside an expression, and the statement's `elif` inside an `if ... then ... else`
    expression."""
    lines = split_lines(text)
    source = lines[line - 1] if 0 < line <= len(lines) else ""
    before, after = source[: column - 1].rstrip(), source[column - 1 + len(str(tok.value)):]
    if tok.value == "if" and before.endswith("else"):
        return "write 'elif' for 'else if'"
    if tok.value == "elif" and re.search(r"\bthen\b", before):
        # the statement's `elif` has no place in an `if ... then ... else ...` expression
        return "an expression chains with 'else if': 'if A then X else if B then Y else Z'"
    if tok.value == "=":
        return "compare with '=='; to change a value, write 'set NAME to VALUE'"
    if _LET_IN_EXPRESSION.search(before):
        # `define total(s) = let x = ... in ...`: `let` read as a name, the name after it unexpected
        return ("'let' is a statement, and an expression holds none: name the value with a define "
                "of its own ('define x(s) = ...') and use it here")
    if tok.value == "to" and _RUN_IN_EXPRESSION.search(before):
        # `sum(x for x in 1 to 3)`: `LOW to HIGH` is written only where a loop or a choice takes it
        return ("'LOW to HIGH' is a run of numbers only in 'for x in 1 to N:' and 'choose n from 1 to N'; "
                "in an expression, write range(LOW, HIGH), both ends included")
    if tok.value in ("+", "-", "*", "/") and after.startswith("="):
        word = {"+": "increase NAME by", "-": "decrease NAME by"}.get(tok.value, "set NAME to NAME " + tok.value)
        return f"'{tok.value}=' is not in the language: write '{word} ...'"
    return _statement_slip_hint(tok, before.strip(), _in_test_block(text, line))


_CHOOSE_FROM = re.compile(r"choose\s+(\w+)\s+from\s+(.+)")
# a number or a name just after `in`, `(`, `[` or `,`: where `to` would begin a run of numbers
_RUN_IN_EXPRESSION = re.compile(r"(?:\bin|[(\[,])\s*-?[\w.]+$")


def _in_test_block(text: str, line: int) -> bool:
    """Whether `line` is inside a `test` block: the declaration it is indented under is one."""
    lines = split_lines(text)
    for number in range(min(line, len(lines)), 0, -1):
        code = lines[number - 1].split("#", 1)[0]
        if code.strip() and not code[0].isspace():
            return number < line and code.startswith("test")
    return False


def _statement_slip_hint(tok: Token, before: str, in_test: bool) -> str | None:
    """Hints for statements written as a designer might expect them to be: `end turn`,
    `offer A or B`, `choose X from LIST where ...`, `loop:`, `return x`, and a test's `setup force`."""
    if tok.value == "turn" and before == "end":
        # a turn is a block: what ends it is the block's end, so there is no statement for it
        return ("a turn ends where its 'turn s:' block does: to end it early, 'break' out of a loop "
                "inside the block, or loop on what the offer answers ('offer Roll, Hold as picked'): "
                "see 'A turn of several moves' in docs/language.md")
    if tok.value == "or" and re.match(r"offer\b", before):
        return "separate the actions with commas: 'offer A, B'"
    choose = _CHOOSE_FROM.fullmatch(before) if tok.value == "where" else None
    if choose is not None:
        name, items = choose.groups()
        return (f"a choice takes no 'where': choose from the list of those that pass, "
                f"'choose {name} from [{name} for {name} in {items} where ...]'")
    if before == "return":
        return RETURN_HINT
    if re.match(r"choose\b", before) and (tok.value == "blind" or (tok.value == "by" and re.search(r"\bblind$", before))):
        return ("'blind' comes after the list and its 'by SEAT', before a count and the question: "
                "'choose d from LIST by SEAT blind, up to N \"Which ...?\"'")
    if tok.value == ":" and before == "loop":
        return "to repeat a block until the game ends, write 'while true:'"
    if tok.value == "setup" and before == "" and in_test:
        # a test starts at the flow's first decision, when setup's shuffles (and a deal) are done
        return ("a test starts at the first decision, once setup has run: set the position with "
                "'given' lines ('given move card(\"...\") to hand of ...'); a replay's 'setup force' "
                "line fixes setup's shuffles")
    return None


_DECISION = re.compile(r"\s*(?:choose|offer|distribute|ask)\b")


def _question_hint(tok: Token, message: str, text: str, line: int) -> str | None:
    """`choose s from seats question`, with the question held in a rule's parameter: a question is
    written as a quoted text, and "expected a quoted string" does not say how to put a name in one."""
    lines = split_lines(text)
    source = lines[line - 1] if 0 < line <= len(lines) else ""
    if tok.type != "NAME" or "a quoted string" not in message or not _DECISION.match(source):
        return None
    return (f"a question is a quoted text: to ask one that '{tok.value}' holds, "
            f"write it as a hole in one, \"{{{tok.value}}}\"")


_COUNTED_LOOP = re.compile(r"for\s+(?:each\s+)?(\w+)\s+in\s+(.+?)\s+to\s+(.+)")


def _counted_where(tok: Token, text: str, path: str, line: int, column: int) -> Diagnostic | None:
    """`for r in 1 to 3 where r > 1:`: a counted loop takes no `where` (only a loop over a list
    does), and "expected ':'" does not say so. The way to write it is built from the line."""
    if tok.value != "where":
        return None
    lines = split_lines(text)
    source = lines[line - 1] if 0 < line <= len(lines) else ""
    loop = _COUNTED_LOOP.fullmatch(source[: column - 1].strip())
    if loop is None:
        return None
    name, low, high = loop.groups()
    cond = source[column - 1 + len("where"):].strip()
    if "#" in cond and '"' not in cond:
        cond = cond.split("#", 1)[0].rstrip()
    cond = cond[:-1].strip() if cond.endswith(":") and len(cond) <= 60 else "..."
    written = f"for each {name} in range({low}, {high}) where {cond}:"
    if len(written) > 100:
        written = f"for each {name} in range(LOW, HIGH) where ...:"
    return Diagnostic("error", f"a counted loop takes no 'where': loop over the numbers as a list, `{written}`",
                      Span(path, line, column, line, column + len("where")),
                      hint="or keep the counted loop and test each number with `if` inside it")


def _syntax_diagnostic(exc: UnexpectedInput, text: str, path: str) -> Diagnostic:
    line = getattr(exc, "line", 1) or 1
    column = getattr(exc, "column", 1) or 1
    if isinstance(exc, UnexpectedToken):
        tok: Token = exc.token
        if tok.type == "$END":
            lines = split_lines(text) or [""]
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
        if tok.type in ("_INDENT", "_DEDENT"):
            # the indenter's tokens carry the previous line's position: point at the next code
            line = _next_code_line(text, line)
            column = _indent_of(text, line) + 1
        if tok.type == "_INDENT":
            previous = _previous_code_line(text, line)
            code = split_lines(text)[previous - 1].split("#", 1)[0].rstrip() if previous is not None else ""
            opener = code.split(None, 1)[0] if code.strip() else ""
            if opener in _BLOCK_OPENERS and _indent_of(text, previous) < _indent_of(text, line):
                # `card "X" is Good` over an indented block: the missing ':' is on the line above
                end = len(code.expandtabs(4)) + 1
                return Diagnostic("error", "expected ':' at the end of this line, since the lines below it are indented",
                                  Span(path, previous, end, previous, end + 1),
                                  hint=f"or take the indentation off line {line}")
            return Diagnostic("error", "unexpected indentation: only a line ending in ':' opens an indented block",
                              Span(path, line, column, line, column + 1))
        at_end = tok.type in ("$END", "_DEDENT")
        opened = _unclosed_bracket(text, len(split_lines(text)) + 1, 1) if at_end else _unclosed_bracket(text, line, column)
        if opened is not None and (opened[1] < line or at_end):
            bracket, bline, bcol = opened
            closing = ")" if bracket == "(" else "]"
            return Diagnostic("error", f"'{bracket}' is never closed", Span(path, bline, bcol, bline, bcol + 1),
                              hint=f"the file ends before its '{closing}'" if at_end else f"found {what} on line {line} before its '{closing}'")
        block = _empty_block(text, tok, line, column)
        if block is not None:
            return Diagnostic("error", f"expected an indented block after the ':' on line {block}",
                              Span(path, line, column, line, column + width))
        counted = _counted_where(tok, text, path, line, column)
        if counted is not None:
            return counted
        message = f"unexpected {what}; expected {_describe(_accepted(exc))}"
        span = Span(path, line, column, line, column + width)
        hint = _slip_hint(tok, text, line, column) or _question_hint(tok, message, text, line)
        return Diagnostic("error", message, span, hint)
    if isinstance(exc, UnexpectedCharacters):
        ch = text[exc.pos_in_stream] if exc.pos_in_stream < len(text) else "?"
        message = f"unexpected character {ch!r}"
        if ch in "'":
            message += "; strings use double quotes"
        return Diagnostic("error", message, Span(path, line, column, line, column + 1))
    if isinstance(exc, UnexpectedEOF):
        lines = split_lines(text) or [""]
        span = Span(path, len(lines), len(lines[-1]) + 1, len(lines), len(lines[-1]) + 2)
        return Diagnostic("error", "unexpected end of file", span)
    return Diagnostic("error", "syntax error", Span(path, line, column, line, column + 1))
