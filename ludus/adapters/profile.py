"""What the learning adapters must know about a game before any match: fixed sizes.

OpenSpiel and PettingZoo want a fixed integer action space, a bound on a match's length and (for
PettingZoo) a fixed observation size, while a ludus decision lists its options as labels that
vary from state to state. `scan` plays seeded random matches (with chance answered as explicit
decisions) and returns a `Profile`: the largest number of options met, the longest match, the
longest view text, and what the compiled game says about chance and hidden information. The
adapters reserve a margin above what the scan met; a state that goes past a reserved size is an
`AdapterError` that names the keyword argument that raises the bound.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import attrs
from attrs import frozen

from ..compiler import Game
from ..engine import CHANCE, Match
from ..engine import ops as O
from ..engine.hidden import has_hidden_zones
from ..engine.runtime import RuleError
from ..pipeline import load

SCAN_PLAYOUTS = 16  # seeded random matches played when a game is loaded
SCAN_MAX_DECISIONS = 100_000  # a scan playout longer than this is an error, not a hang
ACTION_MARGIN = 2  # the action space is this many times the most options the scan met ...
MIN_ACTIONS = 8  # ... and at least this many
LENGTH_MARGIN = 4  # the length bound: this many times the longest scanned match ...
MIN_LENGTH = 1_000  # ... and at least this many decisions
VIEW_MARGIN = 2  # PettingZoo's observation: this many times the longest view text met
MIN_VIEW = 4_096  # ... and at least this many bytes


class AdapterError(ValueError):
    """A game or a state that does not fit an adapter, or a bad argument; the message says what
    to change."""


@frozen
class Profile:
    game: Game
    players: int
    seat_names: tuple
    max_actions: int  # the size of the integer action space (options met by the scan, with a margin)
    seen_actions: int  # the most options the scan met at one decision
    max_length: int  # the bound on decisions in a match (chance included)
    seen_length: int
    max_view: int  # the bound on a view's text, in bytes (PettingZoo's observation size)
    seen_view: int
    dice: bool  # the rules roll dice somewhere
    shuffles: bool  # the rules shuffle somewhere (shuffles draw on the match's seeded generator)
    perfect_information: bool  # no hidden zone or counter, no shuffle: every seat sees everything
    utility: tuple[float, float]  # the least and greatest return (with a `payoff`, an estimate)


def load_game(path_or_game) -> Game:
    """A Game from a path (any error is the pipeline's LudusError), or a Game as it is."""
    if isinstance(path_or_game, Game):
        return path_or_game
    if not isinstance(path_or_game, (str, Path)):
        raise AdapterError(f"expected the path of a .ludus file or a loaded Game, not {type(path_or_game).__name__}")
    return load(path_or_game)


def whole(value) -> int | None:
    """`value` as an int when it is a whole number, NumPy's included (numbers that learning code
    computes often are); None for anything else, a bool too."""
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        return None
    return value.__index__()


def seat_count(game: Game, players) -> int:
    if players is None or players == 0:
        return game.min_players
    if whole(players) is None:
        raise AdapterError(f"players is a whole number, not {players!r}")
    players = whole(players)
    problem = game.players_problem(players)
    if problem is not None:
        raise AdapterError(problem)
    return players


def view_text(match: Match, seat: int) -> str:
    """`match.view(seat)` as JSON text: sorted keys, ASCII only, no spaces; the same view gives the
    same text."""
    return json.dumps(match.view(seat), sort_keys=True, ensure_ascii=True, separators=(",", ":"))


def _bound(name: str, given, seen: int, margin: int, least: int) -> int:
    if given is None or given == 0:
        return max(seen * margin, least)
    if whole(given) is None or given < 1:
        raise AdapterError(f"{name} is a positive whole number, not {given!r}")
    given = whole(given)
    if given < seen:
        raise AdapterError(f"{name}={given} is less than the {seen} that random playouts of this game already reach")
    return given


# Profiles made, by the game's fingerprint and scan's arguments: the scan is seeded, so the same
# game scanned alike gives the same profile, and OpenSpiel loads a game again for every state it
# reads back from its serialised form. The oldest goes first past SCANS_KEPT.
_scans: dict = {}
SCANS_KEPT = 32


def scan(path_or_game, players=None, *, max_actions=None, max_length=None, max_view=None,
         playouts: int = SCAN_PLAYOUTS, views: bool = True) -> Profile:
    """Play `playouts` seeded random matches and size the game for the adapters (`views`: measure
    the view text too, which PettingZoo's observation needs and OpenSpiel's strings do not). A
    game scanned before with the same arguments gets the profile that scan made, for this game."""
    game = load_game(path_or_game)
    n = seat_count(game, players)
    if not game.fingerprint:  # a game compiled without one (not through the pipeline): no key
        return _scan(game, n, max_actions, max_length, max_view, playouts, views)
    key = (game.fingerprint, n, max_actions, max_length, max_view, playouts, views)
    known = _scans.get(key)
    if known is None:
        known = _scan(game, n, max_actions, max_length, max_view, playouts, views)
        # kept under the sizes it found too: an environment read back (pickle) asks for those
        sized = (game.fingerprint, n, known.max_actions, known.max_length, known.max_view, playouts, views)
        for k in dict.fromkeys((key, sized)):
            while len(_scans) >= SCANS_KEPT:
                del _scans[next(iter(_scans))]
            _scans[k] = known
    return known if known.game is game else attrs.evolve(known, game=game)


def _scan(game: Game, n: int, max_actions, max_length, max_view, playouts: int, views: bool) -> Profile:
    seen_actions = seen_length = seen_view = 0
    lo = hi = 0.0
    for i in range(playouts):
        rng = random.Random(i)
        length = 0
        sampled = {0, 1}
        moves: list[str] = []  # the labels taken, for a rule that fails: the replay that meets it again
        try:
            match = Match.new(game, n, seed=i, chance="manual")
        except RuleError as exc:
            raise _met_in_scan(exc, game, n, i, playouts, moves) from None
        while not match.is_over:
            options = match.legal_actions()
            if not options:
                raise AdapterError(f"{game.title}: a decision with no options (seed {i}, decision {length + 1})")
            if match.current != CHANCE:
                seen_actions = max(seen_actions, len(options))
            if views and (length in sampled or length % 16 == 0):
                seen_view = max(seen_view, *(len(view_text(match, s)) for s in range(n)))
            k = rng.randrange(len(options))
            moves.append(options[k])
            try:
                match.apply_fast(k)
            except RuleError as exc:
                raise _met_in_scan(exc, game, n, i, playouts, moves) from None
            length += 1
            if length > SCAN_MAX_DECISIONS:
                raise AdapterError(f"{game.title}: a random playout (seed {i}) did not end in {SCAN_MAX_DECISIONS:,} decisions")
        if views:
            seen_view = max(seen_view, *(len(view_text(match, s)) for s in range(n)))
        seen_length = max(seen_length, length)
        returns = match.returns()
        lo, hi = min(lo, *returns), max(hi, *returns)
    kinds = {op[0] for code in game.codes.values() for op in code.ops}
    shuffles = O.SHUFFLE in kinds or any(z.refill for z in game.zones.values())
    hidden = has_hidden_zones(game) or any(v.visibility != "public" for v in game.vars.values())
    if game.payoff is None:
        utility = (-1.0, 1.0)
    else:  # an estimate: what the scan met, widened on each side by its own width
        width = max(hi - lo, 1.0)
        utility = (float(lo - width), float(hi + width))
    return Profile(
        game=game, players=n, seat_names=tuple(game.seat_names(n)),
        max_actions=_bound("max_actions", max_actions, seen_actions, ACTION_MARGIN, MIN_ACTIONS),
        seen_actions=seen_actions,
        max_length=_bound("max_length", max_length, seen_length, LENGTH_MARGIN, MIN_LENGTH),
        seen_length=seen_length,
        max_view=_bound("max_view", max_view, seen_view, VIEW_MARGIN, MIN_VIEW),
        seen_view=seen_view,
        dice=O.ROLL in kinds, shuffles=shuffles, perfect_information=not hidden and not shuffles,
        utility=utility,
    )


def _met_in_scan(exc: RuleError, game: Game, n: int, seed: int, playouts: int, moves: list[str]) -> RuleError:
    """A rule that failed in a scan playout, said with what plays that playout again: the replay
    of its moves (`ludus replay`), whose last move is the one that failed. Its own place (the
    rule's line) stays first, as any RuleError gives it."""
    where = f"the setup of random playout {seed + 1} of {playouts}" if not moves else \
        f"random playout {seed + 1} of {playouts}, at decision {len(moves)}"
    lines = [f"game {Path(game.path).resolve()}" if game.path else "game GAME.ludus",
             f"players {n}", f"seed {seed}", "chance manual", ""]
    lines += [f"move {label}" for label in moves]  # `move` takes any label, even one that opens with a keyword
    return RuleError(f"{exc.message}\nThe adapters' scan met this in {where} ({n} players, seed {seed}). To play "
                     f"it again, save these lines as a .replay file and run `ludus replay` on it:\n\n"
                     + "\n".join(lines), exc.span)


def check_options(profile: Profile, options: list) -> None:
    """A decision with more options than the action space holds is an error, never a cut."""
    if len(options) > profile.max_actions:
        raise AdapterError(
            f"{profile.game.title}: a decision has {len(options)} options, more than the {profile.max_actions} actions "
            f"reserved (the most that {SCAN_PLAYOUTS} random playouts met was {profile.seen_actions}); "
            f"load the game again with max_actions={len(options) * ACTION_MARGIN}")
