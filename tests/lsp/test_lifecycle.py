"""How a `ludus lsp` session ends, end to end: the exit code an editor reads to tell a clean
stop from a crash (LSP: 0 after `shutdown` then `exit`, 1 for any other end), and no
traceback and no wait, whatever the server was doing."""

from __future__ import annotations

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
