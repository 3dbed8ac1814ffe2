"""Hostile input: property-based and bounded fuzz runs over commands, the JSON API and signed links.
Every answer is a clear refusal (never a server error) and a refused input changes nothing."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import RuleViolation, command_from_dict
from games.engine.commands import COMMAND_TYPES, Command
from games.models import Event
from games.reading.links import LinkError, link_token, resolve_link
from tests.order_loop_support import seats_to_act, two_player_game

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12,
)
field_names = st.sampled_from(
    sorted({f for cls in COMMAND_TYPES.values() for f in cls.__dataclass_fields__} | {"kind", "player", "x"})
)
orders = st.fixed_dictionaries(
    {"kind": st.sampled_from(sorted(COMMAND_TYPES)) | st.text(max_size=8)},
    optional={"player": st.sampled_from(["athens", "sparta", ""]) | st.integers()},
).flatmap(
    lambda base: st.dictionaries(field_names, json_values, max_size=5).map(lambda extra: {**extra, **base})
)


@given(raw=orders | json_values)
@settings(max_examples=400, deadline=None)
def test_h_order_command_from_dict_refuses_anything_malformed_with_a_rule_violation(raw):
    try:
        command = command_from_dict(raw)
    except RuleViolation as violation:
        assert violation.rule == "H-ORDER"
    else:
        assert isinstance(command, Command)
        # Every required field was there and readable (a missing one is refused above, naming it),
        # so what was accepted reads back as the same order.
        assert command_from_dict(command.to_dict()) == command


@pytest.mark.django_db
@given(
    body=st.one_of(
        st.binary(max_size=60),
        json_values.map(lambda v: json.dumps(v).encode()),
        st.builds(
            lambda seq, cmd: json.dumps({"expected_seq": seq, "command": cmd}).encode(),
            json_values,
            orders | json_values,
        ),
    )
)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_h_order_json_api_never_fails_with_a_server_error_and_refusals_change_nothing(client, api_game, body):
    game, seat, url = api_game
    before = Event.objects.filter(game=game).count()
    response = client.post(
        url, body, content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {link_token(seat)}"
    )
    assert response.status_code in (200, 201, 400, 409), response.content[:200]
    if response.status_code != 201:
        assert Event.objects.filter(game=game).count() == before
        # 200: an order accepted by an earlier example, sent again (H-ORDER); else a refusal.
        assert (
            "already_accepted" in response.json()
            if response.status_code == 200
            else "error" in response.json()
        )


@pytest.fixture
def api_game(db):
    game = two_player_game()
    seat = seats_to_act(game)[0]
    return game, seat, reverse("games:api-orders", args=[game.pk])


@pytest.mark.django_db
@given(token=st.text(max_size=80) | st.from_regex(r"[A-Za-z0-9_\-:]{1,80}", fullmatch=True))
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_forged_link_tokens_open_nothing(api_game, token):
    game, seat, _ = api_game
    with pytest.raises(LinkError):
        resolve_link(token if token != link_token(seat) else token + "x", game.pk)


@pytest.mark.django_db
@given(token=st.from_regex(r"[A-Za-z0-9_\-:.]{1,80}", fullmatch=True))
@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_player_page_answers_forged_links_with_a_clear_page_never_a_server_error(client, api_game, token):
    game, _, _ = api_game
    before = Event.objects.filter(game=game).count()
    response = client.post(f"/play/{game.pk}/{token}/", {"kind": "pass", "expected_seq": "1"})
    assert response.status_code in (403, 404)
    assert Event.objects.filter(game=game).count() == before
