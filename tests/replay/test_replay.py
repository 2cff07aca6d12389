"""Replay scripts: the format, every error located at its line, and export → replay round trips."""

from __future__ import annotations

import random

import pytest
from click.testing import CliRunner

import ludus
from ludus.cli import main
from ludus.replay import Note, ReplayError, export, load_replay, move_line, parse
from tests.helpers import EXAMPLES, no_crash

GAME_PATH = EXAMPLES / "market-town.ludus"
GAME = ludus.load(GAME_PATH)


def write(tmp_path, body: str, header: str | None = None, name: str = "t.replay"):
    head = header if header is not None else f"game {GAME_PATH}\nplayers 2\nseed 3\n"
    path = tmp_path / name
    path.write_text(head + body, encoding="utf-8")
    return path


def run(tmp_path, body: str, header: str | None = None):
    path = write(tmp_path, body, header)
    return load_replay(path).run(), path


def error_of(tmp_path, body: str, header: str | None = None) -> ReplayError:
    path = write(tmp_path, body, header)
    with pytest.raises(ReplayError) as info:
        load_replay(path).run()
    return info.value


# ── the format ──


def test_header_moves_and_expectations(tmp_path):
    # seed 3: Amber opens with three Copper Coins and a market of coins and a Tax Collector
    match, _ = run(tmp_path, "# a comment\n\nexpect coins of Amber == 3\nbuy Tax Collector\nexpect coins of Amber == 0\n"
                             "expect size(discard of Amber) == 1\n")
    assert match.moves == ["buy Tax Collector"]
    assert match.seat_names() == ("Amber", "Basil")


def test_the_same_moves_by_hand_give_the_same_match(tmp_path):
    match, _ = run(tmp_path, "buy Tax Collector\nbuild nothing\nbuy nothing\n")
    by_hand = GAME.new_match(2, seed=3)
    for label in ("buy Tax Collector", "build nothing", "buy nothing"):
        by_hand.apply(label)
    assert match.to_json() == by_hand.to_json()


def test_seats_line_sets_the_player_count(tmp_path):
    match, _ = run(tmp_path, "", header=f"game {GAME_PATH}\nseats Amber, Basil, Cobalt\n")
    assert match.seat_names() == ("Amber", "Basil", "Cobalt")
    assert match.seed == 0


def test_game_path_is_relative_to_the_replay(tmp_path):
    sub = tmp_path / "replays"
    sub.mkdir()
    (tmp_path / "g.ludus").write_text(GAME_PATH.read_text())
    path = sub / "r.replay"
    path.write_text("game ../g.ludus\nplayers 3\n")
    assert load_replay(path).run().seat_names() == ("Amber", "Basil", "Cobalt")


# seed 15: Amber buys a Fortune Teller in round 2 and draws it in round 3, during Basil's move
OPENING = ("buy Copper Coin\nbuild a stall in Docks\nbuy Copper Coin\nbuild a stall in Docks\n"
           "buy Fortune Teller\nbuild nothing\nbuy Fortune Teller\n")
SEED_15 = f"game {GAME_PATH}\nplayers 2\nseed 15\n"


def rolls(match) -> list[int]:
    return [e["value"] for e in match.log if e["t"] == "roll"]


def test_a_forced_roll_is_used_by_the_move_that_rolls(tmp_path):
    plain, _ = run(tmp_path, OPENING + "build nothing\n", SEED_15)
    assert rolls(plain) == [4]
    six, _ = run(tmp_path, OPENING + "force d6 = 6\nbuild nothing\nexpect coins of Amber == 6\n", SEED_15)
    one, _ = run(tmp_path, OPENING + "force d6 = 1\nbuild nothing\nexpect coins of Amber == 2\n", SEED_15)
    assert (rolls(six), rolls(one)) == ([6], [1])
    assert "Amber sees a 6 in the cards" in [e.get("text") for e in six.log]


def test_a_force_queued_too_late_is_not_used(tmp_path):
    match, _ = run(tmp_path, OPENING + "build nothing\nforce d6 = 6\n", SEED_15)
    assert rolls(match) == [4]
    assert match.state["forced"] == [["die", 6, 6]]


def test_forced_order_of_a_seat_zone(tmp_path):
    # Amber's deck runs out in round 3: her discard is shuffled into it, in the forced order
    top = run(tmp_path, OPENING + "force order deck of Amber = Fortune Teller\nbuild nothing\n", SEED_15)[0]
    coins = run(tmp_path, OPENING + "force order deck of Amber = Copper Coin, Copper Coin\nbuild nothing\n", SEED_15)[0]
    shuffle = [e for e in top.log if e["t"] == "shuffle" and e["zone"] == "deck@0"][-1]
    assert shuffle["order"][0] == "Fortune Teller"
    assert len(rolls(top)) == 1 and rolls(coins) == []


def test_setup_force_orders_the_first_shuffle(tmp_path):
    header = (f"game {GAME_PATH}\nplayers 2\nseed 3\n"
              "setup force order supply = Guild Charter, Guild Charter, Town Crier, Fortune Teller\n")
    match, _ = run(tmp_path, "", header)
    assert sorted(match.view()["zones"]["market"]) == ["Fortune Teller", "Guild Charter", "Guild Charter", "Town Crier"]
    plain, _ = run(tmp_path, "", header.rsplit("setup", 1)[0])
    assert sorted(plain.view()["zones"]["market"]) != sorted(match.view()["zones"]["market"])


def test_move_prefix_allows_a_label_that_starts_with_a_keyword():
    replay = parse("game g.ludus\nmove expect nothing\nforce d6 = 2\n", "r.replay")
    assert [(s.kind, s.text) for s in replay.steps] == [("move", "expect nothing"), ("force", "d6 = 2")]
    assert move_line("expect nothing") == "move expect nothing"
    assert move_line("buy Town Crier") == "buy Town Crier"


def test_winner_expectation(tmp_path):
    path = EXAMPLES / "replays" / "full-match.replay"
    text = path.read_text().replace("expect winner Amber", "expect winner Basil")
    copy = path.parent / "_tmp_winner.replay"
    try:
        copy.write_text(text)
        with pytest.raises(ReplayError, match="the winners are Amber"):
            load_replay(copy).run()
    finally:
        copy.unlink()


# ── errors, each at its line ──


def test_illegal_move_names_the_line_and_the_closest_moves(tmp_path):
    err = error_of(tmp_path, "buy Tax Colector\n")
    assert (err.line, err.column) == (4, 1)
    assert "'buy Tax Colector' is not a legal move for Amber now" in str(err)
    assert "buy Tax Collector" in str(err)
    assert str(err).startswith(f"{tmp_path / 't.replay'}:4:1: error:")


def test_failed_expectation_shows_the_actual_value(tmp_path):
    err = error_of(tmp_path, "buy Tax Collector\n\nexpect coins of Amber == 2\n")
    assert err.line == 6 and err.column == 8
    assert err.message == "expectation failed: coins of Amber == 2: coins of Amber is 0"


def test_bad_expression_is_located_inside_the_line(tmp_path):
    err = error_of(tmp_path, "expect coins of Amberr == 3\n")
    assert (err.line, err.column) == (4, 17)
    assert "'Amberr'" in err.message and "did you mean 'Amber'" in err.message


def test_bad_expression_is_reported_before_any_move_runs(tmp_path):
    lines = []
    path = write(tmp_path, "buy Tax Collector\nexpect coins of ( == 3\n")
    with pytest.raises(ReplayError) as info:
        load_replay(path).run(echo=lines.append)
    assert info.value.line == 5
    assert lines == []


def test_non_boolean_expectation_is_refused(tmp_path):
    err = error_of(tmp_path, "expect coins of Amber\n")
    assert err.line == 4 and "expect needs a yes/no expression" in err.message
    assert "coins of Amber == 3" in err.message


@pytest.mark.parametrize("body, line, words", [
    ("force d6 = five\n", 4, "a forced roll is a number"),
    ("force d6 = 7\nbuy nothing\n", 4, "7 is not a face of a d6"),
    ("force 6 = 5\n", 4, "cannot read the forced outcome"),
    ("force order deck = Copper Coin\n", 4, "zone 'deck' is kept per seat: name the seat"),
    ("force order hand of Amber = Copper Con\n", 4, "unknown card 'Copper Con'; did you mean 'Copper Coin'"),
    ("force order supply\n", 4, "write a forced order as"),
    ("force order supply = , ,\n", 4, "write a forced order as"),
    ("buy nothing\nseed 4\n", 5, "'seed' belongs to the header"),
    ("expect\n", 4, "'expect' needs a value"),
])
def test_malformed_lines(tmp_path, body, line, words):
    err = error_of(tmp_path, body)
    assert err.line == line
    assert words in err.message


@pytest.mark.parametrize("names, card, column", [
    ("Copper Con", "Copper Con", 29), ("Copper Coin, Copper Con", "Copper Con", 42),
    ("Copper Coin,   Tin", "Tin", 44),
    # a name that begins another name before it is pointed at where it stands alone
    ("Copper Coin, Copper", "Copper", 42),
    # a name in quotes (one with a comma in it, as an export writes it) is read whole after `, `
    ('"Copper, Con"', "Copper, Con", 30), ('Copper Coin, "Copper, Con"', "Copper, Con", 43),
])
def test_an_unknown_card_of_a_forced_order_is_pointed_at(tmp_path, names, card, column):
    err = error_of(tmp_path, f"force order hand of Amber = {names}\n")
    assert err.line == 4 and err.message.startswith(f"unknown card '{card}'") and err.column == column


@pytest.mark.parametrize("force, words", [
    ("force die = 0", "0 is not a face of any die"),
    ("force die = -3", "-3 is not a face of any die"),
    ("force die = 1000001", "1000001 is not a face of any die: a die has at most 1,000,000 faces"),
    ("force die = 123456789012345678901234567890",
     "12345678901234567890... is not a face of any die: a die has at most 1,000,000 faces"),
    ("force d99999999 = 5", "a die has 1 to 1,000,000 faces, not 99,999,999"),
    ("force d6 = 2, 0", "0 is not a face of a d6"),
])
def test_a_force_no_die_can_take_is_refused_at_its_line(tmp_path, force, words):
    # queued, it would make every roll after it fail
    path = write(tmp_path, f"buy nothing\n{force}\nbuild nothing\n")
    with pytest.raises(ReplayError) as info:
        load_replay(path).run()
    err = info.value
    assert (err.line, err.column, err.message) == (5, 7, words)
    assert str(err) == f"{path}:5:7: error: {words}"
    setup = error_of(tmp_path, "", f"game {GAME_PATH}\nplayers 2\nsetup {force}\n")
    assert (setup.line, setup.column, setup.message) == (3, 13, words)


def test_the_largest_die_can_be_forced(tmp_path):
    # a game that rolls the largest die: a force of a die the game never rolls is refused
    game = tmp_path / "big.ludus"
    game.write_text('game "Big"\nplayers 2\nflow:\n    turn P1:\n        roll d1000000 as r\n'
                    '        choose n from 0 to 1 "on?"\n    win P1\n', encoding="utf-8")
    match, _ = run(tmp_path, "force d1000000 = 1000000\nforce die = 1000000\n", f"game {game}\n")
    assert match._state["forced"] == [["die", 1000000, 1000000], ["die", 0, 1000000]]


@pytest.mark.parametrize("header, line, words", [
    ("players 2\n", 1, "names no game"),
    ("game nowhere.ludus\nplayers 2\n", 1, "no game file 'nowhere.ludus'"),
    (f"game {GAME_PATH}\nplayers two\n", 2, "'players' needs a number"),
    (f"game {GAME_PATH}\nplayers 9\n", 2, "for 2 to 4 players, not 9"),
    (f"game {GAME_PATH}\nseats Basil, Amber\n", 2, "the seats are Amber, Basil"),
    (f"game {GAME_PATH}\nplayers 2\nseats Amber, Basil\n", 3, "either 'players' or 'seats'"),
    (f"game {GAME_PATH}\nseed 1\nseed 2\n", 3, "a second 'seed' line (the first is line 2)"),
    (f"game {GAME_PATH}\nchance sometimes\n", 2, "'chance' is 'auto' or 'manual'"),
    (f"game {GAME_PATH}\nsetup shuffle\n", 2, "'setup' is followed by a force line"),
])
def test_bad_headers(tmp_path, header, line, words):
    err = error_of(tmp_path, "", header)
    assert err.line == line
    assert words in err.message


def test_a_broken_game_file_is_reported_at_the_game_line(tmp_path):
    (tmp_path / "bad.ludus").write_text('game "Bad"\nplayers 2\nflow:\n    gain 1 nothing\n')
    err = error_of(tmp_path, "", "# first\ngame bad.ludus\n")
    assert err.line == 2 and "the game file has" in err.message and "bad.ludus:4" in err.message


def test_a_move_after_the_end_is_an_error(tmp_path):
    text = (EXAMPLES / "replays" / "full-match.replay").read_text()
    path = tmp_path / "after.replay"
    path.write_text(text.replace("game ../market-town.ludus", f"game {GAME_PATH}") + "buy nothing\n")
    with pytest.raises(ReplayError, match="the match is already over") as info:
        load_replay(path).run()
    assert info.value.line == len(text.splitlines()) + 1
    assert info.value.message == ("the match is already over (Amber wins (win s, at any time, line 140)), "
                                  "so 'buy nothing' cannot be played")


@pytest.mark.parametrize("line, message", [
    ("force d6 = 3", "so 'force d6 = 3' has no roll left to force"),
    ("force die = 2, 4", "so 'force die = 2, 4' has no roll left to force"),
    ("force order supply = Town Crier", "so 'force order supply = Town Crier' has no shuffle left to force"),
])
def test_a_force_after_the_end_is_an_error(tmp_path, line, message):
    # as a move after the end is: nothing rolls or shuffles any more, and a forced outcome left
    # queued in a finished match would only mislead a reader of the replay
    text = (EXAMPLES / "replays" / "full-match.replay").read_text()
    path = tmp_path / "after.replay"
    path.write_text(text.replace("game ../market-town.ludus", f"game {GAME_PATH}") + line + "\n")
    with pytest.raises(ReplayError) as info:
        load_replay(path).run()
    assert info.value.line == len(text.splitlines()) + 1 and info.value.column == 7
    assert info.value.message == f"the match is already over (Amber wins (win s, at any time, line 140)), {message}"


def test_missing_replay_file():
    with pytest.raises(ReplayError) as info:
        load_replay("/nowhere/at/all.replay")
    assert str(info.value) == "/nowhere/at/all.replay: error: no such replay file"


# ── the command ──


def test_cli_prints_the_transcript_and_exits_zero(tmp_path):
    path = write(tmp_path, "expect coins of Amber == 3\nbuy Tax Collector\nbuild nothing\n")
    result = CliRunner().invoke(main, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    assert "   4  expect coins of Amber == 3: ok" in result.output
    assert "   5  Amber: buy Tax Collector" in result.output
    assert "   6  Amber: build nothing" in result.output
    assert "stopped with Basil to move" in result.output


def test_cli_exits_one_naming_the_line(tmp_path):
    path = write(tmp_path, "buy Tax Collector\nbuy the moon\n")
    result = CliRunner().invoke(main, ["replay", str(path)])
    assert result.exit_code == 1
    assert f"{path}:5:1: error: 'buy the moon' is not a legal move for Amber now" in result.output
    assert no_crash(result)


def test_cli_quiet_prints_the_result_only():
    result = CliRunner().invoke(main, ["replay", "-q", str(EXAMPLES / "replays" / "full-match.replay")])
    assert result.exit_code == 0
    assert result.output.strip() == "game over: Amber won (win s, at any time, line 140)"


# ── export ──


def random_session(seed: int, players: int = 2):
    """A match played with random moves and a few forced dice, as a REPL session would record it."""
    match = GAME.new_match(players, seed=seed)
    rng = random.Random(seed)
    notes = []
    while not match.is_over:
        if len(match.moves) % 3 == 0:
            face = rng.randint(1, 6)
            match.force(6, face)
            notes.append(Note(len(match.moves), "force", f"force d6 = {face}", [["die", 6, face]]))
        legal = match.legal_actions()
        # buy cards that do something, so dice are rolled and forced outcomes matter
        keen = [m for m in legal if m.startswith("buy ") and m != "buy nothing" and "Copper" not in m]
        match.apply(rng.choice(keen or legal))
    return match, notes


@pytest.mark.parametrize("seed", [2, 7, 10])
def test_export_then_replay_reproduces_the_match_exactly(tmp_path, seed):
    match, notes = random_session(seed, players=2 + seed % 3)
    path = tmp_path / "replays" / "session.replay"
    path.parent.mkdir()
    path.write_text(export(match, GAME_PATH, path, notes))
    again = load_replay(path).run()
    assert again.to_json() == match.to_json()
    assert again.log == match.log
    assert any(e["t"] == "roll" for e in match.log)


def test_export_records_rolls_as_comments_and_keeps_forces_before_their_move(tmp_path):
    match, notes = random_session(2)
    text = export(match, GAME_PATH, EXAMPLES.parent / "docs" / "s.replay", notes)
    lines = text.splitlines()
    assert lines[1] == "game ../examples/market-town.ludus"
    assert "players 2" in lines and "seed 2" in lines
    forces = [i for i, line in enumerate(lines) if line.startswith("force d6 = ")]
    assert len(forces) == len(notes)
    moves = [line for line in lines if line and not line.startswith(("#", "force", "game", "players", "seed"))]
    assert moves == [move_line(m) for m in match.moves]
    assert sum(line.startswith("#   rolled d6: ") for line in lines) == sum(e["t"] == "roll" for e in match.log)


def test_the_replays_in_the_guide_run(tmp_path):
    import re

    from tests.helpers import ROOT

    text = (ROOT / "docs" / "replays.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```replay\n(.*?)^```", text, re.S | re.M)
    assert blocks
    for block in blocks:
        # the guide's replays sit, in spirit, in examples/replays/
        load_replay_text = parse(block, str(EXAMPLES / "replays" / "guide.replay"))
        match = load_replay_text.run()
        assert match.moves


def test_a_move_that_breaks_a_rule_is_one_line_with_one_error_word(tmp_path):
    game = tmp_path / "boom.ludus"
    game.write_text('game "Boom"\nplayers 2\ncounter n\naction Boom:\n    set n to 1 / n\n'
                    "flow:\n    offer Boom\n    end game\n", encoding="utf-8")
    err = error_of(tmp_path, "Boom\n", header=f"game {game}\nplayers 2\n")
    text = err.render() if hasattr(err, "render") else str(err)
    assert f"'Boom' broke a rule at {game}:5:" in text and text.count("error") == 1, text
