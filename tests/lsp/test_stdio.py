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
