"""Values as a person reads them: seat names, card names, spaces; never a Python repr."""

from __future__ import annotations

from .runtime import RuleError


def loose(label: str) -> str:
    """A move's label as typed labels are matched to it: in any case, and with any run of
    spaces as one (`Buy  copper coin` names `buy Copper Coin`)."""
    return " ".join(label.split()).casefold()


def display(rt, value, typ: str = "any") -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if typ == "shares" and isinstance(value, list):
        return ", ".join(f"{display(rt, t, 'any')} {a}" for t, a in value) or "nothing"
    if isinstance(value, list):
        inner = typ[5:] if typ.startswith("list:") else "any"
        return ", ".join(display(rt, v, inner) for v in value) if value else "nothing"
    if isinstance(value, int):
        # a number that is no seat (no card) shows as itself: a type the checker found for a
        # var that declares none (Symbols.inferred) shows its value, and a `given` line or the
        # REPL may put any value in such a var
        if typ == "seat" and 0 <= value < rt.state["nseats"]:
            return rt.seat_name(value)
        if typ.startswith("entity") and 0 <= value < len(rt.state["ents"]):
            return entity_label(rt, value)
        return str(value)
    if isinstance(value, str):
        if typ == "zone" or ("@" in value and value.split("@", 1)[0] in rt.game.zones):
            name, _, seat = value.partition("@")
            return f"{name} of {rt.seat_name(int(seat))}" if seat else name
        return value
    return str(value)


def distribute_prompt(seat: str, question: str | None, remaining: int, target: str) -> str:
    """The question of one part of a `distribute`: `P2: Spread the damage: 5 left to give; how
    many to Bell?`. A seat that may not see the target card reads `a card` for its name (view)."""
    asked = f"{question}: " if question else ""
    return f"{seat}: {asked}{remaining} left to give; how many to {target}?"


def display_all(rt, values: list, typ: str = "any") -> list[str]:
    """[display(rt, v, typ) for v in values], with the common cases written out: a text that
    names no seat's zone is itself (unless shown as a zone), a whole number is its digits, a
    seat's name or a card's label."""
    if typ == "zone":
        return [display(rt, v, typ) for v in values]
    if typ == "seat":
        names = rt.game.seat_names(rt.state["nseats"])
        return [names[v] if v.__class__ is int and 0 <= v < len(names) else display(rt, v, typ) for v in values]
    if typ.startswith("entity"):
        n = len(rt.state["ents"])
        return [v if v.__class__ is str and "@" not in v else
                entity_label(rt, v) if v.__class__ is int and 0 <= v < n else display(rt, v, typ) for v in values]
    return [v if v.__class__ is str and "@" not in v else
            str(v) if v.__class__ is int else display(rt, v, typ) for v in values]


def entity_label(rt, eid: int) -> str:
    """A card is its name; a piece on the board also says whose it is and where it stands."""
    e = rt.state["ents"][eid]
    if e is None:
        return f"#{eid}"
    loc = e["l"]
    if loc in rt.game.spaces:
        owner = f"{rt.seat_name(e['o'])} " if e["o"] is not None else ""
        return f"{owner}{e['d']} in {loc}"
    return e["d"]


def entity_name(rt, eid: int) -> str:
    """A card or piece as it reads wherever it lies: its name, and for a piece a seat owns,
    whose it is (`Red Warlord`). Unlike entity_label it does not say where a piece stands, so
    it stays the same as the piece moves: what keys a counter kept per card or piece."""
    e = rt.state["ents"][eid]
    if e is None:
        return f"#{eid}"
    spec = rt.game.defs.get(e["d"])
    if e["o"] is not None and getattr(spec, "word", "card") == "piece":
        return f"{rt.seat_name(e['o'])} {e['d']}"
    return e["d"]


def interchangeable(rt, a, b) -> bool:
    """Two option values a player could not tell apart: equal, or copies of the same card in
    the same place with the same owner and properties."""
    if a == b:
        return True
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for x, y in zip(a, b, strict=True):  # equal parts (an action's name, most arguments) need no more
            if x != y and not interchangeable(rt, x, y):
                return False
        return True
    if isinstance(a, int) and isinstance(b, int) and not isinstance(a, bool) and not isinstance(b, bool):
        ents = rt.state["ents"]
        if not (0 <= a < len(ents) and 0 <= b < len(ents)) or ents[a] is None or ents[b] is None:
            return False
        ea, eb = ents[a], ents[b]
        if (ea["d"], ea["l"], ea["o"], ea.get("rev"), ea.get("see")) != (eb["d"], eb["l"], eb["o"], eb.get("rev"), eb.get("see")):
            return False
        fa, fb = ea.get("f") or {}, eb.get("f") or {}
        if fa == fb:
            return True
        # a property set to the value it reads anyway (its default) does not tell two copies apart
        try:
            return all(rt.field(a, k) == rt.field(b, k) for k in set(fa) | set(fb))
        except RuleError:
            return False
    return False


def merge_options(rt, labels: list[str], values: list, entity_values: bool) -> tuple[list[str], list]:
    """Drop options that repeat an earlier one exactly (same label, interchangeable value), then
    give the remaining repeated labels ' #2', ' #3' in order."""
    if len(set(labels)) == len(labels):  # no label repeats, the common case: nothing to merge
        return labels, values
    keep_l, keep_v = [], []
    kept: dict[str, list] = {}  # label -> values kept under it, so only same-label options are compared
    for label, value in zip(labels, values, strict=True):
        same = kept.get(label)
        if same is None:
            kept[label] = [value]
        else:
            if entity_values and _any_interchangeable(rt, same, value):
                continue
            same.append(value)
        keep_l.append(label)
        keep_v.append(value)
    return unique_labels(keep_l), keep_v


def _any_interchangeable(rt, values: list, value) -> bool:
    for v in values:
        if interchangeable(rt, v, value):
            return True
    return False


def unique_labels(labels: list[str]) -> list[str]:
    """Repeated labels get ' #2', ' #3' in order, so each option has its own stable label."""
    if len(set(labels)) == len(labels):  # nothing repeated, the common case: a copy as it is
        return list(labels)
    seen: dict[str, int] = {}
    out = []
    for label in labels:
        k = seen.get(label, 0) + 1
        seen[label] = k
        out.append(label if k == 1 else f"{label} #{k}")
    return out


def describe_entry(match, entry: dict, actions: bool = False, viewer=None, index: int | None = None) -> str | None:
    """One log entry as a sentence; None for entries the caller prints itself. A card shown to
    some seats only is named to them (and to `viewer` None, the designer), not to others; with
    `actions`, an answer or action is written out, and one naming a card `viewer` may not see
    says only what was done (`Blue chose a card`, see Match.hidden_answer). `index` is the
    entry's place in `match.log` (found there when not given)."""
    t = entry["t"]
    if t == "roll":
        return f"rolled d{entry['die']}: {entry['value']}"
    if t == "shuffle":
        return f"shuffled {zone_text(match, entry['zone'])}"
    if t == "log":
        return entry["text"]
    if t == "warning":
        return f"warning: {entry['text']}"
    if t == "reveal":
        to = entry.get("to")
        if to is None:
            return f"revealed {entry['card']}"
        who = ", ".join(match.seat_name(s) for s in to)
        if viewer is None or viewer in to:
            return f"showed {entry['card']} to {who}"
        return f"showed a card to {who}"
    if t in ("action", "answer") and actions:
        seat = entry.get("seat")
        who = match.seat_name(seat) if seat is not None else "chance"
        told = hidden_answer(match, entry, viewer, index)
        said = f"{who}: {entry['label']}" if told is None else f"{who} {told}"
        # the question it answered, as the REPL says a bot's answer (`Blue: 2 (choose n)`): an
        # answer alone (`Red`, `2`, `yes`) does not say what was asked
        asked = _question(match, entry, viewer, index) if t == "answer" else None
        return said if asked is None else f"{said} ({asked})"
    return None


def _question(match, entry: dict, viewer, index: int | None) -> str | None:
    """The question the answer `entry` answered, as `viewer` may read it (Match.question)."""
    if index is None or not (0 <= index < len(match.log) and match.log[index] is entry):
        index = next((i for i, e in enumerate(match.log) if e is entry), None)
        if index is None:
            return None
    return match.question(index, viewer)


def hidden_answer(match, entry: dict, viewer, index: int | None = None) -> str | None:
    """What `viewer` is told of an answer or action it may not see ("chose a card"), or None
    when it may see it (Match.hidden_answer); `index` is the entry's place in the log."""
    if viewer is None:
        return None
    if index is None or not (0 <= index < len(match.log) and match.log[index] is entry):
        index = next((i for i, e in enumerate(match.log) if e is entry), None)
        if index is None:  # not an entry of this match's log: nothing says who may see it
            return None if entry.get("seat") == viewer else "answered"
    return match.hidden_answer(index, viewer)


def zone_text(match, key: str) -> str:
    name, _, seat = key.partition("@")
    return f"{name} of {match.seat_name(int(seat))}" if seat else name


def came_and_gone(before: list, after: list) -> tuple[list, list]:
    """What a zone's change brought in and took out, by name, each copy counted: the names of
    `after` not matched in `before`, and those of `before` left unmatched, in their orders."""
    gone, came = list(before), []
    for name in after:
        if name in gone:
            gone.remove(name)
        else:
            came.append(name)
    return came, gone
