"""A line of what happened, as the pages and the emails show it (narration.describe's answer).

Plain words, and what a line of a special kind carries: a battle's rounds (battle.ToldBattle), a
scored winter's ranking (winter_words.ToldScoring). Every line answers a template's questions
(`line.rounds`, `line.scoring`): Django looks a missing attribute up as a key, an attribute, in
dir() and as a list index before it gives up, ~23 µs a line against ~6 µs when the attribute is
there (measured rendering 20 lines, the emails' _happenings.html loop); a turn email asked that of
~40 plain lines, ~0.4 ms of the ~7 ms a worker spends on it.
"""

from __future__ import annotations

from typing import Any


class Told(str):
    """One line of what happened: a str, and no battle or scoring unless a subclass says so."""

    scoring = False
    rounds: tuple[Any, ...] = ()
