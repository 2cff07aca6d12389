"""The test-block lines for legal moves, running on, the report's start and the winner."""

from __future__ import annotations

import attrs
import pytest
from click.testing import CliRunner

import ludus
from ludus.cli import main
from ludus.testing.blocks import own_tests, run_test_decl
from ludus.testing.position import TestError
from tests.helpers import EXAMPLES


def run(tmp_path, body: str):
    """Run one test block written against Market Town; return the effects its snapshots saw."""
    path = tmp_path / "t.ludus"
    path.write_text(f'extends "{(EXAMPLES / "market-town.ludus").as_posix()}"\n\ntest "t":\n{body}', encoding="utf-8")
    game = ludus.load(path)
    seen = []
    run_test_decl(game, own_tests(game, path)[0], lambda effect, name, span: seen.append(effect))
    return seen


def test_a_given_line_with_a_block_on_it_runs_its_block_even_as_the_file_s_last_line(tmp_path):
    run(tmp_path, "    given if true: set coins of Amber to 5\n    expect coins of Amber == 5\n")
    # as the file's last line its span ends past the file's end; it ran all the same (it was
    # read as no statement at all): an endless loop stopped, located at its line
    with pytest.raises(TestError, match="'given' seems to loop forever") as info:
        run(tmp_path, "    given while true: set mood to 0\n")
    assert (info.value.span.line, info.value.span.column) == (4, 23)


def test_expect_legal_and_not_legal_pass_and_fail(tmp_path):
    run(tmp_path, '    expect legal "buy Copper Coin"\n    expect not legal "buy Guild Charter"\n')
    with pytest.raises(TestError, match="expected 'buy Guild Charter' to be a legal move"):
        run(tmp_path, '    expect legal "buy Guild Charter"\n')
    with pytest.raises(TestError, match="expected 'buy Copper Coin' not to be a legal move"):
        run(tmp_path, '    expect not legal "buy Copper Coin"\n')


def test_run_on_lets_the_rules_reach_the_next_decision(tmp_path):
    steps = '    given set coins of Amber to 3\n    do "buy nothing"\n    do "build nothing"\n'
    run(tmp_path, steps + "    run on\n    expect coins of Amber == 0\n")
    # without `run on`, a check right after an action sees the rules stopped after it, before
    # the turn's end spends the coins left
    with pytest.raises(TestError, match="expected coins of Amber == 0"):
        run(tmp_path, steps + "    expect coins of Amber == 0\n")


def test_expect_winner(tmp_path):
    winning = '    given set coins of Basil to 6\n    given set fame of Basil to 10\n    do "buy nothing"\n    do "build nothing"\n    do "buy Guild Charter"\n'
    run(tmp_path, winning + "    expect winner Basil\n")
    with pytest.raises(TestError, match="expected Amber to win, but Basil won"):
        run(tmp_path, winning + "    expect winner Amber\n")
    with pytest.raises(TestError, match="expected no winner, but Basil won"):
        run(tmp_path, winning + "    expect no winner\n")
    with pytest.raises(TestError, match="the match is not over"):
        run(tmp_path, "    expect winner Amber\n")


def test_an_unknown_seat_in_expect_winner_is_a_located_check_error(tmp_path):
    path = tmp_path / "t.ludus"
    path.write_text(f'extends "{(EXAMPLES / "market-town.ludus").as_posix()}"\n\ntest "t":\n    expect winner Ambr\n',
                    encoding="utf-8")
    diags, _checked, _sources = ludus.analyse(path)
    [d] = [d for d in diags if d.severity == "error"]
    assert d.message == "unknown seat 'Ambr'" and d.hint == "did you mean 'Amber'?" and d.span.line == 4


def test_an_unknown_seat_of_a_test_line_with_no_seat_near_it_is_told_the_seats(tmp_path):
    path = tmp_path / "t.tests.ludus"
    path.write_text(f'extends "{(EXAMPLES / "market-town.ludus").as_posix()}"\n\ntest "t":\n'
                    '    resolve "Street Musician" for Nobody\n    expect winner Ambr\n', encoding="utf-8")
    diags, _checked, _sources = ludus.analyse(path)
    assert [(d.span.line, d.span.column, d.message, d.hint) for d in diags if d.severity == "error"] == [
        (4, 35, "unknown seat 'Nobody'", "the seats are Amber, Basil, Cobalt, Dune"),
        (5, 19, "unknown seat 'Ambr'", "did you mean 'Amber'?")]   # a near seat is still the hint
    checked = CliRunner().invoke(main, ["check", str(path)])
    assert checked.exit_code == 1 and "hint: the seats are Amber, Basil, Cobalt, Dune" in checked.output



@pytest.mark.parametrize("late", ["seed 7", "players 3"])
def test_a_seed_or_players_line_after_another_line_is_a_located_check_error(tmp_path, late):
    path = tmp_path / "t.ludus"
    path.write_text(f'extends "{(EXAMPLES / "market-town.ludus").as_posix()}"\n\ntest "t":\n'
                    f'    expect coins of Amber == 3\n    {late}   # too late\n', encoding="utf-8")
    diags, _checked, _sources = ludus.analyse(path)
    [d] = [d for d in diags if d.severity == "error"]
    word = late.split()[0]
    assert (d.message, d.span.line, d.span.column) == (f"'{word}' must come before the test's other lines", 5, 5)
    # the line's span ends at its last word: the comment after it is not underlined
    assert (d.span.end_line, d.span.end_column) == (5, 5 + len(late))


def test_a_late_seed_line_is_still_refused_when_the_test_runs(tmp_path):
    # a test block the checker never saw (built in Python, say) meets the same refusal at its run
    path = tmp_path / "t.ludus"
    path.write_text(f'extends "{(EXAMPLES / "market-town.ludus").as_posix()}"\n\ntest "t":\n'
                    '    seed 7\n    expect coins of Amber == 3\n', encoding="utf-8")
    game = ludus.load(path)
    decl = own_tests(game, path)[0]
    late = attrs.evolve(decl, lines=tuple(reversed(decl.lines)))
    with pytest.raises(TestError) as info:
        run_test_decl(game, late, lambda effect, name, span: None)
    assert (info.value.message, info.value.span.line) == ("'seed' must come before the test's other lines", 4)
    assert not info.value.also

def test_a_second_seed_line_is_refused_by_the_check_and_the_run(tmp_path):
    # the last of two seeds would have won without a word: which one the test plays is unclear
    path = tmp_path / "t.ludus"
    path.write_text(f'extends "{(EXAMPLES / "market-town.ludus").as_posix()}"\n\ntest "t":\n'
                    '    seed 7\n    seed 8\n    expect coins of Amber == 3\n', encoding="utf-8")
    diags, _checked, _sources = ludus.analyse(path)
    [d] = [d for d in diags if d.severity == "error"]
    assert (d.message, d.span.line) == ("a second 'seed' line: a test has one (the first is on line 4)", 5)
    # a test block the checker never saw meets the same refusal at its run
    path.write_text(f'extends "{(EXAMPLES / "market-town.ludus").as_posix()}"\n\ntest "t":\n'
                    '    seed 7\n    expect coins of Amber == 3\n', encoding="utf-8")
    game = ludus.load(path)
    decl = own_tests(game, path)[0]
    twice = attrs.evolve(decl, lines=(decl.lines[0], *decl.lines))
    with pytest.raises(TestError) as info:
        run_test_decl(game, twice, lambda effect, name, span: None)
    assert (info.value.message, info.value.span.line) == ("a second 'seed' line: a test has one", 4)

TOGETHER = '''game "Together"
players 3
counter lit
flow:
    turn P1:
        choose n from 0 to 1 "Light the fuse?"
        set lit to n
    if lit == 1:
        win [P1, P3]
    win seats
'''


def run_together(tmp_path, body: str):
    path = tmp_path / "together.ludus"
    path.write_text(TOGETHER + f'\ntest "t":\n{body}', encoding="utf-8")
    game = ludus.load(path)
    run_test_decl(game, own_tests(game, path)[0], lambda effect, name, span: None)


def test_expect_winner_of_several_seats_names_exactly_the_seats_that_won(tmp_path):
    run_together(tmp_path, '    do "0"\n    expect winner P1, P2, P3\n')
    run_together(tmp_path, '    do "0"\n    expect winner P3, P1, P2\n')       # in any order
    run_together(tmp_path, '    do "1"\n    expect winner P1, P3\n')
    with pytest.raises(TestError, match="expected P1 and P2 to win, but P1, P3 won"):
        run_together(tmp_path, '    do "1"\n    expect winner P1, P2\n')
    with pytest.raises(TestError, match="expected P1 to win, but P1, P2, P3 won"):
        run_together(tmp_path, '    do "0"\n    expect winner P1\n')
    with pytest.raises(TestError, match="expected P1, P2 and P3 to win, but the match is not over"):
        run_together(tmp_path, '    expect winner P1, P2, P3\n')


def test_every_seat_of_several_in_expect_winner_is_checked(tmp_path):
    path = tmp_path / "together.ludus"
    path.write_text(TOGETHER + '\ntest "t":\n    do "0"\n    expect winner P1, P4, P2, P1\n', encoding="utf-8")
    diags, _checked, _sources = ludus.analyse(path)
    errors = [(d.span.line, d.span.column, d.message) for d in diags if d.severity == "error"]
    assert errors == [(14, 19, "seat 'P1' is named twice"), (14, 23, "unknown seat 'P4'")]   # sorted by place


CROWN = '''
card "Coronation" is Good:
    cost 0
    coins 0
    on play:
        win Basil

'''
OVER = "Basil wins (win Basil, 'on play' of Coronation, line 7)"  # a failed line says where the card won
SNAPPED = "Basil wins (win Basil, 'on play' of Coronation)"  # a snapshot does not: lines move


def run_crowned(tmp_path, body: str):
    """Run one test block against Market Town with a card that ends the match when played."""
    path = tmp_path / "t.ludus"
    path.write_text(f'extends "{(EXAMPLES / "market-town.ludus").as_posix()}"\n{CROWN}test "t":\n{body}',
                    encoding="utf-8")
    game = ludus.load(path)
    seen = []
    run_test_decl(game, own_tests(game, path)[0], lambda effect, name, span: seen.append(effect.report()))
    return seen


def test_every_step_after_a_card_that_ended_the_match_says_the_match_is_over(tmp_path):
    # the card's own step is reported, and the match is over with Basil the winner
    seen = run_crowned(tmp_path, '    resolve "Coronation"\n    expect winner Basil\n    snapshot\n')
    assert seen == [f"Coronation, played by Amber\nchanges:\n  result: playing -> {SNAPPED}\n"]
    # the line after it fails plainly at that line, whatever step it is (line 11: the second line)
    for line, column, said in [('resolve "Coronation"', 5, "resolve 'Coronation'"),
                               ('do "buy nothing"', 5, "do 'buy nothing'"),
                               ('answer "Hill"', 5, "answer 'Hill'"),
                               ('play until "buy nothing"', 5, "play until 'buy nothing'"),
                               ("run on", 5, "run on"),
                               ("force d6 = 3", 5, "force d6 = 3"),
                               ("next d6 is 3", 5, "force d6 = 3"),
                               ('force order deck of Amber = "Copper Coin"', 5,
                                "force order deck of Amber = Copper Coin"),
                               ("given set coins of Amber to 5", 11, "set up the position with 'given'")]:
        with pytest.raises(TestError) as info:
            run_crowned(tmp_path, f'    resolve "Coronation"\n    {line}\n')
        assert info.value.message == f"cannot {said}: the match is over ({OVER})"
        assert (info.value.span.line, info.value.span.column) == (11, column)
    # an expectation of a legal move says why nothing is
    with pytest.raises(TestError) as info:
        run_crowned(tmp_path, '    resolve "Coronation"\n    expect legal "buy nothing"\n')
    assert info.value.detail == f"    legal now: nothing (the match is over: {OVER})"


def test_report_from_here_leaves_earlier_steps_out_of_the_snapshot(tmp_path):
    [with_all] = run(tmp_path, '    do "buy nothing"\n    do "build nothing"\n    snapshot\n')
    [later] = run(tmp_path, '    do "buy nothing"\n    report from here\n    do "build nothing"\n    snapshot\n')
    assert "buy nothing" in str(with_all)
    assert "buy nothing" not in str(later) and "build nothing" in str(later)


DICE = '''game "Dice"
players 2
counter total
flow:
    turn P1:
        choose go from [1] "Go on?"
        roll 2 d6 as faces
        set total to sum(faces)
    end game

test "t":
'''


def run_dice(tmp_path, body: str):
    path = tmp_path / "dice.ludus"
    path.write_text(DICE + body, encoding="utf-8")
    game = ludus.load(path)
    run_test_decl(game, own_tests(game, path)[0], lambda effect, name, span: None)


def test_force_takes_several_faces_and_next_says_the_same(tmp_path):
    run_dice(tmp_path, '    force d6 = 5, 2\n    do "1"\n    expect total == 7\n')
    with pytest.raises(TestError, match="expected total == 8"):
        run_dice(tmp_path, '    force d6 = 5, 2\n    do "1"\n    expect total == 8\n')
    run_dice(tmp_path, '    next d6 is 6\n    next d6 is 1\n    do "1"\n    expect total == 7\n')
    with pytest.raises(TestError, match="is not a face"):
        run_dice(tmp_path, "    force d6 = 9\n")
    with pytest.raises(TestError, match="is not a face"):
        run_dice(tmp_path, "    next d6 is 9\n")


def test_a_force_of_a_die_the_game_never_rolls_fails_at_its_line(tmp_path):
    # as at the REPL and in replays: the forced d20 would wait for ever, and the test would pass
    # or fail on rolls it did not mean
    with pytest.raises(TestError, match="Market Town never rolls a d20; it rolls a d6") as info:
        run(tmp_path, '    players 2\n    force d20 = 3\n    do "buy nothing"\n')
    assert info.value.span.line == 5


def test_every_failed_expectation_of_a_test_is_reported_not_only_the_first(tmp_path):
    with pytest.raises(TestError) as info:
        run(tmp_path, "    expect coins of Amber == 4\n    expect coins of Basil == 5\n"
                      "    expect coins of Amber == 3\n    expect legal \"buy Guild Charter\"\n")
    text = info.value.render()
    assert "expected coins of Amber == 4" in text
    assert "expected coins of Basil == 5" in text
    assert "expected 'buy Guild Charter' to be a legal move" in text
    assert [e.span.line for e in [info.value, *info.value.also]] == [4, 5, 7]
    # a line that stops the test is reported after the expectations that failed before it
    with pytest.raises(TestError) as info:
        run(tmp_path, "    expect coins of Amber == 4\n    do \"buy a castle\"\n    expect coins of Basil == 5\n")
    assert [e.span.line for e in [info.value, *info.value.also]] == [4, 5]
    assert "'buy a castle' is not a legal move now" in info.value.render()


def test_a_failed_expectation_shows_the_values_of_its_sides_but_not_of_constants(tmp_path):
    with pytest.raises(TestError) as info:
        run(tmp_path, "    expect current == Basil\n")
    assert info.value.detail == "    current is Amber"
    with pytest.raises(TestError) as info:
        run(tmp_path, "    expect (coins of Amber > 5) == true\n")
    assert info.value.detail == "    coins of Amber > 5 is no"


def test_sides_that_read_the_same_but_differ_are_said_with_their_types(tmp_path):
    # `sorted` gives the cards, ordered by their names: shown, they read as the list of names
    # they are compared with, and only their types tell why the two are not equal
    with pytest.raises(TestError) as info:
        run(tmp_path, '    expect sorted(c.name for c in hand of Amber) == ["Copper Coin", "Copper Coin", "Copper Coin"]\n')
    assert info.value.detail == ('    sorted(c.name for c in hand of Amber) is Copper Coin, Copper Coin, Copper Coin (a list of cards)\n'
                                 '    ["Copper Coin", "Copper Coin", "Copper Coin"] is Copper Coin, Copper Coin, Copper Coin (a list of texts)')
    # a text written in the line shows itself: it is said to be a text
    with pytest.raises(TestError) as info:
        run(tmp_path, '    expect top(hand of Amber) == "Copper Coin"\n')
    assert info.value.detail == '    top(hand of Amber) is Copper Coin (a card)\n    "Copper Coin" is a text'
    # sides that read differently are shown as before, without their types
    with pytest.raises(TestError) as info:
        run(tmp_path, '    expect [c.name for c in hand of Amber] == ["Guild Charter"]\n')
    assert info.value.detail == ("    [c.name for c in hand of Amber] is Copper Coin, Copper Coin, Copper Coin\n"
                                 '    ["Guild Charter"] is Guild Charter')



def test_a_define_without_parameters_shows_its_cards_by_name_in_a_failed_expectation(tmp_path):
    # an expect line is checked apart from the game: it read such a define's type as unknown,
    # and showed its cards by their numbers in the match ("is 3, 2, 1")
    path = tmp_path / "t.ludus"
    path.write_text(f'extends "{(EXAMPLES / "market-town.ludus").as_posix()}"\n'
                    "define amber_hand = [c for c in hand of Amber]\n\n"
                    'test "t":\n    expect sorted(c.name for c in amber_hand) == ["Guild Charter"]\n', encoding="utf-8")
    game = ludus.load(path)
    with pytest.raises(TestError) as info:
        run_test_decl(game, own_tests(game, path)[0], lambda effect, name, span: None)
    assert info.value.detail == ("    sorted(c.name for c in amber_hand) is Copper Coin, Copper Coin, Copper Coin\n"
                                 '    ["Guild Charter"] is Guild Charter')

SHUFFLES = '''game "Shuffles"
players 2 to 3
zone deck count only
zone pile per seat
zone hand per seat
card "Ace"
card "King"
card "Queen"
card "Jack"
setup:
    move [card("Ace"), card("King")] to pile of P2
    move [card("Queen"), card("Jack")] to deck
flow:
    turn P1:
        choose go from [1] "Go on?"
        shuffle deck
        draw 1 from deck into hand of P1
        shuffle pile of P2
    end game

test "t":
'''


def run_shuffles(tmp_path, body: str):
    path = tmp_path / "shuffles.ludus"
    path.write_text(SHUFFLES + body, encoding="utf-8")
    game = ludus.load(path)
    run_test_decl(game, own_tests(game, path)[0], lambda effect, name, span: None)


def test_force_order_puts_the_named_cards_on_top_of_the_next_shuffle(tmp_path):
    # both pass: the card drawn is the one forced, whatever the seed would have put on top
    for card in ("Queen", "Jack"):
        run_shuffles(tmp_path, f'    force order deck = "{card}"\n    do "1"\n'
                               f'    expect first(hand of P1).name == "{card}"\n')
    with pytest.raises(TestError, match='expected first'):
        run_shuffles(tmp_path, '    force order deck = "Queen"\n    do "1"\n    expect first(hand of P1).name == "Jack"\n')


def test_force_order_of_a_seat_s_zone_names_the_seat(tmp_path):
    for first, second in (("Ace", "King"), ("King", "Ace")):
        run_shuffles(tmp_path, f'    force order pile of P2 = "{first}", "{second}"\n    do "1"\n'
                               f'    expect top(pile of P2).name == "{first}"\n')


def test_force_order_of_the_removed_zone_takes_effect_when_the_game_shuffles_it(tmp_path):
    # `removed` is every game's, left out of the list of zones an unknown zone's hint gives, but
    # a zone whose order may be forced as any other (language/forcing.py BUILT_IN_ZONES)
    text = (SHUFFLES.replace('to deck\n', 'to removed\n')
            .replace("        shuffle deck\n        draw 1 from deck into hand of P1\n", "        shuffle removed\n"))
    for first, second in (("Queen", "Jack"), ("Jack", "Queen")):
        path = tmp_path / "removed.ludus"
        path.write_text(text + f'    force order removed = "{first}", "{second}"\n    do "1"\n'
                               f'    expect [c.name for c in removed] == ["{first}", "{second}"]\n', encoding="utf-8")
        game = ludus.load(path)
        run_test_decl(game, own_tests(game, path)[0], lambda effect, name, span: None)


def test_force_order_of_a_card_elsewhere_waits_and_fails_the_move_whose_shuffle_cannot_follow_it(tmp_path):
    # 'Ace' lies in pile of P2, and nothing brings it into the deck: the line is taken (a game
    # may gather cards into a zone and shuffle it in one move, next test), and the move that
    # shuffles the deck without it fails, at its own line, naming the order
    with pytest.raises(TestError, match=r"the order forced for the next shuffle of deck \(Ace\) names 'Ace', "
                                        r"and deck does not hold 'Ace' when it is shuffled") as info:
        run_shuffles(tmp_path, '    force order deck = "Ace"\n    do "1"\n')
    assert info.value.message.startswith("'1' failed")
    assert info.value.span.line == 16  # the game's `shuffle deck`


def test_force_order_of_a_card_the_move_gathers_into_the_zone_before_its_shuffle_applies(tmp_path):
    # a round that takes every card back into the deck and shuffles it: the cards are elsewhere
    # when the line is read, and in the deck when it is shuffled
    gathers = SHUFFLES.replace("        shuffle deck\n", "        move pile of P2 to deck\n        shuffle deck\n")
    for card in ("Ace", "King", "Queen"):
        path = tmp_path / "gathers.ludus"
        path.write_text(gathers + f'    force order deck = "{card}"\n    do "1"\n'
                                  f'    expect first(hand of P1).name == "{card}"\n', encoding="utf-8")
        game = ludus.load(path)
        run_test_decl(game, own_tests(game, path)[0], lambda effect, name, span: None)


def test_force_order_of_more_copies_than_the_match_holds_fails_at_its_line(tmp_path):
    # no rule can bring a second Ace: said at the line, as a card the game does not have is
    with pytest.raises(TestError, match="cannot force this order: the match holds 1 'Ace', and the order "
                                        "names it 2 times") as info:
        run_shuffles(tmp_path, '    force order deck = "Ace", "Ace"\n')
    assert info.value.span.line == 22


def test_force_order_of_a_seat_not_at_the_table_fails_at_its_line(tmp_path):
    # P3 is a seat of the game (3 players), but not of this match of 2
    with pytest.raises(TestError, match=r"no seat 'P3' in this match \(its seats are P1, P2\)") as info:
        run_shuffles(tmp_path, '    force order pile of P3 = "Ace"\n')
    assert info.value.span.line == 22


MEMBERS = '''game "Members"
players 2
value colours = ["red", "blue"]
zone discards per colour
zone row per seat and colour
card "Ace"
card "King"
card "Queen"
card "Jack"
setup:
    move [card("Ace"), card("King")] to discards of "red"
    move [card("Queen"), card("Jack")] to row of P2 at "blue"
flow:
    turn P1:
        choose go from [1] "Go on?"
        shuffle discards of "red"
        shuffle row of P2 at "blue"
    end game

test "t":
'''


def test_force_order_names_a_zone_familys_member_as_views_do(tmp_path):
    # as replays and the REPL name it: the family's name and the key, and the seat of one kept per seat
    path = tmp_path / "members.ludus"
    for shared, seats in (("Ace", "Queen"), ("King", "Jack")):
        path.write_text(MEMBERS + f'    force order discards red = "{shared}"\n    force order row blue of P2 = "{seats}"\n'
                        f'    do "1"\n    expect top(discards of "red").name == "{shared}"\n'
                        f'    expect top(row of P2 at "blue").name == "{seats}"\n', encoding="utf-8")
        game = ludus.load(path)
        run_test_decl(game, own_tests(game, path)[0], lambda effect, name, span: None)


DASHED = MEMBERS.replace('["red", "blue"]', '["dark-red", "2nd"]').replace('"red"', '"dark-red"').replace('"blue"', '"2nd"')


def test_force_order_names_a_member_whose_key_holds_a_dash_or_starts_with_a_digit(tmp_path):
    # a key is letters, digits, '_' and '-': written in a test's line as views write it
    path = tmp_path / "dashed.ludus"
    for shared, seats in (("Ace", "Queen"), ("King", "Jack")):
        path.write_text(DASHED + f'    force order discards dark-red = "{shared}"\n    force order row 2nd of P2 = "{seats}"\n'
                        f'    do "1"\n    expect top(discards of "dark-red").name == "{shared}"\n'
                        f'    expect top(row of P2 at "2nd").name == "{seats}"\n', encoding="utf-8")
        game = ludus.load(path)
        run_test_decl(game, own_tests(game, path)[0], lambda effect, name, span: None)


@pytest.mark.parametrize("line, column, message, hint", [
    ('force order discards dark-rde = "Ace"', 26, "zone family 'discards' has no member 'discards dark-rde'",
     "did you mean 'dark-red'?"),
    ('force order row dark+red of P2 = "Ace"', 21, "zone family 'row' has no member 'row dark+red'",
     "did you mean 'dark-red'?"),
    ('force order discards dark - red = "Ace"', 26, "zone family 'discards' has no member 'discards dark - red'",
     "did you mean 'dark-red'?"),
])
def test_a_dashed_key_the_family_lacks_is_an_error_at_the_key(tmp_path, line, column, message, hint):
    path = tmp_path / "dashed.ludus"
    path.write_text(DASHED + f"    {line}\n", encoding="utf-8")
    diags, _checked, _sources = ludus.analyse(path)
    [d] = [d for d in diags if d.severity == "error"]
    assert (d.span.line, d.span.column, d.message, d.hint) == (DASHED.count("\n") + 1, column, message, hint)


def test_a_position_where_an_offer_has_nothing_legal_names_the_offer(tmp_path):
    # the match starts well; the test's position leaves no seat a legal Earn, and the offer has
    # no `else`: the loop goes round asking nothing, and the error says it is the offer's doing
    (tmp_path / "g.ludus").write_text(
        'game "G"\nseats Red, Blue\ncounter coins per seat\naction Earn:\n    require coins of actor < 3\n'
        "    gain 1 coins\nflow:\n    while true:\n        for each s in seats:\n            turn s:\n"
        "                offer Earn\n                if coins of s > 5:\n                    win s\n",
        encoding="utf-8")
    path = tmp_path / "g.tests.ludus"
    path.write_text('extends "g.ludus"\n\ntest "t":\n    given set coins of Red to 3\n    given set coins of Blue to 3\n'
                    '    do "Earn"\n', encoding="utf-8")
    game = ludus.load(path)
    with pytest.raises(TestError, match="it came to this offer .* times, and each time the offer had nothing legal "
                                        "and no 'else', so it asked nothing") as info:
        run_test_decl(game, own_tests(game, path)[0], lambda effect, name, span: None)
    assert info.value.span.path.endswith("g.ludus") and info.value.span.line == 11


def test_rules_that_fail_going_on_name_the_test_line_that_set_them_going(tmp_path):
    # the error is located at the rule's line; which step of the test ran the rules there was
    # left to guess ("going on from here")
    path = tmp_path / "going.ludus"
    path.write_text('game "Going"\nplayers 2\nzone trick\ncard "A"\nvar w start 0\naction Go:\n    log "go"\n'
                    'flow:\n    turn P1:\n        offer Go\n'
                    '    set w to owner_of(first([c for c in trick]))\n    end game\n\n'
                    'test "t":\n    do "Go"\n    run on\n', encoding="utf-8")
    game = ludus.load(path)
    with pytest.raises(TestError) as info:
        run_test_decl(game, own_tests(game, path)[0], lambda effect, name, span: None)
    assert info.value.message == ("the rules failed going on from the test's line 16: "
                                  "'owner_of' needs a card or piece, and the value here is none")
    assert info.value.span.line == 11


ROLLED = '''game "Dice"
players 2
counter rolled
flow:
    roll d100 as r
    set rolled to r
    turn P1:
        choose n from [1, 2] "Go?"
    end game
'''


def test_a_negative_seed_line_plays_the_match_that_seed_deals(tmp_path):
    # `--seed -1`, `restart -1` and a replay's `seed -1` take a negative seed: a test block does too
    path = tmp_path / "t.ludus"
    path.write_text(ROLLED, encoding="utf-8")
    game = ludus.load(path)
    rolled = {seed: game.new_match(seed=seed).state["vars"].get("rolled", 0) for seed in (-1, 0, 1)}
    assert len(set(rolled.values())) == 3       # each seed deals its own roll: the test tells them apart
    path.write_text(ROLLED + f'\ntest "t":\n    seed -1\n    expect rolled == {rolled[-1]}\n', encoding="utf-8")
    diags, _checked, _sources = ludus.analyse(path)
    assert diags == []
    game = ludus.load(path)
    run_test_decl(game, own_tests(game, path)[0], lambda effect, name, span: None)
    # a '+' is no sign a seed takes, as in a replay: a located syntax error
    path.write_text(ROLLED + '\ntest "t":\n    seed +1\n', encoding="utf-8")
    [d] = ludus.analyse(path)[0]
    assert (d.message, d.span.line, d.span.column) == ("unexpected '+'; expected '-' or a number", 12, 10)
