"""Database triggers that keep `DecklistCard.published_at` and `DecklistCard.faction` equal to their decklist's
("copies"), and `DecklistTally` equal to the number of decklists per faction ("tally").

The copies let "newest decklists holding card X" be one index range; the triggers make them correct
whoever writes — the publish service, a data migration, the admin, raw SQL, Django's SET_NULL when a faction is
deleted — on PostgreSQL and on SQLite:

- a card row inserted (or its decklist_id/published_at/faction_id changed) takes its decklist's values;
- a decklist whose published_at or faction_id changes passes the new values to all its card rows.

The tally: +1 per decklist inserted, -1 per decklist deleted, moved when its faction changes, emptied by a
TRUNCATE (PostgreSQL); `decklist_search` reads the pager's count from it when there is no filter or only a
faction.

The copies are made by migration 0005, the tally by 0006. SQLite drops a table's triggers when the table is rebuilt
(Django rebuilds it for most AlterField/RemoveField operations): a later migration that rebuilds decks_decklist or
decks_decklistcard on SQLite must call `create_triggers` again (tests/decks/test_decklist_sync.py fails if it
does not).
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

# ---- DecklistTally: decklists per faction, for the browser's pager (migration 0006) -----------------------------
POSTGRESQL_TALLY_CREATE = [
    """
    CREATE OR REPLACE FUNCTION decks_decklisttally_add() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        INSERT INTO decks_decklisttally AS t (faction_key, n)
        SELECT COALESCE(faction_id, 0), count(*) FROM new_rows GROUP BY 1
        ON CONFLICT (faction_key) DO UPDATE SET n = t.n + EXCLUDED.n;
        RETURN NULL;
    END $$""",
    """
    CREATE TRIGGER decks_decklisttally_insert AFTER INSERT ON decks_decklist
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION decks_decklisttally_add()""",
    """
    CREATE OR REPLACE FUNCTION decks_decklisttally_remove() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        UPDATE decks_decklisttally t SET n = t.n - gone.n
        FROM (SELECT COALESCE(faction_id, 0) AS faction_key, count(*) AS n FROM old_rows GROUP BY 1) gone
        WHERE t.faction_key = gone.faction_key;
        RETURN NULL;
    END $$""",
    """
    CREATE TRIGGER decks_decklisttally_delete AFTER DELETE ON decks_decklist
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION decks_decklisttally_remove()""",
    """
    CREATE OR REPLACE FUNCTION decks_decklisttally_move() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        UPDATE decks_decklisttally SET n = n - 1 WHERE faction_key = COALESCE(OLD.faction_id, 0);
        INSERT INTO decks_decklisttally AS t (faction_key, n) VALUES (COALESCE(NEW.faction_id, 0), 1)
        ON CONFLICT (faction_key) DO UPDATE SET n = t.n + 1;
        RETURN NULL;
    END $$""",
    """
    CREATE TRIGGER decks_decklisttally_update AFTER UPDATE OF faction_id ON decks_decklist FOR EACH ROW
    WHEN (OLD.faction_id IS DISTINCT FROM NEW.faction_id) EXECUTE FUNCTION decks_decklisttally_move()""",
    """
    CREATE OR REPLACE FUNCTION decks_decklisttally_reset() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        DELETE FROM decks_decklisttally;
        RETURN NULL;
    END $$""",
    """
    CREATE TRIGGER decks_decklisttally_truncate AFTER TRUNCATE ON decks_decklist
    FOR EACH STATEMENT EXECUTE FUNCTION decks_decklisttally_reset()""",
]

POSTGRESQL_TALLY_DROP = [
    f"DROP TRIGGER IF EXISTS decks_decklisttally_{event} ON decks_decklist"
    for event in ("insert", "delete", "update", "truncate")
] + [f"DROP FUNCTION IF EXISTS decks_decklisttally_{name}()" for name in ("add", "remove", "move", "reset")]

# Deletes only decrement an existing row, so emptying the two tables in either order (Django's flush on SQLite
# deletes table by table) leaves them consistent. SQLite skips its truncate optimisation when triggers exist.
_SQLITE_TALLY_ADD = """
        INSERT INTO decks_decklisttally (faction_key, n) VALUES (COALESCE(NEW.faction_id, 0), 1)
        ON CONFLICT (faction_key) DO UPDATE SET n = n + 1;"""
_SQLITE_TALLY_REMOVE = """
        UPDATE decks_decklisttally SET n = n - 1 WHERE faction_key = COALESCE(OLD.faction_id, 0);"""

SQLITE_TALLY_CREATE = [
    f"""
    CREATE TRIGGER IF NOT EXISTS decks_decklisttally_insert AFTER INSERT ON decks_decklist FOR EACH ROW
    BEGIN {_SQLITE_TALLY_ADD} END""",
    f"""
    CREATE TRIGGER IF NOT EXISTS decks_decklisttally_delete AFTER DELETE ON decks_decklist FOR EACH ROW
    BEGIN {_SQLITE_TALLY_REMOVE} END""",
    f"""
    CREATE TRIGGER IF NOT EXISTS decks_decklisttally_update AFTER UPDATE OF faction_id ON decks_decklist
    FOR EACH ROW WHEN NEW.faction_id IS NOT OLD.faction_id
    BEGIN {_SQLITE_TALLY_REMOVE} {_SQLITE_TALLY_ADD} END""",
]

SQLITE_TALLY_DROP = [f"DROP TRIGGER IF EXISTS decks_decklisttally_{event}"
                     for event in ("insert", "delete", "update")]

GROUPS = {
    "copies": {"postgresql": (POSTGRESQL_CREATE, POSTGRESQL_DROP), "sqlite": (SQLITE_CREATE, SQLITE_DROP)},
    "tally": {"postgresql": (POSTGRESQL_TALLY_CREATE, POSTGRESQL_TALLY_DROP),
              "sqlite": (SQLITE_TALLY_CREATE, SQLITE_TALLY_DROP)},
}

TRIGGER_NAMES = {
    "postgresql": {"decks_decklistcard_copy_list", "decks_decklist_sync_cards", "decks_decklisttally_insert",
                   "decks_decklisttally_delete", "decks_decklisttally_update", "decks_decklisttally_truncate"},
    "sqlite": {"decks_decklistcard_copy_list_insert", "decks_decklistcard_copy_list_update",
               "decks_decklist_sync_cards", "decks_decklisttally_insert", "decks_decklisttally_delete",
               "decks_decklisttally_update"},
}


def _statements(vendor: str, groups, *, create: bool) -> list[str]:
    out = []
    for group in groups:
        if vendor not in GROUPS[group]:
            raise NotImplementedError(f"decks.dbsync: no decklist triggers for the {vendor} database backend")
        make, drop = GROUPS[group][vendor]
        out += drop + make if create else drop
    return out


def create_triggers(schema_editor, groups=("copies", "tally")) -> None:
    """(Re)create the triggers; safe to run again."""
    for sql in _statements(schema_editor.connection.vendor, groups, create=True):
        schema_editor.execute(sql)


def drop_triggers(schema_editor, groups=("copies", "tally")) -> None:
    for sql in _statements(schema_editor.connection.vendor, groups, create=False):
        schema_editor.execute(sql)


def installed_triggers(connection) -> set[str]:
    """Names of the decklist triggers present in the database (for tests and checks)."""
    with connection.cursor() as cur:
        if connection.vendor == "postgresql":
            cur.execute("SELECT tgname FROM pg_trigger WHERE NOT tgisinternal AND tgname LIKE 'decks_decklist%'")
        else:
            cur.execute("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'decks_decklist%'")
        return {row[0] for row in cur.fetchall()}
