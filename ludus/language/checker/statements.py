"""Checking statements: blocks, scopes, places, targets and templates."""

from __future__ import annotations

import bisect

from .. import nodes as n
from ..limits import MAX_DIE_SIDES, MAX_LIST, MAX_OPTIONS
from ..source import RETURN_HINT, Span, declared_at, suggest
from ..symbols import (
    a_type,
    compatible,
    elem_type,
    is_family,
    listlike,
)
from .base import ANYTIME_STATEMENTS, Scope, _const_false

# A `choose` without a question shows the seat `choose NAME` above its options. Cards, pieces,
# spaces and seats are shown by their names, which say what is being picked; numbers and texts say
# nothing by themselves (`0, 1, 2`; `"add a marker"` perhaps, `"defer"` hardly), so a `choose`
# among them, or of a number `from LOW to HIGH`, is warned of. A warning, not an error: the game
# runs the same, and a game played only by bots may not need the words.
BARE_OPTIONS = {"number": "one of a list of numbers", "text": "one of a list of texts"}


def _before_loop(scope: Scope) -> str:
    """The seat a decision naming no seat goes to inside an `alternate` that gives no turn."""
    if scope.flags.get("no_turn"):
        return "the first seat (no seat had the turn before the loop)"
    return "the seat whose turn it was before the loop"


class StatementChecks:
    """Checking statements and what they act on."""

    # ── statements ──

    def seats_arg(self, node, scope: Scope, what: str) -> None:
        """`win X`, `lose X`, `reveal c to X`: a seat or a list of seats."""
        if isinstance(node, n.Name):
            self.wanted = (id(node), "seat")  # `win Bleu`: an unknown seat, with the seats to choose from
        t = self.expr(node, scope)
        if not (compatible(t, "seat") or compatible(t, "list:seat")):
            self.error(f"'{what}' names a seat or a list of seats, not {a_type(t)}", node.span)

    def unasked(self, s, what: str, example: str) -> None:
        """A warning at a `choose` whose options say nothing by themselves (see BARE_OPTIONS)."""
        self.warn(
            f"'choose {s.bind}' asks for {what}: a player sees 'choose {s.bind}' and the bare options",
            self.at(s.span, s.bind),
            f'end the line with the question the seat reads, e.g. choose {s.bind} from ... "{example}"',
        )

    def blind_choice(self, s: n.Choose, t: str, et: str) -> None:
        """`choose c from pile by s blind`: a pick among cards or pieces the seat need not see,
        by their places. Among seats, numbers, texts or spaces, which every seat sees, a pick
        by place would only hide from the seat what it may read: an error at the word. Its
        options are bare numbers, so a question is wanted (a warning without one)."""
        if listlike(t) and et != "any" and not et.startswith("entity"):
            self.error(
                f"'blind' picks among cards or pieces by their places, and this is {a_type(t)}: "
                "every seat sees what it holds",
                s.blind_span,
                "drop 'blind' to name each option; 'blind' is for cards a seat may not see, "
                "as in: choose d from lots by SEAT blind \"Which disc?\"",
            )
        elif s.question is None:
            self.unasked(s, "a place in a list (blind) with no question", "Which ...?")

    def turnless(self, s, scope: Scope, what: str, named: str) -> None:
        """A warning at a decision that names no seat (`offer` without `to`, `choose` or
        `distribute` without `by`) where the seat it goes to, the one with the turn, is surely
        not the one meant. Only where that is certain from the lines around it:
        - inside an `alternate` with no `turn` between: the loop names its seat but gives it no
          turn, so the decision goes to whoever had the turn before the loop, round after round;
        - in the setup or the flow outside every `turn`: no seat has the turn, and it goes to the
          first seat.
        A rule, an action or an effect may be called from inside a turn, so one written there
        outside an `alternate` is left alone. `ask` always names its seat."""
        loop_seat = scope.flags.get("alt_seat")
        if loop_seat:
            self.warn(
                f"'alternate' does not give {loop_seat} the turn, so this {what} goes to {_before_loop(scope)}, "
                f"not to {loop_seat}",
                s.span,
                f"give it the turn: write 'turn {loop_seat}:' inside the loop around it, "
                f"or name the seat: '{named} {loop_seat}'",
            )
        elif scope.flags.get("no_turn"):
            self.warn(
                f"no seat has the turn here, so this {what} goes to the first seat",
                s.span,
                "give a seat the turn around it, as 'turn s:' inside 'for each s in seats:', "
                f"or name the seat: '{named} s'",
            )

    def turnless_call(self, s: n.CallStmt, scope: Scope) -> None:
        """A warning at a rule's call inside an `alternate` with no `turn` between, or in the
        setup or the flow outside every `turn`, where the rule (or one it calls) makes a
        decision that names no seat and is not inside a `turn` or an `alternate` of its own
        there: the decision goes to whoever had the turn before the loop, or to the first seat,
        as one written at the call does (turnless). A rule runs with the turn of its caller
        (vm.py CALL), so this is as certain as the warning at a decision written there."""
        loop_seat = scope.flags.get("alt_seat")
        no_turn = not loop_seat and scope.flags.get("no_turn")
        found = self.rule_decision(s.name, set()) if loop_seat or no_turn else None
        if found is None:
            return
        decision, what, named, rule = found
        if no_turn:
            # the setup or the flow outside every `turn`: the rule runs with no seat's turn, so
            # its decision goes to the first seat, as one written here does (turnless)
            self.warn(
                f"no seat has the turn here, so the {what} in rule '{rule}' "
                f"{declared_at(decision.span, s.span)} goes to the first seat",
                self.at(s.span, s.name),
                "give a seat the turn around the call, as 'turn s:' inside 'for each s in seats:', "
                f"or pass the seat to the rule and name it there: '{named} SEAT'",
            )
            return
        self.warn(
            f"'alternate' does not give {loop_seat} the turn, so the {what} in rule '{rule}' "
            f"{declared_at(decision.span, s.span)} goes to {_before_loop(scope)}, "
            f"not to {loop_seat}",
            self.at(s.span, s.name),
            f"give it the turn: write 'turn {loop_seat}:' inside the loop around the call, "
            f"or pass {loop_seat} to the rule and name it there: '{named} SEAT'",
        )

    def rule_decision(self, name: str, seen: set) -> tuple | None:
        """The first decision that names no seat which rule `name` makes with its caller's turn
        (not inside a `turn` or an `alternate` of its own), itself or through a rule it calls,
        as (the decision, what it is, how it names a seat, the rule it is in); or None."""
        rule = self.sym.rules.get(name)
        if rule is None or name in seen:
            return None
        seen.add(name)
        for x in n.each_node(rule.body, skip=(n.Turn, n.Alternate)):
            if isinstance(x, n.Offer) and x.seat is None:
                return x, "offer", "offer ... to", name
            if isinstance(x, (n.Choose, n.ChooseRange)) and x.by is None:
                return x, "choice", "choose ... by", name
            if isinstance(x, n.Distribute) and x.by is None:
                return x, "choice", "distribute ... by", name
            if isinstance(x, n.CallStmt):
                found = self.rule_decision(x.name, seen)
                if found is not None:
                    return found
        return None

    def block(self, stmts: tuple, scope: Scope) -> None:
        try:
            self._block(stmts, scope)
        finally:
            if scope.parent is not None and stmts:
                for name in scope.names:
                    if scope.parent.lookup(name) is None:
                        lines = self.block_names.setdefault(name, {}).setdefault(stmts[0].span.path, [])
                        bisect.insort(lines, stmts[0].span.line)

    def _block(self, stmts: tuple, scope: Scope) -> None:
        ended = None
        for s in stmts:
            if ended is not None:
                self.warn(f"this can never run: the {ended} above always leaves the block", s.span)
                ended = None
            self.stmt(s, scope)
            if isinstance(s, (n.Win, n.Lose, n.EndGame)):
                ended = "'" + type(s).__name__.lower().replace("endgame", "end game") + "'"
            elif isinstance(s, n.Break):
                ended = "'break'"

    def stmt(self, s, scope: Scope) -> None:
        sym = self.sym
        if scope.flags.get("anytime") and not isinstance(s, ANYTIME_STATEMENTS):
            self.error("'at any time' can only check conditions and end the game (if, let, for, log, win, lose, end game)", s.span)
            return
        if isinstance(s, n.Let):
            t = self.expr(s.value, scope)
            self.bind(scope, s.name, t, s.span, "let")
        elif isinstance(s, n.SetStmt):
            t = self.target(s.target, scope)
            v = self.expr(s.value, scope)
            untyped = self.untyped_var(s.target)
            if untyped is not None:
                # a var that says no type takes any value, as it always has: what it is given
                # only tells how its value is shown (infer_untyped)
                self.give(("var", untyped), v)
            elif not compatible(v, t):
                self.error(f"cannot set {a_type(t)} to {a_type(v)}", s.value.span)
        elif isinstance(s, n.Change):
            if s.op in ("increase", "decrease"):
                t = self.target(s.target, scope)
                untyped = self.untyped_var(s.target)
                if untyped is not None:
                    self.give(("var", untyped), "number")
                if not compatible(t, "number"):
                    self.error(f"'{s.op}' needs a number, and this is {a_type(t)}", s.target.span)
            else:
                self.counter_name(s.target, s.span)
                if s.seat is not None:
                    self.expect(s.seat, scope, "seat")
                    decl = self.sym.vars.get(s.target)
                    if decl is not None and decl.per is None:
                        self.error(f"'{s.target}' is one {decl.kind} for the whole game, so it has no 'for' seat",
                                   s.seat.span)
            self.expect(s.amount, scope, "number")
        elif isinstance(s, (n.AddTokens, n.RemoveTokens, n.MoveTokens)):
            if s.amount is not None:
                self.expect(s.amount, scope, "number")
            self.token_ref(s.token, s.span, scope)
            if s.token in self.sym.tokens and is_family(self.sym.tokens[s.token]):
                self.token_key(s.token, s.owner, s.span, scope)  # `add 1 Told of c.colour to c`
            elif s.owner is not None:
                self.expect(s.owner, scope, "seat")
            places = (s.source, s.dest) if isinstance(s, n.MoveTokens) else (s.place,)
            for p in places:
                self.place(p, scope)
        elif isinstance(s, n.MoveStmt):
            self.movable(s.what, scope)
            self.wanted = (id(s.dest), "zone or space")
            t = self.expr(s.dest, scope)
            if not (t in ("zone", "any") or t.startswith("space") or t.startswith("entity")):
                self.error(f"cards and pieces move to a zone or a space, not {a_type(t)}", s.dest.span)
        elif isinstance(s, n.Draw):
            self.expect(s.amount, scope, "number")
            for z, default in ((s.source, "deck"), (s.dest, "hand")):
                if z is None:
                    if default not in sym.zones:
                        self.error(f"'draw' without 'from'/'into' needs a zone named '{default}'", s.span)
                    elif is_family(sym.zones[default]):
                        self.error(f"'draw' without '{'from' if default == 'deck' else 'into'}' names the zone "
                                   f"'{default}', a family of zones: say which one", s.span)
                    else:
                        self.used.add(("zone", default))
                elif default == "hand":
                    # a card laid on a board's space (a market slot, a display) is moved there
                    source = s.source.name if isinstance(s.source, n.Name) else "ZONE" if s.source else "deck"
                    space = z.name if isinstance(z, n.Name) else "SPACE"
                    hint = ("'draw' moves cards from zone to zone; to lay the top card of a zone on a space, "
                            f"write `move top({source}) to {space}`")
                    self.expect(z, scope, "zone", lambda t, hint=hint: hint if t.startswith("space") else None)
                else:
                    self.expect(z, scope, "zone")
        elif isinstance(s, n.Shuffle):
            self.expect(s.zone, scope, "zone")
            if s.into is not None:
                self.expect(s.into, scope, "zone")
        elif isinstance(s, n.ZoneOp):
            self.movable(s.what, scope)
            if s.to is not None:
                self.seats_arg(s.to, scope, "reveal ... to")
            if s.op == "discard":
                if "discard" not in sym.zones:
                    self.error("'discard' needs a zone named 'discard'", s.span)
                elif is_family(sym.zones["discard"]):
                    self.error("'discard' puts a card on its owner's zone 'discard', which is a family of "
                               "zones here: move it to the one meant", s.span)
                else:
                    self.used.add(("zone", "discard"))
            elif s.op == "exile":
                self.used.add(("zone", "removed"))  # declared by the game to say who sees it
        elif isinstance(s, n.Create):
            if s.definition not in sym.entities:
                self.error(f"unknown card or piece '{s.definition}'", self.at(s.span, s.definition), suggest(s.definition, sym.entities))
            self.place(s.place, scope)
            if s.owner is not None:
                self.expect(s.owner, scope, "seat")
            if s.bind:
                kind = sym.entities[s.definition].kind if s.definition in sym.entities else ""
                self.bind(scope, s.bind, "entity:" + kind if kind else "entity", s.span, "as")
        elif isinstance(s, n.Roll):
            if s.count is not None:
                self.expect(s.count, scope, "number")
                self.size_limit(s.count, MAX_LIST, "dice rolled at once")
            sides = s.sides.value if isinstance(s.sides, n.Number) else s.sides
            if isinstance(sides, int) and not 1 <= sides <= MAX_DIE_SIDES:
                self.error(f"a die has 1 to {MAX_DIE_SIDES:,} faces, not {sides:,}", s.span)
            if s.kind == "sized":
                self.expect(s.sides, scope, "number")
            elif s.kind == "pool":
                self.expect(s.sides, scope, "list:number")
            self.bind(scope, s.bind, "number" if s.kind in ("one", "sized") else "list:number", s.span, "as")
        elif isinstance(s, n.Choose):
            t = self.expr(s.source, scope)
            if not listlike(t):
                self.error(f"'choose' picks from a list, not {a_type(t)}", s.source.span)
            if s.by is not None:
                self.expect(s.by, scope, "seat")
            else:
                self.turnless(s, scope, "choice", "choose ... by")
            if s.count is not None:
                self.expect(s.count, scope, "number")
            if s.question is not None:
                self.template(s.question, scope)
            et = elem_type(t)
            if s.blind:
                self.blind_choice(s, t, et)
            elif s.question is None and et in BARE_OPTIONS:
                self.unasked(s, f"{BARE_OPTIONS[et]} with no question", "Which ...?")
            self.bind(scope, s.bind, ("list:" + et) if s.count_kind else et, s.span, "choose")
        elif isinstance(s, n.ChooseRange):
            self.expect(s.low, scope, "number")
            self.expect(s.high, scope, "number")
            if isinstance(s.low, n.Number) and isinstance(s.high, n.Number):
                self.size_limit(n.Number(s.high.value - s.low.value + 1, span=s.high.span), MAX_OPTIONS,
                                "options in one decision")
            if s.by is not None:
                self.expect(s.by, scope, "seat")
            else:
                self.turnless(s, scope, "choice", "choose ... by")
            if s.question is not None:
                self.template(s.question, scope)
            else:
                self.unasked(s, "a number with no question", "How many ...?")
            self.bind(scope, s.bind, "number", s.span, "choose")
        elif isinstance(s, n.Ask):
            self.expect(s.seat, scope, "seat")
            self.template(s.question, scope)
            self.bind(scope, s.bind, "bool", s.span, "as")
        elif isinstance(s, n.Distribute):
            self.expect(s.amount, scope, "number")
            t = self.expr(s.targets, scope)
            if not listlike(t):
                self.error(f"'distribute' shares among a list, not {a_type(t)}", s.targets.span)
            if s.by is not None:
                self.expect(s.by, scope, "seat")
            else:
                self.turnless(s, scope, "choice", "distribute ... by")
            if s.question is not None:
                self.template(s.question, scope)
            self.bind(scope, s.bind, "shares", s.span, "as")
        elif isinstance(s, n.Offer):
            if not s.actions:
                self.offer_all = True
            for a in s.actions:
                if a not in sym.actions:
                    self.error(f"unknown action '{a}'", self.at(s.span, a), suggest(a, sym.actions))
                self.offered.add(a)
            if s.seat is not None:
                self.expect(s.seat, scope, "seat")
            else:
                self.turnless(s, scope, "offer", "offer ... to")
            if s.question is not None:
                self.template(s.question, scope)
            if s.bind:
                self.bind(scope, s.bind, "text", s.span, "as")
        elif isinstance(s, n.Pass):
            if scope.flags.get("alternate"):
                pass
            elif not any(scope.flags.get(f) for f in ("in_action", "in_rule", "in_handler")):
                self.error("'pass' only means something inside an 'alternate' loop", s.span)
            elif not self.game_alternates():
                # an action, rule or effect may run inside a loop written elsewhere, but a game
                # with no such loop anywhere would stop at this line with an error
                self.error("'pass' only means something inside an 'alternate' loop, "
                           "and this game has none", s.span,
                           "to let a seat decline what it is offered, write 'offer A, B else \"pass\"'")
        elif isinstance(s, n.Break):
            if not scope.flags.get("loop"):
                self.error("'break' is only allowed inside a loop", s.span)
        elif isinstance(s, (n.Win, n.Lose)):
            self.seats_arg(s.seats, scope, type(s).__name__.lower())
        elif isinstance(s, n.EndGame):
            pass
        elif isinstance(s, n.Log):
            self.template(s.text, scope)
        elif isinstance(s, n.Resolve):
            if s.handler not in sym.handlers:
                self.error(f"no card or piece has an 'on {s.handler}:' effect", self.at(s.span, s.handler), suggest(s.handler, sym.handlers))
            self.expect(s.card, scope, "entity")
        elif isinstance(s, n.CallStmt):
            rule = sym.rules.get(s.name)
            if rule is None:
                hint = RETURN_HINT if s.name == "return" else suggest(s.name, sym.rules)
                self.error(f"unknown rule '{s.name}'", self.at(s.span, s.name), hint)
            else:
                self.called_rules.add(s.name)
                if len(s.args) != len(rule.params):
                    self.error(f"rule '{s.name}' takes {len(rule.params)} argument(s), not {len(s.args)}", s.span)
                self.turnless_call(s, scope)
            params = rule.params if rule is not None and len(s.args) == len(rule.params) else ()
            for i, a in enumerate(s.args):
                if params and params[i].type is None:
                    # what an untyped parameter is given says how its value is shown; any
                    # value is taken, as the rule asks for none in particular (infer_untyped)
                    self.give(("param", s.name, i), self.expr(a, scope))
                elif params:
                    want = self.type_ref(params[i].type)
                    # a track's name passed for a `track` parameter is the track, not its marker's position
                    t = self.track_arg(a, scope) if want == "track" else self.expr(a, scope)
                    if not compatible(t, want):
                        self.error(f"rule '{s.name}' takes {a_type(want)} as '{params[i].name}', "
                                   f"and this is {a_type(t)}", a.span)
                else:
                    self.expr(a, scope)
        elif isinstance(s, n.If):
            for cond, body in s.branches:
                self.expect(cond, scope, "bool")
                if _const_false(cond):
                    self.warn("this branch can never run: its condition is always false", cond.span)
                self.block(body, scope.child())
            if s.otherwise:
                self.block(s.otherwise, scope.child())
        elif isinstance(s, n.For):
            inner = scope.child(loop=True)
            if s.end is not None:
                self.expect(s.source, scope, "number")
                self.expect(s.end, scope, "number")
                if isinstance(s.source, n.Number) and isinstance(s.end, n.Number):
                    self.size_limit(n.Number(s.end.value - s.source.value + 1, span=s.end.span), MAX_LIST,
                                    "numbers in a range")
                self.bind(inner, s.var, "number", s.span, "for")
            else:
                t = self.expr(s.source, scope)
                if not listlike(t):
                    self.error(f"'for' goes over a list, not {a_type(t)}", s.source.span)
                self.bind(inner, s.var, elem_type(t), s.span, "for")
            self.block(s.body, inner)
        elif isinstance(s, n.Repeat):
            self.expect(s.count, scope, "number")
            if isinstance(s.count, n.Number) and s.count.value <= 0:
                self.warn("this loop never runs: it repeats zero times", s.count.span)
            self.size_limit(s.count, MAX_LIST, "repeats")
            self.block(s.body, scope.child(loop=True))
        elif isinstance(s, n.While):
            self.expect(s.cond, scope, "bool")
            if _const_false(s.cond):
                self.warn("this loop never runs: its condition is always false", s.cond.span)
            self.block(s.body, scope.child(loop=True))
        elif isinstance(s, n.Alternate):
            self.expect(s.seats, scope, "list:seat")
            # the loop names its seat but does not give it the turn (only `turn` does: vm.py
            # _scope), so a decision written in it with no `turn` around goes to whoever had the
            # turn before the loop (turnless, below)
            inner = scope.child(loop=True, alternate=True, alt_seat=s.var)
            self.bind(inner, s.var, "seat", s.span, "alternate")
            self.block(s.body, inner)
            if s.one_left:
                # `until one left`: the loop's name stays, naming the seat left (vm.py ALT_NEXT),
                # for the rules after the loop that deal with it (the auction's winner)
                self.bind(scope, s.var, "seat", s.span, "alternate")
        elif isinstance(s, n.Turn):
            self.expect(s.seat, scope, "seat")
            self.block(s.body, scope.child(no_turn=False, alt_seat=None))
        elif isinstance(s, n.Phase):
            self.block(s.body, scope.child())
        else:  # pragma: no cover - the grammar has no other statements
            self.error(f"unsupported statement {type(s).__name__}", s.span)

    def untyped_var(self, target) -> str | None:
        """The name of the var a `set` or `increase` changes when that var says no type of its
        own (a counter is a number, a flag a bool), else None."""
        res = self.out.res.get(id(target))
        if res is None or res[0] not in ("var", "var_of", "var_of2"):
            return None
        decl = self.sym.vars.get(res[1])
        return res[1] if decl is not None and decl.kind == "var" and decl.type is None else None

    def give(self, key: tuple, type_: str) -> None:
        """While infer_untyped reads the game: an untyped parameter or var is given a value of
        this type here."""
        if self.given is not None:
            self.given.setdefault(key, []).append(type_)

    def size_limit(self, node, limit: int, what: str) -> None:
        """A constant size over a limit is an error now rather than at run time."""
        if isinstance(node, n.Number) and node.value > limit:
            self.error(f"{node.value:,} {what}: at most {limit:,} can be built at once", node.span)

    def movable(self, node, scope: Scope) -> None:
        """What `move`, `discard`, `exile` and `reveal` take: a card or piece, a list of them, or
        a zone or a board space, which stands for every card and piece in it (a space is a list
        of what lies on it wherever a list is read, so here too)."""
        t = self.expr(node, scope)
        if not (t in ("any", "zone", "entity", "list:any", "space") or t.startswith(("entity:", "list:entity", "space:"))):
            hint = 'write card("...") for the card itself' if t == "text" else None
            self.error(f"only cards and pieces (or the cards of a zone or a space) can be moved, not {a_type(t)}",
                       node.span, hint)

    def game_alternates(self) -> bool:
        """Whether any block of the game has an `alternate` loop, which a
        `pass` in an action, rule or effect marks the turn's seat passed in."""
        if self.alternates is None:
            self.alternates = any(isinstance(x, n.Alternate) for x in n.each_node(self.items))
        return self.alternates

    def counter_name(self, name: str, span: Span) -> None:
        decl = self.sym.vars.get(name)
        if decl is None:
            self.error(f"unknown counter '{name}'", self.at(span, name), suggest(name, self.sym.vars))
            return
        self.used.add(("var", name))
        if decl.kind != "counter":
            self.error(f"'{name}' is a {decl.kind}, and only counters are gained or paid", span)
        elif decl.per not in (None, "seat"):
            self.error(f"'{name}' is kept per {decl.per}; use increase/decrease with '{name} of ...'", span)

    def token_ref(self, name: str, span: Span, scope: Scope) -> None:
        if name in self.sym.tokens:
            self.used.add(("token", name))
            return
        t = scope.lookup(name)
        if t is not None:
            if not compatible(t, "token"):
                self.error(f"'{name}' is {a_type(t)}, not a token", span)
            return
        self.error(f"unknown token '{name}'", self.at(span, name), suggest(name, [*self.sym.tokens, *scope.all()]))

    def place(self, node, scope: Scope) -> None:
        t = self.expr(node, scope)
        if not (t in ("any", "space") or t.startswith("space:") or t.startswith("entity")):
            self.error(f"tokens are placed on a space or a card, not {a_type(t)}", node.span)

    def target(self, node, scope: Scope) -> str:
        """An assignable place: a counter, `counter of key`, a track, `entity.field`, a local."""
        t = self._target(node, scope)
        if t == "track":
            # a track held in a value (a local, a card's track property): move its marker
            self.out.track_targets.add(id(node))
            return "number"
        return t

    def _target(self, node, scope: Scope) -> str:
        sym = self.sym
        if isinstance(node, n.Name):
            if scope.lookup(node.name) is not None:
                self.note_binder(node, scope)
                return self.resolve(node, ("local", node.name), scope.lookup(node.name))
            if node.name in sym.vars:
                decl = sym.vars[node.name]
                self.used.add(("var", node.name))
                if decl.per not in (None, "seat"):
                    self.error(f"'{node.name}' is kept per {decl.per}: say whose, as '{node.name} of ...'", node.span)
                return self.resolve(node, ("var", node.name), self.var_type(decl))
            if node.name in sym.tracks:
                self.used.add(("track", node.name))
                return self.resolve(node, ("track", node.name), "number")
        if isinstance(node, n.Access) and node.name in sym.vars and (
                node.at is None or sym.vars[node.name].per is not None):  # a misused `at`: one error, from expr
            return self.expr(node, scope)
        if isinstance(node, n.Attr):
            t = self.expr(node, scope)
            if self.out.res.get(id(node), ("",))[0] in ("space_prop", "space_attr"):
                self.error(f"a space's '{node.name}' is fixed by its board and cannot be set: keep a value "
                           "that changes in a counter or var 'per' that kind of space", node.span)
            return t
        self.expr(node, scope)
        self.error("this cannot be set: set a counter, a flag, a track or a card's property", node.span)
        return "any"

    def track_arg(self, node, scope: Scope) -> str:
        """Where a track itself is meant (not its marker's position): a track's name, or a
        value of type track (a member of a group of tracks, a card's track property)."""
        if isinstance(node, n.Name) and node.name in self.sym.tracks and scope.lookup(node.name) is None:
            self.used.add(("track", node.name))
            return self.resolve(node, ("trackname", node.name), "track")
        t = self.expr(node, scope)
        if not compatible(t, "track"):
            self.error(f"expected a track here, found {a_type(t)}", node.span, suggest(getattr(node, "name", ""), self.sym.tracks))
        return "track"

    def template(self, t: n.Template, scope: Scope) -> None:
        for part in t.parts:
            if not isinstance(part, str):
                self.expr(part, scope)

