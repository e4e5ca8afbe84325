# The hosted game of a tuning run ('' for the default game, r1): its pages live at /<game>/tune/.
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("simulator", "0006_playtest_game"),
    ]

    operations = [
        migrations.AddField(
            model_name="tuningrun",
            name="game",
            field=models.CharField(blank=True, db_index=True, default="", help_text="the hosted game's slug ('' for the default game, r1); its pages are /<game>/tune/", max_length=16),
        ),
    ]
