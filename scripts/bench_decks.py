"""Deck legality and decklist text, in-process with the cards preloaded (no database: the pure functions);
then "published decklists containing card X" on PostgreSQL with many decklists (the plan of docs/performance.md).

The pool is the core set (cards/data/core.json) and the decks are the seven starter decks
(cards/data/starters/*.txt), each 60-61 draw cards + faction + destiny + 7 quests.

The PostgreSQL part runs in a subprocess against a scratch database `roc_bench_decks` (created, migrated, filled
with BENCH_DECKLISTS generated decklists of 40 distinct cards each, and dropped), on the server named by
BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres); BENCH_PG_DB names the scratch database when
several checkouts share one server. It is skipped when no server answers.

    .venv/bin/python -m scripts.bench decks      # rewrites this section of docs/performance.md
"""
from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUNS = 9  # each run times every starter deck many times; the figure is the median of the runs
INNER = 300


def _per_call_us(fn, args_list, inner: int = INNER) -> list[float]:
    """Median-of-runs time of one call, in microseconds."""
    runs = []
    for _ in range(RUNS):
        started = time.perf_counter()
        for _ in range(inner):
            for args in args_list:
                fn(*args)
        runs.append((time.perf_counter() - started) / (inner * len(args_list)) * 1e6)
    return runs


def measure() -> dict:
    sys.path.insert(0, str(ROOT))
    from cards.cardfile import parse_card_file
    from decks.decklist import export_decklist, parse_decklist
    from decks.decklist import check_decklist_text
    from decks.legality import FormatRules, check_deck
    from decks.pool import CardPool
    from decks.stats import deck_key_figures, deck_stats, sample_hand

    cards = parse_card_file((ROOT / "cards" / "data" / "core.json").read_text(encoding="utf-8")).cards
    started = time.perf_counter()
    pool = CardPool.from_cards(cards)
    pool_ms = (time.perf_counter() - started) * 1e3
    texts = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "cards" / "data" / "starters").glob("*.txt"))]
    decks = [parse_decklist(t, pool).counts for t in texts]
    fmt = FormatRules.of("Bench League", banned=[c["name"] for c in cards[:5]],
                         restricted=[c["name"] for c in cards[5:15]])
    results = {
        "check_deck": _per_call_us(check_deck, [(d, pool) for d in decks]),
        "check_deck_fmt": _per_call_us(check_deck, [(d, pool, fmt) for d in decks]),
        "parse": _per_call_us(parse_decklist, [(t, pool) for t in texts]),
        "text": _per_call_us(check_decklist_text, [(t, pool) for t in texts]),
        "export": _per_call_us(export_decklist, [(d, pool) for d in decks]),
        "stats": _per_call_us(deck_stats, [(d, pool) for d in decks]),
        "figures": _per_call_us(deck_key_figures, [(d, pool) for d in decks]),
        "hand": _per_call_us(sample_hand, [(d, pool, random.Random(i)) for i, d in enumerate(decks)]),
    }
    sizes = [sum(n for c, n in d.items() if pool.get(c)["type"] in ("unit", "location", "attachment", "deed"))
             for d in decks]
    # The editor's live side on every change: text -> verdict + stats + the eight SVG charts. Far slower than the
    # rest (pygal), so fewer passes.
    from decks.charts import _deck_charts as deck_charts  # uncached: what a list never seen before costs

    stats = [deck_stats(d, pool) for d in decks]
    results["charts"] = _per_call_us(deck_charts, [(st,) for st in stats], inner=3)

    def live(text):
        check_decklist_text(text, pool)
        deck_charts(deck_stats(parse_decklist(text, pool).counts, pool))

    results["live"] = _per_call_us(live, [(t,) for t in texts], inner=3)
    return {"results": results, "pool_ms": pool_ms, "cards": len(cards), "decks": len(decks), "sizes": sizes}


PG_URL = os.environ.get("BENCH_PG_URL", "postgres://postgres@127.0.0.1:5432/postgres")
PG_DB = os.environ.get("BENCH_PG_DB", "roc_bench_decks")  # a scratch database, dropped at the end
# 1,000,000 decklists (40M rows) takes many minutes to generate on the shared 2-core machine; the default is a tenth
# of that, and BENCH_DECKLISTS=1000000 runs the full size.
DECKLISTS = int(os.environ.get("BENCH_DECKLISTS", "100000"))
CARDS_PER_LIST = 40
PG_RUNS = 15


def _pg_worker() -> None:
    """Runs in its own process: DATABASE_URL must be set before django.setup()."""
    import psycopg

    admin = psycopg.connect(PG_URL, autocommit=True)
    admin.execute(f"DROP DATABASE IF EXISTS {PG_DB}")
    admin.execute(f"CREATE DATABASE {PG_DB}")
    base = PG_URL.rsplit("/", 1)[0]
    os.environ["DATABASE_URL"] = f"{base}/{PG_DB}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "roc_site.settings.dev")
    sys.path.insert(0, str(ROOT))
    try:
        import django

        django.setup()
        from django.core.management import call_command
        from django.db import connection

        call_command("migrate", verbosity=0)
        call_command("loadcards", str(ROOT / "cards" / "data" / "core.json"), verbosity=0)
        from cards.models import Card

        codes = list(Card.objects.order_by("code").values_list("code", flat=True))
        started = time.perf_counter()
        with connection.cursor() as cur:
            cur.execute("INSERT INTO auth_user (password, is_superuser, username, first_name, last_name, email, "
                        "is_staff, is_active, date_joined) SELECT '!', false, 'bench' || g, '', '', '', false, true, "
                        "now() FROM generate_series(1, 1000) g")
            cur.execute("SELECT min(id) FROM auth_user")
            first_user = cur.fetchone()[0]
            # Decklists spread over two years; 40 distinct cards each, by a stride coprime with the card count.
            cur.execute(f"""
                INSERT INTO decks_decklist (owner_id, title, slug, description, cards, content_hash, like_count,
                                            favourite_count, published_at)
                SELECT {first_user} + g % 1000, 'List ' || g, 'list-' || g, '', '{{}}'::jsonb, md5(g::text),
                       (g * 7919) % 97, 0, now() - ((g::bigint * 104729) % 63072000) * interval '1 second'
                FROM generate_series(1, {DECKLISTS}) g""")
            cur.execute("CREATE TEMP TABLE bench_codes (i int PRIMARY KEY, code text)")
            cur.executemany("INSERT INTO bench_codes VALUES (%s, %s)", list(enumerate(codes)))
            cur.execute(f"""
                INSERT INTO decks_decklistcard (decklist_id, card_code, count)
                SELECT d.id, c.code, 1 + (d.id + j) % 3
                FROM decks_decklist d CROSS JOIN generate_series(0, {CARDS_PER_LIST - 1}) j
                JOIN bench_codes c ON c.i = (d.id * 31 + j * 7) % {len(codes)}""")
        fill_s = time.perf_counter() - started
        with connection.cursor() as cur:  # what autovacuum would have done by then: index-only scans possible
            cur.execute("VACUUM ANALYZE decks_decklist")
            cur.execute("VACUUM ANALYZE decks_decklistcard")
        from decks.models import DecklistCard
        from decks.selectors import decklist_search

        probe = codes[len(codes) // 2]
        matching = DecklistCard.objects.filter(card_code=probe).count()

        def first_page():
            return list(decklist_search(cards=[probe])[:50].values_list("id", flat=True))

        def count_all():
            return decklist_search(cards=[probe]).count()

        from decks.selectors import decklists_with_card

        def card_page():  # "Decklists using this card" on the card's page: the newest 8 and how many
            lists, total = decklists_with_card(code=probe, limit=8)
            return [d.title for d in lists], total

        def timed(fn):
            fn()
            runs = []
            for _ in range(PG_RUNS):
                t = time.perf_counter()
                fn()
                runs.append((time.perf_counter() - t) * 1e3)
            return runs

        def server_ms(qs) -> list[float]:
            """Execution time reported by the server itself (EXPLAIN ANALYZE), without Django's overhead."""
            sql, params = qs.query.sql_with_params()
            runs = []
            with connection.cursor() as cur:
                for _ in range(PG_RUNS):
                    cur.execute("EXPLAIN (ANALYZE, FORMAT JSON) " + sql, params)
                    runs.append(cur.fetchone()[0][0]["Execution Time"])
            return runs

        with connection.cursor() as cur:
            sql, params = decklist_search(cards=[probe])[:50].values("id").query.sql_with_params()
            cur.execute("EXPLAIN " + sql, params)
            plan = [row[0] for row in cur.fetchall()]
        server_first = server_ms(decklist_search(cards=[probe])[:50].values("id"))
        with connection.cursor() as cur:
            sql, params = decklist_search(cards=[probe]).order_by().values("id").query.sql_with_params()
            cur.execute("EXPLAIN SELECT count(*) FROM (" + sql + ") t", params)
            count_plan = [row[0] for row in cur.fetchall()]
        print(json.dumps({"decklists": DECKLISTS, "rows": DECKLISTS * CARDS_PER_LIST, "fill_s": fill_s,
                          "matching": matching, "first_page": timed(first_page), "count": timed(count_all),
                          "card_page": timed(card_page),
                          "uses_index": any("decks_decklistcard" in line and "Index" in line for line in plan),
                          "server_first_page": server_first, "plan": plan, "count_plan": count_plan}))
    finally:
        from django.db import connections

        connections.close_all()
        admin.execute(f"DROP DATABASE IF EXISTS {PG_DB}")
        admin.close()


def _pg_section() -> list[str]:
    try:
        import psycopg

        psycopg.connect(PG_URL, connect_timeout=3).close()
    except Exception as e:  # no server: say so rather than fail the whole bench
        return ["", f"PostgreSQL part skipped: no server at {PG_URL} ({type(e).__name__})."]
    out = subprocess.run([sys.executable, "-m", "scripts.bench_decks", "--pg-worker"], cwd=ROOT,
                         capture_output=True, text=True, timeout=3600)
    if out.returncode != 0:
        return ["", f"PostgreSQL part failed: {out.stderr.strip().splitlines()[-1] if out.stderr else out.returncode}"]
    data = json.loads(out.stdout.strip().splitlines()[-1])
    fp, ct, sf, cp = data["first_page"], data["count"], data["server_first_page"], data["card_page"]
    return [
        "",
        f"### Published decklists containing card X (PostgreSQL, {data['decklists']:,} decklists)",
        "",
        f"`decklist_search(cards=[X])` over {data['decklists']:,} generated decklists of {CARDS_PER_LIST} distinct "
        f"cards ({data['rows']:,} `DecklistCard` rows, filled in {data['fill_s']:.0f} s); card X is in "
        f"{data['matching']:,} of them. Median of {PG_RUNS} runs after one warm-up, through Django (what a view "
        "pays) and as the server's own execution time (EXPLAIN ANALYZE).",
        "Target: under 50 ms with 1,000,000 decklists.",
        "",
        "| query | median | min | max |",
        "| --- | ---: | ---: | ---: |",
        f"| newest 50 decklists containing X | {statistics.median(fp):.1f} ms | {min(fp):.1f} ms | {max(fp):.1f} ms |",
        f"| the same, server execution time | {statistics.median(sf):.2f} ms | {min(sf):.2f} ms | {max(sf):.2f} ms |",
        f"| how many decklists contain X | {statistics.median(ct):.1f} ms | {min(ct):.1f} ms | {max(ct):.1f} ms |",
        f"| X's card page: \"decklists using this card\", the newest 8 (with owner, faction) and how many "
        f"(`decklists_with_card`) | {statistics.median(cp):.1f} ms | {min(cp):.1f} ms | {max(cp):.1f} ms |",
        "",
        "Plan of the first query: " + " → ".join(line.strip().lstrip("-> ").split("  (")[0] for line in data["plan"]
                                               if "Scan" in line or "Loop" in line or "Join" in line) + ".",
    ]


def main() -> str:
    data = measure()
    rows = [
        ("check_deck", "`check_deck(counts, pool)` — §11 verdict of a parsed deck"),
        ("check_deck_fmt", "`check_deck(counts, pool, fmt)` — with a banned + restricted list"),
        ("parse", "`parse_decklist(text, pool)` — decklist text to counts"),
        ("text", "`check_decklist_text(text, pool)` — text to verdict (what the API does)"),
        ("export", "`export_decklist(counts, pool)` — canonical text"),
        ("stats", "`deck_stats(counts, pool)` — editor/API statistics"),
        ("figures", "`deck_key_figures(counts, pool)` — a decklist tile's figures (the browser: 30 a page)"),
        ("hand", "`sample_hand(counts, pool, rng)` — a sample hand drawn by the server (`?hand=1`)"),
        ("charts", "`deck_charts(stats)` uncached — the eight SVG charts (pygal; 3 passes per run)"),
        ("live", "editor live side, a list not seen before: text → verdict + stats + charts (3 passes per run)"),
    ]
    lines = [
        "## Deck legality and decklist text",
        "",
        "`.venv/bin/python -m scripts.bench decks` — in-process, cards preloaded in a `CardPool` (no database);",
        f"the {data['decks']} starter decks ({min(data['sizes'])}–{max(data['sizes'])} draw cards each) against the "
        f"core set ({data['cards']} cards). Median of {RUNS} runs of {INNER} passes over every deck; time per call.",
        "Target: validating a 60-card deck under 1 ms.",
        "",
        "| operation | median per call | min | max |",
        "| --- | ---: | ---: | ---: |",
    ]
    for key, label in rows:
        runs = data["results"][key]
        if statistics.median(runs) > 10_000:
            lines.append(f"| {label} | {statistics.median(runs) / 1e3:.1f} ms | {min(runs) / 1e3:.1f} ms | "
                         f"{max(runs) / 1e3:.1f} ms |")
        else:
            lines.append(f"| {label} | {statistics.median(runs):.1f} µs | {min(runs):.1f} µs | {max(runs):.1f} µs |")
    lines += ["", f"Building the pool from {data['cards']} card dicts once: {data['pool_ms']:.1f} ms "
              "(`CardPool.from_db()` caches it per process until the catalogue changes)."]
    lines += _pg_section()
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    if sys.argv[1:] == ["--pg-worker"]:
        _pg_worker()
    else:
        print(main())
