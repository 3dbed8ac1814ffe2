"""The players' emails name the organiser by the name they gave, never by their address (docs/front-door.md).

A new user's walk: Olga signed in by email (no name was ever asked), created a game, and the players'
welcome said "olga.berlin@example.com hat AEGEAPOLIS Berlin–London gestartet". Both new-game forms
now ask "Your name, as the players will see it", prefilled with the account's, kept on the account;
left blank, the emails say "The organiser" / "Die Spielleitung". Asserted on the emails as sent,
in English and German, on a phone.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core import mail

from games.models import Game
from notifications.services import deliver_outbox
from tests.browser.support import I18N_SHOTS, PHONE, signed_in_by_email
from tests.notifications.celery_fixtures import anymail_outbox  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.slow]

OLGA = "olga.berlin@example.com"
CASES = {
    "en": ("en-GB", "Your name, as the players will see it", "{} has started AEGEAPOLIS Berlin–London"),
    "de": (
        "de-DE",
        "Dein Name, wie die Mitspielenden ihn sehen",
        "{} hat AEGEAPOLIS Berlin–London gestartet",
    ),
}
NOBODY = {"en": "The organiser", "de": "Die Spielleitung"}


def _welcomes() -> list:
    deliver_outbox()
    welcomes = [m for m in mail.outbox if m.tags[0] == "welcome"]
    mail.outbox.clear()
    return welcomes


def _create(page, live_server, language: str, name: str | None) -> None:
    page.goto(f"{live_server.url}/organiser/games/new/")
    page.fill("#id_name", "Berlin–London")
    page.select_option("#id_language", language)
    if name is not None:
        page.fill("#id_organiser_name", name)
    page.fill("#id_players", "Ana <ana@example.com>:athens\nBen <ben@example.com>:sparta")
    page.click("main button[type=submit]")
    page.wait_for_url("**/organiser/games/*/")


@pytest.mark.parametrize("language", CASES)
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("anymail_outbox")
def test_the_welcome_names_the_organiser_by_the_name_they_gave_else_the_organiser(
    live_server, browser, language
):
    locale, label, started = CASES[language]
    page = browser.new_context(locale=locale, viewport=PHONE).new_page()
    signed_in_by_email(page, live_server, OLGA)
    page.goto(f"{live_server.url}/organiser/games/new/")
    field = page.locator("#id_organiser_name")
    assert page.locator("label[for='id_organiser_name']").inner_text() == label
    assert field.input_value() == ""  # the account has no name: asked, not guessed from the address
    I18N_SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(I18N_SHOTS / f"organiser-name-{language}.png"), full_page=True)

    # Left blank: "The organiser" / "Die Spielleitung", never the address.
    _create(page, live_server, language, None)
    welcomes = _welcomes()
    assert len(welcomes) == 2
    for welcome in welcomes:
        for body in (welcome.body, welcome.alternatives[0][0]):
            assert started.format(NOBODY[language]) in body and OLGA not in body

    # Named: the name is kept on the account, the next form starts with it, the emails use it.
    _create(page, live_server, language, "Olga")
    assert get_user_model().objects.get(username=OLGA).get_full_name() == "Olga"
    for welcome in _welcomes():
        assert started.format("Olga") in welcome.body and OLGA not in welcome.body
    page.goto(f"{live_server.url}/organiser/games/new/")
    assert page.locator("#id_organiser_name").input_value() == "Olga"
    assert Game.objects.count() == 2
