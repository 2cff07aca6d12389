"""Bots in games with a `payoff`: each seat plays for what the game says it gets, so seats that share
one payoff (a cooperative game, Hanabi's `payoff show_score`) play for the table's score."""

from pathlib import Path

import pytest

from ludus.bots import make_bot, observe
from ludus.bots.evaluate import Evaluator, no_depth_score_note, no_score_note
from ludus.pipeline import load

# The table builds together, five turns; a doom, on the first, ends the match at once, lost by every
# seat, with nothing.
TOGETHER = """game "Together"
players 2
counter built
counter doomed
payoff if doomed > 0 then 0 else built
{extra}
action Build:
    label "build"
    increase built by 1

action Idle:
    label "idle"

action Doom:
    label "doom"
    increase doomed by 1
    lose seats

flow:
    turn first(seats):
        offer Doom, Idle, Build
    for round in 1 to 2:
        for each s in seats:
            turn s:
                offer Idle, Build
    win seats
"""

# Each seat for itself: a gift gives the giver 1 and the other seat 3.
GIFTS = """game "Gifts"
players 2
counter coins per seat

payoff coins of seat

action Gift:
    label "gift"
    increase coins by 1
    increase coins of left(actor) by 3

action Keep:
    label "keep"

flow:
    for each s in seats:
        turn s:
            offer Keep, Gift
    end game
"""


def game_of(tmp_path: Path, text: str, name: str = "g.ludus"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return load(path)


def chosen(game, spec: str, seed: int, seat: int = 0, moves: tuple[str, ...] = ()) -> str:
    match = game.new_match(2, seed=0)
    for label in moves:
        match.apply(label)
    bot = make_bot(spec, game, seat, seed)
    return match.legal_actions()[bot.choose(observe(match, seat))]


@pytest.mark.parametrize("seed", range(8))
def test_greedy_raises_a_shared_score(tmp_path, seed):
    # every seat's payoff is the same number: as a margin over the others it would always be 0
    game = game_of(tmp_path, TOGETHER.format(extra=""))
    assert chosen(game, "greedy", seed) == "build"
    assert chosen(game, "greedy", seed, seat=1, moves=("idle",)) == "build"


@pytest.mark.parametrize("seed", range(8))
def test_greedy_reads_a_score_as_an_estimate_of_its_own_payoff(tmp_path, seed):
    # a shared `score(s)` is read as the seat's own value too, and before the payoff
    game = game_of(tmp_path, TOGETHER.format(extra="define score(s) = built\n"))
    assert chosen(game, "greedy", seed) == "build"
    contrary = game_of(tmp_path, TOGETHER.format(extra="define score(s) = 5 - built * 2\n"), "contrary.ludus")
    assert chosen(contrary, "greedy", seed) == "idle"


@pytest.mark.parametrize("seed", range(8))
def test_mcts_plays_for_the_tables_result(tmp_path, seed):
    """A shared win and a shared loss are no longer both 1/n: the search tells them apart."""
    game = game_of(tmp_path, TOGETHER.format(extra=""))
    match = game.new_match(2, seed=0)
    bot = make_bot("mcts:60", game, 0, seed)
    choice = match.legal_actions()[bot.choose(observe(match, 0))]
    assert choice == "build"
    assert bot.low == 0.0 and 0.0 < bot.high <= 5.0


def backed_up(bot) -> list[list[float]]:
    """Each seat's rewards, one list per playout, as the bot's search reads them (filled as it runs)."""
    backed: list[list[float]] = []
    values = bot.evaluator.values
    bot.evaluator.values = lambda state: backed.append(values(state)) or backed[-1]
    return backed


def test_mcts_backs_up_each_seats_payoff(tmp_path):
    game = game_of(tmp_path, TOGETHER.format(extra=""))
    match = game.new_match(2, seed=0)
    bot = make_bot("mcts:40", game, 0, 1)
    backed = backed_up(bot)
    bot.choose(observe(match, 0))
    assert len(backed) == 40
    # both seats get the same payoff in every playout, a doom gives 0, a full show up to 5
    assert all(a == b for a, b in backed)
    assert {a for a, _ in backed} >= {0.0} and max(a for a, _ in backed) >= 2.0


def test_mcts_with_a_depth_reads_the_payoff_where_it_cuts(tmp_path):
    game = game_of(tmp_path, TOGETHER.format(extra=""))
    match = game.new_match(2, seed=0)
    bot = make_bot("mcts:30:depth=1", game, 0, 2)
    backed = backed_up(bot)
    assert match.legal_actions()[bot.choose(observe(match, 0))] == "build"
    # cut after one random move, most playouts end before the match does: the payoff read there
    assert bot.cut > 0 and any(0.0 < a < 5.0 for a, _ in backed)


@pytest.mark.parametrize("spec", ["greedy", "mcts:40"])
def test_each_seat_plays_for_its_own_payoff_not_its_margin(tmp_path, spec):
    # a gift gives me 1 and you 3: a bot that compared its payoff with yours would keep
    game = game_of(tmp_path, GIFTS)
    for seed in range(3):
        assert chosen(game, spec, seed) == "gift"


def test_the_value_of_a_finished_match_is_its_payoff(tmp_path):
    game = game_of(tmp_path, TOGETHER.format(extra=""))
    ev = Evaluator(game)
    match = game.new_match(2, seed=0)
    match.apply("doom")
    assert match.is_over and match.result["winners"] == [] and ev.values(match._state) == [0.0, 0.0]
    match = game.new_match(2, seed=0)
    for label in ("build", "idle", "build", "idle", "build"):
        match.apply(label)
    assert match.is_over and match.result["winners"] == ["P1", "P2"] and ev.values(match._state) == [3.0, 3.0]


def test_no_note_that_greedy_plays_at_random_in_a_game_with_a_payoff(tmp_path):
    game = game_of(tmp_path, TOGETHER.format(extra=""))
    assert no_score_note(game) is None and no_depth_score_note(game) is None
    hanabi = load("examples/hanabi.ludus")
    assert no_score_note(hanabi) is None and no_depth_score_note(hanabi) is None


def test_games_without_a_payoff_are_still_played_for_the_win():
    ev = Evaluator(load("examples/market-town.ludus"))
    assert not ev.plays_for_payoff
    assert no_score_note(load("examples/connect-four.ludus")) is not None


def test_mcts_does_not_take_a_win_at_once_over_a_better_payoff(tmp_path):
    # stopping wins the match at once with a pot of 1; growing it ends in a shared win worth 3 or 5
    game = game_of(tmp_path, '''game "Cash"
players 2
counter pot start 1
payoff pot

action Stop:
    label "stop"
    win actor

action Grow:
    label "grow"
    increase pot by 2

flow:
    for each s in seats:
        turn s:
            offer Stop, Grow
    win seats
''')
    for seed in range(3):
        assert chosen(game, "mcts:20", seed) == "grow"


def test_simulate_hanabi_with_greedy_bots_gives_no_note_and_reports_the_shared_score():
    from click.testing import CliRunner

    from ludus.cli import main

    out = CliRunner().invoke(main, ["simulate", "examples/hanabi.ludus", "-n", "2", "-w", "1",
                                    "--bot", "P1=greedy:1", "--bot", "P2=greedy:1"])
    assert out.exit_code == 0, out.output
    assert "note:" not in out.output and "bots: P1=greedy:1, P2=greedy:1" in out.output
    assert "payoff P1: mean" in out.output and "errors: 0" in out.output


# ── a payoff that cannot be read before the end ──

# The payoff is the table's points per play, which cannot be read until someone has played (a
# division by 0). Conceding ends the match at once, lost for the seat that concedes; waiting
# leads to a position where the payoff cannot be read yet, and at the end to a shared win.
AVERAGE = """game "Average"
players 2
counter points
counter plays
payoff points / plays

action Concede:
    label "concede"
    increase plays by 1
    win left(actor)

action Wait:
    label "wait"

flow:
    for round in 1 to 2:
        for each s in seats:
            turn s:
                offer Concede, Wait
    increase plays by 1
    increase points by 4
    win seats
"""


@pytest.mark.parametrize("seed", range(8))
def test_greedy_judges_a_decision_by_wins_when_the_payoff_cannot_be_read(tmp_path, seed):
    # read as a move that broke a rule, waiting was worse than conceding the match
    game = game_of(tmp_path, AVERAGE)
    match = game.new_match(2, seed=0)
    bot = make_bot("greedy", game, 0, seed)
    assert match.legal_actions()[bot.choose(observe(match, 0))] == "wait"
    assert bot.unread == 1  # this decision was judged by wins and losses


def test_greedy_reads_the_payoff_again_at_the_next_decision(tmp_path):
    game = game_of(tmp_path, AVERAGE.replace('label "wait"\n', 'label "wait"\n    increase plays by 1\n'))
    match = game.new_match(2, seed=0)
    bot = make_bot("greedy", game, 0, 0)
    bot.choose(observe(match, 0))
    assert bot.unread == 0


def test_a_simulation_of_greedy_bots_outlives_an_unreadable_payoff(tmp_path):
    from ludus.simulation import simulate

    game = game_of(tmp_path, AVERAGE)
    report = simulate(game, 6, seed=1, bots={0: "greedy", 1: "greedy:2"})
    assert not report.errors and report.shared == {"P1": 6, "P2": 6}  # no seat concedes


def test_mcts_with_a_depth_plays_on_where_the_payoff_cannot_be_read(tmp_path):
    game = game_of(tmp_path, AVERAGE)
    match = game.new_match(2, seed=0)
    played_on = 0
    for seed in range(4):
        bot = make_bot("mcts:30:depth=1", game, 0, seed)
        assert match.legal_actions()[bot.choose(observe(match, 0))] == "wait"
        # no playout was lost to the payoff: those cut where it could not be read went on to the end
        assert bot.failed == 0
        played_on += bot.played_on
    assert played_on > 0


@pytest.mark.parametrize("seed", range(4))
def test_greedy_judges_by_wins_when_the_score_cannot_be_read(tmp_path, seed):
    game = game_of(tmp_path, AVERAGE.replace("payoff points / plays", "define score(s) = points / plays"))
    match = game.new_match(2, seed=0)
    bot = make_bot("greedy", game, 0, seed)
    assert match.legal_actions()[bot.choose(observe(match, 0))] == "wait" and bot.unread == 1


# ── a cooperative game without a payoff ──

# TOGETHER without its payoff: the table wins together at the end, unless a doom loses it at once.
COOP = TOGETHER.replace("payoff if doomed > 0 then 0 else built\n", "")


def test_a_shared_win_is_worth_more_than_a_shared_loss_without_a_payoff(tmp_path):
    game = game_of(tmp_path, COOP.format(extra=""))
    ev = Evaluator(game)
    assert not ev.plays_for_payoff
    lost = game.new_match(2, seed=0)
    lost.apply("doom")
    won = game.new_match(2, seed=0)
    for label in ("build", "idle", "build", "idle", "build"):
        won.apply(label)
    assert lost.result["winners"] == [] and won.result["winners"] == ["P1", "P2"]
    assert ev.rewards(won._state) == [0.75, 0.75] and ev.rewards(lost._state) == [0.5, 0.5]


def test_a_sole_win_is_worth_more_than_a_shared_one_and_a_loss_least():
    # 4 seats: alone 1; with one other 3/4; all four 5/8; no winner 1/2, as even; a seat that did not win 0
    state = {"nseats": 4, "result": {"winners": [2], "losers": [0, 1, 3]}}
    assert Evaluator.result_rewards(state) == [0.0, 0.0, 1.0, 0.0]
    state["result"] = {"winners": [0, 2], "losers": [1, 3]}
    assert Evaluator.result_rewards(state) == [0.75, 0.0, 0.75, 0.0]
    state["result"] = {"winners": [0, 1, 2, 3], "losers": []}
    assert Evaluator.result_rewards(state) == [0.625] * 4
    state["result"] = {"winners": [], "losers": [0, 1, 2, 3]}
    assert Evaluator.result_rewards(state) == [0.5] * 4


@pytest.mark.parametrize("seed", range(8))
def test_mcts_avoids_a_shared_loss_in_a_cooperative_game_without_a_payoff(tmp_path, seed):
    game = game_of(tmp_path, COOP.format(extra=""))
    assert chosen(game, "mcts:30", seed) != "doom"


@pytest.mark.parametrize("seed", range(8))
def test_greedy_takes_a_shared_win_over_a_shared_loss_without_a_payoff(tmp_path, seed):
    # the last turn: building ends the match in a shared win; a doom, offered here too, loses it
    game = game_of(tmp_path, COOP.format(extra="").replace("offer Idle, Build", "offer Doom, Idle, Build"))
    assert chosen(game, "greedy", seed, seat=1, moves=("idle", "idle", "idle", "idle")) in ("idle", "build")
