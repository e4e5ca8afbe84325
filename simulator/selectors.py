"""Reads for simulation runs (STYLE §7)."""
from __future__ import annotations

from django.db.models import QuerySet

from .models import SimulationRun


def run_get(pk) -> SimulationRun | None:
    try:
        return SimulationRun.objects.filter(pk=int(pk)).first()
    except (TypeError, ValueError):
        return None


def runs_for(*, user, session_key: str = "") -> QuerySet[SimulationRun]:
    """The runs a visitor asked for: a signed-in user's own, or an anonymous visitor's by session/address."""
    fields = ("id", "mode", "status", "progress", "games", "seed", "settings", "engine_version", "deck_name",
              "deck_hash", "deck_legal", "opponent_name", "opponent_hash", "created_at", "finished_at", "error",
              "result")
    if user is not None and user.is_authenticated:
        return SimulationRun.objects.filter(user=user).only(*fields)
    if session_key:
        return SimulationRun.objects.filter(user__isnull=True, session_key=session_key).only(*fields)
    return SimulationRun.objects.none()
