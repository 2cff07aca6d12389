"""The built-in functions of the language, compiled to closures."""

from __future__ import annotations

from collections import deque

from ..engine.runtime import RuleError
from ..engine.values import (
    as_int,
    as_list,
    as_order,
    as_seat,
    as_size,
    as_track,
    number_range,
    ordered,
    pick_extreme,
    show_value,
)

DIRECTIONS = {"north": (0, 1), "south": (0, -1), "east": (1, 0), "west": (-1, 0),
              "northeast": (1, 1), "northwest": (-1, 1), "southeast": (1, -1), "southwest": (-1, -1)}


def walk_line(rt, start, direction, length: int) -> list:
    """line(): up to `length` cells from `start` stepping in `direction`, stopping at the edge."""
    out = []
    here = start
    while here is not None and len(out) < length:
        out.append(here)
        here = grid_step(rt, here, direction, 1)
    return out


def grid_step(rt, cell, direction, steps: int):
    """The cell `steps` away in a direction on a grid board, or none past its edge."""
    where = rt.game.grid.get(cell) if isinstance(cell, str) else None
    if where is None:
        raise RuleError(f"{show_value(cell)} is not a cell of a grid board")
    delta = DIRECTIONS.get(direction) if isinstance(direction, str) else None
    if delta is None:
        raise RuleError(f"{show_value(direction)} is not a direction ({', '.join(DIRECTIONS)})")
    col, row = where
    return rt.game.grid_at.get((col + delta[0] * steps, row + delta[1] * steps))


def adjacent(rt, space, skip=None) -> list:
    """Neighbouring spaces; with `skip`, passes over those spaces to the ones beyond them."""
    spaces = rt.game.spaces
    if space not in spaces:
        raise RuleError(f"{show_value(space)} is not a space")
    if not skip:
        return list(spaces[space].adjacent)
    skipped = set(skip)
    out, seen, todo = [], {space}, deque([space])
    while todo:
        here = todo.popleft()
        for nxt in spaces[here].adjacent:
            if nxt in seen:
                continue
            seen.add(nxt)
            if nxt in skipped:
                todo.append(nxt)
            else:
                out.append(nxt)
    return out


def compile_builtin(comp, node, name: str):
    args = [comp.expr(a) for a in node.args]
    a0 = args[0] if args else None

    if name == "size":
        return lambda rt, env: len(as_list(rt, a0(rt, env)))
    if name == "adjacent":
        if len(args) == 2:
            a1 = args[1]
            return lambda rt, env: adjacent(rt, a0(rt, env), as_list(rt, a1(rt, env)))
        return lambda rt, env: adjacent(rt, a0(rt, env))
    if name == "step":
        a1 = args[1]
        return lambda rt, env: grid_step(rt, a0(rt, env), a1(rt, env), 1)
    if name == "line":
        a1, a2 = args[1], args[2]

        def line(rt, env):
            start, direction = a0(rt, env), a1(rt, env)
            return walk_line(rt, start, direction, as_size(a2(rt, env), "length of the line"))
        return line
    if name == "forward":
        # the first seat sits at row 1 and moves north; every other seat moves south
        return lambda rt, env: "north" if as_seat(rt, a0(rt, env), "forward") == 0 else "south"
    if name == "left":
        return lambda rt, env: (as_seat(rt, a0(rt, env), "left") + 1) % rt.state["nseats"]
    if name == "right":
        return lambda rt, env: (as_seat(rt, a0(rt, env), "right") - 1) % rt.state["nseats"]
    if name == "other":
        def other(rt, env):
            if rt.state["nseats"] != 2:
                raise RuleError("'other' only names a seat in a two-player match")
            return 1 - as_seat(rt, a0(rt, env), "other")
        return other
    if name == "seats_from":
        def seats_from(rt, env):
            s, k = as_seat(rt, a0(rt, env), "seats_from"), rt.state["nseats"]
            return [(s + i) % k for i in range(k)]
        return seats_from
    if name == "top":
        if len(args) == 2:
            a1, where = args[1], node.span

            def top_n(rt, env):
                cards, n = as_list(rt, a0(rt, env)), as_int(a1(rt, env), "count")
                if n > len(cards):
                    # not an error (a deck may run short), but often a content bug: say so
                    rt.log.append({"t": "warning", "text": f"{where}: top(..., {n}) found only {len(cards)}"})
                return cards[:n]
            return top_n

        def top(rt, env):
            cards = as_list(rt, a0(rt, env))
            return cards[0] if cards else None
        return top
    if name in ("first", "last"):
        i = 0 if name == "first" else -1

        def pick(rt, env):
            items = as_list(rt, a0(rt, env))
            return items[i] if items else None
        return pick
    if name == "abs":
        return lambda rt, env: abs(as_int(a0(rt, env), "argument of abs"))
    if name in ("min", "max"):
        f = min if name == "min" else max
        if len(args) == 1:
            return lambda rt, env: f([as_int(x, name) for x in as_list(rt, a0(rt, env))], default=0)
        return lambda rt, env: f(as_int(a(rt, env), f"argument of {name}") for a in args)
    if name == "sum":
        return lambda rt, env: sum(as_int(x, "summed value") for x in as_list(rt, a0(rt, env)))
    if name == "count":
        return lambda rt, env: len(as_list(rt, a0(rt, env)))
    if name == "any":
        return lambda rt, env: any(as_list(rt, a0(rt, env)))
    if name == "all":
        return lambda rt, env: all(as_list(rt, a0(rt, env)))
    if name in ("most", "least"):
        f = max if name == "most" else min

        def best(rt, env):
            items = as_list(rt, a0(rt, env))
            if not items:
                return []
            top = pick_extreme(f, items, name)
            return [x for x in items if x == top]
        return best
    if name == "sorted":
        # numbers or texts by their own values, as `sorted(x for x in LIST)` orders them (the
        # checker refuses a list it knows holds anything else; `any` is checked here). A seat
        # or a card is a number here and a space a text: read from an untyped parameter, a list
        # of them sorts as that plain data, as no value says what it is (docs/language.md,
        # untyped parameters and vars; tests/engine/test_sorted.py)
        def sort_list(rt, env):
            return ordered([(x, as_order(x, "element sorted")) for x in as_list(rt, a0(rt, env))])
        return sort_list
    if name == "share":
        a1 = args[1]

        def share(rt, env):
            # a target listed twice among those sharing gets both of its amounts
            wanted = a1(rt, env)
            return sum(amount for target, amount in a0(rt, env) or () if target == wanted)
        return share
    if name == "space":
        a1 = args[1]
        return lambda rt, env: f"{as_track(rt, a0(rt, env))}:{as_int(a1(rt, env), 'space number')}"
    if name == "marker":
        return lambda rt, env: rt.state["tracks"][as_track(rt, a0(rt, env))]["pos"]
    if name in ("zone_of", "depth"):
        a1 = args[1] if len(args) > 1 else None

        def zone_of(rt, env):
            tname = as_track(rt, a0(rt, env))
            spec = rt.game.tracks[tname]
            pos = rt.state["tracks"][tname]["pos"] if a1 is None else as_int(a1(rt, env), "position")
            zone = spec.zone_at(pos)
            if name == "zone_of":
                return zone
            if zone is None:
                return 0
            lo, hi = spec.zones[zone]
            start = rt.state["tracks"][tname]["start"]
            return pos - lo + 1 if lo > start else hi - pos + 1
        return zone_of
    if name == "owner_of":
        def owner_of(rt, env):
            eid = a0(rt, env)
            if eid is None:  # `first(...)` of an empty list, say: named, as "no card #None" would not be
                raise RuleError("'owner_of' needs a card or piece, and the value here is none")
            return rt.ent(eid)["o"]
        return owner_of
    if name == "range":
        a1 = args[1]
        return lambda rt, env: number_range(rt, a0(rt, env), a1(rt, env))
    if name == "seat_number":
        return lambda rt, env: as_seat(rt, a0(rt, env), "seat_number") + 1
    if name == "seat_named":
        def seat_named(rt, env):
            text = a0(rt, env)
            names = rt.game.seat_names(rt.state["nseats"])
            if text not in names:
                raise RuleError(f"no seat is named {show_value(text)}")
            return names.index(text)
        return seat_named
    if name == "without":
        a1 = args[1]

        def without(rt, env):
            items = list(as_list(rt, a0(rt, env)))
            x = a1(rt, env)
            if x in items:
                items.remove(x)  # only the first: without([3, 3, 1], 3) is [3, 1]
            return items
        return without
    if name in ("card", "cards"):
        def by_name(rt, env):
            wanted = a0(rt, env)
            found = [i for i, e in enumerate(rt.state["ents"]) if e is not None and e["d"] == wanted]
            if name == "cards":
                return found
            if not found:
                raise RuleError(f"no card is named {show_value(wanted)}")
            return found[0]
        return by_name
    if name == "position":
        def position(rt, env):
            eid = a0(rt, env)
            if eid is None:
                raise RuleError("'position' needs a card or piece, and the value here is none")
            loc = rt.ent(eid)["l"]
            return rt.state["places"].get(loc, []).index(eid) + 1
        return position
    if name == "item":
        a1 = args[1]

        def item(rt, env):
            items = as_list(rt, a0(rt, env))
            k = as_int(a1(rt, env), "position")
            if not 1 <= k <= len(items):
                raise RuleError(f"there is no item {k} in a list of {len(items)}")
            return items[k - 1]
        return item
    if name == "passed":
        def passed(rt, env):
            alts = rt.state["alts"]
            return bool(alts) and a0(rt, env) in alts[-1]["passed"]
        return passed
    raise AssertionError(name)


