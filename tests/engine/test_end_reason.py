"""A finished match's reason names the statement that ended it and its block, never its line:
a test's snapshot must not change when lines above that statement move. The line is kept
apart, in the result's "at", for the messages that send a person to it."""

from __future__ import annotations

import json

import pytest

import ludus
from ludus.compiler import pysource
from ludus.engine.effect import result_text
from ludus.engine.match import Match, MatchError
from ludus.testing.blocks import own_tests, run_test_decl

SOURCE = '''game "Ends"
players 2
counter score per seat
at any time:
    if score of P2 >= 3:
        lose seats
flow:
    for each s in seats:
        turn s:
            ask s "Score?" as yes
            if yes:
                increase score of s by 3
    if score of P1 > 0:
        win first([s for s in seats where score of s > 0 and score of s < 100 and score of s != 7])
    win P1

test "the first seat wins at the end":
    answer "no"
    answer "no"
    snapshot
'''


def load(tmp_path, text: str = SOURCE, name: str = "ends.ludus"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return ludus.load(path)


def finish(game, answers):
    match = game.new_match(2, seed=0)
    for answer in answers:
        match.apply(answer)
    assert match.is_over
    return match


def snapshots(game, tmp_path) -> list[str]:
    seen = []
    for decl in own_tests(game, tmp_path / "ends.ludus"):
        run_test_decl(game, decl, lambda effect, name, span: seen.append(effect.report()))
    return seen


@pytest.mark.parametrize("answers, reason, line", [
    (["no", "yes"], "lose seats, at any time", 6),
    (["no", "no"], "win P1, flow", 15),
    # a long statement is cut, so that the reason stays one readable line
    (["yes", "no"], "win first([s for s in seats where score of s > 0 and..., flow", 14),
])
def test_the_reason_names_the_statement_and_its_block_and_at_says_the_line(tmp_path, answers, reason, line):
    game = load(tmp_path)
    match = finish(game, answers)
    assert match.result["reason"] == reason
    assert match.result["at"] == ["ends.ludus", line]  # the file as the game's folder sees it
    # what a person reads to find it says the line; a snapshot's result does not
    assert result_text(match.result, game.path).endswith(f", line {line})")
    assert result_text(match.result) == result_text(match.result, game.path).rsplit(", line ", 1)[0] + ")"
    assert "line" not in result_text(match.result)


def test_lines_added_above_the_ending_leave_the_snapshot_as_it_was(tmp_path):
    before = load(tmp_path)
    seen = snapshots(before, tmp_path)
    moved = SOURCE.replace('players 2\n', 'players 2\n\n# a note, and room\n\n').replace(
        "    win P1\n", "    # the first seat wins when no one scored\n\n    win P1\n")
    after = load(tmp_path, moved)
    assert snapshots(after, tmp_path) == seen
    assert "  result: playing -> P1 wins (win P1, flow)\n" in seen[0]
    # the line, kept apart, did move: it is where the statement is now
    assert finish(before, ["no", "no"]).result["at"][1] == 15
    assert finish(after, ["no", "no"]).result["at"][1] == 20


@pytest.mark.parametrize("generated", [True, False])
@pytest.mark.parametrize("answers", [["no", "yes"], ["no", "no"], ["yes", "no"]])
def test_generated_code_regions_and_closures_give_the_same_result(tmp_path, monkeypatch, generated, answers):
    expected = finish(load(tmp_path), answers)._state["result"]
    monkeypatch.setattr(pysource, "ENABLED", generated)
    game = load(tmp_path)
    assert (game.codes["flow"].fast is not None) == generated  # the flow's ending runs in a region, or not
    assert finish(game, answers)._state["result"] == expected
    for code in game.codes.values():  # the instructions one at a time
        code.fast = None
    assert finish(game, answers)._state["result"] == expected


def test_a_result_saved_before_it_said_where_still_loads(tmp_path):
    game = load(tmp_path)
    match = finish(game, ["no", "no"])
    assert Match.from_json(game, match.to_json()).result == match.result
    data = json.loads(match.to_json())
    data["state"]["result"] = {"winners": [0], "losers": [1], "reason": "flow, line 15"}  # as saved before
    old = Match.from_json(game, json.dumps(data))
    assert old.result == {"winners": ["P1"], "losers": ["P2"], "reason": "flow, line 15"}
    assert result_text(old.result, game.path) == "P1 wins (flow, line 15)"


@pytest.mark.parametrize("at", [["flow", 0], ["nowhere", 1], ["flow", 10_000], "flow", ["flow", True]])
def test_a_result_whose_place_is_damaged_is_refused(tmp_path, at):
    game = load(tmp_path)
    data = json.loads(finish(game, ["no", "no"]).to_json())
    data["state"]["result"]["at"] = at
    with pytest.raises(MatchError, match="the result's place is damaged"):
        Match.from_json(game, json.dumps(data))


def test_an_ending_in_an_imported_file_names_that_file(tmp_path):
    load(tmp_path, SOURCE.split("\ntest ")[0], "base.ludus")
    game = load(tmp_path, 'extends "base.ludus"\n', "variant.ludus")
    match = finish(game, ["no", "no"])
    assert result_text(match.result, game.path) == "P1 wins (win P1, flow, line 15 of base.ludus)"


def test_where_a_match_ended_reads_the_same_however_the_game_was_loaded(tmp_path, monkeypatch):
    """A result is in every view, which bots read in other processes (a pickled environment
    plays on elsewhere): its place must not carry the path as one process happened to load it."""
    load(tmp_path)
    (tmp_path / "variants").mkdir()
    (tmp_path / "variants" / "quick.ludus").write_text('extends "../ends.ludus"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    seen = []
    for path in (tmp_path / "ends.ludus", "ends.ludus", "./variants/../ends.ludus"):
        game = ludus.load(path)
        seen.append(finish(game, ["no", "no"]).result["at"])
        assert result_text(finish(game, ["no", "no"]).result, game.path).endswith(", line 15)")
    assert seen == [["ends.ludus", 15]] * 3
    for path in (tmp_path / "variants" / "quick.ludus", "variants/quick.ludus"):
        game = ludus.load(path)
        match = finish(game, ["no", "no"])
        assert match.result["at"] == ["../ends.ludus", 15]
        assert result_text(match.result, game.path) == "P1 wins (win P1, flow, line 15 of ../ends.ludus)"
