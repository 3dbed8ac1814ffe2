"""What the player page shows of a long game (docs/long-games.md): the deadline, messages, vacation, mail
preferences (templates/games/_long_game.html, included by the player page; the deadline and its
one-tap zone stand in the page's status box, templates/games/_deadline.html)."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from games.mail.keys import unsubscribe_token
from games.mail.outbox import preference
from games.models import DeadlineSettings, Game, Seat, SeatClock
from games.reading.delivery_problems import current_problems
from games.services.messages import messages_for
from games.services.vacations import current_vacation, days_left
from games.web.forms.table import MessageForm, PreferenceForm, TimeZoneForm, VacationForm
from games.words.clock import deadline_text, seat_zone, settings_for, time_zone
from games.words.names import faction_name


def long_game_context(seat: Seat) -> dict[str, Any]:
    """The player page's deadline, messages, vacation and preferences (templates/games/_long_game.html).

    H-END: once the game has ended, no form that can do nothing more is offered: messages are closed
    (games/services/messages.py), vacations refused (games/services/vacations.py), and the emails'
    rhythm, digest hour and zone concern turns that no longer come; the messages stay readable (everyone's,
    now), and the player may still stop (or restart) the emails of the game (the unsubscribe page)."""
    game = seat.game
    pref = preference(seat)
    shown = [
        {
            "sender": faction_name(m.sender),
            "to": ", ".join(faction_name(f) for f in m.to),
            "text": m.text,
            "mine": m.mine,
        }
        for m in messages_for(game, seat.faction)
    ]
    common = {
        "game_messages": shown,
        "unsubscribed": pref.unsubscribed,
        "delivery_problems": current_problems(seat),  # bounces and complaints: the page's banner
    }
    if game.status == Game.Status.ENDED:
        unsubscribe_path = reverse("games:unsubscribe", args=[unsubscribe_token(seat)])
        return {**common, "over": True, "unsubscribe_path": unsubscribe_path}
    clock = SeatClock.objects.filter(game=game, faction=seat.faction).first()
    rivals = [s.faction for s in game.seats.all() if s.faction != seat.faction]
    vacation = current_vacation(seat)
    settings = settings_for(game)
    initial = {
        "mode": pref.mode,
        "digest_hour": pref.digest_hour,
        "language": seat.language,
        "time_zone": seat.time_zone,
    }
    return {
        **common,
        "deadline": deadline_text(clock.deadline if clock else None, game, settings, reader=seat),
        # A seat on the game's zone is offered its browser's with one tap, if it differs (the page's
        # script compares them; templates/games/_deadline.html, _long_game.html).
        "zone_hint": "" if seat.time_zone else time_zone(settings).key,
        "deadlines": {"turn_hours": settings.turn_hours},
        "message_form": MessageForm(rivals=rivals),
        "vacation_form": VacationForm(),
        "vacation_days_left": days_left(seat),
        "vacation_until": deadline_text(vacation.end, game, settings, reader=seat) if vacation else "",
        "preference_form": preference_form(seat, initial=initial, settings=settings),
    }


def preference_form(
    seat: Seat,
    data: Any = None,
    initial: dict[str, Any] | None = None,
    settings: DeadlineSettings | None = None,
) -> PreferenceForm:
    """The seat's preference form, naming the game's zone (the first choice) and the zone the seat
    reads times in (the digest hour's label). `data`: a post to check; `settings`: the game's."""
    settings = settings or settings_for(seat.game_id)
    return PreferenceForm(
        data,
        initial=initial,
        game_zone=time_zone(settings).key,
        zone=seat_zone(seat, seat.game_id, settings).key,
    )


def time_zone_form(seat: Seat, data: Any) -> TimeZoneForm:
    """The one-tap zone of the player page, checked as the preference form checks its zone."""
    return TimeZoneForm(data, game_zone=time_zone(settings_for(seat.game_id)).key)
