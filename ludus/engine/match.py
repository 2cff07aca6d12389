"""One playthrough of a game: current seat, legal actions, apply, undo, views and JSON.

The small fixed API (after OpenSpiel's State) that the REPL, replays, tests, the simulator and
bots all use. `apply` keeps each move's option and, every so many moves, a whole copy of the
state (see `history`): a rejected or failing move leaves the match exactly as it was, and undo
gives back the state before a move by taking the copy before it and playing the moves since
again. The rules are a function of the state and the option taken (chance included: the
generator's seed is in the state), so the moves played again do exactly what they did.
"""

from __future__ import annotations

import json
import marshal

from ..language import forcing
from ..language.forcing import OrderFault
from ..language.limits import MAX_FILE_BYTES
from ..language.source import Suggestion, nearest, suggest
from . import vm
from .dice import die_problem, forcing_problem, order_zone_problem
from .display import display, zone_text
from .hidden import has_hidden_information
from .runtime import RuleError, Runtime, box_cards, copy_state
from .saved import Damaged, forced_problem, validate_state
from .view import Watching, blind_seats, cards_among, decision_prompt, named_cards, told_instead, view_state

# The decisions whose answer (`IN`, `2`, `yes`) does not say on its own what it answers: the
# REPL says the question with it (Match.question). An offer's options are actions, or an
# `else` the rules word to say what it does.
QUESTIONS = ("choose", "number", "ask", "distribute")
CHANCE = "chance"
TERMINAL = "terminal"
_UNKNOWN = object()  # Match._sight of an answer no history entry took
FORMAT = 1
# the seeds a match takes: those its saved file holds (saved matches of larger ones are refused)
SEED_LIMIT = 1 << 64
# Moves between two whole copies of the state kept for undo. A copy costs about what a few moves
# do, so one every 32 moves costs a move a few percent; an undo plays at most 31 moves again.
CHECKPOINT_EVERY = 32


def _log_answer(log: list, pending: dict, index: int) -> None:
    """Every decision is in the log, as the actions taken already are (their effects log them):
    a `choose` answer, a yes or no, an offer's `else`."""
    if pending["seat"] is not None and (pending["kind"] != "offer" or pending["values"][index] is None):
        log.append({"t": "answer", "seat": pending["seat"], "label": pending["options"][index]})


class IllegalAction(Exception):
    """The move is not among the legal actions; carries the closest legal ones."""

    def __init__(self, action: str, legal: list[str], near: list[str]) -> None:
        self.action, self.legal, self.near = action, legal, near
        hint = f"; closest: {', '.join(near)}" if near else ""
        super().__init__(f"'{action}' is not a legal move now{hint}")


class MatchError(Exception):
    """A saved match that cannot be read (wrong format, different game, corrupt data)."""


class Match:
    def __init__(self, game, state: dict, log: list, seed: int) -> None:
        self.game = game
        self._state = state
        self.log = log
        self.seed = seed
        # One entry per move: (kept, log length before, action, option index). `kept` is the
        # whole state before the move as marshal bytes, or None: then the state before it is
        # the state before the entry ahead of it with that entry's option answered. An entry
        # keeps its copy when it is the first, every CHECKPOINT_EVERY moves, and after anything
        # changed the state other than `apply` (a state put in, a fast move, a forced outcome),
        # so that playing the entries again from a copy retraces the moves exactly. Entries
        # are immutable, so clones share them.
        self.history: list[tuple[bytes | None, int, str, int]] = []
        self.moves: list[str] = []
        self._since = None  # moves since the last kept copy; None: the next move keeps one
        # Who may see the answers and actions taken by `apply`, by their place in the log:
        # None when every seat may, else (the seats that may, what the others are told). Worked
        # out when first asked (hidden_answer), from the states around the move that the history
        # retraces, so that `apply`, which simulations call in a loop, pays nothing for it; kept
        # beside the log, not in its entries, so the log (and a saved match) stays as it is.
        self.sight: dict[int, tuple | None] = {}
        # The log's length as a saved match was loaded (from_json), 0 for a match made here: the
        # answers before it were given before the save, and no history retraces them, so who
        # may see them is known only if the file said it (the REPL reads that, Repl.cmd_load)
        self.loaded = 0
        # The log indexes [lo, hi) of the parts answered before the load of a decision in several
        # parts that was still open when the match was saved (from_json): no history retraces
        # them, and who may see them is known only up to the save (the file's `sight`, which is
        # then where a retrace of the parts after the load starts: _sight_after_load)
        self.open_at_load = (0, 0)
        # For an answer that is one part of a decision in several parts: the last history entry
        # its sight was worked out through (the part that closed the decision). Taking back
        # that entry opens the decision again, and drops the sight (undo).
        self._reach: dict[int, int] = {}
        # The question each answer in the log answered, by its place in the log, as each seat may
        # read it ({seat or None: text}), or None for one no question goes with (see `question`):
        # worked out when first asked, from the state before the move, as `sight` is
        self.asked: dict[int, dict | None] = {}

    @property
    def state(self) -> dict:
        """The match state itself, not a copy: whoever holds it may change it in place, and
        the match is then not what its moves lead to. So handing it out counts as putting it
        in from outside: the define values remembered for it are dropped (vm.memo_for), and the
        next move keeps a copy of it, so that undo keeps what was changed. A change made to it
        after a move, through a dict kept from before that move, is not seen: ask for `state`
        again. The decision waiting keeps the options it was asked with (an offer is not
        listed again). Code of ludus that only reads the state reads `_state`, which costs
        nothing."""
        if self.game.carried[0] is self._state:
            vm.forget(self.game)
        self._since = None
        return self._state

    @state.setter
    def state(self, new: dict) -> None:
        # A state put in from outside (a test's position, a probe's work copy) is not what the
        # moves in the history lead to: the next move keeps a copy of it. (`match.state =
        # match.state`, once needed after a change in place, still works, and is no longer needed.)
        if self.game.carried[0] is new:
            vm.forget(self.game)
        self._state = new
        self._since = None

    # ── construction ──

    @classmethod
    def new(cls, game, players: int | None = None, seed: int = 0, chance: str = "auto",
            forced: list | None = None) -> Match:
        """A new match; `forced` outcomes are used by setup before the generator: a list of
        ["die", sides, value] (see `force`) and ["order", zone, names] (see `force_order`).
        An argument of the wrong kind is a ValueError that names it."""
        _check_game(game, "a match")
        n = players if players is not None else game.min_players
        problem = game.players_problem(n)
        if problem is not None:
            raise ValueError(problem)
        seed = _whole(seed, "seed")
        if not -SEED_LIMIT < seed < SEED_LIMIT:
            raise ValueError(f"seed is a whole number between -2**64 and 2**64 (what a saved match holds), "
                             f"not {shown_value(seed)}")
        if chance not in ("auto", "manual"):
            raise ValueError(f"chance is 'auto' or 'manual', not {shown_value(chance)}")
        queued = _forced_list(game, forced, n)
        state = {
            "nseats": n, "vars": {}, "tokens": {}, "places": {}, "ents": [], "stack": [], "pending": None,
            "scopes": [], "alts": [], "result": None, "forced": queued, "chance": chance,
            "rng": (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & ((1 << 64) - 1),
            "tracks": {name: {"pos": t.start, "start": t.start} for name, t in game.tracks.items()},
        }
        names = game.box_names
        if names is None:
            names = game.box_names = tuple(box_cards(game))
        if names:
            state["ents"] = [{"d": name, "o": None, "l": "box"} for name in names]
            state["places"]["box"] = list(range(len(names)))
        match = cls(game, state, [], seed)
        vm.start(game, state, match.log)
        return match

    # ── the fixed API ──

    @property
    def current(self):
        if self._state["result"] is not None:
            return TERMINAL
        pending = self._state["pending"]
        if pending is None:
            return TERMINAL
        if pending["kind"] == "chance":
            return CHANCE
        return pending["seat"]

    @property
    def is_over(self) -> bool:
        return self.current == TERMINAL

    @property
    def pending(self) -> dict | None:
        return self._state["pending"]

    def legal_actions(self) -> list[str]:
        return list(self._offered())

    def _offered(self) -> list[str]:
        """The pending decision's options themselves (not a copy: for readers that change
        nothing); none once the match is over."""
        pending = self._state["pending"]
        return pending["options"] if self._state["result"] is None and pending is not None else []

    def seat_names(self) -> tuple:
        return self.game.seat_names(self._state["nseats"])

    def seat_name(self, seat) -> str:
        """The name of seat number `seat` ("chance" for CHANCE). Any other seat is a ValueError
        naming the seats: an index error says nothing of them, and -1 would name the last seat."""
        if isinstance(seat, str) and seat == CHANCE:
            return "chance"
        return self.seat_names()[self._seat(seat, ' or "chance"')]

    def _seat(self, seat, other: str = "") -> int:
        """`seat` as the index of a seat of this match, or a ValueError that names the seats (with
        `other`, what else the caller takes). A bool is refused: True would pass for seat 1."""
        names = self.seat_names()
        if not isinstance(seat, bool) and hasattr(seat, "__index__"):
            index = seat.__index__()
            if 0 <= index < len(names):
                return index
        listed = ", ".join(f"{i} {name}" for i, name in enumerate(names))
        raise ValueError(f"a seat of this match is a number from 0 to {len(names) - 1} ({listed}){other}, "
                         f"not {shown_value(seat)}")

    def apply(self, action: str | int) -> None:
        """Take one legal action (its label, or its index); raises IllegalAction or RuleError."""
        options = self._offered()
        if not isinstance(action, str):
            if isinstance(action, bool) or not hasattr(action, "__index__"):
                raise ValueError(f"an action is a legal action's label (text) or its index (a whole number), "
                                 f"not {shown_value(action)}")
            action = action.__index__()
            if not 0 <= action < len(options):
                raise IllegalAction(str(action), list(options), [])
            index = action
        else:
            try:
                index = options.index(action)
            except ValueError:
                raise IllegalAction(action, list(options), closest(action, options)) from None
        label = options[index]
        state, log_len = self._state, len(self.log)
        pending = state["pending"]
        since = self._since
        if since is None or since >= CHECKPOINT_EVERY or state["forced"] or not self.history:
            # forced outcomes are put in the state from outside (`force`, a replay's line): kept
            kept, self._since = marshal.dumps(state), 1
        else:
            kept, self._since = None, since + 1
        _log_answer(self.log, pending, index)
        try:
            vm.answer(self.game, state, self.log, index)
        except BaseException:
            # the move failed halfway: put the state back as it was, so apply stays atomic
            self._state = marshal.loads(kept) if kept is not None else self._before(len(self.history))
            self._since = None
            vm.forget(self.game)  # remembered define values follow the state (vm.memo_for)
            del self.log[log_len:]
            raise
        self.history.append((kept, log_len, label, index))
        self.moves.append(label)

    def apply_fast(self, index: int) -> None:
        """Apply by index without keeping undo history: for simulations that never undo. It logs
        what `apply` logs, and refuses an index out of range (IllegalAction) as `apply` does; a
        move that fails halfway (RuleError) is not put back. An undo after it still takes back
        the last `apply` and everything since."""
        options = self._offered()
        if not 0 <= index < len(options):
            raise IllegalAction(str(index), list(options), [])
        self._since = None
        _log_answer(self.log, self._state["pending"], index)
        vm.answer(self.game, self._state, self.log, index)

    def why_not(self, label: str, detail: bool | None = None) -> str | None:
        """Why a move that is not legal now is refused, when an offered action would have that
        label: "its requirement 'c.cost <= coins' does not hold (c.cost is 4, coins is 3)",
        "its requirement 'clues > 0 and any(...)' does not hold: 'clues > 0' is false (clues is
        0)", "it needs 6 coins, and Amber has 3". None when no offered action has such a move.

        The part of a requirement that is false and the values of its sides are read from the
        whole state, as `eval` in the REPL reads it: in a game with hidden information they may
        tell what a seat cannot see (`top(deck)`, or only that `top(deck).colour == Red` is
        false). So `detail` None (the default) gives them only in a game without hidden
        information, and otherwise the requirement whole ("its requirement '...' does not
        hold"), which the move's being refused tells anyway; True gives them always (a
        designer's view, a test, a replay), False never."""
        if not isinstance(label, str):
            raise ValueError(f"why_not takes a move's label (text), not {shown_value(label)}")
        waiting = self._offer_waiting()
        if waiting is None:
            return None
        spec, frame, pending = waiting
        try:
            if detail is None:
                detail = not has_hidden_information(self.game)
            return spec.explain(Runtime(self.game, copy_state(self._state), []), frame["env"], pending["seat"], label,
                                detail)
        except RuleError:
            return None

    def _offer_waiting(self) -> tuple | None:
        """(the offer's spec, its frame, the pending decision) of the offer waiting, or None
        when the decision waiting is no offer (or there is none)."""
        pending = self._state["pending"]
        if pending is None or pending.get("kind") != "offer" or not self._state["stack"]:
            return None
        frame = self._state["stack"][-1]
        spec = self.game.codes[frame["c"]].ops[frame["pc"]][1]
        return (spec, frame, pending) if hasattr(spec, "explain") else None

    def action_now(self, name: str, detail: bool | None = None) -> tuple[str, list[str] | str | None]:
        """Where the action `name` stands at the decision waiting, for the REPL's `show ACTION`:
        ("legal", [its moves' labels]); ("refused", why none of its moves is offered, as
        `why_not` words it, or None when it has no move to make at all: no binding of its
        parameters); ("not offered", None) when the decision waiting does not offer it (or
        there is none). `detail` as `why_not`."""
        waiting = self._offer_waiting()
        if waiting is None:
            return "not offered", None
        spec, frame, pending = waiting
        rt = Runtime(self.game, copy_state(self._state), [])
        if name not in spec.offered(rt):
            return "not offered", None
        labels = [label for label, value in zip(pending["options"], pending["values"], strict=True)
                  if isinstance(value, list) and value and value[0] == name]
        if labels:
            return "legal", labels
        if detail is None:
            detail = not has_hidden_information(self.game)
        try:
            return "refused", spec.explain(rt, frame["env"], pending["seat"], None, detail, action_name=name)
        except RuleError:
            return "refused", None

    def undo(self) -> str:
        """Take back the last action; returns its label."""
        if not self.history:
            raise IndexError("nothing to undo")
        n = len(self.history) - 1
        _kept, log_len, label, _index = self.history[n]
        self._state = self._before(n)
        del self.history[n]
        self._since = None
        vm.forget(self.game)
        del self.log[log_len:]
        # worked out for entries now gone, or through the entry taken back (the earlier parts
        # of the decision it closed, which is open again and may be answered otherwise)
        for i in [i for i in self.sight if i >= log_len or self._reach.get(i, -1) >= n]:
            del self.sight[i]
            self._reach.pop(i, None)
        for i in [i for i in self.asked if i >= log_len]:
            del self.asked[i]
        self.moves.pop()
        return label

    def hidden_answer(self, index: int, seat) -> str | None:
        """What `seat` is told of the answer or action at `index` in the log when it may not see
        what was chosen ("chose a card"), or None when it may. The designer (`seat` None) and
        the seat that chose see every answer; an answer whose sight is not known (taken by
        `apply_fast`, or before the match was loaded from JSON: no history retraces it) is
        hidden from the others, and one from before the save says that is why ("answered
        before the match was saved (not shown: the save does not say who may see it)")."""
        entry = self.log[index]
        if seat is None or entry.get("seat") == seat or entry["t"] not in ("answer", "action"):
            return None
        sight = self._sight(index)
        if sight is _UNKNOWN:
            done = "took an action" if entry["t"] == "action" else "answered"
            if index < self.loaded:
                # not "Blue answered" alone, which reads as a move the rules hid from this
                # seat: the seat may have seen it, and nothing says whether it did
                return f"{done} before the match was saved (not shown: the save does not say who may see it)"
            return done
        return None if sight is None or seat in sight[0] else sight[1]

    def _took(self, index: int) -> int | None:
        """The history entry whose move logged the entry at `index` first, or None (an entry
        logged before the match was loaded, or by `apply_fast`, which keeps no history)."""
        return next((n for n in range(len(self.history) - 1, -1, -1) if self.history[n][1] == index), None)

    def _sight(self, index: int):
        """`sight` of the answer at `index` in the log, worked out the first time it is asked;
        _UNKNOWN when no entry of the history took it. The sight of a part of a decision still
        open (a pick of `choose ..., exactly 3` with picks to come) is worked out again each
        time it is asked, and kept only once the decision is closed: the parts still to come
        may show the card."""
        lo, hi = self.open_at_load
        if lo <= index < hi:
            return self._sight_after_load(index)
        if index not in self.sight:
            n = self._took(index)
            if n is None:
                return _UNKNOWN
            sight, reach = self._sight_of(n)
            if reach is None:
                return sight
            self.sight[index] = sight
            if reach > n:
                self._reach[index] = reach
        return self.sight[index]

    def _sight_of(self, n: int) -> tuple[tuple | None, int | None]:
        """Who may see what history entry `n` chose: None when every seat may, else (the seats
        that may, what the others are told); with the last history entry that was watched to
        work it out, or None when the decision it is a part of is still open (worked out so far).

        A card it names that a seat could not see as the answer was given, and did not see at
        any moment of the move either, is hidden from that seat. A card the move shows is seen:
        played face up, even if the same move then sweeps it into a pile no one looks through
        (the last card of a trick), put on top of a pile and covered, revealed and put back.
        The move is played again on a copy of the state before it, with a runtime that watches
        the cards it names (view.Watching).

        The move of an answer that is one part of a decision asked in several parts (a pick of
        `choose cs from hand, exactly 2`, a share of a `distribute`) is the whole decision: it
        ends where the rules, the decision closed, ask the next one, as the move of its last
        part does. So the later parts are played again too, and a card picked first and shown
        once the last is picked (the picks discarded face up) is named to every seat, as it is
        at a table where the cards are laid down together. A later `choose` is a decision of
        its own, even of the same seat in the same effect (`choose c from hand` then `choose
        target from seats`): what the rules show after it is shown after another answer, and
        the window of a pick would grow with every decision that follows it (a whole turn, or
        a loop of the flow that brings the card back, shuffled, where it no longer tells the
        pick), so it ends there. (In Sushi Go a window of the seat's run of decisions would name
        the pick of a seat asked about its chopsticks before the picks are laid down, and not the
        others': each face-down pick is said alike.)"""
        state = self._before(n)
        pending, index = state["pending"], self.history[n][3]
        named = named_cards(self.game, state, pending, index)
        if not named:
            return None, n
        blind = blind_seats(self.game, state, named, [s for s in range(state["nseats"]) if s != pending["seat"]])
        if not blind:
            return None, n
        told = told_instead(self.game, state, pending, index, named)
        unseen = {s: set(named) for s in blind}
        reach = self._watch(state, n, unseen)
        blind = [s for s in blind if unseen[s]]
        if not blind:
            return None, reach
        return (tuple(s for s in range(state["nseats"]) if s not in blind), told), reach

    def _watch(self, state: dict, n: int, unseen: dict[int, set[int]]) -> int | None:
        """Play history entry `n` again on `state` (the state before it, a copy), and the entries
        after it while they answer further parts of the same decision, with runtimes that note
        in `unseen` the cards each seat saw (view.Watching). The last entry played, or None
        when the history ends with the decision still open. An entry that keeps a whole copy of
        the state (a state put in, a forced outcome, moves of `apply_fast` before it) is played
        from that copy, as `_before` would."""
        made: list[Watching] = []

        def watching(game, state, log) -> Watching:
            made.append(Watching(game, state, log, unseen))
            return made[-1]

        try:
            while True:
                vm.answer(self.game, state, [], self.history[n][3], runtime=watching)  # on this copy
                if not _still_open(state):
                    break
                if n + 1 >= len(self.history):
                    n = None
                    break
                n += 1
                if self.history[n][0] is not None:
                    state = marshal.loads(self.history[n][0])
        finally:
            vm.forget(self.game)  # the define values remembered were this copy's
        made[-1].look()  # where the rules stop: a card revealed after the last one moved shows there
        return n

    def _sight_after_load(self, index: int):
        """The sight of a part answered before the load of a decision still open then
        (open_at_load): as the file or the moves played again say it was at the save, and
        then watched through the parts answered since, to the end of the decision as `_sight_of`
        watches it. Worked out each time it is asked (the parts are few, and undo may take
        back the one that closed the decision)."""
        sight = self.sight.get(index, _UNKNOWN)
        lo, hi = self.open_at_load
        if sight is None or sight is _UNKNOWN or not self.history or self.history[0][1] != hi:
            return sight  # nothing answered since the load, or moves of `apply_fast` first
        state = self._before(0)  # the state as loaded
        if not _still_open(state):  # a state put in after the load: not the decision saved
            return sight
        pending = state["pending"]
        if pending.get("blind"):  # its parts are places, which name no card (view.named_cards)
            return sight
        given = pending["targets"] if pending["kind"] == "distribute" else pending["picked"]
        named = cards_among(self.game, state, [given[index - lo]])
        unseen = {s: set(named) for s in range(state["nseats"]) if s not in sight[0]}
        if not named or not unseen:
            return sight
        Watching(self.game, state, [], unseen).look()
        self._watch(state, 0, unseen)
        blind = [s for s in unseen if unseen[s]]
        if not blind:
            return None
        return tuple(s for s in range(state["nseats"]) if s not in blind), sight[1]

    def sights(self) -> dict[int, tuple | None]:
        """Who may see each move of the history (see `sight`), all worked out now: those of
        the parts of a decision still open as they stand now (a save records them so, and a
        load watches the parts answered after it: open_at_load)."""
        out = dict(self.sight)
        lo, hi = self.open_at_load
        indexes = [index for _kept, index, _label, _option in self.history] + list(range(lo, hi))
        for index in indexes:
            sight = self._sight(index)
            if sight is not _UNKNOWN:
                out[index] = sight
        return out

    def question(self, index: int, seat=None) -> str | None:
        """The question the answer at `index` in the log answered, as `seat` may read it (None:
        the designer), without the name of the seat asked before it: the rules' own words
        (`Which card do you play?`, with the count of a choice of several, `(1 chosen)`), or
        the words ludus puts where the rules give none (`choose target`). A `distribute` asked
        of a card `seat` may not see names it `a card`, as its view did. None for an action, an
        offer's `else` (its words say what it does), and an answer no history entry took
        (given before the match was loaded, or by `apply_fast`): nothing says what was asked.
        Worked out when first asked, from the state before the move, so `apply` pays nothing."""
        if index not in self.asked:
            entry = self.log[index] if 0 <= index < len(self.log) else {}
            n = self._took(index) if entry.get("t") == "answer" else None
            if n is None:
                return None  # not kept: an entry of the history may take it later (a loaded match's sight)
            self.asked[index] = self._asked_of(n)
        asked = self.asked[index]
        if asked is None:
            return None
        return asked.get(seat, asked[None])

    def _asked_of(self, n: int) -> dict | None:
        """The question history entry `n` answered, as each seat reads it (see `question`):
        {None: the designer's words, seat: its words where they differ}."""
        return self._asked_in(self._before(n))

    def _asked_in(self, state: dict) -> dict | None:
        """The question of the decision waiting in `state`, as each seat reads it (`_asked_of`)."""
        pending = state["pending"]
        if pending is None or pending["seat"] is None or pending["kind"] not in QUESTIONS:
            return None
        rt = Runtime(self.game, state, [])
        names = self.seat_names()
        who = f"{names[pending['seat']]}: "
        asked = {None: decision_prompt(rt, pending, None, names).removeprefix(who)}
        for seat in range(state["nseats"]):
            text = decision_prompt(rt, pending, (seat,), names).removeprefix(who)
            if text != asked[None]:
                asked[seat] = text
        return asked

    def questions(self) -> dict[int, dict | None]:
        """The question of each answer of the history (see `question`), all worked out now, in
        one pass that plays the history again from its first copy (not each move from its
        nearest copy, as `question` does): a loaded match's moves played again hand them on."""
        state = None
        for kept, index, _label, option in self.history:
            if kept is not None:
                state = marshal.loads(kept)
            if index not in self.asked:
                asked = self._asked_in(state)  # a seat's question, so its answer is at `index`
                if asked is not None:
                    self.asked[index] = asked
            vm.answer(self.game, state, [], option)
        vm.forget(self.game)  # the define values remembered were this copy's
        return dict(self.asked)

    def _before(self, n: int) -> dict:
        """The state before history entry `n` (n == len(history): the state after the last
        entry): the nearest copy kept at or before it, with the entries since answered again.
        Their log goes to a list of its own: the match's log up to entry n is already right."""
        c = min(n, len(self.history) - 1)
        while self.history[c][0] is None:
            c -= 1
        state = marshal.loads(self.history[c][0])
        again: list = []
        for _kept, _log_len, _label, index in self.history[c:n]:
            vm.answer(self.game, state, again, index)
        return state

    def clone(self) -> Match:
        other = Match(self.game, copy_state(self._state), list(self.log), self.seed)
        other.history = list(self.history)
        other.moves = list(self.moves)
        other._since = self._since
        other.sight = dict(self.sight)
        other.loaded = self.loaded
        other.open_at_load = self.open_at_load
        other._reach = dict(self._reach)
        other.asked = dict(self.asked)
        return other

    def force(self, sides: int, *values: int) -> None:
        """The next rolls of a d`sides` (0: of any die) come out as `values`, in order. A value
        no such die can show, or a die the game never rolls (dice.die_problem), is a ValueError,
        and nothing is forced."""
        sides = _whole(sides, "sides", "the die's number of faces, a whole number (0: any die)")
        values = tuple(_whole(v, "a forced value", "a face of the die, a whole number") for v in values)
        problem = forcing_problem(self.game, sides, values)
        if problem is not None:
            raise ValueError(problem)
        self._state["forced"].extend(["die", sides, v] for v in values)

    def force_order(self, zone: str, names: list[str]) -> None:
        """The next shuffle of `zone` ("supply", or "deck@0" for a seat's) puts these cards on
        top, in this order (top first). A zone or a card the game does not have is a ValueError
        that names the nearest one the game has, and nothing is forced: the order would wait for
        ever, and the match's save not load. So is a zone the game never shuffles
        (dice.order_zone_problem)."""
        if isinstance(names, str) or not isinstance(names, (list, tuple)):
            raise ValueError(f"names is a list of card names, not {shown_value(names)}")
        entry = ["order", zone, list(names)]
        problem = order_entry_problem(self.game, entry, self._state["nseats"]) or never_taken(self.game, entry)
        if problem is not None:
            raise ValueError(problem)
        self._state["forced"].append(entry)

    def view(self, seat=None) -> dict:
        """The state as `seat` may see it (None: everything, for a designer). Any other seat is
        a ValueError naming the seats: -1 or True would show a seat's view under another's name.
        A list or tuple of seats: what every one of them may see (two people at one screen)."""
        other = " or None for everything"
        if isinstance(seat, (list, tuple)):
            if not seat:
                raise ValueError("a view for several seats needs one seat at least, not none")
            return view_state(self, tuple(dict.fromkeys(self._seat(s, other) for s in seat)))
        return view_state(self, None if seat is None else self._seat(seat, other))

    @property
    def result(self) -> dict | None:
        r = self._state["result"]
        if r is None:
            return None
        names = self.seat_names()
        out = {"winners": [names[s] for s in r["winners"]], "losers": [names[s] for s in r["losers"]],
               "reason": r["reason"]}
        at = ending_place(self.game, r)
        if at is not None:
            out["at"] = at
        if "payoffs" in r:
            out["payoffs"] = dict(zip(names, r["payoffs"], strict=True))
        return out

    def payoffs(self) -> list[int]:
        """Per seat, the game's `payoff` when the match ended (a game without one: 1 won, -1
        lost, 0 when no one won or while the match runs)."""
        r = self._state["result"]
        if r is not None and "payoffs" in r:
            return list(r["payoffs"])
        if r is None or not r["winners"]:
            return [0] * self._state["nseats"]
        return [1 if s in r["winners"] else -1 for s in range(self._state["nseats"])]

    def returns(self) -> list[int]:
        """Per seat, once the match is over: its payoff (see `payoffs`); 0 while it runs."""
        if self._state["result"] is None:
            return [0] * self._state["nseats"]
        return self.payoffs()

    def scopes(self) -> list[str]:
        """Where the flow is: 'round 3', 'turn Red', 'phase Market', outermost first."""
        out = []
        for rec in self._state["scopes"]:
            if rec["k"] == "turn":
                out.append(f"turn of {self.seat_name(rec['v'])}")
            elif rec["k"] == "phase":
                out.append(f"phase {rec['n']}")
            elif rec["k"] == "each":
                continue
            else:
                out.append(f"{rec['n']} {rec.get('v', '')}".strip())
        return out

    def show(self, value, typ: str = "any") -> str:
        return display(Runtime(self.game, self._state, self.log), value, typ)

    # ── saving ──

    def to_json(self) -> str:
        return json.dumps({
            "format": FORMAT, "game": self.game.title, "fingerprint": self.game.fingerprint,
            "seed": self.seed, "state": self._state, "log": self.log, "moves": self.moves,
        }, sort_keys=True)

    @classmethod
    def from_json(cls, game, text: str) -> Match:
        """A saved match, checked whole; anything damaged is a MatchError that says what."""
        _check_game(game, "a saved match")
        if not isinstance(text, (str, bytes, bytearray)):
            raise ValueError(f"from_json reads a saved match's JSON text, not {shown_value(text)}")
        if len(text) > MAX_FILE_BYTES:
            raise MatchError(f"not a saved match: {len(text):,} characters, more than the limit of {MAX_FILE_BYTES:,}")
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise MatchError(f"not a saved match: line {exc.lineno} column {exc.colno}: {exc.msg}") from None
        except (ValueError, RecursionError) as exc:  # a number with thousands of digits; nesting too deep
            raise MatchError(f"not a saved match: {type(exc).__name__}") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise MatchError("not a saved match of this version of ludus")
        fingerprint, title = data.get("fingerprint"), data.get("game")
        if not isinstance(fingerprint, str) or not isinstance(title, str):
            lacks = "fingerprint" if not isinstance(fingerprint, str) else "game"
            raise MatchError(f"the saved match is damaged: its {lacks!r} is {'missing' if lacks not in data else 'not a text'}")
        if title != game.title:
            raise MatchError(f"it is a saved match of {title[:80]!r}, not of {game.title[:80]!r}")
        if fingerprint != game.fingerprint:
            raise MatchError(f"this match was saved from a different version of the game files ({title[:80]!r})")
        try:
            state, log, moves, seed = data["state"], data["log"], data.get("moves", []), data["seed"]
            if not (isinstance(seed, int) and not isinstance(seed, bool)) or not -(1 << 64) < seed < (1 << 64):
                raise Damaged("the seed is not a whole number in range")
            if not isinstance(log, list) or not all(isinstance(e, dict) and isinstance(e.get("t"), str) for e in log):
                raise Damaged("the log is damaged")
            if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
                raise Damaged("the list of moves is damaged")
            validate_state(game, state)
            for entry in state["forced"]:
                problem = never_taken(game, entry)
                if problem is not None:
                    raise Damaged(f"a forced outcome cannot be used: {problem}")
            _asked_again(game, state)
            match = cls(game, state, list(log), seed)
            match.moves = list(moves)
            match.loaded = len(log)
            match.open_at_load = _open_parts(match)
            # exercise it once, so a damage the checks above missed is found now, not mid-game
            match.legal_actions()
            match.scopes()
            for seat in [None, *range(state["nseats"])]:
                match.view(seat)
        except KeyError as exc:
            raise MatchError(f"the saved match is damaged: it lacks {exc}") from None
        except Damaged as exc:
            raise MatchError(f"the saved match is damaged: {exc}") from None
        except (TypeError, ValueError, IndexError, AttributeError, RuleError, RecursionError) as exc:
            raise MatchError(f"the saved match is damaged: {type(exc).__name__}: {exc}") from None
        return match


def _still_open(state: dict) -> bool:
    """Whether the decision waiting is a further part of one asked in several parts (a pick of
    `choose ..., exactly 3` after the first, a `distribute`'s share after the first): the rules
    ran nothing since the last part, which left it open."""
    pending = state["pending"]
    return (state["result"] is None and pending is not None
            and bool(pending.get("picked") or (pending["kind"] == "distribute" and pending.get("shares"))))


def _open_parts(match: Match) -> tuple[int, int]:
    """The log indexes [lo, hi) of the parts answered so far of a decision in several parts
    that a loaded match waits for (Match.open_at_load): each part logged its answer and
    nothing else, so they are the last entries of the log. (0, 0) when none waits."""
    state = match._state
    if not _still_open(state):
        return (0, 0)
    pending = state["pending"]
    parts = len(pending["shares"] if pending["kind"] == "distribute" else pending["picked"])
    hi = len(match.log)
    lo = hi - parts
    if lo < 0 or not all(e["t"] == "answer" and e.get("seat") == pending["seat"] for e in match.log[lo:hi]):
        return (0, 0)  # a log that does not end with them: nothing is worked out for them
    return (lo, hi)


def _asked_again(game, state) -> None:
    """The decision waited for in a saved state (checked whole by saved.validate_state) is asked
    again of a copy of it, by the instruction its frame stands at, and must be the very one the
    file holds: its seat, prompt, options and the values they stand for, and the progress of a
    decision in several parts (the answers given so far, answered again one by one). The rules are
    a function of the state, so a match ludus saved asks the same; any other is damage that would
    be answered for the wrong seat or with the wrong value. A roll asked of chance by hand is
    asked again from its dice and the faces so far. Here, not in saved.py, as it runs the rules."""
    pending = state["pending"]
    if pending is None:
        return
    work = copy_state(state)
    frame = work["stack"][-1]
    op = game.codes[frame["c"]].ops[frame["pc"]]
    rt = Runtime(game, work, [])
    env = frame["env"]
    try:
        if pending["kind"] == "chance":
            dice = op[1](rt, env)
            asked = vm._chance_pending(rt, dice, pending["got"]) if pending["dice"] == dice else None
        else:
            asked = op[1].start(rt, env)
            several = {"choose": "picked", "distribute": "shares"}.get(pending["kind"])
            for answer in pending.get(several, ()) if several else ():
                given = answer if several == "picked" else answer[1]
                if asked is None or given not in asked["values"]:
                    asked = None
                    break
                asked = op[1].answer(rt, env, asked, asked["values"].index(given))
    except vm._FAILURES as err:  # a RuleError, or a part of the state these checks do not reach
        why = err.message if isinstance(err, RuleError) else f"{type(err).__name__}: {err}"
        raise Damaged(f"the pending decision cannot be asked again here: {why}") from None
    if asked is None:
        raise Damaged("the pending decision is not one the rules ask here")
    shown = json.loads(json.dumps(asked))
    for key in sorted(set(shown) | set(pending)):
        if json.dumps(shown.get(key)) != json.dumps(pending.get(key)):
            raise Damaged(f"the pending decision's {key!r} is not what the rules ask in this state")


def ending_place(game, result: dict) -> list | None:
    """Where the statement that ended the match is written, [file, line] (the file as seen from
    the game file's folder: `_from_game_folder`), for a person to look
    (the REPL's game-over line, replays, failed tests); None when the result does not say (the
    flow ended, or a match saved before results said where). Not part of the reason, which
    snapshots show: the place moves when lines above it do, the reason does not."""
    at = result.get("at")
    if not (isinstance(at, list) and len(at) == 2 and at[0] in game.codes):
        return None
    spans = game.codes[at[0]].spans
    span = spans[at[1]] if isinstance(at[1], int) and 0 <= at[1] < len(spans) else None
    return None if span is None else [_from_game_folder(game.path, span.path), span.line]


def _from_game_folder(game_path, path) -> str:
    """`path` as seen from the game file's folder, with '/' between folders: the game's own file
    is its bare name, a file it imports `../shared/base.ludus`. A result is part of every view,
    which bots and other processes read: the path as this process loaded it (absolute, or from
    its working folder) would differ from one process or machine to the next."""
    import os

    try:
        rel = os.path.relpath(str(path), os.path.dirname(os.path.abspath(str(game_path))))
    except (TypeError, ValueError):  # another drive, or no path at all
        rel = os.path.basename(str(path))
    return rel.replace(os.sep, "/")


def _check_game(game, what: str) -> None:
    """A ValueError unless `game` is a loaded game (a Game: compiled rules to play)."""
    if not (hasattr(game, "players_problem") and hasattr(game, "codes")):
        raise ValueError(f"{what} is of a loaded game (ludus.load(path)), not {shown_value(game)}")


def _whole(value, name: str, meaning: str = "a whole number") -> int:
    """`value` as an int when it is a whole number (NumPy's too, which learning code hands out),
    or a ValueError naming the argument. A bool is refused: True would pass for 1."""
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        raise ValueError(f"{name} is {meaning}, not {shown_value(value)}")
    return value.__index__()


def _forced_list(game, forced, n: int) -> list:
    """The outcomes given to Match.new to force, as the state keeps them, each checked as a saved
    match's are (saved.forced_problem): one that could never be used would wait for ever."""
    if forced is None:
        return []
    if not isinstance(forced, (list, tuple)):
        raise ValueError(f"forced is a list of forced outcomes, not {shown_value(forced)}")
    out = []
    for entry in forced:
        if not isinstance(entry, (list, tuple)):
            raise ValueError(f"a forced outcome is ['die', sides, value] or ['order', zone, names], "
                             f"not {shown_value(entry)}")
        entry = list(entry)
        if len(entry) == 3 and isinstance(entry[2], tuple):
            entry[2] = list(entry[2])
        problem = order_entry_problem(game, entry, n) or never_taken(game, entry)
        if problem is not None:
            raise ValueError(f"forced: {problem}")
        out.append(entry)
    return out


def never_taken(game, entry: list) -> str | None:
    """Why a forced outcome the match can keep (saved.forced_problem) is one the game would
    never take, or None: an order of a zone it never shuffles (dice.order_zone_problem), a roll
    of a die it never rolls (dice.die_problem). It would wait in the queue for ever, while the
    session says it is forced: refused by Match.new and force_order, and by a saved match's
    load, as `ludus test`, replays and the REPL refuse the line that forces it."""
    if entry[0] == "order":
        return order_zone_problem(game, entry[1].split("@", 1)[0])
    return die_problem(game, entry[1], [entry[2]])


def order_entry_problem(game, entry, n: int) -> str | None:
    """Why an outcome given to force is not one a match of `n` seats can keep (saved.forced_problem),
    with the nearest zone or card of the game when a forced order names one it does not have, as a
    replay's `force order` line is told: "did you mean 'deck@0'?". None when it can be kept."""
    problem = forced_problem(game, entry, n)
    well_formed = (len(entry) == 3 and entry[0] == "order" and isinstance(entry[1], str)
                   and isinstance(entry[2], list) and all(isinstance(x, str) for x in entry[2]))
    if problem is None or not well_formed:  # a damaged entry is said to be one, as it is
        return problem
    _, zone, names = entry
    keys = [key for name, spec in game.zones.items() if name != "box"
            for key in ([f"{name}@{i}" for i in range(n)] if spec.per == "seat" else [name])]
    if zone != "box" and zone not in keys:
        # a zone written as a test line or a replay writes it (`deck of Amber`), or a seat's zone
        # without its seat, is named as the API takes it
        spec = game.zones.get(zone)
        key = f"{zone}@0" if spec is not None and spec.per == "seat" else zone_key(game, n, zone)
        near = Suggestion(zone, (key,)) if key is not None else suggest(zone, keys)
    else:  # the first card the game does not have, with its nearest, as a `force order` line says it
        near = forcing.order_card_faults(game.defs, names)[0].hint
    return problem if near is None else f"{problem}; {near.hint}"


def order_problem(match, entry) -> str | None:
    """Why a forced order can never apply to the match as it is now: the match holds fewer
    copies of a named card, wherever they lie (the box and `removed` too), than the order names. None
    when it can, whether or not the cards are in the zone yet: a game may gather them into it
    before it shuffles (a round that takes every card back into the deck and shuffles it, in
    one move), so where they lie is checked at the shuffle itself (Runtime._forced_order), and
    `order_note` says it as the line is read."""
    if entry[0] != "order":
        return None
    names = entry[2]
    ents = match._state["ents"]
    for name in dict.fromkeys(names):
        wanted = names.count(name)
        held = sum(1 for e in ents if e is not None and e["d"] == name and e["l"])
        if held >= wanted:
            continue
        if held:
            return f"the match holds {held} '{name}', and the order names it {wanted} times"
        return f"the match holds no '{name}' now: no copy is left to be shuffled"
    return None


def order_note(match, entry) -> str | None:
    """Where the named cards of a forced order lie when not in the zone nor in the zone its
    `refill from` brings in: the order waits for the zone's next shuffle, and that shuffle
    fails the move if they are not in it by then. None when they are all there now."""
    if entry[0] != "order":
        return None
    key, names = entry[1], entry[2]
    game, state = match.game, match._state
    spec = game.zones.get(key.split("@", 1)[0])
    sources = [key]
    if spec is not None and spec.refill:
        owner = key.partition("@")[2]
        sources.append(f"{spec.refill}@{owner}" if owner else spec.refill)
    available = [state["ents"][e]["d"] for place in sources for e in state["places"].get(place, [])]
    for name in dict.fromkeys(names):
        wanted, held = names.count(name), available.count(name)
        if held >= wanted:
            continue
        shown = zone_text(match, key)
        if held:
            return (f"{shown} holds {held} '{name}' now, and the order names it {wanted} times: the rules must "
                    f"bring the rest into {shown} before it is shuffled, or that move fails")
        where = next((e["l"] for e in state["ents"] if e is not None and e["d"] == name and e["l"]
                      and e["l"] not in sources), None)
        copies = sum(1 for e in state["ents"] if e is not None and e["d"] == name)
        found = (f" ({'a copy' if copies > 1 else 'it'} is in {zone_text(match, where)})"
                 if where and not where.startswith("#") else "")
        return (f"'{name}' is not in {shown} now{found}: the rules must bring it there before {shown} "
                "is shuffled, or that move fails")
    return None


def order_zone_fault(game, nseats: int, zone: str, seat: str | None, quote: str = "'") -> OrderFault | None:
    """What is wrong with the zone of a `force order ZONE [of SEAT]` line read against a match of
    `nseats` seats, or None: a fault `ludus check` finds in a test's line, in its words
    (language.forcing), or a seat of the game that is not at this table."""
    seats = game.seat_names(nseats)
    spec = game.zones.get(zone)
    if (spec is not None and spec.per == "seat" and seat is not None and seat not in seats
            and seat_named(seat, list(game.seat_names(game.max_players))) is not None):
        return OrderFault(f"no seat '{seat}' in this match (its seats are {', '.join(seats)})", "seat", seat)
    return forcing.order_zone_fault(game.zones, seats, zone, seat, quote, game.families)


def zone_key(game, nseats: int, text: str) -> str | None:
    """`deck of Amber` (or `deck of amber`) -> `deck@0`, `supply` -> `supply`; None when there is no such zone."""
    name, sep, seat = text.partition(" of ")
    name, seat = name.strip(), seat.strip()
    spec = game.zones.get(name)
    if spec is None:
        return None
    if spec.per == "seat":
        # the seat in any case (`deck of amber`), as `view amber` and `expect winner amber` take it
        index = seat_named(seat, list(game.seat_names(nseats))) if sep else None
        return None if index is None else f"{name}@{index}"
    return None if sep else name


def shown_value(value) -> str:
    """A value as an error message shows it: as given (a text in quotes, so "2" is not taken for
    the number 2), cut short when long."""
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:20]}... ({type(value).__name__})"


def seat_named(text: str, names: list[str]) -> int | None:
    """The seat that `text` names, in any case (`amber` is Amber, as the REPL's `show amber`, a
    replay's `expect winner amber` and `--bot amber=...` read it): a seat spelt exactly wins, and
    a name two seats share but for case names neither; None when it names no seat."""
    if text in names:
        return names.index(text)
    found = [i for i, name in enumerate(names) if name.casefold() == text.casefold()]
    return found[0] if len(found) == 1 else None


def closest(action: str, options: list[str], n: int = 3) -> list[str]:
    lowered = {o.lower(): o for o in options}
    near = nearest(action.lower(), list(lowered), n, cutoff=0.4)  # equally near: in the order offered
    found = [lowered[x] for x in near]
    if not found:
        found = [o for o in options if action.lower() in o.lower()][:n]
    return found
