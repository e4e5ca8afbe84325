from django.db import migrations, models


class Migration(migrations.Migration):
    """The playtest table's seat choice: the first player of setup (§4)."""

    dependencies = [
        ('simulator', '0003_playtest'),
    ]

    operations = [
        migrations.AddField(
            model_name='playtestgame',
            name='first_player',
            field=models.IntegerField(blank=True, help_text='the first player of setup (§4): 0 the person, 1 the AI, empty by the rules (§4: at random)', null=True),
        ),
    ]
