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


FLOW = "players 2\nflow:\n    win P1\n"


def test_tests_are_checked_for_shared_files_with_the_tests_of_the_file_whose_folder_keeps_them(tmp_path):
    # a base with a flow and no `game` line is a game, and its tests keep their snapshots in its
    # own folder: a variant's test named as one of them but for the case, stored in the
    # variant's folder, shares no file with it
    from ludus.pipeline import analyse

    (tmp_path / "base.ludus").write_text(FLOW + 'test "t":\n    snapshot\n', encoding="utf-8")
    (tmp_path / "variant.ludus").write_text('extends "base.ludus"\ntest "T":\n    snapshot\n', encoding="utf-8")
    diags, checked, _sources = analyse(tmp_path / "variant.ludus")
    assert checked is not None and [d.message for d in diags if d.severity == "error"] == []
    # a game's flow kept in a file it includes is a part: its tests run with the game, and do share
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "flow.ludus").write_text(FLOW + 'test "t":\n    snapshot\n', encoding="utf-8")
    (tmp_path / "rules" / "main.ludus").write_text('game "M"\ninclude "flow.ludus"\ntest "T":\n    snapshot\n',
                                                   encoding="utf-8")
    diags, _checked, _sources = analyse(tmp_path / "rules" / "main.ludus")
    [error] = [d for d in diags if d.severity == "error"]
    assert error.message.startswith("test 'T' would share its snapshot file 'T.txt' with test 't' in flow.ludus")
