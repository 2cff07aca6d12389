"""Lark tree in, nodes out: a pure transformation that never validates (the checker does)."""

from __future__ import annotations

import re

from lark import Token, Transformer, Tree, v_args
from lark.exceptions import VisitError

from . import nodes as n
from .parser import parse
from .source import Diagnostic, LudusError, Span

_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "{": "\\{", "}": "\\}"}


def unquote(raw: str) -> str:
    body = raw[1:-1]
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(1)), body)


def _tok(tok: Token | None) -> str | None:
    return None if tok is None else str(tok)


def _block(children) -> tuple:
    return tuple(c for c in children if c is not None)


class _Builder(Transformer):
    def __init__(self, path: str) -> None:
        super().__init__()
        self.path = path

    def span(self, meta) -> Span:
        if getattr(meta, "empty", True) and not hasattr(meta, "line"):
            return Span(self.path, 1, 1, 1, 1)
        return Span(self.path, meta.line, meta.column, meta.end_line, meta.end_column)

    def tspan(self, tok: Token) -> Span:
        return Span(self.path, tok.line, tok.column, tok.end_line or tok.line, tok.end_column or tok.column + len(tok))

    def template(self, tok: Token) -> n.Template:
        """Split a string literal on its `{expr}` holes and parse each hole as an expression."""
        raw = str(tok)[1:-1]
        parts: list = []
        pos = 0
        buf = ""
        while pos < len(raw):
            ch = raw[pos]
            if ch == "\\" and pos + 1 < len(raw):
                buf += _ESCAPES.get(raw[pos + 1], raw[pos + 1]).replace("\\{", "{").replace("\\}", "}")
                pos += 2
                continue
            if ch == "{":
                end = raw.find("}", pos)
                if end < 0:
                    col = tok.column + 1 + pos
                    span = Span(self.path, tok.line, col, tok.line, col + 1)
                    raise LudusError([Diagnostic("error", "'{' opens a hole that is never closed with '}'", span)])
                if buf:
                    parts.append(buf)
                    buf = ""
                inner = raw[pos + 1 : end]
                column = tok.column + 1 + pos + 1
                parts.append(self.hole(inner, tok.line, column))
                pos = end + 1
                continue
            buf += ch
            pos += 1
        if buf:
            parts.append(buf)
        return n.Template(tuple(parts), span=self.tspan(tok))

    def hole(self, text: str, line: int, column: int):
        try:
            tree = parse(text, self.path, start="expr")
        except LudusError as err:
            moved = []
            for d in err.diagnostics:
                col = column + d.span.column - 1
                # the hole's text ends at its '}', not at the end of a file
                message = d.message.replace("unexpected end of file", "unexpected '}'", 1)
                moved.append(Diagnostic(d.severity, message, Span(self.path, line, col, line, col + 1)))
            raise LudusError(moved) from None
        sub = _Builder(self.path)
        node = sub.transform(tree)
        return _shift(node, line - 1, column - 1)

    # ── program and declarations ──

    @v_args(meta=True)
    def start(self, meta, items):
        return n.Program(self.path, _block(items), span=self.span(meta))

    def statements(self, c):
        return _block(c)

    @v_args(meta=True)
    def game_decl(self, meta, c):
        return n.GameDecl(unquote(c[0]), span=self.span(meta))

    @v_args(meta=True)
    def players_decl(self, meta, c):
        low = int(c[0])
        high = int(c[1]) if c[1] is not None else low
        return n.PlayersDecl(low, high, span=self.span(meta))

    @v_args(meta=True)
    def sides_decl(self, meta, c):
        return n.SidesDecl(c[0], span=self.span(meta))

    @v_args(meta=True)
    def seats_decl(self, meta, c):
        return n.SeatsDecl(c[0], span=self.span(meta))

    @v_args(meta=True)
    def include_decl(self, meta, c):
        return n.IncludeDecl(unquote(c[0]), False, span=self.span(meta))

    @v_args(meta=True)
    def extends_decl(self, meta, c):
        return n.IncludeDecl(unquote(c[0]), True, span=self.span(meta))

    @v_args(meta=True)
    def remove_decl(self, meta, c):
        return n.RemoveDecl(str(c[0].children[0]), c[1], span=self.span(meta))

    def name_list(self, c):
        return tuple(str(t) for t in c)

    def override(self, c):
        return True

    def per(self, c):
        return str(c[0])

    def def_name(self, c):
        tok = c[0]
        return unquote(tok) if tok.type == "STRING" else str(tok)

    @v_args(meta=True)
    def value_decl(self, meta, c):
        return n.ValueDecl(str(c[1]), c[2], bool(c[0]), span=self.span(meta))

    @v_args(meta=True)
    def var_decl(self, meta, c):
        override, word, name, per, type_, *opts = c
        found = {"start": None, "min": None, "max": None, "resets": None, "visibility": "public"}
        for key, value in opts:
            found[key] = value
        return n.VarDecl(
            str(word.children[0]), str(name), per, type_, found["start"], found["min"], found["max"],
            found["resets"], found["visibility"], bool(override), span=self.span(meta),
        )

    def opt_start(self, c):
        return ("start", c[0])

    def opt_min(self, c):
        return ("min", c[0])

    def opt_max(self, c):
        return ("max", c[0])

    def opt_resets(self, c):
        return ("resets", str(c[0]))

    def opt_visibility(self, c):
        return ("visibility", c[0])

    def opt_refill(self, c):
        return ("refill", str(c[0]))

    def visibility(self, c):
        return " ".join(str(t) for t in c)

    @v_args(meta=True)
    def zone_decl(self, meta, c):
        override, name, per, *opts = c
        found = {"visibility": "public", "refill": None}
        for key, value in opts:
            found[key] = value
        return n.ZoneDecl(str(name), per, found["visibility"], found["refill"], bool(override), span=self.span(meta))

    @v_args(meta=True)
    def token_decl(self, meta, c):
        return n.TokenDecl(c[1], c[2], bool(c[0]), span=self.span(meta))

    @v_args(meta=True)
    def group_decl(self, meta, c):
        return n.GroupDecl(str(c[1]), c[2], bool(c[0]), span=self.span(meta))

    @v_args(meta=True)
    def type(self, meta, c):
        if len(c) == 1 and isinstance(c[0], Token):
            return n.TypeRef(str(c[0]), span=self.span(meta))
        return n.TypeRef("list", c[-1], span=self.span(meta))

    @v_args(meta=True)
    def kind_decl(self, meta, c):
        override, name, parent, *fields = c
        return n.KindDecl(str(name), _tok(parent), tuple(fields), bool(override), span=self.span(meta))

    @v_args(meta=True)
    def field_decl(self, meta, c):
        return n.FieldDecl(str(c[0]), c[1], c[2], span=self.span(meta))

    @v_args(meta=True)
    def entity_decl(self, meta, c):
        override, word, name, kind, *items = c
        props = tuple(i for i in items if isinstance(i, n.Prop))
        handlers = tuple(i for i in items if isinstance(i, n.Handler))
        return n.EntityDecl(str(word.children[0]), name, str(kind), props, handlers, bool(override), span=self.span(meta))

    @v_args(meta=True)
    def prop(self, meta, c):
        return n.Prop(str(c[0]), c[1], span=self.span(meta))

    @v_args(meta=True)
    def handler(self, meta, c):
        return n.Handler(str(c[0]), c[1], span=self.span(meta))

    @v_args(meta=True)
    def board_decl(self, meta, c):
        return n.BoardDecl(str(c[1]), tuple(c[2:]), bool(c[0]), span=self.span(meta))

    @v_args(meta=True)
    def space_decl(self, meta, c):
        kind, name, label, *rest = c
        props = rest.pop() if rest and (rest[-1] is None or isinstance(rest[-1], list)) else None
        parent, adjacent = None, ()
        for key, value in rest:
            if key == "in":
                parent = value
            else:
                adjacent = adjacent + value
        return n.SpaceDecl(
            str(kind), str(name), unquote(label) if label else None, parent, adjacent,
            tuple(props or ()), span=self.span(meta),
        )

    def space_in(self, c):
        return ("in", str(c[0]))

    def space_adjacent(self, c):
        return ("adjacent", c[0])

    def space_props(self, c):
        return list(c)

    @v_args(meta=True)
    def prop_pair(self, meta, c):
        return n.Prop(str(c[0]), c[1], span=self.span(meta))

    @v_args(meta=True)
    def track_decl(self, meta, c):
        override, name, low, high, start, *zones = c
        return n.TrackDecl(
            str(name), low, high, start if start is not None else _default_start(low, high), tuple(zones), bool(override),
            span=self.span(meta),
        )

    @v_args(meta=True)
    def end_zone(self, meta, c):
        return n.EndZone(str(c[0]), c[1], c[2], span=self.span(meta))

    def signed(self, c):
        return int(c[0])

    def negative(self, c):
        return -int(c[0])

    @v_args(meta=True)
    def define_decl(self, meta, c):
        return n.DefineDecl(str(c[1]), c[2], c[3], bool(c[0]), span=self.span(meta))

    @v_args(meta=True)
    def rule_decl(self, meta, c):
        return n.RuleDecl(str(c[1]), c[2] or (), c[3], bool(c[0]), span=self.span(meta))

    def params(self, c):
        return tuple(p for p in c if p is not None)

    @v_args(meta=True)
    def param(self, meta, c):
        return n.Param(str(c[0]), c[1], span=self.span(meta))

    @v_args(meta=True)
    def action_decl(self, meta, c):
        override, name, params, *rest = c
        label, costs, requires, body = None, [], [], []
        for item in rest:
            if isinstance(item, tuple) and item and item[0] == "label":
                label = item[1]
            elif isinstance(item, n.Cost):
                costs.append(item)
            elif isinstance(item, tuple) and item and item[0] == "require":
                requires.append(item[1])
            else:
                body.append(item)
        return n.ActionDecl(
            name, params or (), label, tuple(costs), tuple(requires), tuple(body), bool(override),
            span=self.span(meta),
        )

    def action_params(self, c):
        return tuple(c)

    @v_args(meta=True)
    def action_param(self, meta, c):
        return n.ActionParam(str(c[0]), c[1], span=self.span(meta))

    def clause_label(self, c):
        return ("label", self.template(c[0]))

    @v_args(meta=True)
    def clause_cost(self, meta, c):
        return n.Cost(c[0], str(c[1]), span=self.span(meta))

    def clause_require(self, c):
        return ("require", c[0])

    @v_args(meta=True)
    def setup_decl(self, meta, c):
        return n.SetupDecl(c[1], bool(c[0]), span=self.span(meta))

    @v_args(meta=True)
    def flow_decl(self, meta, c):
        return n.FlowDecl(c[1], bool(c[0]), span=self.span(meta))

    @v_args(meta=True)
    def when_changes(self, meta, c):
        return n.WhenDecl(str(c[0]), None, c[1], span=self.span(meta))

    @v_args(meta=True)
    def when_enters(self, meta, c):
        return n.WhenDecl(str(c[0]), str(c[1]), c[2], span=self.span(meta))

    @v_args(meta=True)
    def anytime_decl(self, meta, c):
        return n.AnytimeDecl(c[0], span=self.span(meta))

    @v_args(meta=True)
    def test_decl(self, meta, c):
        return n.TestDecl(unquote(c[0]), tuple(c[1:]), span=self.span(meta))

    @v_args(meta=True)
    def test_players(self, meta, c):
        return n.TestLine("players", int(c[0]), span=self.span(meta))

    @v_args(meta=True)
    def test_seed(self, meta, c):
        return n.TestLine("seed", int(c[0]), span=self.span(meta))

    @v_args(meta=True)
    def test_given(self, meta, c):
        return n.TestLine("given", c[0], span=self.span(meta))

    @v_args(meta=True)
    def test_force_die(self, meta, c):
        return n.TestLine("force_die", (int(str(c[0])[1:]), int(c[1])), span=self.span(meta))

    @v_args(meta=True)
    def test_do(self, meta, c):
        return n.TestLine("do", unquote(c[0]), span=self.span(meta))

    @v_args(meta=True)
    def test_answer(self, meta, c):
        return n.TestLine("answer", unquote(c[0]), span=self.span(meta))

    @v_args(meta=True)
    def test_resolve(self, meta, c):
        return n.TestLine("resolve", (unquote(c[0]), str(c[1]) if c[1] is not None else None), span=self.span(meta))

    @v_args(meta=True)
    def test_until(self, meta, c):
        return n.TestLine("until", unquote(c[0]), span=self.span(meta))

    @v_args(meta=True)
    def test_expect(self, meta, c):
        return n.TestLine("expect", c[0], span=self.span(meta))

    @v_args(meta=True)
    def test_snapshot(self, meta, c):
        return n.TestLine("snapshot", unquote(c[0]) if c[0] else None, span=self.span(meta))

    # ── statements ──

    def suite(self, c):
        return _block(c)

    @v_args(meta=True)
    def let_stmt(self, meta, c):
        return n.Let(str(c[0]), c[1], span=self.span(meta))

    @v_args(meta=True)
    def set_stmt(self, meta, c):
        return n.SetStmt(c[0], c[1], span=self.span(meta))

    @v_args(meta=True)
    def increase_stmt(self, meta, c):
        return n.Change("increase", c[0], c[1], None, span=self.span(meta))

    @v_args(meta=True)
    def decrease_stmt(self, meta, c):
        return n.Change("decrease", c[0], c[1], None, span=self.span(meta))

    @v_args(meta=True)
    def gain_stmt(self, meta, c):
        return n.Change("gain", str(c[1]), c[0], c[2], span=self.span(meta))

    @v_args(meta=True)
    def pay_stmt(self, meta, c):
        return n.Change("pay", str(c[1]), c[0], c[2], span=self.span(meta))

    @v_args(meta=True)
    def add_stmt(self, meta, c):
        return n.AddTokens(c[0], str(c[1]), c[2], c[3], span=self.span(meta))

    @v_args(meta=True)
    def remove_stmt(self, meta, c):
        amount = None if isinstance(c[0], Tree) and c[0].data == "all_word" else c[0]
        return n.RemoveTokens(amount, str(c[1]), c[2], c[3], span=self.span(meta))

    @v_args(meta=True)
    def move_tokens_stmt(self, meta, c):
        return n.MoveTokens(c[0], str(c[1]), c[2], c[3], c[4], span=self.span(meta))

    @v_args(meta=True)
    def move_stmt(self, meta, c):
        return n.MoveStmt(c[0], c[2], c[1] is not None, span=self.span(meta))

    @v_args(meta=True)
    def draw_stmt(self, meta, c):
        return n.Draw(c[0], c[1], c[2], span=self.span(meta))

    @v_args(meta=True)
    def shuffle_stmt(self, meta, c):
        return n.Shuffle(c[0], c[1], span=self.span(meta))

    @v_args(meta=True)
    def discard_stmt(self, meta, c):
        return n.ZoneOp("discard", c[0], span=self.span(meta))

    @v_args(meta=True)
    def exile_stmt(self, meta, c):
        return n.ZoneOp("exile", c[0], span=self.span(meta))

    @v_args(meta=True)
    def reveal_stmt(self, meta, c):
        return n.ZoneOp("reveal", c[0], span=self.span(meta))

    @v_args(meta=True)
    def create_stmt(self, meta, c):
        return n.Create(c[0], c[1], c[2], _tok(c[3]), span=self.span(meta))

    @v_args(meta=True)
    def roll_stmt(self, meta, c):
        kind, count, sides = c[0]
        return n.Roll(kind, count, sides, str(c[1]), span=self.span(meta))

    def one_die(self, c):
        return ("one", None, int(str(c[0])[1:]))

    def many_dice(self, c):
        return ("many", c[0], int(str(c[1])[1:]))

    def sized_die(self, c):
        return ("sized", None, c[0])

    def dice_pool(self, c):
        return ("pool", None, c[0])

    @v_args(meta=True)
    def choose_stmt(self, meta, c):
        bind, source, by, count = c
        kind, amount = count if count else (None, None)
        return n.Choose(str(bind), source, by, kind, amount, span=self.span(meta))

    def up_to(self, c):
        return ("up_to", c[0])

    def exactly(self, c):
        return ("exactly", c[0])

    @v_args(meta=True)
    def choose_range_stmt(self, meta, c):
        return n.ChooseRange(str(c[0]), c[1], c[2], c[3], span=self.span(meta))

    @v_args(meta=True)
    def ask_stmt(self, meta, c):
        return n.Ask(c[0], self.template(c[1]), str(c[2]), span=self.span(meta))

    @v_args(meta=True)
    def distribute_stmt(self, meta, c):
        return n.Distribute(c[0], c[1], c[2], str(c[3]), span=self.span(meta))

    @v_args(meta=True)
    def offer_stmt(self, meta, c):
        names, seat, stop, bind = c
        return n.Offer(names or (), seat, unquote(stop) if stop else None, _tok(bind), span=self.span(meta))

    @v_args(meta=True)
    def pass_stmt(self, meta, c):
        return n.Pass(span=self.span(meta))

    @v_args(meta=True)
    def break_stmt(self, meta, c):
        return n.Break(span=self.span(meta))

    @v_args(meta=True)
    def win_stmt(self, meta, c):
        return n.Win(c[0], span=self.span(meta))

    @v_args(meta=True)
    def lose_stmt(self, meta, c):
        return n.Lose(c[0], span=self.span(meta))

    @v_args(meta=True)
    def end_stmt(self, meta, c):
        return n.EndGame(span=self.span(meta))

    @v_args(meta=True)
    def log_stmt(self, meta, c):
        return n.Log(self.template(c[0]), span=self.span(meta))

    @v_args(meta=True)
    def resolve_stmt(self, meta, c):
        return n.Resolve(str(c[0]), c[1], span=self.span(meta))

    @v_args(meta=True)
    def call_stmt(self, meta, c):
        return n.CallStmt(str(c[0]), tuple(a for a in c[1:] if a is not None), span=self.span(meta))

    @v_args(meta=True)
    def if_stmt(self, meta, c):
        cond, body, *rest = c
        otherwise = rest.pop() if rest and isinstance(rest[-1], tuple) and rest[-1] and rest[-1][0] == "else" else None
        if rest and rest[-1] is None:
            rest.pop()
        branches = [(cond, body)] + [(e[1], e[2]) for e in rest if e is not None]
        return n.If(tuple(branches), otherwise[1] if otherwise else None, span=self.span(meta))

    def elif_clause(self, c):
        return ("elif", c[0], c[1])

    def else_clause(self, c):
        return ("else", c[0])

    @v_args(meta=True)
    def for_stmt(self, meta, c):
        _each, var, source, end, body = c
        return n.For(str(var), source, end, body, span=self.span(meta))

    @v_args(meta=True)
    def repeat_stmt(self, meta, c):
        return n.Repeat(c[0], c[1], span=self.span(meta))

    @v_args(meta=True)
    def while_stmt(self, meta, c):
        return n.While(c[0], c[1], span=self.span(meta))

    @v_args(meta=True)
    def alternate_stmt(self, meta, c):
        return n.Alternate(str(c[0]), c[1], c[2], span=self.span(meta))

    @v_args(meta=True)
    def turn_stmt(self, meta, c):
        return n.Turn(c[0], c[1], span=self.span(meta))

    @v_args(meta=True)
    def phase_stmt(self, meta, c):
        return n.Phase(c[0], c[1], span=self.span(meta))

    # ── expressions ──

    @v_args(meta=True)
    def cond_expr(self, meta, c):
        return n.CondExpr(c[0], c[1], c[2], span=self.span(meta))

    @v_args(meta=True)
    def or_expr(self, meta, c):
        return self._chain("or", c, meta)

    @v_args(meta=True)
    def and_expr(self, meta, c):
        return self._chain("and", c, meta)

    def _chain(self, op, c, meta):
        node = c[0]
        for right in c[1:]:
            node = n.BinOp(op, node, right, span=self.span(meta))
        return node

    @v_args(meta=True)
    def not_expr(self, meta, c):
        return n.Not(c[0], span=self.span(meta))

    @v_args(meta=True)
    def comparison(self, meta, c):
        left, op, right = c
        if op is None:
            return left
        return n.BinOp(op, left, right, span=self.span(meta))

    def comp_op(self, c):
        return " ".join(str(t) for t in c)

    @v_args(meta=True)
    def sum(self, meta, c):
        return self._arith(c, meta)

    @v_args(meta=True)
    def product(self, meta, c):
        return self._arith(c, meta)

    def _arith(self, c, meta):
        node = c[0]
        for i in range(1, len(c), 2):
            node = n.BinOp(str(c[i]), node, c[i + 1], span=self.span(meta))
        return node

    @v_args(meta=True)
    def neg(self, meta, c):
        if isinstance(c[0], n.Number):
            return n.Number(-c[0].value, span=self.span(meta))
        return n.Neg(c[0], span=self.span(meta))

    @v_args(meta=True)
    def of_access(self, meta, c):
        return n.Access(str(c[0]), c[1], c[2], span=self.span(meta))

    @v_args(meta=True)
    def at_access(self, meta, c):
        return n.Access(str(c[0]), None, c[1], span=self.span(meta))

    @v_args(meta=True)
    def attr(self, meta, c):
        return n.Attr(c[0], str(c[1]), span=self.span(meta))

    @v_args(meta=True)
    def call(self, meta, c):
        name, args = c
        if isinstance(args, n.Comprehension):
            return n.Call(str(name), (), span=self.span(meta), comp=args)
        return n.Call(str(name), tuple(args or ()), span=self.span(meta))

    def plain_args(self, c):
        return tuple(c)

    @v_args(meta=True)
    def comp_args(self, meta, c):
        return n.Comprehension(c[0], str(c[1]), c[2], c[3], span=self.span(meta))

    @v_args(meta=True)
    def list_comp(self, meta, c):
        return n.Comprehension(c[0], str(c[1]), c[2], c[3], span=self.span(meta))

    @v_args(meta=True)
    def number(self, meta, c):
        return n.Number(int(c[0]), span=self.span(meta))

    @v_args(meta=True)
    def string(self, meta, c):
        return n.String(unquote(c[0]), span=self.span(meta))

    @v_args(meta=True)
    def true(self, meta, c):
        return n.Bool(True, span=self.span(meta))

    @v_args(meta=True)
    def false(self, meta, c):
        return n.Bool(False, span=self.span(meta))

    @v_args(meta=True)
    def none(self, meta, c):
        return n.NoneLit(span=self.span(meta))

    @v_args(meta=True)
    def name(self, meta, c):
        return n.Name(str(c[0]), span=self.span(meta))

    @v_args(meta=True)
    def list_lit(self, meta, c):
        return n.ListLit(tuple(x for x in c if x is not None), span=self.span(meta))


def _default_start(low: int, high: int) -> int:
    """A track without `start` starts at 0 when it runs through 0, else at its low end."""
    return 0 if low <= 0 <= high else low


def _shift(node, dline: int, dcol: int):
    """Move a node parsed from a template hole to its place in the file (holes are one line)."""
    import attrs

    if isinstance(node, tuple):
        return tuple(_shift(x, dline, dcol) for x in node)
    if not attrs.has(type(node)):
        return node
    changes = {}
    for f in attrs.fields(type(node)):
        value = getattr(node, f.name)
        if f.name == "span":
            s = value
            changes["span"] = Span(s.path, s.line + dline, s.column + dcol, s.end_line + dline, s.end_column + dcol)
        elif isinstance(value, tuple) or attrs.has(type(value)):
            changes[f.name] = _shift(value, dline, dcol)
    return attrs.evolve(node, **changes)


def build(text: str, path: str = "<string>") -> n.Program:
    """Parse and build one file's nodes; syntax errors raise LudusError."""
    tree = parse(text, path)
    try:
        return _Builder(path).transform(tree)
    except VisitError as exc:
        if isinstance(exc.orig_exc, LudusError):
            raise exc.orig_exc from None
        raise
