"""r1's engine as game-blind tools drive it (simulator/engines/common/spec.py): the conformance suite plays it at
random through these and the engine protocol alone."""
from __future__ import annotations

import json
import re
from collections import Counter
from functools import lru_cache
from pathlib import Path
from typing import Any

from simulator.engines.common.spec import EngineSpec

DATA = Path(__file__).resolve().parents[3] / "cards" / "data"


@lru_cache(maxsize=1)
def catalogue() -> dict[str, dict]:
    """The core set's cards by code (CONTRACTS §1), what positions name."""
    return {c["code"]: c for c in json.loads((DATA / "core.json").read_text(encoding="utf-8"))["cards"]}


@lru_cache(maxsize=1)
def starter_decks() -> tuple:
    """The shipped starter decks (cards/data/starters/), in file order."""
    from . import build_deck

    names: dict[str, dict] = {}
    for c in catalogue().values():
        names[c["name"].lower()] = c
        if c.get("subtitle"):
            names[f"{c['name']}, {c['subtitle']}".lower()] = c
    decks = []
    for path in sorted((DATA / "starters").glob("*.txt")):
        entries = []
        for line in path.read_text(encoding="utf-8").splitlines():
            m = re.match(r"^\s*(\d+)\s*x\s+(.+?)\s*$", line)
            if m:
                entries.append((names[m.group(2).lower().replace("\u2019", "'")], int(m.group(1))))
        decks.append(build_deck(entries))
    return tuple(decks)


def new_game(seed: int) -> Any:
    from . import Game

    decks = starter_decks()
    return Game(decks[seed % len(decks)], decks[(seed + 1) % len(decks)], seed=seed)


def from_position(position: dict) -> Any:
    from .positions import from_position as load

    return load(position, catalogue())


def cards(g: Any) -> Counter:
    """Every printed card (tokens made during play, §3.8, come and go) in whichever zone it is."""
    ids = [i for p in (0, 1) for zone in (g.deck, g.qdeck, g.hand, g.field, g.discard, g.dead, g.secret, g.qused,
                                          g.out, g.aside) for i in zone[p]]
    ids += g.limbo + [i for dups in g.dups.values() for i in dups]   # §3.7: duplicates under their card
    ids += [i for i in (*g.quest, *g.faction_iid, *g.destiny_iid) if i >= 0]
    return Counter(g.cdef[i].code for i in ids if i < g.printed)


SPEC = EngineSpec(slug="r1", new_game=new_game, from_position=from_position, cards=cards, max_decisions=20_000)
