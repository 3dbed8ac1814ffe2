# A sign-in link lands where its reader was going, and each invitation has its own language
# (docs/front-door.md "Sign-in", "Invitations").

from django.db import migrations, models
from django.db.models import OuterRef, Subquery


def pending_in_their_games_language(apps, schema_editor):
    """Invitations waiting for an answer were mailed in their game's language while the row kept the
    field's default: their reminders stay in the language of the invitation they remind of."""
    Invitation = apps.get_model("games", "Invitation")
    Game = apps.get_model("games", "Game")
    language = Subquery(Game.objects.filter(pk=OuterRef("game_id")).values("language")[:1])
    Invitation.objects.filter(status="pending").update(language=language)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0013_seat_holders_and_records"),
    ]

    operations = [
        migrations.AddField(
            model_name="signinrequest",
            name="next_path",
            field=models.CharField(blank=True, default="", max_length=300, verbose_name="next page"),
        ),
        migrations.RunPython(pending_in_their_games_language, migrations.RunPython.noop),
    ]
