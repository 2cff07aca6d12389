"""Replay files: scripted matches with forced chance and checks on the state (`ludus replay`)."""

from .script import Note, Replay, ReplayError, export, load_replay, move_line, parse, result_line

__all__ = ["Note", "Replay", "ReplayError", "export", "load_replay", "move_line", "parse", "result_line"]
