"""What every simulations API shares (CONTRACTS §4, §7): a run's JSON and who an anonymous visitor is.

Both `simulator/api.py` (r1) and `simulator/games/views.py` (the hosted games) build on this module, so neither
imports the other's views to reach them.
"""
from __future__ import annotations

from . import runner
from .models import SimulationRun


def run_json(run: SimulationRun, request=None) -> dict:
    url = run.get_absolute_url()
    api_url = f"/api/simulations/{run.pk}/"
    if request is not None:
        url = request.build_absolute_uri(url)
        api_url = request.build_absolute_uri(api_url)
    return {
        "id": run.pk, "url": api_url, "page_url": url, "mode": run.mode, "status": run.status,
        "progress": 1.0 if run.status == "done" else round(run.progress, 4),
        "games": run.games, "seed": run.seed, "settings": run.settings, "engine_version": run.engine_version,
        "policies": ([run.settings.get("policy", runner.DEFAULT_POLICY)]
                     + ([run.settings.get("opponent_policy", runner.DEFAULT_POLICY)] if run.mode == "versus" else [])
                     if run.mode != "hands" and isinstance(run.settings, dict) else None),
        "deck": {"name": run.deck_name, "hash": run.deck_hash, "legal": run.deck_legal},
        "opponent": ({"name": run.opponent_name, "hash": run.opponent_hash} if run.mode == "versus" else None),
        "created_at": run.created_at, "finished_at": run.finished_at, "error": run.error or None,
        "result": run.result if run.status == "done" else None,
    }


def anonymous_key(request) -> str:
    """Who an anonymous visitor is, for the in-flight limit: their session, else their address."""
    session = getattr(request, "session", None)
    if session is not None and session.session_key:
        return "s:" + session.session_key
    return "ip:" + (request.META.get("REMOTE_ADDR") or "unknown")
