"""The server's feature handlers called in-process: LSP params in, LSP types out."""

from __future__ import annotations

import asyncio
import threading

import pytest

pytest.importorskip("pygls")

from lsprotocol import types as t  # noqa: E402

from ludus.lsp.server import make_server  # noqa: E402
from tests.helpers import EXAMPLES  # noqa: E402

MARKET = EXAMPLES / "market-town.ludus"


@pytest.fixture
def server():
    s = make_server()
    s.published_messages = []
    s.text_document_publish_diagnostics = s.published_messages.append   # catch what would be sent
    return s


def handler(server, method):
    """The function registered for a method, already bound to the server, as pygls calls it."""
    return server.protocol.fm.features[method]


def test_open_publishes_the_diagnostics_as_lsp_ranges(server, tmp_path):
    path = tmp_path / "g.ludus"
    text = 'game "G"\nplayers 2\nflow:\n    gain 1 coinz\n    win P1\n'
    path.write_text(text, encoding="utf-8")
    threads = []
    analyse = server.ludus.analyse
    server.ludus.analyse = lambda p: threads.append(threading.get_ident()) or analyse(p)
    asyncio.run(handler(server, t.TEXT_DOCUMENT_DID_OPEN)(t.DidOpenTextDocumentParams(
        t.TextDocumentItem(uri=path.as_uri(), language_id="ludus", version=1, text=text))))
    assert threads and threading.get_ident() not in threads   # analysed off the event loop
    [sent] = server.published_messages
    assert sent.uri == path.as_uri()
    [diag] = sent.diagnostics
    assert diag.severity == t.DiagnosticSeverity.Error and diag.source == "ludus"
    assert (diag.range.start.line, diag.range.start.character, diag.range.end.character) == (3, 11, 16)
    assert "unknown counter 'coinz'" in diag.message


def test_a_part_opened_alone_says_no_game_includes_it_and_where_games_are_looked_for(server, tmp_path):
    # the editor showed "no 'flow:' block: it is a part of a game, checked through the game that
    # includes it", with no word of where ludus looks, which `ludus check` says
    (tmp_path / "game.ludus").write_text('game "G"\nplayers 2\nflow:\n    win P1\n', encoding="utf-8")
    (tmp_path / "cards").mkdir()
    part = tmp_path / "cards" / "extra.ludus"
    text = 'card "Lonely"\n'
    part.write_text(text, encoding="utf-8")
    asyncio.run(handler(server, t.TEXT_DOCUMENT_DID_OPEN)(t.DidOpenTextDocumentParams(
        t.TextDocumentItem(uri=part.as_uri(), language_id="ludus", version=1, text=text))))
    [sent] = server.published_messages
    [diag] = [d for d in sent.diagnostics if d.severity == t.DiagnosticSeverity.Error]
    assert diag.code == "part-alone"
    assert diag.message.startswith("this file is a part of a game (it has no `game` or `extends` line), "
                                   "and no game includes it\nludus looks for the game that includes a part "
                                   "in the part's folder and the one above"), diag.message
    assert f"the games there: {tmp_path / 'game.ludus'}" in diag.message
    assert diag.message.endswith('would include it with `include "cards/extra.ludus"`'), diag.message


def test_hover_completion_and_outline_answer_in_lsp_types(server):
    uri = MARKET.as_uri()
    ident = t.TextDocumentIdentifier(uri=uri)
    hover = handler(server, t.TEXT_DOCUMENT_HOVER)(t.HoverParams(ident, t.Position(87, 23)))
    assert hover.contents.kind == t.MarkupKind.Markdown
    assert hover.contents.value.startswith("**q**: local (quarter)")
    assert handler(server, t.TEXT_DOCUMENT_HOVER)(t.HoverParams(ident, t.Position(0, 0))) is None
    items = handler(server, t.TEXT_DOCUMENT_COMPLETION)(t.CompletionParams(ident, t.Position(161, 20))).items
    kinds = {i.label: i.kind for i in items}
    assert kinds["gain"] == t.CompletionItemKind.Keyword and kinds["refill_market"] == t.CompletionItemKind.Function
    outline = handler(server, t.TEXT_DOCUMENT_DOCUMENT_SYMBOL)(t.DocumentSymbolParams(ident))
    teller = next(s for s in outline if s.name == "Fortune Teller")
    assert teller.kind == t.SymbolKind.Object and teller.range.start.line == 69
    assert [c.name for c in teller.children] == ["on play"]
    where = handler(server, t.TEXT_DOCUMENT_DEFINITION)(t.DefinitionParams(ident, t.Position(151, 8)))
    assert where.uri == uri and where.range.start.line == 111        # refill_market() -> `rule refill_market:`


def test_a_save_analyses_at_once_and_calls_off_the_analysis_waiting_for_a_pause(server, tmp_path):
    path = tmp_path / "g.ludus"
    path.write_text('game "G"\nplayers 2\nflow:\n    gain 1 coinz\n    win P1\n', encoding="utf-8")
    uri = path.as_uri()
    calls = []
    analyse = server.ludus.analyse
    server.ludus.analyse = lambda p: calls.append(p) or analyse(p)

    async def edit_then_save() -> None:
        server.refresh_soon(uri)                 # typing: an analysis waits for a pause
        waiting = server.pending[uri]
        await handler(server, t.TEXT_DOCUMENT_DID_SAVE)(t.DidSaveTextDocumentParams(t.TextDocumentIdentifier(uri=uri)))
        assert waiting.cancelled() and uri not in server.pending
        assert not server.analysing  # the save's analysis, held while it ran, is let go

    asyncio.run(edit_then_save())
    assert len(calls) == 1
    [sent] = server.published_messages
    assert "unknown counter 'coinz'" in sent.diagnostics[0].message


@pytest.mark.parametrize("on_disk", [True, False])
def test_closing_a_buffer_shows_its_game_as_saved(server, tmp_path, on_disk):
    """Closed without saving, a buffer's text is gone: its diagnostics were left showing. The
    game is analysed again from the file; a file that was never saved has nothing to show."""
    path = tmp_path / "g.ludus"
    good = 'game "G"\nplayers 2\ncounter coins per seat\nflow:\n    gain 1 coins\n    win P1\n'
    if on_disk:
        path.write_text(good, encoding="utf-8")
    uri = path.as_uri()

    async def type_then_close() -> None:
        await handler(server, t.TEXT_DOCUMENT_DID_OPEN)(t.DidOpenTextDocumentParams(
            t.TextDocumentItem(uri=uri, language_id="ludus", version=1, text=good.replace("coins\n    win", "coinz\n    win"))))
        assert [d.message.splitlines()[0] for d in server.published_messages[-1].diagnostics
                if d.severity == t.DiagnosticSeverity.Error] == ["unknown counter 'coinz'"]
        server.published_messages.clear()
        handler(server, t.TEXT_DOCUMENT_DID_CLOSE)(t.DidCloseTextDocumentParams(t.TextDocumentIdentifier(uri=uri)))
        await asyncio.gather(*server.analysing)

    asyncio.run(type_then_close())
    assert [(p.uri, [d.message for d in p.diagnostics if d.severity == t.DiagnosticSeverity.Error])
            for p in server.published_messages] == [(uri, [])]


KINDS = '''game "Kinds"
players 2
counter turns
flag ready
var leader: seat start P2
flow:
    turn P1:
        choose n from 0 to 1 "Go?"
    set turns to 1
    set ready to true
    set leader to P1
    win P1
'''


def test_a_counter_a_flag_and_a_var_are_each_offered_and_hovered_by_their_own_word(server, tmp_path):
    path = tmp_path / "kinds.ludus"
    path.write_text(KINDS, encoding="utf-8")
    ident = t.TextDocumentIdentifier(uri=path.as_uri())
    items = handler(server, t.TEXT_DOCUMENT_COMPLETION)(t.CompletionParams(ident, t.Position(9, 4))).items
    offered = {i.label: (i.detail, i.kind) for i in items}
    assert offered["turns"] == ("counter", t.CompletionItemKind.Variable)
    assert offered["ready"] == ("flag", t.CompletionItemKind.Variable)
    assert offered["leader"] == ("var", t.CompletionItemKind.Variable)
    hover = handler(server, t.TEXT_DOCUMENT_HOVER)
    assert hover(t.HoverParams(ident, t.Position(9, 9))).contents.value.startswith("**ready**: flag (bool)")
    assert hover(t.HoverParams(ident, t.Position(10, 9))).contents.value.startswith("**leader**: var (seat)")
    assert hover(t.HoverParams(ident, t.Position(8, 9))).contents.value.startswith("**turns**: counter (number)")
