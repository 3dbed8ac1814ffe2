"""AEGEAPOLIS rules engine: pure Python, deterministic, no Django (facade in progress)."""

from .commands import COMMAND_TYPES
from .events import Event, RuleViolation
from .rng import GameRng
from .scenario import ScenarioError, scenario
from .state import GameState

__all__ = ["COMMAND_TYPES", "Event", "GameRng", "GameState", "RuleViolation", "ScenarioError", "scenario"]
