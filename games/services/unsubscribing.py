"""What an unsubscribe link opens (docs/long-games.md, "Mail preferences").

A player's key stops that player's emails of the game; an organiser's key stops the game's alerts
to its organiser (absent players, emails that do not arrive). A key opens only for whom it was
mailed to: a player's key is withdrawn once the seat's links are (the seat handed over to a
substitute, or its links withdrawn), an organiser's once the game has another organiser or none,
or the organiser's account is deactivated. A withdrawn key's page says so and changes nothing, so
a former holder can neither silence nor restart the emails of the one who holds it now.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.mail.keys import issued_unsubscribe_seat, read_organiser_unsubscribe_token
from games.mail.outbox import preference
from games.models import Game, Seat
from games.services.substitutes import unsubscribe
from games.words.clock import settings_for


class KeyWithdrawn(ValueError):
    """An unsubscribe key whose holder no longer holds the seat or runs the game."""


@dataclass(frozen=True)
class UnsubscribeKey:
    game: Game
    seat: Seat | None  # None: the organiser's key
    applies: bool  # False: its holder no longer holds the seat or runs the game


def read_unsubscribe_key(token: str) -> UnsubscribeKey | None:
    """The game (and seat) an unsubscribe link names, and whether it still applies; None for
    anything forged or a game or seat that is gone."""
    organiser = read_organiser_unsubscribe_token(token)
    if organiser is not None:
        game_id, user_id = organiser
        game = Game.objects.select_related("organiser").filter(pk=game_id).first()
        return None if game is None else UnsubscribeKey(game, None, runs_game(game, user_id))
    found = issued_unsubscribe_seat(token)
    if found is None:
        return None
    seat, current = found
    return UnsubscribeKey(seat.game, seat, current)


def runs_game(game: Game, user_id: int | None) -> bool:
    """Whether the user `user_id` is `game`'s organiser now, with an active account."""
    organiser = game.organiser
    return user_id is not None and organiser is not None and organiser.pk == user_id and organiser.is_active


def unsubscribed(key: UnsubscribeKey) -> bool:
    """Whether the emails the key is about are off now."""
    if key.seat is None:
        return not settings_for(key.game).alert_organiser
    return preference(key.seat).unsubscribed


def use_key(key: UnsubscribeKey, subscribed: bool) -> None:
    """Stop (or, with `subscribed`, restart) the emails the key is about. Raises KeyWithdrawn,
    changing nothing, for a key that no longer applies."""
    if not key.applies:
        raise KeyWithdrawn()
    if key.seat is not None:
        unsubscribe(key.seat, subscribed=subscribed)
        return
    current = settings_for(key.game)
    current.alert_organiser = subscribed
    current.save()
