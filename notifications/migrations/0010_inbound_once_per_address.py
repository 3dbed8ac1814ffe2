"""Inbound mail is recognised as seen before by its message id together with its reply address.

The message id alone was unique: one email sent to two seats' reply addresses (a player holding
two seats, a Cc), or any mail whose sender reused a Message-ID, was dropped at every address but
the first. Existing rows have unique message ids, so each (message id, reply address) pair is
unique already and the new constraint is added without touching them; it comes before the old
one is dropped, so no mail is unguarded in between. Going back restores the unique message id,
which fails on rows that share one since: the reverse refuses then, naming how many, rather
than leave a half-done schema.
"""

from django.db import migrations, models


def refuse_shared_message_ids(apps, schema_editor):
    InboundMail = apps.get_model("notifications", "InboundMail")
    shared = (
        InboundMail.objects.using(schema_editor.connection.alias)
        .values("esp_message_id")
        .annotate(n=models.Count("id"))
        .filter(n__gt=1)
        .count()
    )
    if shared:
        raise RuntimeError(
            f"{shared} message ids are stored for more than one reply address: the unique message id of"
            " before this migration cannot hold them; delete the extra rows first to go back"
        )


class Migration(migrations.Migration):
    dependencies = [("notifications", "0009_outbox_kind_withdrawn")]

    operations = [
        migrations.AddConstraint(
            model_name="inboundmail",
            constraint=models.UniqueConstraint(
                fields=("esp_message_id", "reply_to"), name="inbound_once_per_address"
            ),
        ),
        migrations.AlterField(
            model_name="inboundmail",
            name="esp_message_id",
            field=models.CharField(max_length=255),
        ),
        migrations.RunPython(migrations.RunPython.noop, refuse_shared_message_ids, elidable=False),
    ]
