"""Decisions carry the designer's question; a number decision is answered with the number itself."""

from __future__ import annotations

import json

import ludus
from tests.helpers import repl_on

SOURCE = '''game "Questions"
players 2
counter coins per seat start 3
zone hand per seat
zone discard per seat
kind Thing:
    cost: number = 0
card "Lamp" is Thing
card "Rope" is Thing
action Spend:
    cost 1 coins
flow:
    move card("Lamp") to hand of P1
    move card("Rope") to hand of P1
    turn P1:
        choose n from 0 to coins of P1 "How many coins does {current} bid?"
        pay n coins
        choose cs from hand of P1, up to 2 "Which cards go?"
        for each c in cs:
            discard c
        distribute 3 among seats as shares "Share the points"
        offer Spend else "keep them" "{current} has {coins of current} coins left: spend one?"
    win P1
'''


def game(tmp_path):
    path = tmp_path / "questions.ludus"
    path.write_text(SOURCE, encoding="utf-8")
    return ludus.load(path), path


def test_each_decision_is_asked_with_its_question(tmp_path):
    g, _ = game(tmp_path)
    m = g.new_match(2, seed=1)
    assert m.state["pending"]["prompt"] == "P1: How many coins does P1 bid?"
    assert m.legal_actions() == ["0", "1", "2", "3"]
    m.apply("2")
    assert m.state["pending"]["prompt"] == "P1: Which cards go? (0 chosen)"
    m.apply("Lamp")
    # the question stays with every part of a multi-part choice
    assert m.state["pending"]["prompt"] == "P1: Which cards go? (1 chosen)"
    m.apply("done")
    assert m.state["pending"]["prompt"] == "P1: Share the points: 3 left to give; how many to P1?"
    m.apply("1 to P1")
    # an offer of actions is asked with its question too, read when it is asked
    assert m.state["pending"]["prompt"] == "P1: P1 has 1 coins left: spend one?"
    assert m.legal_actions() == ["Spend", "keep them"]


def test_without_a_question_the_prompt_names_the_choice(tmp_path):
    path = tmp_path / "plain.ludus"
    plain = SOURCE.replace(' "How many coins does {current} bid?"', "").replace(' "{current} has {coins of current} coins left: spend one?"', "")
    path.write_text(plain, encoding="utf-8")
    m = ludus.load(path).new_match(2, seed=1)
    assert m.state["pending"]["prompt"] == "P1: choose n"
    for move in ("0", "done", "1 to P1"):
        m.apply(move)
    assert m.state["pending"]["prompt"] == "P1: take an action"


def make_repl(tmp_path):
    g, path = game(tmp_path)
    return repl_on(g.new_match(2, seed=1), path)


def test_repl_takes_a_typed_number_as_the_number_not_a_position(tmp_path, monkeypatch):
    monkeypatch.setenv("LUDUS_HISTORY", str(tmp_path / "history"))
    repl, out = make_repl(tmp_path)
    repl.show_state()
    assert "type a number: 0 to 3" in out.getvalue()
    repl.handle("1")  # the number 1, though it is the second option
    assert repl.match.moves == ["1"]
    assert repl.match.view()["counters"]["coins"]["P1"] == 2


def test_repl_refuses_a_number_not_offered_and_changes_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("LUDUS_HISTORY", str(tmp_path / "history"))
    repl, out = make_repl(tmp_path)
    repl.handle("4")
    repl.handle("-1")
    assert repl.match.moves == []
    assert "error: 4 is not among the numbers offered: 0 to 3" in out.getvalue()
    assert "error: -1 is not among the numbers offered: 0 to 3" in out.getvalue()
    repl.handle("03")  # a leading zero is still the number 3
    assert repl.match.moves == ["3"]


def test_the_picks_so_far_of_a_choice_of_several_are_shown_to_the_seat_deciding_only(tmp_path):
    g, _ = game(tmp_path)
    m = g.new_match(2, seed=1)
    m.apply("2")
    assert "picked" not in m.view(0)["decision"]  # nothing picked yet: no line to show
    m.apply("Rope")
    # the seat deciding and the designer's view see the pick, as they see the options left
    assert m.view(0)["decision"]["picked"] == ["Rope"]
    assert m.view(None)["decision"]["picked"] == ["Rope"]
    assert m.view(0)["decision"]["options"] == ["Lamp", "done"]
    # another seat sees neither the options nor what was picked from them
    assert m.view(1)["decision"] == {"seat": "P1", "prompt": "P1: Which cards go? (1 chosen)", "kind": "choose"}
    m.apply("done")
    assert "picked" not in m.view(0)["decision"]  # the next decision starts with nothing picked


def test_repl_shows_picked_so_far_under_the_prompt_and_not_to_another_seat(tmp_path, monkeypatch):
    monkeypatch.setenv("LUDUS_HISTORY", str(tmp_path / "history"))
    repl, out = make_repl(tmp_path)
    repl.handle("2")
    repl.handle("Rope")
    screen = out.getvalue()
    assert "P1: Which cards go? (1 chosen)\n  picked so far: Rope\n   1. Lamp\n   2. done\n" in screen
    assert screen.count("picked so far") == 1  # not before anything was picked
    repl.handle("view P2")
    assert out.getvalue()[len(screen):].count("picked so far") == 0
    repl.handle("view all")
    shown = out.getvalue()
    repl.handle("moves")
    assert "  picked so far: Rope\n   1. Lamp\n   2. done\n" in out.getvalue()[len(shown):]


SHARES = '''game "Shares"
players 3
zone hand per seat owner only
card "Lamp"
card "Rope"
card "Coin"
card "Bell"
flow:
    move card("Lamp") to hand of P2
    move card("Rope") to hand of P2
    move card("Coin") to hand of P2
    move card("Bell") to hand of P2
    turn P2:
        distribute 5 among hand of P2 as hurt "Spread the damage"
        choose n from 0 to 1 "again?"
    end game
'''


def shares_match(tmp_path):
    path = tmp_path / "shares.ludus"
    path.write_text(SHARES, encoding="utf-8")
    return ludus.load(path).new_match(3), path


def test_the_shares_given_so_far_are_shown_to_the_seat_distributing_only(tmp_path):
    m, _ = shares_match(tmp_path)
    assert "shares" not in m.view(1)["decision"]   # nothing given yet
    m.apply("2 to Bell")
    m.apply("0 to Coin")
    # the seat deciding and the designer see what each earlier target was given, written as
    # the options that gave it were; the targets are P2's hidden cards, so no other seat does
    assert m.view(1)["decision"]["shares"] == ["2 to Bell", "0 to Coin"]
    assert m.view(None)["decision"]["shares"] == ["2 to Bell", "0 to Coin"]
    assert m.view(1)["decision"]["options"][0] == "3 to Rope"
    assert "shares" not in m.view(0)["decision"] and "options" not in m.view(0)["decision"]
    assert "shares" not in m.view((0, 1))["decision"]  # two seats at one screen: as P1 sees it
    m.apply("1 to Rope")                           # the Lamp takes the rest: the decision is over
    assert m.view(1)["decision"]["kind"] == "number" and "shares" not in m.view(1)["decision"]


def test_repl_shows_the_shares_given_so_far_under_the_prompt(tmp_path, monkeypatch):
    monkeypatch.setenv("LUDUS_HISTORY", str(tmp_path / "history"))
    m, path = shares_match(tmp_path)
    repl, out = repl_on(m, path)
    repl.handle("2 to Bell")
    screen = out.getvalue()
    assert "P2: Spread the damage: 3 left to give; how many to Coin?\n  given so far: 2 to Bell\n   1. 3 to Coin\n" in screen
    assert screen.count("given so far") == 1       # not before anything was given
    repl.handle("view P1")
    assert "as P1 sees it" in out.getvalue()[len(screen):]  # P1's screen is drawn, without P2's shares
    assert "given so far" not in out.getvalue()[len(screen):]


def test_a_distribute_among_cards_another_seat_may_not_see_does_not_name_them_to_it(tmp_path):
    m, _ = shares_match(tmp_path)
    # the question asks of a card in P2's hidden hand: P1 and P3 read that a card is asked of
    assert m.view(0)["decision"]["prompt"] == "P2: Spread the damage: 5 left to give; how many to a card?"
    assert m.view((0, 1))["decision"]["prompt"] == "P2: Spread the damage: 5 left to give; how many to a card?"
    assert m.view(1)["decision"]["prompt"] == "P2: Spread the damage: 5 left to give; how many to Bell?"
    assert m.view(None)["decision"]["prompt"] == "P2: Spread the damage: 5 left to give; how many to Bell?"
    m.apply("2 to Bell")
    index = next(i for i, e in enumerate(m.log) if e["t"] == "answer")
    assert m.hidden_answer(index, 0) == "gave a share to a card"
    assert m.hidden_answer(index, 2) == "gave a share to a card"
    assert m.hidden_answer(index, 1) is None and m.hidden_answer(index, None) is None
    for seat in (0, 2):
        assert all(name not in json.dumps(m.view(seat)) for name in ("Lamp", "Rope", "Coin", "Bell"))


def test_a_distribute_among_cards_every_seat_sees_names_them_to_all(tmp_path):
    path = tmp_path / "open.ludus"
    path.write_text(SHARES.replace("owner only", "").replace("zone hand per seat ", "zone hand per seat"), encoding="utf-8")
    m = ludus.load(path).new_match(3)
    assert m.view(0)["decision"]["prompt"] == "P2: Spread the damage: 5 left to give; how many to Bell?"
    m.apply("2 to Bell")
    index = next(i for i, e in enumerate(m.log) if e["t"] == "answer")
    assert m.hidden_answer(index, 0) is None
