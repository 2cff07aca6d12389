"""Every class of bad input found by fuzzing gets a located error (or a bounded, correct run):
numbers, nesting, sizes, dice, paths, non-ASCII digits, saved matches, the REPL, the step budget.

Each test feeds one class through every door it can come in by (a game file, a REPL line, a
replay, a saved match) and pins the kind of answer, so a regression shows as a traceback here.
"""

from __future__ import annotations

import errno
import json
import os

import pytest

import ludus
from ludus.engine.match import Match
from ludus.language.limits import MAX_NESTING
from ludus.repl.render import track_text
from ludus.replay import ReplayError, load_replay
from ludus.testing import Position, TestError
from tests.helpers import EXAMPLES, game_from_text, repl_on

GAME_PATH = EXAMPLES / "market-town.ludus"
GAME = ludus.load(GAME_PATH)

BASE = """game "T"
players 2
counter n
flow:
    {body}
    end game
"""


def program(tmp_path, body: str, header: str = ""):
    path = tmp_path / "t.ludus"
    path.write_text(header + BASE.format(body=body), encoding="utf-8")
    return path


def errors_of(path) -> list[str]:
    diags, _checked, _sources = ludus.analyse(path)
    return [f"{d.span.line}:{d.span.column}: {d.message}" for d in diags if d.severity == "error"]


def run_flow(tmp_path, body: str):
    game = ludus.load(program(tmp_path, body))
    return game.new_match(2)


def repl_answers(*lines: str, game=GAME, path=GAME_PATH) -> str:
    repl, out = repl_on(game.new_match(2, seed=3), path)
    for line in lines:
        assert repl.handle(line) is not False
    return out.getvalue()


def replay(tmp_path, *lines: str):
    path = tmp_path / "r.replay"
    path.write_text(f"game {GAME_PATH}\nplayers 2\n" + "\n".join(lines) + "\n", encoding="utf-8")
    return load_replay(path)


# ── 1. numbers past Python's int-string limit ──

HUGE = "9" * 4301


def test_a_huge_number_literal_is_a_located_error_in_a_game_file(tmp_path):
    assert errors_of(program(tmp_path, f"set n to {HUGE}")) == [
        "5:14: this number has 4,301 digits; numbers in ludus have at most 15"]


def test_a_huge_number_in_a_repl_expression_or_a_replay_expect_is_one_error(tmp_path):
    assert "at most 15" in repl_answers(f"? {HUGE} + 1")
    with pytest.raises(ReplayError, match="at most 15"):
        replay(tmp_path, f"expect coins of Amber == {HUGE}").run()


def test_a_counter_that_grows_past_the_range_stops_with_a_rule_error(tmp_path):
    with pytest.raises(ludus.RuleError, match="outside the numbers ludus allows") as err:
        run_flow(tmp_path, "set n to 2\n    repeat 60 times:\n        set n to n * n")
    assert err.value.span is not None and err.value.span.line == 7


def test_a_saved_match_with_a_5000_digit_number_is_refused():
    text = GAME.new_match(2).to_json().replace('"seed": 0', '"seed": ' + "7" * 5000)
    with pytest.raises(ludus.MatchError):
        Match.from_json(GAME, text)


# ── 2. deep nesting ──


def test_deep_parentheses_and_long_chains_are_nested_too_deeply(tmp_path):
    assert errors_of(program(tmp_path, "set n to " + "(" * 3000 + "1" + ")" * 3000))[0].endswith(
        "nested too deeply: the limit is 100 levels of parentheses, operators and blocks")
    chain = " and ".join(["true"] * 3000)
    assert "nested too deeply" in errors_of(program(tmp_path, f"if {chain}:\n        set n to 1"))[0]


def test_nesting_just_under_the_limit_still_runs(tmp_path):
    depth = MAX_NESTING - 20  # the expression sits a few levels into the file
    match = run_flow(tmp_path, "set n to " + "(" * depth + "1 + 1" + ")" * depth)
    assert match.state["vars"]["n"] == 2
    chain = " + ".join(["1"] * (MAX_NESTING - 20))
    assert run_flow(tmp_path, f"set n to {chain}").state["vars"]["n"] == MAX_NESTING - 20


def test_deep_nesting_in_a_repl_line_a_replay_and_a_saved_match(tmp_path):
    assert "nested too deeply" in repl_answers("? " + "(" * 3000 + "1" + ")" * 3000)
    with pytest.raises(ReplayError, match="nested too deeply"):
        replay(tmp_path, "expect " + " and ".join(["true"] * 3000)).run()
    with pytest.raises(ludus.MatchError):
        Match.from_json(GAME, "[" * 100_000 + "]" * 100_000)


def test_a_chain_of_two_hundred_thousand_terms_stops_at_the_term_past_the_limit(tmp_path):
    """The nesting is watched as the tokens are read: a 4 MiB `1+1+...` took a minute and 2 GB
    before lark had built the tree the limit was checked on. Each door says where it stops: at
    the 99th `1`, column 197 of the expression."""
    chain = "+".join(["1"] * 200_000)
    too_deep = f"nested too deeply: the limit is {MAX_NESTING} levels of parentheses, operators and blocks"
    assert errors_of(program(tmp_path, f"set n to {chain}")) == [f"5:{13 + 197}: {too_deep}"]
    assert f"error: column {2 + 197}: {too_deep}" in repl_answers("? " + chain)  # counted in the line as typed
    with pytest.raises(ReplayError) as err:
        replay(tmp_path, "expect " + chain).run()
    assert str(err.value) == f"{tmp_path / 'r.replay'}:3:{7 + 197}: error: {too_deep}"
    test_block = f'test "t":\n    expect {chain}\n'  # a test's line, as `ludus test` reads it
    path = tmp_path / "t.ludus"
    path.write_text(BASE.format(body="pass") + test_block, encoding="utf-8")
    assert errors_of(path) == [f"8:{11 + 197}: {too_deep}"]
    from ludus.lsp.workspace import Workspace  # the language server analyses on every edit

    workspace = Workspace()
    workspace.open(str(path), path.read_text(encoding="utf-8"))
    found = [(d.span.line, d.span.column, d.message) for ds in workspace.analyse(str(path)).diagnostics.values()
             for d in ds if d.severity == "error"]
    assert found == [(8, 11 + 197, too_deep)]


def test_a_hole_left_open_in_a_repl_line_a_replay_or_a_python_test_is_a_located_error(tmp_path):
    """A text's holes are parsed as the text is built, inside lark, which wraps the error: a REPL
    line answered "internal error", a replay's `expect` ended in a traceback, at the wrong line."""
    text = repl_answers('? "a{n"', 'expect "{" == "x"', '? "{}"')
    assert "internal error" not in text
    # columns count in the line as typed, the command word included
    assert text.count("error: column 5: '{' opens a hole that is never closed with '}'") == 1
    assert text.count("error: column 9: '{' opens a hole that is never closed with '}'") == 1
    assert "error: column 5: unexpected '}'; expected an expression" in text
    with pytest.raises(ReplayError) as err:
        replay(tmp_path, "", 'expect 1 == 1 and "ab{cd" == ""').run()
    assert str(err.value) == f"{tmp_path / 'r.replay'}:4:22: error: '{{' opens a hole that is never closed with '}}'"
    pos = Position(GAME, 2)
    with pytest.raises(TestError, match="never closed") as err:
        pos.expect('"{" == ""')
    assert (err.value.span.line, err.value.span.column) == (1, 2)
    with pytest.raises(TestError, match="never closed"):
        pos.given('set mood to size("{")')


# ── 3. huge sizes, and 4. odd dice ──


@pytest.mark.parametrize("body, header, message", [
    ("set n to 1", "", None),
    ("repeat 1000000000000 times:\n        increase n by 1", "", "1,000,000,000,000 repeats"),
    ("for x in 1 to 1000000000000:\n        increase n by 1", "", "numbers in a range"),
    ("roll die 0 as r", "", "a die has 1 to 1,000,000 faces, not 0"),
    ("roll d0 as r", "", "a die has 1 to 1,000,000 faces, not 0"),
    ("choose k from 1 to 1000000000000\n    set n to k", "", "options in one decision: at most 10,000"),
])
def test_constant_sizes_over_a_limit_are_check_errors(tmp_path, body, header, message):
    found = errors_of(program(tmp_path, body, header))
    assert (found == []) if message is None else any(message in e for e in found), found


def test_a_huge_player_count_does_not_make_the_checker_name_every_seat(tmp_path):
    """Found by the fuzzer: the checker listed P1 ... P1000000000000 to look up `seats`."""
    path = tmp_path / "many.ludus"
    path.write_text('game "M"\nplayers 1000000000000\nflow:\n    win item(seats, 1)\n', encoding="utf-8")
    assert errors_of(path) == ["2:1: a game has at most 64 players, not 1,000,000,000,000"]


def test_players_copies_and_tracks_are_bounded_at_check_time(tmp_path):
    path = tmp_path / "big.ludus"
    path.write_text('game "B"\nplayers 2 to 1000000000000\nkind Thing:\n    worth: number = 0\n'
                    'card "Gem" is Thing:\n    copies 99999999\n'
                    "track mood from 0 to 10000000 start 0\nflow:\n    end game\n", encoding="utf-8")
    found = " | ".join(errors_of(path))
    assert "at most 64 players" in found
    assert "at most 10,000 copies" in found
    assert "a track has at most 100,000" in found


@pytest.mark.parametrize("body, message", [
    ("set n to 1000000000000\n    repeat n times:\n        increase n by 1", "at most 1,000,000 can be built"),
    ("set n to 1000000000000\n    for x in 1 to n:\n        increase n by 1", "at most 1,000,000 can be built"),
    ("set n to 0 - 5\n    roll die n as r", "a die has 1 to 1,000,000 faces, not -5"),
    ("set n to 999999999999999\n    roll die n as r", "a die has 1 to 1,000,000 faces"),
    ("set n to 5000\n    set n to sum(count(x for x in range(1, n)) for y in range(1, n))", "built more than 5,000,000 values"),
])
def test_sizes_known_only_at_run_time_are_rule_errors(tmp_path, body, message):
    with pytest.raises(ludus.RuleError, match=message) as err:
        run_flow(tmp_path, body)
    assert err.value.span is not None  # located, like every rule error


def test_a_choice_among_too_many_numbers_is_a_rule_error(tmp_path):
    path = program(tmp_path, "set n to 1000000000000\n    choose k from 1 to n\n    set n to k")
    with pytest.raises(ludus.RuleError, match="at most 10,000"):
        ludus.load(path).new_match(2)


# ── 5. paths ──


def test_include_paths_with_nul_devices_and_fifos_are_errors(tmp_path):
    (tmp_path / "nul.ludus").write_bytes(b'include "a\x00b.ludus"\n' + BASE.format(body="set n to 1").encode())
    assert "contains a NUL character" in errors_of(tmp_path / "nul.ludus")[0]
    (tmp_path / "dev.ludus").write_text('include "/dev/zero"\n' + BASE.format(body="set n to 1"), encoding="utf-8")
    assert "it is not a regular file" in errors_of(tmp_path / "dev.ludus")[0]
    os.mkfifo(tmp_path / "pipe")
    (tmp_path / "fifo.ludus").write_text('include "pipe"\n' + BASE.format(body="set n to 1"), encoding="utf-8")
    assert "it is not a regular file" in errors_of(tmp_path / "fifo.ludus")[0]
    assert "characters long" in errors_of("x/" * 3000 + "g.ludus")[0]
    # an empty path named the including file's folder: "cannot read '': it is a folder"
    (tmp_path / "empty.ludus").write_text('include ""\n' + BASE.format(body="set n to 1"), encoding="utf-8")
    assert errors_of(tmp_path / "empty.ludus") == ["1:1: the path is empty"]


def test_repl_file_commands_and_replay_game_paths_refuse_bad_paths(tmp_path):
    text = repl_answers("save a\x00b", "load a\x00b", "export a\x00b.replay", "load /dev/zero", "save " + "y" * 5000)
    assert text.count("contains a NUL character") == 3
    assert "it is not a regular file" in text and "characters long" in text
    path = tmp_path / "r.replay"
    path.write_text("game a\x00b.ludus\nplayers 2\n", encoding="utf-8")
    with pytest.raises(ReplayError, match="NUL character"):
        load_replay(path).run()
    with pytest.raises(ReplayError, match="NUL character"):
        load_replay(tmp_path / "r\x00.replay")


def test_a_symbolic_link_that_leads_round_in_a_loop_is_an_error_not_a_traceback(tmp_path):
    """Before Python 3.13, Path.resolve raises RuntimeError for a link loop, which no `except
    OSError` caught: `ludus check`, `play`, `cards`, `simulate` of such a file (or of a game that
    includes one) and `simulate --json` to one ended in a traceback, and the language server
    published no diagnostics for a buffer that included one."""
    from click.testing import CliRunner

    from ludus.cli import main
    from ludus.lsp.workspace import Workspace

    (tmp_path / "a.ludus").symlink_to("b.ludus")
    (tmp_path / "b.ludus").symlink_to("a.ludus")
    (tmp_path / "game.ludus").write_text('include "a.ludus"\n' + BASE.format(body="set n to 1"), encoding="utf-8")
    (tmp_path / "out.json").symlink_to("out.json")
    loop = os.strerror(errno.ELOOP)  # "Too many levels of symbolic links"
    runner = CliRunner()
    for args in (["check", "a.ludus"], ["play", "a.ludus"], ["cards", "a.ludus"], ["simulate", "a.ludus", "-n", "1"]):
        run = runner.invoke(main, [args[0], str(tmp_path / args[1]), *args[2:]])
        assert run.exit_code == 1 and isinstance(run.exception, (SystemExit, type(None))), run.output
        assert f"a.ludus:1:1: error: cannot read '{tmp_path / 'a.ludus'}': {loop}" in run.output, run.output
    run = runner.invoke(main, ["check", str(tmp_path / "game.ludus")])
    assert f"game.ludus:1:9: error: cannot read 'a.ludus': {loop}" in run.output, run.output
    run = runner.invoke(main, ["simulate", str(GAME_PATH), "-n", "1", "-w", "1", "--json", str(tmp_path / "out.json")])
    assert run.exit_code == 2 and "it is a symbolic link that leads round in a loop" in run.output, run.output
    ws = Workspace()
    analysis = ws.analyse(str(tmp_path / "game.ludus"))
    assert [d.message for ds in analysis.diagnostics.values() for d in ds] == [f"cannot read 'a.ludus': {loop}"]
    # a buffer open under the loop's own name (the editor has its text) is analysed from that text
    ws.open(str(tmp_path / "a.ludus"), BASE.format(body="set n to 1"))
    assert ws.hover(str(tmp_path / "a.ludus"), 2, 9).startswith("**n**: counter")


# ── 6. digits that are not ASCII ──


def test_unicode_digits_are_not_numbers(tmp_path):
    text = repl_answers("²", "log ²", "force d6 = ²", "force d² = 1")
    assert "error: log takes" not in text  # each is answered on its own line, none crashes
    assert text.count("error:") == 4
    with pytest.raises(ReplayError, match="'players' needs a number"):
        path = tmp_path / "u.replay"
        path.write_text(f"game {GAME_PATH}\nplayers ²\n", encoding="utf-8")
        load_replay(path)


# ── 7. saved matches ──


def saved(**changes) -> str:
    data = json.loads(GAME.new_match(2, seed=1).to_json())
    for key, value in changes.items():
        if key.startswith("state."):
            data["state"][key[6:]] = value
        else:
            data[key] = value
    return json.dumps(data)


@pytest.mark.parametrize("text", [
    saved(seed=float("inf")).replace("Infinity", "Infinity"),
    saved(seed="1"),
    saved(**{"state.ents": [{"d": "No Such Card", "o": None, "l": "box"}]}),
    saved(**{"state.ents": [{"d": 5, "o": None, "l": "box"}]}),
    saved(**{"state.nseats": 40}),
    saved(**{"state.vars": {"nothing": 1}}),
    saved(**{"state.places": {"deck@0": [0, 0]}}),
    saved(**{"state.pending": {"kind": "offer", "seat": 7, "prompt": "x", "options": ["a"]}}),
    saved(**{"state.tokens": {"Stall|9|x": 1}}),
    saved(**{"state.rng": -1}),
    saved(**{"state.stack": [{"c": "flow", "pc": 10**9, "env": {}}]}),
    saved(log=[1, 2]),
    saved(moves=[None]),
])
def test_damaged_saved_matches_are_match_errors(text):
    with pytest.raises(ludus.MatchError, match="damaged|not a saved match"):
        Match.from_json(GAME, text)


def test_a_whole_saved_match_still_loads_and_plays_on():
    match = GAME.new_match(2, seed=1)
    for _ in range(10):
        match.apply(match.legal_actions()[-1])
    back = Match.from_json(GAME, match.to_json())
    assert back.to_json() == match.to_json()
    back.apply(back.legal_actions()[0])


# ── 8. the REPL: any line gets one answer; drawing is bounded ──


def test_redo_after_a_bot_moved_is_refused_and_changes_nothing():
    repl, out = repl_on(GAME.new_match(2, seed=3), GAME_PATH)
    for line in ("1", "build nothing", "undo"):
        repl.handle(line)
    before = repl.match.to_json()
    repl.match.apply(repl.match.legal_actions()[-1])  # someone else moves before the redo
    moved = repl.match.to_json()
    assert before != moved
    repl.handle("redo")
    assert "cannot redo" in out.getvalue()
    assert repl.match.to_json() == moved


def test_a_track_of_two_trillion_spaces_draws_in_one_short_line():
    track = {"low": 0, "high": 2_000_000_000_000, "pos": 1_000_000, "zones": {"Far": [999_990, 1_000_010]}, "tokens": {}}
    text = track_text("long", track).plain
    assert len(text) < 400
    assert "(1000000)" in text and "… 2000000000000" in text and "(in Far)" in text


# ── 10. hidden information: a token on a hidden card ──

HIDDEN_HAND = """game "H"
players 2
token Marker
kind Secret:
    worth: number = 0
card "Crown Jewel" is Secret:
    copies 1
zone hand per seat owner only
flow:
    move top(box, 1) to hand of item(seats, 2)
    add 1 Marker to first(hand of item(seats, 2))
    turn item(seats, 1):
        choose x from [1, 2]
    end game
"""


def test_a_token_on_a_card_in_another_seats_hidden_hand_is_not_in_its_view(tmp_path):
    match = game_from_text(tmp_path, HIDDEN_HAND).new_match(2)
    assert "Crown Jewel" not in json.dumps(match.view(0))
    assert "Crown Jewel" in json.dumps(match.view(1))  # its owner sees the card and the token on it
    assert "Crown Jewel" in json.dumps(match.view(None))


# ── 11. an endless loop in the flow ──


def test_an_endless_while_in_the_flow_names_its_line(tmp_path):
    with pytest.raises(ludus.RuleError, match="loop forever") as err:
        run_flow(tmp_path, "while true:\n        increase n by 1")
    assert str(err.value).startswith(f"{tmp_path / 't.ludus'}:6:9:")  # the line inside the loop


def test_a_damaged_decision_is_refused_when_the_save_loads():
    """Found by the fuzzer: a saved offer naming an action that does not exist loaded, then
    crashed with a KeyError when answered. An action that exists given a card that does not
    exist loaded too, and failed only when the action ran; the decision waiting is now asked
    again as the save loads (match.py `_asked_again`), and must be the one saved."""
    data = json.loads(GAME.new_match(2, seed=3).to_json())
    pending = data["state"]["pending"]
    assert pending["kind"] == "offer"
    pending["values"] = [[v[0], [99_999]] if v else v for v in pending["values"]]
    with pytest.raises(ludus.MatchError, match="the pending decision's 'values' is not what the rules ask"):
        Match.from_json(GAME, json.dumps(data))
