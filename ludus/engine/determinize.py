"""Determinization: copies of a match that a seat cannot tell from the real one.

A bot that searches must not look at what its seat cannot see. It plays its simulations on
samples instead: copies of the match in which every card the seat cannot see (a card in another
seat's `owner only` hand, in its own `others only` hand, in a `count only` deck, in a `hidden`
zone, not revealed to it) has been
dealt again at random among the hidden places, and the random generator reseeded so the dice and
shuffles to come are not the real ones. What the seat sees stays exactly where it is: a sample's
`view(seat)` is the real `view(seat)`.

Which hidden cards may trade places? Only cards the seat could not tell apart. A card that only
ever travels among one side's deck and hand (an Opposition card in Votes for Women) could never be
in the other side's deck, and a sample that put it there would be a game that cannot happen. So
each game is first watched for a few random matches (six at least, more while they are short),
noting in which hidden zones each card appears; cards and zones linked that way (directly or
through other cards) form one group, and a sample reshuffles each group's cards among the
group's hidden places. Cards still in the game box (out of play) are left alone.

A group links cards through the zones they share, so it can put a card where it never goes:
Jaipur's camels share the deck with the goods, and the goods go into a hand, but a camel never
does (taking camels puts them in the herd). So the watching also counts where cards move from
and to. A hidden zone takes no card of a name that never came into it, though so many cards came
into it from places that cards of that name often left that none coming by luck is too unlikely
(`_never`); a name too rare for that is not ruled out. And a card in a hand takes no card that
the marks on its back rule out, when every card a token was ever laid on read one value of one
field, too often for luck (every `ToldColour red` of Hanabi on a red card, every `ToldNumber 3`
on a 3; a member of a family of tokens is a token of its own): the card under it then has that
value (`_marks`). Marks on a card in a stack are hidden with it, and restrict nothing. A card
that is really in a place is never ruled out of it, so the real placement is always one a
sample may deal (were the watching to miss a way a card can go, the samples would let only the
real card of that name go there: a sample that could not be dealt would be worse).

A group whose places rule cards out (`_Deal`) is dealt evenly among the placements they allow,
by rejection (`_Deal._evenly`): each place that rules cards out draws a card, among those it may
take or among those not yet dealt, and the draw starts over when it picks a card already dealt
or one the place may not take; the places that take every card of the group share the rest.
Random matches of the shipped games (Hanabi's marked hands, Jaipur's hands that take no camel;
no other shipped game has a group whose places rule cards out) accept 0.9 and 0.74 of the draws
on average, 0.12 at worst (Hanabi played with a clue at every turn that allows one: 0.85, 0.34 at
worst), so EVEN_TRIES draws in a row all rejected hardly ever happen (0.88 ** 100 < 1e-5). When
they do (a place that takes only a few of many cards, many such places) the group is dealt place
by place (`_Deal._by_places`): each place takes a card drawn at random among those that some
placement of the whole group gives it, so dealing never dead-ends, but not evenly among the
placements (the places that take the fewest cards are dealt first, and the later ones take what
is left). Either way every hidden card can go to every hidden place that some placement allows
it, so nothing about which card is where leaks into the sample, beyond what the rules and the
marks the seat sees tell. A group where every place takes every card of it is shuffled whole.

A pile (a `top only` zone, or a space of a `top only` board) shows its top card; the cards under
it trade places only among themselves. A market slot's pile holds that slot's later cards, and
a sample that put a starting card under it, as the groups above would once a card bought from
it reached a hidden deck, would be a game that cannot happen. Their order under the top is
dealt at random too, though a rulebook may fix it (Stonewall's decades): a sample may show a
later card on top after the next one is taken.

What samples do not keep: what the seat could work out from the moves it saw. A Hanabi clue
also says that the cards it did not point at are not red, and no mark records that, so a sample
may deal a red card to a place the seat knows is not red. Learning that without a word of Hanabi
would take two things. First, that a token is laid on every card of the zone that reads its
value (each `ToldColour red` laid in one move went on every red card of that hand): the watched
matches could show that, as they show what a mark means. Second, for each card of the seat's
hand, the tokens laid on the others while it lay there unmarked. A position does not hold that
(nor when a card came into the hand); only the match's history does, and not always: a match
played by `apply_fast`, as simulations play theirs, keeps none, nor does a match loaded from a
save for the moves before it, and a bot, seeing one view per decision, does not see every move
between (which card a clue went to, as the hand's places shift with each card drawn). So the
sampler would have to watch the match move by move from its start, or the simulations keep a
history they now save the cost of. That is left undone. (A game may mark what a move tells in
the state itself, with tokens the watching learns, as Hanabi's clue marks are; but `_marks`
learns only a token all of whose cards read one value, not one whose cards read any of
several, as a `NotRed` mark's would.)

Hidden counters (another seat's `owner only` counter, an `others only` one of the seat's own, a
`hidden` one) keep their real value in every sample: a search knows what its seat may not. A
counter is not dealt from a pool of values as a card is, and the rules that set it are what
would say which values are possible: a secret drawn at the start could be any value a die gives,
but a hidden score that public moves raised by so much can only be that much, and a value the
rules could not give may break the rules that read it later. Sampling it honestly would take a
history the seat cannot tell from the real one, not a position. No shipped game hides a counter;
`test_a_sample_keeps_the_real_value_of_a_counter_its_seat_cannot_see` (tests/bots) pins this.
"""

from __future__ import annotations

import random
import weakref

from .runtime import Runtime, copy_state
from .view import _can_see

LEARN_MATCHES = 6          # random matches watched at least,
LEARN_BUDGET = 1_500       # and until they have made this many decisions in all,
LEARN_MAX_MATCHES = 300    # but no more matches than this (a game whose matches end at once)
LEARN_DECISIONS = 3_000    # decisions at most in one match
SURE = 1e-3                # the chance of a pattern by luck under which it is taken as a rule
EXPECTED_IF_POSSIBLE = 7   # arrivals of a name expected in a zone, none seen: exp(-7) < SURE
EVEN_TRIES = 100           # draws of an even placement (_Deal._evenly) before dealing place by place
_ABSENT = object()

# game -> {seats: what random matches showed (_learned)}; an entry goes with its game
# (a REPL's reload, an editor's language server, a long simulation loading variants)
_LEARNED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _piles(game) -> frozenset:
    """The zones and spaces that are piles (`top only`): their hidden cards are grouped alone."""
    return frozenset([name for name, spec in game.zones.items() if spec.visibility == "top only"]
                     + [name for name, sp in game.spaces.items() if sp.visibility == "top only"])


def _root(ents: list, eid: int) -> str:
    """The place a card is in, following cards laid on cards to the one at the bottom."""
    loc = ents[eid]["l"] or "box"
    for _ in range(len(ents) + 1):
        if not loc.startswith("#"):
            return loc
        loc = ents[int(loc[1:])]["l"] or "box"
    return "box"


def hidden_cards(match, seat: int) -> list[int]:
    """The cards (and pieces) in play that `seat` cannot see, by id."""
    rt = Runtime(match.game, match._state, [])
    ents = match._state["ents"]
    out = []
    for eid, e in enumerate(ents):
        if e is None or e["l"] is None:
            continue
        root = _root(ents, eid)
        if root == "box" or root.split("@", 1)[0] == "box":
            continue
        if not _can_see(rt, eid, seat):
            out.append(eid)
    return out


def _find(parent: dict, x):
    while parent.setdefault(x, x) != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


def _union(parent: dict, a, b) -> None:
    ra, rb = _find(parent, a), _find(parent, b)
    if ra != rb:
        parent[ra] = rb


def _note(learned: dict, state: dict, secret: set, last: dict) -> None:
    """What one position shows: each card in a hidden zone links its name with the zone; each
    card that has moved since the position before counts as a move of its name from where it
    was to where it is (from "start" at a match's start); each token just laid on a card counts
    as laid on a card of its name. `last`: where each card was, and the tokens there were."""
    parent, moves, laid = learned["parent"], learned["moves"], learned["laid"]
    ents, at = state["ents"], last["at"]
    for eid, e in enumerate(ents):
        if e is None:
            continue
        root = _root(ents, eid)
        if root.split("@", 1)[0] in secret:
            _union(parent, ("card", e["d"]), ("zone", root))
        before = at.get(eid, "start")
        if before != root:
            counts = moves.setdefault((before, root), {})
            counts[e["d"]] = counts.get(e["d"], 0) + 1
            at[eid] = root
    tokens = set(state["tokens"])
    for key in tokens - last["tokens"]:
        token, owner, place = key.split("|", 2)
        if place.startswith("#") and ents[int(place[1:])] is not None:
            counts = laid.setdefault(f"{token}|{owner}", {})
            name = ents[int(place[1:])]["d"]
            counts[name] = counts.get(name, 0) + 1
    last["tokens"] = tokens


def _fields(match) -> dict[str, tuple[int, dict]]:
    """name -> (its copies in a match, its fields that read a plain value), for the cards of a
    new match: what a token laid on cards can be matched against."""
    from .runtime import RuleError

    game, state = match.game, match._state
    rt = Runtime(game, state, [])
    out: dict[str, tuple[int, dict]] = {}
    for eid, e in enumerate(state["ents"]):
        if e is None or e["d"] not in game.defs:
            continue
        name = e["d"]
        if name in out:
            out[name] = (out[name][0] + 1, out[name][1])
            continue
        d = game.defs[name]
        values = {}
        for f in list(d.props) + list(game.kind_fields.get(d.kind, {})):
            try:
                v = game.static_field(rt, eid, name, f)
            except (RuleError, KeyError, TypeError, ValueError, IndexError):
                continue
            if v is None or isinstance(v, (bool, int, str)):
                values[f] = v
        out[name] = (1, values)
    return out


def _learned(game, seats: int) -> dict:
    """What random matches showed (see the module doc): `parent`, the groups that cards seen in
    hidden zones link; `moves`, (from, to) -> name -> how often a card of that name moved so;
    `laid`, token|owner -> name -> how often it was laid on a card of that name; `fields`, the
    cards' plain fields (`_fields`). Then, worked out from them, `never` (zone -> the names that
    cannot come there) and `marks` (token|owner -> the names it can lie on)."""
    known = _LEARNED.setdefault(game, {})
    if seats in known:
        return known[seats]
    from .runtime import RuleError

    secret = {name for name, spec in game.zones.items()
              if spec.visibility not in ("public", "top only") and name != "box"}
    learned: dict = {"parent": {}, "moves": {}, "laid": {}, "fields": {}}
    rng = random.Random(0x5EED)
    decisions = 0
    for k in range(LEARN_MAX_MATCHES):
        if k >= LEARN_MATCHES and decisions >= LEARN_BUDGET:
            break
        last: dict = {"at": {}, "tokens": set()}
        try:
            match = game.new_match(seats, seed=7919 * k + 1)
            if not learned["fields"]:
                learned["fields"] = _fields(match)
            _note(learned, match._state, secret, last)
            for _ in range(LEARN_DECISIONS):
                pending = match._state["pending"]
                if match._state["result"] is not None or pending is None:
                    break
                match.apply_fast(rng.randrange(len(pending["options"])))
                decisions += 1
                _note(learned, match._state, secret, last)
        except RuleError:
            continue  # a match that breaks a rule still taught us what it saw before
    learned["never"] = _never(learned, secret)
    learned["marks"] = _marks(learned)
    known[seats] = learned
    return learned


def _never(learned: dict, secret: set) -> dict[str, frozenset]:
    """zone -> the names of its group no card of which came into it, though the matches watched
    would have brought one often if it could: cards came into the zone from other places so
    often, and cards of that name made up so large a share of the cards leaving those places,
    that the chance of none coming by luck is below SURE (a Poisson count with that mean being 0).
    A card too rare for that keeps its place open: a sample may deal it there. (Camels leave
    Jaipur's market for a herd, goods for a hand: some 200 cards went from the market to each
    hand, a quarter of those leaving it were camels, and none went to a hand.)"""
    parent, moves = learned["parent"], learned["moves"]
    leaving: dict[str, dict[str, int]] = {}
    for (source, _), counts in moves.items():
        out = leaving.setdefault(source, {})
        for name, n in counts.items():
            out[name] = out.get(name, 0) + n
    names_of: dict = {}
    for x in list(parent):
        if x[0] == "card":
            names_of.setdefault(_find(parent, x), set()).add(x[1])
    never = {}
    for (source, zone), counts in moves.items():
        # cards set out at the start, or taken from the box, come where the setup rules put
        # them by name: what leaves the box says nothing of what else could come
        if zone.split("@", 1)[0] not in secret or source in ("start", "box"):
            continue
        came = sum(counts.values())
        left = leaving[source]
        total = sum(left.values())
        expected = never.setdefault(zone, {})
        for name, n in left.items():
            expected[name] = expected.get(name, 0) + came * n / total
    out = {}
    for zone, expected in never.items():
        seen = {name for (_, z), counts in moves.items() if z == zone for name in counts}
        group = names_of.get(_find(parent, ("zone", zone)), set())
        ruled_out = frozenset(name for name, e in expected.items()
                              if name in group and name not in seen and e >= EXPECTED_IF_POSSIBLE)
        if ruled_out:
            out[zone] = ruled_out
    return out


def _marks(learned: dict) -> dict[str, frozenset]:
    """token|owner -> the names it can lie on, for a token every card of which, over the matches
    watched, read one value of one field (every `ToldColour red` lay on a red card): so often
    that cards drawn at random from a match's cards would have read it each time with a chance
    below SURE. Then it can lie on any card with that value, seen under it or not. A token that
    agrees with no field so (one laid on any card) can lie on any card."""
    fields, out = learned["fields"], {}
    cards = sum(n for n, _ in fields.values())
    for mark, laid in learned["laid"].items():
        if any(name not in fields for name in laid):
            continue  # a card the match made later: nothing to match it against
        times = sum(laid.values())
        told = set()
        first = fields[next(iter(laid))][1]
        for f, v in first.items():
            if not all(fields[name][1].get(f, _ABSENT) == v for name in laid):
                continue
            share = sum(n for n, values in fields.values() if values.get(f, _ABSENT) == v) / cards
            if share ** times < SURE:
                told |= {name for name, (_, values) in fields.items() if values.get(f, _ABSENT) == v}
        if told:
            out[mark] = frozenset(told)
    return out


def groups(match, seat: int) -> list[list[int]]:
    """The hidden cards of `seat`, in groups whose cards may trade places in a sample."""
    hidden = hidden_cards(match, seat)
    if not hidden:
        return []
    ents = match._state["ents"]
    parent = dict(_learned(match.game, match._state["nseats"])["parent"])
    piles = _piles(match.game)
    roots = {eid: _root(ents, eid) for eid in hidden}
    for eid in hidden:  # what is true now is possible, whatever the random matches showed
        # (a pile is linked to nothing, as _learned leaves it: its cards stay a group of their own)
        if roots[eid].split("@", 1)[0] not in piles:
            _union(parent, ("card", ents[eid]["d"]), ("zone", roots[eid]))
    out: dict = {}
    for eid in hidden:
        out.setdefault(_find(parent, ("zone", roots[eid])), []).append(eid)
    return [g for _, g in sorted(out.items(), key=lambda kv: kv[1][0])]


def impossible(match, seat: int, hidden: list[int] | None = None) -> dict[int, frozenset]:
    """For the place of each hidden card of `seat`, the names of the cards that cannot lie there:
    those the learning matches show never come into its zone (`_never`) and, for a card in a
    hand, those that cannot lie under a token the seat sees on its back (`_marks`). A card that
    is really there is never among them, so the real placement is one a sample may deal."""
    if hidden is None:
        hidden = hidden_cards(match, seat)
    game, ents = match.game, match._state["ents"]
    learned = _learned(game, match._state["nseats"])
    never, marks = learned["never"], learned["marks"]
    on_card: dict[int, list[str]] = {}
    for key in match._state["tokens"]:
        token, owner, place = key.split("|", 2)
        if place.startswith("#") and f"{token}|{owner}" in marks:
            on_card.setdefault(int(place[1:]), []).append(f"{token}|{owner}")
    # the marks on the backs of the cards in a hand are seen by the whole table (view.py); those
    # on a card in a stack, or under another card, are hidden with it
    hands = {name for name, spec in game.zones.items() if spec.visibility in ("owner only", "others only")}
    needs: dict[int, list[tuple]] = {}
    for eid in hidden:
        root = _root(ents, eid)
        need = [("zone", root)] if root in never else []
        if ents[eid]["l"].split("@", 1)[0] in hands:
            need += [("mark", m) for m in sorted(on_card.get(eid, ()))]
        needs[eid] = need
    # what is true now is possible, whatever the random matches showed
    really: dict[tuple, set] = {}
    for eid in hidden:
        for need in needs[eid]:
            really.setdefault(need, set()).add(ents[eid]["d"])
    out: dict[int, frozenset] = {}
    for eid in hidden:
        ruled_out: set = set()
        for kind, key in needs[eid]:
            if kind == "zone":
                ruled_out |= never[key] - really[(kind, key)]
            else:
                names = learned["fields"].keys()
                ruled_out |= {n for n in names if n not in marks[key]} - really[(kind, key)]
        out[eid] = frozenset(ruled_out)
    return out


class _Deal:
    """How to deal one group whose places do not all take every card of it.

    Each place of the group has a kind (the cards it may take); `counts` holds one placement of
    the cards still to deal among the places still empty, as kind -> name -> how many, which
    starts as the real one. Each place, dealt in turn, takes a card drawn at random among those
    that some complete placement puts there: the one `counts` gives it, or one that a chain of
    exchanges along `counts` frees for it (kind A gives its X to this place and takes a Y from
    kind B, which takes ...). So the dealing never dead-ends, and every card may go to every
    place some placement of the group puts it in."""

    def __init__(self, group: list[int], ents: list, ruled_out: dict[int, frozenset]) -> None:
        self.group = group
        names = sorted({ents[eid]["d"] for eid in group})
        self.kinds: list[frozenset] = []
        index: dict[frozenset, int] = {}
        self.kind_of: list[int] = []
        self.counts: list[dict[str, int]] = []
        for eid in group:
            kind = frozenset(names) - ruled_out[eid]
            if kind not in index:
                index[kind] = len(self.kinds)
                self.kinds.append(kind)
                self.counts.append({})
            k = index[kind]
            self.kind_of.append(k)
            self.counts[k][ents[eid]["d"]] = self.counts[k].get(ents[eid]["d"], 0) + 1
        self.takers = {name: [k for k, kind in enumerate(self.kinds) if name in kind] for name in names}
        # for the even draw (`_evenly`): the places that rule a card out, each with the cards (by
        # their index in the group) it may take, those that take the fewest first
        every = frozenset(names)
        strict = [(i, [j for j, eid in enumerate(group) if ents[eid]["d"] in self.kinds[self.kind_of[i]]])
                  for i in range(len(group)) if self.kinds[self.kind_of[i]] != every]
        strict.sort(key=lambda pair: (len(pair[1]), pair[0]))
        self.strict = [i for i, _ in strict]
        self.allowed = [choices for _, choices in strict]
        self.allowed_sets = [frozenset(choices) for choices in self.allowed]
        self.open = [i for i in range(len(group)) if self.kinds[self.kind_of[i]] == every]

    def deal(self, ents: list, rng: random.Random) -> None:
        """Deal the group anew: evenly among the placements allowed (`_evenly`), or, when that
        draw fails too often, place by place (`_by_places`)."""
        group = self.group
        cards = [(ents[eid]["d"], ents[eid].get("f")) for eid in group]
        dealt = self._evenly(cards, rng)
        if dealt is None:
            dealt = self._by_places(ents, rng)
        for eid, (d, f) in dealt.items():
            ents[eid]["d"] = d
            if f is None:
                ents[eid].pop("f", None)
            else:
                ents[eid]["f"] = f

    def _evenly(self, cards: list, rng: random.Random) -> dict | None:
        """A placement drawn evenly among those the places allow, by rejection; None when
        EVEN_TRIES draws in a row were rejected.

        One draw: each place that rules a card out takes, in a fixed order, a card at random,
        either among the cards it may take (used or not) or among the cards not yet used
        (allowed or not), whichever holds fewer; the draw is rejected as soon as it picks a card
        already used, or one the place may not take. The places that take every card of the
        group share the rest in a shuffle. Which of the two ways a place draws depends only on
        the place and on how many cards are used before it, never on which, so every allowed
        placement of the strict places comes with the same chance (one over the product of the
        numbers drawn among), and each has as many ways to share the rest: an accepted draw is
        even among all the group's allowed placements."""
        group, allowed, allowed_sets = self.group, self.allowed, self.allowed_sets
        n = len(group)
        for _ in range(EVEN_TRIES):
            # order[:t] are the cards used, order[t:] those left; where[j] is card j's index in it
            order = list(range(n))
            where = list(range(n))
            for t, choices in enumerate(allowed):
                if len(choices) <= n - t:
                    j = choices[rng.randrange(len(choices))]
                    if where[j] < t:
                        break
                else:
                    j = order[t + rng.randrange(n - t)]
                    if j not in allowed_sets[t]:
                        break
                other = order[t]
                order[t], order[where[j]] = j, other
                where[other], where[j] = where[j], t
            else:
                t = len(allowed)
                rest = order[t:]
                rng.shuffle(rest)
                dealt = {group[i]: cards[j] for i, j in zip(self.strict, order[:t], strict=True)}
                dealt.update((group[i], cards[j]) for i, j in zip(self.open, rest, strict=True))
                return dealt
        return None

    def _by_places(self, ents: list, rng: random.Random) -> dict:
        """Deal place by place (see the class doc); every place is dealt a card some complete
        placement gives it, but not evenly among the placements."""
        group = self.group
        pool: dict[str, list] = {}
        for eid in group:
            pool.setdefault(ents[eid]["d"], []).append((ents[eid]["d"], ents[eid].get("f")))
        for cards in pool.values():
            rng.shuffle(cards)
        counts = [dict(c) for c in self.counts]
        # the places dealt first are those that take the fewest cards, so that the others take
        # what is left at random (a Jaipur hand its goods, then the deck the rest); among equals
        # the order is dealt at random each time
        order = list(range(len(group)))
        rng.shuffle(order)
        order.sort(key=lambda i: len(self.kinds[self.kind_of[i]]))
        dealt = {}
        for i in order:
            k = self.kind_of[i]
            name = held = self._draw(pool, self.kinds[k], rng)
            if counts[k].get(name, 0) == 0:
                # not the card `counts` gives this place: one a chain of exchanges frees, if
                # any does; else a card drawn again among those some exchanges free
                chains = self._chains(counts, k)
                if name not in chains:
                    name = self._draw(pool, [n for n in chains if n in self.kinds[k]], rng)
                held = self._exchange(counts, chains, name)
            counts[k][held] -= 1
            dealt[group[i]] = pool[name].pop()
        return dealt

    @staticmethod
    def _draw(pool: dict, names, rng: random.Random) -> str:
        """A name drawn as a card would be, among those left of `names`: more copies, more likely."""
        left = [(name, len(pool[name])) for name in sorted(names) if pool.get(name)]
        pick = rng.randrange(sum(n for _, n in left))
        for name, n in left:
            if pick < n:
                return name
            pick -= n
        raise AssertionError("no card left to deal")  # the real placement rules this out

    def _chains(self, counts: list[dict], k: int) -> dict[str, tuple | None]:
        """The names of which `counts` can free a card for a place of kind `k` (if the place may
        take it): name -> the next step of the exchanges that free it (None: `counts` gives kind
        `k` one already)."""
        reached: dict[str, tuple | None] = {name: None for name, n in counts[k].items() if n > 0}
        queue = list(reached)
        while queue:
            wanted = queue.pop()
            for taker in self.takers[wanted]:
                for name, n in counts[taker].items():
                    if n > 0 and name not in reached:
                        reached[name] = (taker, wanted)
                        queue.append(name)
        return reached

    @staticmethod
    def _exchange(counts: list[dict], chains: dict, name: str) -> str:
        """Move `counts` along the chain from `name`: each kind on it gives up a card of one name
        for one of the next. The last name is one the dealt place's kind holds, and gives up
        (returned): the rest of `counts` is then a placement of the cards left but `name`."""
        while chains[name] is not None:
            taker, wanted = chains[name]
            counts[taker][name] -= 1
            counts[taker][wanted] = counts[taker].get(wanted, 0) + 1
            name = wanted
        return name


class Determinizer:
    """Samples of `match` as `seat` knows it; the groups are worked out once, on the first sample."""

    def __init__(self, match, seat: int) -> None:
        self.match = match
        self.seat = seat
        self._groups: list[list[int]] | None = None
        self._deals: list[_Deal | None] = []

    def _plan(self) -> None:
        self._groups = [g for g in groups(self.match, self.seat) if len(g) > 1]
        hidden = [eid for g in self._groups for eid in g]
        ruled_out = impossible(self.match, self.seat, hidden) if hidden else {}
        ents = self.match._state["ents"]
        for group in self._groups:
            names = {ents[eid]["d"] for eid in group}
            free = not any(ruled_out[eid] & names for eid in group)
            # a group whose every place takes every card of it is shuffled, as it always was
            self._deals.append(None if free else _Deal(group, ents, ruled_out))

    def sample(self, rng: random.Random):
        """A copy of the match with the seat's hidden cards dealt anew and fresh dice to come."""
        from .match import Match

        if self._groups is None:
            self._plan()
        state = copy_state(self.match._state)
        ents = state["ents"]
        for group, deal in zip(self._groups, self._deals, strict=True):
            if deal is not None:
                deal.deal(ents, rng)
                continue
            identities = [(ents[eid]["d"], ents[eid].get("f")) for eid in group]
            rng.shuffle(identities)
            for eid, (d, f) in zip(group, identities, strict=True):
                ents[eid]["d"] = d
                if f is None:
                    ents[eid].pop("f", None)
                else:
                    ents[eid]["f"] = f
        state["rng"] = rng.getrandbits(64)
        state["forced"] = []  # outcomes a test or replay forced are not the seat's to know
        state["chance"] = "auto"
        return Match(self.match.game, state, [], self.match.seed)


def determinize(match, seat: int, rng: random.Random):
    """One sample of `match` as `seat` knows it (see the module doc)."""
    return Determinizer(match, seat).sample(rng)
