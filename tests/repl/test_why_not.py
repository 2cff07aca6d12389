"""A refused move says why: the requirement that fails (the part of it that fails, and the values
of a comparison's sides), or the cost that cannot be paid."""

from __future__ import annotations

import pytest

import ludus
from tests.helpers import EXAMPLES, repl_on

SOURCE = '''game "Why"
players 2
counter coins per seat start 2
action Build:
    label "build a stall"
    cost 3 coins
action Rest:
    label "rest"
    require coins > 5
action Wait:
    label "wait"
flow:
    turn P1:
        offer Build, Rest, Wait
    end game
'''


@pytest.fixture(autouse=True)
def no_history(monkeypatch, tmp_path):
    monkeypatch.setenv("LUDUS_HISTORY", str(tmp_path / "history"))


def repl_for(game, path, seed=0):
    return repl_on(game.new_match(2, seed=seed), path, 120)


def test_a_cost_that_cannot_be_paid_and_a_failing_requirement_are_named(tmp_path):
    path = tmp_path / "why.ludus"
    path.write_text(SOURCE, encoding="utf-8")
    game = ludus.load(path)
    assert game.new_match(2).why_not("build a stall") == "it needs 3 coins, and P1 has 2"
    assert game.new_match(2).why_not("Rest") == "its requirement 'coins > 5' does not hold (coins is 2)"
    assert game.new_match(2).why_not("fly") is None
    repl, out = repl_for(game, path)
    repl.handle("build a stall")
    assert "'build a stall' is not a legal move for P1 now: it needs 3 coins, and P1 has 2" in out.getvalue()
    assert repl.match.moves == []


def test_a_cost_of_one_names_the_counter_in_the_singular(tmp_path):
    # `1 coin`, as the rules text writes a cost of one; a name that is no plural stays as it is
    path = tmp_path / "one.ludus"
    path.write_text(SOURCE.replace("start 2", "start 0").replace("cost 3 coins", "cost 1 coins")
                    .replace("counter coins", "counter gold per seat start 0\ncounter coins")
                    .replace("require coins > 5", "cost 1 gold"), encoding="utf-8")
    game = ludus.load(path)
    assert game.new_match(2).why_not("build a stall") == "it needs 1 coin, and P1 has 0"
    assert game.new_match(2).why_not("rest") == "it needs 1 gold, and P1 has 0"


def test_market_town_says_why_a_card_cannot_be_bought():
    path = EXAMPLES / "market-town.ludus"
    repl, out = repl_for(ludus.load(path), path, seed=3)
    repl.handle("buy Town Crier")
    # Market Town hides hands and decks: in a seat's view the requirement is given whole, since
    # its parts' values are read from the whole match; the designer's view gives them
    assert "'buy Town Crier' is not a legal move for Amber now: its requirement 'c.cost <= coins' does not hold\n" in out.getvalue()
    repl.handle("view all")
    repl.handle("buy Town Crier")
    assert "'buy Town Crier' is not a legal move for Amber now: its requirement 'c.cost <= coins' does not hold (c.cost is 4, coins is 3)" in out.getvalue()


def test_a_part_of_a_requirement_over_hidden_cards_is_not_told_to_a_seat(tmp_path):
    # `top(deck)` is hidden: which part fails, and the card on top, would tell it
    path = tmp_path / "hidden.ludus"
    path.write_text(HIDDEN, encoding="utf-8")
    game = ludus.load(path)
    match = game.new_match(2, seed=0)
    whole = "its requirement 'size(deck) > 0 and top(deck).name == \"Gold\"' does not hold"
    assert match.why_not("peek") == whole and match.why_not("peek", detail=False) == whole
    assert match.why_not("peek", detail=True) == whole + ": 'top(deck).name == \"Gold\"' is false (top(deck).name is Lead)"
    repl, out = repl_for(game, path)
    repl.handle("peek")
    assert f"'peek' is not a legal move for P1 now: {whole}\n" in out.getvalue() and "Lead" not in out.getvalue()


HIDDEN = '''game "Hidden"
players 2
zone deck count only
card "Lead"
action Peek:
    label "peek"
    require size(deck) > 0 and top(deck).name == "Gold"
action Wait:
    label "wait"
flow:
    move box to deck
    turn P1:
        offer Peek, Wait
    end game
'''


PARTS = '''game "Parts"
players 2
counter coins per seat start {coins}
counter gems per seat start {gems}
flag tired start {tired}
define rich = coins > 10
action Rest:
    label "rest"
    require coins > 1 and not tired and coins + gems > 5
action Nest:
    label "nest"
    require coins > 1 and (gems == 1 and (rich or gems > 3))
action Either:
    label "either"
    require rich or gems > 4
action Seat:
    label "seat"
    require current != P1
action Build:
    label "build"
    require coins > 0
    cost 9 coins
flow:
    turn P1:
        offer Rest, Nest, Either, Seat, Build else "pass"
    end game
'''


def parts_game(tmp_path, coins=2, gems=1, tired="false"):
    path = tmp_path / "parts.ludus"
    path.write_text(PARTS.format(coins=coins, gems=gems, tired=tired), encoding="utf-8")
    return ludus.load(path), path


REST = "its requirement 'coins > 1 and not tired and coins + gems > 5' does not hold"


@pytest.mark.parametrize("coins, gems, tired, why", [
    (1, 9, "false", f"{REST}: 'coins > 1' is false (coins is 1)"),
    (2, 9, "true", f"{REST}: 'not tired' is false"),
    (3, 2, "false", f"{REST}: 'coins + gems > 5' is false (coins + gems is 5)"),
])
def test_the_first_operand_of_an_and_that_is_false_is_named(tmp_path, coins, gems, tired, why):
    game, path = parts_game(tmp_path, coins, gems, tired)
    assert game.new_match(2).why_not("rest") == why
    repl, out = repl_for(game, path)
    repl.handle("rest")
    assert f"'rest' is not a legal move for P1 now: {why}" in out.getvalue()
    assert repl.match.moves == []


def test_an_and_in_parentheses_is_more_operands_and_an_or_among_them_is_named_whole(tmp_path):
    nest = "its requirement 'coins > 1 and (gems == 1 and (rich or gems > 3))' does not hold"
    assert parts_game(tmp_path, gems=2)[0].new_match(2).why_not("nest") == f"{nest}: 'gems == 1' is false (gems is 2)"
    assert parts_game(tmp_path, gems=1)[0].new_match(2).why_not("nest") == f"{nest}: 'rich or gems > 3' is false"
    # an `or` fails only when every part of it does: it is named whole
    assert parts_game(tmp_path)[0].new_match(2).why_not("either") == "its requirement 'rich or gems > 4' does not hold"


LINES = '''game "Lines"
players 2
counter coins per seat start 2
counter gems per seat start 0
action Rest:
    label "rest"
    require coins > 1 and \\
        gems   >   0
action Nest:
    label "nest"
    require coins > 1 and (gems > 0   # a comment is not quoted
                           or "a  b" == "a    b")
action Wait:
    label "wait"
flow:
    turn P1:
        offer Rest, Nest, Wait
    end game
'''


@pytest.mark.parametrize("label, why", [
    # a trailing backslash: the whole on one line, each run of spaces one space
    ("rest", "its requirement 'coins > 1 and gems > 0' does not hold: 'gems > 0' is false (gems is 0)"),
    # inside brackets: no comment, no space just inside a bracket, a string's spaces as written
    ("nest", "its requirement 'coins > 1 and (gems > 0 or \"a  b\" == \"a    b\")' does not hold: "
             "'gems > 0 or \"a  b\" == \"a    b\"' is false"),
])
def test_a_requirement_over_several_lines_is_quoted_on_one_line(tmp_path, label, why):
    path = tmp_path / "lines.ludus"
    path.write_text(LINES, encoding="utf-8")
    game = ludus.load(path)
    assert game.new_match(2).why_not(label) == why
    repl, out = repl_for(game, path)
    repl.handle(label)
    assert f"'{label}' is not a legal move for P1 now: {why}\n" in out.getvalue()
    assert repl.match.moves == []


def test_a_comparison_shows_no_side_that_reads_as_its_value(tmp_path):
    game, _path = parts_game(tmp_path)
    # P1 reads as its own value: only `current` is shown
    assert game.new_match(2).why_not("seat") == "its requirement 'current != P1' does not hold (current is P1)"


def test_the_cost_is_named_as_before_once_the_requirements_hold(tmp_path):
    game, _path = parts_game(tmp_path)
    assert game.new_match(2).why_not("build") == "it needs 9 coins, and P1 has 2"
    assert parts_game(tmp_path, coins=0)[0].new_match(2).why_not("build") == \
        "its requirement 'coins > 0' does not hold (coins is 0)"


def test_a_part_that_breaks_a_rule_leaves_the_whole_requirement(tmp_path):
    from ludus.engine.runtime import RuleError

    game, _path = parts_game(tmp_path, coins=3, gems=2)
    match = game.new_match(2)
    assert match.why_not("rest").endswith("'coins + gems > 5' is false (coins + gems is 5)")
    rest = game.actions["Rest"]

    def broken(rt, env):
        raise RuleError("a rule broken while the part is read")
    # the parts as compiled on first asking, the last one breaking a rule when read
    parts = rest.require_parts[0]
    rest.require_parts[0] = parts[:-1] + [(parts[-1][0], broken, parts[-1][2])]
    assert match.why_not("rest") == REST
    # and its comparison's side too
    text, fn, [(side, _side_fn, typ)] = parts[-1]
    rest.require_parts[0] = parts[:-1] + [(text, fn, [(side, broken, typ)])]
    assert match.why_not("rest") == REST


def test_a_replay_says_which_part_fails(tmp_path):
    from ludus.replay import ReplayError, load_replay

    _game, path = parts_game(tmp_path, coins=3, gems=2)
    replay = tmp_path / "t.replay"
    replay.write_text(f"game {path.name}\nplayers 2\nrest\n", encoding="utf-8")
    with pytest.raises(ReplayError) as info:
        load_replay(replay).run()
    assert info.value.message == f"'rest' is not a legal move for P1 now: {REST}: 'coins + gems > 5' is false (coins + gems is 5)"


@pytest.mark.parametrize("line, said", [
    ('do "rest"', f"'rest' is not a legal move now: {REST}: 'coins + gems > 5' is false (coins + gems is 5)"),
    ('expect legal "rest"', f"expected 'rest' to be a legal move, but {REST}: 'coins + gems > 5' is false (coins + gems is 5)"),
    ('expect legal "build"', "expected 'build' to be a legal move, but it needs 9 coins, and P1 has 3"),
    # not an action the flow offers: the closest moves, as before
    ('do "passes"', "'passes' is not a legal move now; closest: pass"),
])
def test_a_test_block_s_do_and_expect_legal_say_why_a_move_is_refused(tmp_path, line, said):
    from ludus.testing.blocks import own_tests, run_test_decl
    from ludus.testing.position import TestError

    path = tmp_path / "parts.ludus"
    path.write_text(PARTS.format(coins=3, gems=2, tired="false") + f'\ntest "t":\n    {line}\n', encoding="utf-8")
    game = ludus.load(path)
    with pytest.raises(TestError) as failed:
        run_test_decl(game, own_tests(game, path)[0], lambda effect, name, span: None)
    assert failed.value.message == said


BRACKETS = '''game "Brackets"
players 2
counter coins per seat start 2
counter gems per seat start 0
action Rest:
    label "rest"
    require (coins > 1 and gems > 0)
action Nest:
    label "nest"
    require (coins > 5) and (gems > 0)
action Best:
    label "best"
    require ((coins > 5))
action Lines:
    label "lines"
    require (  # a comment
        (coins > 5 and
         gems > 0)   # another
    )
action Wait:
    label "wait"
flow:
    turn P1:
        offer Rest, Nest, Best, Lines, Wait
    end game
'''


@pytest.mark.parametrize("label, why", [
    # the condition's node is inside the brackets: the quote has them, as written
    ("rest", "its requirement '(coins > 1 and gems > 0)' does not hold: 'gems > 0' is false (gems is 0)"),
    ("nest", "its requirement '(coins > 5) and (gems > 0)' does not hold: 'coins > 5' is false (coins is 2)"),
    ("best", "its requirement '((coins > 5))' does not hold (coins is 2)"),
    # brackets on lines of their own, comments after them: one line, as any quote
    ("lines", "its requirement '((coins > 5 and gems > 0))' does not hold: 'coins > 5' is false (coins is 2)"),
])
def test_a_requirement_in_brackets_is_quoted_with_them(tmp_path, label, why):
    path = tmp_path / "brackets.ludus"
    path.write_text(BRACKETS, encoding="utf-8")
    game = ludus.load(path)
    assert game.new_match(2).why_not(label) == why
    repl, out = repl_for(game, path)
    repl.handle(label)
    assert f"'{label}' is not a legal move for P1 now: {why}\n" in out.getvalue()
