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


def deck_version_for(*, user, deck_id) -> tuple[object, str] | None:
    """The latest saved version of a deck the visitor may read, and its decklist text; None if not visible.

    Uses the decks app's own visibility rule (a private deck exists only for its owner).
    """
    from decks.decklist import export_decklist
    from decks.pool import CardPool
    from decks.selectors import deck_list_visible

    try:
        deck_id = int(deck_id)
    except (TypeError, ValueError):
        return None
    deck = deck_list_visible(user=user).filter(pk=deck_id).first()
    if deck is None:
        return None
    version = deck.versions.order_by("-number").first()
    if version is None:
        return None
    return version, export_decklist(version.cards, CardPool.from_db(), name=deck.name)
