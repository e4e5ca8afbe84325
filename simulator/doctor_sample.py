"""The simulated games the deck doctor reads (cards/games/doctor.py `GameSample`), for r1.

- A small goldfish sample: DOCTOR_GAMES games of the deck against the goldfish (CONTRACTS §3), greedy player,
  seeds 0..N-1, so the same deck always gives the same figures. It is cached by engine version and the deck's
  card data (Django's cache, and in this process), so the editor's live panel pays for it once per deck state.
- Stored versus runs of the same deck (its content hash): what the opponents' struggles did against it.

Registered as r1's `doctor_samples` hook (cards/games/registry.py); the simulator may import the engine, the cards
app may not.
"""
from __future__ import annotations

import threading
from collections import OrderedDict

from django.core.exceptions import ImproperlyConfigured
from django.db import DatabaseError

from cards.games.doctor import GameSample

DOCTOR_GAMES = 30        # enough to tell a card never played from one played now and then (~3 ms a game)
VERSUS_RUNS = 20         # the latest stored versus runs of the deck that are read
_LOCAL: OrderedDict = OrderedDict()
_LOCAL_MAX = 64
_lock = threading.Lock()


def _goldfish(entries: list[tuple[dict, int]]) -> GameSample:
    from simulator.engines.r1 import build_deck, play_game

    deck = build_deck(entries)
    played: dict[str, int] = {}
    rounds = 0
    for seed in range(DOCTOR_GAMES):
        result = play_game(deck, None, seed=seed)
        rounds += result.rounds
        for name, n in (result.cards_played or {}).items():
            played[name] = played.get(name, 0) + n
    return GameSample("goldfish", DOCTOR_GAMES, played, round(rounds / DOCTOR_GAMES, 2),
                      note=f"{DOCTOR_GAMES} goldfish games, greedy player, seeds 0–{DOCTOR_GAMES - 1}")


def _cached(key: str, build) -> GameSample | None:
    """The sample under `key` from this process's cache or Django's, else `build()` stored in both."""
    with _lock:
        if key in _LOCAL:
            _LOCAL.move_to_end(key)
            return _LOCAL[key]
    try:
        from django.core.cache import cache
        stored = cache.get(key)
    except ImproperlyConfigured:  # no Django settings (a plain script): the in-process cache only
        cache, stored = None, None
    if stored is not None:
        sample = GameSample(**stored)
    else:
        sample = build()
        if sample is None:
            return None
        if cache is not None:
            cache.set(key, {"source": sample.source, "games": sample.games, "played": dict(sample.played),
                            "mean_rounds": sample.mean_rounds, "note": sample.note}, 7 * 24 * 3600)
    with _lock:
        _LOCAL[key] = sample
        while len(_LOCAL) > _LOCAL_MAX:
            _LOCAL.popitem(last=False)
    return sample


def goldfish_sample(entries: list[tuple[dict, int]]) -> GameSample | None:
    """The cached goldfish sample of a deck that can play a game (one faction, quests and draw cards), else None."""
    from simulator.engines.r1 import ENGINE_VERSION, DeckError
    from simulator.runner import deck_data_hash

    types = [c.get("type") for c, _ in entries]
    if types.count("faction") != 1 or "quest" not in types or not set(types) & {"unit", "location", "attachment",
                                                                                 "deed"}:
        return None

    def build():
        try:
            return _goldfish(entries)
        except DeckError:
            return None
    return _cached(f"doctor-gf:{ENGINE_VERSION}:{DOCTOR_GAMES}:{deck_data_hash([[c, n] for c, n in entries])}",
                   build)


def versus_sample(deck_hash: str | None) -> GameSample | None:
    """What stored versus runs of this deck (CONTRACTS §3 `struggles`) say of the struggles against it."""
    if not deck_hash:
        return None
    from simulator.models import RunStatus, SimulationRun
    from simulator.reports import STRUGGLE_COUNTS, STRUGGLE_TYPES

    runs = (SimulationRun.objects.filter(mode="versus", status=RunStatus.DONE, deck_hash=deck_hash)
            .order_by("-finished_at").values_list("result", flat=True)[:VERSUS_RUNS])
    games = 0
    struggles = {t: {k: 0 for k in STRUGGLE_COUNTS} for t in STRUGGLE_TYPES}
    for result in runs:
        against = ((result or {}).get("struggles") or {}).get("opponent") or {}
        if not against:
            continue
        games += int(result.get("games") or 0)
        for t in STRUGGLE_TYPES:
            for k in STRUGGLE_COUNTS:
                struggles[t][k] += int((against.get(t) or {}).get(k, 0))
    if not games:
        return None
    return GameSample("versus", games, {}, None, struggles,
                      note=f"{games} stored versus games of this deck (struggles only)")


def r1_samples(entries: list[tuple[dict, int]], deck_hash: str | None = None, *, games: bool = True) -> list:
    """The samples the r1 doctor reads: the goldfish sample (when `games`) and stored versus games."""
    out = []
    if games:
        gf = goldfish_sample(entries)
        if gf is not None:
            out.append(gf)
    try:
        vs = versus_sample(deck_hash)
    except (ImproperlyConfigured, DatabaseError):  # no database (a plain script): no stored runs to read
        vs = None
    if vs is not None:
        out.append(vs)
    return out


def realms_samples(entries: list[tuple[dict, int]], deck_hash: str | None = None, *, games: bool = True) -> list:
    """The realms doctor's sample: DOCTOR_GAMES goldfish games of the realms engine (greedy, seed 0), cached."""
    if not games or not any(c.get("type") == "leader" for c, _ in entries):
        return []
    from simulator.engines.realms import ENGINE_VERSION, DeckError
    from simulator.engines.realms import sim
    from simulator.runner import deck_data_hash

    def build():
        try:   # a deck the engine cannot play (no Leader it can use, …) has no sample
            spec = sim.make_spec("goldfish", entries, games=DOCTOR_GAMES, seed=0)
            parts = [sim.run_chunk(spec, i) for i, _, _ in sim.chunk_plan("goldfish", DOCTOR_GAMES, spec["settings"])]
        except (DeckError, ValueError):
            return None
        merged = sim.merge("goldfish", parts)
        turns = sum(int(t) * n for t, n in merged["turns"].items())
        return GameSample("goldfish", merged["games"], dict(merged["played"]),
                          round(turns / max(merged["games"], 1), 2),
                          note=f"{DOCTOR_GAMES} goldfish games of the realms engine, greedy player, seed 0")
    sample = _cached(f"doctor-gf-realms:{ENGINE_VERSION}:{DOCTOR_GAMES}:"
                     f"{deck_data_hash([[c, n] for c, n in entries])}", build)
    return [sample] if sample is not None else []
