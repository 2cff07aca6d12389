"""Expressions: operators, access, calls, literals."""

from __future__ import annotations

import re

from lark import v_args

from .. import nodes as n
from .base import BuilderBase, unquote

# an unescaped '{' opens a hole: every string is a text with holes
_HOLE = re.compile(r"(?<!\\)(?:\\\\)*\{")


class ExpressionBuilder(BuilderBase):
    """One method per expression rule of the grammar."""

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
        if _HOLE.search(str(c[0])):
            return self.template(c[0])
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


