"""A ludus game as a PettingZoo AEC environment: `env(path, players=None)`.

- Agents are the seat names; `agent_selection` is the seat whose decision is pending.
- Action space: `Discrete(max_actions)`, a bound found by a scan of random playouts (see
  `profile`); action i is the i-th legal option of the state, in the engine's order, and the
  observation's `action_mask` marks the legal ones. `env.action_labels()` gives the labels. A
  masked-out action, or a state with more options than the bound, is an AdapterError. A step
  that raises (that, or a rule failing: a RuleError) leaves the environment as it was.
- Observation, per seat: a dict of `observation`, the seat's view (`match.view(seat)` as JSON
  text with sorted keys, ASCII) as bytes in a zero-padded `uint8` array of `max_view` bytes
  (`env.decode(obs)` gives the text back), and `action_mask`, `int8` of `max_actions`.
- Chance: PettingZoo has no chance seat, so dice are rolled inside the environment by a
  generator seeded by `reset(seed=...)`, and each match's shuffles follow from a seed drawn from
  it; the same seed gives the same matches. `reset` reads none of its `options`.
- Rewards: `match.returns()` when the match ends, 0 before. Every agent is terminated then.
- Length: a match that reaches `max_length` decisions (dice included; by default four times the
  longest scanned match, at least 1,000) without ending is cut short: every agent truncated.

PettingZoo and Gymnasium are imported when first needed: without them, `env` says which extra
to install.

An environment pickles with its match, the generator of its dice and its agents' records, so it
comes back where it was (see `_unpickle`); read back in another process, it loads the game again
from its file.
"""

from __future__ import annotations

import json
import os
import random
import weakref

from ..engine import CHANCE
from ..engine.match import Match
from .profile import AdapterError, check_options, load_game, scan, view_text, whole

EXTRA = "pip install 'ludus[pettingzoo]'"

_class = None


def _env_class():
    global _class
    if _class is None:
        try:
            import gymnasium
            import numpy
            import pettingzoo
        except ImportError:
            raise ImportError(f"the PettingZoo adapter needs PettingZoo and Gymnasium: {EXTRA}") from None
        _class = _define(pettingzoo, gymnasium, numpy)
    return _class


def env(path, players=None, *, max_actions: int | None = None, max_view: int | None = None,
        max_length: int | None = None, render_mode: str | None = None):
    """The game at `path` (a .ludus file) for `players` seats (default: its least) as a PettingZoo
    AEC environment. Bad input raises the pipeline's LudusError or an AdapterError."""
    cls = _env_class()
    _check_render_mode(render_mode)  # before the scan, which takes a while
    return cls(scan(path, players, max_actions=max_actions, max_view=max_view, max_length=max_length),
               render_mode=render_mode)


RENDER_MODES = ("ansi", "human")


def _check_render_mode(render_mode) -> None:
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise AdapterError(f"render_mode is None, 'ansi' or 'human', not {render_mode!r}")


# compiled games by fingerprint: an environment read back in the process that pickled it takes
# the game it came from, even when its file has changed since. Weak: a game no environment holds
# any more is let go (a long run that makes environments of many variants), and one read back
# after that is loaded from its file again
_GAMES: weakref.WeakValueDictionary = weakref.WeakValueDictionary()


def _unpickle(recipe: dict, saved: dict):
    """An environment as `LudusEnv.__reduce__` kept it: the game loaded from its file (or known in
    this process), sized as before, then the match and the records put back."""
    cls = _env_class()
    game = _GAMES.get(recipe["fingerprint"])
    if game is None:
        game = load_game(recipe["path"])
        if game.fingerprint != recipe["fingerprint"]:
            raise AdapterError(f"{recipe['path']} has changed since this environment was pickled: "
                               "it cannot be read back against other rules")
    profile = scan(game, recipe["players"], max_actions=recipe["max_actions"], max_view=recipe["max_view"],
                   max_length=recipe["max_length"])
    env = cls(profile, render_mode=recipe["render_mode"])
    env._rng.setstate(saved["rng"])
    if saved.get("match") is not None:
        env.match = Match.from_json(game, saved["match"])
        for name in env._STATE:
            if name != "match":
                setattr(env, name, saved[name])
    return env


def _seed(seed):
    """A seed as Gymnasium takes one, a whole number of 0 or more; NumPy's integers too, which
    samplers hand out. `random.Random` would take anything, and makes -3 the same seed as 3."""
    if whole(seed) is None or seed < 0:
        raise AdapterError(f"seed is a whole number of 0 or more, or None, not {seed!r}")
    return whole(seed)


def _define(pettingzoo, gymnasium, np):  # noqa: C901
    spaces = gymnasium.spaces

    class LudusEnv(pettingzoo.AECEnv):
        metadata = {"name": "ludus", "render_modes": list(RENDER_MODES), "is_parallelizable": False}

        def __init__(self, profile, render_mode=None):
            super().__init__()
            _check_render_mode(render_mode)
            self.profile = profile
            self.render_mode = render_mode
            self.metadata = {**self.metadata, "name": f"ludus: {profile.game.title}"}
            self.possible_agents = list(profile.seat_names)
            n, size = profile.max_actions, profile.max_view
            obs_space = spaces.Dict({
                "observation": spaces.Box(low=0, high=255, shape=(size,), dtype=np.uint8),
                "action_mask": spaces.Box(low=0, high=1, shape=(n,), dtype=np.int8),
            })
            self._obs_spaces = {a: obs_space for a in self.possible_agents}
            self._act_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
            self._rng = random.Random()
            self.match = None
            game = profile.game
            # where to load the game from when the environment is read back (pickle), whatever
            # the working directory is then
            self._path = os.path.abspath(game.path) if game.path else None
            if game.fingerprint:
                _GAMES[game.fingerprint] = game

        def __reduce__(self):
            """Pickled as what makes it again: the game's file and sizes, then the match (as its
            saved JSON), the dice generator and every agent's records. PettingZoo's own
            environments pickle their constructor's arguments only and come back new; this one
            comes back where it was, to play on as the original would."""
            p = self.profile
            if self._path is None or not p.game.fingerprint:
                raise AdapterError(f"{p.game.title}: an environment pickles as the path of its game file, and this "
                                   "game was not loaded from one; make it with env(path)")
            recipe = {"path": self._path, "fingerprint": p.game.fingerprint, "players": p.players,
                      "max_actions": p.max_actions, "max_view": p.max_view, "max_length": p.max_length,
                      "render_mode": self.render_mode}
            saved = {"rng": self._rng.getstate(), "match": None}
            if self.match is not None:
                saved.update({name: getattr(self, name) for name in self._STATE})
                saved["match"] = self.match.to_json()
            return _unpickle, (recipe, saved)

        def _seat(self, agent) -> int:
            """The seat of an agent's name, or an error naming the agents (a KeyError or a
            ValueError from a list would not say which names there are)."""
            if agent.__class__ is not str or agent not in self.possible_agents:
                raise AdapterError(f"no agent {agent!r}: the agents are {', '.join(self.possible_agents)}")
            return self.possible_agents.index(agent)

        def observation_space(self, agent):
            return self._obs_spaces[self.possible_agents[self._seat(agent)]]

        def action_space(self, agent):
            return self._act_spaces[self.possible_agents[self._seat(agent)]]

        def reset(self, seed=None, options=None):
            # `options` is taken and not read: no key means anything here, and an unknown key is
            # no error, since PettingZoo's api_test itself resets with {"options": 1}
            rng = self._rng if seed is None else random.Random(_seed(seed))
            before = self._saved()
            try:
                self._rng = rng
                p = self.profile
                self.match = Match.new(p.game, p.players, seed=self._rng.getrandbits(63), chance="manual")
                self.length = 0  # decisions so far, dice included
                self.agents = list(self.possible_agents)
                self.rewards = {a: 0 for a in self.agents}
                self._cumulative_rewards = {a: 0 for a in self.agents}
                self.terminations = {a: False for a in self.agents}
                self.truncations = {a: False for a in self.agents}
                self.infos = {a: {} for a in self.agents}
                self._settle()
            except BaseException:
                self._restore(before)
                raise

        # What a step or a reset changes besides the match (which `undo` puts back): copied
        # before and put back when it fails, so that it fails whole.
        _STATE = ("match", "length", "agents", "rewards", "_cumulative_rewards", "terminations",
                  "truncations", "infos", "agent_selection")

        def _saved(self) -> dict:
            saved = {name: getattr(self, name) for name in self._STATE if hasattr(self, name)}
            for name, value in saved.items():
                if isinstance(value, (dict, list)):
                    saved[name] = value.copy()
            saved["_rng"] = self._rng.getstate()
            saved["moves"] = None if self.match is None else len(self.match.history)
            return saved

        def _restore(self, saved: dict) -> None:
            saved = dict(saved)
            self._rng.setstate(saved.pop("_rng"))
            moves = saved.pop("moves")
            match = saved.get("match")
            if match is not None:
                while len(match.history) > moves:
                    match.undo()
            for name in self._STATE:
                if name in saved:
                    setattr(self, name, saved[name])
                elif hasattr(self, name) and name != "match":
                    delattr(self, name)
            self.match = match

        def _started(self, doing: str) -> None:
            if self.match is None:
                raise AdapterError(f"reset() needs to be called before {doing}")

        def _settle(self):
            """Roll any pending dice; then select the seat to move, or end the match."""
            match = self.match
            while match.current == CHANCE and self.length < self.profile.max_length:
                match.apply(self._rng.randrange(len(match.legal_actions())))
                self.length += 1
            if not match.is_over and self.length >= self.profile.max_length:
                # a match longer than the bound is cut short: every agent truncated, no reward
                for agent in self.agents:
                    self.truncations[agent] = True
                    self.infos[agent] = {"truncated after": self.length}
                self.agent_selection = self.agents[0]
            elif match.is_over:
                returns = match.returns()
                for seat, agent in enumerate(self.possible_agents):
                    if agent in self.agents:
                        self.rewards[agent] = returns[seat]
                        self.terminations[agent] = True
                        self.infos[agent] = {"result": match.result}
                self.agent_selection = self.agents[0] if self.agents else None
            else:
                check_options(self.profile, match.legal_actions())
                self.agent_selection = self.possible_agents[match.current]

        def observe(self, agent):
            self._started("observe")
            seat = self._seat(agent)
            text = view_text(self.match, seat).encode("ascii")
            if len(text) > self.profile.max_view:
                raise AdapterError(
                    f"{self.profile.game.title}: {agent}'s view is {len(text):,} bytes, more than the {self.profile.max_view:,} "
                    f"reserved (the longest random playouts met was {self.profile.seen_view:,}); make the environment "
                    f"again with max_view={len(text) * 2}")
            obs = np.zeros(self.profile.max_view, np.uint8)
            obs[:len(text)] = np.frombuffer(text, np.uint8)
            mask = np.zeros(self.profile.max_actions, np.int8)
            if not self.match.is_over and self.match.current == seat and not self.truncations.get(agent):
                mask[:len(self.match.legal_actions())] = 1
            return {"observation": obs, "action_mask": mask}

        @staticmethod
        def decode(observation) -> str:
            """The view text inside an observation (its `observation` array, or the dict)."""
            if isinstance(observation, dict):
                observation = observation["observation"]
            return bytes(observation).rstrip(b"\0").decode("ascii")

        def action_labels(self) -> list[str]:
            """The legal options of the pending decision, in action order."""
            self._started("action_labels")
            return [] if self.match.is_over else self.match.legal_actions()

        def last(self, observe=True):
            self._started("last")
            if not self.agents:
                raise AdapterError(self._all_out("last"))
            return super().last(observe)

        def _all_out(self, doing: str) -> str:
            return f"every agent has left the match (it is over): reset() to play again before {doing}"

        def step(self, action):
            self._started("step")
            if not self.agents:
                raise AdapterError(self._all_out("step"))
            agent = self.agent_selection
            if self.terminations[agent] or self.truncations[agent]:
                self._was_dead_step(action)
                return
            options = self.match.legal_actions()
            if isinstance(action, np.ndarray) and action.shape == () and np.issubdtype(action.dtype, np.integer):
                action = action[()]  # a 0-d array of an integer is in a Discrete space too
            if isinstance(action, bool) or not isinstance(action, (int, np.integer)) or not 0 <= action < len(options):
                raise AdapterError(f"{agent} cannot take action {action!r}: the legal actions are 0 to {len(options) - 1}"
                                   " (see the observation's action_mask)")
            # a rule that fails (a RuleError), or a next decision past the bounds (an
            # AdapterError), fails the whole step: the match and the agents' records go back
            before = self._saved()
            try:
                self._cumulative_rewards[agent] = 0
                self.match.apply(int(action))
                self.length += 1
                self._settle()
                self._accumulate_rewards()
            except BaseException:
                self._restore(before)
                raise

        def render(self):
            if self.render_mode is None:
                return None
            self._started("render")
            text = json.dumps(self.match.view(None), sort_keys=True, indent=1, ensure_ascii=False)
            if self.render_mode == "human":
                print(text)
                return None
            return text

        def close(self):
            pass

    return LudusEnv
