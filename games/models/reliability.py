"""A player's record of reliability (docs/front-door.md "Reliability"): who held each seat, and what
each holding did.

`SeatHolder` is a fact the log cannot tell: the log names seats by faction, never by address, so
the services write one row per seat at the game's opening and one per hand-over, in the
transaction that appends that event. It is not a read model: a rebuild keeps it.

`SeatRecord` is a read model, one row per holding of a seat (from the opening or a hand-over on),
kept by the projector in games/projectors/seat_records.py from the log alone. A player's record
is the sum of the SeatRecord rows whose holding (game, faction, since_seq) names their address in
SeatHolder.
"""

from __future__ import annotations

from django.db import models
from django.db.models.functions import Upper
from django.utils.translation import gettext_lazy as _

from .store import Game


class SeatHolder(models.Model):
    """The address that held a seat from event `since_seq` on (the opening's or a hand-over's)."""

    # Indexed by games_seatholder_once (game, faction, since_seq), whose first column is the game.
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seat_holders", db_index=False)
    faction = models.CharField(_("faction"), max_length=16)
    since_seq = models.PositiveIntegerField(_("held since event"))
    email = models.EmailField(_("email"))

    class Meta:
        ordering = ["game_id", "faction", "since_seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "faction", "since_seq"], name="games_seatholder_once")
        ]
        # reliability_of looks an address up whatever its case (email__iexact: UPPER(email) = UPPER(%s)).
        indexes = [models.Index(Upper("email"), name="games_seatholder_email_upper")]
        verbose_name = _("seat holder")
        verbose_name_plural = _("seat holders")

    def __str__(self) -> str:
        return f"{self.email} holds {self.faction} in game {self.game_id} from event {self.since_seq}"


class SeatRecord(models.Model):
    """Read model: what one holding of a seat did, from event `since_seq` (the opening's or a
    hand-over's) until `until_seq` (the next hand-over's; None while it is the seat's present one).

    The counters are what the log says of that holding: `played` 1 for a holding begun by the
    opening or a hand-over, `finished` 1 if it still held the seat at GameEnded, the orders the
    player gave (OrderGiven by "player") and those of them taken back (OrderTakenBack, H-TAKEBACK:
    each counter only grows, as the upsert adds), the deadlines missed (DeadlinePassed) and the vacations
    taken (VacationTaken).
    """

    # Indexed by games_seatrecord_once (game, faction, since_seq), whose first column is the game.
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seat_records", db_index=False)
    faction = models.CharField(_("faction"), max_length=16)
    since_seq = models.PositiveIntegerField(_("held since event"))
    until_seq = models.PositiveIntegerField(_("held until event"), null=True, blank=True)
    played = models.PositiveIntegerField(_("games played"), default=0)
    finished = models.PositiveIntegerField(_("games finished"), default=0)
    orders_in_time = models.PositiveIntegerField(_("orders given in time"), default=0)
    orders_taken_back = models.PositiveIntegerField(_("orders taken back"), default=0)
    deadlines_missed = models.PositiveIntegerField(_("deadlines missed"), default=0)
    vacations = models.PositiveIntegerField(_("vacations taken"), default=0)

    class Meta:
        ordering = ["game_id", "faction", "since_seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "faction", "since_seq"], name="games_seatrecord_once"),
            # The seat's present holding: what an order's upsert adds to, with no read of since_seq.
            models.UniqueConstraint(
                fields=["game", "faction"],
                condition=models.Q(until_seq__isnull=True),
                name="games_seatrecord_present",
            ),
        ]
        verbose_name = _("seat record")
        verbose_name_plural = _("seat records")

    def __str__(self) -> str:
        return f"{self.faction} in game {self.game_id} from event {self.since_seq}"
