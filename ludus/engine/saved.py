"""Reading a saved match back: every part of the state is checked before a Match is made of it.

A saved match is a file a person may have edited, truncated or damaged; whatever it holds, reading
it ends in a Match that plays on correctly or in a MatchError that says what is wrong. The checks
are of shape and reference (each card's definition exists, each place holds the cards that say
they are there, the VM's position exists in the game's code), and then the match is exercised
once (legal actions, each seat's view) so that nothing damaged is found later, in the middle of play.
"""

from __future__ import annotations

from ..language.limits import MAX_NESTING, MAX_NUMBER

STATE_KEYS = {"nseats", "vars", "tokens", "places", "ents", "stack", "pending", "scopes", "alts", "result",
              "forced", "chance", "rng", "tracks"}
RNG_LIMIT = 1 << 64


class Damaged(ValueError):
    """What is wrong with a saved state, in a few words."""


def validate_state(game, state) -> None:
    """Raise Damaged unless `state` is a whole, consistent state of `game`."""
    _need(isinstance(state, dict), "the state is not a table")
    missing = STATE_KEYS - set(state)
    _need(not missing, f"the state lacks {', '.join(sorted(missing))}")
    _plain(state, "the state")
    n = state["nseats"]
    _need(_is_int(n) and game.min_players <= n <= game.max_players, f"'nseats' is not a player count of {game.title}")
    _need(_is_int(state["rng"]) and 0 <= state["rng"] < RNG_LIMIT, "the random generator's state is out of range")
    _need(state["chance"] in ("auto", "manual"), "'chance' is neither auto nor manual")
    _entities(game, state, n)
    _variables(game, state)
    _tokens(game, state, n)
    _tracks(game, state)
    became = state.get("became")
    if became is not None or game.becomes:
        _need(isinstance(became, list) and len(became) == len(game.becomes)
              and all(isinstance(b, bool) or (isinstance(b, dict) and all(isinstance(v, bool) for v in b.values()))
                      for b in became), "the 'when ... becomes true' conditions are damaged")
    for frame in _list(state["stack"], "stack"):
        _need(isinstance(frame, dict) and frame.get("c") in game.codes and isinstance(frame.get("env"), dict),
              "a VM frame is damaged")
        pc = frame.get("pc")
        _need(_is_int(pc) and 0 <= pc < len(game.codes[frame["c"]].ops), f"unknown position {frame.get('c')!r}:{pc!r}")
    pending = state["pending"]
    if pending is not None:
        _need(isinstance(pending, dict), "the pending decision is damaged")
        seat = pending.get("seat")
        _need(seat is None or (_is_int(seat) and 0 <= seat < n), "the pending decision belongs to no seat")
        options = pending.get("options")
        _need(isinstance(options, list) and options and all(isinstance(o, str) for o in options),
              "the pending decision has no options")
        _need(isinstance(pending.get("prompt"), str) and isinstance(pending.get("kind"), str),
              "the pending decision is damaged")
    result = state["result"]
    if result is not None:
        _need(isinstance(result, dict) and isinstance(result.get("reason"), str), "the result is damaged")
        for side in ("winners", "losers"):
            seats = result.get(side)
            _need(isinstance(seats, list) and all(_is_int(s) and 0 <= s < n for s in seats), f"the result's {side} are damaged")
        if "payoffs" in result:
            payoffs = result["payoffs"]
            _need(isinstance(payoffs, list) and len(payoffs) == n and all(_is_int(p) for p in payoffs),
                  "the result's payoffs are damaged")
    for key in ("scopes", "alts", "forced"):
        _list(state[key], key)


def _entities(game, state, n) -> None:
    ents = _list(state["ents"], "ents")
    places = state["places"]
    _need(isinstance(places, dict), "'places' is not a table")
    where: dict[int, str] = {}
    for place, ids in places.items():
        _list(ids, f"place {place!r}")
        for eid in ids:
            _need(_is_int(eid) and 0 <= eid < len(ents), f"place {place!r} holds an unknown card {eid!r}")
            _need(eid not in where, f"card {eid} is in two places")
            where[eid] = place
    for eid, e in enumerate(ents):
        _need(isinstance(e, dict) and e.get("d") in game.defs, f"card {eid} has no definition in the game")
        owner = e.get("o")
        _need(owner is None or (_is_int(owner) and 0 <= owner < n), f"card {eid} belongs to no seat")
        loc = e.get("l")
        _need(loc is None or isinstance(loc, str), f"card {eid} is nowhere")
        if loc is not None and not loc.startswith("#"):
            _need(where.get(eid) == loc, f"card {eid} says it is in {loc!r}, and that place does not hold it")
        if loc is not None and loc.startswith("#"):
            _need(loc[1:].isascii() and loc[1:].isdigit() and int(loc[1:]) < len(ents), f"card {eid} sits on an unknown card")
        if "see" in e:
            _need(isinstance(e["see"], list) and all(_is_int(s) and 0 <= s < n for s in e["see"]),
                  f"card {eid}'s list of seats that saw it is damaged")


def _variables(game, state) -> None:
    variables = state["vars"]
    _need(isinstance(variables, dict), "'vars' is not a table")
    for key, value in variables.items():
        name = key.split("@", 1)[0]
        _need(name in game.vars, f"unknown variable {name!r}")
        if game.vars[name].kind == "counter":
            _need(_is_int(value) and -MAX_NUMBER <= value <= MAX_NUMBER, f"counter {key!r} does not hold a number in range")


def _tokens(game, state, n) -> None:
    tokens = state["tokens"]
    _need(isinstance(tokens, dict), "'tokens' is not a table")
    for key, count in tokens.items():
        parts = key.split("|", 2)
        _need(len(parts) == 3 and parts[0] in game.tokens, f"unknown token entry {key!r}")
        owner = parts[1]
        _need(owner == "" or (owner.isascii() and owner.isdigit() and int(owner) < n), f"token entry {key!r} belongs to no seat")
        _need(_is_int(count) and 0 < count <= MAX_NUMBER, f"token entry {key!r} has a count out of range")


def _tracks(game, state) -> None:
    tracks = state["tracks"]
    _need(isinstance(tracks, dict) and set(tracks) == set(game.tracks), "the tracks do not match the game's")
    for name, t in tracks.items():
        spec = game.tracks[name]
        _need(isinstance(t, dict) and _is_int(t.get("pos")) and spec.low <= t["pos"] <= spec.high,
              f"track {name!r} has its marker off the track")
        _need(_is_int(t.get("start")), f"track {name!r} is damaged")


def _plain(value, what: str) -> None:
    """Only JSON's plain data, numbers in a sane range, nested no deeper than the language allows."""
    stack = [(value, 0)]
    while stack:
        v, depth = stack.pop()
        _need(depth <= MAX_NESTING * 2, f"{what} is nested too deeply")
        if isinstance(v, dict):
            _need(all(isinstance(k, str) for k in v), f"{what} has a key that is not text")
            stack.extend((x, depth + 1) for x in v.values())
        elif isinstance(v, list):
            stack.extend((x, depth + 1) for x in v)
        elif isinstance(v, bool) or v is None or isinstance(v, str):
            continue
        elif isinstance(v, int):
            _need(-RNG_LIMIT < v < RNG_LIMIT, f"{what} holds a number out of range")
        else:
            raise Damaged(f"{what} holds a {type(v).__name__}, which no state has")


def _list(v, what: str) -> list:
    _need(isinstance(v, list), f"'{what}' is not a list")
    return v


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _need(ok: bool, message: str) -> None:
    if not ok:
        raise Damaged(message)
