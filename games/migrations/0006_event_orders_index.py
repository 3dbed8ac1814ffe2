# The index of the reader's last order, for "what happened since my last turn" (docs/operations.md).

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0005_seat_language_chosen'),
    ]

    operations = [
        migrations.AddIndex(
            model_name='event',
            index=models.Index(condition=models.Q(('type', 'OrderGiven')), fields=['game', 'actor', 'seq'], name='games_event_orders_idx'),
        ),
    ]
