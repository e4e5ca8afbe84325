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
        position = CardSet.all_games.count()
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


@transaction.atomic
def game_card_files_load(*, game: str, card_files: list) -> LoadSummary:
    """Insert or update the cards of already-validated card files of a game other than r1 (CONTRACTS §7), by
    (game, code). The game's `card_to_json` hook gives the stored form; `group` is its `card_group` hook's."""
    from .games import registry
    from .models import GameCard

    spec = registry.get(game)
    to_json = spec.hook("card_to_json")
    group_of = spec.hook("card_group") if spec.has("card_group") else (lambda card: None)
    summary = LoadSummary()
    for cf in card_files:
        if cf.errors:
            raise ValueError("game_card_files_load() was given a file with errors")
        position = CardSet.all_games.count()
        card_set, _ = CardSet.all_games.update_or_create(
            game=game, code=cf.set_code, defaults={"name": cf.set_name},
            create_defaults={"name": cf.set_name, "position": position})
        existing = {c.code: c for c in GameCard.objects.filter(game=game, code__in=[d["code"] for d in cf.cards])}
        for raw in cf.cards:
            data = to_json(raw)
            fields = {"name": data["name"], "subtitle": data.get("subtitle"), "type": data["type"],
                      "group": group_of(data), "card_set": card_set, "number": data.get("number"), "data": data}
            card = existing.get(data["code"])
            if card is None:
                GameCard.objects.create(game=game, code=data["code"], **fields)
                summary.created.append(data["code"])
                continue
            if card.data == data and card.card_set_id == card_set.id:
                summary.unchanged.append(card.code)
                continue
            for key, value in fields.items():
                setattr(card, key, value)
            card.save()
            summary.updated.append(card.code)
    return summary
