"""Before a command reads the database: is it there, migrated and loaded? Say what to run instead of a traceback.

    require_database()   # raises CommandError(returncode=2) naming the command that fixes it
"""
from __future__ import annotations

from django.core.management.base import CommandError
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.utils import DatabaseError

MIGRATE = "python manage.py migrate"
LOAD_CARDS = "python manage.py loadcards cards/data/core.json"


def require_database(*, cards: bool = True, returncode: int = 2, using: str = DEFAULT_DB_ALIAS) -> None:
    """Raise CommandError when the database cannot serve the command: unreachable, not migrated (every app's
    migrations applied), or (with `cards`) no card loaded yet. The message names the command to run."""
    from django.db.migrations.executor import MigrationExecutor

    connection = connections[using]
    try:
        connection.ensure_connection()
        plan = MigrationExecutor(connection).migration_plan(
            MigrationExecutor(connection).loader.graph.leaf_nodes())
    except DatabaseError as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else exc.__class__.__name__
        raise CommandError(f"cannot open the database ({first}). Check DATABASE_URL (the database must exist); "
                           f"then run `{MIGRATE}` to set it up.", returncode=returncode) from None
    if plan:
        apps = sorted({migration.app_label for migration, _backwards in plan})
        raise CommandError(f"the database is not set up yet ({len(plan)} migration{'s' if len(plan) != 1 else ''} "
                           f"not applied: {', '.join(apps)}). Run `{MIGRATE}` first, then `{LOAD_CARDS}`.",
                           returncode=returncode)
    if cards:
        from cards.models import Card

        if not Card.objects.exists():
            raise CommandError(f"no cards are loaded, so no card name can be recognised. Run `{LOAD_CARDS}` "
                               "first.", returncode=returncode)
