"""The state of a match as plain data, and the operations rules perform on it.

`Runtime` wraps one state dict for the length of one step: compiled closures read and change the
state only through it, so every change goes through one place that records trigger events.
"""

from __future__ import annotations

import marshal

from ..language.limits import MAX_DIE_SIDES, MAX_NUMBER, MAX_WORK
from .saved import var_problem

MASK64 = (1 << 64) - 1
NOT_FIXED = type("NotFixed", (), {"__repr__": lambda self: "NOT_FIXED"})()  # a VarSpec part an expression gives


class RuleError(Exception):
    """A rule did something impossible at run time (paid more than it had, looped forever, ...)."""

    def __init__(self, message: str, span=None) -> None:
        self.message = message
        self.span = span
        super().__init__(message)

    def __str__(self) -> str:
        where = f"{self.span}: " if self.span is not None else ""
        return f"{where}error: {self.message}"


def copy_state(state: dict) -> dict:
    """A deep copy of plain data; marshal is several times faster than copy.deepcopy."""
    return marshal.loads(marshal.dumps(state))


def _beyond_numbers(name: str) -> RuleError:
    return RuleError(f"counter '{name}' would leave the numbers ludus allows (-{MAX_NUMBER:,} to {MAX_NUMBER:,})")


# ───────────────────────── chance ─────────────────────────


def no_such_seat(seat, names: tuple) -> str:
    """The error of a seat's number the match has no seat for (a var's `start 5` in a match of
    three, a negative number), which would otherwise name some other seat or none."""
    return (f"there is no seat {seat!r} in a match of {len(names)} players: a seat written as "
            f"a number counts from 0 ({names[0]}) to {len(names) - 1} ({names[-1]})")


def rng_next(state: dict) -> int:
    """splitmix64: tiny, portable, and its whole state is one integer kept in the match state."""
    s = (state["rng"] + 0x9E3779B97F4A7C15) & MASK64
    state["rng"] = s
    z = s
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def rng_below(state: dict, n: int) -> int:
    if n <= 1:
        return 0
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        v = rng_next(state)
        if v < limit:
            return v % n


def box_cards(game) -> list[str]:
    """The name of each card a new match makes, in id order: every copy of every card, in the
    order the game declares them. All start in the box."""
    return [d.name for d in sorted(game.defs.values(), key=lambda d: d.order) if d.word == "card"
            for _ in range(d.copies)]


def check_die(sides: int) -> None:
    """A die's faces as ludus allows them, else RuleError: rolled by the generator or by hand."""
    if not 1 <= sides <= MAX_DIE_SIDES:
        raise RuleError(f"a die has 1 to {MAX_DIE_SIDES:,} faces, not {sides if abs(sides) < 10**30 else 'that many'}")


def forced_die(forced: list, sides: int) -> int | None:
    """Where in the queue of forced outcomes is the one the next roll of a d`sides` takes: the
    first forced for that die or for any die (`force die = 3`); None when none waits."""
    for i, f in enumerate(forced):
        if f[0] == "die" and f[1] in (sides, 0):
            return i
    return None


# ───────────────────────── the runtime ─────────────────────────


def _no_entity(eid) -> RuleError:
    """The error for a card or piece that is not there: none (a `first` of an empty list, say)
    named as the rules write it, as 'owner_of' names it, not as Python's None."""
    if eid is None:
        return RuleError("a card or piece is needed here, and the value here is none")
    return RuleError(f"no card or piece #{eid}")


class Runtime:
    """Reads and writes one match state on behalf of compiled rules."""

    __slots__ = ("game", "state", "events", "log", "watched", "changed", "memo", "work", "tix", "reads", "empty_offers")

    def __init__(self, game, state: dict, log: list) -> None:
        self.game = game
        self.state = state
        self.events: list = []
        self.log = log
        self.watched = game.watched
        self.changed: set = set()  # names of what changed since the last 'at any time' check
        # define results, {define name: {key: value}}, None while nothing is remembered (`vm.run`
        # turns it on). A change drops only the defines that read what changed: see `touch`.
        self.memo: dict | None = None
        self.tix: dict | None = None  # token totals per (token, owner, place) with None for "any"
        self.work = 0  # values built since this runtime started: bounded by MAX_WORK
        # while a define indexed by what it reads (Game.define_reading) works out a value: the
        # places its generated code has read tokens at so far (see index_reads)
        self.reads: list | None = None
        # the offers with no `else` that found nothing legal in this run, each with how many
        # times: an endless loop around one is blamed on it (vm.endless_cause), not on the line
        # where the step budget happened to run out
        self.empty_offers: dict | None = None

    def touch(self, name: str) -> None:
        """Forget the remembered values of the defines that read `name` (a var, track or token
        name, "$ents" for where cards and pieces are and whose, "@ZONE" for what a zone holds,
        ".NAME" for a property set on a card, "$alts" for the alternate loop), and of those
        whose reads are unknown. Every change to the state a define can read comes through
        here. (`changed`, for 'at any time', is kept apart: its names stay what they were.)"""
        memo = self.memo
        if memo:
            table = self.game.define_drops
            if table is None:  # no match of this game has run yet (vm.memo_for): drop them all
                memo.clear()
                return
            drops = table.get(name)
            for d in self.game.define_unknown if drops is None else drops:
                if d in memo:
                    del memo[d]

    def charge(self, amount: int) -> None:
        """Count values the rules build (list elements, comprehension turns); stop a runaway."""
        self.work += amount
        if self.work > MAX_WORK:
            raise RuleError(f"the rules built more than {MAX_WORK:,} values without asking for a decision")

    # seats

    @property
    def nseats(self) -> int:
        return self.state["nseats"]

    def seat_name(self, seat: int) -> str:
        names = self.game.seat_names(self.state["nseats"])
        if seat.__class__ is int and 0 <= seat < len(names):
            return names[seat]
        raise RuleError(no_such_seat(seat, names))

    # variables (counters, flags, vars), keyed "name" or "name@key"

    def var_key(self, name: str, key=None) -> str:
        return name if key is None else f"{name}@{key}"

    def get_var(self, name: str, key=None):
        v = self.state["vars"].get(name if key is None else f"{name}@{key}", _MISSING)
        if v is _MISSING:
            return self.game.vars[name].initial(self, key)
        return v

    def set_var(self, name: str, key, value) -> None:
        spec = self.game.vars[name]
        if spec.kind == "counter":
            if not isinstance(value, int) or isinstance(value, bool):
                raise RuleError(f"counter '{name}' holds whole numbers, not {value!r}")
            lo, hi = spec.fixed_low, spec.fixed_high
            if lo is NOT_FIXED or hi is NOT_FIXED:
                env = spec.env(key)
                if lo is NOT_FIXED:
                    lo = spec.low(self, env) if spec.low else None
                if hi is NOT_FIXED:
                    hi = spec.high(self, env) if spec.high else None
            if lo is not None and value < lo:
                value = lo
            if hi is not None and value > hi:
                value = hi
            if not -MAX_NUMBER <= value <= MAX_NUMBER:
                raise _beyond_numbers(name)
        k = name if key is None else f"{name}@{key}"
        old = self.state["vars"].get(k, _MISSING)
        if old is _MISSING:
            old = spec.initial(self, key)
        if old != value:
            self.put_var(name, key, k, old, value)

    def put_counter(self, name: str, key, old: int, value: int) -> None:
        """set_var of counter `name` from generated code that has done set_var's first part: the
        value kept within the counter's min and max (both written as numbers), and found to
        differ from `old`, the value now."""
        if not -MAX_NUMBER <= value <= MAX_NUMBER:
            raise _beyond_numbers(name)
        self.put_var(name, key, name if key is None else f"{name}@{key}", old, value)

    def put_var(self, name: str, key, k: str, old, value) -> None:
        """Store a var's new value under its state key `k`, for defines and triggers. A key or a
        value the var's declaration does not allow (a rule parameter without a type can hand
        one on, past the checker) stops the rule here: a state that held it could be saved and
        then not loaded again (saved.var_problem). A counter kept for the game or per seat under
        a seat has nothing left to check, and is the common case."""
        spec = self.game.vars[name]
        if spec.kind != "counter" or (key is not None and not (
                spec.per == "seat" and key.__class__ is int and 0 <= key < self.state["nseats"])):
            problem = var_problem(self.game, self.state, k, value, "would hold")
            if problem is not None:
                raise RuleError(problem)
        variables = self.state["vars"]
        self.touch(name)
        variables[k] = value
        self.changed.add(name)
        if name in self.watched:
            self.events.append((name, key, old, value))

    # tracks

    def track_pos(self, name: str) -> int:
        return self.state["tracks"][name]["pos"]

    def set_track(self, name: str, value: int) -> None:
        spec = self.game.tracks[name]
        value = max(spec.low, min(spec.high, value))
        t = self.state["tracks"][name]
        old = t["pos"]
        if old == value:
            return
        self.touch(name)
        t["pos"] = value
        self.changed.add(name)
        if name in self.watched:
            self.events.append((name, None, old, value))

    def set_track_start(self, name: str, value: int) -> None:
        """Move where a track starts (its marker stays), within the track."""
        spec = self.game.tracks[name]
        self.touch(name)
        self.state["tracks"][name]["start"] = max(spec.low, min(spec.high, value))
        self.changed.add(name)  # `mood.start` is read as the track is

    # tokens, keyed "Token|owner|place"

    @staticmethod
    def place_key(place) -> str:
        if isinstance(place, int) and not isinstance(place, bool):
            return f"#{place}"
        if place is None:
            raise RuleError("tokens need a place, and this one is 'none'")
        return str(place)

    def token_count(self, token: str, owner=None, place=None) -> int:
        pk = None
        if place is not None:
            pk = place if place.__class__ is str else self.place_key(place)  # a space's name, mostly
            if owner is not None:
                return self.state["tokens"].get(f"{token}|{owner}|{pk}", 0)
            if self.game.tokens.get(token, 0) is None:
                # a token no seat owns has one count per place: look it up, do not scan
                return self.state["tokens"].get(f"{token}||{pk}", 0)
        index = self.tix
        if index is None:
            index = self.tix = self._token_index()
        return index.get((token, None if owner is None else str(owner), pk), 0)

    def _token_index(self) -> dict:
        """Totals of every token by (token, None, place), by (token, owner, None) and by (token,
        None, None): built when first asked, kept with the define values (under TIX in
        `memo`, so it lasts as long as they do: see vm.memo_for), and kept up to date by every
        change of a token (`_tokens_changed`)."""
        index: dict = {}
        get = index.get
        for key, count in self.state["tokens"].items():
            t, o, p = key.split("|", 2)
            for k in ((t, None, p), (t, o, None), (t, None, None)):
                index[k] = get(k, 0) + count
        if self.memo is not None:
            self.memo[TIX] = index
        return index

    def _tokens_changed(self, token: str, owner, pk: str, delta: int) -> None:
        index = self.tix
        if index is not None:
            get = index.get
            for k in ((token, None, pk), (token, "" if owner is None else str(owner), None), (token, None, None)):
                index[k] = get(k, 0) + delta
        self.touch_at(token, pk)

    def touch_at(self, token: str, pk: str) -> None:
        """touch(token) for a change of the token at one place (its key `pk`): a define that
        reads the token only at a place it is given loses only its values for this place, found
        in its table's index of keys by place (see `index_places`), with no scan of its keys; a
        define indexed by the places it read loses the values that read this one (index_reads)."""
        memo = self.memo
        if not memo:
            return
        places = self.game.define_token_places.get(token)
        if not places or self.game.define_drops is None:
            self.touch(token)
            return
        drops = self.game.define_drops.get(token)
        for d in self.game.define_unknown if drops is None else drops:
            known = memo.get(d)
            if not known:
                continue
            at = places.get(d)
            if at == READ:  # indexed by the places its values read (index_reads)
                index = known.get(READ_AT)
                groups = (pk, None)
            else:
                index = known.get(PLACES) if at is not None else None
                groups = ((at, pk), (at, None))
            if index is None:  # no index of this table by that argument: drop it whole
                del memo[d]
                continue
            for group in groups:  # None: values at a place that cannot be told
                keys = index.pop(group, None)
                if keys:
                    for key in keys:
                        known.pop(key, None)  # gone already when listed under another argument

    def add_tokens(self, token: str, owner, place, amount: int) -> None:
        if amount < 0:
            raise RuleError(f"cannot add {amount} tokens")
        pk = self.place_key(place)
        key = f"{token}|{'' if owner is None else owner}|{pk}"
        tokens = self.state["tokens"]
        have = tokens.get(key)
        total = (have or 0) + amount
        if total > MAX_NUMBER:
            raise RuleError(f"{token} tokens would be more than the numbers ludus allows ({MAX_NUMBER:,})")
        tokens[key] = total
        self.changed.add(token)
        self._tokens_changed(token, owner, pk, amount)
        if tokens[key] == 0:
            del tokens[key]
        elif have is None:
            index = self.memo.get(KEYS) if self.memo is not None else None
            if index is not None:
                index.setdefault((token, pk), set()).add(key)

    def remove_tokens(self, token: str, owner, place, amount: int | None) -> int:
        """Remove up to `amount` (all when None); returns how many were removed."""
        tokens = self.state["tokens"]
        pk = self.place_key(place)
        removed = 0
        owners = [owner] if owner is not None else self._owners_at(token, pk)
        for o in owners:
            key = f"{token}|{'' if o is None else o}|{pk}"
            have = tokens.get(key, 0)
            take = have if amount is None else min(have, amount - removed)
            if take:
                self.changed.add(token)
                self._tokens_changed(token, o, pk, -take)
                tokens[key] = have - take
                if tokens[key] == 0:
                    del tokens[key]
                    index = self.memo.get(KEYS) if self.memo is not None else None
                    if index is not None:
                        index[(token, pk)].discard(key)
                removed += take
            if amount is not None and removed >= amount:
                break
        return removed

    def _owners_at(self, token: str, pk: str) -> list:
        """The owners of `token` at `pk`, in the order of their keys (only those are sorted),
        from an index of the token keys by (token, place key) instead of a scan of every key:
        made at the first such question, kept with the define values (under KEYS in `memo`, so
        it lasts as long as they do: see vm.memo_for) and kept up to date by add_tokens and
        remove_tokens."""
        memo = self.memo
        index = memo.get(KEYS) if memo is not None else None
        if index is None:
            index = {}
            for key in self.state["tokens"]:
                t, _o, p = key.split("|", 2)
                index.setdefault((t, p), set()).add(key)
            if memo is not None:
                memo[KEYS] = index
        keys = index.get((token, pk))
        if not keys:
            return []
        return [int(o) if o else None for o in (key.split("|", 2)[1] for key in sorted(keys))]

    # entities (cards and pieces) and the places that hold them

    def ent(self, eid: int) -> dict:
        try:
            e = self.state["ents"][eid]
        except (IndexError, TypeError):
            e = None
        if e is None:
            raise _no_entity(eid)
        return e

    def place_list(self, place: str) -> list:
        """The list of what is at `place` (made if missing), for the caller to change."""
        return self.state["places"].setdefault(place, [])

    def zone_cards(self, zone: str) -> list:
        return list(self.state["places"].get(zone, ()))

    def move_entity(self, eid: int, dest: str, bottom: bool = False) -> None:
        self.move_entities((eid,), dest, bottom)

    def move_entities(self, eids: list, dest: str, bottom: bool = False) -> None:
        """Move each of `eids` in turn to the top (or `bottom`) of `dest`, as if one by one, with
        what is the same for every card done once: the destination's list, and for each place
        they come from, the defines dropped (as touch("$ents") and each zone's would: moves are
        the commonest change) and the names marked changed (nothing reads them between two
        cards)."""
        state, game = self.state, self.game
        ents, places = state["ents"], state["places"]
        into = None
        last = marks = owner = None  # the place the last card came from, and its move_marks
        for eid in eids:
            try:
                e = ents[eid]
            except (IndexError, TypeError):
                e = None
            if e is None:
                raise _no_entity(eid)
            src = e["l"]
            if marks is None or src != last:
                memo = self.memo
                if memo:
                    drops = game.move_drops.get((src, dest))
                    if drops is None:
                        drops = self._move_drops(src, dest)
                    for d in drops:
                        if d in memo:
                            del memo[d]
                marks = game.move_marks.get((src, dest)) or _move_marks(game, src, dest)
                self.changed.update(marks[0])
                owner = marks[1]
                last = src
            if src is not None:
                lst = places.get(src)
                if lst:
                    try:
                        i = lst.index(eid)
                    except ValueError:
                        pass
                    else:
                        del lst[i]
            if into is None:
                into = places.get(dest)
                if into is None:
                    into = places[dest] = []
            if bottom:
                into.append(eid)
            else:
                into.insert(0, eid)
            e["l"] = dest
            if "rev" in e:
                del e["rev"]
            if "see" in e:
                del e["see"]
            if owner is not None:  # a seat's zone: what moves in is that seat's
                e["o"] = owner

    def _move_drops(self, src, dest: str) -> tuple:
        game = self.game
        if game.define_drops is None:  # no table yet (see touch): every define
            return tuple(self.memo)
        drops: dict = {}
        for name in ("$ents", "@" + (src or "").split("@", 1)[0], "@" + dest.split("@", 1)[0]):
            found = game.define_drops.get(name)
            drops.update(dict.fromkeys(game.define_unknown if found is None else found))
        found = game.move_drops[(src, dest)] = tuple(drops)
        return found

    def create_entity(self, defname: str, owner, place: str) -> int:
        ents = self.state["ents"]
        eid = len(ents)
        ents.append({"d": defname, "o": owner, "l": None})
        self.move_entity(eid, place, bottom=True)
        if owner is not None:
            ents[eid]["o"] = owner
        return eid

    def field(self, eid: int, name: str):
        e = self.ent(eid)
        f = e.get("f")
        if f is not None and name in f:
            return f[name]
        return self.game.static_field(self, eid, e["d"], name)

    def set_field(self, eid: int, name: str, value) -> None:
        e = self.ent(eid)
        self.touch("." + name)
        e.setdefault("f", {})[name] = value
        self.changed.add("$ents")

    def entities_of(self, kinds: frozenset | None = None, defname: str | None = None, owner=None, place=None) -> list:
        out = []
        pk = None if place is None else self.place_key(place)
        ents = self.state["ents"]
        if pk is not None:
            # only what stands at the place, in the order of ids as the full scan gives
            if pk == "removed":
                return out
            here = self.state["places"].get(pk, ())
            defs = self.game.defs
            for eid in (here if len(here) < 2 else sorted(here)):
                e = ents[eid]
                if e is None or e["l"] != pk:
                    continue
                if defname is not None and e["d"] != defname:
                    continue
                if kinds is not None and defs[e["d"]].kind not in kinds:
                    continue
                if owner is not None and e["o"] != owner:
                    continue
                out.append(eid)
            return out
        # the cards a match starts with never change name: their ids by kind and name come from
        # a table made once per game, and only the pieces created since are scanned. A state
        # whose first cards are not those (a saved match edited by hand) is scanned whole.
        game = self.game
        defs = game.defs
        names = game.box_names
        if names is None:
            names = game.box_names = tuple(box_cards(game))
        start = len(names)
        if game.box_checked is not ents and len(ents) >= start and all(
                ents[i] is not None and ents[i]["d"] == names[i] for i in range(start)):
            game.box_checked = ents  # this list of this state, checked once
        scan = range(len(ents))
        if game.box_checked is ents:
            found = game.box_index.get((kinds, defname))
            if found is None:
                found = game.box_index[(kinds, defname)] = tuple(
                    i for i, d in enumerate(names)
                    if (defname is None or d == defname) and (kinds is None or defs[d].kind in kinds))
            for eid in found:
                e = ents[eid]
                if e["l"] is None or e["l"] == "removed" or (owner is not None and e["o"] != owner):
                    continue
                out.append(eid)
            scan = range(start, len(ents))
        for eid in scan:
            e = ents[eid]
            if e is None or e["l"] is None or e["l"] == "removed":  # out of the game
                continue
            if defname is not None and e["d"] != defname:
                continue
            if kinds is not None and defs[e["d"]].kind not in kinds:
                continue
            if owner is not None and e["o"] != owner:
                continue
            out.append(eid)
        return out

    # chance

    def roll(self, sides: int) -> int:
        check_die(sides)
        forced = self.state["forced"]
        i = forced_die(forced, sides)
        if i is not None:
            value = forced.pop(i)[2]
            if not 1 <= value <= sides:
                raise RuleError(f"the forced outcome {value} is not a face of a d{sides}")
        else:
            value = rng_below(self.state, sides) + 1
        self.log.append({"t": "roll", "die": sides, "value": value})
        return value

    def shuffle(self, zone: str) -> None:
        name = zone.split("@", 1)[0]
        self.touch("$ents")
        self.touch("@" + name)
        self.changed.update(("$ents", name))  # the order of its cards, as a move says
        cards = self.state["places"].get(zone, [])
        forced = self.state["forced"]
        for i, f in enumerate(forced):
            if f[0] == "order" and f[1] == zone:
                forced.pop(i)
                cards[:] = self._forced_order(zone, cards, f[2])
                break
        else:
            for i in range(len(cards) - 1, 0, -1):
                j = rng_below(self.state, i + 1)
                cards[i], cards[j] = cards[j], cards[i]
        self.log.append({"t": "shuffle", "zone": zone, "order": [self.state["ents"][c]["d"] for c in cards]})

    def _forced_order(self, zone: str, cards: list, names: list) -> list:
        pool = list(cards)
        out = []
        for name in names:
            for eid in pool:
                if self.state["ents"][eid]["d"] == name:
                    out.append(eid)
                    pool.remove(eid)
                    break
            else:
                # the order was taken while the card lay elsewhere (match.order_note), or a copy
                # has left the zone since: the shuffle cannot follow it, and the move fails whole
                shown, _, seat = zone.partition("@")
                if seat:
                    shown = f"{shown} of {self.seat_name(int(seat))}"
                wanted = names.count(name)
                held = sum(1 for eid in cards if self.state["ents"][eid]["d"] == name)
                amount = f"holds {held} '{name}'" if held else f"does not hold '{name}'"
                raise RuleError(f"the order forced for the next shuffle of {shown} ({', '.join(names)}) names "
                                f"'{name}'{f' {wanted} times' if wanted > 1 else ''}, and {shown} {amount} when it is shuffled")
        return out + pool


def _move_marks(game, src, dest: str) -> tuple:
    """What a move from `src` to `dest` adds to Runtime.changed, and the seat whose zone `dest`
    is (None if it is no seat's zone): worked out once per pair of places."""
    name, at, seat = dest.partition("@")
    marks = game.move_marks[(src, dest)] = (
        ("$ents", src.partition("@")[0] if src else "", name),
        int(seat) if at and name in game.zones else None)
    return marks


class _Places:
    pass


PLACES = _Places()  # the key, in a define's table of values, of its index of keys by place
READ_AT = _Places()  # and, for a define indexed by the places it reads, its index of keys by them
READS = _Places()  # and the places each of its keys read
# A value that read more places than this is listed as read everywhere, as the index would cost
# more than it keeps: it goes at every change (`connected(s)` of Connect Four reads every cell).
MAX_READS = 16
READ = -1  # in token_places, "the places it reads" where an argument's index is (compiler.statements)


def index_places(known: dict, key, values, at: tuple) -> None:
    """List a define's new remembered `key` under the place each of its arguments `at` (their
    indexes) names, as Runtime.touch_at looks them up: a space's name, `#id` for a card or
    piece (as place_key writes it), None for any other value (dropped by every change)."""
    index = known.get(PLACES)
    if index is None:
        index = known[PLACES] = {}
    for i in at:
        v = values[i]
        group = (i, v if v.__class__ is str else f"#{v}" if v.__class__ is int else None)
        keys = index.get(group)
        if keys is None:
            index[group] = [key]
        else:
            keys.append(key)


def index_reads(known: dict, key, reads: list, kept: bool = True) -> None:
    """List a define's new remembered `key` under each place its value read a token at (the
    place's key as place_key writes it: a space's name, `#id` for a card or piece, None for a
    place that cannot be told, dropped by every change), in the table's index of keys by place
    read (READ_AT, which Runtime.touch_at looks in for a define indexed so), and keep those
    places with the key (READS) when `kept`, for a define that reads this one: it read them
    too."""
    index = known.get(READ_AT)
    if index is None:
        index = known[READ_AT] = {}
    if len(reads) > MAX_READS and len(set(reads)) > MAX_READS:  # this goes at any change
        reads = [None]
    for v in reads:
        if v.__class__ is not str:
            v = f"#{v}" if v.__class__ is int else None
        keys = index.get(v)
        if keys is None:
            index[v] = {key}
        else:
            keys.add(key)
    if kept:
        places = known.get(READS)
        if places is None:
            places = known[READS] = {}
        places[key] = reads


def seen(rt, place):
    """A place a define indexed by what it reads reads a token at, recorded (Runtime.reads)."""
    reads = rt.reads
    if reads is not None:
        reads.append(place)
    return place


def seen_all(rt, places: list) -> None:
    """Every place of a list recorded at once, for a loop that reads a token at each of them;
    a list longer than MAX_READS as a read everywhere (None)."""
    reads = rt.reads
    if reads is not None:
        if len(places) > MAX_READS:
            reads.append(None)
        else:
            reads.extend(places)


# Among the define values (`memo`), under names no define can have: the token totals
# (Runtime.tix) and the token keys by (token, place key) (see `_owners_at`).
TIX = "$tix"
KEYS = "$keys"


class _Missing:
    pass


_MISSING = _Missing()
