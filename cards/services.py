"""Writes to the catalogue. Every load is one transaction: a file with any bad card stores nothing."""
from __future__ import annotations

from dataclasses import dataclass, field

from django.db import connection, transaction

from .cardfile import CardFile, card_to_json
from .models import Card, CardSet, Faction


@dataclass
class LoadSummary:
    created: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    rewritten: list[str] = field(default_factory=list)


def _apply(card: Card, data: dict, faction: Faction, card_set: CardSet) -> None:
    card.name = data["name"]
    card.subtitle = data["subtitle"]
    card.type = data["type"]
    card.faction = faction
    card.card_set = card_set
    card.cost = data["cost"]
    card.power_is_x = data["power"] == "X"
    card.power = None if data["power"] in (None, "X") else data["power"]
    card.icons = data["icons"]
    card.attributes = data["attributes"]
    card.unique = data["unique"]
    card.loyalty = data["loyalty"]
    card.keywords = data["keywords"]
    card.text = data["text"]
    for stat in ("wealth", "momentum", "spoils", "levy"):
        setattr(card, stat, data[stat])
    card.deckbuilding = data["deckbuilding"]
    card.abilities = data["abilities"]
    card.flavor = data["flavor"]
    card.illustrator = data["illustrator"]
    card.number = data["number"]
    card.quantity = data["quantity"]


@transaction.atomic
def card_files_load(*, card_files: list[CardFile]) -> LoadSummary:
    """Insert or update every card of already-validated files by `code` (CONTRACTS §1)."""
    summary = LoadSummary()
    factions = {f.slug: f for f in Faction.objects.all()}
    for cf in card_files:
        if cf.errors:
            raise ValueError("card_files_load() was given a file with errors")
        position = CardSet.objects.count()
        card_set, _ = CardSet.objects.update_or_create(
            code=cf.set_code, defaults={"name": cf.set_name}, create_defaults={"name": cf.set_name,
                                                                               "position": position})
        existing = {c.code: c for c in Card.objects.filter(code__in=[d["code"] for d in cf.cards])
                    .select_related("faction", "card_set")}
        for data in cf.cards:
            card = existing.get(data["code"])
            if card is None:
                card = Card(code=data["code"])
                _apply(card, data, factions[data["faction"]], card_set)
                card.save()
                summary.created.append(card.code)
                continue
            if card_to_json(card.to_data()) == card_to_json(data) and card.card_set_id == card_set.id:
                summary.unchanged.append(card.code)
                continue
            _apply(card, data, factions[data["faction"]], card_set)
            card.save()
            summary.updated.append(card.code)
        summary.rewritten.extend(cf.rewritten)
    if summary.created or summary.updated:
        # Card search picks its index from table statistics, which SQLite only has after ANALYZE
        # (docs/performance.md, card search).
        with connection.cursor() as cursor:
            cursor.execute(f"ANALYZE {connection.ops.quote_name(Card._meta.db_table)}")
    return summary
