"""After a move the REPL says what changed, as the mover may see it; `log` lists every decision
(issue 17, item 7)."""

from __future__ import annotations

import re

import pytest

from tests.helpers import EXAMPLES, repl_of

GAME_PATH = EXAMPLES / "market-town.ludus"


pytestmark = pytest.mark.usefixtures("history_in_tmp")


def repl_on(path, seed: int = 0, view="auto"):
    """A REPL on a 2-player match of the game at `path`, and what it prints."""
    return repl_of(path, 2, seed, 140, view=view)


def written(tmp_path, name: str, source: str):
    path = tmp_path / name
    path.write_text(source, encoding="utf-8")
    return path


def make_repl():
    return repl_on(GAME_PATH, seed=3)


def test_a_move_is_followed_by_what_it_changed():
    repl, out = make_repl()
    repl.handle("buy Tax Collector")
    text = out.getvalue()
    assert "changed: coins of Amber: 3 → 0" in text
    assert "changed: discard of Amber: empty → Tax Collector" in text


def test_what_changed_hides_what_the_mover_may_not_see():
    repl, out = make_repl()
    repl.handle("buy nothing")
    repl.handle("build nothing")      # Basil draws: Amber sees a count, not the cards
    text = out.getvalue()
    assert "changed: hand of Basil: 0 cards → 3 cards" in text
    assert "hand of Basil: 0 cards → Copper Coin" not in text


def test_log_lists_every_decision_including_else_options():
    repl, out = make_repl()
    repl.handle("buy nothing")
    repl.handle("build nothing")
    repl.handle("log")
    text = out.getvalue()
    assert "Amber: buy nothing" in text and "Amber: build nothing" in text


def test_moves_filters_by_words_and_keeps_the_numbers():
    repl, out = make_repl()
    repl.handle("moves")
    assert "   1. buy Copper Coin\n" in out.getvalue() and "   3. buy nothing\n" in out.getvalue()
    start = len(out.getvalue())
    repl.handle("moves tax")
    shown = out.getvalue()[start:]
    assert "   2. buy Tax Collector" in shown
    assert "buy Copper Coin" not in shown and "buy nothing" not in shown
    repl.handle("moves zzz")
    assert "error: no move holds 'zzz'" in out.getvalue()


def test_show_card_prints_what_the_card_does():
    repl, out = make_repl()
    repl.handle("show Fortune Teller")
    text = out.getvalue()
    assert "Fortune Teller (Good, 4 copies): cost 3, coins 0, fame 0" in text
    # the rules text, generated from the effect, not the declaration's source
    assert "    Roll a d6 as omen.\n" in text and "    If omen is at least 4, gain omen - 2 coins.\n" in text
    assert "roll d6 as omen" not in text


def test_show_card_source_prints_the_declaration():
    repl, out = make_repl()
    repl.handle("show card Town Crier source")
    text = out.getvalue()
    assert "market-town.ludus:80:" in text
    assert '  card "Town Crier" is Good:' in text and "add 1 Stall to q" in text
    assert "Guild Charter" not in text          # the declaration ends where the next one starts
    after = GAME_PATH.read_text(encoding="utf-8").split('card "Town Crier"')[1]
    assert re.search(r'\ncard "([^"]*)"', after).group(1) == "Guild Charter"   # and that one is next


def test_the_session_opens_with_a_banner_and_what_setup_did(tmp_path):
    from tests.helpers import GAMES

    repl, out = repl_on(GAMES / "uprising.ludus", seed=1)
    lines = iter(["quit"])
    repl.run(lambda prompt: next(lines))
    text = out.getvalue().splitlines()
    assert text[0].startswith("Uprising: Red, Blue, seed 1. Type a move's number or its label")
    assert text[1].strip() == "rolled d2: 2"      # setup's roll for the first player, before the screen


def test_a_move_typed_for_a_seat_whose_options_are_hidden_is_refused():
    repl, out = make_repl()
    repl.handle("view Basil")           # Amber decides; Basil's view hides Amber's options
    repl.handle("1")
    repl.handle("buy nothing")
    assert repl.match.moves == []
    assert out.getvalue().count("error: Amber is deciding, and this view hides Amber's options: `view Amber` to decide "
                                "for it, or `bot Amber random` to let a bot play it") == 2
    repl.handle("moves")
    assert "Amber is deciding; the options are hidden from this view (`view Amber`, or `bot Amber random`)" in out.getvalue()
    repl.handle("view Amber")
    repl.handle("buy nothing")
    assert repl.match.moves == ["buy nothing"]


PER_SPACE = '''
game "Climb"
players 2
board hill:
    step Low
    step High
counter height per step start 2
var holder per step: seat
flow:
    for each s in seats:
        turn s:
            choose p from steps
            increase height of p by 1
            set holder of p to s
    end game
'''


def test_a_first_change_of_a_per_space_counter_is_told_from_its_start(tmp_path):
    # the view lists a space's counter only once it is set: its first change used to read
    # "none → 3" for a counter that held 2
    repl, out = repl_on(written(tmp_path, "climb.ludus", PER_SPACE))
    repl.handle("High")
    text = out.getvalue()
    assert "changed: height of High: 2 → 3" in text
    assert "changed: holder of High: none → P1" in text  # a var with no start did hold none


def test_a_big_zone_that_changed_is_said_by_what_came_and_went():
    from ludus.repl.render import view_changes

    pile = [f"{n} of Clubs" for n in range(2, 13)]  # 11 cards: more than a line can show twice
    before = {"zones": {"taken of East": pile, "hand of East": ["Ace of Clubs", "2 of Hearts"]}}
    after = {"zones": {"taken of East": ["King of Hearts", "2 of Hearts"] + pile, "hand of East": ["Ace of Clubs"]}}
    assert view_changes(before, after) == [
        "taken of East: 11 cards → 13 cards; + King of Hearts, 2 of Hearts",
        "hand of East: Ace of Clubs, 2 of Hearts → Ace of Clubs",
    ]
    shuffled = {"zones": {"taken of East": list(reversed(pile)), "hand of East": ["Ace of Clubs", "2 of Hearts"]}}
    assert view_changes(before, shuffled) == ["taken of East: 11 cards → 11 cards; same cards, new order"]
    emptied = {"zones": {"taken of East": [], "hand of East": ["Ace of Clubs", "2 of Hearts"]}}
    assert view_changes(before, emptied) == ["taken of East: 11 cards → 0 cards; - " + ", ".join(pile)]



def test_a_zone_whose_cards_written_twice_make_a_long_line_is_said_by_what_came_and_went():
    from ludus.repl.render import view_changes

    # Votes for Women: a hand of seven long names, one played. Written twice over, the line
    # ran to 300 characters, and the card played was for the reader to find
    hand = ["Frances Willard", "A Vindication of the Rights of Woman", "Frederick Douglass",
            "National Woman’s Rights Convention", "Pioneer Women", "Frances Harper", "Seneca Falls Convention"]
    before = {"zones": {"hand of Suffragist": hand, "discard of Suffragist": []}}
    after = {"zones": {"hand of Suffragist": hand[1:], "discard of Suffragist": hand[:1]}}
    assert view_changes(before, after) == [
        "hand of Suffragist: 7 cards → 6 cards; - Frances Willard",
        "discard of Suffragist: empty → Frances Willard",
    ]
    # a short one is still written whole, its order and all
    short = ["Lamp", "Rope", "Key"]
    assert view_changes({"zones": {"hand": short}}, {"zones": {"hand": short[::-1]}}) == ["hand: Lamp, Rope, Key → Key, Rope, Lamp"]

WOUNDS = '''game "Wounds"
players 2
zone table
zone hand per seat owner only
token Wound
token Shield per seat
card "Lamp"
card "Rope"
action Hurt(c in table):
    label "hurt {c}"
    add 2 Wound to c
action Heal(c in table):
    label "heal {c}"
    remove 1 Wound from c
action Guard:
    label "guard the held card"
    add 1 Shield of actor to card("Rope")
flow:
    move card("Lamp") to table
    move card("Rope") to hand of P2
    repeat 5 times:
        turn P1:
            offer Hurt, Heal, Guard
    end game
'''


def wounds_repl(tmp_path, view="auto"):
    return repl_on(written(tmp_path, "wounds.ludus", WOUNDS), view=view)


def changed_lines(repl, out, line):
    start = len(out.getvalue())
    assert repl.handle(line)
    return [x.split("changed: ", 1)[1] for x in out.getvalue()[start:].splitlines() if x.startswith("  changed: ")]


def test_tokens_laid_on_and_taken_off_a_card_are_said_as_a_change(tmp_path):
    repl, out = wounds_repl(tmp_path)
    assert changed_lines(repl, out, "hurt Lamp") == ["tokens on Lamp: none → Wound ×2"]
    assert changed_lines(repl, out, "heal Lamp") == ["tokens on Lamp: Wound ×2 → Wound"]
    # the last one taken off: the card is still in sight, but the view cannot tell that from a
    # card gone where the seat does not see it, so it says only what it no longer sees
    assert changed_lines(repl, out, "heal Lamp") == ["tokens on Lamp: Wound → none seen"]
    # a token on the card of a hand P1 may not see: on the card's back, not under its name
    assert changed_lines(repl, out, "guard the held card") == ["hand of P2: 1 card → 1 card; card 1: P1 Shield"]


def test_the_designer_is_told_of_tokens_on_every_card(tmp_path):
    repl, out = wounds_repl(tmp_path, view="all")
    assert changed_lines(repl, out, "guard the held card") == ["tokens on Rope: none → P1 Shield"]
    assert changed_lines(repl, out, "hurt Lamp") == ["tokens on Lamp: none → Wound ×2"]
    repl.handle("heal Lamp")
    assert changed_lines(repl, out, "heal Lamp") == ["tokens on Lamp: Wound → none"]


def test_tokens_on_a_space_are_said_with_how_many():
    from ludus.repl.render import view_changes

    before = {"board": {"North": {"tokens": {"Red Follower": 1}}, "South": {}}}
    after = {"board": {"North": {"tokens": {"Red Follower": 2, "Unstable": 1}, "pieces": ["Red Warlord"]},
                       "South": {"tokens": {"Blue Follower": 1}}}}
    assert view_changes(before, after) == [
        "North: tokens Red Follower → tokens Red Follower ×2, Unstable, pieces Red Warlord",
        "South: nothing → tokens Blue Follower",
    ]


SCARS = '''game "Scars"
players 2
zone table
zone hand per seat owner only
card "Lamp"
card "Rope"
card "Coin"
counter wounds per Card
action Hurt(c in table):
    label "hurt {c}"
    increase wounds of c by 1
action Curse:
    label "curse the held card"
    increase wounds of card("Coin") by 2
flow:
    move card("Lamp") to table
    move card("Rope") to table
    move card("Coin") to hand of P2
    repeat 3 times:
        turn P1:
            offer Hurt, Curse
    end game
'''


def scars_repl(tmp_path, view="auto"):
    return repl_on(written(tmp_path, "scars.ludus", SCARS), view=view)


def test_a_counter_kept_per_card_changes_under_the_cards_name(tmp_path):
    repl, out = scars_repl(tmp_path)
    assert changed_lines(repl, out, "hurt Rope") == ["wounds of Rope: 0 → 1"]
    # P2's Coin is out of P1's sight: its value, not its name nor its number
    assert changed_lines(repl, out, "curse the held card") == ["wounds of hidden: 0 → 2"]
    start = len(out.getvalue())
    repl.handle("show wounds")
    assert out.getvalue()[start:].strip() == "wounds: Rope: 1, hidden: (2)"


def test_the_designer_reads_every_per_card_key_by_name(tmp_path):
    repl, out = scars_repl(tmp_path, view="all")
    assert changed_lines(repl, out, "curse the held card") == ["wounds of Coin: 0 → 2"]
    assert changed_lines(repl, out, "hurt Lamp") == ["wounds of Lamp: 0 → 1"]


TALLY = '''game "Tally"
players 2
board field:
    plain Meadow
track heat from 0 to 3 start 0
zone table
token Wound
token Shield per seat
card "Lamp"
flow:
    move card("Lamp") to table
    add 1 Wound to Meadow
    add 2 Shield of P1 to Meadow
    add 1 Wound to space(heat, 2)
    add 2 Wound to space(heat, 3)
    add 1 Wound to card("Lamp")
    turn P1:
        choose n from 0 to 1 "done?"
    end game
'''


def test_tokens_read_alike_wherever_the_repl_writes_them(tmp_path):
    # one wording (render.tokens_text): a count of one unsaid, more as `×2`; on a space, on a
    # track, on a card, and in `show` of a space
    repl, out = repl_on(written(tmp_path, "tally.ludus", TALLY))
    repl.handle("show")
    repl.handle("show Meadow")
    text = out.getvalue()
    assert "×1" not in text
    assert re.search(r"Meadow +P1 Shield ×2, Wound\n", text)
    assert "at 2: Wound   at 3: Wound ×2" in text
    assert "Lamp: Wound\n" in text
    assert "Meadow (plain): P1 Shield ×2, Wound\n" in text


def test_what_a_bots_moves_changed_is_said_after_them():
    from tests.helpers import GAMES

    # Votes for Women, the Opposition a random bot: its event turned Missouri red, and only a
    # look at the whole screen told the Suffragist so
    path = GAMES / "votes-for-women" / "votes-for-women.ludus"
    repl, out = repl_of(path, 2, 0, 140, bots={1: "random"})
    for _ in range(30):
        repl.handle("1")
    text = out.getvalue()
    after = text[text.index("Opposition (bot): play Senator George Vest as an event\n"):].splitlines()
    assert after[1:6] == [
        "  Opposition plays Senator George Vest",
        "  changed: congress: 1 → 0",
        "  changed: hand of Opposition: 5 cards → 4 cards",
        "  changed: discard of Opposition: 2 cards → 3 cards; + Senator George Vest",
        "  changed: MO: tokens Purple → tokens Red",
    ]
    # said as the Suffragist may see them: the bot's hand is counted, never named
    first = text.index("Opposition (bot): organize with Southern Resentment\n")
    assert text[first:].splitlines()[1:3] == ["  changed: hand of Opposition: 7 cards → 6 cards",
                                              "  changed: discard of Opposition: empty → Southern Resentment"]
