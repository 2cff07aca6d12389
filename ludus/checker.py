"""Declarations in, symbols + resolutions + diagnostics out. The checker never changes a node.

Every name is resolved here once; the compiler reads the resolutions (keyed by node identity)
instead of looking names up again.
"""

from __future__ import annotations

from attrs import define, field

from . import nodes as n
from .source import Diagnostic, Sources, Span, declared_at, suggest
from .symbols import (
    AGGREGATES,
    BUILTIN_FUNCTIONS,
    BUILTIN_NAMES,
    ENTITY_ATTRS,
    SPACE_ATTRS,
    TRACK_ATTRS,
    KindInfo,
    Symbols,
    a_type,
    compatible,
    elem_type,
    listlike,
    plural,
)

TRACK_FUNCTIONS = {"zone_of", "depth", "space", "marker"}
ANYTIME_STATEMENTS = (n.Let, n.If, n.For, n.Log, n.Win, n.Lose, n.EndGame)
BASIC_TYPES = {"number", "bool", "text", "seat", "zone", "token", "track", "space", "entity", "any"}


@define
class Checked:
    symbols: Symbols
    res: dict = field(factory=dict)  # id(node) -> resolution tuple
    types: dict = field(factory=dict)  # id(node) -> type string
    diagnostics: list = field(factory=list)
    keep: list = field(factory=list)  # keeps resolved nodes alive so ids stay unique
    track_targets: set = field(factory=set)  # ids of set/increase targets that hold a track

    @property
    def errors(self) -> list:
        return [d for d in self.diagnostics if d.severity == "error"]


class Scope:
    def __init__(self, parent: Scope | None = None, **flags) -> None:
        self.parent = parent
        self.names: dict[str, str] = {}
        self.flags = dict(parent.flags) if parent else {}
        self.flags.update(flags)

    def lookup(self, name: str) -> str | None:
        scope = self
        while scope:
            if name in scope.names:
                return scope.names[name]
            scope = scope.parent
        return None

    def all(self) -> set:
        out, scope = set(), self
        while scope:
            out |= set(scope.names)
            scope = scope.parent
        return out

    def child(self, **flags) -> Scope:
        return Scope(self, **flags)


class Checker:
    def __init__(self, items: list, symbols: Symbols | None = None, sources: Sources | None = None) -> None:
        self.items = items
        self.sources = sources
        self.type_refs: dict[int, str] = {}
        self.define_types: dict[str, str] = {}
        self.value_types: dict[str, str] = {}
        self.wanted: tuple = (None, "")  # (id of the node being read, what it should be)
        self.sym = symbols if symbols is not None else Symbols()
        self.out = Checked(self.sym)
        self.used: set[tuple[str, str]] = set()
        self.called_rules: set[str] = set()
        self.offered: set[str] = set()
        self.offer_all = False

    # ── reporting ──

    def error(self, message: str, span: Span, hint: str | None = None) -> None:
        self.out.diagnostics.append(Diagnostic("error", message, span, hint))

    def warn(self, message: str, span: Span, hint: str | None = None) -> None:
        self.out.diagnostics.append(Diagnostic("warning", message, span, hint))

    def at(self, span: Span, word: str) -> Span:
        """Point at the name `word` inside a declaration's or statement's span, when the text is known."""
        return self.sources.locate(span, word) if self.sources is not None else span

    def resolve(self, node, res: tuple, type_: str) -> str:
        self.out.res[id(node)] = res
        self.out.types[id(node)] = type_
        self.out.keep.append(node)
        return type_

    # ── pass 1: collect declarations ──

    def collect(self) -> None:
        sym = self.sym
        seen: dict[str, Span] = {}

        def claim(name: str, span: Span) -> bool:
            if name in seen:
                self.error(f"'{name}' is already declared {declared_at(seen[name], span)}", self.at(span, name))
                return False
            seen[name] = span
            return True

        for item in self.items:
            if isinstance(item, n.GameDecl):
                sym.title = item.title
            elif isinstance(item, n.PlayersDecl):
                if item.low < 1 or item.high < item.low:
                    self.error(f"player count {item.low} to {item.high} is not a range of at least one seat", item.span)
                sym.min_players, sym.max_players = item.low, item.high
            elif isinstance(item, n.SidesDecl):
                sym.sides = item.names
                for name in item.names:
                    claim(name, item.span)
            elif isinstance(item, n.SeatsDecl):
                sym.seat_names = item.names
                for name in item.names:
                    claim(name, item.span)
            elif isinstance(item, n.ValueDecl):
                if claim(item.name, item.span):
                    sym.values[item.name] = item
            elif isinstance(item, n.VarDecl):
                if claim(item.name, item.span):
                    sym.vars[item.name] = item
            elif isinstance(item, n.ZoneDecl):
                if claim(item.name, item.span):
                    sym.zones[item.name] = item
            elif isinstance(item, n.TokenDecl):
                for name in item.names:
                    if claim(name, item.span):
                        sym.tokens[name] = item
            elif isinstance(item, n.GroupDecl):
                if claim(item.name, item.span):
                    sym.groups[item.name] = item
            elif isinstance(item, n.KindDecl):
                if claim(item.name, item.span):
                    sym.kinds[item.name] = KindInfo(item.name, item.parent, decl=item)
            elif isinstance(item, n.EntityDecl):
                if item.name in sym.entities:
                    self.error(f"{item.word} '{item.name}' is already declared {declared_at(sym.entities[item.name].span, item.span)}",
                               self.at(item.span, item.name))
                    continue
                if item.name.isidentifier():
                    claim(item.name, item.span)
                sym.entities[item.name] = item
            elif isinstance(item, n.BoardDecl):
                sym.boards[item.name] = item
                for sp in item.spaces:
                    if claim(sp.name, sp.span):
                        sym.spaces[sp.name] = sp
                        sym.space_kinds.setdefault(sp.kind, []).append(sp.name)
            elif isinstance(item, n.TrackDecl):
                if claim(item.name, item.span):
                    sym.tracks[item.name] = item
            elif isinstance(item, n.DefineDecl):
                if claim(item.name, item.span):
                    sym.defines[item.name] = item
            elif isinstance(item, n.RuleDecl):
                if claim(item.name, item.span):
                    sym.rules[item.name] = item
            elif isinstance(item, n.ActionDecl):
                if item.name in sym.actions:
                    self.error(f"action '{item.name}' is already declared {declared_at(sym.actions[item.name].span, item.span)}",
                               self.at(item.span, item.name))
                sym.actions[item.name] = item
            elif isinstance(item, n.SetupDecl):
                sym.setup = item
            elif isinstance(item, n.FlowDecl):
                sym.flow = item
            elif isinstance(item, n.WhenDecl):
                sym.whens.append(item)
            elif isinstance(item, n.AnytimeDecl):
                sym.anytimes.append(item)
            elif isinstance(item, n.TestDecl):
                sym.tests.append(item)
        for name in ("box", "removed"):
            if name not in sym.zones:
                sym.zones[name] = n.ZoneDecl(name, None, "public", None, False)
                self.used.add(("zone", name))
        # plural aliases for collections: regions, Characters, ...
        for kind in list(sym.space_kinds) + list(sym.kinds):
            alias = plural(kind)
            if alias not in seen and alias not in sym.plurals:
                sym.plurals[alias] = kind
        for e in sym.entities.values():
            for h in e.handlers:
                sym.handlers.add(h.name)
        if sym.sides and len(sym.sides) != sym.min_players:
            if any(isinstance(i, n.PlayersDecl) for i in self.items):
                if not (sym.min_players == sym.max_players == len(sym.sides)):
                    decl = next(i for i in self.items if isinstance(i, n.PlayersDecl))
                    self.error(f"{len(sym.sides)} sides are declared, so the game has {len(sym.sides)} players", decl.span)
            sym.min_players = sym.max_players = len(sym.sides)
        if sym.seat_names and len(sym.seat_names) < sym.max_players:
            decl = next(i for i in self.items if isinstance(i, n.SeatsDecl))
            self.error(f"{len(sym.seat_names)} seat names for up to {sym.max_players} players", decl.span)

    # ── pass 2: check ──

    def run(self) -> Checked:
        self.collect()
        sym = self.sym
        for info in sym.kinds.values():
            decl = info.decl
            if decl.parent and decl.parent not in sym.kinds:
                self.error(f"unknown kind '{decl.parent}'", self.at(decl.span, decl.parent), suggest(decl.parent, sym.kinds))
            for f in decl.fields:
                t = self.type_ref(f.type)
                info.fields[f.name] = (t, f.default)
                if f.default is not None:
                    self.expr(f.default, Scope())
        self.infer_define_types()
        for item in self.items:
            self.check_item(item)
        if sym.flow is None:
            span = self.items[0].span if self.items else Span("<game>", 1, 1, 1, 1)
            self.error("the game has no 'flow:' block, so a match cannot start", span)
        self.report_unused()
        return self.out

    def infer_define_types(self) -> None:
        """What each define and value gives, so a seat or a card coming out of a define is
        known to be one. Two quiet passes (a define may use one declared after it); the
        diagnostics come from the ordinary pass that follows."""
        saved_diags, saved_used = self.out.diagnostics, set(self.used)
        for _ in range(2):
            self.out.diagnostics = []
            for name, decl in self.sym.values.items():
                self.value_types[name] = self.expr(decl.value, Scope())
            for name, decl in self.sym.defines.items():
                self.define_types[name] = self.define_body(decl)
        self.out.diagnostics, self.used = saved_diags, saved_used

    def define_body(self, decl: n.DefineDecl) -> str:
        scope = Scope().child()
        for p in decl.params or ():
            scope.names[p.name] = self.type_ref(p.type) if p.type else "any"
        return self.expr(decl.value, scope)

    def type_ref(self, ref: n.TypeRef) -> str:
        if id(ref) not in self.type_refs:
            self.type_refs[id(ref)] = self._type_ref(ref)
            self.out.keep.append(ref)
        return self.type_refs[id(ref)]

    def _type_ref(self, ref: n.TypeRef) -> str:
        if ref.name == "list":
            return "list:" + self.type_ref(ref.of)
        if ref.name in BASIC_TYPES:
            return ref.name
        if ref.name in self.sym.kinds:
            return "entity:" + ref.name
        if ref.name in self.sym.space_kinds:
            return "space:" + ref.name
        choices = BASIC_TYPES | set(self.sym.kinds) | set(self.sym.space_kinds)
        self.error(f"unknown type '{ref.name}'", ref.span, suggest(ref.name, choices))
        return "any"

    def check_item(self, item) -> None:
        sym = self.sym
        top = Scope()
        if isinstance(item, n.ValueDecl):
            self.expr(item.value, top)
        elif isinstance(item, n.VarDecl):
            if item.per and item.per != "seat" and item.per not in sym.space_kinds and item.per not in sym.kinds:
                choices = {"seat"} | set(sym.space_kinds) | set(sym.kinds)
                self.error(f"'per {item.per}': no such seat, space kind or kind", self.at(item.span, item.per), suggest(item.per, choices))
            scope = top.child()
            if item.per == "seat":
                scope.names["seat"] = "seat"
            if item.type is not None:
                self.type_ref(item.type)
            for e in (item.start, item.low, item.high):
                if e is not None:
                    self.expr(e, scope)
            if item.resets and not self.loop_label_exists(item.resets):
                self.warn(f"'resets each {item.resets}': no loop, turn or phase is labelled '{item.resets}'", self.at(item.span, item.resets))
        elif isinstance(item, n.ZoneDecl):
            if item.per and item.per != "seat":
                self.error(f"zones are 'per seat' or shared, not 'per {item.per}'", self.at(item.span, item.per))
            if item.refill and item.refill not in sym.zones:
                self.error(f"unknown zone '{item.refill}'", self.at(item.span, item.refill), suggest(item.refill, sym.zones))
        elif isinstance(item, n.TokenDecl):
            if item.per and item.per != "seat":
                self.error(f"tokens are owned 'per seat' or by no one, not 'per {item.per}'", self.at(item.span, item.per))
        elif isinstance(item, n.GroupDecl):
            for m in item.members:
                if m not in sym.tokens and m not in sym.spaces and m not in sym.entities and m not in sym.tracks:
                    self.error(f"unknown group member '{m}'", self.at(item.span, m),
                               suggest(m, set(sym.tokens) | set(sym.spaces) | set(sym.tracks)))
                if m in sym.tracks:
                    self.used.add(("track", m))
        elif isinstance(item, n.EntityDecl):
            self.check_entity(item)
        elif isinstance(item, n.BoardDecl):
            for sp in item.spaces:
                if sp.parent and sp.parent not in sym.spaces:
                    self.error(f"unknown space '{sp.parent}'", self.at(sp.span, sp.parent), suggest(sp.parent, sym.spaces))
                for adj in sp.adjacent:
                    if adj not in sym.spaces:
                        self.error(f"unknown space '{adj}'", self.at(sp.span, adj), suggest(adj, sym.spaces))
                for p in sp.props:
                    self.expr(p.value, top)
        elif isinstance(item, n.TrackDecl):
            if item.low >= item.high:
                self.error(f"track '{item.name}' runs from {item.low} to {item.high}: its low end must be below its high end", self.at(item.span, "from"))
            elif not item.low <= item.start <= item.high:
                self.error(f"track '{item.name}' starts at {item.start}, outside {item.low} to {item.high}", self.at(item.span, "start"))
            for z in item.zones:
                if not (item.low <= z.low <= z.high <= item.high):
                    self.error(f"end zone '{z.name}' ({z.low} to {z.high}) is not inside the track ({item.low} to {item.high})", z.span)
        elif isinstance(item, n.DefineDecl):
            self.define_types[item.name] = self.define_body(item)
        elif isinstance(item, n.RuleDecl):
            scope = top.child(in_rule=True)
            for p in item.params:
                scope.names[p.name] = self.type_ref(p.type) if p.type else "any"
            self.block(item.body, scope)
        elif isinstance(item, n.ActionDecl):
            self.check_action(item)
        elif isinstance(item, (n.SetupDecl, n.FlowDecl)):
            self.block(item.body, top.child())
        elif isinstance(item, n.WhenDecl):
            self.check_when(item)
        elif isinstance(item, n.AnytimeDecl):
            self.block(item.body, top.child(anytime=True))
        elif isinstance(item, n.TestDecl):
            self.check_test(item)

    def loop_label_exists(self, label: str) -> bool:
        found = False

        def walk(stmts):
            nonlocal found
            for s in stmts:
                if isinstance(s, n.For) and s.var == label:
                    found = True
                if isinstance(s, n.Turn) and label == "turn":
                    found = True
                if isinstance(s, n.Phase) and s.name == label:
                    found = True
                if isinstance(s, n.Alternate) and s.var == label:
                    found = True
                for child in _children(s):
                    walk(child)

        for item in self.items:
            body = getattr(item, "body", None)
            if isinstance(body, tuple):
                walk(body)
        return found or label in ("game",)

    def check_entity(self, item: n.EntityDecl) -> None:
        sym = self.sym
        if item.kind not in sym.kinds:
            self.error(f"unknown kind '{item.kind}'", self.at(item.span, item.kind), suggest(item.kind, sym.kinds))
            return
        fields = sym.fields_of(item.kind)
        scope = Scope(this="entity:" + item.kind)
        scope.names["this"] = "entity:" + item.kind
        given = set()
        for p in item.props:
            if p.name == "copies":
                t = self.expr(p.value, scope)
                if not isinstance(p.value, n.Number) or p.value.value < 1:
                    self.error("'copies' takes a whole number of at least 1", p.value.span)
                continue
            if p.name not in fields:
                self.error(f"kind '{item.kind}' has no property '{p.name}'", self.at(p.span, p.name), suggest(p.name, fields))
                continue
            given.add(p.name)
            want = fields[p.name][0]
            t = self.track_arg(p.value, scope) if want == "track" else self.expr(p.value, scope)
            if not compatible(t, want):
                self.error(f"'{p.name}' is {a_type(want)}, not {a_type(t)}", p.value.span)
        for fname, (_type, default) in fields.items():
            if default is None and fname not in given:
                self.error(f"{item.word} '{item.name}' does not set '{fname}', which kind '{item.kind}' requires", self.at(item.span, item.name))
        for h in item.handlers:
            self.block(h.body, scope.child(in_handler=True))

    def check_action(self, item: n.ActionDecl) -> None:
        scope = Scope(in_action=True)
        for p in item.params:
            t = self.expr(p.source, scope)
            if not listlike(t):
                self.error(f"parameter '{p.name}' must range over a list, not {a_type(t)}", p.source.span)
            scope = scope.child()
            scope.names[p.name] = elem_type(t)
        if item.label:
            self.template(item.label, scope)
        for c in item.costs:
            self.expr(c.amount, scope)
            if c.counter not in self.sym.vars:
                self.error(f"unknown counter '{c.counter}'", self.at(c.span, c.counter), suggest(c.counter, self.sym.vars))
            else:
                self.used.add(("var", c.counter))
        for r in item.requires:
            self.expect(r, scope, "bool")
        self.block(item.body, scope.child())

    def check_when(self, item: n.WhenDecl) -> None:
        sym = self.sym
        scope = Scope(in_trigger=True)
        if item.watched in sym.tracks:
            track = sym.tracks[item.watched]
            self.used.add(("track", item.watched))
            if item.zone is not None and item.zone not in {z.name for z in track.zones}:
                self.error(f"track '{item.watched}' has no end zone '{item.zone}'", self.at(item.span, item.zone),
                           suggest(item.zone, [z.name for z in track.zones]))
            scope.names.update(old="number", new="number")
        elif item.watched in sym.vars:
            if item.zone is not None:
                self.error(f"'enters' needs a track; '{item.watched}' is a {sym.vars[item.watched].kind}", self.at(item.span, item.watched))
            decl = sym.vars[item.watched]
            self.used.add(("var", item.watched))
            t = self.var_type(decl)
            scope.names.update(old=t, new=t)
            if decl.per:
                scope.names["key"] = "seat" if decl.per == "seat" else "any"
        else:
            self.error(f"unknown track or counter '{item.watched}'", self.at(item.span, item.watched),
                       suggest(item.watched, set(sym.tracks) | set(sym.vars)))
            scope.names.update(old="any", new="any", key="any")
        self.block(item.body, scope)

    def check_test(self, item: n.TestDecl) -> None:
        scope = Scope(in_test=True)
        for line in item.lines:
            if line.kind == "given":
                self.block((line.value,), scope)
            elif line.kind == "expect":
                self.expect(line.value, scope, "bool")

    # ── statements ──

    def block(self, stmts: tuple, scope: Scope) -> None:
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
            scope.names[s.name] = t
        elif isinstance(s, n.SetStmt):
            t = self.target(s.target, scope)
            v = self.expr(s.value, scope)
            if not compatible(v, t):
                self.error(f"cannot set {a_type(t)} to {a_type(v)}", s.value.span)
        elif isinstance(s, n.Change):
            if s.op in ("increase", "decrease"):
                t = self.target(s.target, scope)
                if not compatible(t, "number"):
                    self.error(f"'{s.op}' needs a number, and this is {a_type(t)}", s.target.span)
            else:
                self.counter_name(s.target, s.span)
                if s.seat is not None:
                    self.expect(s.seat, scope, "seat")
                    decl = self.sym.vars.get(s.target)
                    if decl is not None and decl.per is None:
                        self.error(f"'{s.target}' is one counter for the whole game, so it has no 'for' seat",
                                   s.seat.span)
            self.expect(s.amount, scope, "number")
        elif isinstance(s, (n.AddTokens, n.RemoveTokens, n.MoveTokens)):
            if s.amount is not None:
                self.expect(s.amount, scope, "number")
            self.token_ref(s.token, s.span, scope)
            if s.owner is not None:
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
                    else:
                        self.used.add(("zone", default))
                else:
                    self.expect(z, scope, "zone")
        elif isinstance(s, n.Shuffle):
            self.expect(s.zone, scope, "zone")
            if s.into is not None:
                self.expect(s.into, scope, "zone")
        elif isinstance(s, n.ZoneOp):
            self.movable(s.what, scope)
            if s.op == "discard":
                if "discard" not in sym.zones:
                    self.error("'discard' needs a zone named 'discard'", s.span)
                else:
                    self.used.add(("zone", "discard"))
        elif isinstance(s, n.Create):
            if s.definition not in sym.entities:
                self.error(f"unknown card or piece '{s.definition}'", self.at(s.span, s.definition), suggest(s.definition, sym.entities))
            self.place(s.place, scope)
            if s.owner is not None:
                self.expect(s.owner, scope, "seat")
            if s.bind:
                kind = sym.entities[s.definition].kind if s.definition in sym.entities else ""
                scope.names[s.bind] = "entity:" + kind if kind else "entity"
        elif isinstance(s, n.Roll):
            if s.count is not None:
                self.expect(s.count, scope, "number")
            if s.kind == "sized":
                self.expect(s.sides, scope, "number")
            elif s.kind == "pool":
                self.expect(s.sides, scope, "list:number")
            scope.names[s.bind] = "number" if s.kind in ("one", "sized") else "list:number"
        elif isinstance(s, n.Choose):
            t = self.expr(s.source, scope)
            if not listlike(t):
                self.error(f"'choose' picks from a list, not {a_type(t)}", s.source.span)
            if s.by is not None:
                self.expect(s.by, scope, "seat")
            if s.count is not None:
                self.expect(s.count, scope, "number")
            et = elem_type(t)
            scope.names[s.bind] = ("list:" + et) if s.count_kind else et
        elif isinstance(s, n.ChooseRange):
            self.expect(s.low, scope, "number")
            self.expect(s.high, scope, "number")
            if s.by is not None:
                self.expect(s.by, scope, "seat")
            scope.names[s.bind] = "number"
        elif isinstance(s, n.Ask):
            self.expect(s.seat, scope, "seat")
            self.template(s.question, scope)
            scope.names[s.bind] = "bool"
        elif isinstance(s, n.Distribute):
            self.expect(s.amount, scope, "number")
            t = self.expr(s.targets, scope)
            if not listlike(t):
                self.error(f"'distribute' shares among a list, not {a_type(t)}", s.targets.span)
            if s.by is not None:
                self.expect(s.by, scope, "seat")
            scope.names[s.bind] = "shares"
        elif isinstance(s, n.Offer):
            if not s.actions:
                self.offer_all = True
            for a in s.actions:
                if a not in sym.actions:
                    self.error(f"unknown action '{a}'", self.at(s.span, a), suggest(a, sym.actions))
                self.offered.add(a)
            if s.seat is not None:
                self.expect(s.seat, scope, "seat")
            if s.bind:
                scope.names[s.bind] = "text"
        elif isinstance(s, n.Pass):
            if not any(scope.flags.get(f) for f in ("alternate", "in_action", "in_rule", "in_handler")):
                self.error("'pass' only means something inside an 'alternate ... until all pass' loop", s.span)
        elif isinstance(s, n.Break):
            if not scope.flags.get("loop"):
                self.error("'break' is only allowed inside a loop", s.span)
        elif isinstance(s, (n.Win, n.Lose)):
            t = self.expr(s.seats, scope)
            if not (compatible(t, "seat") or compatible(t, "list:seat")):
                self.error(f"'{type(s).__name__.lower()}' names a seat or a list of seats, not {a_type(t)}", s.seats.span)
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
                self.error(f"unknown rule '{s.name}'", self.at(s.span, s.name), suggest(s.name, sym.rules))
            else:
                self.called_rules.add(s.name)
                if len(s.args) != len(rule.params):
                    self.error(f"rule '{s.name}' takes {len(rule.params)} argument(s), not {len(s.args)}", s.span)
            for a in s.args:
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
                inner.names[s.var] = "number"
            else:
                t = self.expr(s.source, scope)
                if not listlike(t):
                    self.error(f"'for' goes over a list, not {a_type(t)}", s.source.span)
                inner.names[s.var] = elem_type(t)
            self.block(s.body, inner)
        elif isinstance(s, n.Repeat):
            self.expect(s.count, scope, "number")
            if isinstance(s.count, n.Number) and s.count.value <= 0:
                self.warn("this loop never runs: it repeats zero times", s.count.span)
            self.block(s.body, scope.child(loop=True))
        elif isinstance(s, n.While):
            self.expect(s.cond, scope, "bool")
            if _const_false(s.cond):
                self.warn("this loop never runs: its condition is always false", s.cond.span)
            self.block(s.body, scope.child(loop=True))
        elif isinstance(s, n.Alternate):
            self.expect(s.seats, scope, "list:seat")
            inner = scope.child(loop=True, alternate=True)
            inner.names[s.var] = "seat"
            self.block(s.body, inner)
        elif isinstance(s, n.Turn):
            self.expect(s.seat, scope, "seat")
            self.block(s.body, scope.child())
        elif isinstance(s, n.Phase):
            self.block(s.body, scope.child())
        else:  # pragma: no cover - the grammar has no other statements
            self.error(f"unsupported statement {type(s).__name__}", s.span)

    def movable(self, node, scope: Scope) -> None:
        t = self.expr(node, scope)
        if not (t in ("any", "zone", "entity", "list:any") or t.startswith("entity:") or t.startswith("list:entity")):
            hint = 'write card("...") for the card itself' if t == "text" else None
            self.error(f"only cards and pieces (or a zone's cards) can be moved, not {a_type(t)}", node.span, hint)

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
        self.error(f"unknown token '{name}'", self.at(span, name), suggest(name, set(self.sym.tokens) | scope.all()))

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
        if isinstance(node, n.Access) and node.name in sym.vars and node.at is None:
            return self.expr(node, scope)
        if isinstance(node, n.Attr):
            return self.expr(node, scope)
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

    # ── expressions ──

    def expect(self, node, scope: Scope, want: str) -> str:
        self.wanted = (id(node), want)
        t = self.expr(node, scope)
        if not compatible(t, want):
            if want == "list:seat" and t == "seat":
                return t
            self.error(f"expected {a_type(want)} here, found {a_type(t)}", node.span)
        return t

    def var_type(self, decl: n.VarDecl) -> str:
        if decl.type is not None:
            return self.type_ref(decl.type)
        return {"counter": "number", "flag": "bool"}.get(decl.kind, "any")

    def expr(self, node, scope: Scope) -> str:
        t = self._expr(node, scope)
        self.out.types[id(node)] = t
        self.out.keep.append(node)
        return t

    def _expr(self, node, scope: Scope) -> str:
        sym = self.sym
        if isinstance(node, n.Number):
            return "number"
        if isinstance(node, n.String):
            if node.value in sym.entities:
                return self.resolve(node, ("defname", node.value), "text")
            return "text"
        if isinstance(node, n.Bool):
            return "bool"
        if isinstance(node, n.NoneLit):
            return "none"
        if isinstance(node, n.Template):
            self.template(node, scope)
            return "text"
        if isinstance(node, n.Name):
            return self.name(node, scope)
        if isinstance(node, n.ListLit):
            types = [self.expr(i, scope) for i in node.items]
            return "list:" + (types[0] if types and all(t == types[0] for t in types) else "any")
        if isinstance(node, n.Comprehension):
            src = self.expr(node.source, scope)
            if not listlike(src):
                self.error(f"'for ... in' needs a list, not {a_type(src)}", node.source.span)
            inner = scope.child()
            inner.names[node.var] = elem_type(src)
            if node.cond is not None:
                self.expect(node.cond, inner, "bool")
            return "list:" + self.expr(node.elem, inner)
        if isinstance(node, n.BinOp):
            return self.binop(node, scope)
        if isinstance(node, n.Not):
            self.expect(node.operand, scope, "bool")
            return "bool"
        if isinstance(node, n.Neg):
            self.expect(node.operand, scope, "number")
            return "number"
        if isinstance(node, n.CondExpr):
            self.expect(node.cond, scope, "bool")
            return _merge(self.expr(node.then, scope), self.expr(node.other, scope))
        if isinstance(node, n.Attr):
            return self.attr(node, scope)
        if isinstance(node, n.Access):
            return self.access(node, scope)
        if isinstance(node, n.Call):
            return self.call(node, scope)
        self.error(f"unsupported expression {type(node).__name__}", node.span)
        return "any"

    def name(self, node: n.Name, scope: Scope) -> str:
        sym, name = self.sym, node.name
        local = scope.lookup(name)
        if local is not None:
            return self.resolve(node, ("local", name), local)
        if name in sym.values:
            self.used.add(("value", name))
            return self.resolve(node, ("value", name), self.value_types.get(name, "any"))
        if name in sym.vars:
            decl = sym.vars[name]
            self.used.add(("var", name))
            if decl.per not in (None, "seat"):
                self.error(f"'{name}' is kept per {decl.per}: say which, as '{name} of ...'", node.span)
            return self.resolve(node, ("var", name), self.var_type(decl))
        if name in sym.zones:
            self.used.add(("zone", name))
            return self.resolve(node, ("zone", name), "zone")
        if name in sym.tracks:
            self.used.add(("track", name))
            return self.resolve(node, ("track", name), "number")
        if name in sym.tokens:
            self.used.add(("token", name))
            return self.resolve(node, ("token", name), "token")
        if name in sym.groups:
            self.used.add(("group", name))
            members = sym.groups[name].members
            et = "token" if members and members[0] in sym.tokens else (
                "space:" + sym.spaces[members[0]].kind if members and members[0] in sym.spaces else (
                    "track" if members and members[0] in sym.tracks else "any"))
            return self.resolve(node, ("group", name), "list:" + et)
        kind = sym.kind_of_space_collection(name)
        if kind:
            return self.resolve(node, ("space_kind", kind), "list:space:" + kind)
        if name in sym.spaces:
            return self.resolve(node, ("space", name), "space:" + sym.spaces[name].kind)
        ekind = sym.entity_kind_collection(name)
        if ekind:
            return self.resolve(node, ("entity_kind", ekind), "list:entity:" + ekind)
        if name in sym.entities:
            return self.resolve(node, ("defname", name), "text")
        consts = sym.seat_constants()
        if name in consts:
            return self.resolve(node, ("seat", consts.index(name)), "seat")
        if name in sym.defines:
            d = sym.defines[name]
            self.used.add(("define", name))
            if d.params:
                self.error(f"'{name}' takes {len(d.params)} argument(s): write {name}(...)", node.span)
            return self.resolve(node, ("define", name), self.define_types.get(name, "any"))
        if name in BUILTIN_NAMES:
            if name == "opponent" and sym.max_players > 2:
                self.error("'opponent' only names a seat in a two-player game", node.span,
                           "use other(...) or name the seat")
            return self.resolve(node, ("builtin", name), BUILTIN_NAMES[name])
        if name in ("this",):
            self.error("'this' is only known inside a card's or piece's effect", node.span)
            return "any"
        self.unknown(node, name, sym.all_names() | scope.all())
        return "any"

    def unknown(self, node, name: str, candidates: set) -> None:
        """An unknown name, called what it should have been where that is known (a zone, a seat)."""
        span = Span(node.span.path, node.span.line, node.span.column, node.span.line, node.span.column + len(name))
        wanted_id, want = self.wanted
        if wanted_id == id(node) and want in ("zone", "seat", "zone or space"):
            pool = {"zone": set(self.sym.zones), "seat": set(self.sym.seat_constants()),
                    "zone or space": set(self.sym.zones) | set(self.sym.spaces)}[want]
            self.error(f"unknown {want} '{name}'", span, suggest(name, pool))
            return
        self.error(f"unknown name '{name}'", span, suggest(name, candidates))

    def binop(self, node: n.BinOp, scope: Scope) -> str:
        op = node.op
        if op in ("and", "or"):
            self.expect(node.left, scope, "bool")
            self.expect(node.right, scope, "bool")
            return "bool"
        a = self.expr(node.left, scope)
        b = self.expr(node.right, scope)
        if op in ("+", "-", "*", "/", "%"):
            if op == "+" and (a.startswith("list:") or b.startswith("list:")):
                for t, side in ((a, node.left), (b, node.right)):
                    if not (t.startswith("list:") or t == "any"):
                        self.error(f"'+' joins two lists, and this is {a_type(t)}", side.span)
                return _merge(a, b)
            for t, side in ((a, node.left), (b, node.right)):
                if not compatible(t, "number"):
                    self.error(f"'{op}' needs numbers, and this is {a_type(t)}", side.span)
            return "number"
        if op in ("<", "<=", ">", ">="):
            for t, side in ((a, node.left), (b, node.right)):
                if not compatible(t, "number"):
                    self.error(f"'{op}' compares numbers, and this is {a_type(t)}", side.span)
            return "bool"
        if op in ("in", "not in"):
            if not listlike(b):
                self.error(f"'{op}' needs a list on its right, not {a_type(b)}", node.right.span)
            return "bool"
        return "bool"

    def attr(self, node: n.Attr, scope: Scope) -> str:
        sym = self.sym
        if isinstance(node.obj, n.Name) and node.obj.name in sym.tracks and scope.lookup(node.obj.name) is None:
            self.used.add(("track", node.obj.name))
            if node.name not in TRACK_ATTRS:
                self.error(f"a track has no '{node.name}'", node.span, suggest(node.name, TRACK_ATTRS))
                return "any"
            return self.resolve(node, ("track_attr", node.obj.name, node.name), TRACK_ATTRS[node.name])
        t = self.expr(node.obj, scope)
        if t.startswith("entity") or t == "any":
            kind = t.partition(":")[2]
            if node.name in ENTITY_ATTRS:
                return self.resolve(node, ("entity_attr", node.name), ENTITY_ATTRS[node.name])
            if kind:
                fields = sym.fields_of(kind)
                if node.name in fields:
                    return self.resolve(node, ("field", node.name), fields[node.name][0])
                self.error(f"kind '{kind}' has no property '{node.name}'", node.span,
                           suggest(node.name, set(fields) | set(ENTITY_ATTRS)))
                return "any"
            # a card of unknown kind (from a zone, say): the property's type is what every
            # kind that declares it agrees on
            declared = {sym.fields_of(k)[node.name][0] for k in sym.kinds if node.name in sym.fields_of(k)}
            agreed = declared.pop() if len(declared) == 1 else "any"
            if t == "any":
                space_props = {p.name for sp in sym.spaces.values() for p in sp.props}
                known = {f for k in sym.kinds for f in sym.fields_of(k)} | space_props | set(SPACE_ATTRS)
                if node.name not in known:
                    self.error(f"nothing has a property '{node.name}'", node.span, suggest(node.name, known))
                is_space_prop = node.name in space_props or node.name in SPACE_ATTRS
                return self.resolve(node, ("dynamic_attr", node.name), "any" if is_space_prop else agreed)
            if not declared and agreed == "any" and not any(node.name in sym.fields_of(k) for k in sym.kinds):
                self.error(f"no kind of card or piece has a property '{node.name}'", node.span,
                           suggest(node.name, {f for k in sym.kinds for f in sym.fields_of(k)} | set(ENTITY_ATTRS)))
            return self.resolve(node, ("field", node.name), agreed)
        if t.startswith("space"):
            if node.name in SPACE_ATTRS:
                return self.resolve(node, ("space_attr", node.name), SPACE_ATTRS[node.name])
            kind = t.partition(":")[2]
            props = {p.name for sp in sym.spaces.values() if not kind or sp.kind == kind for p in sp.props}
            if node.name not in props:
                self.error(f"no {kind or 'space'} has a property '{node.name}'", node.span,
                           suggest(node.name, props | set(SPACE_ATTRS)))
            return self.resolve(node, ("space_prop", node.name), "any")
        if t == "seat" and node.name == "name":
            return self.resolve(node, ("seat_name",), "text")
        self.error(f"{a_type(t)} has no property '{node.name}'", node.span)
        return "any"

    def access(self, node: n.Access, scope: Scope) -> str:
        sym, name = self.sym, node.name
        if name in sym.tokens or (scope.lookup(name) is not None and compatible(scope.lookup(name), "token")):
            if name in sym.tokens:
                self.used.add(("token", name))
                res = ("tokens", name, False)
            else:
                res = ("tokens", name, True)
            if node.of is not None:
                self.expect(node.of, scope, "seat")
            if node.at is not None:
                self.place(node.at, scope)
            return self.resolve(node, res, "number")
        if node.at is not None and name not in sym.kinds and name not in sym.entities and sym.entity_kind_collection(name) is None:
            self.error(f"'{name} at ...' counts tokens, and '{name}' is not a token", node.span,
                       suggest(name, sym.tokens))
            return "number"
        if name in sym.vars:
            decl = sym.vars[name]
            self.used.add(("var", name))
            if decl.per is None:
                self.error(f"'{name}' is one value for the whole game, not kept per anything", node.span)
            else:
                want = "seat" if decl.per == "seat" else (
                    "space:" + decl.per if decl.per in sym.space_kinds else "entity:" + decl.per if decl.per in sym.kinds else "any")
                self.expect(node.of, scope, want)
            return self.resolve(node, ("var_of", name), self.var_type(decl))
        if name in sym.zones:
            self.used.add(("zone", name))
            if sym.zones[name].per is None:
                self.error(f"zone '{name}' is shared, not kept per seat", node.span)
            self.expect(node.of, scope, "seat")
            return self.resolve(node, ("zone_of", name), "zone")
        ekind = sym.entity_kind_collection(name)
        if ekind or name in sym.entities:
            if node.of is not None:
                self.expect(node.of, scope, "seat")
            if node.at is not None:
                self.expr(node.at, scope)
            if ekind:
                return self.resolve(node, ("pieces", ekind, "kind"), "list:entity:" + ekind)
            return self.resolve(node, ("pieces", name, "def"), "list:entity:" + sym.entities[name].kind)
        if name in sym.tracks and node.of is not None:
            self.error(f"'{name}' is a track; its marker is just '{name}'", node.span)
            return "number"
        self.unknown(node, name, set(sym.vars) | set(sym.zones) | set(sym.tokens) | set(sym.kinds))
        return "any"

    def call(self, node: n.Call, scope: Scope) -> str:
        sym, name = self.sym, node.func
        if node.comp is not None:
            if name not in AGGREGATES and name != "list":
                self.error(f"'{name}(... for ...)' is not an aggregate; use one of {', '.join(sorted(AGGREGATES))}", node.span)
                return "any"
            lt = self.expr(node.comp, scope)
            et = elem_type(lt)
            src = elem_type(self.out.types.get(id(node.comp.source), "any"))
            self.resolve(node, ("aggregate", name), "any")
            if name in ("sum", "count"):
                return "number"
            if name in ("any", "all"):
                return "bool"
            if name in ("max", "min"):
                return et
            if name in ("most", "least"):
                return "list:" + src
            if name == "first":
                return et
            return lt
        if name in sym.defines:
            d = sym.defines[name]
            self.used.add(("define", name))
            want = len(d.params or ())
            if len(node.args) != want:
                self.error(f"'{name}' takes {want} argument(s), not {len(node.args)}", node.span)
            for a in node.args:
                self.expr(a, scope)
            return self.resolve(node, ("define", name), self.define_types.get(name, "any"))
        if name in BUILTIN_FUNCTIONS:
            lo, hi, result = BUILTIN_FUNCTIONS[name]
            if not lo <= len(node.args) <= hi:
                want = str(lo) if lo == hi else f"{lo} to {hi}"
                self.error(f"'{name}' takes {want} argument(s), not {len(node.args)}", node.span)
            if name in TRACK_FUNCTIONS and node.args:
                types = [self.track_arg(node.args[0], scope)] + [self.expr(a, scope) for a in node.args[1:]]
            else:
                types = [self.expr(a, scope) for a in node.args]
            if name in ("card", "cards") and node.args:
                arg = node.args[0]
                if isinstance(arg, n.String) and arg.value not in sym.entities:
                    self.error(f"no card or piece is named \"{arg.value}\"", arg.span, suggest(arg.value, sym.entities))
                elif name == "card" and isinstance(arg, n.String):
                    result = "entity:" + sym.entities[arg.value].kind
            if name == "top" and len(node.args) == 2:
                result = "list:entity"
            if name in ("left", "right", "other", "seats_from", "seat_number") and types:
                if not compatible(types[0], "seat"):
                    self.error(f"'{name}' needs a seat, not {a_type(types[0])}", node.args[0].span)
            if name == "adjacent" and types and not (types[0].startswith("space") or types[0] == "any"):
                self.error(f"'adjacent' needs a space, not {a_type(types[0])}", node.args[0].span)
            if name == "adjacent" and types and types[0].startswith("space:"):
                result = "list:" + types[0]
            if result == "*list" and types:
                result = types[0] if types[0].startswith("list:") else "list:any"
            if "*" in result and types:
                et = elem_type(types[0]) if types[0] != "zone" else "entity"
                result = result.replace("*", et)
            if name in ("sum", "count", "any", "all", "most", "least", "first", "last") and types:
                if not listlike(types[0]):
                    self.error(f"'{name}' needs a list, not {a_type(types[0])}", node.args[0].span)
            if name in ("max", "min") and len(types) == 1 and types[0].startswith("list:"):
                result = elem_type(types[0])
            return self.resolve(node, ("builtin_fn", name), result)
        if name in sym.rules:
            self.error(f"'{name}' is a rule: call it as a statement on its own line", node.span)
            return "any"
        self.error(f"unknown function '{name}'", node.span,
                   suggest(name, set(sym.defines) | set(BUILTIN_FUNCTIONS)))
        return "any"

    # ── after all items ──

    def report_unused(self) -> None:
        sym = self.sym
        for name, decl in sym.values.items():
            if ("value", name) not in self.used:
                self.warn(f"value '{name}' is never used", self.at(decl.span, name))
        for name, decl in sym.vars.items():
            if ("var", name) not in self.used:
                self.warn(f"{decl.kind} '{name}' is never used", self.at(decl.span, name))
        for name, decl in sym.zones.items():
            if ("zone", name) not in self.used and not any(z.refill == name for z in sym.zones.values()):
                self.warn(f"zone '{name}' is never used", self.at(decl.span, name))
        for name, decl in sym.defines.items():
            if ("define", name) not in self.used:
                self.warn(f"define '{name}' is never used", self.at(decl.span, name))
        for name, decl in sym.rules.items():
            if name not in self.called_rules:
                self.warn(f"rule '{name}' is never called, so it can never be reached", self.at(decl.span, name))
        if not self.offer_all:
            for name, decl in sym.actions.items():
                if name not in self.offered:
                    self.warn(f"action '{name}' is never offered by any 'offer'", self.at(decl.span, name))


def _merge(a: str, b: str) -> str:
    """The type of a value that is either an `a` or a `b`: the more precise when they agree."""
    if a == b or b == "none":
        return a
    if a == "none":
        return b
    if a.startswith("list:") and b.startswith("list:"):
        return "list:" + _merge(a[5:], b[5:])
    if a == "any" or b == "any":
        return b if a == "any" else a
    if a.split(":")[0] == b.split(":")[0]:
        return a.split(":")[0]
    return "any"


def _const_false(node) -> bool:
    if isinstance(node, n.Bool):
        return not node.value
    if isinstance(node, n.BinOp) and isinstance(node.left, n.Number) and isinstance(node.right, n.Number):
        a, b = node.left.value, node.right.value
        ops = {"==": a == b, "!=": a != b, "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}
        return node.op in ops and not ops[node.op]
    return False


def _children(s) -> list:
    out = []
    for attr in ("body", "otherwise"):
        v = getattr(s, attr, None)
        if isinstance(v, tuple):
            out.append(v)
    if isinstance(s, n.If):
        out.extend(body for _, body in s.branches)
    return out


def check(items: list, sources: Sources | None = None) -> Checked:
    return Checker(items, sources=sources).run()
