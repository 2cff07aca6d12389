"""Checks and conversions that compiled rules apply to values at run time, with the errors they raise."""

from __future__ import annotations

from ..language.limits import MAX_LIST, MAX_NUMBER, MAX_TEXT
from .runtime import RuleError, Runtime


def as_int(v, what: str) -> int:
    if type(v) is int:  # the common case first; bool is an int subclass and is refused
        return v
    raise RuleError(f"the {what} should be a number, and it is {show_value(v)}")


def as_order(v, what: str):
    """A value `sorted` orders by: a number or a text (bool and none are neither)."""
    if type(v) is int or type(v) is str:
        return v
    raise RuleError(f"the {what} should be a number or a text, and it is {show_value(v)}")


def ordered(pairs: list) -> list:
    """sorted(...): the elements of (element, value) pairs by their values, lowest first (texts
    in character order), equal values keeping the list's order; numbers and texts mixed stop the
    rule with an error naming two that cannot be compared."""
    try:
        return [x for x, _ in sorted(pairs, key=_second)]
    except TypeError:
        raise _incomparable_error("'sorted' orders", [v for _, v in pairs]) from None


def _second(pair):
    return pair[1]


def show_value(v) -> str:
    if v is None:
        return "none"
    if isinstance(v, list):
        return "a list"
    return repr(v)


def as_track(rt: Runtime, v) -> str:
    if not isinstance(v, str) or v not in rt.game.tracks:
        raise RuleError(f"expected a track, found {show_value(v)}")
    return v


def as_list(rt: Runtime, v) -> list:
    if isinstance(v, list):
        return v
    if isinstance(v, str) and (v in rt.state["places"] or "@" in v or v in rt.game.zones or v in rt.game.spaces):
        return rt.zone_cards(v)  # a zone, or a space: the cards and pieces on it
    if v is None:
        return []
    raise RuleError(f"expected a list here, found {show_value(v)}")


def as_entities(rt: Runtime, v, verb: str) -> list:
    """A card, a list of cards, or a zone (all the cards in it), as a list of ids: what
    `move`, `discard`, `exile` or `reveal` (`verb`) is told to take."""
    if isinstance(v, list):
        items = v
    elif v is None:
        # None is no card: `top(supply)` of an empty supply, `first` of an empty list, a card
        # var not set. It moved nothing and said nothing, so a rule that ran out of cards (a
        # deck drawn dry with `move top(deck) to ...`) went on as though it had moved one, and
        # a designer had no line to look at; a list holding none was an error already. So it
        # is an error, at the statement; a move meant only when there is a card says so with
        # an `if`. No shipped game, example or test moved none (every playout seed, every
        # test block); docs/language.md's Gateway districts did, its Horde deck drawn dry.
        raise RuleError(f"cannot {verb} none (top or first of an empty zone or list is none): to {verb} a card "
                        "only when there is one, test first, as in 'if size(deck) > 0:'")
    elif isinstance(v, str):
        items = as_list(rt, v)
    else:
        items = [v]
    for x in items:
        if not isinstance(x, int) or isinstance(x, bool):
            raise RuleError(f"expected a card or piece, found {show_value(x)}")
    return list(items)


def none_read(attr: str, where=None) -> RuleError:
    """The error of reading the property `attr` of none. `where` is what the compiler knows of
    the read: the text of what was none (`picked`, `top(deck)`) and the span of the whole read
    (`picked.cost`), where the error is located; without it, the statement's line is."""
    if where is None:
        return RuleError(f"cannot read '{attr}' of none")
    what, span = where
    return RuleError(f"cannot read '{attr}' of '{what}', which is none here (a var not set yet, or the top "
                     "or first of an empty zone or list, is none)", span)


def entity_attr(rt: Runtime, eid, attr: str, where=None):
    if eid is None:
        raise none_read(attr, where)
    e = rt.ent(eid)
    if attr == "owner":
        return e["o"]
    if attr == "loc":
        return e["l"]
    if attr == "name":
        return e["d"]
    if attr == "kind":
        return rt.game.defs[e["d"]].kind
    if attr == "zone":
        loc = e["l"] or ""
        name = loc.split("@", 1)[0]
        # a family's member reads as its family, the name the rules write (`expedition`)
        spec = rt.game.zones.get(name)
        return spec.family if spec is not None and spec.family is not None else name
    raise RuleError(f"no attribute {attr}")


def space_attr(rt: Runtime, name, attr: str, env):
    spec = rt.game.spaces.get(name)
    if spec is None:
        raise RuleError(f"{show_value(name)} is not a space")
    if attr == "name":
        return spec.name
    if attr == "label":
        return spec.label or spec.name
    if attr == "kind":
        return spec.kind
    if attr == "parent":
        return spec.parent
    fn = spec.props.get(attr)
    if fn is None:
        raise RuleError(f"space '{name}' has no property '{attr}'")
    return fn(rt, env)



def in_range(v: int, what: str) -> int:
    """A number a rule computed or stores, refused when it leaves the language's range."""
    if -MAX_NUMBER <= v <= MAX_NUMBER:
        return v
    raise RuleError(f"{what} would be {magnitude(v)}, outside the numbers ludus allows "
                    f"(-{MAX_NUMBER:,} to {MAX_NUMBER:,})")


def as_seat(rt: Runtime, v, what: str) -> int:
    """A seat number in range; `what` names the rule or builtin that needs it."""
    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < rt.state["nseats"]:
        raise RuleError(f"{what} needs a seat, and {show_value(v)} is not one")
    return v


def family_member(family, key, what: str = "zone") -> str:
    """The zone of a family (a ZoneFamily) that `key` names: `discards of "red"` is the zone
    `discards red`; with `what` "token", the token of a family of tokens (`Told of "red"` is
    `Told red`). A key that is none of the family's stops the rule: a member made up as the
    rules run would be a zone or token no view, sample or saved match knows."""
    if (key.__class__ is str or key.__class__ is int) and key in family.keys:
        return f"{family.name} {key}"
    raise RuleError(f"{what} '{family.name}' has no member for {show_value(key)}: its keys are the "
                    f"{family.value}, {', '.join(family.texts)}")


def token_member(family, key) -> str:
    """The token of a family of tokens that `key` names (family_member)."""
    return family_member(family, key, "token")


def set_key(name: str, keys, key) -> str:
    """`key` as a key of var `name` kept per the set of keys `keys` (a KeySet: `per colour`):
    one the set lacks stops the rule, as a zone family's does (family_member), for a reading as
    for a change: a value kept under a key no view, saved match or checker knows is lost."""
    if (key.__class__ is str or key.__class__ is int) and key in keys.keys:
        return key
    raise RuleError(f"'{name}' has no key {show_value(key)}: its keys are the {keys.value}, "
                    f"{', '.join(keys.texts)}")


def pair_key(rt: Runtime, first, second) -> str:
    """The key of a var kept per pair (`cubes of Red at NY`): "0|NY"."""
    for part in (first, second):
        if part is None or isinstance(part, (list, dict, bool)):
            raise RuleError(f"{show_value(part)} cannot key a counter")
    return f"{first}|{second}"


def text_in_range(t: str, what: str) -> str:
    """A text a rule built, refused when it grows past the language's limit."""
    if len(t) <= MAX_TEXT:
        return t
    raise RuleError(f"{what} would be {len(t):,} characters long, more than ludus allows ({MAX_TEXT:,})")


def magnitude(v: int) -> str:
    """A number for a message, without printing thousands of digits."""
    if abs(v) < 10**30:
        return f"{v:,}"
    return f"{'-' if v < 0 else ''}a number of about {int(v.bit_length() * 0.30103) + 1:,} digits"


def as_size(v, what: str) -> int:
    """How many things to build (dice to roll, turns of a loop): a whole number, at most MAX_LIST."""
    n = as_int(v, what)
    if n > MAX_LIST:
        raise RuleError(f"the {what} is {magnitude(n)}; at most {MAX_LIST:,} can be built at once")
    return max(n, 0)


def number_range(rt: Runtime, lo, hi) -> list:
    """`lo to hi` as a list, refused when it would be longer than MAX_LIST."""
    lo, hi = as_int(lo, "start"), as_int(hi, "end")
    if hi - lo + 1 > MAX_LIST:
        raise RuleError(f"'{magnitude(lo)} to {magnitude(hi)}' has {magnitude(hi - lo + 1)} numbers; "
                        f"at most {MAX_LIST:,} can be built at once")
    rt.charge(max(hi - lo + 1, 0))
    return list(range(lo, hi + 1))


def pick_extreme(pick, values: list, agg: str, default=0):
    """max or min (`pick`) of `values` for the aggregate `agg`: numbers are compared with numbers
    and texts with texts; values that cannot be compared stop the rule with an error naming both."""
    try:
        return pick(values, default=default)
    except TypeError:
        raise _incomparable_error(f"'{agg}' compares", values) from None


def _incomparable_error(what: str, values: list) -> RuleError:
    """The error of an aggregate that met values it cannot order ("'max' compares", "'sorted'
    orders"), naming two of them."""
    a, b = _incomparable(values)
    return RuleError(f"{what} numbers with numbers and texts with texts, "
                     f"and cannot compare {show_value(a)} with {show_value(b)}")


def _incomparable(values: list):
    """Two of `values` that cannot be ordered against each other: the first against each other
    one, then each against the next (a list of lists may differ deeper down)."""
    pairs = [(values[0], b) for b in values[1:]] + list(zip(values, values[1:], strict=False))
    for a, b in pairs:
        try:
            a < b  # noqa: B015 - only whether the two can be compared matters
            b < a  # noqa: B015
        except TypeError:
            return a, b
    return values[0], values[-1]
