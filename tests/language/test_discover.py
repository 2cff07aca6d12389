"""Telling games from parts by their text, and finding the games that include a part."""

from __future__ import annotations

from pathlib import Path

from ludus.language.discover import games_in, games_including, is_game, is_game_text, starts_game

GAME = 'game "G"\nplayers 2\ninclude "cards.ludus"\nflow:\n    win P1\n'


def test_a_header_after_a_comment_on_a_line_ended_by_a_lone_cr_is_found(tmp_path):
    # `^` follows only a \n: with old Mac line ends, a variant whose first line is a comment
    # was taken for a part, and left out of `ludus check FOLDER` and `ludus test FOLDER`
    variant = tmp_path / "v.ludus"
    variant.write_bytes(b'# my variant\rextends "g.ludus"\r')
    (tmp_path / "g.ludus").write_text(GAME, encoding="utf-8")
    (tmp_path / "cards.ludus").write_bytes(b'# cards\rcard "A"\r')
    assert is_game(variant) and starts_game(variant.read_text(encoding="utf-8"))
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


HEADLESS = 'players 2\ncounter coins per seat\nflow:\n    gain 1 coins\n    win P1\n'


def test_a_file_with_a_flow_and_no_header_is_a_game_unless_a_file_includes_it(tmp_path):
    # it checks and plays as a game alone, but folder scans took it for a part and left it out
    alone = tmp_path / "alone.ludus"
    alone.write_text(HEADLESS, encoding="utf-8")
    assert is_game(alone) and games_in(tmp_path) == [alone]
    # a game's flow kept in a file of its own is a part of that game
    (tmp_path / "main").mkdir()
    rules = tmp_path / "main" / "rules.ludus"
    rules.write_text(HEADLESS, encoding="utf-8")
    main = tmp_path / "main" / "main.ludus"
    main.write_text('game "M"\ninclude "rules.ludus"\n', encoding="utf-8")
    assert not is_game(rules) and games_including(rules) == [main]
    assert games_in(tmp_path) == [alone, main]
    # a base that a variant extends stays a game; a part it includes is checked through it
    (tmp_path / "v").mkdir()
    base = tmp_path / "v" / "base.ludus"
    base.write_text('include "cards.ludus"\n' + HEADLESS, encoding="utf-8")
    (tmp_path / "v" / "cards.ludus").write_text('card "A"\n', encoding="utf-8")
    variant = tmp_path / "v" / "variant.ludus"
    variant.write_text('extends "base.ludus"\n', encoding="utf-8")
    assert is_game(base) and games_in(tmp_path / "v") == [base, variant]
    assert games_including(tmp_path / "v" / "cards.ludus") == [base]
    # `override flow:` is a variant's part, not a game
    (tmp_path / "v" / "faster.ludus").write_text("override flow:\n    win P1\n", encoding="utf-8")
    assert not is_game(tmp_path / "v" / "faster.ludus")


def test_a_files_text_and_place_tell_a_game_as_a_folder_scan_tells_it(tmp_path):
    # the one rule the pytest plugin, the snapshot folders and the language server read too:
    # a header, or a flow that no file near it includes; the text given, not the one on disk
    flow = tmp_path / "flow.ludus"
    assert is_game_text(HEADLESS, flow) and is_game_text('game "G"\n', flow)
    assert not is_game_text('card "A"\n', flow) and not is_game_text("override flow:\n    win P1\n", flow)
    assert is_game_text('# rules\rflow:\r    win P1\r', flow)  # old Mac line ends
    (tmp_path / "main.ludus").write_text('game "M"\ninclude "flow.ludus"\n', encoding="utf-8")
    assert not is_game_text(HEADLESS, flow) and is_game_text('extends "main.ludus"\n' + HEADLESS, flow)
    read: dict = {}
    assert not is_game_text(HEADLESS, flow, read) and tmp_path in read  # the folder listed is kept
