"""What a player holds, in words, for the emails that ask for an order (turn, welcome on turn).

A player who orders by email reply must decide from the email alone: the board picture is in the
HTML part only, and the happenings say what was received, never the totals. These lines give the
player's own position as their page's table shows it (H-SCREEN: only their own screen and cards):
AP, FP, Blanks, VP, the coins behind the screen, the government, the phalanxes in supply, where
their units stand and their Mission Cards.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engine import GameState
from games.engine import data as rules
from games.engine.actions import hire_cost, recruit_cost, recruit_places
from games.engine.board import distance
from games.engine.builders import may_recruit_builders
from games.engine.expansion import expand_cost, expandable_spaces
from games.words.names import GOVERNMENT_NAMES, blanks_text, coins_text, faction_name, tile_name, units_text
from games.words.trade import held_card_words


def position_lines(state: GameState, faction: str) -> list[str]:
    """The player's resources, their Poleis with the units in each, and their Mission Cards."""
    player = state.players.get(faction)
    if player is None:
        return []
    lines = [
        holdings_line(state, faction),
        _("Government: %(government)s; phalanxes in supply: %(supply)s.")
        % {
            "government": GOVERNMENT_NAMES.get(player.government, player.government),
            "supply": player.phalanx_supply,
        },
    ]
    poleis = []
    for space in sorted(state.board):
        polis = state.board[space]
        if polis.owner != faction:
            continue
        text = f"{space} {tile_name(polis.tile_id)}: {units_text(polis.__dict__)}"
        if polis.fortification_hp:
            n = len(polis.fortification_hp)
            text += ", " + ngettext("%(n)s Fortification", "%(n)s Fortifications", n) % {"n": n}
        poleis.append(text)
    if poleis:
        lines.append(_("Your Poleis and units: %(poleis)s.") % {"poleis": "; ".join(poleis)})
    return [*lines, *cards_lines(state, faction)]


def holdings_line(state: GameState, faction: str) -> str:
    """H-SCREEN: the player's AP, FP, Blanks and VP and what is behind their screen (theirs alone)."""
    player = state.players[faction]
    return _("You have %(ap)s AP, %(fp)s FP, %(blanks)s, %(vp)s VP; behind your screen: %(coins)s.") % {
        "ap": player.ap,
        "fp": player.fp,
        "blanks": blanks_text(player.blanks),
        "vp": player.vp,
        "coins": coins_text(player.coins_behind_screen),
    }


def cards_lines(state: GameState, faction: str) -> list[str]:
    """H-SCREEN: the player's Mission Cards (theirs alone), none when they hold none."""
    cards = state.players[faction].mission_cards
    if not cards:
        return []
    held = ", ".join(held_card_words(c, state.rules_version) for c in cards)
    return [_("Your Mission Cards: %(cards)s.") % {"cards": held}]


# The orders cost_line prices: beside any other order alone (a tile choice's step, H-CHOICE-STEP; a
# sealed winter order; an answer to an offer) it says nothing that applies, so it is not shown.
PRICED_KINDS = frozenset({"recruit", "fortify", "move", "expand", "oracle", "reform", "recruit_builder"})


def cost_line(faction: str) -> str:
    """What each action costs this faction, from the engine's data and cost functions (H-ACTIONS,
    S-MOVE, S-EXP-CHOICE, S-EXP-LINK, H-FACTION): a reader by reply learned them only from a refusal.
    Each order is named as its form on the page is ("Recruit a Builder", "Hire Navigators")."""
    native = rules.native_space(faction)
    per_ap = rules.FACTIONS[faction].recruit_per_ap_native
    recruit = _("recruit %(ap)s AP per phalanx") % {"ap": recruit_cost(faction, "", 1)}
    if per_ap > 1:  # Sparta's discount in its Native Polis
        recruit += " " + _("(in %(space)s %(n)s phalanxes per AP)") % {"space": native, "n": per_ap}
    parts = [
        recruit,
        _("hire Navigators %(ap)s AP each") % {"ap": hire_cost(1)},
        _("fortify %(ap)s AP") % {"ap": rules.FORTIFY_AP},
        _(
            "move 1 FP per %(units)s units (phalanxes and Navigators) per space to the farthest destination,"
            " less 1 per Navigator"
        )
        % {"units": rules.UNITS_PER_FLEET_STEP},
        _expand_costs(faction),
        _("oracle %(coins)s coin or a Blank") % {"coins": rules.ORACLE_COINS},
        _("reform: the action only"),
    ]
    if may_recruit_builders(faction):
        parts.append(_("recruit a Builder: the action only"))
    return _("Costs: %(costs)s; Blanks pay AP or FP.") % {"costs": "; ".join(parts)}


def _expand_costs(faction: str) -> str:
    """S-EXP, S-EXP-CHOICE, S-EXP-LINK, H-FACTION: an upgrade that costs this faction nothing is
    left out, not told as "+0 FP" (Athens' tile choice)."""
    plain = expand_cost(faction, False, False)
    text = _("expand %(fp)s FP") % {"fp": plain}
    choice = expand_cost(faction, True, False) - plain
    if choice:
        text += _(", with a tile choice +%(fp)s FP") % {"fp": choice}
    link = expand_cost(faction, False, True) - plain
    if link:
        text += _(", with a trade link +%(fp)s FP") % {"fp": link}
    return text


NEAR = 2  # how far from the player's own Poleis the email names the others' Poleis
MAX_NEAR = 8  # the nearest first: a line, not the whole board


def reach_lines(state: GameState, faction: str) -> list[str]:
    """Where the player may expand now (S-EXP: the free spaces next to their Poleis, while a pile
    has tiles) and the Poleis of others (rivals' and neutral) within 2 spaces of theirs, the nearest 8,
    with their units and the distance: the board picture is in the HTML part only. All of it is
    public (H-SCREEN)."""
    own = [space for space, polis in state.board.items() if polis.owner == faction]
    lines = []
    free = expandable_spaces(state, faction) if state.deck or state.discard else []
    if free:
        lines.append(_("You may expand to: %(spaces)s.") % {"spaces": ", ".join(free)})
    found = []
    for space, polis in state.board.items():
        if polis.owner == faction or not own:
            continue
        steps, start = min((distance(mine, space), mine) for mine in own)
        if steps <= NEAR:
            found.append((steps, space, start, polis))
    near = [
        _("%(space)s %(tile)s (%(held)s, %(units)s; %(steps)s from %(start)s)")
        % {
            "space": space,
            "tile": tile_name(polis.tile_id),
            "held": faction_name(polis.owner) if polis.owner else _("neutral"),
            "units": units_text(polis.__dict__),
            "steps": steps,
            "start": start,
        }
        for steps, space, start, polis in sorted(found, key=lambda f: f[:2])[:MAX_NEAR]
    ]
    if len(found) > MAX_NEAR:
        near.append(_("%(n)s more") % {"n": len(found) - MAX_NEAR})
    if near:
        lines.append(_("Poleis near yours: %(poleis)s.") % {"poleis": "; ".join(near)})
    return lines


def choice_reply(state: GameState, faction: str) -> str:
    """H-CHOICES: the exact reply to a tile choice waiting for `faction`, naming both tiles in the
    reader's language ("keep Milet", "behalte keine"); "" when none waits."""
    pending = state.pending_choice
    if state.phase != "choice" or pending is None or pending.player != faction:
        return ""
    if len(pending.tiles) == 1:  # H-CHOICE-STEP: the first tile alone
        return _(
            "Or reply to this email with keep %(tile)s, second deck or second discard on the first line."
        ) % {"tile": tile_name(pending.tiles[0])}
    first, second = (tile_name(tile) for tile in pending.tiles)
    return _(
        "Or reply to this email with keep %(first)s, keep %(second)s or keep neither on the first line."
    ) % {
        "first": first,
        "second": second,
    }


def order_reply(state: GameState, faction: str) -> str:
    """The reply an action turn's email suggests, naming a Polis of the reader's where they may
    recruit and fortify (H-ACTIONS, H-NATIVE-LOST: the Native Polis while they hold it, else where
    their King stands; engine.actions.recruit_places): its former example "commit owl 2" was
    refused outside a scoring winter (H-WINTER-ORDERS)."""
    places = recruit_places(state, faction)
    native = rules.native_space(faction)
    space = native if native in places else places[0] if places else ""
    if not space:
        return _("Or reply to this email with your order on the first line, e.g. pass.")
    return _(
        "Or reply to this email with your order on the first line, e.g. pass, recruit %(space)s 1"
        " or fortify %(space)s."
    ) % {"space": space}
