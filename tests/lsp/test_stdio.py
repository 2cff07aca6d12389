"""`ludus lsp` end to end: a real subprocess speaking JSON-RPC over stdio, every wait bounded."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from tests.lsp.jsonrpc import Client

pytest.importorskip("pygls")

GAME = '''game "Typo"
players 2
counter coins per seat
flow:
    gain 1 coinz
    win P1
'''


def ludus_argv() -> list[str]:
    exe = shutil.which("ludus", path=str(Path(sys.executable).parent))
    return [exe, "lsp"] if exe else [sys.executable, "-m", "ludus", "lsp"]


def test_initialize_diagnose_hover_and_exit_over_stdio(tmp_path):
    path = tmp_path / "typo.ludus"
    path.write_text(GAME.replace("coinz", "coins"), encoding="utf-8")   # on disk: clean
    uri = path.as_uri()
    client = Client(ludus_argv(), cwd=str(tmp_path))
    try:
        init = client.request("initialize", {"processId": None, "rootUri": tmp_path.as_uri(), "capabilities": {}})
        caps = init["result"]["capabilities"]
        assert caps["hoverProvider"] and caps["definitionProvider"] and caps["documentSymbolProvider"]
        assert caps["completionProvider"]["triggerCharacters"] == ['"']
        client.notify("initialized", {})
        # the buffer, unsaved, has a typo: its diagnostics come from the buffer, not the disk
        client.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "ludus", "version": 1, "text": GAME}})
        published = client.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                                and m["params"]["uri"] == uri)
        diags = published["params"]["diagnostics"]
        errors = [d for d in diags if d["severity"] == 1]
        assert len(errors) == 1
        assert errors[0]["message"].startswith("unknown counter 'coinz'")
        assert errors[0]["range"] == {"start": {"line": 4, "character": 11}, "end": {"line": 4, "character": 16}}
        hover = client.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 2, "character": 10}})
        assert hover["result"]["contents"]["value"].startswith("**coins**: counter (number per seat)")
        where = client.request("textDocument/definition", {"textDocument": {"uri": uri},
                                                            "position": {"line": 4, "character": 13}})
        assert where["result"] is None                                  # `coinz` is declared nowhere
        outline = client.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
        assert [s["name"] for s in outline["result"]] == ["Typo", "players", "coins", "flow"]
        # two quick edits (a worse typo, then the fix): one analysis after the pause, of the fixed text
        client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [
            {"range": {"start": {"line": 4, "character": 16}, "end": {"line": 4, "character": 16}}, "text": "x"}]})
        client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 3}, "contentChanges": [
            {"range": {"start": {"line": 4, "character": 15}, "end": {"line": 4, "character": 17}}, "text": "s"}]})
        cleared = client.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                              and m["params"]["uri"] == uri)
        assert [d for d in cleared["params"]["diagnostics"] if d["severity"] == 1] == []
        where = client.request("textDocument/definition", {"textDocument": {"uri": uri},
                                                            "position": {"line": 4, "character": 13}})
        assert where["result"]["uri"] == uri and where["result"]["range"]["start"] == {"line": 2, "character": 8}
        assert client.request("shutdown", None)["result"] is None
        client.notify("exit", None)
        assert client.proc.wait(timeout=20) == 0
    finally:
        client.close()


def test_edits_past_the_end_of_a_line_or_of_the_document_land_at_its_end(tmp_path):
    """The LSP rule: a position past the end of a line is its end; one past the last line, the
    end of the document. The diagnostics are those of the text the editor shows."""
    path = tmp_path / "typo.ludus"
    text = GAME.replace("coinz", "coins").replace("    win P1\n", "    win P1\n    gain 1 coin")  # no final line break
    path.write_text(text, encoding="utf-8")
    uri = path.as_uri()
    client = Client(ludus_argv(), cwd=str(tmp_path))

    def change(version: int, start: tuple[int, int], end: tuple[int, int], new: str) -> None:
        client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version}, "contentChanges": [
            {"range": {"start": {"line": start[0], "character": start[1]}, "end": {"line": end[0], "character": end[1]}},
             "text": new}]})

    try:
        client.request("initialize", {"processId": None, "rootUri": tmp_path.as_uri(), "capabilities": {}})
        client.notify("initialized", {})
        client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "ludus", "version": 1,
                                                                "text": text}})
        client.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri)
        change(2, (4, 17), (4, 17), "z")       # one past the line's end, where its line break is: `coinsz`
        change(3, (6, 20), (6, 20), "s")       # past the end of the last line, which has no line break: `coins`
        change(4, (40, 0), (40, 3), "\n")      # past the last line: the end
        published = client.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                                and m["params"]["uri"] == uri)
        errors = [(d["range"], d["message"].splitlines()[0]) for d in published["params"]["diagnostics"]
                  if d["severity"] == 1]
        assert errors == [({"start": {"line": 4, "character": 11}, "end": {"line": 4, "character": 17}},
                           "unknown counter 'coinsz'")]
        assert client.request("shutdown", None)["result"] is None
        client.notify("exit", None)
        assert client.proc.wait(timeout=20) == 0
    finally:
        client.close()


UNICODE = ('game "G 😀"\nplayers 2\ncounter coins per seat\nvalue e = "😀😀" + coinz\nvalue f = "😀😀" + e\n'
           "flow:\n    gain 1 coins\n    win P1\n")


@pytest.mark.parametrize("offered, encoding, at, title_end", [
    (None, "utf-16", 19, 11),                   # LSP's default: an emoji is two UTF-16 code units
    (["utf-8", "utf-16"], "utf-8", 23, 13),     # the editor's first choice that the server knows
    (["utf-32"], "utf-32", 17, 10),
])
def test_positions_count_as_the_editor_counts(tmp_path, offered, encoding, at, title_end):
    """Columns after an emoji, both ways: in what the server sends and in what it is asked."""
    path = tmp_path / "u.ludus"
    path.write_text(UNICODE, encoding="utf-8")
    uri = path.as_uri()
    client = Client(ludus_argv(), cwd=str(tmp_path))
    doc = {"textDocument": {"uri": uri}}

    def errors() -> list:
        published = client.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                                and m["params"]["uri"] == uri)
        return [d["range"] for d in published["params"]["diagnostics"] if d["severity"] == 1]

    try:
        capabilities = {"general": {"positionEncodings": offered}} if offered else {}
        init = client.request("initialize", {"processId": None, "rootUri": tmp_path.as_uri(), "capabilities": capabilities})
        assert init["result"]["capabilities"]["positionEncoding"] == encoding
        client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "ludus", "version": 1,
                                                                "text": UNICODE}})
        coinz = {"start": {"line": 3, "character": at}, "end": {"line": 3, "character": at + 5}}
        assert errors() == [coinz]
        on_e = {**doc, "position": {"line": 4, "character": at}}             # `e` in `"😀😀" + e`
        assert client.request("textDocument/hover", on_e)["result"]["contents"]["value"].startswith("**e**: value")
        assert client.request("textDocument/definition", on_e)["result"]["range"]["start"] == {"line": 3, "character": 6}
        symbols = client.request("textDocument/documentSymbol", doc)["result"]
        assert symbols[0]["range"] == {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": title_end}}
        for s in symbols:      # LSP: the selection range lies inside the range
            whole, head = [(r["start"]["line"], r["start"]["character"], r["end"]["line"], r["end"]["character"])
                           for r in (s["range"], s["selectionRange"])]
            assert whole[:2] <= head[:2] and head[2:] <= whole[2:], s
        client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [
            {"range": coinz, "text": '"x"'}]})
        assert errors() == []
        assert client.request("shutdown", None)["result"] is None
        client.notify("exit", None)
        assert client.proc.wait(timeout=20) == 0
    finally:
        client.close()


def test_a_buffer_without_a_file_gets_its_answers_under_its_own_uri(tmp_path):
    """An unsaved buffer (`untitled:`) has no file: URI; its diagnostics were sent for a file
    of that name in the server's folder, which the editor shows nowhere."""
    uri = "untitled:Untitled-1"
    client = Client(ludus_argv(), cwd=str(tmp_path))
    try:
        client.request("initialize", {"processId": None, "rootUri": tmp_path.as_uri(), "capabilities": {}})
        client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "ludus", "version": 1,
                                                                "text": GAME}})
        published = client.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics", timeout=15)
        assert published["params"]["uri"] == uri
        assert [d["message"].splitlines()[0] for d in published["params"]["diagnostics"] if d["severity"] == 1] == [
            "unknown counter 'coinz'"]
        on_coins = {"textDocument": {"uri": uri}, "position": {"line": 2, "character": 10}}
        assert client.request("textDocument/definition", on_coins)["result"]["uri"] == uri
        hover = client.request("textDocument/hover", on_coins)
        assert hover["result"]["contents"]["value"].startswith("**coins**: counter")
        assert client.request("shutdown", None)["result"] is None
        client.notify("exit", None)
        assert client.proc.wait(timeout=20) == 0
    finally:
        client.close()
