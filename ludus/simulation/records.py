"""One match played to its end and kept as a small record: what every report is folded from.

A record is plain data (it crosses process and network boundaries: a pool's workers and a Dask
cluster send records back, never matches or games, whose compiled closures do not pickle). It
says how the match ended and what each seat did: which actions it took and which cards or
pieces those actions named, counted by name.
"""

from __future__ import annotations

import random
from collections import Counter

from attrs import frozen

from ..bots import choice, make_bot, observe
from ..engine.runtime import RuleError
from ..language.limits import MAX_NUMBER, number_in_range

MAX_DECISIONS = 20_000


@frozen
class MatchRecord:
    """What one match came to. `outcome` is "won" (one winner), "shared" (several), "none" (the
    game ended with no winner), "unfinished" (over MAX_DECISIONS decisions) or "error"."""

    seed: int
    outcome: str
    length: int = 0  # decisions taken
    winners: tuple = ()  # seat indexes
    losers: tuple = ()
    payoffs: tuple = ()  # (seat name, value) pairs, for games with `payoff`
    first: int | None = None  # the seat that took the match's first action (an offered move)
    actions: tuple = ()  # per seat: ((action name, times taken), ...) sorted by name
    cards: tuple = ()  # per seat: ((card or piece name, times an action named it), ...)
    warning: str | None = None  # the match's first run-time warning
    error: str | None = None


def _per_seat(counters: list[Counter]) -> tuple:
    return tuple(tuple(sorted(c.items())) for c in counters)


def chooser(game, seed: int, rng: random.Random, bots: dict[int, str] | None = None):
    """`pick(match) -> index` for the match of `seed`: seats in `bots` by those bots, each seeded
    from the match seed, the others by uniformly random legal moves drawn from `rng`."""
    players_of = {seat: make_bot(spec, game, seat, seed * 31 + seat) for seat, spec in (bots or {}).items()}

    def pick(match) -> int:
        pending = match._state["pending"]
        bot = players_of.get(pending["seat"])
        if bot is None:
            return rng.randrange(len(pending["options"]))
        return choice(bot, observe(match, pending["seat"]))  # checked: a bot file's may answer anything

    return pick


def _whole(value) -> bool:
    """Whether `value` is an int and not a bool (True would pass for 1)."""
    return isinstance(value, int) and not isinstance(value, bool)


def check_game(game, what: str = "a simulation") -> None:
    """A ValueError unless `game` is a loaded game: a path given instead failed deep inside."""
    if not (hasattr(game, "players_problem") and hasattr(game, "codes")):
        raise ValueError(f"{what} plays a loaded game (ludus.load(path)), not {game!r:.60}")


def check_players(game, players: int) -> None:
    """A ValueError for a player count the game does not allow, before any match is dealt."""
    problem = game.players_problem(players)
    if problem is not None:
        raise ValueError(problem)


def check_bots(bots: dict[int, str] | None, players: int) -> None:
    """A ValueError for a bot given to a seat the matches do not have: it would never play, and
    the report would still name it (seat -1 as the last seat), or fail on its name at the end."""
    if bots is not None and not isinstance(bots, dict):
        raise ValueError(f"bots maps seats to bots, as {{1: 'greedy'}}, not {bots!r:.60}")
    for seat in bots or {}:
        if not (isinstance(seat, int) and 0 <= seat < players):
            raise ValueError(f"a bot for seat {seat!r}, but the seats of a {players}-player match are 0 to {players - 1}")


def play_match(game, players: int, seed: int, bots: dict[int, str] | None = None,
               limit: int = MAX_DECISIONS) -> MatchRecord:
    """Play the match of `seed`, its moves picked by `chooser` with random.Random(seed). The
    same arguments give the same record, in any process."""
    check_game(game, "a match")
    check_players(game, players)
    check_bots(bots, players)
    actions = [Counter() for _ in range(players)]
    cards = [Counter() for _ in range(players)]
    first = None
    steps = 0
    try:
        match = game.new_match(players, seed=seed)
        pick = chooser(game, seed, random.Random(seed), bots)
        acts = game.actions
        while not match.is_over and steps < limit:
            state = match._state
            pending = state["pending"]
            seat = pending["seat"]
            index = pick(match)
            if pending["kind"] == "offer" and seat is not None:
                value = pending["values"][index]
                if value is not None:
                    name, args = value
                    actions[seat][name] += 1
                    if first is None:
                        first = seat
                    for (_, _, kind), arg in zip(acts[name].params, args, strict=False):
                        if isinstance(kind, str) and kind.startswith("entity") and isinstance(arg, int):
                            ents = state["ents"]
                            if 0 <= arg < len(ents) and ents[arg] is not None:
                                cards[seat][ents[arg]["d"]] += 1
            match.apply_fast(index)
            steps += 1
    except RuleError as err:
        return MatchRecord(seed, "error", steps, first=first, actions=_per_seat(actions), cards=_per_seat(cards),
                           error=str(err))
    warning = next((e["text"] for e in match.log if e["t"] == "warning"), None)
    common = dict(first=first, actions=_per_seat(actions), cards=_per_seat(cards), warning=warning)
    if not match.is_over:
        return MatchRecord(seed, "unfinished", steps, **common)
    r = match._state["result"]
    winners, losers = tuple(r["winners"]), tuple(r["losers"])
    payoffs = tuple(match.result.get("payoffs", {}).items())
    outcome = "won" if len(winners) == 1 else "shared" if winners else "none"
    return MatchRecord(seed, outcome, steps, winners, losers, payoffs, **common)


def match_seeds(seed: int, games: int) -> list[int]:
    """The seeds of a run: seed * 1_000_003 + i for the i-th match. Each is a seed that a replay,
    a saved match and `ludus play --seed` take (see MAX_NUMBER), so any match of a run can be
    dealt again: a run whose seeds would leave that range is a ValueError."""
    if not _whole(games):
        raise ValueError(f"games, the matches a run plays, is a whole number, not {games!r:.60}")
    if games < 0:
        raise ValueError(f"a run plays 0 matches or more, not {games}")
    if not _whole(seed):
        raise ValueError(f"seed, a run's seed, is a whole number, not {seed!r:.60}")
    first, last = seed * 1_000_003, seed * 1_000_003 + games - 1
    if games > 0 and not (number_in_range(first) and number_in_range(last)):
        raise ValueError(f"the seed {seed} gives match seeds (seed * 1000003 + i, i below {games}) outside "
                         f"-{MAX_NUMBER} to {MAX_NUMBER}, which no replay holds")
    return [first + i for i in range(games)]
