"""Simulation: many seeded matches played by bots, summed up in a report (`ludus simulate`)."""

from .playout import SimReport, random_playout, simulate

__all__ = ["SimReport", "random_playout", "simulate"]
