"""A request that comes right after an edit, before the pause that analysis waits for: answered
from the text as edited, never from the text before it, at positions that no longer match.

The messages go in as the server reads them (LudusServer.receive, all in one read, as an
editor that sends an edit and a hover at once): the edit's handler runs on the event loop, the
request on a worker thread. The loop is kept busy for a while after both arrive, which is when
a worker that did not wait for the edit answered from the text before it."""

from __future__ import annotations

import asyncio
import time

import pytest

pytest.importorskip("pygls")

from ludus.lsp.server import make_server  # noqa: E402
from ludus.lsp.stdio import Reader  # noqa: E402

GAME = 'game "G"\nplayers 2\ncounter coins per seat\nflow:\n    gain 1 coins\n    win P1\n'
# a line more at the top: `coins` is used on line 5, where the old text has `    win P1`
EDITED = "# the bank\n" + GAME
AT = {"line": 5, "character": 13}   # inside `coins` in the edited text; past the end of the line before


class Written:
    """The server's stdout: the messages it wrote, read back."""

    def __init__(self) -> None:
        self.reader, self.messages = Reader(), []

    def write(self, data: bytes) -> None:
        self.messages += self.reader.feed(data)

    def close(self) -> None:
        pass

    def answer(self, ident: int) -> dict | None:
        return next((m for m in self.messages if m.get("id") == ident and "method" not in m), None)


def request(ident: int, method: str, params) -> dict:
    return {"jsonrpc": "2.0", "id": ident, "method": method, "params": params}


def notification(method: str, params) -> dict:
    return {"jsonrpc": "2.0", "method": method, "params": params}


async def until(check, timeout: float = 20):
    deadline = time.monotonic() + timeout
    while (found := check()) is None:
        assert time.monotonic() < deadline, "the server did not answer in time"
        await asyncio.sleep(0.01)
    return found


def asked_after_an_edit(tmp_path, method: str, params: dict, opened: str = GAME, edit: str | None = EDITED) -> dict:
    """The answer to a request sent in one read with the edit that makes the document `edit`
    (with the document opened as `opened`, and analysed, first; none, with the open itself)."""
    path = tmp_path / "g.ludus"
    path.write_text(GAME, encoding="utf-8")
    uri = path.as_uri()
    server = make_server()
    out = Written()
    server.protocol.set_writer(out)

    async def session() -> dict:
        server.receive(request(1, "initialize", {"processId": None, "rootUri": None, "capabilities": {}}))
        server.receive(notification("initialized", {}))
        opening = notification("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "ludus", "version": 1, "text": opened}})
        server.receive(opening)
        if edit is not None:
            await until(lambda: next((m for m in out.messages if m.get("method") == "textDocument/publishDiagnostics"), None))
            server.receive(notification("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                                                   "contentChanges": [{"text": edit}]}))
        server.receive(request(2, method, {"textDocument": {"uri": uri}, **params}))
        time.sleep(0.5)     # the loop busy (reading, another handler): the worker thread is not
        answer = await until(lambda: out.answer(2))
        # the analysis after the pause in typing, and the open's, end before the loop does
        await until(lambda: None if server.pending or any(not a.done() for a in server.analysing) else True)
        return answer

    return asyncio.run(session())


def test_a_hover_right_after_an_edit_reads_the_edited_text(tmp_path, monkeypatch):
    from ludus.lsp import workspace

    texts = []
    real = workspace.analyse
    monkeypatch.setattr(workspace, "analyse", lambda game, overrides: texts.append(
        next(iter(overrides.values()))) or real(game, overrides=overrides))
    answer = asked_after_an_edit(tmp_path, "textDocument/hover", {"position": AT})
    assert answer["result"] is not None, answer
    assert answer["result"]["contents"]["value"].startswith("**coins**: counter")
    assert "declared at g.ludus:4" in answer["result"]["contents"]["value"]      # the line it has now
    # the open's analysis, then the hover's of the edited text, which the pause in typing reuses
    assert texts == [GAME, EDITED]


def test_a_definition_right_after_an_edit_points_into_the_edited_text(tmp_path):
    answer = asked_after_an_edit(tmp_path, "textDocument/definition", {"position": AT})
    assert answer["result"] is not None, answer
    assert answer["result"]["range"] == {"start": {"line": 3, "character": 8}, "end": {"line": 3, "character": 13}}


def test_references_right_after_an_edit_are_places_in_the_edited_text(tmp_path):
    answer = asked_after_an_edit(tmp_path, "textDocument/references",
                                 {"position": AT, "context": {"includeDeclaration": True}})
    assert sorted((r["range"]["start"]["line"], r["range"]["start"]["character"]) for r in answer["result"]) == [
        (3, 8), (5, 11)]


def test_a_hover_right_after_the_open_reads_the_text_opened_not_the_file(tmp_path):
    # an editor that restores an unsaved buffer opens it with text the file on disk does not have
    answer = asked_after_an_edit(tmp_path, "textDocument/hover", {"position": AT}, opened=EDITED, edit=None)
    assert answer["result"] is not None, answer
    assert answer["result"]["contents"]["value"].startswith("**coins**: counter")
