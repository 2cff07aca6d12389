"""ludus: tabletop game rules as text, checked, compiled and run.

The whole pipeline, one stage a module:

    text ──parser──▶ Lark tree ──build──▶ nodes ──loader──▶ merged declarations
         ──checker──▶ symbols + diagnostics ──compiler──▶ Game ──Match──▶ play

`load(path)` runs it and returns a Game; `game.new_match(players, seed)` starts a Match.
"""

from .game import Game, analyse, load
from .match import CHANCE, TERMINAL, IllegalAction, Match, MatchError
from .runtime import RuleError
from .source import Diagnostic, LudusError

__all__ = [
    "CHANCE", "TERMINAL", "Diagnostic", "Game", "IllegalAction", "LudusError", "Match", "MatchError",
    "RuleError", "analyse", "load",
]
__version__ = "0.1.0"
