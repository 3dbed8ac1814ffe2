"""Who held each seat (SeatHolder, a fact) and what each holding did (SeatRecord, a read model):
docs/front-door.md "Reliability".

For the games there are, each seat's present holder is its Seat's address, from its last
hand-over's seq or else from the opening's: who held a seat before a hand-over is in no table
(the hand-over replaced the Seat's address), so that holding's record stays nobody's. The seat
records are folded from the logs as the projector folds them (rebuildprojections gives the same).
"""

import dataclasses
import itertools

import django.db.models.deletion
import django.db.models.functions.text
from django.db import migrations, models

OPENINGS = ("GameStarted", "ScenarioLoaded")
READ = (*OPENINGS, "OrderGiven", "OrderTakenBack", "DeadlinePassed", "VacationTaken", "SeatHandedOver", "GameEnded")


def fill(apps, schema_editor):
    # The projector's pure fold (no models of its own): the rows it would write on a rebuild.
    from games.projectors.seat_records import fold_holdings

    Event = apps.get_model("games", "Event")
    Seat = apps.get_model("games", "Seat")
    SeatHolder = apps.get_model("games", "SeatHolder")
    SeatRecord = apps.get_model("games", "SeatRecord")
    openings = dict(
        Event.objects.filter(type__in=OPENINGS)
        .values("game_id")
        .annotate(first=models.Min("seq"))
        .values_list("game_id", "first")
    )
    handed_over = {
        (game_id, payload.get("player")): seq
        for game_id, seq, payload in Event.objects.filter(type="SeatHandedOver")
        .order_by("game_id", "seq")
        .values_list("game_id", "seq", "payload")
        .iterator()
    }
    holders = []
    for seat in Seat.objects.order_by("pk").iterator():
        since = handed_over.get((seat.game_id, seat.faction), openings.get(seat.game_id))
        if since is not None:
            holders.append(SeatHolder(game_id=seat.game_id, faction=seat.faction, since_seq=since, email=seat.email))
    SeatHolder.objects.bulk_create(holders, batch_size=1000)
    events = (
        Event.objects.filter(type__in=READ)
        .order_by("game_id", "seq")
        .values_list("game_id", "seq", "type", "payload")
        .iterator()
    )
    records = []
    for game_id, logged in itertools.groupby(events, key=lambda event: event[0]):
        for holding in fold_holdings(event[1:] for event in logged):
            values = dataclasses.asdict(holding)  # the fields of SeatRecord but the game
            values["since_seq"] = values["since_seq"] or 0  # as the projector writes a log with no opening
            records.append(SeatRecord(game_id=game_id, **values))
    SeatRecord.objects.bulk_create(records, batch_size=1000)


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0012_witness_published_heads'),
    ]

    operations = [
        migrations.CreateModel(
            name='SeatHolder',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('faction', models.CharField(max_length=16, verbose_name='faction')),
                ('since_seq', models.PositiveIntegerField(verbose_name='held since event')),
                ('email', models.EmailField(max_length=254, verbose_name='email')),
                ('game', models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='seat_holders', to='games.game')),
            ],
            options={
                'verbose_name': 'seat holder',
                'verbose_name_plural': 'seat holders',
                'ordering': ['game_id', 'faction', 'since_seq'],
                'indexes': [models.Index(django.db.models.functions.text.Upper('email'), name='games_seatholder_email_upper')],
                'constraints': [models.UniqueConstraint(fields=('game', 'faction', 'since_seq'), name='games_seatholder_once')],
            },
        ),
        migrations.CreateModel(
            name='SeatRecord',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('faction', models.CharField(max_length=16, verbose_name='faction')),
                ('since_seq', models.PositiveIntegerField(verbose_name='held since event')),
                ('until_seq', models.PositiveIntegerField(blank=True, null=True, verbose_name='held until event')),
                ('played', models.PositiveIntegerField(default=0, verbose_name='games played')),
                ('finished', models.PositiveIntegerField(default=0, verbose_name='games finished')),
                ('orders_in_time', models.PositiveIntegerField(default=0, verbose_name='orders given in time')),
                ('orders_taken_back', models.PositiveIntegerField(default=0, verbose_name='orders taken back')),
                ('deadlines_missed', models.PositiveIntegerField(default=0, verbose_name='deadlines missed')),
                ('vacations', models.PositiveIntegerField(default=0, verbose_name='vacations taken')),
                ('game', models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='seat_records', to='games.game')),
            ],
            options={
                'verbose_name': 'seat record',
                'verbose_name_plural': 'seat records',
                'ordering': ['game_id', 'faction', 'since_seq'],
                'constraints': [models.UniqueConstraint(fields=('game', 'faction', 'since_seq'), name='games_seatrecord_once'), models.UniqueConstraint(condition=models.Q(('until_seq__isnull', True)), fields=('game', 'faction'), name='games_seatrecord_present')],
            },
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
