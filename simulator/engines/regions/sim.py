"""Simulations of Heroes and Regions: strategy against strategy over many games, and a round-robin matrix.

Like every game's runs, everything works on a *spec*, a JSON-able dict holding all the run needs (strategy
texts, games, seed, settings), so any process (this one, or a Celery worker) gives the same numbers: the games are
split into chunks by `chunk_plan` (which depends only on the number of games), each chunk plays with its own seed
`chunk_seed(run seed, index)` (simulator/engines/common/runs.py, as every game's), partial results hold only
counts and integer sums, and `merge` adds them exactly. `run_in_process(spec)` runs every chunk here.

>>> spec = versus_spec(shipped_text("big-money"), shipped_text("region-control"), games=20, seed=1)
>>> report = run_in_process(spec)
>>> report["mode"], report["games"], report["wins"] + report["losses"] + report["draws"]
('versus', 20, 20)
"""
from __future__ import annotations

import hashlib
import json
import random
import threading
import time
from typing import Callable

from simulator.engines.common import runs
from simulator.engines.common.runs import add_counts as _add_counts, add_list as _add_list
from simulator.engines.common.runs import canonical_json, chunk_seed  # noqa: F401  (its run API)

from . import ENGINE_VERSION, STRATEGY_DIR, CardSet, Strategy, make_policy, parse_strategy, policy_seed
from .game import Game
from .search import make_search, parse_policy

BASE_CHUNK = 200        # games per chunk (runner.py's versus chunk)
SEARCH_CHUNK = 2        # ... and when a side is the search player (search.py), which takes seconds a game
DEFAULT_GAMES = 1000
DEFAULT_MAX_TURNS = 60
MAX_GAMES = 1_000_000


# ---- seeds and chunks (simulator/engines/common/runs.py, as every game's) --------------------------------------
def chunk_plan(games: int, slow: bool = False) -> list[tuple[int, int, int]]:
    """[(index, first game, games in chunk)]: depends only on the number of games and whether a side searches
    (`slow`: the spec's settings name the search player)."""
    return runs.chunk_plan(games, SEARCH_CHUNK if slow else BASE_CHUNK)


def wilson_interval(successes: float, n: int) -> list[float] | None:
    """95% Wilson score interval, its ends rounded to 12 digits (as this game's reports always were; a draw
    counts as half a win in the round-robin).

    >>> [round(x, 4) for x in wilson_interval(50, 100)]
    [0.4038, 0.5962]
    """
    return runs.wilson_interval(successes, n, digits=12)


def shipped_text(stem: str) -> str:
    return (STRATEGY_DIR / f"{stem}.txt").read_text(encoding="utf-8")


def is_slow(settings: dict | None) -> bool:
    """Whether a run's settings name the search player (smaller chunks, a longer time allowance per game)."""
    return bool((settings or {}).get("search"))


def text_hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


# ---- specs ----------------------------------------------------------------------------------------------------
class SpecError(ValueError):
    """A request that cannot be run; the message says what to change."""


def versus_spec(strategy: str, opponent: str, *, games: int = DEFAULT_GAMES, seed: int = 0,
                max_turns: int = DEFAULT_MAX_TURNS, policy: str | None = None,
                opponent_policy: str | None = None, hero: str | None = None,
                opponent_hero: str | None = None) -> dict:
    """A versus run: two strategy texts (parsed here, so a bad one fails now with its line and column).
    `policy="random"` plays that side at random with the strategy's Hero; `hero` / `opponent_hero` (a name or code)
    play a strategy with another Hero than its `hero:` line (Hero against Hero with the same baselines)."""
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_GAMES:
        raise SpecError(f"games must be a whole number from 1 to {MAX_GAMES:,}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise SpecError("seed must be a whole number")
    if isinstance(max_turns, bool) or not isinstance(max_turns, int) or not 1 <= max_turns <= 200:
        raise SpecError("max_turns must be a whole number from 1 to 200")
    names = []
    for pol in (policy, opponent_policy):
        try:
            kind, budget = parse_policy(pol)
        except ValueError as exc:
            raise SpecError(str(exc)) from None
        names.append(f"{kind}:{budget}" if kind.startswith("search") else kind)
    a = _strategy(strategy)
    b = _strategy(opponent)
    heroes = []
    for given, strat in ((hero, a), (opponent_hero, b)):
        if given is None:
            heroes.append(strat.hero.code)
            continue
        try:
            heroes.append(CardSet.default().hero(given).code)
        except KeyError as exc:
            raise SpecError(str(exc.args[0])) from None
    settings: dict = {"max_turns": max_turns}
    if any(n.startswith("search") for n in names):
        settings["search"] = names     # only then, so the other runs keep their request keys
    return {
        "game": "regions", "mode": "versus", "games": games, "seed": seed, "engine_version": ENGINE_VERSION,
        "settings": settings,
        "policies": names,
        "deck": {"name": a.name, "hero": heroes[0], "text": strategy, "hash": text_hash(strategy)},
        "opponent": {"name": b.name, "hero": heroes[1], "text": opponent, "hash": text_hash(opponent)},
    }


def request_key(spec: dict) -> str:
    """What makes two requests identical (for caching results)."""
    body = {k: spec[k] for k in ("mode", "games", "seed", "settings", "engine_version", "policies")}
    body["deck"] = [spec["deck"]["hash"], spec["deck"]["hero"]]
    body["opponent"] = [spec["opponent"]["hash"], spec["opponent"]["hero"]]
    return hashlib.sha256(canonical_json(body).encode()).hexdigest()


_parsed: dict[str, Strategy] = {}
_parsed_lock = threading.Lock()


def _strategy(text: str) -> Strategy:
    key = text_hash(text)
    with _parsed_lock:
        hit = _parsed.get(key)
    if hit is None:
        hit = parse_strategy(text, CardSet.default())
        with _parsed_lock:
            if len(_parsed) > 64:
                _parsed.clear()
            _parsed[key] = hit
    return hit


def _policy(kind: str, strategy: Strategy, seed: int):
    """The player of one side: its strategy, at random (with the strategy's Hero), or the search player over
    the strategy (`search:N`, simulator/engines/regions/search.py)."""
    if kind.startswith("search"):
        return make_search(strategy, seed, kind)
    return make_policy(strategy if kind == "strategy" else "random", seed)


# ---- one chunk ------------------------------------------------------------------------------------------------
def empty_versus() -> dict:
    return {
        **runs.empty_versus_counts("turns"),
        "score_sum": [0, 0], "parts_sum": [{}, {}],
        # per turn t (index t-1): games that played it, and the sums of each side's figures at its end
        "turn_games": [], "score_by_turn": [[], []], "rec_by_turn": [[], []], "presence_by_turn": [[], []],
        "control_by_turn": [[], []],
        "presence_end": [0, 0], "control_end": [0, 0], "bought": [{}, {}], "bought_total": [0, 0],
        "sample_log": None,
    }


def add_game(part: dict, game: Game, *, log_lines: list | None = None) -> None:
    """Count one finished game (player 0 is the strategy, player 1 the opponent) into a partial."""
    runs.add_versus_result(part, game.winner, game.first_player, game.reason, game.turn, "turns")
    played = len(game.stat_score)
    _add_list(part["turn_games"], [1] * played)
    for p in (0, 1):
        part["score_sum"][p] += game.score(p)
        _add_counts(part["parts_sum"][p], game.score_parts(p))
        _add_list(part["score_by_turn"][p], [row[p] for row in game.stat_score])
        _add_list(part["rec_by_turn"][p], [row[p] for row in game.stat_rec])
        _add_list(part["presence_by_turn"][p], [row[p] for row in game.stat_presence])
        _add_list(part["control_by_turn"][p], [row[p] for row in game.stat_control])
        part["presence_end"][p] += sum(1 for s in game.stacks[p] if s)
        part["control_end"][p] += sum(1 for c in game.ctrl if c == p)
        _add_counts(part["bought"][p], game.stat_bought[p])
        part["bought_total"][p] += sum(game.stat_bought[p].values())
    if log_lines is not None:
        part["sample_log"] = log_lines


def play_one(spec: dict, a: Strategy, b: Strategy, game_seed: int, first_player: int, *, log: bool = False) -> Game:
    cs = CardSet.default()
    pa = _policy(spec["policies"][0], a, policy_seed(game_seed, 0))
    pb = _policy(spec["policies"][1], b, policy_seed(game_seed, 1))
    game = Game(cs, [spec["deck"]["hero"], spec["opponent"]["hero"]], seed=game_seed, first_player=first_player,
                max_turns=spec["settings"]["max_turns"], log=log)
    game.play([pa.act, pb.act], [getattr(pa, "skip", None), getattr(pb, "skip", None)])
    return game


def run_chunk(spec: dict, index: int) -> dict:
    """The partial result of chunk `index` of the run `spec` (counts only)."""
    plan = chunk_plan(spec["games"], is_slow(spec["settings"]))
    _, start, size = plan[index]
    rng = random.Random(chunk_seed(spec["seed"], index))
    a = _strategy(spec["deck"]["text"])
    b = _strategy(spec["opponent"]["text"])
    part = empty_versus()
    for g in range(start, start + size):
        game_seed = rng.getrandbits(63)
        want_log = g == 0
        # alternate who has Priority on the first turn (game 0: the first strategy), so it cancels out
        game = play_one(spec, a, b, game_seed, g % 2, log=want_log)
        add_game(part, game, log_lines={"game": 0, "seed": game_seed, "first_player": game.first_player,
                                        "winner": game.winner, "reason": game.reason,
                                        "lines": list(game.logs or [])[:600]} if want_log else None)
    return part


def merge(parts: list[dict]) -> dict:
    out = empty_versus()
    for part in parts:
        runs.merge_versus_counts(out, part, "turns")
        _add_list(out["turn_games"], part["turn_games"])
        for p in (0, 1):
            out["score_sum"][p] += part["score_sum"][p]
            _add_counts(out["parts_sum"][p], part["parts_sum"][p])
            for key in ("score_by_turn", "rec_by_turn", "presence_by_turn", "control_by_turn"):
                _add_list(out[key][p], part[key][p])
            out["presence_end"][p] += part["presence_end"][p]
            out["control_end"][p] += part["control_end"][p]
            _add_counts(out["bought"][p], part["bought"][p])
            out["bought_total"][p] += part["bought_total"][p]
        if out["sample_log"] is None and part.get("sample_log") is not None:
            out["sample_log"] = part["sample_log"]
    return out


def _hist_stats(hist: dict) -> dict:
    n = sum(hist.values())
    if not n:
        return {"mean": None, "median": None, "min": None, "max": None, "histogram": {}}
    values = sorted((int(k), v) for k, v in hist.items())

    def nth(i: int) -> int:
        seen = 0
        for value, count in values:
            seen += count
            if i < seen:
                return value
        return values[-1][0]  # pragma: no cover

    median = nth((n - 1) // 2) if n % 2 else (nth(n // 2 - 1) + nth(n // 2)) / 2
    return {"mean": sum(k * v for k, v in values) / n, "median": median, "min": values[0][0],
            "max": values[-1][0], "histogram": {str(k): v for k, v in values}}


def finalize(spec: dict, merged: dict) -> dict:
    """The versus JSON (CONTRACTS §3's keys, plus this game's figures), without `elapsed_s`."""
    n = merged["games"]
    per_turn = []
    for t, count in enumerate(merged["turn_games"]):
        row = {"turn": t + 1, "games": count}
        for key, out in (("score_by_turn", "score"), ("rec_by_turn", "recognition_cards"),
                         ("presence_by_turn", "presence"), ("control_by_turn", "control")):
            row[out] = [merged[key][p][t] / count if count else None for p in (0, 1)]
        per_turn.append(row)
    how: dict = {}
    for key, count in sorted(merged["how"].items()):
        side, reason = key.split(":")
        how.setdefault(side, {})[reason] = count

    def side(p: int) -> dict:
        bought = sorted(merged["bought"][p].items(), key=lambda kv: (-kv[1], kv[0]))
        return {
            "mean_score": merged["score_sum"][p] / n if n else None,
            "mean_score_parts": {k: v / n for k, v in sorted(merged["parts_sum"][p].items())} if n else {},
            "regions_held": {"presence": merged["presence_end"][p] / n if n else None,
                             "control": merged["control_end"][p] / n if n else None},
            "cards_bought": {"per_game": merged["bought_total"][p] / n if n else None,
                             "by_card": [{"name": k, "bought": v, "per_game": v / n} for k, v in bought]},
        }

    return {
        "mode": "versus", "game": "regions", "games": n, "seed": spec["seed"],
        "wins": merged["wins"], "losses": merged["losses"], "draws": merged["draws"],
        "win_rate": merged["wins"] / n if n else None,
        "ci95": wilson_interval(merged["wins"], n),
        "mean_rounds": merged["turns_sum"] / n if n else None,
        "rounds": _hist_stats(merged["turns"]),
        "first_player_win_rate": merged["first_player_wins"] / n if n else None,
        "first_player_ci95": wilson_interval(merged["first_player_wins"], n),
        "win_rate_going_first": merged["a_first_wins"] / merged["a_first_games"] if merged["a_first_games"] else None,
        "win_rate_going_second": (merged["a_second_wins"] / merged["a_second_games"]
                                  if merged["a_second_games"] else None),
        "policies": [_policy_name(spec["policies"][0], spec["deck"]["name"]),
                     _policy_name(spec["policies"][1], spec["opponent"]["name"])],
        "how": how,
        "deck": {"name": spec["deck"]["name"], "hero": spec["deck"]["hero"], "hash": spec["deck"]["hash"],
                 **side(0)},
        "opponent": {"name": spec["opponent"]["name"], "hero": spec["opponent"]["hero"],
                     "hash": spec["opponent"]["hash"], **side(1)},
        "by_turn": per_turn,
        "sample_log": merged["sample_log"],
        "engine_version": spec["engine_version"],
        "settings": spec["settings"],
    }


def _policy_name(kind: str, name: str) -> str:
    if kind.startswith("search"):
        return f"{kind}:{name}"
    return "random" if kind == "random" else f"strategy:{name}"


def run_in_process(spec: dict, progress: Callable[[int, int], None] | None = None) -> dict:
    """Every chunk in order in this process, merged exactly as the Celery workers do."""
    return runs.run_chunks(spec, chunk_plan(spec["games"], is_slow(spec["settings"])), run_chunk, merge, finalize,
                           progress)


def versus(strategy: str, opponent: str, *, games: int = DEFAULT_GAMES, seed: int = 0,
           max_turns: int = DEFAULT_MAX_TURNS, policy: str | None = None, opponent_policy: str | None = None,
           hero: str | None = None, opponent_hero: str | None = None,
           progress: Callable[[int, int], None] | None = None) -> dict:
    """Strategy text against strategy text: the versus report (see `finalize`)."""
    return run_in_process(versus_spec(strategy, opponent, games=games, seed=seed, max_turns=max_turns,
                                      policy=policy, opponent_policy=opponent_policy, hero=hero,
                                      opponent_hero=opponent_hero), progress)


# ---- round-robin ----------------------------------------------------------------------------------------------
def pair_seed(run_seed: int, i: int, j: int) -> int:
    digest = hashlib.sha256(f"roc-regions-rr:{run_seed}:{i}:{j}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def round_robin(strategies: dict[str, str], *, games: int = 400, seed: int = 0,
                max_turns: int = DEFAULT_MAX_TURNS, progress: Callable[[int, int], None] | None = None) -> dict:
    """Every pair of strategies (name -> text) plays `games` games (each its own versus run, seeded from the run
    seed and the pair). Returns the matrix of win rates (a draw counts half) with intervals and the standings."""
    names = list(strategies)
    if len(names) < 2:
        raise SpecError("a round-robin needs at least two strategies")
    started = time.perf_counter()
    k = len(names)
    cells: dict = {}
    pairs = [(i, j) for i in range(k) for j in range(i + 1, k)]
    for done, (i, j) in enumerate(pairs, 1):
        spec = versus_spec(strategies[names[i]], strategies[names[j]], games=games, seed=pair_seed(seed, i, j),
                           max_turns=max_turns)
        report = run_in_process(spec)
        cells[(i, j)] = report
        if progress:
            progress(done, len(pairs))
    matrix = []
    points = [0.0] * k
    played = [0] * k
    for i in range(k):
        row = []
        for j in range(k):
            if i == j:
                row.append(None)
                continue
            rep = cells[(min(i, j), max(i, j))]
            wins = rep["wins"] if i < j else rep["losses"]
            score = wins + rep["draws"] / 2
            n = rep["games"]
            points[i] += score
            played[i] += n
            row.append({"score": score / n, "ci95": wilson_interval(score, n), "wins": wins,
                        "draws": rep["draws"], "games": n, "mean_rounds": rep["mean_rounds"]})
        matrix.append(row)
    standings = sorted(({"name": names[i], "score": points[i] / played[i],
                         "ci95": wilson_interval(points[i], played[i]), "games": played[i]} for i in range(k)),
                       key=lambda s: -s["score"])
    return {"mode": "round_robin", "game": "regions", "games_per_pair": games, "seed": seed,
            "strategies": names, "heroes": [_strategy(strategies[n]).hero.code for n in names],
            "matrix": matrix, "standings": standings, "engine_version": ENGINE_VERSION,
            "settings": {"max_turns": max_turns}, "elapsed_s": round(time.perf_counter() - started, 3)}


def shipped_texts() -> dict[str, str]:
    return {p.stem: p.read_text(encoding="utf-8") for p in sorted(STRATEGY_DIR.glob("*.txt"))}


# ---- command line (pure: the Django command `simulate --game regions` comes with the site's seam) -------------
def _read_strategy(arg: str) -> tuple[str, str]:
    """(name, text) of a strategy given as a file path or the stem of a shipped one."""
    from pathlib import Path

    path = Path(arg)
    if path.is_file():
        return path.stem, path.read_text(encoding="utf-8")
    shipped = STRATEGY_DIR / f"{arg}.txt"
    if shipped.is_file():
        return arg, shipped.read_text(encoding="utf-8")
    raise FileNotFoundError(f"{arg!r} is neither a file nor a shipped strategy ("
                            + ", ".join(sorted(p.stem for p in STRATEGY_DIR.glob("*.txt"))) + ")")


def main(argv: list[str] | None = None) -> int:
    """`python -m simulator.engines.regions.sim A B [--games N] [--seed S]` prints the versus JSON;
    `--round-robin [A B ...]` the matrix (every shipped strategy by default). Exit 2 for a bad argument or a
    strategy that does not parse (its errors name line and column)."""
    import argparse
    import sys

    from .strategy import StrategyError

    ap = argparse.ArgumentParser(prog="python -m simulator.engines.regions.sim",
                                 description="Heroes and Regions: strategy against strategy.")
    ap.add_argument("strategies", nargs="*", help="strategy files, or names of shipped strategies")
    ap.add_argument("--games", type=int, default=None)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--max-turns", type=int, default=DEFAULT_MAX_TURNS)
    ap.add_argument("--policy", default=None,
                    help="strategy (default), random, search or search:N, search-tree or search-tree:N")
    ap.add_argument("--opponent-policy", default=None, help="the same for the opponent")
    ap.add_argument("--hero", help="play the first strategy with this Hero instead of its hero: line")
    ap.add_argument("--opponent-hero", help="the same for the opponent")
    ap.add_argument("--round-robin", action="store_true")
    args = ap.parse_args(argv)
    try:
        named = [_read_strategy(a) for a in args.strategies]
        if args.round_robin:
            texts = dict(named) if named else shipped_texts()
            out = round_robin(texts, games=args.games or 400, seed=args.seed, max_turns=args.max_turns)
        else:
            if len(named) != 2:
                ap.error("give two strategies (or --round-robin)")
            out = versus(named[0][1], named[1][1], games=args.games or DEFAULT_GAMES, seed=args.seed,
                         max_turns=args.max_turns, policy=args.policy, opponent_policy=args.opponent_policy,
                         hero=args.hero, opponent_hero=args.opponent_hero)
    except StrategyError as exc:
        print(f"strategy does not parse:\n{exc}", file=sys.stderr)
        return 2
    except (FileNotFoundError, SpecError) as exc:
        print(str(exc), file=sys.stderr)
        return 2
    print(json.dumps(out, indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
