"""Simulation: games between bots, one process or many, summarised per bot."""

from .arena import EntryResult, GameSummary, SimulationError, play_game, seat_of
from .local import EntrySummary, Summary, check_bots, simulate, summarise

__all__ = [
    "EntryResult",
    "EntrySummary",
    "GameSummary",
    "SimulationError",
    "Summary",
    "check_bots",
    "play_game",
    "seat_of",
    "simulate",
    "summarise",
]
