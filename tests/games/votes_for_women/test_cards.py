"""Votes for Women: every card's effect, played from a position where it does something.

Each card is played the way a player plays it (a hand card as an Event, a claimed State or
Strategy card as a claimed card), with its dice forced, every decision answered by a fixed
policy (the first option; "no" to a re-roll or a move), and the effect kept as a snapshot in
`__snapshots__/test_cards/`. `python -m pytest tests/games/votes_for_women --snapshot-update`
accepts a changed effect; review the diff of the snapshot file.
"""

from __future__ import annotations

import pytest

import ludus
from tests.helpers import GAMES

GAME = ludus.load(GAMES / "votes-for-women" / "votes-for-women.ludus")
CARDS = sorted(d.name for d in GAME.defs.values() if d.word == "card")


def card(name: str) -> str:
    return f'cards("{name}")'


SOME_RED = ["add 2 Red to NY", "add 1 Red to CA", "add 3 Red to GA", "add 2 Red to TX", "add 1 Red to IL"]
SOME_PURPLE = ["add 2 Purple to NY", "add 1 Purple to CA", "add 3 Purple to IL", "add 2 Purple to KS"]
SOME_YELLOW = ["add 2 Yellow to MA", "add 1 Yellow to CA", "add 3 Yellow to OH", "add 1 Yellow to KS"]
DECIDED = ["set sent to true", "add 1 Check to NY", "add 1 Check to WY", "add 1 X to GA", "add 1 X to MS"]

# The position each card needs to do something (besides being in its player's hand or claimed).
POSITIONS = {
    "Union Victory": [f"move {card('The Civil War')} to rest_of_turn"],
    "Fifteenth Amendment": ["add 1 Red to NY"],
    "Reconstruction": [f"move {card('Fifteenth Amendment')} to rest_of_game", "add 2 Red to VA"],
    "Women to the Polls": ["add 1 Red to NJ"],
    "“Debate Us, You Cowards!”": SOME_RED,
    "Alice Paul & Lucy Burns": SOME_RED,
    "Mary McLeod Bethune": SOME_RED,
    "Make a Home Run for Suffrage": SOME_RED,
    "Women and World War I": [f"move {card('War in Europe')} to rest_of_turn"],
    "Woodrow Wilson": ["set buttons of Suffragist to 5"],
    "15th Divides Suffragists": [f"move {card('Fifteenth Amendment')} to rest_of_game",
                                 "set buttons of Suffragist to 5"] + SOME_PURPLE,
    "Senator Joseph Brown": ["set congress to 3", "add 1 Purple to GA"],
    "Gerrymandering": SOME_YELLOW,
    "Horace Greeley": ["add 3 Yellow to NY"],
    "Southern Resentment": [f"move {card('Fifteenth Amendment')} to rest_of_game"],
    "Backlash to the Movement": SOME_PURPLE + SOME_YELLOW,
    "Xenophobia": SOME_PURPLE + SOME_YELLOW,
    "The Great 1906 San Francisco Earthquake": ["add 2 Purple to CA", "add 1 Yellow to CA",
                                                "set buttons of Suffragist to 3"],
    "The SSWSC": [f"move {card('Southern Strategy')} to rest_of_game"],
    "Transcontinental Railroad": ["create RedCampaigner at South for Opposition"],
    "White Supremacy and the Suffrage Movement": [f"move {card('Southern Strategy')} to rest_of_game",
                                                  "set buttons of Suffragist to 4"] + SOME_YELLOW,
    "Red Scare": SOME_PURPLE,
    "Southern Women’s Rejection League": [f"move {card('Southern Strategy')} to rest_of_game"],
    "United Daughters of the Confederacy": [f"move {card('Southern Strategy')} to rest_of_game"],
    "American Constitutional League": ["set buttons of Opposition to 5"],
    "Governor Clement’s Veto": DECIDED,
    "Senate Rejects Suffrage Amendment": ["set congress to 2"],
    "Reconsideration": DECIDED,
    "Opposition Research": ["set buttons of Opposition to 5"],
    "Transportation": ["create PurpleCampaigner at Northeast for Suffragist",
                       "create YellowCampaigner at South for Suffragist"],
    "Counter Strat": [f"move {card('War in Europe')} to rest_of_turn"],
    "Eye on the Future": ["set turn_number to 5"],
    "Bellwether State": ["add 2 Red to AZ"],
}
POSITIONS["Minor v. Happersett"] = POSITIONS["Senate Rejects Suffrage Amendment"]
POSITIONS["South Dakota Rejects Suffrage"] = POSITIONS["Senate Rejects Suffrage Amendment"]

# Dice the card rolls, forced so the effect is the same on every run: (die size, values).
DICE = {
    "Union Victory": [(6, 4)], "Fifteenth Amendment": [(6, 5)], "Jeannette Rankin": [(6, 3)],
    "1918 Midterm Elections": [(6, 6)], "Eighteenth Amendment": [(6, 3)],
    "Minor v. Happersett": [(6, 4)], "Senate Rejects Suffrage Amendment": [(6, 4)],
    "South Dakota Rejects Suffrage": [(6, 4)],
    "Frederick Douglass": [(8, 5)], "Frances Harper": [(8, 6)], "Sojourner Truth": [(8, 3)],
    "Pioneer Women": [(8, 4)], "Emmeline Pankhurst": [(6, 2, 3)], "Helen Keller": [(6, 1, 4)],
    "“Debate Us, You Cowards!”": [(6, 3, 3)], "Alice Paul & Lucy Burns": [(6, 2, 2)],
    "Mary McLeod Bethune": [(8, 2, 3)], "Make a Home Run for Suffrage": [(8, 1, 3)],
    "Mary Church Terrell": [(8, 3, 4)], "Dr. Mabel Ping-Hua Lee": [(8, 2, 5)],
    "Catharine Beecher": [(4, 3)], "Emma Goldman": [(6, 4)], "The Unnecessary Privilege": [(6, 2)],
    "Southern Women’s Rejection League": [(8, 5)], "United Daughters of the Confederacy": [(8, 3)],
    "Cheers to “No on Suffrage”": [(8, 4)], "Superior Lobbying": [(8, 6, 2, 8, 7)],
    "Transcontinental Railroad": [(4, 3)], "Transportation": [(4, 2, 4)],
}


def deck_of(pos, name: str) -> str:
    return pos.value(f'first(c.deck for c in Cards where c.name == "{name}")')[0]


def answer_all(pos) -> None:
    """Answer every decision of the effect in progress by the fixed policy."""
    for _ in range(500):
        if pos._outer is None or pos.match.pending is None:
            return
        options = pos.match.legal_actions()
        pos.answer("no" if "no" in options else options[0])
    raise AssertionError("the effect asked more than 500 decisions")


def play_card(pos, name: str) -> None:
    """Put the card where its player plays it from, and play it."""
    deck = deck_of(pos, name)
    seat = "Opposition" if deck == "Opposition" else "Suffragist"
    if deck in ("Suffragist", "Opposition"):
        pos.given(f"move {card(name)} to hand of {seat}")
        label = f"play {name} as an event"
    else:
        pos.given(f"move {card(name)} to claimed of {seat}")
        label = f"play claimed {name}"
    for statement in POSITIONS.get(name, []):
        pos.given(statement)
    if label not in pos.match.legal_actions():
        # Opposition cards, and claimed cards, come after the Suffragist's first hand card
        pos.do("organize with Seneca Falls Convention")
        pos.effect()
    for sides, *values in DICE.get(name, []):
        pos.next_roll(sides, *values)
    pos.do(label)
    answer_all(pos)


def ascii_id(name: str) -> str:
    """A test id (and snapshot file name) in plain ASCII: curly quotes and apostrophes made plain."""
    plain = name.translate(str.maketrans({"“": '"', "”": '"', "’": "'", "Š": "S"}))
    return plain.replace('"', "").replace("'", "")


@pytest.mark.parametrize("name", CARDS, ids=[ascii_id(c) for c in CARDS])
def test_card_effect(name, ludus_position, effect_snapshot):
    pos = ludus_position(GAME, seed=1)
    play_card(pos, name)
    assert pos.effect(f"{name}") == effect_snapshot


def test_every_card_is_tested():
    assert len(CARDS) == 128
