"""Database triggers that keep `DecklistCard.published_at` and `DecklistCard.faction` equal to their decklist's.

The copies let "newest decklists holding card X" be one index range (issue 7); the triggers make them correct
whoever writes — the publish service, a data migration, the admin, raw SQL, Django's SET_NULL when a faction is
deleted — on PostgreSQL and on SQLite:

- a card row inserted (or its decklist_id/published_at/faction_id changed) takes its decklist's values;
- a decklist whose published_at or faction_id changes passes the new values to all its card rows.

Used by migration 0005. SQLite drops a table's triggers when the table is rebuilt (Django rebuilds it for most
AlterField/RemoveField operations): a later migration that rebuilds decks_decklist or decks_decklistcard on SQLite
must call `create_triggers` again (tests/decks/test_decklist_sync.py fails if it does not).
"""
from __future__ import annotations

POSTGRESQL_CREATE = [
    """
    CREATE OR REPLACE FUNCTION decks_decklistcard_copy_list() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        SELECT d.published_at, d.faction_id INTO NEW.published_at, NEW.faction_id
        FROM decks_decklist d WHERE d.id = NEW.decklist_id;
        RETURN NEW;
    END $$""",
    """
    CREATE TRIGGER decks_decklistcard_copy_list
    BEFORE INSERT OR UPDATE OF decklist_id, published_at, faction_id ON decks_decklistcard
    FOR EACH ROW EXECUTE FUNCTION decks_decklistcard_copy_list()""",
    """
    CREATE OR REPLACE FUNCTION decks_decklist_sync_cards() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        UPDATE decks_decklistcard SET published_at = NEW.published_at, faction_id = NEW.faction_id
        WHERE decklist_id = NEW.id;
        RETURN NULL;
    END $$""",
    """
    CREATE TRIGGER decks_decklist_sync_cards
    AFTER UPDATE OF published_at, faction_id ON decks_decklist FOR EACH ROW
    WHEN (OLD.published_at IS DISTINCT FROM NEW.published_at OR OLD.faction_id IS DISTINCT FROM NEW.faction_id)
    EXECUTE FUNCTION decks_decklist_sync_cards()""",
]

POSTGRESQL_DROP = [
    "DROP TRIGGER IF EXISTS decks_decklist_sync_cards ON decks_decklist",
    "DROP FUNCTION IF EXISTS decks_decklist_sync_cards()",
    "DROP TRIGGER IF EXISTS decks_decklistcard_copy_list ON decks_decklistcard",
    "DROP FUNCTION IF EXISTS decks_decklistcard_copy_list()",
]

# SQLite cannot assign NEW in a BEFORE trigger: the inserted row is corrected right after, in the same statement.
_SQLITE_FROM_LIST = """
    published_at = (SELECT d.published_at FROM decks_decklist d WHERE d.id = NEW.decklist_id),
    faction_id = (SELECT d.faction_id FROM decks_decklist d WHERE d.id = NEW.decklist_id)"""
_SQLITE_DIFFERS = """
    NEW.published_at IS NOT (SELECT d.published_at FROM decks_decklist d WHERE d.id = NEW.decklist_id)
    OR NEW.faction_id IS NOT (SELECT d.faction_id FROM decks_decklist d WHERE d.id = NEW.decklist_id)"""

SQLITE_CREATE = [
    f"""
    CREATE TRIGGER IF NOT EXISTS decks_decklistcard_copy_list_insert AFTER INSERT ON decks_decklistcard
    FOR EACH ROW WHEN {_SQLITE_DIFFERS}
    BEGIN UPDATE decks_decklistcard SET {_SQLITE_FROM_LIST} WHERE id = NEW.id; END""",
    f"""
    CREATE TRIGGER IF NOT EXISTS decks_decklistcard_copy_list_update
    AFTER UPDATE OF decklist_id, published_at, faction_id ON decks_decklistcard
    FOR EACH ROW WHEN {_SQLITE_DIFFERS}
    BEGIN UPDATE decks_decklistcard SET {_SQLITE_FROM_LIST} WHERE id = NEW.id; END""",
    """
    CREATE TRIGGER IF NOT EXISTS decks_decklist_sync_cards AFTER UPDATE OF published_at, faction_id ON decks_decklist
    FOR EACH ROW WHEN NEW.published_at IS NOT OLD.published_at OR NEW.faction_id IS NOT OLD.faction_id
    BEGIN
        UPDATE decks_decklistcard SET published_at = NEW.published_at, faction_id = NEW.faction_id
        WHERE decklist_id = NEW.id;
    END""",
]

SQLITE_DROP = [
    "DROP TRIGGER IF EXISTS decks_decklist_sync_cards",
    "DROP TRIGGER IF EXISTS decks_decklistcard_copy_list_update",
    "DROP TRIGGER IF EXISTS decks_decklistcard_copy_list_insert",
]

TRIGGER_NAMES = {
    "postgresql": {"decks_decklistcard_copy_list", "decks_decklist_sync_cards"},
    "sqlite": {"decks_decklistcard_copy_list_insert", "decks_decklistcard_copy_list_update",
               "decks_decklist_sync_cards"},
}


def _statements(vendor: str, *, create: bool) -> list[str]:
    if vendor == "postgresql":
        return POSTGRESQL_DROP + POSTGRESQL_CREATE if create else POSTGRESQL_DROP
    if vendor == "sqlite":
        return SQLITE_DROP + SQLITE_CREATE if create else SQLITE_DROP
    raise NotImplementedError(f"decks.dbsync: no decklist triggers for the {vendor} database backend")


def create_triggers(schema_editor) -> None:
    """(Re)create the triggers; safe to run again."""
    for sql in _statements(schema_editor.connection.vendor, create=True):
        schema_editor.execute(sql)


def drop_triggers(schema_editor) -> None:
    for sql in _statements(schema_editor.connection.vendor, create=False):
        schema_editor.execute(sql)


def installed_triggers(connection) -> set[str]:
    """Names of the decklist triggers present in the database (for tests and checks)."""
    with connection.cursor() as cur:
        if connection.vendor == "postgresql":
            cur.execute("SELECT tgname FROM pg_trigger WHERE NOT tgisinternal AND tgname LIKE 'decks_decklist%'")
        else:
            cur.execute("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'decks_decklist%'")
        return {row[0] for row in cur.fetchall()}
