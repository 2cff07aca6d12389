"""A rule parameter or a var that says no type takes the type every value the game gives it
agrees on, when that type shows a value by a name (a seat, a card): a value is plain data at
run time, and its type is what shows a seat as Red and not as 0."""

from __future__ import annotations

from ludus.language.build import build
from ludus.language.checker import check
from ludus.language.source import Sources
from tests.helpers import game_from_text

HEAD = '''game "Picks"
players 2
seats Red, Blue

kind Gem:
    value: number

card "Ruby" is Gem: value 3
card "Opal" is Gem: value 1

'''

PICK = '''rule pick(who, these):
    choose g from these by who "{who} picks from {these}"
    log "{who} took {g}"
'''


def checked(text: str):
    text = HEAD + text
    sources = Sources()
    sources.add("t.ludus", text)
    return check(list(build(text, "t.ludus").items), sources)


def inferred(text: str) -> dict:
    result = checked(text)
    assert result.errors == [], [d.message for d in result.errors]
    return result.symbols.inferred


def warnings(text: str) -> list[str]:
    return [d.message for d in checked(text).diagnostics if d.severity == "warning"]


def test_a_parameter_takes_the_type_every_call_gives_it():
    found = inferred(PICK + "flow:\n    pick(Red, [c for c in Gems])\n"
                             "    pick(Blue, [c for c in Gems where c.value > 1])\n    win Red\n")
    assert found == {("param", "pick", 0): "seat", ("param", "pick", 1): "list:entity:Gem"}


def test_a_chosen_card_and_a_seat_in_an_inferred_parameter_are_shown_by_name(tmp_path):
    game = game_from_text(tmp_path, HEAD + PICK + "var last start none\n" + '''flow:
    pick(Red, [c for c in Gems])
    set last to Red
    win Red
''')
    match = game.new_match(2, seed=1)
    assert match.pending["prompt"] == "Red: Red picks from Ruby, Opal"
    assert match.legal_actions() == ["Ruby", "Opal"]
    match.apply("Opal")
    assert [e["text"] for e in match.log if e["t"] == "log"] == ["Red took Opal"]
    assert match.view(None)["counters"]["last"] == "Red"


def test_calls_that_disagree_leave_a_parameter_any_and_warn(tmp_path):
    text = PICK + "flow:\n    pick(Red, [c for c in Gems])\n    pick(1, [c for c in Gems])\n    win Red\n"
    found = inferred(text)
    assert ("param", "pick", 0) not in found           # a seat here, a number there
    assert found[("param", "pick", 1)] == "list:entity:Gem"
    assert warnings(text) == ["parameter 'who' of rule 'pick' is given a number and a seat by its calls, "
                              "so its value is shown as plain data (a seat or a card by its number)"]
    match = game_from_text(tmp_path, HEAD + text).new_match(2, seed=1)
    assert match.pending["prompt"] == "Red: 0 picks from Ruby, Opal"  # as before: the seat's number


def test_cards_of_two_kinds_are_cards():
    found = inferred('kind Coin:\n    value: number\ncard "Penny" is Coin: value 1\n' + PICK
                     + "flow:\n    pick(Red, [c for c in Gems])\n    pick(Red, [c for c in Coins])\n    win Red\n")
    assert found[("param", "pick", 1)] == "list:entity"


def test_an_argument_of_no_known_type_leaves_the_parameter_any():
    # `x` is given a seat and a number, so it is "any"; what it hands on to `pick` is too
    found = inferred(PICK + "rule outer(x):\n    pick(x, [c for c in Gems])\n"
                            "flow:\n    outer(Red)\n    outer(2)\n    win Red\n")
    assert ("param", "pick", 0) not in found and ("param", "outer", 0) not in found


def test_a_parameter_handed_on_is_inferred_through_the_chain():
    found = inferred(PICK + "rule outer(x):\n    pick(x, [c for c in Gems])\n"
                            "rule outest(y):\n    outer(y)\n"
                            "flow:\n    outest(Blue)\n    win Red\n")
    assert found[("param", "outest", 0)] == found[("param", "outer", 0)] == found[("param", "pick", 0)] == "seat"


def test_a_var_takes_the_type_of_its_start_and_every_set():
    found = inferred("var last start none\nvar mixed start none\nvar counted start Red\n"
                     "flow:\n    set last to Blue\n    set mixed to Red\n    set mixed to 3\n"
                     "    increase counted by 1\n    log \"{last} {mixed} {counted}\"\n    win Red\n")
    assert found == {("var", "last"): "seat"}


def test_a_var_set_to_a_seat_and_a_number_warns():
    assert warnings("var mixed start none\nflow:\n    set mixed to Red\n    set mixed to 3\n"
                    "    log \"{mixed}\"\n    win Red\n") == [
        "var 'mixed' is set to a number and a seat, so its value is shown as plain data "
        "(a seat or a card by its number)"]


def test_only_seats_and_cards_are_inferred():
    # a number, a text or a space shows as itself: the parameter keeps no type it did not ask for
    found = inferred("rule say(n, t):\n    log \"{n} {t}\"\nflow:\n    say(3, \"x\")\n    win Red\n")
    assert found == {}


def test_a_type_that_would_make_an_error_is_not_inferred():
    # a seat is a number at run time, and the rule adds to it: as "any" that was no error
    result = checked("rule next_of(s):\n    log \"{s + 1}\"\nflow:\n    next_of(Red)\n    next_of(Blue)\n    win Red\n")
    assert result.errors == []
    assert result.symbols.inferred == {}


def test_the_tests_calls_do_not_count():
    # the game shows its values the same way whether its tests are read with it or not
    found = inferred(PICK + "flow:\n    pick(Red, [c for c in Gems])\n    win Red\n"
                            "test \"a number\":\n    resolve pick(1, [c for c in Gems])\n")
    assert found[("param", "pick", 0)] == "seat"


def test_a_declared_type_is_left_as_it_is():
    found = inferred("rule pick(who: seat, these):\n    choose g from these by who \"{who}\"\n"
                     "flow:\n    pick(Red, [c for c in Gems])\n    win Red\n")
    assert found == {("param", "pick", 1): "list:entity:Gem"}


def test_a_var_shown_as_a_seat_still_takes_any_value(tmp_path):
    # the type found only shows the value: a `given` line, the REPL or a saved match may still
    # put a number there, as they could before, and it is shown as a number
    from ludus.testing import Position

    game = game_from_text(tmp_path, HEAD + "var last start none\nflow:\n    set last to Blue\n    "
                                           "choose g from Gems \"?\"\n    win Red\n")
    assert game.vars["last"].shown == "seat" and game.vars["last"].type == "any"
    pos = Position(game, seed=1)
    pos.given("set last to 7")
    assert pos.show("last") == "7"
    assert pos.match.view(None)["counters"]["last"] == 7
    pos.given("set last to Red")
    assert pos.match.view(None)["counters"]["last"] == "Red"


READS = '''var last start none
value ruby = card("Ruby")
define plain = 3
define later = latest
define latest = last
define picked = first_of(Gems)
define first_of(cs) = first(cs)
flow:
    set last to Blue
    pick(Red, [c for c in Gems])
    log "{plain} {later} {picked} {ruby}"
    win Red
'''


def reads_of_defines(text: str, monkeypatch) -> tuple[dict, dict]:
    """How many times the checker read each define's body, and the types it found for them."""
    from ludus.language.checker import Checker

    reads: dict = {}
    define_body = Checker.define_body

    def counted(self, decl):
        reads[decl.name] = reads.get(decl.name, 0) + 1
        return define_body(self, decl)

    monkeypatch.setattr(Checker, "define_body", counted)
    text = HEAD + text
    sources = Sources()
    sources.add("t.ludus", text)
    checker = Checker(list(build(text, "t.ludus").items), sources=sources)
    result = checker.run()
    assert result.errors == [], [d.message for d in result.errors]
    return reads, checker.define_types


def test_a_define_is_read_again_only_when_what_it_read_changed_type(monkeypatch):
    # inference reads the game several times over, and the defines after each pass that finds
    # types; a define whose reads kept their types gives the type it gave, and is not read
    # again: once before inference, once in its first quiet pass, once out loud
    reads, types = reads_of_defines(PICK + READS, monkeypatch)
    assert reads["plain"] == 3
    # `latest` reads a var whose type is found, and `later` reads `latest`: read again each time
    assert reads["latest"] > 3 and reads["later"] > 3
    assert types["latest"] == types["later"] == "seat"
    # `picked` calls a define with the types of its arguments: read every time, as before
    assert types["picked"] == "entity:Gem"


def test_a_chain_of_defines_each_naming_a_later_one_gets_the_types_it_always_did(monkeypatch):
    # two readings before inference reach the second link of the chain; the quiet passes and
    # the readings after them carry the types further, as they did when every define was read
    # every time
    _, types = reads_of_defines("define a = b\ndefine b = c\ndefine c = d\ndefine d = e\ndefine e = last\n"
                                "var last start none\nflow:\n    set last to Blue\n"
                                "    log \"{a}\"\n    win Red\n", monkeypatch)
    assert types == {"a": "seat", "b": "seat", "c": "seat", "d": "seat", "e": "seat"}


def test_the_ordinary_pass_takes_an_item_as_inference_read_it_when_its_reads_kept_their_types(monkeypatch):
    from ludus.language import nodes as n
    from ludus.language.checker import Checker

    reads: dict = {}
    check_item = Checker.check_item

    def counted(self, item):
        if isinstance(item, n.RuleDecl):
            reads[item.name] = reads.get(item.name, 0) + 1
        return check_item(self, item)

    monkeypatch.setattr(Checker, "check_item", counted)
    text = HEAD + PICK + '''rule announce(s: seat):
    log "{s} scores {bonus}"
    win s
    log "never"
rule misspelt(g: Gme):
    log "{g}"
value bonus = 2
flow:
    pick(Red, [c for c in Gems])
    announce(Red)
    misspelt(1)
    win Red
'''
    sources = Sources()
    sources.add("t.ludus", text)
    result = check(list(build(text, "t.ludus").items), sources)
    # read once by inference, and taken as it was read: its warning and the value it uses with it
    assert reads["announce"] == 1
    assert [d.message for d in result.diagnostics if d.span.line == HEAD.count("\n") + 7] == [
        "this can never run: the 'win' above always leaves the block"]
    assert not any("bonus" in d.message for d in result.diagnostics)
    # read again: its parameters' types were found, so it reads them with those types
    assert reads["pick"] == 2 and result.symbols.inferred[("param", "pick", 0)] == "seat"
    # read again: a misspelt type is reported where it is first looked up, once
    assert reads["misspelt"] == 2
    assert [d.message for d in result.errors] == ["unknown type 'Gme'"]
