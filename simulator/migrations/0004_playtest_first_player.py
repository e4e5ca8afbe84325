from django.db import migrations, models


class Migration(migrations.Migration):
    """The playtest table's seat choice (issue 14): who is first player in round 1."""

    dependencies = [
        ('simulator', '0003_playtest'),
    ]

    operations = [
        migrations.AddField(
            model_name='playtestgame',
            name='first_player',
            field=models.IntegerField(blank=True, help_text='who is first player in round 1: 0 the person, 1 the AI, empty by the rules (§4: at random)', null=True),
        ),
    ]
