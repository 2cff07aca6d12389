"""A replay of a `choose ... blind`: its moves are places, played again as the places they were."""

from __future__ import annotations

from ludus.replay import load_replay
from tests.engine.test_blind_choose import GAME


def test_a_replay_plays_the_places_again(tmp_path):
    (tmp_path / "blind.ludus").write_text(GAME, encoding="utf-8")
    path = tmp_path / "t.replay"
    path.write_text('game blind.ludus\nplayers 3\nseed 2\n2\nexpect taken == card("Skull")\n'
                    "2\n3\nexpect size(removed) == 2 and size(pile) == 1\n", encoding="utf-8")
    lines: list[str] = []
    match = load_replay(path).run(lines.append)
    assert any("expect size(removed) == 2 and size(pile) == 1: ok" in line for line in lines)
    assert match.is_over and match.moves == ["2", "2", "3"]
