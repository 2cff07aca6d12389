"""The symbol table of a game: every declared name, what it is, and the built-in vocabulary."""

from __future__ import annotations

import re

from attrs import define, field, frozen

from . import nodes as n
from .source import Suggestion

# Built-in names usable in any expression, with their types.
BUILTIN_NAMES = {
    "seats": "list:seat",
    "current": "seat",
    "actor": "seat",
    "opponent": "seat",
    "players": "number",
    "spaces": "list:space",
    # the eight directions of a grid board, for step() and line()
    "north": "text", "south": "text", "east": "text", "west": "text",
    "northeast": "text", "northwest": "text", "southeast": "text", "southwest": "text",
}

# Built-in functions: name -> (min args, max args, result type); "*" in a result means
# "the element type of the first argument".
BUILTIN_FUNCTIONS = {
    "size": (1, 1, "number"),
    "adjacent": (1, 2, "list:space"),
    "left": (1, 1, "seat"),
    "right": (1, 1, "seat"),
    "other": (1, 1, "seat"),
    "seats_from": (1, 1, "list:seat"),
    "top": (1, 2, "entity"),
    "first": (1, 1, "*"),
    "last": (1, 1, "*"),
    "abs": (1, 1, "number"),
    "min": (1, 9, "number"),
    "max": (1, 9, "number"),
    "sum": (1, 1, "number"),
    "count": (1, 1, "number"),
    "any": (1, 1, "bool"),
    "all": (1, 1, "bool"),
    "most": (1, 1, "list:*"),
    "least": (1, 1, "list:*"),
    "sorted": (1, 1, "list:*"),  # numbers or texts: sorted(bids); anything else as an aggregate
    "share": (2, 2, "number"),
    "space": (2, 2, "space"),
    "zone_of": (1, 2, "text"),
    "marker": (1, 1, "number"),
    "depth": (1, 1, "number"),
    "owner_of": (1, 1, "seat"),
    "range": (2, 2, "list:number"),
    "seat_named": (1, 1, "seat"),
    "seat_number": (1, 1, "number"),
    "passed": (1, 1, "bool"),
    "without": (2, 2, "*list"),
    "card": (1, 1, "entity"),
    "cards": (1, 1, "list:entity"),
    "position": (1, 1, "number"),
    "item": (2, 2, "*"),
    "step": (2, 2, "space"),
    "line": (3, 3, "list:space"),
    "forward": (1, 1, "text"),
}

# Comprehension aggregates: what each returns, "*" meaning the element or iterated type.
AGGREGATES = {"sum", "count", "max", "min", "any", "all", "most", "least", "first", "sorted"}

ENTITY_ATTRS = {"owner": "seat", "loc": "any", "name": "text", "kind": "text", "zone": "text"}
SPACE_ATTRS = {"name": "text", "label": "text", "kind": "text", "parent": "space"}
TRACK_ATTRS = {"start": "number", "low": "number", "high": "number"}

# What a seat's view writes for a card it may not see: the value of a var holding one, and the one
# key of a counter kept per card under which the cards it may not see are merged
# (engine/view.py). No card or piece may be named so, in any case: it would read as one of them.
HIDDEN = "hidden"


# A key of a zone family (`zone discards per colour`): one word, so that a member's name, the
# family's name and the key (`discards yellow`, `expedition yellow of North`), reads back as one.
FAMILY_KEY = re.compile(r"[A-Za-z0-9_-]+")
# what a designer may write in `per` for a seat: a thing kept `per player` is kept `per seat`
SEAT_WORDS = ("player", "players", "seats")


def key_text(key) -> str:
    """A key of a set as a message writes it: a text in quotes (`"red"`), a number as it is."""
    return f'"{key}"' if isinstance(key, str) else str(key)


class _Keys:
    @property
    def texts(self) -> tuple:
        """The keys as views, saved matches and members' names write them ("red", "1")."""
        return tuple(map(str, self.keys))

    @property
    def type(self) -> str:
        """The type of a key, as the checker names it: "text", or "number" for whole numbers."""
        return "number" if self.keys and isinstance(self.keys[0], int) else "text"


@frozen
class KeySet(_Keys):
    """The keys `per WORD` names, for a zone family, a token or a counter, flag or var: the
    texts or whole numbers of the list value written out under the plural of WORD (`per
    colour`: `value colours`), in order."""

    word: str
    value: str
    keys: tuple


@frozen
class ZoneFamily(_Keys):
    """A zone declared per a set of keys (`zone expedition per seat and colour`): one zone, a
    member, per key (and per seat with `seat`). `word` is the key set as `per` writes it
    ("colour"), `value` the list value that holds the keys ("colours"), `keys` its texts (or
    whole numbers) in order. A member is named by the family and the key: `expedition yellow`.
    A family of tokens is one too (`token Told per colour`), with no seat."""

    name: str
    seat: bool
    word: str
    value: str
    keys: tuple

    def member(self, key: str) -> str:
        return f"{self.name} {key}"

    def members(self) -> list[str]:
        return [self.member(k) for k in self.keys]


def is_family(decl) -> bool:
    """Whether a zone or token declaration is a family: kept per something besides the seat (a
    set of keys, or, refused by the checker, anything else)."""
    return decl.per not in (None, "seat")


@define
class KindInfo:
    name: str
    parent: str | None
    fields: dict = field(factory=dict)  # name -> (type str, default node | None)
    decl: object = None


@define
class Symbols:
    """Everything a game declares, by name; filled by the checker, read by the compiler."""

    title: str = "untitled"
    min_players: int = 2
    max_players: int = 2
    sides: tuple = ()
    seat_names: tuple = ()
    values: dict = field(factory=dict)
    vars: dict = field(factory=dict)  # name -> VarDecl
    zones: dict = field(factory=dict)
    tokens: dict = field(factory=dict)  # name -> TokenDecl
    groups: dict = field(factory=dict)
    kinds: dict = field(factory=dict)  # name -> KindInfo
    entities: dict = field(factory=dict)  # def name -> EntityDecl
    space_kinds: dict = field(factory=dict)  # kind -> [space names]
    spaces: dict = field(factory=dict)  # name -> SpaceDecl
    boards: dict = field(factory=dict)
    tracks: dict = field(factory=dict)
    defines: dict = field(factory=dict)
    rules: dict = field(factory=dict)
    actions: dict = field(factory=dict)
    handlers: set = field(factory=set)
    setup: object = None
    flow: object = None
    whens: list = field(factory=list)
    anytimes: list = field(factory=list)
    becomes: list = field(factory=list)  # `when COND becomes true:`
    payoff: object = None  # PayoffDecl
    tests: list = field(factory=list)
    plurals: dict = field(factory=dict)  # plural alias -> singular kind name
    # the types the checker found for rule parameters and vars that say none, from the values
    # the game gives them: ("param", rule, index) or ("var", name) -> type (infer_untyped)
    inferred: dict = field(factory=dict)

    def zone_family(self, name: str) -> ZoneFamily | None:
        """The family a zone declaration makes, or None: a zone that is no family, or one whose
        key set the checker refuses (family_fault)."""
        decl = self.zones.get(name)
        if decl is None or not is_family(decl) or self.family_fault(decl) is not None:
            return None
        parts = per_keys(decl.per)
        word = parts[-1]
        value = plural(word)
        keys = tuple(item.value for item in self.values[value].value.items)
        return ZoneFamily(name, parts[0] == "seat", word, value, keys)

    def token_family(self, name: str) -> ZoneFamily | None:
        """The family a token declared per a set of keys makes (`token Told per colour`: one
        token, a member, per colour, `Told red`, owned by no one), or None: a token kept per
        seat or by no one, or one whose key set the checker refuses."""
        decl = self.tokens.get(name)
        if decl is None or decl.per in (None, "seat"):
            return None
        keys = self.key_set(decl.per)
        return None if keys is None else ZoneFamily(name, False, keys.word, keys.value, keys.keys)

    def family_fault(self, decl) -> tuple[str, str, str | None] | None:
        """What is wrong with the keys of a zone family's declaration, as (message, the word of
        the declaration to point at, a hint or None), or None when it is a family the game can
        keep. The keys are known when the game is compiled: they are the texts of a list value
        written out in the rules, named in `per` by the singular of its name, as `per column`
        names the spaces `columns` lists (so that views, samples and the checker can name every
        member)."""
        parts = per_keys(decl.per)
        if "seat" in parts[1:]:
            rest = " and ".join(p for p in parts if p != "seat")
            if not rest:
                return ("a zone is kept per seat once: write 'per seat'", parts[1], None)
            return (f"a zone is kept per seat first: write 'per seat and {rest}'", parts[1], None)
        keys = parts[1:] if parts[0] == "seat" else parts
        if len(keys) != 1:
            return (f"a zone is kept per seat, per one set of keys, or per seat and one set of keys, "
                    f"not 'per {decl.per}'", keys[-1], None)
        word = keys[0]
        if plural(word) not in self.values and word not in self.values and (
                word in self.space_kinds or word in self.kinds):
            what = ("a board kind's spaces hold cards themselves" if word in self.space_kinds
                    else "a card or piece is no key of a zone")
            return (f"'per {word}': zones are kept per seat or per the texts of a list value ({what})",
                    word, None)
        fault = self.key_set_fault(word, "zone family", decl.name)
        return None if fault is None else (fault[0], word, fault[1])

    def key_set(self, word: str) -> KeySet | None:
        """The set of keys `per WORD` names (`per colour`: the texts of `value colours`), or None
        when WORD names none the game can keep (key_set_fault)."""
        if word == "seat" or word in self.space_kinds or word in self.kinds or self.key_set_fault(word, "", "") is not None:
            return None
        value = plural(word)
        return KeySet(word, value, tuple(item.value for item in self.values[value].value.items))

    def key_set_fault(self, word: str, owner: str, name: str) -> tuple[str, str | None] | None:
        """What is wrong with `per WORD` as a set of keys, as (message, hint or None), or None.
        The keys are known when the game is compiled: they are the texts of a list value
        written out in the rules, named in `per` by the singular of its name, as `per column`
        names the spaces `columns` lists (so that views, samples, saved matches and the checker
        know every key). `owner` says what is kept per them ("zone family", "counter"), `name`
        is its name."""
        value = plural(word)
        found = self.values.get(value)
        zone = owner == "zone family"
        if found is None:
            if word in self.values:
                return (f"'per {word}': a {owner} names its keys by the singular of the list "
                        f"value that holds them", f"write 'per {singular_guess(word)}'")
            if zone and word in SEAT_WORDS:
                return (f"'per {word}': a zone kept for each seat is 'per seat'", Suggestion(word, ("seat",)))
            return (f"'per {word}': no value '{value}' lists the keys of this {owner}",
                    f"declare them, as 'value {value} = [\"...\", \"...\"]'")
        items = found.value
        if not isinstance(items, n.ListLit) or not items.items or not (
                all(isinstance(x, n.String) for x in items.items)
                or all(isinstance(x, n.Number) and type(x.value) is int for x in items.items)):
            return (f"'per {word}': the value '{value}' must be a list of texts or of whole numbers written "
                    f"out, as 'value {value} = [\"...\", \"...\"]', so that every {'member' if zone else 'key'} "
                    "is known before a match starts", None)
        texts = [str(x.value) for x in items.items]
        bad = next((t for t in texts if not FAMILY_KEY.fullmatch(t)), None)
        if bad is not None:
            why = (f"a member is named by its family and its key, as '{name} {texts[0]}'" if zone
                   else "a key is one word, as a zone family's is")
            return (f"'per {word}': the key \"{bad}\" of '{value}' is not one word (letters, digits, '_' or '-'): "
                    + why, None)
        twice = next((x.value for i, x in enumerate(items.items) if texts[i] in texts[:i]), None)
        if twice is not None:
            return (f"'per {word}': the key {key_text(twice)} is in '{value}' twice", None)
        return None

    def kind_of_space_collection(self, name: str) -> str | None:
        if name in self.space_kinds:
            return name
        singular = self.plurals.get(name)
        return singular if singular in self.space_kinds else None

    def entity_kind_collection(self, name: str) -> str | None:
        if name in self.kinds:
            return name
        singular = self.plurals.get(name)
        return singular if singular in self.kinds else None

    def is_subkind(self, kind: str, ancestor: str) -> bool:
        seen = set()
        while kind and kind not in seen:
            if kind == ancestor:
                return True
            seen.add(kind)
            info = self.kinds.get(kind)
            kind = info.parent if info else None
        return False

    def subkinds(self) -> dict[str, frozenset]:
        """Each kind's kinds, itself included: those `is_subkind` of it. Found by walking every
        kind's parents once, as `is_subkind` walks them, not by asking it of every pair of
        kinds, which took kinds * kinds steps (16 million for 4,000 kinds)."""
        below: dict[str, set] = {kind: set() for kind in self.kinds}
        for start in self.kinds:
            seen = set()
            kind = start
            while kind and kind not in seen:
                if kind in below:
                    below[kind].add(start)
                seen.add(kind)
                info = self.kinds.get(kind)
                kind = info.parent if info else None
        return {kind: frozenset(found) for kind, found in below.items()}

    def fields_of(self, kind: str) -> dict:
        chain = []
        seen = set()
        while kind and kind in self.kinds and kind not in seen:
            seen.add(kind)
            chain.append(self.kinds[kind])
            kind = self.kinds[kind].parent
        out: dict = {}
        for info in reversed(chain):
            out.update(info.fields)
        return out

    def seat_constants(self) -> tuple:
        """Seat names usable in rules: the sides, the declared seat names, or P1, P2, ..."""
        return self.sides or self.seat_names or tuple(f"P{i + 1}" for i in range(self.max_players))

    def all_names(self) -> list[str]:
        """Every name an expression may read, each once, in an order of their own (each sort
        of name in the order it is declared), so a "did you mean" hint never depends on a
        set's order."""
        names = [*BUILTIN_NAMES, *self.values, *self.vars, *self.zones, *self.tokens, *self.groups, *self.kinds,
                 *self.space_kinds, *self.spaces, *self.tracks, *self.defines, *self.plurals, *self.seat_constants(),
                 *(e for e in self.entities if e.isidentifier())]
        return list(dict.fromkeys(names))


def per_keys(per: str | None) -> tuple[str, ...]:
    """What a var is kept per, as its declaration says after `per`: () for one value for the
    whole game, ("seat",) for `per seat`, ("seat", "district") for `per seat and district`."""
    return tuple(per.split(" and ")) if per else ()


def singular_guess(word: str) -> str:
    """A word's singular, for a hint: the inverse of `plural` for the words it makes."""
    if word.endswith("ies") and len(word) > 3:
        return word[:-3] + "y"
    if word.endswith(("ses", "xes", "ches", "shes")):
        return word[:-2]
    if word.endswith("s") and len(word) > 1:
        return word[:-1]
    return word


def plural(word: str) -> str:
    if word.endswith(("s", "x", "ch", "sh")):
        return word + "es"
    if word.endswith("y") and len(word) > 1 and word[-2] not in "aeiou":
        return word[:-1] + "ies"
    return word + "s"


def singular(word: str) -> str:
    """The singular of a name that reads as a plural, for `1 coin`: `coins` -> 'coin', `cities`
    -> 'city', `boxes` -> 'box'. A name that is no plural the language would form (`gold`,
    `money`) or that only ends like one (`progress`, `bonus`, `basis`) is kept as it is."""
    if word.endswith(("ss", "us", "is")):
        return word
    one = singular_guess(word)
    return one if plural(one) == word else word


def how_many(count: int, unit: str) -> str:
    """`1 coin`, `3 coins`, `0 coins`: a number of something a name calls in the plural."""
    return f"{count} {singular(unit) if count == 1 else unit}"


def type_name(t: str) -> str:
    """A type as a designer reads it: 'list:space:region' -> 'list of region'."""
    if t.startswith("list:"):
        inner = type_name(t[5:])
        return "list of " + (inner if inner.startswith("list") else plural(inner))
    if ":" in t:
        return t.split(":", 1)[1]
    return t


def article(word: str) -> str:
    """A word with its article, as messages and rules text write it: 'a stack', 'an alley'."""
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


def a_type(t: str) -> str:
    """'a number', 'an entity', 'a list of region', 'an Event': a type with its article, for
    messages (a kind's name starts with a capital: `article` reads it as it sounds)."""
    return article(type_name(t))


def elem_type(t: str) -> str:
    if t.startswith("list:"):
        return t[5:]
    if t == "zone" or t.startswith("space"):
        return "entity"
    return "any"


def listlike(t: str) -> bool:
    """Types that can be gone through: lists, zones (their cards), spaces (what is on them)."""
    return t.startswith("list:") or t in ("zone", "any") or t.startswith("space")


def compatible(actual: str, expected: str) -> bool:
    if "any" in (actual, expected) or actual == expected:
        return True
    if actual.startswith("list:") and expected.startswith("list:"):
        return compatible(actual[5:], expected[5:])
    a, _, asub = actual.partition(":")
    e, _, esub = expected.partition(":")
    if a == e and (not asub or not esub):
        return True
    if a == "none" or e == "none":
        return True
    return False
