"""Bots: players that choose a move from what their seat may see.

A bot never holds the match. It is given an `Observation`: its seat, `match.view(seat)`, the
legal actions, and `sample(rng)`, which returns a copy of the match whose hidden parts (cards the
seat has not seen, the dice to come) are drawn anew consistently with that view; a bot that
searches plays its simulations on such samples. Bots are named by a spec, `KIND[:BUDGET][:OPTION=N]`, as
on the command line (`--bot Red=mcts:400`, `--bot Red=mcts:2s`), and built by `make_bot`.

The kinds: `random`; `greedy` (`ludus.bots.greedy`: one move ahead, judged by the game's
`define score(s)` when it has one, else by winning and losing); `mcts` (`ludus.bots.mcts`: UCT
search, or information-set MCTS on determinizations when the game has hidden cards or chance).
In a game with a `payoff`, both play for their seat's own payoff instead (`ludus.bots.evaluate`).
A budget is a number of iterations (`mcts:400`; for greedy, samples per move) or a time per
decision (`mcts:2s`, `mcts:500ms`); without one, each kind has its default (`DEFAULT_BUDGETS`).
Options follow the budget as NAME=VALUE (`OPTIONS`): `mcts:400:depth=40` stops each playout after
40 random moves and judges the position there (by the game's `define score(s)`; in a game with a
`payoff` and no score, by the payoff read there as if the match ended, and played on to the end
where it cannot be read: see docs/simulation.md, "Playout depth"), `mcts:depth=40` does so at
the default budget.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from contextlib import suppress

from ..compiler import Game
from ..engine.match import shown_value
from ..language.limits import player_range
from .base import (
    BUDGET_RULE,
    DEFAULT_BUDGETS,
    DEPTH_RULE,
    MAX_DEPTH,
    MAX_ITERATIONS,
    MAX_SECONDS,
    BadBotSpec,
    Bot,
    Budget,
    Observation,
)

__all__ = ["BOTS", "DEFAULT_BUDGETS", "MAX_DEPTH", "MAX_ITERATIONS", "MAX_SECONDS", "OPTIONS", "BadBotChoice",
           "BadBotSpec", "Bot", "Budget", "Observation", "RandomBot", "absolute_spec", "bot_file", "bot_kinds", "choice",
           "is_bot_file", "make_bot", "observe", "parse_budget", "parse_options", "parse_spec", "random_length",
           "long_rollout_note", "spec_note", "user_code_place"]


class RandomBot:
    """Uniformly random legal moves."""

    def __init__(self, game, seat: int, seed: int, budget: Budget | None = None) -> None:
        self.spec = "random"
        self.rng = random.Random(seed)

    def choose(self, obs: Observation) -> int:
        return self.rng.randrange(len(obs.legal))


def _greedy(game, seat: int, seed: int, budget: Budget | None = None) -> Bot:
    from .greedy import GreedyBot

    return GreedyBot(game, seat, seed, budget)


def _mcts(game, seat: int, seed: int, budget: Budget | None = None, depth: int | None = None) -> Bot:
    from .mcts import MctsBot

    return MctsBot(game, seat, seed, budget, depth=depth)


# kind -> factory(game, seat, seed, budget, **options)
BOTS: dict[str, Callable[..., Bot]] = {"random": RandomBot, "greedy": _greedy, "mcts": _mcts}
# kind -> the options its spec may give after the budget (each a whole number; see _parse)
OPTIONS: dict[str, tuple[str, ...]] = {"mcts": ("depth",)}
# the kinds that spend no budget: one given is refused (`random:5` would play as `random`)
NO_BUDGET = frozenset({"random"})

def parse_budget(text: str) -> Budget:
    """'400' -> 400 iterations; '2s', '1.5s', '500ms' -> seconds per decision. Raises BadBotSpec."""
    raw = text.strip().lower()
    shown = text.strip() if len(text.strip()) <= 40 else f"{text.strip()[:20]}... ({len(text.strip())} characters)"
    bad = BadBotSpec(f"{BUDGET_RULE}, not '{shown}'")
    # ASCII digits only: str.isdigit() takes '²' and '٣' too, which int() refuses or reads as
    # a number the user did not type; and no more digits than a budget can have, as int() refuses
    # a string of thousands of them
    if raw.isascii() and raw.isdigit():
        if len(raw.lstrip("0")) > len(str(MAX_ITERATIONS)) or not 0 < int(raw) <= MAX_ITERATIONS:
            raise bad
        return Budget(iterations=int(raw))
    for unit, scale in (("ms", 0.001), ("s", 1.0)):
        if raw.endswith(unit):
            number = raw[: -len(unit)].strip()
            if (not number or not number.isascii() or not all(ch.isdigit() or ch == "." for ch in number)
                    or number.count(".") > 1 or number == "."):
                raise bad
            seconds = float(number) * scale
            if not 0 < seconds <= MAX_SECONDS:
                raise bad
            return Budget(seconds=seconds)
    raise bad


def parse_spec(spec: str) -> tuple[str, Budget | None]:
    """'mcts:400' -> ('mcts', Budget(400)); 'mcts:2s' -> ('mcts', Budget(seconds=2.0));
    'random' -> ('random', None). The spec's options (`mcts:400:depth=40`) are checked too; see
    `parse_options`. Raises BadBotSpec."""
    kind, budget, _ = _parse(spec)
    return kind, budget


def parse_options(spec: str) -> dict[str, int]:
    """The options after the budget: 'mcts:400:depth=40' -> {'depth': 40}; {} when there are
    none. Raises BadBotSpec, as parse_spec does."""
    return _parse(spec)[2]


def bot_kinds() -> str:
    """What a bot's kind may be, for the messages that refuse one."""
    return (f"the bots are {', '.join(BOTS)}, or a Python file of your own "
            "(FILE.py, defining make_bot(game, seat, seed, budget): see docs/simulation.md)")


def _parse(spec: str) -> tuple[str, Budget | None, dict[str, int]]:
    kind, sep, rest = spec.strip().partition(":")
    kind = kind.strip()
    if sep and not kind:  # ':400' left the kind out: it is not taken to be random's
        raise BadBotSpec(f"in the bot '{_shown(spec)}': no bot before ':'; {bot_kinds()}")
    if is_bot_file(kind):
        bot_file(kind)  # a file that is missing, or defines no make_bot, is refused now
    else:
        kind = kind.lower() or "random"
        if kind not in BOTS:
            raise BadBotSpec(f"no bot '{kind}'; {bot_kinds()}")
    if not sep:
        return kind, None, {}
    parts = rest.split(":")
    budget = None
    if "=" not in parts[0]:  # the budget comes first, and may be left out: `mcts:depth=40`
        if kind in NO_BUDGET:  # a budget it would never spend is refused, not ignored
            raise BadBotSpec(f"in the bot '{_shown(spec)}': {kind} takes no budget; it plays at once "
                             f"(greedy and mcts take one, as in 'mcts:400')")
        budget = parse_budget(parts.pop(0))
    options: dict[str, int] = {}
    for part in parts:
        name, eq, value = part.partition("=")
        name = name.strip().lower()
        if not eq:
            raise BadBotSpec(f"in the bot '{_shown(spec)}': '{_shown(part)}' is neither the budget (which comes "
                             f"first, once) nor an option NAME=VALUE; {_options_rule(kind)}")
        if name not in OPTIONS.get(kind, ()):
            raise BadBotSpec(f"in the bot '{_shown(spec)}': no option '{_shown(name)}' for {kind}; "
                             f"{_options_rule(kind)}")
        if name in options:
            raise BadBotSpec(f"in the bot '{_shown(spec)}': the option '{name}' is given twice; give it once")
        options[name] = _parse_depth(value, spec)
    return kind, budget, options


def _parse_depth(text: str, spec: str) -> int:
    raw = text.strip()
    # ASCII digits only, and no more than the largest depth has, as parse_budget reads a count
    if (raw.isascii() and raw.isdigit() and len(raw.lstrip("0")) <= len(str(MAX_DEPTH))
            and 0 < int(raw) <= MAX_DEPTH):
        return int(raw)
    raise BadBotSpec(f"in the bot '{_shown(spec)}': {DEPTH_RULE}, not '{_shown(raw)}'")


def _options_rule(kind: str) -> str:
    if kind in OPTIONS:
        return f"{kind} takes {', '.join(f'{name}=N' for name in OPTIONS[kind])} (as in '{kind}:400:depth=40')"
    return f"{kind} takes no options (mcts takes depth=N, as in 'mcts:400:depth=40')"


def _shown(text: str) -> str:
    text = text.strip()
    return text if len(text) <= 40 else f"{text[:20]}... ({len(text)} characters)"


def make_bot(spec: str, game, seat: int, seed: int) -> Bot:
    """The bot a spec names, for one seat of one match, seeded for reproducible play. Anything
    else is a ValueError that says what is allowed (BadBotSpec for the spec): a bot made for a
    seat no match of the game has, or from a seed that is not a number, would play on quietly
    and wrongly (judging positions for a seat that is not there, or unreproducibly)."""
    if not isinstance(spec, str):
        raise BadBotSpec(f"a bot is named by text, KIND[:BUDGET][:OPTION=N] such as 'mcts:400' or 'mcts:400:depth=40', not {shown_value(spec)}; "
                         f"the bots are {', '.join(BOTS)}")
    kind, budget, options = _parse(spec)
    if not isinstance(game, Game):
        raise ValueError(f"a bot plays a loaded game (ludus.load(path)), not {shown_value(game)}")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < game.max_players:
        raise ValueError(f"a bot's seat is a number from 0 to {game.max_players - 1}, not {shown_value(seat)}: "
                         f"{game.title} is for {player_range(game.min_players, game.max_players)} players, "
                         "and seat 0 is the first")
    if isinstance(seed, bool) or not hasattr(seed, "__index__"):
        raise ValueError(f"a bot's seed is a whole number, not {shown_value(seed)}")
    if not is_bot_file(kind):
        bot = BOTS[kind](game, seat, seed.__index__(), budget, **options)
        bot.spec = spec.strip()
        return bot
    try:
        bot = bot_file(kind)(game, seat, seed.__index__(), budget)
    except Exception as exc:  # the user's code: said with its place, not as a fault of ludus
        raise BadBotSpec(f"{user_code_place(exc, kind) or kind}: {type(exc).__name__}: {exc} "
                         f"(in the bot file {kind}, calling make_bot(game, seat, seed, budget))") from None
    if not callable(getattr(bot, "choose", None)):
        raise BadBotSpec(f"{kind}: make_bot(game, seat, seed, budget) returned {shown_value(bot)}, which has no "
                         "choose(obs) method; return an object whose choose(obs) gives an index into obs.legal")
    with suppress(AttributeError):  # a bot with __slots__ keeps its own
        bot.spec = spec.strip()
    return bot


class BadBotChoice(ValueError):
    """A bot of the user's own that failed to choose a move, or answered what is not one."""


def choice(bot: Bot, obs: Observation) -> int:
    """`bot.choose(obs)`, checked: a bot file's code that fails raises BadBotChoice at its line,
    and an answer that is not an index into `obs.legal` (out of range, a bool, a float) raises it
    too, as from any bot: it would play another move, or fail deep in the engine."""
    spec = str(getattr(bot, "spec", "?"))
    try:
        index = bot.choose(obs)
    except Exception as exc:
        if not is_bot_file(spec.partition(":")[0]):
            raise
        raise BadBotChoice(f"{user_code_place(exc, spec.partition(':')[0]) or spec}: {type(exc).__name__}: {exc} (in the bot file "
                           f"{spec.partition(':')[0]}, choosing a move)") from None
    count = len(obs.legal)
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < count:
        # a bot file by its whole path, which `simulate` writes back as the user typed it
        shown = spec.strip() if is_bot_file(spec.partition(":")[0].strip()) else _shown(spec)
        raise BadBotChoice(f"the bot '{shown}' chose {shown_value(index)}, which is not an index into "
                           f"obs.legal: a whole number from 0 to {count - 1}")
    return index


def is_bot_file(kind: str) -> bool:
    """Whether a bot spec's kind names a Python file of the user's: `bots/cautious.py`."""
    return kind.lower().endswith(".py")


_BOT_FILES: dict[str, Callable[..., Bot]] = {}  # absolute path -> its make_bot, loaded once per process


def bot_file(path: str) -> Callable[..., Bot]:
    """The `make_bot(game, seat, seed, budget)` a bot file defines, loaded once per process (a
    run's workers load it themselves, from its absolute path: see `absolute_spec`). A file that
    cannot be read, fails as it loads, or defines no make_bot raises BadBotSpec saying where."""
    import importlib.util
    import os

    full = os.path.abspath(path)
    factory = _BOT_FILES.get(full)
    if factory is not None:
        return factory
    if not os.path.isfile(full):
        raise BadBotSpec(f"no bot file '{path}': "
                         f"{'it is a folder' if os.path.isdir(full) else 'there is no such file'}")
    name = f"ludus_bot_{len(_BOT_FILES)}_{os.path.basename(full)[:-3].replace('-', '_').replace('.', '_')}"
    try:
        module_spec = importlib.util.spec_from_file_location(name, full)
        module = importlib.util.module_from_spec(module_spec)
        module_spec.loader.exec_module(module)
    except SyntaxError as exc:
        raise BadBotSpec(f"{path}:{exc.lineno or 1}:{exc.offset or 1}: the bot file does not parse: "
                         f"{exc.msg}") from None
    except Exception as exc:
        raise BadBotSpec(f"{user_code_place(exc, path) or path}: {type(exc).__name__}: {exc} "
                         f"(in the bot file {path}, as it loaded)") from None
    factory = getattr(module, "make_bot", None)
    if not callable(factory):
        raise BadBotSpec(f"{path} defines no make_bot(game, seat, seed, budget); a bot file defines that "
                         "function, returning an object whose choose(obs) gives an index into obs.legal "
                         "(see docs/simulation.md, \"Bots of your own\")")
    _BOT_FILES[full] = factory
    return factory


def user_code_place(exc: BaseException, path: str | None = None) -> str:
    """'FILE:LINE', the innermost place of an exception's traceback outside ludus (a bot file's
    line), or '' when it has none. The bot file `path` is written as given (as the user typed it,
    `bots/buyer.py`), where the traceback has the absolute path it was loaded from; another file
    under the current folder (a module the bot file imports) is named relative to it."""
    import os
    import traceback

    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    places = [f for f in traceback.extract_tb(exc.__traceback__)
              if not os.path.abspath(f.filename).startswith(here + os.sep) and not f.filename.startswith("<")]
    if not places:
        return ""
    file = places[-1].filename
    if path is not None and os.path.abspath(file) == os.path.abspath(path):
        file = path
    elif os.path.isabs(file) and os.path.abspath(file).startswith(os.getcwd() + os.sep):
        # a module the bot file imports, under the folder the command runs in: named from there,
        # as the user would type it (`bots/helpers.py`), not by the absolute path it was loaded from
        file = os.path.relpath(file)
    return f"{file}:{places[-1].lineno}"


def absolute_spec(spec: str) -> str:
    """A spec whose bot file is named by its absolute path, for workers that run in another
    folder (a Dask cluster's); any other spec as it is."""
    import os

    kind, sep, rest = spec.strip().partition(":")
    if not is_bot_file(kind.strip()):
        return spec
    return os.path.abspath(kind.strip()) + sep + rest


def spec_note(game, spec: str, players: int | None = None) -> str | None:
    """The note a bot spec calls for in this game, or None: a greedy bot, or an mcts bot with a
    playout depth, in a game without `define score(s)` (see ludus.bots.evaluate); an mcts bot
    without a depth in a game whose matches run long at `players` seats (`long_rollout_note`).
    The spec is one parse_spec accepts."""
    from .evaluate import no_depth_score_note, no_score_note

    kind, budget, options = _parse(spec)
    if kind == "greedy":
        return no_score_note(game)
    if kind == "mcts" and "depth" in options:
        return no_depth_score_note(game)
    if kind == "mcts" and players is not None:
        return long_rollout_note(game, players, budget or DEFAULT_BUDGETS["mcts"], f"{spec.strip()}:depth=40")
    return None


LONG_MATCH = 250  # random moves: a match this long makes every rollout of an mcts bot without a depth slow
_LENGTHS: dict = {}  # (id of the game, players) -> (the game, random_length): the recent few


def random_length(game, players: int) -> int | None:
    """How many moves a match of `players` seats runs when every seat plays at random: the median
    of three seeded matches, each counted up to the cap on an mcts rollout. None when a random
    match breaks a rule (the designer hears of that from the match itself)."""
    from ..engine.runtime import RuleError
    from .mcts import ROLLOUT_CAP

    key = (id(game), players)
    if _LENGTHS.get(key, (None,))[0] is not game:  # a game loaded anew may take a freed one's id
        lengths = []
        try:
            for seed in range(3):
                rng, match, moves = random.Random(seed), game.new_match(players, seed=seed), 0
                while not match.is_over and moves < ROLLOUT_CAP:
                    options = match.legal_actions()
                    match.apply(options[rng.randrange(len(options))])
                    moves += 1
                lengths.append(moves)
        except (RuleError, ValueError):
            lengths = []
        if len(_LENGTHS) >= 8:  # a REPL that reloads a game as it is edited keeps only the recent ones
            del _LENGTHS[next(iter(_LENGTHS))]
        _LENGTHS[key] = (game, sorted(lengths)[1] if lengths else None)
    return _LENGTHS[key][1]


def long_rollout_note(game, players: int, budget: Budget, example: str = "mcts:depth=40") -> str | None:
    """What a designer handing a seat to an mcts bot without a playout depth should know when the
    game's matches run long (LONG_MATCH moves or more at random): every rollout plays on to the
    end of the match, so each decision is slow, or on a time budget sees few rollouts; a depth
    cuts them, when the game says how to judge the position where they stop (`example`: the spec
    with a depth). None otherwise."""
    from .evaluate import judges_positions
    from .mcts import ROLLOUT_CAP

    length = random_length(game, players)
    if length is None or length < LONG_MATCH:
        return None
    runs = f"some {length:,} moves" if length < ROLLOUT_CAP else f"over {ROLLOUT_CAP:,} moves (where a rollout stops)"
    cost = (f"each decision plays {budget.iterations:,} such rollouts" if budget.iterations is not None
            else f"in its {budget.seconds:g}s a decision plays few of them")
    if judges_positions(game):
        cure = f"`{example}` stops each rollout 40 moves on and judges the position there"
    else:
        cure = f"a playout depth (`{example}`) needs a `define score(s)` to judge the position where it stops"
    return (f"an mcts bot plays every rollout to the end of the match, and a {players}-player match of "
            f"{game.title} played at random runs {runs}: {cost}; {cure} (see docs/simulation.md, \"Playout depth\")")


def observe(match, seat: int, sampler: Callable[[random.Random], object] | None = None) -> Observation:
    """The observation of `seat` at the current decision: its view, the legal actions, and the
    engine's determinizer for this match and seat (or `sampler`, when given)."""
    if sampler is None:
        from ..engine.determinize import Determinizer

        sampler = Determinizer(match, seat).sample
    return Observation(seat, match.view(seat), match.legal_actions(), sampler)
