"""The bytes an editor sends the language server, cut into messages: LSP's base protocol, a
header (`Content-Length: N`) then a blank line then N bytes of UTF-8 JSON.

The editor's bytes are not trusted. A body that is not UTF-8 JSON, a missing, unreadable or
wrong Content-Length, a length over the limit: each loses one message, and is reported once as a
Problem (one line of text); reading goes on at the next header, so the messages after it are
answered. A wrong length is found out either way: too small leaves the end of the body in front of
the next header, where it is skipped; too large reads the next header into the body, where it is
found (a header followed by a line break can only be there by mistake: JSON writes the line
breaks in its strings as \\n), and reading goes back to it.

No pygls here: server.py hands on the messages read.
"""

from __future__ import annotations

import json
import re

from attrs import define

MAX_BODY = 64 * 1024 * 1024  # bytes: a game's largest buffer as JSON is far below this
MAX_HEADER = 8 * 1024  # bytes of header lines; more before a blank line is not a header
HEADER_END = b"\r\n\r\n"
LENGTH = re.compile(rb"content-length[ \t]*:[ \t]*([^\r\n]*)", re.IGNORECASE)
NEXT_HEADER = re.compile(rb"content-length[ \t]*:[ \t]*[0-9]+[ \t]*\r\n", re.IGNORECASE)
HEADER_LINE = re.compile(rb"[A-Za-z0-9-]+[ \t]*:[^\r\n]*")


@define
class Problem:
    """Bytes that were not a message; `text` says what was wrong, in one line."""

    text: str


class Reader:
    """Bytes in (`feed`), messages out: each the JSON value of one body, or a Problem."""

    def __init__(self) -> None:
        self.buffer = bytearray()
        self.length: int | None = None  # the body's length once its header is read
        self.lost = False  # skipping bytes whose loss is already reported

    def feed(self, data: bytes) -> list[object]:
        self.buffer += data
        out: list[object] = []
        while True:
            if self.length is None:
                if not self._header(out):
                    return out
            elif len(self.buffer) >= self.length:
                body = bytes(self.buffer[:self.length])
                del self.buffer[:self.length]
                self.length = None
                out.append(self._body(body))
            else:
                return out

    def unfinished(self) -> str | None:
        """What the bytes read so far leave half done, in words (for when no more will come), or
        None when they end between messages."""
        if self.length is not None:
            return f"{_bytes(len(self.buffer))} into a message of {_bytes(self.length)}: it is lost"
        if self.buffer.strip() and not self.lost:
            return "in the middle of a header"
        return None

    def _report(self, out: list[object], text: str) -> None:
        if not self.lost:
            out.append(Problem(text))
        self.lost = True

    def _header(self, out: list[object]) -> bool:
        """Read one header, if a whole one is there; False when more bytes are needed."""
        end = self.buffer.find(HEADER_END)
        if end < 0:
            if len(self.buffer) > MAX_HEADER:  # no header is this long: keep only what may start one
                cut = len(self.buffer) - MAX_HEADER
                self._report(out, "skipped bytes that are not a message (no header before them)")
                del self.buffer[:cut]
            return False
        head = bytes(self.buffer[:end])
        del self.buffer[:end + len(HEADER_END)]
        found = list(LENGTH.finditer(head))
        if not found:
            if HEADER_LINE.fullmatch(head.split(b"\r\n")[0]):
                self._report(out, "a message without a Content-Length header: skipped")
            else:
                self._report(out, f"skipped {_bytes(len(head))} that are not a message")
            return True
        length = found[-1]
        line_start = head.rfind(b"\n", 0, length.start()) + 1
        earlier = head[:line_start].split(b"\r\n")[:-1]  # header lines before it, like Content-Type
        if line_start < length.start() or not all(HEADER_LINE.fullmatch(line) for line in earlier):
            # the end of a body whose Content-Length was too small, or other stray bytes
            self._report(out, f"skipped {_bytes(length.start())} that are not a message "
                              "(a Content-Length smaller than its body?)")
        value = length.group(1).strip()
        if not value.isdigit():
            shown = value[:20].decode("ascii", "backslashreplace")
            self._report(out, f"the Content-Length '{shown}' is not a number: the message is skipped")
            return True
        if len(value) > 12 or int(value) > MAX_BODY:
            shown = value[:15].decode("ascii") + ("..." if len(value) > 15 else "")
            self._report(out, f"a message of {shown} bytes is over the limit of {MAX_BODY:,}: skipped")
            return True
        self.length = int(value)
        return True

    def _body(self, body: bytes) -> object:
        problem = self._read(body)
        self.lost = isinstance(problem, Problem)  # what is left of a lost message is not reported again
        return problem

    def _read(self, body: bytes) -> object:
        after = NEXT_HEADER.search(body)
        if after is not None:  # the Content-Length was too large: the next message starts inside
            self.buffer[:0] = body[after.start():]
            return Problem("a message body runs into the next header (a Content-Length larger than "
                           "its body?): skipped")
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError as exc:
            return Problem(f"a message body is not UTF-8 (byte {exc.start + 1} of {len(body):,}): skipped")
        try:
            return json.loads(text)
        except RecursionError:
            return Problem("a message body is JSON nested too deeply to read: skipped")
        except json.JSONDecodeError as exc:
            if exc.msg == "Extra data":  # a body too long by part of the next header: read on from there
                self.buffer[:0] = text[exc.pos:].encode("utf-8")
                return Problem("a message body runs into the next message (a Content-Length larger than "
                               "its body?): skipped")
            return Problem(f"a message body is not JSON ({exc.msg}: character {exc.pos + 1}): skipped")
        except ValueError as exc:  # a number of thousands of digits
            return Problem(f"a message body is not JSON that can be read ({str(exc).split(';')[0]}): skipped")


def _bytes(n: int) -> str:
    return "1 byte" if n == 1 else f"{n:,} bytes"
