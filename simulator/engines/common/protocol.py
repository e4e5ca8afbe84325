"""The shape every game engine offers (`simulator.engines.r1`, `.realms`, `.regions`), written once.

Policies, the search player (common/search.py), the reports, the Celery chunking, replays and the tuning tools are
written against this shape only, so each works for every game; tests/simulator/engines/test_conformance.py checks
every registered engine against it. Pure Python, no Django import.

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
- `clone()` copies the state: the copy plays on exactly as the original would and shares nothing mutable with it.
- `to_position()` prints the state as JSON and the engine's `from_position(...)` loads it (CONTRACTS §6 for r1).
- `logs` (None unless asked for) are lines citing the rule they apply.

Each engine keeps its own `Decision` and `GameResult` classes, which have this shape: how a decision stores its
options differs (regions lists them only when asked, on its fast path), and the compiled engines build decisions
on their hot paths, so a shared class would be a call into another compiled module each time.
"""
from __future__ import annotations

from typing import Any, Protocol, runtime_checkable


class IllegalAction(ValueError):
    """An action that is not one of the pending decision's options; the state is unchanged."""


@runtime_checkable
class Decision(Protocol):
    kind: str
    player: int

    @property
    def options(self) -> list: ...


@runtime_checkable
class PlayerView(Protocol):
    player: int

    def determinize(self, rng: Any) -> "GameState": ...


@runtime_checkable
class GameState(Protocol):
    seed: int
    pending: Any          # a Decision, or None once the game is over
    logs: Any             # list[str] when the game was asked for a log, else None

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


@runtime_checkable
class GameResult(Protocol):
    """What every engine's result of a whole game records (CONTRACTS §3: stored with its seed and version)."""

    winner: int | None
    reason: str
    seed: int
    engine_version: str
    log: list | None


@runtime_checkable
class Policy(Protocol):
    def choose(self, view: Any, decision: Any) -> Any: ...
