"""The order loop's services: create_game, submit_order, notifications, the read model."""

from __future__ import annotations

import re
import threading

import pytest
from django.core import mail
from django.core.management import call_command
from django.db import connection
from django.urls import reverse

from games.engine import Pass, RuleViolation
from games.engine.commands import CommitCoins
from games.eventstore.projections import rebuild_projections
from games.models import Event, Game, GameProgress
from games.reading.links import link_token
from games.reading.situation import load_game, must_act, player_screen
from games.services.game_setup import GameSetupError, PlayerSpec, create_game
from games.services.orders import GameMovedOn, OrderAlreadyGiven, submit_order
from games.words.narration import describe
from notifications.models import Outbox
from notifications.services import rendered
from tests.notifications.celery_fixtures import anymail_outbox  # noqa: F401
from tests.order_loop_support import ANA, link_in, play_until, seats_to_act, two_player_game


@pytest.mark.django_db
def test_create_game_seats_players_and_writes_the_opening_events():
    game = two_player_game(name="Aegean Cup")
    assert game.name == "Aegean Cup"
    assert sorted(game.seats.values_list("faction", "name", "email")) == [
        ("athens", "Ana", "ana@example.com"),
        ("sparta", "Ben", "ben@example.com"),
    ]
    types = list(Event.objects.filter(game=game).values_list("type", flat=True))
    assert types[0] == "GameStarted" and "YearBegan" in types
    assert Event.objects.filter(game=game, type="GameStarted").get().actor == "organiser"
    progress = GameProgress.objects.get(game=game)
    assert (progress.year, progress.phase, progress.action_round) == (431, "actions", 1)
    assert progress.must_act == must_act(load_game(game).state)
    assert progress.vp == {"athens": 0, "sparta": 0}


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("anymail_outbox")
def test_every_player_gets_a_welcome_with_their_own_link(client):
    game = two_player_game()
    assert sorted(m.to[0] for m in mail.outbox) == ["ana@example.com", "ben@example.com"]
    on_turn = seats_to_act(game)[0]
    second = game.seats.exclude(pk=on_turn.pk).get()
    # H-SETUP: the seat order drawn at the start, the player on turn first.
    seat_order = ", ".join(
        f"{n}. {s.name} ({s.faction.capitalize()})" for n, s in ((1, on_turn), (2, second))
    )
    for message in mail.outbox:
        seat = game.seats.get(email=message.to[0])
        assert message.subject == f"You play {seat.faction.capitalize()} · {game.name}"
        assert f"Seat order (drawn at the start, the same in every round): {seat_order}." in message.body
        assert ("It is your turn." in message.body) == (seat == on_turn)
        page = client.get(link_in(message))
        assert page.status_code == 200
        assert f"you play {seat.faction.capitalize()}" in page.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("players", "message"),
    [
        ([ANA], "A game has 2 to 4 players."),
        (
            [ANA, PlayerSpec("Bo", "bo@example.com", "athens")],
            "Each faction can be played by one player only.",
        ),
        ([ANA, PlayerSpec("Bo", "bo@example.com", "rome")], "Unknown faction rome"),
        ([ANA, PlayerSpec("Bo", "not-an-address", "sparta")], "not-an-address is not an email address."),
        # Longer than the seat's columns: refused with a message, not a DataError (a server error).
        ([ANA, PlayerSpec("B" * 101, "bo@example.com", "sparta")], "at most 100 characters long."),
        ([ANA, PlayerSpec("Bo", "b" * 250 + "@example.com", "sparta")], "is not an email address."),
    ],
)
def test_create_game_refuses_bad_players_and_creates_nothing(players, message):
    with pytest.raises(GameSetupError) as error:
        create_game(players)
    assert message in error.value.message
    assert Game.objects.count() == 0
    assert Outbox.objects.count() == 0


def test_player_spec_reads_the_command_line_form():
    assert PlayerSpec.parse("Ana Lyra <ana@example.com>:athens") == PlayerSpec(
        "Ana Lyra", "ana@example.com", "athens"
    )
    with pytest.raises(GameSetupError):
        PlayerSpec.parse("ana@example.com athens")


@pytest.mark.django_db
def test_order_appends_events_and_outbox_row_for_the_next_player_in_one_go():
    game = two_player_game()
    first, second = seats_to_act(game)[0], game.seats.exclude(pk=seats_to_act(game)[0].pk).get()
    seq = load_game(game).seq
    result = submit_order(game, first, Pass(first.faction), seq)
    assert [e.type for e in result.events][:3] == ["OrderGiven", "PlayerPassed", "TurnBegan"]
    assert {e.actor for e in result.events} == {first.faction}
    assert must_act(result.state) == [second.faction]
    (row,) = Outbox.objects.filter(kind="turn")
    assert (row.seq, row.seat_id, row.to_email) == (result.seq, second.pk, second.email)
    assert f"{first.faction.capitalize()} passed." in rendered(row).text
    assert GameProgress.objects.get(game=game).must_act == [second.faction]


@pytest.mark.django_db
def test_stale_order_gets_the_game_has_moved_on_and_changes_nothing():
    game = two_player_game()
    first = seats_to_act(game)[0]
    stale = load_game(game).seq
    submit_order(game, first, Pass(first.faction), stale)
    second = seats_to_act(game)[0]
    before = (Event.objects.count(), Outbox.objects.count())
    with pytest.raises(GameMovedOn) as moved:
        submit_order(game, second, Pass(second.faction), stale)
    assert "The game has moved on" in str(moved.value.message)
    assert (Event.objects.count(), Outbox.objects.count()) == before


@pytest.mark.django_db
def test_h_order_the_same_order_sent_again_on_the_same_state_is_told_it_was_already_accepted():
    """A double tap, a retried request or a second email: the order stands once, and the player
    hears it was accepted rather than "re-order" (which could make them give it twice)."""
    game = two_player_game()
    first = seats_to_act(game)[0]
    page_seq = load_game(game).seq
    accepted = submit_order(game, first, Pass(first.faction), page_seq)
    before = (Event.objects.count(), Outbox.objects.count())
    with pytest.raises(OrderAlreadyGiven) as again:
        submit_order(game, first, Pass(first.faction), page_seq)
    assert again.value.order_seq == accepted.events[0].seq == page_seq + 1
    assert "already accepted" in str(again.value.message)
    assert (Event.objects.count(), Outbox.objects.count()) == before


@pytest.mark.django_db
def test_h_order_another_order_on_an_old_state_is_told_the_game_moved_on_even_after_its_own():
    """Only the very order that came first on that state counts as given: a different order of the same
    seat, or the same order on a state where another player ordered first, was never accepted."""
    game = two_player_game()
    first = seats_to_act(game)[0]
    page_seq = load_game(game).seq
    submit_order(game, first, Pass(first.faction), page_seq)
    different = CommitCoins(first.faction)  # any other order: refused before the rules are asked
    with pytest.raises(GameMovedOn) as moved:
        submit_order(game, first, different, page_seq)
    assert not isinstance(moved.value, OrderAlreadyGiven)
    second = seats_to_act(game)[0]
    second_page = load_game(game).seq
    submit_order(game, second, Pass(second.faction), second_page)
    with pytest.raises(GameMovedOn) as moved:  # the first seat's pass after the second's came first
        submit_order(game, first, Pass(first.faction), second_page)
    assert not isinstance(moved.value, OrderAlreadyGiven)


@pytest.mark.django_db
def test_h_order_a_sealed_winter_order_sent_twice_after_anothers_seal_is_already_accepted():
    game = two_player_game()
    play_until(game, "winter_orders")
    first, second = seats_to_act(game)
    page_seq = load_game(game).seq
    submit_order(game, second, CommitCoins(second.faction), page_seq)
    sealed = submit_order(
        game, first, CommitCoins(first.faction), page_seq
    )  # decided again (H-WINTER-ORDERS)
    with pytest.raises(OrderAlreadyGiven) as again:
        submit_order(game, first, CommitCoins(first.faction), page_seq)
    assert again.value.order_seq == sealed.events[0].seq
    assert Event.objects.filter(game=game, type="WinterOrderSealed").count() == 2


@pytest.mark.django_db
def test_refused_order_changes_nothing_and_names_the_rule():
    game = two_player_game()
    waiting = game.seats.exclude(pk=seats_to_act(game)[0].pk).get()
    before = (Event.objects.count(), Outbox.objects.count())
    with pytest.raises(RuleViolation) as refused:
        submit_order(game, waiting, Pass(waiting.faction), load_game(game).seq)
    assert refused.value.rule == "H-YEAR"
    with pytest.raises(RuleViolation) as foreign:
        submit_order(game, waiting, Pass("thebes"), load_game(game).seq)
    assert foreign.value.rule == "H-ORDER"
    assert (Event.objects.count(), Outbox.objects.count()) == before


@pytest.mark.django_db
def test_sealed_winter_orders_mail_every_player_at_once():
    game = two_player_game()
    play_until(game, "winter_orders")
    state = load_game(game).state
    assert state.year == 430 and sorted(must_act(state)) == ["athens", "sparta"]
    last_seq = load_game(game).seq
    winter_mails = Outbox.objects.filter(seq=last_seq, kind="turn")
    assert sorted(winter_mails.values_list("to_email", flat=True)) == ["ana@example.com", "ben@example.com"]
    assert all("sealed winter order" in rendered(row).subject for row in winter_mails)
    # The first sealed order mails nobody (the other player was already told); the last one scores.
    first, second = seats_to_act(game)
    r1 = submit_order(game, first, CommitCoins(first.faction), last_seq)
    assert not Outbox.objects.filter(seq=r1.seq).exists()
    r2 = submit_order(game, second, CommitCoins(second.faction), r1.seq)
    assert "RankingScored" in [e.type for e in r2.events]
    assert Outbox.objects.filter(seq=r2.seq, kind="turn").count() == 1  # the 429 turn
    screen = player_screen(game, first.faction)
    assert any("ranking" in line for line in screen.happenings)


@pytest.mark.django_db
def test_h_screen_the_sealed_winter_order_email_lists_its_readers_own_coins_blanks_and_winter_cards(settings):
    from django.utils import translation

    from games.words.names import coins_text
    from games.words.syntax import winter_hand_words

    settings.INBOUND_DOMAIN = "mail.example.org"  # orders by reply: the cards with their reply words
    game = two_player_game()
    play_until(game, "winter_orders")
    loaded = load_game(game)
    for seat in game.seats.all():
        player = loaded.state.players[seat.faction]
        body = rendered(Outbox.objects.get(seq=loaded.seq, kind="turn", seat_id=seat.pk)).text
        with translation.override(seat.language):
            screen, cards = coins_text(player.coins_behind_screen), winter_hand_words(player.mission_cards)
        assert screen in body
        assert all(card in body for card in cards)
        # Only their own: the rival's screen is not in this email (where the two differ).
        rival = next(p for f, p in loaded.state.players.items() if f != seat.faction)
        rival_screen = coins_text(rival.coins_behind_screen)
        if rival_screen not in screen:
            assert rival_screen not in body


@pytest.mark.django_db
@pytest.mark.parametrize("inbound_domain", ["", "mail.example.org"])
def test_h_missions_the_sealed_winter_order_email_gives_a_cards_reply_words_only_where_a_reply_orders(
    settings, inbound_domain
):
    settings.INBOUND_DOMAIN = inbound_domain
    game = two_player_game()
    play_until(game, "winter_orders")
    loaded = load_game(game)
    mailed = {
        seat.faction: rendered(Outbox.objects.get(seq=loaded.seq, kind="turn", seat_id=seat.pk)).text
        for seat in game.seats.all()
    }
    lines = [
        line for body in mailed.values() for line in body.splitlines() if "winter Mission Cards:" in line
    ]
    assert lines  # someone holds a winter card (the seeded game deals them)
    assert all(("(card " in line) == bool(inbound_domain) for line in lines)


@pytest.mark.django_db
def test_h_winter_orders_a_sealed_order_given_on_a_page_from_before_anothers_seal_still_counts():
    game = two_player_game()
    play_until(game, "winter_orders")
    first, second = seats_to_act(game)
    page_seq = load_game(game).seq  # both players opened their pages here
    submit_order(game, first, CommitCoins(first.faction), page_seq)
    result = submit_order(game, second, CommitCoins(second.faction), page_seq)
    assert "RankingScored" in [e.type for e in result.events]
    # Once the year has moved on, an old page's order is refused as usual.
    with pytest.raises(GameMovedOn):
        submit_order(game, first, Pass(first.faction), page_seq)


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_h_winter_orders_sealed_orders_sent_at_the_same_moment_are_both_taken():
    game = two_player_game()
    play_until(game, "winter_orders")
    seats = seats_to_act(game)
    seq = load_game(game).seq
    start = threading.Barrier(len(seats))
    outcomes: list[str] = []

    def seal(seat) -> None:
        start.wait()
        try:
            submit_order(game, seat, CommitCoins(seat.faction), seq)
            outcomes.append("sealed")
        finally:
            connection.close()

    threads = [threading.Thread(target=seal, args=(seat,)) for seat in seats]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert outcomes == ["sealed", "sealed"]
    assert Event.objects.filter(game=game, type="WinterOrderSealed").count() == 2
    assert Event.objects.filter(game=game, type="RankingScored").count() == 3


@pytest.mark.django_db
def test_others_sealed_order_and_screen_stay_hidden_in_the_words_a_player_reads():
    game = two_player_game()
    play_until(game, "winter_orders")
    first, second = seats_to_act(game)
    submit_order(game, first, CommitCoins(first.faction), load_game(game).seq)
    seen_by_other = player_screen(game, second.faction)
    assert seen_by_other.view["winter_orders"][first.faction] == "submitted"
    assert f"{first.faction.capitalize()} submitted a sealed winter order." in seen_by_other.happenings
    assert seen_by_other.view["players"][first.faction]["coins_behind_screen"] == "hidden"
    whole_log = [
        describe(e.type, e.payload, second.faction, game=None) for e in Event.objects.filter(game=game)
    ]
    incomes = [line for line in whole_log if line.startswith(f"{first.faction.capitalize()} received")]
    assert incomes and all("and coins behind their screen." in line for line in incomes)
    assert not any(design in line for line in incomes for design in ("owl", "pegasus", "shield", "turtle"))


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("anymail_outbox")
def test_same_order_submitted_twice_at_once_gives_one_event_and_one_email():
    game = two_player_game()
    seat = seats_to_act(game)[0]
    seq = load_game(game).seq
    mail.outbox.clear()
    start = threading.Barrier(2)
    outcomes: list[str] = []

    def order() -> None:
        start.wait()
        try:
            submit_order(game, seat, Pass(seat.faction), seq)
            outcomes.append("accepted")
        except OrderAlreadyGiven:
            outcomes.append("already accepted")
        finally:
            connection.close()

    threads = [threading.Thread(target=order) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["accepted", "already accepted"]
    assert Event.objects.filter(game=game, type="PlayerPassed").count() == 1
    assert Event.objects.filter(game=game, seq=seq + 1).count() == 1
    assert Outbox.objects.filter(game_id=game.pk, kind="turn").count() == 1
    assert len(mail.outbox) == 1


@pytest.mark.django_db
def test_progress_read_model_is_rebuilt_from_the_log_alone():
    game = two_player_game()
    play_until(game, "winter_orders")
    before = list(GameProgress.objects.values())
    GameProgress.objects.all().delete()
    rebuild_projections()
    assert list(GameProgress.objects.values()) == before


@pytest.mark.django_db
def test_creategame_command_creates_the_game_and_prints_the_links(capsys):
    call_command(
        "creategame",
        "--player",
        "Ana <ana@example.com>:athens",
        "--player",
        "Ben <ben@example.com>:sparta",
        "--language",
        "de",
    )
    out = capsys.readouterr().out
    game = Game.objects.get()
    assert game.language == "de" and set(game.seats.values_list("language", flat=True)) == {"de"}
    assert out.count(f"/play/{game.pk}/") == 2
    assert Outbox.objects.filter(kind="welcome").count() == 2


@pytest.mark.django_db
def test_submitorder_command_goes_through_submit_order(capsys):
    game = two_player_game()
    seat = seats_to_act(game)[0]
    call_command("submitorder", str(game.pk), seat.faction, '{"kind": "pass"}')
    assert f"{seat.faction.capitalize()} passed." in capsys.readouterr().out
    assert Event.objects.filter(game=game, type="PlayerPassed", actor=seat.faction).count() == 1


@pytest.mark.django_db
def test_createdemo_prints_each_players_link(capsys, settings):
    settings.DEBUG = True
    call_command("createdemo")
    out = capsys.readouterr().out
    game = Game.objects.get()
    assert out.count(f"/play/{game.pk}/") == 2
    assert "/dev/mailbox/" in out
    welcomes = list(Outbox.objects.filter(game_id=game.pk, kind="welcome"))
    assert len(welcomes) == 2
    assert all("Olga has started AEGEAPOLIS Demo" in rendered(row).text for row in welcomes)


@pytest.mark.django_db
def test_createdemo_at_every_start_of_make_run_reuses_its_demo_and_new_adds_another(capsys, settings):
    """Finding: `make run` added another demo game each time it started."""
    call_command("createdemo")
    first = Game.objects.get()
    capsys.readouterr()

    call_command("createdemo")
    again = capsys.readouterr().out
    assert Game.objects.count() == 1
    assert f"Demo game {first.pk} (createdemo --new for another)" in again
    assert again.count(f"/play/{first.pk}/") == 2
    assert Outbox.objects.filter(game_id=first.pk, kind="welcome").count() == 2  # nobody welcomed twice

    call_command("createdemo", "--new")
    assert Game.objects.count() == 2


@pytest.mark.slow
@pytest.mark.django_db
def test_game_played_to_the_end_reveals_the_seed_and_mails_everyone_the_result(client):
    game = two_player_game()
    while (state := load_game(game).state).phase != "ended":
        seat = seats_to_act(game)[0]
        command = CommitCoins(seat.faction) if state.phase == "winter_orders" else Pass(seat.faction)
        submit_order(game, seat, command, load_game(game).seq)
    ended = Event.objects.get(game=game, type="GameEnded")
    assert ended.payload["seed"] == game.seed  # H-END: anyone can now re-derive every draw
    assert sorted(Outbox.objects.filter(kind="ended").values_list("to_email", flat=True)) == [
        "ana@example.com",
        "ben@example.com",
    ]
    progress = GameProgress.objects.get(game=game)
    assert progress.phase == "ended" and progress.must_act == [] and progress.winners
    # Snapshots were written on the way; loading from the newest one gives the full fold's state.
    assert game.snapshots.exists()
    from games.engine import fold
    from games.eventstore.log_reading import load_engine_events

    assert load_game(game).state.to_dict() == fold(load_engine_events(game)).to_dict()
    page = client.get(reverse("games:play", args=[game.pk, link_token(game.seats.first())])).content.decode()
    # The status line says the end once, with who won (tests/web/test_ended_game.py has its words).
    assert re.search(r"the game has ended\.</strong> Winners?: ", page) and 'id="order-' not in page
