"""The scoreboard and the standings, as one reader may know them (S-WINTER, S-RANK, H-MISSIONS, H-END).

`scoreboard` reads the log: after every scoring winter, each ranking's places and VP, the
Mission Cards scored that year and every player's running total of VP once the winter was
scored. `standings` reads a state: each player's VP, Poleis and Mints now. Both are public
knowledge: the rankings are scored from the revealed orders (H-WINTER-ORDERS) and a card scores
face up; every event still passes engine.event_view, the one redaction of the log.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games import engine
from games.engine import GameState, data
from games.engine.economy import controlled_poleis
from games.models import Event, Game
from games.reading.situation import is_over, load_game
from games.words.names import RANKING_NAMES, faction_name, year_label
from games.words.trade import card_name

SCORING_EVENTS = ("WinterOrdersRevealed", "RankingScored", "MissionCardRedeemed", "MissionCardClaimed")
KING_EVENTS = ("BattleFought", "PolisConquered")  # H-HEROES: a fallen King's VP to its killer


def place_text(place: int) -> str:
    """S-RANK: a place in a ranking, "1st" / "1."."""
    places = {
        1: pgettext("place", "1st"),
        2: pgettext("place", "2nd"),
        3: pgettext("place", "3rd"),
        4: pgettext("place", "4th"),
    }
    return places.get(place, str(place))


@dataclass
class ScoreRow:
    faction: str
    name: str
    cells: list[dict[str, Any]] = field(default_factory=list)  # per ranking: value, place, vp
    cards: list[str] = field(default_factory=list)
    total: int = 0


@dataclass
class WinterScore:
    """One scored winter: the rankings (columns), a row per player and the last seq it spans."""

    year: int
    title: str
    rankings: list[str]
    rows: list[ScoreRow]
    seq: int


def _winter_groups(game: Game, viewer: str | None, up_to_seq: int | None, over: bool) -> list[dict[str, Any]]:
    """The log's scored winters: each with its rankings, the cards scored since the one before and
    the VP fallen Kings gave until then."""
    rows = Event.objects.filter(game=game, type__in=(*SCORING_EVENTS, *KING_EVENTS))
    if up_to_seq is not None:
        rows = rows.filter(seq__lte=up_to_seq)
    groups: list[dict[str, Any]] = []
    claimed: list[tuple[str, str, int]] = []  # objective cards claimed since the last scored winter
    king_vp: dict[str, int] = {}
    for seq, event_type, payload in rows.order_by("seq").values_list("seq", "type", "payload"):
        p = engine.event_view(engine.Event(event_type, payload), viewer, over)["payload"]
        if event_type in KING_EVENTS:
            for death in p.get("kings_killed", []):
                if death.get("killer"):
                    king_vp[death["killer"]] = king_vp.get(death["killer"], 0) + death["vp"]
        elif event_type == "MissionCardClaimed":
            claimed.append((p["player"], card_name(p.get("counts_as") or p["card"]), p["vp"]))
        elif event_type == "WinterOrdersRevealed":
            groups.append({"year": p["year"], "rankings": [], "cards": claimed, "seq": seq})
            groups[-1]["king_vp"] = dict(king_vp)
            claimed = []
        elif groups and event_type == "MissionCardRedeemed":
            groups[-1]["cards"].append((p["player"], card_name(p["card"]), p["vp"]))
            groups[-1]["seq"] = seq
        elif groups and event_type == "RankingScored":
            groups[-1]["rankings"].append(p)
            groups[-1]["seq"] = seq
    return groups


def _ranking_name(p: dict[str, Any]) -> str:
    """A ranking's column: its name, or the card that scored it once more (Second coin scoring)."""
    if p.get("card"):
        return card_name(p["card"])
    return str(RANKING_NAMES.get(p["ranking"], p["ranking"]))


def scoreboard(
    game: Game, viewer: str | None, up_to_seq: int | None = None, over: bool | None = None
) -> list[WinterScore]:
    """S-WINTER, S-RANK: every scored winter up to `up_to_seq`, newest first, with running totals.

    A running total adds up what the log paid: rankings, Mission Cards and fallen Kings (the
    only sources of VP, engine/winter.py, mission_scoring.py, missions.py, combat.py). `over`:
    whether the game has ended (H-END), when the caller knows it (an email's frozen context)."""
    totals: dict[str, int] = {}
    winters = []
    for group in _winter_groups(game, viewer, up_to_seq, is_over(game) if over is None else over):
        factions = list(dict.fromkeys(f for r in group["rankings"] for f in r["places"]))
        factions = factions or sorted({f for f, _card, _vp in group["cards"]})
        rows = {f: ScoreRow(f, faction_name(f)) for f in factions}
        for ranking in group["rankings"]:
            for f, row in rows.items():
                if f in ranking["places"]:
                    cell = {
                        "value": ranking["values"].get(f, 0),
                        "place": place_text(ranking["places"][f]),
                        "vp": ranking["vp"].get(f, 0),
                    }
                else:
                    cell = {"value": ranking["values"].get(f, 0), "place": "", "vp": 0}
                row.cells.append(cell)
                totals[f] = totals.get(f, 0) + cell["vp"]
        for f, card, vp in group["cards"]:
            if f in rows:
                rows[f].cards.append(_("%(card)s +%(vp)s") % {"card": card, "vp": vp})
            totals[f] = totals.get(f, 0) + vp
        for f, row in rows.items():
            row.total = totals.get(f, 0) + group["king_vp"].get(f, 0)
        title = _("Winter of %(year)s: the scoring") % {"year": year_label(group["year"])}
        names = [_ranking_name(r) for r in group["rankings"]]
        ordered = sorted(rows.values(), key=lambda r: -r.total)
        winters.append(WinterScore(group["year"], title, names, ordered, group["seq"]))
    return list(reversed(winters))


def standings(state: GameState) -> list[dict[str, Any]]:
    """Each player's VP, Poleis and Mints now, most VP first (the order of S-RANK's tie-break
    reading, H-END: then Poleis)."""
    rows = []
    for faction in state.seat_order:
        poleis = controlled_poleis(state, faction)
        mints = sum(1 for s in poleis if data.TILES[state.board[s].tile_id].mint)
        rows.append(
            {
                "faction": faction,
                "name": faction_name(faction),
                "vp": state.players[faction].vp,
                "poleis": len(poleis),
                "mints": mints,
            }
        )
    return sorted(rows, key=lambda r: (-r["vp"], -r["poleis"]))


def standings_at(game: Game, up_to_seq: int | None = None) -> list[dict[str, Any]]:
    """The standings of the game at `up_to_seq` (its head when None)."""
    return standings(load_game(game, up_to_seq=up_to_seq).state)


def any_winter_scored(game: Game) -> bool:
    """Whether the log holds a scored winter yet (S-WINTER): the history's scoreboard, which starts
    at the first revealed winter orders, has a row only then."""
    return Event.objects.filter(game=game, type="WinterOrdersRevealed").exists()


def scored_in(
    lines: list[str], game: Game, viewer: str | None, up_to_seq: int | None, over: bool | None = None
) -> list[WinterScore]:
    """The scoreboard of the latest winter when `lines` (what happened since a reader's last turn)
    tell its scoring: the page and the email show that table instead of the sentences."""
    if not any(getattr(line, "scoring", False) for line in lines):
        return []
    return scoreboard(game, viewer, up_to_seq, over)[:1]
