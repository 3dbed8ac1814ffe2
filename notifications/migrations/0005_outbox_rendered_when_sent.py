# Outbox rows keep what to render (template, context) and are rendered when sent (docs/operations.md).

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('notifications', '0004_inbound_queue'),
    ]

    operations = [
        migrations.AddField(
            model_name='outbox',
            name='context',
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.AddField(
            model_name='outbox',
            name='template',
            field=models.CharField(blank=True, default='', max_length=32),
        ),
        migrations.AlterField(
            model_name='outbox',
            name='body_html',
            field=models.TextField(blank=True, default=''),
        ),
        migrations.AlterField(
            model_name='outbox',
            name='body_text',
            field=models.TextField(blank=True, default=''),
        ),
        migrations.AlterField(
            model_name='outbox',
            name='subject',
            field=models.CharField(blank=True, default='', max_length=255),
        ),
    ]
