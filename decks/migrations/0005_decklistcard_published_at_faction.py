"""Why: "newest decklists holding card X" as one index range.

DecklistCard gets copies of its decklist's published_at and faction (filled in for existing rows here, then kept
equal by the triggers of decks/dbsync.py), and the (card_code, decklist) index becomes
(card_code, -published_at, -decklist, faction), which also serves "ids of lists holding X".
"""
import django.db.models.deletion
from django.db import migrations, models


def create_triggers(apps, schema_editor):
    from decks.dbsync import create_triggers as create

    create(schema_editor, groups=("copies",))


def drop_triggers(apps, schema_editor):
    from decks.dbsync import drop_triggers as drop

    drop(schema_editor, groups=("copies",))


BACKFILL = """
UPDATE decks_decklistcard SET
    published_at = (SELECT d.published_at FROM decks_decklist d WHERE d.id = decks_decklistcard.decklist_id),
    faction_id = (SELECT d.faction_id FROM decks_decklist d WHERE d.id = decks_decklistcard.decklist_id)
"""


class Migration(migrations.Migration):

    dependencies = [
        ('cards', '0003_card_search_index'),
        ('decks', '0004_card_rows_share_unique_index'),
    ]

    operations = [
        migrations.RemoveIndex(
            model_name='decklistcard',
            name='decks_decklistcard_by_card',
        ),
        migrations.AddField(
            model_name='decklistcard',
            name='faction',
            field=models.ForeignKey(blank=True, db_constraint=False, db_index=False, help_text="The decklist's faction (kept equal by a database trigger)", null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='cards.faction'),
        ),
        migrations.AddField(
            model_name='decklistcard',
            name='published_at',
            field=models.DateTimeField(null=True, help_text="The decklist's published_at (kept equal by a database trigger)"),
        ),
        migrations.RunSQL(BACKFILL, migrations.RunSQL.noop),
        migrations.AlterField(
            model_name='decklistcard',
            name='published_at',
            field=models.DateTimeField(help_text="The decklist's published_at (kept equal by a database trigger)"),
        ),
        migrations.AddIndex(
            model_name='decklistcard',
            index=models.Index(fields=['card_code', '-published_at', '-decklist', 'faction'], name='decks_dlcard_by_card_date'),
        ),
        # Last: on SQLite the AlterField above rebuilds decks_decklistcard, which would drop triggers made earlier.
        migrations.RunPython(create_triggers, drop_triggers),
    ]
