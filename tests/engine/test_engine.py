"""Statement semantics on tiny games: each test runs a few lines and reads the resulting state."""

from __future__ import annotations

import io

import pytest

import ludus
from tests.helpers import game_from_text, no_crash


def play(tmp_path, decls: str, flow: str, moves=(), players: int = 2):
    text = 'game "E"\nplayers 2 to 3\n' + decls + "\nflow:\n" + "".join(f"    {line}\n" for line in flow.strip("\n").splitlines())
    game = game_from_text(tmp_path, text)
    match = game.new_match(players, seed=1)
    for move in moves:
        match.apply(move)
    return match


def var(match, name: str, seat: int | None = None):
    # a counter still at its start of 0 is not stored
    return match.state["vars"].get(name if seat is None else f"{name}@{seat}", 0)


def test_tokens_add_remove_move(tmp_path):
    m = play(tmp_path, "token Cube\ntoken Follower per seat\ncounter a\ncounter b\ncounter c\ncounter d\n"
             "board map:\n    region North adjacent to South\n    region South adjacent to North",
             "add 5 Cube to North\nremove 2 Cube from North\nmove 1 Cube from North to South\n"
             "add 2 Follower of P2 to North\nremove 9 Follower of P2 from North\n"
             "set a to Cube at North\nset b to Cube at South\nset c to Follower of P2 at North\n"
             "remove all Cube from North\nset d to Cube at North\nend game")
    assert (var(m, "a"), var(m, "b"), var(m, "c"), var(m, "d")) == (2, 1, 0, 0)


def test_track_clamps_and_enters_fires_only_from_outside(tmp_path):
    m = play(tmp_path, "counter parties\ntrack mood from -3 to 3:\n    end High from 2 to 3\n"
             "when mood enters High:\n    increase parties by 1",
             "increase mood by 2\nincrease mood by 1\nincrease mood by 5\nset mood to 0\nincrease mood by 2\nend game")
    assert var(m, "parties") == 2
    assert m.state["tracks"]["mood"]["pos"] == 2


def test_when_changes_sees_old_new_and_key(tmp_path):
    m = play(tmp_path, "counter money per seat\nvar seen start 0\nvar who: seat\n"
             "when money changes:\n    set seen to 10 * old + new\n    set who to key",
             "gain 3 money for P2\ngain 2 money for P2\nend game")
    assert var(m, "seen") == 35
    assert var(m, "who") == 1


def test_at_any_time_ends_the_game_as_soon_as_it_holds(tmp_path):
    m = play(tmp_path, "counter n\nat any time:\n    if n >= 3:\n        win P2",
             "repeat 10 times:\n    increase n by 1\nwin P1")
    assert m.result["winners"] == ["P2"]
    assert var(m, "n") == 3


def test_at_any_time_holds_at_once_among_changes_it_does_not_read(tmp_path):
    # changes to `other` do not check the condition (it does not read it); the change of `n`
    # that makes it hold, read through a define, ends the game before the next statement
    m = play(tmp_path, "counter n\ncounter other\ndefine done = n >= 3\nat any time:\n    if done:\n        win P2",
             "repeat 10 times:\n    increase other by 1\n    increase n by 1\n    increase other by 1\nwin P1")
    assert m.result["winners"] == ["P2"]
    assert (var(m, "n"), var(m, "other")) == (3, 5)
    assert m.game.anytime_watch == frozenset({"n"})


def test_an_else_option_with_an_actions_label_is_told_apart(tmp_path):
    m = play(tmp_path, "counter rests per seat\naction Rest:\n    gain 1 rests",
             'offer Rest else "Rest" as got\noffer Rest as got\nend game')
    assert m.legal_actions() == ["Rest", "Rest #2"]
    m.apply("Rest #2")  # the else: no rest taken
    assert var(m, "rests", 0) == 0 and m.legal_actions() == ["Rest"]


def test_alternate_until_all_pass(tmp_path):
    m = play(tmp_path, "counter turns per seat",
             "alternate s in seats until all pass:\n    turn s:\n        increase turns of s by 1\n"
             "        if turns of s >= (if s == P1 then 1 else 3):\n            pass\nend game")
    assert (var(m, "turns", 0), var(m, "turns", 1)) == (1, 3)


def test_choose_up_to_n(tmp_path):
    m = play(tmp_path, "counter total", "choose xs from [1, 2, 4], up to 2\nset total to sum(xs)\nend game")
    assert m.legal_actions()[:3] == ["1", "2", "4"]
    m.apply("4")
    m.apply("1")
    assert m.is_over and var(m, "total") == 5


def test_choose_up_to_n_can_stop_early(tmp_path):
    m = play(tmp_path, "counter total", "choose xs from [1, 2, 4], up to 2\nset total to 10 + size(xs)\nend game")
    m.apply("2")
    done = [a for a in m.legal_actions() if a not in ("1", "4")]
    assert len(done) == 1
    m.apply(done[0])
    assert var(m, "total") == 11


def test_distribute_asks_each_share_and_the_last_takes_the_rest(tmp_path):
    m = play(tmp_path, "counter a\ncounter b\ncounter c",
             "distribute 5 among [10, 20, 30] as hits\nset a to share(hits, 10)\nset b to share(hits, 20)\n"
             "set c to share(hits, 30)\nend game")
    asked = 0
    while not m.is_over:
        m.apply(m.legal_actions()[1])  # one less than all that is left
        asked += 1
    # asked for the first two elements only; the last takes the remaining 3
    assert asked == 2
    assert (var(m, "a"), var(m, "b"), var(m, "c")) == (4, 0, 1)


def test_share_adds_up_a_target_listed_twice(tmp_path):
    m = play(tmp_path, "counter a",
             "distribute 5 among [10, 20, 10] as hits\nset a to share(hits, 10)\nend game")
    m.apply("4 to 10")  # then 1 left: the second 10 is asked nothing and 20 gets 0 or 1
    m.apply("0 to 20")
    assert var(m, "a") == 5


def test_offer_with_else_and_requirements(tmp_path):
    m = play(tmp_path, "counter coins per seat start 2\nvar picked start \"\"\n"
             "action Buy:\n    cost 3 coins\n    gain 1 coins\naction Rest:\n    gain 1 coins",
             'offer Buy, Rest else "nothing" as got\nset picked to got\noffer Buy, Rest else "nothing" as got\nend game')
    # Buy costs 3 and the seat has 2: only Rest and the else option are legal
    assert sorted(m.legal_actions()) == ["Rest", "nothing"]
    m.apply("Rest")
    assert var(m, "picked") == "Rest" and var(m, "coins", 0) == 3
    assert "Buy" in m.legal_actions()
    m.apply("Buy")
    assert var(m, "coins", 0) == 1


def test_resets_each_round(tmp_path):
    m = play(tmp_path, "counter bonus per seat resets each round\ncounter seen",
             "for round in 1 to 3:\n    increase seen by bonus of P1\n    gain 5 bonus for P1\nend game")
    assert var(m, "seen") == 0


def test_repeat_and_break(tmp_path):
    m = play(tmp_path, "counter n\ncounter k",
             "repeat 4 times:\n    increase n by 1\nfor i in 1 to 10:\n    if i > 3:\n        break\n"
             "    increase k by i\nend game")
    assert (var(m, "n"), var(m, "k")) == (4, 6)


def test_an_endless_while_is_a_rule_error_naming_the_rule(tmp_path):
    path = tmp_path / "loop.ludus"
    path.write_text('game "L"\nplayers 2\ncounter n\nrule spin:\n    while true:\n        increase n by 1\n'
                    "flow:\n    spin()\n    end game\n", encoding="utf-8")
    game = ludus.load(path)
    with pytest.raises(ludus.RuleError) as err:
        game.new_match(2)
    message = str(err.value)
    assert "spin" in message and "loop forever" in message
    assert "loop.ludus:" in message


EMPTY_OFFER = ('game "L"\nseats Red, Blue\ncounter coins per seat start 3\ncounter rounds\n'
               "action Earn:\n    require coins of actor < 3\n    gain 1 coins\n"
               "flow:\n    while true:\n        for each s in seats:\n            turn s:\n"
               "                offer Earn\n                if coins of s > 5:\n                    win s\n"
               "        increase rounds by 1\n")


@pytest.mark.parametrize("regions", [True, False])
def test_a_loop_around_an_offer_with_nothing_legal_is_blamed_on_the_offer(tmp_path, regions):
    # no seat can Earn and the offer has no `else`: it asks nothing, and the loop goes round
    # without end. The budget runs out on some other line of the loop (`win s`, `increase`);
    # the error names the offer, and why it asked nothing.
    game = game_from_text(tmp_path, EMPTY_OFFER)
    if not regions:
        for code in game.codes.values():
            code.fast = None
    with pytest.raises(ludus.RuleError) as err:
        game.new_match(2)
    assert (err.value.span.line, err.value.span.column) == (12, 17)
    assert "'flow' seems to loop forever: it came to this offer" in err.value.message
    assert "each time the offer had nothing legal and no 'else', so it asked nothing" in err.value.message


def test_an_offer_found_empty_once_is_not_blamed_for_a_loop_after_it(tmp_path):
    text = EMPTY_OFFER.replace("    while true:\n", "    turn Red:\n        offer Earn\n    while true:\n"
                               "        increase rounds by 1\n    while true:\n")
    game = game_from_text(tmp_path, text)
    with pytest.raises(ludus.RuleError) as err:
        game.new_match(2)
    assert "it came to this offer" not in err.value.message
    assert err.value.span.line in (11, 12)  # the loop itself, not the offer at line 10


@pytest.mark.parametrize("depth", [5000, -1])  # a recursion that would end, far too deep; one that never ends
def test_defines_too_deep_are_a_rule_error_at_the_line_that_asked(tmp_path, depth):
    path = tmp_path / "deep.ludus"
    path.write_text('game "D"\nplayers 2\ncounter k\ndefine f(x) = if x == 0 then 0 else f(x - 1) + 1\n'
                    f"flow:\n    increase k by f({depth})\n    end game\n", encoding="utf-8")
    with pytest.raises(ludus.RuleError) as err:
        ludus.load(path).new_match(2)
    assert err.value.message.startswith("defines called one another too deeply")
    assert (err.value.span.line, err.value.span.column) == (6, 5)
    # a shallow one is worked out: 150 calls fit whether the define runs as generated code or
    # as closures (LUDUS_CLOSURES=1), which fit fewer (about 200 here: vm.failure_at)
    path.write_text(path.read_text(encoding="utf-8").replace(f"f({depth})", "f(150)"), encoding="utf-8")
    assert ludus.load(path).new_match(2).state["vars"]["k"] == 150


@pytest.mark.parametrize("depth", [5000, -1])
def test_defines_too_deep_in_a_test_line_or_at_the_repl_are_the_same_located_error(tmp_path, monkeypatch, depth):
    # an expression no instruction runs (a test's `expect`, the REPL's `eval`) let the
    # RecursionError out: `ludus test` ended in its traceback, the REPL said "too large or too deep"
    from click.testing import CliRunner
    from rich.console import Console

    from ludus.cli import main
    from ludus.compiler.probe import compile_expression
    from ludus.repl.session import Repl

    game_path = tmp_path / "deep.ludus"
    game_path.write_text('game "D"\nplayers 2\ndefine f(x) = if x == 0 then 0 else f(x - 1) + 1\n'
                         "flow:\n    end game\n", encoding="utf-8")
    game = ludus.load(game_path)
    with pytest.raises(ludus.RuleError) as err:
        compile_expression(game, f"f({depth}) == 1", "<expect>", 7, 12)(game.new_match(2))
    assert err.value.message.startswith("defines called one another too deeply")
    assert (err.value.span.line, err.value.span.column) == (7, 12)
    tests = tmp_path / "deep.tests.ludus"
    tests.write_text(f'extends "deep.ludus"\n\ntest "deep":\n    expect f({depth}) == 1\n', encoding="utf-8")
    result = CliRunner().invoke(main, ["test", str(tests)])
    assert result.exit_code == 1 and no_crash(result), result.output
    assert f"{tests}:4:12: error: defines called one another too deeply" in result.output
    monkeypatch.setenv("LUDUS_HISTORY", str(tmp_path / "history"))
    out = io.StringIO()
    Repl(game.new_match(2), game_path, Console(file=out, width=200, color_system=None)).handle(f"? f({depth})")
    assert "error: cannot compute it now: defines called one another too deeply" in out.getvalue(), out.getvalue()


def test_a_move_of_none_is_a_rule_error_at_its_line_and_the_move_is_not_half_made(tmp_path):
    # `move top(supply) to market` with the supply empty moved nothing and said nothing
    game = game_from_text(tmp_path, 'game "N"\nplayers 2\nseats Red, Blue\ncard "A"\nzone hand\nzone supply\n'
                                    "zone market\nsetup:\n    move box to hand\naction Take:\n"
                                    "    move top(hand) to market\n    move top(supply) to market\n"
                                    "flow:\n    while true:\n        offer Take to Red\n")
    match = game.new_match(2)
    before = match.to_json()
    with pytest.raises(ludus.RuleError) as err:
        match.apply("Take")
    assert err.value.message.startswith("cannot move none (top or first of an empty zone or list is none): to move "
                                        "a card only when there is one, test first, as in 'if size(deck) > 0:'")
    assert (err.value.span.line, err.value.span.column) == (12, 5)  # the second move
    assert match.to_json() == before and match.legal_actions() == ["Take"]


def test_opponent_and_left_in_a_two_seat_game(tmp_path):
    m = play(tmp_path, "var a: seat\nvar b: seat", "turn P1:\n    set a to other(current)\n    set b to left(P2)\nend game")
    assert (var(m, "a"), var(m, "b")) == (1, 0)


def test_a_define_that_gives_seats_gives_seats_not_numbers(tmp_path):
    m = play(tmp_path, "seats Red, Blue, Green\nvar who: text start \"\"\n"
             "define opponents(s) = [o for o in seats where o != s]",
             "set who to first(opponents(Red)).name\nlog \"{first(opponents(Red))} goes next\"\n"
             "end game", players=3)
    assert var(m, "who") == "Blue"
    assert {"t": "log", "text": "Blue goes next"} in m.log


def test_remainder_division_and_an_empty_range_as_the_language_page_says(tmp_path):
    # docs/language.md, Expressions: `/` rounds down, `%` takes the divisor's sign (a wall
    # pattern shifted one place a row, Azul's, counts round with it), and range(a, b) with b
    # below a is empty
    m = play(tmp_path, "var r start 0\nvar d start 0\nvar e start 0",
             "set r to -1 % 5\nset d to 7 / -2\nset e to size(range(3, 1))\nend game")
    assert (var(m, "r"), var(m, "d"), var(m, "e")) == (4, -4, 0)

def test_ask_questions_name_things_and_win_reasons_give_the_statement_and_its_line(tmp_path):
    m = play(tmp_path, "board map:\n    region North", "for each r in regions:\n"
             "    ask P1 \"Hold {r}?\" as hold\n    if hold:\n        win P1\nend game")
    assert m.pending["prompt"] == "P1: Hold North?"
    m.apply("yes")
    assert m.result["winners"] == ["P1"]
    assert m.result["reason"] == "win P1, flow"
    assert m.result["at"] == ["game.ludus", 9]  # the file named from the game's folder


def test_exiled_pieces_are_out_of_the_game_but_card_finds_them(tmp_path):
    m = play(tmp_path, "kind Character:\n    actions: number\npiece Lieutenant is Character:\n    actions 1\n"
             "board map:\n    region North\ncounter before\ncounter after\ncounter found",
             "create Lieutenant at North for P1 as l\nset before to size(Lieutenant of P1)\nexile l\n"
             "set after to size(Lieutenant of P1)\nset found to size(cards(\"Lieutenant\"))\nend game")
    assert (var(m, "before"), var(m, "after"), var(m, "found")) == (1, 0, 1)


def test_copies_whose_property_was_set_to_its_default_are_still_one_option(tmp_path):
    """A property set to the value it reads anyway does not make two copies different options."""
    from tests.helpers import game_from_text

    game = game_from_text(tmp_path, '''game "dup"
players 2
kind K:
    hp: number = 0
card "Pawn" is K:
    copies 2
zone hand per seat
action Play(c in hand):
    label "play {c}"
    move c to box
setup:
    move box to hand of P1
    set first(hand of P1).hp to 0
flow:
    turn P1:
        offer Play
    end game
''')
    assert game.new_match(2).legal_actions() == ["play Pawn"]
    different = game_from_text(tmp_path, '''game "dup"
players 2
kind K:
    hp: number = 0
card "Pawn" is K:
    copies 2
zone hand per seat
action Play(c in hand):
    label "play {c}"
    move c to box
setup:
    move box to hand of P1
    set first(hand of P1).hp to 3
flow:
    turn P1:
        offer Play
    end game
''', name="different.ludus")
    assert different.new_match(2).legal_actions() == ["play Pawn", "play Pawn #2"]


TRACK_FROM_VALUES = """
game "Mood"
seats Red, Blue
value calm = 0
value edge = 3
track mood from -3 to edge start calm:
    end Festival from edge to edge
counter festivals
when mood enters Festival:
    increase festivals by 1
action Cheer(n in [1, 2]):
    label "cheer {n}"
    increase mood by n
flow:
    for each s in seats:
        turn s:
            offer Cheer
    end game
"""


def test_a_variant_overriding_a_value_moves_the_track_that_names_it(tmp_path):
    base = game_from_text(tmp_path, TRACK_FROM_VALUES, "mood.ludus")
    (tmp_path / "hot.ludus").write_text('extends "mood.ludus"\noverride value calm = 2\n', encoding="utf-8")
    hot = ludus.load(tmp_path / "hot.ludus")
    assert (base.tracks["mood"].low, base.tracks["mood"].high, base.tracks["mood"].start) == (-3, 3, 0)
    assert hot.tracks["mood"].start == 2 and hot.tracks["mood"].zones == {"Festival": (3, 3)}
    match = hot.new_match(2, seed=1)
    assert match.state["tracks"]["mood"] == {"pos": 2, "start": 2}
    match.apply("cheer 1")  # 2 -> 3: into the Festival, whose ends came from `edge`
    assert match.state["vars"].get("festivals") == 1


def test_a_value_listed_twice_is_one_option(tmp_path):
    # two ways of pairing dice that climb alike are one move, not "7, 9" and "7, 9 #2"; values
    # that differ under one label still keep a number each
    game = game_from_text(tmp_path, '''game "pairs"
players 2
flow:
    turn P1:
        choose totals from [[7, 9], [8], [7, 9], [8], [6]] "Which totals?"
    turn P1:
        choose word from ["a", "b", "a"]
    end game
''', name="pairs.ludus")
    match = game.new_match(2)
    assert match.legal_actions() == ["7, 9", "8", "6"]
    match.apply("6")
    assert match.legal_actions() == ["a", "b"]


def test_a_loop_with_where_runs_for_the_elements_that_pass(tmp_path):
    # the condition is read once, as the loop starts: a change made in the block does not
    # take a later element out (as a comprehension in its place would not)
    game = game_from_text(tmp_path, '''game "filter"
players 3
counter coins per seat
counter visits
setup:
    set coins of P2 to 5
flow:
    for each s in seats where coins of s == 0:
        increase visits by 1
        set coins of P3 to 9
    for each n in [1, 2, 3, 4] where n % 2 == 0:
        gain n coins for P1
    end game
''', name="filter.ludus")
    match = game.new_match(3)
    assert match.is_over
    facts = match.view()["counters"]
    assert match.state["vars"]["visits"] == 2  # P1 and P3: P3 was 0 when the loop started
    assert facts["coins"] == {"P1": 6, "P2": 5, "P3": 9}


def test_card_by_name_is_always_the_first_copy_and_another_is_picked_by_where_it_is(tmp_path):
    # as docs/language.md says: `card("Guard")` is the same copy each time, wherever it is
    game = game_from_text(tmp_path, '''game "Copies"
players 2
zone deck hidden
zone pile public
zone hand per seat hidden
card "Guard":
    copies 3
flow:
    move box to deck
    shuffle deck
    move card("Guard") to pile
    move card("Guard") to pile
    log "after card twice: pile {size(pile)}"
    move top(deck, 2) to hand of P1
    move item([c for c in hand of P1 where c.name == "Guard"], 1) to pile
    log "after one from the hand: pile {size(pile)}"
    win P1
''')
    match = game.new_match(2, seed=5)
    assert [e["text"] for e in match.log if e["t"] == "log"] == ["after card twice: pile 1",
                                                               "after one from the hand: pile 2"]
    assert [e["l"] for e in match.state["ents"]] == ["pile", "pile", "hand@0"]  # the first made, then one from the hand
