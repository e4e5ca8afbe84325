"""Seeded shuffling, the one every engine uses (STYLE §4: randomness is injected).

`fisher_yates` draws only on `rng.random()`, whose stream Python keeps stable across versions (unlike
`random.shuffle`, whose algorithm may change), so the same seed deals the same cards everywhere.

>>> import random
>>> cards = list(range(6))
>>> fisher_yates(random.Random(7), cards)
>>> cards
[3, 5, 4, 2, 0, 1]
"""
from __future__ import annotations

import random


def fisher_yates(rng: random.Random, items: list) -> None:
    """Shuffle `items` in place with `rng` (Durstenfeld's form: the last place first)."""
    rand = rng.random
    for i in range(len(items) - 1, 0, -1):
        j = int(rand() * (i + 1))
        items[i], items[j] = items[j], items[i]
