"""The one projection of a state for a seat: what that seat may see, as plain data to render."""

from __future__ import annotations

import json

from ..language.symbols import HIDDEN, per_keys
from .display import display_all, distribute_prompt, entity_label, entity_name
from .ops import DECIDE
from .runtime import Runtime


def view_state(match, seat=None) -> dict:
    """Everything, or (with a seat) only what that seat may see; the basis of every rendering.

    `seat` may also be a tuple of seats: then only what every one of them may see, each thing
    shown as the seat that sees least of it sees it (a hand its owner sees and the others count
    is counted). The REPL says what a move changed in this view when one seat hands the screen
    to another (hot seat play), so that neither reads what the other may not."""
    game, state = match.game, match._state
    rt = Runtime(game, state, match.log)
    names = match.seat_names()
    looking = None if seat is None else seat if isinstance(seat, tuple) else (seat,)
    out: dict = {
        "game": game.title,
        "seat": None if looking is None else " and ".join(names[s] for s in looking),
        "where": match.scopes(),
        "counters": _counters(rt, looking, names),
        "tracks": {},
        "zones": {},
        "board": {},
        "elsewhere": {},
        "result": match.result,
    }
    pending = state["pending"]
    if state["result"] is None and pending is not None:
        waiting = "chance" if pending["seat"] is None else names[pending["seat"]]
        decision = {"seat": waiting, "prompt": decision_prompt(rt, pending, looking, names), "kind": pending["kind"]}
        if pending.get("blind"):  # `choose ... blind`: the options are places in a list, `1` to `n`
            decision["blind"] = True
        deciding = looking is None or pending["seat"] is None or all(pending["seat"] == s for s in looking)
        if deciding:
            decision["options"] = list(pending["options"])
            if pending.get("picked"):
                # a choice of several asked one at a time: the picks so far, shown with the
                # options (to the seat deciding, as the options showed them), hidden with them
                decision["picked"] = _picked(rt, pending)
            if pending["kind"] == "distribute" and pending.get("shares"):
                # a `distribute` asks one target at a time: what each earlier one was given,
                # written as the option that gave it was, and shown with the options alike
                decision["shares"] = _shares(rt, pending["shares"])
        out["decision"] = decision
    for name, spec in game.tracks.items():
        t = state["tracks"][name]
        out["tracks"][name] = {"pos": t["pos"], "start": t["start"], "low": spec.low, "high": spec.high,
                               "zones": {z: list(r) for z, r in spec.zones.items()},
                               "tokens": _tokens_at_track(rt, name)}
    for zname, spec in game.zones.items():
        if zname == "box" or (zname == "removed" and not state["places"].get("removed")):
            continue
        owners = range(state["nseats"]) if spec.per == "seat" else [None]
        for owner in owners:
            key = zname if owner is None else f"{zname}@{owner}"
            shown = zname if owner is None else f"{zname} of {names[owner]}"
            cards = state["places"].get(key, [])
            out["zones"][shown] = _zone_view(rt, spec.visibility, cards, looking, owner)
    for space, sspec in game.spaces.items():
        entry: dict = {}
        pieces = shown = state["places"].get(space, [])
        if pieces and looking is not None and sspec.visibility == "top only":
            # a pile: its top card, and those under it shown to this seat; the rest as a number
            shown = [e for i, e in enumerate(pieces)
                     if i == 0 or all(_shown_to(state["ents"][e], s) for s in looking)]
        if shown:
            entry["pieces"] = [entity_label(rt, e).replace(f" in {space}", "") for e in shown]
        if len(shown) < len(pieces):
            entry["face_down"] = len(pieces) - len(shown)
        tokens = _tokens_at(rt, space, names)
        if tokens:
            entry["tokens"] = tokens
        out["board"][space] = entry
    on_cards = _labels_of_cards_with_tokens(rt, looking)
    for key, count in sorted(state["tokens"].items()):
        token, owner, place = key.split("|", 2)
        if place in game.spaces or ":" in place:
            continue
        where = place
        if place.startswith("#"):
            where = on_cards.get(int(place[1:]))
            if where is None:
                continue  # tokens on a card the seat cannot see would name and locate it
        label = f"{names[int(owner)]} {token}" if owner else token
        out["elsewhere"].setdefault(where, {})[label] = count
    return out


def _labels_of_cards_with_tokens(rt, looking: tuple | None) -> dict[int, str]:
    """The cards that carry tokens and that every seat of `looking` may see, each by the label
    `elsewhere` lists its tokens under: its name, or where two copies of one card both carry
    tokens, the name and which copy it is (`Rope (copy 2)`), so that neither copy's tokens
    hide the other's."""
    seen_cards = {}
    for key in rt.state["tokens"]:
        place = key.split("|", 2)[2]
        if place.startswith("#"):
            eid = int(place[1:])
            if eid not in seen_cards and (looking is None or all(_can_see(rt, eid, s) for s in looking)):
                seen_cards[eid] = True
    return named_apart(rt, list(seen_cards))


def named_apart(rt, eids: list[int], label=entity_label, every_copy: bool = False) -> dict[int, str]:
    """Each card or piece of `eids` by `label`, and where another reads the same, which copy it
    is: `Rope (copy 2)`, counted in the order the game makes the copies of that card. Told apart
    from the others of `eids`; with `every_copy`, from every card or piece the match holds that
    reads the same, wherever it lies and whether the view names it or not, so that a card reads
    the same as the others come and go (a key of a counter kept per card, which a change line
    names before and after): there the first made is written plain and the others `(copy 2)`
    on, so that one made later (a piece promoted, a card created) renames none made before it."""
    ents = rt.state["ents"]
    labels = {eid: label(rt, eid) for eid in eids}
    out = {}
    if every_copy:
        names = {ents[eid]["d"] for eid in eids if ents[eid] is not None}
        rank: dict[str, int] = {}
        ranks: dict[int, int] = {}
        for other, e in enumerate(ents):
            if e is not None and e["d"] in names:
                text = labels[other] if other in labels else label(rt, other)
                ranks[other] = rank[text] = rank.get(text, 0) + 1
        for eid, text in labels.items():
            k = ranks.get(eid, 1)
            out[eid] = text if k == 1 else f"{text} (copy {k})"
        return out
    alike: dict[str, int] = {}
    for text in labels.values():
        alike[text] = alike.get(text, 0) + 1
    for eid, text in labels.items():
        if alike[text] > 1 and ents[eid] is not None:
            name = ents[eid]["d"]
            copy = sum(1 for other in ents[:eid] if other is not None and other["d"] == name) + 1
            text = f"{text} (copy {copy})"
        out[eid] = text
    return out


def _picked(rt, pending: dict) -> list[str]:
    """The values a multi-part `choose` has picked so far, written as its options wrote them
    (the places of a `blind` one, `3`)."""
    if pending.get("blind"):
        return [str(place) for place in pending["picked"]]
    return display_all(rt, pending["picked"], _choice_type(rt.game, rt.state))


def decision_prompt(rt, pending: dict, looking: tuple | None, names) -> str:
    """The question of the decision waiting (`pending`, in `rt`'s state) as every seat of
    `looking` reads it (None: the designer): the rules' own words, but for a `distribute` asked
    of a card one of them may not see, named `a card` to the seats that do not decide. The view
    shows it, and the REPL's `log` says it with the answer (Match.question)."""
    deciding = looking is None or pending["seat"] is None or all(pending["seat"] == s for s in looking)
    if not deciding and pending["kind"] == "distribute":
        return _distribute_prompt(rt, pending, looking, names[pending["seat"]])
    return pending["prompt"]


def _distribute_prompt(rt, pending: dict, looking: tuple, waiting: str) -> str:
    """A `distribute`'s question as the seats of `looking` read it: the target asked of is
    named, as the question named it, unless it is a card one of them may not see where it is
    (a card of the deciding seat's hidden hand), which is `a card`, as a pick of it is told."""
    eids = named_cards(rt.game, rt.state, pending, 0)  # the target asked of, whichever the share
    if not blind_seats(rt.game, rt.state, eids, looking):
        return pending["prompt"]
    return distribute_prompt(waiting, pending.get("question"), pending["remaining"], _a_card(rt.game, rt.state, eids))


def _shares(rt, shares: list) -> list[str]:
    """The shares a `distribute` has given so far, `2 to Bell`, as its options wrote them."""
    names = display_all(rt, [target for target, _ in shares], _choice_type(rt.game, rt.state))
    return [f"{given} to {name}" for name, (_, given) in zip(names, shares, strict=True)]


def _choice_type(game, state: dict) -> str:
    """The type of what the `choose` waiting picks, or the `distribute` waiting gives to ("any"
    when none waits, or it does not say): the decision is the DECIDE instruction the top frame
    stands at."""
    stack = state["stack"]
    if stack:
        frame = stack[-1]
        op = game.codes[frame["c"]].ops[frame["pc"]]
        if op[0] == DECIDE and isinstance(getattr(op[1], "elem_type", None), str):
            return op[1].elem_type
    return "any"


def _can_see(rt, eid: int, seat) -> bool:
    """Whether `seat` may know this card or piece is where it is (None sees everything)."""
    if seat is None:
        return True
    game, ents = rt.game, rt.state["ents"]
    for _ in range(len(ents) + 1):  # a card on a card on a card ...: bounded by the number of cards
        e = ents[eid]
        loc = e["l"] or "box"
        if loc.startswith("#"):
            eid = int(loc[1:])
            continue
        space = game.spaces.get(loc)
        if space is not None:
            return space.visibility == "public" or _on_top(rt, loc, eid) or _shown_to(e, seat)
        zname, _, owner = loc.partition("@")
        spec = game.zones.get(zname)
        if spec is None or zname == "box":
            return False
        if spec.visibility == "public" or (spec.visibility == "owner only" and owner and int(owner) == seat):
            return True
        if spec.visibility == "others only" and owner and int(owner) != seat:
            return True
        if spec.visibility == "top only" and _on_top(rt, loc, eid):
            return True
        return _shown_to(e, seat)
    return False


def _on_top(rt, place: str, eid: int) -> bool:
    cards = rt.state["places"].get(place)
    return bool(cards) and cards[0] == eid


def _shown_to(e: dict, seat) -> bool:
    """Whether a card was revealed to everyone, or shown to `seat`, since it last moved."""
    return bool(e.get("rev")) or (seat is not None and seat in e.get("see", ()))


def _zone_view(rt, visibility: str, cards: list, looking: tuple | None, owner):
    """A zone as every seat of `looking` may see it (None: everything)."""
    ents = rt.state["ents"]
    names = [ents[c]["d"] for c in cards]
    if looking is None or visibility == "public":
        return names
    if visibility == "owner only" and all(owner == s for s in looking):
        return names
    if visibility == "others only" and all(owner != s for s in looking):
        return names
    # `top only`: the top card is shown apart, so `revealed` lists only cards under it
    under = cards[1:] if visibility == "top only" else cards
    revealed = [ents[c]["d"] for c in under if all(_shown_to(ents[c], s) for s in looking)]
    if visibility == "hidden":
        return {"count": HIDDEN, "revealed": revealed} if revealed else HIDDEN
    view = {"count": len(cards)}
    if visibility == "top only" and cards:
        view["top"] = names[0]
    if revealed:
        view["revealed"] = revealed
    if visibility in ("owner only", "others only"):
        # A hand: the seats that may not see its cards see their backs, in order, and the
        # tokens laid on them, which are on the table for everyone. So the owner of an `others
        # only` hand sees the marks of a Hanabi clue on cards it cannot name, and the others
        # see the tokens on the cards of an `owner only` hand, by their place in it, as they
        # would see them on the backs of the cards held up at a table. The cards' names stay
        # hidden: `elsewhere` leaves out tokens on a card the seat may not see. A zone that is
        # a stack (`count only`, `hidden`, `top only`) shows none of its hidden cards' backs,
        # and the tokens on them stay hidden with them.
        marks = [_tokens_at(rt, f"#{c}", rt.game.seat_names(rt.state["nseats"])) for c in cards]
        if any(marks):
            view["marks"] = marks
    return view


def _counters(rt, looking: tuple | None, names) -> dict:
    out = {}
    for name, spec in rt.game.vars.items():
        hidden_from = _hidden(spec.visibility, looking)
        typ = spec.shown
        if spec.per == "seat":
            row = {}
            for s in range(rt.state["nseats"]):
                v = rt.get_var(name, s)
                row[names[s]] = HIDDEN if hidden_from(s) else _shown(rt, v, typ, looking, names)
            out[name] = row
        elif spec.per is None:
            out[name] = HIDDEN if hidden_from(None) else _shown(rt, rt.get_var(name), typ, looking, names)
        else:
            row = _keyed_row(rt, name, looking, names, lambda k, n=name: rt.state["vars"][f"{n}@{k}"])
            if row:
                out[name] = HIDDEN if hidden_from(None) else row
    return out


def counter_starts(match, seat=None) -> dict:
    """(name, key as the view shows it) -> the value the key read before anything set it (its
    start), for each key set now of a counter, flag or var kept per space, card or pair. The
    view lists such a key only once it is set, so a first change is reported from this value,
    not from nothing (`climber of C7: 0 → 1`, `wounds of Rope: 0 → 1`). A start written as an
    expression is read in the state as it is now. Shown as `view_state(match, seat)` shows a
    value: a start that is a card `seat` may not see is hidden, and the keys of cards it may
    not see are one `hidden` key with the list of their starts, as the view lists them."""
    rt = Runtime(match.game, match._state, match.log)
    names = match.seat_names()
    looking = None if seat is None else seat if isinstance(seat, tuple) else (seat,)
    out = {}
    for name, spec in match.game.vars.items():
        if spec.per is None or spec.per == "seat":
            continue
        row = _keyed_row(rt, name, looking, names, lambda k, s=spec: s.initial(rt, k))
        for key, start in row.items():
            out[(name, key)] = start
    return out


def _keyed_row(rt, name: str, looking: tuple | None, names, value_of) -> dict:
    """A counter, flag or var kept per space, card or pair, as the view shows it: key as shown
    -> `value_of(key)` shown, for each key set now, in the order of `key_order`.

    A key that is a card (or piece) a seat of `looking` may not see where it is now neither
    names it nor gives its number (which is as good as its name: `_shown`). Such keys are not
    told apart from one another: they are merged into one key, the key with the card written
    `hidden` (`hidden`; `Red at hidden` for a pair of a seat and a card), listed after the others,
    whose value is the list of their values, sorted by value. Numbering them instead (`hidden
    card 1`, `hidden card 2`) would need an order, and any order the state gives (the cards'
    numbers, where they lie in a deck) tells something of which card each is; the sorted
    values tell only what the seat may know: how many hidden cards have a value, and which."""
    spec = rt.game.vars[name]
    prefix = name + "@"
    parts = per_keys(spec.per)
    keys = sorted((k[len(prefix):] for k in rt.state["vars"] if k.startswith(prefix)),
                  key=key_order(rt.game, parts))
    cards = card_parts(rt.game, parts)
    split = [key.split("|", 1) if len(parts) == 2 else [key] for key in keys]
    eids = {int(t) for texts in split for t, card in zip(texts, cards, strict=False) if card}
    seen = [e for e in sorted(eids) if looking is None or all(_can_see(rt, e, s) for s in looking)]
    labels = named_apart(rt, seen, entity_name, every_copy=True)
    row: dict = {}
    merged: dict[str, list] = {}
    for key, texts in zip(keys, split, strict=True):
        shown = _parts_named(parts, texts, cards, names, labels.get)
        blind = None in shown
        if blind:
            shown = [HIDDEN if text is None else text for text in shown]
        value = _shown(rt, value_of(key), spec.shown, looking, names)
        shown_key = pair_text(shown, cards)
        if blind:
            merged.setdefault(shown_key, []).append(value)
        else:
            row[shown_key] = value
    for shown_key, values in sorted(merged.items()):
        row[shown_key] = sorted(values, key=_value_order)
    return row


def card_parts(game, parts: tuple) -> list[bool]:
    """For each part of a var's `per`, whether its keys are cards (or pieces), by their ids:
    not a seat, a space kind's space or a text of a set of keys (`per colour`)."""
    return [p != "seat" and p not in game.space_kinds and p not in game.key_sets for p in parts]


def key_order(game, parts: tuple):
    """A sort key for the keys of a var kept per `parts`, as the state writes them ("10",
    "C7", "1|C7"): seats and cards by their numbers, spaces as the board declares them, the
    first part of a pair before the second. Sorted as texts, card 10 came before card 2 and
    a view listed a card's copies out of the order the game makes them."""
    spaces = game.space_order
    # a set of keys (`per colour`) in the order its list gives them, as a zone family's members
    listed = [{key: i for i, key in enumerate(game.key_sets[p].texts)} if p in game.key_sets else None
              for p in parts]
    numbered = [p not in game.space_kinds and p not in game.key_sets for p in parts]

    def rank(key: str) -> tuple:
        texts = key.split("|", 1) if len(parts) == 2 else [key]
        out = []
        for text, number, keys in zip(texts, numbered, listed, strict=False):
            if number and text.isdigit():
                out.append((0, int(text), ""))
            elif keys is not None and text in keys:
                out.append((0, keys[text], ""))
            elif not number and text in spaces:
                out.append((0, spaces[text], ""))
            else:  # not to be met (saved.var_problem): after the others, as text
                out.append((1, 0, text))
        return tuple(out)
    return rank


def pair_shown(rt, name: str, key: str) -> str:
    """The key of a var kept per pair, "1|South" in the state, as a view names it (`P2 at
    South`, a card by its name and which copy it is): the `key` a `when NAME changes:` trigger
    is given, so a text that shows it reads as the view's row does. Unlike the view it names
    a card any seat may not see, as `{c}` in a text does."""
    parts = per_keys(rt.game.vars[name].per)
    cards = card_parts(rt.game, parts)
    names = rt.game.seat_names(rt.state["nseats"])
    made = len(rt.state["ents"])

    def card_named(eid: int) -> str:
        return named_apart(rt, [eid], entity_name, every_copy=True)[eid] if eid < made else str(eid)
    return pair_text(_parts_named(parts, key.split("|", 1), cards, names, card_named), cards)


def _parts_named(parts: tuple, texts: list, cards: list, names, card_named) -> list:
    """The parts of a key as the state writes it (`texts`, "1|South" split at its bar) as the
    rules name them: a card by `card_named(its number)`, a seat by its name, a space (or a text
    not to be met, saved.var_problem) as it is. A view's row and a trigger's `key` (pair_shown)
    name keys so, and differ only in how a card is named: a view has None for a card a seat
    may not see, a trigger names every card."""
    shown = []
    for part, text, card in zip(parts, texts, cards, strict=False):
        if card and text.isdigit():
            shown.append(card_named(int(text)))
        elif part == "seat" and text.isdigit() and int(text) < len(names):
            shown.append(names[int(text)])
        else:
            shown.append(text)
    return shown


PAIR_WORD = " at "


def pair_text(shown: list, cards: list) -> str:
    """A key as the view writes it: a pair's two parts as the rules name them (`progress of
    Red at C7` is `Red at C7`). Joined by a space, two pairs could read alike (a card "A B"
    with "C", and "A" with "B C"), and one value took the other's place. A seat's or a space's
    name is a word; a card's name may hold ' at ' or a quote itself, and then each card of the
    pair but `hidden` is written in quotes (`"A at B" at "C"`), so no two pairs read alike."""
    if len(shown) == 1:
        return shown[0]
    if any(card and (PAIR_WORD in text or '"' in text) for text, card in zip(shown, cards, strict=False)):
        shown = [json.dumps(text, ensure_ascii=False) if card and text != HIDDEN else text
                 for text, card in zip(shown, cards, strict=False)]
    return PAIR_WORD.join(shown)


def _value_order(value):
    """An order of shown values that depends on them alone: numbers by size, the rest as text."""
    if isinstance(value, int) and not isinstance(value, bool):
        return (0, value, "")
    return (1, 0, repr(value))


def _hidden(visibility: str, looking: tuple | None):
    """Whether a value kept for `owner` is hidden from some seat of `looking` (None: everything)."""
    def hidden(owner) -> bool:
        if looking is None or visibility == "public":
            return False
        if visibility == "owner only":
            return any(owner != s for s in looking)
        if visibility == "others only":
            return any(owner == s for s in looking)
        return True
    return hidden


def _shown(rt, v, typ: str, looking: tuple | None, names):
    """A var's value for a view, by the type that shows it (VarSpec.shown): a seat by its name
    (`names`), a card or piece as the view names it elsewhere, a list of them item by item.

    A card is named only to a view whose every seat may see it where it is now (`_can_see`),
    and is HIDDEN to the others. The var is the game's and public (its own visibility hides it
    or not), but the card it points at may lie in another seat's hand or in a deck: naming it,
    or giving its number, which is as good as its name, would tell what the zone hides. So the
    seat learns that the var holds a card it may not see, as a hand it may not see is shown as
    a count: the same answer for any hidden card, and a bot's samples, which deal hidden cards
    anew, show the seat the same view as the real match."""
    if isinstance(v, list):
        inner = typ[5:] if typ.startswith("list:") else "any"
        return [_shown(rt, x, inner, looking, names) for x in v]
    if isinstance(v, int) and not isinstance(v, bool):
        if typ == "seat" and 0 <= v < len(names):
            return names[v]
        if typ.startswith("entity") and 0 <= v < len(rt.state["ents"]) and rt.state["ents"][v] is not None:
            if looking is not None and not all(_can_see(rt, v, s) for s in looking):
                return HIDDEN
            return entity_label(rt, v)
    return _plain(rt, v)


def _plain(rt, v):
    if isinstance(v, bool) or v is None or isinstance(v, (int, str)):
        return v
    if isinstance(v, list):
        return [_plain(rt, x) for x in v]
    return str(v)


def _tokens_at(rt, place: str, names) -> dict:
    out = {}
    for key, count in sorted(rt.state["tokens"].items()):
        token, owner, p = key.split("|", 2)
        if p == place:
            out[f"{names[int(owner)]} {token}" if owner else token] = count
    return out


def _tokens_at_track(rt, track: str) -> dict:
    out = {}
    for key, count in sorted(rt.state["tokens"].items()):
        token, owner, p = key.split("|", 2)
        if p.startswith(track + ":"):
            out.setdefault(p.split(":", 1)[1], {})[token] = count
    return out


# ── answers a seat may not see ──
# What a seat sees of the moves the others make. A move's label names what was chosen; when
# that is a card (or piece) the seat could not see when it was chosen, and still cannot once
# the move is made (Coup's cards put back into the court deck, a face-down pick in For Sale or
# Sushi Go), the seat is told only that a card was chosen. A card that the move shows (a card
# played face up, an influence lost) is named to everyone, as it is at a table.


def named_cards(game, state: dict, pending: dict, index: int) -> list[int]:
    """The cards and pieces that option `index` of the decision waiting names: the card a
    `choose` among cards picks, the cards an offered action takes as its arguments."""
    values = pending.get("values")
    if pending["seat"] is None or not values or not 0 <= index < len(values) or values[index] is None:
        return []
    value, kind = values[index], pending["kind"]
    if kind == "choose":
        if pending.get("blind"):  # a place in the list, `3`: no card is named by it
            return []
        return _entities(value, _choice_type(game, state))
    if kind == "distribute":  # the answer is a number; the card is the target it is given to
        return _entities(pending["targets"][len(pending["shares"])], _choice_type(game, state))
    if kind == "offer" and isinstance(value, list) and len(value) == 2:
        action = game.actions.get(value[0])
        if action is None:
            return []
        out: list[int] = []
        for (_name, _source, typ), arg in zip(action.params, value[1], strict=False):
            out.extend(_entities(arg, typ))
        return out
    return []


def cards_among(game, state: dict, values: list) -> list[int]:
    """The cards and pieces among `values` of the decision waiting (what a `choose` picked so
    far, the targets of a `distribute`), read by the type of what it chooses, as named_cards
    reads an option."""
    typ = _choice_type(game, state)
    return [e for v in values for e in _entities(v, typ)]


def _entities(value, typ: str) -> list[int]:
    if typ.startswith("list:") and isinstance(value, list):
        return [e for v in value for e in _entities(v, typ[5:])]
    if typ.startswith("entity") and isinstance(value, int) and not isinstance(value, bool):
        return [value]
    return []


def blind_seats(game, state: dict, eids: list[int], seats) -> list[int]:
    """The seats of `seats` that cannot see at least one of the cards `eids` where it is now."""
    rt = Runtime(game, state, [])
    ents = state["ents"]
    known = [e for e in eids if 0 <= e < len(ents) and ents[e] is not None]
    if len(known) < len(eids):  # a card gone from the match: no one sees it now
        return list(seats)
    return [s for s in seats if not all(_can_see(rt, e, s) for e in known)]


class Watching(Runtime):
    """A runtime that notes, as a move runs, which seats saw each card the move names at some
    moment of it: a card that shows to a seat (in a public zone, on top of a `top only` pile, in
    the seat's own hand, revealed) was seen by that seat, wherever it goes next, as at a table
    where it went by face up. `unseen` is, per seat, the named cards it has not seen yet, and
    shrinks as they show. It looks before and after each `move` and each shuffle (what a reveal
    showed is found before the next move; the caller looks once more where the rules stop). A
    `move` of several cards is one step: of cards put together on a pile, the last one shows.
    A card gone from the match before a seat saw it stays unseen. Only Match's retrace of a move,
    to work out who may see it (Match._sight_of), runs one (vm.answer's `runtime`): a move
    played for real, and a simulation's loop, pays nothing for it."""

    __slots__ = ("unseen",)

    def __init__(self, game, state: dict, log: list, unseen: dict[int, set[int]]) -> None:
        super().__init__(game, state, log)
        self.unseen = unseen

    def look(self) -> None:
        ents = self.state["ents"]
        for seat, cards in self.unseen.items():
            if cards:
                cards.difference_update([e for e in cards if 0 <= e < len(ents) and ents[e] is not None
                                         and _can_see(self, e, seat)])

    def move_entities(self, eids: list, dest: str, bottom: bool = False) -> None:
        self.look()
        super().move_entities(eids, dest, bottom)
        self.look()

    def shuffle(self, zone: str) -> None:
        super().shuffle(zone)
        self.look()


def told_instead(game, state: dict, pending: dict, index: int, eids: list[int]) -> str:
    """What a seat that may not see the answer is told of it: that a card was chosen (or given
    a share of a `distribute`, how much being part of the answer)."""
    if pending["kind"] == "offer":
        return f"took the action {pending['values'][index][0]}"
    if pending["kind"] == "distribute":
        return f"gave a share to {_a_card(game, state, eids)}"
    return f"chose {_a_card(game, state, eids)}"


def _a_card(game, state: dict, eids: list[int]) -> str:
    """`a card`, or `a piece` when one of `eids` is a piece: what a hidden card is called."""
    ents = state["ents"]
    cards = all(ents[e] is not None and getattr(game.defs.get(ents[e]["d"]), "word", "card") == "card" for e in eids)
    return "a card" if cards else "a piece"
