"""The grammar and the parser: strict LALR, positions, and syntax errors that read well."""

from __future__ import annotations

import functools
import random
from pathlib import Path

import pytest
from lark import Lark, Tree

import ludus.language.parser
import ludus.language.parser as parser_module
from ludus.language.parser import parse
from ludus.language.source import LudusError


def syntax_error(text: str):
    with pytest.raises(LudusError) as err:
        parse(text, "t.ludus")
    [diag] = err.value.diagnostics
    return diag


def test_grammar_builds_under_strict_mode():
    # strict=True refuses shift/reduce conflicts and colliding terminals (interegular checks regexps)
    Lark.open(str(ludus.language.parser.grammar_path()), parser="lalr", postlex=ludus.language.parser.LudusIndenter(),
              propagate_positions=True, maybe_placeholders=True, start=["start", "expr", "statements"], strict=True)


def test_parse_gives_a_tree_with_positions():
    tree = parse('game "X"\nplayers 2\nflow:\n    win P1\n')
    assert isinstance(tree, Tree) and tree.data == "start"
    flow = [t for t in tree.children if isinstance(t, Tree) and t.data == "flow_decl"][0]
    assert (flow.meta.line, flow.meta.column) == (3, 1)


def flow_statements(tree: Tree) -> list[str]:
    """The kinds of the statements of the flow's block, in order."""
    [flow] = tree.find_data("flow_decl")
    [suite] = [c for c in flow.children if isinstance(c, Tree) and c.data == "suite"]
    return [s.data for s in suite.children]


def test_a_missing_final_newline_is_fine():
    tree = parse('game "X"\nflow:\n    win P1')
    assert flow_statements(tree) == ["win_stmt"]  # the last line, without its newline, is read


def test_one_line_blocks_and_continuations():
    tree = parse('flow:\n    if 1 > 0: win P1\n    let x = 1 + \\\n        2\n    let ys = [1,\n  2]\n')
    # the `if` holds its one-line body; each `let` is one statement across its lines
    assert flow_statements(tree) == ["if_stmt", "let_stmt", "let_stmt"]
    [if_stmt] = tree.find_data("if_stmt")
    assert [s.data for s in next(if_stmt.find_data("suite")).children] == ["win_stmt"]
    assert [str(v) for v in next(tree.find_data("sum")).scan_values(lambda v: True)] == ["1", "+", "2"]
    assert len(next(tree.find_data("list_lit")).children) == 2


def test_expression_start():
    tree = parse("money of Red + 1", start="expr")
    assert isinstance(tree, Tree)
    ops = [t for t in tree.scan_values(lambda v: getattr(v, "type", "") == "ADD_OP")]
    assert ops == ["+"]


def test_keywords_are_contextual():
    # 'value' is a keyword at the start of a declaration, and a property name in a card
    tree = parse('kind K:\n    value: number\ncard "C" is K:\n    value 3\n')
    assert [t.data for t in tree.children if isinstance(t, Tree)] == ["kind_decl", "entity_decl"]
    assert [str(f.children[0]) for f in tree.find_data("field_decl")] == ["value"]
    [prop] = tree.find_data("prop")
    assert str(prop.children[0]) == "value" and [str(v) for v in prop.children[1].scan_values(lambda v: v is not None)] == ["3"]


def test_a_card_may_give_its_one_property_on_its_own_line():
    # a numbered deck, a line a card; `value` stays a property's name there too, and the
    # declarations after the one-line cards, block or not, read as before
    tree = parse('kind K:\n    value: number\ncard "One" is K: value 1\npiece Two: copies 2\n'
                 'card "Three" is K:\n    copies 1\n    value 3\nvalue rounds = 2\n')
    cards = [t for t in tree.children if isinstance(t, Tree) and t.data == "entity_decl"]
    props = [[(str(p.children[0]), *p.children[1].scan_values(lambda v: getattr(v, "type", "") == "INT")) for p in c.find_data("prop")]
             for c in cards]
    assert props == [[("value", "1")], [("copies", "2")], [("copies", "1"), ("value", "3")]]
    assert [t.data for t in tree.children if isinstance(t, Tree)][-1] == "value_decl"


@pytest.mark.parametrize(("text", "message", "line", "column"), [
    ("flow:\n    gain 2 money money\n", "unexpected 'money'; expected 'for' or end of line", 2, 18),
    ("flow:\n    let x = 1 +\n", "unexpected end of line; expected an expression", 2, 16),
    ("flow:\n    if x > 2\n        win P1\n", "unexpected end of line; expected ':'", 2, 13),
    ("flow:\n    log 'x'\n", "unexpected character \"'\"; strings use double quotes", 2, 9),
    ("flow:\n    win P1 $\n", "unexpected character '$'", 2, 12),
    ("flow:\n    win P1\n        win P2\n", "unexpected indentation: only a line ending in ':' opens an indented block", 3, 9),
    ("flow:\n    if 1 > 0:\n        win P1\n      win P2\n", "this line's indentation matches no enclosing block", 4, 7),
    ("flow:\n    for each s in seats:\n    win P1\n", "expected an indented block after the ':' on line 2", 3, 5),
    ("kind K:\n", "expected an indented block after the ':' on line 1", 1, 8),
    ("flow:\n    let xs = [1, 2\n    win P1\n", "'[' is never closed", 2, 14),
    ("flow:\n    let x = max(1, 2\n", "'(' is never closed", 2, 16),
    ("flow:\n    win P1 P2\n", "unexpected 'P2'; expected end of line", 2, 12),
    ("counter 3\n", "unexpected '3'; expected a name", 1, 9),
    ("gain 2 money\n", "unexpected 'gain'; expected a declaration, end of file or end of line", 1, 1),
    # only what can follow there: a name is followed by 'in', 'per' or 'adjacent' elsewhere, and
    # LALR's merged states listed those too
    ("flow:\n    turn P1:\n        offer Roll or Hold\n",
     "unexpected 'or'; expected ',', 'as', 'else', 'to', a quoted string or end of line", 3, 20),
])
def test_syntax_error_messages(text, message, line, column):
    diag = syntax_error(text)
    assert diag.message == message
    assert (diag.span.line, diag.span.column) == (line, column)
    assert diag.span.path == "t.ludus"


@pytest.mark.parametrize(("loop", "written", "column"), [
    ("for r in 1 to 3 where r > 1:", "for each r in range(1, 3) where r > 1:", 21),
    ("for each r in 1 to size(hand) where r > 1:   # the later ones", "for each r in range(1, size(hand)) where r > 1:", 35),
    ("for r in 1 to 3 where r > 1", "for each r in range(1, 3) where ...:", 21),
])
def test_a_counted_loop_with_where_says_it_takes_none_at_the_where(loop, written, column):
    # it was "unexpected 'where'; expected ':'", which does not say that a counted loop takes no 'where'
    diag = syntax_error(f"flow:\n    {loop}\n        log \"{{r}}\"\n")
    assert diag.message == f"a counted loop takes no 'where': loop over the numbers as a list, `{written}`"
    assert (diag.span.line, diag.span.column, diag.span.end_column) == (2, column, column + len("where"))
    assert diag.hint == "or keep the counted loop and test each number with `if` inside it"
    parse(f"flow:\n    {written.replace('...', 'r > 1')}\n        log \"{{r}}\"\n")  # what it says to write parses


def test_a_where_out_of_place_in_a_loop_over_a_list_is_not_called_a_counted_loop():
    assert syntax_error("flow:\n    for x in xs where a where b:\n        win P1\n").message == \
        "unexpected 'where'; expected ':'"


def test_operators_are_summed_up():
    message = syntax_error("flow:\n    let x = (1 2)\n").message
    assert message == "unexpected '2'; expected an operator or ')'"
    assert "'=='" not in message


def test_an_unclosed_bracket_hint_says_what_was_found():
    diag = syntax_error("flow:\n    let xs = [1, 2\n    win P1\n")
    assert diag.hint == "found 'win' on line 3 before its ']'"


def test_expected_lists_never_name_internal_terminals():
    for text in ("flow:\n    gain\n", "flow:\n    choose x from\n", "zone\n", "flow:\n    roll as x\n",
                 "track t from to 3\n", "flow:\n    offer to\n"):
        message = syntax_error(text).message
        assert "_" not in message.replace("'", ""), message
        assert "__ANON" not in message and "$END" not in message, message


SLIPS = [
    ("if true:\n        set n to 1\n    else if false:\n        set n to 2", "write 'elif' for 'else if'"),
    ("if n = 1:\n        set n to 2", "compare with '=='"),
    ("set n to False", "the word is 'false', in lower case"),
    ("set n to 1\n    n += 1", "'+=' is not in the language: write 'increase NAME by ...'"),
    ("\tset n to 1", "this file indents with tabs"),
    ("set n to if n == 1 then 2 elif n == 2 then 3 else 0",
     "an expression chains with 'else if': 'if A then X else if B then Y else Z'"),
    ("set n to let m = 2 in m + 1", "'let' is a statement, and an expression holds none"),
    # statements written as a designer new to ludus expects them (a designer's trial found these)
    ("turn P1:\n        end turn", "a turn ends where its 'turn s:' block does"),
    ("offer Roll or Hold", "separate the actions with commas: 'offer A, B'"),
    ("choose t from seats where t != P1", "'choose t from [t for t in seats where ...]'"),
    ("loop:\n        set n to 1", "write 'while true:'"),
    # a rule that would hand back what it worked out (a Love Letter trial reached for it)
    ("return n", "a rule gives back no value"),
    ("return", "a rule gives back no value"),
    ("return(n)", "a rule gives back no value"),
    # a question held in a name, as a rule that asks for its caller is given it
    ("choose s from seats n", 'write it as a hole in one, "{n}"'),
    ("ask P1 n as yes", 'write it as a hole in one, "{n}"'),
    # a run of numbers where only a loop or a choice takes `LOW to HIGH` (a designer's trial)
    ("set n to sum(x for x in 1 to 3)", "in an expression, write range(LOW, HIGH)"),
]


@pytest.mark.parametrize(("body", "hint"), SLIPS, ids=["else-if", "equals", "False", "plus-equals", "tabs", "elif-in-expression",
                                                      "let-in-expression", "end-turn", "offer-or", "choose-where", "loop",
                                                      "return-value", "return-alone", "return-call",
                                                      "question-name", "ask-question-name", "run-in-expression"])
def test_common_slips_get_a_hint(tmp_path, body, hint):
    path = tmp_path / "slip.ludus"
    path.write_text(f'game "T"\nplayers 2\ncounter n\nflow:\n    {body}\n    end game\n', encoding="utf-8")
    diags, _checked, _sources = ludus.analyse(path)
    assert [d.severity for d in diags] == ["error"]
    assert diags[0].hint is not None and hint in diags[0].hint


def test_setup_force_in_a_test_says_where_the_test_starts_and_elsewhere_nothing(tmp_path):
    path = tmp_path / "slip.ludus"
    game = 'game "T"\nplayers 2\nzone deck\ncard "A"\nflow:\n    end game\n'
    path.write_text(game + '\ntest "t":\n    setup force order deck = "A"\n', encoding="utf-8")
    diags, _checked, _sources = ludus.analyse(path)
    assert [(d.severity, d.span.line) for d in diags] == [("error", 9)]
    assert "a test starts at the first decision, once setup has run" in diags[0].hint
    assert "setup force" in diags[0].hint
    path.write_text(game.replace("    end game", "    setup force\n    end game"), encoding="utf-8")
    diags, _checked, _sources = ludus.analyse(path)
    assert [d.severity for d in diags] == ["error"]
    assert diags[0].hint is None or "a test starts" not in diags[0].hint


def test_a_let_inside_a_define_gets_the_hint_and_a_let_statement_none(tmp_path):
    path = tmp_path / "slip.ludus"
    path.write_text('game "T"\nplayers 2\ncounter n\ndefine more = let m = n in m + 1\n'
                    'flow:\n    let total = n + 1\n    set n to total\n    end game\n', encoding="utf-8")
    diags, _checked, _sources = ludus.analyse(path)
    assert [(d.severity, d.span.line, d.message) for d in diags] == [("error", 4, "unexpected 'm'; expected end of line")]
    assert "name the value with a define of its own" in diags[0].hint


def test_a_stray_elif_among_statements_gets_no_expression_hint(tmp_path):
    path = tmp_path / "slip.ludus"
    path.write_text('game "T"\nplayers 2\ncounter n\nflow:\n    set n to 1\n    elif n == 1:\n        set n to 2\n    end game\n',
                    encoding="utf-8")
    diags, _checked, _sources = ludus.analyse(path)
    assert [d.severity for d in diags] == ["error"]
    assert diags[0].hint is None or "else if" not in diags[0].hint


def test_a_byte_order_mark_is_accepted_and_a_misspelt_include_gets_the_near_name(tmp_path):
    (tmp_path / "cards.ludus").write_text("counter n\n", encoding="utf-8")
    main = tmp_path / "game.ludus"
    main.write_bytes("\ufeffgame \"T\"\nplayers 2\ninclude \"crads.ludus\"\nflow:\n    end game\n".encode("utf-8"))
    diags, _checked, _sources = ludus.analyse(main)
    assert [d.message for d in diags] == ["cannot read 'crads.ludus': No such file or directory"]
    assert diags[0].hint == "did you mean 'cards.ludus'?"


LINE_ENDS_GAME = 'game "G"{e}players 2{e}# a note{odd}with odd characters{e}value x = nope{e}flow:{e}    end game{e}'


@pytest.mark.parametrize("end", ["\n", "\r\n", "\r"])
@pytest.mark.parametrize("odd", ["", "\x0c", "\x1c", "\x85", "\u2028", "\u2029", "\x0b"])
def test_lines_end_at_newline_crlf_or_a_lone_cr_and_nowhere_else(tmp_path, end, odd):
    # str.splitlines also ends a line at a form feed, \x1c, \x85, U+2028...: the line shown
    # under an error after a comment holding one was the wrong line. A file with lone \r line
    # ends (old Mac) was one long line of "unexpected character '\r'" errors
    import ludus
    from ludus.language.source import render

    path = tmp_path / "g.ludus"
    path.write_bytes(LINE_ENDS_GAME.format(e=end, odd=odd).encode("utf-8"))
    diags, _checked, sources = ludus.analyse(path)
    assert [(d.severity, d.span.line, d.span.column, d.message) for d in diags] == [
        ("warning", 4, 7, "value 'x' is never used"), ("error", 4, 11, "unknown name 'nope'")]
    assert render(diags[1], sources).splitlines()[1:3] == ["    value x = nope", "              ^^^^"]


def test_a_very_long_line_is_shown_only_around_the_error(tmp_path):
    # A generated one-line expression megabytes long printed itself whole under its error, and a
    # caret line padded with as many spaces: a window of the line around the column is shown
    import ludus
    from ludus.language.source import render

    path = tmp_path / "g.ludus"
    line = "value x = " + "1 + " * 50 + "nope" + " + 1" * 100_000
    path.write_text('game "G"\nplayers 2\n' + line + "\nflow:\n    end game\n")
    diags, _checked, sources = ludus.analyse(path)
    assert [(d.span.line, d.message[:18]) for d in diags] == [(3, "nested too deeply:")]
    shown, caret = render(diags[0], sources).splitlines()[1:3]
    assert shown.startswith("    ...") and shown.endswith("...") and len(shown) == 4 + 3 + 200 + 3
    column = diags[0].span.column
    assert shown[caret.index("^")] == line[column - 1] and shown[caret.index("^") - 5:] == line[column - 6:column + 99] + "..."


def test_a_long_underline_is_cut_where_the_shown_line_is():
    from ludus.language.source import Diagnostic, Sources, Span, render

    text = "x" * 1000
    sources = Sources()
    sources.add("g.ludus", text)
    shown, caret = render(Diagnostic("error", "bad", Span("g.ludus", 1, 1, 1, 1001)), sources).splitlines()[1:3]
    assert shown == "    " + "x" * 100 + "..." and caret == "    " + "^" * 100
    shown, caret = render(Diagnostic("error", "bad", Span("g.ludus", 1, 1000, 2, 1)), sources).splitlines()[1:3]
    assert shown == "    ..." + "x" * 101 and caret == "    " + " " * 103 + "^"


def test_a_line_indented_with_tabs_is_drawn_with_its_caret_under_the_word(tmp_path):
    # the line kept its tab, which a terminal takes to its next 8th column, while the caret was
    # counted in characters: it stood four columns left of the word
    import ludus
    from ludus.language.source import render

    path = tmp_path / "g.ludus"
    path.write_text('game "G"\nplayers 2\ncounter k\nflow:\n\tincrease k by foo\n\tend game\n', encoding="utf-8")
    diags, _checked, sources = ludus.analyse(path)
    assert [(d.span.line, d.span.column, d.message) for d in diags] == [(5, 16, "unknown name 'foo'")]
    shown, caret = render(diags[0], sources).splitlines()[1:3]
    assert "\t" not in shown and shown == "        increase k by foo"
    assert caret == " " * shown.index("foo") + "^^^"


@pytest.mark.parametrize(("broken", "shown", "said"), [(25, 20, True), (21, 20, True), (20, 20, False), (3, 3, False)])
def test_at_most_twenty_syntax_errors_and_the_last_says_when_more_are_left(broken, shown, said):
    text = "".join(f"value v{i} = = {i}\n" for i in range(broken))
    with pytest.raises(LudusError) as err:
        parse(text, "t.ludus")
    diags = err.value.diagnostics
    assert [d.span.line for d in diags] == list(range(1, shown + 1))
    more = "only the first 20 syntax errors of a file are shown; the declarations after this one hold more"
    # said after the hint the error has of its own
    assert diags[-1].hint.endswith("'set NAME to VALUE'; " + more if said else "'set NAME to VALUE'")
    assert not any(more in d.hint for d in diags[:-1])


# ── the nesting watch (LudusIndenter.process) never counts more levels than the tree has ──

def _tree_depth(tree) -> int:
    """The deepest level of the tree as `_limits` counts them."""
    deepest, stack = 0, [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        extra = 0
        for child in node.children:
            if isinstance(child, Tree):
                stack.append((child, depth + 1 + extra))
                extra += node.data in parser_module.CHAINS
    return deepest


def _watch_stops_short_of(text: str, start: str, monkeypatch) -> bool:
    """Whether the watch, its limit set at the tree's own depth, lets the text through: it must,
    or it would refuse some text at the limit that the tree check accepts."""
    text = text if start == "expr" else text + "\n"
    monkeypatch.setattr(parser_module, "WATCH_LIMIT", 10**9)
    try:
        tree = parser_module._parser().parse(text, start=start)
    except Exception:
        return True  # not a text the parser accepts: nothing to compare
    monkeypatch.setattr(parser_module, "WATCH_LIMIT", _tree_depth(tree))
    try:
        parser_module._parser().parse(text, start=start)
    except parser_module.TooDeep:
        return False
    return True


def test_the_nesting_watch_counts_no_more_levels_than_the_tree_of_any_shipped_file(monkeypatch):
    root = Path(__file__).resolve().parents[2]
    files = [f for d in ("games", "examples", "tests") for f in sorted((root / d).rglob("*.ludus"))]
    assert len(files) > 100
    over = [f.name for f in files if not _watch_stops_short_of(f.read_text(encoding="utf-8", errors="replace"),
                                                                "start", monkeypatch)]
    assert over == []


def _random_expression(r: random.Random, depth: int, budget: list[int]) -> str:
    """An expression of every form the grammar has, nested up to `depth` brackets or `if`s."""
    def chain(sub, ops):
        n = r.choice([1, 1, 1, 2, 3, 6]) if budget[0] > 0 else 1
        budget[0] -= n
        return f" {r.choice(ops)} ".join(sub() for _ in range(n))

    def atom():
        budget[0] -= 1
        inner = depth > 0 and budget[0] > 0
        c = r.randrange(12 if inner else 5)
        sub = functools.partial(_random_expression, r, depth - 1, budget)
        forms = [lambda: str(r.randrange(100)), lambda: '"s"', lambda: r.choice(["true", "false", "none"]),
                 lambda: r.choice(["a", "vp"]), lambda: "x", lambda: f"({sub()})",
                 lambda: "[" + ", ".join(sub() for _ in range(r.randrange(3))) + "]",
                 lambda: f"[{sub()} for y in {sub()}" + (f" where {sub()}]" if r.random() < .5 else "]"),
                 lambda: "f(" + ", ".join(sub() for _ in range(r.randrange(3))) + ")",
                 lambda: f"g({sub()} for y in (x))", lambda: "b", lambda: "c"]
        return forms[c]()

    def postfix():
        return atom() + "".join("." + r.choice(["loc", "n"]) for _ in range(r.choice([0, 0, 1, 3])))

    def unary():
        c = r.randrange(6)
        if c == 0:
            return "-" + unary()
        if c == 1:
            return "vp of " + postfix() + (" at " + postfix() if r.random() < .5 else "")
        return "u at " + postfix() if c == 2 else postfix()

    def comparison():
        s = chain(lambda: chain(unary, ["*", "/", "%"]), ["+", "-"])
        if r.random() < .3:
            s += f" {r.choice(['==', '!=', '<', '<=', '>', '>=', 'in', 'not in'])} " + chain(unary, ["+"])
        return s

    def negation():
        return "not " + negation() if r.random() < .2 else comparison()

    if depth > 0 and r.random() < .15:
        sub = functools.partial(_random_expression, r, depth - 1, budget)
        return f"if {sub()} then {sub()} else {sub()}"
    return chain(lambda: chain(negation, ["and"]), ["or"])


# places an expression stands in, each next to words that may read like an expression's
_CONTEXTS = [
    ("expr", "{}"),
    ("statements", "set x to {}"),
    ("statements", "gain {} coins for {}"),
    ("statements", "add {} Coin of {} to {}"),
    ("statements", "f({}, {})"),
    ("statements", "if {}:\n    set x to {}\nelif {}:\n    win {}\nelse:\n    lose {}"),
    ("statements", "for each z in {} where {}:\n    move {} to the bottom of {}"),
    ("statements", 'offer A, B to {} else "no"'),
    ("statements", "choose z from {} to {} by {}"),
    ("start", "value v = {}\ndefine d(p, q: list of list of card) = {}\naction Buy(c in {}, e in {}):\n"
              "    cost {} coins\n    require {}\n    set x to {}"),
    ("start", 'card "C" is K:\n    cost {}\n    tags [{}, {}]\n    on play:\n        set x to {}'),
    ("start", 'counter m per seat and state start {}\ntest "t":\n    force order discards dark-blue-1-2 = "a"\n'
              "    expect {}\n    given set x to {}"),
    ("start", 'track t from -6 to {}\nboard b:\n    region N adjacent to E, W\n    state AZ "A" in W with cost {}, '
              "n {}\nwhen {} becomes true for each d in {}:\n    win d"),
]


@pytest.mark.parametrize("seed", range(4))
def test_the_nesting_watch_counts_no_more_levels_than_the_tree_of_random_expressions(seed, monkeypatch):
    r = random.Random(seed)
    over = []
    for _ in range(100):
        start, context = r.choice(_CONTEXTS)
        text = context.format(*[_random_expression(r, r.randrange(1, 8), [r.randrange(5, 60)])
                                for _ in range(context.count("{}"))])
        if not _watch_stops_short_of(text, start, monkeypatch):
            over.append(text)
    assert over == []


@pytest.mark.parametrize("expression, line, column", [
    ("1+" * 200_000 + "1", 1, 197),  # the 99th term: the comparison, the sum, 98 operators, the term
    ("a and " * 200_000 + "a", 1, 589),
    ("- " * 200_000 + "1", 1, 199),
    ("not " * 200_000 + "a", 1, 397),
    ("a" + ".b" * 200_000, 1, 198),
    ("[" * 200_000 + "]" * 200_000, 1, 51),
    ("f(" * 200_000 + ")" * 200_000, 1, 101),
    ("(" * 200_000 + "1" + ")" * 200_000, 1, 100),
    ("if x then 1 else " * 200_000 + "1", 1, 1670),  # the condition of the 99th `if`
    ("[x,\n" + "1 +\n" * 200_000 + "1]", 98, 1),  # inside brackets, lines go on
])
def test_an_expression_past_the_nesting_limit_stops_where_it_passes_it(expression, line, column):
    with pytest.raises(LudusError) as err:
        parse(expression, "e.ludus", start="expr")
    (diag,) = err.value.diagnostics
    assert diag.message == "nested too deeply: the limit is 100 levels of parentheses, operators and blocks"
    assert (diag.span.path, diag.span.line, diag.span.column) == ("e.ludus", line, column)


def test_a_type_past_the_nesting_limit_stops_where_it_passes_it():
    # the watch counts the counter's type one level shallower than the tree (which puts it under
    # the counter): it stops at the 100th `list`, where the tree check would point at the 99th
    with pytest.raises(LudusError) as err:
        parse("counter x: " + "list of " * 200_000 + "number\n", "t.ludus")
    assert str(err.value) == ("t.ludus:1:804: error: nested too deeply: the limit is 100 levels of parentheses, "
                              "operators and blocks")
