"""What the player page shows first (docs/architecture.md, "The player page"): the deadline as a
countdown, the player's own supplies in the status bar, the standings one tap away (linked to every
winter's scoring once a winter has been scored) and the facts of every Polis for the Polis panel
(templates/games/player.html). Reads, never decides."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from games.board.polis_facts import polis_rows
from games.engine.data import TILES
from games.models import Game, Seat
from games.reading.scoreboard import any_winter_scored
from games.reading.situation import PlayerScreen
from games.words.clock import clock_of
from games.words.countdown import countdown_patterns, countdown_text
from games.words.names import coins_text, faction_name


def page_context(seat: Seat, screen: PlayerScreen) -> dict[str, Any]:
    """The first screen's facts for `seat`: its countdown, its own supplies (H-SCREEN: its own coins
    only), the standings (VP, Poleis, Mints per faction) and the Poleis' facts (H-BOARD)."""
    return {
        **countdown(seat),
        "my_supplies": own_supplies(screen.view, seat.faction),
        "standings": standings(screen.view),
        # S-WINTER: the standings link to every winter's table only once there is one to read.
        "winters_scored": any_winter_scored(seat.game),
        "poleis": polis_rows(screen.view),
    }


def countdown(seat: Seat) -> dict[str, Any]:
    """The time left until the seat's deadline ("in 1 day 3 h") and the deadline itself."""
    clock = clock_of(seat.game, seat.faction)
    if seat.game.status == Game.Status.ENDED or clock is None or clock.deadline is None:
        return {}
    now = timezone.now()
    return {
        "countdown": countdown_text(clock.deadline, now),
        "deadline_at": clock.deadline,
        "countdown_now": now,  # the server's time the text was written at: the script ticks on from it
        "countdown_patterns": countdown_patterns(),
    }


def own_supplies(view: dict[str, Any], faction: str) -> dict[str, Any]:
    """`faction`'s AP, FP, Blanks, VP and coins behind its screen, from its own view (H-SCREEN)."""
    me = view.get("players", {}).get(faction, {})
    coins = me.get("coins_behind_screen")
    return {
        "ap": me.get("ap", 0),
        "fp": me.get("fp", 0),
        "blanks": me.get("blanks", 0),
        "vp": me.get("vp", 0),
        "coins": coins_text(coins) if isinstance(coins, dict) else "",
    }


def standings(view: dict[str, Any]) -> list[dict[str, Any]]:
    """Each faction's VP, Poleis held and Mints held (H-CONTROL, H-MINT), the most VP first."""
    board = view.get("board", {}).values()
    rows = []
    for faction, player in view.get("players", {}).items():
        held = [p for p in board if p.get("owner") == faction]
        rows.append(
            {
                "faction": faction,
                "faction_name": faction_name(faction),
                "vp": player.get("vp", 0),
                "poleis": len(held),
                "mints": sum(1 for p in held if TILES[p["tile_id"]].mint),
            }
        )
    return sorted(rows, key=lambda row: -row["vp"])
