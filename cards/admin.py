from django.contrib import admin

from .forms import CardAdminForm
from .models import Card, CardSet, Faction, GameCard


@admin.register(Faction)
class FactionAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "color", "position")


@admin.register(CardSet)
class CardSetAdmin(admin.ModelAdmin):
    list_display = ("name", "code", "game", "position")
    list_filter = ("game",)
    readonly_fields = ("game",)  # a set's game is its card file's (CONTRACTS §7); loadcards sets it

    def get_queryset(self, request):
        return CardSet.all_games.all()


@admin.register(GameCard)
class GameCardAdmin(admin.ModelAdmin):
    """The other games' cards; their data is validated by the game's schema, so edit the card file and load it."""

    list_display = ("code", "name", "game", "type", "group", "card_set")
    list_filter = ("game", "type", "group")
    search_fields = ("code", "name")
    readonly_fields = ("game", "code", "data")


@admin.register(Card)
class CardAdmin(admin.ModelAdmin):
    form = CardAdminForm  # illustration uploads are validated by cards/uploads.py
    list_display = ("code", "name", "subtitle", "type", "faction", "cost_kind", "cost_value", "power", "loyalty")
    list_filter = ("type", "faction", "card_set", "unique")
    search_fields = ("code", "name", "subtitle", "text")
    ordering = ("card_set", "number", "name")
