"""`mcts:BUDGET:depth=N`: playouts cut after N random moves and judged there by the game's
`define score(s)`, for long games such as Hearts."""

import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from ludus.bots import (
    MAX_DEPTH,
    BadBotSpec,
    Budget,
    make_bot,
    observe,
    parse_options,
    parse_spec,
    random_length,
    spec_note,
)
from ludus.bots.mcts import MctsBot
from ludus.cli import main
from ludus.pipeline import load
from ludus.simulation import simulate
from tests.helpers import no_crash

HEARTS = "examples/hearts.ludus"
MARKET = "examples/market-town.ludus"

# P1 moves once, then both seats tick 60 times. Bait scores 10 points at once and loses the
# match at its end; Safe scores nothing and wins it. A search that plays to the end finds Safe;
# one that stops a few moves in and asks `score` finds Bait.
TRAP = '''game "Trap"
players 2
counter points per seat
counter doomed
counter ticks
define score(s) = points of s
action Bait:
    gain 10 points
    gain 1 doomed
    gain 1 ticks
action Safe:
    gain 1 ticks
action Tick:
    gain 1 ticks
action Tock:
    gain 1 ticks
flow:
    turn P1:
        offer Safe, Bait
    repeat 30 times:
        for each s in seats:
            turn s:
                offer Tick, Tock
    win if doomed > 0 then P2 else P1
'''
LENGTH = 61  # moves in a match of Trap


@pytest.fixture
def trap(tmp_path):
    path = tmp_path / "trap.ludus"
    path.write_text(TRAP, encoding="utf-8")
    return load(path)


# ── the spec ──


def test_the_depth_follows_the_budget_or_stands_alone():
    assert parse_spec("mcts:100:depth=40") == ("mcts", Budget(iterations=100))
    assert parse_options("mcts:100:depth=40") == {"depth": 40}
    assert parse_spec("mcts:depth=40") == ("mcts", None)  # the default budget
    assert parse_options("mcts:depth=40") == {"depth": 40}
    assert parse_options(" MCTS:2s : Depth = 7 ") == {"depth": 7}
    assert parse_spec("mcts:2s:depth=7") == ("mcts", Budget(seconds=2.0))
    assert parse_options("mcts:400") == parse_options("mcts") == parse_options("greedy:3") == {}
    assert parse_options(f"mcts:depth={MAX_DEPTH}") == {"depth": MAX_DEPTH}


@pytest.mark.parametrize("spec, words", [
    ("mcts:100:depth=0", r"in the bot 'mcts:100:depth=0': a playout depth is a whole number of moves from 1 to 1,000,000.*not '0'"),
    ("mcts:100:depth=-4", "not '-4'"),
    ("mcts:100:depth=ten", "not 'ten'"),
    ("mcts:100:depth=", "a playout depth is a whole number"),
    ("mcts:100:depth=2.5", "not '2.5'"),
    ("mcts:100:depth=\u00b2", "a playout depth is a whole number"),
    (f"mcts:depth={MAX_DEPTH + 1}", "from 1 to 1,000,000"),
    ("mcts:depth=" + "9" * 5000, r"\(5011 characters\)"),
    ("mcts:depth=3:depth=4", "in the bot 'mcts:depth=3:depth=4': the option 'depth' is given twice"),
    ("mcts:100:width=3", "no option 'width' for mcts; mcts takes depth=N"),
    ("mcts:100:200", "'200' is neither the budget .* nor an option NAME=VALUE"),
    ("mcts:depth=4:100", "'100' is neither the budget"),
    ("greedy:8:depth=3", "in the bot 'greedy:8:depth=3': no option 'depth' for greedy; greedy takes no options"),
    ("random:depth=3", "no option 'depth' for random"),
    ("mcts:0:depth=3", "whole number of iterations"),  # the budget is still checked
])
def test_bad_depths_say_what_is_wrong_and_name_the_spec(spec, words):
    with pytest.raises(BadBotSpec, match=words):
        parse_spec(spec)
    with pytest.raises(BadBotSpec, match=words):
        make_bot(spec, load(MARKET), 0, 1)


@pytest.mark.parametrize("depth", [0, -1, True, 2.0, "40", MAX_DEPTH + 1])
def test_a_bot_made_in_python_checks_its_depth(depth):
    with pytest.raises(BadBotSpec, match="a playout depth is a whole number"):
        MctsBot(load(MARKET), 0, 1, Budget(iterations=3), depth=depth)


def test_a_bad_depth_is_a_usage_error_on_the_command_line_and_in_the_repl():
    for command in (["simulate", MARKET, "-n", "2"], ["play", MARKET]):
        out = CliRunner().invoke(main, [*command, "--bot", "Amber=mcts:5:depth=0"], input="quit\n")
        assert out.exit_code == 2, out.output
        assert "in the bot 'mcts:5:depth=0': a playout depth" in out.output and no_crash(out)
    from tests.repl.test_repl import feed, make_repl

    repl, out = make_repl()
    feed(repl, "bot Basil mcts:5:depth=x")
    assert "error: in the bot 'mcts:5:depth=x'" in out.getvalue() and repl.bots == {}
    feed(repl, "bot Basil mcts:5:depth=3")
    assert repl.bots == {1: "mcts:5:depth=3"}


# ── the playouts ──


def judged_positions(bot: MctsBot) -> list[int]:
    """The `ticks` of every position the bot judges: in Trap, the moves since the searched one."""
    seen: list[int] = []
    rewards = bot.evaluator.rewards

    def spy(state):
        seen.append(state["vars"].get("ticks", 0))
        return rewards(state)

    bot.evaluator.rewards = spy
    return seen


def test_playouts_stop_at_the_depth(trap):
    match = trap.new_match(2, seed=0)
    bot = make_bot("mcts:30:depth=5", trap, 0, 3)
    seen = judged_positions(bot)
    bot.choose(observe(match, 0))
    assert bot.iterations == 30 and len(seen) == 30
    # every playout played exactly 5 random moves and was cut there, well before the end
    assert bot.playout_moves == 30 * 5 and bot.cut == 30
    # the positions judged lie 5 random moves past a tree at most 30 moves deep, never at the end
    assert all(1 + 5 <= t <= 30 + 5 < LENGTH for t in seen), seen
    # without a depth, every playout runs to the end of the match
    full = make_bot("mcts:30", trap, 0, 3)
    seen = judged_positions(full)
    full.choose(observe(match, 0))
    assert seen == [LENGTH] * 30 and full.cut == 0 and full.playout_moves > 30 * 40


def test_at_the_depth_the_games_score_judges(trap):
    match = trap.new_match(2, seed=0)
    for seed in range(3):
        # to the end of the match, Bait always loses
        bot = make_bot("mcts:30", trap, 0, seed)
        assert match.legal_actions()[bot.choose(observe(match, 0))] == "Safe"
        # cut short, Bait's 10 points put P1 ahead, and score is what the cut playouts go by
        bot = make_bot("mcts:30:depth=5", trap, 0, seed)
        assert match.legal_actions()[bot.choose(observe(match, 0))] == "Bait"


def test_without_a_score_a_cut_playout_counts_as_even(trap, tmp_path):
    path = tmp_path / "unscored.ludus"
    path.write_text(TRAP.replace("define score(s) = points of s\n", ""), encoding="utf-8")
    game = load(path)
    bot = make_bot("mcts:10:depth=5", game, 0, 1)
    judged: list[list[float]] = []
    rewards = bot.evaluator.rewards
    bot.evaluator.rewards = lambda state: judged.append(rewards(state)) or judged[-1]
    bot.choose(observe(game.new_match(2, seed=0), 0))
    assert judged == [[0.5, 0.5]] * 10


def test_a_depth_limited_bot_plays_legal_moves_in_hearts_and_replays_alike():
    game = load(HEARTS)

    def run(seed: int) -> list:
        match = game.new_match(4, seed=5)
        bot = make_bot("mcts:10:depth=20", game, 0, seed)
        assert bot.variant == "ISMCTS"
        rng = random.Random(2)
        decisions = 0
        while not match.is_over and decisions < 25:
            legal = match.legal_actions()
            if match.current == 0 and len(legal) > 1:
                index = bot.choose(observe(match, 0))
                assert 0 <= index < len(legal)
                assert bot.iterations == 10 and bot.playout_moves <= 10 * 20 and bot.cut > 0
                decisions += 1
            else:
                index = rng.randrange(len(legal))
            match.apply(legal[index])  # apply by label: a move the rules refuse raises
        assert decisions == 25
        return match.moves

    assert run(7) == run(7)


def test_simulate_reports_and_replays_a_depth_limited_bot():
    game = load(MARKET)
    one = simulate(game, 3, seed=1, bots={0: "mcts:6:depth=10"})
    two = simulate(game, 3, seed=1, bots={0: "mcts:6:depth=10"})
    assert one.lengths == two.lengths and one.wins == two.wins and not one.errors
    assert "bots: Amber=mcts:6:depth=10" in one.summary()


def test_a_depth_in_a_game_without_a_score_is_explained(trap, tmp_path):
    from ludus.bots import spec_note
    from ludus.bots.evaluate import no_depth_score_note

    path = tmp_path / "unscored.ludus"
    path.write_text(TRAP.replace("define score(s) = points of s\n", ""), encoding="utf-8")
    unscored = load(path)
    note = no_depth_score_note(unscored)
    assert note.startswith("Trap has no `define score(s)`: an mcts bot with a playout depth counts a playout cut")
    assert spec_note(unscored, "mcts:5:depth=3") == note and no_depth_score_note(trap) is None
    assert spec_note(unscored, "mcts:5") is None and spec_note(trap, "mcts:depth=3") is None
    for command in (["simulate", str(path), "-n", "1", "-w", "1", "--bot", "P1=mcts:2:depth=3"],
                    ["play", str(path), "--bot", "P2=mcts:depth=3"]):
        assert f"note: {note}" in CliRunner().invoke(main, command, input="quit\n").output, command
    for command in (["simulate", str(path), "-n", "1", "-w", "1", "--bot", "P1=mcts:2"],
                    ["simulate", str(tmp_path / "trap.ludus"), "-n", "1", "-w", "1", "--bot", "P1=mcts:2:depth=3"]):
        result = CliRunner().invoke(main, command)
        assert result.exit_code == 0 and ": 1 matches, 2 players" in result.output, result.output  # the report
        assert "note:" not in result.output, command
    import io

    from rich.console import Console

    from ludus.repl import Repl

    console = Console(file=io.StringIO(), width=400, color_system=None, highlight=False, markup=False)
    repl = Repl(unscored.new_match(2), path, console)
    assert repl.handle("bot P2 mcts:3:depth=4")
    assert f"note: {note}" in console.file.getvalue()


# ── a game with a payoff ──


def judged_values(bot: MctsBot) -> list[tuple[dict, list[float]]]:
    """Every position a bot in a game with a payoff judges, with the values it gave each seat."""
    seen: list[tuple[dict, list[float]]] = []
    values = bot.evaluator.values

    def spy(state):
        seen.append((state, values(state)))
        return seen[-1][1]

    bot.evaluator.values = spy
    return seen


def test_in_hanabi_a_cut_playout_is_worth_the_tables_score_where_it_stops(tmp_path):
    """The documented heuristic: the payoff read at the cut, as if the show ended there (not a
    rollout to the end, which the depth is there to spare), unless the game has a `score(s)`."""
    from ludus.bots.evaluate import Evaluator

    hanabi = load("examples/hanabi.ludus")
    bot = make_bot("mcts:20:depth=6", hanabi, 0, 1)
    seen = judged_values(bot)
    bot.choose(observe(hanabi.new_match(2, seed=4), 0))
    cut = [(state, values) for state, values in seen if state["result"] is None]
    assert bot.cut == len(cut) > 0 and bot.played_on == 0
    reader = Evaluator(hanabi)
    for state, values in cut:
        table = reader.payoff_now(state, 0)  # show_score: the fireworks' top cards, 0 after a third fuse
        assert values == [table, table]
    # a `define score(s)` is read there instead, as an estimate of the payoff
    path = tmp_path / "hanabi-scored.ludus"
    path.write_text('extends "{}"\ndefine score(s) = 100 + show_score * 10 - burnt\n'.format(
        (Path("examples/hanabi.ludus").resolve()).as_posix()), encoding="utf-8")
    scored = load(path)
    bot = make_bot("mcts:20:depth=6", scored, 0, 1)
    seen = judged_values(bot)
    bot.choose(observe(scored.new_match(2, seed=4), 0))
    cut = [values for state, values in seen if state["result"] is None]
    assert cut and all(v[0] == v[1] and v[0] >= 97 for v in cut)


# ── the note on a long game: every rollout of an mcts bot without a depth plays to the end ──

LONG = TRAP.replace("repeat 30 times:", "repeat 150 times:")  # 301 moves a match


def _game(tmp_path, text: str, name: str = "long.ludus"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path, load(path)


def test_an_mcts_bot_without_a_depth_in_a_long_game_is_noted_as_slow_with_its_cure(tmp_path):
    _, game = _game(tmp_path, LONG)
    note = spec_note(game, "mcts", 2)
    assert note is not None and "a 2-player match of Trap played at random runs some 301 moves" in note
    assert "each decision plays 100 such rollouts; `mcts:depth=40` stops each rollout 40 moves on" in note
    assert "each decision plays 50 such rollouts; `mcts:50:depth=40`" in spec_note(game, "mcts:50", 2)
    assert "in its 2s a decision plays few of them; `mcts:2s:depth=40`" in spec_note(game, "mcts:2s", 2)
    # a depth already given, another kind of bot, no player count: no such note
    assert spec_note(game, "mcts:depth=40", 2) is None
    assert spec_note(game, "random", 2) is None and spec_note(game, "mcts") is None


def test_no_note_for_a_short_game_and_a_depth_needs_a_score(tmp_path):
    _, short = _game(tmp_path, TRAP, "short.ludus")
    assert spec_note(short, "mcts", 2) is None  # 61 moves
    _, unscored = _game(tmp_path, LONG.replace("define score(s) = points of s\n", ""), "unscored.ludus")
    note = spec_note(unscored, "mcts:30", 2)
    assert "a playout depth (`mcts:30:depth=40`) needs a `define score(s)` to judge the position" in note


def test_a_game_whose_random_play_breaks_a_rule_gets_no_length_note(tmp_path):
    broken = LONG.replace("action Tick:\n    gain 1 ticks", "action Tick:\n    gain 1 ticks\n    gain 1 / (ticks - ticks) ticks")
    _, game = _game(tmp_path, broken, "broken.ludus")
    assert random_length(game, 2) is None and spec_note(game, "mcts", 2) is None


def test_play_and_the_repl_give_the_note_when_the_bot_is_chosen(tmp_path, monkeypatch):
    monkeypatch.setenv("LUDUS_HISTORY", str(tmp_path / "history"))
    path, _ = _game(tmp_path, LONG)
    # P1 moves first; P2's bot does not play before `quit`
    out = CliRunner().invoke(main, ["play", str(path), "--bot", "P2=mcts:20"], input="quit\n")
    assert out.exit_code == 0, out.output
    assert "note: an mcts bot plays every rollout to the end of the match" in out.output
    assert "`mcts:20:depth=40`" in out.output
    out = CliRunner().invoke(main, ["play", str(path)], input="bot P2 mcts\nquit\n")
    assert "note: an mcts bot plays every rollout to the end of the match" in out.output
    assert "`mcts:depth=40`" in out.output
