"""The REPL's log names to a seat the card another seat played face up, though the same move swept it into
a pile no one looks through (the last card of a trick): the seat saw it go by."""

from __future__ import annotations

import pytest

from tests.engine.test_seen_in_passing import SOURCE
from tests.helpers import game_from_text, repl_on

pytestmark = pytest.mark.usefixtures("no_home_files")


def test_the_last_card_of_a_trick_is_named_in_the_log_and_a_discard_is_not(tmp_path):
    game = game_from_text(tmp_path, SOURCE)
    repl, out = repl_on(game.new_match(3, seed=1), tmp_path / "game.ludus", 120)
    for label in ("Play", "Play", "Play", "Discard", "Discard"):
        repl.handle(str(next(i for i, o in enumerate(repl.match.legal_actions(), 1) if o.startswith(label))))
    repl.handle("view North")
    start = len(out.getvalue())
    repl.handle("log 20")
    seen = out.getvalue()[start:]
    played = [e["label"] for e in repl.match.log if e["t"] == "action"]
    assert [f"{who}: {label}" in seen for who, label in zip(("North", "East", "South"), played, strict=False)] == [True] * 3
    assert "East took the action Discard" in seen and "North: Discard" in seen
