"""Checked declarations in, a Game filled in: expressions become closures, statements instruction lists.

Nothing here walks a Lark tree or looks a name up at run time: the checker's resolutions say
what every name is, and each closure captures what it needs.
"""

from __future__ import annotations

from ..engine import ops as O
from ..engine.runtime import NOT_FIXED
from ..language import nodes as n
from ..language.checker import Checked
from ..language.symbols import per_keys
from .expressions import ExpressionCompiler
from .specs import Code, DefSpec, SpaceSpec, TrackSpec, VarSpec, ZoneSpec, unset_value
from .statements import StatementCompiler


class Compiler(StatementCompiler, ExpressionCompiler):
    def __init__(self, checked: Checked, game) -> None:
        self.c = checked
        self.sym = checked.symbols
        self.game = game
        self.code: Code | None = None
        self.loops: list = []  # [(break patch list, scopes opened, is alternate)]
        self.slot = 0
        self.pygen = None  # the game's generated expressions, while compile() runs
        self.pystmts = None  # and its generated statements

    # ── entry ──

    def compile(self) -> None:
        from .pysource import ENABLED, SourceGen
        from .pystatements import StatementSource

        self.pygen = SourceGen(self) if ENABLED else None
        self.pystmts = StatementSource(self, self.pygen) if ENABLED else None
        try:
            self._compile()
            if self.pygen is not None:
                from .regions import fuse
                regions = fuse(self.game, self.pygen)
                self.pygen.finish()
                regions.install()
        finally:
            self.pygen = self.pystmts = None

    def _compile(self) -> None:
        sym, g = self.sym, self.game
        for name, decl in sym.values.items():
            g.values[name] = self.expr(decl.value)
        for name, decl in sym.vars.items():
            for part in per_keys(decl.per):
                keys = sym.key_set(part)
                if keys is not None:  # `per colour`: views, saved matches and the runtime know its keys
                    g.key_sets[part] = keys
            shown = self.c.types.get(id(decl), "any")
            g.vars[name] = VarSpec(
                name, decl.kind, decl.per, "any" if ("var", name) in sym.inferred else shown,
                self.expr(decl.start) if decl.start is not None else None,
                self.expr(decl.low) if decl.low is not None else None,
                self.expr(decl.high) if decl.high is not None else None,
                decl.resets, decl.visibility,
                unset_value(decl.kind) if decl.start is None else _literal(decl.start),
                _literal(decl.low), _literal(decl.high), shown, decl.unlisted,
            )
        for name, decl in sym.zones.items():
            family = sym.zone_family(name)
            if family is None:
                g.zones[name] = ZoneSpec(name, decl.per, decl.visibility, decl.refill)
                continue
            # each member a zone of its own, in the order of its keys: views, samples, saved
            # matches and the runtime know zones, and a member is one, hidden as its family says
            g.families[name] = family
            for member in family.members():
                g.zones[member] = ZoneSpec(member, "seat" if family.seat else None, decl.visibility,
                                           decl.refill, name)
        for name in ("box", "removed"):
            g.zones.setdefault(name, ZoneSpec(name, None, "public", None))
        for name, decl in sym.tokens.items():
            family = sym.token_family(name)
            if family is None:
                g.tokens[name] = decl.per
                continue
            # `token Told per colour`: each member a token of its own, owned by no one (`Told
            # red`), so the state, views, saved matches and samples know tokens as before
            g.token_families[name] = family
            for member in family.members():
                g.tokens[member] = None
        for name, decl in sym.groups.items():
            g.groups[name] = list(decl.members)
        for name, decl in sym.tracks.items():
            g.tracks[name] = TrackSpec(name, decl.low, decl.high, decl.start,
                                       {z.name: (z.low, z.high) for z in decl.zones})
        adjacency: dict[str, list] = {name: [] for name in sym.spaces}
        # each list's members as a set too: a space adjacent to thousands made `in` on the list
        # cost neighbours * neighbours steps
        linked: dict[str, set] = {name: set() for name in sym.spaces}
        for sp in sym.spaces.values():
            for other in sp.adjacent:
                if other in adjacency:
                    if other not in linked[sp.name]:
                        adjacency[sp.name].append(other)
                        linked[sp.name].add(other)
                    if sp.name not in linked[other]:
                        adjacency[other].append(sp.name)
                        linked[other].add(sp.name)
        shown = {sp.name: board.visibility for board in sym.boards.values() for sp in board.spaces}
        for name, sp in sym.spaces.items():
            g.spaces[name] = SpaceSpec(name, sp.kind, sp.label, sp.parent, adjacency[name],
                                       {p.name: self.expr(p.value) for p in sp.props}, shown.get(name, "public"))
            # a grid board's cells: their column and row, for step() and line()
            coords = {p.name: p.value.value for p in sp.props if isinstance(p.value, n.Number)}
            if sp.kind == "cell" and "column" in coords and "row" in coords:
                g.grid[name] = (coords["column"], coords["row"])
                g.grid_at[(coords["column"], coords["row"])] = name
        g.space_order = {name: i for i, name in enumerate(g.spaces)}
        g.space_kinds = {k: list(v) for k, v in sym.space_kinds.items()}
        subkinds = sym.subkinds()
        for kind in sym.kinds:
            g.kind_tree[kind] = subkinds[kind]
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
            g.defs[name] = DefSpec(name, decl.word, decl.kind, copies, props, handlers, order, decl.span)
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
        if sym.payoff is not None:
            g.payoff = self.expr(sym.payoff.value)
        for i, w in enumerate(sym.becomes):
            cid = f"when #{i + 1} becomes true"
            self.block_code(cid, "when ... becomes true", w.body)
            deps = self.dependencies(w.cond)
            if w.var is not None:
                source_deps = self.dependencies(w.source)
                deps = None if deps is None or source_deps is None else deps | source_deps
            g.becomes.append((self.expr(w.cond), cid, deps, w.cond.span,
                              w.var, self.expr(w.source) if w.source is not None else None))
        for i, a in enumerate(sym.anytimes):
            cid = f"at any time #{i + 1}"
            self.block_code(cid, "at any time", a.body)
            g.anytime.append((cid, self.dependencies(a.body)))
        if not g.becomes and all(deps is not None for _cid, deps in g.anytime):
            g.anytime_watch = frozenset().union(*(deps for _cid, deps in g.anytime))
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



def _literal(node):
    """The value of a plain number, text or yes/no as written, None for nothing written, and
    NOT_FIXED for an expression to evaluate."""
    if node is None:
        return None
    if isinstance(node, (n.Number, n.String, n.Bool)):
        return node.value
    return NOT_FIXED
