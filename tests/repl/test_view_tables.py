"""The REPL draws per-seat values in seat columns and the game's own values apart (issue 17, 10)."""

from __future__ import annotations

import io

from rich.console import Console

import ludus
from ludus.repl.render import view_renderable

SOURCE = '''game "Tables"
players 2
counter coins per seat start 3
flag ready
var leader: seat start P2
counter round_number start 1
flow:
    turn P1:
        choose n from 0 to 1 "Go?"
    end game
'''


def test_game_wide_values_are_not_drawn_in_the_first_seats_column(tmp_path):
    path = tmp_path / "tables.ludus"
    path.write_text(SOURCE, encoding="utf-8")
    m = ludus.load(path).new_match(2)
    out = io.StringIO()
    Console(file=out, width=100, color_system=None).print(view_renderable(m.view(None), list(m.seat_names())))
    lines = [line.rstrip() for line in out.getvalue().splitlines()]
    assert lines[1].split() == ["per", "seat", "P1", "P2"]
    assert lines[2].split() == ["coins", "3", "3"]
    assert lines[3].split() == ["game", "value"]
    # the game's flag, its seat-valued var (by name) and its counter, each in the value column
    assert [line.split() for line in lines[4:7]] == [["ready", "no"], ["leader", "P2"], ["round_number", "1"]]
    assert not any(line.split()[0] == "counter" for line in lines if line.split())


CARDS = '''game "Long names"
players 2
zone hand per seat
zone passing per seat
zone played per seat
zone taken per seat
card "Ace of Diamonds"
card "Queen of Spades"
card "10 of Clubs"
card "King of Hearts"
card "Jack of Diamonds"
card "7 of Spades"
card "3 of Hearts"
card "9 of Clubs"
setup:
    move box to hand of P1
flow:
    turn P1:
        choose c from hand of P1
    end game
'''


def test_a_long_hand_wraps_between_cards_never_inside_a_name(tmp_path):
    path = tmp_path / "cards.ludus"
    path.write_text(CARDS, encoding="utf-8")
    m = ludus.load(path).new_match(2)
    names = {"Ace of Diamonds", "Queen of Spades", "10 of Clubs", "King of Hearts", "Jack of Diamonds",
             "7 of Spades", "3 of Hearts", "9 of Clubs"}
    out = io.StringIO()
    Console(file=out, width=50, color_system=None).print(view_renderable(m.view(None), list(m.seat_names())))
    lines = out.getvalue().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("hand of P1"))
    column = lines[start].index(lines[start][len("hand of P1"):].strip())
    shown = []
    for line in lines[start:]:
        if line[:column].strip() not in ("", "hand of P1"):
            break
        shown.append(line[column:].strip())
    assert len(shown) > 1  # the hand is wider than the screen: it wraps
    for line in shown:
        assert {name.strip() for name in line.split(",") if name.strip()} <= names, line
    assert sorted(n.strip() for line in shown for n in line.split(",") if n.strip()) == sorted(names)


def test_the_folded_list_of_empty_zones_breaks_between_names(tmp_path):
    path = tmp_path / "cards.ludus"
    path.write_text(CARDS, encoding="utf-8")
    m = ludus.load(path).new_match(2)
    out = io.StringIO()
    Console(file=out, width=40, color_system=None).print(view_renderable(m.view(None), list(m.seat_names()), compact=True))
    lines = out.getvalue().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("empty: "))
    folded = [lines[start][len("empty: "):]] + lines[start + 1:]
    zones = [z.strip() for line in folded for z in line.split(",") if z.strip()]
    assert len(folded) > 1
    assert zones == ["hand of P2", "passing of P1", "passing of P2", "played of P1", "played of P2",
                     "taken of P1", "taken of P2"]


NOTE = '''game "Note"
players 2
var note: text start ""
flow:
    turn P1:
        choose n from 0 to 1 "Go?"
    set note to "gone"
    end game
'''


def test_an_empty_text_shows_as_two_quotes_not_as_nothing(tmp_path):
    from ludus.engine.effect import changes, facts
    from ludus.repl import Repl

    path = tmp_path / "note.ludus"
    path.write_text(NOTE, encoding="utf-8")
    m = ludus.load(path).new_match(2)
    out = io.StringIO()
    Console(file=out, width=100, color_system=None).print(view_renderable(m.view(None), list(m.seat_names())))
    assert ["note", '""'] in [line.split() for line in out.getvalue().splitlines()]
    # `eval` says so too, where a blank line would look like no answer
    console = Console(file=io.StringIO(), width=100, color_system=None, highlight=False, markup=False)
    repl = Repl(m, path, console)
    assert repl.handle("? note")
    assert console.file.getvalue().splitlines()[-1] == '""'
    # and so does a snapshot's list of changes
    before = facts(m)
    m.apply("1")
    assert 'var note: "" -> gone' in changes(before, facts(m))


LAMPS = '''game "Lamps"
players 2
zone table
card "Lamp 2"
card "Rope"
counter wounds per Card
setup:
    move box to table
    increase wounds of card("Lamp 2") by 1
    increase wounds of card("Rope") by 3
flow:
    turn P1:
        choose n from 0 to 1 "Go?"
    end game
'''


def test_a_per_card_row_sets_each_key_apart_from_its_value(tmp_path):
    # a card named "Lamp 2" worth 1 read `Lamp 2 1`, as if "Lamp" were worth 2 1
    path = tmp_path / "lamps.ludus"
    path.write_text(LAMPS, encoding="utf-8")
    m = ludus.load(path).new_match(2)
    out = io.StringIO()
    Console(file=out, width=100, color_system=None).print(view_renderable(m.view(None), list(m.seat_names())))
    row = next(line.strip() for line in out.getvalue().splitlines() if line.strip().startswith("wounds"))
    assert row.split(None, 1) == ["wounds", "Lamp 2: 1, Rope: 3"]
