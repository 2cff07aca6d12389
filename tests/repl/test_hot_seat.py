"""Hot seat play: several seats played by people at one screen (`view auto`). What is printed
between the mover's screen and the next seat's is read by both, so its `changed:` lines say each
change as both may see it (the view of the two seats together), and a refused `redo` does not
name the other seat's hidden pick."""

from __future__ import annotations

import functools
import io
import re
from pathlib import Path

import pytest

import ludus
from ludus.repl.render import view_changes
from ludus.repl.session import Repl
from tests import helpers

ROOT = Path(__file__).resolve().parent.parent.parent
MARKET = ROOT / "examples" / "market-town.ludus"
SUSHI = ROOT / "examples" / "sushi-go.ludus"
FOR_SALE = ROOT / "examples" / "for-sale.ludus"
HANABI = ROOT / "examples" / "hanabi.ludus"


pytestmark = pytest.mark.usefixtures("no_home_files")


repl_of = functools.partial(helpers.repl_of, width=200)


def changed_after(repl: Repl, out: io.StringIO, line: str) -> list[str]:
    """The `changed:` lines `line` prints, without their prefix."""
    start = len(out.getvalue())
    assert repl.handle(line)
    return [x.split("changed: ", 1)[1] for x in out.getvalue()[start:].splitlines() if x.startswith("  changed: ")]


def printed_after(repl: Repl, out: io.StringIO, line: str) -> str:
    """What `line` prints before the next screen is drawn (the lines both seats read)."""
    start = len(out.getvalue())
    assert repl.handle(line)
    text = out.getvalue()[start:]
    return text[:text.index(repl.game.title + "  (")] if repl.game.title + "  (" in text else text


# ── Sushi Go: a pick is face down, and hands are owner only ──


def test_hot_seat_changes_do_not_show_the_movers_pick_or_hand_to_the_next_seat():
    repl, out = repl_of(SUSHI, 2, 4)
    hand = repl.match.view(0)["zones"]["hand of Red"]
    pick = repl.match.legal_actions()[0]
    lines = changed_after(repl, out, "1")
    assert repl.match.current == 1  # Blue's screen comes next
    # Red's hand and pick read as Blue may see them: counted
    assert "hand of Red: 10 cards → 9 cards" in lines
    assert "picked of Red: 0 cards → 1 card" in lines
    assert not any(pick in x or any(card in x for card in hand) for x in lines)


def test_the_mover_still_reads_its_own_cards_when_the_screen_stays_its_own():
    repl, out = repl_of(SUSHI, 2, 4, view=0)  # `view Red`: one person, one seat
    pick = repl.match.legal_actions()[0]
    lines = changed_after(repl, out, "1")
    assert f"picked of Red: empty → {pick}" in lines


def test_hot_seat_changes_say_what_both_see_of_the_next_seats_own_cards():
    repl, out = repl_of(SUSHI, 2, 4)
    repl.handle("1")
    blue_hand = repl.match.view(1)["zones"]["hand of Blue"]
    # Blue picks its first card, `1.`: a bare `1` is refused here, as Blue's hand holds `Maki Roll (1)`
    lines = changed_after(repl, out, "1.")  # Blue picks: both picks are shown, the hands pass on
    assert repl.match.current == 0
    assert any(x.startswith("table of Red: empty → ") for x in lines)      # face up now: named
    assert any(x.startswith("table of Blue: empty → ") for x in lines)
    hand_lines = [x for x in lines if x.startswith("hand of")]
    assert hand_lines and all(re.fullmatch(r"hand of \w+: \d+ cards? → \d+ cards?", x) for x in hand_lines)
    assert not any(card in x for x in hand_lines for card in blue_hand)


def test_for_sale_a_face_down_sale_is_counted_between_two_screens():
    repl, out = repl_of(FOR_SALE, 3, 1)
    for _ in range(400):  # bid until the selling rounds begin: every seat picks a property face down
        if "sell" in repl.match.pending["prompt"]:
            break
        legal = repl.match.legal_actions()
        repl.handle("pass" if "pass" in legal else "1")
    seat = repl.match.current
    name = repl.match.seat_names()[seat]
    pick = repl.match.legal_actions()[0]
    lines = changed_after(repl, out, "1")
    assert repl.match.current != seat
    assert f"picked of {name}: 0 cards → 1 card" in lines
    assert not any(pick in x for x in lines)


# ── Market Town: a public change that each seat reads otherwise is kept, counted ──


def test_hot_seat_keeps_a_change_that_reads_otherwise_for_each_seat():
    repl, out = repl_of(MARKET, 2, 3)
    repl.handle("buy nothing")
    text = printed_after(repl, out, "build nothing")  # Amber ends her turn; Basil draws
    basil_hand = repl.match.view(1)["zones"]["hand of Basil"]
    assert repl.match.current == 1 and basil_hand  # Basil holds named cards on his own screen
    # Amber reads a count, Basil his cards: both read the count, and the line is not dropped
    assert "changed: hand of Basil: 0 cards → 3 cards" in text
    assert "changed: hand of Amber: 3 cards → 0 cards" in text
    assert "changed: coins of Basil: 0 → 3" in text
    assert not re.search(r"hand of Basil: .*(Copper Coin|Tax Collector|Street Musician)", text)
    # the designer reads every card
    repl2, out2 = repl_of(MARKET, 2, 3, view="all")
    repl2.handle("buy nothing")
    text2 = printed_after(repl2, out2, "build nothing")
    assert "changed: hand of Basil: empty → " in text2


# ── Hanabi: the owner must not see its own hand; the others do ──


def test_hanabi_hot_seat_does_not_show_the_player_the_card_it_drew():
    repl, out = repl_of(HANABI, 2, 1)
    before = repl.match.clone()
    text = printed_after(repl, out, "play card 1")   # P1 plays a card and draws another
    assert repl.match.current == 1
    drawn = repl.match.view(None)["zones"]["hand of P1"]
    # P2, whose screen comes next, would read P1's new hand by its cards: P1 is still there
    alone = view_changes(before.view(1), repl.match.view(1))
    assert any(x.startswith("hand of P1: ") and drawn[-1] in x for x in alone)
    assert repl.match.view(0)["zones"]["hand of P1"]["count"] == 5
    # what both read says the play and the draw (from the deck's count), never the card drawn
    assert "  P1 plays " in text and "changed: deck: 40 cards → 39 cards" in text
    assert not re.search(r"hand of P1: .*(Red|Yellow|Green|Blue|White) \d", text)


def test_hanabi_a_clue_both_may_see_is_said_between_the_screens():
    repl, out = repl_of(HANABI, 2, 1)
    lines = changed_after(repl, out, "tell P2 their yellow cards")
    assert "clues: 8 → 7" in lines
    # the marks on P2's cards: P2 sees them on its hand, P1 on the cards it sees
    assert "hand of P2: 5 cards → 5 cards; card 4: ToldColour yellow" in lines


# ── the view of several seats ──


def test_a_view_of_two_seats_shows_each_thing_as_the_one_that_sees_least_of_it():
    match = ludus.load(HANABI).new_match(2, seed=1)
    both = match.view([0, 1])
    assert both["zones"]["hand of P1"] == match.view(0)["zones"]["hand of P1"]   # counted: P1 may not look
    assert both["zones"]["hand of P2"] == match.view(1)["zones"]["hand of P2"]
    assert both["zones"]["discard"] == match.view(None)["zones"]["discard"]
    assert match.view((1, 1)) == match.view(1) | {"seat": "P2"}
    sushi = ludus.load(SUSHI).new_match(2, seed=4)
    assert sushi.view((0, 1))["zones"]["hand of Red"] == {"count": 10}
    assert sushi.view((0, 1))["zones"]["hand of Blue"] == {"count": 10}
    assert sushi.view((0, 1))["decision"].get("options") is None   # Red's options: not for Blue
    assert sushi.view((0,))["decision"]["options"] == sushi.legal_actions()
    with pytest.raises(ValueError, match="one seat at least"):
        sushi.view([])
    with pytest.raises(ValueError, match="a seat of this match"):
        sushi.view([0, 2])


# ── redo refused ──


def test_a_refused_redo_does_not_name_the_other_seats_pick():
    repl, out = repl_of(SUSHI, 2, 4)
    pick = repl.match.legal_actions()[0]
    repl.handle("1")           # Red picks, face down; Blue's screen
    repl.handle("undo")        # back to Red's screen
    repl.handle("bot Red random")   # a bot picks for Red: the match moves on; Blue's screen
    repl.handle("bot Red off")
    assert repl.match.current == 1 and pick not in repl.match.legal_actions()
    start = len(out.getvalue())
    repl.handle("redo")
    said = out.getvalue()[start:]
    assert said.startswith("error: cannot redo the move where Red chose a card: it is not a legal move now; "
                           "the match has moved on since it was taken back")
    assert pick not in said
    # Red's own screen names it
    repl, out = repl_of(SUSHI, 2, 4, view=0)
    repl.handle("1")
    repl.handle("undo")
    repl.handle("bot Red random")
    repl.handle("bot Red off")
    start = len(out.getvalue())
    repl.handle("redo")
    assert out.getvalue()[start:].startswith(f"error: cannot redo '{pick}': it is not a legal move now")


# ── handing the screen over, at the keyboard ──

LOVE = ROOT / "examples" / "love-letter.ludus"
CONNECT = ROOT / "examples" / "connect-four.ludus"


def keyboard(repl: Repl, out: io.StringIO, lines: list[str]) -> list[tuple[str, int]]:
    """Run `repl` on `lines` as a session typed at the keyboard reads them; returns each prompt
    with how much had been printed when it was asked."""
    asked, left = [], iter(lines)

    def read(prompt: str) -> str:
        asked.append((prompt, len(out.getvalue())))
        try:
            return next(left)
        except StopIteration:
            raise EOFError from None

    repl.run(read)
    return asked


def test_at_the_keyboard_the_screen_is_handed_over_before_the_next_seat_sees_its_hand():
    # Love Letter, Red plays a Priest on Blue: Blue's screen comes next, with Blue's hand on it,
    # while Red is still at the keyboard
    repl, out = repl_of(LOVE, 2, 5, handover=True)
    asked = keyboard(repl, out, ["1", "1", "", "1"])  # Blue plays its Countess
    prompts = [p for p, _ in asked]
    assert prompts[:4] == ["Red> ", "Red> ", "Blue plays next: pass the screen, then press Enter (`view all` skips this) ", "Blue> "]
    before, after = out.getvalue()[:asked[2][1]], out.getvalue()[asked[2][1]:asked[3][1]]
    assert repl.match.moves[:2] == ["play Priest", "Blue"]  # and Blue holds a Countess and a Baron
    # nothing of Blue's screen is drawn before the screen is handed over (Red's screen is) ...
    assert "as Red sees it" in before and "hand of Red    Baron" in before
    assert "as Blue sees it" not in before and "Countess" not in before
    # ... and once it is, what happened is said again, then Blue's screen
    assert after.startswith("  showed a card to Red\n  changed: deck: 9 cards → 8 cards\n")
    assert "as Blue sees it" in after and "hand of Blue   Countess, Baron" in after
    assert prompts[2].strip() in (ROOT / "docs" / "repl.md").read_text(encoding="utf-8")  # as the docs quote it
    # Blue's move hands it back to Red the same way
    assert prompts[4].startswith("Red plays next: pass the screen")


def test_a_line_typed_at_the_hand_over_is_not_taken_as_a_move():
    repl, out = repl_of(LOVE, 2, 5, handover=True)
    keyboard(repl, out, ["1", "1", "2"])
    assert repl.match.current == 1 and len(repl.match.moves) == 2  # Blue's '2' was not played
    assert "not taken: '2' was typed before Blue's screen was drawn" in out.getvalue()


def test_no_hand_over_where_the_seats_see_the_same_table_or_in_a_script():
    # Connect Four hides nothing: the screen just turns
    repl, out = repl_of(CONNECT, 2, 0, handover=True)
    assert [p for p, _ in keyboard(repl, out, ["1", "1"])] == ["Red> ", "Yellow> ", "Red> "]
    # a script (or pipe) never pauses: its input is not a person at the screen
    repl, out = repl_of(LOVE, 2, 5)
    assert [p for p, _ in keyboard(repl, out, ["1", "1", "1"])] == ["Red> ", "Red> ", "Blue> ", "Red> "]
    # nor does one person's view, `view Red`, or the designer's
    repl, out = repl_of(LOVE, 2, 5, handover=True, view="all")
    assert [p for p, _ in keyboard(repl, out, ["1", "1", "2"])] == ["Red> ", "Red> ", "Blue> ", "Blue> "]


def test_the_hand_over_clears_the_terminals_scrollback_too():
    # clearing the screen alone leaves the last seat's hand a scroll away from the next person
    repl, out = repl_of(LOVE, 2, 5, terminal=True, handover=True)
    asked = keyboard(repl, out, ["1", "1", "", "1"])
    assert asked[2][0].startswith("Blue plays next: pass the screen")
    handed = out.getvalue()[asked[2][1]:asked[3][1]]
    assert handed.startswith("\x1b[2J\x1b[H\x1b[3J")  # the screen, then what scrolled off it
    assert "hand of Blue   Countess, Baron" in handed
    shown = out.getvalue()[:asked[2][1]]  # Red's screen, before the hand-over
    assert "as Red sees it" in shown and "Countess" not in shown
    # a pipe or a file is not a terminal: no control codes at all, though the screen is handed over
    repl, plain = repl_of(LOVE, 2, 5, handover=True)
    asked = keyboard(repl, plain, ["1", "1", "", "1"])
    assert asked[2][0].startswith("Blue plays next: pass the screen")
    assert "hand of Blue   Countess, Baron" in plain.getvalue()[asked[2][1]:asked[3][1]]
    assert "\x1b" not in plain.getvalue()
