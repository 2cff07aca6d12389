"""Lark tree in, nodes out: a pure transformation that never validates (the checker does).

The builder is one Lark Transformer assembled from its parts: declarations, statements and
expressions, one method per grammar rule, named as the rule.
"""

from __future__ import annotations

import functools
import hashlib
import pickle
import sys
import threading
from collections import OrderedDict
from pathlib import Path

import lark
from lark.exceptions import VisitError

from .. import cache
from .. import nodes as n
from ..parser import grammar_path, parse
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


def build(text: str, path: str = "<string>", keep: bool = False) -> n.Program:
    """Parse and build one file's nodes; syntax errors raise LudusError. With `keep` (a file
    read from disk), the nodes are also kept in the user's disk cache, so that the next process
    to load the same file reads them instead of parsing it again."""
    key = (path, text)
    with _BUILT_LOCK:
        program = _BUILT.get(key)
        if program is not None:
            _BUILT.move_to_end(key)
            return program
    program = _from_disk(path, text) if keep else None
    if program is None:
        program = _build(text, path)
        if keep:
            _to_disk(path, text, program)
    with _BUILT_LOCK:
        _BUILT[key] = program
        while len(_BUILT) > _BUILT_MAX:
            _BUILT.popitem(last=False)
    return program


# The disk cache of built files (ludus/language/cache.py, kind "built"). Parsing is most of what
# a process pays to load a game the first time (Votes for Women: its seven files take about
# 0.3 s to parse, 0.02 s to read back), and a designer runs `ludus check`, `play` and `test` on
# files most of which did not change since the last run. A file is kept under a hash of its
# text, its path as shown (it is in every span) and the code that makes nodes: the grammar and
# every module of ludus/language, so a ludus that builds a file differently never reads what
# another built. Only files that built without an error are kept; the LSP's unsaved buffers and
# texts typed at the REPL are not (each edit would leave a file).
BUILT_FORMAT = 1


@functools.cache
def _code_digest() -> str | None:
    """A digest of what the nodes of a file depend on besides its text: the grammar, the
    language's modules, Lark's and Python's versions. None (nothing is cached) when a module's
    source cannot be read."""
    digest = hashlib.sha256(f"{BUILT_FORMAT}\0{sys.version}\0{lark.__version__}".encode())
    here = Path(__file__).resolve().parent.parent
    try:
        for module in [grammar_path(), *sorted(here.glob("*.py")), *sorted(here.glob("build/*.py"))]:
            digest.update(module.name.encode() + b"\0" + module.read_bytes())
    except OSError:
        return None
    return digest.hexdigest()


def _disk_key(path: str, text: str) -> str | None:
    code = _code_digest()
    if code is None:
        return None
    return hashlib.sha256(f"{code}\0{path}\0{text}".encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _from_disk(path: str, text: str) -> n.Program | None:
    key = _disk_key(path, text)
    data = cache.read("built", key) if key else None
    if data is None:
        return None
    try:
        program = pickle.loads(data)
    except Exception:  # whole and for this key, yet not nodes this ludus can read: built again
        return None
    return program if isinstance(program, n.Program) else None


def _to_disk(path: str, text: str, program: n.Program) -> None:
    key = _disk_key(path, text)
    if key is None:
        return
    try:
        data = pickle.dumps(program, protocol=pickle.HIGHEST_PROTOCOL)
    except RecursionError:  # nodes nested near the parser's limit: parsed again next time
        return
    cache.write("built", key, data)


def _build(text: str, path: str) -> n.Program:
    tree = parse(text, path)
    try:
        return Builder(path).transform(tree)
    except VisitError as exc:
        if isinstance(exc.orig_exc, LudusError):
            raise exc.orig_exc from None
        raise

