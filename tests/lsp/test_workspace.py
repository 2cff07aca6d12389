"""The language server's answers, without the protocol: the game a file belongs to, diagnostics
from unsaved buffers, hover, definition, completion and the outline."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from ludus.cli import main
from ludus.language.parser import keywords
from ludus.lsp.workspace import Workspace, resolved
from tests.helpers import EXAMPLES, GAMES, no_crash

GAME = '''game "Parts"
players 2
counter coins per seat
zone hand per seat
include "cards.ludus"
rule pay_out(s: seat):
    gain 2 coins for s
flow:
    for each s in seats:
        pay_out(s)
        resolve play of card("Lamp")
    win P1
'''
CARDS = '''card "Lamp":
    on play:
        gain 1 coins
        pay_out(actor)
'''


def errors(analysis) -> list:
    return [d for ds in analysis.diagnostics.values() for d in ds if d.severity == "error"]


@pytest.fixture
def parts(tmp_path):
    (tmp_path / "game.ludus").write_text(GAME, encoding="utf-8")
    (tmp_path / "cards.ludus").write_text(CARDS, encoding="utf-8")
    return tmp_path


def test_a_part_is_analysed_through_its_game_and_unsaved_text_wins(parts):
    ws = Workspace()
    cards = str(parts / "cards.ludus")
    assert ws.game_of(cards) == resolved(parts / "game.ludus")
    assert errors(ws.analyse(cards)) == []
    ws.open(cards, CARDS.replace("gain 1 coins", "gain 1 coinz"))       # typed, not saved
    analysis = ws.analyse(cards)
    assert set(analysis.diagnostics) == {resolved(parts / "game.ludus"), resolved(cards)}
    [error] = analysis.diagnostics[resolved(cards)]
    assert error.message.startswith("unknown counter 'coinz'") and (error.span.line, error.span.column) == (3, 16)
    assert [d.message for d in analysis.diagnostics[resolved(parts / "game.ludus")]] == ["zone 'hand' is never used"]
    ws.close(cards)                                                     # back to the file on disk
    assert errors(ws.analyse(cards)) == []


def test_hover_says_what_a_name_is(parts):
    ws = Workspace()
    game = str(parts / "game.ludus")
    coins = ws.hover(game, 6, 12)                                       # `coins` in `gain 2 coins for s`
    assert coins.startswith("**coins**: counter (number per seat)\n\ndeclared at game.ludus:3")
    assert "counter coins per seat" in coins
    assert ws.hover(game, 6, 21).startswith("**s**: local (seat)")      # the rule's parameter
    assert ws.hover(game, 9, 9).startswith("**pay_out**: rule")
    assert ws.hover(game, 11, 8).startswith("**P1**: seat")
    assert ws.hover(game, 8, 19).startswith("**seats**: built-in name (list of seats)")
    assert ws.hover(game, 0, 2) is None                                 # a keyword
    assert ws.hover(game, 40, 0) is None                                # past the end


def test_hover_and_definition_of_a_zone_family_and_its_members():
    ws = Workspace()
    path = str(EXAMPLES / "lost-cities.ludus")
    rows = Path(path).read_text(encoding="utf-8").split("\n")
    declared = next(i for i, row in enumerate(rows) if row.startswith("zone expedition"))
    used = next(i for i, row in enumerate(rows) if "move c to the bottom of expedition of actor" in row)
    column = rows[used].index("expedition") + 2
    text = ws.hover(path, used, column)
    assert text.startswith(f"**expedition**: zone (zone per seat and colour)\n\ndeclared at lost-cities.ludus:{declared + 1}")
    assert "zone expedition per seat and colour" in text
    target, span = ws.definition(path, used, column)
    assert Path(target).name == "lost-cities.ludus" and (span.line, span.column) == (declared + 1, 6)
    labels = {label: kind for label, kind, _ in ws.completions(path, used, column)}
    assert labels["expedition"] == "zone" and labels["discards"] == "zone"


def test_hover_on_a_property_names_its_kind():
    ws = Workspace()
    text = ws.hover(str(EXAMPLES / "market-town.ludus"), 71, 6)        # `cost 3` in Fortune Teller
    assert text.startswith("**cost**: property of Good (number)\n\ndeclared at market-town.ludus:47")


def test_hover_on_a_card_gives_its_rules_text(parts):
    ws = Workspace()
    text = ws.hover(str(parts / "game.ludus"), 10, 33)                  # "Lamp" in card("Lamp")
    assert text.startswith("**Lamp**: card (Card)")
    assert "Lamp (Card)\n  When played: Gain 1 coin. Pay out (you)." in text
    assert ws.hover(str(parts / "cards.ludus"), 0, 7).startswith("**Lamp**: card")


def test_definition_goes_to_the_declaration_across_files(parts):
    ws = Workspace()
    path, span = ws.definition(str(parts / "cards.ludus"), 3, 10)        # pay_out(actor) in the part
    assert path == resolved(parts / "game.ludus") and (span.line, span.column, span.end_column) == (6, 6, 13)
    path, span = ws.definition(str(parts / "game.ludus"), 10, 33)        # "Lamp" -> the card
    assert path == resolved(parts / "cards.ludus") and span.line == 1
    path, span = ws.definition(str(parts / "game.ludus"), 6, 21)         # a parameter -> where the rule binds it
    assert path == resolved(parts / "game.ludus") and (span.line, span.column, span.end_column) == (6, 14, 15)
    assert ws.definition(str(parts / "game.ludus"), 11, 26) is None      # `actor`, bound by no text


def test_completion_offers_keywords_and_the_games_names(parts):
    ws = Workspace()
    labels = {label: kind for label, kind, _ in ws.completions(str(parts / "game.ludus"), 6, 4)}
    assert labels["gain"] == "keyword" and labels["becomes"] == "keyword"
    assert labels["coins"] == "counter" and labels["pay_out"] == "rule" and labels["hand"] == "zone"
    assert labels["P1"] == "seat" and labels["size"] == "built-in function"
    in_string = ws.completions(str(parts / "game.ludus"), 10, 31)        # after `card("`
    assert in_string == [("Lamp", "card", "Card")]


def test_the_outline_lists_the_declarations_of_the_file():
    ws = Workspace()
    items = ws.outline(str(EXAMPLES / "market-town.ludus"))
    named = [(i.name, i.kind) for i in items]
    assert named[:4] == [("Market Town", "game"), ("players", "players"), ("seats", "seats"), ("rounds", "value")]
    assert ("Fortune Teller", "card") in named and ("Buy", "action") in named and ("refill_market", "rule") in named
    town = next(i for i in items if i.kind == "board")
    assert [(c.name, c.kind) for c in town.children] == [("Docks", "quarter"), ("Square", "quarter"), ("Hill", "quarter")]
    teller = next(i for i in items if i.name == "Fortune Teller")
    assert [c.name for c in teller.children] == ["on play"] and teller.span.line == 70


def test_a_syntax_error_keeps_the_last_symbols_for_hover(parts):
    ws = Workspace()
    game = str(parts / "game.ludus")
    assert ws.hover(game, 6, 12).startswith("**coins**")
    ws.open(game, GAME + "rule broken(:\n")
    analysis = ws.analyse(game)
    errors = analysis.diagnostics[resolved(game)]
    assert errors and errors[0].span.line == 13 and analysis.stale
    assert ws.hover(game, 6, 12).startswith("**coins**")                # from the last good analysis
    assert ws.outline(game) == []                                       # nothing to outline, no crash


def test_a_missing_file_is_a_diagnostic_not_a_crash(tmp_path):
    ws = Workspace()
    analysis = ws.analyse(str(tmp_path / "gone.ludus"))
    [(path, [error])] = analysis.diagnostics.items()
    assert "cannot read" in error.message


def test_a_tests_force_of_a_die_the_game_never_rolls_shows_as_in_ludus_check(tmp_path):
    # it was reported by `ludus check` alone: the editor showed the file clean
    (tmp_path / "market-town.ludus").write_text((EXAMPLES / "market-town.ludus").read_text(encoding="utf-8"),
                                                encoding="utf-8")
    variant = tmp_path / "t.ludus"
    variant.write_text('extends "market-town.ludus"\n', encoding="utf-8")
    ws = Workspace()
    ws.open(str(variant), 'extends "market-town.ludus"\n\ntest "a d7":\n    force d7 = 3\n'
                          '    resolve "Fortune Teller" for Amber\n')
    [error] = errors(ws.analyse(str(variant)))
    assert (error.message, resolved(error.span.path), error.span.line, error.span.column) == (
        "Market Town never rolls a d7; it rolls a d6", resolved(variant), 4, 5)


def test_every_shipped_game_file_analyses_clean():
    ws = Workspace()
    for path in [GAMES / "votes-for-women" / "suffragist.ludus", GAMES / "uprising.ludus"]:
        analysis = ws.analyse(str(path))
        assert not [d for ds in analysis.diagnostics.values() for d in ds if d.severity == "error"]


def test_the_keywords_are_the_grammars_words():
    words = keywords()
    assert {"card", "gain", "becomes", "alternate", "distribute", "override"} <= set(words)
    assert "NAME" not in words and "(" not in words and list(words) == sorted(words)


def test_ludus_lsp_without_pygls_names_the_extra(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "pygls", None)                      # importing it now fails
    result = CliRunner().invoke(main, ["lsp"])
    assert result.exit_code == 1
    assert "pip install 'ludus[lsp]'" in result.output and no_crash(result)


def test_spans_become_lsp_ranges():
    pytest.importorskip("pygls")
    from ludus.language.source import Span
    from ludus.lsp.server import to_range
    from ludus.lsp.text import Text

    doc = Text("game\nplayers 2\nflow:\n    x\n    gain 1 coinz\n")

    def where(span: Span, text: Text = doc) -> tuple[int, int, int, int]:
        r = to_range(span, text)
        return r.start.line, r.start.character, r.end.line, r.end.character

    assert where(Span("x", 5, 12, 5, 17)) == (4, 11, 4, 16)
    assert where(Span("x", 3, 1, 6, 1)) == (2, 0, 4, 16)                # a declaration, to the next line's start
    assert where(Span("x", 5, 4, 5, 4)) == (4, 3, 4, 4)                 # empty: one character wide
    assert where(Span("x", 2, 10, 2, 10)) == (1, 9, 1, 9)               # ... unless it is at the end of the line
    assert where(Span("x", 9, 1, 9, 5)) == (5, 0, 5, 0)                 # past the end: the end
    # the editor counts UTF-16 code units, in which an emoji is two
    assert where(Span("x", 1, 18, 1, 23), Text('value e = "😀😀" + coinz\n')) == (0, 19, 0, 24)


def test_the_path_resolution_is_stable(tmp_path):
    assert resolved(tmp_path / "a" / ".." / "b.ludus") == str((tmp_path / "b.ludus").resolve())
    assert Path(resolved("relative.ludus")).is_absolute()


def test_a_form_feed_or_a_line_separator_does_not_end_a_line(tmp_path):
    """ludus counts lines at \\n only, as its spans do; Python's splitlines also splits at a
    form feed and U+2028, which put hover on the wrong line after one."""
    path = str(tmp_path / "g.ludus")
    ws = Workspace()
    ws.open(path, 'game "G"\n# page\x0cbreak, line\u2028separator\nplayers 2\ncounter coins per seat\n'
                  'flow:\n    gain 1 coins\n    win P1\n')
    assert ws.hover(path, 3, 10).startswith("**coins**: counter")        # `counter coins per seat`


def test_a_buffer_over_the_file_limit_is_not_analysed(parts, monkeypatch):
    """The limit of a file on disk holds for the editor's text too: analysing a document of tens
    of megabytes would take the worker threads for minutes, at each pause in typing."""
    from ludus.language.limits import MAX_FILE_BYTES
    from ludus.lsp import workspace as ws_module

    ws = Workspace()
    cards, game = str(parts / "cards.ludus"), str(parts / "game.ludus")
    big = CARDS + "# " + "é" * (MAX_FILE_BYTES // 2) + "\n"             # over the limit in UTF-8 bytes only
    ws.open(cards, big)
    read = []
    real = ws_module.analyse
    monkeypatch.setattr(ws_module, "analyse", lambda p, overrides: read.append(set(overrides)) or real(p, overrides))
    monkeypatch.setattr(ws_module, "build", lambda *a: pytest.fail("the outline parsed the big buffer"))
    [error] = ws.analyse(cards).diagnostics[resolved(cards)]
    assert error.message == (f"the document is {len(big.encode()):,} bytes; the limit is {MAX_FILE_BYTES:,}, as for "
                             "a file on disk: it is not analysed")
    assert (error.span.line, error.span.column) == (1, 1)
    assert read == []                                                   # not even through its game
    assert ws.outline(cards) == [] and ws.hover(cards, 2, 14) is None
    assert errors(ws.analyse(game)) == [] and read == [set()]           # the game reads the part as saved


def test_what_a_change_on_disk_reaches(parts):
    # the language server analyses again, after a change on disk, the open files whose analysis
    # it may change (server.py: files_changed), and no other
    ws = Workspace()
    game, cards = str(parts / "game.ludus"), str(parts / "cards.ludus")
    (parts / "sub").mkdir()
    (parts / "sub" / "other.ludus").write_text('game "O"\nplayers 2\nflow:\n    win P1\n', encoding="utf-8")
    other = str(parts / "sub" / "other.ludus")
    assert ws.depends_on(cards, game, created=False)             # never analysed: anything may count
    ws.analyse(cards)
    ws.analyse(other)
    assert ws.depends_on(cards, game, created=False)             # its game, read through
    assert ws.depends_on(cards, str(parts), created=False)       # a folder holding what it read (deleted)
    assert ws.depends_on(cards, str(parts / "new.ludus"), created=True)  # a game beside it may include it
    assert not ws.depends_on(other, game, created=False)
    assert not ws.depends_on(other, str(parts / "sub" / "new.ludus"), created=True)  # a game: its own
    assert not ws.depends_on(game, str(parts / "notes.txt"), created=True)
    (parts / "game.ludus").write_text(GAME.replace("cards.ludus", "missing.ludus"), encoding="utf-8")
    ws.disk_changed([game])
    ws.analyse(game)
    assert ws.depends_on(game, str(parts / "missing.ludus"), created=True)  # an include that was not there
    assert not ws.depends_on(game, str(parts / "missing.ludus"), created=False)


def test_a_change_on_disk_is_analysed_afresh_not_taken_from_the_cache(parts):
    ws = Workspace()
    cards = str(parts / "cards.ludus")
    ws.open(str(parts / "game.ludus"), GAME)
    assert errors(ws.analyse(str(parts / "game.ludus"))) == []
    (parts / "cards.ludus").write_text(CARDS.replace("gain 1 coins", "gain 1 coinz"), encoding="utf-8")
    ws.disk_changed([cards])
    [error] = errors(ws.analyse(str(parts / "game.ludus")))
    assert error.message.startswith("unknown counter 'coinz'")


def test_a_base_with_a_flow_and_no_game_line_is_analysed_as_itself_as_ludus_check_reads_it(tmp_path):
    # a game to `ludus check FOLDER`, it was analysed through a variant extending it, as a part
    # is: with the variant's diagnostics, and its own tests checked as the variant's
    flow = 'players 2\ncounter coins per seat\nflow:\n    gain 1 coins for P1\n    win P1\n'
    base, variant = tmp_path / "base.ludus", tmp_path / "variant.ludus"
    base.write_text(flow, encoding="utf-8")
    variant.write_text('extends "base.ludus"\ncounter gold per seat\n', encoding="utf-8")  # unused: a warning
    ws = Workspace()
    assert ws.game_of(str(base)) == resolved(base) and ws.game_of(str(variant)) == resolved(variant)
    analysis = ws.analyse(str(base))
    assert analysis.game == resolved(base) and analysis.diagnostics == {resolved(base): []}
    # a game's flow kept in a file a game beside it includes is a part of that game
    (tmp_path / "main.ludus").write_text('game "M"\ninclude "base.ludus"\n', encoding="utf-8")
    assert ws.game_of(str(base)) == resolved(tmp_path / "main.ludus")
    # whether a file near it includes it decides, so a change to one is a change to it
    ws.analyse(str(base))
    assert ws.depends_on(str(base), str(tmp_path / "new.ludus"), created=True)


KEYS_AND_PROPERTY = '''game "Keys"
players 2
value colours = ["red", "blue"]
zone discards per colour
counter played per seat and colour
token Told per colour
kind Card:
    colour: text
card "Red 1" is Card:
    colour "red"
flow:
    move card("Red 1") to discards of card("Red 1").colour
    increase played of P1 at "red" by 1
    add 1 Told of "red" to card("Red 1")
    end game
'''


def test_the_word_of_a_per_is_the_set_of_keys_even_where_a_card_has_a_property_of_that_name(tmp_path):
    # `per colour` names the value `colours`; the card's property `colour` is another name
    path = tmp_path / "keys.ludus"
    path.write_text(KEYS_AND_PROPERTY, encoding="utf-8")
    ws, game = Workspace(), str(path)
    assert errors(ws.analyse(game)) == []
    for line, column in [(3, 20), (4, 31), (5, 16)]:                    # zone, counter, token
        text = ws.hover(game, line, column)
        assert text.startswith("**colour**: set of keys (the texts of value colours)\n\ndeclared at keys.ludus:3"), text
        target, span = ws.definition(game, line, column)
        assert target == resolved(path) and (span.line, span.column, span.end_column) == (3, 7, 14)
        assert [(s.line, s.column) for _, s in ws.references(game, line, column, True)] == [(3, 7), (4, 19), (5, 29), (6, 16)]
    assert ws.hover(game, 7, 6).startswith("**colour**: property of Card (text)")
    # renaming the property leaves the keys alone, and renaming the keys leaves the property
    edits = ws.rename(game, 7, 6, "shade")[resolved(path)]
    assert sorted((s.line, s.column, new) for s, new in edits) == [(8, 5, "shade"), (10, 5, "shade"), (12, 53, "shade")]
    edits = ws.rename(game, 3, 20, "hue")[resolved(path)]
    assert sorted((s.line, s.column, new) for s, new in edits) == [(3, 7, "hues"), (4, 19, "hue"), (5, 29, "hue"), (6, 16, "hue")]


def test_a_card_of_a_run_goes_to_the_run_and_is_renamed_only_with_it(tmp_path):
    from ludus.lsp.workspace import Refused

    path = tmp_path / "game.ludus"
    path.write_text('game "Runs"\nplayers 2\nvalue lowest = 3\nkind Card:\n    number: number\n'
                    'card "{n}" for n in lowest to 6: number n\nflow:\n    exile card("5")\n    win first(seats)\n',
                    encoding="utf-8")
    ws = Workspace()
    assert errors(ws.analyse(str(path))) == []
    target, span = ws.definition(str(path), 7, 16)                      # "5" in card("5") -> the run's name
    assert target == resolved(path) and (span.line, span.column, span.end_column) == (6, 6, 11)
    assert ws.hover(str(path), 7, 16).startswith("**5**: card (Card)\n\ndeclared at game.ludus:6")
    with pytest.raises(Refused, match='one of the cards the run "{n}" on line 6 of game.ludus makes'):
        ws.rename(str(path), 7, 16, "Five")
    with pytest.raises(Refused, match="'n' is bound in a block"):          # the run's number, in a property
        ws.rename(str(path), 5, 40, "k")
    edits = ws.rename(str(path), 2, 7, "low")                           # a value the run's end names
    assert sorted((s.line, s.column) for s, _ in edits[resolved(path)]) == [(3, 7), (6, 21)]


def test_the_number_of_a_run_is_hovered_as_a_local_with_its_numbers(tmp_path):
    # the loader puts the number in each card, so the checker never resolves `n`: hover found
    # nothing where the run binds it nor where a property uses it
    path = tmp_path / "game.ludus"
    path.write_text('game "Runs"\nplayers 2\nvalue lowest = 3\nkind Card:\n    number: number\n'
                    'card "C{n}" for n in lowest to 6 is Card:\n    number n * 2\nflow:\n    exile card("C5")\n'
                    '    win first(seats)\n', encoding="utf-8")
    ws = Workspace()
    assert errors(ws.analyse(str(path))) == []
    shown = '**n**: local (number, 3 to 6)\n\ndeclared at game.ludus:6\n\n```\ncard "C{n}" for n in lowest to 6 is Card:\n```'
    assert ws.hover(str(path), 5, 16) == shown                          # `for n`
    assert ws.hover(str(path), 6, 11) == shown                          # `number n * 2`
    target, span = ws.definition(str(path), 6, 11)
    assert target == resolved(path) and (span.line, span.column, span.end_column) == (6, 17, 18)


BLOCKS = '''game "Blocks"
players 2
zone hand per seat
counter coins per seat
rule pay_out(s: seat):
    gain 2 coins for s
flow:
    for each s in seats:
        pay_out(s)
    for x in 1 to 3:
        gain x coins for P1
    let low = [c for c in hand of P1 where c.name != "Lamp"]
    choose c from hand of P1 by P1 "Which card?"
    exile c
    win P1
'''


@pytest.mark.parametrize(("bound", "used", "what"), [
    ((7, 13), (8, 16), "**s**: local (seat)\n\ndeclared at game.ludus:8\n\n```\nfor each s in seats:\n```"),
    ((9, 8), (10, 13), "**x**: local (number)\n\ndeclared at game.ludus:10\n\n```\nfor x in 1 to 3:\n```"),
    ((11, 21), (11, 43), "**c**: local (entity)\n\ndeclared at game.ludus:12\n\n"
                         "```\nlet low = [c for c in hand of P1 where c.name != \"Lamp\"]\n```"),
    ((12, 11), (13, 10), "**c**: local (entity)\n\ndeclared at game.ludus:13\n\n"
                         "```\nchoose c from hand of P1 by P1 \"Which card?\"\n```"),
    ((11, 8), None, "**low**: local (list of entities)\n\ndeclared at game.ludus:12\n\n"
                    "```\nlet low = [c for c in hand of P1 where c.name != \"Lamp\"]\n```"),
    ((4, 13), (5, 21), "**s**: local (seat)\n\ndeclared at game.ludus:5\n\n```\nrule pay_out(s: seat):\n```"),
])
def test_a_name_bound_in_a_block_is_hovered_where_it_is_bound_and_used_and_goes_there(tmp_path, bound, used, what):
    # hover found nothing where `for each s`, `for x in`, a comprehension's `for c`, `choose c`
    # or `let` bind a name (only where it was used, with no place), and definition nothing at all
    path = tmp_path / "game.ludus"
    path.write_text(BLOCKS, encoding="utf-8")
    ws = Workspace()
    assert errors(ws.analyse(str(path))) == []
    for line, column in [bound] + ([used] if used else []):
        assert ws.hover(str(path), line, column) == what
        target, span = ws.definition(str(path), line, column)
        assert target == resolved(path) and (span.line, span.column - 1) == (bound[0] + 1, bound[1])


def test_the_quoted_name_of_a_run_is_hovered_as_the_run_in_a_game_and_in_a_tests_file(tmp_path):
    # the run's name is no card's ("C{n}" makes C3 to C6): hover found nothing on it, nor on
    # the `n` of its hole, where the run is declared, in the game as in a tests file
    (tmp_path / "game.ludus").write_text('game "Runs"\nplayers 2\nkind Card:\n    number: number\n'
                                         'card "C{n}" for n in 3 to 6 is Card:\n    number n * 2\nflow:\n'
                                         '    exile card("C5")\n    win first(seats)\n', encoding="utf-8")
    tests = tmp_path / "game.tests.ludus"
    tests.write_text('extends "game.ludus"\n\ncard "T{n}" for n in 1 to 2 is Card: number n\n\n'
                     'test "a run":\n    expect card("T2").number == 2\n', encoding="utf-8")
    ws = Workspace()
    assert errors(ws.analyse(str(tests))) == []
    shown = ('**T{n}**: run of cards (Card, T1 to T2)\n\ndeclared at game.tests.ludus:3\n\n'
             '```\ncard "T{n}" for n in 1 to 2 is Card: number n\n```')
    assert ws.hover(str(tests), 2, 6) == shown                          # `"T{n}"`
    target, span = ws.definition(str(tests), 2, 6)
    assert target == resolved(tests) and (span.line, span.column, span.end_column) == (3, 6, 12)
    assert ws.hover(str(tests), 2, 8).startswith("**n**: local (number, 1 to 2)")   # `n` of `{n}`
    game = str(tmp_path / "game.ludus")
    assert ws.hover(game, 4, 7).startswith("**C{n}**: run of cards (Card, C3 to C6)\n\ndeclared at game.ludus:5")
    assert ws.hover(game, 7, 17).startswith("**C5**: card (Card)")     # a card of it, as before


AS_BOUND = '''game "Binds"
players 2
counter coins per seat
flow:
    roll d6 as omen
    ask P1 "Keep the omen, or roll again as again?" as again
    if again:
        gain omen coins for P1
    offer to P1 else "pass as picked" as picked "What as picked?"
    win P1
'''


@pytest.mark.parametrize(("line", "word", "what"), [
    (5, "again", '**again**: local (bool)\n\ndeclared at game.ludus:6\n\n'
                 '```\nask P1 "Keep the omen, or roll again as again?" as again\n```'),
    (8, "picked", '**picked**: local (text)\n\ndeclared at game.ludus:9\n\n'
                  '```\noffer to P1 else "pass as picked" as picked "What as picked?"\n```'),
])
def test_a_name_bound_by_as_is_declared_at_the_binding_not_in_the_text_before_it(tmp_path, line, word, what):
    # the binder was looked for after the first word `as` of the line, which may be one of the
    # question's or the label's words: the place went into the text, and a hover on the name
    # where it is bound found nothing
    path = tmp_path / "game.ludus"
    path.write_text(AS_BOUND, encoding="utf-8")
    ws = Workspace()
    assert errors(ws.analyse(str(path))) == []
    row = AS_BOUND.split("\n")[line]
    column = row.index(f'" as {word}') + len('" as ')               # the name after the text, as code
    assert row.count(word) == 3                                      # and twice in the texts before it
    assert ws.hover(str(path), line, column) == what
    target, span = ws.definition(str(path), line, column)
    assert target == resolved(path) and (span.line, span.column - 1, span.end_column - 1) == (line + 1, column,
                                                                                          column + len(word))
    if word == "again":                                              # where it is read: `if again:`
        assert ws.hover(str(path), 6, 7) == what


def test_the_number_of_a_run_a_variant_removes_is_hovered_on_the_remove_line(tmp_path):
    # `remove card "{n}"` names a run the variant took out, so no card of the game has it for
    # its origin: hover found nothing on the run's name nor on the `n` of its hole
    (tmp_path / "base.ludus").write_text('game "Runs"\nplayers 2\nvalue highest = 3\nkind Card:\n    number: number\n'
                                         'card "{n}" for n in 1 to highest is Card:\n    number n\n'
                                         'card "Lamp" is Card:\n    number 9\nflow:\n    win first(seats)\n',
                                         encoding="utf-8")
    variant = tmp_path / "variant.ludus"
    variant.write_text('game "Runs, short"\nextends "base.ludus"\nremove card "{n}"\nremove card "Lamp"\n',
                       encoding="utf-8")
    ws = Workspace()
    assert errors(ws.analyse(str(variant))) == []
    base = resolved(tmp_path / "base.ludus")
    source = '```\ncard "{n}" for n in 1 to highest is Card:\n```'
    assert ws.hover(str(variant), 2, 14) == f"**n**: local (number, 1 to 3)\n\ndeclared at base.ludus:6\n\n{source}"
    target, span = ws.definition(str(variant), 2, 14)               # where the run binds it: `for n`
    assert target == base and (span.line, span.column, span.end_column) == (6, 16, 17)
    assert ws.hover(str(variant), 2, 12) == f"**{{n}}**: run of cards removed here (Card, 1 to 3)\n\ndeclared at base.ludus:6\n\n{source}"
    assert ws.hover(str(variant), 3, 14) == ('**Lamp**: card removed here (Card)\n\ndeclared at base.ludus:8\n\n'
                                             '```\ncard "Lamp" is Card:\n```')
    assert ws.hover(str(variant), 2, 3) is None                     # the keyword `remove`: nothing


def test_a_name_in_a_hole_of_a_text_is_hovered_as_the_name_not_the_text(tmp_path):
    # the cursor in a text was taken to be on the whole text, a quoted name: `{again}` and
    # `{coins of P1}` are no card's name, so hover found nothing for the names in a hole
    path = tmp_path / "game.ludus"
    path.write_text(AS_BOUND.replace("    win P1\n", '    log "{picked}: {coins of P1} coins"\n    win P1\n'),
                    encoding="utf-8")
    ws = Workspace()
    assert errors(ws.analyse(str(path))) == []
    row = path.read_text(encoding="utf-8").split("\n")[9]
    assert ws.hover(str(path), 9, row.index("picked")).startswith("**picked**: local (text)\n\ndeclared at game.ludus:9")
    assert ws.hover(str(path), 9, row.index("coins of")).startswith("**coins**: counter (number per seat)")
    assert ws.hover(str(path), 9, row.index(" coins\"") + 2) is None    # a word of the text, outside its holes
