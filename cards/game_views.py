"""The catalogue of every hosted game (CONTRACTS §7) at /<game>/cards/…, driven by the game registry only
(cards/games/registry.py): the card list with the game's search keys, the syntax page, card pages and card
images from the game's frame, and the HTTP API (/<game>/api/cards/, or /api/cards/?game=G). No game is named
here: a game registered with its hooks is served as it is."""
from __future__ import annotations

import hashlib
import io
import json
from functools import lru_cache
from urllib.parse import urlencode

from django.core.paginator import Paginator
from django.http import Http404, HttpResponse, HttpResponseNotModified, JsonResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from .games import registry
from .games.query import QueryError, filter_cards
from .selectors import game_card, game_cards

SIZES = {"small": (250, 350), "normal": (500, 700), "large": (1000, 1400)}
PAGE_SIZE = 60
API_PAGE_SIZE = 50


def hosted_game(slug: str) -> registry.Game:
    """The game served at /<slug>/, or 404 (r1 is served at the site's own URLs)."""
    try:
        game = registry.get(slug)
    except registry.UnknownGame:
        raise Http404(f"No game {slug!r}.") from None
    if not game.prefix:
        raise Http404("r1 is served without a prefix.")
    return game


class GameConverter:
    """`<game:game>` in URL patterns: a registered hosted game's slug, checked on each request (so a game
    registered later, or in a test, is served without touching the URL configuration)."""

    regex = "[a-z][a-z0-9]{1,15}"

    def to_python(self, value: str) -> str:
        try:
            game = registry.get(value)
        except registry.UnknownGame:
            raise ValueError(value) from None
        if not game.prefix:
            raise ValueError(value)
        return value

    def to_url(self, value: str) -> str:
        return value


def search(game: registry.Game, q: str, cards: list[dict] | None = None) -> list[dict]:
    """The game's cards matching `q` (CONTRACTS §5 language, the game's keys); raises QueryError."""
    cards = game_cards(game.slug) if cards is None else cards
    keys = game.hook("search_keys")(cards)
    return filter_cards(q, cards, keys)


def card_rows(spec, cards: list[dict]) -> list[dict]:
    """Cards with what a list shows of them in any game: its identity group (for the colour) and its facts."""
    group_of = spec.hook("card_group") if spec.has("card_group") else (lambda c: None)
    summary = spec.hook("card_summary") if spec.has("card_summary") else (lambda c: [])
    rows = []
    for card in cards:
        facts = summary(card)
        rows.append({"card": card, "group": group_of(card) or "general",
                     "type": facts[0][1] if facts else str(card.get("type") or "").capitalize(),
                     "facts": " · ".join(f"{label} {value}" for label, value in facts[1:5])})
    return rows


def _caret(q: str, position: int) -> str:
    return " " * max(0, position - 1) + "^"


def card_list(request, game: str):
    spec = hosted_game(game)
    q = request.GET.get("q", "")
    view = request.GET.get("view", "list")
    cards = game_cards(spec.slug)
    error = None
    found: list[dict] = []
    try:
        found = search(spec, q, cards)
    except QueryError as exc:
        error = {"message": exc.message, "caret": _caret(q, exc.position)}
    page = None
    if error is None:
        paginator = Paginator(card_rows(spec, found), PAGE_SIZE)
        page = paginator.get_page(request.GET.get("page"))
    links = {}
    if page is not None and page.paginator.num_pages > 1:
        base = {"q": q, "view": view}
        if page.has_previous():
            links["previous"] = "?" + urlencode({**base, "page": page.previous_page_number()})
        if page.has_next():
            links["next"] = "?" + urlencode({**base, "page": page.next_page_number()})
    type_buttons = [{"name": t.capitalize(), "url": "?" + urlencode({"q": f"t:{t}", "view": view}),
                     "active": q == f"t:{t}"} for t in spec.card_types]
    context = {"game": spec, "q": q, "view": view, "error": error, "page": page, "page_links": links,
               "type_buttons": type_buttons, "total_cards": len(cards),
               "keys": spec.hook("search_keys")(cards),
               "view_links": [{"name": v, "url": "?" + urlencode({"q": q, "view": v}), "active": v == view}
                              for v in ("list", "grid")]}
    template = "games/_card_results.html" if request.headers.get("HX-Request") else "games/card_list.html"
    return render(request, template, context)


def syntax(request, game: str):
    spec = hosted_game(game)
    cards = game_cards(spec.slug)
    keys = spec.hook("search_keys")(cards)
    examples = []
    for query, meaning in spec.search_examples:
        try:
            count = len(filter_cards(query, cards, keys))
        except QueryError:  # pragma: no cover - every example is tested
            count = None
        examples.append({"query": query, "meaning": meaning, "count": count,
                         "url": f"/{spec.slug}/cards/?" + urlencode({"q": query})})
    seen, unique_keys = set(), []
    for k in keys:
        if k.name not in seen:
            seen.add(k.name)
            unique_keys.append(k)
    return render(request, "games/syntax.html", {"game": spec, "keys": unique_keys, "examples": examples})


def card_detail(request, game: str, code: str):
    spec = hosted_game(game)
    row = game_card(spec.slug, code)
    if row is None:
        raise Http404(f"No {spec.slug} card with code {code!r}.")
    card = row.to_data()
    summary = spec.hook("card_summary")(card) if spec.has("card_summary") else [("Type", card.get("type"))]
    owned = None
    if request.user.is_authenticated:
        from decks.models import GameCollectionCard  # noqa: the collection is the decks app's (cards ← decks)

        owned = GameCollectionCard.objects.filter(user=request.user, game=spec.slug, card_code=code) \
            .values_list("count", flat=True).first() or 0
    return render(request, "games/card_detail.html", {
        "game": spec, "card": card, "row": row, "summary": summary, "group": card_rows(spec, [card])[0]["group"],
        "paragraphs": [p for p in (card.get("text") or "").split("\n") if p.strip()], "owned": owned,
        "has_image": spec.has("render_card"),
    })


@lru_cache(maxsize=512)
def _png(game: str, etag: str, card_json: str, size: str) -> bytes:
    image = registry.get(game).hook("render_card")(json.loads(card_json), size)
    buf = io.BytesIO()
    image.save(buf, "PNG", optimize=True)
    return buf.getvalue()


@require_safe
def card_image(request, game: str, code: str):
    spec = hosted_game(game)
    size = request.GET.get("size", "normal")
    if size not in SIZES:
        return JsonResponse({"detail": f"Unknown size {size!r}; use one of: {', '.join(SIZES)}."}, status=400)
    if not spec.has("render_card"):
        raise Http404(f"The game {spec.slug!r} has no card frame.")
    row = game_card(spec.slug, code)
    if row is None:
        raise Http404(f"No {spec.slug} card with code {code!r}.")
    card_json = json.dumps(row.to_data(), sort_keys=True)
    key = hashlib.sha256(card_json.encode()).hexdigest()[:16]
    etag = f'"{spec.slug}-{key}-{size}"'
    if etag in request.headers.get("If-None-Match", ""):
        response = HttpResponseNotModified()
    else:
        response = HttpResponse(_png(spec.slug, key, card_json, size), content_type="image/png")
    response["ETag"] = etag
    response["Cache-Control"] = "public, max-age=3600"
    return response


def game_css(request, game: str):
    """/<game>/game.css: the game's identity colours as classes (.group-SLUG), from its registry entry."""
    spec = hosted_game(game)
    lines = []
    for slug, color in spec.group_colors(game_cards(spec.slug)).items():
        name = slug or "general"
        lines.append(f".group-{name}{{--group:{color}}} .group-dot.group-{name}{{background:{color}}}")
    return HttpResponse("\n".join(lines) + "\n", content_type="text/css")


# ---- the HTTP API -----------------------------------------------------------------------------------------------
def card_json(spec, card: dict, request) -> dict:
    base = request.build_absolute_uri("/")[:-1]
    out = dict(card)
    out["game"] = spec.slug
    out["url"] = f"{base}/{spec.slug}/api/cards/{card['code']}/"
    out["image_url"] = f"{base}/{spec.slug}/cards/{card['code']}.png" if spec.has("render_card") else None
    return out


def _bad(detail: str, **extra) -> JsonResponse:
    return JsonResponse({"detail": detail, **extra}, status=400)


def api_cards(request, game: str):
    """GET /<game>/api/cards/?q=…&page=…&page_size=… — CONTRACTS §4's paginated shape for any game."""
    spec = hosted_game(game)
    q = request.GET.get("q", "")
    for param in ("page", "page_size"):
        raw = request.GET.get(param)
        if raw is not None and (not raw.isascii() or not raw.isdigit() or int(raw) < 1):
            return _bad(f'{param} must be a whole number ≥ 1, not "{raw[:20]}"')
    size = min(200, int(request.GET.get("page_size") or API_PAGE_SIZE))
    number = int(request.GET.get("page") or 1)
    try:
        found = search(spec, q)
    except QueryError as exc:
        return _bad(exc.message, position=exc.position)
    pages = max(1, -(-len(found) // size))
    if number > pages:
        return _bad(f"page {number} does not exist; there {'is' if pages == 1 else 'are'} {pages} "
                    f"page{'s' if pages != 1 else ''}")
    chunk = found[(number - 1) * size:number * size]

    def link(n):
        return request.build_absolute_uri("?" + urlencode({**request.GET.dict(), "page": n}))

    return JsonResponse({"count": len(found), "next": link(number + 1) if number < pages else None,
                         "previous": link(number - 1) if number > 1 else None,
                         "results": [card_json(spec, c, request) for c in chunk]})


def api_card(request, game: str, code: str):
    spec = hosted_game(game)
    row = game_card(spec.slug, code)
    if row is None:
        return JsonResponse({"detail": f"No {spec.slug} card with code {code!r}."}, status=404)
    return JsonResponse(card_json(spec, row.to_data(), request))
