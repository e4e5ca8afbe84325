from django.contrib import admin, messages

from .models import Deck, DeckCard, DeckVersion, Format
from .services import format_activate, format_deactivate_all


@admin.register(Format)
class FormatAdmin(admin.ModelAdmin):
    """Organised-play formats (§11): a banned list and a restricted list ("at most one of these per deck").
    The restricted list is not the Restricted keyword of §9.3. At most one format is active."""

    list_display = ("name", "slug", "active", "banned_count", "restricted_count", "updated_at")
    list_filter = ("active",)
    search_fields = ("name", "slug")
    prepopulated_fields = {"slug": ("name",)}
    autocomplete_fields = ("banned", "restricted")
    actions = ("activate", "deactivate_all")

    @admin.display(description="banned")
    def banned_count(self, obj) -> int:
        return obj.banned.count()

    @admin.display(description="restricted list")
    def restricted_count(self, obj) -> int:
        return obj.restricted.count()

    @admin.action(description="Activate the selected format (deactivates the others)")
    def activate(self, request, queryset):
        if queryset.count() != 1:
            self.message_user(request, "Select exactly one format to activate.", messages.ERROR)
            return
        fmt = format_activate(fmt=queryset.get())
        self.message_user(request, f"{fmt.name} is now the active format: every verdict names it.")

    @admin.action(description="Deactivate every format (back to the default: no list active, §11)")
    def deactivate_all(self, request, queryset):
        format_deactivate_all()
        self.message_user(request, "No format is active: decks are checked against §11 alone.")


class DeckCardInline(admin.TabularInline):
    model = DeckCard
    extra = 0
    readonly_fields = ("card_code", "count")
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


class DeckVersionInline(admin.TabularInline):
    model = DeckVersion
    extra = 0
    fields = ("number", "name", "content_hash", "based_on", "restored_from", "created_at")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Deck)
class DeckAdmin(admin.ModelAdmin):
    """Read-only view of players' decks (edits go through the deck services, which keep every version)."""

    list_display = ("name", "owner", "faction", "destiny", "is_private", "version", "updated_at")
    list_filter = ("faction", "is_private")
    search_fields = ("name", "owner__username", "content_hash")
    readonly_fields = ("owner", "name", "faction", "destiny", "notes", "tags", "is_private", "content_hash",
                       "version", "created_at", "updated_at")
    inlines = (DeckCardInline, DeckVersionInline)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
