"""A ludus game as an OpenSpiel game: `load_game(path, players=None)` returns a `pyspiel.Game`.

The game is registered with OpenSpiel as `python_ludus`, so `pyspiel.load_game("python_ludus",
{"path": ..., "players": 2})` loads it too, and its string form loads it back. The mapping
(docs/ml.md says the same for users):

- Actions: action i is the i-th legal option of the state, in the engine's order;
  `action_to_string` gives the option's label. `num_distinct_actions` is a bound found by a scan
  of random playouts (see `profile`); a state with more options is an AdapterError.
- Chance: the match runs with `chance="manual"`, so every die is a chance node whose outcomes
  are the faces, each with probability 1/sides. Shuffles draw on the match's seeded generator, so
  a game that shuffles starts with one chance node, the deal: outcome k (of `deals`, uniform)
  starts the match with seed k, and every shuffle of the match follows from it.
- Information state: the seat's view (`match.view(seat)` as JSON) and the seat's own moves so far;
  observation: the view alone. Neither shows what the view hides.
- Returns: `match.returns()` once the match is over, 0 before; rewards only at the end.

pyspiel is imported when first needed: without it, `load_game` says which extra to install.
"""

from __future__ import annotations

import json
import math

from ..engine import CHANCE, TERMINAL
from ..engine.match import Match
from .profile import AdapterError, Profile, check_options, scan, view_text, whole

SHORT_NAME = "python_ludus"
DEALS = 1024  # outcomes of the deal, the chance node that seeds the shuffles of a game that has any
MAX_PLAYERS = 64
EXTRA = "pip install 'ludus[openspiel]'"
NO_TENSORS = ("a ludus game gives no tensors (provides_*_tensor is false): read "
              "observation_string(seat) or information_state_string(seat), JSON of what the seat sees "
              "(see docs/ml.md)")

_classes = None  # (pyspiel module, (LudusGame, LudusState, LudusObserver)), once imported and registered


def _pyspiel():
    global _classes
    if _classes is None:
        try:
            import pyspiel
        except ImportError:
            raise ImportError(f"the OpenSpiel adapter needs OpenSpiel: {EXTRA}") from None
        _classes = (pyspiel, _define(pyspiel))
    return _classes


def load_game(path, players=None, *, deals: int = DEALS, max_actions: int | None = None,
              max_length: int | None = None, utility: tuple[float, float] | None = None):
    """The game at `path` (a .ludus file) for `players` seats (default: its least) as a
    `pyspiel.Game`. `utility` (least, greatest) replaces the estimated range of a game with a
    `payoff`. Bad input raises the pipeline's LudusError or an AdapterError."""
    pyspiel, _ = _pyspiel()
    params = {"path": str(path), "players": _whole("players", players), "deals": _whole("deals", deals),
              "max_actions": _whole("max_actions", max_actions), "max_length": _whole("max_length", max_length)}
    if utility is not None:
        try:
            low, high = (float(x) for x in utility)
        except (TypeError, ValueError):
            raise AdapterError(f"utility is a pair of numbers (least, greatest), not {utility!r}") from None
        params["min_utility"], params["max_utility"] = _utility(low, high)
    return pyspiel.load_game(SHORT_NAME, params)


_COMPILED: dict = {}  # fingerprint -> compiled game, for states read back from their serialised form


class Holder:
    """A state's match and each seat's own moves. `copy.deepcopy` (how OpenSpiel clones a Python
    state) clones the match instead of copying the compiled game with it; pickling (how it
    serialises one) keeps the match as its saved JSON, read back against the same compiled game."""

    def __init__(self, game, match, moves):
        self.game, self.match, self.moves = game, match, moves
        _COMPILED.setdefault(game.fingerprint, game)

    def __deepcopy__(self, memo):
        return Holder(self.game, None if self.match is None else self.match.clone(), [list(m) for m in self.moves])

    def __reduce__(self):
        return _restore, (self.game.fingerprint, None if self.match is None else self.match.to_json(), self.moves)


def _restore(fingerprint: str, saved, moves) -> Holder:
    game = _COMPILED.get(fingerprint)
    if game is None:
        raise AdapterError("a serialised ludus state is read back with the game it came from: load that game first")
    return Holder(game, None if saved is None else Match.from_json(game, saved), moves)


def _check_path_survives(pyspiel, path: str) -> None:
    """OpenSpiel writes the parameters into the game's string unquoted, and loads the game (and
    every serialised state) back from that string: a path with a ',' or an unbalanced ')' would
    come back as another path, or as no game at all."""
    try:
        back = pyspiel.game_parameters_from_string(
            pyspiel.game_parameters_to_string({"name": SHORT_NAME, "path": path, "players": 0}))
    except pyspiel.SpielError:
        back = {}
    if back.get("path") != path or back.get("players") != 0:
        raise AdapterError(f"OpenSpiel cannot hold the path {path!r} in a game's string and read it back "
                           "(its parameters are split at ',', '=' and brackets): rename or move the file")


def _utility(low: float, high: float) -> tuple[float, float]:
    """A range of returns the user gives. OpenSpiel writes the game's parameters into its string
    and loads the game back from it, and an infinite or NaN number does not survive that."""
    if not (math.isfinite(low) and math.isfinite(high)):
        raise AdapterError(f"the utility's least and greatest are finite numbers, not {low} and {high}")
    if not low < high:
        raise AdapterError(f"utility's least ({low}) must be below its greatest ({high})")
    return low, high


def _whole(name, value) -> int:
    if value is None:
        return 0
    if whole(value) is None or value < 0:
        raise AdapterError(f"{name} is a whole number, not {value!r}")
    return whole(value)


def _define(pyspiel):  # noqa: C901  (the classes need pyspiel's base classes, so they are made here)
    GT = pyspiel.GameType
    # min_utility == max_utility (both 0 by default) means "estimate the range" (see profile.scan)
    spec = {"path": "", "players": 0, "deals": DEALS, "max_actions": 0, "max_length": 0,
            "min_utility": 0.0, "max_utility": 0.0}

    def game_type(profile: Profile | None, chance: bool) -> object:
        if profile is None:
            lo, hi, info = 1, MAX_PLAYERS, GT.Information.IMPERFECT_INFORMATION
            name = "ludus game"
        else:
            lo = hi = profile.players
            info = GT.Information.PERFECT_INFORMATION if profile.perfect_information else GT.Information.IMPERFECT_INFORMATION
            name = f"ludus: {profile.game.title}"
        return GT(
            short_name=SHORT_NAME, long_name=name, dynamics=GT.Dynamics.SEQUENTIAL,
            chance_mode=GT.ChanceMode.EXPLICIT_STOCHASTIC if chance else GT.ChanceMode.DETERMINISTIC,
            information=info, utility=GT.Utility.GENERAL_SUM, reward_model=GT.RewardModel.TERMINAL,
            max_num_players=hi, min_num_players=lo,
            provides_information_state_string=True, provides_information_state_tensor=False,
            provides_observation_string=True, provides_observation_tensor=False,
            parameter_specification=spec)

    class LudusGame(pyspiel.Game):
        """A compiled ludus game, seen by OpenSpiel."""

        def __init__(self, params=None):
            params = {**spec, **(params or {})}
            if not params["path"]:
                raise AdapterError("python_ludus needs the parameter 'path': the .ludus file to load")
            _check_path_survives(pyspiel, params["path"])
            if params["deals"] < 1:
                raise AdapterError(f"deals is a positive whole number, not {params['deals']}")
            profile = scan(params["path"], params["players"] or None,
                           max_actions=params["max_actions"] or None, max_length=params["max_length"] or None, views=False)
            self.profile = profile
            self.deals = params["deals"] if profile.shuffles else 0
            low, high = profile.utility
            given = params["min_utility"], params["max_utility"]
            if given != (0.0, 0.0):
                low, high = _utility(*given)
            chance = profile.dice or profile.shuffles
            # a die's faces are outcomes too: the largest die any rule could roll is not known
            # before it is rolled, so the bound is the deal's size or 1,000 faces, whichever is more;
            # a game with no chance node has no outcomes (0, as OpenSpiel's own deterministic games say)
            max_chance = max(self.deals, 1_000) if profile.dice else self.deals
            info = pyspiel.GameInfo(
                num_distinct_actions=profile.max_actions, max_chance_outcomes=max_chance,
                num_players=profile.players, min_utility=low, max_utility=high,
                utility_sum=None, max_game_length=profile.max_length + (1 if self.deals else 0))
            super().__init__(game_type(profile, chance), info, {**params, "players": profile.players})
            # the match every state of a game without a deal starts from (cloned, not replayed)
            self._start = None if self.deals else Match.new(profile.game, profile.players, seed=0, chance="manual")

        def new_initial_state(self):
            return LudusState(self)

        def start(self, seed: int) -> Match:
            if self._start is not None:
                return self._start.clone()
            return Match.new(self.profile.game, self.profile.players, seed=seed, chance="manual")

        def make_py_observer(self, iig_obs_type=None, params=None):
            if params:
                raise AdapterError(f"the ludus observer takes no parameters, not {sorted(params)}")
            if iig_obs_type is not None and iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
                # a view is one seat's: there is no public-only or all-seats view to give
                raise AdapterError("ludus observations are one seat's view: use private_info=SINGLE_PLAYER")
            recall = iig_obs_type is not None and iig_obs_type.perfect_recall
            return LudusObserver(recall)

    class LudusState(pyspiel.State):
        def __init__(self, game):
            super().__init__(game)
            self._h = Holder(game.profile.game, None if game.deals else game.start(0),
                             [[] for _ in range(game.profile.players)])

        def current_player(self):
            match = self._h.match
            if match is None:
                return pyspiel.PlayerId.CHANCE
            current = match.current
            if current == CHANCE:
                return pyspiel.PlayerId.CHANCE
            if current == TERMINAL:
                return pyspiel.PlayerId.TERMINAL
            return current

        def _options(self) -> list:
            options = self._h.match.legal_actions()
            if self._h.match.current != CHANCE:
                check_options(self.get_game().profile, options)
            return options

        def _legal_actions(self, player):
            return list(range(len(self._options())))

        def chance_outcomes(self):
            if self._h.match is None:
                deals = self.get_game().deals
                return [(k, 1.0 / deals) for k in range(deals)]
            if self._h.match.current != CHANCE:
                # a seat's options are not outcomes: listing them with probabilities would
                # pass for a die
                raise AdapterError(f"chance_outcomes: this is not a chance node ({self._whose()})")
            n = len(self._h.match.legal_actions())
            if n > self.get_game().max_chance_outcomes():
                raise AdapterError(f"a die of {n:,} faces: more outcomes than the {self.get_game().max_chance_outcomes():,} "
                                   "a chance node of this game may have")
            return [(i, 1.0 / n) for i in range(n)]

        def _apply_action(self, action):
            # Every check comes before the state changes, and the match takes the action with
            # `apply`, which puts the match back when a rule fails halfway (a RuleError): an
            # action that raises leaves the state as it was, as OpenSpiel's history (which
            # records an action only once this returns) says it is.
            game = self.get_game()
            if self._h.match is None:
                if not 0 <= action < game.deals:
                    raise AdapterError(f"action {action} is not legal here: the deal's outcomes are 0 to {game.deals - 1}")
                self._h.match = game.start(int(action))
                return
            match = self._h.match
            if match.is_over:
                raise AdapterError(f"action {action} is not legal here: the match is over")
            options = match.legal_actions()
            if not 0 <= action < len(options):
                raise AdapterError(f"action {action} is not legal here: the legal actions are 0 to {len(options) - 1}")
            if self.move_number() + 1 > game.max_game_length():
                raise AdapterError(
                    f"{game.profile.game.title}: the match would pass {game.profile.max_length} decisions, the bound "
                    f"reserved from random playouts; load the game again with a larger max_length")
            seat = match.current
            match.apply(int(action))
            if seat != CHANCE:
                self._h.moves[seat].append(options[action])

        def _action_to_string(self, player, action):
            match = self._h.match
            if match is None:
                return f"deal {action}"
            options = match.legal_actions()
            if 0 <= action < len(options):
                return options[action]
            return f"action {action}"

        def is_terminal(self):
            return self._h.match is not None and self._h.match.is_over

        def returns(self):
            match = self._h.match
            if match is None:
                return [0.0] * self.get_game().profile.players
            return [float(r) for r in match.returns()]

        def _whose(self) -> str:
            match = self._h.match
            if match.is_over:
                return "the match is over"
            return f"{match.seat_name(match.current)} is to decide"

        def _seat(self, player) -> int:
            """`player` as a seat. OpenSpiel's C++ checks the player it passes on, but its Python
            observers pass any number: -1 (chance) would read the last seat's own moves."""
            names = self.get_game().profile.seat_names
            if whole(player) is None or not 0 <= player < len(names):
                raise AdapterError(f"player {player!r} is not a seat: the players are 0 to {len(names) - 1}")
            return whole(player)

        def view_text(self, seat: int) -> str:
            seat = self._seat(seat)
            if self._h.match is None:
                return json.dumps({"deal": "not yet dealt", "seat": self.get_game().profile.seat_names[seat]})
            return view_text(self._h.match, seat)

        def information_text(self, seat: int) -> str:
            seat = self._seat(seat)
            return '{"moves":' + json.dumps(self._h.moves[seat], ensure_ascii=True) + ',"view":' + self.view_text(seat) + "}"

        def __str__(self):
            match = self._h.match
            if match is None:
                return "before the deal"
            return json.dumps(match.view(None), sort_keys=True, ensure_ascii=True)

    class LudusObserver:
        """OpenSpiel's Python observer: strings only (no tensors)."""

        def __init__(self, recall: bool):
            import numpy as np

            self.recall = recall
            self.tensor = np.zeros(0, np.float32)
            self.dict = {}

        def set_from(self, state, player):
            # OpenSpiel fills a tensor through here: an empty one would read as an observation
            # of nothing, so asking for one is refused, saying what to read instead
            raise NotImplementedError(NO_TENSORS)

        def string_from(self, state, player):
            return state.information_text(player) if self.recall else state.view_text(player)

    # pickle finds a class by its module and name: these are made here, so they are named as
    # the module's own (the module's __getattr__ makes them on first use, in a new process too)
    for cls in (LudusGame, LudusState, LudusObserver):
        cls.__module__, cls.__qualname__ = __name__, cls.__name__
    pyspiel.register_game(game_type(None, True), LudusGame)
    return LudusGame, LudusState, LudusObserver


def __getattr__(name: str):
    if name in ("LudusGame", "LudusState", "LudusObserver"):
        return _pyspiel()[1][("LudusGame", "LudusState", "LudusObserver").index(name)]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
