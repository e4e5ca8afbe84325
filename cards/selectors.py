"""Reads from the catalogue (STYLE §7). Views and the API call these; none of them writes."""
from __future__ import annotations

import datetime
import random

from django.db.models import Count, Q, QuerySet

from cards.games.r1.facts import CARD_TYPES, FACTIONS, ICONS

from .cardfile import KNOWN_KEYS
from .models import Card, CardSet, CostKind, Faction
from .search import SearchError, compile_q, parse_query, sort_cards


def card_search(*, q: str = "", faction: str | None = None, card_type: str | None = None,
                sort: str | None = None, user=None) -> QuerySet[Card]:
    """Cards matching the search `q` (CONTRACTS §5), narrowed by the faction/type filter buttons of /cards/.

    Raises SearchError (message, position) for a malformed query or filter.
    """
    query = parse_query(q or "")
    condition = compile_q(query, user=user)
    if faction:
        if faction not in FACTIONS:
            raise SearchError(f'unknown faction filter "{faction}"; factions are {", ".join(FACTIONS)}', 1)
        condition &= Q(faction__slug=faction)
    if card_type:
        if card_type not in CARD_TYPES:
            raise SearchError(f'unknown type filter "{card_type}"; types are {", ".join(CARD_TYPES)}', 1)
        condition &= Q(type=card_type)
    return sort_cards(Card.objects.filter(condition).select_related("faction", "card_set"), sort)


def card_ids(cards: QuerySet[Card]) -> QuerySet:
    """The primary keys of a search, in its order. Paginating these and then fetching one page of full rows
    (`cards_by_ids`) keeps the database from sorting whole card rows: measured in docs/performance.md."""
    return cards.values_list("pk", flat=True)


def cards_by_ids(ids) -> list[Card]:
    """Full cards for one page of ids, in that order. Factions and sets (a handful of rows) are fetched once
    and shared rather than joined and rebuilt for every card; the timestamps are not needed to show a card."""
    ids = list(ids)
    if not ids:
        return []
    found = Card.objects.defer("created_at", "updated_at").in_bulk(ids)
    factions = {f.pk: f for f in Faction.objects.all()}
    sets = {s.pk: s for s in CardSet.objects.filter(pk__in={c.card_set_id for c in found.values()})}
    cards = []
    for pk in ids:
        card = found.get(pk)
        if card is not None:
            card.faction = factions[card.faction_id]
            card.card_set = sets[card.card_set_id]
            cards.append(card)
    return cards


# The columns a CONTRACTS §1 card dict is made of, read as plain values: the API pages through these rather than
# building a model instance per card (about three times less work per page, docs/performance.md).
CARD_DATA_COLUMNS = (
    "code", "name", "subtitle", "type", "faction__slug", "cost_kind", "cost_value", "power_is_x", "power",
    *(f"icon_{icon}" for icon in ICONS), "attributes", "unique", "loyalty", "keywords", "text",
    "wealth", "momentum", "spoils", "levy", "deckbuilding", "abilities", "flavor", "illustrator", "number",
    "quantity",
)


def card_rows(cards: QuerySet[Card]) -> QuerySet:
    """A search as rows of CARD_DATA_COLUMNS, in its order (for paging; see card_data_from_row)."""
    return cards.values(*CARD_DATA_COLUMNS)


def card_data_from_row(row: dict) -> dict:
    """One row of card_rows() as the CONTRACTS §1 dict, exactly what Card.to_data() gives (tested)."""
    kind = row["cost_kind"]
    data = {
        "code": row["code"], "name": row["name"], "subtitle": row["subtitle"], "type": row["type"],
        "faction": row["faction__slug"],
        "cost": row["cost_value"] if kind == CostKind.NUMBER else (kind or None),
        "power": "X" if row["power_is_x"] else row["power"],
        "icons": [icon for icon in ICONS if row[f"icon_{icon}"]],
        "attributes": list(row["attributes"] or []), "unique": row["unique"], "loyalty": row["loyalty"],
        "keywords": list(row["keywords"] or []), "text": row["text"],
        "wealth": row["wealth"], "momentum": row["momentum"], "spoils": row["spoils"], "levy": row["levy"],
        "deckbuilding": row["deckbuilding"], "abilities": row["abilities"], "flavor": row["flavor"],
        "illustrator": row["illustrator"], "number": row["number"], "quantity": row["quantity"],
    }
    return {key: data[key] for key in KNOWN_KEYS}


def card_get(*, code: str) -> Card | None:
    return Card.objects.select_related("faction", "card_set").filter(code=code).first()


def card_versions(card: Card) -> list[Card]:
    """Other cards with the same name: they share one copy limit (§2.3, §11)."""
    return list(Card.objects.filter(name__iexact=card.name).exclude(pk=card.pk)
                .select_related("faction", "card_set").order_by("code"))


def card_neighbours(card: Card) -> tuple[Card | None, Card | None]:
    """The cards before and after this one in its set's numbering, for browsing a set card by card."""
    if card.number is None:
        return None, None
    in_set = Card.objects.filter(card_set_id=card.card_set_id, number__isnull=False).only("code", "name", "subtitle")
    before = in_set.filter(Q(number__lt=card.number) | Q(number=card.number, code__lt=card.code)) \
        .order_by("-number", "-code").first()
    after = in_set.filter(Q(number__gt=card.number) | Q(number=card.number, code__gt=card.code)) \
        .order_by("number", "code").first()
    return before, after


def card_count() -> int:
    return Card.objects.count()


def faction_list() -> list[Faction]:
    """The factions with how many cards each has, in their §1.2 order."""
    return list(Faction.objects.annotate(card_count=Count("cards")).order_by("position"))


def featured_cards(*, count: int = 6, day: datetime.date | None = None) -> list[Card]:
    """A few draw cards for the home page: a different handful each day, the same all day long."""
    day = day or datetime.date.today()
    ids = list(Card.objects.filter(type__in=("unit", "location", "attachment", "deed"))
               .order_by("pk").values_list("pk", flat=True))
    chosen = random.Random(day.toordinal()).sample(ids, min(count, len(ids)))
    return cards_by_ids(chosen)


def game_cards(game: str) -> list[dict]:
    """Every card of a game other than r1 as its card dict (the game's hooks' input), in catalogue order."""
    from .models import GameCard

    return [c.to_data() for c in GameCard.objects.filter(game=game).select_related("card_set")]


def game_card(game: str, code: str):
    from .models import GameCard

    return GameCard.objects.filter(game=game, code=code).select_related("card_set").first()
