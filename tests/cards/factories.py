"""Test data for the catalogue: factory_boy factories and a small card file ("srch" set) that covers every
search key. Tests scope their searches with `s:srch` so that whatever else is loaded (the core set) never
changes their answers."""
from __future__ import annotations

import factory

from cards.cardfile import CardFile, parse_card_documents
from cards.models import Card, CardSet, Faction
from cards.services import card_files_load

SEARCH_SET = {"code": "srch", "name": "Search Test Set"}
SEARCH_CARDS = [
    {"code": "srch-squire", "name": "Squire of the Vale", "type": "unit", "faction": "camelot", "cost": 1,
     "power": 0, "icons": ["combat"], "attributes": ["Knight"], "text": "Response: After you win a struggle, draw 1 card.",
     "number": 1},
    {"code": "srch-squire-vet", "name": "Squire of the Vale", "subtitle": "Veteran", "type": "unit",
     "faction": "camelot", "cost": 2, "power": 2, "icons": ["combat", "guile"], "attributes": ["Knight"],
     "number": 2},
    {"code": "srch-lord", "name": "Lord of the Marches", "type": "unit", "faction": "camelot", "unique": True,
     "cost": 4, "power": 4, "icons": ["combat", "faith"], "attributes": ["Knight", "Lord"],
     "keywords": ["Glory", "Haste (2)"], "loyalty": 2, "text": "Action: Exhaust this unit to gain 1 wealth.",
     "number": 3},
    {"code": "srch-witch", "name": "Witch of Avalon", "type": "unit", "faction": "lefay", "cost": "X",
     "power": "X", "icons": ["sorcery"], "attributes": ["Sorceress"], "keywords": ["Bound", "Secret (3)"],
     "loyalty": 3, "unique": True, "text": "Place a sorcery emblem on a unit.", "number": 4},
    {"code": "srch-shade", "name": "Shade in the Hall", "type": "unit", "faction": "eleven", "cost": "-",
     "power": 2, "icons": ["guile"], "attributes": ["Round Table", "Spy"], "keywords": ["Subtle", "Restricted"],
     "number": 5},
    {"code": "srch-tower", "name": "Tower of Thorns", "type": "location", "faction": "keepers", "cost": 2,
     "attributes": ["Stronghold"], "keywords": ["Bound"], "loyalty": 1,
     "text": "Action: Exhaust Tower of Thorns to gain 1 wealth.", "number": 6},
    {"code": "srch-blade", "name": "Plain Blade", "type": "attachment", "faction": "neutral", "cost": 0,
     "attributes": ["Weapon"], "keywords": ["Lasting"], "text": "Attached unit gets +1 Power.", "number": 7},
    {"code": "srch-knot", "name": "Morgan's Knot", "type": "attachment", "faction": "lefay", "cost": 1,
     "keywords": ["Bound"], "text": "Attached unit loses all struggle icons.", "number": 8},
    {"code": "srch-deed", "name": "Summer Tidings", "type": "deed", "faction": "summer", "cost": 3,
     "loyalty": 1, "text": "Action: Draw 2 cards.", "number": 9},
    {"code": "srch-guard", "name": "Frost Guard", "type": "unit", "faction": "winter", "cost": 2, "power": 3,
     "icons": ["combat", "guile"], "attributes": ["Guard"], "keywords": ["No Attachments", "Wary"],
     "loyalty": 1, "number": 10},
    {"code": "srch-rider", "name": "Desert Rider", "type": "unit", "faction": "saracen", "cost": 5, "power": 6,
     "icons": ["faith"], "attributes": ["Knight"], "keywords": ["Ravage (1)"], "number": 11},
    {"code": "srch-quest-gold", "name": "Road of Gold", "type": "quest", "faction": "neutral",
     "wealth": 4, "momentum": 2, "spoils": 1, "levy": 7, "text": "Embark: Draw 1 card.", "number": 12},
    {"code": "srch-quest-war", "name": "Call to War", "type": "quest", "faction": "neutral",
     "wealth": 2, "momentum": 5, "spoils": 3, "levy": 8, "number": 13},
    {"code": "srch-destiny", "name": "Oath of the Few", "type": "destiny", "faction": "neutral",
     "deckbuilding": {"max_copies": 2, "bound_factions": ["lefay"]}, "number": 14},
    {"code": "srch-keep", "name": "Knightfall Keep", "type": "location", "faction": "neutral", "cost": 5,
     "number": 17},
    {"code": "srch-fac-winter", "name": "Court of Frost", "type": "faction", "faction": "winter", "number": 15},
    {"code": "srch-fac-camelot", "name": "Banner of Camelot", "type": "faction", "faction": "camelot",
     "number": 16},
]


def search_card_file() -> CardFile:
    import json

    [card_file] = parse_card_documents(json.dumps({"set": SEARCH_SET, "cards": SEARCH_CARDS}))
    assert not card_file.errors, card_file.errors
    return card_file


def load_search_set() -> list[Card]:
    """Store the srch set through the real loader; returns its cards in number order."""
    card_files_load(card_files=[search_card_file()])
    return list(Card.objects.filter(card_set__code="srch").select_related("faction", "card_set").order_by("number"))


def card_dict(card: Card) -> dict:
    """A card as CONTRACTS §1 dict plus its set code, the form card_matches reads."""
    return {**card.to_data(), "set": card.card_set.code}


class CardSetFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = CardSet
        django_get_or_create = ("code",)

    code = "fx"
    name = "Factory Set"
    position = 90


class CardFactory(factory.django.DjangoModelFactory):
    """A plain Camelot unit; override any field. `faction` takes a slug."""

    class Meta:
        model = Card

    code = factory.Sequence(lambda n: f"fx-{n}")
    name = factory.Sequence(lambda n: f"Factory Card {n}")
    type = "unit"
    faction = factory.LazyFunction(lambda: Faction.objects.get(slug="camelot"))
    card_set = factory.SubFactory(CardSetFactory)
    cost_kind = "n"
    cost_value = 2
    power = 2
    icon_combat = True

    @classmethod
    def _create(cls, model_class, *args, **kwargs):
        if isinstance(kwargs.get("faction"), str):
            kwargs["faction"] = Faction.objects.get(slug=kwargs["faction"])
        return super()._create(model_class, *args, **kwargs)
