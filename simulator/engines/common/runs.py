"""The pure parts of a simulation run, written once for every game: the chunk plan, each chunk's seed, canonical
JSON, the Wilson interval, the exact merge of partial counts, and the in-process loop over the chunks (or over
the stages of a staged run). Pure Python, no Django import, nothing of any one game.

A run is a *spec*, a JSON-able dict holding everything it needs, split into chunks that depend only on the number
of games and the game's chunk size. Chunk i plays with its own seed `chunk_seed(run seed, i)`, so a chunk gives
the same partial wherever and after whatever it runs (this process or a Celery worker); partials hold counts and
integer sums only, so their merge is exact in any grouping. What differs per game (how to play one chunk, how to
merge and summarise its partials) is the game's run module (simulator/games/__init__.py).

    >>> chunk_plan(450, 200)
    [(0, 0, 200), (1, 200, 200), (2, 400, 50)]
    >>> chunk_plan(100_000, 200)[:2]        # never more than MAX_CHUNKS chunks: big runs get bigger chunks
    [(0, 0, 250), (1, 250, 250)]
    >>> chunk_seed(21, 0) == chunk_seed(21, 0) != chunk_seed(21, 1)
    True
"""
from __future__ import annotations

import hashlib
import json
import math
import time
from typing import Any, Callable, Iterable, Sequence

MAX_CHUNKS = 400   # a run never has more chunks than this: big runs get bigger chunks
Z95 = 1.959963984540054
SEED_SCHEME = "roc-sim"   # every game's runs derive their chunk seeds this way (the same seeds as ever)

Progress = Callable[[int, int], None]


def chunk_seed(run_seed: int, index: int, scheme: str = SEED_SCHEME) -> int:
    """Each chunk's own seed, derived from the run's: independent of chunk order and of where it runs."""
    digest = hashlib.sha256(f"{scheme}:{run_seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def chunk_plan(games: int, size: int, max_chunks: int = MAX_CHUNKS) -> list[tuple[int, int, int]]:
    """[(index, first game, games in chunk)]: chunks of `size` games (bigger when that would make more than
    `max_chunks`), depending on nothing else."""
    size = max(size, math.ceil(games / max_chunks))
    return [(i, start, min(size, games - start)) for i, start in enumerate(range(0, games, size))]


def canonical_json(value: Any) -> str:
    """The one text of a JSON value (sorted keys, no spaces): what request keys and hashes are taken of."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def deck_data_hash(entries: Iterable) -> str:
    """What identifies a deck's card data: the hash of its (card dict, count) entries in code order."""
    return hashlib.sha256(canonical_json(sorted(([c, n] for c, n in entries),
                                                key=lambda e: e[0]["code"])).encode()).hexdigest()


def wilson_interval(successes: float, n: int, z: float = Z95, digits: int | None = None) -> list[float] | None:
    """95% Wilson score interval for a binomial proportion (better than the normal one near 0 and 1); `digits`
    rounds its ends (a game whose reports always rounded them keeps its numbers).

    >>> [round(x, 4) for x in wilson_interval(50, 100)]
    [0.4038, 0.5962]
    >>> wilson_interval(0, 0) is None
    True
    """
    if n <= 0:
        return None
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(max(0.0, p * (1 - p)) / n + z * z / (4 * n * n)) / denom
    low, high = centre - half, centre + half
    if digits is not None:
        low, high = round(low, digits), round(high, digits)
    return [max(0.0, low), min(1.0, high)]


def add_list(target: list, values: Sequence) -> None:
    """Add `values` into `target` position by position, growing it as needed (exact for integers)."""
    if len(target) < len(values):
        target.extend([0] * (len(values) - len(target)))
    for i, v in enumerate(values):
        target[i] += v


def add_counts(target: dict, values: dict) -> None:
    """Add the counts of `values` into `target`, key by key."""
    for k, v in values.items():
        target[k] = target.get(k, 0) + v


# ---- a head-to-head run's counts, the same in every game ---------------------------------------------------------
# games, the first deck's wins, losses and draws, the first player's wins, and the first deck's games and wins going
# first and second (versus runs alternate who goes first, so first-player advantage cancels out)
VERSUS_COUNTS = ("games", "wins", "losses", "draws", "first_player_wins", "a_first_games", "a_first_wins",
                 "a_second_games", "a_second_wins")


def empty_versus_counts(length: str = "rounds") -> dict:
    """The counts every game's versus partial holds; `length` names what a game's length counts (rounds, turns):
    `<length>_sum` and the histogram `<length>` {"n": games}; `how`: {"wins|losses|draws:<reason>": games}."""
    return {**dict.fromkeys(VERSUS_COUNTS, 0), f"{length}_sum": 0, length: {}, "how": {}}


def add_versus_result(part: dict, winner: int | None, first_player: int, reason: str, length: int,
                      length_key: str = "rounds") -> None:
    """Count one finished game of the first deck (player 0) against the second (winner None: a draw)."""
    part["games"] += 1
    part[f"{length_key}_sum"] += length
    hist = part[length_key]
    hist[str(length)] = hist.get(str(length), 0) + 1
    part["wins" if winner == 0 else "losses" if winner == 1 else "draws"] += 1
    if winner is not None and winner == first_player:
        part["first_player_wins"] += 1
    if first_player == 0:
        part["a_first_games"] += 1
        part["a_first_wins"] += winner == 0
    else:
        part["a_second_games"] += 1
        part["a_second_wins"] += winner == 0
    side = "wins" if winner == 0 else "losses" if winner == 1 else "draws"
    part["how"][f"{side}:{reason}"] = part["how"].get(f"{side}:{reason}", 0) + 1


def merge_versus_counts(out: dict, part: dict, length_key: str = "rounds") -> None:
    """Add a partial's versus counts into `out` (exact, in any grouping)."""
    for key in (*VERSUS_COUNTS, f"{length_key}_sum"):
        out[key] += part[key]
    add_counts(out[length_key], part[length_key])
    add_counts(out["how"], part["how"])


def run_stages(plan_stage: Callable[[list], list | None], run_unit: Callable[[Any], dict],
               finish: Callable[[list], dict], *, size: Callable[[Any], int] = lambda unit: 1,
               total: Callable[[list], int] = lambda done: 0, progress: Progress | None = None) -> dict:
    """Every unit of every stage in order in this process: `plan_stage(done)` gives the next stage's units from
    the partials of the stages before (None when the run is complete), `run_unit(unit)` one unit's partial, and
    `finish(done)` the report, to which `elapsed_s` is added. `progress(done, total)` after each unit, counting
    `size(unit)` per unit against `total(done)` (the planned count, raised to what is done when a stage runs over).
    The Celery tasks run the same units and plan from the same partials, so the report is the same wherever
    they ran, except `elapsed_s`."""
    started = time.perf_counter()
    done: list[list[dict]] = []
    count = 0
    while True:
        units = plan_stage(done)
        if units is None:
            break
        planned = total(done)
        parts = []
        for unit in units:
            parts.append(run_unit(unit))
            count += size(unit)
            if progress:
                progress(count, max(planned, count))
        done.append(parts)
    result = finish(done)
    result["elapsed_s"] = round(time.perf_counter() - started, 3)
    return result


def run_chunks(spec: dict, plan: Iterable[tuple[int, int, int]], run_chunk: Callable[[dict, int], dict],
               merge: Callable[[list[dict]], dict], finalize: Callable[[dict, dict], dict],
               progress: Progress | None = None) -> dict:
    """A one-stage run (every chunk of `plan`, in order) merged and summarised exactly as the workers' merge
    does: `finalize(spec, merge(parts))` plus `elapsed_s`; `progress(chunks done, chunks)`."""
    indexes = [index for index, _, _ in plan]
    return run_stages(lambda done: None if done else indexes, lambda index: run_chunk(spec, index),
                      lambda done: finalize(spec, merge(done[0])), total=lambda done: len(indexes),
                      progress=progress)
