"""A tiny JSON-RPC client over a subprocess's stdio, for the end-to-end test of `ludus lsp`."""

from __future__ import annotations

import json
import queue
import subprocess
import threading
import time


class Client:
    def __init__(self, argv: list[str], cwd: str | None = None, preexec_fn=None) -> None:
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     cwd=cwd, preexec_fn=preexec_fn)
        self.inbox: queue.Queue = queue.Queue()
        self.received: list[dict] = []  # every message, those `wait` drops too
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.decode("ascii").partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            if length is None:
                return
            message = json.loads(out.read(length))
            self.received.append(message)
            self.inbox.put(message)

    def send(self, message: dict) -> None:
        body = json.dumps(message).encode("utf-8")
        self.send_bytes(f"Content-Length: {len(body)}\r\n\r\n".encode("ascii") + body)

    def send_bytes(self, data: bytes) -> None:
        """Bytes as they are, for the messages a broken client might send."""
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def notify(self, method: str, params: dict) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method: str, params: dict | None, timeout: float = 30) -> dict:
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        wanted = self.next_id
        return self.wait(lambda m: m.get("id") == wanted and "method" not in m, timeout)

    def wait(self, predicate, timeout: float = 30) -> dict:
        """The first message that satisfies `predicate`; the others are dropped."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no answer from the language server in time")
            try:
                message = self.inbox.get(timeout=left)
            except queue.Empty:
                continue
            if predicate(message):
                return message

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=10)
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            stream.close()
