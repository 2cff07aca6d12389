"""Shared test helpers: paths and small game-building utilities."""

from __future__ import annotations

from pathlib import Path

import ludus

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
GAMES = ROOT / "games"


def game_from_text(tmp_path: Path, text: str, name: str = "game.ludus") -> ludus.Game:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return ludus.load(path)


def play_random(match, rng, limit: int = 5000) -> int:
    steps = 0
    while not match.is_over and steps < limit:
        match.apply(rng.choice(match.legal_actions()))
        steps += 1
    return steps
