"""A card a seat could see at some moment of a move counts as seen by it: the move's label,
which names the card, is told to that seat, as at a table where the card went by face up.
What a seat could never see (a card moved only between zones it may not look at, one put
under the top of a pile) stays hidden, and what the views show at decisions does not change."""

from __future__ import annotations

import pytest

from ludus.engine.display import describe_entry
from tests.helpers import game_from_text

SOURCE = '''game "Sight"
players 3
seats North, East, South

zone hand per seat owner only
zone trick
zone out count only
zone deck count only
zone pile top only

card "Ace"
card "King"
card "Queen"
card "Jack"
card "Ten"
card "Nine"
card "Eight"
card "Seven"
card "Six"
card "Five"
card "Four"
card "Three"
card "Two"

# face up to the trick; the last card of a trick sweeps it face down at once
action Play(c in hand):
    move c to trick
    if size(trick) == players:
        move trick to out

# face down, from a hidden hand to a pile no one looks through
action Discard(c in hand):
    move c to out

# under the top of a pile that shows its top card only
action Bury(c in hand):
    move c to the bottom of pile

# on top of the pile, then covered at once by a card from the deck
action Stack(c in hand):
    move c to pile
    draw 1 from deck into pile

# onto the pile with a card of the deck in one move: the pile shows the last card only
action Pair(c in hand):
    move [c, top(deck)] to pile

# shown to everyone, then put face down
action Flash(c in hand):
    reveal c
    move c to out

# into the next seat's hand, which that seat sees and the third does not, then face down
action Hand(c in hand):
    move c to hand of left(actor)
    move c to out

flow:
    move box to deck
    shuffle deck
    draw 1 from deck into pile
    for each s in seats:
        draw 3 from deck into hand of s
    while size(hand of North) > 0:
        for each s in seats:
            turn s:
                offer Play, Discard, Bury, Stack, Pair, Flash, Hand
    end game
'''

NORTH, EAST, SOUTH = 0, 1, 2


@pytest.fixture
def game(tmp_path):
    return game_from_text(tmp_path, SOURCE)


def take(match, action: str) -> int:
    """Take the first legal move of `action` (Play, Discard, ...); its place in the log."""
    label = next(o for o in match.legal_actions() if o.split()[0] == action)
    n = len(match.log)
    match.apply(label)
    return next(i for i in range(n, len(match.log)) if match.log[i]["t"] == "action")


def told(match, index: int) -> list:
    """What each seat is told of the move at `index` in the log (None: its label, card named)."""
    return [match.hidden_answer(index, s) for s in range(3)]


def test_the_last_card_of_a_trick_swept_face_down_is_named_to_every_seat(game):
    m = game.new_match(3, seed=1)
    first, second = take(m, "Play"), take(m, "Play")
    last = take(m, "Play")  # fills the trick, which goes at once into `out`, count only
    assert m.view(NORTH)["zones"]["out"] == {"count": 3} and not m.view(NORTH)["zones"]["trick"]
    for index in (first, second, last):
        assert told(m, index) == [None, None, None]
    entry = m.log[last]
    assert describe_entry(m, entry, actions=True, viewer=NORTH, index=last) == f"South: {entry['label']}"


def test_a_card_that_only_moves_between_hidden_zones_stays_hidden(game):
    m = game.new_match(3, seed=1)
    index = take(m, "Discard")
    assert told(m, index) == [None, "took the action Discard", "took the action Discard"]


def test_a_card_put_under_the_top_of_a_pile_was_not_seen(game):
    m = game.new_match(3, seed=1)
    index = take(m, "Bury")
    assert m.view(EAST)["zones"]["pile"]["count"] == 2
    assert told(m, index) == [None, "took the action Bury", "took the action Bury"]


def test_a_card_on_top_of_a_pile_was_seen_though_covered_in_the_same_move(game):
    m = game.new_match(3, seed=1)
    index = take(m, "Stack")
    card = m.log[index]["label"].split(" ", 1)[1]
    assert m.view(EAST)["zones"]["pile"]["top"] != card  # covered by now
    assert told(m, index) == [None, None, None]


def test_a_card_moved_onto_a_pile_with_another_over_it_in_one_move_was_not_seen(game):
    m = game.new_match(3, seed=1)
    index = take(m, "Pair")
    assert told(m, index) == [None, "took the action Pair", "took the action Pair"]


def test_a_card_revealed_then_put_face_down_was_seen(game):
    m = game.new_match(3, seed=1)
    index = take(m, "Flash")
    assert told(m, index) == [None, None, None]


def test_a_card_passing_through_a_hand_is_seen_by_that_hand_only(game):
    m = game.new_match(3, seed=1)
    index = take(m, "Hand")  # North's card goes through East's hand, which South may not see
    assert told(m, index) == [None, None, "took the action Hand"]


def test_working_out_who_saw_a_move_changes_neither_the_match_nor_its_views(game):
    m = game.new_match(3, seed=1)
    indexes = [take(m, "Play") for _ in range(3)] + [take(m, "Stack")]
    assert m.sight == {}  # apply works nothing out: a simulation's loop pays nothing for it
    saved, views = m.to_json(), [m.view(s) for s in (None, NORTH, EAST, SOUTH)]
    for index in indexes:
        told(m, index)
    assert m.to_json() == saved and [m.view(s) for s in (None, NORTH, EAST, SOUTH)] == views
    assert m.clone().hidden_answer(indexes[2], NORTH) is None
    m.undo()
    assert indexes[3] not in m.sight


def test_hearts_names_the_last_card_of_a_hand_though_the_next_deal_gathers_it_face_down():
    """Hearts keeps the tricks taken face up, but the card that ends a hand goes, in the same
    move, with every trick into the `count only` deck, and is dealt into a hand."""
    import random
    from pathlib import Path

    import ludus

    m = ludus.load(Path(__file__).resolve().parents[2] / "examples" / "hearts.ludus").new_match(4, seed=0)
    rng = random.Random(0)
    while m.state["vars"]["hand_number"] == 1:
        n = len(m.log)
        m.apply(rng.choice(m.legal_actions()))
    last = next(i for i in range(n, len(m.log)) if m.log[i]["t"] == "action")
    card = m.log[last]["label"].removeprefix("play ")
    # gathered into the deck and dealt again by the same move: in a hand, which the others count
    holder = next(s for s in range(4) if card in m.view(None)["zones"][f"hand of {m.seat_name(s)}"])
    assert m.view((holder + 1) % 4)["zones"][f"hand of {m.seat_name(holder)}"] == {"count": 13}
    assert [m.hidden_answer(last, s) for s in range(4)] == [None] * 4
