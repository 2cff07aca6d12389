"""Statements: effects, decisions, control flow."""

from __future__ import annotations

from lark import Tree, v_args

from .. import nodes as n
from ..source import NO_SPAN
from .base import BuilderBase, _block, _tok, unquote


class StatementBuilder(BuilderBase):
    """One method per statement rule of the grammar."""

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
        return n.ZoneOp("reveal", c[0], c[1], span=self.span(meta))

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
        bind, source, by, blind, count, question = c
        kind, amount = count if count else (None, None)
        return n.Choose(str(bind), source, by, kind, amount, self._question(question), span=self.span(meta),
                        blind=blind is not None, blind_span=blind if blind is not None else NO_SPAN)

    @v_args(meta=True)
    def blind(self, meta, c):
        return self.span(meta)

    def _question(self, tok):
        return None if tok is None else self.template(tok)

    def up_to(self, c):
        return ("up_to", c[0])

    def exactly(self, c):
        return ("exactly", c[0])

    @v_args(meta=True)
    def choose_range_stmt(self, meta, c):
        return n.ChooseRange(str(c[0]), c[1], c[2], c[3], self._question(c[4]), span=self.span(meta))

    @v_args(meta=True)
    def ask_stmt(self, meta, c):
        return n.Ask(c[0], self.template(c[1]), str(c[2]), span=self.span(meta))

    @v_args(meta=True)
    def distribute_stmt(self, meta, c):
        return n.Distribute(c[0], c[1], c[2], str(c[3]), self._question(c[4]), span=self.span(meta))

    @v_args(meta=True)
    def offer_stmt(self, meta, c):
        names, seat, stop, bind, question = c
        return n.Offer(names or (), seat, unquote(stop) if stop else None, _tok(bind), self._question(question),
                       span=self.span(meta))

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
    def for_where_stmt(self, meta, c):
        # `for each c in L where COND:` is `for each c in [c for c in L where COND]:`, so the
        # checker, the compiler and the rules' English treat it as the loop it means
        _each, var, source, cond, body = c
        span = self.span(meta)
        kept = n.Comprehension(n.Name(str(var), span=span), str(var), source, cond, span=span)
        return n.For(str(var), kept, None, body, span=span)

    @v_args(meta=True)
    def repeat_stmt(self, meta, c):
        return n.Repeat(c[0], c[1], span=self.span(meta))

    @v_args(meta=True)
    def while_stmt(self, meta, c):
        return n.While(c[0], c[1], span=self.span(meta))

    @v_args(meta=True)
    def alternate_stmt(self, meta, c):
        ending = [str(t) for t in c[2].children]  # `all pass` or `one left`
        return n.Alternate(str(c[0]), c[1], c[3], one_left=ending == ["one", "left"], span=self.span(meta))

    @v_args(meta=True)
    def turn_stmt(self, meta, c):
        return n.Turn(c[0], c[1], span=self.span(meta))

    @v_args(meta=True)
    def phase_stmt(self, meta, c):
        return n.Phase(c[0], c[1], span=self.span(meta))

