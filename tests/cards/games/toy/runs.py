"""The toy game's run module (simulator/games/__init__.py describes the interface): goldfish and head-to-head runs
of its engine (engine.py), so the `simulate` command, the simulations API and the Celery workers run it with
nothing but this module and its registration line (game.py `runs=`).

Goldfish: player 0 plays against an opponent that always passes. Versus: the first deck's player against the
second's. Policies: `greedy` plays its highest token, `random` any option at random. The decks are decklists of
the toy set (game.py `card_file`); by §1 every player plays the ten tokens whatever its list, so a deck only
names its side.
"""
from __future__ import annotations

import hashlib
import random

from simulator.engines.common import runs

from .engine import PASS, ToyGame, value
from .game import card_file, check_text, parse_decklist

MODES = ("goldfish", "versus")
POLICIES = ("greedy", "random")
ENGINE_VERSION = "toy-1"
CHUNK = 40   # games a chunk: small, so that a test run has several chunks


def _cards() -> list[dict]:
    return [{**c, "type": "token"} for c in card_file()["cards"]]


def _deck(label: str, text, name: str) -> dict:
    from simulator.games.services import GameSpecError

    if not isinstance(text, str) or not text.strip():
        raise GameSpecError(f"{label}: give the deck as decklist text")
    counts, problems = parse_decklist(text, _cards())
    if problems:
        raise GameSpecError(f"{label}: " + "; ".join(p["message"] for p in problems))
    return {"name": name or "", "counts": counts, "legal": check_text(text, _cards())["legal"],
            "hash": hashlib.sha256(runs.canonical_json(counts).encode()).hexdigest()}


def build_spec(*, mode: str, text: str, opponent_text: str | None = None, games=None, seed=0, policy=None,
               opponent_policy=None, fmt=None, deck_name="", opponent_name="") -> dict:
    from simulator.games.services import GameSpecError

    if mode not in MODES:
        raise GameSpecError(f"mode: toy runs are goldfish or versus, not {mode!r}")
    games = 100 if games is None else games
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= 100_000:
        raise GameSpecError("games: a whole number from 1 to 100,000")
    policies = [policy or "greedy", opponent_policy or "greedy"]
    for key, name in zip(("policy", "opponent_policy"), policies):
        if name not in POLICIES:
            raise GameSpecError(f"{key}: greedy or random, not {name!r}")
    spec = {"game": "toy", "mode": mode, "games": games, "seed": seed, "engine_version": ENGINE_VERSION,
            "settings": {"policy": policies[0]}, "deck": _deck("text", text, deck_name)}
    if mode == "versus":
        spec["settings"]["opponent_policy"] = policies[1]
        spec["opponent"] = _deck("opponent", opponent_text, opponent_name)
    elif opponent_text:
        raise GameSpecError("opponent: only a versus run has an opponent deck")
    return spec


def chunk_plan(mode: str, games: int, settings: dict | None = None) -> list[tuple[int, int, int]]:
    return runs.chunk_plan(games, CHUNK)


def _choose(policy: str, options: list, rng: random.Random):
    if policy == "random":
        return options[rng.randrange(len(options))]
    plays = [a for a in options if a != PASS]
    return max(plays, key=lambda a: value(a[1])) if plays else PASS


def run_chunk(spec: dict, index: int) -> dict:
    """Chunk `index`'s counts: wins, losses, draws, turns and score totals."""
    _, start, size = chunk_plan(spec["mode"], spec["games"])[index]
    rng = random.Random(runs.chunk_seed(spec["seed"], index))
    settings = spec["settings"]
    policies = (settings["policy"], settings.get("opponent_policy"))
    part = {**runs.empty_versus_counts("turns"), "score": [0, 0]}
    for _ in range(size):
        game = ToyGame(rng.getrandbits(63))
        choice = random.Random(rng.getrandbits(63))
        while not game.is_terminal():
            p = game.current_player()
            if spec["mode"] == "goldfish" and p == 1:
                game.apply_action(PASS)         # §3: the goldfish passes every turn, never playing a token
            else:
                game.apply_action(_choose(policies[p], game.legal_actions(), choice))
        a, b = game.returns()
        runs.add_versus_result(part, 0 if a > b else 1 if b > a else None, 0, "score", game.turn, "turns")   # §4
        runs.add_list(part["score"], [sum(value(c) for c in row) for row in game.row])
    return part


def merge(mode: str, parts: list[dict]) -> dict:
    out = {**runs.empty_versus_counts("turns"), "score": [0, 0]}
    for part in parts:
        runs.merge_versus_counts(out, part, "turns")
        runs.add_list(out["score"], part["score"])
    return out


def finalize(spec: dict, merged: dict) -> dict:
    n = merged["games"]
    result = {"game": "toy", "mode": spec["mode"], "games": n, "seed": spec["seed"],
              "wins": merged["wins"], "losses": merged["losses"], "draws": merged["draws"],
              "win_rate": merged["wins"] / n, "ci95": runs.wilson_interval(merged["wins"], n),
              "mean_rounds": merged["turns_sum"] / n, "first_player_win_rate": merged["first_player_wins"] / n,
              "mean_score": [s / n for s in merged["score"]],
              "turns": {k: merged["turns"][k] for k in sorted(merged["turns"], key=int)},
              "policy": spec["settings"]["policy"],
              "deck": spec["deck"], "engine_version": spec["engine_version"], "settings": spec["settings"]}
    if spec["mode"] == "versus":
        result["policies"] = [spec["settings"]["policy"], spec["settings"]["opponent_policy"]]
        result["opponent"] = spec["opponent"]
    return result


def request_key(spec: dict) -> str:
    body = {k: spec[k] for k in ("game", "mode", "games", "seed", "settings", "engine_version")}
    body["decks"] = [spec["deck"]["hash"], (spec.get("opponent") or {}).get("hash")]
    return hashlib.sha256(runs.canonical_json(body).encode()).hexdigest()


def run_fields(spec: dict) -> dict:
    opponent = spec.get("opponent") or {}
    return {"deck_name": spec["deck"]["name"], "deck_hash": spec["deck"]["hash"], "deck_counts": spec["deck"]["counts"],
            "deck_legal": spec["deck"]["legal"], "opponent_name": opponent.get("name") or "",
            "opponent_hash": opponent.get("hash") or "", "opponent_counts": opponent.get("counts")}


def report_text(result: dict) -> str:
    """The command's words for a toy run."""
    return (f"toy {result['mode']}: {result['games']} games, seed {result['seed']}: wins {result['wins']}, "
            f"losses {result['losses']}, draws {result['draws']}; mean score "
            + " / ".join(f"{s:.2f}" for s in result["mean_score"]))
