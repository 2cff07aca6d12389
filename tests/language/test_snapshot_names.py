"""Snapshot file names: `ludus test` and `ludus check` name them as pytest (through syrupy) does."""

from __future__ import annotations

from pathlib import Path

import pytest
from syrupy.location import PyTestLocation

from ludus.language.snapshot_names import snapshot_stem
from ludus.testing.pytest_plugin import _named, _SyrupyView
from ludus.testing.snapshot import EffectSnapshotExtension


class _Item:
    """What syrupy reads of a `test` block's pytest item to name its snapshots."""

    def __init__(self, name: str) -> None:
        self.name, self.path = name, Path("games/g.tests.ludus").absolute()
        self.decl = type("Test", (), {"name": name})
        self.nodeid = f"games/g.tests.ludus::{name}"
        self.obj = _named(name, "g.tests")

    def getparent(self, _cls):
        return type("File", (), {"nodeid": "games/g.tests.ludus"})


NAMES = ["Fortune Teller pays on a 5", "a/b", "tab\there", "new\nline", "a::b", "a::b::c", "::x", "T[x]",
         "café", "zero\u200bwidth", 'all of \\/?*:|"<>', "d.e", "", "L" * 300, "é" * 300]


@pytest.mark.parametrize("index", [0, 1, 2, "after the riot", "a/b"])
@pytest.mark.parametrize("name", NAMES, ids=range(len(NAMES)))
def test_ludus_test_names_a_snapshot_file_as_syrupy_does(name, index):
    syrupy = EffectSnapshotExtension.get_snapshot_name(test_location=PyTestLocation(_Item(name)), index=index)
    assert snapshot_stem(name, index) == syrupy


@pytest.mark.parametrize("index", [0, 1, 2, "after the riot", "a/b"])
@pytest.mark.parametrize("name", NAMES, ids=range(len(NAMES)))
def test_the_plugin_shows_syrupy_a_block_that_owns_its_snapshot_files(name, index):
    # syrupy names the files from the view as from the item, and relates each file to the view,
    # which it did not to the item of a name with `::`, '/' or over 251 characters
    view = PyTestLocation(_SyrupyView(_Item(name)))
    stem = snapshot_stem(name, index)
    assert EffectSnapshotExtension.get_snapshot_name(test_location=view, index=index) == stem
    assert view.matches_snapshot_name(stem)
    location = str(Path("games/__snapshots__/g.tests").absolute() / f"{stem}.txt")
    assert EffectSnapshotExtension.matches_test_location(test_location=view, snapshot_location=location)
