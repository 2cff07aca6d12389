"""`alternate s in LIST until one left:`: turns go round as in `until all pass`, a seat that
passes drops out for good, and the loop ends before the next turn once a single seat has not
passed, with `s` naming that seat afterwards (docs/language.md, "alternate")."""

from __future__ import annotations

import json
import random

import pytest

from ludus.compiler import pysource
from ludus.engine.match import Match, MatchError
from ludus.engine.runtime import RuleError
from ludus.language.build import build
from ludus.language.parser import parse
from ludus.language.source import LudusError
from ludus.language.symbols import Symbols
from ludus.rules_text import RulesText
from ludus.tools.fmt import format_text
from tests.helpers import game_from_text

# an auction: each seat raises the bid or drops out; the last bidder left pays and wins
AUCTION = """game "Auction"
players 1 to 4
seats Red, Blue, Green, Yellow

counter bid
counter paid per seat
var leader: seat start 0
var asked: number start 0

action Raise:
    require bid < 5
    set bid to bid + 1
    set leader to actor

action Drop:
    pass

rule auction:
    alternate s in seats_from(leader) until one left:
        turn s:
            increase asked by 1
            offer Raise, Drop
    turn s:
        increase paid by bid
    set leader to s

flow:
    auction()
    win leader
"""


GENERATED = "<ludus generated expressions>"


def play(game, players: int, moves: list[str]) -> Match:
    m = game.new_match(players)
    for move in moves:
        m.apply(move)
    return m


@pytest.fixture
def auction(tmp_path):
    return game_from_text(tmp_path, AUCTION)


def test_the_loop_ends_when_one_seat_is_left_and_names_it(auction):
    m = play(auction, 4, ["Raise", "Drop", "Raise", "Drop", "Raise", "Drop"])
    # Red raises, Blue drops, Green raises, Yellow drops, Red raises, Green drops: Red is left
    # and is not asked again, though the turn after Green's is Red's
    assert m.result["winners"] == ["Red"]
    assert m.state["vars"]["asked"] == 6
    # after the loop, `s` is Red: Red pays the bid of 3 in its own turn
    assert {k: v for k, v in m.state["vars"].items() if k.startswith("paid")} == {"paid@0": 3}
    assert m.state["alts"] == []


def test_the_seat_left_is_the_one_that_did_not_pass_not_the_last_to_act(auction):
    # all but one pass in a row: Red, Blue and Green drop at once, Yellow, never asked, is left
    m = play(auction, 4, ["Drop", "Drop", "Drop"])
    assert m.result["winners"] == ["Yellow"]
    assert m.state["vars"]["asked"] == 3


def test_a_seat_that_passed_is_skipped_from_then_on(auction):
    m = play(auction, 3, ["Drop", "Raise"])
    # Red dropped: the turns go Blue, Green, Blue, Green... and Red is never asked again
    seen = []
    for move in ["Raise", "Raise", "Raise"]:
        seen.append(m.current)
        m.apply(move)
    assert 0 not in seen and m.result is None
    assert seen == [2, 1, 2]
    m.apply("Drop")  # Blue drops at a bid of 4: Green is left
    assert m.result["winners"] == ["Green"]


def test_a_loop_that_starts_with_one_seat_ends_at_once_asking_no_one(auction):
    m = auction.new_match(1)
    assert m.result["winners"] == ["Red"]
    assert m.state["vars"].get("asked", 0) == 0 and not [e for e in m.log if e["t"] == "action"]


def test_a_loop_given_no_seats_stops_with_a_located_error(tmp_path):
    text = AUCTION.replace("seats_from(leader) until one left", "[s for s in seats where false] until one left")
    with pytest.raises(RuleError, match="has no seat left") as err:
        game_from_text(tmp_path, text).new_match(2)
    assert ":19:" in str(err.value)


def test_a_seat_whose_offer_has_nothing_legal_is_not_dropped(tmp_path):
    # Green may only raise, and cannot once the bid is 5: it is asked nothing, keeps its place,
    # and the loop comes back to it; Red and Blue drop, and Green is the seat left
    text = AUCTION.replace(
        "offer Raise, Drop",
        "if s == Green:\n                offer Raise\n            else:\n                offer Raise, Drop",
    )
    game = game_from_text(tmp_path, text)
    m = play(game, 3, ["Raise", "Raise", "Raise", "Raise", "Raise"])  # Red, Blue, Green, Red, Blue: bid 5
    assert m.current == 0 and m.legal_actions() == ["Drop"]  # Green skipped, nothing legal
    m.apply("Drop")
    assert m.legal_actions() == ["Drop"]  # Blue, Green asked nothing again
    m.apply("Drop")
    assert m.result["winners"] == ["Green"]


def test_the_name_is_known_after_the_loop_only_for_until_one_left(tmp_path):
    with pytest.raises(LudusError, match="unknown seat 's'"):
        game_from_text(tmp_path, AUCTION.replace("until one left", "until all pass"))


@pytest.mark.parametrize(
    ("ending", "message"),
    [
        ("until some left", "unexpected 'some'; expected 'all' or 'one'"),
        ("until one", "unexpected ':'; expected 'left'"),
        ("until one pass", "unexpected 'pass'; expected 'left'"),
    ],
)
def test_the_parser_names_both_endings(tmp_path, ending, message):
    with pytest.raises(LudusError, match=message):
        parse(AUCTION.replace("until one left", ending), "t.ludus")


def test_a_save_in_the_middle_of_the_loop_plays_on_as_the_match_does(auction):
    moves = ["Raise", "Drop", "Raise", "Drop", "Raise", "Drop"]
    for cut in range(1, len(moves)):
        m = play(auction, 4, moves[:cut])
        saved = m.to_json()
        assert json.loads(saved)["state"]["alts"]  # saved with the loop running
        loaded = Match.from_json(auction, saved)
        for move in moves[cut:]:
            assert loaded.legal_actions() == m.legal_actions()
            loaded.apply(move)
            m.apply(move)
        assert loaded.result == m.result and loaded.state == m.state


def test_a_save_whose_loop_has_no_seat_left_is_refused(auction):
    m = play(auction, 3, ["Drop"])
    data = json.loads(m.to_json())
    alt = data["state"]["alts"][-1]
    alt["passed"] = list(alt["order"])
    with pytest.raises(MatchError, match="until one left' loop has no seat left"):
        Match.from_json(auction, json.dumps(data))


def test_undo_in_the_loop_brings_the_seat_back(auction):
    m = play(auction, 3, ["Raise", "Drop"])
    m.apply("Drop")
    assert m.result["winners"] == ["Red"]
    m.undo()
    assert m.result is None and m.current == 2
    m.apply("Raise")
    assert m.result is None and m.legal_actions() == ["Raise", "Drop"]


def _random_playouts(game, seeds) -> list:
    out = []
    for seed in seeds:
        rng = random.Random(seed)
        m = game.new_match(rng.randint(1, 4))
        while m.result is None:
            m.apply(rng.choice(m.legal_actions()))
        out.append((m.result, m.state))
    return out


def test_the_closures_play_exactly_as_the_generated_code(tmp_path, monkeypatch):
    runs = []
    for enabled in (True, False):
        monkeypatch.setattr(pysource, "ENABLED", enabled)
        (tmp_path / str(enabled)).mkdir()
        game = game_from_text(tmp_path / str(enabled), AUCTION)
        assert (game.actions["Raise"].requires[0].__code__.co_filename == GENERATED) == enabled
        runs.append(_random_playouts(game, range(30)))
    generated, closures = runs
    assert generated == closures
    assert {r["winners"][0] for r, _ in generated} == {"Red", "Blue", "Green", "Yellow"}


def test_the_formatter_keeps_the_loop_and_the_rules_text_says_it():
    assert format_text(AUCTION.replace("until one left:", "until  one   left :")) == AUCTION
    program = build(AUCTION, "t.ludus")
    rule = next(x for x in program.items if getattr(x, "name", None) == "auction")
    text = "\n".join(RulesText(Symbols()).block(rule.body))
    assert "until all but one pass (s is then the one left)" in text
