"""Reads of decks and formats. Visibility is decided here, once: a private deck exists only for its owner."""
from __future__ import annotations

from django.db.models import Q, QuerySet

from .legality import FormatRules
from .models import Deck, DeckCard, DeckVersion, Format


def deck_list_owned(*, user) -> QuerySet[Deck]:
    if not user.is_authenticated:
        return Deck.objects.none()
    return Deck.objects.filter(owner=user).select_related("faction", "destiny")


def deck_list_visible(*, user) -> QuerySet[Deck]:
    """Decks the user may read: their own, and other players' decks that are not private."""
    visible = Q(is_private=False)
    if user.is_authenticated:
        visible |= Q(owner=user)
    return Deck.objects.filter(visible).select_related("faction", "destiny", "owner")


def deck_versions(*, deck: Deck) -> QuerySet[DeckVersion]:
    return deck.versions.order_by("-number")


def deck_ids_containing_card(*, code: str) -> QuerySet:
    """Ids of decks whose current list holds this card: one scan of the (card_code, deck) index."""
    return DeckCard.objects.filter(card_code=code).values_list("deck_id", flat=True)


def format_active() -> FormatRules | None:
    """The active organised-play format, or None: pre-launch none is active (§11)."""
    fmt = Format.objects.filter(active=True).prefetch_related("banned", "restricted").first()
    return fmt.to_rules() if fmt else None


def format_by_slug(slug: str) -> FormatRules | None:
    fmt = Format.objects.filter(slug=slug).first()
    return fmt.to_rules() if fmt else None


def version_changes(old: dict[str, int] | None, new: dict[str, int]) -> dict[str, dict[str, int]]:
    """+/- cards between two versions: {"added": {code: n}, "removed": {code: n}}."""
    old = old or {}
    added = {c: n - old.get(c, 0) for c, n in new.items() if n > old.get(c, 0)}
    removed = {c: n - new.get(c, 0) for c, n in old.items() if n > new.get(c, 0)}
    return {"added": added, "removed": removed}
