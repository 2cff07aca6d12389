"""Formatting, references, rename and quick fixes: the server's edits, in-process and over stdio."""

from __future__ import annotations

import asyncio
import contextlib
import logging

import pytest

pytest.importorskip("pygls")

from lsprotocol import types as t  # noqa: E402

from ludus.lsp.server import make_server  # noqa: E402
from ludus.lsp.text import Text  # noqa: E402
from ludus.tools.fmt import format_text  # noqa: E402


@pytest.fixture
def server():
    s = make_server()
    s.published_messages = []
    s.text_document_publish_diagnostics = s.published_messages.append
    return s


def handler(server, method):
    return server.protocol.fm.features[method]


def run(call):
    return asyncio.run(call) if asyncio.iscoroutine(call) else call


def applied(text: str, edits: list[t.TextEdit], encoding: str = "utf-16") -> str:
    """The text with an answer's edits made, as an editor makes them: each range in the text as
    it was, so from the last to the first."""
    ranges = [((e.range.start.line, e.range.start.character), (e.range.end.line, e.range.end.character)) for e in edits]
    assert ranges == sorted(ranges) and all(a[1] <= b[0] for a, b in zip(ranges, ranges[1:], strict=False))
    for edit in reversed(edits):
        r = edit.range
        text = Text(text, encoding).edited((r.start.line, r.start.character), (r.end.line, r.end.character), edit.new_text)
    return text


def format_buffer(server, path, text: str) -> list[t.TextEdit]:
    server.ludus.open(str(path), text)
    return run(handler(server, t.TEXT_DOCUMENT_FORMATTING)(t.DocumentFormattingParams(
        t.TextDocumentIdentifier(uri=path.as_uri()), t.FormattingOptions(tab_size=4, insert_spaces=True))))


# ── formatting ──

MESSY = ('game "Ünïcode 😀"\r\nplayers 2\r\ncounter   coins per seat\r\nflow:\r\n'
         '  gain 1 coins   # 😀 one\r\n  win P1\r\n')


def test_formatting_makes_the_buffer_what_ludus_fmt_makes_it_counting_utf16(server, tmp_path):
    path = tmp_path / "g.ludus"
    path.write_text("not what the editor shows\n", encoding="utf-8")   # the buffer counts, not the disk
    edits = format_buffer(server, path, MESSY)
    assert applied(MESSY, edits) == format_text(MESSY)
    # the first line keeps its text: only its line end changes, after 17 UTF-16 units (16 characters)
    first = edits[0]
    assert (first.range.start.line, first.range.start.character, first.range.end.line, first.range.end.character,
            first.new_text) == (0, 17, 1, 0, "\n")


def test_formatting_changes_only_the_lines_that_need_it(server, tmp_path):
    path = tmp_path / "g.ludus"
    text = 'game "G"\nplayers 2\ncounter coins per seat\nflow:\n    gain 1    coins\n    win P1\n'
    edits = format_buffer(server, path, text)
    assert [(e.range.start.line, e.range.start.character, e.range.end.line, e.range.end.character, e.new_text)
            for e in edits] == [(3, 0, 3, 0, "\n"), (4, 0, 5, 0, "    gain 1 coins\n")]   # a blank line before the flow
    assert format_buffer(server, path, format_text(text)) == []     # formatted already: nothing to do


def test_a_buffer_that_does_not_parse_gets_no_edits_and_no_error(server, tmp_path):
    path = tmp_path / "g.ludus"
    assert format_buffer(server, path, 'game "G"\nplayers 2\nflow:\n    gain 1 coins for\n') == []


def test_a_format_that_would_change_the_meaning_is_not_sent(server, tmp_path, monkeypatch, caplog):
    import ludus.tools.fmt as fmt

    path = tmp_path / "g.ludus"
    text = 'game "G"\nplayers 2\ncounter coins per seat\nflow:\n    gain 1    coins\n    win P1\n'
    # a formatter gone wrong: its result would gain 2 coins, not 1, and it refuses
    layout = fmt._layout
    monkeypatch.setattr(fmt, "_layout", lambda *a: [
        fmt.Out(o.kind, o.level, o.text.replace("gain 1", "gain 2"), o.comment, o.comment_column, o.indent,
                o.opens_block, o.continuation) for o in layout(*a)])
    with caplog.at_level(logging.WARNING, logger="ludus.lsp"):
        assert format_buffer(server, path, text) == []
    assert "would change what the file means" in caplog.text


def test_a_document_that_is_not_ludus_is_not_formatted(server, tmp_path):
    path = tmp_path / "notes.txt"
    assert format_buffer(server, path, "a   b\n") == []


# ── references ──

GAME = '''game "Parts"
players 2
counter coins per seat
zone hand per seat
include "cards.ludus"
rule pay_out(s: seat):
    gain 2 coins for s
flow:
    for each s in seats:
        pay_out(s)
        resolve play of card("Lamp")
        log "😀 {coins of s} coins"
    win P1
'''
CARDS = '''kind Lit:
    coins: number
card "Lamp" is Lit:
    coins 2
    on play:
        gain 1 coins
        pay_out(actor)
'''


@pytest.fixture
def parts(tmp_path):
    (tmp_path / "game.ludus").write_text(GAME, encoding="utf-8")
    (tmp_path / "cards.ludus").write_text(CARDS, encoding="utf-8")
    return tmp_path


def where(locations) -> list[tuple[str, int, int, int]]:
    return sorted((loc.uri.rsplit("/", 1)[-1], loc.range.start.line, loc.range.start.character, loc.range.end.character)
                  for loc in locations)


def references(server, path, line, character, declaration=True):
    return handler(server, t.TEXT_DOCUMENT_REFERENCES)(t.ReferenceParams(
        context=t.ReferenceContext(declaration), text_document=t.TextDocumentIdentifier(uri=path.as_uri()),
        position=t.Position(line, character)))


def test_references_of_a_counter_in_every_file_of_the_game_holes_too_and_not_the_property(server, parts):
    game = parts / "game.ludus"
    # in the text's hole, after an emoji: counted in UTF-16, as the editor counts
    expected = [("cards.ludus", 5, 15, 20), ("game.ludus", 2, 8, 13), ("game.ludus", 6, 11, 16), ("game.ludus", 11, 17, 22)]
    assert where(references(server, game, 6, 13)) == expected
    # asked from the part, without the declaration
    assert where(references(server, parts / "cards.ludus", 5, 16, declaration=False)) == [
        e for e in expected if e[:2] != ("game.ludus", 2)]
    # the property of the same name is another thing
    assert where(references(server, parts / "cards.ludus", 3, 5)) == [("cards.ludus", 1, 4, 9), ("cards.ludus", 3, 4, 9)]


def test_references_of_a_rule_and_of_a_quoted_card(server, parts):
    game = parts / "game.ludus"
    assert where(references(server, game, 9, 9)) == [
        ("cards.ludus", 6, 8, 15), ("game.ludus", 5, 5, 12), ("game.ludus", 9, 8, 15)]
    lamp = [("cards.ludus", 2, 6, 10), ("game.ludus", 10, 30, 34)]
    assert where(references(server, game, 10, 29)) == lamp                 # on the opening quote
    assert where(references(server, parts / "cards.ludus", 2, 8, declaration=False)) == lamp[1:]


def test_a_rule_resolved_by_a_test_line_is_one_of_its_references_and_renamed_with_it(server, parts):
    game = parts / "game.ludus"
    game.write_text(GAME + 'test "t":\n    resolve pay_out(P1) for P2\n', encoding="utf-8")
    assert ("game.ludus", 14, 12, 19) in where(references(server, game, 5, 6))
    edits = rename(server, game, 14, 14, "payout").changes[game.as_uri()]
    assert [(e.range.start.line, e.range.start.character, e.new_text) for e in edits if e.range.start.line == 14] == [
        (14, 12, "payout")]


def test_no_references_for_a_local_a_built_in_or_a_keyword(server, parts):
    game = parts / "game.ludus"
    assert references(server, game, 8, 13) == []       # s, bound by `for each`
    assert references(server, game, 8, 20) == []       # seats, built in
    assert references(server, game, 6, 5) == []        # gain
    assert where(references(server, game, 12, 8)) == [("game.ludus", 12, 8, 10)]    # a seat, if not declared


# ── rename ──

def rename(server, path, line, character, new):
    return handler(server, t.TEXT_DOCUMENT_RENAME)(t.RenameParams(
        text_document=t.TextDocumentIdentifier(uri=path.as_uri()), position=t.Position(line, character), new_name=new))


def prepare(server, path, line, character):
    return handler(server, t.TEXT_DOCUMENT_PREPARE_RENAME)(t.PrepareRenameParams(
        text_document=t.TextDocumentIdentifier(uri=path.as_uri()), position=t.Position(line, character)))


def apply_edit(edit: t.WorkspaceEdit) -> None:
    """A rename's edits made to the files on disk, as an editor saves them."""
    from pygls.uris import to_fs_path

    for uri, edits in edit.changes.items():
        path = to_fs_path(uri)
        with open(path, encoding="utf-8", newline="") as f:
            text = f.read()
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(applied(text, edits))


def diagnostics(path) -> list[tuple]:
    from ludus.lsp.workspace import Workspace

    analysis = Workspace().analyse(str(path))
    return [(d.severity, d.span.line, d.span.column, d.message, d.hint)
            for ds in analysis.diagnostics.values() for d in ds]


def test_renames_in_a_copy_of_market_town_leave_it_checking_as_before(tmp_path):
    from tests.helpers import EXAMPLES

    path = tmp_path / "market-town.ludus"
    text = (EXAMPLES / "market-town.ludus").read_text(encoding="utf-8")
    # a warning, so that "as before" says something: a counter no rule uses
    text = text.replace("counter round_number start 1\n", "counter round_number start 1\ncounter spare per seat\n")
    path.write_text(text, encoding="utf-8")
    before = diagnostics(path)
    assert [d[3] for d in before] == ["counter 'spare' is never used"]
    lines = text.split("\n")
    renames = [  # (the line, a word on it) -> the new name
        (("counter coins per seat", "coins"), "money"),              # a counter and a property share the name
        (('card "Copper Coin" is Good:', "Copper"), "Copper Penny"),  # in quotes, in three places
        (("    cost: number", "cost"), "price"),                     # a property: `cost 0` lines and `c.cost`
        (("rule refill_market:", "refill_market"), "restock"),
        (("    quarter Docks adjacent to Square with fame 2", "fame"), "renown"),   # a space's, not the card's
        (("seats Amber, Basil, Cobalt, Dune", "Amber"), "Ash"),
        (("kind Good:", "Good"), "Goods"),
        (("zone market", "market"), "row"),
        (("value rounds = 8", "rounds"), "match_rounds"),
    ]
    for (line_text, word), new in renames:
        line = next(i for i, row in enumerate(lines) if row.startswith(line_text))
        server = make_server()
        edit = rename(server, path, line, line_text.index(word) + 1, new)
        apply_edit(edit)
        lines = path.read_text(encoding="utf-8").split("\n")
    after = path.read_text(encoding="utf-8")
    assert diagnostics(path) == before
    assert after.count('"Copper Penny"') == 3 and "Copper Coin" not in after.replace("Copper Coins", "")
    assert "gain c.coins money" in after and "require c.price <= money" in after
    assert "quarter Docks adjacent to Square with renown 2" in after and "gain q.renown fame" in after
    assert "gain c.fame fame" in after                              # the card's fame is not the space's
    assert "seats Ash, Basil" in after and "kind Goods:" in after and "restock()" in after
    assert "for round in 1 to match_rounds:" in after and "move top(supply) to row" in after


def test_a_rename_reaches_every_file_of_the_game(server, parts):
    edit = rename(server, parts / "cards.ludus", 6, 10, "reward")
    assert sorted((uri.rsplit("/", 1)[-1], [(e.range.start.line, e.range.start.character, e.new_text) for e in edits])
                  for uri, edits in edit.changes.items()) == [
        ("cards.ludus", [(6, 8, "reward")]), ("game.ludus", [(5, 5, "reward"), (9, 8, "reward")])]
    placeholder = prepare(server, parts / "game.ludus", 10, 31)
    assert placeholder.placeholder == "Lamp" and (placeholder.range.start.character, placeholder.range.end.character) == (30, 34)


@pytest.mark.parametrize(("line", "character", "new", "why"), [
    (8, 13, "t", "'s' is bound in a block"),
    (8, 20, "places", "'seats' is built in"),
    (11, 9, "say", "'log' is a keyword of the language"),
    (0, 2, "match", "'game' is a keyword of the language"),
    (12, 8, "P9", "'P1' is built in, not declared by the game"),
    (6, 5, "earn", "'gain' is a keyword of the language"),
    (2, 9, "2coins", "'2coins' is not a name"),
    (2, 9, "gold coins", "'gold coins' is not a name"),
    (2, 9, "hand", "'hand' is already the name of a zone"),
    (2, 9, "size", "'size' is already a built-in function"),
    (2, 9, "s", "'s' is already a name bound in a block of the game"),
    (2, 9, "from", "'from' cannot be a name where 'coins' is used"),
    (10, 31, 'Lamp "2"', "cannot be a card's name"),
    (5, 6, "coins", "'coins' is already the name of a counter"),
    (3, 6, "held", "a zone named 'hand' is one the language reads by that name"),
])
def test_a_rename_that_cannot_be_made_says_why(server, parts, line, character, new, why):
    from pygls.exceptions import JsonRpcException

    with pytest.raises(JsonRpcException) as caught:
        rename(server, parts / "game.ludus", line, character, new)
    assert why in caught.value.message and caught.value.code == t.LSPErrorCodes.RequestFailed


@contextlib.contextmanager
def over_stdio(tmp_path, text: str, capabilities: dict):
    """`ludus lsp` in a process, initialized, with g.ludus open holding `text`: the client, the
    document's URI and the server's capabilities. Shut down after, cleanly, having logged
    nothing (a refusal is an answer, not a problem to log)."""
    from tests.lsp.jsonrpc import Client
    from tests.lsp.test_stdio import ludus_argv

    path = tmp_path / "g.ludus"
    path.write_text(text, encoding="utf-8")
    uri = path.as_uri()
    client = Client(ludus_argv(), cwd=str(tmp_path))
    try:
        init = client.request("initialize", {"processId": None, "rootUri": tmp_path.as_uri(), "capabilities": capabilities})
        client.notify("initialized", {})
        client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "ludus", "version": 1, "text": text}})
        yield client, uri, init["result"]["capabilities"]
        assert client.request("shutdown", None)["result"] is None
        client.notify("exit", None)
        assert client.proc.wait(timeout=20) == 0
        assert client.proc.stderr.read() == b""
    finally:
        client.close()


def test_formatting_references_and_rename_over_stdio(tmp_path):
    text = 'game "G"\nplayers 2\ncounter coins per seat\nflow:\n    gain 1    coins\n    win P1\n'
    with over_stdio(tmp_path, text, {"textDocument": {"rename": {"prepareSupport": True}}}) as (client, uri, caps):
        assert caps["documentFormattingProvider"] and caps["referencesProvider"]
        assert caps["renameProvider"] == {"prepareProvider": True}
        assert caps["codeActionProvider"] == {"codeActionKinds": ["quickfix"]}
        doc = {"textDocument": {"uri": uri}}
        formatted = client.request("textDocument/formatting", {**doc, "options": {"tabSize": 2, "insertSpaces": True}})
        assert [e["newText"] for e in formatted["result"]] == ["\n", "    gain 1 coins\n"]
        refs = client.request("textDocument/references", {**doc, "position": {"line": 4, "character": 15},
                                                          "context": {"includeDeclaration": False}})
        assert [r["range"]["start"] for r in refs["result"]] == [{"line": 4, "character": 14}]
        refused = client.request("textDocument/prepareRename", {**doc, "position": {"line": 5, "character": 9}})
        assert refused["error"]["code"] == -32803
        assert refused["error"]["message"] == "cannot rename: 'P1' is built in, not declared by the game: it cannot be renamed"
        ready = client.request("textDocument/prepareRename", {**doc, "position": {"line": 2, "character": 9}})
        assert ready["result"]["placeholder"] == "coins"
        renamed = client.request("textDocument/rename", {**doc, "position": {"line": 2, "character": 9}, "newName": "gold"})
        assert sorted((e["range"]["start"]["line"], e["newText"]) for e in renamed["result"]["changes"][uri]) == [
            (2, "gold"), (4, "gold")]


def test_references_and_rename_read_the_game_once_per_analysis(server, parts, monkeypatch):
    import ludus.lsp.workspace as workspace

    made = []

    class Counted(workspace.Index):
        def __init__(self, *args) -> None:
            made.append(1)
            super().__init__(*args)

    monkeypatch.setattr(workspace, "Index", Counted)
    game = parts / "game.ludus"
    references(server, game, 6, 13)
    references(server, game, 9, 9)
    prepare(server, game, 2, 9)
    rename(server, game, 2, 9, "gold")
    assert len(made) == 1
    server.ludus.open(str(game), GAME.replace("win P1", "win P2"))    # an edit: the next question reads it afresh
    assert where(references(server, game, 6, 13))[1:] == [("game.ludus", 2, 8, 13), ("game.ludus", 6, 11, 16),
                                                           ("game.ludus", 11, 17, 22)]
    assert len(made) == 2


# ── quick fixes ──

TYPOS = '''game "G"
players 2
counter coins per seat
zone hand per seat
card "Lamp":
    on play:
        gain 1 coins
rule pay_out(s: seat):
    gain 2 coinz for s
flow:
    for each s in seats:
        pay_ou(s)
        resolve play of card("Lamq")
        move card("Lamp") to hnd of s
    log "{coinz of P1} 😀 {coinz of P2}"
    win P1
'''


def test_each_did_you_mean_comes_with_a_quick_fix_that_makes_the_game_check(server, tmp_path):
    path = tmp_path / "g.ludus"
    path.write_text(TYPOS, encoding="utf-8")
    uri = path.as_uri()
    asyncio.run(handler(server, t.TEXT_DOCUMENT_DID_OPEN)(t.DidOpenTextDocumentParams(
        t.TextDocumentItem(uri=uri, language_id="ludus", version=1, text=TYPOS))))
    diags = server.published_messages[-1].diagnostics
    assert sum(d.severity == t.DiagnosticSeverity.Error for d in diags) == 6
    whole = t.Range(t.Position(0, 0), t.Position(16, 0))
    actions = handler(server, t.TEXT_DOCUMENT_CODE_ACTION)(t.CodeActionParams(
        t.TextDocumentIdentifier(uri=uri), whole, t.CodeActionContext(diagnostics=diags)))
    assert sorted(a.title for a in actions) == [
        "Change 'Lamq' to 'Lamp'", "Change 'coinz' to 'coins'", "Change 'coinz' to 'coins'",
        "Change 'coinz' to 'coins'", "Change 'hnd' to 'hand'", "Change 'pay_ou' to 'pay_out'"]
    assert all(a.kind == t.CodeActionKind.QuickFix and len(a.diagnostics) == 1 for a in actions)
    edits = sorted((e for a in actions for e in a.edit.changes[uri]), key=lambda e: (e.range.start.line, e.range.start.character))
    fixed = applied(TYPOS, edits)
    assert 'resolve play of card("Lamp")' in fixed and 'log "{coins of P1} 😀 {coins of P2}"' in fixed
    path.write_text(fixed, encoding="utf-8")
    assert [d for d in diagnostics(path) if d[0] == "error"] == []


def test_no_quick_fix_where_the_text_changed_or_none_is_asked_for(server, tmp_path):
    path = tmp_path / "g.ludus"
    uri = path.as_uri()
    server.ludus.open(str(path), TYPOS.replace("pay_ou(s)", "pay_out(s)"))
    said = t.Diagnostic(range=t.Range(t.Position(11, 8), t.Position(11, 14)), source="ludus",
                        message="unknown rule 'pay_ou'\ndid you mean 'pay_out'?",
                        data={"suggestion": {"name": "pay_ou", "meant": ["pay_out"]}})
    ask = handler(server, t.TEXT_DOCUMENT_CODE_ACTION)
    assert ask(t.CodeActionParams(t.TextDocumentIdentifier(uri=uri), said.range,
                                  t.CodeActionContext(diagnostics=[said]))) == []     # fixed already
    typo = t.Diagnostic(range=t.Range(t.Position(8, 11), t.Position(8, 16)), source="ludus",
                        message="unknown counter 'coinz'\ndid you mean 'coins'?",
                        data={"suggestion": {"name": "coinz", "meant": ["coins"]}})
    assert ask(t.CodeActionParams(t.TextDocumentIdentifier(uri=uri), typo.range, t.CodeActionContext(
        diagnostics=[typo], only=[t.CodeActionKind.Refactor]))) == []
    assert [a.title for a in ask(t.CodeActionParams(t.TextDocumentIdentifier(uri=uri), typo.range, t.CodeActionContext(
        diagnostics=[typo], only=[t.CodeActionKind.QuickFix])))] == ["Change 'coinz' to 'coins'"]


PLACES = """game "G"
players 2
counter coins per seat
zone hand per seat
zone market
kind Good:
    price: number
card "Lamp" is Goood:
    price 2
define cheap(c) = c.price < 3
action Buy(c in markt):
    if cheapp(c):
        gain 1 coinz
flow:
    offer Biy
    move card("Lamp") to hnd of P1
    win P1
"""


def quick_fixes(server, path, text: str) -> tuple[list[t.Diagnostic], list[t.CodeAction]]:
    """The diagnostics published for a document opened with `text`, and the quick fixes asked
    for them all."""
    uri = path.as_uri()
    asyncio.run(handler(server, t.TEXT_DOCUMENT_DID_OPEN)(t.DidOpenTextDocumentParams(
        t.TextDocumentItem(uri=uri, language_id="ludus", version=1, text=text))))
    diags = [p for p in server.published_messages if p.uri == uri][-1].diagnostics
    whole = t.Range(t.Position(0, 0), t.Position(len(text.splitlines()), 0))
    return diags, handler(server, t.TEXT_DOCUMENT_CODE_ACTION)(t.CodeActionParams(
        t.TextDocumentIdentifier(uri=uri), whole, t.CodeActionContext(diagnostics=diags)))


def test_a_quick_fix_for_a_typo_in_each_kind_of_place(server, tmp_path):
    path = tmp_path / "g.ludus"
    path.write_text(PLACES, encoding="utf-8")
    diags, actions = quick_fixes(server, path, PLACES)
    assert sorted(a.title for a in actions) == [
        "Change 'Biy' to 'Buy'",            # an action
        "Change 'Goood' to 'Good'",         # a kind
        "Change 'cheapp' to 'cheap'",       # a define, called: the call is underlined whole
        "Change 'coinz' to 'coins'",        # a counter
        "Change 'hnd' to 'hand'",           # a zone
        "Change 'markt' to 'market'"]       # a zone, as a name
    # each diagnostic says what it suggests as data, beside its words
    assert sorted(d.data["suggestion"]["name"] for d in diags if d.data) == [
        "Biy", "Goood", "cheapp", "coinz", "hnd", "markt"]
    call = next(a for a in actions if "cheapp" in a.title).edit.changes[path.as_uri()][0]
    assert (call.range.start.line, call.range.start.character, call.range.end.character) == (11, 7, 13)
    edits = sorted((e for a in actions for e in a.edit.changes[path.as_uri()]),
                   key=lambda e: (e.range.start.line, e.range.start.character))
    path.write_text(applied(PLACES, edits), encoding="utf-8")
    assert [d for d in diagnostics(path) if d[0] == "error"] == []


def test_a_quick_fix_for_an_include_keeps_the_folder_written(server, tmp_path):
    (tmp_path / "parts").mkdir()
    (tmp_path / "parts" / "rules.ludus").write_text("counter coins per seat\n", encoding="utf-8")
    text = 'game "G"\nplayers 2\ninclude "parts/rulse.ludus"\nflow:\n    gain 1 coins\n    win P1\n'
    path = tmp_path / "g.ludus"
    path.write_text(text, encoding="utf-8")
    diags, actions = quick_fixes(server, path, text)
    assert [d.message.partition("\n")[2] for d in diags if d.data] == ["did you mean 'rules.ludus'?"]  # words unchanged
    [fix] = actions
    assert fix.title == "Change 'parts/rulse.ludus' to 'parts/rules.ludus'"
    path.write_text(applied(text, fix.edit.changes[path.as_uri()]), encoding="utf-8")
    assert [d for d in diagnostics(path) if d[0] == "error"] == []


def test_the_quick_fix_reads_the_suggestion_in_the_data_never_the_words(server, tmp_path):
    path = tmp_path / "g.ludus"
    uri = path.as_uri()
    server.ludus.open(str(path), TYPOS)
    at = t.Range(t.Position(8, 11), t.Position(8, 16))      # coinz, on `gain 2 coinz for s`
    ask = handler(server, t.TEXT_DOCUMENT_CODE_ACTION)

    def fixes(message: str, data=None) -> list[tuple[str, str]]:
        said = t.Diagnostic(range=at, source="ludus", message=message, data=data)
        return [(a.title, a.edit.changes[uri][0].new_text)
                for a in ask(t.CodeActionParams(t.TextDocumentIdentifier(uri=uri), at, t.CodeActionContext(diagnostics=[said])))]

    meant = {"suggestion": {"name": "coinz", "meant": ["coins", "coin"]}}
    # other words, or none at all: the data says what is meant, the nearest preferred
    assert fixes("no such counter\nperhaps 'gold' was meant", meant) == [
        ("Change 'coinz' to 'coins'", "coins"), ("Change 'coinz' to 'coin'", "coin")]
    assert fixes("", meant)[0] == ("Change 'coinz' to 'coins'", "coins")
    # the words of a suggestion without its data: nothing
    assert fixes("unknown counter 'coinz'\ndid you mean 'coins'?") == []
    # data that does not fit, as an editor might send back: nothing, and no error
    for broken in ("coins", [], {"suggestion": None}, {"suggestion": {"name": "coinz"}},
                   {"suggestion": {"name": "coinz", "meant": []}}, {"suggestion": {"name": 3, "meant": ["coins"]}},
                   {"suggestion": {"name": "coinz", "meant": ["coins", 4]}}):
        assert fixes("unknown counter 'coinz'\ndid you mean 'coins'?", broken) == []
    # a name meant that is no name (nor fits in quotes) is not put in place
    assert fixes("", {"suggestion": {"name": "coinz", "meant": ["two words"]}}) == []
    # the range no longer holds the name the data speaks of
    assert fixes("", {"suggestion": {"name": "coins", "meant": ["gold"]}}) == []


def test_a_quick_fix_over_stdio_from_the_data_the_editor_sends_back(tmp_path):
    text = 'game "G"\nplayers 2\ncounter coins per seat\nflow:\n    gain 1 coinz\n    win P1\n'
    with over_stdio(tmp_path, text, {}) as (client, uri, _caps):
        published = client.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri)
        [typo] = [d for d in published["params"]["diagnostics"] if d["severity"] == 1]
        assert typo["data"] == {"suggestion": {"name": "coinz", "meant": ["coins"]}}
        assert typo["message"] == "unknown counter 'coinz'\ndid you mean 'coins'?"

        def actions(diagnostic: dict) -> list:
            return client.request("textDocument/codeAction", {"textDocument": {"uri": uri}, "range": typo["range"],
                                                              "context": {"diagnostics": [diagnostic]}})["result"]

        [fix] = actions(typo)
        assert fix["title"] == "Change 'coinz' to 'coins'" and fix["isPreferred"] is True
        assert fix["edit"]["changes"][uri] == [{"range": typo["range"], "newText": "coins"}]
        # an editor that drops the data (older than LSP 3.16) gets no quick fix, whatever the words say
        assert actions({k: v for k, v in typo.items() if k != "data"}) == []


KINDS = '''game "Kinds"
players 2
zone pile
zone sold
kind Property:
    number: number
    height: number
board town:
    quarter Docks with height 2
    quarter Hill with height 3
define tallest = first(most(q.height for q in quarters))
define higher(x, y) = x.height > y.height
define top_number = first(most(p.number for p in Properties))
card "House" is Property:
    number 1
    height 4
setup:
    move Properties to pile
    for each q in quarters:
        log "{q} {tallest} {higher(q, q)} {top_number}"
flow:
    win P1
'''


@pytest.fixture
def kinds(tmp_path):
    path = tmp_path / "kinds.ludus"
    path.write_text(KINDS, encoding="utf-8")
    return path


def test_a_kind_renamed_takes_its_plural_along_and_a_type_is_not_a_property(server, kinds):
    before = diagnostics(kinds)
    assert [d for d in before if d[0] == "error"] == []
    apply_edit(rename(server, kinds, 4, 6, "Holding"))                       # kind Property
    text = kinds.read_text(encoding="utf-8")
    assert "move Holdings to pile" in text and "for p in Holdings" in text and 'card "House" is Holding:' in text
    apply_edit(rename(make_server(), kinds, 5, 5, "rank"))                   # number: number
    text = kinds.read_text(encoding="utf-8")
    assert "    rank: number\n" in text and "p.rank for p" in text and "    rank 1\n" in text
    apply_edit(rename(make_server(), kinds, 8, 5, "district"))               # a kind of space, and `quarters`
    text = kinds.read_text(encoding="utf-8")
    assert "    district Docks with height 2" in text and "for q in districts" in text
    assert diagnostics(kinds) == before


def test_a_property_that_both_a_kind_and_a_space_declare_is_not_renamed_where_it_may_be_either(server, kinds):
    from pygls.exceptions import JsonRpcException

    # `x.height` on parameters of no known type: a card's height or a space's
    assert where(references(server, kinds, 6, 6)) == [
        ("kinds.ludus", 6, 4, 10), ("kinds.ludus", 11, 24, 30), ("kinds.ludus", 11, 35, 41), ("kinds.ludus", 15, 4, 10)]
    for line, character in ((6, 6), (8, 24), (11, 25)):
        with pytest.raises(JsonRpcException) as caught:
            rename(server, kinds, line, character, "tallness")
        assert "may be a card's property or a space's" in caught.value.message


@pytest.mark.parametrize(("line", "character", "new", "why"), [
    (4, 6, "Card", "the kind 'Card' is the one the language gives a card declared without `is`"),
    (2, 6, "discard", "a zone named 'discard' is one the language reads by that name"),
    (4, 6, "Pile", "'Piles', the plural of 'Pile', names a"),
])
def test_renames_that_would_change_what_the_language_reads_are_refused(server, kinds, line, character, new, why):
    from pygls.exceptions import JsonRpcException

    text = KINDS.replace("zone sold\n", "zone sold\nzone Piles\n") if new == "Pile" else KINDS
    kinds.write_text(text, encoding="utf-8")
    line += text[:text.index("kind Property")].count("\n") - 4 if line == 4 else 0
    with pytest.raises(JsonRpcException) as caught:
        rename(server, kinds, line, character, new)
    assert why in caught.value.message


def test_a_rename_in_a_part_reaches_every_game_that_reads_it_and_the_files_that_extend_them(server, tmp_path):
    (tmp_path / "rules.ludus").write_text("counter coins per seat\nrule collect:\n    gain 1 coins\n"
                                          "    if solo:\n        gain 1 coins\n", encoding="utf-8")
    (tmp_path / "a-solo.ludus").write_text('game "Solo"\nplayers 1\ninclude "rules.ludus"\nflow:\n    collect()\n'
                                           '    win P1\nvalue solo = true\n', encoding="utf-8")
    (tmp_path / "big.ludus").write_text('game "Big"\nplayers 2\ninclude "rules.ludus"\ninclude "cards.ludus"\n'
                                        'flow:\n    collect()\n    win P1\nvalue solo = false\n', encoding="utf-8")
    (tmp_path / "cards.ludus").write_text('card "Lamp":\n    on play:\n        collect()\n', encoding="utf-8")
    (tmp_path / "big.tests.ludus").write_text('extends "big.ludus"\ntest "paid":\n    resolve "Lamp" for P1\n'
                                              '    expect coins of P1 == 1\n', encoding="utf-8")
    before = {g: diagnostics(tmp_path / g) for g in ("a-solo.ludus", "big.ludus", "big.tests.ludus")}
    edit = rename(server, tmp_path / "rules.ludus", 0, 9, "gold")      # the part's own game is a-solo
    assert sorted(uri.rsplit("/", 1)[-1] for uri in edit.changes) == ["big.tests.ludus", "rules.ludus"]
    assert where(references(server, tmp_path / "rules.ludus", 1, 6, declaration=False)) == [
        ("a-solo.ludus", 4, 4, 11), ("big.ludus", 5, 4, 11), ("cards.ludus", 2, 8, 15)]
    apply_edit(edit)
    apply_edit(rename(make_server(), tmp_path / "rules.ludus", 1, 6, "payday"))
    # each game sets its own value, which the part they share reads: both are renamed
    edit = rename(make_server(), tmp_path / "big.ludus", 7, 7, "alone")
    assert sorted(uri.rsplit("/", 1)[-1] for uri in edit.changes) == ["a-solo.ludus", "big.ludus", "rules.ludus"]
    apply_edit(edit)
    assert "    payday()\n" in (tmp_path / "a-solo.ludus").read_text(encoding="utf-8")
    assert "        payday()\n" in (tmp_path / "cards.ludus").read_text(encoding="utf-8")
    assert "expect gold of P1 == 1" in (tmp_path / "big.tests.ludus").read_text(encoding="utf-8")
    assert {g: diagnostics(tmp_path / g) for g in before} == before


# ── the keys of a zone family or a counter ──

FAMILY = '''game "Family"
players 2
value colours = ["red", "blue"]
zone discards per colour
zone row per seat and colour
counter played per colour
token Told per colour
card "Red 1"
flow:
    move card("Red 1") to discards of "red"
    increase played of "red" by 1
    add 1 Told of "red" to card("Red 1")
    for each c in colours:
        log "{c}"
    end game
'''


def family_edits(server, tmp_path, line, character, new):
    path = tmp_path / "family.ludus"
    path.write_text(FAMILY, encoding="utf-8")
    edit = rename(server, path, line, character, new)
    return path, [(e.range.start.line, e.range.start.character, e.new_text) for e in edit.changes[path.as_uri()]]


def test_renaming_a_familys_list_value_renames_its_per_to_the_new_singular(server, tmp_path):
    # `per colour` names `colours` by its singular: left as it was, the game would no longer check
    path, edits = family_edits(server, tmp_path, 2, 8, "shades")
    assert edits == [(2, 6, "shades"), (3, 18, "shade"), (4, 22, "shade"), (5, 19, "shade"), (6, 15, "shade"), (12, 18, "shades")]
    before = diagnostics(path)
    apply_edit(rename(server, path, 2, 8, "shades"))
    assert diagnostics(path) == before
    # from the `per` word, the new name is the new singular
    _, edits = family_edits(server, tmp_path, 3, 20, "hue")
    assert edits == [(2, 6, "hues"), (3, 18, "hue"), (4, 22, "hue"), (5, 19, "hue"), (6, 15, "hue"), (12, 18, "hues")]


@pytest.mark.parametrize(("line", "character", "new", "why"), [
    (2, 8, "fish", "'per colour' on line 4 of family.ludus names a set of keys by the singular of "
                   "'colours', and 'fish' has no singular that names it back"),
    (3, 20, "row", "'row', the singular of 'rows' that a 'per' would name, "
                   "is already the name of a zone"),
])
def test_a_familys_list_value_is_not_renamed_to_a_name_without_a_singular(server, tmp_path, line, character, new, why):
    from pygls.exceptions import JsonRpcException

    path = tmp_path / "family.ludus"
    path.write_text(FAMILY, encoding="utf-8")
    with pytest.raises(JsonRpcException) as caught:
        rename(server, path, line, character, new)
    assert why in caught.value.message
