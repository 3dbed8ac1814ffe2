"""The rules versions this engine decides by (H-RULES-VERSION, docs/rules.md "Rules versions").

A game's state carries the version it is played under (`GameState.rules_version`, folded from the
opening and every "OrderGiven"); a rule whose meaning changed asks `plays_by(state, version)`
instead of the engine carrying a copy of older rule modules. Every version in DECIDED_VERSIONS is
decided exactly as it was, so a game recorded under it replays event for event; older logs (of
version 0, or naming none) were decided by rules that changed meaning while they were played.
"""

from __future__ import annotations

from typing import Any

# Raise with every change of what a rule decides from a position and an order, and list the change in
# docs/rules.md ("Rules versions").
RULES_VERSION = 3
DECIDED_VERSIONS: tuple[int, ...] = (1, 2, 3)  # replayed exactly: the engine still decides each of them
# Version 2: the seed (S-INC, S-REINF) wins over three house rules of version 1 — no Mission Card turns on
# Mints, Thebes' extra coin is the faction's own income, and the supply never cuts a reinforcement.
SEED_WINS = 2
# Version 3: H-TAKEBACK — the last order of the game may be taken back while it drew nothing and revealed
# nothing ("OrderTakenBack"), and a sealed winter order may be sealed again until the reveal.
TAKE_BACK = 3
# Version 3: the Choice upgrade of S-EXP-CHOICE may be decided after seeing the first tile (H-CHOICE-STEP).
CHOICE_STEP = 3


def rules_version_of(payload: dict[str, Any]) -> int | None:
    """H-RULES-VERSION: the rules version an opening's or an order's payload names; None for one
    recorded before the log named versions (unknown: the rules changed meaning more than once)."""
    version = payload.get("rules_version")
    return version if isinstance(version, int) and not isinstance(version, bool) else None


def plays_by(version: int | None, since: int) -> bool:
    """Whether a game under rules `version` plays by a rule as changed in version `since`; an unknown
    version (None, 0: before versions were named) plays by the rules of version 1 and before."""
    return version is not None and version >= since
