from django.contrib import admin

from .forms import CardAdminForm
from .models import Card, CardSet, Faction


@admin.register(Faction)
class FactionAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "color", "position")


@admin.register(CardSet)
class CardSetAdmin(admin.ModelAdmin):
    list_display = ("name", "code", "position")


@admin.register(Card)
class CardAdmin(admin.ModelAdmin):
    form = CardAdminForm  # illustration uploads are validated by cards/uploads.py
    list_display = ("code", "name", "subtitle", "type", "faction", "cost_kind", "cost_value", "power", "loyalty")
    list_filter = ("type", "faction", "card_set", "unique")
    search_fields = ("code", "name", "subtitle", "text")
    ordering = ("card_set", "number", "name")
