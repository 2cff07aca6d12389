"""Statements become instructions: each statement node has its `s_<Node>` method."""

from __future__ import annotations

from ..engine import ops as O
from ..engine.display import display
from ..engine.runtime import READ, RuleError
from ..engine.values import (
    as_entities,
    as_int,
    as_list,
    as_seat,
    as_size,
    as_track,
    number_range,
    pair_key,
    token_member,
)
from ..language import nodes as n
from ..language.symbols import elem_type


class StatementCompiler:
    """Emitting instructions for statements, loops and scopes."""

    # ── statements ──

    def stmt(self, s) -> None:
        if self.pystmts is not None:
            fn = self.pystmts.function(s)  # generated source (pystatements.py), or None
            if fn is not None:
                self.exec(s, fn)
                return
        meth = getattr(self, "s_" + type(s).__name__)
        meth(s)

    def exec(self, s, fn) -> None:
        self.emit(O.EXEC, s.span, fn)

    def s_Let(self, s: n.Let) -> None:
        value, name = self.expr(s.value), s.name

        def run(rt, env):
            env[name] = value(rt, env)
        self.exec(s, run)

    def s_SetStmt(self, s: n.SetStmt) -> None:
        setter = self.setter(s.target)
        value = self.expr(s.value)
        self.exec(s, lambda rt, env: setter(rt, env, value(rt, env)))

    def s_Change(self, s: n.Change) -> None:
        amount = self.expr(s.amount)
        if s.op in ("increase", "decrease"):
            if id(s.target) in self.c.track_targets:
                which = self.expr(s.target)

                def getter(rt, env):
                    return rt.state["tracks"][as_track(rt, which(rt, env))]["pos"]
            else:
                getter = self.expr(s.target)
            setter = self.setter(s.target)
            sign = 1 if s.op == "increase" else -1

            def run(rt, env):
                setter(rt, env, getter(rt, env) + sign * as_int(amount(rt, env), "amount"))
            self.exec(s, run)
            return
        name, op = s.target, s.op
        spec_per = self.sym.vars[name].per
        seat = self.expr(s.seat) if s.seat is not None else None

        def change(rt, env):
            key = (seat(rt, env) if seat else env.get("$act")) if spec_per == "seat" else None
            have = rt.get_var(name, key)
            value = as_int(amount(rt, env), "amount")
            if op == "pay":
                if value > have:
                    who = f"{rt.seat_name(key)} has" if key is not None else "there is"
                    raise RuleError(f"cannot pay {value} {name}: {who} only {have}")
                rt.set_var(name, key, have - value)
            else:
                rt.set_var(name, key, have + value)
        self.exec(s, change)

    def token_fn(self, name: str, key=None):
        """The token a statement or a count names: a token, a local holding one, or a member of
        a family named by its key (`Told of c.colour`, `key` the node of its key)."""
        family = self.sym.token_family(name)
        if family is not None:
            of = self.expr(key)
            return lambda rt, env: token_member(family, of(rt, env))
        if name in self.sym.tokens:
            return lambda rt, env: name
        return lambda rt, env: env[name]

    def token_owner(self, s):
        """Who owns the tokens a statement names: its `of`, else the actor's for a token kept per
        seat; no one's for a member of a family of tokens, whose `of` is its key."""
        if self.sym.token_family(s.token) is not None:
            return lambda rt, env: None
        if s.owner is not None:
            return self.expr(s.owner)
        per = self.sym.tokens[s.token].per if s.token in self.sym.tokens else None
        if per == "seat":
            return lambda rt, env: env.get("$act")
        return lambda rt, env: None

    def s_AddTokens(self, s: n.AddTokens) -> None:
        amount, token, place = self.expr(s.amount), self.token_fn(s.token, s.owner), self.expr(s.place)
        owner = self.token_owner(s)
        self.exec(s, lambda rt, env: rt.add_tokens(token(rt, env), owner(rt, env), place(rt, env), as_int(amount(rt, env), "amount")))

    def token_given_owner(self, s):
        """The owner `remove` and `move` name with `of` (None: any owner's tokens); a member of a
        family of tokens is no one's, its `of` the key."""
        if s.owner is None or self.sym.token_family(s.token) is not None:
            return lambda rt, env: None
        return self.expr(s.owner)

    def s_RemoveTokens(self, s: n.RemoveTokens) -> None:
        amount = self.expr(s.amount) if s.amount is not None else None
        token, place = self.token_fn(s.token, s.owner), self.expr(s.place)
        owner = self.token_given_owner(s)

        def run(rt, env):
            rt.remove_tokens(token(rt, env), owner(rt, env), place(rt, env),
                             None if amount is None else as_int(amount(rt, env), "amount"))
        self.exec(s, run)

    def s_MoveTokens(self, s: n.MoveTokens) -> None:
        amount, token = self.expr(s.amount), self.token_fn(s.token, s.owner)
        src, dst = self.expr(s.source), self.expr(s.dest)
        owner = self.token_given_owner(s)

        def run(rt, env):
            tok, own = token(rt, env), owner(rt, env)
            want = as_int(amount(rt, env), "amount")
            source = src(rt, env)
            owners = [own] if own is not None else rt._owners_at(tok, rt.place_key(source))
            moved = 0
            for o in owners:
                got = rt.remove_tokens(tok, o, source, want - moved)
                rt.add_tokens(tok, o, dst(rt, env), got)
                moved += got
                if moved >= want:
                    break
        self.exec(s, run)

    def s_MoveStmt(self, s: n.MoveStmt) -> None:
        what, dest, bottom = self.expr(s.what), self.expr(s.dest), s.bottom

        def run(rt, env):
            target = dest(rt, env)
            if isinstance(target, int) and not isinstance(target, bool):
                raise RuleError("cards and pieces move to a zone or a space, not onto a card")
            if target is None:
                raise RuleError("cannot move to 'none'")
            rt.move_entities(as_entities(rt, what(rt, env), "move"), target, bottom)
        self.exec(s, run)

    def s_Draw(self, s: n.Draw) -> None:
        amount = self.expr(s.amount)
        game = self.game
        src = self.expr(s.source) if s.source is not None else self.default_zone("deck")
        dst = self.expr(s.dest) if s.dest is not None else self.default_zone("hand")
        self.emit(O.DRAW, s.span, amount, src, dst, game)

    def default_zone(self, name: str):
        """`draw 1`: the actor's deck and hand, or the game's one shared deck (or hand) when it has no other."""
        spec = self.game.zones.get(name)
        if spec is not None and spec.per is None:
            return lambda rt, env: name
        return lambda rt, env: f"{name}@{env.get('$act')}"

    def s_Shuffle(self, s: n.Shuffle) -> None:
        zone = self.expr(s.zone)
        into = self.expr(s.into) if s.into is not None else None
        self.emit(O.SHUFFLE, s.span, zone, into)

    def s_ZoneOp(self, s: n.ZoneOp) -> None:
        what, op = self.expr(s.what), s.op
        to = self.expr(s.to) if s.to is not None else None

        def run(rt, env):
            seats = None
            if to is not None:
                chosen = to(rt, env)
                seats = sorted({as_seat(rt, x, "reveal ... to") for x in (chosen if isinstance(chosen, list) else [chosen])})
            for eid in as_entities(rt, what(rt, env), op):
                if op == "discard":
                    owner = rt.ent(eid)["o"]
                    if owner is None:
                        raise RuleError(f"'{rt.ent(eid)['d']}' belongs to no seat, so it has no discard pile")
                    rt.move_entity(eid, f"discard@{owner}")
                elif op == "exile":
                    rt.move_entity(eid, "removed")
                elif seats is None:
                    e = rt.ent(eid)
                    e["rev"] = True
                    rt.log.append({"t": "reveal", "card": e["d"]})
                else:
                    # shown to these seats only, until it moves; the log tells the others no more
                    e = rt.ent(eid)
                    e["see"] = sorted(set(e.get("see", [])) | set(seats))
                    rt.log.append({"t": "reveal", "card": e["d"], "to": seats})
        self.exec(s, run)

    def s_Create(self, s: n.Create) -> None:
        place, defname, bind = self.expr(s.place), s.definition, s.bind
        owner = self.expr(s.owner) if s.owner is not None else (lambda rt, env: env.get("$act"))

        def run(rt, env):
            where = place(rt, env)
            if isinstance(where, int) and not isinstance(where, bool):
                raise RuleError("a card or piece is created in a zone or on a space, not on a card")
            eid = rt.create_entity(defname, owner(rt, env), where)
            if bind:
                env[bind] = eid
        self.exec(s, run)

    def s_Roll(self, s: n.Roll) -> None:
        count = self.expr(s.count) if s.count is not None else None
        if s.kind == "one":
            sides = s.sides
            spec = (lambda rt, env: [sides], False)
        elif s.kind == "many":
            sides = s.sides
            spec = (lambda rt, env: [sides] * as_size(count(rt, env), "number of dice"), True)
        elif s.kind == "sized":
            f = self.expr(s.sides)
            spec = (lambda rt, env: [as_int(f(rt, env), "die size")], False)
        else:
            f = self.expr(s.sides)
            spec = (lambda rt, env: [as_int(x, "die size") for x in as_list(rt, f(rt, env))], True)
        self.emit(O.ROLL, s.span, spec[0], spec[1], s.bind)

    def s_Choose(self, s: n.Choose) -> None:
        from .decisions import ChooseSpec
        et = elem_type(self.c.types.get(id(s.source), "any"))
        spec = ChooseSpec(
            s.bind, self.expr(s.source), self.expr(s.by) if s.by is not None else None,
            s.count_kind, self.expr(s.count) if s.count is not None else None, et, self.question(s.question),
            s.blind,
        )
        self.emit(O.DECIDE, s.span, spec)

    def s_ChooseRange(self, s: n.ChooseRange) -> None:
        from .decisions import RangeSpec
        spec = RangeSpec(s.bind, self.expr(s.low), self.expr(s.high), self.expr(s.by) if s.by is not None else None,
                         self.question(s.question))
        self.emit(O.DECIDE, s.span, spec)

    def s_Ask(self, s: n.Ask) -> None:
        from .decisions import AskSpec
        self.emit(O.DECIDE, s.span, AskSpec(s.bind, self.expr(s.seat), self.template(s.question)))

    def s_Distribute(self, s: n.Distribute) -> None:
        from .decisions import DistributeSpec
        et = elem_type(self.c.types.get(id(s.targets), "any"))
        spec = DistributeSpec(s.bind, self.expr(s.amount), self.expr(s.targets),
                              self.expr(s.by) if s.by is not None else None, et, self.question(s.question))
        self.emit(O.DECIDE, s.span, spec)

    def question(self, t: n.Template | None):
        return None if t is None else self.template(t)

    def s_Offer(self, s: n.Offer) -> None:
        from .decisions import OfferSpec
        names = list(s.actions) if s.actions else None
        spec = OfferSpec(names, self.expr(s.seat) if s.seat is not None else None, s.stop_label, s.bind,
                         self.question(s.question), s.span)
        self.emit(O.DECIDE, s.span, spec)

    def s_Pass(self, s: n.Pass) -> None:
        self.emit(O.PASS, s.span)

    def s_Break(self, s: n.Break) -> None:
        start = self.here()
        patches, scopes, is_alt = self.loops[-1]
        for _ in range(scopes):
            self.emit(O.UNSCOPE, s.span)
        if is_alt:
            self.emit(O.ALT_POP, s.span)
        patches.append(self.emit(O.JUMP, s.span, -1))
        self.code.shapes[start] = ("break", self.here())

    def s_Win(self, s: n.Win) -> None:
        self.ending(self.emit(O.WIN, s.span, self.expr(s.seats)), s.span, "win")

    def s_Lose(self, s: n.Lose) -> None:
        self.ending(self.emit(O.LOSE, s.span, self.expr(s.seats)), s.span, "lose")

    def s_EndGame(self, s: n.EndGame) -> None:
        self.ending(self.emit(O.END, s.span), s.span, "end game")

    def ending(self, pc: int, span, keyword: str) -> None:
        """Keep the statement that ends the game at `pc` as written, for the result's reason:
        its text, unlike its line, stays the same when lines above it are added or removed.
        Without the game's sources (or a span), the statement's keyword."""
        sources = self.game.sources
        text = sources.text_at(span) if sources is not None else None
        self.code.ends[pc] = ending_text(text) if text else keyword

    def s_Log(self, s: n.Log) -> None:
        text = self.template(s.text)
        self.exec(s, lambda rt, env: rt.log.append({"t": "log", "text": text(rt, env)}))

    def s_Resolve(self, s: n.Resolve) -> None:
        card, handler = self.expr(s.card), s.handler
        self.emit(O.RESOLVE, s.span, card, handler)

    def s_CallStmt(self, s: n.CallStmt) -> None:
        params = [p.name for p in self.sym.rules[s.name].params]
        bind = self.pystmts.bind(params, s.args) if self.pystmts is not None else None
        if bind is None:
            args = [self.expr(a) for a in s.args]

            def bind(rt, env):
                return {p: a(rt, env) for p, a in zip(params, args, strict=True)}
        self.emit(O.CALL, s.span, f"rule {s.name}", bind)

    def s_If(self, s: n.If) -> None:
        start = self.here()
        branches = []
        for cond, body in s.branches:
            jf = self.emit(O.JUMPF, cond.span, self.expr(cond), -1)
            self.stmts(body)
            branches.append((jf, self.emit(O.JUMP, None, -1)))
            self.patch(jf, self.here())
        if s.otherwise:
            self.stmts(s.otherwise)
        for _jf, end in branches:
            self.patch(end, self.here())
        # for regions.py: each branch's test and closing jump; after the last, the `else`
        self.code.shapes[start] = ("if", self.here(), tuple(branches))

    def loop(self, s, var_label: str | None, init, head, body: tuple, is_alt: bool = False, label_fn=None,
             scope_kind: str = "loop", label_of: tuple | None = None) -> None:
        """Every loop's shape: `init(slot)`, then `head(slot)` that jumps out when done, the body,
        and a jump back to the head. `break` jumps to the end, closing what the body opened."""
        slot = self.new_slot()
        start = self.here()
        init(slot)
        top = self.here()
        exit_at = head(slot)
        scope_at = self.emit(O.SCOPE, s.span, scope_kind, var_label, label_fn) if var_label else None
        body_at = self.here()
        patches: list = []
        self.loops.append((patches, 1 if var_label else 0, is_alt))
        self.stmts(body)
        self.loops.pop()
        unscope_at = self.emit(O.UNSCOPE, None) if var_label else None
        back = self.emit(O.JUMP, None, top)
        self.patch(exit_at, self.here())
        for p in patches:
            self.patch(p, self.here())
        # for regions.py: where the loop's parts are (the body ends at the UNSCOPE or the jump back)
        # (`label_of`: the variable and type `label_fn` shows)
        self.code.shapes[start] = ("loop", self.here(), top, scope_at, body_at,
                                   back if unscope_at is None else unscope_at, back, label_of)

    def s_For(self, s: n.For) -> None:
        var = s.var
        if s.end is not None:
            lo, hi = self.expr(s.source), self.expr(s.end)

            def source(rt, env):
                return number_range(rt, lo(rt, env), hi(rt, env))
        else:
            src = self.expr(s.source)

            def source(rt, env):
                return as_list(rt, src(rt, env))
        vtype = "number" if s.end is not None else elem_type(self.c.types.get(id(s.source), "any"))
        self.loop(s, var, lambda slot: self.emit(O.ITER, s.span, slot, source),
                  lambda slot: self.emit(O.NEXT, s.span, slot, var, -1), s.body,
                  label_fn=lambda rt, env: display(rt, env.get(var), vtype), label_of=(var, vtype),
                  # a counted loop ('round 3') says where play is; a loop over a list is a label only
                  scope_kind="loop" if s.end is not None else "each")

    def s_Repeat(self, s: n.Repeat) -> None:
        count = self.expr(s.count)
        self.loop(s, None, lambda slot: self.emit(
            O.ITER, s.span, slot, lambda rt, env: list(range(as_size(count(rt, env), "number of repeats")))),
            lambda slot: self.emit(O.NEXT, s.span, slot, None, -1), s.body)

    def s_While(self, s: n.While) -> None:
        cond = self.expr(s.cond)
        self.loop(s, None, lambda slot: None, lambda slot: self.emit(O.JUMPF, s.cond.span, cond, -1), s.body)

    def s_Alternate(self, s: n.Alternate) -> None:
        seats = self.expr(s.seats)
        var = s.var
        self.loop(s, None, lambda slot: self.emit(O.ALT_INIT, s.span, seats),
                  lambda slot: self.emit(O.ALT_NEXT, s.span, var, s.one_left, -1), s.body, is_alt=True)

    def s_Turn(self, s: n.Turn) -> None:
        self.scoped(s, "turn", "turn", self.expr(s.seat), s.body)

    def s_Phase(self, s: n.Phase) -> None:
        self.scoped(s, "phase", s.name, None, s.body)

    def scoped(self, s, kind: str, label: str, fn, body: tuple) -> None:
        """A turn or phase: open its scope, run the body, close it; a `break` from a loop
        around it closes it too, so the enclosing loop counts it while the body compiles."""
        start = self.emit(O.SCOPE, s.span, kind, label, fn)
        self._count_scope(+1)
        self.stmts(body)
        self._count_scope(-1)
        self.emit(O.UNSCOPE, None)
        self.code.shapes[start] = ("scope", self.here())

    def _count_scope(self, delta: int) -> None:
        if self.loops:
            patches, scopes, is_alt = self.loops[-1]
            self.loops[-1] = (patches, scopes + delta, is_alt)

    def walk_names(self, node, visit) -> bool:
        """Go through an expression's nodes; `visit(res, walk)` is called with each resolved name
        (and the walk, to follow a define's or value's body). False from it ends the walk with
        False; otherwise the walk goes on into every field but the span."""
        def walk(x) -> bool:
            for node in n.each_node(x):
                res = self.c.res.get(id(node))
                if res is not None and visit(res, walk) is False:
                    return False
            return True

        return walk(node)

    def dependencies(self, node, seen=None) -> frozenset | None:
        """The names of the state an 'at any time' block (or a `becomes` condition) reads, so it
        is re-checked only when one of them changes; None when that cannot be told (then it is
        checked after every change). They are the names a define's remembered value depends on
        (state_read, which misses nothing: the cards on a space found as the rules run, say), as
        Runtime.changed reports them: a zone's cards and their order ("@deck") under the zone's
        name, a property set on a card (".damage") under "$ents"."""
        read = self.state_read(node)
        if read is None or "$alts" in read:
            return None  # `passed(s)`: the alternate loop is not reported as a change
        return frozenset(name[1:] if name[0] == "@" else "$ents" if name[0] == "." else name for name in read)

    def define_memo_tables(self) -> None:
        """The game's tables for Runtime.touch, from every define's dependencies (vm.memo_for
        has them made when a match of the game first runs)."""
        g = self.game
        self.recorded = g.define_recorded  # the defines whose generated bodies record their reads
        deps = {name: self.define_dependencies(name) for name in self.sym.defines}
        unknown = tuple(name for name, d in deps.items() if d is None)
        readers: dict = {}
        for name, d in deps.items():
            for dep in d or ():
                readers.setdefault(dep, []).append(name)
        g.define_unknown = unknown
        g.define_drops = {dep: tuple(names) + unknown for dep, names in readers.items()}
        g.define_fixed = frozenset(name for name, d in deps.items() if d == frozenset())
        # a define that reads a token only at a place it is given, or at places it records as it
        # runs: a change of that token at one place drops only its values for that place
        # (Runtime.touch_at)
        places: dict = {}
        for name in self.sym.defines:
            for token, index in (self.token_places(name) or {}).items():
                if index is not None:
                    places.setdefault(token, {})[name] = index
        g.define_token_places = places
        g.define_place_args = {name: self.place_args(name) for name in self.sym.defines if self.place_args(name)}
        g.define_reading = self.reading_defines()

    def reading_defines(self) -> frozenset:
        """The defines whose remembered values are indexed by the places each one read while
        it ran (READ in token_places), as their generated functions record them."""
        return frozenset(name for name in self.sym.defines if READ in (self.token_places(name) or {}).values())

    def place_args(self, name: str) -> tuple:
        """The indexes of a define's arguments that some token is read at (see token_places):
        its remembered values are indexed by the places these name (runtime.index_places)."""
        return tuple(sorted({i for i in (self.token_places(name) or {}).values() if i is not None and i != READ}))

    def same_places(self, recorded: frozenset | None) -> frozenset | None:
        """None in place of `recorded` when it makes no difference to token_places: every define
        that would be indexed by what it reads if every body recorded does record. The answers
        are then those worked out while the bodies were generated, not worked out again."""
        if recorded is None:
            return None
        known = self.__dict__.setdefault("_same_places", {})
        if recorded not in known:
            readers = self.with_recorded(None, self.reading_defines)
            known[recorded] = None if readers <= recorded else recorded
        return known[recorded]

    def with_recorded(self, recorded: frozenset | None, fn):
        """fn() with token_places answering for the defines `recorded` (None: as if every body
        recorded, as while the bodies are generated)."""
        saved, self.recorded = getattr(self, "recorded", None), recorded
        try:
            return fn()
        finally:
            self.recorded = saved

    def read_args(self, name: str) -> tuple:
        """The indexes of the arguments a define reads some token at, however its table is
        indexed: a call of it inside a define indexed by what it reads records these places
        (SourceGen). As place_args, before a define indexed by what it reads loses them
        (`token_places`), and with no `recorded`, so that a define whose body turns out not to
        record has them recorded too where it is called."""
        self.with_recorded(None, lambda: self.token_places(name))
        return self.__dict__.get("_read_args", {}).get(name, ())

    def token_names(self, name: str | None = None) -> list:
        """The tokens the state keeps for token `name` (None: for every token): itself, or each
        member of a family of tokens (`Told red`, ...), which is what changes."""
        out = []
        for token in self.sym.tokens if name is None else (name,):
            family = self.sym.token_family(token)
            out.extend(family.members() if family is not None else (token,))
        return out

    def token_places(self, name: str) -> dict | None:
        """For each token a define reads: the index of its parameter that every read of the token
        takes its place from (`Follower of s at r`, or another define handed that parameter where
        it reads the token so); READ when it reads the token at places worked out as it runs
        (`Disc at c for c in cells where ...`, `owner_at(x) for x in line(c, d, 4)`): then its
        generated function records each place it reads, every token of the define is READ, and
        its values are indexed by the places they read; None when it reads the token with no
        place (a total). None for the whole when the define reads anything this cannot follow
        (a property or a value that reads tokens, a var's start expression, tokens named by a
        local): then every change of any token drops it whole.

        READ needs the define's generated body to record every read (`recorded`, the game's
        define_recorded once it is compiled; None while the bodies are generated, to say which
        calls record their arguments): a define compiled otherwise has None instead."""
        recorded = self.same_places(getattr(self, "recorded", None))
        cache = self.__dict__.setdefault("_token_places", {}).setdefault(recorded, {})
        if name in cache:
            return cache[name]
        cache[name] = None  # while it is worked out: a define that reaches itself is not followed
        decl = self.sym.defines[name]
        params = [p.name for p in decl.params or ()]
        found: dict = {}
        sym = self.sym
        runs = READ if recorded is None or name in recorded else None  # what a place not given gets

        def param_at(node):
            res = self.c.res.get(id(node))
            if res is not None and res[0] == "local" and res[1] in params:
                return params.index(res[1])
            return runs

        # a read at each space of a kind in turn, as a loop over them reads whatever it finds:
        # its values would be listed under every place, so it is counted as a read with no
        # place (`sum(Follower of s at r for r in regions)`, `owner_at(c) == s ... for c in cells`)
        everywhere: set = set()
        nodes = list(n.each_node(decl.value))
        for x in nodes:
            if x.__class__ is n.Comprehension:
                src = self.c.res.get(id(x.source))
                if src is not None and (src[0] == "space_kind" or src == ("builtin", "spaces")):
                    everywhere.update((id(y), x.var) for y in always_run(x.elem if x.cond is None else x.cond))

        def place_of(x, node):  # the index `read` takes for a read or a call `x` at `node`
            res = self.c.res.get(id(node))
            if res is not None and res[0] == "local" and (id(x), res[1]) in everywhere and res[1] not in params:
                return None
            return param_at(node)

        def read(token, index) -> None:
            if token in found and found[token] != index:
                was = found[token]
                found[token] = None if was is None or index is None or runs is None else READ
            else:
                found.setdefault(token, index)

        def follows(x) -> bool:  # one node of the define's value
            if x.__class__ is n.Comprehension and x.var in params:
                return False  # a loop's name hides a parameter: not followed
            res = self.c.res.get(id(x))
            if res is not None:
                tag = res[0]
                if tag == "tokens":
                    if res[2]:
                        return False
                    family = sym.token_family(res[1])
                    for token in family.members() if family is not None else (res[1],):  # any member may be read
                        read(token, place_of(x, x.at) if x.at is not None else None)
                elif tag == "define":
                    inner = self.token_places(res[1])
                    if inner is None:
                        return False
                    args = getattr(x, "args", ())
                    for token, j in inner.items():
                        if j == READ:  # its function hands on the places it read
                            read(token, runs)
                        else:
                            read(token, place_of(x, args[j]) if j is not None and j < len(args) else None)
                elif tag in ("var", "var_of", "var_of2"):
                    start = sym.vars[res[1]].start
                    if start is not None and not isinstance(start, (n.Number, n.String, n.Bool)):
                        return False
                elif tag in ("space_attr", "space_prop", "dynamic_attr", "field", "value"):
                    return self.reads_no_tokens(tag, res[1])
                elif tag not in ("local", "trackname", "token", "group", "space_kind", "space", "defname",
                                 "seat", "builtin", "seat_name", "zone", "zone_of", "zone_member", "pieces", "entity_kind",
                                 "entity_attr", "track", "track_attr", "aggregate", "builtin_fn"):
                    return False  # it leads to expressions written elsewhere (properties, values)
            return True

        if not all(follows(x) for x in nodes):
            found = None
        if recorded is None:  # see read_args
            self.__dict__.setdefault("_read_args", {})[name] = tuple(
                sorted({i for i in (found or {}).values() if i is not None and i != READ}))
        if found is not None and READ in found.values():  # indexed by what it read, for every token read at a place
            found = {token: None if index is None else READ for token, index in found.items()}
        cache[name] = found
        return found

    def reads_no_tokens(self, tag: str, name: str) -> bool:
        """Whether a property read (`c.column`, `st.parent`, a card's field) or a value, written
        elsewhere, reads no token wherever it runs, so a define reading it still has its token
        reads followed by token_places: every expression that gives it reads no token."""
        cache = self.__dict__.setdefault("_reads_no_tokens", {})
        if (tag, name) in cache:
            return cache[(tag, name)]
        if tag == "value":
            nodes = [self.sym.values[name].value]
        else:
            space_props, card_props = self.property_nodes()
            nodes = list(space_props.get(name, ())) if tag != "field" else []
            if tag in ("dynamic_attr", "field"):
                nodes += card_props.get(name, ())
        found = cache[(tag, name)] = True
        for node in nodes:
            if isinstance(node, (n.Number, n.String, n.Bool, n.NoneLit)):
                continue
            deps = self.state_read(node)
            if deps is None or any(d in self.sym.tokens or " " in d and d.split(" ", 1)[0] in self.sym.tokens
                                   for d in deps):  # a token, or a member of a family of tokens
                found = cache[(tag, name)] = False
                break
        return found

    def define_dependencies(self, name: str) -> frozenset | None:
        """What a define's value may depend on, as the names the runtime reports changes under
        (`Runtime.touch`): var, track and token names, "$ents" for where cards and pieces are and
        whose, "@ZONE" for what a zone holds in what order, ".NAME" for a property set on a
        card, "$alts" for the alternate loop. None when that cannot be told. Worked out
        once per define; unlike `dependencies` it must miss nothing, as a remembered value is
        kept until one of these names changes."""
        cache = self.__dict__.setdefault("_define_deps", {})
        if name not in cache:
            busy = self.__dict__.setdefault("_define_deps_busy", set())
            busy.add(name)
            try:
                cache[name] = self.state_read(self.sym.defines[name].value)
            finally:
                busy.discard(name)
        return cache[name]

    def property_nodes(self) -> tuple:
        """Property name -> the expressions that give it: on spaces, and on cards (written on
        a card or a kind's default) leaving out plain literals. Worked out once."""
        found = self.__dict__.get("_property_nodes")
        if found is None:
            sym = self.sym
            spaces: dict = {}
            for sp in sym.spaces.values():
                for p in sp.props:
                    spaces.setdefault(p.name, []).append(p.value)
            written = [(p.name, p.value) for d in sym.entities.values() for p in d.props]
            written += [(fn, f[1]) for k in sym.kinds for fn, f in sym.fields_of(k).items() if f[1] is not None]
            cards: dict = {}
            for fname, v in written:
                if not isinstance(v, (n.Number, n.String, n.Bool, n.NoneLit)):
                    cards.setdefault(fname, []).append(v)
            found = self._property_nodes = (spaces, cards)
        return found

    def state_read(self, node) -> frozenset | None:  # noqa: C901
        """Every name of the state an expression may read (see define_dependencies)."""
        sym, types = self.sym, self.c.types
        deps: set = set()
        seen: set = set()

        def listed(x) -> None:
            # as_list reads the cards at a place when handed a zone's or a space's name
            res = self.c.res.get(id(x))
            if res is not None and res[0] in ("zone", "zone_of"):
                deps.add("@" + res[1])  # only that zone's cards, and their order
            elif res is not None and res[0] == "zone_member":
                # a family's member named by keys known only as the rules run: any of them
                deps.update("@" + m for m in self.game.families[res[1]].members())
            elif not types.get(id(x), "any").startswith("list:"):
                deps.add("$ents")

        def props(fname: str, spaces: bool, cards: bool) -> bool:
            # a property's expression runs where it is read, so what it reads counts here
            if ("props", fname, spaces, cards) in seen:
                return True
            seen.add(("props", fname, spaces, cards))
            space_props, card_props = self.property_nodes()
            nodes = list(space_props.get(fname, ())) if spaces else []
            if cards:
                deps.add("." + fname)  # a value set on the card (Runtime.set_field)
                if fname in card_props:
                    deps.add("$ents")  # read as the card's owner, who may change
                    nodes += card_props[fname]
            return all(walk(v) for v in nodes)

        def body(key, value) -> bool:
            if key in seen:
                return True
            seen.add(key)
            return walk(value)

        def visit(x, res) -> bool:  # noqa: C901
            tag = res[0]
            if tag in ("local", "trackname", "token", "group", "space_kind", "space", "defname", "seat",
                       "builtin", "seat_name"):
                return True  # constants, locals, and what only the seat count decides
            if tag in ("var", "var_of", "var_of2"):
                deps.add(res[1])
                start = sym.vars[res[1]].start
                return start is None or body(("var", res[1]), start)
            if tag in ("track", "track_attr"):
                deps.add(res[1])
                return True
            if tag == "value_track_attr":
                deps.update(sym.tracks)
                return True
            if tag == "tokens":
                deps.update(self.token_names() if res[2] else self.token_names(res[1]))
                return True
            if tag in ("zone", "zone_of", "zone_member") or (tag == "entity_attr" and res[1] in ("name", "kind")):
                return True  # a zone's name (its cards are read by listed()); what a card is
            if tag in ("pieces", "entity_kind", "entity_attr"):
                deps.add("$ents")
                return True
            if tag in ("field", "dynamic_attr"):
                return props(res[1], tag == "dynamic_attr", True)
            if tag in ("space_attr", "space_prop"):
                return props(res[1], True, False)
            if tag == "define":
                if res[1] not in self.__dict__.setdefault("_define_deps_busy", set()):  # a define's own walk is complete: use it
                    known = self.define_dependencies(res[1])
                    deps.update(known or ())
                    return known is not None
                return body(("define", res[1]), sym.defines[res[1]].value)
            if tag == "value":
                return body(("value", res[1]), sym.values[res[1]].value)
            if tag == "aggregate":
                return True  # its Comprehension is walked next
            if tag == "builtin_fn":
                fn, args = res[1], getattr(x, "args", ())
                if fn == "passed":
                    deps.add("$alts")
                elif fn in ("card", "cards", "position", "owner_of"):
                    deps.add("$ents")
                elif fn in ("marker", "zone_of", "depth"):
                    deps.update(sym.tracks)
                elif fn in ("size", "count", "top", "first", "last", "item", "sum", "any", "all", "most",
                            "least", "sorted", "without") or (fn in ("min", "max") and len(args) == 1):
                    if args:
                        listed(args[0])
                elif fn == "adjacent":
                    if len(args) == 2:
                        listed(args[1])
                elif fn not in ("step", "line", "forward", "left", "right", "other", "seats_from", "abs",
                                "min", "max", "share", "space", "range", "seat_number", "seat_named"):
                    return False
                return True
            return False  # a name this walk does not know: unknown

        def step(x) -> bool:  # one node
            cls = x.__class__
            if cls is n.Template:
                deps.add("$ents")  # a card shown in a text says where it is
            elif cls is n.Comprehension:
                listed(x.source)
            elif cls is n.BinOp and x.op in ("in", "not in"):
                listed(x.right)
            res = resolved(id(x))
            return res is None or visit(x, res)

        def walk(tree) -> bool:
            return all(step(x) for x in n.each_node(tree))

        resolved = self.c.res.get
        return frozenset(deps) if walk(node) else None

    def seat_free(self, node, seen=None) -> bool:
        """Whether an expression's value cannot depend on whose turn it is or who acts (`$cur`,
        `$act`): then a define's remembered value serves every seat. False when unsure."""
        seen = set() if seen is None else seen
        sym = self.sym

        def visit(res, walk) -> bool:
            tag = res[0]
            if tag == "var" and sym.vars[res[1]].per == "seat":
                return False
            if tag == "zone" and getattr(sym.zones.get(res[1]), "per", None) == "seat":
                return False
            if tag == "builtin" and res[1] in ("current", "actor", "opponent"):
                return False
            if tag == "define" and not self.define_seat_free(res[1]):  # worked out once per define
                return False
            if tag == "value" and ("value", res[1]) not in seen:
                seen.add(("value", res[1]))
                if not walk(sym.values[res[1]].value):
                    return False
            if tag in ("space_attr", "space_prop", "dynamic_attr"):
                # a space's property is read in the asking rule's environment: once per name
                props = self.__dict__.setdefault("_props_seat_free", {})
                if res[1] not in props:
                    props[res[1]] = False  # while it is worked out (a property that reaches itself)
                    props[res[1]] = all(self.seat_free(p.value) for sp in sym.spaces.values()
                                        for p in sp.props if p.name == res[1])
                if not props[res[1]]:
                    return False
            return True

        return self.walk_names(node, visit)

    # ── assignable targets ──

    def setter(self, node):
        if id(node) in self.c.track_targets:
            which = self.expr(node)
            return lambda rt, env, v: rt.set_track(as_track(rt, which(rt, env)), as_int(v, "track position"))
        res = self.c.res.get(id(node))
        if res is None:
            raise AssertionError(f"unresolved target {node}")
        tag = res[0]
        if tag == "local":
            name = res[1]

            def set_local(rt, env, v):
                env[name] = v
            return set_local
        if tag == "var":
            name = res[1]
            per = self.sym.vars[name].per
            return lambda rt, env, v: rt.set_var(name, env.get("$act") if per == "seat" else None, v)
        if tag == "var_of":
            name, key = res[1], self.key_of(res[1], 0, node.of)
            return lambda rt, env, v: rt.set_var(name, key(rt, env), v)
        if tag == "var_of2":
            name, k1, k2 = res[1], self.key_of(res[1], 0, node.of), self.key_of(res[1], 1, node.at)
            return lambda rt, env, v: rt.set_var(name, pair_key(rt, k1(rt, env), k2(rt, env)), v)
        if tag == "track":
            name = res[1]
            return lambda rt, env, v: rt.set_track(name, as_int(v, "track position"))

        if tag == "track_attr":
            tname, attr = res[1], res[2]
            if attr != "start":
                raise AssertionError("only a track's start can move")
            return lambda rt, env, v: rt.set_track_start(tname, as_int(v, "start"))
        if tag in ("field", "dynamic_attr"):
            obj, fname = self.expr(node.obj), node.name

            def set_field(rt, env, v):
                eid = obj(rt, env)
                if not isinstance(eid, int) or isinstance(eid, bool):
                    what = "none" if eid is None else repr(eid)
                    raise RuleError(f"cannot set '{fname}' of {what}: only cards and pieces have properties to set")
                rt.set_field(eid, fname, v)
            return set_field
        raise AssertionError(f"not assignable: {res}")


def always_run(node):
    """The nodes of an expression that run whenever it runs: not those past an `and` or an `or`,
    in a branch of an `if`, or in an aggregate's loop."""
    stack = [node]
    while stack:
        x = stack.pop()
        yield x
        cls = x.__class__
        if cls is n.BinOp:
            stack.append(x.left)
            if x.op not in ("and", "or"):
                stack.append(x.right)
        elif cls is n.Not or cls is n.Neg:
            stack.append(x.operand)
        elif cls is n.CondExpr:
            stack.append(x.cond)
        elif cls is n.Call and x.comp is None:
            stack.extend(x.args)
        elif cls is n.Access:
            stack.extend(v for v in (x.of, x.at) if v is not None)


# The most of a statement a result's reason quotes: `win` of a long expression is cut, so that
# the reason stays one readable line.
ENDING_MOST = 60


def ending_text(text: str) -> str:
    if len(text) <= ENDING_MOST:
        return text
    cut = text[:ENDING_MOST - 3]
    return (cut.rsplit(" ", 1)[0] if " " in cut else cut) + "..."  # cut between words
