"""Events and rule errors: the engine's output vocabulary.

An Event is a fact that happened (`type` in PascalCase, `payload` plain JSON data).
Every random outcome (die, coin draw, tile draw, seat order) is written into the
payload, so that folding events never needs randomness.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Event:
    type: str
    payload: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "payload": self.payload}


class RuleViolation(Exception):
    """An order the rules forbid. `rule` is the rule ID; the message is fit to show a player.

    `params` carries the values interpolated into the message so the web layer can
    translate `message_template` and re-apply them (English source strings).
    """

    def __init__(self, rule: str, message_template: str, **params: Any) -> None:
        self.rule = rule
        self.message_template = message_template
        self.params = params
        super().__init__(f"{message_template % params if params else message_template} ({rule})")

    @property
    def message(self) -> str:
        return str(self)
