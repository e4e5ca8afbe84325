"""r1's run interface for simulator/games.engine_for: simulator/runner.py's functions, with `chunk_plan` taking the
run's settings as the other games' do (runner's own chunk plan may depend on them: slow policies get smaller
chunks), passed on only when runner.chunk_plan accepts them."""
from __future__ import annotations

import inspect

from simulator import runner

MODES = runner.MODES
_TAKES_SETTINGS = len(inspect.signature(runner.chunk_plan).parameters) >= 3


def chunk_plan(mode: str, games: int, settings: dict | None = None) -> list[tuple[int, int, int]]:
    if _TAKES_SETTINGS:
        return runner.chunk_plan(mode, games, settings)
    return runner.chunk_plan(mode, games)


def run_chunk(spec: dict, index: int) -> dict:
    return runner.run_chunk(spec, index)


def merge(mode: str, parts: list[dict]) -> dict:
    return runner.merge(mode, parts)


def finalize(spec: dict, merged: dict) -> dict:
    return runner.finalize(spec, merged)


def request_key(spec: dict) -> str:
    return runner.request_key(spec)
