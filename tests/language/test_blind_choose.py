"""`choose d from LIST [by SEAT] blind [, up to N | , exactly N] ["question"]`: the word is read,
kept apart from a name spelled `blind`, checked against what the list holds, formatted, and put
in words."""

from __future__ import annotations

import pytest

from ludus.language import nodes as n
from ludus.language.build import build
from ludus.language.symbols import Symbols
from ludus.pipeline import analyse
from ludus.rules_text import RulesText
from ludus.tools.fmt import format_text

HEAD = '''game "T"
players 2
zone pile count only
zone removed count only
card "Flower":
    copies 3
flow:
'''


def chooses(text: str) -> list[n.Choose]:
    program = build(HEAD + text, "t.ludus")
    return [s for s in program.items[-1].body if isinstance(s, n.Choose)]


def diagnostics(tmp_path, text: str) -> list[str]:
    path = tmp_path / "t.ludus"
    path.write_text(HEAD + text, encoding="utf-8")
    diags, _checked, _sources = analyse(path)
    return [f"{d.span.line}:{d.span.column}: {d.severity}: {d.message}"
            for d in sorted(diags, key=lambda d: d.sort_key)]


def test_blind_is_read_after_the_seat_or_the_list_and_before_the_count():
    one, bare, several, plain = chooses(
        '    choose d from pile by P2 blind "Which disc?"\n'
        '    choose e from pile blind "Which disc?"\n'
        '    choose ds from pile by P1 blind, exactly 2 "Which discs?"\n'
        '    choose f from pile by P2 "Which disc?"\n'
        '    end game\n')
    assert (one.blind, bare.blind, several.blind, plain.blind) == (True, True, True, False)
    assert one.by is not None and bare.by is None and several.count_kind == "exactly"
    # the word's own place, for the checker's errors
    assert (one.blind_span.line, one.blind_span.column) == (8, 30)
    assert (bare.blind_span.line, bare.blind_span.column) == (9, 24)


def test_a_name_spelled_blind_is_still_a_name():
    program = build(HEAD.replace("flow:\n", "zone blind count only\ncounter blinded\nflow:\n")
                    + '    let k = 1\n    choose blind_one from blind by P2 blind "Which?"\n    end game\n', "t.ludus")
    choose = [s for s in program.items[-1].body if isinstance(s, n.Choose)][0]
    assert choose.blind and choose.source.name == "blind"


@pytest.mark.parametrize(("line", "where"), [
    ('    choose d blind from pile by P2 "Which?"\n', "t.ludus:8:14: error: unexpected 'blind'"),
    ('    choose d from pile blind by P2 "Which?"\n', "t.ludus:8:30: error: unexpected 'by'"),
    ('    choose ds from pile by P2, up to 2 blind "Which?"\n', "t.ludus:8:40: error: unexpected 'blind'"),
])
def test_blind_elsewhere_in_a_choose_is_a_syntax_error_that_says_where_it_goes(line, where):
    from ludus.language.source import LudusError

    with pytest.raises(LudusError) as err:
        build(HEAD + line, "t.ludus")
    text = str(err.value)
    assert where in text
    assert ("hint: 'blind' comes after the list and its 'by SEAT', before a count and the question: "
            "'choose d from LIST by SEAT blind, up to N \"Which ...?\"'") in text


def test_a_choice_bound_to_a_name_spelled_blind_is_no_slip():
    choose = chooses('    choose blind from pile by P2 "Which?"\n    exile blind\n    end game\n')[0]
    assert choose.bind == "blind" and not choose.blind


def test_blind_among_seats_or_numbers_is_an_error_at_the_word(tmp_path):
    said = diagnostics(tmp_path,
        '    choose s from seats by P1 blind "Whom?"\n'
        '    choose k from [1, 2, 3] by P1 blind, up to 2 "Which?"\n'
        '    choose d from pile by P2 blind "Which disc?"\n'
        '    log "{s} {k} {d}"\n'
        '    move removed to pile\n'
        '    end game\n')
    assert said == [
        "8:31: error: 'blind' picks among cards or pieces by their places, and this is a list of seats: "
        "every seat sees what it holds",
        "9:35: error: 'blind' picks among cards or pieces by their places, and this is a list of numbers: "
        "every seat sees what it holds",
    ]  # among cards, with a question: nothing to say


def test_a_blind_pick_without_a_question_is_a_warning_its_options_are_bare_numbers(tmp_path):
    said = diagnostics(tmp_path, '    choose d from pile by P2 blind\n    exile d\n    end game\n')
    assert said == ["8:12: warning: 'choose d' asks for a place in a list (blind) with no question: "
                    "a player sees 'choose d' and the bare options"]


def test_the_formatter_keeps_blind_and_tells_it_from_a_pick_that_names_its_cards():
    text = HEAD + '    choose ds from pile  by P2   blind ,exactly 2 "Which discs?"\n    move ds to removed\n    end game\n'
    out = format_text(text)
    assert '    choose ds from pile by P2 blind, exactly 2 "Which discs?"\n' in out
    assert format_text(out) == out
    # the formatter's check that the meaning is kept compares nodes: `blind` is part of them
    without = out.replace(" blind,", ",")
    assert "blind" not in without.split("flow:")[1]
    assert build(out, "t.ludus").items[-1] != build(without, "t.ludus").items[-1]


def test_rules_text_says_the_pick_is_blind():
    program = build('rule r(s):\n    choose d from lots of s by left(s) blind "Which disc?"\n'
                    '    choose ds from lots of s by s blind, up to 2 "Which discs?"\n'
                    '    choose c from lots of s by s "Which?"\n', "x.ludus")
    writer = RulesText(Symbols())
    assert writer.block(program.items[0].body) == [
        'Choose d from lots of s, blind (by its place), chosen by the seat left of s ("Which disc?").',
        'Choose up to 2 from lots of s as ds, blind (by their places), chosen by s ("Which discs?").',
        'Choose c from lots of s, chosen by s ("Which?").',
    ]
    assert writer.fallbacks == []


def test_the_language_server_completes_the_word_and_hovers_the_card_it_binds(tmp_path):
    from ludus.lsp.workspace import Workspace

    path = tmp_path / "t.ludus"
    path.write_text(HEAD + '    choose d from pile by P2 blind "Which disc?"\n    exile d\n    end game\n',
                    encoding="utf-8")
    ws = Workspace()
    assert ("blind", "keyword", None) in ws.completions(str(path), 7, 29)
    hover = ws.hover(str(path), 8, 10)  # `exile d`: the card at the place picked
    assert hover.startswith("**d**: local (entity)") and 'blind "Which disc?"' in hover
