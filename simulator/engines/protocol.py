"""The shape every game engine offers (r1's `simulator.engine.Game` and each `simulator.engines.<game>`).

Policies, the search player, the reports, the Celery chunking, replays and the tuning tools are written against
this shape only, so each works for every game. Pure Python, no Django import.

    game = Game(..., seed=7)                # seeded: the same arguments and actions give the same game
    while not game.is_terminal():
        p = game.current_player()
        action = policies[p].choose(game.view(p), game.pending)
        game.apply_action(action)
    game.returns()                          # [1.0, -1.0], [-1.0, 1.0] or [0.0, 0.0] for two players

- `pending` is the waiting decision (`kind`, `player`, `options`) or None once the game is over.
- `action_text(a)` prints an option as a short text and `parse_action(text)` reads every printed text back
  (like chess SAN); `apply_action` takes either, and raises `IllegalAction` (a ValueError) changing nothing.
- `view(p)` is what player p may know (a read-only object: its own hidden cards, counts of the rest, the public
  board); `view(p).determinize(rng)` returns a full game consistent with that view, the cards p cannot see dealt
  at random from what could be there: what a search player plays out.
- `clone()` copies the state (lists and small arrays, never a replay of the history).
- `to_position()` / `from_position(...)` print and load the state as JSON (CONTRACTS §6 for r1).
- `log` lines cite the rule they apply.
"""
from __future__ import annotations

from typing import Any, Protocol


class Decision(Protocol):
    kind: str
    player: int
    options: list


class PlayerView(Protocol):
    player: int

    def determinize(self, rng: Any) -> "GameState": ...


class GameState(Protocol):
    seed: int
    pending: Decision | None
    log: list

    def current_player(self) -> int: ...
    def legal_actions(self) -> list: ...
    def apply_action(self, action: Any) -> None: ...
    def action_text(self, action: Any) -> str: ...
    def parse_action(self, text: str) -> Any: ...
    def clone(self) -> "GameState": ...
    def is_terminal(self) -> bool: ...
    def returns(self) -> list[float]: ...
    def view(self, player: int) -> PlayerView: ...
    def to_position(self) -> dict: ...


class Policy(Protocol):
    name: str

    def choose(self, view: PlayerView, decision: Decision) -> Any: ...
