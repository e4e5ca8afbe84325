"""Regions runs (rules 003_…): the run interface of simulator/games over
simulator/engines/regions/sim.py (strategy against strategy; the strategy format is docs/games/regions-strategies.md).
"""
from __future__ import annotations

from simulator.engines.regions import sim

MODES = ("versus",)
# plain Python about 2 ms a game (docs/performance.md, "Heroes and Regions engine"): 25 times that
CHUNK_PER_GAME_S = {"versus": 0.05}
# the search player (search:24 against a strategy) takes about SEARCH_S_PER_GAME CPU-s a game compiled
# (docs/performance.md, "Heroes and Regions engine"): its chunks are sim.SEARCH_CHUNK games with this allowance
# each, scaled by its budget
CHUNK_PER_SEARCH_GAME_S = 12.0
SpecError = sim.SpecError


def chunk_plan(mode: str, games: int, settings: dict | None = None) -> list[tuple[int, int, int]]:
    return sim.chunk_plan(games, sim.is_slow(settings))


def chunk_allowance(settings: dict | None) -> dict:
    """Seconds allowed per game of a chunk, by mode (simulator/tasks.py): longer when a side searches, in
    proportion to its budget (search:N simulates N games per searched decision)."""
    if not sim.is_slow(settings):
        return CHUNK_PER_GAME_S
    budget = sum(int(n.partition(":")[2] or 24) for n in (settings or {})["search"] if n.startswith("search"))
    return {"versus": CHUNK_PER_SEARCH_GAME_S * max(1.0, budget / 24)}


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


# The simulate page's one player choice (simulator/games/picks.py `players`): the strategy's own rules, or the
# search player over it; CPU seconds a game compiled (docs/performance.md, "Heroes and Regions engine": 1,542
# strategy games a CPU-second; the search player 0.24-0.35 CPU-s a game).
PLAYERS = {"fast": ("Fast", "strategy", "each side plays its strategy's rules as written", {"versus": 1 / 1542}),
           "strong": ("Strong", "search", "each side searches its decisions by playing them out, its strategy "
                      "guiding the rest", {"versus": 0.35})}


def shipped_strategies() -> dict[str, str]:
    """The shipped strategies by file name (the page's strategy picker)."""
    return sim.shipped_texts()


def heroes() -> list[str]:
    """Every Hero's name (the page's Hero picker)."""
    from simulator.engines.regions import CardSet
    return [h.name for h in CardSet.default().heroes]
