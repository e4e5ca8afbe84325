"""Card search through the API (`GET /api/cards/?q=...`), in-process with Django's test client.

Two catalogues, each in its own scratch SQLite database under /tmp (never the site's database): the core set
(cards/data/core.json) and a generated 20,000-card catalogue loaded with the real loader. Each runs in a
subprocess so that DATABASE_URL is set before django.setup(), whatever else the bench harness has imported.

    .venv/bin/python -m scripts.bench cards          # rewrites this section of docs/performance.md
    .venv/bin/python -m scripts.bench_cards --worker core|big   # one catalogue, JSON on stdout
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
BIG_CATALOGUE = 20_000
RUNS = 15
WARMUP = 3

# Typical searches: a bare name word, the filter buttons, numeric comparisons, attributes/keywords, rules text,
# the deck-building question (legal:) and a sort.
QUERIES = [
    ("", None, "everything, first page"),
    ("knight", None, "a name word"),
    ("f:camelot t:unit", None, "faction + type buttons"),
    ("t:unit c<=2", None, "type + cost"),
    ("a:knight|lord -is:unique", None, "attribute OR, negation"),
    ("k:haste or k:secret", None, "keywords"),
    ('x:"draw 1"', None, "rules text phrase"),
    ("legal:winter t:unit p>=3", None, "deck-building"),
    ("t:unit", "cost", "sorted by cost"),
    ("t:quest w>=3", None, "quest stats"),
]

NAME_WORDS = ["Knight", "Lord", "Squire", "Witch", "Shade", "Tower", "Blade", "Oath", "Court", "Banner", "Raven",
              "Grail", "Thorn", "Frost", "Ember", "Vale", "Hollow", "Marsh", "Crown", "Lance", "Veil", "Stag",
              "Mire", "Harp", "Bell", "Cairn", "Forge", "Ward", "Herald", "Pilgrim"]
LINKS = ["of the", "from", "beneath", "beyond", "at"]
ATTRIBUTES = ["Knight", "Lord", "Lady", "Sorceress", "Spy", "Guard", "Weapon", "Stronghold", "Round Table",
              "Fae", "Priest", "Beast", "Ship", "Relic", "Court"]
PLAIN = ["Subtle", "Glory", "Mastery", "Cunning", "Compel", "Prowess", "Wary", "Ruthless", "Restricted",
         "Lasting", "Bound", "No Attachments"]
PARAM = ["Haste", "Secret", "Scout", "Ravage"]
TEXTS = ["Action: Exhaust this unit to draw 1 card.", "Response: After you win a struggle, gain 1 wealth.",
         "Forced: When this unit enters play, draw 1 card.", "Action: Kill a unit with 1 Power or less.",
         "Attached unit gets +1 Power.", "Halt: Save a unit you control.", "Action: Gain 1 Influence.",
         "Response: After a struggle, return a unit to its owner's hand.", ""]
FACTIONS = ["camelot", "eleven", "lefay", "keepers", "summer", "winter", "saracen", "neutral"]


def generated_catalogue(n: int = BIG_CATALOGUE, seed: int = 2026) -> dict:
    """A card file of n varied, valid cards (CONTRACTS §1), the same for the same seed."""
    rng = random.Random(seed)
    cards = []
    for i in range(n):
        ctype = rng.choices(["unit", "location", "attachment", "deed", "quest", "destiny", "faction"],
                            [55, 12, 12, 12, 6, 2, 1])[0]
        name = f"{rng.choice(NAME_WORDS)} {rng.choice(LINKS)} {rng.choice(NAME_WORDS)} {i}"
        card = {"code": f"gen-{i:05d}", "name": name, "type": ctype, "faction": rng.choice(FACTIONS),
                "number": i + 1}
        if ctype in ("unit", "location", "attachment", "deed"):
            card["cost"] = rng.choices([rng.randint(0, 6), "X", "-"], [90, 5, 5])[0]
            card["attributes"] = rng.sample(ATTRIBUTES, rng.randint(0, 2))
            kws = rng.sample(PLAIN, rng.randint(0, 2)) + [f"{k} ({rng.randint(1, 3)})" for k in
                                                          rng.sample(PARAM, rng.choice([0, 0, 0, 1]))]
            card["keywords"] = kws
            card["text"] = rng.choice(TEXTS)
            card["unique"] = rng.random() < 0.15
            if card["faction"] != "neutral" and rng.random() < 0.6:
                card["loyalty"] = rng.randint(1, 3)
        if ctype == "unit":
            card["power"] = rng.choices([rng.randint(0, 6), "X"], [95, 5])[0]
            card["icons"] = [i for i in ("combat", "guile", "sorcery", "faith") if rng.random() < 0.35]
        if ctype == "quest":
            card["faction"] = "neutral"
            card.update(wealth=rng.randint(1, 5), momentum=rng.randint(0, 6), spoils=rng.randint(0, 3),
                        levy=rng.randint(5, 9), text="Embark: Draw 1 card.")
        cards.append(card)
    return {"set": {"code": "bench", "name": "Generated benchmark catalogue"}, "cards": cards}


def _worker(which: str) -> None:
    db_path = Path(f"/tmp/roc-bench-cards-{which}.sqlite3")
    for suffix in ("", "-wal", "-shm"):
        Path(str(db_path) + suffix).unlink(missing_ok=True)
    os.environ["DATABASE_URL"] = f"sqlite:///{db_path}"
    os.environ["DJANGO_SETTINGS_MODULE"] = "roc_site.settings.test"
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command
    from django.test import Client

    from cards.cardfile import parse_card_documents
    from cards.models import Card
    from cards.services import card_files_load

    call_command("migrate", verbosity=0)
    started = time.perf_counter()
    if which == "core":
        text = (ROOT / "cards" / "data" / "core.json").read_text(encoding="utf-8")
    else:
        text = json.dumps(generated_catalogue())
    files = parse_card_documents(text)
    assert not any(f.errors for f in files), [f.errors[:3] for f in files]
    card_files_load(card_files=files)
    load_s = time.perf_counter() - started

    client = Client()
    results = []
    for q, sort, label in QUERIES:
        params = {"q": q} | ({"sort": sort} if sort else {})
        timings, cpu_timings = [], []
        count = None
        for run in range(WARMUP + RUNS):
            t0, c0 = time.perf_counter(), time.process_time()
            response = client.get("/api/cards/", params)
            elapsed, cpu = time.perf_counter() - t0, time.process_time() - c0
            assert response.status_code == 200, (q, response.content[:200])
            if run >= WARMUP:
                timings.append(elapsed * 1000)
                cpu_timings.append(cpu * 1000)
            count = response.json()["count"]
        results.append({"q": q, "sort": sort, "label": label, "count": count,
                        "median_ms": statistics.median(timings), "max_ms": max(timings),
                        "cpu_ms": statistics.median(cpu_timings)})
    print(json.dumps({"cards": Card.objects.count(), "load_s": load_s, "results": results}))


def _run(which: str) -> dict:
    out = subprocess.run([sys.executable, "-m", "scripts.bench_cards", "--worker", which], cwd=ROOT,
                         capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise RuntimeError(f"bench_cards worker {which} failed:\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> str:
    load_before = os.getloadavg()[0]
    core, big = _run("core"), _run("big")
    load_after = os.getloadavg()[0]
    lines = [
        "## Card search (API)",
        "",
        "`.venv/bin/python -m scripts.bench cards` — `GET /api/cards/?q=...` through Django's test client, "
        "in-process, page size 50, scratch SQLite databases under /tmp (the core set, and a generated "
        f"{BIG_CATALOGUE:,}-card catalogue loaded with the real loader in {big['load_s']:.1f} s). "
        f"Median (and slowest) wall-clock time of {RUNS} runs after {WARMUP} warm-up requests, and the median "
        "CPU time of the process for the same requests (less sensitive to other people's jobs on the shared "
        "machine); target: a typical query under 20 ms median.",
        "",
        f"| query | sort | core: found | core: ms (CPU ms) | {big['cards']:,} cards: found | "
        f"{big['cards']:,} cards: ms (CPU ms) | {big['cards']:,} cards: slowest ms |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for c, b in zip(core["results"], big["results"]):
        q = "`" + c["q"].replace("|", "\\|") + "`" if c["q"] else "(empty)"
        lines.append(f"| {q} — {c['label']} | {c['sort'] or 'name'} | {c['count']} | {c['median_ms']:.1f} "
                     f"({c['cpu_ms']:.1f}) | {b['count']:,} | {b['median_ms']:.1f} ({b['cpu_ms']:.1f}) | "
                     f"{b['max_ms']:.1f} |")
    core_med = statistics.median(r["median_ms"] for r in core["results"])
    big_med = statistics.median(r["median_ms"] for r in big["results"])
    big_cpu = statistics.median(r["cpu_ms"] for r in big["results"])
    worst = max(big["results"], key=lambda r: r["median_ms"])
    lines += ["", f"Median over these queries: {core_med:.1f} ms on the core set ({core['cards']} cards), "
              f"{big_med:.1f} ms ({big_cpu:.1f} ms CPU) on {big['cards']:,} cards; slowest: "
              f"`{worst['q'] or '(empty)'}` at {worst['median_ms']:.1f} ms. Load average during the run: {load_before:.1f} → {load_after:.1f} "
              f"on {os.cpu_count()} cores (other people's tests share the machine; figures are wall-clock)."]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--worker":
        _worker(sys.argv[2])
    else:
        print(main())
