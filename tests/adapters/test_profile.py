"""The adapters' scan of random playouts (ludus/adapters/profile.py): a rule that fails in one of
them says which playout, as a replay that meets the failure again."""

from __future__ import annotations

import pytest

from ludus import RuleError
from ludus.adapters import profile
from ludus.replay import ReplayError, load_replay
from tests.adapters.climb import climb_game

# a climb paid for from the third step on, with no money: a random playout that climbs on fails
FAILS_IN_PLAY = climb_game(pay_from=3, roll=True)

FAILS_IN_SETUP = """game "Broke"
players 2
counter money per seat
setup:
    pay 1 money
flow:
    end game
"""


def test_a_rule_that_fails_in_a_scan_playout_says_which_and_gives_its_replay(tmp_path):
    game_file = tmp_path / "fail.ludus"
    game_file.write_text(FAILS_IN_PLAY, encoding="utf-8")
    with pytest.raises(RuleError) as caught:
        profile.scan(game_file)
    message = str(caught.value)
    # the rule's own place first, as before, then the playout: it said neither seed nor moves
    assert message.startswith(f"{game_file}:15:21: error: cannot pay ")
    assert "The adapters' scan met this in random playout 13 of 16, at decision 6 (2 players, seed 12)" in message
    assert caught.value.span is not None and caught.value.span.line == 15
    script = message.split("\n\n", 1)[1]
    assert script.startswith(f"game {game_file.resolve()}\nplayers 2\nseed 12\nchance manual\n\nmove climb\n")
    # pasted into a replay file anywhere, it plays the same moves and fails at its last line
    saved = tmp_path / "elsewhere" / "met.replay"
    saved.parent.mkdir()
    saved.write_text(script + "\n", encoding="utf-8")
    with pytest.raises(ReplayError) as replayed:
        load_replay(saved).run()
    last = len(script.splitlines())
    assert f"met.replay:{last}:" in str(replayed.value)
    assert "broke a rule at" in str(replayed.value) and caught.value.message.split("\n")[0] in str(replayed.value)


def test_a_rule_that_fails_in_the_setup_of_a_scan_playout_says_so(tmp_path):
    game_file = tmp_path / "broke.ludus"
    game_file.write_text(FAILS_IN_SETUP, encoding="utf-8")
    with pytest.raises(RuleError, match=r"met this in the setup of random playout 1 of 16 \(2 players, seed 0\)") as caught:
        profile.scan(game_file)
    assert str(caught.value).endswith("players 2\nseed 0\nchance manual\n")
