"""`ludus fmt`: a .ludus file rewritten in the house style, keeping every comment and its meaning.

The formatter works on lines and tokens, not on the syntax tree, so nothing the tree forgets
(comments, blank lines, the author's line breaks inside brackets) can be lost:

- indentation: four spaces per block level; a comment line takes the level of the code around it;
- spacing: one space between words and around binary operators, one after a comma or a ':',
  none inside brackets, before a comma or a ':', around a '.', after a unary '-', or between a
  function's name and its '(';
- blank lines: at most one in a row, none at the start of a file or of a block, and one between
  a top-level declaration that holds a block and its neighbours (the comment lines just above a
  declaration belong to it, so the blank line goes above them);
- trailing comments: two spaces at least after the code; adjacent lines with trailing comments
  share one column when that does not push a comment far from its code;
- strings (and the holes in them) and comments are kept byte for byte; lines end in '\\n' and
  the file in exactly one.

The file is parsed first: a file with a syntax error is refused with the located error. The
tree tells the formatter what the text alone cannot (which '-' is a minus sign and which '(' is
a call's). After formatting, both texts are built into syntax nodes, which compare without
their places; if they differ the formatter refuses rather than change what the file means.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from lark import Token, Tree
from lark.exceptions import VisitError

from ..language.build import Builder
from ..language.parser import parse
from ..language.source import STRING_PATTERN, LudusError, Sources, lone_cr_as_newline

INDENT = "    "
# how far a trailing comment may be pushed right, past the end of its own code, to line up
# with its neighbours' comments
ALIGN_REACH = 40

_TOKEN = re.compile(
    rf"(?P<space>[ \t\f]+)|(?P<comment>#[^\n]*)|(?P<string>{STRING_PATTERN})|(?P<word>[A-Za-z_][A-Za-z0-9_]*|[0-9]+)"
    r"|(?P<op>==|!=|<=|>=|[-+*/%<>=:,.()\[\]])|(?P<backslash>\\[ \t\f]*$)|(?P<other>.)"
)
_BINARY_TYPES = {"ADD_OP", "MUL_OP"}
_HEAD_RULES = {"call", "call_stmt", "define_decl", "rule_decl", "action_decl"}


class FormatError(Exception):
    """The formatter would have changed what the file means: a bug in ludus, never in the file."""


@dataclass
class Tok:
    kind: str  # word, string, op
    text: str
    line: int
    column: int  # 1-based, as Lark counts


@dataclass
class Line:
    """One physical line of the source."""

    number: int
    width: int  # indentation, tabs counted as four spaces
    tokens: list[Tok] = field(default_factory=list)
    comment: str | None = None
    comment_column: int = 0  # 0-based column of the comment in the original line
    backslash: bool = False  # ends in a line continuation
    continues: bool = False  # continues the logical line above (open bracket or backslash)

    @property
    def blank(self) -> bool:
        return not self.tokens and self.comment is None and not self.backslash


def _width(raw: str) -> int:
    lead = raw[: len(raw) - len(raw.lstrip(" \t\f"))]
    return lead.count(" ") + lead.count("\t") * 4


def _scan(text: str) -> list[Line]:
    lines: list[Line] = []
    depth = 0
    carried = False
    for number, raw in enumerate(text.split("\n"), 1):
        line = Line(number, _width(raw), continues=carried or depth > 0)
        for m in _TOKEN.finditer(raw):
            kind = m.lastgroup
            if kind == "space":
                continue
            if kind == "comment":
                line.comment = m.group().rstrip()
                line.comment_column = len(raw[: m.start()].expandtabs(4))
                break
            if kind == "backslash":
                line.backslash = True
                break
            token = Tok("op" if kind == "other" else kind, m.group(), number, m.start() + 1)
            if kind == "op" and token.text in "([":
                depth += 1
            elif kind == "op" and token.text in ")]":
                depth = max(depth - 1, 0)
            line.tokens.append(token)
        carried = line.backslash
        lines.append(line)
    return lines


def _tree_facts(tree: Tree) -> tuple[set[tuple[int, int]], set[tuple[int, int]], set[tuple[int, int]]]:
    """Where the binary operators are, which names are followed by their call's '(', and which
    tokens are glued to the one before: the pieces of a zone family's key in a `force order`
    line (`discards dark-blue`, `row 2nd`), which a space would part into other words."""
    binary: set[tuple[int, int]] = set()
    heads: set[tuple[int, int]] = set()
    glued: set[tuple[int, int]] = set()
    for sub in tree.iter_subtrees():
        if sub.data == "zone_words":
            pieces = sub.children
            glued.update((b.line, b.column) for a, b in zip(pieces, pieces[1:], strict=False) if a.end_pos == b.start_pos)
            # a '-' standing apart (`dark - blue`, no key) stays apart, as written: not a minus sign
            binary.update((t.line, t.column) for t in pieces if t.type in _BINARY_TYPES)
            continue
        for child in sub.children:
            if isinstance(child, Token) and (child.type in _BINARY_TYPES or sub.data == "comp_op"):
                binary.add((child.line, child.column))
        if sub.data in _HEAD_RULES:
            for child in sub.children:
                if isinstance(child, Tree) and child.data == "def_name":
                    child = child.children[0]
                if isinstance(child, Token) and child.type in ("NAME", "STRING"):
                    heads.add((child.line, child.column))
                    break
    return binary, heads, glued


def _space(prev: Tok, tok: Tok, binary: set, heads: set, glued: set) -> str:
    if (tok.line, tok.column) in glued:
        return ""
    if tok.kind == "op" and tok.text in ",)]:.":
        return ""
    if prev.kind == "op" and prev.text in "([.":
        return ""
    if prev.kind == "op" and prev.text == "-" and (prev.line, prev.column) not in binary:
        return ""  # a minus sign: -1, -x
    if tok.kind == "op" and tok.text == "(" and (prev.line, prev.column) in heads:
        return ""  # f(x), define f(s), action Move(c in ...)
    return " "


def _join(tokens: list[Tok], binary: set, heads: set, glued: set) -> str:
    """One line's tokens, spaced; a continuation line's first token follows its indentation."""
    out = []
    prev: Tok | None = None
    for tok in tokens:
        if prev is not None:
            out.append(_space(prev, tok, binary, heads, glued))
        out.append(tok.text)
        prev = tok
    return "".join(out)


@dataclass
class Out:
    kind: str  # code, comment, blank
    level: int = 0
    text: str = ""  # the line without its indentation and trailing comment
    comment: str | None = None
    comment_column: int = 0
    indent: str = ""
    opens_block: bool = False
    continuation: bool = False


def _layout(lines: list[Line], binary: set, heads: set, glued: set) -> list[Out]:
    out: list[Out] = []
    stack = [0]  # original indentation widths of the open blocks
    code_widths = [ln.width for ln in lines]  # looked ahead by comment lines
    first_code_after: list[int | None] = [None] * (len(lines) + 1)
    nxt = None
    for i in range(len(lines) - 1, -1, -1):
        first_code_after[i] = nxt
        if lines[i].tokens and not lines[i].continues:
            nxt = i
    logical_start: Line | None = None
    logical_indent = ""
    for i, ln in enumerate(lines):
        if ln.continues:
            if ln.blank:
                out.append(Out("blank"))
                continue
            # inside brackets or after a '\': keep the author's break, indented relative to its line
            extra = max(ln.width - logical_start.width, 4) if logical_start else 4
            if ln.tokens and ln.tokens[0].text in ")]" and logical_start and ln.width <= logical_start.width:
                extra = 0  # a closing bracket under the start of its line stays there
            if not ln.tokens and not ln.backslash:  # only a comment, inside brackets
                out.append(Out("comment", level=-1, comment=ln.comment, indent=logical_indent + " " * extra))
                continue
            text = _join(ln.tokens, binary, heads, glued)
            if ln.backslash:
                text = (text + " \\") if text else "\\"
            out.append(Out("code", text=text, comment=ln.comment, comment_column=ln.comment_column,
                           indent=logical_indent + " " * extra, continuation=True,
                           opens_block=bool(ln.tokens) and ln.tokens[-1].text == ":"))
            continue
        if ln.blank:
            out.append(Out("blank"))
            continue
        if not ln.tokens and not ln.backslash:  # a comment line
            nxt_i = first_code_after[i]
            candidates = list(stack)
            if nxt_i is not None and code_widths[nxt_i] > stack[-1]:
                candidates.append(code_widths[nxt_i])
            # the deepest open (or opening) block it reaches; deeper still, it keeps its extra spaces
            fitting = [w for w in candidates if w <= ln.width][-1]  # the stack always holds 0
            level = candidates.index(fitting)
            extra = ln.width - fitting
            out.append(Out("comment", level=level, comment=ln.comment, indent=INDENT * level + " " * extra))
            continue
        if ln.width > stack[-1]:
            stack.append(ln.width)
        else:
            while ln.width < stack[-1]:
                stack.pop()
        level = len(stack) - 1
        logical_start = ln
        logical_indent = INDENT * level
        text = _join(ln.tokens, binary, heads, glued)
        if ln.backslash:
            text = (text + " \\") if text else "\\"
        out.append(Out("code", level=level, text=text, comment=ln.comment, comment_column=ln.comment_column,
                       indent=logical_indent, opens_block=bool(ln.tokens) and ln.tokens[-1].text == ":"))
    return out


def _blank_lines(out: list[Out]) -> list[Out]:
    # at most one blank line in a row; none at the start or end; none just inside a block
    kept: list[Out] = []
    for o in out:
        if o.kind == "blank":
            if not kept or kept[-1].kind == "blank":
                continue
            if kept[-1].kind == "code" and kept[-1].opens_block:
                continue
        kept.append(o)
    while kept and kept[-1].kind == "blank":
        kept.pop()
    # a blank line around each top-level declaration that holds a block
    starts = [i for i, o in enumerate(kept) if o.kind == "code" and o.level == 0 and not o.continuation]
    blank_before: set[int] = set()
    for i in starts:
        following = next((j for j in range(i + 1, len(kept)) if kept[j].kind == "code" and not kept[j].continuation), None)
        if following is None or kept[following].level == 0:
            continue  # a one-line declaration
        top = i
        while top > 0 and kept[top - 1].kind == "comment" and kept[top - 1].level == 0:
            top -= 1
        if top > 0:
            blank_before.add(top)
        after = next((j for j in range(i + 1, len(kept)) if kept[j].kind in ("code", "comment")
                      and kept[j].level == 0 and not kept[j].continuation), None)
        if after is not None:
            blank_before.add(after)
    result: list[Out] = []
    for i, o in enumerate(kept):
        if i in blank_before and result and result[-1].kind != "blank" and o.kind != "blank":
            result.append(Out("blank"))
        result.append(o)
    return result


def _align(out: list[Out]) -> list[str]:
    texts = []
    i = 0
    while i < len(out):
        o = out[i]
        if not (o.kind == "code" and o.comment is not None):
            texts.append(_plain(o))
            i += 1
            continue
        j = i
        while j < len(out) and out[j].kind == "code" and out[j].comment is not None:
            j += 1
        run = out[i:j]
        ends = [len(o.indent + o.text) for o in run]
        column = max(max(ends) + 2, min(o.comment_column for o in run))
        aligned = len(run) > 1 and column - min(ends) <= ALIGN_REACH
        for o, end in zip(run, ends, strict=True):
            at = column if aligned else max(end + 2, o.comment_column)
            if not o.text:
                at = len(o.indent)  # a continuation line holding only a comment
            texts.append((o.indent + o.text).ljust(at) + o.comment)
        i = j
    return texts


def _plain(o: Out) -> str:
    if o.kind == "blank":
        return ""
    if o.kind == "comment":
        return o.indent + o.comment
    return o.indent + o.text


def format_text(text: str, path: str = "<string>") -> str:
    """The text in the house style. A syntax error raises LudusError; a change of meaning, FormatError."""
    # written back with \n line ends, whichever the file had (a lone \r ends a line too)
    text = lone_cr_as_newline(text.removeprefix("\ufeff").replace("\r\n", "\n"))
    try:
        tree = parse(text, path)
        before = _nodes(tree, path)  # a file the builder refuses (a bad text hole) is refused here
    except LudusError as err:
        # the error carries the text it was found in, so that it prints with its line and a
        # caret under the place, as `ludus check` prints it
        sources = Sources()
        sources.add(path, text)
        raise LudusError(err.diagnostics, sources) from None
    binary, heads, glued = _tree_facts(tree)
    out = _blank_lines(_layout(_scan(text), binary, heads, glued))
    result = "\n".join(line.rstrip() for line in _align(out)).strip("\n") + "\n"
    if result.strip() == "":
        result = ""
    _same_meaning(before, result, path)
    return result


def _nodes(tree: Tree, path: str):
    try:
        return Builder(path).transform(tree)
    except VisitError as exc:
        if isinstance(exc.orig_exc, LudusError):
            raise exc.orig_exc from None
        raise


def _same_meaning(before, after: str, path: str) -> None:
    """`before` (the original's nodes) and the nodes of `after` must be equal: nodes compare
    without their places, so only a change of meaning makes them differ."""
    try:
        new = _nodes(parse(after, path), path)
    except LudusError as err:
        raise FormatError(f"{path}: formatting would break the file ({err.diagnostics[0].message}); "
                          "it was left as it is — please report this") from None
    if before != new:
        raise FormatError(f"{path}: formatting would change what the file means; it was left as it is — "
                          "please report this")

