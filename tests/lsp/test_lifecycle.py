"""How a `ludus lsp` session ends, end to end: the exit code an editor reads to tell a clean
stop from a crash (LSP: 0 after `shutdown` then `exit`, 1 for any other end), and no
traceback and no wait, whatever the server was doing."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time

import pytest

from tests.lsp.jsonrpc import Client
from tests.lsp.test_stdio import ludus_argv

pytest.importorskip("pygls")

INIT = {"processId": None, "rootUri": None, "capabilities": {}}


def ended(client: Client) -> tuple[int, str]:
    """The exit code and stderr of a server that should have stopped (a bounded wait: a server
    that does not stop fails the test rather than hanging it)."""
    code = client.proc.wait(timeout=20)
    return code, client.proc.stderr.read().decode("utf-8")


def test_exit_without_shutdown_is_exit_code_1(tmp_path):
    client = Client(ludus_argv(), cwd=str(tmp_path))
    try:
        client.request("initialize", INIT)
        client.notify("initialized", {})
        client.notify("exit", None)
        assert ended(client) == (1, "")
    finally:
        client.close()


def test_exit_before_initialize_is_exit_code_1(tmp_path):
    client = Client(ludus_argv(), cwd=str(tmp_path))
    try:
        client.notify("exit", None)
        assert ended(client) == (1, "")
    finally:
        client.close()


def test_exit_after_shutdown_is_exit_code_0_whatever_its_params(tmp_path):
    client = Client(ludus_argv(), cwd=str(tmp_path))
    try:
        client.request("initialize", INIT)
        assert client.request("shutdown", None)["result"] is None
        client.notify("exit", {"unexpected": True})
        assert ended(client) == (0, "")
    finally:
        client.close()


def _default_sigint() -> None:  # a shell's background job may have been started with Ctrl-C ignored
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.skipif(sys.platform == "win32", reason="sends SIGINT")
def test_ctrl_c_while_waiting_for_input_stops_at_once_with_130(tmp_path):
    client = Client(ludus_argv(), cwd=str(tmp_path), preexec_fn=_default_sigint)
    try:
        client.request("initialize", INIT)     # up and reading stdin, which stays open
        client.proc.send_signal(signal.SIGINT)
        assert ended(client) == (130, "")
    finally:
        client.close()


BLOCKED = """
import sys
from pathlib import Path
from ludus.lsp import workspace
from ludus.lsp import serve

def analyse_for_ever(self, path):
    Path(sys.argv[1]).write_text("analysing")
    import threading
    threading.Event().wait()

workspace.Workspace.analyse = analyse_for_ever
serve()
"""


@pytest.mark.skipif(sys.platform == "win32", reason="sends SIGINT")
def test_ctrl_c_while_analysing_stops_at_once_with_130(tmp_path):
    """An analysis runs on a worker thread, which Python would wait for at exit: Ctrl-C does not."""
    flag = tmp_path / "started"
    client = Client([sys.executable, "-c", BLOCKED, str(flag)], cwd=str(tmp_path), preexec_fn=_default_sigint)
    try:
        client.request("initialize", INIT)
        client.notify("textDocument/didOpen", {"textDocument": {
            "uri": (tmp_path / "g.ludus").as_uri(), "languageId": "ludus", "version": 1, "text": 'game "G"\n'}})
        for _ in range(2000):                   # until the analysis is under way (bounded)
            if flag.exists():
                break
            time.sleep(0.01)
        assert flag.exists()
        client.proc.send_signal(signal.SIGINT)
        assert ended(client) == (130, "")
    finally:
        client.close()


@pytest.mark.parametrize("last, said", [
    (b"", "ludus lsp: the editor closed stdin without exit"),
    (b"Content-Length: 100\r\n\r\n" + b'{"jsonrpc": "2.0", "method": "lo',
     "ludus lsp: the editor closed stdin without exit, 32 bytes into a message of 100 bytes: it is lost"),
    (b"Content-Len", "ludus lsp: the editor closed stdin without exit, in the middle of a header"),
])
def test_end_of_input_stops_the_server_with_1_whatever_was_half_read(tmp_path, last, said):
    """The editor died: nothing more will come, and no shutdown came (exit code 1)."""
    client = Client(ludus_argv(), cwd=str(tmp_path))
    try:
        client.request("initialize", INIT)
        client.send_bytes(last)
        client.proc.stdin.close()
        code, stderr = ended(client)
        assert (code, stderr.splitlines()) == (1, [said])
    finally:
        client.close()


def test_end_of_input_after_shutdown_is_exit_code_0(tmp_path):
    client = Client(ludus_argv(), cwd=str(tmp_path))
    try:
        client.request("initialize", INIT)
        assert client.request("shutdown", None)["result"] is None
        client.proc.stdin.close()
        assert ended(client) == (0, "")
    finally:
        client.close()


def test_a_closed_stdout_stops_the_server_with_1_and_one_line(tmp_path):
    """The editor stopped reading: answers can go nowhere, so the server stops (pygls logged a
    traceback for each answer it could not write, and read on)."""
    proc = subprocess.Popen(ludus_argv(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            cwd=str(tmp_path))
    try:
        proc.stdout.close()
        hover = {"textDocument": {"uri": (tmp_path / "g.ludus").as_uri()}, "position": {"line": 0, "character": 0}}
        for ident, method, params in [(1, "initialize", INIT), (2, "textDocument/hover", hover)]:
            body = json.dumps({"jsonrpc": "2.0", "id": ident, "method": method, "params": params}).encode("utf-8")
            with contextlib.suppress(BrokenPipeError):  # the server may be gone already
                proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
                proc.stdin.flush()
        assert proc.wait(timeout=20) == 1
        assert proc.stderr.read().decode("utf-8").splitlines() == ["ludus lsp: the editor closed stdout: stopping"]
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=10)
        for stream in (proc.stdin, proc.stderr):
            with contextlib.suppress(BrokenPipeError):
                stream.close()


@pytest.mark.skipif(sys.platform == "win32", reason="closes a file descriptor before exec")
@pytest.mark.parametrize("fd, said", [(0, "stdin"), (1, "stdout")])
def test_started_without_stdin_or_stdout_it_says_so_and_exits_1(tmp_path, fd, said):
    ran = subprocess.run(ludus_argv(), preexec_fn=lambda: os.close(fd), stdin=subprocess.DEVNULL if fd else None,
                         stdout=None if fd else subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=str(tmp_path),
                         timeout=60)
    assert (ran.returncode, ran.stderr.decode("utf-8").splitlines()) == (
        1, [f"ludus lsp: {said} is closed: an editor starts ludus lsp with a pipe on stdin and one on stdout"])


@pytest.mark.skipif(sys.platform == "win32", reason="sends SIGINT")
def test_ctrl_c_ignored_by_whoever_started_the_server_stays_ignored(tmp_path):
    """A shell starts a background job with Ctrl-C ignored: the server keeps to that."""
    client = Client(ludus_argv(), cwd=str(tmp_path), preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    try:
        client.request("initialize", INIT)
        client.proc.send_signal(signal.SIGINT)
        assert client.request("shutdown", None)["result"] is None     # still serving
        client.notify("exit", None)
        assert ended(client) == (0, "")
    finally:
        client.close()
