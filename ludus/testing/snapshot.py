"""The syrupy extension for effect reports: one plain-text `.txt` file per snapshot, read by people."""

from __future__ import annotations

from pathlib import Path

from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode

from .snapshot_files import read_snapshot, write_snapshot


class EffectSnapshotExtension(SingleFileSnapshotExtension):
    """Writes `ludus.testing.Effect` reports (or plain text) as `__snapshots__/<test file>/<test>.txt`."""

    file_extension = "txt"
    _write_mode = WriteMode.TEXT

    def serialize(self, data, *, exclude=None, include=None, matcher=None) -> str:
        from ..engine.effect import Effect

        if isinstance(data, Effect):
            return data.report()
        if isinstance(data, str):
            return data if data.endswith("\n") else data + "\n"
        raise TypeError(f"an effect snapshot needs an Effect (from position.effect()) or text, not {type(data).__name__}")

    def read_snapshot_data_from_location(self, *, snapshot_location, **kwargs):
        """As `ludus test` reads it: a folder or a file that is not UTF-8 text in the snapshot's
        place fails the test with a SnapshotFileError saying so, and update leaves it alone."""
        return read_snapshot(Path(snapshot_location))

    @classmethod
    def write_snapshot_collection(cls, *, snapshot_collection, **kwargs) -> None:
        """Whole or not at all, as `ludus test --update` writes it."""
        write_snapshot(Path(snapshot_collection.location), next(iter(snapshot_collection)).data)

    def diff_lines(self, serialized_data, snapshot_data):
        """The stored report (-) against the report now (+), whole and uncoloured: effects are short."""
        yield from effect_diff(str(snapshot_data), str(serialized_data))


def effect_diff(stored: str, now: str) -> list[str]:
    """The lines that differ, marked `-` and `+`. A snapshot edited by hand can differ in what
    prints as nothing (a space at a line's end, a byte-order mark, the last new line), and the
    diff showed two equal lines, or none: such characters are shown in the changed lines, and a
    missing last new line is said."""
    import difflib

    lines = [line if line[:2] == "  " else line[:2] + _visible(line[2:])
             for line in difflib.ndiff(stored.splitlines(), now.splitlines()) if not line.startswith("? ")]
    # a snapshot not stored yet reaches here from syrupy as "": it has no last line to miss one
    if stored and now and stored.endswith("\n") != now.endswith("\n"):
        whose = "the stored snapshot" if now.endswith("\n") else "the effect now"
        lines.append(f"(the last line of {whose} has no new line at its end)")
    return ["(- stored snapshot, + effect now)", *lines]


def _visible(line: str) -> str:
    """A line with what would print as nothing shown: trailing spaces as '·', tabs as '→', and
    invisible characters (a byte-order mark, a zero-width space) as their code point."""
    import unicodedata

    body = line.rstrip(" \t")
    out = "".join(f"<U+{ord(c):04X}>" if unicodedata.category(c) in ("Cf", "Cc", "Zl", "Zp") or
                  (unicodedata.category(c) == "Zs" and c != " ") else c for c in body)
    return out + line[len(body):].replace(" ", "·").replace("\t", "→")
