"""The replay of a regions run's sample game on a board of five Regions: /regions/simulate/runs/ID/replay/.

The run keeps game 0 as its seed, first player and log; simulator/engines/regions/replay.py plays it again with
the run's strategies and policies and records the board at every decision. This page shows one step:
`?game=K&step=N` (0-based: the first MAX_SAMPLE_GAMES games of the run, played again from their seeds; each step has its own address to share), ← / → a step, PageUp / PageDown a turn, Home / End
(static/js/play-keys.js follows the link that names the key). The replay is cached per run and engine version.
"""
from __future__ import annotations

from django.core.cache import cache
from django.http import Http404
from django.shortcuts import render

PHASES = ("hero", "purchase", "position", "contest", "cleanup")
PHASE_LABELS = {"hero": "Hero", "purchase": "Purchase", "position": "Position", "contest": "Contest",
                "cleanup": "Clean Up", "over": "Game over"}


def replay_data(run, k: int) -> dict:
    """Game k of `run` played again with a board per step (cached per run, game and engine version)."""
    from simulator.engines.regions import ENGINE_VERSION
    from simulator.engines.regions.replay import replay_game

    key = f"regions-replay:{run.pk}:{k}:{ENGINE_VERSION}"
    hit = cache.get(key)
    if hit is None:
        hit = replay_game(run.spec, k, (run.result or {}).get("sample_log"))
        cache.set(key, hit, 24 * 3600)
    return hit


def _track(players: list, total: int) -> dict:
    """The Recognition score track: one cell per point from 0 to the highest score (at least the pile's ten)."""
    top = max([total] + [p["score"] for p in players])
    cells = []
    for v in range(top + 1):
        cells.append({"value": v, "who": [i for i, p in enumerate(players) if p["score"] == v]})
    return {"cells": cells, "top": top}


def _stack_rows(region: dict, n: int) -> list:
    """Per player, its Stack in the order drawn: player 1's above the Region (first placed farthest from it, the
    exposed card nearest), player 0's below (the exposed card nearest the Region, so on top)."""
    out = []
    for p in range(n):
        cards = region["stacks"][p]
        k = len(cards)
        tiles = [dict(c, exposed=(i == k - 1)) for i, c in enumerate(cards)]
        if p % 2 == 0:
            tiles.reverse()
        out.append({"player": p, "tiles": tiles, "damage": region["damage"][p], "health": region["health"][p]})
    return out


def replay_page(request, run, game_spec):
    from simulator.engines.regions.replay import MAX_SAMPLE_GAMES

    sample = (run.result or {}).get("sample_log") if run.status == "done" else None
    if not sample or not (run.spec or {}).get("deck"):
        raise Http404("This run has no sample game.")
    n_games = min(MAX_SAMPLE_GAMES, run.spec["games"])
    try:
        k = int(request.GET.get("game", 0))
    except ValueError:
        k = 0
    if not 0 <= k < n_games:
        raise Http404(f"Sample games of this run are 0 to {n_games - 1}.")
    data = replay_data(run, k)
    steps = data["steps"]
    try:
        at = max(0, min(int(request.GET.get("step", 0)), len(steps) - 1))
    except ValueError:
        at = 0
    step = steps[at]
    b = step["board"]
    n = len(b["players"])
    turn_starts = []
    for i, s in enumerate(steps):
        t = s["board"]["turn"]
        if not turn_starts or turn_starts[-1][0] != t:
            turn_starts.append((t, i))
    prev_turn = max((i for t, i in turn_starts if i < at and t < b["turn"]), default=None)
    if prev_turn is None and at > 0:
        prev_turn = 0
    next_turn = min((i for t, i in turn_starts if i > at), default=None)
    base = f"{request.path}?game={k}&" if k else f"{request.path}?"

    def link(i):
        return None if i is None or i == at or not 0 <= i < len(steps) else f"{base}step={i}"

    names = [run.deck_name or (run.spec or {}).get("deck", {}).get("name") or "player 0",
             run.opponent_name or (run.spec or {}).get("opponent", {}).get("name") or "player 1"]
    players = [dict(p, index=i, name=names[i] if i < 2 else f"player {i}", policy=data["policies"][i])
               for i, p in enumerate(b["players"])]
    regions = [dict(r, rows=_stack_rows(r, n), number=k + 1) for k, r in enumerate(b["regions"])]
    context = {
        "game": game_spec, "run": run, "sample": sample, "data": data, "k": k,
        "games": [{"k": j, "url": f"{request.path}?game={j}" if j else request.path, "now": j == k}
                  for j in range(n_games)], "at": at, "total": len(steps),
        "step": step, "board": b, "players": players, "regions": regions, "names": names,
        "phase_label": PHASE_LABELS.get(b["phase"], b["phase"]),
        "phases": [{"key": k, "label": PHASE_LABELS[k], "now": k == b["phase"]} for k in PHASES],
        "track": _track(b["players"], b["recognition_total"]),
        "turns": [{"turn": t, "step": i, "url": f"{base}step={i}", "now": t == b["turn"]} for t, i in turn_starts],
        "links": {"first": link(0), "prev": link(at - 1), "next": link(at + 1), "last": link(len(steps) - 1),
                  "prev_turn": link(prev_turn), "next_turn": link(next_turn)},
        "actor": names[step["player"]] if step["player"] is not None and step["player"] < 2 else None,
    }
    from simulator.views_play import replay_share_context
    context.update(replay_share_context(request, run, lambda ref: f"/regions/simulate/runs/{ref}/replay/?game={k}"
                                                                  f"&step={at}"))
    return render(request, "games/regions/replay.html", context)
