"""The command line, through click's CliRunner: exit codes, output, and no tracebacks."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from ludus.cli import MAX_GAMES, MAX_RUN_SEED, main
from ludus.language.limits import MAX_NUMBER
from ludus.replay import parse
from ludus.simulation.records import match_seeds
from tests.helpers import EXAMPLES, GAMES, no_crash

CLEAN = 'game "Clean"\nplayers 2\ncounter n\nflow:\n    increase n by 1\n    win P1\n'
WARNS = 'game "Warns"\nplayers 2\nvalue unused = 3\nflow:\n    win P1\n'
BROKEN = 'game "Broken"\nplayers 2\nvalue unused = 3\nflow:\n    gain 1 monye\n    win P1\n'


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def write(tmp_path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_check_a_clean_file(tmp_path):
    result = run("check", write(tmp_path, "clean.ludus", CLEAN))
    assert result.exit_code == 0
    assert result.output.strip().endswith("clean.ludus: 0 errors, 0 warnings")


def test_check_errors_exit_1_with_located_messages(tmp_path):
    path = write(tmp_path, "broken.ludus", BROKEN)
    result = run("check", path)
    assert result.exit_code == 1
    assert f"{path}:5:12: error: unknown counter 'monye'" in result.output
    assert "        gain 1 monye\n" in result.output and "               ^^^^^\n" in result.output
    assert f"{path}:3:7: warning: value 'unused' is never used" in result.output
    assert "1 error, 1 warning" in result.output
    assert no_crash(result)


def test_warnings_pass_unless_strict(tmp_path):
    path = write(tmp_path, "warns.ludus", WARNS)
    assert run("check", path).exit_code == 0
    strict = run("check", "--strict", path)
    assert strict.exit_code == 1
    assert "warning: value 'unused' is never used" in strict.output


def test_quiet_prints_errors_only(tmp_path):
    result = run("check", "--quiet", write(tmp_path, "broken.ludus", BROKEN))
    assert result.exit_code == 1
    assert "unknown counter 'monye'" in result.output
    assert "never used" not in result.output


def test_check_several_files_fails_if_any_fails(tmp_path):
    result = run("check", write(tmp_path, "clean.ludus", CLEAN), write(tmp_path, "broken.ludus", BROKEN))
    assert result.exit_code == 1
    assert "clean.ludus: 0 errors" in result.output and "broken.ludus: 1 error" in result.output


def test_check_a_missing_file_is_a_clean_message(tmp_path):
    result = run("check", str(tmp_path / "nope.ludus"))
    assert result.exit_code == 1
    assert "cannot read" in result.output and "No such file or directory" in result.output
    assert no_crash(result)
    assert isinstance(result.exception, SystemExit)  # click's clean exit, not a crash


def test_check_an_empty_file_names_the_file(tmp_path):
    # a game-wide error has no line, but it has a file: the one checked, never '<game>'
    empty = write(tmp_path, "empty.ludus", "")
    result = run("check", empty)
    assert result.exit_code == 1
    assert f"{empty}:1:1: error: the file is empty: a game needs at least a 'flow:' block" in result.output
    comment = write(tmp_path, "comment.ludus", "# a game, one day\n\n")
    result = run("check", comment)
    assert result.exit_code == 1
    assert f"{comment}:1:1: error: the game has no 'flow:' block, so a match cannot start" in result.output
    assert "<game>" not in result.output


def test_check_a_syntax_error(tmp_path):
    result = run("check", write(tmp_path, "syntax.ludus", 'game "S"\nflow:\n    log \'hi\'\n'))
    assert result.exit_code == 1
    assert "3:9: error: unexpected character \"'\"; strings use double quotes" in result.output


def test_simulate_prints_a_report():
    result = run("simulate", str(EXAMPLES / "market-town.ludus"), "--games", "3", "--seed", "1")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("Market Town: 3 matches, 2 players, ")
    assert any(line.startswith("  wins ") for line in lines)
    assert "  errors: 0" in lines
    assert any(line.startswith("  speed: ") and "decisions/s" in line for line in lines)


def test_simulate_a_broken_file_exits_1_without_traceback(tmp_path):
    result = run("simulate", write(tmp_path, "broken.ludus", BROKEN), "--games", "2")
    assert result.exit_code == 1
    assert "unknown counter 'monye'" in result.output
    assert isinstance(result.exception, SystemExit)


def test_simulate_a_missing_file(tmp_path):
    result = run("simulate", str(tmp_path / "nope.ludus"))
    assert result.exit_code == 1
    assert "cannot read" in result.output
    assert isinstance(result.exception, SystemExit)


def test_simulate_rejects_a_player_count_the_game_does_not_allow():
    result = run("simulate", str(EXAMPLES / "market-town.ludus"), "--games", "1", "--players", "9")
    assert result.exit_code == 2
    assert "Market Town is for 2 to 4 players, not 9" in result.output


COIN = """game "Coin"
players 2
flow:
    roll d3 as r
    if r == 1:
        win item(seats, 1)
    elif r == 2:
        win seats
    end game
"""


def test_simulate_counts_shared_wins_and_no_winner_apart_and_they_add_up(tmp_path):
    path = tmp_path / "coin.ludus"
    path.write_text(COIN, encoding="utf-8")
    result = run("simulate", str(path), "--games", "300", "--seed", "2")
    assert result.exit_code == 0, result.output
    out = result.output
    sole = int(re.search(r"wins P1: (\d+)", out).group(1))
    shared = int(re.search(r"shared wins: (\d+) \(", out).group(1))
    nobody = int(re.search(r"no winner: (\d+)", out).group(1))
    assert "wins P2" not in out  # P2 only ever wins together with P1
    assert re.search(rf"P1 in {shared}, P2 in {shared}", out)
    assert sole + shared + nobody == 300 and min(sole, shared, nobody) > 50


def test_simulate_refuses_a_negative_number_of_games_and_h_is_help():
    result = run("simulate", str(EXAMPLES / "market-town.ludus"), "-n", "-5")
    assert result.exit_code == 2 and "-5 is not in the range" in result.output
    helped = run("-h")
    assert helped.exit_code == 0 and "Usage: " in helped.output and "simulate" in helped.output


def test_check_leads_a_part_to_its_game_and_opens_folders():
    vfw = EXAMPLES.parent / "games" / "votes-for-women"
    part = run("check", str(vfw / "rules.ludus"))
    assert part.exit_code == 0, part.output
    assert "rules.ludus is part of" in part.output and "votes-for-women.ludus: 0 errors" in part.output
    every = run("check", *sorted(str(p) for p in vfw.glob("*.ludus")))
    assert every.exit_code == 0, every.output
    assert every.output.count("votes-for-women.ludus: 0 errors") == 1  # the game once, not once per part
    folder = run("check", str(EXAMPLES))
    assert folder.exit_code == 0, folder.output
    for name in ("market-town.ludus", "market-town.tests.ludus", "uprising-great-country.ludus"):
        assert f"{name}: 0 errors" in folder.output


def test_every_shipped_game_checks_without_a_warning():
    # the shipped games are what designers copy: a warning there (a `choose` of a bare number
    # with no question, say) is a habit taught, so every one of them checks clean
    result = run("check", str(GAMES), str(EXAMPLES))
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert len(lines) > 20 and all(line.endswith(": 0 errors, 0 warnings") for line in lines), result.output


def test_check_reports_a_forced_roll_the_game_can_never_take_in_the_words_of_the_test(tmp_path):
    # a `force d7` in a game that rolls only a d6 passed `ludus check`, and failed when it ran
    write(tmp_path, "market-town.ludus", (EXAMPLES / "market-town.ludus").read_text(encoding="utf-8"))
    tests = write(tmp_path, "t.ludus", 'extends "market-town.ludus"\n\n'
                  'test "a d7":\n    force d7 = 3\n    resolve "Fortune Teller" for Amber\n\n'
                  'test "a face":\n    force d6 = 2, 9\n    resolve "Fortune Teller" for Amber\n\n'
                  'test "a d6":\n    next d6 is 5\n    resolve "Fortune Teller" for Amber\n\n'
                  # a d0 is a die with no faces, as in `roll d0`: it forced whatever die came next
                  'test "a d0":\n    force d0 = 1\n    resolve "Fortune Teller" for Amber\n')
    errors = [f"{tests}:4:5: error: Market Town never rolls a d7; it rolls a d6",
              f"{tests}:8:5: error: 9 is not a face of a d6",
              f"{tests}:16:5: error: a die has 1 to 1,000,000 faces, not 0"]
    checked = run("check", tests)
    assert checked.exit_code == 1 and all(e in checked.output for e in errors), checked.output
    assert "t.ludus: 3 errors, 0 warnings" in checked.output
    assert all(checked.output.count(e) == 1 for e in errors), checked.output  # reported once, not twice
    tested = run("test", tests)
    assert all(e in tested.output for e in errors) and "1 passed, 3 failed" in tested.output, tested.output
    as_json = run("check", "--format", "json", tests)
    assert [(d["line"], d["message"]) for d in json.loads(as_json.output)] == [
        (4, "Market Town never rolls a d7; it rolls a d6"), (8, "9 is not a face of a d6"),
        (16, "a die has 1 to 1,000,000 faces, not 0")]


def test_a_folder_with_a_file_that_cannot_be_read_fails_check_and_test(tmp_path):
    # a file that cannot be read could not be told a game or a part, and was left out: the
    # folder passed `ludus check` and `ludus test` with one of its games never read
    write(tmp_path, "clean.ludus", CLEAN)
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "latin.ludus").write_bytes(CLEAN.replace("Clean", "Caf\xe9").encode("latin-1"))
    (tmp_path / "folder.ludus").mkdir()  # a folder with the extension is no file to read
    error = f"{tmp_path / 'sub' / 'latin.ludus'}:1:1: error: cannot read '{tmp_path / 'sub' / 'latin.ludus'}': it is not UTF-8 text"
    checked = run("check", str(tmp_path))
    assert checked.exit_code == 1 and error in checked.output, checked.output
    assert "clean.ludus: 0 errors" in checked.output and "folder.ludus" not in checked.output
    tested = run("test", str(tmp_path))
    assert tested.exit_code == 1 and error in tested.output, tested.output
    assert tested.output.endswith("0 passed, 1 failed\n")


def test_check_test_and_fmt_walk_a_folder_alike_leaving_out_hidden_ones(tmp_path):
    # `ludus check FOLDER` and `ludus test FOLDER` read the games in .git and .venv, which
    # `ludus fmt FOLDER` left alone: a project failed its check on a copy it did not write
    ours = CLEAN.replace("increase n by 1", "increase  n by 1") + 'test "t":\n    expect n == 1\n'
    theirs = BROKEN + 'test "t":\n    expect 1 == 2\n'
    for place in ("g.ludus", "sub/h.ludus", ".venv/lib/v.ludus", ".git/x.ludus", "sub/.draft.ludus"):
        (tmp_path / place).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / place).write_text(theirs if "/." in f"/{place}" else ours, encoding="utf-8")
    checked = run("check", str(tmp_path))
    assert checked.exit_code == 0, checked.output
    assert re.findall(r"(\S+\.ludus): 0 errors", checked.output) == [str(tmp_path / "g.ludus"),
                                                                     str(tmp_path / "sub" / "h.ludus")]
    tested = run("test", str(tmp_path))
    assert tested.exit_code == 0 and tested.output.endswith("2 passed, 0 failed\n"), tested.output
    formatted = run("fmt", "--check", str(tmp_path))
    assert formatted.exit_code == 1 and formatted.output.endswith("2 of 2 files would be reformatted\n"), formatted.output
    # the folder named is read whatever its own name or path
    hidden = run("check", str(tmp_path / ".venv"))
    assert hidden.exit_code == 1 and "v.ludus:5:12: error: unknown counter 'monye'" in hidden.output, hidden.output


def test_a_file_with_a_flow_and_no_game_line_is_checked_in_a_folder_as_alone(tmp_path):
    # alone it checked as a game; in a folder it was taken for a part: with no other game there
    # the folder failed ("only 1 part of a game"), beside a game it was never checked at all
    headless = write(tmp_path, "headless.ludus", "players 2\ncounter coins per seat\nflow:\n    gain 1 coinz\n"
                                                 "    win P1\n")
    error = f"{headless}:4:12: error: unknown counter 'coinz'"
    for named in (headless, str(tmp_path)):
        checked = run("check", named)
        assert checked.exit_code == 1 and error in checked.output, checked.output
    write(tmp_path, "clean.ludus", CLEAN)
    checked = run("check", str(tmp_path))
    assert checked.exit_code == 1 and error in checked.output and "clean.ludus: 0 errors" in checked.output


def test_a_folder_without_a_game_fails_check_and_test_and_says_what_is_there(tmp_path):
    # it said "no game files here" and exited 0: a mistyped folder in CI passed, having checked nothing
    (tmp_path / "empty").mkdir()
    (tmp_path / "parts").mkdir()
    write(tmp_path / "parts", "cards.ludus", 'card "A"\n')
    write(tmp_path, "clean.ludus", CLEAN)
    for command in ("check", "test"):
        empty = run(command, str(tmp_path / "empty"))
        assert empty.exit_code == 1 and f"{tmp_path / 'empty'}: no game files here\n" in empty.output, empty.output
        parts = run(command, str(tmp_path / "parts"), str(tmp_path / "clean.ludus"))
        assert parts.exit_code == 1, parts.output
        assert (f"{tmp_path / 'parts'}: no game files here, only 1 part of a game (without a `game` or `extends` "
                "line), checked through the game that includes them") in parts.output
    assert run("check", str(tmp_path)).exit_code == 0  # a folder with a game in it, under it or not


def test_a_variant_with_lone_cr_line_ends_and_a_comment_first_is_checked_and_tested_in_its_folder(tmp_path):
    write(tmp_path, "clean.ludus", CLEAN)
    (tmp_path / "v.ludus").write_bytes(b'# a variant\rextends "clean.ludus"\r\rtest "t":\r    expect winner P1\r')
    checked = run("check", str(tmp_path))
    assert checked.exit_code == 0 and "v.ludus: 0 errors" in checked.output, checked.output
    tested = run("test", str(tmp_path))
    assert tested.exit_code == 0 and tested.output.endswith("1 passed, 0 failed\n"), tested.output


def test_a_part_no_game_includes_says_so_and_where_the_games_are(tmp_path, monkeypatch):
    # it said "the game has no 'flow:' block", as if it were a game that had lost its flow
    write(tmp_path, "clean.ludus", CLEAN)
    (tmp_path / "cards").mkdir()
    write(tmp_path / "cards", "extra.ludus", 'card "Lonely"\n')
    monkeypatch.chdir(tmp_path)
    error = ("cards/extra.ludus:1:1: error: this file is a part of a game (it has no `game` or `extends` line), "
             "and no game includes it")
    hint = ("hint: ludus looks for the game that includes a part in the part's folder and the one above "
            "('cards' and '.'); the games there: clean.ludus. clean.ludus would include it with "
            '`include "cards/extra.ludus"`')
    for command in ("check", "test"):
        result = run(command, "cards/extra.ludus")
        assert result.exit_code == 1 and error in result.output and hint in result.output, result.output
        assert "no 'flow:' block" not in result.output
    monkeypatch.chdir(tmp_path / "cards")
    alone = run("check", "extra.ludus")
    assert "('.' and '..'); the games there: ../clean.ludus." in alone.output, alone.output
    write(tmp_path, "clean.ludus", CLEAN.replace("counter n", 'include "cards/extra.ludus"\ncounter n'))
    led = run("check", "extra.ludus")  # from the part's own folder, the game above is found
    assert led.exit_code == 0 and "extra.ludus is part of ../clean.ludus" in led.output, led.output
    comment = run("check", write(tmp_path, "notes.ludus", "# a game, one day\n"))
    assert "the game has no 'flow:' block" in comment.output  # a file that declares nothing is no part


def test_a_part_checked_alone_has_a_code_tools_can_act_on(tmp_path, monkeypatch):
    write(tmp_path, "clean.ludus", CLEAN)
    write(tmp_path, "extra.ludus", 'card "Lonely"\n')
    monkeypatch.chdir(tmp_path)
    result = run("check", "--format", "json", "extra.ludus")
    [error] = [d for d in json.loads(result.stdout) if d["severity"] == "error"]
    assert error["code"] == "part-alone" and error["message"].endswith("and no game includes it")
    assert error["hint"].endswith('the games there: clean.ludus. clean.ludus would include it with `include "extra.ludus"`')


def test_a_part_loaded_through_the_python_api_names_the_game_that_includes_it(tmp_path):
    from ludus import LudusError, analyse, load

    game = write(tmp_path, "clean.ludus", CLEAN.replace("counter n", 'include "extra.ludus"\ncounter n'))
    part = write(tmp_path, "extra.ludus", 'card "Lonely"\n')
    [error] = [d for d in analyse(part)[0] if d.severity == "error"]
    assert error.code == "part-alone" and error.hint == f"{game} includes it: check that game instead"
    with pytest.raises(LudusError) as raised:
        load(part)
    assert [d.hint for d in raised.value.diagnostics] == [error.hint]


def test_check_of_a_folder_reads_each_part_once_to_sort_it_out(tmp_path, monkeypatch):
    from ludus.language import discover, files

    write(tmp_path, "clean.ludus", CLEAN.replace("counter n", 'include "cards.ludus"\ncounter n'))
    part = write(tmp_path, "cards.ludus", 'card "A"\n')
    reads: list[str] = []
    real = files.read_text_file

    def counted(path, *args, **kwargs):
        reads.append(str(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(files, "read_text_file", counted)
    monkeypatch.setattr(discover, "read_text_file", counted)
    result = run("check", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert reads.count(part) == 1  # the game reads it again, as the loader reads every file it includes


# ── seeds: only those whose save and replay ludus takes back ──


@pytest.mark.parametrize("seed", ["1000000000000000", "-1000000000000000", "99999999999999999999999999", "1" * 5000])
def test_play_refuses_a_seed_that_replays_and_saves_cannot_hold(seed):
    result = run("play", str(EXAMPLES / "market-town.ludus"), "--seed", seed)
    assert result.exit_code == 2
    assert "Invalid value for '--seed'" in result.output
    assert "out of the range -999999999999999 to 999999999999999" in result.output
    assert no_crash(result) and len(result.output) < 1000


def test_play_refuses_a_seed_that_is_not_a_whole_number():
    result = run("play", str(EXAMPLES / "market-town.ludus"), "--seed", "1.5")
    assert result.exit_code == 2 and "Invalid value for '--seed': a seed is a whole number, not '1.5'" in result.output


@pytest.mark.parametrize("seed", ["999999999999999", "-999999999999999"])
def test_a_session_with_the_widest_seed_saves_exports_and_loads_again(tmp_path, seed, monkeypatch):
    monkeypatch.setenv("LUDUS_HISTORY", "")
    saved, replay = tmp_path / "s.json", tmp_path / "s.replay"
    lines = f"1\nexport {replay}\nsave {saved}\nload {saved}\nload {replay}\n"
    result = CliRunner().invoke(main, ["play", str(EXAMPLES / "market-town.ludus"), "--seed", seed], input=lines)
    assert result.exit_code == 0, result.output
    assert f"loaded {saved}: 1 move" in result.output and f"played {replay}: 1 move" in result.output
    again = run("replay", str(replay), "--quiet")
    assert again.exit_code == 0 and "ok, 1 move\n" in again.output, again.output  # one move, not "1 moves"


def test_simulate_refuses_a_run_seed_whose_match_seeds_a_replay_could_not_hold():
    for seed in (MAX_RUN_SEED + 1, -MAX_RUN_SEED - 1, 10**15):
        result = run("simulate", str(EXAMPLES / "market-town.ludus"), "-n", "1", "--seed", str(seed))
        assert result.exit_code == 2, result.output
        assert f"Invalid value for '--seed': {seed} is out of the range {-MAX_RUN_SEED} to {MAX_RUN_SEED}" in result.output


def test_every_match_seed_of_the_widest_run_can_be_played_again():
    # the bound is tight: one more and the last match of the longest run has a 16-digit seed
    assert MAX_RUN_SEED * 1_000_003 + MAX_GAMES - 1 <= MAX_NUMBER < (MAX_RUN_SEED + 1) * 1_000_003 + MAX_GAMES - 1
    assert -MAX_RUN_SEED * 1_000_003 >= -MAX_NUMBER
    for seed in (MAX_RUN_SEED, -MAX_RUN_SEED):
        for match_seed in match_seeds(seed, 3):
            assert parse(f"game g.ludus\nseed {match_seed}\n").seed == match_seed
            assert run("play", str(EXAMPLES / "market-town.ludus"), "--seed", str(match_seed)).exit_code == 0
    with pytest.raises(ValueError, match="outside -999999999999999 to 999999999999999"):
        match_seeds(MAX_RUN_SEED + 10, MAX_GAMES)
    assert match_seeds(2, 3) == [2_000_006, 2_000_007, 2_000_008]  # the seeds of a run are what they were


def test_simulate_plays_at_the_widest_run_seed():
    result = run("simulate", str(EXAMPLES / "market-town.ludus"), "-n", "2", "--seed", str(-MAX_RUN_SEED), "-w", "1")
    assert result.exit_code == 0, result.output


# ── --bot: each seat once ──


@pytest.mark.parametrize("command", ["play", "simulate"])
def test_a_seat_given_twice_to_bot_is_a_usage_error(command):
    result = run(command, str(EXAMPLES / "market-town.ludus"), "--bot", "Amber=mcts:1", "--bot", "Amber=greedy")
    assert result.exit_code == 2
    assert "Invalid value for --bot: the seat 'Amber' is given twice (Amber=mcts:1 and Amber=greedy)" in result.output


@pytest.mark.parametrize("command", ["play", "simulate"])
def test_a_seat_given_twice_in_two_cases_is_a_usage_error(command):
    result = run(command, str(EXAMPLES / "market-town.ludus"), "--bot", "Amber=mcts:1", "--bot", "AMBER=greedy")
    assert result.exit_code == 2
    assert "the seat 'Amber' is given twice (Amber=mcts:1 and AMBER=greedy)" in result.output


# `Amber=` (a kind left out, as an unset shell variable leaves it) and `Amber=:400` are refused,
# naming the flag and what a kind may be, rather than read as the random bot
@pytest.mark.parametrize("command", ["play", "simulate"])
@pytest.mark.parametrize(("value", "says"), [
    ("Amber=", "'Amber=' names no bot after '=' ('Amber' alone is the random bot); the bots are"),
    ("amber= ", "'amber= ' names no bot after '=' ('amber' alone is the random bot); the bots are"),
    ("Amber=:400", "in the bot ':400': no bot before ':'; the bots are"),
])
def test_a_bot_with_no_kind_is_a_usage_error(command, value, says):
    result = run(command, str(EXAMPLES / "market-town.ludus"), "-n" if command == "simulate" else "--seed", "1",
                 "--bot", value)
    assert result.exit_code == 2, result.output
    said = " ".join(result.output.split())
    assert f"Invalid value for --bot: {says} random, greedy, mcts, or a Python file of your own (FILE.py" in said


@pytest.mark.parametrize("command", ["play", "simulate"])
def test_a_seat_alone_is_still_the_random_bot(command):
    result = CliRunner().invoke(main, [command, str(EXAMPLES / "market-town.ludus"), "--bot", "Amber"]
                                + (["-n", "1", "-w", "1"] if command == "simulate" else []), input="quit\n")
    assert result.exit_code == 0, result.output
    assert "Amber=random" in result.output if command == "simulate" else "Amber (bot): " in result.output


# ── a seat named in any case, as the REPL's `show amber` takes it ──


def test_play_bot_takes_a_seat_in_any_case():
    result = CliRunner().invoke(main, ["play", str(EXAMPLES / "market-town.ludus"), "--seed", "3", "--bot", "basil=random"],
                                input="3\nbuild nothing\n")
    assert result.exit_code == 0, result.output
    assert "Basil (bot): " in result.output


def test_simulate_bot_takes_a_seat_in_any_case():
    result = run("simulate", str(EXAMPLES / "market-town.ludus"), "-n", "2", "-w", "1", "--bot", "amber=greedy")
    assert result.exit_code == 0, result.output


def test_play_seat_takes_a_seat_in_any_case():
    result = CliRunner().invoke(main, ["play", str(EXAMPLES / "market-town.ludus"), "--seed", "3", "--seat", "basil"],
                                input="show\n")
    assert result.exit_code == 0, result.output
    assert "· as Basil sees it" in result.output


def test_a_seat_named_in_no_case_is_still_refused():
    result = run("play", str(EXAMPLES / "market-town.ludus"), "--seat", "bazil")
    assert result.exit_code == 2
    assert "no seat 'bazil'; the seats are Amber, Basil" in result.output


# ── stdout and stderr in one stream ──

TESTED = ('game "Tested"\nplayers 2\ncounter n\nflow:\n    increase n by 1\n    win P1\n\n'
          'test "passes":\n    expect n == 1\n\ntest "fails":\n    expect n == 5\n')


@pytest.mark.parametrize("case", ["check", "test", "replay", "fmt"])
def test_through_one_pipe_stdout_and_stderr_come_in_the_order_written(tmp_path, monkeypatch, case):
    """`ludus check FILE > out 2>&1`: each line whole and where it was written (a summary on
    stderr after its file's diagnostics on stdout, never inside one), as a terminal shows it."""
    import subprocess
    import sys

    broken = write(tmp_path, "broken.ludus", BROKEN)
    args = {
        "check": ["check", write(tmp_path, "warns.ludus", WARNS), broken, write(tmp_path, "clean.ludus", CLEAN)],
        "test": ["test", write(tmp_path, "tested.ludus", TESTED), broken],
        "replay": ["replay", write(tmp_path, "r.replay", f"game {EXAMPLES / 'market-town.ludus'}\nseats Amber, Basil\n"
                                                          "seed 15\nbuy Copper Coin\nbuy Copper Coin\nbuy Nothing\n")],
        "fmt": ["fmt", "--diff", write(tmp_path, "loose.ludus", CLEAN.replace("players 2", "players   2")),
                write(tmp_path, "bad.ludus", "flow:\n    gain 2 money money\n"), write(tmp_path, "tidy.ludus", CLEAN)],
    }[case]
    piped = subprocess.run([sys.executable, "-m", "ludus", *args], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, encoding="utf-8", cwd=str(tmp_path), check=False).stdout
    monkeypatch.chdir(tmp_path)  # the same paths in the messages
    shown = CliRunner().invoke(main, args).output  # both streams, in the order they were written
    assert piped == shown
    assert "error" in piped and len(piped.splitlines()) > 3


def test_play_a_game_whose_setup_breaks_a_rule_says_so_once(tmp_path):
    # the rule error is located already: click's "Error: " before it said "error" twice
    text = 'game "T"\nplayers 2\nzone trick\ncard "A"\nvar w start 0\nflow:\n    set w to owner_of(first([c for c in trick]))\n    end game\n'
    result = run("play", write(tmp_path, "t.ludus", text))
    assert result.exit_code == 1
    assert result.output.strip() == (f"{tmp_path / 't.ludus'}:7:5: error: 'owner_of' needs a card or piece, "
                                     "and the value here is none")


def test_a_replay_or_a_saved_match_given_for_a_game_file_and_a_game_file_given_for_a_replay_say_so(tmp_path):
    # each was read as the other kind: a replay given to `play` gave 20 syntax errors, a saved
    # match one with kilobytes of JSON quoted, and a game given to `replay` failed at `players 2 to 4`
    game = write(tmp_path, "market-town.ludus", (EXAMPLES / "market-town.ludus").read_text(encoding="utf-8"))
    replay = write(tmp_path, "s.replay", "# a session\ngame market-town.ludus\nseed 3\nbuy nothing\n")
    for command in ("play", "check", "cards"):
        result = run(command, replay)
        assert result.exit_code == 1 and "1 error" in result.output, result.output
        assert result.output.startswith(f"{replay}:2:1: error: this is a replay, not a game file\n"
                                        "    game market-town.ludus\n    " + "^" * 22 + "\n"
                                        f"    hint: run it with `ludus replay {replay}`, or continue it in `ludus play` "
                                        f"of its game: `load {replay}`\n"), result.output
    saved = write(tmp_path, "s.json", ludus_match_json(game))
    result = run("check", saved)
    assert result.output == (f"{saved}:1:1: error: this is a saved match, not a game file\n"
                             f"    hint: continue it in `ludus play` of its game ('Market Town'): `load {saved}`\n"
                             f"{saved}: 1 error, 0 warnings\n")
    result = run("replay", game)
    assert result.exit_code == 1
    assert result.output == (f"{game}:11:1: error: this is a game file, not a replay: play it with `ludus play {game}`; "
                             "a replay names its game on a line like `game ../market-town.ludus`\n")
    # a game file with a syntax error is still told its syntax errors, a replay its own
    assert "'(' is never closed" in run("check", write(tmp_path, "b.ludus", CLEAN.replace("by 1", "by (1"))).output
    assert run("replay", replay).exit_code == 0


def ludus_match_json(game: str) -> str:
    import ludus

    return ludus.load(game).new_match(2, seed=1).to_json()


@pytest.mark.parametrize("command", ["simulate", "play"])
def test_the_bot_option_s_help_names_a_bot_file_among_the_kinds(command):
    out = CliRunner().invoke(main, [command, "--help"], terminal_width=200).output
    bot_help = " ".join(out[out.index("--bot"):].split())
    assert "random, greedy, mcts or a FILE.py of your own" in bot_help


def test_a_script_whose_bot_stops_with_an_error_exits_1(tmp_path):
    # the bot's failure is said and its seat handed back; the script's good lines are not
    # refused, yet the session did not go as written, and CI must notice
    game = write(tmp_path, "deep.ludus", (
        'game "Deep"\nplayers 2\ncounter pts per seat\n'
        'define f(n) = if n <= 0 then 0 else 1 + f(n - 1)\n'
        'define score(s) = f(pts of s + 100000)\n'
        'action Gain(k in [1, 2]):\n    label "gain {k}"\n    increase pts by k\n'
        'flow:\n    repeat 2 times:\n        turn P1:\n            offer Gain\n'
        '        turn P2:\n            offer Gain\n    end game\n'))
    result = CliRunner().invoke(main, ["play", game, "--bot", "P2=greedy"], input="1\n")
    assert "the greedy bot playing P2 stopped" in result.output
    assert result.exit_code == 1
    # a bot that stops before any line is read (it has the first move) counts as well
    first = CliRunner().invoke(main, ["play", game, "--bot", "P1=greedy"], input="")
    assert "the greedy bot playing P1 stopped" in first.output
    assert first.exit_code == 1
    calm = CliRunner().invoke(main, ["play", game, "--bot", "P2=random"], input="1\n")
    assert "P2 (bot): gain " in calm.output  # the bot played
    assert "stopped" not in calm.output and calm.exit_code == 0
