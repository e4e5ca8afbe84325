from django.contrib import admin, messages

from .models import Deck, DeckCard, DecklistComment, DeckVersion, Format
from .services import comment_hide, format_activate, format_deactivate_all


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


@admin.register(DecklistComment)
class DecklistCommentAdmin(admin.ModelAdmin):
    """Comments on decklists, for staff moderation (the same services as the decklist page's Hide and Delete)."""

    list_display = ("decklist", "author", "short_body", "created_at", "hidden_at", "hidden_by")
    list_filter = (("hidden_at", admin.EmptyFieldListFilter),)
    search_fields = ("body", "author__username", "decklist__title")
    readonly_fields = ("decklist", "author", "body", "created_at", "hidden_at", "hidden_by")
    actions = ("hide", "show")

    @admin.display(description="comment")
    def short_body(self, obj) -> str:
        return obj.body[:80] + ("…" if len(obj.body) > 80 else "")

    def has_add_permission(self, request):
        return False

    @admin.action(description="Hide the selected comments")
    def hide(self, request, queryset):
        for comment in queryset.select_related("decklist"):
            comment_hide(comment=comment, by=request.user, hidden=True)
        self.message_user(request, f"Hid {queryset.count()} comment(s).")

    @admin.action(description="Show the selected comments again")
    def show(self, request, queryset):
        for comment in queryset.select_related("decklist"):
            comment_hide(comment=comment, by=request.user, hidden=False)
        self.message_user(request, f"Showed {queryset.count()} comment(s) again.")
