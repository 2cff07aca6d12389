"""Compilation: a checked game becomes a `Game`, its expressions closures and its blocks
instruction lists for the engine's VM. `probe` compiles one expression or statement against a
match, for the REPL, replays and tests."""

from .game import Game, compile_game

__all__ = ["Game", "compile_game"]
