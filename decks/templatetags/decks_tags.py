"""Template tags other apps' pages use to show a player's deck data: the "copies owned" form of a card."""
from __future__ import annotations

from django import template

from ..models import CollectionCard

register = template.Library()


@register.inclusion_tag("decks/_owned_form.html", takes_context=True)
def owned_form(context, card):
    """A small form setting how many copies of `card` the signed-in player owns (posts to /collection/cards/CODE/);
    nothing for visitors."""
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"show": False}
    row = CollectionCard.objects.filter(user=user, card_code=card.code).first()
    return {"show": True, "card": card, "owned": row.count if row else 0, "request": request,
            "csrf_token": context.get("csrf_token"), "next": request.get_full_path()}


@register.inclusion_tag("decks/_card_decklists.html")
def decklists_with_card(card, limit: int = 8):
    """"Decklists using this card" on a card's page: the newest published lists holding it and how many
    hold it, both read off the card rows' index (decks.selectors.decklists_with_card)."""
    from ..selectors import decklists_with_card as select

    decklists, total = select(code=card.code, limit=limit)
    return {"card": card, "decklists": decklists, "total": total}


@register.filter
def finding_title(code: str) -> str:
    """A deck doctor finding's name in words for its heading ("undefended_icon" -> "Undefended icon"); the code
    stays the finding's id and data-code for scripts and the API."""
    words = str(code or "").replace("_", " ").strip()
    return words[:1].upper() + words[1:]
