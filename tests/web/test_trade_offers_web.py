"""Trade offers on the web (H-TRADE): the rival is mailed, sees the offer on their page and answers it there.

Rules: H-TRADE (accept/decline off turn, through the same order path), H-SCREEN (an offer's coins are
for its two sides only), H-MISSIONS (a player's page lists their own Mission Cards, nobody else's).
"""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from games.engine import AcceptOffer, Bundle, OfferTrade, Pass
from games.engine.data import FACTIONS
from games.models import Event
from games.reading.links import link_token, read_link
from games.reading.situation import load_game, player_screen
from games.services.game_setup import PlayerSpec, create_game
from games.services.orders import submit_order
from notifications.models import Outbox
from notifications.services import rendered
from tests.order_loop_support import seats_to_act, two_player_game

pytestmark = pytest.mark.django_db


def page_url(seat) -> str:
    return reverse("games:play", args=[seat.game_id, link_token(seat)])


def offer_one_ap_for_one_fp(game):
    """The seat on turn offers its rival 1 AP for 1 FP; returns (offering seat, rival seat)."""
    on_turn = seats_to_act(game)[0]
    rival = game.seats.exclude(pk=on_turn.pk).get()
    command = OfferTrade(on_turn.faction, to=rival.faction, give=Bundle(ap=1), take=Bundle(fp=1))
    submit_order(game, on_turn, command, load_game(game).seq)
    return on_turn, rival


def test_h_trade_the_rival_is_mailed_the_offers_terms_and_their_link() -> None:
    game = two_player_game()
    offering, rival = offer_one_ap_for_one_fp(game)
    (row,) = Outbox.objects.filter(game_id=game.pk, kind="offer")
    assert row.seat_id == rival.pk and row.to_email == rival.email
    mail = rendered(row)
    assert "1 AP" in mail.text and "1 FP" in mail.text
    # The link is the rival's own (signed a second apart from link_token's, so read, not compared).
    (token,) = re.findall(rf"/play/{game.pk}/([^/\s]+)/", mail.text)
    assert read_link(token, game.pk).seat_id == rival.pk
    assert offering.faction.capitalize() in mail.subject


def test_h_trade_the_rival_accepts_on_their_page_off_turn_without_spending_an_action(client) -> None:
    game = two_player_game()
    offering, rival = offer_one_ap_for_one_fp(game)
    before = load_game(game).state
    page = client.get(page_url(rival)).content.decode()
    assert 'id="offers"' in page and "offers you 1 AP for 1 FP" in page
    accept = json.dumps({"kind": "accept_offer", "player": rival.faction, "offer": 1})
    assert "Accept" in page and "Decline" in page
    response = client.post(
        page_url(rival), {"kind": "suggested", "expected_seq": load_game(game).seq, "command": accept}
    )
    assert response.status_code == 302
    after = load_game(game).state
    assert Event.objects.filter(game=game, type="OfferAccepted", actor=rival.faction).count() == 1
    assert after.players[rival.faction].ap == before.players[rival.faction].ap + 1
    assert after.players[offering.faction].fp == before.players[offering.faction].fp + 1
    assert after.player_on_turn == before.player_on_turn and after.offers == []


def test_h_order_a_form_order_told_the_game_moved_on_says_it_beside_the_form_the_page_opens_at(
    client,
) -> None:
    """The rival accepts the offer while the offering side, on turn again, has its page open: its
    order was decided on an old page. The form posts to its #details-…, so the page opens there,
    screens below the warning at the top (a phone): the form is open and says it too."""
    game = two_player_game()
    offering, rival = offer_one_ap_for_one_fp(game)
    submit_order(game, rival, Pass(rival.faction), load_game(game).seq)
    page_seq = load_game(game).seq  # the offering side's page of action round 2
    submit_order(game, rival, AcceptOffer(rival.faction, offer=1), page_seq)  # off turn (H-TRADE)
    before = Event.objects.filter(game=game).count()
    response = client.post(page_url(offering), {"kind": "pass", "expected_seq": page_seq})
    assert response.status_code == 409
    page = response.content.decode()
    moved = (
        "The game has moved on since you loaded this page: your order was not given, and nothing was"
        " changed. Look at the game as it is now."
    )
    assert 'id="details-pass" open>' in page
    form = page[page.index('id="order-pass"') : page.index("</form>", page.index('id="order-pass"'))]
    assert f'<p class="order-error" role="alert">{moved}</p>' in form
    assert page.count(moved) == 2  # at the top as well, where a wide screen opens
    assert Event.objects.filter(game=game).count() == before


def test_h_order_a_form_order_told_the_game_moved_on_keeps_what_the_player_typed(client) -> None:
    """Nothing typed is lost: the form comes back filled with the refused order, to be checked
    against the game as it stands now and sent again."""
    game = two_player_game()
    offering, rival = offer_one_ap_for_one_fp(game)
    submit_order(game, rival, Pass(rival.faction), load_game(game).seq)
    page_seq = load_game(game).seq
    submit_order(game, rival, AcceptOffer(rival.faction, offer=1), page_seq)
    native = FACTIONS[offering.faction].native_space
    typed = {"recruit-space": native, "recruit-phalanxes": "2", "recruit-navigators": "1"}
    response = client.post(page_url(offering), {"kind": "recruit", "expected_seq": page_seq, **typed})
    assert response.status_code == 409
    page = response.content.decode()
    form = page[page.index('id="order-recruit"') : page.index("</form>", page.index('id="order-recruit"'))]
    assert f'name="recruit-space" value="{native}"' in form
    assert 'name="recruit-phalanxes" value="2"' in form and 'name="recruit-navigators" value="1"' in form
    assert 'class="order-error"' in form  # the moved-on warning, not a field error of the refill
    assert "errorlist" not in form


def test_h_trade_the_offering_side_sees_it_waiting_and_may_not_answer_it(client) -> None:
    game = two_player_game()
    offering, _ = offer_one_ap_for_one_fp(game)
    page = client.get(page_url(offering)).content.decode()
    assert "waiting for the answer" in page and "accept_offer" not in page


def test_h_screen_a_third_player_sees_an_offer_was_made_but_not_its_coins(client) -> None:
    game = create_game(
        [
            PlayerSpec("Ana", "ana@example.com", "athens"),
            PlayerSpec("Ben", "ben@example.com", "sparta"),
            PlayerSpec("Cy", "cy@example.com", "thebes"),
        ]
    )
    on_turn = seats_to_act(game)[0]
    state = load_game(game).state
    screen = state.players[on_turn.faction].coins_behind_screen
    rival, third = [s for s in game.seats.order_by("id") if s.pk != on_turn.pk]
    design = sorted(screen)[0]  # every Native Polis prints a coin, paid in the Spring of 431
    give = Bundle(coins=((design, 1),))
    submit_order(game, on_turn, OfferTrade(on_turn.faction, to=rival.faction, give=give), load_game(game).seq)
    third_page = client.get(page_url(third)).content.decode()
    assert 'id="offers"' not in third_page  # offers between others are not listed on the page
    (seen,) = player_screen(game, third.faction).view["offers"]
    assert seen["give"]["coins"] == "hidden" and seen["to"] == rival.faction
    (theirs,) = player_screen(game, rival.faction).view["offers"]
    assert theirs["give"]["coins"] == {design: 1}


def test_h_missions_a_players_page_lists_their_own_cards_only(client) -> None:
    game = two_player_game()
    state = load_game(game).state
    ana, ben = game.seats.get(faction="athens"), game.seats.get(faction="sparta")
    page = client.get(page_url(ana)).content.decode()
    assert 'id="mission-cards"' in page
    assert all(card in page for card in state.players["athens"].mission_cards)
    assert not any(card in page for card in state.players["sparta"].mission_cards)
    ben_page = client.get(page_url(ben)).content.decode()
    assert not any(card in ben_page for card in state.players["athens"].mission_cards)


def _offer_form(seq: int, to: str, **amounts: int | str) -> dict[str, object]:
    data: dict[str, object] = {"kind": "offer_trade", "expected_seq": seq, "offer_trade-to": to}
    return data | {f"offer_trade-{name}": value for name, value in amounts.items()}


def test_h_trade_an_offer_is_made_through_its_form(client) -> None:
    game = two_player_game()
    on_turn = seats_to_act(game)[0]
    rival = game.seats.exclude(pk=on_turn.pk).get()
    page = client.get(page_url(on_turn)).content.decode()
    assert 'id="order-offer_trade"' in page
    data = _offer_form(load_game(game).seq, rival.faction, give_ap=1, take_fp=1, take_owl=1)
    assert client.post(page_url(on_turn), data).status_code == 302
    (offer,) = load_game(game).state.offers
    assert (offer.to, offer.give["ap"], offer.take["fp"], offer.take["coins"]) == (
        rival.faction,
        1,
        1,
        {"owl": 1},
    )


def test_h_trade_an_offer_the_rules_refuse_is_shown_next_to_the_form_and_changes_nothing(client) -> None:
    game = two_player_game()
    on_turn = seats_to_act(game)[0]
    rival = game.seats.exclude(pk=on_turn.pk).get()
    seq = load_game(game).seq
    response = client.post(page_url(on_turn), _offer_form(seq, rival.faction, give_ap=99))
    assert (
        response.status_code == 400
        and '(rule <a class="rule-link" href="/rules/en/#H-TRADE"' in response.content.decode()
    )
    assert load_game(game).seq == seq


WINTER = {
    "players": {
        "athens": {
            "mission_cards": ["combo-1", "objective-poleis-1"],
            "coins_behind_screen": {"owl": 2, "shield": 1},
            "blanks": 1,
        },
        "sparta": {},
    },
    "year": 430,
    "phase": "winter_orders",
}


def test_h_missions_a_winter_card_is_redeemed_through_the_winter_order_form(client) -> None:
    game = create_game(
        [PlayerSpec("Ana", "ana@example.com", "athens"), PlayerSpec("Ben", "ben@example.com", "sparta")],
        scenario=WINTER,
    )
    ana = game.seats.get(faction="athens")
    page = client.get(page_url(ana)).content.decode()
    assert 'value="combo-1"' in page and 'value="objective-poleis-1"' not in page  # winter cards only
    data = {"kind": "commit_coins", "expected_seq": load_game(game).seq, "commit_coins-blanks": 0}
    data |= {f"commit_coins-{d}": 0 for d in ("owl", "pegasus", "shield", "turtle")}
    data |= {
        "commit_coins-mission_card": "combo-1",
        "commit_coins-card_owl": 2,
        "commit_coins-card_shield": 1,
    }
    response = client.post(page_url(ana), data)
    refused = '(rule <a class="rule-link" href="/rules/en/#H-MISSIONS"'  # two Owls: no Combo
    assert response.status_code == 400 and refused in response.content.decode()
    assert "athens" not in load_game(game).state.winter_orders
    data |= {"commit_coins-owl": 1, "commit_coins-card_owl": 1, "commit_coins-card_blanks": 1}
    assert client.post(page_url(ana), data).status_code == 302
    order = load_game(game).state.winter_orders["athens"]
    assert (order["coins"], order["mission_card"]) == ({"owl": 1}, "combo-1")
    assert (order["card_coins"], order["card_blanks"]) == ({"owl": 1, "shield": 1}, 1)


HAND = {
    "players": {
        "athens": {"mission_cards": ["combo-1", "monopoly-ap-1", "objective-poleis-1"]},
        "sparta": {},
    },
    "year": 430,
    "phase": "winter_orders",
}


@pytest.mark.parametrize(
    ("language", "words"),
    [
        (
            "en",
            [
                "Combo: 3 coins of different designs, 4 VP (1 less per Blank)",
                "Monopoly of AP: 3 VP in a scoring winter if your Poleis print the most",
                "Objective: control 6 Poleis (3 VP)",
                ">Combo</option>",
                ">Monopoly of AP</option>",
            ],
        ),
        (
            "de",
            [
                "Münzkombo: 3 Münzen verschiedener Motive, 4 VP (1 weniger je Leermünze)",
                "Monopol auf AP: 3 VP in einem Wertungswinter",
                "Ziel: 6 Poleis kontrollieren (3 VP)",
                ">Münzkombo</option>",
                ">Monopol auf AP</option>",
            ],
        ),
    ],
)
def test_h_missions_the_hand_names_its_cards_in_the_players_language_never_by_id(
    client, language: str, words: list[str]
) -> None:
    game = create_game(
        [
            PlayerSpec("Ana", "ana@example.com", "athens", language),
            PlayerSpec("Ben", "ben@example.com", "sparta"),
        ],
        scenario=HAND,
    )
    page = client.get(page_url(game.seats.get(faction="athens")), HTTP_ACCEPT_LANGUAGE=language)
    text = page.content.decode()
    assert page["Content-Language"] == language
    hand = text[text.index('id="mission-cards"') : text.index("</section>", text.index('id="mission-cards"'))]
    for phrase in words[:3]:
        assert phrase in hand
    for option in words[3:]:
        assert option in text  # the winter order form names the cards it may redeem
    visible = re.sub(r"<[^>]*>", " ", text)  # what the player reads: no markup, no attributes
    for card_id in HAND["players"]["athens"]["mission_cards"]:
        assert card_id not in visible, card_id
