"""The catalogue's pages: /cards/ (search), /cards/CODE/ (one card), /cards/syntax/ (the search syntax).

Views only translate (STYLE §8): read the query string, call a selector, render. Every link and form works
without JavaScript; with htmx the search box refreshes only the results (a partial, `Vary: HX-Request`).
"""
from __future__ import annotations

from urllib.parse import urlencode

from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import render
from django.utils.cache import patch_vary_headers

from cards.games.r1.facts import CARD_TYPES, FACTION_NAMES, FACTIONS, ICONS
from .games.query import And, Term
from .search import SORTS, SYNTAX_EXAMPLES, SearchError, parse_query, search_cards
from .selectors import card_count, card_get, card_ids, card_neighbours, card_search, card_versions, cards_by_ids

PAGE_SIZES = {"list": 50, "grid": 24}
VIEWS = ("list", "grid")
TYPE_LABELS = {"unit": "Units", "location": "Locations", "attachment": "Attachments", "deed": "Deeds",
               "quest": "Quests", "destiny": "Destinies", "faction": "Faction cards"}


def search_url(query: str) -> str:
    """The /cards/ page searching for `query`."""
    return "/cards/?" + urlencode({"q": query})


def quote_value(value: str) -> str:
    """A value as it must be typed in a query: quoted when it holds spaces or query punctuation."""
    return f'"{value}"' if any(ch in value for ch in ' ()|"') or not value else value


def _state(request) -> dict:
    get = request.GET
    view = get.get("view") if get.get("view") in VIEWS else "list"
    return {
        "q": get.get("q", "").strip(),
        "f": get.get("f", "") if get.get("f", "") in FACTIONS else "",
        "t": get.get("t", "") if get.get("t", "") in CARD_TYPES else "",
        "sort": get.get("sort", "") if get.get("sort", "").lstrip("-") in SORTS else "",
        "view": view,
    }


def _url(state: dict, **changes) -> str:
    merged = {**state, **changes}
    params = {k: v for k, v in merged.items() if v and not (k == "view" and v == "list")}
    return "/cards/" + ("?" + urlencode(params) if params else "")


def _query_picks(q: str, key: str) -> set[str]:
    """The values a query requires for `key` ("f:camelot t:unit c<=2" -> {"camelot"} for f): terms of its top-level
    "and", so the filter chips show what the typed query already narrows to."""
    try:
        root = parse_query(q).root
    except SearchError:
        return set()
    terms = root.children if isinstance(root, And) else (root,)
    return {str(v) for t in terms if isinstance(t, Term) and t.key == key and t.op in (":", "=") for v in t.values}


def card_list(request):
    state = _state(request)
    typed_f, typed_t = _query_picks(state["q"], "f"), _query_picks(state["q"], "t")
    error = None
    page = None
    try:
        cards = card_search(q=state["q"], faction=state["f"] or None, card_type=state["t"] or None,
                            sort=state["sort"] or None, user=request.user)
        paginator = Paginator(card_ids(cards), PAGE_SIZES[state["view"]])
        page = paginator.get_page(request.GET.get("page"))
        page.object_list = cards_by_ids(page.object_list)
    except SearchError as exc:
        error = {"message": exc.message, "position": exc.position,
                 "caret": " " * (max(exc.position, 1) - 1) + "^"}

    page_links = {}
    if page is not None:
        if page.has_previous():
            page_links["previous"] = _url(state, page=page.previous_page_number())
        if page.has_next():
            page_links["next"] = _url(state, page=page.next_page_number())
    context = {
        "state": state,
        "page": page,
        "error": error,
        "page_links": page_links,
        # Only an empty answer needs to know whether the catalogue itself is empty.
        "total_cards": card_count() if page is not None and not page.object_list else None,
        "faction_buttons": [{"slug": "", "name": "All factions", "url": _url(state, f=""),
                             "active": not state["f"] and not typed_f}]
        + [{"slug": s, "name": FACTION_NAMES[s], "url": _url(state, f="" if state["f"] == s else s),
            "active": state["f"] == s or s in typed_f} for s in FACTIONS],
        "type_buttons": [{"slug": "", "name": "All types", "url": _url(state, t=""),
                          "active": not state["t"] and not typed_t}]
        + [{"slug": t, "name": TYPE_LABELS[t], "url": _url(state, t="" if state["t"] == t else t),
            "active": state["t"] == t or t in typed_t} for t in CARD_TYPES],
        "view_links": [{"name": v, "url": _url(state, view=v), "active": state["view"] == v} for v in VIEWS],
        "sorts": [(s, f"{label}") for s, label in SORTS.items()],
        "hidden": {k: v for k, v in state.items() if k in ("f", "t", "view") and v and v != "list"},
    }
    partial = request.htmx and not request.htmx.boosted and not request.htmx.history_restore_request
    template = "cards/_results.html" if partial else "cards/list.html"
    response = render(request, template, context)
    patch_vary_headers(response, ("HX-Request",))
    return response


def _field_rows(card) -> list[dict]:
    """Each field of the card, with a link searching for cards sharing it."""
    rows = [
        {"label": "Type", "values": [(card.get_type_display(), search_url(f"t:{card.type}"))]},
        {"label": "Faction", "values": [(card.faction.name, search_url(f"f:{card.faction.slug}"))]},
    ]
    if card.cost is not None:
        rows.append({"label": "Cost", "values": [(card.cost_display, search_url(f"c:{card.cost}"))]})
    if card.power_is_x or card.power is not None:
        p = "x" if card.power_is_x else card.power
        rows.append({"label": "Power", "values": [(str(card.power_display), search_url(f"p:{p}"))]})
    if card.icons:
        rows.append({"label": "Struggle icons", "values": [(i, search_url(f"i:{i}")) for i in card.icons]})
    if card.attributes:
        rows.append({"label": "Attributes",
                     "values": [(a, search_url(f"a:{quote_value(a)}")) for a in card.attributes]})
    if card.keywords:
        values = []
        for raw in card.keywords:
            name = raw.split("(")[0].strip()
            values.append((raw, search_url(f"k:{quote_value(name.lower())}")))
        rows.append({"label": "Keywords", "values": values})
    if card.unique:
        rows.append({"label": "Unique", "values": [("• unique (§3.7)", search_url("is:unique"))]})
    if card.loyalty is not None:
        rows.append({"label": "Loyalty", "values": [(str(card.loyalty), search_url(f"l:{card.loyalty}"))]})
    for stat, key in (("wealth", "w"), ("momentum", "m"), ("spoils", "sp"), ("levy", "lv")):
        value = getattr(card, stat)
        if value is not None:
            rows.append({"label": stat.capitalize(), "values": [(str(value), search_url(f"t:quest {key}:{value}"))]})
    rows.append({"label": "Set", "values": [(card.card_set.name + (f" #{card.number}" if card.number else ""),
                                             search_url(f"s:{card.card_set.code}"))]})
    if card.faction.slug != "neutral" and card.type != "faction":
        rows.append({"label": "Legal in", "values": [
            (f"{FACTION_NAMES[card.faction.slug]} decks only (Bound, §9.3)" if card.is_bound
             else "every faction's decks (§11)", search_url(f"legal:{card.faction.slug}"))]})
    return rows


DECKBUILDING_LABELS = {
    "min_draw_cards": "Draw deck of at least {} cards",
    "max_copies": "At most {} copies of each card name",
    "bound_factions": "May include Bound cards of: {}",
    "forbidden_types": "No {} in the draw deck",
    "max_cost": "No draw card costing more than {}",
}


def card_detail(request, code):
    card = card_get(code=code)
    if card is None:
        raise Http404(f"No card with code {code!r}.")
    deckbuilding = []
    for key, value in (card.deckbuilding or {}).items():
        if isinstance(value, list):
            value = ", ".join(FACTION_NAMES.get(v, v) for v in value)
        deckbuilding.append(DECKBUILDING_LABELS.get(key, key + ": {}").format(value))
    same_name = card_versions(card)
    before, after = card_neighbours(card)
    return render(request, "cards/detail.html", {
        "card": card, "rows": _field_rows(card), "deckbuilding": deckbuilding,
        "same_name": same_name, "before": before, "after": after,
        "paragraphs": [p for p in card.text.split("\n") if p.strip()],
    })


def syntax(request):
    examples = []
    for ex in SYNTAX_EXAMPLES:
        try:
            count = search_cards(ex.query).count()
        except SearchError:  # pragma: no cover - every example is tested
            count = None
        examples.append({"query": ex.query, "meaning": ex.meaning, "url": search_url(ex.query), "count": count})
    return render(request, "cards/syntax.html", {"examples": examples})


LEGEND_SYMBOLS = (*ICONS, "loyalty")


def legend_symbol(request, name: str):
    """GET /cards/legend/NAME.png: one symbol as the card images draw it (cards/images.py), for the legend beside
    them — a struggle icon on its parchment disc (§2.3, §6.1), or one Loyalty diamond on its banner (§9.3)."""
    import io

    from django.http import HttpResponse

    from .images import BORDER, GOLD, PARCHMENT, Canvas, draw_icon

    if name not in LEGEND_SYMBOLS:
        raise Http404("No such symbol.")
    from PIL import Image, ImageDraw

    c = Canvas(52, 52, 2)
    c.image = Image.new("RGBA", c.image.size, (0, 0, 0, 0))  # transparent around the symbol, on any page colour
    c.draw = ImageDraw.Draw(c.image)
    if name == "loyalty":  # the banner of cards/images.py with one diamond
        c.rect((8, 14, 44, 38), fill=BORDER, outline=GOLD, width=1.2, radius=6)
        c.polygon([(26, 18.5), (32, 26), (26, 33.5), (20, 26)], fill=GOLD)
    else:
        c.ellipse((2, 2, 50, 50), fill=BORDER)
        c.ellipse((5, 5, 47, 47), fill=PARCHMENT)
        draw_icon(c, name, 26, 26, 30)
    out = io.BytesIO()
    c.image.save(out, "PNG", optimize=True)
    response = HttpResponse(out.getvalue(), content_type="image/png")
    response["Cache-Control"] = "public, max-age=86400"
    return response
