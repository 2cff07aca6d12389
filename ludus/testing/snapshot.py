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
    import difflib

    lines = [line for line in difflib.ndiff(stored.splitlines(), now.splitlines()) if not line.startswith("? ")]
    return ["(- stored snapshot, + effect now)", *lines]
