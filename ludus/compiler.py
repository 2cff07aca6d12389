"""Checked declarations in, a Game out: expressions become closures, statements instruction lists.

Nothing here walks a Lark tree or looks a name up at run time: the checker's resolutions say
what every name is, and each closure captures what it needs.
"""

from __future__ import annotations

from attrs import define, field

from . import nodes as n
from . import ops as O
from .checker import Checked
from .display import display
from .runtime import RuleError, Runtime
from .symbols import elem_type

_MISSING = object()


@define
class VarSpec:
    name: str
    kind: str
    per: str | None
    type: str
    start: object  # fn(rt, env) | None
    low: object
    high: object
    resets: str | None
    visibility: str

    def env(self, key) -> dict:
        """What a declaration's start/min/max expressions see: `seat` is the owner."""
        return {"seat": key, "$act": key if self.per == "seat" else 0, "$cur": 0}

    def initial(self, rt: Runtime, key):
        if self.start is None:
            return {"counter": 0, "flag": False}.get(self.kind)
        return self.start(rt, self.env(key))


@define
class TrackSpec:
    name: str
    low: int
    high: int
    start: int
    zones: dict  # name -> (low, high)

    def zone_at(self, pos: int) -> str | None:
        for name, (lo, hi) in self.zones.items():
            if lo <= pos <= hi:
                return name
        return None


@define
class ZoneSpec:
    name: str
    per: str | None
    visibility: str
    refill: str | None


@define
class DefSpec:
    name: str
    word: str
    kind: str
    copies: int
    props: dict  # name -> fn(rt, env)
    handlers: dict  # name -> code id
    order: int


@define
class SpaceSpec:
    name: str
    kind: str
    label: str | None
    parent: str | None
    adjacent: list
    props: dict


@define
class Code:
    """One compiled block: its instructions, and for each instruction the span it came from."""

    id: str
    label: str
    ops: list = field(factory=list)
    spans: list = field(factory=list)


@define
class ActionSpec:
    name: str
    params: list  # [(name, fn, elem type)]
    requires: list
    costs: list  # [(fn, counter)]
    label: object  # fn(rt, env) -> str
    code: str
    span: object


class Compiler:
    def __init__(self, checked: Checked, game) -> None:
        self.c = checked
        self.sym = checked.symbols
        self.game = game
        self.code: Code | None = None
        self.loops: list = []  # [(break patch list, scopes opened, is alternate)]
        self.slot = 0

    # ── entry ──

    def compile(self) -> None:
        sym, g = self.sym, self.game
        for name, decl in sym.values.items():
            g.values[name] = self.expr(decl.value)
        for name, decl in sym.vars.items():
            g.vars[name] = VarSpec(
                name, decl.kind, decl.per, "any",
                self.expr(decl.start) if decl.start is not None else None,
                self.expr(decl.low) if decl.low is not None else None,
                self.expr(decl.high) if decl.high is not None else None,
                decl.resets, decl.visibility,
            )
        for name, decl in sym.zones.items():
            g.zones[name] = ZoneSpec(name, decl.per, decl.visibility, decl.refill)
        for name in ("box", "removed"):
            g.zones.setdefault(name, ZoneSpec(name, None, "public", None))
        for name, decl in sym.tokens.items():
            g.tokens[name] = decl.per
        for name, decl in sym.groups.items():
            g.groups[name] = list(decl.members)
        for name, decl in sym.tracks.items():
            g.tracks[name] = TrackSpec(name, decl.low, decl.high, decl.start,
                                       {z.name: (z.low, z.high) for z in decl.zones})
        adjacency: dict[str, list] = {name: [] for name in sym.spaces}
        for sp in sym.spaces.values():
            for other in sp.adjacent:
                if other in adjacency:
                    if other not in adjacency[sp.name]:
                        adjacency[sp.name].append(other)
                    if sp.name not in adjacency[other]:
                        adjacency[other].append(sp.name)
        for name, sp in sym.spaces.items():
            g.spaces[name] = SpaceSpec(name, sp.kind, sp.label, sp.parent, adjacency[name],
                                       {p.name: self.expr(p.value) for p in sp.props})
        g.space_kinds = {k: list(v) for k, v in sym.space_kinds.items()}
        for kind in sym.kinds:
            g.kind_tree[kind] = frozenset(k for k in sym.kinds if sym.is_subkind(k, kind))
            g.kind_fields[kind] = {
                fname: (self.expr(default) if default is not None else None)
                for fname, (_t, default) in sym.fields_of(kind).items()
            }
        for order, (name, decl) in enumerate(sym.entities.items()):
            copies = 1
            props = {}
            for p in decl.props:
                if p.name == "copies":
                    copies = p.value.value if isinstance(p.value, n.Number) else 1
                else:
                    props[p.name] = self.expr(p.value)
            handlers = {}
            for h in decl.handlers:
                cid = f"{decl.word} {name}: on {h.name}"
                self.block_code(cid, f"'on {h.name}' of {name}", h.body)
                handlers[h.name] = cid
            g.defs[name] = DefSpec(name, decl.word, decl.kind, copies, props, handlers, order)
        for name, decl in sym.defines.items():
            g.defines[name] = self.define(decl)
        for name, decl in sym.rules.items():
            self.block_code(f"rule {name}", f"rule {name}", decl.body)
            g.rule_params[name] = [p.name for p in decl.params]
        for name, decl in sym.actions.items():
            g.actions[name] = self.action(decl)
        for i, w in enumerate(sym.whens):
            cid = f"when {w.watched} #{i + 1}"
            self.block_code(cid, f"when {w.watched} " + (f"enters {w.zone}" if w.zone else "changes"), w.body)
            g.triggers.setdefault(w.watched, []).append((w.zone, cid))
            g.watched.add(w.watched)
        for i, a in enumerate(sym.anytimes):
            cid = f"at any time #{i + 1}"
            self.block_code(cid, "at any time", a.body)
            g.anytime.append((cid, self.dependencies(a.body)))
        body = (sym.setup.body if sym.setup else ()) + (sym.flow.body if sym.flow else ())
        self.block_code("flow", "flow", body)

    # ── blocks ──

    def block_code(self, cid: str, label: str, body: tuple) -> Code:
        saved = (self.code, self.loops)
        self.code = Code(cid, label)
        self.loops = []
        self.stmts(body)
        self.emit(O.RET, None)
        self.game.codes[cid] = self.code
        code = self.code
        self.code, self.loops = saved
        return code

    def emit(self, op: int, span, *args) -> int:
        self.code.ops.append((op, *args))
        self.code.spans.append(span)
        return len(self.code.ops) - 1

    def patch(self, at: int, target: int) -> None:
        op = list(self.code.ops[at])
        op[-1] = target
        self.code.ops[at] = tuple(op)

    def here(self) -> int:
        return len(self.code.ops)

    def new_slot(self) -> str:
        self.slot += 1
        return f"${self.slot}"

    def stmts(self, body: tuple) -> None:
        for s in body:
            self.stmt(s)

    # ── statements ──

    def stmt(self, s) -> None:
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
                    return rt.state["tracks"][_track(rt, which(rt, env))]["pos"]
            else:
                getter = self.expr(s.target)
            setter = self.setter(s.target)
            sign = 1 if s.op == "increase" else -1

            def run(rt, env):
                setter(rt, env, getter(rt, env) + sign * _int(amount(rt, env), "amount"))
            self.exec(s, run)
            return
        name, op = s.target, s.op
        spec_per = self.sym.vars[name].per
        seat = self.expr(s.seat) if s.seat is not None else None

        def change(rt, env):
            key = (seat(rt, env) if seat else env.get("$act")) if spec_per == "seat" else None
            have = rt.get_var(name, key)
            value = _int(amount(rt, env), "amount")
            if op == "pay":
                if value > have:
                    who = f"{rt.seat_name(key)} has" if key is not None else "there is"
                    raise RuleError(f"cannot pay {value} {name}: {who} only {have}")
                rt.set_var(name, key, have - value)
            else:
                rt.set_var(name, key, have + value)
        self.exec(s, change)

    def token_fn(self, name: str):
        if name in self.sym.tokens:
            return lambda rt, env: name
        return lambda rt, env: env[name]

    def s_AddTokens(self, s: n.AddTokens) -> None:
        amount, token, place = self.expr(s.amount), self.token_fn(s.token), self.expr(s.place)
        owner = self.token_owner(s)
        self.exec(s, lambda rt, env: rt.add_tokens(token(rt, env), owner(rt, env), place(rt, env), _int(amount(rt, env), "amount")))

    def token_owner(self, s):
        if s.owner is not None:
            return self.expr(s.owner)
        per = self.sym.tokens[s.token].per if s.token in self.sym.tokens else None
        if per == "seat":
            return lambda rt, env: env.get("$act")
        return lambda rt, env: None

    def s_RemoveTokens(self, s: n.RemoveTokens) -> None:
        amount = self.expr(s.amount) if s.amount is not None else None
        token, place = self.token_fn(s.token), self.expr(s.place)
        owner = self.expr(s.owner) if s.owner is not None else (lambda rt, env: None)

        def run(rt, env):
            rt.remove_tokens(token(rt, env), owner(rt, env), place(rt, env),
                             None if amount is None else _int(amount(rt, env), "amount"))
        self.exec(s, run)

    def s_MoveTokens(self, s: n.MoveTokens) -> None:
        amount, token = self.expr(s.amount), self.token_fn(s.token)
        src, dst = self.expr(s.source), self.expr(s.dest)
        owner = self.expr(s.owner) if s.owner is not None else (lambda rt, env: None)

        def run(rt, env):
            tok, own = token(rt, env), owner(rt, env)
            want = _int(amount(rt, env), "amount")
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
            for eid in _entities(rt, what(rt, env)):
                rt.move_entity(eid, target, bottom)
        self.exec(s, run)

    def s_Draw(self, s: n.Draw) -> None:
        amount = self.expr(s.amount)
        game = self.game
        src = self.expr(s.source) if s.source is not None else (lambda rt, env: f"deck@{env.get('$act')}")
        dst = self.expr(s.dest) if s.dest is not None else (lambda rt, env: f"hand@{env.get('$act')}")
        self.emit(O.DRAW, s.span, amount, src, dst, game)

    def s_Shuffle(self, s: n.Shuffle) -> None:
        zone = self.expr(s.zone)
        into = self.expr(s.into) if s.into is not None else None
        self.emit(O.SHUFFLE, s.span, zone, into)

    def s_ZoneOp(self, s: n.ZoneOp) -> None:
        what, op = self.expr(s.what), s.op

        def run(rt, env):
            for eid in _entities(rt, what(rt, env)):
                if op == "discard":
                    owner = rt.ent(eid)["o"]
                    if owner is None:
                        raise RuleError(f"'{rt.ent(eid)['d']}' belongs to no seat, so it has no discard pile")
                    rt.move_entity(eid, f"discard@{owner}")
                elif op == "exile":
                    rt.move_entity(eid, "removed")
                else:
                    rt.ent(eid)["rev"] = True
                    rt.log.append({"t": "reveal", "card": rt.ent(eid)["d"]})
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
            spec = (lambda rt, env: [sides] * _int(count(rt, env), "number of dice"), True)
        elif s.kind == "sized":
            f = self.expr(s.sides)
            spec = (lambda rt, env: [_int(f(rt, env), "die size")], False)
        else:
            f = self.expr(s.sides)
            spec = (lambda rt, env: [_int(x, "die size") for x in f(rt, env)], True)
        self.emit(O.ROLL, s.span, spec[0], spec[1], s.bind)

    def s_Choose(self, s: n.Choose) -> None:
        from .decisions import ChooseSpec
        et = elem_type(self.c.types.get(id(s.source), "any"))
        spec = ChooseSpec(
            s.bind, self.expr(s.source), self.expr(s.by) if s.by is not None else None,
            s.count_kind, self.expr(s.count) if s.count is not None else None, et,
        )
        self.emit(O.DECIDE, s.span, spec)

    def s_ChooseRange(self, s: n.ChooseRange) -> None:
        from .decisions import RangeSpec
        spec = RangeSpec(s.bind, self.expr(s.low), self.expr(s.high), self.expr(s.by) if s.by is not None else None)
        self.emit(O.DECIDE, s.span, spec)

    def s_Ask(self, s: n.Ask) -> None:
        from .decisions import AskSpec
        self.emit(O.DECIDE, s.span, AskSpec(s.bind, self.expr(s.seat), self.template(s.question)))

    def s_Distribute(self, s: n.Distribute) -> None:
        from .decisions import DistributeSpec
        et = elem_type(self.c.types.get(id(s.targets), "any"))
        spec = DistributeSpec(s.bind, self.expr(s.amount), self.expr(s.targets),
                              self.expr(s.by) if s.by is not None else None, et)
        self.emit(O.DECIDE, s.span, spec)

    def s_Offer(self, s: n.Offer) -> None:
        from .decisions import OfferSpec
        names = list(s.actions) if s.actions else None
        spec = OfferSpec(names, self.expr(s.seat) if s.seat is not None else None, s.stop_label, s.bind)
        self.emit(O.DECIDE, s.span, spec)

    def s_Pass(self, s: n.Pass) -> None:
        self.emit(O.PASS, s.span)

    def s_Break(self, s: n.Break) -> None:
        patches, scopes, is_alt = self.loops[-1]
        for _ in range(scopes):
            self.emit(O.UNSCOPE, s.span)
        if is_alt:
            self.emit(O.ALT_POP, s.span)
        patches.append(self.emit(O.JUMP, s.span, -1))

    def s_Win(self, s: n.Win) -> None:
        self.emit(O.WIN, s.span, self.expr(s.seats))

    def s_Lose(self, s: n.Lose) -> None:
        self.emit(O.LOSE, s.span, self.expr(s.seats))

    def s_EndGame(self, s: n.EndGame) -> None:
        self.emit(O.END, s.span)

    def s_Log(self, s: n.Log) -> None:
        text = self.template(s.text)
        self.exec(s, lambda rt, env: rt.log.append({"t": "log", "text": text(rt, env)}))

    def s_Resolve(self, s: n.Resolve) -> None:
        card, handler = self.expr(s.card), s.handler
        self.emit(O.RESOLVE, s.span, card, handler)

    def s_CallStmt(self, s: n.CallStmt) -> None:
        params = [p.name for p in self.sym.rules[s.name].params]
        args = [self.expr(a) for a in s.args]

        def bind(rt, env):
            return {p: a(rt, env) for p, a in zip(params, args, strict=True)}
        self.emit(O.CALL, s.span, f"rule {s.name}", bind)

    def s_If(self, s: n.If) -> None:
        ends = []
        for cond, body in s.branches:
            jf = self.emit(O.JUMPF, cond.span, self.expr(cond), -1)
            self.stmts(body)
            ends.append(self.emit(O.JUMP, None, -1))
            self.patch(jf, self.here())
        if s.otherwise:
            self.stmts(s.otherwise)
        for e in ends:
            self.patch(e, self.here())

    def loop(self, s, var_label: str | None, init, head, body: tuple, is_alt: bool = False, label_fn=None,
             scope_kind: str = "loop") -> None:
        """Every loop's shape: `init(slot)`, then `head(slot)` that jumps out when done, the body,
        and a jump back to the head. `break` jumps to the end, closing what the body opened."""
        slot = self.new_slot()
        init(slot)
        top = self.here()
        exit_at = head(slot)
        if var_label:
            self.emit(O.SCOPE, s.span, scope_kind, var_label, label_fn)
        patches: list = []
        self.loops.append((patches, 1 if var_label else 0, is_alt))
        self.stmts(body)
        self.loops.pop()
        if var_label:
            self.emit(O.UNSCOPE, None)
        self.emit(O.JUMP, None, top)
        self.patch(exit_at, self.here())
        for p in patches:
            self.patch(p, self.here())

    def s_For(self, s: n.For) -> None:
        var = s.var
        if s.end is not None:
            lo, hi = self.expr(s.source), self.expr(s.end)

            def source(rt, env):
                return list(range(_int(lo(rt, env), "start"), _int(hi(rt, env), "end") + 1))
        else:
            src = self.expr(s.source)

            def source(rt, env):
                return _listify(rt, src(rt, env))
        vtype = "number" if s.end is not None else elem_type(self.c.types.get(id(s.source), "any"))
        self.loop(s, var, lambda slot: self.emit(O.ITER, s.span, slot, source),
                  lambda slot: self.emit(O.NEXT, s.span, slot, var, -1), s.body,
                  label_fn=lambda rt, env: display(rt, env.get(var), vtype),
                  # a counted loop ('round 3') says where play is; a loop over a list is a label only
                  scope_kind="loop" if s.end is not None else "each")

    def s_Repeat(self, s: n.Repeat) -> None:
        count = self.expr(s.count)
        self.loop(s, None, lambda slot: self.emit(
            O.ITER, s.span, slot, lambda rt, env: list(range(_int(count(rt, env), "count")))),
            lambda slot: self.emit(O.NEXT, s.span, slot, None, -1), s.body)

    def s_While(self, s: n.While) -> None:
        cond = self.expr(s.cond)
        self.loop(s, None, lambda slot: None, lambda slot: self.emit(O.JUMPF, s.cond.span, cond, -1), s.body)

    def s_Alternate(self, s: n.Alternate) -> None:
        seats = self.expr(s.seats)
        var = s.var
        self.loop(s, None, lambda slot: self.emit(O.ALT_INIT, s.span, seats),
                  lambda slot: self.emit(O.ALT_NEXT, s.span, var, -1), s.body, is_alt=True)

    def s_Turn(self, s: n.Turn) -> None:
        self.scoped(s, "turn", "turn", self.expr(s.seat), s.body)

    def s_Phase(self, s: n.Phase) -> None:
        self.scoped(s, "phase", s.name, None, s.body)

    def scoped(self, s, kind: str, label: str, fn, body: tuple) -> None:
        """A turn or phase: open its scope, run the body, close it; a `break` from a loop
        around it closes it too, so the enclosing loop counts it while the body compiles."""
        self.emit(O.SCOPE, s.span, kind, label, fn)
        self._count_scope(+1)
        self.stmts(body)
        self._count_scope(-1)
        self.emit(O.UNSCOPE, None)

    def _count_scope(self, delta: int) -> None:
        if self.loops:
            patches, scopes, is_alt = self.loops[-1]
            self.loops[-1] = (patches, scopes + delta, is_alt)

    def dependencies(self, node, seen=None) -> frozenset | None:
        """The names of the state an 'at any time' block reads, so it is re-checked only when one
        of them changes; None when that cannot be told (then it is checked after every change)."""
        import attrs

        seen = set() if seen is None else seen
        deps: set = set()

        def walk(x) -> bool:
            if isinstance(x, (tuple, list)):
                return all(walk(i) for i in x)
            if not attrs.has(type(x)):
                return True
            res = self.c.res.get(id(x))
            if res is not None:
                tag = res[0]
                if tag in ("var", "var_of", "track", "track_attr", "zone", "zone_of"):
                    deps.add(res[1])
                elif tag == "tokens":
                    if res[2]:
                        return False
                    deps.add(res[1])
                elif tag in ("pieces", "entity_kind", "field", "entity_attr", "dynamic_attr"):
                    deps.add("$ents")
                elif tag in ("define", "value"):
                    decl = (self.sym.defines if tag == "define" else self.sym.values)[res[1]]
                    if res[1] not in seen:
                        seen.add(res[1])
                        if not walk(decl.value):
                            return False
                elif tag == "builtin_fn" and res[1] == "passed":
                    return False
            return all(walk(getattr(x, f.name)) for f in attrs.fields(type(x)) if f.name != "span")

        return frozenset(deps) if walk(node) else None

    # ── assignable targets ──

    def setter(self, node):
        if id(node) in self.c.track_targets:
            which = self.expr(node)
            return lambda rt, env, v: rt.set_track(_track(rt, which(rt, env)), _int(v, "track position"))
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
            name, key = res[1], self.expr(node.of)
            return lambda rt, env, v: rt.set_var(name, key(rt, env), v)
        if tag == "track":
            name = res[1]
            return lambda rt, env, v: rt.set_track(name, _int(v, "track position"))

        if tag == "track_attr":
            tname, attr = res[1], res[2]
            if attr != "start":
                raise AssertionError("only a track's start can move")
            spec = self.game.tracks[tname]

            def set_start(rt, env, v):
                rt.state["tracks"][tname]["start"] = max(spec.low, min(spec.high, _int(v, "start")))
            return set_start
        if tag in ("field", "dynamic_attr"):
            obj, fname = self.expr(node.obj), node.name

            def set_field(rt, env, v):
                eid = obj(rt, env)
                if not isinstance(eid, int) or isinstance(eid, bool):
                    raise RuleError(f"cannot set '{fname}' of {eid!r}: only cards and pieces have properties to set")
                rt.set_field(eid, fname, v)
            return set_field
        raise AssertionError(f"not assignable: {res}")

    # ── expressions ──

    def template(self, t: n.Template):
        parts = []
        for p in t.parts:
            if isinstance(p, str):
                parts.append((p, None, None))
            else:
                parts.append((None, self.expr(p), self.c.types.get(id(p), "any")))

        def render(rt, env):
            return "".join(text if fn is None else display(rt, fn(rt, env), typ) for text, fn, typ in parts)
        return render

    def define(self, decl: n.DefineDecl):
        body = self.expr(decl.value)
        params = [p.name for p in decl.params or ()]

        def call(rt, args, env):
            local = {"$cur": env.get("$cur"), "$act": env.get("$act")}
            if "this" in env:
                local["this"] = env["this"]
            local.update(zip(params, args, strict=False))  # the checker counted the arguments
            return body(rt, local)
        return call

    def action(self, decl: n.ActionDecl) -> ActionSpec:
        params = [(p.name, self.expr(p.source), elem_type(self.c.types.get(id(p.source), "any"))) for p in decl.params]
        requires = [self.expr(r) for r in decl.requires]
        costs = [(self.expr(c.amount), c.counter) for c in decl.costs]
        if decl.label is not None:
            label = self.template(decl.label)
        else:
            name = decl.name
            ptypes = [(p, t) for p, _, t in params]

            def label(rt, env):
                words = [name] + [display(rt, env.get(p), t) for p, t in ptypes]
                return " ".join(words)
        cid = f"action {decl.name}"
        saved = (self.code, self.loops)
        self.code = Code(cid, f"action {decl.name}")
        self.loops = []
        for c in decl.costs:  # costs are paid first
            self.s_Change(n.Change("pay", c.counter, c.amount, None, span=c.span))
        self.stmts(decl.body)
        self.emit(O.RET, None)
        self.game.codes[cid] = self.code
        self.code, self.loops = saved
        return ActionSpec(decl.name, params, requires, costs, label, cid, decl.span)

    def expr(self, node):
        return self._expr(node)

    def _expr(self, node):  # noqa: C901 - one dispatch over the expression nodes
        c = self.c
        if isinstance(node, n.Number):
            v = node.value
            return lambda rt, env: v
        if isinstance(node, n.String):
            v = node.value
            return lambda rt, env: v
        if isinstance(node, n.Bool):
            v = node.value
            return lambda rt, env: v
        if isinstance(node, n.NoneLit):
            return lambda rt, env: None
        if isinstance(node, n.ListLit):
            items = [self.expr(i) for i in node.items]
            return lambda rt, env: [f(rt, env) for f in items]
        if isinstance(node, n.Comprehension):
            return self.comprehension(node, "list")
        if isinstance(node, n.Not):
            f = self.expr(node.operand)
            return lambda rt, env: not f(rt, env)
        if isinstance(node, n.Neg):
            f = self.expr(node.operand)
            return lambda rt, env: -_int(f(rt, env), "operand")
        if isinstance(node, n.CondExpr):
            cond, a, b = self.expr(node.cond), self.expr(node.then), self.expr(node.other)
            return lambda rt, env: a(rt, env) if cond(rt, env) else b(rt, env)
        if isinstance(node, n.BinOp):
            return self.binop(node)
        if isinstance(node, n.Template):
            return self.template(node)
        res = c.res.get(id(node))
        if res is None:
            raise AssertionError(f"unresolved expression {node!r}")
        return self.resolved(node, res)

    def resolved(self, node, res):  # noqa: C901
        g, sym = self.game, self.sym
        tag = res[0]
        if tag == "local":
            name = res[1]

            def local(rt, env):
                try:
                    return env[name]
                except KeyError:
                    raise RuleError(f"'{name}' has no value yet here") from None
            return local
        if tag == "value":
            name = res[1]
            return lambda rt, env: g.values[name](rt, {"$cur": env.get("$cur"), "$act": env.get("$act")})
        if tag == "var":
            name = res[1]
            if sym.vars[name].per == "seat":
                return lambda rt, env: rt.get_var(name, env.get("$act"))
            return lambda rt, env: rt.get_var(name)
        if tag == "var_of":
            name, key = res[1], self.expr(node.of)
            return lambda rt, env: rt.get_var(name, key(rt, env))
        if tag == "zone":
            name = res[1]
            decl = sym.zones.get(name)
            if decl is not None and decl.per == "seat":
                return lambda rt, env: f"{name}@{env.get('$act')}"
            return lambda rt, env: name
        if tag == "zone_of":
            name, seat = res[1], self.expr(node.of)
            return lambda rt, env: f"{name}@{seat(rt, env)}"
        if tag == "track":
            name = res[1]
            return lambda rt, env: rt.state["tracks"][name]["pos"]
        if tag == "trackname":
            name = res[1]
            return lambda rt, env: name
        if tag == "track_attr":
            tname, attr = res[1], res[2]
            spec = g.tracks[tname]
            if attr == "start":
                return lambda rt, env: rt.state["tracks"][tname]["start"]
            v = spec.low if attr == "low" else spec.high
            return lambda rt, env: v
        if tag == "token":
            name = res[1]
            return lambda rt, env: name
        if tag == "tokens":
            name, is_local = res[1], res[2]
            owner = self.expr(node.of) if node.of is not None else None
            place = self.expr(node.at) if node.at is not None else None

            def count(rt, env):
                tok = env[name] if is_local else name
                return rt.token_count(tok, owner(rt, env) if owner else None, place(rt, env) if place else None)
            return count
        if tag == "group":
            members = list(sym.groups[res[1]].members)
            return lambda rt, env: list(members)
        if tag == "space_kind":
            names = list(sym.space_kinds[res[1]])
            return lambda rt, env: list(names)
        if tag == "space":
            v = res[1]
            return lambda rt, env: v
        if tag == "entity_kind":
            kind = res[1]
            return lambda rt, env: rt.entities_of(kinds=g.kind_tree[kind])
        if tag == "pieces":
            name, by = res[1], res[2]
            owner = self.expr(node.of) if node.of is not None else None
            place = self.expr(node.at) if node.at is not None else None

            def pieces(rt, env):
                kinds = g.kind_tree[name] if by == "kind" else None
                defname = name if by == "def" else None
                return rt.entities_of(kinds, defname, owner(rt, env) if owner else None,
                                      place(rt, env) if place else None)
            return pieces
        if tag == "defname":
            v = res[1]
            return lambda rt, env: v
        if tag == "seat":
            v = res[1]

            def seat_const(rt, env):
                if v >= rt.state["nseats"]:
                    raise RuleError(f"seat '{self.sym.seat_constants()[v]}' is not in a {rt.state['nseats']}-player match")
                return v
            return seat_const
        if tag == "define":
            name = res[1]
            args = [self.expr(a) for a in getattr(node, "args", ())]

            def call_define(rt, env):
                values = [a(rt, env) for a in args]
                memo = rt.memo
                if memo is None:
                    return g.defines[name](rt, values, env)
                key = (name, env.get("$act"), env.get("$cur"), env.get("this"), *values)
                try:
                    return memo[key]
                except KeyError:
                    result = memo[key] = g.defines[name](rt, values, env)
                    return result
                except TypeError:  # a list among the arguments: not memoised
                    return g.defines[name](rt, values, env)
            return call_define
        if tag == "builtin":
            return _BUILTIN_NAMES[res[1]]
        if tag == "entity_attr":
            obj, attr = self.expr(node.obj), res[1]
            return lambda rt, env: _entity_attr(rt, obj(rt, env), attr)
        if tag == "field":
            obj, fname = self.expr(node.obj), res[1]

            def get_field(rt, env):
                eid = obj(rt, env)
                if eid is None:
                    raise RuleError(f"cannot read '{fname}' of none")
                return rt.field(eid, fname)
            return get_field
        if tag == "dynamic_attr":
            obj, fname = self.expr(node.obj), res[1]

            def dyn(rt, env):
                v = obj(rt, env)
                if isinstance(v, int) and not isinstance(v, bool):
                    return rt.field(v, fname)
                if isinstance(v, str) and v in g.spaces:
                    return _space_attr(rt, v, fname, env)
                raise RuleError(f"{v!r} has no property '{fname}'")
            return dyn
        if tag == "space_attr" or tag == "space_prop":
            obj, fname = self.expr(node.obj), res[1]
            return lambda rt, env: _space_attr(rt, obj(rt, env), fname, env)
        if tag == "seat_name":
            obj = self.expr(node.obj)
            return lambda rt, env: rt.seat_name(obj(rt, env))
        if tag == "aggregate":
            return self.comprehension(node.comp, res[1])
        if tag == "builtin_fn":
            from .builtins import compile_builtin
            return compile_builtin(self, node, res[1])
        raise AssertionError(f"unknown resolution {res}")

    def comprehension(self, comp: n.Comprehension, agg: str):
        """`AGG(elem for var in source where cond)`: one tight loop per aggregate; any, all
        and first stop at the first element that decides them."""
        src, var = self.expr(comp.source), comp.var
        elem = self.expr(comp.elem)
        cond = self.expr(comp.cond) if comp.cond is not None else None
        simple_elem = isinstance(comp.elem, n.Name) and comp.elem.name == var

        def loop(rt, env, visit):
            items = _listify(rt, src(rt, env))
            saved = env.get(var, _MISSING)
            try:
                for x in items:
                    env[var] = x
                    if cond is None or cond(rt, env):
                        if visit(x, env):
                            return True
            finally:
                if saved is _MISSING:
                    env.pop(var, None)
                else:
                    env[var] = saved
            return False

        if agg == "list":
            def as_list(rt, env):
                out = []
                loop(rt, env, lambda x, e: out.append(x if simple_elem else elem(rt, e)))
                return out
            return as_list
        if agg == "count":
            def count(rt, env):
                n_ = [0]

                def visit(x, e):
                    n_[0] += 1
                loop(rt, env, visit)
                return n_[0]
            return count
        if agg == "sum":
            def total(rt, env):
                acc = [0]

                def visit(x, e):
                    acc[0] += _int(elem(rt, e), "summed value")
                loop(rt, env, visit)
                return acc[0]
            return total
        if agg in ("any", "all"):
            want = agg == "any"

            def some(rt, env):
                hit = loop(rt, env, lambda x, e: bool(elem(rt, e)) == want)
                return hit if want else not hit
            return some
        if agg == "first":
            def first(rt, env):
                found = []
                loop(rt, env, lambda x, e: found.append(elem(rt, e)) or True)
                return found[0] if found else None
            return first
        if agg in ("max", "min"):
            pick = max if agg == "max" else min

            def extreme(rt, env):
                values = []
                loop(rt, env, lambda x, e: values.append(elem(rt, e)))
                return pick(values, default=0)
            return extreme
        if agg in ("most", "least"):
            pick = max if agg == "most" else min

            def best(rt, env):
                pairs = []
                loop(rt, env, lambda x, e: pairs.append((x, elem(rt, e))))
                if not pairs:
                    return []
                top = pick(v for _, v in pairs)
                return [x for x, v in pairs if v == top]
            return best
        raise AssertionError(agg)

    def binop(self, node: n.BinOp):
        op = node.op
        a, b = self.expr(node.left), self.expr(node.right)
        if op == "and":
            return lambda rt, env: bool(a(rt, env)) and bool(b(rt, env))
        if op == "or":
            return lambda rt, env: bool(a(rt, env)) or bool(b(rt, env))
        if op == "+":
            def add(rt, env):
                x, y = a(rt, env), b(rt, env)
                if isinstance(x, list) and isinstance(y, list):
                    return x + y
                return _int(x, "left of '+'") + _int(y, "right of '+'")
            return add
        left_of, right_of = f"left of '{op}'", f"right of '{op}'"
        if op == "-":
            return lambda rt, env: _int(a(rt, env), left_of) - _int(b(rt, env), right_of)
        if op == "*":
            return lambda rt, env: _int(a(rt, env), left_of) * _int(b(rt, env), right_of)
        if op in ("/", "%"):
            def div(rt, env):
                x, y = _int(a(rt, env), left_of), _int(b(rt, env), right_of)
                if y == 0:
                    raise RuleError("division by zero")
                return x // y if op == "/" else x % y
            return div
        if op == "==":
            return lambda rt, env: a(rt, env) == b(rt, env)
        if op == "!=":
            return lambda rt, env: a(rt, env) != b(rt, env)
        if op in ("<", "<=", ">", ">="):
            import operator
            f = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}[op]
            return lambda rt, env: f(_int(a(rt, env), left_of), _int(b(rt, env), right_of))
        if op == "in":
            return lambda rt, env: a(rt, env) in _listify(rt, b(rt, env))
        if op == "not in":
            return lambda rt, env: a(rt, env) not in _listify(rt, b(rt, env))
        raise AssertionError(op)


# ───────────────────────── helpers shared with builtins ─────────────────────────


def _int(v, what: str) -> int:
    if type(v) is int:  # the common case first; bool is an int subclass and is refused
        return v
    raise RuleError(f"the {what} should be a number, and it is {_show(v)}")


def _show(v) -> str:
    if v is None:
        return "none"
    if isinstance(v, list):
        return "a list"
    return repr(v)


def _track(rt: Runtime, v) -> str:
    if not isinstance(v, str) or v not in rt.game.tracks:
        raise RuleError(f"expected a track, found {_show(v)}")
    return v


def _listify(rt: Runtime, v) -> list:
    if isinstance(v, list):
        return v
    if isinstance(v, str) and (v in rt.state["places"] or "@" in v or v in rt.game.zones or v in rt.game.spaces):
        return rt.zone_cards(v)  # a zone, or a space: the cards and pieces on it
    if v is None:
        return []
    raise RuleError(f"expected a list here, found {_show(v)}")


def _entities(rt: Runtime, v) -> list:
    """A card, a list of cards, or a zone (all the cards in it), as a list of ids."""
    if isinstance(v, list):
        items = v
    elif v is None:
        return []
    elif isinstance(v, str):
        items = _listify(rt, v)
    else:
        items = [v]
    for x in items:
        if not isinstance(x, int) or isinstance(x, bool):
            raise RuleError(f"expected a card or piece, found {_show(x)}")
    return list(items)


def _entity_attr(rt: Runtime, eid, attr: str):
    if eid is None:
        raise RuleError(f"cannot read '{attr}' of none")
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
        return loc.split("@", 1)[0]
    raise RuleError(f"no attribute {attr}")


def _space_attr(rt: Runtime, name, attr: str, env):
    spec = rt.game.spaces.get(name)
    if spec is None:
        raise RuleError(f"{_show(name)} is not a space")
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


def _seats(rt, env):
    return list(range(rt.state["nseats"]))


def _opponent(rt, env):
    if rt.state["nseats"] != 2:
        raise RuleError("'opponent' only names a seat in a two-player match")
    return 1 - env.get("$act", 0)


_BUILTIN_NAMES = {
    "seats": _seats,
    "current": lambda rt, env: env.get("$cur"),
    "actor": lambda rt, env: env.get("$act"),
    "opponent": _opponent,
    "players": lambda rt, env: rt.state["nseats"],
    "spaces": lambda rt, env: list(rt.game.spaces),
}
