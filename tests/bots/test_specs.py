"""Bot specs as `--bot SEAT=KIND[:BUDGET][:OPTION=N]` takes them, and bots in `simulate`."""

import pytest
from click.testing import CliRunner

from ludus.bots import BadBotSpec, Budget, make_bot, parse_spec
from ludus.cli import main
from ludus.pipeline import load
from ludus.simulation import simulate
from tests.helpers import no_crash

MARKET = "examples/market-town.ludus"


def test_specs_parse_kind_and_budget():
    assert parse_spec("random") == ("random", None)
    assert parse_spec(" Greedy:25 ") == ("greedy", Budget(iterations=25))
    assert parse_spec("") == ("random", None)
    assert parse_spec("mcts:2s") == ("mcts", Budget(seconds=2.0))
    assert parse_spec("MCTS:1.5s") == ("mcts", Budget(seconds=1.5))
    assert parse_spec("greedy:500ms") == ("greedy", Budget(seconds=0.5))
    assert parse_spec("greedy") == ("greedy", None)


@pytest.mark.parametrize("spec, words", [
    ("dragon", "no bot 'dragon'"),
    ("greedy:0", "whole number"),
    ("greedy:-3", "whole number"),
    ("greedy:lots", "whole number"),
    ("greedy:99999999999", "whole number"),
    # random spends no budget: one given would be ignored, so it is refused
    ("random:5", "random takes no budget"),
    ("Random:2s", "random takes no budget"),
    ("random:5:depth=3", "random takes no budget"),
    ("mcts:0s", "time per decision"),
    ("mcts:s", "time per decision"),
    ("mcts:1.2.3s", "time per decision"),
    ("mcts:2h", "time per decision"),
    ("mcts:99999s", "at most 3600s"),
    ("mcts:\u00b2", "whole number"),  # a superscript two: a digit to str.isdigit, not to int()
    ("mcts:\u0663", "whole number"),  # an Arabic-Indic three
    ("mcts:\u00b2s", "time per decision"),
    ("mcts:" + "9" * 5000, r"not '99999999999999999999\.\.\. \(5000 characters\)'"),  # past int()'s digit limit
])
def test_bad_specs_say_what_is_wrong(spec, words):
    with pytest.raises(BadBotSpec, match=words):
        parse_spec(spec)


def test_a_seeded_bot_plays_the_same_moves():
    game = load(MARKET)
    a, b = make_bot("random", game, 0, 7), make_bot("random", game, 0, 7)
    assert [a.rng.random() for _ in range(5)] == [b.rng.random() for _ in range(5)]


def test_simulate_with_a_bot_is_reproducible_and_reports_it():
    game = load(MARKET)
    one = simulate(game, 30, seed=3, bots={0: "random"})
    two = simulate(game, 30, seed=3, bots={0: "random"})
    assert one.lengths == two.lengths and one.wins == two.wins
    assert one.bots == {"Amber": "random"}
    assert "bots: Amber=random" in one.summary()
    # the seats no bot plays keep the plain random path: no bots, same matches as before
    assert simulate(game, 30, seed=3).lengths != one.lengths


@pytest.mark.parametrize("value, words", [
    ("Nobody=random", "no seat 'Nobody'; the seats are Amber, Basil"),
    ("Amber=dragon", "no bot 'dragon'"),
    ("Amber=greedy:x", "whole number"),
    ("Amber=random:3", "random takes no budget"),
])
def test_bad_bot_options_are_usage_errors(value, words):
    for command in (["simulate", MARKET, "-n", "2"], ["play", MARKET]):
        out = CliRunner().invoke(main, [*command, "--bot", value], input="quit\n")
        assert out.exit_code == 2, out.output
        assert words in out.output and no_crash(out)


def test_the_summary_names_random_seats_only_when_some_are_left():
    game = load(MARKET)
    some = simulate(game, 2, seed=1, bots={0: "random"})
    every = simulate(game, 2, seed=1, bots={0: "random", 1: "greedy:2"})
    assert "(the other seats: random)" in some.summary()
    assert "bots: Amber=random, Basil=greedy:2\n" in every.summary()


SCORED = '''game "Scored"
players 2
counter points per seat
define score(s) = points of s
action Take:
    gain 1 points
flow:
    repeat 3 times:
        for each s in seats:
            turn s:
                offer Take else "rest"
    win most(points of s for s in seats)
'''


def test_a_greedy_bot_in_a_game_without_a_score_is_explained(tmp_path):
    from ludus.bots.evaluate import no_score_note

    scored = tmp_path / "scored.ludus"
    scored.write_text(SCORED, encoding="utf-8")
    assert no_score_note(load(scored)) is None
    # the game's points named `score`: the counter is not read, and takes the define's name
    counted = tmp_path / "counted.ludus"
    counted.write_text(SCORED.replace("define score(s) = points of s\n", "").replace("points", "score"), encoding="utf-8")
    note = no_score_note(load(counted))
    assert note.startswith("Scored has no `define score(s)` ('score' is its counter, which bots do not read")
    assert no_score_note(load(MARKET)).startswith("Market Town has no `define score(s)`: a greedy bot")
    for command in (["simulate", str(counted), "-n", "1", "-w", "1", "--bot", "P1=greedy"],
                    ["play", str(counted), "--bot", "P1=greedy:3"]):
        result = CliRunner().invoke(main, command, input="quit\n")
        assert f"note: {note}" in result.output, command
    # a random bot, or a game with a score, gets no note
    for command in (["simulate", str(counted), "-n", "1", "-w", "1", "--bot", "P1=random"],
                    ["simulate", str(scored), "-n", "1", "-w", "1", "--bot", "P1=greedy"]):
        result = CliRunner().invoke(main, command)
        assert result.exit_code == 0 and ": 1 matches, 2 players" in result.output, result.output  # the report
        assert "note:" not in result.output, command
    # and so does the REPL's `bot` command
    import io

    from rich.console import Console

    from ludus.repl import Repl

    console = Console(file=io.StringIO(), width=400, color_system=None, highlight=False, markup=False)
    repl = Repl(load(counted).new_match(2), counted, console)
    assert repl.handle("bot P2 greedy")
    assert f"note: {note}" in console.file.getvalue()
