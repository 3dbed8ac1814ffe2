"""Handing an absent player's seat to a substitute (docs/long-games.md), and a player's mail preferences.

The organiser gives the seat a new name and email address; every link and reply address
issued to the seat so far stops working (`links.revoke_links` raises the link version, which
the reply tokens and unsubscribe links carry too), the event "SeatHandedOver" tells every
player (without the addresses), and the substitute is mailed a welcome with the new link.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import QuerySet
from django.utils import translation
from django.utils.translation import gettext as _

from games import engine
from games.engine.table import SEAT_HANDED_OVER
from games.eventstore.store import ConcurrencyError, append_events
from games.mail.outbox import mail_seat
from games.models import Game, NotificationPreference, Seat, SeatHolder
from games.reading.links import revoke_links
from games.services.delivery_problems import address_changed, emails_chosen
from games.services.game_setup import same_address
from games.services.languages import choose_language
from games.words.clock import clock_of, deadline_text, player_time_zones
from games.words.names import faction_name


class HandOverRefused(ValueError):
    """`field`: the hand-over form's field the refusal belongs next to (None: the whole form)."""

    def __init__(self, message: str, field: str | None = None) -> None:
        self.message = message
        self.field = field
        super().__init__(message)


def hand_over_seat(seat: Seat, name: str, email: str) -> Seat:
    """The seat passes to `name` <`email`>; the old links stop working; everyone sees the change."""
    game = seat.game
    name = name.strip()
    if game.status == Game.Status.ENDED:
        raise HandOverRefused(_("The game has ended."))
    if not name:
        raise HandOverRefused(_("The substitute needs a name."), "name")
    try:
        validate_email(email)
        if len(email) > Seat._meta.get_field("email").max_length:  # the column's bound (RFC 5321's)
            raise ValidationError("too long")
    except ValidationError:
        raise HandOverRefused(_("%(email)s is not an email address.") % {"email": email}, "email") from None
    # Another seat's address (the organiser audit): almost always a typo, as in a new game
    # (orders.table_problems). The seat's own address is fine: a hand-over to the same player.
    others = game.seats.exclude(pk=seat.pk).values_list("email", flat=True)
    if any(same_address(email, other) for other in others):
        raise HandOverRefused(
            _("%(email)s is already another seat's address; each player needs their own address.")
            % {"email": email},
            "email",
        )
    for _attempt in range(5):
        head = game.events.order_by("-seq").values_list("seq", flat=True).first() or 0
        try:
            with transaction.atomic():
                row = append_events(
                    game, head, [engine.Event(SEAT_HANDED_OVER, {"player": seat.faction})], actor="organiser"
                )[0]
                # The absent player's zone was their choice, not the substitute's (as their mail
                # preferences below): the substitute reads the game's until they choose one.
                Seat.objects.filter(pk=seat.pk).update(name=name, email=email, time_zone="")
                # The substitute's record starts at the hand-over; what came before is the
                # predecessor's (docs/front-door.md "Reliability").
                SeatHolder.objects.create(game=game, faction=seat.faction, since_seq=row.seq, email=email)
                seat.name, seat.email, seat.time_zone = name, email, ""
                revoke_links(seat)
                NotificationPreference.objects.filter(seat=seat).delete()
                address_changed(seat)  # bounces of the old address are not the new one's
                clock = clock_of(game, seat.faction)
                with translation.override(seat.language):
                    paragraphs = [
                        _(
                            "The organiser has handed you the seat of %(faction)s in this game. "
                            "Your personal link is below; keep it to yourself."
                        )
                        % {"faction": faction_name(seat.faction)}
                    ]
                    if clock is not None and clock.deadline is not None:
                        # The seat's running deadline passes to the substitute, who got none of
                        # its turn email and reminders: say so, or the first they hear is a default.
                        paragraphs.append(
                            _(
                                "The seat owes an order now. The deadline is %(deadline)s; after it"
                                " the server gives the default order."
                            )
                            % {"deadline": deadline_text(clock.deadline, game, reader=seat)}
                        )
                    mail_seat(
                        game,
                        seat,
                        "welcome",
                        row.seq,
                        _("You take over %(faction)s · %(game)s")
                        % {"game": game.name, "faction": faction_name(seat.faction)},
                        paragraphs,
                        reply_seq=row.seq,
                    )
            return seat
        except ConcurrencyError:
            continue
    raise HandOverRefused(_("The game is busy; please try again."))


def address_edited(seat: Seat, old_email: str) -> bool:
    """An operator changed the seat's address in the admin (docs/long-games.md, "Mail
    preferences"). As after a hand-over, whoever read the old address loses the seat: its links,
    reply addresses and unsubscribe links stop working, its mail preferences start afresh and the
    old address's delivery problems are no longer the seat's. The new address's next email (or
    /links/new/) brings the new link. The same mailbox in other letters changes nothing.
    The seat's present holder is corrected too (SeatHolder, whose record its turns are): the
    address was mistyped, not handed over. Returns whether the links were withdrawn."""
    with transaction.atomic():
        present_holder(seat).update(email=seat.email)
        if same_address(old_email, seat.email):
            return False
        revoke_links(seat)
        NotificationPreference.objects.filter(seat=seat).delete()
        address_changed(seat)
    return True


def present_holder(seat: Seat) -> QuerySet[SeatHolder]:
    """The seat's present holder's row: the newest of its game and faction."""
    newest = SeatHolder.objects.filter(game_id=seat.game_id, faction=seat.faction).order_by("-since_seq")
    return SeatHolder.objects.filter(pk__in=newest.values("pk")[:1])


def set_preferences(
    seat: Seat, mode: str, digest_hour: int, language: str, time_zone: str = ""
) -> NotificationPreference:
    """Store how `seat` wants to be mailed, in which language (en/de), and the zone its player reads
    times in (`time_zone`, as set_time_zone takes it).

    Raises ValueError for another zone, before anything is stored."""
    check_time_zone(time_zone)
    with transaction.atomic():  # all of the choice or none: a refused hour saves no zone either
        pref, _created = NotificationPreference.objects.get_or_create(seat=seat)
        pref.mode, pref.digest_hour, pref.unsubscribed = mode, digest_hour, False
        pref.full_clean()
        pref.save()
        emails_chosen(seat)  # the player's choice outweighs an earlier spam complaint
        if language != seat.language:  # a new language is the player's choice, for pages too (docs/i18n.md)
            choose_language(seat, language)
        set_time_zone(seat, time_zone)
    return pref


def check_time_zone(time_zone: str) -> None:
    """Raises ValueError unless `time_zone` is one of deadlines.player_time_zones or "" (the game's)."""
    if time_zone and time_zone not in player_time_zones():
        raise ValueError(f"unknown time zone {time_zone!r}")


def set_time_zone(seat: Seat, time_zone: str) -> None:
    """The zone `seat`'s player reads times in (one of deadlines.player_time_zones; "" follows the
    game's), and nothing else of their preferences: the one-tap "Show my times in …" of the player
    page keeps an unsubscribed player unsubscribed. Raises ValueError for another zone."""
    check_time_zone(time_zone)
    if time_zone != seat.time_zone:
        seat.time_zone = time_zone
        seat.save(update_fields=["time_zone"])


def unsubscribe(seat: Seat, subscribed: bool = False) -> None:
    """No more emails from this game (or, with `subscribed`, emails again)."""
    pref, _created = NotificationPreference.objects.get_or_create(seat=seat)
    pref.unsubscribed = not subscribed
    pref.save(update_fields=["unsubscribed"])
    if subscribed:
        emails_chosen(seat)
