"""Declarations in, symbols + resolutions + diagnostics out."""

from __future__ import annotations

import difflib

import pytest

from ludus.engine.match import closest
from ludus.language import nodes as n
from ludus.language.build import build
from ludus.language.checker import check
from ludus.language.source import Sources, Suggestion, nearest, suggest

HEAD = 'game "T"\nplayers 2\n'


def checked(text: str):
    text = HEAD + text
    sources = Sources()
    sources.add("t.ludus", text)
    program = build(text, "t.ludus")
    return check(list(program.items), sources), program


def messages(result) -> list[str]:
    return [d.message for d in sorted(result.diagnostics, key=lambda d: d.sort_key)]


def find(node, cls):
    """Every node of a class inside a node tree, in order."""
    import attrs

    out = []
    if isinstance(node, cls):
        out.append(node)
    if isinstance(node, tuple):
        for x in node:
            out += find(x, cls)
    elif attrs.has(type(node)):
        for f in attrs.fields(type(node)):
            out += find(getattr(node, f.name), cls)
    return out


def test_a_clean_game_has_no_diagnostics_and_fills_the_symbols():
    result, _ = checked("counter money per seat\nzone market\ntrack mood from -2 to 2\nflow:\n"
                        "    gain 1 money\n    increase mood by 1\n    log \"{size(market)}\"\n    win P1\n")
    assert result.diagnostics == []
    sym = result.symbols
    assert set(sym.vars) == {"money"} and "market" in sym.zones and "mood" in sym.tracks
    assert (sym.min_players, sym.max_players) == (2, 2)


def test_names_resolve_to_what_they_name():
    result, program = checked(
        "counter money per seat\nzone market\ntoken Stall per seat\nboard town:\n    quarter Docks\n"
        "value rounds = 3\ndefine twice(x) = 2 * x\nflow:\n"
        "    let k = twice(rounds) + money\n    add 1 Stall to Docks\n    move top(market) to Docks\n"
        "    for each q in quarters:\n        log \"{q}\"\n    win P1\n")
    assert messages(result) == []
    res = {node.name: result.res[id(node)] for node in find(program.items, n.Name) if id(node) in result.res}
    assert res["rounds"] == ("value", "rounds")
    assert res["money"] == ("var", "money")
    assert res["market"] == ("zone", "market")
    assert res["Docks"] == ("space", "Docks")
    assert res["quarters"] == ("space_kind", "quarter")
    assert res["P1"][0] == "seat"
    [call] = [c for c in find(program.items, n.Call) if c.func == "twice"]
    assert result.res[id(call)] == ("define", "twice")


def test_types_of_expressions():
    result, program = checked("counter money per seat\nboard town:\n    quarter Docks adjacent to Hill\n"
                              "    quarter Hill adjacent to Docks\nflow:\n"
                              "    let a = money + 1\n    let b = money > 1\n    let c = adjacent(Docks)\n"
                              "    let d = [s for s in seats]\n    let e = \"x\"\n    log \"{a}{b}{c}{d}{e}\"\n    win P1\n")
    assert messages(result) == []
    lets = {s.name: result.types[id(s.value)] for s in find(program.items, n.Let)}
    assert lets == {"a": "number", "b": "bool", "c": "list:space:quarter", "d": "list:seat", "e": "text"}


def test_every_diagnostic_is_found_and_they_sort_by_place():
    result, _ = checked("counter money per seat\nflow:\n    gain 1 monye\n    win 3\n    break\n")
    got = sorted(result.diagnostics, key=lambda d: d.sort_key)
    assert [(d.span.line, d.message) for d in got] == [
        (3, "counter 'money' is never used"),
        (5, "unknown counter 'monye'"),
        (6, "'win' names a seat or a list of seats, not a number"),
        (7, "'break' is only allowed inside a loop"),
        (7, "this can never run: the 'win' above always leaves the block"),
    ]


def test_unknown_names_suggest_the_nearest_and_point_at_the_name():
    result, _ = checked("zone discard per seat\nflow:\n    for each c in discard:\n        move c to dicsard\n    win P1\n")
    [d] = result.diagnostics
    assert d.message == "unknown zone or space 'dicsard'"
    assert d.hint == "did you mean 'discard'?"
    assert d.suggestion == Suggestion("dicsard", ("discard",))     # the same, as data for tools
    assert (d.span.line, d.span.column, d.span.end_column) == (6, 19, 26)


FAMILY = 'value colours = ["red", "dark-blue"]\nzone discards per colour top only\nzone dock\n'


def test_an_unknown_name_near_a_zone_family_is_told_how_a_member_is_named():
    # the family's name alone would be an error in turn: the hint names a member, and offers no
    # name for an editor's quick fix to put in place of the one written
    result, _ = checked(FAMILY + 'flow:\n    move discards of "red" to dock\n    log "{size(discard)}"\n    win P1\n')
    [d] = result.diagnostics
    assert d.message == "unknown name 'discard'"
    assert d.hint == "did you mean 'discards of COLOUR'? 'discards' is a family of zones, one per colour"
    assert d.suggestion is None


def test_an_unknown_name_written_as_a_member_is_suggested_the_family():
    result, _ = checked(FAMILY + 'flow:\n    move dock to discard of "red"\n    win P1\n')
    [d] = [d for d in result.diagnostics if d.severity == "error"]
    assert d.message == "unknown zone or space 'discard'"
    assert d.suggestion == Suggestion("discard", ("discards",))


def test_an_unknown_refill_zone_is_not_suggested_a_family():
    # a zone refills from no family: 'discards' would be refused in turn
    result, _ = checked(FAMILY + 'zone deck refill from discard\nflow:\n    move deck to discards of "red"\n'
                        '    move dock to deck\n    win P1\n')
    [d] = result.diagnostics
    assert d.message == "unknown zone 'discard'"
    assert d.hint is None


@pytest.mark.parametrize(("kinds", "written", "meant"), [
    ("kind Property:\n    number: number\n", "Propertys", "Properties"),
    ("kind Property:\n    number: number\n", "Propertyes", "Properties"),
    ("kind City:\n    number: number\n", "Citys", "Cities"),
    ("kind Box:\n    number: number\n", "Boxs", "Boxes"),
    ("board b:\n    city Rome\n", "citys", "cities"),
])
def test_a_wrong_plural_of_a_kind_is_suggested_the_plural_the_language_forms(kinds, written, meant):
    # the nearest name by spelling is the kind itself ('Property'), which is no list of its cards
    result, _ = checked(kinds + f"flow:\n    log \"{{size({written})}}\"\n    win P1\n")
    [d] = [d for d in result.diagnostics if d.severity == "error"]
    assert d.message == f"unknown name '{written}'"
    assert d.hint == f"did you mean '{meant}'?"
    assert d.suggestion == Suggestion(written, (meant,))


def test_a_brace_in_a_tests_label_is_no_warning_where_the_game_shows_braces():
    # `\{` writes a brace, so a label can hold one: a test naming it is matched as written
    game = ('zone pile\naction Boast:\n    label "boast \\{loud\\}"\n    log "boast"\nflow:\n'
            '    turn P1:\n        offer Boast\n    end game\n')
    result, _ = checked(game + 'test "t":\n    do "boast \\{loud\\}"\n    do "boast {loud}"\n')
    assert [d for d in result.diagnostics if "label" in d.message] == []
    # the same test of a game that shows no brace is told its label never matches
    result, _ = checked(game.replace("\\{loud\\}", "loud") + 'test "t":\n    do "boast {loud}"\n')
    assert [(d.severity, d.span.line, d.message) for d in result.diagnostics if "label" in d.message] == [
        ("warning", 12, "a test's label is matched as written: its '{...}' is not filled in, and no label of "
         "this game holds a brace")]


def test_no_suggestion_when_nothing_is_near():
    result, _ = checked("counter money per seat\nflow:\n    gain 1 xyzzy\n    gain 1 money\n    win P1\n")
    [d] = result.diagnostics
    assert d.message == "unknown counter 'xyzzy'" and d.hint is None and d.suggestion is None


def test_of_names_equally_near_the_suggestion_is_the_first_given():
    assert suggest("Cat", ["Bat", "Cap"]) == Suggestion("Cat", ("Bat",))
    assert suggest("Cat", ["Cap", "Bat"]) == Suggestion("Cat", ("Cap",))
    # a set keeps no order of its own: its names are taken sorted, whatever order it holds them in
    assert suggest("Cat", {"Cap", "Bat"}) == Suggestion("Cat", ("Bat",))
    # a nearer name wins wherever it is given
    assert suggest("Cat", ["Bat", "Cats"]) == Suggestion("Cat", ("Cats",))
    # as near as get_close_matches asks, no nearer: a name it finds nothing near has no suggestion
    names = ["discard", "deck", "hand", "coins", "Bat", "Cap"]
    for word in ["dicsard", "dek", "hnad", "cions", "xyzzy", "Cat", "handle", "c"]:
        found = difflib.get_close_matches(word, names, n=1, cutoff=0.6)
        assert (suggest(word, names) is None) == (not found), word


def test_the_nearest_few_come_nearest_first_and_equally_near_in_the_order_given():
    assert nearest("Cat", ["Cut", "Bat", "Cats", "Cap"], 3) == ["Cats", "Cut", "Bat"]
    assert nearest("Cat", ["Cut", "Bat", "Cap"], 5) == ["Cut", "Bat", "Cap"]
    # the same names and scores as get_close_matches finds, only ties ordered otherwise
    names = ["discard", "deck", "hand", "coins", "Bat", "Cap", "Cut"]
    for word in ["dicsard", "dek", "hnad", "Cat", "c"]:
        assert sorted(nearest(word, names, 3)) == sorted(difflib.get_close_matches(word, names, 3)), word
    # a refused move's closest moves: nearest first, and equally near in the order offered
    # (get_close_matches would give 'take 4', 'take 2', 'take 1')
    assert closest("take 3", ["take 1", "take 2", "take 4"]) == ["take 1", "take 2", "take 4"]
    assert closest("buy cop", ["buy Tax Collector", "buy nothing", "buy Copper Coin"]) == [
        "buy Copper Coin", "buy nothing", "buy Tax Collector"]


def test_names_inside_a_line_are_located_without_sources_too():
    # without the source text the checker still reports, at the statement
    program = build(HEAD + "flow:\n    offer Biuld to P1\n    win P1\n", "t.ludus")
    result = check(list(program.items))
    [d] = result.diagnostics
    assert d.message == "unknown action 'Biuld'"
    assert (d.span.line, d.span.column) == (4, 5)


def test_warnings_for_unused_and_unreached():
    result, _ = checked("value v = 1\nzone z\nrule r:\n    log \"r\"\naction A:\n    log \"A\"\nflow:\n    end game\n")
    assert messages(result) == [
        "value 'v' is never used",
        "zone 'z' is never used",
        "rule 'r' is never called, so it can never be reached",
        "action 'A' is never offered by any 'offer'",
    ]
    assert {d.severity for d in result.diagnostics} == {"warning"}


def test_an_offer_of_everything_offers_every_action():
    result, _ = checked("action A:\n    log \"A\"\nflow:\n    turn P1:\n        offer\n    end game\n")
    assert result.diagnostics == []


def test_a_type_written_wrong_is_reported_once_however_often_it_is_read():
    result, _ = checked("var leader: seet\nflow:\n    set leader to P1\n    set leader to P2\n    win leader\n")
    assert messages(result) == ["unknown type 'seet'"]


def test_a_kind_named_with_a_capital_vowel_takes_an():
    # a kind's name starts with a capital: the article is chosen as the word sounds
    result, _ = checked('kind Event:\n    power: number\ncard "Storm" is Event:\n    power 2\n'
                        "flow:\n    if left(first(Events)) == P1:\n        end game\n    end game\n")
    assert messages(result) == ["'left' needs a seat, not an Event"]


def test_a_trigger_on_an_unknown_name_does_not_cascade():
    result, _ = checked("when monye changes:\n    log \"{old} {new}\"\nflow:\n    end game\n")
    assert messages(result) == ["unknown counter, flag, var or track 'monye'"]


def test_the_checker_never_changes_a_node():
    text = "counter money per seat\nflow:\n    gain 1 money\n    win P1\n"
    before = build(HEAD + text, "t.ludus")
    result, after = checked(text)
    assert before == after and result.diagnostics == []


def test_setting_a_board_spaces_property_is_an_error_not_a_crash():
    # it passed the checker and then stopped the compiler with an AssertionError
    result, _ = checked("board market:\n    slot A with cost 2\nsetup:\n    set A.cost to 3\n"
                        "flow:\n    end game\n")
    assert any("'cost' is fixed by its board and cannot be set" in m for m in messages(result))


def test_a_track_numbered_by_values_gets_their_numbers():
    result, _ = checked("value calm = -1\nvalue edge = 2 * 3\nvalue riot = 0 - edge\nvalue high = edge\n"
                        "track mood from riot to edge start calm:\n    end Festival from high to edge\n"
                        "track heat from calm to high\n"
                        "flow:\n    end game\n")
    assert not result.diagnostics
    mood, heat = result.symbols.tracks["mood"], result.symbols.tracks["heat"]
    assert (mood.low, mood.high, mood.start) == (-6, 6, -1)
    assert [(z.name, z.low, z.high) for z in mood.zones] == [("Festival", 6, 6)]
    assert (heat.low, heat.high, heat.start) == (-1, 6, 0)  # no start written: 0, inside the track


def test_a_track_naming_what_is_not_a_fixed_number_is_an_error_at_the_name():
    result, _ = checked("value many = size(seats)\nvalue loop = loop + 1\ncounter money\n"
                        "track a from monye to 4\ntrack b from 0 to many\ntrack c from 0 to 4 start loop\n"
                        "track d from 0 to 4 start money\nflow:\n    end game\n")
    assert [d.message for d in sorted(result.diagnostics, key=lambda d: d.sort_key) if d.severity == "error"] == [
        "value 'loop' names itself (loop -> loop): a value is one fixed number or thing, so it cannot be worked out from itself",
        "'monye' is not a value: a track's ends and start are numbers, or values set to one",
        "value 'many' is not a number written in the rules, so it cannot place track 'b' (a track's ends and start are known before a match starts)",
        "value 'loop' is not a number written in the rules, so it cannot place track 'c' (a track's ends and start are known before a match starts)",
        "'money' is not a value: a track's ends and start are numbers, or values set to one",
    ]
    spans = sorted((d.span.line, d.span.column) for d in result.diagnostics if d.severity == "error")
    assert spans == [(4, 7), (6, 14), (7, 19), (8, 27), (9, 27)]  # each at its name


def test_a_long_knot_of_values_and_defines_is_one_error_shown_by_its_ends():
    # 3,000 values in a ring, a define on the way: no recursion limit is reached, one error
    ring = "".join(f"value v{i} = v{i + 1} + 1\n" for i in range(2999)) + "value v2999 = half()\ndefine half = v0 / 2\n"
    result, _ = checked(ring + "counter k\nflow:\n    increase k by v7\n    end game\n")
    assert messages(result) == [
        "value 'v0' names itself (v0 -> v1 -> v2 -> v3 -> v4 -> v5 -> (2,991 more) -> v2997 -> v2998 -> v2999 -> half"
        " -> v0): a value is one fixed number or thing, so it cannot be worked out from itself"]
    # defines alone may recurse
    result, _ = checked("define down(k) = if k <= 0 then 0 else down(k - 1)\nvalue d = down(3)\ncounter k\n"
                        "flow:\n    increase k by d\n    end game\n")
    assert messages(result) == []


def test_a_track_start_from_a_value_outside_the_track_is_the_same_error_as_a_number():
    result, _ = checked("value opening = 9\ntrack mood from -4 to 4 start opening\nflow:\n    end game\n")
    assert messages(result) == ["track 'mood' starts at 9, outside -4 to 4"]


def test_a_track_naming_a_long_chain_of_values_is_an_error_not_a_crash():
    chain = "value v0 = 1\n" + "".join(f"value v{i} = v{i - 1} + 1\n" for i in range(1, 3000))
    result, _ = checked(chain + "track t from 0 to v2999\ntrack u from 0 to v50\nflow:\n    end game\n")
    assert [d.message for d in result.errors] == [
        "value 'v2999' is not a number written in the rules, so it cannot place track 't' "
        "(a track's ends and start are known before a match starts)"]
    assert result.symbols.tracks["u"].high == 51  # a short chain is followed


@pytest.mark.parametrize(("text", "start"), [("track t from -2 to 2\n", 0), ("track t from 3 to 9\n", 3)])
def test_a_track_without_start_starts_inside_it(text, start):
    result, _ = checked(text + "flow:\n    end game\n")
    assert not result.errors and result.symbols.tracks["t"].start == start


def test_test_names_written_apart_in_unicode_say_what_differs_not_case():
    # "café" typed on a Mac (é as e and a combining accent) and elsewhere (one character) look
    # the same, and are one file on macOS: the hint said they "differ only in case"
    import unicodedata

    decomposed = unicodedata.normalize("NFD", "café")
    result, _ = checked(f'seats A, B\nflow:\n    end game\n\ntest "café":\n    snapshot\n\n'
                        f'test "{decomposed}":\n    snapshot\n\ntest "Café":\n    snapshot\n\n'
                        f'test "CAF{unicodedata.normalize("NFD", "É")}":\n    snapshot\n')
    hints = [(d.span.line, d.hint) for d in sorted(result.diagnostics, key=lambda d: d.sort_key)]
    assert hints == [
        (10, "the two file names look the same, and differ only in how Unicode writes 'é': as U+0065 U+0301 "
             "in this one, as U+00E9 in the other; macOS takes them for one file name"),
        (13, "file names that differ only in case are one file on macOS and Windows"),
        (16, "file names that differ only in case, and in how their accented letters are written in Unicode, "
             "are one file on macOS"),
    ]


DEFINE_TYPED_BY_ITS_CALL = '''game "Lowest"
players 2
zone deck
kind Thing:
    number: number
card "Alpha" is Thing: number 1
card "Beta" is Thing: number 2
define lowest(cards) = first(least(c.number for c in cards))
define nth(xs, k) = if k <= 1 then first(xs) else nth(without(xs, first(xs)), k - 1)
action Sell:
    label "sell {lowest(deck)} to {nth(seats, 2)}, not {nth(deck, 1)}"
    let gone = lowest(deck)
    log "{gone} is sold"
    exile gone
setup:
    move box to deck
flow:
    turn P1:
        offer Sell
    end game
'''


def test_a_define_without_parameter_types_gives_what_its_arguments_make_it(tmp_path):
    # `lowest(cards)` says no type: called with a zone it gives a card, which a label, a `let`
    # and a log line show by its name, not as the number that stands for it inside; a define
    # that calls itself (`nth`) is typed by the call too
    from tests.helpers import game_from_text

    game = game_from_text(tmp_path, DEFINE_TYPED_BY_ITS_CALL)
    match = game.new_match(2, seed=0)
    assert match.legal_actions() == ["sell Alpha to P2, not Beta"]
    match.apply("sell Alpha to P2, not Beta")
    assert [e["text"] for e in match.log if e.get("t") == "log"] == ["Alpha is sold"]


def test_an_option_written_twice_is_an_error_at_the_second():
    result, program = checked(
        "counter x start 1 min 0 start 2 owner only hidden\n"
        "flag f unlisted unlisted\n"
        "zone z count only refill from z refill from z\n"
        "flow:\n    increase x by 1\n    set f to true\n    move top(z) to z\n    end game\n")
    got = sorted(result.diagnostics, key=lambda d: d.sort_key)
    assert [(d.span.line, d.span.column, d.message) for d in got] == [
        (3, 25, "counter 'x' is given 'start' twice: it takes one"),
        (3, 44, "counter 'x' is given a visibility twice: it takes one"),
        (4, 17, "flag 'f' is given 'unlisted' twice: it takes one"),
        (5, 33, "zone 'z' is given 'refill' twice: it takes one"),
    ]
    # one of each is no error, and `unlisted` reaches the declaration
    result, program = checked("counter x start 1 unlisted\nflow:\n    increase x by 1\n    end game\n")
    assert not result.diagnostics
    assert [d.unlisted for d in find(program, n.VarDecl)] == [True]
