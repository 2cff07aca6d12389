"""What a seat may not see of the others' answers never shows: a bot's face-down pick, the
cards it puts back, in the lines after a move, in `log`, in `undo`; the designer sees all."""

from __future__ import annotations

import functools
import io
import json
import re
from pathlib import Path

import pytest

import ludus
from ludus.engine.display import describe_entry
from ludus.repl.session import Repl
from tests import helpers

ROOT = Path(__file__).resolve().parent.parent.parent
COUP = ROOT / "examples" / "coup.ludus"
FOR_SALE = ROOT / "examples" / "for-sale.ludus"
SUSHI = ROOT / "examples" / "sushi-go.ludus"
CARD = r"(Duke|Assassin|Captain|Ambassador|Contessa)"


pytestmark = pytest.mark.usefixtures("no_home_files")


repl_of = functools.partial(helpers.repl_of, width=120)


def coup_until_blue_exchanges() -> tuple[Repl, io.StringIO]:
    """Coup, seed 2, Blue a random bot: Red takes income and challenges nothing until Blue has
    exchanged and put two cards back into the court deck."""
    repl, out = repl_of(COUP, 2, 2, bots={1: "random"})
    repl.play_bots()
    for _ in range(60):
        backs = [e for e in repl.match.log if e["t"] == "answer" and e["seat"] == 1 and re.fullmatch(CARD, e["label"])]
        if len(backs) >= 2:
            return repl, out
        legal = repl.match.legal_actions()
        assert repl.handle("income" if "income" in legal else "no")
    raise AssertionError("Blue never exchanged")


def test_a_bots_exchange_names_no_card_to_the_other_seat():
    repl, out = coup_until_blue_exchanges()
    text = out.getvalue()
    assert "Blue (bot): exchange (Ambassador)" in text  # the action itself is public
    after = text[text.index("Blue (bot): exchange (Ambassador)"):]
    assert after.count("Blue (bot) chose a card") == 2
    assert not re.search(rf"Blue \(bot\): {CARD}\b", text)


def test_log_hides_the_cards_put_back_from_the_other_seat_not_from_the_designer():
    repl, out = coup_until_blue_exchanges()
    start = len(out.getvalue())
    repl.handle("log 100")
    seen = out.getvalue()[start:]
    assert seen.count("Blue chose a card") == 2
    assert "Red: income" in seen and "Blue: exchange (Ambassador)" in seen
    assert not re.search(rf"Blue: {CARD}\b", seen)
    repl.handle("view all")
    start = len(out.getvalue())
    repl.handle("log 100")
    everything = out.getvalue()[start:]
    assert "chose a card" not in everything
    assert len(re.findall(rf"Blue: {CARD}\b", everything)) == 2


def test_a_loaded_save_still_shows_the_public_moves_and_hides_the_cards(tmp_path):
    repl, out = coup_until_blue_exchanges()
    repl.handle(f"save {tmp_path / 'coup.json'}")
    again, out2 = repl_of(COUP, 2, 2, bots={1: "random"})
    again.handle(f"load {tmp_path / 'coup.json'}")
    start = len(out2.getvalue())
    again.handle("log 100")
    seen = out2.getvalue()[start:]
    assert "Blue: exchange (Ambassador)" in seen  # known again from the moves played again
    assert seen.count("Blue chose a card") == 2 and not re.search(rf"Blue: {CARD}\b", seen)


def unreplayable(path: Path, keep_session: bool = True) -> None:
    """Make a saved match one whose moves do not lead to its position (as a program's save of a
    position it put in has no moves): only the file can say who may see each answer."""
    data = json.loads(path.read_text(encoding="utf-8"))
    data["moves"] = []
    if not keep_session:
        del data["session"]
    path.write_text(json.dumps(data), encoding="utf-8")


def test_a_save_whose_moves_do_not_replay_shows_its_moves_as_they_were_shown(tmp_path):
    repl, out = coup_until_blue_exchanges()
    start = len(out.getvalue())
    repl.handle("log 100")
    before = out.getvalue()[start:]
    repl.handle(f"save {tmp_path / 'coup.json'}")
    unreplayable(tmp_path / "coup.json")
    again, out2 = repl_of(COUP, 2, 2, bots={1: "random"})
    again.handle(f"load {tmp_path / 'coup.json'}")
    assert "`export` and `reload` are off" in out2.getvalue() and "not known" not in out2.getvalue()
    start = len(out2.getvalue())
    again.handle("log 100")
    seen = out2.getvalue()[start:]
    # the public action as it was, the cards put back hidden as they were: not "took an action"
    assert seen == before and "Blue: exchange (Ambassador)" in seen and seen.count("Blue chose a card") == 2
    assert "answered" not in seen and "took an action" not in seen
    # saved again from there, it still knows
    again.handle(f"save {tmp_path / 'again.json'}")
    third, out3 = repl_of(COUP, 2, 2, bots={1: "random"})
    third.handle(f"load {tmp_path / 'again.json'}")
    start = len(out3.getvalue())
    third.handle("log 100")
    assert out3.getvalue()[start:] == before


def test_a_save_that_does_not_say_who_may_see_its_moves_says_so_on_loading(tmp_path):
    repl, _out = coup_until_blue_exchanges()
    repl.handle(f"save {tmp_path / 'coup.json'}")
    unreplayable(tmp_path / "coup.json", keep_session=False)
    again, out = repl_of(COUP, 2, 2, bots={1: "random"})
    again.handle(f"load {tmp_path / 'coup.json'}")
    moves = sum(1 for e in again.match.log if e["t"] in ("answer", "action") and e.get("seat") is not None)
    assert (f"the file does not say who may see {moves} of its moves, so each seat but the one that made a move "
            "is told only that it was made") in out.getvalue()
    start = len(out.getvalue())
    again.handle("log 100")
    seen = out.getvalue()[start:]
    assert "Blue took an action" in seen and "Blue answered" in seen and not re.search(rf"Blue: {CARD}\b", seen)
    # said as what it is: not a move the rules hid from this seat, but one the file says nothing of
    assert "Blue answered before the match was saved (not shown: the save does not say who may see it)" in seen
    assert "Blue took an action before the match was saved (not shown: the save does not say who may see it)" in seen


@pytest.mark.parametrize("sight", [
    "many", [[0]], [["0", None]], [[10 ** 6, None]], [[0, [0], "chose a card"]], [[-1, None]],
])
def test_a_damaged_record_of_who_may_see_the_moves_is_refused(tmp_path, sight):
    repl, _out = coup_until_blue_exchanges()
    repl.handle(f"save {tmp_path / 'coup.json'}")
    data = json.loads((tmp_path / "coup.json").read_text(encoding="utf-8"))
    if sight == [[0, [0], "chose a card"]]:  # the first entry of the log is no seat's move
        assert data["log"][0].get("seat") is None
    data["session"]["sight"] = sight
    (tmp_path / "coup.json").write_text(json.dumps(data), encoding="utf-8")
    again, out = repl_of(COUP, 2, 2, bots={1: "random"})
    before = again.match.to_json()
    again.handle(f"load {tmp_path / 'coup.json'}")
    assert f"error: cannot load '{tmp_path / 'coup.json'}': the saved session notes are damaged" in out.getvalue()
    assert again.match.to_json() == before


def test_undo_does_not_name_the_bots_hidden_cards():
    repl, out = coup_until_blue_exchanges()
    start = len(out.getvalue())
    while "chose a card" not in out.getvalue()[start:] and repl.match.history:
        repl.handle("undo")
    undone = [line for line in out.getvalue()[start:].splitlines() if line.startswith("undid:")]
    assert undone and any("Blue chose a card" in line for line in undone)
    # the action and the challenge's question name the card Blue claimed, which every seat heard
    public = ("(Ambassador)", "claim to the Ambassador?")
    assert not any(re.search(rf"\b{CARD}\b", functools.reduce(lambda t, p: t.replace(p, ""), public, line))
                   for line in undone)


def test_for_sale_a_bots_face_down_property_is_not_named():
    repl, out = repl_of(FOR_SALE, 3, 1, bots={1: "random", 2: "random"})
    repl.play_bots()
    for _ in range(200):
        if repl.match.view(None)["zones"]["sold"]:
            break
        legal = repl.match.legal_actions()
        repl.handle("pass" if "pass" in legal else "1")
    text = out.getvalue()
    # Blue sells before Green: its pick is face down until Green's, which shows every pick
    assert "Blue (bot) chose a card" in text
    assert not re.search(r"Blue \(bot\): Property \d+", text)
    assert "Green (bot): Property" in text


def sushi_after_red_picks() -> tuple[Repl, io.StringIO]:
    """Sushi Go for two people at one screen (hot seat): Red has picked, Blue decides."""
    repl, out = repl_of(SUSHI, 2, 4)
    repl.handle("1")
    assert repl.match.current == 1 and "keep" in repl.match.pending["prompt"]
    return repl, out


def test_hot_seat_log_hides_the_pick_of_the_seat_that_left_the_screen():
    repl, out = sushi_after_red_picks()
    red_pick = next(e["label"] for e in reversed(repl.match.log) if e["t"] == "answer" and e["seat"] == 0)
    start = len(out.getvalue())
    repl.handle("log")
    seen = out.getvalue()[start:]
    assert "Red chose a card" in seen and f"Red: {red_pick}" not in seen
    repl.handle("view Red")
    start = len(out.getvalue())
    repl.handle("log")
    assert f"Red: {red_pick}" in out.getvalue()[start:]  # Red sees its own pick


def test_hot_seat_undo_of_the_other_seats_pick_does_not_name_it():
    repl, out = sushi_after_red_picks()
    start = len(out.getvalue())
    repl.handle("undo")
    said = out.getvalue()[start:].splitlines()[0]
    assert said == "undid: Red chose a card (Which card do you keep, Red?)"
    start = len(out.getvalue())
    repl.handle("redo")
    assert out.getvalue()[start:].splitlines()[0] == "redid: Red chose a card (Which card do you keep, Red?)"


# ── the match keeps who may see each answer ──


def test_match_says_who_may_see_an_answer_and_forgets_it_on_undo_and_loading():
    game = ludus.load(SUSHI)
    match = game.new_match(2, seed=4)
    n = len(match.log)
    match.apply(0)  # Red keeps a card, face down
    assert match.sight == {}  # apply works nothing out: a simulation's loop pays nothing for it
    entry = match.log[n]
    assert entry["t"] == "answer" and entry["seat"] == 0
    assert match.hidden_answer(n, 1) == "chose a card"
    assert match.hidden_answer(n, 0) is None and match.hidden_answer(n, None) is None
    asked = " (Which card do you keep, Red?)"  # the question goes with the answer, hidden or not
    assert describe_entry(match, entry, actions=True, viewer=1) == "Red chose a card" + asked
    assert describe_entry(match, entry, actions=True, viewer=None) == f"Red: {entry['label']}" + asked
    assert describe_entry(match, entry, actions=True, viewer=1, index=n) == "Red chose a card" + asked
    assert match.clone().hidden_answer(n, 1) == "chose a card"
    loaded = type(match).from_json(game, match.to_json())
    # not known: hidden from the others, saying why
    assert loaded.hidden_answer(n, 1) == "answered before the match was saved (not shown: the save does not say who may see it)"
    assert loaded.clone().hidden_answer(n, 1) == loaded.hidden_answer(n, 1)
    m = len(loaded.log)
    loaded.apply(0)  # a move after loading: its history says who may see it
    entry = loaded.log[m]
    assert entry["t"] == "answer" and loaded.hidden_answer(m, 1 - entry["seat"]) in (None, "chose a card")
    match.undo()
    assert n not in match.sight
