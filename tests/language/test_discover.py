"""Telling games from parts by their text, and finding the games that include a part."""

from __future__ import annotations

from pathlib import Path

from ludus.language.discover import games_in, games_including, is_game
from ludus.language.snapshot_names import is_part

GAME = 'game "G"\nplayers 2\ninclude "cards.ludus"\nflow:\n    win P1\n'


def test_a_header_after_a_comment_on_a_line_ended_by_a_lone_cr_is_found(tmp_path):
    # `^` follows only a \n: with old Mac line ends, a variant whose first line is a comment
    # was taken for a part, and left out of `ludus check FOLDER` and `ludus test FOLDER`
    variant = tmp_path / "v.ludus"
    variant.write_bytes(b'# my variant\rextends "g.ludus"\r')
    (tmp_path / "g.ludus").write_text(GAME, encoding="utf-8")
    (tmp_path / "cards.ludus").write_bytes(b'# cards\rcard "A"\r')
    assert is_game(variant) and not is_part(variant.read_text(encoding="utf-8"))
    assert games_in(tmp_path) == [tmp_path / "g.ludus", variant]
    game = tmp_path / "g.ludus"
    game.write_bytes(GAME.replace("\n", "\r").replace('game "G"', '# a game\rgame "G"').encode())
    assert games_including(tmp_path / "cards.ludus") == [game]


def test_the_folder_above_a_part_is_searched_from_inside_the_parts_folder(tmp_path, monkeypatch):
    # the parent of '.' is '.': run in the part's own folder, the search never left it
    (tmp_path / "g.ludus").write_text(GAME.replace("cards.ludus", "sub/cards.ludus"), encoding="utf-8")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "cards.ludus").write_text('card "A"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path / "sub")
    found = games_including(Path("cards.ludus"))
    assert [p.resolve() for p in found] == [tmp_path / "g.ludus"]


def test_the_search_for_a_parts_game_leaves_out_hidden_files_as_folder_scans_do(tmp_path):
    # a hidden copy of the game (`.g.ludus`, kept by hand or by a tool) sorts first: the
    # language server analysed the part through the copy, which `ludus check FOLDER` never reads
    (tmp_path / "cards.ludus").write_text('card "A"\n', encoding="utf-8")
    (tmp_path / "g.ludus").write_text(GAME, encoding="utf-8")
    (tmp_path / ".g.ludus").write_text(GAME.replace('"G"', '"Old G"'), encoding="utf-8")
    (tmp_path / ".old").mkdir()
    (tmp_path / ".old" / "g.ludus").write_text(GAME, encoding="utf-8")
    assert games_including(tmp_path / "cards.ludus") == [tmp_path / "g.ludus"]
    assert games_in(tmp_path) == [tmp_path / "g.ludus"]
    assert games_in(tmp_path / ".old") == [tmp_path / ".old" / "g.ludus"]  # the folder named is read
