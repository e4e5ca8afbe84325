"""How fast the deck doctor reads a deck (docs/decks.md, "The deck doctor"): `python -m scripts.bench_doctor [FILE ...]`.

For each decklist (default: the shipped r1 starters) it prints the milliseconds of a first reading (its 30-game
goldfish sample played, nothing cached) and the median of 5 readings after it (the sample cached, as the editor's
live panel meets it once a deck state has been seen). Needs the database with the cards loaded.
"""
from __future__ import annotations

import glob
import os
import statistics
import sys
import time


def main(paths: list[str]) -> None:
    import django
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "roc_site.settings.dev")
    django.setup()
    from django.core.cache import cache

    from cards.games.r1 import doctor as r1_doctor
    from decks.doctor import diagnose_text
    from simulator import doctor_sample
    from simulator.engines.r1 import ENGINE_BUILD

    print(f"engine build: {ENGINE_BUILD}")
    cold, warm = [], []
    for path in paths or sorted(glob.glob("cards/data/starters/*.txt")):
        text = open(path, encoding="utf-8").read()
        doctor_sample._LOCAL.clear()
        r1_doctor._SETUP_CACHE.clear()
        cache.clear()
        start = time.perf_counter()
        diagnose_text(text)
        cold.append((time.perf_counter() - start) * 1000)
        runs = []
        for _ in range(5):
            start = time.perf_counter()
            diagnose_text(text)
            runs.append((time.perf_counter() - start) * 1000)
        warm.append(statistics.median(runs))
        print(f"{path}: first {cold[-1]:.0f} ms, cached {warm[-1]:.1f} ms")
    print(f"median: first {statistics.median(cold):.0f} ms, cached {statistics.median(warm):.1f} ms")


if __name__ == "__main__":
    main(sys.argv[1:])
