"""A forced order that cannot apply fails at its own line, naming the zone as the game does
(issue 17, item 16)."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

import ludus
from ludus.repl import Repl
from ludus.replay import load_replay
from ludus.replay.script import ReplayError
from tests.helpers import EXAMPLES

GAME = EXAMPLES / "market-town.ludus"


def replay(tmp_path, force: str, moves: int = 1):
    path = tmp_path / "t.replay"
    path.write_text(f"game {GAME.as_posix()}\nplayers 2\nseed 3\nforce order {force}\n"
                    + "buy nothing\nbuild nothing\n" * (moves // 2) + "buy nothing\n" * (moves % 2), encoding="utf-8")
    return load_replay(path)


def test_a_card_not_in_the_zone_waits_and_fails_the_move_whose_shuffle_cannot_follow_it(tmp_path):
    # Guild Charter lies in the supply: a rule could bring it to Amber's deck before its next
    # shuffle, so the line is taken; her third draw shuffles her discard into the deck without
    # it, and that move fails at its own line, naming the order
    r = replay(tmp_path, "deck of Amber = Guild Charter, Copper Coin", moves=3)
    r.run(lambda line: None)  # no shuffle of her deck yet: nothing fails
    r = replay(tmp_path, "deck of Amber = Guild Charter, Copper Coin", moves=8)
    with pytest.raises(ReplayError) as err:
        r.run(lambda line: None)
    assert err.value.line == 12  # the eighth move: Basil's last, after which Amber draws
    assert ("the order forced for the next shuffle of deck of Amber (Guild Charter, Copper Coin) names "
            "'Guild Charter', and deck of Amber does not hold 'Guild Charter' when it is shuffled") in err.value.message


def test_more_copies_than_the_match_holds_fail_at_the_force_line(tmp_path):
    r = replay(tmp_path, "deck of Amber = " + ", ".join(["Guild Charter"] * 4))
    with pytest.raises(ReplayError, match="the match holds 3 'Guild Charter', and the order names it 4 times") as err:
        r.run(lambda line: None)
    assert err.value.line == 4


def test_a_card_that_the_refill_brings_in_is_allowed(tmp_path, monkeypatch):
    # the deck refills from the discard pile: a card in the discard may be ordered, and is said
    # no more of; one elsewhere is taken with a note of where it lies
    monkeypatch.setenv("LUDUS_HISTORY", str(tmp_path / "history"))
    game = ludus.load(GAME)
    out = io.StringIO()
    repl = Repl(game.new_match(2, seed=3), GAME, Console(file=out, width=200, color_system=None))
    repl.handle("buy Tax Collector")       # into Amber's discard pile
    repl.handle("force order deck of Amber = Tax Collector")
    said = out.getvalue()
    assert "forced: the next shuffle of deck of Amber" in said and "note:" not in said
    repl.handle("force order deck of Basil = Guild Charter")
    said = " ".join(out.getvalue().split())
    assert "forced: the next shuffle of deck of Basil — order deck of Basil = Guild Charter" in said
    assert ("note: 'Guild Charter' is not in deck of Basil now (a copy is in supply): the rules must bring it "
            "there before deck of Basil is shuffled, or that move fails (`force off` drops the order before "
            "the next move)") in said
    repl.handle("force order deck of Basil = " + ", ".join(["Guild Charter"] * 4))
    assert "error: cannot force this order: the match holds 3 'Guild Charter', and the order names it 4 times" in \
        " ".join(out.getvalue().split())


@pytest.mark.parametrize("force, column, message", [
    ("dek of Amber = Copper Coin", 13, "unknown zone 'dek'; did you mean 'deck'?"),
    ("suply = Copper Coin", 13, "unknown zone 'suply'; did you mean 'supply'?"),
    ("nowhere = Copper Coin", 13, "unknown zone 'nowhere'; the zones are deck, hand, discard, market, supply"),
    ("deck of Ambr = Copper Coin", 21, "unknown seat 'Ambr'; did you mean 'Amber'?"),
    ("deck of Nobody = Copper Coin", 21, "unknown seat 'Nobody'; the seats are Amber, Basil"),
    # a seat of the game that a match of 2 does not have
    ("deck of Cobalt = Copper Coin", 21, "no seat 'Cobalt' in this match (its seats are Amber, Basil)"),
    ("deck = Copper Coin", 13, "zone 'deck' is kept per seat: name the seat, as in `force order deck of Amber = ...`"),
    ("supply of Amber = Copper Coin", 23, "zone 'supply' is the game's own, not a seat's: write "
                                          "`force order supply = ...`"),
])
def test_a_misnamed_zone_or_seat_is_said_at_its_place_with_the_nearest_name(tmp_path, force, column, message):
    # as the checker says it of a test's `force order` line: a seat misspelt is not a zone misspelt
    r = replay(tmp_path, force)
    with pytest.raises(ReplayError) as err:
        r.run(lambda line: None)
    assert (err.value.line, err.value.column, err.value.message) == (4, column, message)


def test_the_repl_says_the_nearest_zone_too(tmp_path, monkeypatch):
    monkeypatch.setenv("LUDUS_HISTORY", str(tmp_path / "history"))
    out = io.StringIO()
    repl = Repl(ludus.load(GAME).new_match(2, seed=3), GAME, Console(file=out, width=120, color_system=None))
    repl.handle("force order dek of Amber = Copper Coin")
    repl.handle("force order deck of Ambr = Copper Coin")
    assert out.getvalue().splitlines() == [
        "error: unknown zone 'dek'; did you mean 'deck'?",
        "error: unknown seat 'Ambr'; did you mean 'Amber'?"]


def test_a_seat_is_taken_in_any_case_as_view_and_expect_take_it(tmp_path, monkeypatch):
    # `deck of amber` was "unknown seat 'amber'; did you mean 'Amber'?" while `view amber`,
    # `expect winner amber` and `--bot amber=` took the seat in any case
    path = tmp_path / "t.replay"
    path.write_text(f"game {GAME.as_posix()}\nplayers 2\nseed 3\nforce order deck of amber = Copper Coin\n", encoding="utf-8")
    assert load_replay(path).run()._state["forced"] == [["order", "deck@0", ["Copper Coin"]]]
    # a seat of the game that this match lacks is said to be one in any case too
    r = replay(tmp_path, "deck of cobalt = Copper Coin")
    with pytest.raises(ReplayError) as err:
        r.run(lambda line: None)
    assert (err.value.line, err.value.column, err.value.message) == (
        4, 21, "no seat 'cobalt' in this match (its seats are Amber, Basil)")
    monkeypatch.setenv("LUDUS_HISTORY", str(tmp_path / "history"))
    out = io.StringIO()
    repl = Repl(ludus.load(GAME).new_match(2, seed=3), GAME, Console(file=out, width=120, color_system=None))
    repl.handle("buy Tax Collector")       # into Amber's discard pile
    repl.handle("force order deck of AMBER = Tax Collector")
    assert "forced: the next shuffle of deck of Amber" in out.getvalue() and "error" not in out.getvalue()
    assert repl.match._state["forced"] == [["order", "deck@0", ["Tax Collector"]]]


@pytest.mark.parametrize("zone, cards", [
    ("dek of Amber", ["Copper Coin"]),
    ("nowhere", ["Copper Coin"]),
    ("deck", ["Copper Coin"]),
    ("supply of Amber", ["Copper Coin"]),
    ("deck of Ambr", ["Copper Coin"]),
    ("deck of Amber", ["Coper Coin"]),
])
def test_a_replay_and_the_checker_say_the_same_fault_in_the_same_words(tmp_path, zone, cards):
    # the same line in a test block (checked before it runs) and in a replay (read against the
    # match): only the quotes of the line shown as an example follow each place
    game = tmp_path / "t.ludus"
    quoted = ", ".join(f'"{card}"' for card in cards)
    game.write_text(f'extends "{GAME.as_posix()}"\n\ntest "t":\n    force order {zone} = {quoted}\n', encoding="utf-8")
    diags, _checked, _sources = ludus.analyse(game)
    [d] = [d for d in diags if d.severity == "error"]
    checked = f"{d.message}; {d.hint}" if d.hint else d.message
    with pytest.raises(ReplayError) as err:
        replay(tmp_path, f"{zone} = {', '.join(cards)}").run(lambda line: None)
    assert err.value.message.replace("`", "'") == checked
    assert "`" in err.value.message or "'force order" not in checked


DASHED = '''game "Dashed"
players 2
value colours = ["dark-blue", "light-green"]
zone hand per seat
zone discards per colour
zone row per seat and colour
card "Ace"
card "King"
setup:
    move [card("Ace"), card("King")] to discards of "dark-blue"
flow:
    turn P1:
        choose go from [1] "Go on?"
        shuffle discards of "dark-blue"
    end game
'''


@pytest.mark.parametrize("zone, message", [
    # a family's name alone is no zone: the nearest member is suggested, never the family
    ("dicards dark-blue", "unknown zone 'dicards dark-blue'; did you mean 'discards dark-blue'?"),
    # a long key leaves every member far from a misspelt family: the family, with a member
    ("discard", "unknown zone 'discard'; did you mean a member of the zone family 'discards' (one per colour), "
                "as in 'force order discards dark-blue = ...'?"),
    ("rows of P2", "unknown zone 'rows'; did you mean a member of the zone family 'row' (one per seat and colour), "
                   "as in 'force order row dark-blue of P1 = ...'?"),
])
def test_an_unknown_zone_near_a_zone_family_is_suggested_a_member(tmp_path, monkeypatch, zone, message):
    # the same words from the checker of a test's line, a replay and the REPL
    monkeypatch.setenv("LUDUS_HISTORY", str(tmp_path / "history"))
    game = tmp_path / "dashed.ludus"
    game.write_text(DASHED, encoding="utf-8")
    tests = tmp_path / "dashed.tests.ludus"
    tests.write_text(f'extends "dashed.ludus"\n\ntest "t":\n    force order {zone} = "Ace"\n', encoding="utf-8")
    diags, _checked, _sources = ludus.analyse(tests)
    [d] = [d for d in diags if d.severity == "error"]
    assert f"{d.message}; {d.hint}" == message
    script = tmp_path / "t.replay"
    script.write_text(f"game {game.as_posix()}\nplayers 2\nforce order {zone} = Ace\n1\n", encoding="utf-8")
    with pytest.raises(ReplayError) as err:
        load_replay(script).run(lambda line: None)
    assert (err.value.line, err.value.column, err.value.message.replace("`", "'")) == (3, 13, message)
    out = io.StringIO()
    repl = Repl(ludus.load(game).new_match(2, seed=0), game, Console(file=out, width=200, color_system=None))
    repl.handle(f"force order {zone} = Ace")
    assert out.getvalue().replace("`", "'").splitlines() == [f"error: {message}"]


def test_a_member_whose_key_holds_a_dash_is_forced_in_a_replay_and_the_repl(tmp_path, monkeypatch):
    monkeypatch.setenv("LUDUS_HISTORY", str(tmp_path / "history"))
    game = tmp_path / "dashed.ludus"
    game.write_text(DASHED, encoding="utf-8")
    script = tmp_path / "t.replay"
    for first in ("Ace", "King"):
        script.write_text(f"game {game.as_posix()}\nplayers 2\nforce order discards dark-blue = {first}\n1\n"
                          f'expect top(discards of "dark-blue").name == "{first}"\n', encoding="utf-8")
        load_replay(script).run(lambda line: None)
    out = io.StringIO()
    repl = Repl(ludus.load(game).new_match(2, seed=0), game, Console(file=out, width=200, color_system=None))
    repl.handle("force order discards dark-blue = Ace")
    assert out.getvalue().startswith("forced: the next shuffle of discards dark-blue")


def test_a_key_the_family_lacks_is_pointed_at_in_a_replay(tmp_path):
    # at the key, as the checker points at it in a test's line, not at the family's name
    game = tmp_path / "dashed.ludus"
    game.write_text(DASHED, encoding="utf-8")
    script = tmp_path / "t.replay"
    script.write_text(f"game {game.as_posix()}\nplayers 2\nforce order discards dark-bleu = Ace\n1\n", encoding="utf-8")
    with pytest.raises(ReplayError) as err:
        load_replay(script).run(lambda line: None)
    assert (err.value.line, err.value.column, err.value.message) == (
        3, 22, "zone family 'discards' has no member 'discards dark-bleu'; did you mean 'dark-blue'?")


NEVER = "Market Town never shuffles `hand`, so this order would never be used; it shuffles `deck` and `supply`"


def test_a_zone_the_game_never_shuffles_is_refused_at_its_place(tmp_path, monkeypatch):
    # the order would wait for a shuffle of the hand that never comes: the line did nothing
    r = replay(tmp_path, "hand of Amber = Copper Coin")
    with pytest.raises(ReplayError) as err:
        r.run(lambda line: None)
    assert (err.value.line, err.value.column, err.value.message) == (4, 13, NEVER)
    # the REPL's `force order` says the same, and forces nothing
    monkeypatch.setenv("LUDUS_HISTORY", str(tmp_path / "history"))
    out = io.StringIO()
    match = ludus.load(GAME).new_match(2, seed=3)
    repl = Repl(match, GAME, Console(file=out, width=120, color_system=None))
    repl.handle("force order hand of Amber = Copper Coin")
    assert out.getvalue().splitlines() == [f"error: {NEVER}"]
    assert repl.match._state["forced"] == []


def test_the_python_api_refuses_it_too(tmp_path):
    match = ludus.load(GAME).new_match(2, seed=3)
    with pytest.raises(ValueError, match="Market Town never shuffles 'hand', so this order would never be used"):
        match.force_order("hand@0", ["Copper Coin"])
    assert match._state["forced"] == []
    match.force_order("deck@0", ["Copper Coin"])  # a zone it shuffles is taken
    assert match._state["forced"] == [["order", "deck@0", ["Copper Coin"]]]


def test_any_zone_is_taken_when_a_shuffle_names_its_zone_as_the_game_runs(tmp_path):
    # `shuffle z` of a rule's parameter may shuffle any zone: none is refused
    path = tmp_path / "mix.ludus"
    path.write_text('game "Mix"\nplayers 2\nzone pile\nzone heap\ncard "Ace"\n\nrule mix(z: zone):\n'
                    '    shuffle z\n\nflow:\n    mix(pile)\n    end game\n', encoding="utf-8")
    match = ludus.load(path).new_match(2)
    match.force_order("heap", ["Ace"])
    assert match._state["forced"] == [["order", "heap", ["Ace"]]]
