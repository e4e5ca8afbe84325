"""What every simulations API shares (CONTRACTS §4, §7): a run's JSON and who an anonymous visitor is.

Both `simulator/api.py` (r1) and `simulator/games/views.py` (the hosted games) build on this module, so neither
imports the other's views to reach them.
"""
from __future__ import annotations

from . import runner
from .models import SimulationRun


def run_json(run: SimulationRun, request=None) -> dict:
    """A run as the API gives it. Its addresses name it as the visitor came to it: by id for its owner, by its
    share token for whoever has the shared link (simulator/access.py); `share_url` is the shared link, or null
    while the run is not shared."""
    url = run.get_absolute_url()
    api_url = f"/api/simulations/{run.ref}/"
    share = f"/api/simulations/{run.share_token}/" if run.share_token else None
    if request is not None:
        url = request.build_absolute_uri(url)
        api_url = request.build_absolute_uri(api_url)
        share = request.build_absolute_uri(share) if share else None
    return {
        "id": run.pk, "url": api_url, "page_url": url, "share_url": share, "mode": run.mode, "status": run.status,
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


def anonymous_key(request, *, create: bool = False) -> str:
    """What an anonymous visitor's runs are stored under (simulator/access.py limit_key): their session's owner
    id, else their address, which counts their runs in flight and never makes them an owner."""
    from .access import limit_key

    return limit_key(request, create=create)
