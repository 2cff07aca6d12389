"""The Pygments lexers: keywords from the grammar, no Error token on any shipped file, found by name."""

from __future__ import annotations

import pytest
from prompt_toolkit.document import Document
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from pygments.lexers import get_lexer_by_name, get_lexer_for_filename
from pygments.token import Comment, Error, Keyword, Name, Number, Operator, String

from ludus.language.parser import grammar_path
from ludus.tools.lexers import LudusLexer, ReplayLexer, grammar_keywords, keyword_functions
from tests.helpers import EXAMPLES, GAMES, ROOT

LUDUS_FILES = sorted([*GAMES.rglob("*.ludus"), *EXAMPLES.rglob("*.ludus")])
REPLAYS = sorted([*GAMES.rglob("*.replay"), *EXAMPLES.rglob("*.replay")])


def tokens(lexer, text):
    return [(t, v) for t, v in lexer.get_tokens(text) if v.strip()]


def test_the_keywords_are_read_from_the_grammar(tmp_path, monkeypatch):
    import ludus.tools.lexers as lexers

    words = set(grammar_keywords())
    assert {"game", "counter", "becomes", "distribute", "alternate", "payoff", "the", "bottom"} <= words
    assert "Uprising" not in words and "Move" not in words  # quoted in the grammar's comments, not literals
    grammar = tmp_path / "ludus.lark"
    grammar.write_text(grammar_path().read_text(encoding="utf-8") + '\nextra_decl: "frobnicate" NAME\n',
                       encoding="utf-8")
    monkeypatch.setattr(lexers, "grammar_path", lambda: grammar)
    lexers.grammar_keywords.cache_clear()
    try:
        assert set(lexers.grammar_keywords()) == words | {"frobnicate"}
    finally:
        lexers.grammar_keywords.cache_clear()


@pytest.mark.parametrize("word", grammar_keywords())
def test_every_keyword_of_the_grammar_is_lexed_as_a_keyword(word):
    kind, value = tokens(LudusLexer(), f"    {word} x\n")[0]
    assert value == word
    assert kind in Keyword or kind in Operator.Word


def test_a_built_in_function_spelled_as_a_keyword_is_a_call_before_a_bracket():
    assert {"top", "card", "any", "all", "max", "min", "count", "adjacent"} <= set(keyword_functions())
    found = tokens(LudusLexer(), 'move top(deck) to hand\nif any (x > 1 for x in xs): log "{card("Lamp")}"\n')
    assert (Name.Function, "top") in found and (Name.Function, "any") in found and (Name.Function, "card") in found
    found = tokens(LudusLexer(), "zone market top only\ncounter c max 3\n")
    assert (Keyword, "top") in found and (Keyword, "max") in found


def test_a_word_after_a_dot_is_an_attribute_even_when_it_is_a_keyword():
    assert (Name.Attribute, "value") in tokens(LudusLexer(), "set c.value to 3\n")


def test_a_string_with_a_hole_holding_a_string():
    found = tokens(LudusLexer(), 'log "{current} scores {if won then "*" else ""} now"  # note\n')
    assert (String.Interpol, "{") in found and (Name, "current") in found
    assert (String.Double, '"*"') in found and (Keyword, "then") in found
    assert found[-1] == (Comment.Single, "# note")


def test_declared_names_and_numbers():
    found = tokens(LudusLexer(), "define most_coins(s) = coins of s + d6 * 2\n")
    assert (Name.Function, "most_coins") in found
    assert (Number.Integer, "d6") in found and (Number.Integer, "2") in found


@pytest.mark.parametrize("path", LUDUS_FILES, ids=[str(p.relative_to(ROOT)) for p in LUDUS_FILES])
def test_no_error_token_in_a_shipped_game_file(path):
    text = path.read_text(encoding="utf-8")
    found = list(LudusLexer().get_tokens(text))
    assert [v for t, v in found if t in Error] == []
    assert "".join(v for _, v in found) == text


@pytest.mark.parametrize("path", REPLAYS, ids=[str(p.relative_to(ROOT)) for p in REPLAYS])
def test_no_error_token_in_a_shipped_replay(path):
    found = list(ReplayLexer().get_tokens(path.read_text(encoding="utf-8")))
    assert [v for t, v in found if t in Error] == []


def test_a_replay_line_by_line():
    found = tokens(ReplayLexer(), "# a match\ngame ../market-town.ludus\nseed 15\nbuy Copper Coin #2\n"
                                  "force d6 = 6\nexpect coins of Amber == 6\nexpect winner Amber\n")
    assert found[0] == (Comment.Single, "# a match")
    assert (String.Other, "../market-town.ludus") in found
    assert (Number.Integer, "15") in found
    assert (Name.Label, "buy Copper Coin #2") in found  # a '#' in a label is no comment
    assert (Number.Integer, "d6") in found and (Operator, "==") in found
    assert (Name.Class, "Amber") in found


def test_expect_no_winner_reads_as_the_winner_check_it_is():
    found = tokens(ReplayLexer(), "expect no winner\n")
    assert (Keyword, "no winner") in found and not [v for t, v in found if t in Error]


def test_the_lexers_are_registered_under_their_names():
    """Through the `pygments.lexers` entry point: what mkdocs and pygmentize use."""
    for name in ("ludus", "ludus-decl", "ludus-stmt"):
        assert type(get_lexer_by_name(name)).__name__ == "LudusLexer"
    for name in ("ludus-replay", "replay"):
        assert type(get_lexer_by_name(name)).__name__ == "ReplayLexer"
    assert type(get_lexer_for_filename("game.ludus")).__name__ == "LudusLexer"
    assert type(get_lexer_for_filename("match.replay")).__name__ == "ReplayLexer"


def test_the_repl_highlights_what_is_typed():
    from ludus.repl import Repl, prompt_reader
    from tests.repl.test_repl import make_repl

    repl, _ = make_repl()
    assert isinstance(repl, Repl)
    with create_pipe_input() as pipe:
        read = prompt_reader(repl, input=pipe, output=DummyOutput())
    lexer = read.__self__.lexer
    fragments = lexer.lex_document(Document("expect coins of Amber == 3"))(0)
    assert ("class:pygments.keyword", "expect") in fragments
