"""An order's preview in words, in the reader's language (docs/order-loop.md "Previews").

"2 FP; 3 phalanxes to F3, 1 phalanx to G5; battles at G5 then F3": the cost first, then what the
order does, from the engine's judgement (games/reading/previews.py). Nothing here decides a rule.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.words.names import SOURCE_NAMES, units_text
from games.words.orders import command_label, violation_text


def _then(spaces: tuple[str, ...]) -> str:
    return _(" then ").join(spaces)


def _what(d: dict[str, Any], battles: tuple[str, ...], conquests: tuple[str, ...]) -> str:
    """What the order does, in a few words (S-MOVE, S-EXP, H-ACTIONS)."""
    kind = d["kind"]
    if kind == "move":
        parts = ["; ".join(_("%(units)s to %(space)s") % {"units": units_text(x), "space": x["space"]}
                           for x in d["destinations"])]  # fmt: skip
        if battles:
            parts.append(_("battles at %(spaces)s") % {"spaces": _then(battles)})
        if conquests:
            parts.append(_("takes %(spaces)s without a battle") % {"spaces": ", ".join(conquests)})
        return "; ".join(parts)
    if kind == "expand":
        source = SOURCE_NAMES.get(d["source"], d["source"])
        text = _("a tile from %(source)s becomes a neutral Polis on %(space)s, to conquer by Move") % {
            "source": source,
            "space": d["space"],
        }
        if d.get("second_source"):
            text += _("; you choose between two tiles")
        if d.get("choice_step"):
            text += _("; you see the first tile, then keep it or pay for a second")
        if d.get("link_from"):
            text += _("; a trade link from %(space)s") % {"space": d["link_from"]}
        return text
    if kind == "recruit":
        text = ngettext("%(n)d phalanx in %(space)s", "%(n)d phalanxes in %(space)s", d["phalanxes"]) % {
            "n": d["phalanxes"],
            "space": d["space"],
        }
        if d.get("navigators"):
            text += ngettext(" and %(n)d Navigator", " and %(n)d Navigators", d["navigators"]) % {
                "n": d["navigators"]
            }
        return text
    if kind == "fortify":
        return _("one more fortification on %(space)s") % {"space": d["space"]}
    if kind == "pass":
        return _("your turn ends")
    return ""


def preview_text(preview: Any) -> str:
    """The preview of games/reading/previews.py's OrderPreview, in words: cost, then effect."""
    d = preview.command.to_dict()
    cost = preview.cost
    spent = (
        _("%(cost)d %(unit)s (you have %(have)d)")
        % {"cost": cost[0], "unit": cost[1], "have": preview.supply}
        if cost
        else _("no AP or FP")
    )
    if d.get("blanks") and d["kind"] != "commit_coins":
        spent += ngettext(", %(n)d of them in Blanks", ", %(n)d of them in Blanks", d["blanks"]) % {
            "n": d["blanks"]
        }
    what = _what(d, preview.battles, preview.conquests) or command_label(preview.command)
    if preview.more_for_the_same:
        # H-FACTION: the cost rounds up, so the player reads why 1 phalanx costs a whole AP here.
        what += ngettext(
            " (1 AP recruits %(per_ap)d phalanxes here, H-FACTION: %(n)d more costs no more AP)",
            " (1 AP recruits %(per_ap)d phalanxes here, H-FACTION: %(n)d more cost no more AP)",
            preview.more_for_the_same,
        ) % {"per_ap": preview.per_ap, "n": preview.more_for_the_same}
    if preview.stands:  # H-TAKEBACK: said before a tap that cannot be undone
        return f"{spent}; {what}. {violation_text(preview.stands)}"
    return f"{spent}; {what}"
