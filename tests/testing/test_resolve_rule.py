"""A test's `resolve RULE(ARGS)` line and Position.resolve_rule: a rule's effect alone, as a step
reported in the next snapshot, its decisions answered by `answer` lines."""

from __future__ import annotations

import copy

import pytest
from click.testing import CliRunner

import ludus
from ludus.cli import main
from ludus.language.source import LudusError
from ludus.testing import Position, TestError
from ludus.testing.blocks import own_tests, run_test_decl
from tests.helpers import EXAMPLES, no_crash

RULES = '''
rule deal(s: seat, n: number):
    gain n coins for s
    log "{s} is dealt {n}"

rule asks:
    choose q from quarters "Which quarter?"
    add 1 Stall to q

rule mine:
    gain 2 coins

rule finish:
    win Basil

rule bad(k: number):
    log "dividing by {k}"
    gain 10 / k coins

'''
HEAD = f'extends "{(EXAMPLES / "market-town.ludus").as_posix()}"\n{RULES}'
LINE = HEAD.count("\n") + 2  # the line of a test's first line, after `test "t":`


def write(tmp_path, body: str):
    path = tmp_path / "t.ludus"
    path.write_text(f'{HEAD}test "t":\n{body}', encoding="utf-8")
    return path


def run(tmp_path, body: str) -> list[str]:
    """Run one test block; return the reports its snapshot lines saw."""
    path = write(tmp_path, body)
    game = ludus.load(path)
    seen = []
    run_test_decl(game, own_tests(game, path)[0], lambda effect, name, span: seen.append(effect.report()))
    return seen


def check_errors(tmp_path, body: str) -> list[tuple[int, int, int, str, str | None]]:
    """`ludus check`'s errors for a test block: (line, column, end column, message, hint)."""
    with pytest.raises(LudusError) as info:
        ludus.load(write(tmp_path, body))
    return [(d.span.line, d.span.column, d.span.end_column, d.message, d.hint) for d in info.value.diagnostics
            if d.severity == "error"]


def test_a_rule_resolved_with_arguments_is_reported_as_a_step(tmp_path):
    seen = run(tmp_path, "    resolve deal(Basil, 3)\n    expect coins of Basil == 3\n    snapshot\n")
    assert seen == ["rule deal(Basil, 3), called for Amber\n"
                    "log:\n  Basil is dealt 3\n"
                    "changes:\n  counter coins of Basil: 0 -> 3\n"]


def test_for_names_the_current_seat_of_the_rule_and_without_it_the_seat_deciding_now(tmp_path):
    seen = run(tmp_path, "    resolve mine() for Basil\n    snapshot\n    resolve mine()\n    snapshot\n")
    assert seen == ["rule mine(), called for Basil\nchanges:\n  counter coins of Basil: 0 -> 2\n",
                    "rule mine(), called for Amber\nchanges:\n  counter coins of Amber: 3 -> 5\n"]


def test_a_decision_inside_the_rule_waits_then_is_answered_by_an_answer_line(tmp_path):
    seen = run(tmp_path, '    resolve asks() for Basil\n    snapshot\n    answer "Hill"\n'
                         '    expect Stall of Basil at Hill == 1\n    snapshot\n')
    assert seen == ["rule asks(), called for Basil\nchanges:\n  (nothing changed)\n"
                    "waiting: Basil: Which quarter?  (options: Docks, Square, Hill)\n",
                    "rule asks(), called for Basil\n"
                    "decisions:\n  Basil: Which quarter? -> Hill  (options: Docks, Square, Hill)\n"
                    "changes:\n  token Basil Stall at Hill: 0 -> 1\n"]


def test_the_flow_s_decision_is_asked_again_after_the_rule_with_options_that_follow_it(tmp_path):
    # Amber holds 3 coins: a Guild Charter (6) is not for sale until the rule deals her 3 more
    run(tmp_path, '    expect not legal "buy Guild Charter"\n    resolve deal(Amber, 3)\n'
                  '    expect legal "buy Guild Charter"\n    do "buy Guild Charter"\n    expect fame of Amber == 3\n')


def test_score_quarters_pays_a_single_leader_and_not_a_tie(tmp_path):
    seen = run(tmp_path, "    given add 1 Stall of Amber to Docks\n    given add 1 Stall of Basil to Docks\n"
                         "    given add 2 Stall of Basil to Square\n    resolve score_quarters()\n    snapshot\n")
    assert seen == ["rule score_quarters(), called for Amber\nchanges:\n  counter fame of Basil: 0 -> 3\n"]


def test_check_errors_of_a_rule_call_are_located_and_say_what_to_write(tmp_path):
    body = ("    resolve score_quarter()\n"
            "    resolve deal(Basil)\n"
            "    resolve deal(Basil, Amber)\n"
            "    resolve stalls(Amber, Docks)\n"
            "    resolve Buy(Docks)\n"
            "    resolve size(seats)\n"
            "    resolve mine() for Bazil\n")
    assert check_errors(tmp_path, body) == [
        (LINE, 13, 26, "unknown rule 'score_quarter'", "did you mean 'score_quarters'?"),
        (LINE + 1, 13, 24, "rule 'deal' takes 2 argument(s), not 1", None),
        (LINE + 2, 25, 30, "rule 'deal' takes a number as 'n', and this is a seat", None),
        (LINE + 3, 13, 19, "'stalls' is a define, not a rule: it works out a value and changes nothing, "
                           "so there is no effect to resolve", "check its value with `expect stalls(...) == ...`"),
        (LINE + 4, 13, 16, "'Buy' is an action, not a rule: a test takes an action as a player would, "
                           "when the rules offer it", 'take it with `do "buy …"` (its label)'),
        (LINE + 5, 13, 17, "'size' is a built-in function, not a rule: it works out a value and changes nothing",
         None),
        (LINE + 6, 24, 29, "unknown seat 'Bazil'", "did you mean 'Basil'?"),
    ]


def test_ludus_check_and_ludus_test_report_a_bad_rule_call_at_its_line(tmp_path):
    path = write(tmp_path, "    resolve score_quarter()\n")
    where = f"{path}:{LINE}:13: error: unknown rule 'score_quarter'"
    checked = CliRunner().invoke(main, ["check", str(path)])
    assert checked.exit_code == 1 and where in checked.output and "did you mean 'score_quarters'?" in checked.output
    tested = CliRunner().invoke(main, ["test", str(path)])
    assert tested.exit_code == 1 and where in tested.output and no_crash(tested)


def test_a_call_without_its_parentheses_is_a_syntax_error_at_the_line(tmp_path):
    with pytest.raises(LudusError, match="expected '\\('") as info:
        ludus.load(write(tmp_path, "    resolve score_quarters\n"))
    assert info.value.diagnostics[0].span.line == LINE


def test_a_rule_that_fails_as_it_runs_fails_at_its_line_and_changes_nothing(tmp_path):
    with pytest.raises(TestError, match=r"the rule bad\(0\) failed: division by zero") as info:
        run(tmp_path, "    resolve bad(0)\n")
    assert info.value.span.line == RULES.splitlines().index("    gain 10 / k coins") + 2
    game = ludus.load(write(tmp_path, "    expect true\n"))
    pos = Position(game, 2)
    pos.resolve_rule("deal(Basil, 1)")  # a rule that does its work, then one that fails
    state, log = copy.deepcopy(pos.match._state), list(pos.match.log)
    with pytest.raises(TestError, match="division by zero"):
        pos.resolve_rule("bad(0)")
    assert pos.match._state == state and pos.match.log == log
    pos.resolve_rule("deal(Amber, 1)")  # and the position goes on from where it was
    assert pos.effect().report().endswith("changes:\n  counter coins of Amber: 3 -> 4\n  counter coins of Basil: 0 -> 1\n")


def test_a_rule_that_ends_the_match_ends_it_and_nothing_is_resolved_after(tmp_path):
    seen = run(tmp_path, "    resolve finish()\n    expect winner Basil\n    snapshot\n")
    assert seen[0].startswith("rule finish(), called for Amber\nchanges:\n")
    with pytest.raises(TestError, match=r"cannot resolve score_quarters\(\): the match is over \(Basil wins"):
        run(tmp_path, "    resolve finish()\n    resolve score_quarters()\n")



def test_a_rule_resolved_right_after_an_action_runs_as_the_match_is_not_over(tmp_path):
    # after `do`, the flow waits with no decision asked until the next step: that is no end
    seen = run(tmp_path, '    do "buy nothing"\n    report from here\n    resolve mine()\n    snapshot\n')
    assert seen == ["rule mine(), called for Amber\nchanges:\n  counter coins of Amber: 3 -> 5\n"]


# ── the Python API ──

GAME = ludus.load(EXAMPLES / "market-town.ludus")


def test_position_resolve_rule_runs_a_rule_as_the_test_line_does():
    pos = Position(GAME, 2)
    pos.given("add 2 Stall of Basil to Square")
    pos.resolve_rule("score_quarters()", "Basil")
    pos.expect("fame of Basil == 3")
    assert pos.effect().report() == "rule score_quarters(), called for Basil\nchanges:\n  counter fame of Basil: 0 -> 3\n"
    assert pos.match.pending["prompt"] == "Amber: take an action"  # the flow's own decision, asked again


def test_a_call_written_over_lines_is_named_on_one_line_as_the_rules_write_it():
    # a Python caller may break a call over lines, with a comment: the step's title reads it whole,
    # with no gap just inside its brackets and no comment
    pos = Position(GAME, 2)
    pos.resolve_rule("refill_market(\n    )")
    assert pos.effect().report().splitlines()[0] == "rule refill_market(), called for Amber"
    pos.resolve_rule("score_quarters(  # after the round\n)", "Basil")
    assert pos.effect().report().splitlines()[0] == "rule score_quarters(), called for Basil"


@pytest.mark.parametrize(("call", "message"), [
    ("score_quarter()", "<resolve>:1:1: error: unknown rule 'score_quarter'\n    hint: did you mean 'score_quarters'?"),
    ("score_quarters(Amber)", "<resolve>:1:1: error: rule 'score_quarters' takes 0 argument(s), not 1"),
    ("stalls(Amber, Docks)", "<resolve>:1:1: error: 'stalls' is a define, not a rule"),
    ("Build(Docks)", "<resolve>:1:1: error: 'Build' is an action, not a rule"),
    ("score_quarters", "<resolve>:1:15: error: unexpected end of line; expected '('"),
    ("set fame of Amber to 3", "<resolve>:1:1: error: 'resolve' takes one call of a rule, as the rules write it"),
    ("refill_market(); score_quarters()", "<resolve>:1:16: error: unexpected character ';'"),
])
def test_position_resolve_rule_refuses_what_is_not_one_call_of_a_rule(call, message):
    pos = Position(GAME, 2)
    with pytest.raises(TestError) as info:
        pos.resolve_rule(call)
    assert str(info.value).startswith(message), str(info.value)


def test_arguments_that_fail_as_they_are_worked_out_fail_at_the_call(tmp_path):
    with pytest.raises(TestError, match=r"the arguments of deal\(Basil, 10 / \(size\(seats\) - 2\)\) failed: "
                                        "division by zero") as info:
        run(tmp_path, "    resolve deal(Basil, 10 / (size(seats) - 2))\n")
    assert (info.value.span.line, info.value.span.column) == (LINE, 13)
    with pytest.raises(TestError) as info:
        Position(ludus.load(write(tmp_path, "    expect true\n")), 2).resolve_rule("deal(Basil, 1 / 0)")
    assert str(info.value).startswith("<resolve>:1:1: error: the arguments of deal(Basil, 1 / 0) failed: division by zero")


def test_position_resolve_rule_checks_the_types_of_the_arguments(tmp_path):
    game = ludus.load(write(tmp_path, "    expect true\n"))
    with pytest.raises(TestError, match="rule 'deal' takes a seat as 's', and this is a number") as info:
        Position(game, 2).resolve_rule("deal(3, 3)")
    assert (info.value.span.line, info.value.span.column) == (1, 6)


def test_resolving_a_rule_while_an_effect_waits_is_refused(tmp_path):
    game = ludus.load(write(tmp_path, "    expect true\n"))
    pos = Position(game, 2)
    pos.resolve_rule("asks()", "Basil")
    with pytest.raises(TestError, match=r"the effect of rule asks\(\), called for Basil is still waiting"):
        pos.resolve_rule("mine()")
    with pytest.raises(TestError, match="still waiting"):
        pos.resolve("Fortune Teller")
    pos.answer("Docks")
    pos.resolve_rule("mine()")


def test_pytest_runs_a_rule_s_test_block_stores_its_snapshot_and_reports_a_failing_rule(tmp_path):
    from tests.testing.test_pytest_plugin import crash_free, pytest_in

    write(tmp_path, "    resolve score_quarters()\n    snapshot\n")
    path = tmp_path / "t.ludus"
    path.write_text(path.read_text(encoding="utf-8") + 'test "fails":\n    resolve bad(0)\n', encoding="utf-8")
    update = pytest_in(tmp_path, "t.ludus", "--snapshot-update")
    assert "1 failed, 1 passed" in update.stdout and crash_free(update.stdout), update.stdout
    assert f"t.ludus:{RULES.splitlines().index('    gain 10 / k coins') + 2}:5: error: the rule bad(0) failed: " \
           "division by zero" in update.stdout
    stored = tmp_path / "__snapshots__" / "t" / "t.txt"
    assert stored.read_text(encoding="utf-8") == "rule score_quarters(), called for Amber\nchanges:\n  (nothing changed)\n"
    assert "1 snapshot passed" in pytest_in(tmp_path, "t.ludus").stdout
