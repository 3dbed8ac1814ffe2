"""An unsubscribe link opens only for whom it was mailed to (docs/long-games.md, "Mail preferences"):
the game's organiser while they run it, the seat's player while they hold it. Every link here is
taken from an email actually sent; the organiser changes as an operator changes it, in the admin."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from html.parser import HTMLParser

import pytest
import time_machine
from django.contrib.auth.models import User
from django.core import mail
from django.urls import reverse

from games.models import DeadlineSettings, Game, NotificationPreference
from games.services.deadline_tick import tick
from games.words.clock import recompute_deadlines
from notifications.services import deliver_outbox
from tests.notifications.celery_fixtures import anymail_outbox  # noqa: F401
from tests.order_loop_support import seats_to_act, two_player_game

T0 = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)  # a Tuesday
SITE = "http://127.0.0.1:8000"
GONE_EN = "This link no longer applies"
GONE_DE = "Dieser Link gilt nicht mehr"


def at(hours: float) -> datetime:
    return T0 + timedelta(hours=hours)


def sent_to(address: str) -> list:
    deliver_outbox()
    return [m for m in mail.outbox if m.to == [address]]


def unsubscribe_path(message) -> str:
    return message.extra_headers["List-Unsubscribe"].strip("<>").removeprefix(SITE)


def miss_turns(game: Game, first: int, last: int) -> None:
    """Both players are away: turn after turn the deadline passes and the server plays for them."""
    for turn in range(first, last + 1):
        with time_machine.travel(at(24 * turn + 0.5), tick=False):
            assert len(tick().defaults) == 1


class _FormFields(HTMLParser):
    """What a browser posts from the admin's change form: its inputs, selects and textareas."""

    def __init__(self) -> None:
        super().__init__()
        self.data: dict[str, str] = {}
        self._select: str | None = None
        self._textarea: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        name = a.get("name", "")
        if tag == "input" and name and a.get("type") not in {"submit", "checkbox", "file"}:
            self.data[name] = a.get("value", "")
        elif tag == "input" and name and a.get("type") == "checkbox" and "checked" in a:
            self.data[name] = a.get("value", "on")
        elif tag == "select":
            self._select = name
            self.data.setdefault(name, "")
        elif tag == "option" and self._select and "selected" in a:
            self.data[self._select] = a.get("value", "")
        elif tag == "textarea":
            self._textarea = name
            self.data[name] = ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None
        elif tag == "textarea":
            self._textarea = None

    def handle_data(self, data: str) -> None:
        if self._textarea:
            self.data[self._textarea] += data


def admin_form(client, url: str) -> dict[str, str]:
    """The fields of the admin's change form at `url`, as a browser would post them unchanged."""
    form = _FormFields()
    form.feed(client.get(url).text)
    return {**form.data, "_save": "Save"}


def admin_sets_organiser(client, game: Game, organiser: User | None) -> None:
    """An operator opens the game in the admin, picks another organiser (or none) and saves."""
    url = reverse("admin:games_game_change", args=[game.pk])
    fields = admin_form(client, url)
    fields["organiser"] = "" if organiser is None else str(organiser.pk)
    response = client.post(url, fields)
    assert response.status_code == 302, response.text[:2000]
    game.refresh_from_db()
    assert game.organiser == organiser


@pytest.fixture
def game(db, anymail_outbox):  # noqa: F811
    olga = User.objects.create_user("olga", "olga@example.com", "pw")
    with time_machine.travel(T0, tick=False):
        created = two_player_game(organiser=olga, name="Slow game")
    DeadlineSettings.objects.create(game=created, turn_hours=24, missed_turns_alert=2)
    recompute_deadlines(created)
    deliver_outbox()
    mail.outbox.clear()
    return created


@pytest.fixture
def operator(client):
    client.force_login(User.objects.create_superuser("op", "op@example.com", "pw"))
    return client


def alerts_on() -> bool:
    return DeadlineSettings.objects.get().alert_organiser


def test_finding_a_former_organisers_unsubscribe_link_opens_nothing_once_the_admin_gives_the_game_to_another(
    game, operator, client
):
    """Finding (issue list "Secrets stay secret": unsubscribe tokens of a game stop working for an
    organiser who no longer runs it): Olga's absent-player alert carries a link that, after the
    operator gave the game to Petra, still turned Petra's alerts off, and on again."""
    petra = User.objects.create_user("petra", "petra@example.com", "pw")
    miss_turns(game, 1, 3)  # the first player to act misses turns 1 and 3: Olga is told
    (olgas_alert,) = sent_to("olga@example.com")
    olgas_link = unsubscribe_path(olgas_alert)
    admin_sets_organiser(operator, game, petra)
    operator.logout()

    page = client.get(olgas_link)
    assert page.status_code == 410 and GONE_EN in page.text and "no longer runs this game" in page.text
    assert "<form" not in page.text  # nothing to press
    assert client.post(olgas_link, {"List-Unsubscribe": "One-Click"}).status_code == 410  # RFC 8058
    assert alerts_on()  # Petra's alerts stand
    german = client.get(olgas_link, headers={"accept-language": "de"})
    assert german.status_code == 410 and GONE_DE in german.text and "nicht mehr leitet" in german.text

    # Petra hears of the next absent player; her own link from that alert works, one click.
    miss_turns(game, 4, 4)
    (petras_alert,) = sent_to("petra@example.com")
    assert len(sent_to("olga@example.com")) == 1  # and Olga of nothing more
    petras_link = unsubscribe_path(petras_alert)
    assert petras_link != olgas_link
    page = client.get(petras_link)
    assert page.status_code == 200 and "No more emails about absent players" in page.text
    assert client.post(petras_link, {"List-Unsubscribe": "One-Click"}).status_code == 200
    assert not alerts_on()
    assert client.post(petras_link, {"subscribe": "1"}).status_code == 200
    assert alerts_on()
    # Olga's link, even now, neither stops nor restarts anything.
    assert client.post(olgas_link, {"subscribe": "0"}).status_code == 410 and alerts_on()


def test_the_current_organisers_link_keeps_working_and_a_game_without_organiser_opens_nothing(
    game, operator, client
):
    """Olga runs the game throughout: her alert's link stops and restarts her alerts. Once the
    operator leaves the game without organiser, it opens nothing."""
    miss_turns(game, 1, 3)
    (alert,) = sent_to("olga@example.com")
    link = unsubscribe_path(alert)
    assert client.post(link, {"List-Unsubscribe": "One-Click"}).status_code == 200 and not alerts_on()
    page = client.post(link, {"subscribe": "1"})
    assert page.status_code == 200 and "Stop it?" in page.text and alerts_on()
    admin_sets_organiser(operator, game, None)
    assert client.post(link, {"List-Unsubscribe": "One-Click"}).status_code == 410 and alerts_on()


def test_a_deactivated_organiser_is_mailed_no_alerts_and_their_link_opens_nothing(game, client):
    """An operator deactivates Olga's account (the admin's "active" box): her alert's link opens
    nothing, and the next absent player is not reported to an address that has lost its access."""
    miss_turns(game, 1, 3)
    (alert,) = sent_to("olga@example.com")
    User.objects.filter(username="olga").update(is_active=False)
    assert client.post(unsubscribe_path(alert), {"List-Unsubscribe": "One-Click"}).status_code == 410
    assert alerts_on()
    miss_turns(game, 4, 4)
    assert len(sent_to("olga@example.com")) == 1


def test_a_players_link_opens_nothing_once_the_seat_is_handed_over_and_the_substitutes_works(game, client):
    """Ana's seat passes to Sue on the organiser's deadline page: the unsubscribe link of Ana's
    emails no longer stops (or restarts) the seat's emails; Sue's link from her welcome does."""
    ana = seats_to_act(game)[0]
    miss_turns(game, 1, 1)
    anas_mail = sent_to(ana.email)
    assert anas_mail, "Ana was told she missed her turn"
    anas_link = unsubscribe_path(anas_mail[-1])
    client.force_login(game.organiser)
    response = client.post(
        reverse("games:organiser-deadlines", args=[game.pk]),
        {"form": "handover", "seat": ana.pk, "name": "Sue", "email": "sue@example.com"},
    )
    assert response.status_code == 302
    client.logout()

    page = client.get(anas_link, headers={"accept-language": "de"})
    assert page.status_code == 410 and GONE_DE in page.text and "übergeben" in page.text
    page = client.post(anas_link, {"List-Unsubscribe": "One-Click"})
    assert page.status_code == 410 and GONE_EN in page.text and "handed over" in page.text
    assert not NotificationPreference.objects.filter(seat=ana, unsubscribed=True).exists()
    (welcome,) = sent_to("sue@example.com")
    sues_link = unsubscribe_path(welcome)
    assert client.post(sues_link, {"List-Unsubscribe": "One-Click"}).status_code == 200
    assert NotificationPreference.objects.get(seat=ana).unsubscribed
    assert client.post(anas_link, {"subscribe": "1"}).status_code == 410  # nor can Ana undo Sue's choice
    assert NotificationPreference.objects.get(seat=ana).unsubscribed


def test_finding_an_operators_new_address_for_a_seat_withdraws_the_old_addresses_keys(game, operator, client):
    """Finding (same list): an operator who corrected a seat's address in the admin (the seat's own
    page, or the game's seat rows) left the old address's unsubscribe link, player link and reply
    addresses working, so whoever read the old address could still stop the new one's emails.
    The same mailbox in other letters keeps its links."""
    ana, ben = seats_to_act(game)[0], game.seats.exclude(pk=seats_to_act(game)[0].pk).get()
    miss_turns(game, 1, 1)
    anas_link = unsubscribe_path(sent_to(ana.email)[-1])
    bens_link = unsubscribe_path(sent_to(ben.email)[-1])
    # Whoever read the old address chose no emails: that choice must not bind the new one.
    assert client.post(anas_link, {"List-Unsubscribe": "One-Click"}).status_code == 200

    url = reverse("admin:games_seat_change", args=[ana.pk])
    page = operator.post(url, {**admin_form(operator, url), "email": "ana.new@example.com"}, follow=True)
    assert "the links mailed to the old one no longer work" in page.text
    assert client.post(anas_link, {"subscribe": "1"}).status_code == 410
    assert not NotificationPreference.objects.filter(seat=ana).exists()  # the new address starts afresh

    url = reverse("admin:games_game_change", args=[game.pk])
    fields = admin_form(operator, url)
    (row,) = [k.removesuffix("-id") for k, v in fields.items() if k.endswith("-id") and v == str(ben.pk)]
    assert operator.post(url, {**fields, f"{row}-email": ben.email.upper()}).status_code == 302
    assert client.get(bens_link).status_code == 200  # the same mailbox: nothing withdrawn
    assert operator.post(url, {**fields, f"{row}-email": "ben.new@example.com"}).status_code == 302
    assert client.post(bens_link, {"List-Unsubscribe": "One-Click"}).status_code == 410

    # The new addresses' next emails carry links that work.
    miss_turns(game, 2, 3)
    for address in ("ana.new@example.com", "ben.new@example.com"):
        (message, *_rest) = sent_to(address)
        assert client.get(unsubscribe_path(message)).status_code == 200
