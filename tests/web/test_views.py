"""The player page, the JSON API, the organiser pages and the dev mailbox (docs/order-loop.md)."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from games.engine import Move, legal_commands
from games.models import Event, Game
from games.reading.links import link_token
from games.reading.situation import load_game
from notifications.models import Outbox
from tests.browser_like_client import BrowserLikeClient
from tests.order_loop_support import seats_to_act, two_player_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def game():
    return two_player_game()


@pytest.fixture
def on_turn(game):
    return seats_to_act(game)[0]


def page_url(seat) -> str:
    return reverse("games:play", args=[seat.game_id, link_token(seat)])


def counts(game) -> tuple[int, int]:
    return Event.objects.filter(game=game).count(), Outbox.objects.filter(game_id=game.pk).count()


def test_player_page_shows_own_screen_whose_turn_and_a_form_per_available_action(client, game, on_turn):
    other = game.seats.exclude(pk=on_turn.pk).get()
    page = client.get(page_url(on_turn)).content.decode()
    assert "431 BC, action round 1 of 3." in page and "It is your turn." in page
    for kind in ("pass", "expand", "move", "recruit"):
        assert f'id="order-{kind}"' in page
    # H-SCREEN: the other player's coins are hidden; one's own are listed.
    state = load_game(game).state
    own = state.players[on_turn.faction].coins_behind_screen
    assert "hidden" in page
    assert all(f"{n} {design}" in page for design, n in own.items())
    other_page = client.get(page_url(other)).content.decode()
    assert f"Waiting for {on_turn.faction.capitalize()}." in other_page
    assert 'id="order-' not in other_page
    # On a phone the forms are far below: the turn line links straight to them, only for who can act.
    assert 'href="#orders"' in page and 'href="#orders"' not in other_page


def test_expand_through_the_form_is_accepted_and_its_result_shown(client, game, on_turn):
    seq = load_game(game).seq
    space = next(
        c.space for c in legal_commands(load_game(game).state, on_turn.faction) if c.kind == "expand"
    )
    data = {"kind": "expand", "expected_seq": seq, "expand-space": space.lower(), "expand-source": "deck"}
    response = client.post(page_url(on_turn), data)
    assert response.status_code == 302
    page = client.get(page_url(on_turn)).content.decode()
    assert "Your order was accepted." in page
    assert f"expanded to {space}: a neutral Polis" in page
    assert Event.objects.filter(game=game, type="PolisFounded", actor=on_turn.faction).count() == 1


def test_engine_error_is_shown_next_to_the_form_and_nothing_changes(client, game, on_turn):
    before = counts(game)
    data = {"kind": "expand", "expected_seq": before[0], "expand-space": "I9", "expand-source": "deck"}
    response = client.post(page_url(on_turn), data)
    assert response.status_code == 400
    page = response.content.decode()
    error_at = page.index('class="order-error"')
    nearest_form = page.rfind('id="order-', 0, error_at)
    assert nearest_form == page.rfind('id="order-expand"', 0, error_at)  # inside the Expand form
    assert (
        '(rule <a class="rule-link" href="/rules/en/#S-EXP"' in page[error_at : error_at + 400]
    )  # its rule linked
    assert 'value="I9"' in page  # the player's input is kept
    assert counts(game) == before


def test_move_through_the_form(client, game, on_turn):
    state = load_game(game).state
    move = next(c for c in legal_commands(state, on_turn.faction) if isinstance(c, Move))
    data = {"kind": "move", "expected_seq": load_game(game).seq, "move-origin": move.origin}
    for i, d in enumerate(move.destinations, start=1):
        data |= {
            f"move-to{i}": d.space,
            f"move-phalanxes{i}": d.phalanxes,
            f"move-navigators{i}": d.navigators,
        }
        if d.king:
            data[f"move-king{i}"] = "on"
    for i in range(len(move.destinations) + 1, 4):
        data |= {f"move-to{i}": "", f"move-phalanxes{i}": "", f"move-navigators{i}": ""}
    response = client.post(page_url(on_turn), data)
    assert response.status_code == 302, response.content.decode()
    assert Event.objects.filter(game=game, type="UnitsMoved", actor=on_turn.faction).count() == 1
    assert f"moved from {move.origin} to" in client.get(page_url(on_turn)).content.decode()


def test_stale_form_says_the_game_has_moved_on_and_shows_the_current_state(client, game, on_turn):
    stale = load_game(game).seq
    assert client.post(page_url(on_turn), {"kind": "pass", "expected_seq": stale}).status_code == 302
    other = game.seats.exclude(pk=on_turn.pk).get()
    before = counts(game)
    response = client.post(page_url(other), {"kind": "pass", "expected_seq": stale})
    assert response.status_code == 409
    assert "The game has moved on" in response.content.decode()
    assert counts(game) == before


def test_h_order_a_double_tap_on_the_order_button_is_told_the_order_was_already_accepted(
    client, game, on_turn
):
    page_seq = load_game(game).seq
    url = page_url(on_turn)  # once: a link signed a second later reads differently
    assert client.post(url, {"kind": "pass", "expected_seq": page_seq}).status_code == 302
    before = counts(game)
    again = client.post(url, {"kind": "pass", "expected_seq": page_seq}, follow=True)
    page_path = reverse("games:seat", args=[game.pk, on_turn.pk])  # the link's token-free address
    assert again.redirect_chain == [(page_path + "#main", 302)]  # the confirmation at the top of the page
    page = again.content.decode()
    assert "Your order was already accepted; it was not given a second time." in page
    assert "The game has moved on" not in page
    assert counts(game) == before


def test_unreadable_order_is_refused_with_a_message(client, game, on_turn):
    before = counts(game)
    assert client.post(page_url(on_turn), {"kind": "pass", "expected_seq": "x"}).status_code == 400
    response = client.post(page_url(on_turn), {"kind": "teleport", "expected_seq": before[0]})
    assert response.status_code == 400
    assert "Unknown kind of order" in response.content.decode()
    assert counts(game) == before


def test_player_page_form_needs_its_csrf_token(game, on_turn):
    strict = BrowserLikeClient(enforce_csrf_checks=True)
    response = strict.post(page_url(on_turn), {"kind": "pass", "expected_seq": load_game(game).seq})
    assert response.status_code == 403


def test_page_is_served_in_the_players_language(client):
    from games.services.game_setup import PlayerSpec, create_game

    game = create_game(
        [PlayerSpec("Ute", "ute@example.com", "thebes"), PlayerSpec("Bo", "bo@example.com", "corinth")], "de"
    )
    seat = game.seats.first()
    response = client.get(page_url(seat))
    assert response["Content-Language"] == "de"
    assert '<html lang="de">' in response.content.decode()


# --- JSON API ---------------------------------------------------------------------------------


def api(game, what: str) -> str:
    return reverse(f"games:api-{what}", args=[game.pk])


def bearer(seat) -> dict[str, str]:
    return {"HTTP_AUTHORIZATION": f"Bearer {link_token(seat)}"}


def test_api_state_returns_the_players_view(client, game, on_turn):
    body = client.get(api(game, "state"), **bearer(on_turn)).json()
    assert body["faction"] == on_turn.faction and body["seq"] == load_game(game).seq
    assert body["must_act"] == [on_turn.faction]
    assert {"kind": "pass", "player": on_turn.faction} in body["legal_commands"]
    others = [f for f in body["view"]["players"] if f != on_turn.faction]
    assert all(body["view"]["players"][f]["coins_behind_screen"] == "hidden" for f in others)
    assert "deck" not in body["view"]


def test_api_refuses_missing_forged_and_other_game_tokens(client, game, on_turn):
    other_game = two_player_game()
    assert client.get(api(game, "state")).status_code == 403
    assert client.get(api(game, "state"), HTTP_AUTHORIZATION="Bearer forged").status_code == 403
    assert client.get(api(other_game, "state"), **bearer(on_turn)).status_code == 404
    before = counts(other_game)
    body = json.dumps({"expected_seq": before[0], "command": {"kind": "pass"}})
    response = client.post(
        api(other_game, "orders"), body, content_type="application/json", **bearer(on_turn)
    )
    assert response.status_code == 404
    assert counts(other_game) == before


def test_api_order_is_token_authenticated_without_csrf(game, on_turn):
    strict = BrowserLikeClient(enforce_csrf_checks=True)
    seq = load_game(game).seq
    body = json.dumps({"expected_seq": seq, "command": {"kind": "pass"}})
    response = strict.post(api(game, "orders"), body, content_type="application/json", **bearer(on_turn))
    assert response.status_code == 201
    result = response.json()
    assert result["events"][:2] == [
        {"seq": seq + 1, "type": "OrderGiven"},
        {"seq": seq + 2, "type": "PlayerPassed"},
    ]
    assert f"{on_turn.faction.capitalize()} passed." in result["happened"]
    # H-ORDER: a client that lost the answer and sends the order again hears it was accepted.
    before = counts(game)
    again = strict.post(api(game, "orders"), body, content_type="application/json", **bearer(on_turn))
    assert again.status_code == 200
    assert again.json() == {
        "already_accepted": True,
        "order_seq": seq + 1,
        "message": "Your order was already accepted; it was not given a second time.",
    }
    assert counts(game) == before


def test_api_order_errors_name_the_rule_and_change_nothing(client, game, on_turn):
    before = counts(game)
    illegal = json.dumps({"expected_seq": before[0], "command": {"kind": "fortify", "space": "I9"}})
    response = client.post(api(game, "orders"), illegal, content_type="application/json", **bearer(on_turn))
    assert response.status_code == 400 and response.json()["error"]["code"] == "rule_violation"
    assert response.json()["error"]["rule"]
    for malformed in (
        "not json",
        json.dumps({"command": {"kind": "pass"}}),
        json.dumps({"expected_seq": "1", "command": {}}),
    ):
        bad = client.post(api(game, "orders"), malformed, content_type="application/json", **bearer(on_turn))
        assert bad.status_code == 400
    spoof = json.dumps({"expected_seq": before[0], "command": {"kind": "pass", "player": "thebes"}})
    assert (
        client.post(
            api(game, "orders"), spoof, content_type="application/json", **bearer(on_turn)
        ).status_code
        == 400
    )
    assert counts(game) == before


def test_api_order_with_a_revoked_link_or_an_old_seq_is_refused_in_the_seats_language(client, game, on_turn):
    """The seat is checked with the game's lock (orders.submit_linked_order): a refused order's
    answer reads the seat again for its language, and nothing changes."""
    from games.reading.links import revoke_links

    token = bearer(on_turn)
    on_turn.language = "de"
    on_turn.save(update_fields=["language"])
    before = counts(game)
    stale = json.dumps({"expected_seq": before[0] - 1, "command": {"kind": "pass"}})
    moved = client.post(api(game, "orders"), stale, content_type="application/json", **token)
    assert moved.status_code == 409
    assert moved.json()["error"]["code"] == "moved_on"
    assert moved.json()["error"]["message"].startswith("Die Partie ist weitergegangen")

    revoke_links(on_turn)
    fresh = json.dumps({"expected_seq": before[0], "command": {"kind": "pass"}})
    revoked = client.post(api(game, "orders"), fresh, content_type="application/json", **token)
    assert (revoked.status_code, revoked.json()["error"]["code"]) == (403, "revoked")
    assert counts(game) == before


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("not json", 'Sende {"expected_seq": n, "command": {...}} als JSON.'),
        (json.dumps({"expected_seq": "1", "command": {}}), "expected_seq muss eine ganze Zahl sein."),
    ],
)
def test_api_answers_a_malformed_order_in_the_seats_language(client, game, on_turn, body, message):
    on_turn.language = "de"
    on_turn.save(update_fields=["language"])
    before = counts(game)
    response = client.post(api(game, "orders"), body, content_type="application/json", **bearer(on_turn))
    assert response.status_code == 400
    assert response.json()["error"] == {"code": "malformed", "message": message}
    assert counts(game) == before


DEEP = "[" * 100_000 + "]" * 100_000  # nested far beyond Python's recursion limit


@pytest.mark.parametrize(
    ("body", "code"),
    [
        (DEEP, "malformed"),
        ('{"expected_seq": 1, "command": {"kind": "pass", "x": ' + DEEP + "}}", "malformed"),
        (json.dumps({"expected_seq": 1, "command": {"kind": ["pass"]}}), "rule_violation"),
        (json.dumps({"expected_seq": 1, "command": {"kind": {"pass": 1}}}), "rule_violation"),
    ],
    ids=["deep-body", "deep-field", "kind-list", "kind-object"],
)
def test_api_refuses_deeply_nested_json_and_a_kind_that_is_no_word_with_400_not_500(
    client, game, on_turn, body, code
):
    """JSON nested too deep raised RecursionError and a list as the kind TypeError: both were 500."""
    before = counts(game)
    response = client.post(api(game, "orders"), body, content_type="application/json", **bearer(on_turn))
    assert response.status_code == 400
    assert response.json()["error"]["code"] == code
    assert counts(game) == before


@pytest.mark.parametrize("command", [DEEP, json.dumps({"kind": ["pass"]})], ids=["deep", "kind-list"])
def test_suggested_order_nested_too_deep_or_with_a_list_as_kind_is_refused_with_400(
    client, game, on_turn, command
):
    before = counts(game)
    response = client.post(
        page_url(on_turn), {"kind": "suggested", "expected_seq": before[0], "command": command}
    )
    assert response.status_code == 400
    assert counts(game) == before


def test_api_order_reads_its_seat_with_the_games_lock_not_before(client, game, on_turn):
    """An accepted API order costs the order's own statements: no query of the view's for the seat."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    body = json.dumps({"expected_seq": load_game(game).seq, "command": {"kind": "pass"}})
    with CaptureQueriesContext(connection) as queries:
        response = client.post(api(game, "orders"), body, content_type="application/json", **bearer(on_turn))
    assert response.status_code == 201
    selects = [q["sql"] for q in queries.captured_queries if q["sql"].lstrip().startswith("SELECT")]
    assert "FOR UPDATE" in selects[0] and "games_seat" in selects[0]  # order_lock.lock_game is first
    assert not any("games_seat" in sql for sql in selects[1:])


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("en", "The order is missing the field space. (rule H-ORDER)"),
        ("de", "Dem Befehl fehlt das Feld space. (Regel H-ORDER)"),
    ],
)
def test_h_order_the_api_refuses_an_order_missing_a_field_naming_it(client, game, on_turn, language, message):
    on_turn.language = language
    on_turn.save(update_fields=["language"])
    before = counts(game)
    body = json.dumps({"expected_seq": load_game(game).seq, "command": {"kind": "fortify"}})
    response = client.post(api(game, "orders"), body, content_type="application/json", **bearer(on_turn))
    assert response.status_code == 400
    error = response.json()["error"]
    assert (error["code"], error["rule"], error["message"]) == ("rule_violation", "H-ORDER", message)
    assert counts(game) == before


# --- organiser pages and the dev mailbox --------------------------------------------------------


@pytest.fixture
def organiser(client):
    user = get_user_model().objects.create_user("olga", password="secret-pass-1")
    client.force_login(user)
    return user


def test_organiser_pages_need_sign_in(client):
    response = client.get(reverse("games:organiser"))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    assert client.get(reverse("login")).status_code == 200


def test_organiser_creates_a_game_and_watches_it(client, organiser):
    players = "Ana <ana@example.com>:athens\nBen <ben@example.com>:sparta\n"
    data = {"name": "Friday game", "language": "en", "players": players}
    response = client.post(reverse("games:organiser-new"), data)
    game = Game.objects.get(name="Friday game")
    assert response.status_code == 302 and response["Location"] == reverse(
        "games:organiser-game", args=[game.pk]
    )
    assert game.organiser == organiser
    assert Outbox.objects.filter(game_id=game.pk, kind="welcome").count() == 2
    listing = client.get(reverse("games:organiser")).content.decode()
    assert "Friday game" in listing and "431 BC" in listing and "action round 1 of 3" in listing
    detail = client.get(reverse("games:organiser-game", args=[game.pk])).content.decode()
    assert "Ana (Athens)" in detail
    assert "received 3 AP, 1 FP and coins behind their screen." in detail  # a spectator: no screens


def test_organiser_form_errors_create_nothing(client, organiser):
    data = {"name": "", "language": "en", "players": "Ana <ana@example.com>:athens\n"}
    response = client.post(reverse("games:organiser-new"), data)
    assert response.status_code == 400
    assert "A game has 2 to 4 players." in response.content.decode()
    assert not Game.objects.exists()


def test_organiser_form_with_a_name_or_address_too_long_for_a_seat_is_a_400_not_a_500(client, organiser):
    for players, message in (
        ("B" * 101 + " <b@example.com>:sparta\n", "Der Name eines Spielers hat höchstens 100 Zeichen."),
        ("Bo <" + "b" * 250 + "@example.com>:sparta\n", "ist keine E-Mail-Adresse."),
    ):
        data = {"name": "", "language": "de", "players": players + "Ana <ana@example.com>:athens"}
        response = client.post(reverse("games:organiser-new"), data, HTTP_ACCEPT_LANGUAGE="de")
        assert response.status_code == 400
        assert message in response.content.decode()
    assert not Game.objects.exists()


def test_organiser_sees_only_their_own_games(client, organiser, game):
    assert client.get(reverse("games:organiser-game", args=[game.pk])).status_code == 404
    assert game.name not in client.get(reverse("games:organiser")).content.decode()


def test_mailbox_page_only_with_debug(client, settings, tmp_path):
    settings.EMAIL_FILE_PATH = str(tmp_path)
    (tmp_path / "20261130-080000-1.log").write_text(
        "Subject: your turn\nTo: ana@example.com\n\nhello\n" + "-" * 79 + "\n"
    )
    # A browser on this machine (tests/aegea_pbem/test_unsafe_defaults.py).
    local = {"HTTP_HOST": "127.0.0.1:8000"}
    settings.DEBUG = False
    assert client.get(reverse("games:mailbox"), **local).status_code == 404
    settings.DEBUG = True
    assert "your turn" in client.get(reverse("games:mailbox"), **local).content.decode()
    message = client.get(reverse("games:mailbox-message", args=["20261130-080000-1.log:0"]), **local)
    assert message.status_code == 200 and b"hello" in message.content
    assert client.get(reverse("games:mailbox-message", args=["..%2Fsecret:0"]), **local).status_code == 404
    beyond = reverse("games:mailbox-message", args=["20261130-080000-1.log:7"])
    assert client.get(beyond, **local).status_code == 404


def test_tile_choice_is_answered_through_its_own_form(client, game, on_turn):
    state = load_game(game).state
    expand = next(
        c
        for c in legal_commands(state, on_turn.faction)
        if c.kind == "expand" and c.second_source and not c.link_from
    )
    data = {
        "kind": "expand",
        "expected_seq": load_game(game).seq,
        "expand-space": expand.space,
        "expand-source": expand.source,
        "expand-second_source": expand.second_source,
    }
    assert client.post(page_url(on_turn), data).status_code == 302
    state = load_game(game).state
    assert state.phase == "choice"
    page = client.get(page_url(on_turn)).content.decode()
    assert 'id="order-choose_tile"' in page and 'id="order-expand"' not in page
    keep = state.pending_choice.tiles[0]
    choice = {"kind": "choose_tile", "expected_seq": load_game(game).seq, "choose_tile-keep": keep}
    assert client.post(page_url(on_turn), choice).status_code == 302
    assert load_game(game).state.board[expand.space].tile_id == keep


def test_sealed_winter_order_is_given_through_the_coin_form(client, game):
    from games.engine import Pass
    from games.services.orders import submit_order

    while load_game(game).state.phase != "winter_orders":
        seat = seats_to_act(game)[0]
        submit_order(game, seat, Pass(seat.faction), load_game(game).seq)
    seat = seats_to_act(game)[0]
    coins = load_game(game).state.players[seat.faction].coins_behind_screen
    design, count = next((d, n) for d, n in sorted(coins.items()) if n)
    page = client.get(page_url(seat)).content.decode()
    assert 'id="order-commit_coins"' in page and "sealed winter orders" in page
    data = {"kind": "commit_coins", "expected_seq": load_game(game).seq, "commit_coins-blanks": 0}
    data |= {f"commit_coins-{d}": 0 for d in ("owl", "pegasus", "shield", "turtle")}
    data[f"commit_coins-{design}"] = count + 1  # more than the screen holds: refused by the engine
    response = client.post(page_url(seat), data)
    assert response.status_code == 400 and 'class="order-error"' in response.content.decode()
    data[f"commit_coins-{design}"] = count
    assert client.post(page_url(seat), data).status_code == 302
    assert load_game(game).state.winter_orders[seat.faction]["coins"] == {design: count}


def test_an_order_kind_without_a_form_gets_none_but_stays_among_the_suggestions(game, on_turn):
    from games.engine import Pass
    from games.web.forms.kinds import order_forms
    from games.web.views.play import sample_orders

    class AcceptOffer(Pass):  # a kind of order the page has no form for (its answers are suggestions)
        kind = "accept_offer"

    legal = [AcceptOffer(on_turn.faction), Pass(on_turn.faction)]
    assert list(order_forms(load_game(game).state, on_turn.faction, legal)) == ["pass"]
    assert [c.kind for c in sample_orders(legal)] == ["accept_offer", "pass"]
