"""Pages of long games (docs/long-games.md): the player's messages, vacation and mail preferences, the
unsubscribe link, and the organiser's deadline page. Parse, call a service, render."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from aegea_pbem.rate_limits import rate_limited
from games.models import Game, Seat
from games.reading.links import LinkError
from games.reading.organiser_watch import default_order_note, final_result, seat_rows
from games.services.languages import page_language
from games.services.messages import MessageRefused, send_message
from games.services.substitutes import HandOverRefused, hand_over_seat, set_preferences, set_time_zone
from games.services.unsubscribing import read_unsubscribe_key, unsubscribed, use_key
from games.services.vacations import VacationRefused, take_vacation
from games.web.forms.table import DeadlineSettingsForm, HandOverForm, MessageForm, VacationForm
from games.web.seat_cookies import resolve_seat
from games.web.seat_limits import link_in_path
from games.web.table_context import preference_form, time_zone_form
from games.web.views.play import link_error_page
from games.words.clock import deadline_text, recompute_deadlines, seat_zone, settings_for


@never_cache
@rate_limited("links", post="orders", bucket=link_in_path)
@require_POST
def player_action(request: HttpRequest, game_id: int, seat_id: int, action: str) -> HttpResponse:
    """A message, a vacation, new preferences or a time zone from the player page; back to the page
    after."""
    try:
        seat = resolve_seat(request, game_id, seat_id)
    except LinkError as error:
        return link_error_page(request, error)
    with translation.override(page_language(request, seat)):  # the messages show on the player page
        try:
            _act(request, seat, action)
        except (MessageRefused, VacationRefused) as refused:
            messages.error(request, refused.message)
    return redirect("games:seat", game_id=game_id, seat_id=seat_id)


def _act(request: HttpRequest, seat: Seat, action: str) -> None:
    if action == "message":
        rivals = [s.faction for s in seat.game.seats.all() if s.faction != seat.faction]
        form = MessageForm(request.POST, rivals=rivals)
        if not form.is_valid():
            raise MessageRefused(_("Choose a recipient and write a message."))
        send_message(seat, form.cleaned_data["to"], form.cleaned_data["text"])
        messages.success(request, _("Your message was sent."))
    elif action == "vacation":
        form = VacationForm(request.POST)
        if not form.is_valid():
            raise VacationRefused(_("Give the number of days (1 to 60)."))
        vacation = take_vacation(seat, form.cleaned_data["days"], timezone.now())
        messages.success(
            request,
            _("Enjoy your vacation; your deadlines stand still until %(until)s.")
            % {"until": deadline_text(vacation.end, seat.game, reader=seat)},
        )
    elif action == "preferences":
        form = preference_form(seat, request.POST)
        if not form.is_valid():
            if "time_zone" in form.errors:  # the zone's own words: the list has 600 to choose from
                raise MessageRefused(form.errors["time_zone"][0])
            raise MessageRefused(_("Choose how often to be mailed, an hour from 0 to 23 and a language."))
        d = form.cleaned_data
        set_preferences(seat, d["mode"], d["digest_hour"], d["language"], d["time_zone"])
        with translation.override(seat.language):  # a new language shows from this message on
            messages.success(request, _("Your email preferences were saved."))
    elif action == "time-zone":  # the one-tap "Show my times in Europe/Berlin" beside the deadline
        form = time_zone_form(seat, request.POST)
        if not form.is_valid():
            raise MessageRefused(form.errors["time_zone"][0])
        set_time_zone(seat, form.cleaned_data["time_zone"])
        zone = seat_zone(seat, seat.game_id).key
        messages.success(request, _("Your times are now shown in %(zone)s.") % {"zone": zone})
    else:
        raise Http404()


@csrf_exempt  # the signed token is the key; mail clients post RFC 8058 one-click without a CSRF token
@require_http_methods(["GET", "POST"])
def unsubscribe_page(request: HttpRequest, token: str) -> HttpResponse:
    """GET: what the link does, with a button. POST (the button, or a mail client's one click): done.

    A player's token stops that player's emails of the game; an organiser's token stops the
    game's alerts to its organiser. A token whose holder no longer holds the seat or runs the
    game opens nothing (games/services/unsubscribing.py)."""
    key = read_unsubscribe_key(token)
    if key is None:
        return render(request, "games/unsubscribe.html", {"invalid": True}, status=404)
    if not key.applies:  # in the browser's language: the seat's is its new holder's
        context = {"withdrawn": True, "organiser": key.seat is None}
        return render(request, "games/unsubscribe.html", context, status=410)
    with translation.override(key.seat.language if key.seat else translation.get_language()):
        if request.method == "POST":
            use_key(key, subscribed=request.POST.get("subscribe") == "1")
        context = {"seat": key.seat, "game": key.game, "organiser": key.seat is None}
        context["unsubscribed"] = unsubscribed(key)
        return render(request, "games/unsubscribe.html", context)


@login_required
def organiser_deadlines(request: HttpRequest, game_id: int) -> HttpResponse:
    """The organiser's deadline settings, each seat's deadline and missed turns, and substitutes."""
    game = Game.objects.filter(pk=game_id, organiser=request.user).first()
    if game is None:
        raise Http404(_("No such game among yours."))
    current = settings_for(game)
    settings_form = DeadlineSettingsForm(instance=current)
    handover_form = HandOverForm(game_id=game.pk)
    status = 200
    if request.method == "POST" and request.POST.get("form") == "settings":
        settings_form = DeadlineSettingsForm(request.POST, instance=current)
        if settings_form.is_valid():
            settings_form.save()
            recompute_deadlines(game)
            messages.success(request, _("The deadline settings were saved."))
            return redirect("games:organiser-deadlines", game_id=game.pk)
        status = 400
    elif request.method == "POST" and request.POST.get("form") == "handover":
        handover_form = HandOverForm(request.POST, game_id=game.pk)
        if handover_form.is_valid():
            d = handover_form.cleaned_data
            try:
                hand_over_seat(d["seat"], d["name"], d["email"])
            except HandOverRefused as refused:
                handover_form.add_error(refused.field, refused.message)
            else:
                messages.success(request, _("The seat was handed over; the old links no longer work."))
                return redirect("games:organiser-deadlines", game_id=game.pk)
        status = 400
    context = {
        "game": game,
        "form": settings_form,
        "handover_form": handover_form,
        "seats": seat_rows(game),  # each seat once, the one owing an order with since and until when
        "default_order_note": default_order_note(game),
        "final_result": final_result(game),
    }
    return render(request, "games/organiser_deadlines.html", context, status=status)
