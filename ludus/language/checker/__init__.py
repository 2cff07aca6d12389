"""Declarations in, symbols + resolutions + diagnostics out. The checker never changes a node.

Every name is resolved here once; the compiler reads the resolutions (keyed by node identity)
instead of looking names up again. The checker is one class assembled from its parts:
declarations (pass 1 and 2), statements, expressions.
"""

from __future__ import annotations

from ..source import Sources
from .base import Checked, CheckerBase, Scope
from .declarations import DeclarationChecks
from .expressions import ExpressionChecks
from .statements import StatementChecks

__all__ = ["Checked", "Checker", "Scope", "check"]


class Checker(CheckerBase, DeclarationChecks, StatementChecks, ExpressionChecks):
    """Checks a game's declarations; `run()` returns a `Checked`."""


def check(items: list, sources: Sources | None = None) -> Checked:
    checked = Checker(items, sources=sources).run()
    if any(getattr(i, "origin", None) is not None for i in items):
        # the cards of a run (language/runs.py) share its line: a slip in its properties is
        # checked once per card, and is one slip, said once
        seen: set = set()
        checked.diagnostics[:] = [d for d in checked.diagnostics
                                  if (key := (d.severity, d.message, d.span, d.hint)) not in seen and not seen.add(key)]
    return checked
