"""The REPL: the prompt_toolkit path through a pipe input, the plain piped path through the CLI,
hidden information, rejected inputs changing nothing, undo/redo, save/load and export."""

from __future__ import annotations

import io
import json
import re
import threading
import time

import pytest
from click.testing import CliRunner
from prompt_toolkit.document import Document
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from rich.console import Console

import ludus
from ludus.cli import main
from ludus.repl import Repl, ReplCompleter, TrimmedLines, history_path, prompt_reader
from ludus.replay import load_replay
from tests.helpers import EXAMPLES, no_crash, repl_on

GAME_PATH = EXAMPLES / "market-town.ludus"
GAME = ludus.load(GAME_PATH)


def make_repl(seed: int = 3, players: int = 2, **kw) -> tuple[Repl, io.StringIO]:
    return repl_on(GAME.new_match(players, seed=seed), GAME_PATH, **kw)


def feed(repl: Repl, *lines: str) -> None:
    for line in lines:
        assert repl.handle(line) is not False


pytestmark = pytest.mark.usefixtures("history_in_tmp")


# ── the interactive path: prompt_toolkit through a pipe ──


def test_prompt_toolkit_session_plays_moves_and_commands(tmp_path):
    repl, out = make_repl()
    history = tmp_path / "h"
    with create_pipe_input() as pipe:
        # seed 3: Amber can buy a Copper Coin (1), a Tax Collector (2) or nothing (3)
        pipe.send_text("2\rbuild nothing\rshow discard of Amber\rundo\rquit\r")
        repl.run(prompt_reader(repl, input=pipe, output=DummyOutput(), history=str(history)))
    assert repl.match.moves == ["buy Tax Collector"]
    text = out.getvalue()
    # Amber's turn is over: her hand joined the Tax Collector in her discard, which every seat sees
    assert "discard of Amber (4, top first): Copper Coin, Copper Coin, Copper Coin, Tax Collector" in text
    assert "undid: build nothing" in text
    # the history is persistent: every line typed, in a file
    assert [line for line in history.read_text().splitlines() if line.startswith("+")] == [
        "+2", "+build nothing", "+show discard of Amber", "+undo", "+quit"]


def test_prompt_toolkit_end_of_input_ends_the_session():
    repl, out = make_repl()
    with create_pipe_input() as pipe:
        pipe.send_text("1\r")
        reader = prompt_reader(repl, input=pipe, output=DummyOutput())

        def read(prompt):
            line = reader(prompt)
            pipe.close()  # nothing more: the next prompt meets the end of input (Ctrl-D)
            return line
        repl.run(read)
    assert repl.match.moves == ["buy Copper Coin"]


def test_tab_completes_a_legal_move_through_prompt_toolkit():
    repl, _ = make_repl()
    with create_pipe_input() as pipe:
        read = prompt_reader(repl, input=pipe, output=DummyOutput())

        def typist():
            time.sleep(0.2)
            pipe.send_text("buy T")
            time.sleep(0.2)
            pipe.send_text("\t")
            time.sleep(0.4)
            pipe.send_text("\r")
        thread = threading.Thread(target=typist)
        thread.start()
        line = read("Amber> ")
        thread.join()
    assert line == "buy Tax Collector"


def test_completer_offers_moves_commands_and_names():
    repl, _ = make_repl()
    completer = ReplCompleter(repl)

    def complete(text):
        return [c.text for c in completer.get_completions(Document(text), None)]
    assert complete("buy") == ["buy Copper Coin", "buy Tax Collector", "buy nothing"]
    assert complete("un") == ["undo"]
    assert "show hand of Amber" in complete("show ha")
    assert "show Town Crier" in complete("show To")
    assert complete("view B") == ["view Basil"]


def test_completer_never_offers_moves_the_view_hides():
    repl, _ = make_repl()
    feed(repl, "view Basil")
    assert [c.text for c in ReplCompleter(repl).get_completions(Document("buy"), None)] == []


# ── the plain path: piped standard input through the CLI ──


def play(*lines: str, args: tuple = ()) -> object:
    return CliRunner().invoke(main, ["play", str(GAME_PATH), "--seed", "3", *args], input="".join(f"{x}\n" for x in lines))


def test_piped_session_echoes_every_line_after_its_prompt():
    result = play("2", "build nothing", "moves")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert "Amber> 2" in lines
    assert "Amber> build nothing" in lines
    assert "Basil> moves" in lines
    # a line that fails is said as an internal error, and the session goes on: neither happened
    assert no_crash(result) and "internal error" not in result.output


def test_piped_session_lines_carry_no_blanks_at_their_ends():
    # the tables pad each cell to its column's width; the padding at a line's end is not written
    result = play("2", "build nothing", "show", "moves", "log", "help", args=("--all-seats",))
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert [line for line in lines if line != line.rstrip()] == []
    # what the cells hold stays, blanks between the columns included
    assert "round_number  1" in lines
    assert re.search(r"^coins +\d+ +\d+$", result.output, re.M)
    assert "Amber> build nothing" in lines


def test_trimmed_lines_drop_only_the_blanks_a_line_ends_with():
    out = io.StringIO()
    trimmed = TrimmedLines(out)
    for piece in ["a  b   ", "  c ", "\n  ", "\n", "d\t \n e", "  "]:
        assert trimmed.write(piece) == len(piece)
    # blanks written last stay held back until the line goes on or ends
    assert out.getvalue() == "a  b     c\n\nd\n e"
    trimmed.write("f\n")
    assert out.getvalue() == "a  b     c\n\nd\n e  f\n"


def test_piped_session_shows_only_the_acting_seats_hidden_cards():
    result = play("3", "build nothing")
    chunks = result.output.split("Amber> build nothing")
    amber_part, basil_part = chunks[0], chunks[1]
    assert re.search(r"hand of Amber +Copper Coin ×3", amber_part)
    assert re.search(r"empty: hand of Basil\b", amber_part)  # Basil has drawn nothing yet
    assert "as Basil sees it" in basil_part
    assert re.search(r"hand of Basil +Copper Coin ×3", basil_part)
    assert re.search(r"deck of Basil +4 cards", basil_part)
    assert re.search(r"deck of Amber +4 cards", basil_part)
    # Amber's deck is hidden from Basil: counted, never named
    assert not re.search(r"deck of Amber +Copper", basil_part)


def test_all_seats_shows_the_deck_contents():
    result = play(args=("--all-seats",))
    assert "designer view" in result.output
    assert re.search(r"deck of Amber +Copper Coin ×4", result.output)


def test_a_rejected_line_makes_a_piped_session_exit_one():
    result = play("buy the moon")
    assert result.exit_code == 1
    assert "error: 'buy the moon' is not a legal move for Amber now; closest:" in result.output


def test_a_misspelt_command_is_named():
    # nothing offered is near 'movse': the command it is near is named
    result = play("movse")
    assert "error: 'movse' is neither a legal move nor a command; did you mean `moves`?" in result.output


def test_bad_bot_option_is_a_usage_error():
    result = play(args=("--bot", "Nobody=random"))
    assert result.exit_code == 2
    assert "no seat 'Nobody'; the seats are Amber, Basil" in result.output


def test_script_option_reads_lines_from_a_file(tmp_path):
    script = tmp_path / "in.txt"
    script.write_text("1\nbuild a stall in Hill\n")
    result = CliRunner().invoke(main, ["play", str(GAME_PATH), "--seed", "3", "--script", str(script)])
    assert result.exit_code == 0, result.output
    assert "Amber> build a stall in Hill" in result.output
    assert re.search(r"Hill +Amber Stall", result.output)


# ── rejected inputs change nothing ──


@pytest.mark.parametrize("line, words", [
    ("frobnicate", "neither a command nor a legal move for Amber; the moves are 1. buy Copper Coin"),
    ("undoo", "did you mean `undo`?"),
    ("buy Tax Colector", "closest: buy Tax Collector"),
    ("7", "there is no option 7; choose 1 to 3"),
    ("force d6 = 9", "9 is not a face of a d6"),
    # a force no die can take would stay queued and make every move that rolls fail
    ("force die = 0", "0 is not a face of any die"),
    ("force die = 1000001", "1000001 is not a face of any die: a die has at most 1,000,000 faces"),
    ("force die = 99999999999999999999", "99999999999999999999 is not a face of any die"),
    ("force d6 = -1", "-1 is not a face of a d6"),
    ("force d99999999 = 5", "a die has 1 to 1,000,000 faces, not 99,999,999"),
    ("force d6 = 5, 0", "0 is not a face of a d6"),
    ("force off", "nothing was forced since the last move"),
    ("reload extra", "`reload` takes nothing after it, not 'extra'"),
    ("undo 2", "`undo` takes nothing after it, not '2'"),
    ("redo please", "`redo` takes nothing after it"),
    ("force order deck of Nobody = Copper Coin", "unknown seat 'Nobody'; the seats are Amber, Basil"),
    ("expect coins of Amber == 1", "not so: coins of Amber == 1: coins of Amber is 3"),
    # the column in the line as typed, where a caret under it would point
    ("expect coins of", "column 16: unexpected end"),
    ("  eval   coins of", "column 18: unexpected end"),
    ("eval nothing_here", "'nothing_here'"),
    ("show nowhere", "nothing called 'nowhere' to show"),
    ("view Nobody", "no seat 'Nobody'"),
    ("redo", "nothing to redo"),
    ("undo", "nothing to undo"),
    ("log many", "`log` takes a number"),
    ("help frob", "no command 'frob'"),
    ("bot Amber clever", "no bot 'clever'"),
])
def test_rejected_input_is_one_line_and_changes_nothing(line, words):
    repl, out = make_repl()
    before = repl.match.to_json()
    start = len(out.getvalue())
    feed(repl, line)
    said = out.getvalue()[start:]
    assert said.startswith("error: ") and words in said, said
    assert said.count("\n") == 1
    assert repl.match.to_json() == before
    assert repl.notes == [] and repl.rejected == 1


def test_quit_with_words_after_it_is_refused_and_the_session_goes_on():
    repl, out = make_repl()
    assert repl.handle("quit now") is True
    assert "error: `quit` takes nothing after it, not 'now'" in out.getvalue()
    assert repl.handle("quit") is False


def test_force_off_drops_what_was_forced_since_the_last_move(tmp_path):
    # seed 15: Basil's `build nothing` after this opening has Amber's Fortune Teller roll a d6 (a 4)
    opening = ["buy Copper Coin", "build a stall in Docks", "buy Copper Coin", "build a stall in Docks",
               "buy Fortune Teller", "build nothing", "buy Fortune Teller"]
    repl, out = make_repl(seed=15)
    feed(repl, *opening, "force die = 6", "force order supply = Town Crier", "force off")
    assert "dropped: force die = 6; force order supply = Town Crier" in out.getvalue()
    assert repl.match.state["forced"] == [] and repl.notes == []
    feed(repl, "build nothing")
    assert [e["value"] for e in repl.match.log if e["t"] == "roll"] == [4]
    feed(repl, "force off")
    assert out.getvalue().rstrip().endswith("error: nothing was forced since the last move")
    # nothing of it is left in the replay, nor in the match once the move is taken back
    feed(repl, f"export {tmp_path / 's.replay'}")
    replay = (tmp_path / "s.replay").read_text()
    assert "\n".join([*opening, "build nothing"]) + "\n#   rolled d6: 4\n" in replay  # every move, as played
    assert "force" not in replay
    assert load_replay(tmp_path / "s.replay").run().to_json() == repl.match.to_json()
    feed(repl, "undo")
    assert repl.match.state["forced"] == [] and repl.match.moves == opening


def test_force_off_keeps_what_was_forced_before_the_last_move():
    repl, out = make_repl()
    feed(repl, "force d6 = 2", "2", "force d6 = 3", "force off")
    assert "dropped: force d6 = 3" in out.getvalue()
    assert repl.match.state["forced"] == [["die", 6, 2]] and [n.text for n in repl.notes] == ["force d6 = 2"]
    feed(repl, "force off")
    assert "nothing was forced since the last move (what was forced before it stays; `undo` takes it back" \
        in out.getvalue()


def test_corrupt_and_foreign_saves_are_refused(tmp_path):
    repl, out = make_repl()
    before = repl.match.to_json()
    (tmp_path / "bad.json").write_text("{half a match")
    data = json.loads(before)
    data["fingerprint"] = "0" * 16
    (tmp_path / "other.json").write_text(json.dumps(data))
    feed(repl, f"load {tmp_path / 'bad.json'}", f"load {tmp_path / 'other.json'}", f"load {tmp_path / 'none.json'}")
    errors = [line for line in out.getvalue().splitlines() if line.startswith("error:")]
    assert len(errors) == 3
    assert "not a saved match" in errors[0]
    assert "different version of the game files" in errors[1]
    assert "No such file" in errors[2]
    assert repl.match.to_json() == before


# ── undo, redo, bots ──


def test_undo_then_redo_returns_to_the_same_state():
    repl, _ = make_repl()
    feed(repl, "2", "force d6 = 4", "build nothing")
    after = repl.match.to_json()
    feed(repl, "undo", "undo")
    assert repl.match.moves == [] and repl.notes == []
    feed(repl, "redo", "redo")
    assert repl.match.to_json() == after
    assert [n.text for n in repl.notes] == ["force d6 = 4"]


def test_bots_play_their_seats_and_undo_takes_their_moves_back_too():
    repl, out = make_repl(bots={1: "random"})
    feed(repl, "3", "build nothing")
    assert repl.match.current == 0 and len(repl.match.moves) == 4  # Basil's two moves were the bot's
    assert "Basil (bot): " in out.getvalue()
    feed(repl, "undo")
    assert repl.match.moves == ["buy nothing"]
    assert repl.match.current == 0


def test_manual_chance_makes_rolls_moves():
    match = GAME.new_match(2, seed=15, chance="manual")
    repl, out = make_repl()
    repl.match = match
    opening = ["buy Copper Coin", "build a stall in Docks", "buy Copper Coin", "build a stall in Docks",
               "buy Fortune Teller", "build nothing", "buy Fortune Teller", "build nothing"]
    feed(repl, *opening)
    assert repl.match.current == ludus.CHANCE
    assert repl.visible_options() == [f"d6 = {v}" for v in range(1, 7)]
    feed(repl, "6")
    assert [e["value"] for e in repl.match.log if e["t"] == "roll"] == [6]


# ── save, load, export ──


def test_save_and_load_continue_the_match_with_its_notes(tmp_path):
    repl, _ = make_repl()
    feed(repl, "2", "force d6 = 2", f"save {tmp_path / 'm.json'}", "build nothing")
    saved_moves = ["buy Tax Collector"]
    feed(repl, f"load {tmp_path / 'm.json'}")
    assert repl.match.moves == saved_moves
    assert [n.text for n in repl.notes] == ["force d6 = 2"]
    assert repl.match.state["forced"] == [["die", 6, 2]]


@pytest.mark.parametrize("damage", [
    lambda notes: notes[0].__setitem__(3, [[1, "a", None]]),           # what it queues on redo: junk
    lambda notes: notes[0].__setitem__(2, "force d6 = 4"),             # its text says otherwise
    lambda notes: notes[1].__setitem__(2, "expect true\nwin Amber"),   # a second line in an export
    lambda notes: notes[0].__setitem__(0, 99),                         # after a move never made
    lambda notes: notes[0].__setitem__(1, "move"),
    lambda notes: notes.__setitem__(0, [0, "force"]),
])
def test_damaged_session_notes_in_a_save_are_refused_and_the_match_stays(tmp_path, damage):
    repl, out = make_repl()
    feed(repl, "force d6 = 2", "expect coins of Amber >= 0", "2", f"save {tmp_path / 'm.json'}")
    data = json.loads((tmp_path / "m.json").read_text(encoding="utf-8"))
    damage(data["session"]["notes"])
    (tmp_path / "bad.json").write_text(json.dumps(data), encoding="utf-8")
    before = repl.match.to_json()
    feed(repl, f"load {tmp_path / 'bad.json'}")
    assert f"cannot load '{tmp_path / 'bad.json'}': the saved session notes are damaged" in out.getvalue()
    assert repl.match.to_json() == before


def test_exported_session_replays_exactly(tmp_path):
    """Random moves, bot moves, forced dice and a kept expectation: the replay reproduces it all."""
    import random

    repl, _ = make_repl(seed=15, bots={1: "random"})
    rng = random.Random(4)
    while not repl.match.is_over:
        if len(repl.match.moves) % 4 == 0:
            feed(repl, f"force d6 = {rng.randint(1, 6)}")
        if repl.match.scopes()[0] == "round 2" and not any(n.kind == "expect" for n in repl.notes):
            feed(repl, "expect round_number == 2")
        legal = repl.match.legal_actions()
        keen = [m for m in legal if m.startswith("buy ") and "Copper" not in m and m != "buy nothing"]
        feed(repl, rng.choice(keen or legal))
    assert any(e["t"] == "roll" for e in repl.match.log)
    path = tmp_path / "session.replay"
    feed(repl, f"export {path}")
    text = path.read_text()
    assert "expect round_number == 2" in text and "force d6 = " in text
    replayed = load_replay(path).run()
    assert replayed.to_json() == repl.match.to_json()


def test_loading_a_replay_continues_from_its_end(tmp_path):
    repl, out = make_repl()
    feed(repl, f"load {EXAMPLES / 'replays' / 'full-match.replay'}")
    assert repl.match.is_over and repl.match.result["winners"] == ["Amber"]
    assert "played " in out.getvalue()
    feed(repl, "undo")
    assert not repl.match.is_over
    path = tmp_path / "again.replay"
    feed(repl, f"export {path}")
    assert load_replay(path).run().to_json() == repl.match.to_json()


@pytest.mark.parametrize("line, left", [("force d6 = 3", "roll"), ("roll die = 2", "roll"),
                                         ("force order supply = Town Crier", "shuffle")])
def test_a_force_after_the_end_is_refused_and_kept_out_of_the_export(tmp_path, line, left):
    # as a replay refuses it: an exported replay with it would fail at its last line
    repl, out = make_repl()
    feed(repl, f"load {EXAMPLES / 'replays' / 'full-match.replay'}")
    before, notes, start = repl.match.to_json(), list(repl.notes), len(out.getvalue())
    feed(repl, line)
    assert out.getvalue()[start:] == ("error: the match is over (Amber wins (win s, at any time, line 140)), so there is "
                                      f"no {left} left to force; `undo`, `load`, `export` or `quit`\n")
    assert repl.match.to_json() == before and repl.notes == notes
    path = tmp_path / "after.replay"
    feed(repl, f"export {path}")
    assert load_replay(path).run().to_json() == before


@pytest.mark.parametrize("queued", [True, False])
def test_an_old_save_with_forces_after_the_end_loads_without_them(tmp_path, queued):
    # an older REPL took a force after the end, queued its outcome in the finished match and
    # saved both, in a save that did not yet say who may see each move: loaded, the forces are
    # left out, said so, and the match is the one that ended, its moves replayable
    repl, _ = make_repl()
    feed(repl, f"load {EXAMPLES / 'replays' / 'full-match.replay'}", f"save {tmp_path / 'ended.json'}")
    ended = repl.match.to_json()
    data = json.loads((tmp_path / "ended.json").read_text(encoding="utf-8"))
    end = len(data["moves"])
    late = [[end, "force", "force d6 = 3", [["die", 6, 3]]],
            [end, "force", "force order supply = Town Crier", [["order", "supply", ["Town Crier"]]]]]
    data["session"]["notes"] += late
    if queued:
        data["state"]["forced"] += [entry for note in late for entry in note[3]]
    del data["session"]["sight"]
    (tmp_path / "old.json").write_text(json.dumps(data), encoding="utf-8")
    again, out = make_repl()
    feed(again, f"load {tmp_path / 'old.json'}")
    said = out.getvalue()
    assert (f"loaded {tmp_path / 'old.json'}: {end} moves; left out 2 force lines typed after the match ended "
            "(force d6 = 3; force order supply = Town Crier): the match is over, so there is no roll or shuffle "
            "left to force (an older ludus took such lines and saved them)\n") in said
    assert "do not lead" not in said and "does not say who may see" not in said and "internal error" not in said
    assert again.match.to_json() == ended and not any(n.position == end and n.kind == "force" for n in again.notes)
    path = tmp_path / "again.replay"
    feed(again, f"export {path}")
    assert load_replay(path).run().to_json() == ended


def test_history_file_follows_the_environment(monkeypatch):
    monkeypatch.setenv("LUDUS_HISTORY", "/somewhere/h")
    assert history_path() == "/somewhere/h"
    monkeypatch.setenv("LUDUS_HISTORY", "")
    assert history_path() is None
    monkeypatch.delenv("LUDUS_HISTORY")
    assert history_path().endswith(".ludus_history")


def test_a_number_that_is_also_a_label_elsewhere_in_the_list_is_refused():
    # options that are numbers, listed (a `choose` from a list, not a range): `1` is option 1
    # (the label 0) or the label 1, so it is refused; `1.` is the position
    repl, out = make_repl()
    repl.match.state["pending"]["options"] = ["0", "1", "2"]
    repl.match.state["pending"]["values"] = [None, None, None]
    chosen = []
    repl.move = chosen.append
    feed(repl, "1")
    assert chosen == []
    # the label 1 cannot be typed as itself (that is the number again): it is named by its position
    assert "error: '1' could be option 1 (0) or 1: type '2.' for 1, or '1.' for option 1" in out.getvalue()
    feed(repl, "1.")
    assert chosen == ["0"]
    feed(repl, "2.")
    assert chosen == ["0", "1"]


def test_expect_winner_in_the_repl_is_checked_and_kept(tmp_path):
    repl, out = make_repl()
    feed(repl, f"load {EXAMPLES / 'replays' / 'full-match.replay'}", "expect winner Basil", "expect winner Amber")
    said = out.getvalue()
    assert "error: not so: winner Basil: the winners are Amber (not kept for the replay)" in said
    assert repl.notes[-1].text == "expect winner Amber"
    path = tmp_path / "w.replay"
    feed(repl, f"export {path}")
    assert path.read_text().rstrip().endswith("expect winner Amber")
    load_replay(path).run()


def test_move_labels_are_read_without_regard_to_case_or_spacing():
    repl, _out = make_repl()
    feed(repl, "BUY   tax collector")
    assert repl.match.moves == ["buy Tax Collector"]


def test_eval_of_a_zone_says_its_cards_not_only_its_name():
    # `? hand of Amber` answered `hand of Amber`; eval reads the whole match, so it names them
    repl, out = make_repl()
    feed(repl, "? hand of Amber", "? hand of Basil", "? removed", "? size(hand of Amber)")
    assert out.getvalue().splitlines() == [
        "hand of Amber (3, top first): Copper Coin, Copper Coin, Copper Coin",
        "hand of Basil: empty",
        "removed (4, top first): Copper Coin, Copper Coin, Copper Coin, Copper Coin",
        "3",  # any other value as before
    ]


def test_eval_of_a_define_without_parameters_names_its_cards(tmp_path):
    # `? in_hand` answered `1, 0`, the cards' numbers: the REPL checks the line apart from the
    # game, and did not know what such a define gives (one with parameters was known)
    path = tmp_path / "d.ludus"
    path.write_text('game "D"\nplayers 2\nzone hand\ncard "Lamp"\ncard "Rope"\n'
                    "define in_hand = [c for c in hand]\ndefine in_hand_too() = [c for c in hand]\n"
                    "define held(x) = [c for c in hand]\n"
                    "flow:\n    move box to hand\n    turn P1:\n"
                    '        choose c from in_hand + in_hand_too() + held(1)\n    end game\n', encoding="utf-8")
    repl, out = repl_on(ludus.load(path).new_match(2), path)
    out.truncate(0)
    out.seek(0)
    feed(repl, "? in_hand", "? in_hand_too()", "? held(1)")
    assert out.getvalue().splitlines() == ["Rope, Lamp"] * 3


def test_eval_keeps_the_hint_of_a_slip_in_its_line():
    # a line's syntax error was moved to the line's columns without its hint, so the REPL said
    # only what was unexpected, where a game file said what to write instead
    repl, out = make_repl()
    feed(repl, "? sum(x for x in 1 to 3)")
    said = " ".join(out.getvalue().split())
    assert said == ("error: column 20: unexpected 'to'; expected ')' or 'where' ('LOW to HIGH' is a run of numbers "
                    "only in 'for x in 1 to N:' and 'choose n from 1 to N'; in an expression, write range(LOW, HIGH), "
                    "both ends included)")


def test_restart_plays_the_bots_as_a_new_session_with_that_seed_would():
    # the bots' random draws went on from where the old match left them, so a restart with the
    # same seed, every seat a bot, played another match
    love = EXAMPLES / "love-letter.ludus"
    game = ludus.load(love)

    def session(seed: int) -> Repl:
        out = io.StringIO()
        console = Console(file=out, width=100, color_system=None, highlight=False, markup=False)
        repl = Repl(game.new_match(2, seed=seed), love, console, bots={0: "random", 1: "greedy:2"})
        repl.play_bots()
        return repl

    first, other = session(0), session(3)
    repl = session(0)
    feed(repl, "restart")
    assert repl.match.moves == first.match.moves
    feed(repl, "restart 3")
    assert repl.match.moves == other.match.moves != first.match.moves
