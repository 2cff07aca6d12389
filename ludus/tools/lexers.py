"""Pygments lexers for .ludus files and .replay scripts: the REPL's input and the docs' code blocks.

Registered through the `pygments.lexers` entry point, so `pygmentize -l ludus`, mkdocs and any
Pygments user find them by name: `ludus` (also `ludus-decl` and `ludus-stmt`, the fences the
language reference uses for a declaration or a statement alone) and `ludus-replay` (or `replay`).

The keywords are read from the grammar, never listed by hand, so a keyword added to the language
is highlighted from then on. The language's keywords are contextual (`value` starts a
declaration, and is a fine property name after a '.'); a lexer sees no context, so a word after
a '.' is an attribute and everywhere else a keyword's spelling is a keyword.
"""

from __future__ import annotations

import functools
import re

from pygments.lexer import RegexLexer, bygroups, include, using, words
from pygments.token import Comment, Keyword, Name, Number, Operator, Punctuation, String, Text, Whitespace

from ..language.parser import grammar_path
from ..language.symbols import BUILTIN_FUNCTIONS

# words that read as operators or constants rather than as keywords
WORD_OPERATORS = ("and", "or", "not", "in")
CONSTANTS = ("true", "false", "none")
# keywords after which the next name is the one being declared
DECLARING = {"define": Name.Function, "rule": Name.Function, "action": Name.Function,
             "kind": Name.Class, "card": Name.Class, "piece": Name.Class}


@functools.cache
def grammar_keywords() -> tuple[str, ...]:
    """Every word the grammar spells out as a literal ("game", "counter", "becomes", ...), longest first."""
    text = grammar_path().read_text(encoding="utf-8")
    code = "\n".join(line.split("//", 1)[0] for line in text.splitlines())
    found = set(re.findall(r'"([A-Za-z_][A-Za-z0-9_]*)"', code))
    return tuple(sorted(found, key=lambda w: (-len(w), w)))


def _keywords() -> tuple[str, ...]:
    return tuple(w for w in grammar_keywords() if w not in WORD_OPERATORS + CONSTANTS)


def keyword_functions() -> tuple[str, ...]:
    """Built-in functions spelled as keywords (`top`, `card`, `any`, `max`, ...): before a '(',
    as in `top(deck)` or `any(x > 2 for x in xs)`, the word is a call, not the keyword."""
    return tuple(sorted(set(BUILTIN_FUNCTIONS) & set(grammar_keywords())))


class LudusLexer(RegexLexer):
    """The ludus game-description language (.ludus files)."""

    name = "ludus"
    aliases = ["ludus", "ludus-decl", "ludus-stmt"]
    filenames = ["*.ludus"]
    mimetypes = ["text/x-ludus"]

    tokens = {
        "root": [
            (r"[ \t\f]+", Whitespace),
            (r"\n", Whitespace),
            (r"\\[ \t\f]*\n", Text),  # a continued line
            (r"#.*?$", Comment.Single),
            *[(rf"\b({word})([ \t]+)([A-Za-z_][A-Za-z0-9_]*)", bygroups(Keyword.Declaration, Whitespace, kind))
              for word, kind in DECLARING.items()],
            include("expression"),
        ],
        "expression": [
            (r"[ \t\f]+", Whitespace),
            (r'"', String.Double, "string"),
            (r"(\.)([A-Za-z_][A-Za-z0-9_]*)", bygroups(Punctuation, Name.Attribute)),
            (r"\bd[0-9]+\b", Number.Integer),  # a die: d6
            (r"[0-9]+", Number.Integer),
            (words(CONSTANTS, suffix=r"\b"), Keyword.Constant),
            (words(keyword_functions(), prefix=r"\b", suffix=r"(?=[ \t]*\()"), Name.Function),
            (words(WORD_OPERATORS, prefix=r"\b", suffix=r"\b"), Operator.Word),
            (words(_keywords(), prefix=r"\b", suffix=r"\b"), Keyword),
            (r"[A-Za-z_][A-Za-z0-9_]*(?=\()", Name.Function),
            (r"[A-Z][A-Za-z0-9_]*", Name.Class),
            (r"[A-Za-z_][A-Za-z0-9_]*", Name),
            (r"==|!=|<=|>=|[-+*/%<>=]", Operator),
            (r"[()\[\],:.]", Punctuation),
        ],
        "string": [
            (r'\\.', String.Escape),
            (r"\{", String.Interpol, "hole"),
            (r'[^"\\{\n]+', String.Double),
            (r'"', String.Double, "#pop"),
            (r"\n", Whitespace, "#pop"),  # an unclosed string ends with its line
        ],
        "hole": [
            (r"\}", String.Interpol, "#pop"),
            (r'"[^"\n{}]*"', String.Double),  # a hole may hold a string of its own: {if won then "*" else ""}
            (r"\n", Whitespace, "#pop:2"),
            include("expression"),
        ],
    }


class ReplayLexer(RegexLexer):
    """Replay scripts (.replay): a header, then moves by label, forced chance and expectations."""

    name = "ludus replay"
    aliases = ["ludus-replay", "replay"]
    filenames = ["*.replay"]
    mimetypes = ["text/x-ludus-replay"]

    tokens = {
        "root": [
            (r"[ \t]*\n", Whitespace),
            (r"([ \t]*)(#.*?)$", bygroups(Whitespace, Comment.Single)),
            (r"([ \t]*)(game)([ \t]+)(.*?)$", bygroups(Whitespace, Keyword.Namespace, Whitespace, String.Other)),
            (r"([ \t]*)(players|seed)([ \t]+)(.*?)$", bygroups(Whitespace, Keyword, Whitespace, Number.Integer)),
            (r"([ \t]*)(seats)([ \t]+)(.*?)$", bygroups(Whitespace, Keyword, Whitespace, Name.Class)),
            (r"([ \t]*)(chance)([ \t]+)(.*?)$", bygroups(Whitespace, Keyword, Whitespace, Keyword.Constant)),
            (r"([ \t]*)(expect)([ \t]+)(winners?)([ \t]+)(.*?)$",
             bygroups(Whitespace, Keyword, Whitespace, Keyword, Whitespace, Name.Class)),
            (r"([ \t]*)(expect)([ \t]+)(no[ \t]+winners?)([ \t]*)$", bygroups(Whitespace, Keyword, Whitespace, Keyword, Whitespace)),
            (r"([ \t]*)((?:setup[ \t]+)?force|expect)([ \t]+)(.*?)$",
             bygroups(Whitespace, Keyword, Whitespace, using(LudusLexer))),
            (r"([ \t]*)(move)([ \t]+)(.*?)$", bygroups(Whitespace, Keyword, Whitespace, Name.Label)),
            (r"([ \t]*)(.+?)$", bygroups(Whitespace, Name.Label)),  # a move, by its label
        ],
    }
