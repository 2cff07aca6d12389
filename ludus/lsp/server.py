"""The language server: pygls wiring around the Workspace (workspace.py), on stdio.

Diagnostics are those of `ludus check`, for the whole game a file belongs to, computed from the
open buffers' text; hover, definition, completion and the outline answer from an analysis of
the text as it is when they are asked, the edits read before them taken in first (caught_up).
Formatting is `ludus fmt` applied to the buffer's text, sent back as the lines it changes;
references and rename answer from the names of the analysed game (names.py); a diagnostic that
says "did you mean 'x'?" carries the name meant in its `data`, and comes back with it for the
quick fix that puts x in place (never read from the hint's words).
Only this module imports pygls and lsprotocol (the `lsp` extra).

The editor's messages are read here (stdio.py cuts them out of the bytes), not by pygls's own
loop: that loop logs a traceback for a message it cannot read and leaves a request whose params
do not fit unanswered, so the editor waits for ever. Here every request gets an answer (its
result, or the JSON-RPC error that says what was wrong with it), and stderr gets one line per
problem.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import os
import re
import signal
import sys
import threading
from urllib.parse import unquote

from cattrs import Converter, transform_error
from cattrs.errors import ClassValidationError
from lsprotocol import types as t
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer
from pygls.protocol import JsonRPCNotification, JsonRPCRequestMessage, LanguageServerProtocol, lsp_method
from pygls.uris import from_fs_path, to_fs_path

from ..language.source import Diagnostic, Span, Suggestion
from .edits import line_edits
from .stdio import Problem, Reader
from .text import Text
from .workspace import Analysis, OutlineItem, Refused, Workspace, resolved

log = logging.getLogger("ludus.lsp")

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
NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
NAME_CHAR = re.compile(r"[A-Za-z0-9_]")
# typing pauses this long (seconds) before the game is analysed again: a big game takes a few
# tenths of a second, which would otherwise be spent on every keystroke
PAUSE = 0.25
# how long (seconds) a request waits at most for the event loop to take in the edits read before it
CATCH_UP = 5.0

COMPLETION_KINDS = {
    "keyword": t.CompletionItemKind.Keyword, "value": t.CompletionItemKind.Constant,
    "counter": t.CompletionItemKind.Variable, "flag": t.CompletionItemKind.Variable,
    "var": t.CompletionItemKind.Variable, "zone": t.CompletionItemKind.Variable,
    "token": t.CompletionItemKind.EnumMember, "group": t.CompletionItemKind.Enum,
    "kind": t.CompletionItemKind.Struct, "space": t.CompletionItemKind.Value,
    "spaces": t.CompletionItemKind.Value, "track": t.CompletionItemKind.Variable,
    "define": t.CompletionItemKind.Function, "rule": t.CompletionItemKind.Function,
    "action": t.CompletionItemKind.Method, "seat": t.CompletionItemKind.Constant,
    "card": t.CompletionItemKind.Class, "piece": t.CompletionItemKind.Class,
    "built-in name": t.CompletionItemKind.Variable, "built-in function": t.CompletionItemKind.Function,
}


def to_range(span: Span, doc: Text) -> t.Range:
    """A ludus span (1-based, end exclusive; a declaration's may end at column 1 of the next
    line) as an LSP range in the document, counted as the editor counts."""
    start = doc.ludus_offset(span.line, span.column)
    if span.end_line > span.line and span.end_column <= 1:
        end = doc.ludus_offset(span.end_line - 1, len(doc.text) + 1)  # to the end of the line before
    else:
        end = doc.ludus_offset(span.end_line, span.end_column)
    if end <= start:  # an empty span is shown on the character it is at, if there is one
        end = start + 1 if doc.text[start:start + 1] not in ("", "\r", "\n") else start
    return t.Range(t.Position(*doc.position(start)), t.Position(*doc.position(end)))


def to_lsp_diagnostic(d: Diagnostic, doc: Text) -> t.Diagnostic:
    severity = t.DiagnosticSeverity.Error if d.severity == "error" else t.DiagnosticSeverity.Warning
    message = d.message + (f"\n{d.hint}" if d.hint else "")
    return t.Diagnostic(range=to_range(d.span, doc), message=message, severity=severity, source="ludus", code=d.code,
                        data=suggestion_data(d.suggestion))


def suggestion_data(suggestion: Suggestion | None) -> dict | None:
    """What a diagnostic's `data` holds of the name its hint suggests: the editor sends it back
    with the diagnostic in a code action request (LSP 3.16), for the quick fix."""
    if suggestion is None:
        return None
    return {"suggestion": {"name": suggestion.name, "meant": list(suggestion.meant)}}


def suggestion_of(data: object) -> Suggestion | None:
    """The suggestion in a diagnostic's `data` as the editor sent it back, or None where it holds
    none (another diagnostic, or data an editor changed: it is the editor's to send)."""
    said = data.get("suggestion") if isinstance(data, dict) else None
    if not isinstance(said, dict):
        return None
    name, meant = said.get("name"), said.get("meant")
    if not isinstance(name, str) or not name or not isinstance(meant, list) or not meant \
            or not all(isinstance(m, str) and m for m in meant):
        return None
    return Suggestion(name, tuple(meant))


def to_document_symbol(item: OutlineItem, doc: Text) -> t.DocumentSymbol:
    whole = to_range(item.span, doc)
    # the first line, within the whole (LSP wants the one inside the other)
    head_end = min(whole.end, t.Position(*doc.position(doc.line_end(whole.start.line))),
                   key=lambda p: (p.line, p.character))
    return t.DocumentSymbol(name=item.name or "?", detail=item.kind, kind=SYMBOL_KINDS.get(item.kind, t.SymbolKind.Key),
                            range=whole, selection_range=t.Range(whole.start, head_end),
                            children=[to_document_symbol(c, doc) for c in item.children] or None)


EXIT = object()  # what LudusServer._checked makes of an `exit` notification


class Unfit(Exception):
    """A message that is JSON but not one the server can act on: its JSON-RPC error code, and
    what is wrong in one line."""

    def __init__(self, code: int, text: str) -> None:
        super().__init__(text)
        self.code = code


def _camel(match: re.Match) -> str:
    return match.group(1).upper()


class LudusProtocol(LanguageServerProtocol):
    def __init__(self, server: LanguageServer, converter: Converter) -> None:
        super().__init__(server, converter)
        # pygls hands the protocol its converter (the server's converter_factory) and keeps it
        # only under a private name: kept here under ours
        self.converter = converter

    def structured(self, data: dict):
        """A request or a notification as lsprotocol's type for its method, or Unfit saying
        which field does not fit, by its name in the protocol (`textDocument`, not pygls's
        `text_document`)."""
        method = data["method"]
        kind = self.get_message_type(method)
        if kind is None:  # a method ludus does not know: pygls answers MethodNotFound
            kind = JsonRPCRequestMessage if "id" in data else JsonRPCNotification
            data = {"params": None, **data}
        try:
            return self.converter.structure(data, kind)
        except ClassValidationError as exc:
            problems = [re.sub(r"_([a-z])", _camel, p).replace(" @ $.", " at ") for p in transform_error(exc)]
            raise Unfit(t.ErrorCodes.InvalidParams, f"{method}: invalid params: {'; '.join(problems)}") from None
        except (TypeError, ValueError, KeyError, AttributeError) as exc:
            raise Unfit(t.ErrorCodes.InvalidRequest, f"{method}: not a message LSP knows ({exc})") from None

    @lsp_method(t.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: t.DidChangeTextDocumentParams):
        """The edits applied here (text.py), then the document's text handed to pygls whole.
        pygls put an edit past the end of a line one character before that end, or at the
        start of the next line, and counted lines as Python's splitlines does (a form feed
        ends a line there): its copy of the document drifted from the editor's. A change to
        a document never opened has nothing to apply to: it is ignored, with a line on stderr."""
        uri = params.text_document.uri
        if unquote(uri) not in self.workspace.text_documents:
            log.warning("ignored a change to %s: it is not open", uri)
            return
        text = self.workspace.get_text_document(uri).source
        for change in params.content_changes:
            if isinstance(change, t.TextDocumentContentChangePartial):
                start, end = change.range.start, change.range.end
                text = Text(text, self.workspace.position_encoding).edited(
                    (start.line, start.character), (end.line, end.character), change.text)
            else:
                text = change.text
        self.workspace.update_text_document(params.text_document, t.TextDocumentContentChangeWholeDocument(text=text))
        if (handler := self.fm.features.get(t.TEXT_DOCUMENT_DID_CHANGE)) is not None:
            yield handler, (params,), None


class LudusServer(LanguageServer):
    def __init__(self) -> None:
        from importlib.metadata import PackageNotFoundError, version

        try:
            ours = version("ludus")
        except PackageNotFoundError:  # pragma: no cover - run from a checkout without installing
            ours = "0"
        super().__init__("ludus", ours, protocol_cls=LudusProtocol)
        self.started = False  # `initialize` came: LSP answers nothing else before it
        self.stopping = False  # `shutdown` came: LSP answers nothing but `exit` after it
        self.ludus_buffers: set[str] = set()  # URIs the editor opened as ludus, whatever their name
        self.opened: dict[str, str] = {}  # resolved path -> the URI of the document open there
        self.ludus = Workspace()
        self.published: dict[str, set[str]] = {}  # game -> the URIs it last sent diagnostics for
        self.pending: dict[str, asyncio.TimerHandle] = {}  # uri -> its analysis, waiting for a pause
        self.wanted: dict[str, None] = {}  # URIs to analyse once the analysis under way ends, each once
        self.analyser: asyncio.Task | None = None  # the one task that analyses them, in turn
        self.analysing: set[asyncio.Task] = set()  # held here: the loop keeps only weak references to tasks
        self.reading: asyncio.AbstractEventLoop | None = None  # the loop messages are handed to pygls on

    def caught_up(self) -> None:
        """On a worker thread, before a request is answered: wait for the event loop to have
        run the handlers of the messages read before the request. pygls starts a request's
        worker at once, and the handler of an edit (or an open) read just before it at the
        loop's next turn: a hover right after typing was answered from the text before the
        edit, at places that no longer matched it. Costs one turn of the loop, which is idle
        but for handing messages on; nothing where no loop reads messages (a handler called
        directly) or on the loop itself."""
        loop = self.reading
        if loop is None or loop.is_closed():
            return
        with contextlib.suppress(RuntimeError):  # no loop runs on this thread: the usual case
            if asyncio.get_running_loop() is loop:
                return
        turned = threading.Event()
        try:
            loop.call_soon_threadsafe(turned.set)
        except RuntimeError:  # the loop closed meanwhile: the session is ending
            return
        # bounded: a loop that has stopped turning (the session ending) must not hold a worker
        turned.wait(CATCH_UP)

    def refresh_soon(self, uri: str) -> None:
        """Analyse after a pause in typing; each edit pushes the analysis back."""
        waiting = self.pending.pop(uri, None)
        if waiting is not None:
            waiting.cancel()
        self.pending[uri] = asyncio.get_running_loop().call_later(PAUSE, self._refresh_now, uri)

    def _refresh_now(self, uri: str) -> asyncio.Task:
        """Analyse on a worker thread, so that hover, completion and the edits that keep coming
        are answered meanwhile; publish on the event loop, unless the text of one of the
        game's files changed since (its own analysis is on the way). An analysis waiting for a
        pause in typing is not needed after this one: it is called off.

        One analysis runs at a time. A thread cannot be stopped, and pygls cancels only
        requests that have not begun: each save or pause in typing while a long analysis ran
        started another, all of them of text already overtaken, filling the threads that
        hover, completion and the reading of stdin wait for. Now a document asked for while
        one runs is analysed once, with whatever came meanwhile, when it ends; and results are
        published in the order their analyses began, so an older never follows a newer (a file
        changed on disk, which moves no edit count, could do that). Returns the task that
        analyses the documents asked for, this one among them."""
        waiting = self.pending.pop(uri, None)
        if waiting is not None:
            waiting.cancel()
        self.wanted[uri] = None
        if self.analyser is None or self.analyser.done():
            self.analyser = asyncio.ensure_future(self._analyse_wanted())
            self.analysing.add(self.analyser)
            self.analyser.add_done_callback(self.analysing.discard)
        return self.analyser

    async def _analyse_wanted(self) -> None:
        while self.wanted:
            uri = next(iter(self.wanted))
            del self.wanted[uri]
            try:
                await self._analyse_and_publish(uri, self.ludus.version)
            except Exception as exc:  # a fault of ludus: the documents after it are analysed still
                log.error("could not analyse %s: %s: %s", uri, type(exc).__name__, exc)

    async def _analyse_and_publish(self, uri: str, version: int) -> None:
        loop = asyncio.get_running_loop()
        analysis, diagnostics = await loop.run_in_executor(self.thread_pool, self.diagnose, self.path_of(uri))
        if not self.ludus.changed_since(analysis, version):
            self.publish(analysis.game, diagnostics)

    def diagnose(self, path: str) -> tuple[Analysis, dict[str, list[t.Diagnostic]]]:
        """A file's game analysed, and the diagnostics of each of its files by URI, as LSP has
        them (on a worker thread: counting columns as the editor does reads each file)."""
        analysis = self.ludus.analyse(path)
        return analysis, {self.uri_of(file): [to_lsp_diagnostic(d, doc) for d in diags]
                          for file, diags in analysis.diagnostics.items()
                          for doc in [self.text_of(file)]}

    def path_of(self, uri: str) -> str:
        return to_fs_path(uri) or uri

    def uri_of(self, path: str) -> str:
        """The URI the editor opened a file under, else its file: URI. An unsaved buffer
        (`untitled:`) has no file: its path is a stand-in, which no editor would know."""
        return self.opened.get(resolved(path)) or from_fs_path(path) or path

    @property
    def encoding(self) -> str:
        """How the editor counts a position's character: the encoding agreed at initialize."""
        try:
            return self.workspace.position_encoding or t.PositionEncodingKind.Utf16
        except RuntimeError:  # pygls has no workspace before initialize
            return t.PositionEncodingKind.Utf16

    def text_of(self, path: str) -> Text:
        """A file's text as the editor has it (its buffer, else the file on disk)."""
        return Text(self.ludus.text(path) or "", self.encoding)

    def buffer(self, uri: str, path: str) -> str | None:
        """A document's text as the editor has it now: pygls's copy, which each change updates
        as it is read (the Workspace's is updated by a handler that may not have run yet)."""
        with contextlib.suppress(RuntimeError):  # pygls has no workspace before initialize
            if unquote(uri) in self.workspace.text_documents:
                return self.workspace.get_text_document(uri).source
        return self.ludus.text(path)

    def place(self, path: str, position: t.Position) -> tuple[int, int]:
        """An editor's position in a file as the Workspace takes it (ludus's line and column,
        from 0)."""
        doc = self.text_of(path)
        return doc.ludus_place(doc.offset(position.line, position.character))

    def is_ludus(self, uri: str) -> bool:
        """A .ludus file, or a buffer opened as ludus (an unsaved one has no file name). Other
        documents a client sends are not analysed: ludus's errors on a text file say nothing."""
        return uri in self.ludus_buffers or self.path_of(uri).lower().endswith(".ludus")

    def publish(self, game: str, diagnostics: dict[str, list[t.Diagnostic]]) -> None:
        """Send the diagnostics of every file of an analysed game; clear those of files it no
        longer reads."""
        for uri, diags in diagnostics.items():
            self.text_document_publish_diagnostics(t.PublishDiagnosticsParams(uri=uri, diagnostics=diags))
        for gone in self.published.get(game, set()) - set(diagnostics):
            self.text_document_publish_diagnostics(t.PublishDiagnosticsParams(uri=gone, diagnostics=[]))
        self.published[game] = set(diagnostics)

    def watch_files(self) -> None:
        """Ask the editor to report changes to `.ludus` files on disk (LSP has the server register
        for them, where the editor supports that): a part edited in another program, or a `git
        checkout`, changes no open buffer, and the diagnostics kept showing the files as they were."""
        try:
            watched = self.client_capabilities.workspace.did_change_watched_files.dynamic_registration
        except AttributeError:  # the editor said nothing of it
            watched = False
        if not watched:
            return
        asked = self.client_register_capability(t.RegistrationParams(registrations=[t.Registration(
            id="ludus-files", method=t.WORKSPACE_DID_CHANGE_WATCHED_FILES,
            register_options=t.DidChangeWatchedFilesRegistrationOptions(
                watchers=[t.FileSystemWatcher(glob_pattern="**/*.ludus")]))]))
        asked.add_done_callback(_refused)

    def files_changed(self, changes: list[t.FileEvent]) -> None:
        """Files changed on disk: each open document whose analysis may read them (Workspace.
        depends_on) is analysed again after a pause, as after typing: a checkout reports many
        files, in one notification or several. A file open in the editor is left out: its
        buffer stands in for it, and the editor sends its changes."""
        events = {}
        for change in changes:
            path = resolved(self.path_of(change.uri))
            if path not in self.ludus.buffers:
                events[path] = events.get(path, False) or change.type == t.FileChangeType.Created
        if not events:
            return
        wanted = [uri for path, uri in list(self.opened.items())
                  if any(self.ludus.depends_on(path, changed, created) for changed, created in events.items())]
        self.ludus.disk_changed(list(events))
        for uri in wanted:
            self.refresh_soon(uri)

    # ── the messages, as read from the editor ──

    def receive(self, message: object) -> int | None:
        """One message read by stdio.Reader (a JSON value, or a Problem): checked, then handed
        to pygls. A request that cannot be served is answered with its JSON-RPC error, as is a
        message too broken to tell what it was; a notification or a response is not (JSON-RPC
        answers neither); either way stderr says why, in one line. After `exit`, the exit code:
        0 when `shutdown` came first, else 1 (LSP's rule, by which an editor tells a crash)."""
        with contextlib.suppress(RuntimeError):  # no loop: called directly, as a test may
            self.reading = asyncio.get_running_loop()
        try:
            checked = self._checked(message)
            if checked is EXIT:
                self.protocol.writer.close()  # once a response being written is whole
                return 0 if self.stopping else 1
            self.protocol.handle_message(checked)
        except Unfit as exc:
            log.warning("%s", exc)
            if _answered(message):
                ident = message.get("id") if isinstance(message, dict) else None
                self.answer_error(ident if _is_id(ident) else None, exc.code, str(exc))
        except Exception as exc:  # a message pygls could not handle; the next one may be fine
            log.error("could not handle a message: %s: %s", type(exc).__name__, exc)
        return None

    def _checked(self, message: object):
        if isinstance(message, Problem):
            raise Unfit(t.ErrorCodes.ParseError, message.text)
        if not isinstance(message, dict):
            what = "an array (a batch, which LSP does not use)" if isinstance(message, list) else "not a JSON object"
            raise Unfit(t.ErrorCodes.InvalidRequest, f"a message is {what}: skipped")
        if message.get("jsonrpc") != "2.0":
            raise Unfit(t.ErrorCodes.InvalidRequest, 'a message without "jsonrpc": "2.0": skipped')
        method = message.get("method")
        if "method" not in message:
            if "result" not in message and "error" not in message:
                raise Unfit(t.ErrorCodes.InvalidRequest, "a message with no method, result or error: skipped")
            try:  # a response to a request of the server's
                return self.protocol.structure_message(message)
            except Exception:
                raise Unfit(t.ErrorCodes.InvalidRequest, "a response that does not fit: skipped") from None
        if not isinstance(method, str):
            raise Unfit(t.ErrorCodes.InvalidRequest, "a message whose method is not a string: skipped")
        request = "id" in message
        if request and not _is_id(message["id"]):
            raise Unfit(t.ErrorCodes.InvalidRequest, f"{method}: the id must be a number or a string: skipped")
        if method == t.EXIT:  # whatever its params (or an id it should not have): the editor is leaving
            return EXIT
        if method == t.INITIALIZE and self.started:  # pygls would start afresh, forgetting the open documents
            raise Unfit(t.ErrorCodes.InvalidRequest, "initialize: the server is initialized already")
        if not self.started and method != t.INITIALIZE:
            raise Unfit(t.ErrorCodes.ServerNotInitialized, f"{method}: the server is not initialized yet"
                        if request else f"ignored {method}: it came before initialize")
        if self.stopping:
            raise Unfit(t.ErrorCodes.InvalidRequest, f"{method}: the server is shutting down"
                        if request else f"ignored {method}: it came after shutdown")
        structured = self.protocol.structured(message)
        if method == t.INITIALIZE:
            self.started = True
        elif method == t.SHUTDOWN:
            self.stopping = True
        return structured

    def answer_error(self, request_id, code: int, text: str) -> None:
        # written here, not by pygls, which leaves out an id that is null
        body = json.dumps({"jsonrpc": "2.0", "id": request_id, "error": {"code": int(code), "message": text}})
        data = body.encode("utf-8")
        self.protocol.writer.write(b"Content-Length: %d\r\n\r\n" % len(data) + data)


def _refused(asked) -> None:
    """The editor's answer to the registration: a refusal is one line on stderr (the server
    works on, without seeing changes on disk)."""
    if not asked.cancelled() and asked.exception() is not None:
        log.warning("the editor will not report changes to .ludus files on disk: %s", asked.exception())


def _answered(message: object) -> bool:
    """Whether JSON-RPC answers a message that cannot be served: a request does, and so does a
    message too broken to tell whether it was one; a notification and a response do not."""
    if not isinstance(message, dict):
        return True
    if "method" in message:
        return "id" in message
    return "result" not in message and "error" not in message


def _is_id(value) -> bool:
    return isinstance(value, (int, str)) and not isinstance(value, bool)


def ludus_only(nothing=None):
    """For a handler of a document's request or notification: called with the document's path
    when it is a ludus file (LudusServer.is_ludus), else not called at all, the answer being
    `nothing` (called, when it is a function, for a fresh one)."""

    def decorate(handler):
        if asyncio.iscoroutinefunction(handler):  # pygls awaits a coroutine, and calls the rest
            @functools.wraps(handler)
            async def checked(ls: LudusServer, params):
                if ls.is_ludus(params.text_document.uri):
                    return await handler(ls, params, ls.path_of(params.text_document.uri))
                return nothing() if callable(nothing) else nothing
        else:
            @functools.wraps(handler)
            def checked(ls: LudusServer, params):
                if ls.is_ludus(params.text_document.uri):
                    return handler(ls, params, ls.path_of(params.text_document.uri))
                return nothing() if callable(nothing) else nothing
        return checked

    return decorate


def after_the_edits(handler):
    """For a request answered on a worker thread: answered once the messages read before it
    have been taken in (LudusServer.caught_up), so from the text the editor asked about."""

    @functools.wraps(handler)
    def caught_up(ls: LudusServer, params):
        ls.caught_up()
        return handler(ls, params)

    return caught_up


def make_server() -> LudusServer:
    server = LudusServer()

    @server.feature(t.INITIALIZED)
    def initialized(ls: LudusServer, params: t.InitializedParams) -> None:
        ls.watch_files()

    @server.feature(t.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def did_change_watched_files(ls: LudusServer, params: t.DidChangeWatchedFilesParams) -> None:
        ls.files_changed(params.changes)

    @server.feature(t.TEXT_DOCUMENT_DID_OPEN)
    async def did_open(ls: LudusServer, params: t.DidOpenTextDocumentParams) -> None:
        if params.text_document.language_id == "ludus":
            ls.ludus_buffers.add(params.text_document.uri)
        if not ls.is_ludus(params.text_document.uri):
            return
        path = ls.path_of(params.text_document.uri)
        ls.opened[resolved(path)] = params.text_document.uri
        ls.ludus.open(path, params.text_document.text)
        # on a worker thread, as typing's is; shielded: the analyses of other documents go on in it
        await asyncio.shield(ls._refresh_now(params.text_document.uri))

    @server.feature(t.TEXT_DOCUMENT_DID_CHANGE)
    @ludus_only()
    async def did_change(ls: LudusServer, params: t.DidChangeTextDocumentParams, path: str) -> None:
        ls.ludus.open(path, ls.workspace.get_text_document(params.text_document.uri).source)
        ls.refresh_soon(params.text_document.uri)

    @server.feature(t.TEXT_DOCUMENT_DID_SAVE)
    @ludus_only()
    async def did_save(ls: LudusServer, params: t.DidSaveTextDocumentParams, path: str) -> None:
        """The game analysed again from the files as they are now: an editor that does not watch
        the files on disk for the server shows another program's changes at least at a save,
        where the analysis kept for the unchanged buffers was published again."""
        ls.ludus.disk_changed([path])
        await asyncio.shield(ls._refresh_now(params.text_document.uri))

    @server.feature(t.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: LudusServer, params: t.DidCloseTextDocumentParams) -> None:
        """The buffer's text is gone, saved or not: a .ludus file's game is analysed again from
        the file; a buffer never saved (no file, or no file: URI), or one that was ludus only
        as the editor opened it, has its diagnostics cleared."""
        uri = params.text_document.uri
        if not ls.is_ludus(uri):
            return
        path = ls.path_of(uri)
        ls.ludus.close(path)
        if ls.opened.get(resolved(path)) == uri:
            del ls.opened[resolved(path)]
        ls.ludus_buffers.discard(uri)
        if ls.is_ludus(uri) and to_fs_path(uri) is not None and ls.ludus.text(path) is not None:
            ls._refresh_now(uri)
        else:
            ls.text_document_publish_diagnostics(t.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    @server.feature(t.TEXT_DOCUMENT_HOVER)
    @server.thread()  # it may analyse the game afresh: off the event loop
    @after_the_edits
    @ludus_only()
    def hover(ls: LudusServer, params: t.HoverParams, path: str) -> t.Hover | None:
        text = ls.ludus.hover(path, *ls.place(path, params.position))
        if text is None:
            return None
        return t.Hover(contents=t.MarkupContent(kind=t.MarkupKind.Markdown, value=text))

    @server.feature(t.TEXT_DOCUMENT_DEFINITION)
    @server.thread()  # it may analyse the game afresh: off the event loop
    @after_the_edits
    @ludus_only()
    def definition(ls: LudusServer, params: t.DefinitionParams, path: str) -> t.Location | None:
        found = ls.ludus.definition(path, *ls.place(path, params.position))
        if found is None:
            return None
        where, span = found
        return t.Location(uri=ls.uri_of(where), range=to_range(span, ls.text_of(where)))

    @server.feature(t.TEXT_DOCUMENT_COMPLETION, t.CompletionOptions(trigger_characters=['"']))
    @server.thread()  # it may analyse the game afresh: off the event loop
    @after_the_edits
    @ludus_only(lambda: t.CompletionList(is_incomplete=False, items=[]))
    def completion(ls: LudusServer, params: t.CompletionParams, path: str) -> t.CompletionList:
        items = ls.ludus.completions(path, *ls.place(path, params.position))
        return t.CompletionList(is_incomplete=False, items=[
            t.CompletionItem(label=label, kind=COMPLETION_KINDS.get(kind, t.CompletionItemKind.Text),
                             detail=kind + (f" ({detail})" if detail else ""))
            for label, kind, detail in items])

    @server.feature(t.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    @server.thread()  # it may analyse the game afresh: off the event loop
    @after_the_edits
    @ludus_only(list)
    def document_symbol(ls: LudusServer, params: t.DocumentSymbolParams, path: str) -> list[t.DocumentSymbol]:
        doc = ls.text_of(path)
        return [to_document_symbol(i, doc) for i in ls.ludus.outline(path)]

    @server.feature(t.TEXT_DOCUMENT_FORMATTING)
    @ludus_only(list)
    async def formatting(ls: LudusServer, params: t.DocumentFormattingParams, path: str) -> list[t.TextEdit]:
        """The edits `ludus fmt` would make to the buffer: none to a buffer that does not parse
        (its diagnostics say why), nor where the formatter refuses to change what the file
        means. The text is taken now, formatted on a worker thread."""
        text = ls.buffer(params.text_document.uri, path)
        if text is None:
            return []
        loop = asyncio.get_running_loop()
        new = await loop.run_in_executor(ls.thread_pool, ls.ludus.formatted, text, path)
        if new is None:
            return []
        doc = Text(text, ls.encoding)
        return [t.TextEdit(range=t.Range(t.Position(*doc.position(start)), t.Position(*doc.position(end))),
                           new_text=replacement)
                for start, end, replacement in line_edits(text, new)]

    @server.feature(t.TEXT_DOCUMENT_REFERENCES)
    @server.thread()  # it may analyse the game afresh: off the event loop
    @after_the_edits
    @ludus_only(list)
    def references(ls: LudusServer, params: t.ReferenceParams, path: str) -> list[t.Location]:
        found = ls.ludus.references(path, *ls.place(path, params.position), params.context.include_declaration)
        return [t.Location(uri=ls.uri_of(where), range=to_range(span, ls.text_of(where))) for where, span in found]

    @server.feature(t.TEXT_DOCUMENT_PREPARE_RENAME)
    @server.thread()
    @after_the_edits
    @ludus_only()
    def prepare_rename(ls: LudusServer, params: t.PrepareRenameParams, path: str) -> t.PrepareRenamePlaceholder:
        """The name that would be renamed (inside its quotes, for a card's), or the reason why
        none can be, which the editor shows."""
        try:
            here = ls.ludus.renamable(path, *ls.place(path, params.position))
        except Refused as exc:
            raise JsonRpcException(code=t.LSPErrorCodes.RequestFailed, message=f"cannot rename: {exc}") from None
        return t.PrepareRenamePlaceholder(range=to_range(here.span, ls.text_of(path)), placeholder=here.word)

    @server.feature(t.TEXT_DOCUMENT_RENAME)
    @server.thread()
    @after_the_edits
    @ludus_only()
    def rename(ls: LudusServer, params: t.RenameParams, path: str) -> t.WorkspaceEdit:
        try:
            edits = ls.ludus.rename(path, *ls.place(path, params.position), params.new_name)
        except Refused as exc:
            raise JsonRpcException(code=t.LSPErrorCodes.RequestFailed, message=f"cannot rename: {exc}") from None
        changes = {}
        for where, spans in edits.items():
            doc = ls.text_of(where)
            changes[ls.uri_of(where)] = [t.TextEdit(range=to_range(span, doc), new_text=new) for span, new in spans]
        return t.WorkspaceEdit(changes=changes)

    @server.feature(t.TEXT_DOCUMENT_CODE_ACTION, t.CodeActionOptions(code_action_kinds=[t.CodeActionKind.QuickFix]))
    @ludus_only(list)
    def code_action(ls: LudusServer, params: t.CodeActionParams, path: str) -> list[t.CodeAction]:
        wanted = params.context.only
        if wanted and not any(t.CodeActionKind.QuickFix.value.startswith(k) for k in wanted):
            return []
        text = ls.buffer(params.text_document.uri, path)
        if text is None:
            return []
        doc = Text(text, ls.encoding)
        return [a for d in params.context.diagnostics for a in did_you_mean(d, doc, params.text_document.uri)]

    return server


def did_you_mean(diagnostic: t.Diagnostic, doc: Text, uri: str) -> list[t.CodeAction]:
    """The quick fixes of a ludus diagnostic whose data holds a suggestion (suggestion_of): the
    misspelt name replaced by each name meant, the nearest preferred. The name is the quoted
    one that is the whole of the diagnostic's range, or the one place in the range where it
    stands as a whole name (a call `cheapp(c)` is underlined whole). None for another
    diagnostic, or one whose range no longer holds the name (the text changed since): the text
    is compared with the name the suggestion says was written, never with the diagnostic's
    words."""
    if diagnostic.source != "ludus":
        return []
    suggestion = suggestion_of(diagnostic.data)
    if suggestion is None:
        return []
    wrong, r = suggestion.name, diagnostic.range
    start, end = doc.offset(r.start.line, r.start.character), doc.offset(r.end.line, r.end.character)
    if doc.text[start:end] == f'"{wrong}"':
        new = [(meant, f'"{meant}"') for meant in suggestion.meant if not any(c in meant for c in '"\\{}\r\n')]
    else:
        places = [m for m in NAME.finditer(doc.text, start, end) if m.group() == wrong
                  and not NAME_CHAR.match(doc.text[m.end():m.end() + 1])
                  and not NAME_CHAR.match(doc.text[max(m.start() - 1, 0):m.start()])]
        if len(places) != 1:
            return []
        start, end = places[0].span()
        r = t.Range(t.Position(*doc.position(start)), t.Position(*doc.position(end)))
        new = [(meant, meant) for meant in suggestion.meant if NAME.fullmatch(meant)]
    return [t.CodeAction(title=f"Change '{wrong}' to '{meant}'", kind=t.CodeActionKind.QuickFix,
                         diagnostics=[diagnostic], is_preferred=not i,
                         edit=t.WorkspaceEdit(changes={uri: [t.TextEdit(range=r, new_text=text)]}))
            for i, (meant, text) in enumerate((meant, text) for meant, text in new if meant != wrong)]


class OneLine(logging.Formatter):
    """A log record as one line: an editor shows the server's stderr as its log, where a
    traceback tells a designer nothing. What pygls logs goes through this too."""

    def format(self, record: logging.LogRecord) -> str:
        lines = record.getMessage().strip().splitlines()
        line = lines[0] if lines else ""
        if record.exc_info and record.exc_info[1] is not None:
            exc = record.exc_info[1]
            said = str(exc).strip().splitlines()
            line += f": {type(exc).__name__}" + (f": {said[0]}" if said else "")
        return "ludus lsp: " + (line if len(line) <= 300 else line[:297] + "...")


def routine(record: logging.LogRecord) -> bool:
    """Whether pygls warns of something that is no problem: a cancel for a request already
    answered, which editors send all the time (a hover called off as the cursor moves on, when
    the answer has come already); a rename refused, whose reason the editor shows."""
    exc = record.exc_info[1] if record.exc_info else None
    if isinstance(exc, JsonRpcException) and exc.code == t.LSPErrorCodes.RequestFailed:
        return True
    return str(record.msg).startswith("Cancel notification for unknown message id")


def log_one_line_each(stream) -> None:
    handler = logging.StreamHandler(stream)
    handler.setFormatter(OneLine())
    handler.addFilter(lambda record: not routine(record))
    for name in ("ludus.lsp", "pygls"):
        logger = logging.getLogger(name)
        logger.handlers[:] = [handler]
        logger.setLevel(logging.WARNING)
        logger.propagate = False


class Output:
    """stdout for pygls. Responses are written from worker threads too, and `exit` closes
    stdout from the event loop: a write is whole or not at all, and one after the close is
    dropped. (pygls's own writer let a response caught half-way by the close fail, and
    reporting that failure to the editor failed again, a few hundred times over.) A stdout the
    editor closed is said once, then `broken` is called (the session ends) and writes are
    dropped: pygls logged a traceback for each answer it could not write."""

    def __init__(self, stream) -> None:
        self.stream = stream
        self.lock = threading.Lock()
        self.closed = False
        self.broken = lambda: None

    def write(self, data: bytes) -> None:
        with self.lock:
            if self.closed:
                return
            try:
                self.stream.write(data)
                self.stream.flush()
                return
            except (OSError, ValueError):  # a broken pipe, or a stream closed under us
                self.closed = True
        log.warning("the editor closed stdout: stopping")
        self.broken()

    def close(self) -> None:
        with self.lock:
            self.closed = True
            with contextlib.suppress(OSError, ValueError):
                self.stream.close()


async def session(server: LudusServer, stdin) -> int:
    """Read the editor's bytes, handing each message on as it is cut out, until the session
    ends; its exit code: that of `exit`; at the end of stdin, 0 if `shutdown` came and 1 if
    not (the editor died); 130 for Ctrl-C."""
    loop = asyncio.get_running_loop()
    task = asyncio.current_task()
    ending: list[int] = []  # the exit code, once something other than a message ends the session

    def end(code: int) -> None:
        if not ending:
            ending.append(code)
            task.cancel()

    # the loop's own handler: it wakes the loop whichever thread the signal lands on (Python's
    # would wait for the main thread, asleep until the read of stdin returns). Not when Ctrl-C
    # is ignored, as a shell ignores it for a job it starts in the background.
    if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):  # Windows: KeyboardInterrupt
            loop.add_signal_handler(signal.SIGINT, end, 130)
    if isinstance(server.protocol.writer, Output):
        server.protocol.writer.broken = lambda: _call_soon(loop, end, 1)
    reader = Reader()
    read = getattr(stdin, "read1", stdin.read)
    try:
        while True:
            try:
                data = await loop.run_in_executor(server.thread_pool, read, 65536)
            except OSError as exc:  # stdin itself is broken: as good as closed
                log.warning("cannot read stdin: %s", exc.strerror or exc)
                data = b""
            if not data:
                half = reader.unfinished()
                if half is not None or not server.stopping:
                    log.warning("the editor closed stdin%s%s", "" if server.stopping else " without exit",
                                f", {half}" if half else "")
                return 0 if server.stopping else 1
            for message in reader.feed(data):
                code = server.receive(message)
                if code is not None:
                    return code
    except asyncio.CancelledError:  # Ctrl-C, or a stdout closed
        return ending[0]


def _call_soon(loop: asyncio.AbstractEventLoop, *call) -> None:
    """Call on the loop, from any thread; not at all once the loop is closed."""
    with contextlib.suppress(RuntimeError):
        loop.call_soon_threadsafe(*call)


def serve() -> None:
    """Serve on stdin and stdout until the editor says `exit` or closes stdin, or Ctrl-C."""
    log_one_line_each(sys.stderr)
    stdin, stdout = getattr(sys.stdin, "buffer", None), getattr(sys.stdout, "buffer", None)
    if stdin is None or stdout is None:  # Python makes a closed file descriptor None
        log.warning("%s is closed: an editor starts ludus lsp with a pipe on stdin and one on stdout",
                    "stdin" if stdin is None else "stdout")
        leave(1)
    server = make_server()
    server.protocol.set_writer(Output(stdout))
    code = 1
    try:
        # left from inside the loop: asyncio.run's clean-up would cancel the handlers still
        # running, and pygls logs a traceback for each
        asyncio.run(_serve_then_leave(server, stdin))
    except KeyboardInterrupt:  # Ctrl-C outside the session's loop
        code = 130
    leave(code)


async def _serve_then_leave(server: LudusServer, stdin) -> None:
    leave(await session(server, stdin))


def leave(code: int) -> None:
    """End the process at once. Not sys.exit: Python would first wait for the worker threads,
    one of them reading a stdin that may never send another byte, another perhaps half-way
    through analysing a big game. After `exit`, a response being written has been let finish
    (Output.close); after Ctrl-C or the end of stdin no one waits for it any more."""
    with contextlib.suppress(ValueError, OSError):
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C now would only print a traceback
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(code)
