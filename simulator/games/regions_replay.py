"""The replay of a regions run's games on a board of five Regions: /regions/simulate/runs/ID/games/K/?step=N.

The run keeps game 0 as its seed, first player and log; simulator/engines/regions/replay.py plays it again with
the run's strategies and policies and records the board at every decision. This page shows one step:
game K (0-based in the address, "game K+1" on the pages: the first MAX_SAMPLE_GAMES games of the run, played
again from their seeds) at step N (each step has its own address to share), ← / → a step, PageUp / PageDown a turn, Home / End
(static/js/play-keys.js follows the link that names the key). The replay is cached per run and engine version.
"""
from __future__ import annotations

import re

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


LINE_RE = re.compile(r"^T(?P<turn>\d+) (?P<phase>Hero|Purchase|Position|Contest|Cleanup|End)(?: p(?P<seat>\d))?"
                     r"(?: (?:\d{3} )?(?P<rule>§[\d.]+)(?P<where>[^:]*):)? ?(?P<body>.*)$")
SEAT_RE = re.compile(r"\bp(\d)\b")


def names_of(run) -> list[str]:
    """The two sides' strategy names as the run has them (never "player 0")."""
    spec = run.spec or {}
    a = run.deck_name or (spec.get("deck") or {}).get("name") or "First strategy"
    b = run.opponent_name or (spec.get("opponent") or {}).get("name") or "Second strategy"
    return [a, f"{b} (2)" if a == b else b]


def _seats(text: str, names: list[str]) -> str:
    return SEAT_RE.sub(lambda m: names[int(m.group(1))] if int(m.group(1)) < len(names) else m.group(0), text)


def event(line: str, names: list[str]) -> dict:
    """One log line as {"seat", "text", "rule"}: the side's name for "p0", the rest as a sentence, and the rulebook
    section it follows apart from the words (shown as a link)."""
    m = LINE_RE.match(line)
    if m is None:
        return {"seat": None, "text": _seats(line, names), "rule": ""}
    seat = int(m.group("seat")) if m.group("seat") is not None else None
    body = _seats(m.group("body"), names).strip()
    where = (m.group("where") or "").strip()
    name = names[seat] if seat is not None and seat < len(names) else ""
    if name and body.startswith("+"):
        body = f"{name} gets {body[1:]}"
    elif name and body[:1].islower():
        body = f"{name} {body}"
    if where:
        body = f"{where[:1].upper()}{where[1:]}: {body}"
    return {"seat": seat, "text": body[:1].upper() + body[1:], "rule": m.group("rule") or ""}


DECISIONS = {"hero": "Hero phase", "purchase": "Purchase", "pocket": "Pocket", "position": "Position",
             "contest": "Contest", "capacity": "Capacity", "cleanup": "Clean Up"}


def choice(action: str | None) -> str | None:
    """The engine's choice text ("buy Silver", "place X at Y", "done") as words to follow the side's name."""
    if not action or action == "None":
        return None
    verb, _, rest = action.partition(" ")
    words = {"buy": "buys", "place": "places", "take": "takes", "stash": "stashes", "discard": "discards",
             "play": "plays", "reveal": "reveals", "trash": "trashes", "move": "moves"}
    if verb == "done":
        return "is done"
    if verb == "pass":
        return "passes"
    return f"{words.get(verb, verb)} {rest}".strip()


def replay_page(request, run, game_spec, index: int):
    """Game `index` of a run, with the report as the way back and the run's Share control."""
    from simulator.engines.regions.replay import MAX_SAMPLE_GAMES
    from simulator.views_play import replay_share_context

    from .views import asked_step, replay_url

    sample = (run.result or {}).get("sample_log") if run.status == "done" else None
    if not sample or not (run.spec or {}).get("deck"):
        raise Http404("This run has no sample game.")
    n_games = min(MAX_SAMPLE_GAMES, run.spec["games"])
    if not 0 <= index < n_games:
        raise Http404(f"The games of this run to replay are games 1 to {n_games}; there is no game {index + 1}.")
    data = replay_data(run, index)
    at = asked_step(request, len(data["steps"]))
    context = board_context(data, at, index, n_games, names_of(run),
                            lambda k, step=None: replay_url("regions", run.ref, k, step))
    context.update({"game": game_spec, "run": run, "back_url": run.get_absolute_url(),
                    "back_label": f"The report of run #{run.pk}"})
    context.update(replay_share_context(request, run, lambda ref: replay_url("regions", ref, index, at)))
    return render(request, "games/regions/replay.html", context)


def board_context(data: dict, at: int, k: int, n_games: int, names: list[str], url) -> dict:
    """The page's words and board at step `at` of a replayed game (`data`: replay_game's); `url(k, step)` is the
    address of game k at a step (step None: its first)."""
    steps = data["steps"]
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

    def link(i):
        return None if i is None or i == at or not 0 <= i < len(steps) else url(k, i)

    players = [dict(p, index=i, name=names[i] if i < 2 else f"Player {i + 1}", policy=data["policies"][i])
               for i, p in enumerate(b["players"])]
    regions = [dict(r, rows=_stack_rows(r, n), number=j + 1) for j, r in enumerate(b["regions"])]
    actor = names[step["player"]] if step["player"] is not None and step["player"] < 2 else None
    return {
        "data": data, "k": k, "number": k + 1,
        "games": [{"n": j + 1, "url": url(j), "now": j == k} for j in range(n_games)],
        "at": at, "total": len(steps),
        "step": step, "board": b, "players": players, "regions": regions, "names": names,
        "events": [event(line, names) for line in step["lines"]],
        "decision_label": DECISIONS.get(step.get("decision") or "", step.get("decision")),
        "next_choice": choice(step.get("action")) if actor else None,
        "winner_name": names[data["winner"]] if data["winner"] is not None and data["winner"] < 2 else None,
        "first_name": names[data["first_player"]] if data["first_player"] < 2 else "",
        "phase_label": PHASE_LABELS.get(b["phase"], b["phase"]),
        "phases": [{"key": key, "label": PHASE_LABELS[key], "now": key == b["phase"]} for key in PHASES],
        "track": _track(b["players"], b["recognition_total"]),
        "turns": [{"turn": t, "step": i, "url": url(k, i), "now": t == b["turn"]} for t, i in turn_starts],
        "links": {"first": link(0), "prev": link(at - 1), "next": link(at + 1), "last": link(len(steps) - 1),
                  "prev_turn": link(prev_turn), "next_turn": link(next_turn)},
        "actor": actor,
    }
