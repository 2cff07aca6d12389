"""The faults of a `force order ZONE [of SEAT] = CARDS` line, worded once.

The same line is read in a test block (checked by `ludus check` against the seats the game
declares, and run by ludus.testing), in a replay and at the REPL (read against the seats of the
match): each says a zone, seat or card the game does not have, and a seat missing or one too
many, in the words made here. Only the quoting of the line shown as an example follows each
place: 'force order deck = ...' as the checker quotes code, `force order deck = ...` as replays
and the REPL do.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping

from attrs import frozen

from .source import Suggestion, suggest

# the zones every game has without declaring them: `box`, where every card starts, and
# `removed`, for cards out of the game
BUILT_IN_ZONES = ("box", "removed")


@frozen
class OrderFault:
    """One fault of a `force order` line: the message, what it is about (`part`: "zone", "seat"
    or "card") and its words as the line writes them (`name`, to point at), and a hint: the
    nearest name the game has (a Suggestion), or the names it has, or None."""

    message: str
    part: str
    name: str
    hint: Suggestion | str | None = None

    def text(self) -> str:
        """The message with its hint, on one line: "unknown zone 'dek'; did you mean 'deck'?"."""
        hint = self.hint.hint if isinstance(self.hint, Suggestion) else self.hint
        return f"{self.message}; {hint}" if hint else self.message


def order_zone_fault(zones: Mapping, seats: Iterable[str], zone: str, seat: str | None,
                     quote: str = "'", families: Mapping | None = None) -> OrderFault | None:
    """What is wrong with the zone of a `force order` line, `zone` (`of seat`, or None when no seat
    is named), or None: a zone the game has (`zones`: each zone's name and what has its `per`),
    named with a seat when it is kept per seat, and only then, and a seat of `seats`. A member of
    a zone family (`families`: name -> language.symbols.ZoneFamily) is named as views name it,
    the family's name and its key (`discards red`, `expedition yellow of North`), whether
    `zones` lists the members (a compiled game) or the families (the checker's symbols). `quote`
    quotes the line shown as an example."""
    seats = list(seats)
    families = families or {}
    spec = zones.get(zone)
    family = families.get(zone)
    if family is not None or (spec is not None and spec.per not in (None, "seat")):
        # the family itself: a line names one of its members
        per = spec.per if spec is not None else ("seat and " if family.seat else "") + family.word
        member = family.members()[0] if family is not None else f"{zone} KEY"
        whose = f" of {seats[0]}" if per.split(" and ")[0] == "seat" else ""
        example = f"{quote}force order {member}{whose} = ...{quote}"
        return OrderFault(f"zone '{zone}' is a family of zones, one per {per}: name one of them, as in {example}",
                          "zone", zone)
    if spec is None:
        name, _, key = zone.partition(" ")
        family = families.get(name)
        if family is not None and key not in family.texts:
            return OrderFault(f"zone family '{name}' has no member '{zone}'", "zone", key.split(" ")[0],
                              suggest(key, list(family.texts)) or f"its keys are {', '.join(family.texts)}")
        if family is not None:
            spec = _Member("seat" if family.seat else None)
    if spec is None:
        # what the line may name: the zones that are no family, and each family's members (a
        # family's name alone is an error in turn), in the order the game declares them
        # (a compiled game's `zones` lists the members already, as zones of their own)
        known = [z for z, s in zones.items() if s.per in (None, "seat")]
        known = list(dict.fromkeys([*known, *(m for f in families.values() for m in f.members())]))
        # `box` and `removed`, every game's own, may be forced as any zone may (a game may
        # shuffle either), so a name near one is told it; but the list of zones names only
        # those the game declares, as the REPL's other hints do: it listed `removed` and not
        # `box`, as though the one were a zone to force and the other not
        listed = [z for z in known if z not in BUILT_IN_ZONES]
        return OrderFault(f"unknown zone '{zone}'", "zone", zone,
                          suggest(zone, known) or _family_hint(zone, families, seats, quote)
                          or (f"the zones are {', '.join(listed)}" if listed else None))
    if spec.per == "seat" and seat is None:
        example = f"{quote}force order {zone} of {seats[0]} = ...{quote}"
        return OrderFault(f"zone '{zone}' is kept per seat: name the seat, as in {example}", "zone", zone)
    if spec.per != "seat" and seat is not None:
        return OrderFault(f"zone '{zone}' is the game's own, not a seat's: write {quote}force order {zone} = ...{quote}",
                          "seat", seat)
    if seat is not None and seat not in seats:
        return OrderFault(f"unknown seat '{seat}'", "seat", seat,
                          suggest(seat, seats) or f"the seats are {', '.join(seats)}")
    return None


def _family_hint(zone: str, families: Mapping, seats: list[str], quote: str) -> str | None:
    """For an unknown zone near no zone or member (a member whose key is long reads far from a
    family's name misspelt: 'discard' and 'discards dark-blue'), the family whose name is near
    the zone's first word, with how one of its members is named; or None."""
    near = suggest(zone.partition(" ")[0], list(families))
    if near is None:
        return None
    family = families[near.meant[0]]
    whose = f" of {seats[0]}" if family.seat else ""
    per = ("seat and " if family.seat else "") + family.word
    return (f"did you mean a member of the zone family '{family.name}' (one per {per}), as in "
            f"{quote}force order {family.members()[0]}{whose} = ...{quote}?")


@frozen
class _Member:
    """A family's member where `zones` lists the family only: kept per seat or shared."""

    per: str | None


def order_card_faults(cards: Collection[str], names: Iterable[str]) -> list[OrderFault]:
    """The cards a `force order` line names that the game does not have (`cards`), each once, in
    the line's order, with the nearest card it has."""
    return [OrderFault(f"unknown card '{name}'", "card", name, suggest(name, cards))
            for name in dict.fromkeys(names) if name not in cards]
