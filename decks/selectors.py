"""Reads of decks and formats. Visibility is decided here, once: a private deck exists only for its owner."""
from __future__ import annotations

from datetime import date, datetime, time, timedelta

from django.db.models import Q, QuerySet, Sum
from django.utils import timezone

from .collection import deck_shortfall
from .legality import FormatRules
from .models import (CollectionCard, Deck, DeckCard, Decklist, DecklistCard, DecklistTally, DeckVersion,
                     Format)


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


def deck_counts_by_deck(*, deck_ids) -> dict[int, dict[str, int]]:
    """The current cards (code -> count) of several decks in one query, by deck id (My decks' legality column)."""
    out: dict[int, dict[str, int]] = {}
    for deck_id, code, n in DeckCard.objects.filter(deck_id__in=list(deck_ids)).values_list(
            "deck_id", "card_code", "count"):
        out.setdefault(deck_id, {})[code] = n
    return out


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


# ---- collection ------------------------------------------------------------------------------------
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


# ---- published decklists ---------------------------------------------------------------------------
DECKLIST_SORTS = {"date": ("-published_at", "-id"), "likes": ("-like_count", "-published_at", "-id")}
DRIVER_PROBE_ROWS = 10_000  # with several cards, the list is driven by the rarest, counted up to this many rows


class DecklistFilterError(ValueError):
    """A decklist filter that cannot be applied: an unknown sort, faction or destiny, dates the wrong way round."""


def _day_start(day: date) -> datetime:
    return datetime.combine(day, time.min, tzinfo=timezone.get_current_timezone())


def _rarest_first(codes: list[str]) -> list[str]:
    """The codes, the one held by the fewest decklists first (each counted on the index, up to a cap)."""
    if len(codes) < 2:
        return codes
    held = {code: DecklistCard.objects.filter(card_code=code)[:DRIVER_PROBE_ROWS].count() for code in codes}
    return sorted(codes, key=lambda code: held[code])


def decklist_search(*, faction: str | None = None, destiny: str | None = None, cards: list[str] | None = None,
                    query: str | None = None, author: str | None = None, since: date | None = None,
                    until: date | None = None, sort: str = "date", user=None,
                    favourites_of=None) -> QuerySet[Decklist]:
    """Published decklists, filtered. `cards`: every code must be in the list; `query`: at least one card of the
    list matches the card search (CONTRACTS §5); `author`: part of the author's user name, in any case;
    `since`/`until`: publication days, both included;
    `favourites_of`: only that user's favourites. Raises DecklistFilterError (a ValueError) for an unknown sort,
    faction or destiny, `until` before `since` or a NUL character; SearchError for a bad query.

    How it stays fast at 1,000,000 lists (docs/performance.md): the faction and destiny are resolved to
    ids first, so the (faction, -published_at) index applies; with cards, the rarest card's rows drive the query
    along the index (card_code, -published_at, -decklist, faction) — newest first, faction and dates checked in
    the index — so the newest 50 lists holding X are one index range, and the count reads that index only; with
    no filter or only a faction, the count is read from `DecklistTally`.
    """
    from cards.models import Card, Faction

    if sort not in DECKLIST_SORTS:
        raise DecklistFilterError(f"sort must be one of {', '.join(DECKLIST_SORTS)}, not {str(sort)[:20]!r}.")
    if since and until and until < since:
        raise DecklistFilterError(f"until ({until.isoformat()}) is before since ({since.isoformat()}).")
    texts = [("faction", faction), ("destiny", destiny), ("author", author)] + [("card", c) for c in cards or ()]
    for name, value in texts:
        if value and "\x00" in value:  # PostgreSQL refuses NUL in text: a 400, not a database error
            raise DecklistFilterError(f"{name} contains a NUL character.")
    faction_id = destiny_id = None
    if faction:
        faction_id = Faction.objects.filter(slug=faction).values_list("pk", flat=True).first()
        if faction_id is None:
            slugs = ", ".join(Faction.objects.exclude(slug="neutral").values_list("slug", flat=True))
            raise DecklistFilterError(f"No faction {str(faction)[:40]!r}: one of {slugs}.")
    if destiny:
        destiny_id = Card.objects.filter(code=destiny, type="destiny").values_list("pk", flat=True).first()
        if destiny_id is None:
            raise DecklistFilterError(f"No destiny card with code {str(destiny)[:40]!r}.")
    start = _day_start(since) if since else None
    end = _day_start(until + timedelta(days=1)) if until and until < date.max else None
    qs = Decklist.objects.select_related("owner", "faction", "destiny")
    count_query = None
    codes = _rarest_first(list(dict.fromkeys(cards or ())))
    if codes:
        # One join with the driving card's rows; faction and dates are checked on the copies kept there.
        rows = {"card_code": codes[0]}
        if faction_id is not None:
            rows["faction_id"] = faction_id
        if start:
            rows["published_at__gte"] = start
        if end:
            rows["published_at__lt"] = end
        qs = qs.filter(**{f"card_rows__{key}": value for key, value in rows.items()})
        count_query = DecklistCard.objects.filter(**rows)
        for code in codes[1:]:
            others = DecklistCard.objects.filter(card_code=code).values("decklist_id")
            qs = qs.filter(pk__in=others)
            count_query = count_query.filter(decklist_id__in=others)
    else:
        if faction_id is not None:
            qs = qs.filter(faction_id=faction_id)
        if start:
            qs = qs.filter(published_at__gte=start)
        if end:
            qs = qs.filter(published_at__lt=end)
    if destiny_id is not None:
        qs = qs.filter(destiny_id=destiny_id)
    if author:
        # Part of the name, in any case ("ali" finds Alice and Khalid): people remember names, not spellings.
        from django.contrib.auth import get_user_model

        qs = qs.filter(owner_id__in=get_user_model().objects.filter(username__icontains=author).values("pk"))
    if favourites_of is not None:
        qs = qs.filter(favourites__user=favourites_of)
    if query:
        from cards.search import search_cards

        card_codes = search_cards(query, user=user).values("code")
        qs = qs.filter(pk__in=DecklistCard.objects.filter(card_code__in=card_codes).values("decklist_id"))
    if codes and sort == "date":
        # The same order as ("-published_at", "-id"), read off the driving card's rows (the index order).
        qs = qs.order_by("-card_rows__published_at", "-card_rows__decklist_id")
    else:
        qs = qs.order_by(*DECKLIST_SORTS[sort])
    if destiny_id is None and not author and favourites_of is None and not query:
        if count_query is not None:  # cards (faction, dates): the card rows' index only
            qs._fast_count = count_query.count
        elif not start and not end:  # nothing, or only a faction: the tally kept by the database
            tally = DecklistTally.objects.all() if faction_id is None else \
                DecklistTally.objects.filter(faction_key=faction_id)
            qs._fast_count = lambda: int(tally.aggregate(n=Sum("n"))["n"] or 0)
    return qs


def decklists_titled(*, query: str = "", limit: int = 12) -> list[Decklist]:
    """Published decklists whose title holds `query` (any case; all of them with no query), most liked first,
    then newest, for a picker (the playtest table's AI deck). Owner and faction come with them."""
    qs = Decklist.objects.select_related("owner", "faction")
    query = (query or "").strip()
    if query:
        qs = qs.filter(title__icontains=query)
    return list(qs.order_by("-like_count", "-published_at", "-id")[:limit])


def decklist_ids_containing_card(*, code: str) -> QuerySet:
    """Ids of published decklists holding this card: one range of the (card_code, -published_at, ...) index."""
    return DecklistCard.objects.filter(card_code=code).values_list("decklist_id", flat=True)


def decklists_with_card(*, code: str, limit: int = 8) -> tuple[list[Decklist], int]:
    """The newest `limit` published decklists holding this card and how many hold it, for the card's page.

    Both come off the card rows' index (card_code, -published_at, -decklist, faction), as in `decklist_search`:
    one index range for the lists and an index-only count (docs/performance.md: 0.3 ms and 5.4 ms for a card in a
    third of 1,000,000 lists)."""
    qs = decklist_search(cards=[code])
    return list(qs[:limit]), qs.count()


# ---- comments on published decklists -------------------------------------------------------------
def comment_can_moderate(*, comment, user) -> bool:
    """Hide a comment: the decklist's author and staff."""
    return bool(user is not None and user.is_authenticated
                and (user.is_staff or comment.decklist.owner_id == user.pk))


def comment_can_delete(*, comment, user) -> bool:
    """Delete a comment: its writer too, besides the decklist's author and staff."""
    return bool(user is not None and user.is_authenticated
                and (comment.author_id == user.pk or comment_can_moderate(comment=comment, user=user)))


def decklist_comments(*, decklist: Decklist, user) -> QuerySet:
    """A decklist's comments as this visitor may see them, oldest first: every comment that is not hidden; hidden
    ones too for the decklist's author and staff, and for their writer (each is marked hidden on the page)."""
    from .models import DecklistComment

    qs = DecklistComment.objects.filter(decklist=decklist).select_related("author").order_by("created_at", "id")
    if user is not None and user.is_authenticated and (user.is_staff or decklist.owner_id == user.pk):
        return qs
    visible = Q(hidden_at__isnull=True)
    if user is not None and user.is_authenticated:
        visible |= Q(author=user)
    return qs.filter(visible)


def decklist_comment_counts(*, decklist_ids) -> dict[int, int]:
    """Visible (not hidden) comments per decklist, for a page of the decklist browser: one grouped query."""
    from django.db.models import Count

    from .models import DecklistComment

    rows = (DecklistComment.objects.filter(decklist_id__in=list(decklist_ids), hidden_at__isnull=True)
            .values("decklist_id").annotate(n=Count("id")).values_list("decklist_id", "n"))
    return dict(rows)
