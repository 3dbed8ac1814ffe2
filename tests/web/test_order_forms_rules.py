"""The player's order forms for Builders, Blanks, governments and hired Navigators (docs/rules.md).

Each form only reads what the player typed; the engine decides (S-BLANK, S-BUILDER, H-GOV, H-HEROES).
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Event
from games.reading.links import link_token
from games.reading.situation import load_game
from games.services.game_setup import PlayerSpec, create_game

pytestmark = pytest.mark.django_db

CORA = PlayerSpec("Cora", "cora@example.com", "corinth")
SAM = PlayerSpec("Sam", "sam@example.com", "sparta")
BOARD = {
    "C7": {"owner": "corinth", "phalanxes": 4, "king": True, "builders": 1},
    "D7": {"tile": "elis", "owner": "corinth"},
    "G3": {"owner": "sparta", "phalanxes": 4, "king": True},
}


def corinth_on_turn(**corinth):
    spec = {
        "players": {"corinth": {"fp": 0, "ap": 0, **corinth}, "sparta": {}},
        "seat_order": ["corinth", "sparta"],
        "board": BOARD,
    }
    game = create_game([CORA, SAM], scenario=spec)
    return game, game.seats.get(faction="corinth")


def post(client, game, seat, kind, fields):
    url = reverse("games:play", args=[game.pk, link_token(seat)])
    data = {"kind": kind, "expected_seq": load_game(game).seq} | {f"{kind}-{k}": v for k, v in fields.items()}
    return client.post(url, data)


def last(game, event_type):
    return Event.objects.filter(game=game, type=event_type).order_by("seq").last()


def test_s_blank_a_move_paid_in_blanks_through_the_form(client):
    game, seat = corinth_on_turn(blanks=1)
    page = client.get(reverse("games:play", args=[game.pk, link_token(seat)])).content.decode()
    assert 'name="move-blanks"' in page and 'name="move-builders1"' in page
    fields = {"origin": "C7", "to1": "d7", "phalanxes1": 4, "navigators1": 0, "builders1": 1, "blanks": 1}
    response = post(client, game, seat, "move", fields | {"king1": "on"})
    assert response.status_code == 302, response.content.decode()
    moved = last(game, "UnitsMoved").payload
    assert (moved["fp_paid"], moved["blanks"]) == (0, 1)
    assert load_game(game).state.board["D7"].builders == 1


def test_s_blank_paying_blanks_one_does_not_hold_is_refused_next_to_the_form(client):
    game, seat = corinth_on_turn(ap=3)
    response = post(client, game, seat, "fortify", {"space": "C7", "blanks": 2})
    assert (
        response.status_code == 400
        and '(rule <a class="rule-link" href="/rules/en/#S-BLANK"' in response.content.decode()
    )
    assert last(game, "FortificationBuilt") is None


def test_s_builder_recruit_a_builder_through_the_form(client):
    game, seat = corinth_on_turn()
    page = client.get(reverse("games:play", args=[game.pk, link_token(seat)])).content.decode()
    assert 'id="order-recruit_builder"' in page
    assert post(client, game, seat, "recruit_builder", {}).status_code == 302
    assert last(game, "BuilderRecruited").payload == {"player": "corinth", "space": "C7"}


def test_h_gov_reform_through_the_form(client):
    game, seat = corinth_on_turn()
    assert post(client, game, seat, "reform", {"government": "tyranny"}).status_code == 302
    assert load_game(game).state.players["corinth"].government == "tyranny"


def test_h_heroes_hire_a_navigator_through_the_recruit_form(client):
    game, seat = corinth_on_turn(ap=1, blanks=1)
    fields = {"space": "C7", "phalanxes": 0, "navigators": 1, "blanks": 1}
    assert post(client, game, seat, "recruit", fields).status_code == 302
    recruited = last(game, "PhalanxesRecruited").payload
    assert (recruited["navigators"], recruited["ap"], recruited["blanks"]) == (1, 1, 1)


def test_s_blank_suggested_orders_say_what_they_pay_in_blanks_hires_and_reforms():
    from games.engine import Fortify, RecruitBuilder, Reform
    from games.engine.commands import Recruit
    from games.words.orders import command_label

    assert command_label(Fortify("corinth", space="C7", blanks=2)) == "Fortify C7, paying 2 Blanks"
    hire = Recruit("corinth", space="C7", phalanxes=0, navigators=1)
    assert command_label(hire) == "Recruit in C7: hire 1 Navigator"
    assert (
        command_label(Reform("corinth", government="tyranny")) == "Reform: change the government to Tyranny"
    )
    assert command_label(RecruitBuilder("corinth")) == "Recruit a Builder"


def test_h_heroes_s_exp_link_h_actions_form_labels_read_their_prices_from_the_engines_data(monkeypatch):
    """The Recruit form's Navigator price, the Expand form's trade-link price and the Oracle's coin
    come from games/engine/data.py, as the engine charges them, not from words of their own."""
    from django.utils import translation

    from games.engine import data, scenario
    from games.web.forms.orders import ExpandForm, RecruitForm
    from games.words.trade import trade_command_text

    monkeypatch.setattr(data, "NAVIGATOR_AP", 3)
    monkeypatch.setattr(data, "LINK_FP", 2)
    monkeypatch.setattr(data, "ORACLE_COINS", 2)
    monkeypatch.setattr("games.words.trade.ORACLE_COINS", 2)
    state = scenario({"players": {"athens": {}, "sparta": {}}, "year": 431, "board": {}})
    with translation.override("de"):
        recruit = RecruitForm(state=state, faction="athens", legal=[])
        expand = ExpandForm(state=state, faction="athens", legal=[])
        oracle = trade_command_text({"kind": "oracle", "coin": "owl"})
    assert recruit.fields["navigators"].label == "Navigatoren anheuern (je 3 AP)"
    assert expand.fields["link_from"].label == "Handelsstraße bauen von (+2 FP)"
    assert "und 2 Münzen zahlen" in oracle
