"""Positions and effects for tests: put a match in a described position, resolve a card or take
an action, answer its decisions, and report what changed as plain, stable text.

One implementation with two front ends: the pytest fixtures (`ludus.pytest_plugin`) and the
`test` blocks written in .ludus files (`ludus.testblocks`, used by pytest and by `ludus test`).
"""

from __future__ import annotations

from ..compiler.probe import compile_expression, compile_rule_call, compile_statements
from ..engine import vm
from ..engine.dice import order_zone_problem
from ..engine.effect import Effect, _cards, _plain, changes, facts, result_text, unset_values
from ..engine.match import closest, order_problem, order_zone_fault, shown_value, zone_key
from ..engine.runtime import RuleError, Runtime, copy_state, forced_die
from ..language.forcing import order_card_faults
from ..language.source import Diagnostic, LudusError, Sources, Span, one_line, render, split_lines, suggest
from ..language.symbols import a_type

FLOW_ENDED = "the flow ended without a winner"
PLAY_LIMIT = 2000


class TestError(Exception):
    """A test that fails or cannot run: a message with its place in the test, never a traceback."""

    __test__ = False  # not a pytest test class

    def __init__(self, message: str, span: Span | None = None, detail: str | None = None) -> None:
        self.message, self.span, self.detail = message, span, detail
        self.also: list[TestError] = []  # the test's later failures, reported with this one
        super().__init__(message)

    def render(self, sources: Sources | None = None) -> str:
        if self.span is None:
            out = f"error: {self.message}"
        else:
            out = render(Diagnostic("error", self.message, self.span), sources)
        out += f"\n{self.detail}" if self.detail else ""
        return "\n".join([out, *(e.render(sources) for e in self.also)])

    def __str__(self) -> str:
        return self.render()


# ───────────────────────── positions ─────────────────────────


class Position:
    """A match being put in a position and driven step by step, recording what each step does."""

    def __init__(self, game, players: int | None = None, seed: int = 0) -> None:
        try:
            self.match = game.new_match(players, seed=seed)
        except ValueError as exc:
            raise TestError(str(exc)) from None
        except RuleError as err:
            raise TestError(f"the game's setup failed: {err.message}", err.span) from None
        self.game = game
        self._outer = None  # (stack, pending, result) of the match while a card's effect runs apart
        self._effect_title = None
        self._base = None
        self._steps: list[str] = []
        self._decisions: list[str] = []

    # ── describing the position ──

    def seat(self, name=None, span: Span | None = None) -> int:
        """A seat by name (or index); None: the seat deciding now, or whose turn it is."""
        names = list(self.match.seat_names())
        if name is None:
            pending = self.match.pending
            if pending is not None and pending.get("seat") is not None:
                return pending["seat"]
            turns = [s for s in self.match._state["scopes"] if s["k"] == "turn"]
            return turns[-1]["v"] if turns else 0
        if isinstance(name, int) and not isinstance(name, bool):
            if 0 <= name < len(names):
                return name
            raise TestError(f"there is no seat {name} in a {len(names)}-player match", span)
        if name not in names:
            near = suggest(name, names)
            raise TestError(f"unknown seat '{name}' (the seats are {', '.join(names)})"
                            + (f"; {near.hint}" if near else ""), span)
        return names.index(name)

    def given(self, text: str, span: Span | None = None, ask_again: bool = True) -> None:
        """Run statements that need no decision: `set coins of Amber to 3`, `move ... to hand of Amber`.
        Then the waiting decision is asked again, with options that follow the new position;
        `ask_again=False` leaves that to the next given, for a position set up in several lines
        (a hand emptied, then filled: asked in between, an empty hand would end the turn)."""
        self.refuse_if_over("set up the position with 'given'", span)
        path, line, column = _where(span, "<given>")
        try:
            fn = compile_statements(self.game, text, path, line, column)
            fn(self.match)
        except LudusError as err:
            raise TestError(_messages(err), err.diagnostics[0].span if err.diagnostics else span,
                            _hints(err)) from None
        except RuleError as err:
            raise TestError(err.message, err.span or span) from None
        if ask_again:
            self._refresh()

    def next_roll(self, sides: int, *values: int, span: Span | None = None) -> None:
        """The next rolls of a d`sides` come out as `values` (0 sides: of any die). Once the
        match is over nothing is left to roll, and the step fails, saying so."""
        self.refuse_if_over(f"force {'die' if sides == 0 else f'd{sides}'} = {', '.join(map(str, values))}", span)
        try:
            self.match.force(sides, *values)
        except ValueError as exc:
            raise TestError(str(exc), span) from None

    def next_order(self, zone: str, names: list[str], span: Span | None = None) -> None:
        """The next shuffle of `zone` ("deck@0" or "supply") puts these cards on top, in order.
        Once the match is over nothing is left to shuffle, and the step fails, saying so."""
        self.refuse_if_over(_order_text(_zone_name(zone, self.match.seat_names()), names), span)
        try:
            self.match.force_order(zone, names)
        except ValueError as exc:
            raise TestError(str(exc), span) from None

    def force_order_line(self, zone: str, seat: str | None, names: list[str], span: Span | None = None) -> None:
        """A test's `force order ZONE [of SEAT] = "A", "B"`: the next shuffle of that zone puts A
        on top, then B, as the same line does in replays and the REPL; and as there, the cards
        must be in the zone (or in the one it refills from) now. A zone, seat or card that the
        game, or this match, does not have fails the step in the words `ludus check` has for it,
        with the nearest name; once the match is over nothing is left to shuffle, and the step
        fails, saying so."""
        if not isinstance(zone, str):
            raise TestError(f"zone is a zone's name, not {shown_value(zone)}", span)
        if seat is not None and not isinstance(seat, str):
            raise TestError(f"seat is a seat's name or None, not {shown_value(seat)}", span)
        if not isinstance(names, (list, tuple)) or not all(isinstance(name, str) for name in names):
            raise TestError(f"names is a list of card names, not {shown_value(names)}", span)
        written = zone if seat is None else f"{zone} of {seat}"
        # after the end nothing is shuffled: said before the zone and the cards are looked at
        self.refuse_if_over(_order_text(written, names), span)
        nseats = len(self.match.seat_names())
        fault = order_zone_fault(self.game, nseats, zone, seat) or next(iter(order_card_faults(self.game.defs, names)), None)
        if fault is not None:
            raise TestError(fault.text(), span)
        # a zone the game never shuffles would keep the order for ever: said before the cards in
        # it are looked at, in the words `ludus check` has for the line
        problem = order_zone_problem(self.game, zone)
        if problem is not None:
            raise TestError(problem, span)
        key = zone_key(self.game, nseats, written)
        problem = order_problem(self.match, ["order", key, list(names)])
        if problem is not None:
            raise TestError(f"cannot force this order: {problem}", span)
        self.next_order(key, list(names), span=span)

    # ── steps ──

    def resolve(self, card: str, seat=None, handler: str | None = None, span: Span | None = None) -> None:
        """Run a card's `on play:` (or `handler`) effect for `seat`, apart from the flow, until it ends
        or asks a decision; answer those with `answer`. The flow's own decision is asked again after."""
        seat = self._ready_to_resolve(f"resolve '{card}'", seat, span)
        d = self.game.defs.get(card)
        if d is None:
            names = [x.name for x in self.game.defs.values()]
            near = suggest(card, names)
            raise TestError(f"unknown card '{card}'" + (f"; {near.hint}" if near else ""), span)
        if handler is None:
            handler = "play" if "play" in d.handlers or len(d.handlers) != 1 else next(iter(d.handlers))
        cid = d.handlers.get(handler)
        if cid is None:
            has = ", ".join(f"'on {h}:'" for h in d.handlers) or "none"
            raise TestError(f"'{card}' has no 'on {handler}:' effect (it has {has})", span)
        eid = self._find(card, seat)
        if eid is None:
            raise TestError(f"there is no '{card}' in this match", span)
        self._start()
        state = copy_state(self.match._state)
        verb = "played" if handler == "play" else f"resolved ('on {handler}:')"
        self._run_apart(state, cid, {"this": eid, "$cur": seat, "$act": seat}, f"the effect of '{card}'",
                        f"{card}, {verb} by {self.match.seat_name(seat)}", span)

    def resolve_rule(self, call: str, seat=None, span: Span | None = None) -> None:
        """Run a call of a rule (`"score_quarters()"`, `"deal(Amber, 3)"`) apart from the flow,
        with `seat` as the current seat (None: the seat deciding now), until the rule ends or asks
        a decision; answer those with `answer`. The flow's own decision is asked again after, as
        after `resolve` of a card. `span` is where the call's text starts in a test file."""
        seat = self._ready_to_resolve(f"resolve {one_line(call)}", seat, span)
        path, line, column = _where(span, "<resolve>")
        try:
            rule, bind, code = compile_rule_call(self.game, call, path, line, column)
        except LudusError as err:
            raise TestError(_messages(err), err.diagnostics[0].span if err.diagnostics else span,
                            _hints(err)) from None
        self._start()
        state = copy_state(self.match._state)
        env = {"$cur": seat, "$act": seat}
        log_len = len(self.match.log)
        try:
            env.update(bind(Runtime(self.game, state, self.match.log), env))
        except vm._FAILURES as exc:  # as the rules' own call of it fails: located at the call
            err = vm._located(exc, code, 0)
            del self.match.log[log_len:]
            raise TestError(f"the arguments of {one_line(call)} failed: {err.message}", err.span or span) from None
        # a rule is nobody's card: the title names the call as written and the seat it ran for
        self._run_apart(state, rule, env, f"the rule {one_line(call)}",
                        f"rule {one_line(call)}, called for {self.match.seat_name(seat)}", span)

    def _ready_to_resolve(self, doing: str, seat, span: Span | None) -> int:
        """Before a `resolve`: the match is not over, and no effect resolved before still waits
        for an answer; the seat it runs for, as a number (None: the seat deciding now)."""
        self.refuse_if_over(doing, span)
        if self._outer is not None:
            raise TestError(f"the effect of {self._effect_title} is still waiting for "
                            f"{self._waiting_text()}; answer it first", span)
        return self.seat(seat, span)

    def _run_apart(self, state: dict, code: int, env: dict, what: str, title: str, span: Span | None) -> None:
        """Run compiled block `code` with `env` on `state` (a copy of the match's), apart from the
        flow, which waits meanwhile (`_outer`), until it ends or asks a decision; the effect
        report is titled `title`. A rule's error leaves the match and its log as they were."""
        outer = (state["stack"], state["pending"], state["result"])
        state["stack"] = [{"c": code, "pc": 0, "env": env}]
        state["pending"] = None
        log_len = len(self.match.log)
        try:
            vm.run(self.game, state, self.match.log)
        except RuleError as err:
            del self.match.log[log_len:]
            raise TestError(f"{what} failed: {err.message}", err.span or span) from None
        self.match.state = state
        self._outer = outer
        self._effect_title = title
        self._settle()

    def do(self, label: str, span: Span | None = None, verb: str = "do") -> None:
        """Take a legal action or answer the decision asked now, by its label (`verb`: the
        test line's word for it, in its errors).

        An action offered by the flow runs to its end and the match stops right after it, so
        expectations and the effect report see the action alone; the next step lets the rules
        go on to the next decision."""
        self._resume(span)
        self.refuse_if_over(f"{verb} '{label}'", span)
        pending = self.match.pending
        if pending is None:
            raise TestError(f"cannot {verb} '{label}': no decision is waiting", span)
        options = self.match.legal_actions()
        if label not in options:
            # an action the flow offers, refused by its requirement or cost: say which
            why = self.match.why_not(label, detail=True) if pending["kind"] == "offer" else None
            near = closest(label, options) if why is None else []
            hint = f": {why}" if why is not None else f"; closest: {', '.join(near)}" if near else ""
            raise TestError(f"'{label}' is not a legal move now{hint}", span,
                            f"    waiting: {self._decision_text(pending)}")
        self._start()
        if self._outer is None and self._effect_title is None:
            self._steps.append(f"{self.match.seat_name(pending['seat'])}: {label}" if pending["seat"] is not None else label)
        if pending["kind"] != "chance":
            seat = self.match.seat_name(pending["seat"])
            # the flow's offer of every legal move is summed up, so a new action elsewhere in the
            # game does not change every action's snapshot; decisions inside effects list their options
            offered = (_offered(len(options)) if self._outer is None and pending["kind"] == "offer"
                       else f"options: {_options_text(options)}")
            self._decisions.append(f"{seat}: {_prompt(seat, pending['prompt'])} -> {label}  ({offered})")
        if self._outer is None and pending["kind"] == "offer":
            self._take(options.index(label), label, span)
        else:
            try:
                self.match.apply(label)
            except RuleError as err:
                raise TestError(f"'{label}' failed: {err.message}", err.span or span) from None
        self._settle()

    def _take(self, index: int, label: str, span) -> None:
        """Answer the flow's offer and run the chosen action apart from the flow, which then waits."""
        work = copy_state(self.match._state)
        log_len = len(self.match.log)
        frame = work["stack"][-1]
        op = self.game.codes[frame["c"]].ops[frame["pc"]]
        try:
            action_frame = op[1].answer(Runtime(self.game, work, self.match.log), frame["env"], work["pending"], index)
            work["pending"] = None
            frame["pc"] += 1
            if action_frame is not None:
                outer = (work["stack"], None, work["result"])
                work["stack"] = [action_frame]
                vm.run(self.game, work, self.match.log)
                self._outer = outer
        except RuleError as err:
            del self.match.log[log_len:]
            raise TestError(f"'{label}' failed: {err.message}", err.span or span) from None
        self.match.state = work
        self.match.moves.append(label)

    def _resume(self, span=None) -> None:
        """Let the rules go on to the next decision after a step that left the flow waiting."""
        state = self.match._state
        if self._outer is not None or state["pending"] is not None or state["result"] is not None or not state["stack"]:
            return
        work = copy_state(state)
        try:
            vm.run(self.game, work, self.match.log)
        except RuleError as err:
            # the error points at the rule's line: say which line of the test set the rules going
            where = (f"the test's line {span.line}" if span is not None and err.span is not None
                     and (err.span.path, err.span.line) != (span.path, span.line) else "here")
            raise TestError(f"the rules failed going on from {where}: {err.message}", err.span or span) from None
        self.match.state = work

    def answer(self, label: str, span: Span | None = None) -> None:
        """Answer the decision asked now by its label: `do`, in the words of an `answer` line."""
        self.do(label, span, verb="answer")

    def run_on(self, span: Span | None = None) -> None:
        """Let the rules go on to the next decision (or the end), as the next step would; once
        the match is over it does nothing (a test's `run on` line there fails, saying so)."""
        self._resume(span)

    def play_until(self, label: str, span: Span | None = None, limit: int = PLAY_LIMIT) -> None:
        """Take the last option of every decision (usually 'pass' or the 'else' choice) until `label`
        is a legal move."""
        self.refuse_if_over(f"play until '{label}'", span)
        for _ in range(limit):
            self._resume(span)
            if label in self.match.legal_actions():
                return
            if self.match.is_over:
                raise TestError(f"the match ended ({result_text(self.match.result, self.match.game.path)}) before '{label}' was a legal move", span)
            self.do(self.match.legal_actions()[-1], span)
        raise TestError(f"'{label}' was not a legal move in {limit} moves", span)

    # ── checking ──

    def value(self, text: str, span: Span | None = None):
        """An expression's value now, and its type."""
        path, line, column = _where(span, "<expect>")
        try:
            return compile_expression(self.game, text, path, line, column)(self.match)
        except LudusError as err:
            raise TestError(_messages(err), err.diagnostics[0].span if err.diagnostics else span,
                            _hints(err)) from None
        except RuleError as err:
            raise TestError(err.message, err.span or span) from None

    def show(self, text: str, span: Span | None = None) -> str:
        value, typ = self.value(text, span)
        return self.match.show(value, typ)

    def expect(self, text: str, span: Span | None = None) -> None:
        """Fail with the actual values unless the expression is true now. Where the two sides of
        a comparison read the same (a list of cards sorted by name, and a list of their names),
        each is said with its type, which is what tells them apart."""
        value, _typ = self.value(text, span)
        if value is True:
            return
        sides = []
        for part, literal in _comparison_sides(text):
            try:
                side_value, typ = self.value(part, span)
                shown = self.match.show(side_value, typ)
            except TestError:
                continue
            sides.append((part, literal, shown, typ))
        alike = len(sides) == 2 and sides[0][2] == sides[1][2] and sides[0][3] != sides[1][3]
        detail = []
        for part, literal, shown, typ in sides:
            if alike:
                detail.append(f"    {part} is {_type_words(typ)}" if literal else
                              f"    {part} is {shown} ({_type_words(typ)})")
            elif not literal and shown != part:  # a seat's name, say, is itself: "West is West" says nothing
                detail.append(f"    {part} is {shown}")
        raise TestError(f"expected {text}", span, "\n".join(detail) or f"    it is {_plain(value)}")

    # ── the report ──

    def effect(self, title: str | None = None) -> Effect:
        """What happened since the last report (or since the position was set): then start anew."""
        if self._base is None:
            self._start()
        before, log_len, forced = self._base
        match = self.match
        steps = "; ".join(self._steps) if self._steps else "nothing was done"
        eff = Effect(title or self._effect_title or steps)
        eff.decisions = list(self._decisions)
        seat_names = match.seat_names()
        consumed = [f for f in forced if f not in match._state["forced"]]
        for entry in match.log[log_len:]:
            t = entry["t"]
            if t == "roll":
                at = forced_die(consumed, entry["die"])  # the force this roll took, as the roll found it
                hit = consumed.pop(at) if at is not None else None
                eff.chance.append(f"d{entry['die']} -> {entry['value']}" + ("" if hit else "  (from the seed)"))
            elif t == "shuffle":
                eff.chance.append(f"shuffle {_zone_name(entry['zone'], seat_names)}: top {_cards(entry['order'][:3]) if entry['order'] else '(empty)'}")
            elif t == "log":
                eff.log.append(entry["text"])
            elif t == "reveal":
                # to whom: a card shown to one seat reads apart from one shown to the table
                to = entry.get("to")
                whom = "" if to is None else " to " + ", ".join(seat_names[s] for s in to)
                eff.log.append(f"reveal {entry['card']}{whom}")
        eff.changes = changes(before, facts(match), unset_values(match, before))
        if match.pending is not None and match._state["result"] is None:
            if self._outer is not None:
                eff.waiting = self._waiting_text()
        self._base = None
        self._decisions = []
        self._steps = []
        if self._outer is None:
            self._effect_title = None
        return eff

    # ── inside ──

    def refuse_if_over(self, doing: str, span: Span | None = None) -> None:
        """Refuse a step once the match is over: a TestError, located at `span`, that says what
        could not be done (`doing`: "run on", "do 'buy Farm'") and how the match ended. Every
        step that needs the match going checks it; a test's own step may too. An effect that
        ended the match (a card's or a rule's `win`) is over with it: nothing waits for an
        answer, and nothing is resolved, done or set up after it. (`match.is_over` is no test:
        the flow waits, between an action and the next step, with no decision asked.)"""
        result = self.match.result
        if result is not None:
            raise TestError(f"cannot {doing}: the match is over ({result_text(result, self.match.game.path)})", span)

    def _start(self) -> None:
        if self._base is None:
            self._base = (facts(self.match), len(self.match.log), [list(f) for f in self.match._state["forced"]])
            self._decisions = []

    def _find(self, card: str, seat: int):
        """The card in the seat's zones first, then anywhere (market, supply, box)."""
        ents = self.match._state["ents"]
        places = self.match._state["places"]
        mine, other = None, None
        for key, cards in places.items():
            for eid in cards:
                if ents[eid] is not None and ents[eid]["d"] == card:
                    if key.endswith(f"@{seat}") and mine is None:
                        mine = eid
                    elif other is None:
                        other = eid
        return mine if mine is not None else other

    def _settle(self) -> None:
        """After a step: if a card's effect run apart has ended, put the flow back and ask its decision again."""
        if self._outer is not None and not self.match._state["stack"]:
            state = self.match.state  # put back in place: a change from outside the rules
            stack, pending, result = self._outer
            self._outer = None
            state["stack"] = stack
            state["pending"] = pending
            if state["result"] is not None and state["result"]["reason"] == FLOW_ENDED:
                state["result"] = result
            self._refresh()

    def _refresh(self) -> None:
        """Ask the waiting decision again, so its options follow the position just changed."""
        state = self.match._state
        if self._outer is not None or state["result"] is not None or not state["stack"]:
            return
        frame = state["stack"][-1]
        op = self.game.codes[frame["c"]].ops[frame["pc"]]
        from ..engine import ops as O

        if op[0] != O.DECIDE or state["pending"] is None or state["pending"].get("kind") == "chance":
            return
        work = copy_state(state)
        work["pending"] = None
        try:
            vm.run(self.game, work, self.match.log)
        except RuleError as err:
            raise TestError(err.message, err.span) from None
        self.match.state = work

    def _decision_text(self, pending, options: bool = True) -> str:
        if pending is None:
            return "no decision is waiting"
        seat = "chance" if pending["seat"] is None else self.match.seat_name(pending["seat"])
        text = f"{seat}: {_prompt(seat, pending['prompt'])}"
        if options:
            text += f"  (options: {_options_text(pending['options'])})"
        return text

    def _waiting_text(self) -> str:
        return self._decision_text(self.match.pending)


def first_offers(game, players: int | None = None, seed: int = 0, limit: int = 2000) -> dict:
    """For each action of the game, the first time a seeded match offers it: `{action: (moves, label)}`,
    the moves that lead there from a new match and the label of one of its instances. Moves are
    picked at random from the seed, so a changed rule may lead elsewhere; the positions are for
    snapshotting every action, not for pinning one line of play."""
    import random

    rng = random.Random(seed)
    match = game.new_match(players, seed=seed)
    found: dict = {}
    while not match.is_over and len(match.moves) < limit and len(found) < len(game.actions):
        pending = match.pending
        if pending["kind"] == "offer":
            for label, value in zip(pending["options"], pending["values"], strict=True):
                if value is not None and value[0] not in found:
                    found[value[0]] = (list(match.moves), label)
        match.apply(rng.choice(match.legal_actions()))
    return {name: found[name] for name in game.actions if name in found}


def _prompt(seat: str, prompt: str) -> str:
    return prompt[len(seat) + 2:] if prompt.startswith(f"{seat}: ") else prompt


def _zone_name(key: str, seat_names) -> str:
    name, _, seat = key.partition("@")
    return f"{name} of {seat_names[int(seat)]}" if seat.isdigit() and int(seat) < len(seat_names) else key


def _order_text(zone: str, names) -> str:
    """A forced order as a test line reads it, for its errors: `force order deck of Amber = A, B`."""
    return f"force order {zone} = {', '.join(names)}"


def _where(span: Span | None, default: str) -> tuple[str, int, int]:
    if span is None:
        return default, 1, 1
    return span.path, span.line, span.column


def _messages(err: LudusError) -> str:
    return "; ".join(d.message for d in err.diagnostics) or "bad test line"


def _hints(err: LudusError) -> str | None:
    """The hints of a bad line's diagnostics ("did you mean ..."), as a TestError's detail."""
    hints = [d.hint for d in err.diagnostics if getattr(d, "hint", None)]
    return "\n".join(f"    hint: {h}" for h in hints) or None


def _type_words(typ: str) -> str:
    """A value's type as a failed expect says it: 'a list of cards', 'a text'."""
    return a_type(typ).replace("a list of entities", "a list of cards").replace("an entity", "a card")


def _comparison_sides(text: str) -> list[tuple[str, bool]]:
    """The two sides of a top-level comparison, to show their values when it fails, each with
    whether it is written as a literal (a number, a text, true, false, none), which shows itself."""
    from ..language.build import Builder
    from ..language.parser import parse

    try:
        node = Builder("<expect>").transform(parse(text, "<expect>", start="expr"))
    except Exception:  # a line that does not parse was reported already
        return []
    from ..language import nodes as n

    if not isinstance(node, n.BinOp):
        return []
    lines = split_lines(text) or [""]
    out = []
    for side in (node.left, node.right):
        s = side.span
        if s.line != s.end_line or s.line < 1:
            continue
        part = lines[s.line - 1][s.column - 1:s.end_column - 1].strip()
        if part:
            literal = part.lstrip("-").isdigit() or part.startswith('"') or part in ("true", "false", "none")
            out.append((part, literal))
    return out


__all__ = ["Effect", "Position", "TestError", "changes", "facts"]


def _offered(count: int) -> str:
    """How many moves the flow offered, for a snapshot's list of decisions."""
    return "the only option" if count == 1 else f"one of {count} options"


def _options_text(options: list[str]) -> str:
    """A decision's options in one line: joined by commas, or by semicolons where an option
    holds a comma itself (a list chosen as one option, '7, 9'), so each option reads whole."""
    return ("; " if any(", " in o for o in options) else ", ").join(options)
