"""Pruning the outbox (`manage.py pruneoutbox`, the daily `games.prune_outbox`): exactly the sent rows of
ended games older than the kept days lose their bodies; the rows, and every other row, stay."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.core import mail
from django.core.management import call_command
from django.db import transaction

from games.models import Game
from games.services.outbox_prune import prune_ended_games_outbox
from games.tasks import prune_outbox
from notifications.models import Outbox
from notifications.prune import blank_sent_bodies
from notifications.services import deliver_outbox, enqueue
from tests.notifications.celery_fixtures import anymail_outbox  # noqa: F401

NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
TEXT, HTML = "Your turn." * 10, "<p>Your turn.</p>" * 10


def outbox_row(game: Game, seq: int, status: str = "sent", sent_days_ago: float | None = 40) -> Outbox:
    sent_at = None if sent_days_ago is None else NOW - timedelta(days=sent_days_ago)
    return Outbox.objects.create(
        game_id=game.pk,
        seq=seq,
        seat_id=1,
        kind="turn",
        to_email="ana@example.com",
        subject=f"turn {seq}",
        body_text=TEXT,
        body_html=HTML,
        status=status,
        attempts=1,
        sent_at=sent_at,
        message_id=f"esp-{game.pk}-{seq}",
    )


@pytest.fixture
def rows(db) -> dict[str, Outbox]:
    ended = Game.objects.create(name="over", status=Game.Status.ENDED)
    other_ended = Game.objects.create(name="also over", status=Game.Status.ENDED)
    active = Game.objects.create(name="running", status=Game.Status.ACTIVE)
    new = Game.objects.create(name="not started", status=Game.Status.NEW)
    return {
        "old": outbox_row(ended, 1, sent_days_ago=40),
        "just_over": outbox_row(ended, 2, sent_days_ago=30.001),
        "other_game_old": outbox_row(other_ended, 1, sent_days_ago=400),
        "exactly_30_days": outbox_row(ended, 3, sent_days_ago=30),
        "recent": outbox_row(ended, 4, sent_days_ago=2),
        "pending": outbox_row(ended, 5, status="pending", sent_days_ago=None),
        "failed": outbox_row(ended, 6, status="failed", sent_days_ago=None),
        "active_game": outbox_row(active, 1, sent_days_ago=400),
        "new_game": outbox_row(new, 1, sent_days_ago=400),
    }


PRUNED = {"old", "just_over", "other_game_old"}


def blanked(rows: dict[str, Outbox]) -> set[str]:
    bodies = dict(Outbox.objects.values_list("pk", "body_text"))
    return {name for name, row in rows.items() if bodies[row.pk] == ""}


def test_only_old_sent_rows_of_ended_games_lose_their_bodies_and_every_row_stays(rows):
    with time_machine.travel(NOW, tick=False):
        report = prune_ended_games_outbox(30)
    assert blanked(rows) == PRUNED
    assert (report.rows, report.characters, report.batches) == (3, 3 * (len(TEXT) + len(HTML)), 1)
    assert report.games == {rows["old"].game_id, rows["other_game_old"].game_id}
    assert Outbox.objects.count() == len(rows)
    for name in PRUNED:  # the delivery record an auditor reads stays whole
        row = Outbox.objects.get(pk=rows[name].pk)
        assert (row.body_html, row.status, row.subject) == ("", "sent", rows[name].subject)
        assert (row.sent_at, row.message_id, row.to_email) == (
            rows[name].sent_at,
            rows[name].message_id,
            "ana@example.com",
        )
    for name in set(rows) - PRUNED:
        row = Outbox.objects.get(pk=rows[name].pk)
        assert (row.body_text, row.body_html, row.status) == (TEXT, HTML, rows[name].status)


def test_the_clock_decides_what_is_old_enough(rows):
    with time_machine.travel(NOW + timedelta(days=29), tick=False):
        prune_ended_games_outbox(30)
    assert blanked(rows) == PRUNED | {"exactly_30_days", "recent"}
    with time_machine.travel(NOW - timedelta(days=20), tick=False):  # nothing of the rest was that old then
        assert prune_ended_games_outbox(30).rows == 0


def test_dry_run_counts_the_same_rows_and_writes_nothing(rows):
    with time_machine.travel(NOW, tick=False):
        dry = prune_ended_games_outbox(30, batch_size=2, dry_run=True)
        assert blanked(rows) == set()
        real = prune_ended_games_outbox(30, batch_size=2)
    assert (dry.rows, dry.characters, dry.batches, dry.games) == (
        real.rows,
        real.characters,
        real.batches,
        real.games,
    )
    assert (real.rows, real.batches) == (3, 2)
    assert blanked(rows) == PRUNED


def test_batches_walk_all_rows_and_a_second_run_has_nothing_left(rows, django_assert_max_num_queries):
    with time_machine.travel(NOW, tick=False):
        # per batch a select and an update in a savepoint (the test's transaction holds them), then
        # one empty select: the batches' size bounds the work, not the table's
        with django_assert_max_num_queries(4 * 3 + 3):
            report = prune_ended_games_outbox(30, batch_size=1)
        assert (report.rows, report.batches) == (3, 3)
        assert prune_ended_games_outbox(30, batch_size=1).rows == 0
    assert blanked(rows) == PRUNED


def test_a_game_ending_later_is_pruned_on_the_next_run(rows):
    with time_machine.travel(NOW, tick=False):
        prune_ended_games_outbox(30)
        Game.objects.filter(pk=rows["active_game"].game_id).update(status=Game.Status.ENDED)
        assert prune_ended_games_outbox(30).rows == 1
    assert blanked(rows) == PRUNED | {"active_game"}


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("anymail_outbox")
def test_a_pruned_email_is_never_written_or_sent_again():
    """The reason the row stays: its key keeps `enqueue` idempotent after the bodies are gone."""
    game = Game.objects.create(name="over", status=Game.Status.ENDED)
    args = dict(game_id=game.pk, seq=3, seat_id=11, kind="turn", to_email="ana@example.com", language="en")
    context = {"game_name": "G", "player_name": "Ana", "faction_name": "Athens", "link": "http://x/"}
    with time_machine.travel(NOW, tick=False), transaction.atomic():
        enqueue(**args, template="turn", context=context)  # delivered after commit (eager)
    assert len(mail.outbox) == 1
    # Sent, the row keeps what renders the email again (for an operator), until pruned.
    assert Outbox.objects.get().context == context
    with time_machine.travel(NOW + timedelta(days=31), tick=False):
        assert prune_ended_games_outbox(30).rows == 1
        with transaction.atomic():
            enqueue(**args, template="turn", context=context)
        deliver_outbox()
    assert len(mail.outbox) == 1
    row = Outbox.objects.get()
    assert (row.status, row.body_text, row.context, row.sent_at) == ("sent", "", {}, NOW)


def test_the_command_prints_what_it_did_and_dry_run_changes_nothing(rows, capsys):
    with time_machine.travel(NOW, tick=False):
        call_command("pruneoutbox", "--dry-run")
        assert blanked(rows) == set()
        call_command("pruneoutbox", "--days", "1", "--batch", "2")
    out = capsys.readouterr().out.splitlines()
    size = 3 * (len(TEXT) + len(HTML)) / 1e6
    assert out[0] == (
        f"would blank the bodies of 3 sent outbox rows older than 30 days of 2 ended games"
        f" ({size:.1f} million characters) in 1 batches of up to 1000"
    )
    assert out[1].startswith("blanked the bodies of 5 sent outbox rows older than 1 days of 2 ended games")
    assert out[1].endswith("in 3 batches of up to 2")
    assert blanked(rows) == PRUNED | {"exactly_30_days", "recent"}


def test_beat_runs_the_task_daily_with_the_configured_days_and_off_keeps_everything(rows, settings):
    from aegea_pbem.celery import app as celery_app

    schedule = settings.CELERY_BEAT_SCHEDULE["games-prune-outbox"]
    assert (schedule["task"], schedule["schedule"]) == ("games.prune_outbox", 86400.0)
    assert "games.prune_outbox" in celery_app.tasks
    settings.OUTBOX_KEEP_DAYS = None
    with time_machine.travel(NOW, tick=False):
        assert prune_outbox.delay().get() == 0  # eager in tests: the task runs here
        assert blanked(rows) == set()
        settings.OUTBOX_KEEP_DAYS = 35
        assert prune_outbox.delay().get() == 2  # "just_over" (30.001 days) is younger than 35
    assert blanked(rows) == {"old", "other_game_old"}


def test_negative_days_and_empty_batches_are_refused(db):
    with pytest.raises(ValueError):
        prune_ended_games_outbox(-1)
    with pytest.raises(ValueError):
        blank_sent_bodies([], sent_before=NOW, batch_size=0)
