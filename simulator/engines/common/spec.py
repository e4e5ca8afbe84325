"""`EngineSpec`: how a tool that knows no game drives a game's engine — the conformance suite
(tests/simulator/engines/test_conformance.py) and anything else that plays any engine at random.

A game names its spec in its registration (cards/games/registry.py, `engine="simulator.engines.<game>.spec:SPEC"`);
everything else comes from the engine's own protocol (protocol.py).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable


@dataclass(frozen=True)
class EngineSpec:
    """- `new_game(seed)`: a two-player game on the engine's own starter decks, at its first decision.
    - `from_position(position)`: the game a printed `to_position()` describes, ready to play on.
    - `cards(game)`: every card of the game whatever its zone, hidden ones included (what the rules never create or
      destroy: the same from the first decision to the last).
    - `max_decisions`: no game from `new_game` takes more decisions than this (its round or turn limit).
    """

    slug: str
    new_game: Callable[[int], Any]
    from_position: Callable[[dict], Any]
    cards: Callable[[Any], Counter]
    max_decisions: int
