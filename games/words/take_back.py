"""H-TAKEBACK in plain words: an order taken back, and a sealed winter order sealed again (others
read only that it was changed, never what it says: the payload comes redacted by engine.event_view)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.words.events import GAME_TELLERS
from games.words.names import ORDER_KIND_NAMES, blanks_text, coins_text, faction_name


def _taken_back(p: dict[str, Any], viewer: str | None) -> str:
    # The kind of order is public (everyone read "gave an order: Recruit"); the lines of the order
    # taken back are left out of "since your last turn" (situation.happenings), so this one says what it was.
    kind = p.get("kind")
    if kind is None:
        if viewer == p["player"]:
            return _("You took back your order.")
        return _("%(player)s took back their order.") % {"player": faction_name(p["player"])}
    values = {"player": faction_name(p["player"]), "order": ORDER_KIND_NAMES.get(kind, kind)}
    if viewer == p["player"]:
        return _("You took back your order: %(order)s.") % values
    return _("%(player)s took back their order: %(order)s.") % values


def _sealed_or_sealed_again(p: dict[str, Any], viewer: str | None) -> str:
    if "supersedes" not in p:
        return GAME_TELLERS["WinterOrderSealed"](p, viewer)  # the first seal's words
    values = {"player": faction_name(p["player"])}
    if "coins" in p:  # the sealer's own order, or any once the game is over (H-END)
        blanks = p.get("blanks", 0)
        values |= {
            "coins": coins_text(p["coins"]),
            "blanks": blanks_text(blanks) if blanks else _("no Blanks"),
        }
        if viewer == p["player"]:
            return (
                _("You changed your sealed winter order: %(coins)s and %(blanks)s; only this one counts.")
                % values
            )
        return _("%(player)s changed their sealed winter order: %(coins)s and %(blanks)s.") % values
    return _("%(player)s changed their sealed order.") % values


TAKE_BACK_TELLERS = {
    "OrderTakenBack": _taken_back,
    "WinterOrderSealed": _sealed_or_sealed_again,
}
