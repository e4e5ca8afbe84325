"""Reads of decks and formats. Visibility is decided here, once: a private deck exists only for its owner."""
from __future__ import annotations

from datetime import date

from django.db.models import Q, QuerySet

from .collection import deck_shortfall
from .legality import FormatRules
from .models import CollectionCard, Deck, DeckCard, Decklist, DecklistCard, DeckVersion, Format


def deck_list_owned(*, user) -> QuerySet[Deck]:
    if not user.is_authenticated:
        return Deck.objects.none()
    return Deck.objects.filter(owner=user, deleted_at__isnull=True).select_related("faction", "destiny")


def deck_list_deleted(*, user) -> QuerySet[Deck]:
    """The user's deleted decks, newest deletion first: what "undo" can bring back."""
    if not user.is_authenticated:
        return Deck.objects.none()
    return Deck.objects.filter(owner=user, deleted_at__isnull=False).order_by("-deleted_at")


def deck_list_visible(*, user) -> QuerySet[Deck]:
    """Decks the user may read: their own, and other players' decks that are not private."""
    visible = Q(is_private=False)
    if user.is_authenticated:
        visible |= Q(owner=user)
    return Deck.objects.filter(visible, deleted_at__isnull=True).select_related("faction", "destiny", "owner")


def deck_versions(*, deck: Deck) -> QuerySet[DeckVersion]:
    return deck.versions.order_by("-number")


def deck_ids_containing_card(*, code: str) -> QuerySet:
    """Ids of decks whose current list holds this card: one scan of the (card_code, deck) index."""
    return DeckCard.objects.filter(card_code=code, deck__deleted_at__isnull=True).values_list("deck_id", flat=True)


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


# ---- collection (issue 6) ------------------------------------------------------------------------------------
def collection_counts(*, user) -> dict[str, int]:
    if not user.is_authenticated:
        return {}
    return dict(CollectionCard.objects.filter(user=user).values_list("card_code", "count"))


def owned_codes(user) -> set[str] | None:
    """What `owned:` in card search (CONTRACTS §5) means for this user: the codes they own (a set, so that both
    the database search and `card_matches` on dicts can use it), or None until they record a collection."""
    if not user.is_authenticated:
        return None
    codes = set(CollectionCard.objects.filter(user=user).values_list("card_code", flat=True))
    return codes or None


def deck_buildability(*, deck_counts: dict[str, int], user) -> dict:
    """The copies a deck needs beyond the user's collection, and whether it can be built from it."""
    missing = deck_shortfall(deck_counts, collection_counts(user=user))
    return {"buildable": not missing, "missing": missing}


# ---- published decklists (issue 6) ---------------------------------------------------------------------------
DECKLIST_SORTS = {"date": ("-published_at", "-id"), "likes": ("-like_count", "-published_at", "-id")}


def decklist_search(*, faction: str | None = None, destiny: str | None = None, cards: list[str] | None = None,
                    query: str | None = None, author: str | None = None, since: date | None = None,
                    until: date | None = None, sort: str = "date", user=None,
                    favourites_of=None) -> QuerySet[Decklist]:
    """Published decklists, filtered. `cards`: every code must be in the list; `query`: at least one card of the
    list matches the card search (CONTRACTS §5); `favourites_of`: only that user's favourites. Raises ValueError for an unknown sort; SearchError for a bad query.
    """
    if sort not in DECKLIST_SORTS:
        raise ValueError(f"sort must be one of {', '.join(DECKLIST_SORTS)}, not {sort[:20]!r}")
    qs = Decklist.objects.select_related("owner", "faction", "destiny")
    if faction:
        qs = qs.filter(faction__slug=faction)
    if destiny:
        qs = qs.filter(destiny__code=destiny)
    if author:
        qs = qs.filter(owner__username__iexact=author)
    if since:
        qs = qs.filter(published_at__date__gte=since)
    if until:
        qs = qs.filter(published_at__date__lte=until)
    if favourites_of is not None:
        qs = qs.filter(favourites__user=favourites_of)
    for code in cards or ():
        qs = qs.filter(pk__in=DecklistCard.objects.filter(card_code=code).values("decklist_id"))
    if query:
        from cards.search import search_cards

        codes = search_cards(query, user=user).values("code")
        qs = qs.filter(pk__in=DecklistCard.objects.filter(card_code__in=codes).values("decklist_id"))
    return qs.order_by(*DECKLIST_SORTS[sort])


def decklist_ids_containing_card(*, code: str) -> QuerySet:
    """Ids of published decklists holding this card: one scan of the (card_code, decklist) index (issue 7)."""
    return DecklistCard.objects.filter(card_code=code).values_list("decklist_id", flat=True)
