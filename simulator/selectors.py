"""Reads for simulation runs (STYLE §7)."""
from __future__ import annotations

from django.db.models import QuerySet

from .models import SimulationRun


def runs_for(request) -> QuerySet[SimulationRun]:
    """The runs this visitor owns (simulator/access.py): a signed-in user's, or an anonymous visitor's session's."""
    from .access import owned_runs

    fields = ("id", "mode", "status", "progress", "games", "seed", "settings", "engine_version", "deck_name",
              "deck_hash", "deck_legal", "opponent_name", "opponent_hash", "created_at", "finished_at", "error",
              "result", "share_token", "spec")
    return owned_runs(request, SimulationRun).only(*fields)


def decklist_text_for(decklist_id) -> str | None:
    """A published decklist's text (named by its title), for "Simulate this decklist"; None if there is none.
    Published decklists are public."""
    from decks.decklist import export_decklist
    from decks.models import Decklist
    from decks.pool import CardPool

    try:
        decklist_id = int(decklist_id)
    except (TypeError, ValueError):
        return None
    if not 0 < decklist_id < 2**62:
        return None
    decklist = Decklist.objects.filter(pk=decklist_id).only("title", "cards").first()
    if decklist is None:
        return None
    return export_decklist(dict(decklist.cards), CardPool.from_db(), name=decklist.title)


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


def saved_decks_for(*, user, limit: int = 200) -> list[tuple[int, str]]:
    """(id, "name · faction") of the signed-in player's own decks, newest save first, for choosing one on the
    simulate page; nobody else's, and nothing for a visitor."""
    from decks.selectors import deck_list_owned

    rows = deck_list_owned(user=user).values_list("pk", "name", "faction__name")[:limit]
    return [(pk, f"{name} · {faction}" if faction else name) for pk, name, faction in rows]


def published_decklists(*, query: str = "", chosen=None, limit: int = 12) -> list[dict]:
    """Published decklists for the playtest table's picker: those titled like `query`, most liked first,
    with the one already `chosen` (a Decklist) kept at the top. Each: id, title, faction, whether it is one of the
    site's starter decks (published by its own account, `publishstarters`), author, likes, address."""
    from decks.selectors import decklists_titled
    from decks.services import STARTER_ACCOUNT

    rows = decklists_titled(query=query, limit=limit)
    if chosen is not None:
        rows = [chosen] + [d for d in rows if d.pk != chosen.pk]
    return [{"id": d.pk, "title": d.title, "faction": d.faction.name if d.faction else None,
             "starter": d.owner.username == STARTER_ACCOUNT, "author": d.owner.username, "likes": d.like_count,
             "url": d.get_absolute_url()} for d in rows]


def published_decklist(pk) -> object | None:
    """The published decklist with this id, or None."""
    from decks.models import Decklist

    try:
        pk = int(pk)
    except (TypeError, ValueError):
        return None
    return Decklist.objects.select_related("owner", "faction").filter(pk=pk).first()


def decklist_text(decklist) -> str:
    """A published decklist as decklist text (its frozen cards), named by its title."""
    from decks.decklist import export_decklist
    from decks.pool import CardPool

    return export_decklist(decklist.cards, CardPool.from_db(), name=decklist.title)
