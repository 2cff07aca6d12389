"""Files in, one merged list of declarations out: includes spliced, variants' overrides applied."""

from __future__ import annotations

from pathlib import Path

import attrs

from . import nodes as n
from .build import build
from .files import FileProblem, checked_path, read_text_file
from .source import Diagnostic, LudusError, Sources, Span, declared_at, suggest

# declarations that exist once per game, keyed by their class alone
SINGLETONS = {
    n.GameDecl: "game", n.PlayersDecl: "players", n.SidesDecl: "sides", n.SeatsDecl: "seats",
    n.SetupDecl: "setup", n.FlowDecl: "flow", n.PayoffDecl: "payoff",
}
NAMED = {
    n.ValueDecl: "value", n.VarDecl: "var", n.ZoneDecl: "zone", n.GroupDecl: "group",
    n.KindDecl: "kind", n.EntityDecl: "entity", n.BoardDecl: "board", n.TrackDecl: "track",
    n.DefineDecl: "define", n.RuleDecl: "rule", n.ActionDecl: "action", n.TestDecl: "test",
}
REMOVE_WORDS = {
    "value": "value", "counter": "var", "flag": "var", "var": "var", "zone": "zone", "token": "token",
    "group": "group", "kind": "kind", "card": "entity", "piece": "entity", "board": "board",
    "track": "track", "define": "define", "rule": "rule", "action": "action",
}


def decl_keys(item) -> list[tuple[str, str]]:
    """The (category, name) keys a declaration defines; unkeyed ones (triggers) return []."""
    if type(item) in SINGLETONS:
        return [(SINGLETONS[type(item)], "")]
    if isinstance(item, n.TokenDecl):
        return [("token", name) for name in item.names]
    if type(item) in NAMED:
        return [(NAMED[type(item)], item.name)]
    return []


class Loader:
    def __init__(self, overrides: dict[str, str] | None = None) -> None:
        # texts that stand in for files on disk, by resolved path (an editor's unsaved buffers)
        self.overrides = overrides or {}
        self.sources = Sources()
        self.diagnostics: list[Diagnostic] = []
        self.files: list[str] = []
        self.removed: dict[str, n.RemoveDecl] = {}  # name -> the variant's `remove` that took it out

    def read(self, path: Path, span: Span | None, written: str | None = None) -> n.Program | None:
        try:
            text = self.overrides.get(str(path.resolve())) if self.overrides else None
            if text is None:
                text = read_text_file(path, shown=written)
        except FileProblem as exc:
            where = self.sources.locate(span, written) if span and written else (span or Span(_safe(path), 1, 1, 1, 1))
            hint = None
            if exc.missing and written:
                try:
                    near = [p.name for p in path.parent.glob("*.ludus")]
                except OSError:
                    near = []
                hint = suggest(Path(written).name, near)
            self.diagnostics.append(Diagnostic("error", str(exc), where, hint))
            return None
        shown = _display(path)
        self.sources.add(shown, text)
        self.files.append(shown)
        try:
            return build(text, shown)
        except LudusError as err:
            self.diagnostics.extend(err.diagnostics)
            return None

    def load(self, path: Path, span: Span | None = None, stack: tuple = (), written: str | None = None) -> list:
        """The declarations of a file with its includes spliced in and its base (extends) first."""
        try:
            key = str(checked_path(path).resolve())
        except (FileProblem, OSError, ValueError) as exc:
            where = self.sources.locate(span, written) if span and written else (span or Span(_safe(path), 1, 1, 1, 1))
            reason = str(exc) if isinstance(exc, FileProblem) else f"cannot use the path: {exc}"
            self.diagnostics.append(Diagnostic("error", reason, where))
            return []
        if key in stack:
            self.diagnostics.append(Diagnostic(
                "error", f"include cycle: '{path.name}' ends up including itself", span or Span(str(path), 1, 1, 1, 1)))
            return []
        program = self.read(path, span, written)
        if program is None:
            return []
        merged: list = []
        for item in program.items:
            if isinstance(item, n.IncludeDecl):
                # `extends` and `include` splice alike: what follows may override or remove
                included = self.load(path.parent / item.path, item.span, stack + (key,), item.path)
                merged = self.merge(merged, included)
                continue
            merged = self.merge(merged, [item])
        return merged

    def merge(self, base: list, new: list) -> list:
        """Apply `new` on top of `base`: overrides replace, removals delete, duplicates are errors."""
        out = list(base)
        index: dict[tuple[str, str], int] = {}
        for i, item in enumerate(out):
            for k in decl_keys(item):
                index[k] = i
        for item in new:
            if isinstance(item, n.RemoveDecl):
                k = (REMOVE_WORDS[item.kind], item.name)
                if k not in index or out[index[k]] is None:
                    self.diagnostics.append(Diagnostic(
                        "error", f"cannot remove {item.kind} '{item.name}': it is not declared", self.sources.locate(item.span, item.name)))
                    continue
                self.removed[item.name] = item
                slot = out[index[k]]
                if isinstance(slot, n.TokenDecl) and len(slot.names) > 1:
                    # `token Wood, Ore` declares two tokens: removing one keeps the other
                    out[index[k]] = attrs.evolve(slot, names=tuple(x for x in slot.names if x != item.name))
                else:
                    out[index[k]] = None
                del index[k]
                continue
            keys = decl_keys(item)
            override = getattr(item, "override", False)
            existing = [k for k in keys if k in index]
            if override and not existing:
                self.diagnostics.append(Diagnostic(
                    "error", f"'override' needs an earlier declaration of '{keys[0][1] or keys[0][0]}' to replace",
                    self.sources.locate(item.span, keys[0][1]) if keys[0][1] else item.span))
            prev = out[index[existing[0]]] if existing else None
            # a variant may restate a base's `game`, `players`, `flow`...; one file may not say them twice
            same_file_singleton = prev is not None and type(item) in SINGLETONS and prev.span.path == item.span.path
            if existing and not override and (type(item) not in SINGLETONS or same_file_singleton):
                # replacing a declaration of another file (a base) is what 'override' is for
                hint = "write 'override' before the declaration to replace it" if prev.span.path != item.span.path else None
                what = existing[0][1] or existing[0][0]
                self.diagnostics.append(Diagnostic(
                    "error", f"'{what}' is already declared {declared_at(prev.span, item.span)}",
                    self.sources.locate(item.span, what), hint=hint))
                continue
            if existing:
                slot = index[existing[0]]
                out[slot] = item
                for k in keys:
                    index[k] = slot
            else:
                out.append(item)
                for k in keys:
                    index[k] = len(out) - 1
        return [x for x in out if x is not None]


def _safe(path) -> str:
    """A path fit to print in a span: control characters escaped."""
    return str(path).encode("unicode_escape").decode("ascii")[:300]


def _display(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def load_declarations(path: str | Path, overrides: dict[str, str] | None = None) -> tuple[list, Loader]:
    """The merged declarations of a game; `overrides` maps resolved paths to texts read instead
    of those files (the language server's open buffers)."""
    loader = Loader(overrides)
    items = loader.load(Path(path))
    return _with_implicit_kinds(items), loader


def _with_implicit_kinds(items: list) -> list:
    """`card "Lamp"` (no `is`) is of kind Card: declare it, without properties, unless the game does."""
    from .build.declarations import IMPLICIT_KINDS

    declared = {i.name for i in items if isinstance(i, n.KindDecl)}
    wanted: dict[str, n.EntityDecl] = {}
    for i in items:
        if isinstance(i, n.EntityDecl) and i.kind == IMPLICIT_KINDS[i.word] and i.kind not in declared:
            wanted.setdefault(i.kind, i)
    extra = [n.KindDecl(kind, None, (), False, span=first.span) for kind, first in wanted.items()]
    return extra + items
