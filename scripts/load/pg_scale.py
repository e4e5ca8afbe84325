"""PostgreSQL at scale: a generated 20,000-card catalogue and 1,000,000 published decklists (40 distinct cards
each: 40,000,000 card rows), then EXPLAIN ANALYZE of what users search — decklists containing card X (a popular
and a rare card), by faction, by date, the pager's counts, and typical card searches (CONTRACTS §5) — through the
queries the site itself builds (decks.selectors.decklist_search, cards.search.search_cards).

    nice -n 10 .venv/bin/python -m scripts.load.pg_scale [--decklists 1000000] [--runs 9] [--write-doc]

Runs in a private PostgreSQL 15 cluster (scripts/faults/pg_restart.Cluster: initdb in a scratch directory, its
own port; the machine's cluster is never touched), dropped at the end. Writes var/load/pgscale.json, which
scripts/bench_load.py puts into docs/performance.md; --write-doc also replaces the "PostgreSQL at scale" section
of docs/performance.md straight away. Figures are the server's own execution time ("Execution Time" of EXPLAIN
ANALYZE), median of --runs runs after one warm-up.

The fill is one INSERT ... SELECT over generate_series per table, in one transaction that first truncates the
two tables and drops their secondary indexes, constraints and the card rows' copy trigger, and rebuilds them at
the end (one sort per index instead of 40,000,000 random index insertions; the copied columns are filled by the
same SELECT). The cluster runs with wal_level=minimal for this (tables truncated in the transaction are written
without WAL; they stay LOGGED tables) and synchronous_commit=off. Then VACUUM ANALYZE.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "var" / "load" / "pgscale.json"
DOC = ROOT / "docs" / "performance.md"
CARDS_PER_LIST = 40
POPULAR = 300  # decklists take a quarter of their cards from the first 300 codes: realistic staples
FILL_TABLES = ("decks_decklist", "decks_decklistcard")
# For the fill only; queries do not depend on them (WAL settings affect writes).
FILL_SETTINGS = {"wal_level": "minimal", "max_wal_senders": "0", "max_wal_size": "16GB",
                 "checkpoint_timeout": "30min", "maintenance_work_mem": "1GB", "max_parallel_maintenance_workers": "1"}


def _explain_sql(cursor, sql: str, params, runs: int) -> dict:
    cursor.execute("EXPLAIN (ANALYZE, FORMAT JSON) " + sql, params)  # warm-up
    times = []
    for _ in range(runs):
        cursor.execute("EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) " + sql, params)
        doc = cursor.fetchone()[0][0]
        times.append(doc["Execution Time"])
    cursor.execute("EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) " + sql, params)
    plan = [row[0] for row in cursor.fetchall()]
    return {"median_ms": statistics.median(times), "max_ms": max(times), "rows": doc["Plan"].get("Actual Rows"),
            "plan": plan}


def _count_sql(qs) -> str:
    """The SQL of `qs.count()` exactly as the site runs it for the pager (the decklist queryset may count on
    the card rows' index instead of the join, decks.models.DecklistQuerySet)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        qs.count()
    return captured.captured_queries[-1]["sql"]


def _constraints_and_indexes(cur, table: str) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(name, definition) of the table's unique/foreign-key constraints and of its other non-primary indexes."""
    cur.execute("SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint "
                "WHERE conrelid = %s::regclass AND contype IN ('u', 'f') ORDER BY contype DESC, conname", [table])
    constraints = cur.fetchall()
    cur.execute("SELECT i.relname, pg_get_indexdef(i.oid) FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid "
                "WHERE x.indrelid = %s::regclass AND NOT x.indisprimary AND NOT EXISTS "
                "(SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid) ORDER BY i.relname", [table])
    return constraints, cur.fetchall()


def configure_for_fill(cluster) -> None:
    import psycopg

    with psycopg.connect(cluster.url, autocommit=True) as conn:
        for name, value in FILL_SETTINGS.items():
            conn.execute(f"ALTER SYSTEM SET {name} = '{value}'")
    cluster.ctl("restart", "-m", "fast")


def fill(decklists: int, codes: list[str], factions: list[int]) -> dict:
    from django.db import connection, transaction

    timings = {}
    started = time.perf_counter()
    with transaction.atomic(), connection.cursor() as cur:
        cur.execute("SET LOCAL synchronous_commit = off")
        cur.execute("INSERT INTO auth_user (password, is_superuser, username, first_name, last_name, email, "
                    "is_staff, is_active, date_joined) SELECT '!', false, 'scale' || g, '', '', '', false, true, "
                    "now() FROM generate_series(1, 5000) g")
        cur.execute("SELECT min(id) FROM auth_user WHERE username LIKE 'scale%%'")
        first_user = cur.fetchone()[0]
        cur.execute("CREATE TEMP TABLE scale_factions (i int PRIMARY KEY, id bigint) ON COMMIT DROP")
        cur.executemany("INSERT INTO scale_factions VALUES (%s, %s)", list(enumerate(factions)))
        cur.execute("CREATE TEMP TABLE scale_codes (i int PRIMARY KEY, code text) ON COMMIT DROP")
        cur.executemany("INSERT INTO scale_codes VALUES (%s, %s)", list(enumerate(codes)))
        saved = {table: _constraints_and_indexes(cur, table) for table in FILL_TABLES}
        for table, (constraints, indexes) in saved.items():
            for name, _ in reversed(constraints):  # foreign keys first, then the unique constraints
                cur.execute(f'ALTER TABLE {table} DROP CONSTRAINT "{name}"')
            for name, _ in indexes:
                cur.execute(f'DROP INDEX "{name}"')
        # New, empty files: with wal_level=minimal the rows below are written without WAL.
        cur.execute("TRUNCATE decks_decklistcard, decks_decklist CASCADE")  # all empty: just migrated
        # The copy trigger would look up each row's decklist; the SELECT below writes the same values.
        cur.execute("ALTER TABLE decks_decklistcard DISABLE TRIGGER decks_decklistcard_copy_list")
        # Two years of decklists, newest first by id; faction by id; 5,000 authors.
        cur.execute(f"""
            INSERT INTO decks_decklist (owner_id, title, slug, description, cards, content_hash, like_count,
                                        favourite_count, published_at, faction_id)
            SELECT {first_user} + g % 5000, 'List ' || g, 'list-' || g, '', '{{}}'::jsonb, md5(g::text),
                   (g::bigint * 7919) % 97, 0, now() - ((g::bigint * 104729) % 63072000) * interval '1 second',
                   f.id
            FROM generate_series(1, {decklists}) g JOIN scale_factions f ON f.i = g % {len(factions)}""")
        # 10 staples from the first POPULAR codes, 30 from the whole catalogue; distinct within a list because
        # the strides are coprime with the ranges and the two ranges are disjoint.
        cur.execute(f"""
            INSERT INTO decks_decklistcard (decklist_id, card_code, count, published_at, faction_id)
            SELECT d.id, c.code, 1 + (d.id + j) % 3, d.published_at, d.faction_id
            FROM decks_decklist d CROSS JOIN generate_series(0, {CARDS_PER_LIST - 1}) j
            JOIN scale_codes c ON c.i = CASE WHEN j < 10 THEN (d.id * 7 + j * 31) % {POPULAR}
                                         ELSE {POPULAR} + (d.id * 131 + j * 7) % {len(codes) - POPULAR} END""")
        timings["rows_s"] = time.perf_counter() - started
        cur.execute("ALTER TABLE decks_decklistcard ENABLE TRIGGER decks_decklistcard_copy_list")
        for table, (constraints, indexes) in saved.items():
            for _, definition in indexes:
                cur.execute(definition)
            for name, definition in constraints:  # unique constraints (build their index), then foreign keys
                cur.execute(f'ALTER TABLE {table} ADD CONSTRAINT "{name}" {definition}')
    timings["fill_s"] = time.perf_counter() - started
    timings["indexes_s"] = timings["fill_s"] - timings["rows_s"]
    return timings


def worker(decklists: int, runs: int) -> dict:
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from scripts.bench_cards import generated_catalogue

    call_command("migrate", "--noinput", verbosity=0)
    started = time.perf_counter()
    call_command("loadcards", str(ROOT / "cards" / "data" / "core.json"), verbosity=0)
    big = ROOT / "var" / "load" / "generated-20000.json"
    big.parent.mkdir(parents=True, exist_ok=True)
    big.write_text(json.dumps(generated_catalogue()), encoding="utf-8")
    call_command("loadcards", str(big), verbosity=0)
    cards_s = time.perf_counter() - started

    from cards.models import Card, Faction

    codes = list(Card.objects.order_by("card_set__code", "number", "code").values_list("code", flat=True))
    factions = list(Faction.objects.exclude(slug="neutral").order_by("slug").values_list("id", flat=True))
    timings = fill(decklists, codes, factions)
    print(f"filled in {timings['fill_s']:.0f} s (rows {timings['rows_s']:.0f} s)", flush=True)
    started = time.perf_counter()
    with connection.cursor() as cur:
        cur.execute("VACUUM ANALYZE")
        vacuum_s = time.perf_counter() - started
        cur.execute("SELECT pg_size_pretty(pg_total_relation_size('decks_decklistcard')), "
                    "pg_size_pretty(pg_total_relation_size('decks_decklist'))")
        sizes = cur.fetchone()
        cur.execute("SELECT count(*) FROM decks_decklistcard c JOIN decks_decklist d ON d.id = c.decklist_id "
                    "WHERE c.published_at <> d.published_at OR c.faction_id IS DISTINCT FROM d.faction_id")
        mismatched = cur.fetchone()[0]
    if mismatched:
        raise SystemExit(f"{mismatched} card rows disagree with their decklist's published_at/faction")

    from datetime import date, timedelta

    from cards.search import search_cards
    from decks.models import DecklistCard
    from decks.selectors import DRIVER_PROBE_ROWS, decklist_search

    popular, rare = codes[7], codes[POPULAR + 12_345]
    counts = {c: DecklistCard.objects.filter(card_code=c).count() for c in (popular, rare)}
    today = date.today()
    staple = f"the staple ({counts[popular]:,} lists)"
    queries = {
        f"decklists containing {staple}, newest 50": decklist_search(cards=[popular])[:50],
        "how many decklists contain the staple (the pager's count)": _count_sql(decklist_search(cards=[popular])),
        f"decklists containing a rare card ({counts[rare]:,} lists), newest 50": decklist_search(cards=[rare])[:50],
        "camelot decklists, newest 50": decklist_search(faction="camelot")[:50],
        "how many camelot decklists (the pager's count)": _count_sql(decklist_search(faction="camelot")),
        "how many decklists, no filter (the pager's count)": _count_sql(decklist_search()),
        "decklists of the last 30 days, most liked 50":
            decklist_search(since=today - timedelta(days=30), sort="likes")[:50],
        "camelot decklists with the staple, newest 50": decklist_search(faction="camelot", cards=[popular])[:50],
        "how many camelot decklists hold the staple (the pager's count)":
            _count_sql(decklist_search(faction="camelot", cards=[popular])),
        "decklists with the staple, published in the last 90 days, newest 50":
            decklist_search(cards=[popular], since=today - timedelta(days=90))[:50],
        "decklists with the staple and the rare card, newest 50": decklist_search(cards=[popular, rare])[:50],
        f"choosing the rarest of several cards: one capped count ({DRIVER_PROBE_ROWS:,} rows) per card, the "
        f"staple's":
            _count_sql(DecklistCard.objects.filter(card_code=popular)[:DRIVER_PROBE_ROWS]),
        "decklists containing the staple, most liked 50": decklist_search(cards=[popular], sort="likes")[:50],
    }
    for q in ("f:camelot t:unit c<=3", "knight", 't:unit c<=2', 'x:"draw 1"', "legal:winter t:unit p>=3",
              "a:knight|lord -is:unique"):
        queries[f"card search `{q}`, first page of 50"] = search_cards(q)[:50]
    results = {}
    with connection.cursor() as cur:
        for label, qs in queries.items():
            if isinstance(qs, str):
                results[label] = _explain_sql(cur, qs, None, runs)
            else:
                sql, params = qs.query.sql_with_params()
                results[label] = _explain_sql(cur, sql, params, runs)
            print(f"{results[label]['median_ms']:9.2f} ms  {label}", flush=True)
    return {"decklists": decklists, "card_rows": decklists * CARDS_PER_LIST, "cards": len(codes),
            "cards_s": cards_s, **timings, "vacuum_s": vacuum_s, "sizes": sizes, "runs": runs,
            "results": results, "settings": FILL_SETTINGS,
            "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "load": os.getloadavg()}


def markdown(data: dict) -> str:
    fill = (f"filled with SQL in {data['fill_s']:.0f} s: rows {data['rows_s']:.0f} s, indexes and constraints "
            f"{data['indexes_s']:.0f} s; VACUUM ANALYZE {data['vacuum_s']:.0f} s" if "rows_s" in data else
            f"filled with SQL in {data['fill_s']:.0f} s")
    lines = [
        "### PostgreSQL at scale: EXPLAIN ANALYZE\n",
        f"`nice -n 10 .venv/bin/python -m scripts.load.pg_scale --write-doc` — a private PostgreSQL 15 cluster on "
        f"this machine; {data['cards']:,} cards (core set + generated 20,000, loaded with the real loader in "
        f"{data['cards_s']:.0f} s), {data['decklists']:,} published decklists of 40 distinct cards "
        f"({data['card_rows']:,} card rows, {data['sizes'][0]} with indexes; {fill}). "
        f"The queries are the ones the site builds (`decklist_search`, its pager count, `search_cards`); server "
        f"execution time, median of {data['runs']} runs after a warm-up. Run at {data['when']}, load average "
        f"{data['load'][0]:.1f}. Target: under 50 ms each.\n",
        "| query | median ms | slowest ms | rows | plan (top node, then the scans) |",
        "| --- | ---: | ---: | ---: | --- |",
    ]
    for label, r in data["results"].items():
        nodes = [ln.strip().lstrip("->").strip().split(" (actual")[0] for ln in r["plan"] if "(actual" in ln]
        scans = [n for n in nodes if "Scan" in n]
        nodes = ([nodes[0]] if nodes else []) + scans[:3]  # the top node, then how each table is read
        lines.append(f"| {label} | {r['median_ms']:.2f} | {r['max_ms']:.2f} | {r['rows']} | "
                     f"{' → '.join(nodes).replace('|', '/')} |")
    over = [label for label, r in data["results"].items() if r["median_ms"] >= 50]
    lines.append("")
    lines.append(
        ("Over the 50 ms target (median): " + "; ".join(over) + "." if over else
         "Every query meets the 50 ms target (median).")
        + " How: `DecklistCard` keeps copies of its decklist's `published_at` and `faction` (kept equal by "
        "database triggers, `decks/dbsync.py`) under the index `(card_code, -published_at, -decklist, faction)`, "
        "so \"newest lists holding X\" (of a faction, in a date range) is one range of that index in order; "
        "the pager's count for those filters reads that index only; with no filter or only a faction the "
        "count is read from `DecklistTally` (lists per faction, kept by triggers); the faction is resolved to "
        "its id first, so the `(faction, -published_at)` index serves faction filters; with several cards the "
        "rarest one's rows drive the query. Sorting the lists holding a card by likes has no such index (likes "
        "are not copied to the card rows): PostgreSQL either walks the likes index and probes each list for the "
        "card, or reads every list holding the card and sorts them; both are slow for a staple. Copying "
        "`like_count` to the card rows too, with an index `(card_code, -like_count, -published_at)`, would fix it "
        "at the price of a fourth 40,000,000-entry index and 40 row updates per like.")
    return "\n".join(lines) + "\n"


def write_doc(data: dict) -> None:
    """Replace the "PostgreSQL at scale" subsection of docs/performance.md (up to the next section marker)."""
    text = DOC.read_text(encoding="utf-8")
    pattern = re.compile(r"### PostgreSQL at scale: EXPLAIN ANALYZE\n.*?(?=\n<!-- bench:|\n## |\Z)", re.S)
    if not pattern.search(text):
        raise SystemExit(f"no 'PostgreSQL at scale' section in {DOC}")
    DOC.write_text(pattern.sub(lambda _: markdown(data).rstrip() + "\n", text, count=1), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--decklists", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--write-doc", action="store_true", help="also rewrite the section of docs/performance.md")
    args = parser.parse_args(argv)
    from scripts.faults.pg_restart import Cluster

    cluster = Cluster()
    try:
        cluster.init()
        configure_for_fill(cluster)
        os.environ["DATABASE_URL"] = cluster.url
        os.environ["DJANGO_SETTINGS_MODULE"] = "roc_site.settings.dev"
        os.environ["DEBUG"] = "false"
        sys.path.insert(0, str(ROOT))
        data = worker(args.decklists, args.runs)
    finally:
        try:
            from django.db import connections

            connections.close_all()
        except Exception:
            pass
        cluster.destroy()
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(data, indent=2), encoding="utf-8")
    print(markdown(data))
    if args.write_doc:
        write_doc(data)
    return 0 if all(r["median_ms"] < 50 for r in data["results"].values()) else 1


if __name__ == "__main__":
    sys.exit(main())
