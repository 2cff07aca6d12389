"""The screen after each move is compact, and options name spaces by their full names (issue 17, item 9)."""

from __future__ import annotations

from tests import helpers
from tests.helpers import EXAMPLES, GAMES

VFW = GAMES / "votes-for-women" / "votes-for-women.ludus"

MAP = '''
game "Map"
seats A, B
board land:
    state NY "New York"
    state VA "Virginia"
    state OR "Oregon"
token Cube
zone hand per seat
zone pile

flow:
    turn A:
        choose st from [NY, VA, OR]
        add 1 Cube to st
    win A
'''


def repl_of(path, tmp_path, monkeypatch, **kw):
    monkeypatch.setenv("LUDUS_HISTORY", str(tmp_path / "history"))
    return helpers.repl_of(path, seed=0, **kw)


def test_votes_for_women_first_screen_fits_and_folds_empty_parts(tmp_path, monkeypatch):
    repl, out = repl_of(VFW, tmp_path, monkeypatch)
    repl.show_state()
    screen = out.getvalue()
    assert len(screen.splitlines()) <= 45, screen
    assert "54 empty spaces not drawn (`show` draws the whole state)" in screen
    assert "empty: discard of Suffragist, discard of Opposition" in screen
    assert "\nNY " not in screen and "\nWest " not in screen
    # `show` draws everything, empty spaces included
    out.truncate(0)
    repl.handle("show")
    full = out.getvalue()
    assert "\nNY " in full and "\ndiscard of Suffragist " in full
    assert len(full.splitlines()) > 100


def test_options_name_spaces_by_their_full_names_and_take_either(tmp_path, monkeypatch):
    path = tmp_path / "map.ludus"
    path.write_text(MAP, encoding="utf-8")
    repl, out = repl_of(path, tmp_path, monkeypatch)
    repl.show_state()
    screen = out.getvalue()
    assert "1. New York (NY)" in screen and "3. Oregon (OR)" in screen
    assert repl.match.legal_actions() == ["NY", "VA", "OR"]  # the labels replays use are unchanged
    repl.handle("virginia")
    assert repl.match.moves == ["VA"]


def test_a_typed_full_name_with_its_short_name_works_too(tmp_path, monkeypatch):
    path = tmp_path / "map.ludus"
    path.write_text(MAP, encoding="utf-8")
    repl, out = repl_of(path, tmp_path, monkeypatch)
    repl.handle("Oregon (OR)")
    assert repl.match.moves == ["OR"]


def test_short_names_still_work(tmp_path, monkeypatch):
    path = tmp_path / "map.ludus"
    path.write_text(MAP, encoding="utf-8")
    repl, out = repl_of(path, tmp_path, monkeypatch)
    repl.handle("NY")
    assert repl.match.moves == ["NY"]


ROW = '''
game "Row"
players 2
zone deck hidden
zone row public
zone hand per seat
card "Farm":
    copies 2
card "Mill"

flow:
    move box to deck
    shuffle deck
    move top(deck, 3) to row
    turn P1:
        choose slot from 1 to 3 "Which slot of the row do you take? (1 is the first)"
        move item(row, slot) to hand of P1
    win P1
'''


def test_a_zone_is_drawn_in_its_order_with_only_neighbouring_copies_counted(tmp_path, monkeypatch):
    # [Farm, Mill, Farm] was drawn "Farm ×2, Mill": Mill read as the third slot, and taking
    # slot 3 for it took a Farm
    path = tmp_path / "row.ludus"
    path.write_text(ROW, encoding="utf-8")
    repl, out = repl_of(path, tmp_path, monkeypatch)
    seed = next(s for s in range(50) if repl.game.new_match(2, seed=s).view(0)["zones"]["row"] == ["Farm", "Mill", "Farm"])
    repl.match = repl.game.new_match(2, seed=seed)
    repl.show_state()
    assert "\nrow   Farm, Mill, Farm" in out.getvalue(), out.getvalue()
    assert repl.handle("2") and repl.rejected == 0  # the second slot, as the screen shows it
    assert repl.match.view(0)["zones"]["hand of P1"] == ["Mill"]


def test_copies_side_by_side_are_still_counted_once():
    from ludus.repl.render import cards_text

    assert cards_text(["Farm", "Farm", "Mill", "Farm", "Farm", "Farm"]) == "Farm ×2, Mill, Farm ×3"
    assert cards_text({"count": 3, "revealed": ["Mill", "Farm", "Mill"]}) == "3 cards; revealed: Mill, Farm, Mill"


MARKET = EXAMPLES / "market-town.ludus"


def test_a_step_that_changes_nothing_on_the_table_draws_only_the_decision(tmp_path, monkeypatch):
    repl, out = repl_of(MARKET, tmp_path, monkeypatch)
    repl.show_state()
    assert "market " in out.getvalue()
    out.truncate(0)
    out.seek(0)
    # buying nothing moves the flow on to the building, and changes nothing the screen draws
    repl.handle("buy nothing")
    screen = out.getvalue()
    assert "nothing on the table changed (`show` draws it again)" in screen
    assert "market " not in screen and "coins " not in screen
    assert "build nothing" in screen  # the next decision, drawn in full
    # `show` draws it all the same; a move that changes something draws the table again
    out.truncate(0)
    out.seek(0)
    repl.handle("show")
    assert "market " in out.getvalue()
    out.truncate(0)
    out.seek(0)
    repl.handle("build a stall in Docks")
    assert "market " in out.getvalue() and "nothing on the table changed" not in out.getvalue()


def test_a_stack_on_the_board_counts_copies_side_by_side_as_a_zone_does(tmp_path, monkeypatch):
    repl, out = repl_of(EXAMPLES / "jaipur.ludus", tmp_path, monkeypatch)
    repl.show_state()
    screen = out.getvalue()
    lines = [line.rstrip() for line in screen.splitlines()]
    assert "leather   Leather 4, Leather 3, Leather 2, Leather 1 ×6" in lines
    assert "silver    Silver 5 ×5" in lines
    assert "Leather 1, Leather 1" not in screen
    # what a move changed on a stack reads the same
    out.truncate(0)
    out.seek(0)
    repl.handle("sell 2 leather")
    assert ("changed: leather: pieces Leather 4, Leather 3, Leather 2, Leather 1 ×6 → pieces Leather 2, Leather 1 ×6"
            in out.getvalue())
    # `show` of the stack lists every card in order, as `show` of a zone does
    out.truncate(0)
    out.seek(0)
    repl.handle("show leather")
    assert "Leather 2, Leather 1, Leather 1, Leather 1, Leather 1, Leather 1, Leather 1" in out.getvalue()


def test_reload_and_restart_draw_the_table_even_where_it_reads_as_before(tmp_path, monkeypatch):
    """After `reload` the designer looks for the table under the new rules, and after `restart`
    for the new match's: neither says 'nothing on the table changed', though the position
    may read exactly as the screen before it did."""
    repl, out = repl_of(EXAMPLES / "market-town.ludus", tmp_path, monkeypatch)
    repl.show_state()
    for command in ("reload", "restart"):
        out.truncate(0)
        out.seek(0)
        repl.handle(command)
        screen = out.getvalue()
        assert "nothing on the table changed" not in screen, command
        assert "market " in screen and "coins " in screen, command


def test_a_header_too_wide_for_the_screen_puts_whose_view_it_is_on_a_line_of_its_own(tmp_path, monkeypatch):
    # Votes for Women's header is 101 characters: at 100 it broke as '... · as Suffragist sees' / 'it'
    repl, out = repl_of(VFW, tmp_path, monkeypatch)
    repl.show_state()
    lines = out.getvalue().splitlines()
    assert lines[:2] == ["Votes for Women  (game_turn 1, phase Operations, round 1, turn of Suffragist)",
                         "  · as Suffragist sees it"]
    # one that fits stays one line
    repl, out = repl_of(EXAMPLES / "love-letter.ludus", tmp_path, monkeypatch)
    repl.show_state()
    assert out.getvalue().splitlines()[0] == "Love Letter  (turn of Red)  · as Red sees it"


def test_tracks_line_up_and_a_long_one_wraps_under_its_positions(tmp_path, monkeypatch):
    # Stonewall Uprising: four tracks; the overton's 41 positions and its tokens take more
    # than a line, and wrapped to the screen's edge, under the other tracks' names
    repl, out = repl_of(GAMES / "stonewall-uprising" / "stonewall-uprising.ludus", tmp_path, monkeypatch)
    repl.show_state()
    lines = [line.rstrip() for line in out.getvalue().splitlines()]  # a table pads its cells
    start = next(i for i, line in enumerate(lines) if line.startswith("systemic "))
    assert lines[start:start + 7] == [
        "systemic     TheMan[-6 -5 -4] -3 -2 -1 (0) 1 2 3 Pride[4 5 6]",
        "public       TheMan[-6 -5 -4] -3 -2 -1 (0) 1 2 3 Pride[4 5 6]",
        "individual   TheMan[-6 -5 -4] -3 -2 -1 (0) 1 2 3 Pride[4 5 6]",
        "overton      0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 (30) 31",
        "             32 33 34 35 36 37 38 39 40   at 15: DeckThin   at 18: DeckThin   at 21: DeckThin   at",
        "             24: DeckThin   at 27: DeckThin",
        "aids_deaths  (0) 1 2 3 4 5 6 7 8 9 10 11 12",
    ]


def test_the_docs_count_the_lines_of_votes_for_womens_first_screen_right(tmp_path, monkeypatch):
    # docs/repl.md said 45 and 116 once the screen had grown shorter: counted here, at the width
    # of a piped session
    repl, out = repl_of(VFW, tmp_path, monkeypatch)
    repl.show_state()
    compact = len(out.getvalue().splitlines())
    repl, out = repl_of(VFW, tmp_path, monkeypatch)
    repl.show_state(compact=False)
    whole = len(out.getvalue().splitlines())
    text = " ".join((GAMES.parent / "docs" / "repl.md").read_text(encoding="utf-8").split())
    assert f"Votes for Women's first screen is {compact} lines, where drawing every state would take {whole}" in text
