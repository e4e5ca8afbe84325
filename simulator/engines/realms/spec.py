"""The realms engine as game-blind tools drive it (simulator/engines/common/spec.py)."""
from __future__ import annotations

from collections import Counter
from typing import Any

from simulator.engines.common.spec import EngineSpec


def new_game(seed: int) -> Any:
    from . import Game, starter_decks

    decks = [d for _, d in sorted(starter_decks().items())]
    return Game(decks[seed % len(decks)], decks[(seed + 1) % len(decks)], seed=seed)


def from_position(position: dict) -> Any:
    from .positions import from_position as load

    return load(position)


def cards(g: Any) -> Counter:
    """Every card of both decks in whichever zone it is (002 never creates or destroys a card)."""
    return Counter(g.cdef[i].code for p in (0, 1) for zone in g.z[p] for i in zone)


SPEC = EngineSpec(slug="realms", new_game=new_game, from_position=from_position, cards=cards, max_decisions=20_000)
