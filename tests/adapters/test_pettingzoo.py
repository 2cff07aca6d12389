"""The PettingZoo adapter: PettingZoo's own API test on every shipped game, and the environment
checked against the engine (masks, observations, hidden information, rewards, seeding)."""

from __future__ import annotations

import json
import random
import sys
import warnings

import numpy as np
import pytest

from ludus import LudusError
from ludus.adapters import pettingzoo as pz
from ludus.adapters.profile import AdapterError
from tests.adapters.climb import climb_game
from tests.adapters.shipped import FULL, cases, path

pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test, render_test, seed_test  # noqa: E402

_made: dict = {}


def make(name: str, players: int | None = None):
    if (name, players) not in _made:
        _made[name, players] = pz.env(path(name), players)
    return _made[name, players]


@pytest.mark.parametrize(("name", "players"), cases())
def test_api_test_passes(name, players):
    env = make(name, players)
    with warnings.catch_warnings():
        # PettingZoo's test warns about style (agent names like "player_0", a dict observation);
        # its assertions are what must hold
        warnings.simplefilter("ignore")
        for _ in range(3 if FULL else 1):
            api_test(env, num_cycles=1000)
        seed_test(lambda: pz.env(path(name), players), num_cycles=200)


@pytest.mark.parametrize("name", ["examples/market-town.ludus", "examples/connect-four.ludus"])
def test_render_test_passes(name, capsys):
    render_test(lambda render_mode=None: pz.env(path(name), render_mode=render_mode))
    human = pz.env(path(name), render_mode="human")
    human.reset(seed=0)
    capsys.readouterr()
    assert human.render() is None
    assert json.loads(capsys.readouterr().out)["game"] == human.profile.game.title
    ansi = pz.env(path(name), render_mode="ansi")
    ansi.reset(seed=0)
    assert json.loads(ansi.render()) == ansi.match.view(None)


def play(env, seed: int, check=None) -> list:
    """Play random legal actions to the end; `check(env, agent, obs)` before each move. Returns
    the labels taken."""
    rng = random.Random(seed)
    env.reset(seed=seed)
    taken = []
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if check is not None:
            check(env, agent, obs)
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        action = int(rng.choice(list(legal)))
        taken.append(env.action_labels()[action])
        env.step(action)
    return taken


@pytest.mark.parametrize("name", ["examples/market-town.ludus", "games/uprising.ludus"])
def test_the_mask_and_the_observation_are_the_seats(name):
    env = make(name)

    def check(env, agent, obs):
        seat = env.possible_agents.index(agent)
        view = json.loads(env.decode(obs))
        assert view == env.match.view(seat)
        assert view["seat"] == agent
        mask = obs["action_mask"]
        assert mask.dtype == np.int8 and mask.shape == (env.profile.max_actions,)
        if env.terminations[agent]:
            assert not mask.any()
        else:
            assert env.match.current == seat
            assert list(mask) == [1] * len(env.action_labels()) + [0] * (len(mask) - len(env.action_labels()))
            assert env.action_labels() == env.match.legal_actions()
        # every other seat's mask is empty: only the seat to move may act
        for other in env.agents:
            if other != agent:
                assert not env.observe(other)["action_mask"].any()

    for seed in range(3):
        play(env, seed, check)


def test_rewards_are_the_result_at_the_end_only():
    env = make("games/uprising.ludus")
    for seed in range(3):
        env.reset(seed=seed)
        finals = {}
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            if terminated:
                finals[agent] = reward
                env.step(None)
                continue
            assert reward == 0
            env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        result = info["result"]
        assert finals == {a: (1 if a in result["winners"] else -1) for a in env.possible_agents}


def test_the_same_seed_plays_the_same_match():
    env = make("games/uprising.ludus")
    first, again, other = play(env, 7), play(env, 7), play(env, 8)
    assert first == again
    assert first != other


def test_observations_hide_the_other_seats_hand():
    """Market Town's hands are for their owner only: Amber's observation shows Basil's hand as a
    count, never its cards, while Basil's shows them."""
    env = make("examples/market-town.ludus")
    seen = 0

    def check(env, agent, obs):
        nonlocal seen
        hand = env.match.state["places"].get("hand@1", [])
        if not hand or env.terminations[agent]:
            return
        amber = json.loads(env.decode(env.observe("Amber")))["zones"]["hand of Basil"]
        basil = json.loads(env.decode(env.observe("Basil")))["zones"]["hand of Basil"]
        assert amber == {"count": len(hand)}
        assert basil == [env.match.state["ents"][e]["d"] for e in hand]
        seen += 1

    for seed in range(3):
        play(env, seed, check)
    assert seen > 0


def test_an_illegal_action_is_a_clear_error():
    env = make("examples/connect-four.ludus")
    env.reset(seed=0)
    with pytest.raises(AdapterError, match="cannot take action 13"):
        env.step(13)
    with pytest.raises(AdapterError, match="cannot take action"):
        env.step("left")
    env.step(np.int64(0))  # a NumPy integer is an action too
    assert env.match.moves == ["drop in column 1"]


@pytest.mark.parametrize("agent", ["nobody", 0, None])
def test_an_unknown_agent_is_a_clear_error_that_names_the_agents(agent):
    env = make("examples/connect-four.ludus")
    env.reset(seed=0)
    for read in (env.observe, env.observation_space, env.action_space):
        with pytest.raises(AdapterError, match=f"no agent {agent!r}: the agents are Red, Yellow"):
            read(agent)


def test_a_view_past_the_bound_is_a_clear_error():
    import attrs

    base = make("examples/connect-four.ludus")
    with pytest.raises(AdapterError, match="less than the"):
        pz.env(path("examples/connect-four.ludus"), max_view=1)
    env = type(base)(attrs.evolve(base.profile, max_view=100))
    env.reset(seed=0)
    with pytest.raises(AdapterError, match="make the environment again with max_view="):
        env.last()


def test_a_match_past_the_length_bound_is_truncated():
    import attrs

    base = make("games/uprising.ludus")
    assert base.profile.max_length >= 4 * base.profile.seen_length
    env = type(base)(attrs.evolve(base.profile, max_length=6))
    env.reset(seed=3)
    decisions = 0
    while not env.truncations[env.agent_selection]:
        obs, reward, terminated, truncated, info = env.last()
        assert not terminated and reward == 0
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        decisions += 1
    assert env.length == 6 and decisions <= 6  # dice count towards the bound too
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert not env.observe(env.agent_selection)["action_mask"].any()
    for _agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        assert truncated and reward == 0 and info == {"truncated after": 6}
        env.step(None)
    assert env.agents == []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env, num_cycles=1000)


def test_bad_input_is_a_clear_error(tmp_path):
    with pytest.raises(AdapterError, match="is for 2 to 4 players, not 9"):
        pz.env(path("examples/market-town.ludus"), 9)
    with pytest.raises(LudusError):
        pz.env(tmp_path / "missing.ludus")
    with pytest.raises(AdapterError, match="render_mode"):
        type(make("examples/connect-four.ludus"))(make("examples/connect-four.ludus").profile, render_mode="rgb_array")


def test_without_pettingzoo_the_error_names_the_extra(monkeypatch):
    monkeypatch.setattr(pz, "_class", None)
    monkeypatch.setitem(sys.modules, "pettingzoo", None)
    with pytest.raises(ImportError, match=r"pip install 'ludus\[pettingzoo\]'"):
        pz.env(path("examples/connect-four.ludus"))


def test_an_integer_action_of_any_kind_a_discrete_space_holds_is_taken():
    env = make("examples/connect-four.ludus")
    for action in (2, np.int64(2), np.uint8(2), np.array(2)):
        env.reset(seed=0)
        env.step(action)
        assert env.match.moves == ["drop in column 3"]
    for action in (2.0, True, np.array([2]), np.array(2.0)):
        with pytest.raises(AdapterError, match="cannot take action"):
            env.step(action)


def test_seeds_are_whole_numbers_of_0_or_more():
    env = make("games/uprising.ludus")
    matches = []
    for seed in (np.int64(7), 7, 8):  # a sampler's seed is a NumPy integer
        env.reset(seed=seed)
        matches.append(env.match.to_json())
    assert matches[0] == matches[1] != matches[2]
    for seed in (-7, 1.5, "7", True):
        with pytest.raises(AdapterError, match=f"seed is a whole number of 0 or more, or None, not {seed!r}"):
            env.reset(seed=seed)


def test_before_reset_and_after_every_agent_left_are_clear_errors():
    env = pz.env(path("examples/connect-four.ludus"))
    for call in (lambda: env.step(0), lambda: env.observe("Red"), env.last, env.action_labels):
        with pytest.raises(AdapterError, match=r"reset\(\) needs to be called before"):
            call()
    play(env, 0)
    assert env.agents == []
    for call in (lambda: env.step(None), lambda: env.step(0), env.last):
        with pytest.raises(AdapterError, match=r"every agent has left the match \(it is over\): reset\(\) to play again"):
            call()
    env.reset(seed=1)
    assert env.agents == ["Red", "Yellow"]


# Seats climb until one stops; a climb rolls a die, and from the twelfth climb on costs that
# many coins, which no seat has: the rules fail after the die (a RuleError), halfway through
# the step. Random playouts stop long before.
CLIMB = climb_game(roll=True)


def snapshot(env) -> tuple:
    return (env.agent_selection, env.length, list(env.match.moves), env.match.to_json(), env._rng.getstate(),
            dict(env.rewards), dict(env._cumulative_rewards), dict(env.terminations), dict(env.infos),
            [env.decode(env.observe(a)) for a in env.possible_agents], env.action_labels())


def test_a_rule_that_fails_halfway_leaves_the_environment_as_it_was(tmp_path):
    from ludus import RuleError

    file = tmp_path / "climb.ludus"
    file.write_text(CLIMB, encoding="utf-8")
    env = pz.env(file)
    env.reset(seed=1)
    for _ in range(11):
        env.step(1)
    before = snapshot(env)
    with pytest.raises(RuleError, match="cannot pay"):
        env.step(1)  # the die is rolled, then the pay fails
    assert snapshot(env) == before
    env.step(0)  # and it plays on from there
    assert all(env.terminations.values())


def test_a_step_into_a_decision_past_the_bound_fails_whole():
    import attrs

    base = make("examples/market-town.ludus")
    env = type(base)(attrs.evolve(base.profile, max_actions=4))
    rng = random.Random(0)
    for seed in range(20):
        try:
            env.reset(seed=seed)
        except AdapterError:
            continue
        while not env.terminations[env.agent_selection]:
            before = snapshot(env)
            action = rng.randrange(len(env.action_labels()))
            try:
                env.step(action)
            except AdapterError as exc:
                assert "with max_actions=" in str(exc)
                assert snapshot(env) == before
                return
    pytest.fail("no step led to a decision of more than 4 options")


def test_numpy_integers_are_whole_numbers_for_players_and_bounds():
    env = pz.env(path("examples/market-town.ludus"), np.int64(3), max_actions=np.int32(30))
    assert env.possible_agents == ["Amber", "Basil", "Cobalt"] and env.profile.max_actions == 30
    with pytest.raises(AdapterError, match="players is a whole number, not 3.0"):
        pz.env(path("examples/market-town.ludus"), 3.0)


def _play_on(env, rng: random.Random, steps: int) -> list:
    """`steps` random legal steps (or a finished agent's None); what each agent saw before each."""
    seen = []
    for _ in range(steps):
        if not env.agents:
            break
        agent = env.agent_selection
        seen.append((agent, env.action_labels(), [env.decode(env.observe(a)) for a in env.possible_agents],
                     dict(env.rewards), dict(env.terminations)))
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
        else:
            env.step(rng.randrange(len(env.action_labels())))
    return seen


def test_an_environment_pickles_and_plays_on_as_the_original():
    """Vector environments and multiprocessing send environments to other processes by pickle;
    the class was local to a function, which pickle cannot name. Market Town rolls dice inside
    the environment and hides hands: the generator and the match come back as they were."""
    import pickle

    env = pz.env(path("examples/market-town.ludus"), 3)
    fresh = pickle.loads(pickle.dumps(env))  # before any reset
    assert fresh.match is None and fresh.possible_agents == env.possible_agents
    env.reset(seed=3)
    _play_on(env, random.Random(0), 9)
    back = pickle.loads(pickle.dumps(env))
    assert snapshot(back) == snapshot(env)
    assert _play_on(back, random.Random(1), 400) == _play_on(env, random.Random(1), 400)
    assert snapshot(back) == snapshot(env) and not env.agents  # both to the end of the match
    # and the same seed gives the same next match, in the copy of a fresh one too
    for one in (env, back, fresh):
        one.reset(seed=11)
    assert snapshot(back) == snapshot(env) == snapshot(fresh)
    assert _play_on(fresh, random.Random(2), 50) == _play_on(env, random.Random(2), 50)


def test_a_pickled_environment_plays_on_in_another_process(tmp_path):
    import os
    import pickle
    import subprocess

    from tests.helpers import ROOT

    env = pz.env(path("examples/market-town.ludus"))
    env.reset(seed=5)
    _play_on(env, random.Random(0), 6)
    saved = tmp_path / "env.pickle"
    saved.write_bytes(pickle.dumps(env))
    code = ("import pickle, random, sys\nfrom tests.adapters.test_pettingzoo import _play_on\n"
            f"env = pickle.loads(open({str(saved)!r}, 'rb').read())\n"
            "print(repr(_play_on(env, random.Random(4), 60)))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, cwd=tmp_path,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == repr(_play_on(env, random.Random(4), 60))


def test_an_environment_whose_game_file_changed_is_not_read_back_against_other_rules(tmp_path, monkeypatch):
    import pickle

    file = tmp_path / "climb.ludus"
    file.write_text(CLIMB, encoding="utf-8")
    env = pz.env(file)
    env.reset(seed=1)
    env.step(1)
    data = pickle.dumps(env)
    monkeypatch.setattr(pz, "_GAMES", {})  # as in another process, which knows no game yet
    assert pickle.loads(data).match.moves == env.match.moves  # the file as it was: read back
    file.write_text(climb_game(pay_from=11, roll=True), encoding="utf-8")
    monkeypatch.setattr(pz, "_GAMES", {})
    with pytest.raises(AdapterError, match="climb.ludus has changed since this environment was pickled"):
        pickle.loads(data)


def test_an_environment_of_a_game_not_loaded_from_a_file_says_it_cannot_pickle():
    import pickle

    import ludus

    game = ludus.load(path("examples/connect-four.ludus"))
    game.path = ""  # as compile_game leaves a game compiled from declarations in memory
    with pytest.raises(AdapterError, match="this game was not loaded from one; make it with env"):
        pickle.dumps(pz.env(game))


def test_reading_an_environment_back_in_its_process_neither_loads_nor_scans_the_game_again(monkeypatch):
    import pickle

    from ludus.adapters import profile

    env = pz.env(path("examples/love-letter.ludus"))
    env.reset(seed=2)
    scans, loads = [], []
    real_scan, real_load = profile._scan, pz.load_game
    monkeypatch.setattr(profile, "_scan", lambda *a: scans.append(a[1:]) or real_scan(*a))
    monkeypatch.setattr(pz, "load_game", lambda *a: loads.append(a) or real_load(*a))
    for _ in range(3):
        back = pickle.loads(pickle.dumps(env))
        assert back.profile.game is env.profile.game and back.profile.max_actions == env.profile.max_actions
    assert scans == [] and loads == []  # kept under the sizes the first scan found


def test_a_game_no_environment_holds_is_let_go(tmp_path):
    # the games kept for reading environments back are held weakly: a run that makes
    # environments of many variants does not keep every one of them alive
    import gc

    file = tmp_path / "climb.ludus"
    file.write_text(CLIMB, encoding="utf-8")
    env = pz.env(file)
    fingerprint = env.profile.game.fingerprint
    assert pz._GAMES.get(fingerprint) is env.profile.game
    del env
    pz.scan.__globals__["_scans"].clear()  # the scan's own cache holds the game as well
    gc.collect()
    assert pz._GAMES.get(fingerprint) is None
