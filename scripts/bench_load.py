"""Load test figures for docs/performance.md: scripts/load/run.py (gunicorn, production settings, 127.0.0.1;
wrk, 50 connections, 60 s per run), once per database available: SQLite always, PostgreSQL when
BENCH_LOAD_PG_URL names a server (e.g. postgres://postgres@127.0.0.1:5432/roc_load; the database is created if
missing), or is `private` (a scratch cluster of our own on another port, dropped afterwards).

    .venv/bin/python -m scripts.bench load                 # rewrites this section of docs/performance.md
    .venv/bin/python -m scripts.bench_load --write-doc     # the same, leaving "PostgreSQL at scale" as it is
    # measuring a clean export of the last commit (other people's uncommitted edits in a shared checkout):
    git archive HEAD | tar -x -C /tmp/snap && ln -s "$PWD/.venv" /tmp/snap/.venv && cd /tmp/snap && \
      BENCH_LOAD_SOURCE="commit $(git -C "$OLDPWD" rev-parse --short HEAD)" \
      .venv/bin/python -m scripts.bench_load --write-doc --doc "$OLDPWD/docs/performance.md"

Per database, one gunicorn serves every run:
- closed loop (the target as stated: 50 saturating connections): the card search API with one query
  (`search`) and with the ten typical queries of the cards benchmark round-robin (`search-mix`),
  BENCH_LOAD_RUNS times each (default 3), then a card page, a decklist page and deck validation once each;
- paced (50 connections offering 300 requests/s on a fixed schedule): `search` and `search-mix`,
  BENCH_LOAD_RUNS times each.
The card search runs are interleaved (closed, closed, paced, paced, then again) so that a noisy minute on this
shared machine does not land on one of them only. A row with several runs gives the median of each figure over
the runs (requests/s, p50, p95, p99 separately); wrk's p50/p95/p99 are over every request of one run. The
gunicorn settings table comes from var/load/sweep.json, written by `python -m scripts.load.sweep`, and the
PostgreSQL-at-scale table from var/load/pgscale.json, written by `python -m scripts.load.pg_scale`.
"""
from __future__ import annotations

import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DURATION = int(os.environ.get("BENCH_LOAD_DURATION", "60"))
RUNS = int(os.environ.get("BENCH_LOAD_RUNS", "3"))
CONNECTIONS = 50
RATE = 300
TARGET_P95_MS = 50
TARGET_RPS = 300
DOC = ROOT / "docs" / "performance.md"


def _ensure_pg_database(url: str) -> bool:
    import psycopg

    base, _, name = url.rpartition("/")
    try:
        with psycopg.connect(base + "/postgres", autocommit=True, connect_timeout=3) as conn:
            if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
                conn.execute(f'CREATE DATABASE "{name}"')
        return True
    except psycopg.Error:
        return False


def main() -> str:
    databases = [("SQLite (WAL, file under var/load/)", None)]
    pg = os.environ.get("BENCH_LOAD_PG_URL")
    cluster = None
    if pg == "private":  # a scratch PostgreSQL cluster of our own (scripts/faults/pg_restart.Cluster)
        from scripts.faults.pg_restart import Cluster

        cluster = Cluster()
        cluster.init()
        pg = cluster.url
    if pg and _ensure_pg_database(pg):
        databases.append(("PostgreSQL 15 (same machine)", pg))
    try:
        return _measure(databases)
    finally:
        if cluster is not None:
            cluster.destroy()


def _median_row(rows: list[dict]) -> dict:
    row = dict(rows[0])
    for key in ("rps", "p50", "p95", "p99", "max", "late", "max_late_us"):
        row[key] = statistics.median(r.get(key, 0) for r in rows)
    row["requests"] = sum(r["requests"] for r in rows)
    row["errors"] = sum(r["errors"] for r in rows)
    row["runs"] = len(rows)
    row["p95_range"] = (min(r["p95"] for r in rows), max(r["p95"] for r in rows))
    row["load_range"] = (min(r["load_before"] for r in rows), max(r["load_after"] for r in rows))
    return row


def _meets(row: dict) -> bool:
    ok = row["p95"] < TARGET_P95_MS * 1000 and row["rps"] >= TARGET_RPS * (0.98 if row.get("rate") else 1)
    return ok and row["errors"] == 0 and (not row.get("rate") or row["late"] == 0)


def _table(rows: list[dict]) -> str:
    from scripts.load.run import request_label

    lines = ["| load | target | request | runs | requests/s | p50 ms | p95 ms | p99 ms | max ms | requests | errors |"
             " load average |",
             "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"]
    for r in rows:
        mode = f"paced {r['rate']}/s" if r.get("rate") else "closed loop"
        runs = r.get("runs", 1)
        p95 = f"{r['p95'] / 1000:.1f}"
        if runs > 1:
            low, high = r["p95_range"]
            p95 += f" ({low / 1000:.1f}–{high / 1000:.1f})"
        load_low, load_high = r.get("load_range", (r["load_before"], r["load_after"]))
        lines.append(f"| {mode} | {r['what']} | {request_label(r)} | {runs} | {r['rps']:.0f} | {r['p50'] / 1000:.1f} | "
                     f"{p95} | {r['p99'] / 1000:.1f} | {r['max'] / 1000:.0f} | {r['requests']:,} | {r['errors']} | "
                     f"{load_low:.1f}–{load_high:.1f} |")
    return "\n".join(lines)


def _verdicts(rows: list[dict]) -> str:
    out = []
    for r in rows:
        if not r["target"].startswith("search"):
            continue
        mode = f"paced at {r['rate']} requests/s" if r.get("rate") else "closed loop"
        late = f", {r['late']:.0f} late sends" if r.get("rate") else ""
        out.append(f"- {r['what']}, {mode}: {r['rps']:.0f} requests/s, p95 {r['p95'] / 1000:.1f} ms{late} — "
                   f"**{'meets' if _meets(r) else 'misses'}** the target.")
    return "\n".join(out)


def _summary(results: list[tuple[str, list[dict]]]) -> str:
    """One paragraph: is the card search target met, under which reading, on which database."""
    parts = []
    for mode, rate in (("Paced at 300 requests/s", RATE), ("Closed loop (50 saturating connections)", None)):
        said = []
        for label, rows in results:
            db = label.split(" (")[0]
            for r in rows:
                if r["target"] in ("search", "search-mix") and r.get("rate") == rate:
                    what = "one query" if r["target"] == "search" else "10-query mix"
                    said.append(f"{db} {what} {'met' if _meets(r) else 'missed'} ({r['rps']:.0f} requests/s, "
                                f"p95 {r['p95'] / 1000:.1f} ms)")
        parts.append(f"{mode}: " + "; ".join(said) + ".")
    return "**Verdict (target: card search p95 < 50 ms and ≥ 300 requests/s, zero errors).** " + " ".join(parts)


def _measure(databases) -> str:
    from scripts.load import run as load

    sections = []
    results = []
    first = None
    started = time.strftime("%Y-%m-%d %H:%M", time.gmtime())
    for label, url in databases:
        env_before = os.environ.get("DATABASE_URL")
        if url:
            os.environ["DATABASE_URL"] = url
        else:
            os.environ.pop("DATABASE_URL", None)
        try:
            load_before = os.getloadavg()[0]
            with load.Server(database_url=url) as server:
                runs: dict[tuple, list[dict]] = {}
                for _ in range(RUNS):
                    for name, rate in (("search", None), ("search-mix", None), ("search", RATE),
                                       ("search-mix", RATE)):
                        runs.setdefault((name, rate), []).append(
                            server.load(name, duration=DURATION, connections=CONNECTIONS, threads=2, rate=rate))
                for name in ("search-uncached", "card", "decklist", "validate"):
                    runs[(name, None)] = [server.load(name, duration=DURATION, connections=CONNECTIONS, threads=2)]
                gunicorn = server.settings()
            load_after = os.getloadavg()[0]
        finally:
            if env_before is None:
                os.environ.pop("DATABASE_URL", None)
            else:
                os.environ["DATABASE_URL"] = env_before
        order = [("search", None), ("search-mix", None), ("search-uncached", None), ("card", None),
                 ("decklist", None), ("validate", None), ("search", RATE), ("search-mix", RATE)]
        rows = [_median_row(runs[key]) for key in order]
        results.append((label, rows))
        first = first or gunicorn
        sections.append(
            f"### {label}\n\n{_table(rows)}\n\n"
            f"Card search against the target (p95 < {TARGET_P95_MS} ms and ≥ {TARGET_RPS} requests/s; paced: the "
            f"offered {RATE} requests/s achieved, no late send):\n\n{_verdicts(rows)}\n\n"
            f"Load average {load_before:.1f} before, {load_after:.1f} after ({os.cpu_count()} CPUs); the load "
            "average column is the range over that row's runs (before the first, after the last).")
    import json

    (ROOT / "var" / "load" / "bench_load.json").write_text(json.dumps(results, indent=2), encoding="utf-8")
    sweep = ROOT / "var" / "load" / "sweep.json"
    if sweep.exists():  # written by `python -m scripts.load.sweep` (about 15 minutes), not re-run here
        from scripts.load.sweep import markdown as sweep_markdown

        sections.append(sweep_markdown(json.loads(sweep.read_text(encoding="utf-8"))).rstrip())
    scale = ROOT / "var" / "load" / "pgscale.json"
    if scale.exists():  # written by `python -m scripts.load.pg_scale` (minutes: 40M rows), not re-run here
        from scripts.load.pg_scale import markdown as scale_markdown

        sections.append(scale_markdown(json.loads(scale.read_text(encoding="utf-8"))).rstrip())
    cpu = subprocess.run(["sh", "-c", "grep -m1 'model name' /proc/cpuinfo | cut -d: -f2"], capture_output=True,
                         text=True).stdout.strip()
    return (
        "## Load test (gunicorn + wrk)\n\n"
        "`.venv/bin/python -m scripts.bench_load --write-doc` (SQLite) or "
        "`BENCH_LOAD_PG_URL=private .venv/bin/python -m scripts.bench_load --write-doc` (SQLite, then a scratch "
        "PostgreSQL cluster); `make load` runs the four load targets once (`scripts/load/run.py`). "
        "gunicorn with `roc_site/gunicorn.conf.py` and the production settings "
        f"({first['gunicorn_workers']} gthread workers × {first['gunicorn_threads']} threads, DEBUG off, "
        "whitenoise, security middleware, the card API cache of `cards/cache.py` in each worker's memory) on "
        f"127.0.0.1; wrk (Debian's 4.1.0) with 2 threads and {CONNECTIONS} connections, {DURATION} s per run, on "
        f"the same machine ({os.cpu_count()} CPUs{', ' + cpu if cpu else ''}, shared with other people's jobs): "
        "wrk's own CPU use counts against the server's. Errors = connection/read/write errors, timeouts over "
        f"5 s, and any answer not 2xx/3xx. Run {started}–{time.strftime('%H:%M UTC', time.gmtime())}"
        + (f", {os.environ['BENCH_LOAD_SOURCE']}" if os.environ.get("BENCH_LOAD_SOURCE") else "") + ".\n\n"
        "How to read it. *Closed loop* is the target taken literally: wrk keeps all 50 connections busy, so "
        "the server is saturated and the mean latency is 50 ÷ throughput (Little's law) whatever the code does "
        "(at 300 requests/s it is 167 ms; a p95 under 50 ms needs well over 1,000 requests/s). The requests/s "
        f"column is the capacity. *Paced* is the same 50 connections offering {RATE} requests/s on a fixed "
        "schedule (wrk's Lua `delay()`, `scripts/load/report.lua`; Debian has no wrk2): latency at the target "
        "rate rather than at saturation. wrk times a request from the moment it is sent, so a send that could "
        "not leave on time would hide queueing; those are counted (late sends) and there were none unless the "
        "verdict says so. `search` repeats one query, so after the first request every answer comes from the "
        "cache; `search-mix` cycles through the ten typical queries of the cards section (scripts/bench_cards.py) "
        "— still all cached after the first round, so both rows measure the cached path, which is what repeated "
        "anonymous searches get; `search-uncached` appends a different `&u=N` to every request, so none is "
        "cached: the cost of a search computed by Django (and of any query nobody asked in the last ten "
        "minutes). The card page, decklist page and deck validation rows are uncached Django. Before the cache "
        "(this section's run of 2026-11-29 13:46 UTC, SQLite, load average 0.0) the one-query closed loop gave "
        "253 requests/s, p95 485 ms.\n\n"
        + _summary(results) + (" Errors: none." if not any(r["errors"] for _l, rows in results for r in rows)
                               else " Errors: see the tables.") + "\n\n"
        + "\n\n".join(sections) + "\n"
    )


def write_doc(section: str, doc: Path = DOC) -> None:
    """Replace this section of docs/performance.md up to its "PostgreSQL at scale" subsection (which
    scripts/load/pg_scale.py writes), keeping that subsection as it is."""
    text = doc.read_text(encoding="utf-8")
    ours = section.split("### PostgreSQL at scale: EXPLAIN ANALYZE", 1)[0].rstrip() + "\n\n"
    pattern = re.compile(r"## Load test \(gunicorn \+ wrk\)\n.*?(?=### PostgreSQL at scale: EXPLAIN ANALYZE)", re.S)
    if not pattern.search(text):
        sys.exit("docs/performance.md has no load test section followed by 'PostgreSQL at scale'")
    doc.write_text(pattern.sub(lambda _m: ours, text, count=1), encoding="utf-8")


if __name__ == "__main__":
    import argparse

    sys.path.insert(0, str(ROOT))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write-doc", action="store_true", help="write the section into docs/performance.md")
    parser.add_argument("--doc", type=Path, default=DOC,
                        help="the performance.md to write (e.g. the checkout's, when measuring a clean export)")
    parser.add_argument("--section-out", type=Path, help="also save the section's Markdown to this file")
    args = parser.parse_args()
    result = main()
    print(result)
    if args.section_out:
        args.section_out.write_text(result, encoding="utf-8")
    if args.write_doc:
        write_doc(result, args.doc)
        print(f"wrote {args.doc}")
