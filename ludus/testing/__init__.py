"""Testing games: positions built from text, effect reports, `test` blocks in `.ludus` files, and
the pytest plugin that collects them and keeps their effects as syrupy snapshots."""

from .position import Position, TestError, first_offers

__all__ = ["Position", "TestError", "first_offers"]
