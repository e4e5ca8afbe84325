"""The regions round-robin (every shipped strategy against every other, and the visitor's own if they add one)
for /regions/round-robin/ and its API; each cell's games replay at /regions/round-robin/games/I/J/K/.

A round-robin of 400 games a pair is a few CPU-seconds, too much for a web process to spend on an anonymous GET.
So the web process only reads: a result is kept in the cache per (engine version, games, seed); a request for
one not computed yet hands it to the Celery workers (the task simulator.regions_round_robin) and answers "being
computed" (202), and asking again later finds it. Handing one out counts as starting a run against the
visitor's simulation throttle (roc_site/throttling.py); reading a computed one or one being computed does not.
"""
from __future__ import annotations

import hashlib

from django.core.cache import cache

from roc_site.throttling import page_throttle

MAX_GAMES = 400
MAX_SEED = 2**63 - 1  # as r1's run seeds (simulator/api.py)
KEEP_S = 7 * 24 * 3600
# a computation handed out and not back within this is handed out again; long, because it may wait behind
# queued runs, and a worker that dies holding it is covered by the broker's redelivery (acks_late)
PENDING_S = 900


class Busy(Exception):
    """Not computed yet: `status` 202 (being computed), 429 (throttled) or 503 (queue down), with a message."""

    def __init__(self, message: str, status: int, retry_after: int | None = None):
        super().__init__(message)
        self.status, self.retry_after = status, retry_after


def _key(games: int, seed: int, mine: str | None = None) -> str:
    from simulator.engines.regions import ENGINE_VERSION
    return f"regions-rr:{ENGINE_VERSION}:{games}:{seed}" + (f":{text_hash(mine)}" if mine else "")


def text_hash(text: str) -> str:
    return hashlib.sha256(text.replace("\r\n", "\n").strip().encode()).hexdigest()[:20]


def remember(text: str) -> str:
    """Keep a visitor's strategy text (the page's address names it by its hash, as texts are too long for one)."""
    h = text_hash(text)
    cache.set(f"regions-rr-mine:{h}", text, KEEP_S)
    return h


def recall(h: str) -> str | None:
    return cache.get(f"regions-rr-mine:{h}") if h.isascii() and h.isalnum() and len(h) == 20 else None


def strategies(mine: str | None = None) -> dict[str, str]:
    """The round-robin's strategies by name, in its order: the shipped ones, then the visitor's (named by its own
    `name:` line, marked as theirs). The shipped ones keep their places, so their pairs play the same games
    with or without the visitor's."""
    from simulator.engines.regions.sim import shipped_texts

    from .picks import strategy_label

    out = dict(shipped_texts())
    if mine:
        name = strategy_label(mine)[0] or "Your strategy"
        out[f"{name} (yours)"] = mine
    return out


def labels(strategies: dict[str, str]) -> list[str]:
    """The strategies' own names ("Big Money" for big-money), in the round-robin's order, for the pages."""
    from .picks import strategy_label

    return [key if key.endswith(" (yours)") else (strategy_label(text)[0] or key) for key, text in strategies.items()]


def pair_spec(strategies: dict[str, str], i: int, j: int, games: int, seed: int) -> tuple[dict, list[str]]:
    """The versus spec the round-robin played for the pair (i, j) (the lower index first, as it was played) and
    the two names in that order."""
    from simulator.engines.regions.sim import pair_seed, versus_spec

    keys, names = list(strategies), labels(strategies)
    a, b = min(i, j), max(i, j)
    return (versus_spec(strategies[keys[a]], strategies[keys[b]], games=games, seed=pair_seed(seed, a, b)),
            [names[a], names[b]])


def compute(games: int, seed: int, mine: str | None = None) -> dict:
    """Play the round-robin here and keep it (the worker's side; also `manage.py shell` for warming)."""
    from simulator.engines.regions.sim import round_robin

    result = round_robin(strategies(mine), games=games, seed=seed)
    cache.set(_key(games, seed, mine), result, KEEP_S)
    cache.delete(_key(games, seed, mine) + ":pending")
    return result


def get_or_start(request, games: int, seed: int, mine: str | None = None) -> dict:
    """The computed round-robin, or Busy: never plays a game in this process."""
    key = _key(games, seed, mine)
    found = cache.get(key)
    if found is not None:
        return found
    wait = f"The round-robin of {games} games a pair with seed {seed} is being computed."
    if cache.get(key + ":pending"):
        raise Busy(wait, 202, 5)
    throttled = page_throttle(request, reads=True)
    if throttled:
        raise Busy(throttled, 429, 60)
    if not cache.add(key + ":pending", 1, PENDING_S):  # another request handed it out just now
        raise Busy(wait, 202, 5)
    from simulator.tasks import regions_round_robin

    try:
        regions_round_robin.apply_async(args=[games, seed, mine] if mine else [games, seed], retry=True,
                                        retry_policy={"max_retries": 2, "interval_start": 0, "interval_step": 0.5,
                                                      "interval_max": 1})
    except Exception as exc:  # kombu raises OperationalError and friends, depending on the transport
        cache.delete(key + ":pending")
        raise Busy(f"The simulation queue is unavailable right now ({exc.__class__.__name__}); "
                   "try again in a minute.", 503, 60) from exc
    found = cache.get(key)  # a queue that runs tasks at once (tests, CELERY_TASK_ALWAYS_EAGER) has it already
    if found is not None:
        return found
    raise Busy(wait, 202, 5)


def parse(params) -> tuple[int, int]:
    """`games` and `seed` from a query string; ValueError with the message for a 400."""
    raw_games, raw_seed = params.get("games", "100"), params.get("seed", "1")
    for name, raw in (("games", raw_games), ("seed", raw_seed)):
        if not (raw.isascii() and raw.strip().isdigit()) or len(raw.strip()) > 19:
            raise ValueError(f"{name}: a whole number (games from 1 to {MAX_GAMES} a pair, seed from 0 to {MAX_SEED}),"
                             f" not {raw[:20]!r}")
    games, seed = int(raw_games), int(raw_seed)
    if not 1 <= games <= MAX_GAMES:
        raise ValueError(f"games: from 1 to {MAX_GAMES} per pair")
    if seed > MAX_SEED:
        raise ValueError(f"seed: from 0 to {MAX_SEED}")
    return games, seed
