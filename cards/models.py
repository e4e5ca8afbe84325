"""The card catalogue: factions, sets and cards holding every field of CONTRACTS §1."""
from __future__ import annotations

from django.db import models
from django.db.models import Q

from cards.games.r1.facts import CARD_TYPES, FACTION_NAMES, ICONS

from .cardfile import KNOWN_KEYS, parse_keyword
from .games.registry import DEFAULT as DEFAULT_GAME


class Faction(models.Model):
    """The seven factions of §1.2 plus Neutral. Rows are created by a data migration."""

    slug = models.SlugField(max_length=16, unique=True)
    name = models.CharField(max_length=64)
    color = models.CharField(max_length=7, help_text="Frame colour for card images, #rrggbb")
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["position"]

    def __str__(self) -> str:
        return self.name


class GameManager(models.Manager):
    """The default manager of a table shared by every game: r1's rows only, so that every r1 query (and every
    contract of CONTRACTS §1–§6) reads exactly what it read before other games existed (CONTRACTS §7: no game
    named means r1). `all_games` sees every row."""

    def get_queryset(self):
        return super().get_queryset().filter(game=DEFAULT_GAME)


class CardSet(models.Model):
    """A card set of one game (CONTRACTS §7: the set's "game", r1 when absent); `code` is unique within it."""

    game = models.CharField(max_length=16, default=DEFAULT_GAME, db_index=True)
    code = models.SlugField(max_length=32)
    name = models.CharField(max_length=100)
    position = models.PositiveSmallIntegerField(default=0)

    objects = GameManager()
    all_games = models.Manager()

    class Meta:
        ordering = ["position", "code"]
        constraints = [models.UniqueConstraint(fields=["game", "code"], name="cards_cardset_code_per_game")]

    def __str__(self) -> str:
        return self.name


class CostKind(models.TextChoices):
    NUMBER = "n", "number"
    X = "X", "X (variable, §8.7)"
    DASH = "-", "– (cannot be played from hand, §2.5)"
    NONE = "", "no cost"


class Card(models.Model):
    TYPE_CHOICES = [(t, t.capitalize()) for t in CARD_TYPES]

    code = models.CharField(max_length=32, unique=True)
    name = models.CharField(max_length=100, db_index=True)
    subtitle = models.CharField(max_length=100, blank=True, null=True)
    type = models.CharField(max_length=12, choices=TYPE_CHOICES, db_index=True)
    faction = models.ForeignKey(Faction, on_delete=models.PROTECT, related_name="cards")
    card_set = models.ForeignKey(CardSet, on_delete=models.PROTECT, related_name="cards")
    # §2.5: a cost is a number, X, – or absent. cost_value holds the number for numeric costs only.
    cost_kind = models.CharField(max_length=1, choices=CostKind.choices, blank=True, default="", db_index=True)
    cost_value = models.PositiveSmallIntegerField(null=True, blank=True, db_index=True)
    power_is_x = models.BooleanField(default=False)
    power = models.PositiveSmallIntegerField(null=True, blank=True, db_index=True)
    icon_combat = models.BooleanField(default=False)
    icon_guile = models.BooleanField(default=False)
    icon_sorcery = models.BooleanField(default=False)
    icon_faith = models.BooleanField(default=False)
    attributes = models.JSONField(default=list, blank=True)
    unique = models.BooleanField(default=False)
    loyalty = models.PositiveSmallIntegerField(null=True, blank=True)
    keywords = models.JSONField(default=list, blank=True)
    text = models.TextField(blank=True, default="")
    wealth = models.PositiveSmallIntegerField(null=True, blank=True)
    momentum = models.PositiveSmallIntegerField(null=True, blank=True)
    spoils = models.PositiveSmallIntegerField(null=True, blank=True)
    levy = models.PositiveSmallIntegerField(null=True, blank=True)
    deckbuilding = models.JSONField(null=True, blank=True)
    abilities = models.JSONField(null=True, blank=True)
    flavor = models.TextField(blank=True, null=True)
    illustrator = models.CharField(max_length=100, blank=True, null=True)
    number = models.PositiveIntegerField(null=True, blank=True)
    quantity = models.PositiveIntegerField(null=True, blank=True)
    illustration = models.ImageField(upload_to="illustrations/", blank=True, null=True)

    # Denormalised search columns ("|knight|lord|"), rebuilt on every save by the loader/admin, so that
    # attribute and keyword searches are one indexed LIKE on every database (SQLite has no JSON contains).
    attributes_index = models.CharField(max_length=400, blank=True, default="", editable=False)
    keywords_index = models.CharField(max_length=400, blank=True, default="", editable=False)
    is_bound = models.BooleanField(default=False, editable=False)
    is_restricted = models.BooleanField(default=False, editable=False)
    haste_cost = models.PositiveSmallIntegerField(null=True, blank=True, editable=False)
    secret_cost = models.PositiveSmallIntegerField(null=True, blank=True, editable=False)

    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["card_set__position", "number", "name"]
        constraints = [
            models.CheckConstraint(
                name="card_quest_stats_only_on_quests",
                condition=Q(type="quest")
                | (Q(wealth__isnull=True) & Q(momentum__isnull=True) & Q(spoils__isnull=True) & Q(levy__isnull=True)),
            ),
            models.CheckConstraint(
                name="card_power_only_on_units",
                condition=Q(type="unit") | (Q(power__isnull=True) & Q(power_is_x=False)),
            ),
            models.CheckConstraint(
                name="card_icons_only_on_units",
                condition=Q(type="unit")
                | (Q(icon_combat=False) & Q(icon_guile=False) & Q(icon_sorcery=False) & Q(icon_faith=False)),
            ),
            models.CheckConstraint(
                name="card_deckbuilding_only_on_destinies",
                condition=Q(type="destiny") | Q(deckbuilding__isnull=True),
            ),
            models.CheckConstraint(
                name="card_loyalty_1_to_3", condition=Q(loyalty__isnull=True) | Q(loyalty__gte=1, loyalty__lte=3)
            ),
            models.CheckConstraint(
                name="card_cost_value_matches_kind",
                condition=(Q(cost_kind="n") & Q(cost_value__isnull=False))
                | (~Q(cost_kind="n") & Q(cost_value__isnull=True)),
            ),
            models.CheckConstraint(name="card_type_valid", condition=Q(type__in=CARD_TYPES)),
        ]
        indexes = [
            models.Index(fields=["faction", "type"]),
            models.Index(fields=["card_set", "number"]),
            models.Index(fields=["loyalty"]),
            models.Index(fields=["wealth"]),
            models.Index(fields=["momentum"]),
            models.Index(fields=["spoils"]),
            models.Index(fields=["levy"]),
            # Card search (cards/search.py): every column a query filters on except the rules text, led by the
            # default sort, so that counting and paging a search reads this narrow index instead of whole card
            # rows. Measured in docs/performance.md (scripts/bench_cards.py).
            models.Index(name="card_search_covering", fields=[
                "name", "subtitle", "code", "type", "faction", "card_set", "cost_kind", "cost_value", "power",
                "power_is_x", "icon_combat", "icon_guile", "icon_sorcery", "icon_faith", "unique", "loyalty",
                "is_bound", "is_restricted", "haste_cost", "secret_cost", "wealth", "momentum", "spoils", "levy",
                "number", "attributes_index", "keywords_index"]),
        ]

    def __str__(self) -> str:
        return self.title

    # ---- friendly views of the stored columns -------------------------------------------------
    @property
    def title(self) -> str:
        """'Name, Subtitle' — the form decklists use (CONTRACTS §2)."""
        return f"{self.name}, {self.subtitle}" if self.subtitle else self.name

    @property
    def cost(self):
        if self.cost_kind == CostKind.NUMBER:
            return self.cost_value
        return self.cost_kind or None

    @cost.setter
    def cost(self, value) -> None:
        if value is None:
            self.cost_kind, self.cost_value = "", None
        elif value in ("X", "-"):
            self.cost_kind, self.cost_value = value, None
        else:
            self.cost_kind, self.cost_value = CostKind.NUMBER, int(value)

    @property
    def cost_display(self) -> str:
        c = self.cost
        return "–" if c == "-" else ("" if c is None else str(c))

    @property
    def power_display(self):
        return "X" if self.power_is_x else self.power

    @property
    def icons(self) -> list[str]:
        return [i for i in ICONS if getattr(self, f"icon_{i}")]

    @icons.setter
    def icons(self, values) -> None:
        for i in ICONS:
            setattr(self, f"icon_{i}", i in values)

    @property
    def is_draw_card(self) -> bool:
        return self.type in ("unit", "location", "attachment", "deed")

    def keyword_param(self, name: str) -> str | None:
        for raw in self.keywords or []:
            kw, param = parse_keyword(raw)
            if kw == name:
                return param
        return None

    def has_keyword(self, name: str) -> bool:
        return any(parse_keyword(raw)[0] == name for raw in self.keywords or [])

    def rebuild_search_columns(self) -> None:
        self.attributes_index = "|" + "|".join(a.lower() for a in self.attributes or []) + "|"
        parsed = [parse_keyword(k) for k in self.keywords or []]
        self.keywords_index = "|" + "|".join(n.lower() for n, _ in parsed) + "|"
        self.is_bound = any(n == "Bound" for n, _ in parsed)
        self.is_restricted = any(n == "Restricted" for n, _ in parsed)
        self.haste_cost = next((int(p) for n, p in parsed if n == "Haste"), None)
        self.secret_cost = next((int(p) for n, p in parsed if n == "Secret"), None)

    def save(self, *args, **kwargs):
        # Keeping derived search columns in step with their source is storage, not business logic.
        self.rebuild_search_columns()
        super().save(*args, **kwargs)

    def to_data(self) -> dict:
        """This card as a CONTRACTS §1 dict (the export form, also what the engine consumes)."""
        data = {
            "code": self.code, "name": self.name, "subtitle": self.subtitle, "type": self.type,
            "faction": self.faction.slug, "cost": self.cost,
            "power": "X" if self.power_is_x else self.power,
            "icons": self.icons, "attributes": list(self.attributes or []), "unique": self.unique,
            "loyalty": self.loyalty, "keywords": list(self.keywords or []), "text": self.text,
            "wealth": self.wealth, "momentum": self.momentum, "spoils": self.spoils, "levy": self.levy,
            "deckbuilding": self.deckbuilding, "abilities": self.abilities,
            "flavor": self.flavor, "illustrator": self.illustrator, "number": self.number,
            "quantity": self.quantity,
        }
        return {key: data[key] for key in KNOWN_KEYS}

    def get_absolute_url(self) -> str:
        return f"/cards/{self.code}/"

    game = DEFAULT_GAME  # r1's own table (its columns are r1's); other games' cards are GameCard rows


class GameCard(models.Model):
    """A card of a game other than r1 (CONTRACTS §7), as its game's card file holds it. r1 keeps its own `Card`
    table (its columns, covering search index and constraints are r1's); every other game's cards live here: the
    columns every game shares (code, name, subtitle, type, set, number), the game's identity group (realms: the
    affiliation) for filters and colours, and the whole card in the game's own form in `data` (the game's
    schema validates it on load: cards/games/<game>/schema.py). `code` is unique within its game."""

    game = models.CharField(max_length=16, db_index=True)
    code = models.CharField(max_length=32)
    name = models.CharField(max_length=100)
    subtitle = models.CharField(max_length=100, blank=True, null=True)
    type = models.CharField(max_length=24)
    group = models.CharField(max_length=32, blank=True, null=True,
                             help_text="The card's identity group in its game (realms: affiliation; none: General)")
    card_set = models.ForeignKey(CardSet, on_delete=models.PROTECT, related_name="game_cards")
    number = models.PositiveIntegerField(null=True, blank=True)
    data = models.JSONField(help_text="The card as its game's card file holds it (cards/games/<game>/schema.py)")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["card_set__position", "number", "name"]
        constraints = [models.UniqueConstraint(fields=["game", "code"], name="cards_gamecard_code_per_game")]
        indexes = [models.Index(fields=["game", "type"])]

    def __str__(self) -> str:
        return self.title

    @property
    def title(self) -> str:
        return f"{self.name}, {self.subtitle}" if self.subtitle else self.name

    def to_data(self) -> dict:
        """The card dict the game's hooks take: its card-file form plus "set" (the set code)."""
        return {**self.data, "set": self.card_set.code}

    def get_absolute_url(self) -> str:
        return f"/{self.game}/cards/{self.code}/"


FACTION_COLORS = {
    "camelot": "#2f5fa8", "eleven": "#6b6b6b", "lefay": "#6a2c91", "keepers": "#2e7d32",
    "summer": "#d98b1a", "winter": "#4fa3c7", "saracen": "#b23a2a", "neutral": "#8c7b62",
}
FACTION_ROWS = [(slug, FACTION_NAMES[slug], FACTION_COLORS[slug], i) for i, slug in enumerate(FACTION_NAMES)]
