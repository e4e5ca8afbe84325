"""Pages to watch, judge and play (issue 14): game replays, the judge sandbox and the playtest table.

Views only translate (STYLE §8): they read the request, call simulator/replay.py, playtest.py and the engine's
judge, and render. Boards are built from a PlayerView (replay.board_of): nothing hidden is sent to a page.
"""
from __future__ import annotations

import json

from django.core.cache import cache
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from . import replay, selectors
from .api import anonymous_key


# ---------------------------------------------------------------- replays
def _replayed(run, index: int) -> dict:
    key = f"replay:{run.pk}:{index}:{run.engine_version}"
    out = cache.get(key)
    if out is None:
        out = replay.replay_run_game(run.spec, index)
        cache.set(key, out, 3600)
    return out


def _step_targets(frames: list[dict], step: int) -> dict:
    """Where each stepping control goes from `step`: event, struggle and round, back and forward."""
    n = len(frames)

    def find(rng, pred):
        return next((i for i in rng if pred(frames[i])), None)

    starts = [i for i in range(n) if i == 0 or frames[i]["round"] != frames[i - 1]["round"]]

    def struggle_line(f):
        return any(" S.8" in x or "S.8 " in x for x in f["raw"])
    return {
        "prev": step - 1 if step > 0 else None, "next": step + 1 if step < n - 1 else None,
        "first": 0, "last": n - 1,
        "prev_struggle": find(range(step - 1, -1, -1), struggle_line),
        "next_struggle": find(range(step + 1, n), struggle_line),
        "prev_round": max((i for i in starts if i < step), default=None),
        "next_round": min((i for i in starts if i > step), default=None),
    }


def replay_page(request, pk: int, index: int):
    run = selectors.run_get(pk)
    if run is None or not selectors.run_visible(run, user=request.user, session_key=anonymous_key(request)):
        raise Http404("No such simulation run.")
    try:
        data = _replayed(run, index)
    except replay.ReplayError as exc:
        return render(request, "simulator/replay_error.html", {"run": run, "message": str(exc)}, status=400)
    frames = data["frames"]
    try:
        step = int(request.GET.get("step", "0"))
    except ValueError:
        step = 0
    step = max(0, min(step, len(frames) - 1))
    frame = frames[step]
    names = list(data["names"])
    targets = _step_targets(frames, step)
    base = reverse("simulator:replay", args=[run.pk, index])
    links = {k: (f"{base}?step={v}" if v is not None else None) for k, v in targets.items()}
    sandbox_pos = frame["position"] or frame["base_position"]
    sandbox_url = None
    if sandbox_pos:
        sandbox_url = reverse("simulator:sandbox") + f"?run={run.pk}&game={index}&step={step}"
    context = {"run": run, "data": data, "frame": frame, "board": frame["board"], "names": names, "step": step,
               "steps": len(frames), "links": links, "index": index,
               "sandbox_url": sandbox_url,
               "sandbox_exact": frame["position"] is not None,
               "actor_name": names[frame["actor"]] if frame["actor"] in (0, 1) else None}
    return render(request, "simulator/replay.html", context)


def _b64(value) -> str:
    import base64
    return base64.urlsafe_b64encode(json.dumps(value, separators=(",", ":")).encode()).decode().rstrip("=")


def _unb64(text: str):
    import base64
    pad = "=" * (-len(text) % 4)
    return json.loads(base64.urlsafe_b64decode(text + pad).decode())


# ---------------------------------------------------------------- placeholders filled in below (playtest, sandbox)
def sandbox(request):
    return render(request, "simulator/sandbox.html", {})


def playtest_new(request):
    raise Http404


def playtest_table(request, token):
    raise Http404


def playtest_act(request, token):
    raise Http404
