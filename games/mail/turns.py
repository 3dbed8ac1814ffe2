"""The emails the order loop writes into the outbox (docs/order-loop.md), in each player's language.

Called inside the transaction that appends the events, so a notification exists exactly
when its turn does; notifications/ delivers it after commit.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.urls import reverse
from django.utils import translation

from aegea_pbem.sql_selects import rows_with_related
from games.engine import GameState
from games.mail.board_picture import board_context, inline_parts
from games.mail.keys import keys_named, keys_signed
from games.mail.outbox import mail_updates, wants_mail
from games.mail.position import position_told, sealed_order_aids
from games.models import DeadlineSettings, Game, Seat, SeatClock
from games.projectors.seat_clocks import Written
from games.reading.scoreboard import scored_in, standings
from games.reading.situation import happenings_when_sent, load_game, must_act, told_happenings, whose_turn
from games.words.clock import deadline_text, settings_for
from games.words.names import faction_name, organiser_name, phase_label, year_label
from games.words.trade import bundle_text
from notifications.services import LateParts, enqueue, outbox_batch


def welcome_everyone(game: Game, state: GameState, seq: int) -> None:
    """A welcome with the player's link to every seat (the player on turn is told so)."""
    mail = _OrderMail(game)
    with outbox_batch():
        for seat in mail.seats:
            _enqueue(mail, seat, state, seq, "welcome")


def notify_after_order(
    game: Game,
    before: GameState,
    after: GameState,
    seq: int,
    clocks: Written | None = None,
    seats: list[Seat] | None = None,
) -> None:
    """Mail whoever owes a new order now (sealed winter orders: everyone at once), or everyone at the end.

    `clocks`: the seat clocks the order's append just left (projectors/seat_clocks.py), if known;
    `seats`: the game's seats with their preferences cached, if the caller read them (order_lock.py).
    """
    mail = _OrderMail(game, clocks, seats)
    seats = mail.seats
    with outbox_batch():  # every email of the order in one INSERT
        if after.phase == "ended":
            for seat in seats:
                _enqueue(mail, seat, after, seq, "ended")
            return
        new = _obligations(after) - _obligations(before)
        due = {obligation[0] for obligation in new}
        for seat in seats:
            if seat.faction in due:
                _enqueue(mail, seat, after, seq, "turn")
        _notify_offers(mail, before, after, seq)
        # Mail preference "every turn" (docs/long-games.md); the deadlines from the clocks this
        # order left (no query per email).
        mail_updates(game, [s for s in seats if s.faction not in due], after, seq, mail.deadline)


class _OrderMail:
    """What every email of one order needs, each fetched once: the seats with their preferences
    (so wants_mail costs no query) and the seat clocks with the game's deadline settings (those
    the append just wrote, or fetched when the first email needs them)."""

    def __init__(self, game: Game, written: Written | None = None, seats: list[Seat] | None = None) -> None:
        self.game = game
        if seats is None:
            seats = rows_with_related(Seat, "preference", ["game"], [game.pk])
        self.seats = seats
        self._clocks = written.clocks if written else None
        self._settings = written.settings if written else None
        self._players_lines: dict[str | None, str] = {}

    def players_line(self, seat_order: list[str]) -> str:
        """ "1. Ben (Sparta), 2. Ana (Athens)": the players in the seat order drawn at the start
        (H-SETUP), which every action round follows (H-YEAR), in the active language (each reader's own)."""
        language = translation.get_language()
        if language not in self._players_lines:
            names = {seat.faction: seat.name for seat in self.seats}
            line = ", ".join(
                f"{n}. {names[faction]} ({faction_name(faction)})"
                for n, faction in enumerate(seat_order, 1)
                if faction in names
            )
            self._players_lines[language] = line
        return self._players_lines[language]

    def deadline(self, seat: Seat) -> str:
        """The seat's deadline as deadline_text words it, in the seat's zone; "" when it owes nothing.
        The seat's zone comes with the seats read already: no query per email."""
        if self._clocks is None:
            clocks = SeatClock.objects.filter(game_id=self.game.pk).select_related("game__deadlines")
            self._clocks = {clock.faction: clock for clock in clocks}
            for clock in self._clocks.values():  # every clock's game is this game: one settings row
                found = getattr(clock.game, "deadlines", None)
                self._settings = found or DeadlineSettings(game_id=self.game.pk)
        clock = self._clocks.get(seat.faction)
        if clock is None or clock.deadline is None:
            return ""
        if self._settings is None and not seat.time_zone:  # the game's zone is needed after all
            self._settings = settings_for(self.game)
        return deadline_text(clock.deadline, self.game, self._settings, reader=seat)


def _notify_offers(mail: _OrderMail, before: GameState, after: GameState, seq: int) -> None:
    """H-TRADE: the rival of every new offer is mailed its terms and their link to answer it."""
    known = {offer.id for offer in before.offers}
    by_faction = {seat.faction: seat for seat in mail.seats}
    for offer in after.offers:
        seat = by_faction.get(offer.to)
        if offer.id in known or seat is None:
            continue
        with translation.override(seat.language):
            terms = {
                "offer_id": offer.id,
                "offer_from": faction_name(offer.player),
                "offer_give": bundle_text(offer.give),
                "offer_take": bundle_text(offer.take),
            }
        _enqueue(mail, seat, after, seq, "offer", extra=terms)


def _position_named(state: GameState, faction: str, seq: int, kind: str) -> dict[str, Any]:
    """The emails that ask for an order (or open the game) tell what the player holds, what orders
    cost and where they may go (words/position.py): named here, told when the email is sent
    (late_parts), as the happenings are — the ~0.3 ms they take stays out of the order's
    transaction. Whether the player is on turn is the order's own knowledge: kept now."""
    if kind not in ("welcome", "turn"):
        return {}
    return {"position_of": {"viewer": faction, "up_to_seq": seq}, "on_turn": faction in must_act(state)}


def _obligations(state: GameState) -> set[tuple[Any, ...]]:
    """What each faction owes, so that a still-open obligation (a tile choice) is not mailed twice."""
    if state.phase == "winter_orders":
        return {(f, "winter", state.year) for f in must_act(state)}
    return {(f, "turn", state.year, state.action_round, state.turn_index) for f in must_act(state)}


def _enqueue(
    mail: _OrderMail,
    seat: Seat,
    state: GameState,
    seq: int,
    kind: str,
    extra: dict[str, Any] | None = None,
) -> None:
    if not wants_mail(seat, kind):  # the player's mail preferences
        return
    game = mail.game
    with translation.override(seat.language):
        context = {
            "game_name": game.name or str(game.pk),
            "player_name": seat.name,
            "faction_name": faction_name(seat.faction),
            "year_label": year_label(state.year),
            "phase_label": phase_label(state.phase, state.action_round),
            "sealed": state.phase == "winter_orders",
            # The subject says what the email asks ("Sparta: your turn — 431 BC, round 2 of 3").
            "phase": state.phase,
            "action_round": state.action_round if state.phase == "actions" else 0,
            "whose_turn": whose_turn(state, seat.faction),
            **(happenings_when_sent(game, seat.faction, seq) if kind != "welcome" else {}),
            "keys_of": keys_named(seat, ("o", seq)),  # signed when sent: links, Reply-To
            # Only the welcome names the organiser (no query for their name on every other email)
            # and the players in seat order.
            **(
                {
                    "organiser_name": organiser_name(game.organiser),
                    "players_line": mail.players_line(state.seat_order),
                    # A new player's way to the rulebook, in their language (docs/rules.md).
                    "rules_url": settings.SITE_URL + reverse("games:rules-page", args=[seat.language]),
                }
                if kind == "welcome"
                else {}
            ),
            "winners_line": ", ".join(faction_name(f) for f in state.winners),
            "winners_count": len(state.winners),
            # The end email gives every faction's final VP: "Winner: Athens" alone left the score unknown.
            "scores_line": ", ".join(
                f"{faction_name(f)} {p.vp} VP"
                for f, p in sorted(state.players.items(), key=lambda fp: -fp[1].vp)
            )
            if state.phase == "ended"
            else "",
            **board_context(game.pk, seq, seat.pk, kind),  # the board picture, drawn when the email is sent
            "deadline": mail.deadline(seat),
            **sealed_order_aids(state, seat.faction),
            **_position_named(state, seat.faction, seq, kind),
            **(extra or {}),
        }
    enqueue(
        game_id=game.pk,
        seq=seq,
        seat_id=seat.pk,
        kind=kind,
        to_email=seat.email,
        language=seat.language,
        template=kind,
        context=context,
    )


def late_parts(row: Any, images: bool = True) -> LateParts:
    """The outbox's late_parts hook (mail_hooks.py), run by the worker as it renders a row in the
    reader's language: the happenings its context names (situation.happenings_when_sent), the
    player's position, costs and reach (position_told), the board picture of the kinds that show
    it (board_picture.inline_parts), and the keys it names signed (keys.keys_signed: the links,
    whether replies are orders, the Reply-To and List-Unsubscribe). `images=False`: no picture."""
    states: dict[int, GameState] = {}

    def state_at(seq: int) -> GameState:
        # The picture and the position of one email tell the game at the same seq: read it once (the
        # state cache would serve the second read, but after a query for the log's head).
        if seq not in states:
            states[seq] = load_game(Game(pk=row.game_id), up_to_seq=seq).state
        return states[seq]

    told: dict[str, Any] = {}
    named = row.context.get("happenings_of")
    if isinstance(named, dict):
        viewer, seq = named["viewer"], named["up_to_seq"]
        told["happenings"] = told_happenings(row.game_id, viewer, seq, named["over"])
        # S-WINTER: a scored winter as its table, and the standings one look away (scoreboard.py).
        told["scoreboard"] = scored_in(told["happenings"], Game(pk=row.game_id), viewer, seq, named["over"])
        told["standings"] = standings(state_at(seq))
    inline = inline_parts(row, state_at) if images else ()
    position = row.context.get("position_of")
    if isinstance(position, dict):
        told.update(position_told(state_at(position["up_to_seq"]), position["viewer"]))
    keys = row.context.get("keys_of")
    if not isinstance(keys, dict):
        return LateParts(told, inline=inline)
    signed = keys_signed(row.game_id, row.seat_id, keys)
    told.update(link=signed.link, unsubscribe_url=signed.unsubscribe_url, email_orders=bool(signed.reply_to))
    return LateParts(told, signed.reply_to, signed.headers, inline)
