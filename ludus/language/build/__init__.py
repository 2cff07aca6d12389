"""Lark tree in, nodes out: a pure transformation that never validates (the checker does).

The builder is one Lark Transformer assembled from its parts: declarations, statements and
expressions, one method per grammar rule, named as the rule.
"""

from __future__ import annotations

from lark.exceptions import VisitError

from .. import nodes as n
from ..parser import parse
from ..source import LudusError
from .base import shift_spans, unquote
from .declarations import DeclarationBuilder
from .expressions import ExpressionBuilder
from .statements import StatementBuilder

__all__ = ["Builder", "build", "shift_spans", "unquote"]


class Builder(DeclarationBuilder, StatementBuilder, ExpressionBuilder):
    """Turns one parsed file into nodes; `path` goes into every span."""


def build(text: str, path: str = "<string>") -> n.Program:
    """Parse and build one file's nodes; syntax errors raise LudusError."""
    tree = parse(text, path)
    try:
        return Builder(path).transform(tree)
    except VisitError as exc:
        if isinstance(exc.orig_exc, LudusError):
            raise exc.orig_exc from None
        raise

