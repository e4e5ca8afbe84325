"""Regions runs (issue 18, rules 003_…): the run interface of simulator/games over
simulator/engines/regions/sim.py (strategy against strategy; the strategy format is docs/games/regions-strategies.md).
"""
from __future__ import annotations

from simulator.engines.regions import sim

MODES = ("versus",)
# plain Python about 2 ms a game (docs/performance.md, "Heroes and Regions engine"): 25 times that
CHUNK_PER_GAME_S = {"versus": 0.05}
SpecError = sim.SpecError


def chunk_plan(mode: str, games: int, settings: dict | None = None) -> list[tuple[int, int, int]]:
    return sim.chunk_plan(games)


def run_chunk(spec: dict, index: int) -> dict:
    return sim.run_chunk(spec, index)


def merge(mode: str, parts: list[dict]) -> dict:
    return sim.merge(parts)


def finalize(spec: dict, merged: dict) -> dict:
    return sim.finalize(spec, merged)


def request_key(spec: dict) -> str:
    return sim.request_key(spec)


def make_spec(strategy: str, opponent: str, **kwargs) -> dict:
    return sim.versus_spec(strategy, opponent, **kwargs)


def run_fields(spec: dict) -> dict:
    return {"deck_name": spec["deck"]["name"] or "", "deck_hash": spec["deck"]["hash"],
            "deck_counts": {"hero": spec["deck"]["hero"]}, "deck_legal": True,
            "opponent_name": spec["opponent"]["name"] or "", "opponent_hash": spec["opponent"]["hash"],
            "opponent_counts": {"hero": spec["opponent"]["hero"]}}
