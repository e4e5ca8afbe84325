from django.db import migrations


def create_factions(apps, schema_editor):
    from cards.models import FACTION_ROWS

    Faction = apps.get_model("cards", "Faction")
    for slug, name, color, position in FACTION_ROWS:
        Faction.objects.update_or_create(slug=slug, defaults={"name": name, "color": color, "position": position})


class Migration(migrations.Migration):
    dependencies = [("cards", "0001_initial")]
    operations = [migrations.RunPython(create_factions, migrations.RunPython.noop)]
