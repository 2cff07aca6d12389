"""Piles: a `top only` zone or board shows each seat its top card and how many lie under it."""

from __future__ import annotations

import random

import pytest

import ludus
from ludus.engine.determinize import Determinizer, groups, hidden_cards
from ludus.engine.hidden import has_hidden_information
from ludus.engine.runtime import Runtime
from ludus.language.source import LudusError
from ludus.repl.render import cards_text, pieces_text
from tests.helpers import game_from_text

SOURCE = '''game "Piles"
players 2
zone stock top only
zone hand per seat owner only
board market top only:
    slot A with cost 2
    slot B with cost 3
board street:
    stall Corner
card "Ash":
    copies 5
card "Fir"
card "Elm":
    copies 2
card "Oak"
card "Yew":
    copies 2
flow:
    move top([c for c in box where c.name == "Ash"], 3) to A
    move top([c for c in box where c.name == "Ash"], 1) to stock
    move [c for c in box where c.name == "Ash"] to hand of P2
    move card("Fir") to hand of P2
    move card("Oak") to A
    move [c for c in box where c.name == "Elm"] to stock
    move [c for c in box where c.name == "Yew"] to Corner
    turn P1:
        choose peek from ["no", "yes"] "Look under the pile?"
        if peek == "yes":
            reveal last(A) to P1
        choose go from ["take", "wait"] "Take the top card?"
        if go == "take":
            move top(A) to hand of P1
    end game
'''


@pytest.fixture
def game(tmp_path):
    return game_from_text(tmp_path, SOURCE)


def test_a_pile_on_a_board_shows_its_top_card_and_counts_the_rest(game):
    m = game.new_match(2)
    for seat in (0, 1):
        board = m.view(seat)["board"]
        assert board["A"] == {"pieces": ["Oak"], "face_down": 3}
        assert board["B"] == {}                                    # an empty pile: nothing to count
        assert board["Corner"] == {"pieces": ["Yew", "Yew"]}       # a public board shows everything
    assert m.view(None)["board"]["A"] == {"pieces": ["Oak", "Ash", "Ash", "Ash"]}   # the designer's view


def test_a_pile_zone_shows_its_top_card_and_its_size(game):
    m = game.new_match(2)
    assert m.view(0)["zones"]["stock"] == {"count": 3, "top": "Elm"}
    assert m.view(None)["zones"]["stock"] == ["Elm", "Elm", "Ash"]
    assert cards_text(m.view(0)["zones"]["stock"]) == "3 cards, Elm on top"


def test_taking_the_top_card_uncovers_the_next(game):
    m = game.new_match(2)
    m.apply("no")
    m.apply("take")
    assert m.view(1)["board"]["A"] == {"pieces": ["Ash"], "face_down": 2}
    assert m.view(1)["zones"]["hand of P1"] == {"count": 1}


def test_a_card_shown_to_a_seat_shows_in_the_pile_to_that_seat_only(game):
    m = game.new_match(2)
    m.apply("yes")
    assert m.view(0)["board"]["A"] == {"pieces": ["Oak", "Ash"], "face_down": 2}
    assert m.view(1)["board"]["A"] == {"pieces": ["Oak"], "face_down": 3}
    assert pieces_text(m.view(0)["board"]["A"]) == ["Oak", "Ash", "2 face down"]


def test_the_cards_under_the_top_are_what_a_seat_cannot_see(game):
    m = game.new_match(2)
    ents = m.state["ents"]
    names = {eid: ents[eid]["d"] for eid in hidden_cards(m, 1)}
    # the three Ash under the Oak, and the Elm and Ash under the stock's top; not the Oak, the
    # top Elm, the Yews on a public board, or P2's own hand
    assert sorted(names.values()) == ["Ash", "Ash", "Ash", "Ash", "Elm"]
    assert len(hidden_cards(m, 0)) == 7                           # P1 does not see P2's hand
    assert has_hidden_information(game)


def test_a_sample_deals_a_piles_hidden_cards_among_that_pile_only(game):
    m = game.new_match(2)
    m.apply("no")
    # an Ash is under both piles and in P2's hand, with the Fir: were the piles' cards grouped
    # as a hand's are, the Fir could be dealt under a pile
    assert sorted(len(g) for g in groups(m, 0)) == [2, 2, 3]      # under the stock, P2's hand, under A
    pile = m.state["places"]["A"][1:]
    stock = m.state["places"]["stock"][1:]
    hand = m.state["places"]["hand@1"]
    sampler = Determinizer(m, 0)
    rng = random.Random(3)
    dealt = set()
    for _ in range(20):
        sample = sampler.sample(rng)
        assert sample.view(0) == m.view(0)
        assert [sample.state["ents"][e]["d"] for e in pile] == ["Ash", "Ash", "Ash"]
        assert sorted(sample.state["ents"][e]["d"] for e in stock) == ["Ash", "Elm"]
        dealt.add(tuple(sample.state["ents"][e]["d"] for e in hand))
    assert dealt == {("Ash", "Fir"), ("Fir", "Ash")}              # the hand's own cards do trade places


def test_top_only_is_for_piles(tmp_path):
    with pytest.raises(LudusError) as err:
        game_from_text(tmp_path, 'game "Bad"\nplayers 2\ncounter coins per seat top only\nboard street hidden:\n'
                                 '    stall Corner\nflow:\n    gain 1 coins for P1\n    end game\n')
    messages = [(d.span.line, d.span.column, d.message) for d in err.value.diagnostics if d.severity == "error"]
    assert messages == [
        (3, 24, "'top only' is for zones and boards, whose cards lie in piles; a counter is 'public', "
                "'owner only', 'others only', 'count only' or 'hidden'"),
        (4, 14, "a board's spaces are 'public' or 'top only' (piles that show their top card), not 'hidden'"),
    ]


def test_stonewall_markets_show_each_slots_top_card():
    game = ludus.load("games/stonewall-uprising/stonewall-uprising.ludus")
    m = game.new_match(2, seed=4)
    ents = m.state["ents"]
    for seat in (0, 1):
        for space, entry in m.view(seat)["board"].items():
            if game.spaces[space].kind not in ("pride_slot", "man_slot"):
                continue
            pile = m.state["places"][space]
            assert entry == {"pieces": [ents[pile[0]]["d"]], "face_down": len(pile) - 1}
            assert game.static_field(Runtime(game, m.state, []), pile[0], ents[pile[0]]["d"], "decade") == 60


def test_a_grid_board_may_be_piles_too(tmp_path):
    game = game_from_text(tmp_path, 'game "Stacks"\nplayers 2\nboard field grid 3 by 2 top only\n'
                                    'card "Ash":\n    copies 2\ncard "Oak"\n'
                                    'flow:\n    move [c for c in box where c.name == "Ash"] to b2\n'
                                    '    move card("Oak") to b2\n    end game\n')
    m = game.new_match(2)
    assert m.view(0)["board"]["b2"] == {"pieces": ["Oak"], "face_down": 2}
    assert m.view(None)["board"]["b2"] == {"pieces": ["Oak", "Ash", "Ash"]}
    assert sorted(game.spaces) == ["a1", "a2", "b1", "b2", "c1", "c2"]
    with pytest.raises(LudusError) as err:
        game_from_text(tmp_path, 'game "Bad"\nplayers 2\nboard field grid 3 by 2 hidden\nflow:\n    end game\n', "bad.ludus")
    assert [(d.span.line, d.message) for d in err.value.diagnostics if d.severity == "error"] == [
        (3, "a board's spaces are 'public' or 'top only' (piles that show their top card), not 'hidden'")]
