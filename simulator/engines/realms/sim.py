"""Realms simulations: goldfish and head-to-head runs, chunked and seeded as every game's.

A run is a *spec* (JSON-able: mode, games, seed, settings, and each deck's card dicts), so a worker needs no
catalogue and gives the same numbers as the web process. `chunk_plan` splits the games into chunks that depend
only on the mode and the number of games, `chunk_seed` derives each chunk's seed from the run's (both from
simulator/engines/common/runs.py, as every game's), `run_chunk(spec, i)` plays chunk i and returns a partial of
integer counts, `merge` adds partials exactly (in any grouping) and `finalize` writes the report. So the JSON is
the same wherever the chunks ran, except `elapsed_s`.

    >>> spec = make_spec("goldfish", deck_entries, games=1000, seed=7)     # doctest: +SKIP
    >>> run_in_process(spec)["win_turn"]["median"]                         # doctest: +SKIP
    10
    >>> goldfish(deck_entries, games=500, seed=1)                          # doctest: +SKIP
    >>> versus(deck_entries, other_entries, games=400, seed=1, policies=("greedy", "random"))  # doctest: +SKIP

Goldfish report (`mode: goldfish`): the deck's player (policy `greedy` by default) against the goldfish opponent —
a Leader and nothing else, which never acts (R26) — until 50 VP (30 simplified) or the round cap (R22):
`win_rate` (reached the VP), `win_turn` (turns to the VP: mean, median, min, max, histogram), `vp_by_turn` and
`gold_by_turn` (means after each turn; finished games keep their final VP), `per_turn`, `unpaid` (turns in which
red icons went unpaid: cards discarded by the Resource Balancing), `stuck_in_hand` (cards still in hand when the
game ended, by the share of games), `most_played`.

Versus report (`mode: versus`, CONTRACTS §3): the first deck's `wins`, `losses`, `draws`, `win_rate`, `ci95`,
`mean_rounds`, `first_player_win_rate`, `policies`, and this game's `figures` per side (attacks made and won,
warriors killed, raids, Places destroyed, Leader raids and the rewards taken, VP at the end, cards discarded
unpaid) and `how` (wins by VP or by stalemate). Games alternate who goes first (game 0: the first deck).
"""
from __future__ import annotations

import hashlib
import random
from typing import Any, Callable, Iterable, Sequence

from simulator.engines.common import runs
from simulator.engines.common.runs import add_counts as _add_counts, add_list as _add_list
# (its run API: these names are asked of this module)
from simulator.engines.common.runs import canonical_json, chunk_seed, deck_data_hash, wilson_interval  # noqa: F401
# the histogram helpers are the r1 reports' (pure Python, no Django)
from simulator.reports import hist_stats, sorted_hist

MODES = ("goldfish", "versus")
BASE_CHUNK = {"goldfish": 200, "versus": 200}
SLOW_POLICIES = ("expert", "expert-tree")   # the search player: about a CPU-second a game, so a chunk is a game (as r1's runner)
SLOW_CHUNK = 1
DEFAULT_GAMES = {"goldfish": 1_000, "versus": 1_000}
DEFAULT_MAX_ROUNDS = 50
STAT_KEYS = ("attacks", "attacks_won", "attacks_lost", "attacks_tied", "warriors_killed", "warriors_lost", "raids",
             "raids_failed", "places_destroyed", "places_lost", "leader_raids", "reward_gold", "reward_attachments",
             "reward_discard", "reward_vp", "unpaid_discards", "places_built", "warriors_recruited", "cards_played")


class SpecError(ValueError):
    """A request that cannot be run; the message says what to change."""


# ---- seeds and chunks (simulator/engines/common/runs.py) ---------------------------------------------------
def slow_run(settings: dict | None) -> bool:
    """Whether a run plays a search player (`expert`, `expert-tree`, `:N`): chunks of a game or a few."""
    s = settings or {}
    return any(str(s.get(k) or "").partition(":")[0] in SLOW_POLICIES for k in ("policy", "opponent_policy"))


def chunk_plan(mode: str, games: int, settings: dict | None = None) -> list[tuple[int, int, int]]:
    """[(index, first game, games in chunk)]: depends only on the mode, the number of games and (for the chunk
    size) whether the settings name the search player (as simulator/runner.py)."""
    return runs.chunk_plan(games, SLOW_CHUNK if slow_run(settings) else BASE_CHUNK[mode])


# ---- specs -------------------------------------------------------------------------------------------------
def make_spec(mode: str, deck_entries: list, opponent_entries: list | None = None, *, games: int | None = None,
              seed: int = 0, policy: str = "greedy", opponent_policy: str = "greedy", fmt: str = "standard",
              max_rounds: int = DEFAULT_MAX_ROUNDS, deck_name: str = "", opponent_name: str = "") -> dict:
    """A run's spec from (card dict, count) entries; checks everything a run needs (SpecError otherwise)."""
    from . import ENGINE_VERSION
    if mode not in MODES:
        raise SpecError(f"unknown mode {mode!r}: realms runs goldfish or versus (hands: cards/games/realms/hands.py)")
    games = DEFAULT_GAMES[mode] if games is None else games
    if not isinstance(games, int) or isinstance(games, bool) or not 1 <= games <= 1_000_000:
        raise SpecError("games must be a whole number from 1 to 1,000,000")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise SpecError("seed must be a whole number")
    for key, name in (("policy", policy), ("opponent_policy", opponent_policy)):
        check_policy(key, name)
    if fmt not in ("standard", "simplified"):
        raise SpecError("format must be standard or simplified (002 §17)")
    if not isinstance(max_rounds, int) or not 1 <= max_rounds <= 500:
        raise SpecError("max_rounds must be a whole number from 1 to 500")
    if mode == "versus" and not opponent_entries:
        raise SpecError("a versus run needs an opponent deck")
    spec: dict[str, Any] = {
        "game": "realms", "mode": mode, "games": games, "seed": seed, "engine_version": ENGINE_VERSION,
        "settings": {"policy": policy, "format": fmt, "max_rounds": max_rounds},
        "deck": _deck_part(deck_entries, deck_name),
    }
    if mode == "versus":
        spec["settings"]["opponent_policy"] = opponent_policy
        spec["opponent"] = _deck_part(opponent_entries or [], opponent_name)
    _engine_deck(spec["deck"])   # a deck that cannot be played fails here, not in a worker
    if mode == "versus":
        _engine_deck(spec["opponent"])
    return spec


def check_policy(key: str, name: Any) -> None:
    """A policy a run may name: greedy, random, expert or expert:N, expert-tree or expert-tree:N (N from 2 to
    10,000); SpecError otherwise."""
    from .policies import POLICIES, make_policy
    base = str(name).partition(":")[0] if isinstance(name, str) else None
    if base in SLOW_POLICIES:
        try:
            make_policy(name)
        except ValueError as exc:
            raise SpecError(f"{key}: {exc}") from None
        return
    if not isinstance(name, str) or name not in POLICIES or name == "first":
        raise SpecError(f"{key}: unknown policy {name!r}; realms policies are greedy, random, expert "
                        "(expert:N: N simulated games per searched decision) and expert-tree (expert-tree:N)")


def _deck_part(entries: list, name: str) -> dict:
    entries = [[c, n] for c, n in entries]
    from .cards import DeckError, build_deck
    try:
        deck = build_deck([(c, n) for c, n in entries])
    except DeckError as exc:
        raise SpecError(str(exc)) from exc
    return {"name": name, "entries": entries, "data_hash": deck_data_hash(entries),
            "unsupported_cards": deck.unsupported_cards,
            "leaders": [d.title for d in deck.leaders], "cards": len(deck.cards)}


_DECKS: dict[str, Any] = {}


def _engine_deck(part: dict):
    key = part["data_hash"]
    deck = _DECKS.get(key)
    if deck is None:
        from .cards import build_deck
        deck = build_deck([(c, n) for c, n in part["entries"]], name=part.get("name", ""))
        if len(_DECKS) > 16:
            _DECKS.clear()
        _DECKS[key] = deck
    return deck


# ---- one chunk ---------------------------------------------------------------------------------------------
def empty_goldfish() -> dict:
    return {"games": 0, "wins": 0, "stalemates": 0, "win_turn": {}, "turns": {}, "turn_games": [],
            "sum_vp": [], "sum_gold": [], "sum_unpaid": [], "vp_carried": [], "carried_final": {},
            "unpaid_games": 0, "unpaid_turns": 0, "stuck": {}, "stuck_copies": {}, "played": {}}


def add_goldfish_game(part: dict, r) -> None:
    part["games"] += 1
    t = r.turns
    part["turns"][str(t)] = part["turns"].get(str(t), 0) + 1
    if r.winner == 0:
        part["wins"] += 1
        part["win_turn"][str(t)] = part["win_turn"].get(str(t), 0) + 1
    else:
        part["stalemates"] += 1
    n = len(r.vp_by_turn)
    _add_list(part["turn_games"], [1] * n)
    _add_list(part["sum_vp"], r.vp_by_turn)
    _add_list(part["sum_gold"], r.gold_by_turn)
    _add_list(part["sum_unpaid"], r.unpaid_by_turn)
    _add_list(part["vp_carried"], r.vp_by_turn)
    if n:
        key = f"{n}:{r.vp_by_turn[-1]}"
        part["carried_final"][key] = part["carried_final"].get(key, 0) + 1
    u = sum(r.unpaid_by_turn)
    part["unpaid_turns"] += u
    part["unpaid_games"] += 1 if u else 0
    for name, copies in r.stuck_in_hand.items():
        part["stuck"][name] = part["stuck"].get(name, 0) + 1
        part["stuck_copies"][name] = part["stuck_copies"].get(name, 0) + copies
    _add_counts(part["played"], r.cards_played)


def empty_versus() -> dict:
    return {**runs.empty_versus_counts(), "stats": [{k: 0 for k in STAT_KEYS}, {k: 0 for k in STAT_KEYS}],
            "vp_sum": [0, 0], "sample_log": None}


def add_versus_game(part: dict, r) -> None:
    runs.add_versus_result(part, r.winner, r.first_player, r.reason, r.rounds)
    for p in (0, 1):
        for k in STAT_KEYS:
            part["stats"][p][k] += r.stats[p].get(k, 0)
        part["vp_sum"][p] += r.vp[p]


def run_chunk(spec: dict, index: int) -> dict:
    """The partial result of chunk `index` of the run `spec` (integer counts only)."""
    from . import play_game
    mode = spec["mode"]
    plan = chunk_plan(mode, spec["games"], spec["settings"])
    _, start, size = plan[index]
    rng = random.Random(chunk_seed(spec["seed"], index))
    st = spec["settings"]
    deck_a = _engine_deck(spec["deck"])
    max_rounds = st.get("max_rounds", DEFAULT_MAX_ROUNDS)
    fmt = st.get("format", "standard")
    if mode == "goldfish":
        part = empty_goldfish()
        for _ in range(start, start + size):
            r = play_game(deck_a, None, seed=rng.getrandbits(63), policies=(st.get("policy", "greedy"), "greedy"),
                          fmt=fmt, max_rounds=max_rounds)
            add_goldfish_game(part, r)
        return part
    deck_b = _engine_deck(spec["opponent"])
    pols = (st.get("policy", "greedy"), st.get("opponent_policy", "greedy"))
    part = empty_versus()
    for g in range(start, start + size):
        game_seed = rng.getrandbits(63)
        want_log = g == 0
        # alternate who goes first (game 0: the first deck), so first-player advantage cancels out
        r = play_game(deck_a, deck_b, seed=game_seed, first_player=g % 2, policies=pols, fmt=fmt,
                      max_rounds=max_rounds, log=want_log)
        add_versus_game(part, r)
        if want_log:
            part["sample_log"] = {"game": 0, "seed": game_seed, "first_player": r.first_player, "winner": r.winner,
                                  "reason": r.reason, "leaders": r.leaders, "lines": list(r.log or [])[:600]}
    return part


# ---- merge and report --------------------------------------------------------------------------------------
def merge(mode: str, parts: Iterable[dict]) -> dict:
    if mode == "goldfish":
        out = empty_goldfish()
        for part in parts:
            for k in ("games", "wins", "stalemates", "unpaid_games", "unpaid_turns"):
                out[k] += part[k]
            for k in ("win_turn", "turns", "carried_final", "stuck", "stuck_copies", "played"):
                _add_counts(out[k], part[k])
            for k in ("turn_games", "sum_vp", "sum_gold", "sum_unpaid", "vp_carried"):
                _add_list(out[k], part[k])
        return out
    out = empty_versus()
    for part in parts:
        runs.merge_versus_counts(out, part)
        for p in (0, 1):
            _add_counts(out["stats"][p], part["stats"][p])
            out["vp_sum"][p] += part["vp_sum"][p]
        if out["sample_log"] is None and part.get("sample_log") is not None:
            out["sample_log"] = part["sample_log"]
    return out


def finalize(spec: dict, merged: dict, top: int = 10) -> dict:
    """The report JSON of the run (without `elapsed_s`, added by whoever timed it)."""
    mode = spec["mode"]
    st = spec["settings"]
    n = merged["games"]
    if mode == "goldfish":
        per_turn = []
        for t, count in enumerate(merged["turn_games"]):
            per_turn.append({"turn": t + 1, "games": count,
                             "mean_vp": merged["sum_vp"][t] / count if count else None,
                             "mean_gold": merged["sum_gold"][t] / count if count else None,
                             "unpaid_rate": merged["sum_unpaid"][t] / count if count else None})
        longest = len(merged["vp_carried"])
        carried = list(merged["vp_carried"])
        for key, count in merged["carried_final"].items():
            last, value = (int(x) for x in key.split(":"))
            for t in range(last, longest):
                carried[t] += value * count
        stuck = sorted(merged["stuck"].items(), key=lambda kv: (-kv[1], kv[0]))[:top]
        played = sorted(merged["played"].items(), key=lambda kv: (-kv[1], kv[0]))[:top]
        result: dict[str, Any] = {
            "mode": "goldfish", "game": "realms", "games": n, "seed": spec["seed"], "policy": st.get("policy"),
            "format": st.get("format", "standard"), "target_vp": 30 if st.get("format") == "simplified" else 50,
            "win_rate": merged["wins"] / n if n else None,
            "win_rate_ci95": wilson_interval(merged["wins"], n),
            "stalemate_rate": merged["stalemates"] / n if n else None,
            "win_turn": {**hist_stats(merged["win_turn"]), "histogram": sorted_hist(merged["win_turn"])},
            "vp_by_turn": [c / n for c in carried] if n else [],
            "gold_by_turn": [merged["sum_gold"][t] / c if c else None for t, c in enumerate(merged["turn_games"])],
            "per_turn": per_turn,
            "unpaid": {"games": merged["unpaid_games"], "rate": merged["unpaid_games"] / n if n else None,
                       "turns_per_game": merged["unpaid_turns"] / n if n else None,
                       "by_turn": [x["unpaid_rate"] for x in per_turn]},
            "stuck_in_hand": [{"name": k, "games": v, "rate": v / n, "copies": merged["stuck_copies"].get(k, 0)}
                              for k, v in stuck],
            "most_played": [{"name": k, "plays": v, "per_game": v / n} for k, v in played],
            "unsupported_cards": sorted(spec["deck"].get("unsupported_cards", [])),
            "goldfish_leader": {"name": "Goldfish Leader", "cv": 7, "tactics": ["left", "front", "right"]},
            "requested_games": spec["games"],
        }
    else:
        how: dict[str, dict] = {}
        for key, count in sorted(merged["how"].items()):
            side, reason = key.split(":")
            how.setdefault(side, {})[reason] = count

        def figures(p: int) -> dict:
            s = merged["stats"][p]
            out = {k: s[k] / n if n else None for k in STAT_KEYS}
            out["vp"] = merged["vp_sum"][p] / n if n else None
            out["attack_win_rate"] = s["attacks_won"] / s["attacks"] if s["attacks"] else None
            out["raid_success_rate"] = ((s["places_destroyed"] + s["leader_raids"]) / s["raids"]
                                        if s["raids"] else None)
            return out

        result = {
            "mode": "versus", "game": "realms", "games": n, "seed": spec["seed"],
            "policies": [st.get("policy", "greedy"), st.get("opponent_policy", "greedy")],
            "format": st.get("format", "standard"),
            "wins": merged["wins"], "losses": merged["losses"], "draws": merged["draws"],
            "win_rate": merged["wins"] / n if n else None,
            "ci95": wilson_interval(merged["wins"], n),
            "mean_rounds": merged["rounds_sum"] / n if n else None,
            "rounds": {**hist_stats(merged["rounds"]), "histogram": sorted_hist(merged["rounds"])},
            "first_player_win_rate": merged["first_player_wins"] / n if n else None,
            "first_player_ci95": wilson_interval(merged["first_player_wins"], n),
            "win_rate_going_first": (merged["a_first_wins"] / merged["a_first_games"]
                                     if merged["a_first_games"] else None),
            "win_rate_going_second": (merged["a_second_wins"] / merged["a_second_games"]
                                      if merged["a_second_games"] else None),
            "how": how,
            "figures": {"deck": figures(0), "opponent": figures(1)},
            "sample_log": merged["sample_log"],
            "unsupported_cards": sorted(spec["deck"].get("unsupported_cards", [])),
            "opponent_unsupported_cards": sorted(spec["opponent"].get("unsupported_cards", [])),
        }
    result["deck"] = _summary(spec["deck"])
    if spec.get("opponent"):
        result["opponent"] = _summary(spec["opponent"])
    result["engine_version"] = spec["engine_version"]
    result["settings"] = st
    return result


def _summary(part: dict) -> dict:
    return {"name": part.get("name"), "hash": part["data_hash"], "leaders": part.get("leaders", []),
            "cards": part.get("cards")}


def run_in_process(spec: dict, progress: Callable[[int, int], None] | None = None) -> dict:
    """Every chunk in order in this process, merged exactly as the Celery workers do."""
    return runs.run_chunks(spec, chunk_plan(spec["mode"], spec["games"], spec["settings"]), run_chunk,
                           lambda parts: merge(spec["mode"], parts), finalize, progress)


def goldfish(deck_entries: list, *, games: int = 1000, seed: int = 0, policy: str = "greedy",
             fmt: str = "standard", max_rounds: int = DEFAULT_MAX_ROUNDS,
             progress: Callable[[int, int], None] | None = None) -> dict:
    """The goldfish report of a deck given as (card dict, count) entries."""
    return run_in_process(make_spec("goldfish", deck_entries, games=games, seed=seed, policy=policy, fmt=fmt,
                                    max_rounds=max_rounds), progress)


def versus(deck_entries: list, opponent_entries: list, *, games: int = 1000, seed: int = 0,
           policies: Sequence[str] = ("greedy", "greedy"), fmt: str = "standard",
           max_rounds: int = DEFAULT_MAX_ROUNDS, progress: Callable[[int, int], None] | None = None) -> dict:
    """The head-to-head report of the first deck against the second (CONTRACTS §3 versus, plus figures)."""
    return run_in_process(make_spec("versus", deck_entries, opponent_entries, games=games, seed=seed,
                                    policy=policies[0], opponent_policy=policies[1], fmt=fmt,
                                    max_rounds=max_rounds), progress)


def entries_of(deck) -> list:
    """(card dict, count) entries of a Deck built from card dicts (e.g. deck_from_decklist)."""
    return [(d.raw, n) for d, n in deck.entries]
