# A sign-in link lands where its reader was going (docs/front-door.md "Sign-in").

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0012_witness_published_heads"),
    ]

    operations = [
        migrations.AddField(
            model_name="signinrequest",
            name="next_path",
            field=models.CharField(blank=True, default="", max_length=300, verbose_name="next page"),
        ),
    ]
