"""Running a simulation: chunk plan, per-chunk seeds, one chunk's work, the exact merge and the final report.

Everything here works on a *spec*, a JSON-able dict that holds everything the run needs (mode, games, seed,
settings, and each deck's card dicts), so a worker needs no catalogue look-up and gives the same numbers as the
web process. The same functions run in-process (`run_in_process`) and in Celery tasks (`simulator.tasks`):
the chunks, their seeds and the merge are identical, so the JSON is identical except `elapsed_s`.
"""
from __future__ import annotations

import hashlib
import random
import threading
from typing import Callable

from cards.games.r1.facts import DRAW_TYPES
from simulator.engines.common import runs
# (the run API of this module: these names are asked of it)
from simulator.engines.common.runs import canonical_json, chunk_seed, deck_data_hash  # noqa: F401

from . import hands as hands_mod
from . import reports

MODES = ("hands", "goldfish", "versus")
HANDS_VERSION = "hands-2"  # bump whenever the same request would give different hands numbers
BASE_CHUNK = {"hands": 2_000, "goldfish": 200, "versus": 200}
MAX_CHUNKS = runs.MAX_CHUNKS
DEFAULT_GAMES = {"hands": 10_000, "goldfish": 1_000, "versus": 1_000}
DEFAULT_MAX_ROUNDS = 50
DEFAULT_POLICY = "greedy"
# The search player plays a game in about a CPU-second instead of a few milliseconds: runs that use it are
# split into chunks of a few games, so a chunk fits its time limit (tasks.chunk_time_limits) and many workers
# share a run of thousands of games.
SLOW_POLICIES = ("expert",)
SLOW_CHUNK = 1
# What the simulate page offers: a fast player or a strong one, the same on both sides, with the
# CPU time per game measured on the compiled engine (docs/performance.md, "Policy ladder") for the run-time
# estimate shown beside the choice.
PLAYERS = {"fast": "greedy", "strong": "expert"}
# (versus: the same player on both sides, so a strong game is two expert players' worth)
# expert (`expert:24`, compiled, 2026-12-06, docs/performance.md "The search player"): goldfish 0.09 a game
# (`python -m scripts.search_costs --games 14 --only r1`: 0.093); versus 0.5, between the 14 mirrors of
# search_costs (0.61 a game) and a 400-game Camelot mirror on two Celery workers (0.42 a game of wall time times
# the two workers: 84.5 s against the 100 s estimated)
CPU_S_PER_GAME = {"greedy": {"goldfish": 0.001, "versus": 0.0025}, "expert": {"goldfish": 0.09, "versus": 0.5}}


def expected_seconds(mode: str, games: int, player: str, workers: int = 1) -> float:
    """A run's expected CPU time spread over `workers` worker processes (the page's estimate)."""
    if mode == "hands":
        return games * 0.00007 / workers
    return games * CPU_S_PER_GAME[PLAYERS.get(player, player)][mode] / workers


class EngineUnavailable(RuntimeError):
    """The rules engine cannot be imported, so goldfish and head-to-head cannot run."""


class SpecError(ValueError):
    """A request that cannot be run; the message says what to change."""


def engine_module():
    """simulator.engines.r1, or EngineUnavailable when it cannot be imported."""
    try:
        from simulator.engines import r1 as engine
    except Exception as exc:  # a half-written engine must not take the hands report down with it
        raise EngineUnavailable(f"The rules engine cannot be loaded ({exc}); goldfish and head-to-head "
                                "simulations are not available.") from exc
    return engine


def engine_version(mode: str) -> str:
    if mode == "hands":
        return HANDS_VERSION
    return str(getattr(engine_module(), "ENGINE_VERSION", "unknown"))


# ---- seeds and chunks (simulator/engines/common/runs.py) -------------------------------------------------
def policy_name(spec: str | None) -> str:
    """'expert' for 'expert:200': the policy a spec names."""
    return (spec or DEFAULT_POLICY).partition(":")[0]


def slow_run(mode: str, settings: dict | None) -> bool:
    """Whether a run plays the search player (smaller chunks, longer time allowance per game)."""
    s = settings or {}
    return mode != "hands" and any(policy_name(s.get(k)) in SLOW_POLICIES for k in ("policy", "opponent_policy"))


def chunk_plan(mode: str, games: int, settings: dict | None = None) -> list[tuple[int, int, int]]:
    """[(index, first game, games in chunk)]: depends only on the mode, the number of games and (for the
    chunk size) whether the run's settings name the search player."""
    return runs.chunk_plan(games, SLOW_CHUNK if slow_run(mode, settings) else BASE_CHUNK[mode])


# ---- specs -----------------------------------------------------------------------------------------------

def request_key(spec: dict) -> str:
    """What makes two requests identical: decks' card data, mode, games, seed, settings, engine version."""
    body = {
        "mode": spec["mode"], "games": spec["games"], "seed": spec["seed"], "settings": spec["settings"],
        "engine_version": spec["engine_version"],
        "deck": spec["deck"]["data_hash"],
        "opponent": spec["opponent"]["data_hash"] if spec.get("opponent") else None,
    }
    return hashlib.sha256(canonical_json(body).encode()).hexdigest()


def draw_entries(deck: dict) -> list[tuple[dict, int]]:
    return [(c, n) for c, n in deck["entries"] if c.get("type") in DRAW_TYPES]


# ---- per-process preparation (cached: a worker builds a deck once for many chunks) -----------------------
# A prepared deck carries the setup solver's cache of solved opening hands, which grows with every distinct hand
# it meets (about 0.7 KB each; the engine stops at 200,000 hands, some 140 MB). So a deck is rebuilt once it has
# served this many games (or hands): a worker's memory then stays flat however many games it plays, for the
# price of re-solving a few hands (setup solving is a few percent of a game). Results do not depend on it:
# chunks give the same numbers wherever and after whatever they run.
PREPARED_USES = {"hands": 50_000, "engine": 25_000}
_prepared: dict[str, list] = {}  # key -> [prepared deck, games or hands it may still serve]
_prepared_lock = threading.Lock()


def _cached(key: str, build: Callable[[], object], uses: int, budget: int):
    with _prepared_lock:
        entry = _prepared.get(key)
        if entry is not None and entry[1] >= uses:
            entry[1] -= uses
            return entry[0]
    value = build()
    with _prepared_lock:
        if len(_prepared) >= 8:  # a few decks at a time; each may hold a large solver cache
            _prepared.clear()
        _prepared[key] = [value, budget - uses]
    return value


def hands_deck(deck: dict, uses: int = 0) -> hands_mod.HandsDeck:
    return _cached("hands:" + deck["data_hash"],
                   lambda: hands_mod.HandsDeck.build(draw_entries(deck), deck["faction"],
                                                     budget=hands_mod.setup_budget(deck["entries"])),
                   uses, PREPARED_USES["hands"])


def engine_deck(deck: dict, uses: int = 0):
    engine = engine_module()
    return _cached("engine:" + str(getattr(engine, "ENGINE_VERSION", "")) + deck["data_hash"],
                   lambda: engine.build_deck([(c, n) for c, n in deck["entries"]]),
                   uses, PREPARED_USES["engine"])


# ---- one chunk -------------------------------------------------------------------------------------------
def run_chunk(spec: dict, index: int) -> dict:
    """The partial result of chunk `index` of the run `spec` (counts only; see reports.py)."""
    plan = chunk_plan(spec["mode"], spec["games"], spec["settings"])
    _, start, size = plan[index]
    seed = chunk_seed(spec["seed"], index)
    mode = spec["mode"]
    settings = spec["settings"]
    if mode == "hands":
        policy = hands_mod.MulliganPolicy.from_setting(settings.get("mulligan"))
        return hands_mod.hands_chunk(hands_deck(spec["deck"], size), size, random.Random(seed), policy, chunk=index)
    engine = engine_module()
    deck_a = engine_deck(spec["deck"], size)
    deck_b = engine_deck(spec["opponent"], size) if mode == "versus" else None
    rng = random.Random(seed)
    max_rounds = settings.get("max_rounds", DEFAULT_MAX_ROUNDS)
    policy = settings.get("policy", DEFAULT_POLICY)
    opponent_policy = settings.get("opponent_policy", DEFAULT_POLICY)
    part = reports.empty_goldfish() if mode == "goldfish" else reports.empty_versus()
    for g in range(start, start + size):
        game_seed = rng.getrandbits(63)
        want_log = mode == "versus" and g == 0
        if mode == "goldfish":
            result = engine.play_game(deck_a, None, seed=game_seed, max_rounds=max_rounds,
                                      policies=(policy, DEFAULT_POLICY))
            reports.add_goldfish_game(part, result)
        else:
            # Alternate who goes first (game 0: the first deck), so first-player advantage cancels out.
            result = engine.play_game(deck_a, deck_b, seed=game_seed, first_player=g % 2,
                                      max_rounds=max_rounds, log=want_log, policies=(policy, opponent_policy))
            reports.add_versus_game(part, result)
            if want_log:
                # influence_by_round: the score of the report's round-by-round summary, the figure the
                # replay's board shows (the log lines alone do not add up to it)
                part["sample_log"] = {"game": 0, "seed": game_seed, "first_player": result.first_player,
                                      "winner": result.winner, "reason": result.reason,
                                      "lines": list(result.log or [])[:400],
                                      "influence_by_round": [list(x) for x in result.influence_by_round]}
    return part


# ---- merge and report ------------------------------------------------------------------------------------
def merge(mode: str, parts: list[dict]) -> dict:
    if mode == "hands":
        return hands_mod.merge_hands(parts)
    if mode == "goldfish":
        return reports.merge_goldfish(parts)
    return reports.merge_versus(parts)


def finalize(spec: dict, merged: dict) -> dict:
    """The report JSON of CONTRACTS §3 for this mode, without `elapsed_s` (added by whoever timed it)."""
    mode = spec["mode"]
    settings = spec["settings"]
    if mode == "hands":
        deck = hands_deck(spec["deck"])
        draw = draw_entries(spec["deck"])
        targets = hands_mod.card_targets(draw) + [
            hands_mod.Target(label=t["label"], copies=t["copies"], k=t["k"], kind=t["kind"])
            for t in settings.get("targets", [])
        ]
        result = hands_mod.hands_report(deck, merged, targets=targets,
                                        policy=hands_mod.MulliganPolicy.from_setting(settings.get("mulligan")),
                                        rounds=settings.get("rounds", hands_mod.DEFAULT_ROUNDS),
                                        setup_refill=settings.get("setup_refill", hands_mod.DEFAULT_SETUP_REFILL))
    elif mode == "goldfish":
        result = reports.goldfish_report(merged, games=spec["games"], seed=spec["seed"],
                                         unsupported=spec["deck"].get("unsupported_cards", []))
        result["policy"] = settings.get("policy", DEFAULT_POLICY)
    else:
        result = reports.versus_report(merged, seed=spec["seed"],
                                       unsupported=spec["deck"].get("unsupported_cards", []),
                                       opponent_unsupported=spec["opponent"].get("unsupported_cards", []))
        result["policies"] = [settings.get("policy", DEFAULT_POLICY), settings.get("opponent_policy", DEFAULT_POLICY)]
    result["deck"] = deck_summary(spec["deck"])
    if spec.get("opponent"):
        result["opponent"] = deck_summary(spec["opponent"])
    result["engine_version"] = spec["engine_version"]
    result["settings"] = settings
    if mode == "hands":
        result["seed"] = spec["seed"]
    return result


def deck_summary(deck: dict) -> dict:
    return {"name": deck.get("name"), "hash": deck.get("hash"), "faction": deck.get("faction"),
            "legal": deck.get("legal"), "problems": deck.get("problems", []),
            "draw_cards": sum(n for _, n in draw_entries(deck))}


def run_in_process(spec: dict, progress: Callable[[int, int], None] | None = None) -> dict:
    """Every chunk in order in this process, merged exactly as the Celery tasks do (simulator/games)."""
    from simulator.games import run_in_process as run_here

    return run_here(spec, progress)
