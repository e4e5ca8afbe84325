"""The realms board in the replay viewer (r1's viewer): /simulate/runs/ID/games/N/?step=S for a
realms run. Game N of the run is played again from its seed (simulator/engines/realms/replay.py) and each decision is
a step: the board (Leaders, the Settlements on their grid, Borderlands and Strike Force with CV and Equipment,
Reserves, the VP race), the log lines since the last step and the choice made there. Keyboard: ← → step,
PageUp / PageDown turn, Home / End (static/js/play-keys.js).
"""
from __future__ import annotations

from django.core.cache import cache
from django.shortcuts import render
from django.urls import reverse

from simulator.engines.realms import ENGINE_VERSION
from simulator.engines.realms import replay as rr
from simulator.engines.realms import sim
from simulator.replay import select_step


def replayed(run, index: int) -> dict:
    """Game `index` of a realms run, replayed (cached an hour per run, game and engine version)."""
    key = f"realms-replay:{run.pk}:{index}:{ENGINE_VERSION}"
    out = cache.get(key)
    if out is None:
        spec = run.spec
        if spec.get("engine_version") != ENGINE_VERSION:
            raise rr.ReplayError(f"this run was played by {spec.get('engine_version')}, the engine is now "
                                 f"{ENGINE_VERSION}: its games cannot be replayed exactly")
        args = rr.game_args(spec, index)
        deck_b = sim._engine_deck(spec["opponent"]) if spec["mode"] == "versus" else None
        out = rr.replay_game(sim._engine_deck(spec["deck"]), deck_b, seed=args["seed"],
                             first_player=args["first_player"], policies=args["policies"], fmt=args["fmt"],
                             max_rounds=args["max_rounds"])
        out["index"] = index
        cache.set(key, out, 3600)
    return out


def _names(run) -> list[str]:
    """The decks' names as the run has them, else Deck / Opponent (each side's header shows its revealed Leader)."""
    a = run.deck_name or "Deck"
    b = (run.opponent_name or "Opponent") if run.mode == "versus" else "the goldfish"
    return [a, b + " (2)" if a == b else b]


def replay_page(request, run, index: int):
    from cards.games import registry

    from simulator.views_play import replay_share_context

    try:
        data = replayed(run, index)
    except rr.ReplayError as exc:
        return render(request, "simulator/replay_error.html", {"run": run, "message": str(exc)}, status=400)
    frames = data["frames"]
    step, frame, links = select_step(frames, request.GET.get("step"),
                                     reverse("simulator:replay", args=[run.ref, index]) + "?step=", rr.step_targets)
    names = _names(run)
    board = frame["board"]
    target = board["target_vp"]
    race = []
    for p, pl in enumerate(board["players"]):
        race.append({"name": names[p], "vp": pl["vp"], "pct": min(100, round(100 * pl["vp"] / target)) if target else 0,
                     "seat": p})
    sides = []
    for p, pl in enumerate(board["players"]):
        sides.append({"p": p, "name": names[p], "pl": pl, "active": board["active"] == p and not board["over"]})
    w = data["winner"]
    outcome = (f"{names[w]} won" if w is not None else "No winner") + (
        f" ({'reached the VP, 002 §1' if data['reason'] == 'vp' else 'stalemate at the round cap, R22'}) after "
        f"{data['rounds']} rounds, {data['vp'][0]}–{data['vp'][1]} VP. {names[0]} is player 0; "
        f"{names[data['first_player']]} went first (R13).")
    return render(request, "games/realms/replay.html", {
        "outcome": outcome, "active_name": None if board["over"] or board["step"] in ("leader", "mulligan")
        else names[board["active"]],
        "game": registry.get("realms"), "run": run, "data": data, "frame": frame, "board": board, "names": names,
        "step": step, "steps": len(frames), "links": links, "index": index, "race": race, "sides": sides,
        "ticks": list(range(0, target + 1, 10)), "actor_name": names[frame["actor"]] if frame["actor"] in (0, 1) else None,
        "run_url": run.get_absolute_url(),
        **replay_share_context(request, run, lambda ref: reverse("simulator:replay", args=[ref, index])
                               + f"?step={step}")})
