"""The whole pipeline in one place: text to checked declarations (`analyse`), and on to a Game (`load`).

    text ──language.parser──▶ Lark tree ──language.build──▶ nodes ──language.loader──▶ declarations
         ──language.checker──▶ symbols + diagnostics ──compiler──▶ Game ──engine.Match──▶ play
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from .compiler import Game, compile_game
from .language.checker import Checked, check
from .language.loader import load_declarations
from .language.source import LudusError, Sources


def analyse(path: str | Path) -> tuple[list, Checked | None, Sources]:
    """Load and check a game without compiling it: every diagnostic, errors and warnings."""
    items, loader = load_declarations(path)
    diags = sorted(loader.diagnostics, key=lambda d: d.sort_key)
    if any(d.severity == "error" for d in diags):
        return diags, None, loader.sources
    checked = check(items, loader.sources)
    return sorted(diags + checked.diagnostics, key=lambda d: d.sort_key), checked, loader.sources


def load(path: str | Path) -> Game:
    """Parse, check and compile a .ludus file; bad input raises LudusError with every diagnostic."""
    diags, checked, sources = analyse(path)
    errors = [d for d in diags if d.severity == "error"]
    if errors or checked is None:
        raise LudusError(errors, sources)
    texts = "".join(sources.texts[p] for p in sorted(sources.texts))
    fingerprint = hashlib.sha256(texts.encode()).hexdigest()[:16]
    game = compile_game(checked, str(path), fingerprint)
    game.sources = sources
    game.warnings = [d for d in diags if d.severity == "warning"]
    return game
