"""A card in the API: exactly the fields of CONTRACTS §1, plus `url` (its page) and `image_url` (its image)."""
from __future__ import annotations

from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from cards.games.r1.facts import CARD_TYPES, FACTIONS, ICONS


@extend_schema_field({"oneOf": [{"type": "integer", "minimum": 0}, {"type": "string", "enum": ["X", "-"]}],
                      "nullable": True, "description": 'Integer ≥ 0, "X", "-" (§2.5) or null'})
class CostField(serializers.JSONField):
    pass


@extend_schema_field({"oneOf": [{"type": "integer", "minimum": 0}, {"type": "string", "enum": ["X"]}],
                      "nullable": True, "description": 'Integer ≥ 0, "X" or null; units only'})
class PowerField(serializers.JSONField):
    pass


class CardSerializer(serializers.Serializer):
    """A card: every field of a card data file (CONTRACTS §1), plus `url` (its page) and `image_url`."""

    # The declared fields document the schema; to_representation builds the JSON straight from Card.to_data()
    # (the dict exportcards writes), so the API and the card files never differ.

    code = serializers.CharField(help_text="Stable id, [a-z0-9-]{1,32}")
    name = serializers.CharField()
    subtitle = serializers.CharField(allow_null=True)
    type = serializers.ChoiceField(choices=CARD_TYPES)
    faction = serializers.ChoiceField(choices=FACTIONS)
    cost = CostField(allow_null=True)
    power = PowerField(allow_null=True)
    icons = serializers.ListField(child=serializers.ChoiceField(choices=ICONS))
    attributes = serializers.ListField(child=serializers.CharField())
    unique = serializers.BooleanField()
    loyalty = serializers.IntegerField(allow_null=True, min_value=1, max_value=3)
    keywords = serializers.ListField(child=serializers.CharField(), help_text='e.g. "Bound", "Haste (2)"')
    text = serializers.CharField(allow_blank=True)
    wealth = serializers.IntegerField(allow_null=True)
    momentum = serializers.IntegerField(allow_null=True)
    spoils = serializers.IntegerField(allow_null=True)
    levy = serializers.IntegerField(allow_null=True)
    deckbuilding = serializers.JSONField(allow_null=True, help_text="Destinies only (CONTRACTS §1)")
    abilities = serializers.JSONField(allow_null=True, help_text="The engine's script (docs/engine-abilities.md)")
    flavor = serializers.CharField(allow_null=True)
    illustrator = serializers.CharField(allow_null=True)
    number = serializers.IntegerField(allow_null=True)
    quantity = serializers.IntegerField(allow_null=True)
    url = serializers.URLField(help_text="The card's page")
    image_url = serializers.URLField(help_text="The card's image, /cards/CODE.png")

    def _url_templates(self) -> tuple[str, str]:
        # Built once per response (the list serializer shares its context with every card), not per card.
        cached = self.context.get("_card_url_templates")
        if cached is None:
            request = self.context.get("request")
            root = request.build_absolute_uri("/")[:-1] if request is not None else ""
            marker = "0code0"
            page = reverse("cards:detail", kwargs={"code": marker})
            image = reverse("cards:card-image", kwargs={"code": marker})
            cached = (root + page.replace(marker, "{}"), root + image.replace(marker, "{}"))
            self.context["_card_url_templates"] = cached
        return cached

    def to_representation(self, card):
        # A Card, or a card dict already in the CONTRACTS §1 form (selectors.card_data_from_row).
        data = dict(card) if isinstance(card, dict) else card.to_data()
        page, image = self._url_templates()
        data["url"] = page.format(data["code"])
        data["image_url"] = image.format(data["code"])
        return data


class SearchErrorSerializer(serializers.Serializer):
    detail = serializers.CharField(help_text="What is wrong, naming the term and its position")
    position = serializers.IntegerField(required=False, help_text="1-based position of the term at fault")
