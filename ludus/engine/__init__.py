"""The engine: a match as plain data, and the machine that runs a compiled game on it.

runtime (the state and the operations rules perform on it), values (run-time checks), ops and vm
(the instruction set and its interpreter), match (legal actions, apply, undo, chance), view (what
one seat may see), display (values and log entries as text), effect (what changed between two
states). The engine knows nothing of how a game was written or compiled.
"""

from .match import CHANCE, TERMINAL, IllegalAction, Match, MatchError
from .runtime import RuleError

__all__ = ["CHANCE", "TERMINAL", "IllegalAction", "Match", "MatchError", "RuleError"]
