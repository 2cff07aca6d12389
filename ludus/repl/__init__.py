"""The REPL: play or step through a match from any seat (`ludus play`)."""

from .session import Repl, ReplCompleter, TrimmedLines, history_path, plain_reader, prompt_reader

__all__ = ["Repl", "ReplCompleter", "TrimmedLines", "history_path", "plain_reader", "prompt_reader"]
