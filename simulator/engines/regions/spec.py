"""The Heroes and Regions engine as game-blind tools drive it (simulator/engines/common/spec.py)."""
from __future__ import annotations

from collections import Counter
from typing import Any

from simulator.engines.common.spec import EngineSpec


def new_game(seed: int) -> Any:
    from . import CardSet, Game, shipped_strategies

    strategies = [s for _, s in sorted(shipped_strategies().items())]
    a, b = strategies[seed % len(strategies)], strategies[(seed + 1) % len(strategies)]
    return Game(CardSet.default(), [a.hero.code, b.hero.code], seed=seed)


def from_position(position: dict) -> Any:
    from . import CardSet, Game

    return Game.from_position(position, CardSet.default())


def cards(g: Any) -> Counter:
    """Every Market card in whichever zone it is, and the Recognition cards (003 §8.2: a trashed card goes back
    to the Market Discard, or to its standing pile; the other standing piles are not counted out)."""
    zones = [*g.mpiles, g.mdeck, g.mdiscard]
    for p in range(g.n):
        zones += [g.deck[p], g.hand[p], g.discard[p], g.pocket[p], g.played[p], *g.stacks[p]]
    out = Counter(c.code for zone in zones for c in zone if c.pile != "standing")
    out["recognition"] = g.rec_pile + sum(g.rec_owned)
    return out


SPEC = EngineSpec(slug="regions", new_game=new_game, from_position=from_position, cards=cards, max_decisions=20_000)
