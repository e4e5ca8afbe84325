"""Decks as data: a deck, every version ever saved, its cards as indexed rows, and organised-play formats.

Writes go through `decks/services.py`; nothing here holds business logic.
"""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from cards.models import Card, Faction

from .legality import FormatRules


class Format(models.Model):
    """An organised-play format (§11): a banned list and a restricted list ("at most one card from this list
    per deck"). Lists match by card name (§2.3). Pre-launch no format is active; an admin may activate one,
    and every verdict then names it. Not to be confused with the Restricted keyword (§9.3)."""

    name = models.CharField(max_length=100, unique=True)
    slug = models.SlugField(max_length=50, unique=True)
    description = models.TextField(blank=True, default="")
    active = models.BooleanField(
        default=False, help_text="The format every deck is checked against. At most one format is active.")
    banned = models.ManyToManyField(Card, blank=True, related_name="banned_in_formats",
                                    help_text="No card with one of these names may be in a deck.")
    restricted = models.ManyToManyField(
        Card, blank=True, related_name="restricted_in_formats",
        help_text="At most one card from this list per deck (not the Restricted keyword of §9.3).")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(
                fields=["active"], condition=Q(active=True), name="decks_format_one_active",
                violation_error_message="Only one format can be active at a time: deactivate the active one first, "
                                        "or use the list's 'Activate' action."),
        ]

    def __str__(self) -> str:
        return f"{self.name} (active)" if self.active else self.name

    def to_rules(self) -> FormatRules:
        return FormatRules.of(self.name, banned=self.banned.values_list("name", flat=True),
                              restricted=self.restricted.values_list("name", flat=True))


class Deck(models.Model):
    """A player's deck: the working copy. Its cards are mirrored in DeckCard rows; its history in DeckVersion."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="decks")
    name = models.CharField(max_length=200)
    faction = models.ForeignKey(Faction, on_delete=models.SET_NULL, null=True, blank=True, related_name="decks")
    destiny = models.ForeignKey(Card, on_delete=models.SET_NULL, null=True, blank=True, related_name="destiny_of_decks")
    notes = models.TextField(blank=True, default="")
    tags = models.JSONField(default=list, blank=True)
    is_private = models.BooleanField(default=True)
    content_hash = models.CharField(max_length=64, db_index=True, help_text="sha256 of the sorted code:count lines")
    version = models.PositiveIntegerField(default=0, help_text="Number of the latest saved version")
    deleted_at = models.DateTimeField(null=True, blank=True, db_index=True,
                                      help_text="Set when the owner deletes the deck; they can undo it")
    copied_from = models.ForeignKey("Decklist", on_delete=models.SET_NULL, null=True, blank=True,
                                    related_name="copies", help_text="The published decklist this deck was copied from")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at", "-id"]
        indexes = [models.Index(fields=["owner", "-updated_at"])]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return f"/decks/{self.pk}/"

    @property
    def counts(self) -> dict[str, int]:
        return {row.card_code: row.count for row in self.cards.all()}


class DeckCard(models.Model):
    """One card of a deck's current list. Indexed by card so that "decks containing card X" is one index scan,
    and keyed by code so that a card deleted from the catalogue still shows in the deck (flagged)."""

    # No separate index on deck: the unique (deck, card_code) constraint's index serves lookups by deck.
    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="cards", db_index=False)
    card_code = models.CharField(max_length=32)
    count = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["card_code"]
        constraints = [
            models.UniqueConstraint(fields=["deck", "card_code"], name="decks_deckcard_unique_card"),
            models.CheckConstraint(condition=Q(count__gte=1), name="decks_deckcard_count_positive"),
        ]
        indexes = [models.Index(fields=["card_code", "deck"], name="decks_deckcard_by_card")]

    def __str__(self) -> str:
        return f"{self.count}x {self.card_code}"


class DeckVersion(models.Model):
    """Every save of a deck, immutable: nothing a player saved is ever lost, and any version can be restored."""

    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    name = models.CharField(max_length=200)
    notes = models.TextField(blank=True, default="")
    tags = models.JSONField(default=list, blank=True)
    cards = models.JSONField(default=dict, help_text="card code -> count")
    content_hash = models.CharField(max_length=64, db_index=True)
    based_on = models.PositiveIntegerField(
        null=True, blank=True, help_text="The version the editor had open when saving (two tabs: both are kept)")
    restored_from = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["deck", "-number"]
        constraints = [models.UniqueConstraint(fields=["deck", "number"], name="decks_version_unique_number")]

    def __str__(self) -> str:
        return f"{self.deck_id} v{self.number}"


class CollectionCard(models.Model):
    """How many copies of a card a player owns. Keyed by code, like DeckCard."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="collection")
    card_code = models.CharField(max_length=32)
    count = models.PositiveSmallIntegerField()
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["card_code"]
        constraints = [
            models.UniqueConstraint(fields=["user", "card_code"], name="decks_collection_unique_card"),
            models.CheckConstraint(condition=Q(count__gte=1), name="decks_collection_count_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.count}x {self.card_code}"


class DecklistQuerySet(models.QuerySet):
    """Decklists, with an exact count that may come from a cheaper query than COUNT(*) of the whole join.

    `decklist_search` sets `_fast_count` on the queryset it returns when it knows one: with only cards, faction and
    dates as filters, a count of the card rows' index; with no filter or only a faction, the `DecklistTally` rows.
    Any further filter, slice or ordering makes a new queryset, which counts the usual way."""

    _fast_count = None

    def count(self) -> int:
        if self._fast_count is not None and self._result_cache is None:
            return self._fast_count()
        return super().count()


class Decklist(models.Model):
    """A published, immutable snapshot of a deck: public, with a readable URL /decklists/ID-slug/.

    Re-publishing the same deck makes a new Decklist whose `previous` is the last one; a deck copied from a
    decklist and then published links back through `derived_from`."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="decklists")
    source_deck = models.ForeignKey(Deck, on_delete=models.SET_NULL, null=True, blank=True,
                                    related_name="publications")
    source_version = models.PositiveIntegerField(null=True, blank=True)
    title = models.CharField(max_length=200)
    slug = models.SlugField(max_length=80)
    description = models.TextField(blank=True, default="", help_text="Markdown; sanitised when shown")
    faction = models.ForeignKey(Faction, on_delete=models.SET_NULL, null=True, blank=True, related_name="decklists")
    destiny = models.ForeignKey(Card, on_delete=models.SET_NULL, null=True, blank=True,
                                related_name="destiny_of_decklists")
    cards = models.JSONField(default=dict, help_text="card code -> count, frozen at publication")
    content_hash = models.CharField(max_length=64, db_index=True)
    derived_from = models.ForeignKey("self", on_delete=models.SET_NULL, null=True, blank=True,
                                     related_name="derivatives")
    previous = models.ForeignKey("self", on_delete=models.SET_NULL, null=True, blank=True,
                                 related_name="next_versions")
    like_count = models.PositiveIntegerField(default=0)
    favourite_count = models.PositiveIntegerField(default=0)
    published_at = models.DateTimeField(auto_now_add=True, db_index=True)

    objects = DecklistQuerySet.as_manager()

    class Meta:
        ordering = ["-published_at", "-id"]
        indexes = [
            models.Index(fields=["faction", "-published_at"]),
            models.Index(fields=["-like_count", "-published_at"]),
            models.Index(fields=["owner", "-published_at"]),
        ]

    def __str__(self) -> str:
        return self.title

    def get_absolute_url(self) -> str:
        return f"/decklists/{self.pk}-{self.slug}/"


class DecklistCard(models.Model):
    """A published decklist's cards as rows, for "decklists containing card X".

    `published_at` and `faction` are copies of the decklist's, so that "the newest lists holding X" (of one faction,
    in a date range) is one range of the index (card_code, -published_at, -decklist, faction) and counting them
    reads that index only. The database keeps the copies equal (migration 0005): a trigger fills them in
    whenever a row is inserted, and another rewrites them whenever a decklist's `published_at` or `faction`
    changes (a re-dated list, a faction deleted → NULL); deleting a decklist deletes its rows. On SQLite, rebuilding
    either table in a later migration drops these triggers: re-create them there (`decks.dbsync`); the tests in
    tests/decks/test_decklist_sync.py fail if they are missing."""

    # No separate index on decklist: the unique (decklist, card_code) index serves lookups by decklist.
    decklist = models.ForeignKey(Decklist, on_delete=models.CASCADE, related_name="card_rows", db_index=False)
    card_code = models.CharField(max_length=32)
    count = models.PositiveSmallIntegerField()
    published_at = models.DateTimeField(help_text="The decklist's published_at (kept equal by a database trigger)")
    faction = models.ForeignKey(Faction, on_delete=models.DO_NOTHING, db_constraint=False, db_index=False,
                                null=True, blank=True, related_name="+",
                                help_text="The decklist's faction (kept equal by a database trigger)")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["decklist", "card_code"], name="decks_decklistcard_unique_card"),
        ]
        indexes = [models.Index(fields=["card_code", "-published_at", "-decklist", "faction"],
                                name="decks_dlcard_by_card_date")]


class DecklistTally(models.Model):
    """How many decklists there are per faction (`faction_key` = the faction's id, 0 for none), so that the
    browser's pager need not count 1,000,000 rows. Kept by database triggers on `decks_decklist`
    (decks/dbsync.py): +1 per list inserted, -1 per list deleted, moved when a list's faction changes; a truncate
    empties it. A faction with no row has no lists. Never written by Django code."""

    faction_key = models.BigIntegerField(primary_key=True, help_text="Faction id; 0 for lists without a faction")
    n = models.BigIntegerField(default=0, help_text="Number of decklists")

    def __str__(self) -> str:
        return f"{self.faction_key}: {self.n}"


class DecklistLike(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="decklist_likes")
    decklist = models.ForeignKey(Decklist, on_delete=models.CASCADE, related_name="likes")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "decklist"], name="decks_like_once")]


class DecklistFavourite(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="decklist_favourites")
    decklist = models.ForeignKey(Decklist, on_delete=models.CASCADE, related_name="favourites")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "decklist"], name="decks_favourite_once")]


class DecklistComment(models.Model):
    """A player's comment on a published decklist: Markdown, sanitised when shown (decks/markdown.py).

    Moderation (decks/services.py): the decklist's author and staff may hide a comment (it stays, shown only to
    them and to its writer, marked hidden) or delete it; a writer may delete their own. Writes go through
    `comment_create`, `comment_hide` and `comment_delete`."""

    decklist = models.ForeignKey(Decklist, on_delete=models.CASCADE, related_name="comments")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="decklist_comments")
    body = models.TextField(help_text="Markdown; sanitised when shown")
    created_at = models.DateTimeField(auto_now_add=True)
    hidden_at = models.DateTimeField(null=True, blank=True,
                                     help_text="Set when the decklist's author or staff hide the comment")
    hidden_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                  related_name="+")

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [models.Index(fields=["decklist", "created_at", "id"], name="decks_comment_by_list")]

    def __str__(self) -> str:
        return f"{self.author_id} on {self.decklist_id}: {self.body[:40]}"

    @property
    def hidden(self) -> bool:
        return self.hidden_at is not None


# ---- the other games (CONTRACTS §7) ---------------------------------------------------------------------------
# r1's decks, decklists and collection keep their own tables above (tuned for r1 at a million lists: the
# faction/destiny columns, card-row copies kept by triggers, the per-faction tally). Every other game's decks
# live in these tables, keyed by `game`, with the deck's identity (realms: Leaders + affiliation) as the game's
# `identity` hook computes it. Writes go through decks/game_services.py.
class GameDeck(models.Model):
    """A deck of a game other than r1: the working copy; every save is a GameDeckVersion."""

    game = models.CharField(max_length=16, db_index=True)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="game_decks")
    name = models.CharField(max_length=200)
    fmt = models.CharField(max_length=24, default="standard", help_text="The game's format the deck is built for")
    cards = models.JSONField(default=dict, help_text="card code -> count")
    identity = models.JSONField(default=dict, blank=True, help_text="The game's identity hook's answer")
    group = models.CharField(max_length=32, blank=True, null=True, help_text="identity group (realms: affiliation)")
    notes = models.TextField(blank=True, default="")
    is_private = models.BooleanField(default=True)
    version = models.PositiveIntegerField(default=0)
    deleted_at = models.DateTimeField(null=True, blank=True, db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at", "-id"]
        indexes = [models.Index(fields=["game", "owner", "-updated_at"])]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return f"/{self.game}/decks/{self.pk}/"


class GameDeckVersion(models.Model):
    deck = models.ForeignKey(GameDeck, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    name = models.CharField(max_length=200)
    cards = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["deck", "-number"]
        constraints = [models.UniqueConstraint(fields=["deck", "number"], name="decks_gameversion_unique_number")]


class GameDecklist(models.Model):
    """A published snapshot of a GameDeck: public, at /<game>/decklists/ID-slug/."""

    game = models.CharField(max_length=16)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="game_decklists")
    source_deck = models.ForeignKey(GameDeck, on_delete=models.SET_NULL, null=True, blank=True,
                                    related_name="publications")
    title = models.CharField(max_length=200)
    slug = models.SlugField(max_length=80)
    description = models.TextField(blank=True, default="")
    fmt = models.CharField(max_length=24, default="standard")
    cards = models.JSONField(default=dict)
    identity = models.JSONField(default=dict, blank=True)
    group = models.CharField(max_length=32, blank=True, null=True)
    published_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-published_at", "-id"]
        indexes = [models.Index(fields=["game", "group", "-published_at"])]

    def __str__(self) -> str:
        return self.title

    def get_absolute_url(self) -> str:
        return f"/{self.game}/decklists/{self.pk}-{self.slug}/"


class GameCollectionCard(models.Model):
    """How many copies of a card of another game a player owns."""

    game = models.CharField(max_length=16)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="game_collection")
    card_code = models.CharField(max_length=32)
    count = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["card_code"]
        constraints = [
            models.UniqueConstraint(fields=["user", "game", "card_code"], name="decks_gamecollection_unique"),
            models.CheckConstraint(condition=Q(count__gte=1), name="decks_gamecollection_count_positive"),
        ]
