"""Rules text: every card of every shipped game in plain English, never its source, and the exact
words for a dozen cards a designer would proof-read against the printed ones."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ludus.language import nodes as n
from ludus.language.build import build
from ludus.language.symbols import Symbols
from ludus.pipeline import analyse
from ludus.rules_text import RulesText, card_text, cards_of
from tests.helpers import EXAMPLES, GAMES

SHIPPED = [
    EXAMPLES / "market-town.ludus",
    EXAMPLES / "uprising-great-country.ludus",
    GAMES / "uprising.ludus",
    GAMES / "votes-for-women" / "votes-for-women.ludus",
    GAMES / "stonewall-uprising" / "stonewall-uprising.ludus",
    GAMES / "stonewall-uprising" / "stonewall-uprising-solo.ludus",
    GAMES / "gateway-uprising" / "gateway-uprising.ludus",
    GAMES / "gateway-uprising" / "gateway-uprising-hidden-runestones.ludus",
]


def checked(path: Path):
    diags, result, sources = analyse(path)
    assert result is not None, [d.message for d in diags]
    return result, sources


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_every_card_and_every_rule_of_a_shipped_game_renders_in_words(path):
    result, sources = checked(path)
    writer = RulesText(result.symbols, result.types, sources)
    texts = [writer.card(d).text() for d in cards_of(result.symbols)]
    # the game's own blocks too (rules, actions, setup, flow): every statement kind they use has words
    sym = result.symbols
    blocks = [r.body for r in sym.rules.values()] + [a.body for a in sym.actions.values()]
    blocks += [d.body for d in (sym.setup, sym.flow) if d is not None]
    for body in blocks:
        texts += writer.block(body)
    # and as the REPL's `show` writes them: an action's parameters, requirements and costs, a
    # define's value
    for action in sym.actions.values():
        texts += writer.action(action)
    for define in sym.defines.values():
        texts.append(writer.define(define))
    assert writer.fallbacks == []
    # every game has a flow, so words at least for it; none holds a placeholder left unfilled
    assert any(text.strip() for text in texts)
    for text in texts:
        assert "\x01" not in text and " _" not in text, text


def test_the_shipped_games_have_cards_to_render():
    counts = {p.name: len(cards_of(checked(p)[0].symbols)) for p in SHIPPED}
    assert counts["market-town.ludus"] == 6
    assert counts["votes-for-women.ludus"] == 128
    assert counts["gateway-uprising.ludus"] > 50 and counts["stonewall-uprising.ludus"] > 40


def _node_classes(section: str) -> list[type]:
    """The node classes nodes.py declares under one of its section rulers."""
    text = Path(n.__file__).read_text(encoding="utf-8")
    part = text.split(f"─ {section} ─")[1].split("───────────────────────── ")[0]
    return [getattr(n, name) for name in re.findall(r"^class (\w+)", part, re.M)]


STATEMENTS = _node_classes("statements")
EXPRESSIONS = _node_classes("expressions")


def test_the_node_lists_are_read_from_nodes_py():
    assert n.If in STATEMENTS and n.Log in STATEMENTS and n.Phase in STATEMENTS and len(STATEMENTS) == 32
    assert n.BinOp in EXPRESSIONS and n.Template in EXPRESSIONS and n.If not in EXPRESSIONS


@pytest.mark.parametrize("cls", STATEMENTS, ids=lambda c: c.__name__)
def test_every_statement_kind_has_words(cls):
    assert hasattr(RulesText, "s_" + cls.__name__), f"add RulesText.s_{cls.__name__}"


@pytest.mark.parametrize("cls", EXPRESSIONS, ids=lambda c: c.__name__)
def test_every_expression_kind_has_words(cls):
    assert hasattr(RulesText, "e_" + cls.__name__), f"add RulesText.e_{cls.__name__}"


EVERYTHING = '''
rule everything(s, r, c):
    let total = sum(x * 2 for x in dice where x > 1) + -size(dice)
    set first_player to left(s)
    increase c.used by 1
    decrease mood by 2
    gain 2 coins
    pay 1 coins for s
    add 3 Stall of s to r
    remove all Stall from r
    remove 1 Stall of s from r
    move 2 Stall from r to North
    move c to the bottom of deck of s
    draw 1 from market into hand of s
    shuffle discard of s into deck of s
    discard c
    exile c
    reveal hand of s to [Red, Blue]
    create Lieutenant at r for s as l
    roll d6 as a
    roll 2 d6 as b
    roll die size as d
    roll dice pool as e
    choose q from regions by right(s), up to 2 "Where?"
    choose k from 1 to 3 "How many?"
    ask s "Again?" as again
    distribute 4 among defenders by other(s) as hits "Assign"
    offer Move, Slay to s else "end turn" as picked "What now, {s}?"
    pass
    break
    win s
    lose [Red]
    end game
    log "{s} did {if again then "it" else "not"}"
    resolve play of c
    go(1, [2, 3])
    if not done and x in xs or none == false:
        pass
    elif y != true:
        pass
    else:
        pass
    for each t in seats:
        pass
    for round in 1 to rounds:
        pass
    repeat 3 times:
        pass
    while true:
        break
    alternate p in seats_from(s) until all pass:
        pass
    turn s:
        pass
    phase "Market":
        pass
    set v to count(z for z in zs) + size(hand) + max(1, 2) + most(vp of p for p in seats)
    set w to vp of s + Follower of s at r + Unstable at r + c.cost + "text"
'''


def test_a_block_of_every_statement_kind_renders_without_source():
    program = build(EVERYTHING, "every.ludus")
    writer = RulesText(Symbols())
    lines = writer.block(program.items[0].body)
    assert writer.fallbacks == []
    text = "\n".join(lines)
    seen = {type(x) for x in _walk(program.items[0].body)}
    assert set(STATEMENTS) <= seen, set(STATEMENTS) - seen
    assert set(EXPRESSIONS) - {n.Template} <= seen, set(EXPRESSIONS) - seen
    for words in ["Let total be (the total of x × 2 for every x in dice where x is more than 1) + -the size of dice.",
                  "s pays 1 coin.",
                  "Add 3 Stalls of s to r.", "Remove every Stall from r.", "Move c to the bottom of deck of s.",
                  "Roll a d6 as a.", "Roll 2 d6 as b.", "Roll a die with size sides as d.",
                  'Choose up to 2 from regions as q, chosen by the seat right of s ("Where?").',
                  "s may Move or Slay or \"end turn\", the choice being picked (\"What now, {s}?\").",
                  "The game is lost by Red.", "End the game with no winner.", "Go (1, [2, 3]).",
                  "If not done and x is in xs or nothing is false, pass.", "Otherwise, if y is not true, pass.",
                  "Otherwise, pass.", "Repeat 3 times, pass.", "While true, stop repeating.",
                  "In the phase \"Market\", pass.", "For each round from 1 to rounds, pass."]:
        assert words in text, words


def _walk(x):
    if isinstance(x, tuple):
        for i in x:
            yield from _walk(i)
    elif hasattr(x, "__attrs_attrs__"):
        yield x
        for a in x.__attrs_attrs__:
            yield from _walk(getattr(x, a.name))


def test_a_construct_without_words_shows_its_source_and_is_counted():
    """The fallback the shipped-games test keeps at zero must be able to happen."""

    class Odd:
        span = n.NO_SPAN if hasattr(n, "NO_SPAN") else None

    writer = RulesText(Symbols())
    assert writer.block((Odd(),)) == ["Odd."]
    assert writer.fallbacks == ["Odd"]


def _text(path: Path, name: str) -> str:
    result, sources = checked(path)
    return card_text(result.symbols.entities[name], result.symbols, result.types, sources).text()


VFW = GAMES / "votes-for-women" / "votes-for-women.ludus"
STONEWALL = GAMES / "stonewall-uprising" / "stonewall-uprising.ludus"
GATEWAY = GAMES / "gateway-uprising" / "gateway-uprising.ludus"
MARKET = EXAMPLES / "market-town.ludus"
LOVE = EXAMPLES / "love-letter.ludus"

EXACT = [
    (MARKET, "Copper Coin", """\
Copper Coin (Good, 28 copies)
  Cost: 0. Coins: 1."""),
    (MARKET, "Street Musician", """\
Street Musician (Good, 4 copies)
  Cost: 2. Coins: 1.
  When played: Increase the mood track by 1."""),
    (MARKET, "Fortune Teller", """\
Fortune Teller (Good, 4 copies)
  Cost: 3. Coins: 0.
  When played:
    Roll a d6 as omen.
    Announce "{you} sees a {omen} in the cards".
    If omen is at least 4, gain omen - 2 coins."""),
    (MARKET, "Town Crier", """\
Town Crier (Good, 4 copies)
  Cost: 4. Coins: 1. Fame: 1.
  When played:
    Choose q from quarters ("Which quarter gets the stall?").
    Announce "{you} praises the {q}".
    Add 1 Stall to q."""),
    (VFW, "Seneca Falls Convention", """\
Seneca Falls Convention (Card)
  Deck: "Suffragist". Era: "start". Campaigner: yes.
  Event:
    Add campaigner ("Purple", Northeast).
    Add campaigner ("Yellow", Northeast).
    Gain 2 buttons.
    Add cubes (New York, 2)."""),
    (VFW, "Union Victory", """\
Union Victory (Card)
  Deck: "Suffragist". Era: "early". Roll: 3. Prerequisite: in effect ("The Civil War").
  Event: Gain 2 buttons. Discard every c in the rest of turn where c's name is "The Civil War"."""),
    (VFW, "Reconsideration", """\
Reconsideration (Card)
  Deck: "Strategy". Prerequisite: sent and (the size of reconsiderable (you) is more than 0 if you are Suffragist, otherwise checks is more than 0).
  Event:
    If you are Suffragist:
      Choose st from reconsiderable (you) ("Which state's X do you replace with 2 of your cubes?").
      Remove 1 X from st.
      Add cubes (st, 2).
    Otherwise:
      Choose st from states where the number of Checks at st is more than 0 ("Which state's check do you replace with 2 of your cubes?").
      Remove 1 Check from st.
      Add cubes (st, 2)."""),
    (VFW, "Opposition Research", """\
Opposition Research (Card)
  Deck: "Strategy".
  Event: Decrease buttons of your opponent by (buttons of your opponent + 1) ÷ 2."""),
    (VFW, "Change In Plans", """\
Change In Plans (Card)
  Deck: "Strategy".
  Event:
    Choose c from hand of your opponent where not c's campaigner ("Which card without a campaigner does {your opponent} discard? They draw another.").
    If c is not nothing:
      Discard c.
      Draw 1 card from deck of your opponent into hand of your opponent."""),
    (VFW, "Transportation", """\
Transportation (Card)
  Deck: "Strategy".
  Event:
    Move campaigners freely.
    If your buttons are at least campaign tax (you):
      Pay campaign tax (you) buttons.
      Campaign.
    Otherwise, announce "{you} cannot pay War in Europe's button: no Campaigning"."""),
    (VFW, "Anti-Suffrage Riots", """\
Anti-Suffrage Riots (Card)
  Deck: "Opposition". Era: "late".
  Event:
    Move hand of Suffragist to looking of Suffragist.
    Shuffle looking of Suffragist.
    Discard the top cards of looking of Suffragist (as many as the lower of 2 and the number of cards in looking of Suffragist).
    Move looking of Suffragist to hand of Suffragist.
    Draw 2 cards from deck of Suffragist into hand of Suffragist."""),
    (STONEWALL, "ACT UP", """\
ACT UP (PrideCard)
  Track: the systemic track. Value: 2. Decade: 80. Letter: "B".
  When played: Move window (-2 if the aids deaths track is at least 4, otherwise -1)."""),
    (STONEWALL, "Stonewall Inn Raid", """\
Stonewall Inn Raid (Event)
  Decade: 60. Boost: the public track.
  On pride: Shift (the public track, 2).
  On man: Detain (2)."""),
    (GAMES / "stonewall-uprising" / "stonewall-uprising-solo.ludus", "Tabloid Outing", """\
Tabloid Outing (AutomaCard)
  Hands: 1. Fold track: the public track.
  On sixties: Automa move (the public track, bold (1)).
  On seventies: Automa move (the public track, bold (2)).
  On eighties: Automa move (the public track, bold (2)).
  On after:
    If the number of cards in hand of Pride is more than 0:
      Ask Pride "Discard a card from your hand to keep the Overton Window where it is?", the answer being stop.
      If stop:
        Choose gone from hand of Pride, chosen by Pride ("Which card do you discard?").
        Discard gone.
      Otherwise, move window (1).
    Otherwise, move window (1)."""),
    (GATEWAY, "Fearless Four", """\
Fearless Four (Support, 5 copies)
  Cost: 4. Gold: 1. Stand in: yes.
  When played: Draw extra (1). Gain 1 recruit. Gain 1 infamy."""),
    (GATEWAY, "Guard Captain", """\
Guard Captain (CityGuard, 3 copies)
  Attack: 4. Defense: 5. Infamy: 3.
  When revealed: Call guard (this card's loc)."""),
    # a property of a define's value takes "of": it read "held (target)'s name"
    (LOVE, "Guard", """\
Guard (Character, 5 copies)
  Value: 1.
  When played:
    If the size of targets is more than 0:
      Choose target from targets ("Whose card do you guess?").
      Choose guess from "Priest", "Baron", "Handmaid", "Prince", "King", "Countess" and "Princess" ("Which card does {target} hold?").
      If the name of held (target) is guess, knock out (target).
      Otherwise, announce "{target} does not hold the {guess}"."""),
    (LOVE, "Baron", """\
Baron (Character, 2 copies)
  Value: 3.
  When played:
    If the size of targets is more than 0:
      Choose target from targets ("Whose hand do you compare with yours?").
      Reveal hand of target to you.
      Reveal your hand to target.
      If the value of held (target) is less than the value of held (you), knock out (target).
      Otherwise, if the value of held (you) is less than the value of held (target), knock out (you)."""),
    # `in_round` reads after the noun of its type (it read "from in round"), and a flag read of a
    # seat says what it says of the seat (it read "not protected of target")
    (LOVE, "Prince", """\
Prince (Character, 2 copies)
  Value: 5.
  When played:
    Choose target from the seats in round where target is you or target is not protected ("Who discards their hand?").
    Let gone be held (target).
    Move gone to played of target.
    If gone's name is "Princess", knock out (target).
    Otherwise, if the number of cards in the deck is more than 0, draw 1 card into hand of target.
    Otherwise, move the aside to hand of target."""),
    (LOVE, "Handmaid", """\
Handmaid (Character, 2 copies)
  Value: 4.
  When played: Set your protected to true."""),
    # it read "the first of each t in tracks with the most the total of ..."
    (STONEWALL, "Lambda Legal", """\
Lambda Legal (PrideCard)
  Track: the systemic track. Value: 4. Decade: 80. Letter: "F".
  When played:
    Let t be the first t in tracks with the highest total of the number of Laws at space p of t for every p in the \
numbers from t's low to t's high.
    For each p in the numbers from t's low to t's high:
      If the number of Laws at space p of t is more than 0:
        Increase law supply by the number of Laws at space p of t.
        Remove every Law from space p of t."""),
]


@pytest.mark.parametrize("path,name,expected", EXACT, ids=[e[1] for e in EXACT])
def test_the_exact_words_of_a_card(path, name, expected):
    assert _text(path, name) == expected


SMALL = """game "Small"
players 2
seats Red, Blue
counter fame per seat
token Stall per seat
board town:
    quarter Docks "The Docks" adjacent to Hill
    quarter Hill adjacent to Docks
card "Bailiff":
    on play:
        choose o from [s for s in seats where s != actor]
        if Stall of actor at Docks >= 3:
            gain 1 fame for o
        else:
            pay 1 fame
            win Red
flow:
    resolve play of card("Bailiff")
    win Blue
"""


def test_names_read_as_the_game_shows_them(tmp_path):
    path = tmp_path / "small.ludus"
    path.write_text(SMALL, encoding="utf-8")
    text = _text(path, "Bailiff")
    assert text == """\
Bailiff (Card)
  When played:
    Choose o from the seats where o is not you.
    If the number of your Stalls at The Docks is at least 3, o gains 1 fame.
    Otherwise:
      Pay 1 fame.
      Red wins the game."""


WORDS = """game "Words"
players 2
seats Red, Blue
counter fame per seat
flag tired per seat
zone hand per seat
zone table
kind Thing:
    worth: number
card "Mirror" is Thing:
    worth 3
    on play:
        choose c from on_table
        if c.worth > held(actor).worth and not tired of actor:
            gain 1 fame
        if tired of after_you:
            set tired of actor to true
        let best = first(most(c.worth for c in on_table))
        let rich = last(most(fame of s for s in seats))
define on_table = [c for c in table]
define after_you = left(actor)
define held(s) = first(hand of s)
flow:
    win Red
"""


def test_phrases_read_as_english_whatever_the_names(tmp_path):
    """A define named by a phrase that opens with a preposition reads after the noun of its type
    ("those" for cards, "the seat"); a property of anything but a name takes "of"; a flag read of
    someone says it of them, except where it is set; `most` ranks by a property or a counter."""
    path = tmp_path / "words.ludus"
    path.write_text(WORDS, encoding="utf-8")
    text = _text(path, "Mirror")
    assert text == """\
Mirror (Thing)
  Worth: 3.
  When played:
    Choose c from those on table.
    If c's worth is more than the worth of held (you) and you are not tired, gain 1 fame.
    If the seat after you is tired, set your tired to true.
    Let best be the first c in those on table with the highest worth.
    Let rich be the last s in the seats with the most fame."""


LOOPS = """game "Loops"
players 2
counter coins per seat
card "Alms":
    on play:
        for each s in seats where coins of s == 0:
            gain 1 coins for s
        for each p in [s for s in seats where coins of s > 5]:
            gain 1 coins for p
flow:
    win P1
"""


def test_a_loop_over_the_elements_that_pass_reads_as_one_list(tmp_path):
    """`for each s in seats where ...`, or the same list written out, names the list once."""
    path = tmp_path / "loops.ludus"
    path.write_text(LOOPS, encoding="utf-8")
    text = _text(path, "Alms")
    assert text == """\
Alms (Card)
  When played:
    For each s in the seats where coins of s is 0, s gains 1 coin.
    For each p in the seats where coins of p is more than 5, p gains 1 coin."""


SORTING = """game "Sorting"
players 2
kind Thing:
    worth: number
zone table
card "Abacus" is Thing:
    worth 1
    on play:
        move sorted(-c.worth for c in table where c.worth > 0) to the bottom of table
flow:
    win P1
"""


def test_sorted_reads_as_an_order(tmp_path):
    path = tmp_path / "sorting.ludus"
    path.write_text(SORTING, encoding="utf-8")
    text = _text(path, "Abacus")
    assert "Move each c in the table where c's worth is more than 0 in order of -c's worth (lowest first) " \
           "to the bottom of the table." in text, text


def test_a_card_without_an_effect_says_what_names_it(tmp_path):
    path = tmp_path / "names.ludus"
    path.write_text('''game "Names"
players 2
zone hand per seat
kind Badge
kind Weight:
    weight: number
card "Gold Star" is Badge
card "Plain" is Badge
card "Medal" is Badge
card "Weighed" is Weight:
    weight 2

rule shine(s: seat):
    if any(c.name == "Gold Star" for c in hand of s):
        log "{s} shines"

action Show:
    label "show the Gold Star"
    shine(actor)
    if any(c == Medal for c in hand):
        log "a medal"

flow:
    for each s in seats:
        turn s:
            offer Show
    end game
''', encoding="utf-8")
    result, sources = checked(path)
    writer = RulesText(result.symbols, result.types, sources)
    texts = {d.name: writer.card(d).body_lines() for d in cards_of(result.symbols)}
    assert texts["Gold Star"] == ["No card effect; named by the rule shine."]   # not by a label's words
    assert texts["Medal"] == ["No card effect; named by the action Show."]
    assert texts["Plain"] == ["No effect."]
    assert texts["Weighed"] == ["Weight: 2."]
