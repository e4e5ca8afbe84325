"""Decks, the editor with its live legality panel, decklists, the collection and opening hands of every hosted
game (CONTRACTS §7) at /<game>/…, through the registry's hooks only (cards/games/registry.py).

The editor keeps the decklist text as the deck's one source (CONTRACTS §2): typing re-checks it live (htmx posts
to /<game>/decks/live/), and the + / − buttons of the card browser and of the deck's list post the text with the
card to add or remove and get the canonical text back (/<game>/decks/area/)."""
from __future__ import annotations

import io

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from cards.game_views import card_rows, hosted_game, search
from cards.games import registry
from cards.games.query import QueryError
from cards.selectors import game_cards
from roc_site.inputs import InputError, loads

from .game_services import GameDeckError, game_collection_set, game_deck_restore, game_deck_save, \
    game_decklist_publish, read_text
from .models import GameCollectionCard, GameDeck, GameDecklist

BROWSER_LIMIT = 40
MAX_TEXT = 100_000


def _deckbuilding(spec):
    if not spec.has("check_text"):
        raise Http404(f"The game {spec.slug!r} has no deckbuilding.")


def _fmt(spec, raw) -> str:
    return raw if raw in spec.formats else spec.formats[0]


def _owned(request, spec) -> dict[str, int]:
    if not request.user.is_authenticated:
        return {}
    return dict(GameCollectionCard.objects.filter(user=request.user, game=spec.slug)
                .values_list("card_code", "count"))


def deck_view(spec, counts: dict[str, int], cards: list[dict], fmt: str, *, owned: dict | None = None,
              user=None) -> dict:
    """What the editor's live panel and the deck pages show: the verdict, the identity and the cards by section."""
    by_code = {c["code"]: c for c in cards}
    verdict = spec.hook("check_deck")(counts, cards, fmt)
    sections: dict[str, list] = {s.label: [] for s in spec.sections}
    for code, n in counts.items():
        card = by_code.get(code)
        if card is None:
            continue
        label = spec.section_of(card)
        sections.setdefault(label, []).append({"card": card, "count": n, "group": card_rows(spec, [card])[0]["group"],
                                               "missing": max(0, n - owned.get(code, 0)) if owned else 0})
    for rows in sections.values():
        rows.sort(key=lambda r: (r["card"].get("cost") or 0, r["card"]["name"]))
    identity = spec.hook("identity")(counts, cards) if spec.has("identity") else {}
    label = identity.get("affiliation_name") or identity.get("group") or ""
    doctor = None
    if spec.has("doctor") and counts:   # the deck doctor's reading (decks/doctor.py), suggestions from `user`'s cards
        from .doctor import diagnose_counts, for_page
        doctor = for_page(diagnose_counts(counts, game_slug=spec.slug, cards=cards, user=user, fmt=fmt))
    return {"verdict": verdict, "identity": identity, "identity_label": label, "fmt": fmt, "doctor": doctor,
            "total": sum(counts.values()), "charts": deck_stat_charts(spec, counts, by_code),
            "sections": [(label, rows, sum(r["count"] for r in rows)) for label, rows in sections.items() if rows]}


def deck_stat_charts(spec, counts: dict[str, int], by_code: dict[str, dict]) -> list[dict]:
    """The live panel's statistics, as r1's editor has them, from the cards' own data: the cost curve, the cards by
    type and by group (the game's faction or affiliation), and what the deck's cards provide and consume where
    the cards carry resources. Charts as r1's (decks/charts.py): [{"id", "title", "svg"}]."""
    from .charts import _bar

    charts: list[dict] = []
    rows = [(by_code[code], n) for code, n in counts.items() if code in by_code]
    if not rows:
        return charts

    def add(key: str, title: str, labels: list[str], series: dict[str, list[int]], **kw) -> None:
        if labels and any(any(v) for v in series.values()):
            charts.append({"id": key, "title": title, "svg": _bar(title, labels, series, **kw)})

    costs: dict[int, int] = {}
    for card, n in rows:
        cost = card.get("cost")
        if isinstance(cost, int) and not isinstance(cost, bool):
            costs[cost] = costs.get(cost, 0) + n
    if costs:
        span = list(range(min(costs), max(costs) + 1))
        add("cost", "Cost curve", [str(c) for c in span], {"cards": [costs.get(c, 0) for c in span]},
            x_title="cost")
    types: dict[str, int] = {}
    groups: dict[str, int] = {}
    for card, n in rows:
        kind = str(card.get("type") or "other").replace("_", " ")
        types[kind] = types.get(kind, 0) + n
        group = card_rows(spec, [card])[0]["group"] or "none"
        groups[group] = groups.get(group, 0) + n
    by_size = sorted(types.items(), key=lambda kv: -kv[1])
    add("types", "Cards by type", [k.title() for k, _ in by_size], {"cards": [v for _, v in by_size]},
        horizontal=True)
    if len(groups) > 1:
        by_size = sorted(groups.items(), key=lambda kv: -kv[1])
        add("groups", "Cards by group", [k.replace("-", " ").title() for k, _ in by_size],
            {"cards": [v for _, v in by_size]}, horizontal=True)
    resources: dict[str, list[int]] = {}
    for card, n in rows:
        for side, key in ((0, "provides"), (1, "consumes")):
            for name, k in (card.get(key) or {}).items() if isinstance(card.get(key), dict) else ():
                if isinstance(k, int) and k:
                    resources.setdefault(name, [0, 0])[side] += k * n
    if resources:
        names = sorted(resources)
        add("resources", "Resources: icons provided and consumed", [r.title() for r in names],
            {"provided": [resources[r][0] for r in names], "consumed": [resources[r][1] for r in names]})
    return charts


def _text_of(request) -> str:
    text = request.POST.get("text", "")
    return text[:MAX_TEXT]


def _live_context(request, spec, text: str, fmt: str) -> dict:
    cards = game_cards(spec.slug)
    verdict = spec.hook("check_text")(text, cards, fmt)
    counts, _problems = spec.hook("parse_decklist")(text, cards)
    ctx = deck_view(spec, counts, cards, fmt, owned=_owned(request, spec), user=request.user)
    ctx["verdict"] = verdict  # the text's verdict: its unreadable lines come first
    return {"game": spec, **ctx, "fmt": fmt, "editing": True}


@require_POST
def live(request, game: str):
    """POST /<game>/decks/live/ (htmx): the live panel for the posted decklist text."""
    spec = hosted_game(game)
    _deckbuilding(spec)
    return render(request, "games/_deck_live.html",
                  _live_context(request, spec, _text_of(request), _fmt(spec, request.POST.get("fmt"))))


@require_POST
def area(request, game: str):
    """POST /<game>/decks/area/ with `add=CODE` or `remove=CODE`: the decklist text with one copy more or less,
    written back in the game's canonical form, and its live panel."""
    spec = hosted_game(game)
    _deckbuilding(spec)
    cards = game_cards(spec.slug)
    text = _text_of(request)
    counts, problems = spec.hook("parse_decklist")(text, cards)
    known = {c["code"] for c in cards}
    add, remove = request.POST.get("add"), request.POST.get("remove")
    if not problems:
        if add in known:
            counts[add] = counts.get(add, 0) + 1
        if remove in counts:
            counts[remove] -= 1
            if counts[remove] <= 0:
                del counts[remove]
        text = spec.hook("export_decklist")(counts, cards)
    fmt = _fmt(spec, request.POST.get("fmt"))
    ctx = _live_context(request, spec, text, fmt)
    ctx.update(text=text, edit_problems=bool(problems))
    return render(request, "games/_deck_area.html", ctx)


def browser_page(request, total: int) -> tuple[int, int]:
    """The browser's page (`?page=N`, from 1; a page past the last shows the last) and the number of pages."""
    pages = max(1, -(-total // BROWSER_LIMIT))
    raw = request.GET.get("page", "1")
    page = int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 7 else 1
    return min(max(page, 1), pages), pages


def browser(request, game: str):
    """GET /<game>/decks/browser/?q=…&page=N: cards to add (the game's search), BROWSER_LIMIT a page, each with
    + and − buttons."""
    from urllib.parse import urlencode

    spec = hosted_game(game)
    q = request.GET.get("q", "")
    error, found = None, []
    try:
        found = search(spec, q)
    except QueryError as exc:
        error = exc.message
    page, pages = browser_page(request, len(found))
    start = (page - 1) * BROWSER_LIMIT

    def link(n):
        return f"/{spec.slug}/decks/browser/?{urlencode({'q': q, 'page': n})}" if 1 <= n <= pages and n != page \
            else None

    return render(request, "games/_deck_browser.html", {
        "game": spec, "rows": card_rows(spec, found[start:start + BROWSER_LIMIT]), "error": error,
        "total": len(found), "first": start + 1, "last": min(start + BROWSER_LIMIT, len(found)), "page": page,
        "pages": pages, "prev_url": link(page - 1), "next_url": link(page + 1)})


def _editor(request, spec, *, deck: GameDeck | None, text: str, name: str, fmt: str, error=None, problems=()):
    ctx = _live_context(request, spec, text, fmt)
    ctx.update(deck=deck, text=text, name=name, error=error, problems=problems,
               starters=spec.hook("starters")() if spec.has("starters") else [])
    return render(request, "games/deck_editor.html", ctx, status=400 if error else 200)


def editor(request, game: str, pk: int | None = None):
    """GET/POST /<game>/decks/new/ and /<game>/decks/ID/edit/: the deck editor; POST saves (signed in)."""
    spec = hosted_game(game)
    _deckbuilding(spec)
    cards = game_cards(spec.slug)
    deck = None
    if pk is not None:
        deck = get_object_or_404(GameDeck, pk=pk, game=spec.slug, owner=request.user.pk or -1, deleted_at=None)
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"/accounts/login/?next=/{spec.slug}/decks/new/")
        text, name, fmt = _text_of(request), request.POST.get("name", ""), _fmt(spec, request.POST.get("fmt"))
        try:
            counts = read_text(spec, text, cards)
            saved = game_deck_save(game=spec, owner=request.user, name=name, counts=counts, fmt=fmt,
                                   notes=request.POST.get("notes", ""),
                                   is_private=bool(request.POST.get("is_private")), deck=deck)
        except GameDeckError as exc:
            return _editor(request, spec, deck=deck, text=text, name=name, fmt=fmt, error=exc.message,
                           problems=exc.problems)
        return redirect(saved.get_absolute_url())
    if deck is not None:
        text = spec.hook("export_decklist")(deck.cards, cards)
        return _editor(request, spec, deck=deck, text=text, name=deck.name, fmt=deck.fmt)
    text, name = "", ""
    starter = request.GET.get("starter")
    from simulator.games.picks import reader_text

    for label, starter_text in (spec.hook("starters")() if spec.has("starters") else []):
        if starter and label.lower().startswith(starter.lower()):
            text, name = reader_text(starter_text), label
    return _editor(request, spec, deck=None, text=text, name=name, fmt=spec.formats[0])


def deck_list(request, game: str):
    spec = hosted_game(game)
    decks = []
    if request.user.is_authenticated:
        decks = GameDeck.objects.filter(game=spec.slug, owner=request.user, deleted_at=None)
    return render(request, "games/deck_list.html", {
        "game": spec, "decks": decks, "deckbuilding": spec.has("check_text"),
        "starters": spec.hook("starters")() if spec.has("starters") else []})


def visible_deck(request, spec, pk) -> GameDeck:
    """A saved deck of game `spec` that this request may see: its owner's, or anyone's public one (404 otherwise;
    also used by the hosted games' simulate page, simulator/games/views.py)."""
    deck = get_object_or_404(GameDeck, pk=pk, game=spec.slug, deleted_at=None)
    if deck.is_private and deck.owner_id != request.user.pk:
        raise Http404("No such deck.")
    return deck


def _hands_rows(spec, counts, cards) -> dict | None:
    if not spec.has("hands"):
        return None
    try:
        return spec.hook("hands")(counts, cards, {})
    except ValueError:
        return None


def deck_detail(request, game: str, pk: int):
    spec = hosted_game(game)
    deck = visible_deck(request, spec, pk)
    cards = game_cards(spec.slug)
    ctx = deck_view(spec, deck.cards, cards, deck.fmt, owned=_owned(request, spec), user=request.user)
    return render(request, "games/deck_detail.html", {
        "game": spec, "deck": deck, **ctx, "text": spec.hook("export_decklist")(deck.cards, cards, deck.name),
        "hands": _hands_rows(spec, deck.cards, cards), "versions": deck.versions.all()[:20],
        "is_owner": deck.owner_id == request.user.pk})


def deck_text(request, game: str, pk: int):
    spec = hosted_game(game)
    deck = visible_deck(request, spec, pk)
    text = spec.hook("export_decklist")(deck.cards, game_cards(spec.slug), deck.name)
    return HttpResponse(text, content_type="text/plain; charset=utf-8")


def _sheet(spec, counts, cards) -> bytes:
    """A deck image: each card of the deck once, drawn by the game's frame, with its count."""
    from PIL import Image, ImageDraw

    by_code = {c["code"]: c for c in cards}
    entries = [(by_code[c], n) for c, n in counts.items() if c in by_code]
    entries.sort(key=lambda e: ([s.label for s in spec.sections].index(spec.section_of(e[0]))
                                if spec.section_of(e[0]) in [s.label for s in spec.sections] else 99,
                                e[0].get("cost") or 0, e[0]["name"]))
    w, h, cols = 250, 350, 8
    rows = max(1, -(-len(entries) // cols))
    sheet = Image.new("RGB", (cols * w, rows * h), (30, 26, 22))
    draw = ImageDraw.Draw(sheet)
    for i, (card, n) in enumerate(entries):
        x, y = (i % cols) * w, (i // cols) * h
        if spec.has("render_card"):
            sheet.paste(spec.hook("render_card")(card, "small").resize((w, h)), (x, y))
        draw.rectangle([x + 4, y + h - 40, x + 52, y + h - 6], fill=(20, 20, 20))
        draw.text((x + 12, y + h - 34), f"{n}x", fill=(255, 255, 255), font_size=22)
    buf = io.BytesIO()
    sheet.save(buf, "PNG", optimize=True)
    return buf.getvalue()


def deck_image(request, game: str, pk: int):
    spec = hosted_game(game)
    deck = visible_deck(request, spec, pk)
    return HttpResponse(_sheet(spec, deck.cards, game_cards(spec.slug)), content_type="image/png")


@login_required
@require_POST
def deck_restore(request, game: str, pk: int, number: int):
    spec = hosted_game(game)
    deck = get_object_or_404(GameDeck, pk=pk, game=spec.slug, owner=request.user, deleted_at=None)
    try:
        game_deck_restore(deck=deck, number=number)
    except GameDeckError as exc:
        return HttpResponse(exc.message, status=400)
    return redirect(deck.get_absolute_url())


@login_required
@require_POST
def deck_delete(request, game: str, pk: int):
    from django.utils import timezone

    spec = hosted_game(game)
    deck = get_object_or_404(GameDeck, pk=pk, game=spec.slug, owner=request.user, deleted_at=None)
    deck.deleted_at = timezone.now()
    deck.save(update_fields=["deleted_at"])
    return redirect(f"/{spec.slug}/decks/")


@login_required
@require_POST
def deck_publish(request, game: str, pk: int):
    spec = hosted_game(game)
    deck = get_object_or_404(GameDeck, pk=pk, game=spec.slug, owner=request.user, deleted_at=None)
    try:
        decklist = game_decklist_publish(deck=deck, title=request.POST.get("title", deck.name),
                                         description=request.POST.get("description", ""))
    except GameDeckError as exc:
        return HttpResponse(exc.message, status=400)
    return redirect(decklist.get_absolute_url())


def decklists(request, game: str):
    """GET /<game>/decklists/?group=…&card=CODE&author=…: the published lists, newest first."""
    spec = hosted_game(game)
    qs = GameDecklist.objects.filter(game=spec.slug).select_related("owner")
    group, card, author = request.GET.get("group", ""), request.GET.get("card", ""), request.GET.get("author", "")
    if group:
        qs = qs.filter(group=None if group == "general" else group)
    if author:
        qs = qs.filter(owner__username__icontains=author[:150])
    lists = list(qs[:500])
    if card:
        lists = [d for d in lists if card in d.cards]
    cards = {c["code"]: c for c in game_cards(spec.slug)}
    groups = [g for g in spec.group_colors(cards.values()) if g]
    return render(request, "games/decklists.html", {
        "game": spec, "decklists": lists[:100], "group": group, "card": card, "author": author, "groups": groups,
        "card_name": cards.get(card, {}).get("name")})


def decklist_detail(request, game: str, pk: int, slug: str = ""):
    spec = hosted_game(game)
    decklist = get_object_or_404(GameDecklist, pk=pk, game=spec.slug)
    cards = game_cards(spec.slug)
    ctx = deck_view(spec, decklist.cards, cards, decklist.fmt, owned=_owned(request, spec))
    return render(request, "games/decklist_detail.html", {
        "game": spec, "decklist": decklist, **ctx,
        "text": spec.hook("export_decklist")(decklist.cards, cards, decklist.title),
        "hands": _hands_rows(spec, decklist.cards, cards)})


def decklist_image(request, game: str, pk: int):
    spec = hosted_game(game)
    decklist = get_object_or_404(GameDecklist, pk=pk, game=spec.slug)
    return HttpResponse(_sheet(spec, decklist.cards, game_cards(spec.slug)), content_type="image/png")


def collection(request, game: str):
    """GET/POST /<game>/collection/: the cards a player owns (own_CODE=N fields)."""
    spec = hosted_game(game)
    if not request.user.is_authenticated:
        return redirect(f"/accounts/login/?next=/{spec.slug}/collection/")
    error = None
    if request.method == "POST":
        counts = {}
        for key, value in request.POST.items():
            if key.startswith("own_"):
                value = value.strip() or "0"
                if not (value.isascii() and value.isdigit() and len(value) <= 6):   # "²".isdigit(); int() refuses it
                    error = f"{key[4:]}: owned copies are a whole number, not {value[:10]!r}."
                    break
                counts[key[4:]] = int(value)
        if error is None:
            try:
                game_collection_set(game=spec, user=request.user, counts=counts)
            except GameDeckError as exc:
                error = exc.message
        if error is None:
            nxt = request.POST.get("next", "")
            return redirect(nxt if nxt.startswith(f"/{spec.slug}/") else f"/{spec.slug}/collection/")
    owned = _owned(request, spec)
    cards = game_cards(spec.slug)
    rows = [{"card": c, "owned": owned.get(c["code"], 0)} for c in cards]
    return render(request, "games/collection.html", {
        "game": spec, "rows": rows, "total": sum(owned.values()), "error": error},
        status=400 if error else 200)


def hands_page(request, game: str):
    """GET/POST /<game>/hands/: the exact opening-hand report of a pasted list or a saved deck (?deck=ID)."""
    spec = hosted_game(game)
    if not spec.has("hands"):
        raise Http404(f"The game {spec.slug!r} has no opening-hand report.")
    cards = game_cards(spec.slug)
    text = request.POST.get("text", "")[:MAX_TEXT]
    query = request.POST.get("query", "")[:200]
    if request.GET.get("deck"):
        deck = visible_deck(request, spec, request.GET["deck"]) if request.GET["deck"].isdigit() else None
        if deck is None:
            raise Http404("No such deck.")
        text = spec.hook("export_decklist")(deck.cards, cards)
    report, error = None, None
    if text:
        try:
            counts = read_text(spec, text, cards)
            groups = [{"label": query, "query": query, "k": 1}] if query else []
            report = spec.hook("hands")(counts, cards, {"groups": groups})
        except GameDeckError as exc:
            error = exc.message + " " + "; ".join(p["message"] for p in exc.problems[:5])
        except (ValueError, QueryError) as exc:
            error = str(exc)
    return render(request, "games/hands.html", {"game": spec, "text": text, "query": query, "report": report,
                                                "error": error}, status=400 if error else 200)


# ---- the HTTP API ---------------------------------------------------------------------------------------------
def _json_body(request) -> dict:
    try:
        data = loads(request.body or b"{}", field="", max_bytes=None)  # the body's size: InputGuardMiddleware
    except InputError as exc:
        raise GameDeckError(f"Malformed request body: {str(exc).lstrip(': ')}") from None
    if not isinstance(data, dict):
        raise GameDeckError("The request body must be a JSON object.")
    return data


def api_validate(request, game: str):
    """POST /<game>/api/decks/validate/ {"text": …, "format": …}: the validatedeck JSON (CONTRACTS §3, §7)."""
    spec = hosted_game(game)
    if request.method != "POST":
        return JsonResponse({"detail": "Use POST."}, status=405)
    try:
        data = _json_body(request)
        text = data.get("text")
        if not isinstance(text, str):
            raise GameDeckError('"text" must be the decklist as a string.')
        if len(text) > MAX_TEXT:
            raise GameDeckError(f'"text" is longer than {MAX_TEXT:,} characters.')
        fmt = data.get("format") or spec.formats[0]
        if fmt not in spec.formats:
            raise GameDeckError(f'"format" must be one of {", ".join(spec.formats)}.')
        if not spec.has("check_text"):
            raise GameDeckError(f"The game {spec.slug!r} has no deckbuilding to check.")
    except GameDeckError as exc:
        return JsonResponse({"detail": exc.message}, status=400)
    return JsonResponse(spec.hook("check_text")(text, game_cards(spec.slug), fmt))


def api_hands(request, game: str):
    """POST /<game>/api/hands/ {"text": …, "groups": [{"query", "k"}], "turns", "plays_per_turn", "mulligan"}."""
    spec = hosted_game(game)
    if request.method != "POST":
        return JsonResponse({"detail": "Use POST."}, status=405)
    if not spec.has("hands"):
        return JsonResponse({"detail": f"The game {spec.slug!r} has no opening-hand report."}, status=400)
    cards = game_cards(spec.slug)
    try:
        data = _json_body(request)
        text = data.get("text")
        if not isinstance(text, str):
            raise GameDeckError('"text" must be the decklist as a string.')
        counts = read_text(spec, text[:MAX_TEXT], cards)
        groups = data.get("groups") or []
        if not isinstance(groups, list) or not all(isinstance(g, dict) and isinstance(g.get("query"), str)
                                                   for g in groups):
            raise GameDeckError('"groups" must be a list of {"query": "...", "k": n}.')
        for i, g in enumerate(groups):
            k = g.get("k", 1)
            if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= 99:
                raise GameDeckError(f'groups[{i}].k: at least k copies, a whole number from 1 to 99, not '
                                    f'{str(k)[:20]!r}.')
            if not isinstance(g.get("label", ""), (str, type(None))):
                raise GameDeckError(f'groups[{i}].label: a string.')
        options = {k: data.get(k) for k in ("turns", "plays_per_turn", "mulligan")}
        options["groups"] = groups
        report = spec.hook("hands")(counts, cards, options)
    except GameDeckError as exc:
        return JsonResponse({"detail": exc.message, "errors": exc.problems}, status=400)
    except (ValueError, QueryError, KeyError, TypeError) as exc:
        return JsonResponse({"detail": str(exc)}, status=400)
    return JsonResponse(report)


def api_decks(request, game: str):
    """GET /<game>/api/decks/: the signed-in player's decks (owner only)."""
    spec = hosted_game(game)
    if not request.user.is_authenticated:
        return JsonResponse({"detail": "Authentication credentials were not provided."}, status=403)
    decks = GameDeck.objects.filter(game=spec.slug, owner=request.user, deleted_at=None)
    return JsonResponse({"count": len(decks), "results": [
        {"id": d.pk, "name": d.name, "game": d.game, "format": d.fmt, "cards": d.cards, "identity": d.identity,
         "version": d.version, "url": request.build_absolute_uri(d.get_absolute_url())} for d in decks]})


def api_decklists(request, game: str):
    """GET /<game>/api/decklists/: published lists (public)."""
    spec = hosted_game(game)
    lists = GameDecklist.objects.filter(game=spec.slug).select_related("owner")[:200]
    return JsonResponse({"count": len(lists), "results": [
        {"id": d.pk, "title": d.title, "game": d.game, "format": d.fmt, "author": d.owner.username,
         "cards": d.cards, "identity": d.identity, "published_at": d.published_at.isoformat(),
         "url": request.build_absolute_uri(d.get_absolute_url())} for d in lists]})


def game_home(request, game: str):
    spec = hosted_game(game)
    return render(request, "games/home.html", {"game": spec, "card_count": len(game_cards(spec.slug)),
                                               "deckbuilding": spec.has("check_text"),
                                               "hands": spec.has("hands")})


def r1_prefix(request, rest: str = ""):
    """/r1/… is r1's site at its own URLs (CONTRACTS §7: r1 needs no prefix)."""
    target = "/" + rest
    if request.META.get("QUERY_STRING"):
        target += "?" + request.META["QUERY_STRING"]
    return redirect(target, permanent=False)


__all__ = ["registry"]
