"""Lark tree in, nodes out: a pure transformation that never validates (the checker does).

The builder is one Lark Transformer assembled from its parts: declarations, statements and
expressions, one method per grammar rule, named as the rule.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

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


# Files built lately, by (path, text): nodes are immutable, so a file that has not changed is
# not parsed again when its game is loaded again in the same process (the REPL's reload, the
# language server after each edit, a simulation worker, a test suite). Failures are not kept.
_BUILT: OrderedDict[tuple[str, str], n.Program] = OrderedDict()
_BUILT_MAX = 128
_BUILT_LOCK = threading.Lock()


def build(text: str, path: str = "<string>") -> n.Program:
    """Parse and build one file's nodes; syntax errors raise LudusError."""
    key = (path, text)
    with _BUILT_LOCK:
        program = _BUILT.get(key)
        if program is not None:
            _BUILT.move_to_end(key)
            return program
    program = _build(text, path)
    with _BUILT_LOCK:
        _BUILT[key] = program
        while len(_BUILT) > _BUILT_MAX:
            _BUILT.popitem(last=False)
    return program


def _build(text: str, path: str) -> n.Program:
    tree = parse(text, path)
    try:
        return Builder(path).transform(tree)
    except VisitError as exc:
        if isinstance(exc.orig_exc, LudusError):
            raise exc.orig_exc from None
        raise

