from django.db import migrations, models


class Migration(migrations.Migration):
    """The playtest table for every game: the game a saved table game is played in (empty: r1)."""

    dependencies = [
        ('simulator', '0005_run_sharing'),
    ]

    operations = [
        migrations.AddField(
            model_name='playtestgame',
            name='game',
            field=models.CharField(blank=True, db_index=True, default='', max_length=16),
        ),
    ]
