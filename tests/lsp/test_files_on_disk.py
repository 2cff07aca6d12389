"""Files changed on disk, not in the editor (a part edited in another program, a `git checkout`),
end to end over a pipe: the server asks the editor to watch `.ludus` files, and a change it
reports has the open documents that read the file analysed again, and only those.

The server runs with each analysis logged (the name of the game analysed), so the test counts
analyses; it never waits on time."""

from __future__ import annotations

import sys

import pytest

from tests.lsp.jsonrpc import Client

pytest.importorskip("pygls")

# argv: the log, a line per analysis
COUNTED = """
import sys
from pathlib import Path

from ludus.lsp import serve, workspace

log = Path(sys.argv[1])
real = workspace.analyse


def counted(game, overrides):
    with log.open("a", encoding="utf-8") as out:
        out.write(Path(game).name + "\\n")
    return real(game, overrides=overrides)


workspace.analyse = counted
serve()
"""

WATCHING = {"workspace": {"didChangeWatchedFiles": {"dynamicRegistration": True}}}
GAME = 'game "G"\nplayers 2\ncounter coins per seat\ninclude "cards.ludus"\nflow:\n    resolve play of card("Lamp")\n    win P1\n'
CARDS = 'card "Lamp":\n    on play:\n        gain 1 {}\n'
OTHER = 'game "O"\nplayers 2\nflow:\n    win P1\n'


class Server:
    def __init__(self, tmp_path, capabilities: dict) -> None:
        self.log = tmp_path / "log"
        self.log.touch()
        self.client = Client([sys.executable, "-c", COUNTED, str(self.log)], cwd=str(tmp_path))
        self.client.request("initialize", {"processId": None, "rootUri": None, "capabilities": capabilities})

    def analysed(self) -> list[str]:
        return self.log.read_text(encoding="utf-8").split()

    def open(self, path) -> None:
        self.client.notify("textDocument/didOpen", {"textDocument": {
            "uri": path.as_uri(), "languageId": "ludus", "version": 1, "text": path.read_text(encoding="utf-8")}})

    def published(self, path, where=lambda messages: True) -> list[str]:
        """The next diagnostics published for a file that `where` accepts: their first lines."""
        message = self.client.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                                   and m["params"]["uri"] == path.as_uri()
                                   and where([d["message"] for d in m["params"]["diagnostics"]]))
        return [d["message"].splitlines()[0] for d in message["params"]["diagnostics"]]

    def handled_so_far(self) -> None:
        """Every message sent so far has been handled: a request after them has its answer."""
        answer = self.client.request("textDocument/hover", {"textDocument": {"uri": "file:///notes.txt"},
                                                            "position": {"line": 0, "character": 0}})
        assert answer["result"] is None

    def stop(self) -> str:
        assert self.client.request("shutdown", None)["result"] is None
        self.client.notify("exit", None)
        assert self.client.proc.wait(timeout=20) == 0
        return self.client.proc.stderr.read().decode("utf-8")


def test_a_file_changed_on_disk_has_the_open_documents_that_read_it_analysed_again(tmp_path):
    game, cards, other = tmp_path / "game.ludus", tmp_path / "cards.ludus", tmp_path / "other.ludus"
    game.write_text(GAME, encoding="utf-8")
    cards.write_text(CARDS.format("coins"), encoding="utf-8")
    other.write_text(OTHER, encoding="utf-8")
    (tmp_path / "elsewhere").mkdir()
    server = Server(tmp_path, WATCHING)
    try:
        server.client.notify("initialized", {})
        asked = server.client.wait(lambda m: m.get("method") == "client/registerCapability")
        [registration] = asked["params"]["registrations"]
        assert registration["method"] == "workspace/didChangeWatchedFiles"
        assert registration["registerOptions"] == {"watchers": [{"globPattern": "**/*.ludus"}]}
        server.client.send({"jsonrpc": "2.0", "id": asked["id"], "result": None})
        server.open(other)
        assert server.published(other) == []
        server.open(game)
        assert server.published(cards) == []
        assert server.analysed() == ["other.ludus", "game.ludus"]
        # edited in another program: cards.ludus is not open in the editor, and no buffer changes
        cards.write_text(CARDS.format("coinz"), encoding="utf-8")
        (tmp_path / "elsewhere" / "notes.ludus").write_text(OTHER, encoding="utf-8")
        server.client.notify("workspace/didChangeWatchedFiles", {"changes": [
            {"uri": cards.as_uri(), "type": 2}, {"uri": (tmp_path / "elsewhere" / "notes.ludus").as_uri(), "type": 1}]})
        assert server.published(cards, lambda ms: ms != []) == ["unknown counter 'coinz'"]
        # a document opened now is analysed after any other the change asked for: once it is
        # published, every analysis the change led to is in the log
        third = tmp_path / "third.ludus"
        third.write_text(OTHER, encoding="utf-8")
        server.open(third)
        assert server.published(third) == []
        assert server.analysed() == ["other.ludus", "game.ludus", "game.ludus", "third.ludus"]
        # put back as it was: the error goes
        cards.write_text(CARDS.format("coins"), encoding="utf-8")
        server.client.notify("workspace/didChangeWatchedFiles", {"changes": [{"uri": cards.as_uri(), "type": 2}]})
        assert server.published(cards, lambda ms: ms == []) == []
        assert server.stop() == ""
    finally:
        server.client.close()


def test_the_watch_is_asked_for_only_of_an_editor_that_can_register_it_and_a_refusal_is_one_line(tmp_path):
    server = Server(tmp_path, {})
    try:
        server.client.notify("initialized", {})
        server.handled_so_far()
        assert not [m for m in server.client.received if m.get("method") == "client/registerCapability"]
        assert server.stop() == ""
    finally:
        server.client.close()
    server = Server(tmp_path, WATCHING)
    try:
        server.client.notify("initialized", {})
        asked = server.client.wait(lambda m: m.get("method") == "client/registerCapability")
        server.client.send({"jsonrpc": "2.0", "id": asked["id"], "error": {"code": -32601, "message": "no watching"}})
        server.handled_so_far()
        stderr = server.stop()
        assert stderr.startswith("ludus lsp: the editor will not report changes to .ludus files on disk: ")
        assert "no watching" in stderr and len(stderr.splitlines()) == 1, stderr
    finally:
        server.client.close()


def test_without_the_watch_a_save_reads_the_other_files_as_they_are_now(tmp_path):
    # a save re-published the analysis kept for the buffers, which had not changed: a part
    # edited in another program showed as it was until the next keystroke
    game, cards = tmp_path / "game.ludus", tmp_path / "cards.ludus"
    game.write_text(GAME, encoding="utf-8")
    cards.write_text(CARDS.format("coins"), encoding="utf-8")
    server = Server(tmp_path, {})
    try:
        server.client.notify("initialized", {})
        server.open(game)
        assert server.published(cards) == []
        cards.write_text(CARDS.format("coinz"), encoding="utf-8")
        server.client.notify("textDocument/didSave", {"textDocument": {"uri": game.as_uri()}})
        assert server.published(cards) == ["unknown counter 'coinz'"]
        assert server.analysed() == ["game.ludus", "game.ludus"]
        assert server.stop() == ""
    finally:
        server.client.close()
