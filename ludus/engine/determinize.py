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
each game is first watched for a few random matches, noting in which hidden zones each card
appears; cards and zones linked that way (directly or through other cards) form one group, and a
sample reshuffles each group's cards among the group's hidden places. Within a group every hidden
card can go to every hidden place, so nothing about which card is where leaks into the sample.
Cards still in the game box (out of play) are left alone.

A pile (a `top only` zone, or a space of a `top only` board) shows its top card; the cards under
it trade places only among themselves. A market slot's pile holds that slot's later cards, and
a sample that put a starting card under it, as the groups above would once a card bought from
it reached a hidden deck, would be a game that cannot happen. Their order under the top is
dealt at random too, though a rulebook may fix it (Stonewall's decades): a sample may show a
later card on top after the next one is taken.
"""

from __future__ import annotations

import random
import weakref

from .runtime import Runtime, copy_state
from .view import _can_see

LEARN_MATCHES = 6
LEARN_DECISIONS = 3_000

# game -> {seats: union-find parents learned from random matches}; an entry goes with its game
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


def _note(parent: dict, game, state: dict, secret: set) -> None:
    ents = state["ents"]
    for eid, e in enumerate(ents):
        if e is None or e["l"] is None:
            continue
        root = _root(ents, eid)
        if root.split("@", 1)[0] in secret:
            _union(parent, ("card", e["d"]), ("zone", root))


def _learned(game, seats: int) -> dict:
    """Which cards have been seen in which hidden zones, over a few random matches."""
    known = _LEARNED.setdefault(game, {})
    if seats in known:
        return known[seats]
    from .runtime import RuleError

    secret = {name for name, spec in game.zones.items()
              if spec.visibility not in ("public", "top only") and name != "box"}
    parent: dict = {}
    rng = random.Random(0x5EED)
    for k in range(LEARN_MATCHES):
        try:
            match = game.new_match(seats, seed=7919 * k + 1)
            _note(parent, game, match._state, secret)
            for _ in range(LEARN_DECISIONS):
                pending = match._state["pending"]
                if match._state["result"] is not None or pending is None:
                    break
                match.apply_fast(rng.randrange(len(pending["options"])))
                _note(parent, game, match._state, secret)
        except RuleError:
            continue  # a match that breaks a rule still taught us what it saw before
    known[seats] = parent
    return parent


def groups(match, seat: int) -> list[list[int]]:
    """The hidden cards of `seat`, in groups whose cards may trade places in a sample."""
    hidden = hidden_cards(match, seat)
    if not hidden:
        return []
    ents = match._state["ents"]
    parent = dict(_learned(match.game, match._state["nseats"]))
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


class Determinizer:
    """Samples of `match` as `seat` knows it; the groups are worked out once, on the first sample."""

    def __init__(self, match, seat: int) -> None:
        self.match = match
        self.seat = seat
        self._groups: list[list[int]] | None = None

    def sample(self, rng: random.Random):
        """A copy of the match with the seat's hidden cards dealt anew and fresh dice to come."""
        from .match import Match

        if self._groups is None:
            self._groups = [g for g in groups(self.match, self.seat) if len(g) > 1]
        state = copy_state(self.match._state)
        ents = state["ents"]
        for group in self._groups:
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
