"""Deck legality and decklist text, in-process with the cards preloaded (no database: the pure functions).

The pool is the core set (cards/data/core.json) and the decks are the seven starter decks
(cards/data/starters/*.txt), each 60-61 draw cards + faction + destiny + 7 quests.

    .venv/bin/python -m scripts.bench decks      # rewrites this section of docs/performance.md
"""
from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUNS = 9  # each run times every starter deck many times; the figure is the median of the runs
INNER = 300


def _per_call_us(fn, args_list) -> list[float]:
    """Median-of-runs time of one call, in microseconds."""
    runs = []
    for _ in range(RUNS):
        started = time.perf_counter()
        for _ in range(INNER):
            for args in args_list:
                fn(*args)
        runs.append((time.perf_counter() - started) / (INNER * len(args_list)) * 1e6)
    return runs


def measure() -> dict:
    sys.path.insert(0, str(ROOT))
    from cards.cardfile import parse_card_file
    from decks.decklist import export_decklist, parse_decklist
    from decks.legality import FormatRules, check_deck, check_decklist_text
    from decks.pool import CardPool
    from decks.stats import deck_stats

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
    }
    sizes = [sum(n for c, n in d.items() if pool.get(c)["type"] in ("unit", "location", "attachment", "deed"))
             for d in decks]
    return {"results": results, "pool_ms": pool_ms, "cards": len(cards), "decks": len(decks), "sizes": sizes}


def main() -> str:
    data = measure()
    rows = [
        ("check_deck", "`check_deck(counts, pool)` — §11 verdict of a parsed deck"),
        ("check_deck_fmt", "`check_deck(counts, pool, fmt)` — with a banned + restricted list"),
        ("parse", "`parse_decklist(text, pool)` — decklist text to counts"),
        ("text", "`check_decklist_text(text, pool)` — text to verdict (what the API does)"),
        ("export", "`export_decklist(counts, pool)` — canonical text"),
        ("stats", "`deck_stats(counts, pool)` — editor/API statistics"),
    ]
    lines = [
        "## Deck legality and decklist text",
        "",
        "`.venv/bin/python -m scripts.bench decks` — in-process, cards preloaded in a `CardPool` (no database);",
        f"the {data['decks']} starter decks ({min(data['sizes'])}–{max(data['sizes'])} draw cards each) against the "
        f"core set ({data['cards']} cards). Median of {RUNS} runs of {INNER} passes over every deck; time per call.",
        "Target (issue 3): validating a 60-card deck under 1 ms.",
        "",
        "| operation | median per call | min | max |",
        "| --- | ---: | ---: | ---: |",
    ]
    for key, label in rows:
        runs = data["results"][key]
        lines.append(f"| {label} | {statistics.median(runs):.1f} µs | {min(runs):.1f} µs | {max(runs):.1f} µs |")
    lines += ["", f"Building the pool from {data['cards']} card dicts once: {data['pool_ms']:.1f} ms "
              "(`CardPool.from_db()` caches it per process until the catalogue changes)."]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(main())
