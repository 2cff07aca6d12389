"""The language server: pygls wiring around the Workspace (workspace.py), on stdio.

Diagnostics are those of `ludus check`, for the whole game a file belongs to, computed from the
open buffers' text; hover, definition, completion and the outline answer from the last analysis.
Only this module imports pygls and lsprotocol (the `lsp` extra).
"""

from __future__ import annotations

import asyncio

from lsprotocol import types as t
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from ..language.source import Diagnostic, Span
from .workspace import OutlineItem, Workspace

SYMBOL_KINDS = {
    "game": t.SymbolKind.File, "players": t.SymbolKind.Property, "sides": t.SymbolKind.Property,
    "seats": t.SymbolKind.Property, "value": t.SymbolKind.Constant, "counter": t.SymbolKind.Variable,
    "flag": t.SymbolKind.Boolean, "var": t.SymbolKind.Variable, "zone": t.SymbolKind.Array,
    "token": t.SymbolKind.EnumMember, "group": t.SymbolKind.Enum, "kind": t.SymbolKind.Struct,
    "card": t.SymbolKind.Object, "piece": t.SymbolKind.Object, "handler": t.SymbolKind.Event,
    "board": t.SymbolKind.Namespace, "track": t.SymbolKind.Number, "define": t.SymbolKind.Function,
    "rule": t.SymbolKind.Function, "action": t.SymbolKind.Method, "setup": t.SymbolKind.Module,
    "flow": t.SymbolKind.Module, "payoff": t.SymbolKind.Module, "when": t.SymbolKind.Event,
    "test": t.SymbolKind.Method, "include": t.SymbolKind.Package, "remove": t.SymbolKind.Null,
}
# typing pauses this long (seconds) before the game is analysed again: a big game takes a few
# tenths of a second, which would otherwise be spent on every keystroke
PAUSE = 0.25

COMPLETION_KINDS = {
    "keyword": t.CompletionItemKind.Keyword, "value": t.CompletionItemKind.Constant,
    "counter": t.CompletionItemKind.Variable, "zone": t.CompletionItemKind.Variable,
    "token": t.CompletionItemKind.EnumMember, "group": t.CompletionItemKind.Enum,
    "kind": t.CompletionItemKind.Struct, "space": t.CompletionItemKind.Value,
    "spaces": t.CompletionItemKind.Value, "track": t.CompletionItemKind.Variable,
    "define": t.CompletionItemKind.Function, "rule": t.CompletionItemKind.Function,
    "action": t.CompletionItemKind.Method, "seat": t.CompletionItemKind.Constant,
    "card": t.CompletionItemKind.Class, "piece": t.CompletionItemKind.Class,
    "built-in name": t.CompletionItemKind.Variable, "built-in function": t.CompletionItemKind.Function,
}


def to_range(span: Span) -> t.Range:
    """A ludus span (1-based, end exclusive; a declaration's may end at column 1 of the next
    line) as an LSP range (0-based)."""
    line, col = max(span.line - 1, 0), max(span.column - 1, 0)
    end_line, end_col = max(span.end_line - 1, line), max(span.end_column - 1, 0)
    if end_line > line and end_col == 0:
        end_line, end_col = end_line - 1, 10_000  # to the end of the line before
    if end_line == line and end_col <= col:
        end_col = col + 1
    return t.Range(t.Position(line, col), t.Position(end_line, end_col))


def to_lsp_diagnostic(d: Diagnostic) -> t.Diagnostic:
    severity = t.DiagnosticSeverity.Error if d.severity == "error" else t.DiagnosticSeverity.Warning
    message = d.message + (f"\n{d.hint}" if d.hint else "")
    return t.Diagnostic(range=to_range(d.span), message=message, severity=severity, source="ludus")


def to_document_symbol(item: OutlineItem) -> t.DocumentSymbol:
    whole = to_range(item.span)
    head = t.Range(whole.start, t.Position(whole.start.line, 10_000))
    return t.DocumentSymbol(name=item.name or "?", detail=item.kind, kind=SYMBOL_KINDS.get(item.kind, t.SymbolKind.Key),
                            range=whole, selection_range=head,
                            children=[to_document_symbol(c) for c in item.children] or None)


class LudusServer(LanguageServer):
    def __init__(self) -> None:
        from importlib.metadata import PackageNotFoundError, version

        try:
            ours = version("ludus")
        except PackageNotFoundError:  # pragma: no cover - run from a checkout without installing
            ours = "0"
        super().__init__("ludus", ours)
        self.ludus = Workspace()
        self.published: dict[str, set[str]] = {}  # game -> the URIs it last sent diagnostics for
        self.pending: dict[str, asyncio.TimerHandle] = {}  # uri -> its analysis, waiting for a pause
        self.analysing: set[asyncio.Task] = set()  # held here: the loop keeps only weak references to tasks

    def refresh_soon(self, uri: str) -> None:
        """Analyse after a pause in typing; each edit pushes the analysis back."""
        waiting = self.pending.pop(uri, None)
        if waiting is not None:
            waiting.cancel()
        self.pending[uri] = asyncio.get_running_loop().call_later(PAUSE, self._refresh_now, uri)

    def _refresh_now(self, uri: str) -> asyncio.Task:
        """Analyse on a worker thread, so that hover, completion and the edits that keep coming
        are answered meanwhile; publish on the event loop, unless the text changed since (its
        own analysis is on the way). An analysis waiting for a pause in typing is not needed
        after this one: it is called off."""
        waiting = self.pending.pop(uri, None)
        if waiting is not None:
            waiting.cancel()
        task = asyncio.ensure_future(self._analyse_and_publish(uri, self.ludus.version))
        self.analysing.add(task)
        task.add_done_callback(self.analysing.discard)
        return task

    async def _analyse_and_publish(self, uri: str, version: int) -> None:
        loop = asyncio.get_running_loop()
        analysis = await loop.run_in_executor(self.thread_pool, self.ludus.analyse, self.path_of(uri))
        if self.ludus.version == version:
            self.publish(analysis)

    def path_of(self, uri: str) -> str:
        return to_fs_path(uri) or uri

    def publish(self, analysis) -> None:
        """Send the diagnostics of every file of an analysed game; clear those of files it no
        longer reads."""
        sent = set()
        for path, diags in analysis.diagnostics.items():
            file_uri = from_fs_path(path) or path
            sent.add(file_uri)
            self.text_document_publish_diagnostics(t.PublishDiagnosticsParams(
                uri=file_uri, diagnostics=[to_lsp_diagnostic(d) for d in diags]))
        for gone in self.published.get(analysis.game, set()) - sent:
            self.text_document_publish_diagnostics(t.PublishDiagnosticsParams(uri=gone, diagnostics=[]))
        self.published[analysis.game] = sent


def make_server() -> LudusServer:
    server = LudusServer()

    @server.feature(t.TEXT_DOCUMENT_DID_OPEN)
    async def did_open(ls: LudusServer, params: t.DidOpenTextDocumentParams) -> None:
        ls.ludus.open(ls.path_of(params.text_document.uri), params.text_document.text)
        await ls._refresh_now(params.text_document.uri)  # on a worker thread, as typing's is

    @server.feature(t.TEXT_DOCUMENT_DID_CHANGE)
    async def did_change(ls: LudusServer, params: t.DidChangeTextDocumentParams) -> None:
        doc = ls.workspace.get_text_document(params.text_document.uri)
        ls.ludus.open(ls.path_of(params.text_document.uri), doc.source)
        ls.refresh_soon(params.text_document.uri)

    @server.feature(t.TEXT_DOCUMENT_DID_SAVE)
    async def did_save(ls: LudusServer, params: t.DidSaveTextDocumentParams) -> None:
        await ls._refresh_now(params.text_document.uri)

    @server.feature(t.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: LudusServer, params: t.DidCloseTextDocumentParams) -> None:
        ls.ludus.close(ls.path_of(params.text_document.uri))

    @server.feature(t.TEXT_DOCUMENT_HOVER)
    @server.thread()  # it may analyse the game afresh: off the event loop
    def hover(ls: LudusServer, params: t.HoverParams) -> t.Hover | None:
        pos = params.position
        text = ls.ludus.hover(ls.path_of(params.text_document.uri), pos.line, pos.character)
        if text is None:
            return None
        return t.Hover(contents=t.MarkupContent(kind=t.MarkupKind.Markdown, value=text))

    @server.feature(t.TEXT_DOCUMENT_DEFINITION)
    @server.thread()  # it may analyse the game afresh: off the event loop
    def definition(ls: LudusServer, params: t.DefinitionParams) -> t.Location | None:
        pos = params.position
        found = ls.ludus.definition(ls.path_of(params.text_document.uri), pos.line, pos.character)
        if found is None:
            return None
        path, span = found
        return t.Location(uri=from_fs_path(path) or path, range=to_range(span))

    @server.feature(t.TEXT_DOCUMENT_COMPLETION, t.CompletionOptions(trigger_characters=['"']))
    @server.thread()  # it may analyse the game afresh: off the event loop
    def completion(ls: LudusServer, params: t.CompletionParams) -> t.CompletionList:
        pos = params.position
        items = ls.ludus.completions(ls.path_of(params.text_document.uri), pos.line, pos.character)
        return t.CompletionList(is_incomplete=False, items=[
            t.CompletionItem(label=label, kind=COMPLETION_KINDS.get(kind, t.CompletionItemKind.Text),
                             detail=kind + (f" ({detail})" if detail else ""))
            for label, kind, detail in items])

    @server.feature(t.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    @server.thread()  # it may analyse the game afresh: off the event loop
    def document_symbol(ls: LudusServer, params: t.DocumentSymbolParams) -> list[t.DocumentSymbol]:
        return [to_document_symbol(i) for i in ls.ludus.outline(ls.path_of(params.text_document.uri))]

    return server


def serve() -> None:
    make_server().start_io()
