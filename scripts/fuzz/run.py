"""Nightly-style fuzzing: every target of scripts/fuzz/targets.py with at least 10,000 hypothesis cases.

    .venv/bin/python -m scripts.fuzz.run                    # all targets, 10,000 cases each (`make fuzz`)
    .venv/bin/python -m scripts.fuzz.run engine --cases 500 # one target, fewer cases
    .venv/bin/python -m scripts.fuzz.run http-nested http-nul --cases 2000   # HTTP input surfaces (http.py)

The http-* targets send hostile input to every endpoint through Django's test client; they run against a test
database made for the run (as pytest does: test_<NAME> of DATABASE_URL, or SQLite) and dropped after it.

Prints one line per target (cases run, failures, seconds) and a Markdown table to paste into
docs/reliability.md; exits 1 if any target found a failing case (hypothesis prints the shrunk example).
A fresh random seed each night unless --seed is given (the seed is printed, so a failure can be replayed).
"""
from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_target(name: str, cases: int, seed: int) -> dict:
    from hypothesis import HealthCheck, given, seed as hseed, settings

    strategy, check = all_targets()[name]
    counter = {"n": 0}

    @hseed(seed)
    @settings(max_examples=cases, deadline=None, database=None, derandomize=False,
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def run(example):
        counter["n"] += 1
        check(example)

    started = time.perf_counter()
    failure = None
    try:
        run()
    except Exception:  # hypothesis re-raises the shrunk failure
        failure = traceback.format_exc(limit=8)
    return {"target": name, "cases": counter["n"], "failure": failure,
            "seconds": time.perf_counter() - started, "seed": seed}


def all_targets() -> dict:
    from scripts.fuzz import http, targets

    return {**targets.TARGETS, **http.TARGETS}


def _test_database():
    """A test database with the core cards, as the test suite makes one; returns the teardown."""
    from django.core.management import call_command
    from django.test.utils import setup_databases, setup_test_environment, teardown_databases

    setup_test_environment()
    config = setup_databases(verbosity=0, interactive=False)
    from cards.models import FACTION_ROWS, Faction

    for slug, fname, color, position in FACTION_ROWS:
        Faction.objects.update_or_create(slug=slug, defaults={"name": fname, "color": color, "position": position})
    call_command("loadcards", str(ROOT / "cards" / "data" / "core.json"), verbosity=0)
    return lambda: teardown_databases(config, verbosity=0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("targets", nargs="*", help="search, decklist, cardfile, engine, http-nested, "
                        "http-surrogate, http-nul, http-number, http-body (default: all)")
    parser.add_argument("--cases", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "roc_site.settings.test")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    TARGETS = all_targets()

    names = args.targets or list(TARGETS)
    unknown = [n for n in names if n not in TARGETS]
    if unknown:
        parser.error(f"unknown target(s) {', '.join(unknown)}; known: {', '.join(TARGETS)}")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    print(f"fuzz seed {seed}, {args.cases:,} cases per target", flush=True)
    rows = []
    teardown = None
    if any(n.startswith("http-") for n in names):
        import logging

        logging.getLogger("django.request").setLevel(logging.ERROR)   # every refusal would print "Bad Request"
        teardown = _test_database()
    try:
        for name in names:
            row = run_target(name, args.cases, seed)
            rows.append(row)
            status = "ok" if row["failure"] is None else "FAILED"
            print(f"{name:14} {row['cases']:>7,} cases  {status:6} {row['seconds']:8.1f} s", flush=True)
            if row["failure"]:
                print(row["failure"], file=sys.stderr)
    finally:
        if teardown is not None:
            teardown()
    print()
    print(f"Seed {seed} · {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} · Python "
          f"{platform.python_version()} · {os.cpu_count()} CPUs")
    print()
    print("| target | cases | failures | seconds | cases/s |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for row in rows:
        print(f"| {row['target']} | {row['cases']:,} | {0 if row['failure'] is None else 1} | "
              f"{row['seconds']:.0f} | {row['cases'] / max(row['seconds'], 1e-9):.0f} |")
    return 1 if any(r["failure"] for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
