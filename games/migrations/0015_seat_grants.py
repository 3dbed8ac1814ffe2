# A seat cookie becomes a server-side grant (games/services/seat_grants.py, docs/operations.md "Links
# and the seat cookie"). The cookies of before held the link's token; they are not accepted any more:
# their page says to open the emailed link once more, which makes a grant.

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0014_sign_in_next"),
    ]

    operations = [
        migrations.CreateModel(
            name="SeatGrant",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("key_hash", models.CharField(max_length=64, unique=True, verbose_name="key (SHA-256)")),
                (
                    "browser_hash",
                    models.CharField(db_index=True, max_length=64, verbose_name="browser (SHA-256)"),
                ),
                ("token_version", models.PositiveIntegerField(verbose_name="link version")),
                ("created", models.DateTimeField(verbose_name="created")),
                ("last_used", models.DateTimeField(verbose_name="last used")),
                ("expires", models.DateTimeField(verbose_name="expires")),
                ("revoked_at", models.DateTimeField(blank=True, null=True, verbose_name="revoked")),
                (
                    "seat",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="grants", to="games.seat"
                    ),
                ),
            ],
            options={
                "verbose_name": "seat grant",
                "verbose_name_plural": "seat grants",
            },
        ),
    ]
