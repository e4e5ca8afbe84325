"""The decklist browser's pager count without counting 1,000,000 rows. DecklistTally holds the number of
decklists per faction, filled here from the existing lists and kept by the triggers of decks/dbsync.py ("tally")."""

from django.db import migrations, models


def create_triggers(apps, schema_editor):
    from decks.dbsync import create_triggers as create

    create(schema_editor, groups=("tally",))


def drop_triggers(apps, schema_editor):
    from decks.dbsync import drop_triggers as drop

    drop(schema_editor, groups=("tally",))


FILL = """
INSERT INTO decks_decklisttally (faction_key, n)
SELECT COALESCE(faction_id, 0), COUNT(*) FROM decks_decklist GROUP BY COALESCE(faction_id, 0)
"""


class Migration(migrations.Migration):

    dependencies = [
        ('decks', '0005_decklistcard_published_at_faction'),
    ]

    operations = [
        migrations.CreateModel(
            name='DecklistTally',
            fields=[
                ('faction_key', models.BigIntegerField(help_text='Faction id; 0 for lists without a faction', primary_key=True, serialize=False)),
                ('n', models.BigIntegerField(default=0, help_text='Number of decklists')),
            ],
        ),
        migrations.RunSQL(FILL, "DELETE FROM decks_decklisttally"),
        migrations.RunPython(create_triggers, drop_triggers),
    ]
