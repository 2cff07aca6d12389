"""Effect reports: what changed between two moments of a match, as plain, stable text for people.

`facts(match)` flattens the designer's view of a state into `description -> value`; `changes`
compares two of them; `Effect` gathers the decisions, chance, log lines and changes of a step and
renders them (the text the effect snapshots store).
"""

from __future__ import annotations

from attrs import define, field

from .display import came_and_gone, entity_name

BIG_ZONE = 10  # zones longer than this are reported by what entered and left, not card by card

@define
class Effect:
    """What happened between two moments of a test: decisions, chance, log lines and changes."""

    title: str
    decisions: list = field(factory=list)
    chance: list = field(factory=list)
    log: list = field(factory=list)
    changes: list = field(factory=list)
    waiting: str | None = None

    def report(self) -> str:
        out = [self.title]
        for head, lines in (("decisions", self.decisions), ("chance", self.chance), ("log", self.log),
                            ("changes", self.changes or ["(nothing changed)"])):
            if lines:
                out.append(f"{head}:")
                out.extend(f"  {line}" for line in lines)
        if self.waiting:
            out.append(f"waiting: {self.waiting}")
        return "\n".join(out) + "\n"

    def __str__(self) -> str:
        return self.report()


def _cards(names: list) -> str:
    """`Copper Coin x3, Fortune Teller`: runs of one card compressed, order kept (top first)."""
    if not names:
        return "(empty)"
    out, i = [], 0
    while i < len(names):
        j = i
        while j < len(names) and names[j] == names[i]:
            j += 1
        out.append(names[i] if j - i == 1 else f"{names[i]} x{j - i}")
        i = j
    return ", ".join(out)


def _count(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def _zone_change(before: list, after: list) -> str:
    if len(before) <= BIG_ZONE and len(after) <= BIG_ZONE:
        return f"{_cards(before)} -> {_cards(after)}"
    came, gone = came_and_gone(before, after)
    parts = [f"{_count(len(before))} -> {_count(len(after))}"]
    if came:
        parts.append("+ " + _cards(sorted(came)))
    if gone:
        parts.append("- " + _cards(sorted(gone)))
    if not came and not gone:
        parts.append("same cards, new order")
    return "; ".join(parts)


def facts(match) -> dict:
    """The whole state as `description -> plain value`, in the game's declaration order. Each
    thing is named by the word that declares it (`counter coins of Amber`, `flag succeeded`,
    `var leader`, `track mood`, `zone supply`), so a report says what kind of thing changed."""
    view = match.view(None)
    out: dict = {}
    for name, value in view["counters"].items():
        word = match.game.vars[name].kind  # counter, flag or var, as the game declares it
        if isinstance(value, dict):
            for key, v in value.items():
                out[f"{word} {name} of {key}"] = v
        else:
            out[f"{word} {name}"] = value
    for name, t in view["tracks"].items():
        out[f"track {name}"] = t["pos"]
        for pos, tokens in t["tokens"].items():
            for token, count in tokens.items():
                out[f"token {token} on {name} at {pos}"] = count
    for name, cards in view["zones"].items():
        out[f"zone {name}"] = list(cards)
    for space, entry in view["board"].items():
        if entry.get("pieces"):
            out[f"pieces at {space}"] = list(entry["pieces"])
        for token, count in entry.get("tokens", {}).items():
            out[f"token {token} at {space}"] = count
    for where, tokens in view["elsewhere"].items():
        for token, count in tokens.items():
            out[f"token {token} on {where}"] = count
    ents = match._state["ents"]
    for key, (eid, fname) in set_properties(match).items():
        out[key] = ents[eid]["f"][fname]
    r = view["result"]
    out["result"] = "playing" if r is None else result_text(r)
    return out


def set_properties(match) -> dict:
    """The properties set on cards and pieces, as `facts` names them -> (card id, property)."""
    from .runtime import Runtime
    from .view import named_apart

    ents = match._state["ents"]
    have = [eid for eid, ent in enumerate(ents) if ent is not None and ent.get("f")]
    # named as views name a card or piece, by what stays the same as it moves: its name, a
    # piece's owner, and which copy it is where the game has several (`Rope (copy 2)`)
    named = named_apart(Runtime(match.game, match._state, []), have, entity_name, every_copy=True)
    out = {}
    for eid in have:
        for fname in sorted(ents[eid]["f"]):
            out[f"{fname} of {named[eid]}"] = (eid, fname)
    return out


def unset_values(match, before: dict) -> dict:
    """For each fact now that `before` does not list: the value it read while unset, so a first
    `set` is reported from that. A property: written on the card, or its kind's default; a key
    of a counter, flag or var kept per space, card or pair: its start (view.counter_starts)."""
    from .runtime import RuleError, Runtime
    from .view import counter_starts

    rt = Runtime(match.game, match._state, [])
    out = {}
    for (name, key), start in counter_starts(match).items():
        fact = f"{match.game.vars[name].kind} {name} of {key}"  # as `facts` names it
        if fact not in before:
            out[fact] = start
    for key, (eid, fname) in set_properties(match).items():
        if key not in before:
            try:
                out[key] = match.game.static_field(rt, eid, match._state["ents"][eid]["d"], fname)
            except RuleError:  # a property the card does not declare: it read nothing before
                continue
    return out


def result_text(r: dict, game_path: str | None = None) -> str:
    """A finished match's result for people: who won, and why the match ended. With the game's
    path, also where the statement that ended it is written (`, line 140`), for the messages a
    person reads to go and look; an effect snapshot leaves the line out, so that it does not
    change when lines above the statement move."""
    why = r["reason"] + (place_text(r, game_path) if game_path is not None else "")
    if not r["winners"]:
        return f"no one wins ({why})"
    return f"{', '.join(r['winners'])} win{'s' if len(r['winners']) == 1 else ''} ({why})"


def place_text(r: dict, game_path: str) -> str:
    """`, line N` of a result (Match.result) that says where the game ended, `, line N of
    FILE` when that is another file than the game's own (one it imports, named from the game
    file's folder); "" when it does not say (the flow ran out, or a match saved before results
    said where)."""
    at = r.get("at")
    if not at:
        return ""
    path, line = at
    if str(path) == str(game_path).replace(chr(92), "/").rsplit("/", 1)[-1]:
        return f", line {line}"
    return f", line {line} of {path}"


def _plain(v) -> str:
    if v == "":
        return '""'  # an empty text, which would otherwise show as nothing at all
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return "none"
    if isinstance(v, list):
        return "[" + ", ".join(_plain(x) for x in v) + "]"
    return str(v)


def changes(before: dict, after: dict, unset: dict | None = None) -> list[str]:
    """What differs from `before` to `after`; `unset` gives what a fact missing from `before`
    read then (see unset_values)."""
    out = []
    keys = list(before) + [k for k in after if k not in before]
    unset = unset or {}
    for key in keys:
        old, new = before.get(key, unset.get(key)), after.get(key)
        if old == new:
            continue
        if key.startswith("zone ") or key.startswith("pieces "):
            out.append(f"{key}: {_zone_change(old or [], new or [])}")
        elif key.startswith("token "):
            out.append(f"{key}: {old or 0} -> {new or 0}")
        else:
            out.append(f"{key}: {_plain(old)} -> {_plain(new)}")
    return out
