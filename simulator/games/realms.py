"""Realms runs (rules 002_…): the run interface of simulator/games over simulator/engines/realms/sim.py.

Goldfish (002 §8 setup; the goldfish opponent is a Leader that never acts, docs/games/realms.md R26) and versus;
the spec, chunks, seeds, merge and report are the engine package's (sim.py), so a worker gives the same numbers
as the web process.
"""
from __future__ import annotations

import hashlib

from simulator.engines.realms import sim

MODES = sim.MODES
SpecError = sim.SpecError
POLICIES = ("greedy", "random", "expert")
# the simulate page's modes (its player choice is PLAYERS below)
MODE_LABELS = (("goldfish", "Goldfish (against a Leader that never acts)"), ("versus", "Head-to-head"))
# A chunk's time allowance per game (simulator/tasks.py chunk_time_limits): the plain-Python engine's worst per game
# on a quiet machine (docs/performance.md, "Realms engine": goldfish 5 ms, greedy head-to-head 36 ms) times about
# 10 for goldfish and 5.5 for versus, so 200 versus games get 53 s (58 hard), under the broker's visibility timeout.
CHUNK_PER_GAME_S = {"goldfish": 0.05, "versus": 0.19}
# The simulate page's one player choice, both sides (simulator/games/picks.py `players`), with CPU seconds a game
# compiled: docs/performance.md "Realms engine" (greedy goldfish 1,682 games a CPU-second on average, greedy vs
# greedy 171) and docs/games/realms.md §19.1 (the search player 2.6 CPU-s a head-to-head game; 0.82 a goldfish game,
# the four 2026 starters, seeds 0-1, `play_game(deck, None, seed=s, policies=("expert", "greedy"))`, 6 Dec 2026).
PLAYERS = {"fast": ("Fast", "greedy", "the greedy player: rules of thumb, no look-ahead",
                    {"goldfish": 1 / 1682, "versus": 1 / 171}),
           "strong": ("Strong", "expert", "the expert player: searches each important decision by playing it out "
                      "in dealt worlds", {"goldfish": 0.82, "versus": 2.6})}


def chunk_plan(mode: str, games: int, settings: dict | None = None) -> list[tuple[int, int, int]]:
    return sim.chunk_plan(mode, games, settings)


def run_chunk(spec: dict, index: int) -> dict:
    return sim.run_chunk(spec, index)


def merge(mode: str, parts: list[dict]) -> dict:
    return sim.merge(mode, parts)


def finalize(spec: dict, merged: dict) -> dict:
    """The engine's report, with CONTRACTS §3's goldfish names beside its own: `win_round` is `win_turn` (the
    goldfish takes no turns, so the deck's turns are the rounds) and `eliminated_rate` is 0 (002 has no elimination:
    a game ends at the VP (§14) or at the round cap, R22)."""
    result = sim.finalize(spec, merged)
    if result["mode"] == "goldfish":
        result["win_round"] = result["win_turn"]
        result["eliminated_rate"] = 0.0
    return result


def request_key(spec: dict) -> str:
    """Same decks' card data, mode, games, seed, settings and engine version: the same run."""
    body = {"game": "realms", "mode": spec["mode"], "games": spec["games"], "seed": spec["seed"],
            "settings": spec["settings"], "engine_version": spec["engine_version"],
            "deck": spec["deck"]["data_hash"],
            "opponent": spec["opponent"]["data_hash"] if spec.get("opponent") else None}
    return hashlib.sha256(sim.canonical_json(body).encode()).hexdigest()


def make_spec(mode: str, entries: list, opponent_entries: list | None = None, **kwargs) -> dict:
    return sim.make_spec(mode, entries, opponent_entries, **kwargs)


def run_fields(spec: dict) -> dict:
    """The SimulationRun columns of a realms spec (deck counts by code)."""
    def counts(part):
        return {c["code"]: n for c, n in part["entries"]}

    opp = spec.get("opponent")
    return {"deck_name": spec["deck"].get("name") or "", "deck_hash": spec["deck"]["data_hash"],
            "deck_counts": counts(spec["deck"]), "deck_legal": True,
            "opponent_name": (opp or {}).get("name") or "", "opponent_hash": (opp or {}).get("data_hash") or "",
            "opponent_counts": counts(opp) if opp else None}


def build_spec(*, mode: str, text: str, opponent_text: str | None = None, games=None, seed=0,
               policy: str | None = None, opponent_policy: str | None = None, fmt: str | None = None,
               deck_name: str = "", opponent_name: str = "") -> dict:
    """A realms goldfish or versus spec from decklist text (CONTRACTS §2, realms names), read against the loaded
    realms cards (cards.selectors.game_cards)."""
    from cards.games import registry
    from cards.selectors import game_cards
    from decks.game_services import GameDeckError, read_text

    from .services import MAX_TEXT, GameSpecError

    if mode not in MODES:
        raise GameSpecError(f"mode: realms simulations are goldfish or versus (hands: the hands page), not {mode!r}")
    game = registry.get("realms")
    cards = game_cards("realms")
    if not cards:
        raise GameSpecError("No realms cards are loaded: run python manage.py loadcards on its card file.")

    def entries(label: str, body: str | None) -> list:
        if not isinstance(body, str) or not body.strip():
            raise GameSpecError(f"{label}: give the deck as decklist text")
        if len(body) > MAX_TEXT:
            raise GameSpecError(f"{label}: at most {MAX_TEXT:,} characters")
        try:
            counts = read_text(game, body, cards)
        except GameDeckError as exc:
            raise GameSpecError(f"{label}: {exc.message} "
                                + "; ".join(p["message"] for p in exc.problems)) from None
        if not counts:
            raise GameSpecError(f"{label}: the decklist names no card")
        return registry.entries(counts, cards)

    deck = entries("text", text)
    opp = entries("opponent", opponent_text) if mode == "versus" else None
    if mode != "versus" and opponent_text:
        raise GameSpecError("opponent: only a versus run has an opponent deck")
    kwargs = {"games": games, "seed": seed, "deck_name": deck_name or "", "opponent_name": opponent_name or ""}
    if policy:
        kwargs["policy"] = policy
    if opponent_policy:
        kwargs["opponent_policy"] = opponent_policy
    if fmt:
        kwargs["fmt"] = fmt
    try:
        return make_spec(mode, deck, opp, **kwargs)
    except SpecError as exc:
        raise GameSpecError(str(exc)) from None


def charts(result: dict) -> list[tuple[str, str]]:
    from .charts import realms_goldfish, realms_versus
    return realms_goldfish(result) if result["mode"] == "goldfish" else realms_versus(result)


def replay_board(request, run, game_spec, index: int):
    """Game `index` of a realms run on the realms board (realms_replay.py)."""
    from .realms_replay import replay_page
    return replay_page(request, run, game_spec, index)


def play_kit():
    """The playtest table and the judge sandbox of this game (realms_play.py)."""
    from . import realms_play
    return realms_play


def tuning():
    """What the tune pages (simulator/tuning.py) need of this game: realms_tune.py."""
    from . import realms_tune
    return realms_tune
