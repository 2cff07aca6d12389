"""`ludus lsp` given what no editor should send: every request answered (its result, or the
JSON-RPC error saying what was wrong), one line on stderr per problem and no traceback, and the
next message served as if nothing had happened."""

from __future__ import annotations

import json
import threading

import pytest

from tests.lsp.jsonrpc import Client
from tests.lsp.test_stdio import ludus_argv

pytest.importorskip("pygls")

from ludus.lsp.stdio import MAX_HEADER, Problem, Reader  # noqa: E402

GAME = 'game "G"\nplayers 2\ncounter coins per seat\nflow:\n    gain 1 coins\n    win P1\n'
PARSE_ERROR, INVALID_REQUEST, INVALID_PARAMS, NOT_INITIALIZED = -32700, -32600, -32602, -32002


def frame(body: bytes | dict, length: int | None = None) -> bytes:
    data = body if isinstance(body, bytes) else json.dumps(body).encode("utf-8")
    return f"Content-Length: {len(data) if length is None else length}\r\n\r\n".encode("ascii") + data


def shut_down(client: Client) -> str:
    """End the session as an editor does; what the server wrote on stderr."""
    assert client.request("shutdown", None)["result"] is None
    client.notify("exit", None)
    assert client.proc.wait(timeout=20) == 0
    return client.proc.stderr.read().decode("utf-8")


def request(ident, method: str, params) -> dict:
    return {"jsonrpc": "2.0", "id": ident, "method": method, "params": params}


def notification(method: str, params) -> dict:
    return {"jsonrpc": "2.0", "method": method, "params": params}


# ── cutting messages out of the bytes ──

OK = frame({"jsonrpc": "2.0", "method": "ok"})


@pytest.mark.parametrize("sent, problem", [
    (frame(b'{"jsonrpc": "2.0", "id": 1'), "a message body is not JSON (Expecting ',' delimiter: character 27): skipped"),
    (frame(b'{"method": "\xff"}'), "a message body is not UTF-8 (byte 13 of 15): skipped"),
    (frame(b"[" * 100_000 + b"]" * 100_000), "a message body is JSON nested too deeply to read: skipped"),
    (frame(b""), "a message body is not JSON (Expecting value: character 1): skipped"),
    (frame(b'{"jsonrpc": "2.0", "method": "lost"}', 20), "a message body is not JSON (Unterminated string "
                                                          "starting at: character 20): skipped"),
    (frame(b'{"jsonrpc": "2.0"}', 30), "a message body runs into the next message (a Content-Length larger than "
                                        "its body?): skipped"),
    (frame(b'{"jsonrpc": "2.0"}', 45), "a message body runs into the next header (a Content-Length larger than "
                                        "its body?): skipped"),
    (b'Content-Type: text/plain\r\n\r\n{"jsonrpc": "2.0"}', "a message without a Content-Length header: skipped"),
    (b'Content-Length: twelve\r\n\r\n{"jsonrpc": "2.0"}', "the Content-Length 'twelve' is not a number: the "
                                                           "message is skipped"),
    (b"Content-Length: 99999999999999999999999\r\n\r\n{}", "a message of 999999999999999... bytes is over the "
                                                           "limit of 67,108,864: skipped"),
    (b"hello\r\n\r\n", "skipped 5 bytes that are not a message"),
])
def test_a_broken_message_is_one_problem_and_the_next_is_read(sent, problem):
    whole = Reader().feed(sent + OK + OK)
    assert whole == [Problem(problem), {"jsonrpc": "2.0", "method": "ok"}, {"jsonrpc": "2.0", "method": "ok"}] \
        or problem.startswith("a message body runs") and whole[0] == Problem(problem)
    # however the bytes are cut on the way, the same messages come out
    reader, piecewise = Reader(), []
    for i in range(len(sent + OK + OK)):
        piecewise += reader.feed((sent + OK + OK)[i:i + 1])
    assert piecewise == whole


def test_a_content_length_too_large_loses_only_its_own_message():
    sent = frame(b'{"jsonrpc": "2.0", "method": "lost"}', 60) + frame({"jsonrpc": "2.0", "method": "next"})
    assert Reader().feed(sent) == [Problem("a message body runs into the next header (a Content-Length larger "
                                           "than its body?): skipped"), {"jsonrpc": "2.0", "method": "next"}]


def test_bytes_without_a_header_are_not_kept():
    reader = Reader()
    said = []
    for _ in range(1000):
        said += reader.feed(b"x" * 1000)
        assert len(reader.buffer) <= MAX_HEADER
    assert said == [Problem("skipped bytes that are not a message (no header before them)")]
    assert reader.feed(OK) == [{"jsonrpc": "2.0", "method": "ok"}]


# ── the server, end to end ──


def errors_to_expect(uri: str, tmp_path) -> list[tuple[str, bytes, tuple[int, object] | None, str]]:
    """(what, bytes sent, the error answered (code, id) or None for no answer, what stderr says)."""
    hover = request(30, "textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}})
    body = json.dumps(hover).encode("utf-8")
    return [
        ("bad JSON", frame(body[:-5]), (PARSE_ERROR, None), "a message body is not JSON"),
        ("not UTF-8", frame(body.replace(b"hover", b"hov\xffer")), (PARSE_ERROR, None), "is not UTF-8"),
        ("Content-Length too small", frame(body, len(body) - 9), (PARSE_ERROR, None), "a message body is not JSON"),
        ("Content-Length too large", frame(body, len(body) + 40), (PARSE_ERROR, None), "runs into the next"),
        ("no Content-Length", b"Content-Type: x\r\n\r\n" + body, (PARSE_ERROR, None), "without a Content-Length"),
        ("Content-Length not a number", b"Content-Length: 1e3\r\n\r\n" + body, (PARSE_ERROR, None),
         "the Content-Length '1e3' is not a number"),
        ("huge Content-Length", b"Content-Length: 99999999999999\r\n\r\n" + body, (PARSE_ERROR, None),
         "a message of 99999999999999 bytes is over the limit"),
        ("a batch", frame([hover]), (INVALID_REQUEST, None), "a batch"),
        ("no jsonrpc", frame({k: v for k, v in hover.items() if k != "jsonrpc"}), (INVALID_REQUEST, 30),
         'without "jsonrpc": "2.0"'),
        ("an id that is a list", frame({**hover, "id": [30]}), (INVALID_REQUEST, None),
         "textDocument/hover: the id must be a number or a string"),
        ("didOpen without textDocument", frame(notification("textDocument/didOpen", {})), None,
         "textDocument/didOpen: invalid params: required field missing at params.textDocument"),
        ("hover without params", frame({**hover, "params": None}), (INVALID_PARAMS, 30),
         "textDocument/hover: invalid params: invalid value for type, expected HoverParams at params"),
        ("hover at line 'a'", frame({**hover, "params": {"textDocument": {"uri": uri}, "position": {
            "line": "a", "character": 0}}}), (INVALID_PARAMS, 30),
         "textDocument/hover: invalid params: invalid value for type, expected int at params.position.line"),
        ("hover at line -1", frame({**hover, "params": {"textDocument": {"uri": uri}, "position": {
            "line": -1, "character": 0}}}), (INVALID_PARAMS, 30), "textDocument/hover: invalid params"),
        ("didChange of a document never opened", frame(notification("textDocument/didChange", {
            "textDocument": {"uri": (tmp_path / "other.ludus").as_uri(), "version": 2},
            "contentChanges": [{"text": "x"}]})), None, "ignored a change to file://"),
        ("unknown method", frame(request(30, "ludus/nothing", {})), (-32601, 30), "unknown method 'ludus/nothing'"),
    ]


def test_broken_messages_are_answered_and_the_next_request_is_served(tmp_path):
    path = tmp_path / "g.ludus"
    path.write_text(GAME, encoding="utf-8")
    uri = path.as_uri()
    outline = {"textDocument": {"uri": uri}}
    client = Client(ludus_argv(), cwd=str(tmp_path))
    cases = errors_to_expect(uri, tmp_path)
    try:
        client.request("initialize", {"processId": None, "rootUri": tmp_path.as_uri(), "capabilities": {}})
        client.notify("initialized", {})
        for n, (what, sent, error, _) in enumerate(cases):
            # sent together: a Content-Length too large is only found out when more bytes come
            client.send_bytes(sent + frame(request(100 + n, "textDocument/documentSymbol", outline)))
            if error is not None:
                answer = client.wait(lambda m: "error" in m and "method" not in m)
                assert (answer["error"]["code"], answer["id"]) == error, what
            # the server is alive, and serves the next request as if nothing had happened
            symbols = client.wait(lambda m, n=n: m.get("id") == 100 + n and "method" not in m)["result"]
            assert [s["name"] for s in symbols] == ["G", "players", "coins", "flow"], what
        stderr = shut_down(client)
    finally:
        client.close()
    assert "Traceback" not in stderr
    lines = stderr.splitlines()
    assert len(lines) == len(cases), stderr
    for (what, _, _, said), line in zip(cases, lines, strict=True):
        assert line.startswith("ludus lsp: ") and said in line, (what, line)


def test_odd_but_valid_requests_get_plain_answers(tmp_path):
    """Positions past the end, a URI that names no file or one the file system refuses, a
    document that is not a ludus file, a request cancelled once answered: answered as nothing
    found, with nothing on stderr."""
    path = tmp_path / "g.ludus"
    path.write_text(GAME, encoding="utf-8")
    uri = path.as_uri()
    notes = (tmp_path / "notes.txt").as_uri()
    client = Client(ludus_argv(), cwd=str(tmp_path))
    try:
        client.request("initialize", {"processId": None, "rootUri": tmp_path.as_uri(), "capabilities": {}})
        client.notify("initialized", {})
        client.notify("textDocument/didOpen", {"textDocument": {
            "uri": notes, "languageId": "plaintext", "version": 1, "text": "gain 1 coinz\n"}})
        far = {"line": 10_000, "character": 10_000}
        for where in (uri, notes, (tmp_path / "none.ludus").as_uri(), "file:///tmp/a%00b.ludus", "untitled:Untitled-1"):
            doc = {"textDocument": {"uri": where}}
            assert client.request("textDocument/hover", {**doc, "position": far})["result"] is None, where
            assert client.request("textDocument/definition", {**doc, "position": far})["result"] is None, where
            assert "result" in client.request("textDocument/completion", {**doc, "position": far}), where
            assert "result" in client.request("textDocument/documentSymbol", doc), where
        answered = client.request("textDocument/hover", {"textDocument": {"uri": notes}, "position": {
            "line": 0, "character": 8}})
        assert answered["result"] is None
        client.notify("$/cancelRequest", {"id": answered["id"]})    # too late: routine, as the cursor moves on
        # the text file is not analysed as a game: no diagnostics are published for it
        client.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "ludus", "version": 1, "text": GAME}})
        client.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri)
        published = [m["params"]["uri"] for m in client.received if m.get("method") == "textDocument/publishDiagnostics"]
        assert published == [uri]
        stderr = shut_down(client)
    finally:
        client.close()
    assert stderr == ""


def test_before_initialize_a_request_is_refused_and_a_notification_dropped(tmp_path):
    path = tmp_path / "g.ludus"
    path.write_text(GAME, encoding="utf-8")
    uri = path.as_uri()
    client = Client(ludus_argv(), cwd=str(tmp_path))
    try:
        client.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "ludus", "version": 1, "text": GAME}})
        early = client.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
        assert early["error"]["code"] == NOT_INITIALIZED
        init = client.request("initialize", {"processId": None, "rootUri": tmp_path.as_uri(), "capabilities": {}})
        assert init["result"]["capabilities"]["hoverProvider"]
        symbols = client.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})["result"]
        assert [s["name"] for s in symbols] == ["G", "players", "coins", "flow"]
        assert client.request("shutdown", None)["result"] is None
        late = client.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
        assert late["error"]["code"] == INVALID_REQUEST
        client.notify("exit", None)
        assert client.proc.wait(timeout=20) == 0
        stderr = client.proc.stderr.read().decode("utf-8")
    finally:
        client.close()
    assert stderr.splitlines() == [
        "ludus lsp: ignored textDocument/didOpen: it came before initialize",
        "ludus lsp: textDocument/documentSymbol: the server is not initialized yet",
        "ludus lsp: textDocument/documentSymbol: the server is shutting down",
    ]


def test_closing_stdout_waits_for_a_response_being_written_and_drops_later_ones():
    """`exit` closes stdout on the event loop while a worker thread may be writing a response:
    the close waits for it (a flush on a closed file used to fail, and reporting that failure
    to the editor failed again, hundreds of times)."""
    from ludus.lsp.server import Output

    class Stream:
        def __init__(self) -> None:
            self.written, self.closed = [], False
            self.writing, self.go_on = threading.Event(), threading.Event()

        def write(self, data: bytes) -> None:
            self.writing.set()
            assert self.go_on.wait(timeout=30)
            self.written.append(data)

        def flush(self) -> None:
            if self.closed:
                raise ValueError("I/O operation on closed file")

        def close(self) -> None:
            self.closed = True

    stream = Stream()
    out = Output(stream)
    writer = threading.Thread(target=out.write, args=(b"a response",))
    writer.start()
    assert stream.writing.wait(timeout=30)
    assert out.lock.locked()            # a close now waits for the write to finish
    stream.go_on.set()
    writer.join(timeout=30)
    out.close()
    out.write(b"too late")              # after `exit`: dropped, not an error
    assert stream.written == [b"a response"] and stream.closed


def test_a_second_initialize_is_refused_and_the_open_documents_stay(tmp_path):
    """LSP sends initialize once; pygls ran it again, which dropped its copy of every open
    document, so the edits after it were ignored."""
    path = tmp_path / "g.ludus"
    path.write_text(GAME, encoding="utf-8")
    uri = path.as_uri()
    client = Client(ludus_argv(), cwd=str(tmp_path))
    try:
        init = {"processId": None, "rootUri": tmp_path.as_uri(), "capabilities": {}}
        client.request("initialize", init)
        client.notify("initialized", {})
        client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "ludus", "version": 1,
                                                                "text": GAME}})
        client.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics")
        again = client.request("initialize", init)
        assert again["error"]["code"] == INVALID_REQUEST
        client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [
            {"range": {"start": {"line": 4, "character": 15}, "end": {"line": 4, "character": 16}}, "text": "z"}]})
        published = client.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics")
        assert [d["message"].splitlines()[0] for d in published["params"]["diagnostics"] if d["severity"] == 1] == [
            "unknown counter 'coinz'"]
        stderr = shut_down(client)
    finally:
        client.close()
    assert stderr.splitlines() == ["ludus lsp: initialize: the server is initialized already"]
