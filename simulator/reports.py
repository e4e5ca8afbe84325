"""Goldfish and head-to-head reports: per-chunk partials of GameResults, an exact merge, and the final JSON.

A partial holds only counts and integer sums (histograms, per-round totals), never averages, so merging the
chunks in any grouping gives exactly the numbers one big loop would have: the aggregate of 1,000,000 games is
as small as the aggregate of 10 (memory does not grow with the number of games).
"""
from __future__ import annotations

from typing import Iterable, Sequence

from cards.games.r1.facts import ICONS
# the interval and the exact adders of partials are every game's (simulator/engines/common/runs.py)
from simulator.engines.common.runs import Z95, wilson_interval  # noqa: F401  (imported from here by others)
from simulator.engines.common.runs import add_counts as _add_counts, add_list as _add_list
from simulator.engines.common.runs import add_versus_result, empty_versus_counts, merge_versus_counts


def hist_stats(hist: dict) -> dict:
    """Mean, median, min and max of an integer histogram {"value": count}, exactly."""
    n = sum(hist.values())
    if not n:
        return {"mean": None, "median": None, "min": None, "max": None}
    values = sorted((int(k), v) for k, v in hist.items())

    def nth(i: int) -> int:
        seen = 0
        for value, count in values:
            seen += count
            if i < seen:
                return value
        return values[-1][0]  # pragma: no cover - i < n always

    median = nth((n - 1) // 2) if n % 2 else (nth(n // 2 - 1) + nth(n // 2)) / 2
    return {"mean": sum(k * v for k, v in values) / n, "median": median, "min": values[0][0], "max": values[-1][0]}


def sorted_hist(hist: dict) -> dict:
    return {k: hist[k] for k in sorted(hist, key=int)}


# ---- goldfish --------------------------------------------------------------------------------------------
PER_ROUND = ("influence", "wealth_spent", "cards_played", "struggles_won")


def empty_goldfish() -> dict:
    return {
        "games": 0, "wins": 0, "eliminated": 0, "round_limit": 0, "win_round": {}, "rounds": {},
        # per-round totals for player 0 over the games that played that round, and how many did
        "round_games": [], **{f"sum_{k}": [] for k in PER_ROUND},
        # Influence at the end of each round, a finished game keeping its final value (for the chart)
        "influence_carried": [], "carried_final": {},
        "stuck": {}, "played": {},
    }


def add_goldfish_game(part: dict, result) -> None:
    """Count one GameResult (interface 1) into a goldfish partial."""
    part["games"] += 1
    rounds = result.rounds
    part["rounds"][str(rounds)] = part["rounds"].get(str(rounds), 0) + 1
    if result.winner == 0:
        part["wins"] += 1
        part["win_round"][str(rounds)] = part["win_round"].get(str(rounds), 0) + 1
    elif result.reason == "elimination":
        part["eliminated"] += 1
    if result.reason == "round_limit":
        part["round_limit"] += 1
    played = len(result.influence_by_round)
    _add_list(part["round_games"], [1] * played)
    for key, series in (("influence", result.influence_by_round), ("wealth_spent", result.wealth_spent_by_round),
                        ("cards_played", result.cards_played_by_round),
                        ("struggles_won", result.struggles_won_by_round)):
        _add_list(part[f"sum_{key}"], [pair[0] for pair in series])
    influence = [pair[0] for pair in result.influence_by_round]
    _add_list(part["influence_carried"], influence)
    if influence:
        # Games shorter than the longest one keep their final Influence in later rounds: stored as
        # final value -> games per last round, expanded when reporting (so the partial stays small).
        key = f"{len(influence)}:{influence[-1]}"
        part["carried_final"][key] = part["carried_final"].get(key, 0) + 1
    _add_counts(part["stuck"], result.stuck_in_hand or {})
    _add_counts(part["played"], result.cards_played or {})


def merge_goldfish(parts: Iterable[dict]) -> dict:
    out = empty_goldfish()
    for part in parts:
        for key in ("games", "wins", "eliminated", "round_limit"):
            out[key] += part[key]
        for key in ("win_round", "rounds", "stuck", "played", "carried_final"):
            _add_counts(out[key], part[key])
        for key in ("round_games", "influence_carried", *(f"sum_{k}" for k in PER_ROUND)):
            _add_list(out[key], part[key])
    return out


def goldfish_report(merged: dict, *, games: int, seed: int, unsupported: Sequence[str], top: int = 10) -> dict:
    n = merged["games"]
    per_round = []
    for r, count in enumerate(merged["round_games"]):
        per_round.append({
            "round": r + 1, "games": count,
            **{f"mean_{k}": merged[f"sum_{k}"][r] / count if count else None for k in PER_ROUND},
        })
    # Influence by round with finished games carried at their final value.
    longest = len(merged["influence_carried"])
    carried = list(merged["influence_carried"])
    for key, count in merged["carried_final"].items():
        last, value = (int(x) for x in key.split(":"))
        for r in range(last, longest):
            carried[r] += value * count
    influence_by_round = [c / n for c in carried] if n else []
    win_round = {**hist_stats(merged["win_round"]), "histogram": sorted_hist(merged["win_round"])}
    stuck = sorted(merged["stuck"].items(), key=lambda kv: (-kv[1], kv[0]))[:top]
    played = sorted(merged["played"].items(), key=lambda kv: (-kv[1], kv[0]))[:top]
    return {
        "mode": "goldfish", "games": n, "seed": seed,
        "win_rate": merged["wins"] / n if n else None,
        "win_rate_ci95": wilson_interval(merged["wins"], n),
        "eliminated_rate": merged["eliminated"] / n if n else None,
        "round_limit_rate": merged["round_limit"] / n if n else None,
        "win_round": win_round,
        "influence_by_round": influence_by_round,
        "per_round": per_round,
        "stuck_in_hand": [{"name": k, "games": v, "rate": v / n} for k, v in stuck],
        "most_played": [{"name": k, "plays": v, "per_game": v / n} for k, v in played],
        "unsupported_cards": sorted(unsupported),
        "requested_games": games,
    }


# ---- versus ----------------------------------------------------------------------------------------------
STRUGGLE_TYPES = ICONS   # §6.1: the struggle types are the icons
STRUGGLE_COUNTS = ("initiated", "won", "unopposed", "defended")
SIDES = ("deck", "opponent")


def empty_struggles() -> dict:
    """CONTRACTS §3 "struggles": per side and struggle type, how many it initiated, won, won unopposed, and in how
    many of them the defending player declared at least one defender (S.6)."""
    return {side: {t: {k: 0 for k in STRUGGLE_COUNTS} for t in STRUGGLE_TYPES} for side in SIDES}


def add_struggles(target: dict, per_player) -> None:
    """Add a game's struggle counters: per_player[p][type][count] for players 0 (the deck) and 1 (the opponent),
    type an index in STRUGGLE_TYPES order (the engine's GameResult.struggles) or a name (a partial's)."""
    for p, side in enumerate(SIDES):
        got = per_player[p] if per_player is not None and p < len(per_player) else None
        if not got:
            continue
        for n, t in enumerate(STRUGGLE_TYPES):
            row = (got.get(t) if isinstance(got, dict) else got[n]) or {}
            for k in STRUGGLE_COUNTS:
                target[side][t][k] += int(row.get(k, 0))


def empty_versus() -> dict:
    return {**empty_versus_counts(), "sample_log": None, "struggles": empty_struggles()}


def add_versus_game(part: dict, result) -> None:
    add_versus_result(part, result.winner, result.first_player, result.reason, result.rounds)
    add_struggles(part["struggles"], getattr(result, "struggles", None))


def merge_versus(parts: Iterable[dict]) -> dict:
    out = empty_versus()
    for part in parts:
        merge_versus_counts(out, part)
        if part.get("struggles"):
            add_struggles(out["struggles"], [part["struggles"][side] for side in SIDES])
        if out["sample_log"] is None and part.get("sample_log") is not None:
            out["sample_log"] = part["sample_log"]
    return out


def _side(games: int, wins: int) -> dict:
    """The first deck's record in the games where it went first (or second) in round 1."""
    return {"games": games, "wins": wins, "win_rate": wins / games if games else None,
            "ci95": wilson_interval(wins, games) if games else None}


def versus_report(merged: dict, *, seed: int, unsupported: Sequence[str], opponent_unsupported: Sequence[str]) -> dict:
    n = merged["games"]
    how = {}
    for key, count in sorted(merged["how"].items()):
        side, reason = key.split(":")
        how.setdefault(side, {})[reason] = count
    return {
        "mode": "versus", "games": n, "seed": seed,
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
        # "First" is the first player of round 1 (§5.1: the player whose quest shows the higher Momentum chooses,
        # so the decks' quests, not turns, decide it). The counts say how much each rate rests on; the rates are
        # the first deck's, like every rate here (CONTRACTS §3). Added later; the fields above stay so old readers keep working.
        "going_first": _side(merged["a_first_games"], merged["a_first_wins"]),
        "going_second": _side(merged["a_second_games"], merged["a_second_wins"]),
        "first_player_wins": merged["first_player_wins"],
        "first_player_means": "round 1",
        "how": how,
        "struggles": merged["struggles"],
        "sample_log": merged["sample_log"],
        "unsupported_cards": sorted(unsupported),
        "opponent_unsupported_cards": sorted(opponent_unsupported),
    }
