"""A long analysis and the edits that come while it runs, end to end over a pipe: the edits are
analysed once, together, when it ends (not once each, on threads of their own), and the
overtaken result is not published.

The server runs with the game analysis counted, and its first analysis held, once done, until
the test lets it go: "while it runs" is then a state the test waits for, not a guess at time."""

from __future__ import annotations

import sys
import time

import pytest

from tests.lsp.jsonrpc import Client

pytest.importorskip("pygls")

# argv: the log (a line per analysis), the file that says the first is held, the gate that lets it go
COUNTED_AND_HELD = """
import sys
import time
from pathlib import Path

from ludus.lsp import serve, workspace

log, held, gate = (Path(p) for p in sys.argv[1:4])
real = workspace.analyse


def counted(game, overrides):
    first = not log.exists()
    with log.open("a", encoding="utf-8") as out:
        out.write("analysis\\n")
    result = real(game, overrides=overrides)
    if first:
        held.write_text("held", encoding="utf-8")
        for _ in range(6000):               # bounded: a test that fails does not leave it waiting
            if gate.exists():
                break
            time.sleep(0.01)
    return result


workspace.analyse = counted
serve()
"""

INIT = {"processId": None, "rootUri": None, "capabilities": {}}
GAME = 'game "G"\nplayers 2\ncounter coins per seat\nflow:\n    gain 1 {}\n    win P1\n'


class Server:
    def __init__(self, tmp_path) -> None:
        self.log, self.held, self.gate = tmp_path / "log", tmp_path / "held", tmp_path / "gate"
        self.client = Client([sys.executable, "-c", COUNTED_AND_HELD, str(self.log), str(self.held), str(self.gate)],
                             cwd=str(tmp_path))
        self.client.request("initialize", INIT)

    def wait_until_held(self) -> None:
        for _ in range(3000):
            if self.held.exists():
                return
            time.sleep(0.01)
        raise AssertionError("the first analysis never began")

    def handled_so_far(self) -> None:
        """Every message sent so far has been handled: a request after them has its answer (a
        hover in a text file, answered without an analysis)."""
        answer = self.client.request("textDocument/hover", {"textDocument": {"uri": "file:///notes.txt"},
                                                            "position": {"line": 0, "character": 0}})
        assert answer["result"] is None

    def analyses(self) -> int:
        return self.log.read_text(encoding="utf-8").count("analysis")

    def published(self, uri: str) -> list[list[str]]:
        """The first line of each diagnostic, per publication for the document, in order."""
        return [[d["message"].splitlines()[0] for d in m["params"]["diagnostics"]]
                for m in self.client.received
                if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri]

    def stop(self) -> None:
        assert self.client.request("shutdown", None)["result"] is None
        self.client.notify("exit", None)
        assert self.client.proc.wait(timeout=20) == 0


def test_edits_and_saves_during_a_long_analysis_are_analysed_once_when_it_ends(tmp_path):
    path = tmp_path / "g.ludus"
    path.write_text(GAME.format("coins"), encoding="utf-8")
    uri = path.as_uri()
    server = Server(tmp_path)
    try:
        server.client.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "ludus", "version": 1, "text": GAME.format("coinz0")}})
        server.wait_until_held()
        for i in range(1, 11):                  # typed and saved ten times while it runs
            server.client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": i + 1},
                                                            "contentChanges": [{"text": GAME.format(f"coinz{i}")}]})
            server.client.notify("textDocument/didSave", {"textDocument": {"uri": uri}})
        server.handled_so_far()
        assert server.analyses() == 1           # the others wait for it (each ran on a thread of its own)
        server.gate.write_text("go", encoding="utf-8")
        server.client.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                           and "coinz10" in str(m["params"]["diagnostics"]))
        server.stop()
        assert server.analyses() == 2           # the held one, then one of the last text
        # the held one's result, overtaken, was never sent
        assert server.published(uri) == [["counter 'coins' is never used", "unknown counter 'coinz10'"]]
    finally:
        server.client.close()

