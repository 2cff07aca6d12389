"""Expressions become closures `fn(rt, env)`; templates, defines and actions are built from them."""

from __future__ import annotations

from ..engine import ops as O
from ..engine.display import display
from ..engine.runtime import RuleError
from ..engine.values import (
    as_int,
    as_list,
    as_order,
    as_seat,
    as_track,
    entity_attr,
    family_member,
    in_range,
    none_read,
    ordered,
    pair_key,
    pick_extreme,
    set_key,
    space_attr,
    text_in_range,
)
from ..language import nodes as n
from ..language.symbols import elem_type, per_keys
from .pysource import _best, define_value
from .specs import _MISSING, ActionSpec, Code


class ExpressionCompiler:
    """Turning expression nodes into closures."""

    # ── expressions ──

    def template(self, t: n.Template):
        gen = getattr(self, "pygen", None)
        if gen is not None:
            return gen.function(t)
        parts = []
        for p in t.parts:
            if isinstance(p, str):
                parts.append((p, None, None))
            else:
                parts.append((None, self.expr(p), self.c.types.get(id(p), "any")))

        # a number shown as a number and a text that names no seat's zone are shown as they
        # are, without going through display(); everything else is displayed as before
        fast = [(text, fn, typ, fn is not None and typ != "seat" and not typ.startswith("entity"), typ != "zone")
                for text, fn, typ in parts]

        def render(rt, env):
            out = []
            for text, fn, typ, plain_int, plain_str in fast:
                if fn is None:
                    out.append(text)
                    continue
                v = fn(rt, env)
                cls = v.__class__
                if cls is int and plain_int:
                    out.append(str(v))
                elif cls is str and plain_str and "@" not in v:
                    out.append(v)
                else:
                    out.append(display(rt, v, typ))
            return text_in_range("".join(out), "the text")
        return render

    def define(self, decl: n.DefineDecl):
        gen = getattr(self, "pygen", None)
        if gen is not None:  # the generated body, with its parameters as Python locals
            generated = gen.define_body_function(decl.name)

            def call_body(rt, args, env):
                return generated(rt, env, *args)  # the checker counted the arguments
            return call_body
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
            self.stmt(n.Change("pay", c.counter, c.amount, None, span=c.span))
        self.stmts(decl.body)
        self.emit(O.RET, None)
        self.game.codes[cid] = self.code
        self.code, self.loops = saved
        names = [p for p, _, _ in params]
        stages: list = [[] for _ in range(len(params) + 1)]
        stage_nodes: list = [[] for _ in range(len(params) + 1)]
        depth = 0
        for node, fn in zip(decl.requires, requires, strict=True):
            used = self.locals_read(node)
            depth = max([depth] + [names.index(p) + 1 for p in names if p in used])
            stages[depth].append(fn)
            stage_nodes[depth].append(node)
        fixed = [(c.amount.value, c.counter) for c in decl.costs if type(c.amount) is n.Number]
        bound = [cost for c, cost in zip(decl.costs, costs, strict=True) if type(c.amount) is not n.Number]
        spec = ActionSpec(decl.name, params, requires, costs, label, cid, decl.span, [r.span for r in decl.requires],
                          stages, fixed, bound)
        gen = getattr(self, "pygen", None)
        spec.require_nodes = decl.requires
        if gen is not None:
            spec.enumerate = gen.enumerator(decl, stage_nodes, label, fixed, bound)
        return spec

    def define_seat_free(self, name: str) -> bool:
        """Whether a define reads no seat (see seat_free), worked out once. A define that reaches
        itself through others counts as reading one while it is worked out: safe, as a define
        taken to read a seat is only remembered per seat."""
        cache = self.__dict__.setdefault("_seat_free", {})
        if name not in cache:
            cache[name] = False
            cache[name] = self.seat_free(self.sym.defines[name].value)
        return cache[name]

    def locals_read(self, node) -> set:
        """Every local name an expression reads (a loop variable of the same name counts too)."""
        out: set = set()
        for x in n.each_node(node):
            res = self.c.res.get(id(x))
            if res is not None and res[0] == "local":
                out.add(res[1])
            if res is not None and res[0] == "tokens" and res[2]:
                out.add(res[1])
        return out

    def key_of(self, name: str, index: int, node):
        """The key `node` gives var `name` as part `index` of its `per`: checked to be one of a
        set of keys (`played of c.colour`, values.set_key), else as it is."""
        keys = self.sym.key_set(per_keys(self.sym.vars[name].per)[index])
        key = self.expr(node)
        if keys is None:
            return key
        return lambda rt, env: set_key(name, keys, key(rt, env))

    def expr(self, node):
        """A function (rt, env) for an expression: generated Python source while a whole game
        compiles (see pysource.py), else the closure."""
        gen = getattr(self, "pygen", None)
        if gen is not None:
            fn = gen.function(node)
            if fn is not None:
                return fn
        return self._expr(node)

    def closure(self, node):
        """The closure for an expression node (its sub-expressions may still be generated)."""
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
            return lambda rt, env: -as_int(f(rt, env), "operand")
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
            name, key = res[1], self.key_of(res[1], 0, node.of)
            return lambda rt, env: rt.get_var(name, key(rt, env))
        if tag == "var_of2":
            name, k1, k2 = res[1], self.key_of(res[1], 0, node.of), self.key_of(res[1], 1, node.at)
            return lambda rt, env: rt.get_var(name, pair_key(rt, k1(rt, env), k2(rt, env)))
        if tag == "zone":
            name = res[1]
            decl = sym.zones.get(name)
            if decl is not None and decl.per == "seat":
                return lambda rt, env: f"{name}@{env.get('$act')}"
            return lambda rt, env: name
        if tag == "zone_of":
            name, seat = res[1], self.expr(node.of)
            return lambda rt, env: f"{name}@{seat(rt, env)}"
        if tag == "zone_member":  # `expedition of s at c.colour`: a zone of a family
            family = g.families[res[1]]
            if family.seat:
                seat, key = self.expr(node.of), self.expr(node.at)
                what = f"zone '{family.name}'"
                return lambda rt, env: f"{family_member(family, key(rt, env))}@{as_seat(rt, seat(rt, env), what)}"
            key = self.expr(node.of)
            return lambda rt, env: family_member(family, key(rt, env))
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
        if tag == "tokens" and not res[2] and self.sym.token_family(res[1]) is not None:
            # `Told of c.colour at c`: a member of a family of tokens, named by its key
            token, place = self.token_fn(res[1], node.of), self.expr(node.at) if node.at is not None else None
            return lambda rt, env: rt.token_count(token(rt, env), None, place(rt, env) if place else None)
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

            # a define that reads no seat is remembered once for every seat
            per_seat = not self.define_seat_free(name)
            defines = g.defines

            def call_define(rt, env):
                return define_value(rt, env, defines, name, [a(rt, env) for a in args], per_seat)
            return call_define
        if tag == "builtin":
            return _BUILTIN_NAMES[res[1]]
        if tag == "value_track_attr":
            obj, attr = self.expr(node.obj), res[1]

            def track_attr(rt, env):
                tname = as_track(rt, obj(rt, env))
                if attr == "start":
                    return rt.state["tracks"][tname]["start"]
                spec = g.tracks[tname]
                return spec.low if attr == "low" else spec.high
            return track_attr
        if tag == "entity_attr":
            obj, attr, where = self.expr(node.obj), res[1], self.read_at(node)
            return lambda rt, env: entity_attr(rt, obj(rt, env), attr, where)
        if tag == "field":
            obj, fname, where = self.expr(node.obj), res[1], self.read_at(node)

            def get_field(rt, env):
                eid = obj(rt, env)
                if eid is None:
                    raise none_read(fname, where)
                return rt.field(eid, fname)
            return get_field
        if tag == "dynamic_attr":
            obj, fname, where = self.expr(node.obj), res[1], self.read_at(node)

            def dyn(rt, env):
                v = obj(rt, env)
                if isinstance(v, int) and not isinstance(v, bool):
                    return rt.field(v, fname)
                if isinstance(v, str) and v in g.spaces:
                    return space_attr(rt, v, fname, env)
                if v is None:  # as a typed property read says it
                    raise none_read(fname, where)
                raise RuleError(f"{v!r} has no property '{fname}'")
            return dyn
        if tag == "space_attr" or tag == "space_prop":
            obj, fname = self.expr(node.obj), res[1]
            return lambda rt, env: space_attr(rt, obj(rt, env), fname, env)
        if tag == "seat_name":
            obj, at = self.expr(node.obj), node.obj.span

            def seat_name(rt, env):
                seat = obj(rt, env)
                if seat is None:  # a seat var not set yet, `first` of an empty list: at the value
                    raise RuleError("'.name' needs a seat, and the value here is none", at)
                return rt.seat_name(seat)
            return seat_name
        if tag == "aggregate":
            return self.comprehension(node.comp, res[1])
        if tag == "builtin_fn":
            from .builtins import compile_builtin
            return compile_builtin(self, node, res[1])
        raise AssertionError(f"unknown resolution {res}")

    def read_at(self, node) -> tuple[str, object]:
        """For `none_read`: the text of what a property read `node` reads of (`picked` of
        `picked.cost`), as written, and the read's span."""
        sources = self.game.sources
        what = sources.text_at(node.obj.span) if sources is not None else None
        return (what or "the value", node.span)

    def comprehension(self, comp: n.Comprehension, agg: str):
        """`AGG(elem for var in source where cond)`: one tight loop per aggregate; any, all
        and first stop at the first element that decides them."""
        src, var = self.expr(comp.source), comp.var
        elem = self.expr(comp.elem)
        cond = self.expr(comp.cond) if comp.cond is not None else None
        simple_elem = isinstance(comp.elem, n.Name) and comp.elem.name == var

        # Each aggregate is its own tight loop (no callback per element): the loop variable is
        # bound in `env` while the loop runs, and given back its outer value (or removed) after.
        def begin(rt, env):
            items = as_list(rt, src(rt, env))
            rt.charge(len(items))
            return items, env.get(var, _MISSING)

        def end(env, saved):
            if saved is _MISSING:
                env.pop(var, None)
            else:
                env[var] = saved

        if agg == "list":
            def collect(rt, env):
                items, saved = begin(rt, env)
                out = []
                try:
                    for x in items:
                        env[var] = x
                        if cond is None or cond(rt, env):
                            out.append(x if simple_elem else elem(rt, env))
                finally:
                    end(env, saved)
                return out
            return collect
        if agg == "count":
            def count(rt, env):
                items, saved = begin(rt, env)
                if cond is None:
                    end(env, saved)
                    return len(items)
                n_ = 0
                try:
                    for x in items:
                        env[var] = x
                        if cond(rt, env):
                            n_ += 1
                finally:
                    end(env, saved)
                return n_
            return count
        if agg == "sum":
            def total(rt, env):
                items, saved = begin(rt, env)
                acc = 0
                try:
                    for x in items:
                        env[var] = x
                        if cond is None or cond(rt, env):
                            acc += as_int(elem(rt, env), "summed value")
                finally:
                    end(env, saved)
                return acc
            return total
        if agg in ("any", "all"):
            want = agg == "any"

            def some(rt, env):
                items, saved = begin(rt, env)
                try:
                    for x in items:
                        env[var] = x
                        if (cond is None or cond(rt, env)) and bool(elem(rt, env)) == want:
                            return want
                finally:
                    end(env, saved)
                return not want
            return some
        if agg == "first":
            def first(rt, env):
                items, saved = begin(rt, env)
                try:
                    for x in items:
                        env[var] = x
                        if cond is None or cond(rt, env):
                            return elem(rt, env)
                finally:
                    end(env, saved)
                return None
            return first
        if agg in ("max", "min"):
            pick = max if agg == "max" else min

            def extreme(rt, env):
                items, saved = begin(rt, env)
                values = []
                try:
                    for x in items:
                        env[var] = x
                        if cond is None or cond(rt, env):
                            values.append(elem(rt, env))
                finally:
                    end(env, saved)
                return pick_extreme(pick, values, agg)
            return extreme
        if agg in ("most", "least", "sorted"):
            # (element, its value) for each element kept: most and least pick among them, sorted
            # orders them by a value that must be a number or a text
            value = elem if agg != "sorted" else (lambda rt, env: as_order(elem(rt, env), "sorted value"))

            def pairs_of(rt, env):
                items, saved = begin(rt, env)
                pairs = []
                try:
                    for x in items:
                        env[var] = x
                        if cond is None or cond(rt, env):
                            pairs.append((x, value(rt, env)))
                finally:
                    end(env, saved)
                return pairs
            if agg == "sorted":
                return lambda rt, env: ordered(pairs_of(rt, env))
            pick = max if agg == "most" else min
            return lambda rt, env: _best(pairs_of(rt, env), pick, agg)
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
                if isinstance(x, str) and isinstance(y, str):
                    return text_in_range(x + y, "the joined text")
                return in_range(as_int(x, "left of '+'") + as_int(y, "right of '+'"), "the sum")
            return add
        left_of, right_of = f"left of '{op}'", f"right of '{op}'"
        if op == "-":
            return lambda rt, env: in_range(as_int(a(rt, env), left_of) - as_int(b(rt, env), right_of), "the difference")
        if op == "*":
            return lambda rt, env: in_range(as_int(a(rt, env), left_of) * as_int(b(rt, env), right_of), "the product")
        if op in ("/", "%"):
            def div(rt, env):
                x, y = as_int(a(rt, env), left_of), as_int(b(rt, env), right_of)
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
            return lambda rt, env: f(as_int(a(rt, env), left_of), as_int(b(rt, env), right_of))
        if op == "in":
            return lambda rt, env: a(rt, env) in as_list(rt, b(rt, env))
        if op == "not in":
            return lambda rt, env: a(rt, env) not in as_list(rt, b(rt, env))
        raise AssertionError(op)




def _seats(rt, env):
    return list(range(rt.state["nseats"]))


def _opponent(rt, env):
    if rt.state["nseats"] != 2:
        raise RuleError("'opponent' only names a seat in a two-player match")
    return 1 - env.get("$act", 0)


def _constant(value):
    return lambda rt, env: value


_BUILTIN_NAMES = {
    "seats": _seats,
    "current": lambda rt, env: env.get("$cur"),
    "actor": lambda rt, env: env.get("$act"),
    "opponent": _opponent,
    "players": lambda rt, env: rt.state["nseats"],
    "spaces": lambda rt, env: list(rt.game.spaces),
    **{d: _constant(d) for d in ("north", "south", "east", "west", "northeast", "northwest", "southeast", "southwest")},
}
