"""ludus: tabletop game rules as text, checked, compiled and run.

The pipeline is `pipeline.load`; each stage is a subpackage, and imports point one way:

    language ──▶ engine ──▶ compiler ──▶ pipeline ──▶ front ends (testing, simulation, replay, repl, cli)

`load(path)` returns a Game; `game.new_match(players, seed)` starts a Match.
"""

from .compiler import Game
from .engine import CHANCE, TERMINAL, IllegalAction, Match, MatchError, RuleError
from .language.source import Diagnostic, LudusError
from .pipeline import analyse, load

__all__ = [
    "CHANCE", "TERMINAL", "Diagnostic", "Game", "IllegalAction", "LudusError", "Match", "MatchError",
    "RuleError", "analyse", "load",
]
__version__ = "0.1.0"
