"""Template helpers for pages outside the catalogue (the home page) that show catalogue content."""
from django import template

from ..selectors import card_count, faction_list, featured_cards

register = template.Library()


@register.inclusion_tag("cards/_featured.html")
def show_featured_cards(count: int = 6):
    return {"cards": featured_cards(count=count)}


@register.inclusion_tag("cards/_faction_links.html")
def show_faction_links():
    return {"factions": faction_list(), "total": card_count()}
