"""Greedy and MCTS bots: what they are given, what they choose, and that they replay alike."""

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from ludus.bots import Observation, make_bot, observe
from ludus.bots.evaluate import NotAScore
from ludus.cli import main
from ludus.engine.runtime import Runtime
from ludus.engine.view import _can_see
from ludus.pipeline import load
from ludus.simulation import simulate
from tests.helpers import no_crash

CONNECT = "examples/connect-four.ludus"
MARKET = "examples/market-town.ludus"
VOTES = "games/votes-for-women/votes-for-women.ludus"


def connect_four_with(tmp_path: Path, extra: str) -> Path:
    text = Path(CONNECT).read_text(encoding="utf-8")
    text = text[: text.index("\ntest ")] + "\n" + extra + "\n"
    path = tmp_path / "c4.ludus"
    path.write_text(text, encoding="utf-8")
    return path


def play(match, moves: list[int]) -> None:
    for col in moves:
        match.apply(f"drop in column {col}")


# ── what a bot is given ──


def test_a_bot_in_a_game_with_hidden_hands_never_receives_the_hidden_cards():
    """The bot's only input is the Observation: its seat's view and the legal actions (nothing in
    them names a card the seat cannot see), and samples that deal the unseen cards anew."""
    game = load(VOTES)
    match = game.new_match(2, seed=11)
    seat = 0  # the Suffragist; the Opposition's hand is hidden from her
    bot = make_bot("mcts:4", game, seat, 1)
    given: list[Observation] = []
    real_choose = bot.choose

    def spy(*args, **kwargs):
        assert not kwargs and len(args) == 1 and isinstance(args[0], Observation)
        given.append(args[0])
        return real_choose(*args)

    bot.choose = spy
    rng = random.Random(3)
    checked = 0
    for _ in range(400):
        if match.is_over:
            break
        cur = match.current
        if cur != seat:
            match.apply_fast(rng.randrange(len(match.legal_actions())))
            continue
        obs = observe(match, seat)
        rt = Runtime(game, match.state, [])
        ents = match.state["ents"]
        unseen = {ents[e]["d"] for e in match.state["places"].get("hand@1", []) if not _can_see(rt, e, seat)}
        # a name the seat cannot know: in the Opposition's hand, and nowhere the Suffragist sees
        shown = json.dumps(match.view(seat))
        secret = {name for name in unseen if json.dumps(name)[1:-1] not in shown}
        index = bot.choose(obs)
        assert 0 <= index < len(obs.legal)
        o = given[-1]
        assert o.seat == seat and o.view == match.view(seat) and o.legal == match.legal_actions()
        passed = json.dumps([o.view, o.legal])
        for name in secret:
            assert json.dumps(name)[1:-1] not in passed
        # the samples it may draw: the real view, and the unseen cards dealt from the unseen ones
        hidden_pool = sorted(ents[e]["d"] for e in range(len(ents))
                             if ents[e]["l"] not in (None, "box") and not _can_see(rt, e, seat))
        for k in range(3):
            sample = o.sample(random.Random(k))
            assert sample.view(seat) == o.view
            srt = Runtime(game, sample.state, [])
            sents = sample.state["ents"]
            assert sorted(sents[e]["d"] for e in range(len(sents))
                          if sents[e]["l"] not in (None, "box") and not _can_see(srt, e, seat)) == hidden_pool
        checked += bool(secret)
        match.apply_fast(index)
        if checked >= 3:
            break
    assert checked >= 3  # the test saw decisions where the Opposition held cards the bot could not know


# ── choosing ──


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_mcts_takes_a_win_and_blocks_a_loss_in_connect_four(seed):
    game = load(CONNECT)
    match = game.new_match(2, seed=0)
    play(match, [1, 2, 1, 2, 1])  # Yellow to move; Red threatens column 1
    bot = make_bot("mcts:30", game, 1, seed)
    assert match.legal_actions()[bot.choose(observe(match, 1))] == "drop in column 1"
    assert bot.iterations == 30  # the block was searched, not only looked up
    match = game.new_match(2, seed=0)
    play(match, [1, 2, 1, 2, 1, 2])  # Red to move and win in column 1
    red = make_bot("mcts:30", game, 0, seed)
    assert match.legal_actions()[red.choose(observe(match, 0))] == "drop in column 1"
    assert red.variant == "UCT"


def test_mcts_still_moves_when_every_move_loses():
    game = load(CONNECT)
    match = game.new_match(2, seed=0)
    play(match, [2, 7, 3, 7, 4])  # Red holds b1 c1 d1: it wins at a1 or e1, Yellow can block one
    bot = make_bot("mcts:10", game, 1, 0)
    _, losing = bot._decisive(match.clone())
    assert losing == set(range(7))  # every move lets Red win
    index = bot.choose(observe(match, 1))
    assert 0 <= index < 7 and bot.iterations == 10


def test_mcts_picks_the_hidden_information_variant_by_itself():
    assert make_bot("mcts", load(MARKET), 0, 1).variant == "ISMCTS"
    assert make_bot("mcts", load(CONNECT), 0, 1).variant == "UCT"


def test_greedy_follows_the_games_score(tmp_path):
    game = load(connect_four_with(
        tmp_path, "define score(s) = size([c for c in cells where c.column == 6 and Disc of s at c > 0])"))
    match = game.new_match(2, seed=0)
    bot = make_bot("greedy", game, 0, 1)
    for _ in range(3):
        assert match.legal_actions()[bot.choose(observe(match, 0))] == "drop in column 6"
        match.apply("drop in column 6")
        match.apply("drop in column 2")


def test_greedy_without_a_score_takes_a_win_when_there_is_one():
    game = load(CONNECT)
    match = game.new_match(2, seed=0)
    play(match, [3, 1, 3, 1, 3, 2])
    bot = make_bot("greedy", game, 0, 9)
    assert match.legal_actions()[bot.choose(observe(match, 0))] == "drop in column 3"


def test_a_score_that_takes_no_seat_is_refused_clearly(tmp_path):
    path = connect_four_with(tmp_path, "define score = 1")
    with pytest.raises(NotAScore, match="must take one seat"):
        make_bot("greedy", load(path), 0, 1)
    out = CliRunner().invoke(main, ["simulate", str(path), "-n", "1", "--bot", "Red=mcts:2"])
    assert out.exit_code == 2 and "must take one seat" in out.output and no_crash(out)


def test_a_time_budget_is_kept():
    import time

    game = load(CONNECT)
    match = game.new_match(2, seed=0)
    bot = make_bot("mcts:300ms", game, 0, 1)
    start = time.perf_counter()
    bot.choose(observe(match, 0))
    assert time.perf_counter() - start < 0.3 + 2.0  # one iteration past the deadline at most
    assert bot.iterations >= 1


# ── reproducible ──


@pytest.mark.parametrize("path, spec", [(MARKET, "mcts:12"), (MARKET, "greedy:3"), (CONNECT, "mcts:8")])
def test_same_seeds_and_specs_give_the_same_moves(path, spec):
    game = load(path)

    def run(seed: int) -> list[str]:
        match = game.new_match(2, seed=4)
        bot = make_bot(spec, game, 0, seed)
        rng = random.Random(2)
        for _ in range(40 if "Connect" in game.title else 200):
            if match.is_over:
                break
            if match.current == 0:
                match.apply(bot.choose(observe(match, 0)))
            else:
                match.apply(rng.randrange(len(match.legal_actions())))
        return match.moves

    assert run(7) == run(7)


def test_simulate_with_search_bots_is_reproducible():
    game = load(MARKET)
    one = simulate(game, 4, seed=1, bots={0: "mcts:10", 1: "greedy"})
    two = simulate(game, 4, seed=1, bots={0: "mcts:10", 1: "greedy"})
    assert one.lengths == two.lengths and one.wins == two.wins and not one.errors
    assert "bots: Amber=mcts:10, Basil=greedy" in one.summary()


def test_the_mcts_bot_beats_random_play_at_connect_four():
    report = simulate(load(CONNECT), 3, seed=0, bots={1: "mcts:20"})
    assert report.wins["Yellow"] == 3, report.summary()  # random Yellow: about 45% of its matches


def test_play_with_a_search_bot_from_the_command_line():
    out = CliRunner().invoke(main, ["play", MARKET, "--bot", "Basil=mcts:5"], input="1\n1\n1\nquit\n")
    assert out.exit_code == 0, out.output
    assert "Basil (bot): " in out.output and no_crash(out) and "internal error" not in out.output


def test_the_repl_hands_a_seat_to_a_search_bot_and_refuses_bad_specs():
    from tests.repl.test_repl import feed, make_repl

    repl, out = make_repl()
    for line, words in [("bot Basil mcts:0", "whole number of iterations"), ("bot Basil dragon", "no bot 'dragon'"),
                        ("bot Basil greedy:2.5.1s", "time per decision")]:
        start = len(out.getvalue())
        feed(repl, line)
        assert out.getvalue()[start:].startswith("error: ") and words in out.getvalue()[start:]
    assert repl.bots == {}
    feed(repl, "bot Basil mcts:6")
    assert repl.bots == {1: "mcts:6"} and "Basil is played by the mcts:6 bot" in out.getvalue()
    for _ in range(6):
        if repl.match.current != 0:
            break
        feed(repl, "1")
    assert "Basil (bot): " in out.getvalue()
    assert repl.bot_players[1].variant == "ISMCTS" and repl.bot_players[1].iterations in (0, 6)
    assert repl.match.current in (0, "terminal")  # the bot played Basil's moves and gave the turn back
