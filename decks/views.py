"""Deck and decklist pages. Views only translate: read the request, call a selector or service, render.

/decks/ (your decks + import a list), /decks/ID/ (one deck: legality, cards, statistics, versions, publish),
/decklists/ (published lists, filtered), /decklists/ID-slug/ (one published list, no login), and its image.
Every page works with plain links and forms; permissions are checked here, never by hiding template parts.
"""
from __future__ import annotations

import re

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.cache import patch_vary_headers
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from cards.games.r1.facts import CARD_TYPES, FACTION_NAMES
from cards.starters import starter, starters

from .collection import export_collection_csv
from .decklist import check_decklist_text, export_decklist, parse_decklist
from .legality import MIN_DRAW_CARDS, check_deck, effective_cost
from .markdown import render_markdown
from .models import Deck, Decklist
from .pool import CardPool, card_title, is_draw_card
from .selectors import (DECKLIST_SORTS, DecklistFilterError, collection_counts, comment_can_delete,
                        comment_can_moderate, deck_buildability, deck_counts_by_deck, deck_list_deleted,
                        deck_list_owned, deck_list_visible, deck_versions, decklist_comment_counts, decklist_comments,
                        decklist_search, format_active, version_changes)
from .services import (MAX_COMMENT_CHARS, DeckInputError, collection_add_set, collection_import_csv, collection_set,
                       comment_create, comment_delete, comment_hide, deck_copy, deck_delete, deck_import_text,
                       deck_restore_version, deck_undelete, decklist_copy, decklist_favourite, decklist_like,
                       decklist_publish)
from .throttling import comment_throttle
from .charts import chart_css, deck_charts
from .stats import deck_key_figures, deck_stats, sample_hand

GROUPS = (("faction", "Faction"), ("destiny", "Destiny"), ("quest", "Quests"), ("unit", "Units"),
          ("location", "Locations"), ("attachment", "Attachments"), ("deed", "Deeds"))


# A plain-language fix for each kind of problem (the verdict's message says what is wrong; this says what to do).
FIXES = {
    "faction_count": "Keep exactly one faction card: choose it in step 1 and remove any other.",
    "destiny_count": "Keep exactly one destiny: choose it in step 2 and remove any other.",
    "quest_count": "Add or remove quests until the quest deck holds exactly 7 (filter the browser by Quests).",
    "draw_count": "Add units, locations, attachments or deeds until the draw deck reaches the minimum.",
    "copy_limit": "Cut copies down to the limit; cards with the same name share it, whatever their subtitles.",
    "bound_off_faction": "Remove the card, or choose a destiny that permits Bound cards of its faction.",
    "destiny_rule": "Follow the destiny's deckbuilding rule, or choose another destiny.",
    "banned": "Remove the card: it cannot be played in this format.",
    "restricted_list": "Keep only one card from the format's restricted list.",
    "unknown_card": "Check the spelling, or pick one of the suggested cards.",
    "ambiguous_card": "Write the subtitle too (Name, Subtitle) or the card code, to say which card you mean.",
    "bad_line": "Write the line as 3x Name, 3 Name or Name x3 (1 to 99 copies).",
    "loyalty_surcharge": "Legal: the card just costs more. In-faction cards keep the curve lower.",
}


def _with_fixes(verdict: dict, counts: dict[str, int] | None = None, pool: CardPool | None = None) -> dict:
    """The verdict with a plain-language `fix` beside each problem and the draw-deck size the deck needs (60, or
    its destiny's own minimum, §10.6), for pages (the API keeps CONTRACTS §3)."""
    for problem in verdict.get("errors", []) + verdict.get("warnings", []):
        problem["fix"] = FIXES.get(problem["code"], "")
    verdict["required_draw"] = MIN_DRAW_CARDS
    if counts and pool:
        destinies = [pool.get(c) for c in counts if pool.get(c) and pool.get(c)["type"] == "destiny"]
        if len(destinies) == 1:
            verdict["required_draw"] = (destinies[0].get("deckbuilding") or {}).get("min_draw_cards", MIN_DRAW_CARDS)
    return verdict


def _flags(verdict: dict | None) -> dict[str, list[str]]:
    """Verdict problems by the card (title or name) they concern, to show them inline beside the card."""
    flags: dict[str, list[str]] = {}
    for problem in (verdict or {}).get("errors", []) + (verdict or {}).get("warnings", []):
        for name in problem.get("cards", []):
            flags.setdefault(name, []).append(problem["message"])
    return flags


def _grouped(counts: dict[str, int], pool: CardPool, deck_faction: str | None,
             verdict: dict | None = None) -> list[dict]:
    """The deck's cards by type, each with its effective cost (§9.3) and the problems that name it (inline);
    unknown codes flagged at the end."""
    flags = _flags(verdict)
    groups = {kind: [] for kind, _ in GROUPS}
    unknown = []
    for code, n in counts.items():
        card = pool.get(code)
        if card is None:
            unknown.append({"code": code, "count": n, "title": code, "unknown": True})
            continue
        cost = effective_cost(card, deck_faction) if card["type"] not in ("faction", "destiny", "quest") else None
        groups.setdefault(card["type"], []).append({
            "code": code, "count": n, "title": card_title(card), "cost": "\u2013" if cost == "-" else cost,
            "printed": card.get("cost"),
            "surcharge": isinstance(cost, int) and isinstance(card.get("cost"), int) and cost != card["cost"],
            "surcharge_amount": cost - card["cost"] if isinstance(cost, int) and isinstance(card.get("cost"), int)
            else 0,
            "faction": card["faction"],
            "flags": flags.get(card_title(card), []) + (flags.get(card["name"], [])
                                                        if card["name"] != card_title(card) else [])})
    out = [{"label": label, "total": sum(c["count"] for c in groups[kind]),
            "cards": sorted(groups[kind], key=lambda c: c["title"].casefold())}
           for kind, label in GROUPS if groups[kind]]
    if unknown:
        out.append({"label": "No longer in the catalogue", "total": sum(c["count"] for c in unknown),
                    "cards": unknown})
    return out


def _visible_deck(request, pk: int) -> Deck:
    deck = deck_list_visible(user=request.user).filter(pk=pk).first()
    if deck is None:
        raise Http404("No such deck.")  # another user's private deck does not exist for you
    return deck


def _list_context(request, **extra) -> dict:
    return {"decks": deck_list_owned(user=request.user), "deleted": deck_list_deleted(user=request.user)[:10],
            "text": "", "name": "", "problems": [], "starters": starters()} | extra


@login_required
def deck_list(request):
    tag = " ".join(request.GET.get("tag", "").split()).lower()[:40]
    context = _list_context(request, tag=tag)
    picked = starter(request.GET.get("starter"))   # ?starter=SLUG: the import form starts from a starter deck
    if picked is not None:
        context.update(text=picked.text, name=f"{picked.faction} — {picked.title}"[:200], starter=picked.slug)
    undo = request.GET.get("undo", "")
    if undo.isdigit() and len(undo) < 12:  # just deleted: offer Undo first (only the owner's deleted decks)
        context["undo"] = deck_list_deleted(user=request.user).filter(pk=int(undo)).first()
    if tag:
        context["decks"] = [d for d in context["decks"] if tag in d.tags]  # a player's own decks: a short list
    context["decks"] = _with_legality(context["decks"])
    return render(request, "decks/list.html", context)


def _with_legality(decks) -> list[Deck]:
    """Each deck with its verdict (§11 and the active format) for the My decks table's "Legal" column: one query
    for all their cards, then the pure check per deck."""
    decks = list(decks)
    counts = deck_counts_by_deck(deck_ids=[d.pk for d in decks])
    pool, fmt = CardPool.from_db(), format_active()
    for deck in decks:
        verdict = check_deck(counts.get(deck.pk, {}), pool, fmt)
        deck.legal = verdict.legal
        deck.legality_problems = [e.message for e in verdict.errors]
        deck.legality_format = verdict.format
    return decks


def _owned_deck(request, pk: int) -> Deck:
    deck = _visible_deck(request, pk)
    if deck.owner_id != request.user.pk:
        raise Http404("No such deck.")
    return deck


@login_required
@require_POST
def deck_delete_view(request, pk: int):
    deck = deck_delete(deck=_owned_deck(request, pk))
    messages.success(request, f"Deleted “{deck.name}”.")
    return redirect(f"/decks/?undo={deck.pk}")


@login_required
@require_POST
def deck_undelete_view(request, pk: int):
    deck = get_object_or_404(deck_list_deleted(user=request.user), pk=pk)
    deck_undelete(deck=deck)
    messages.success(request, f"“{deck.name}” is back, with all its versions.")
    return redirect(deck.get_absolute_url())


@login_required
@require_POST
def deck_copy_view(request, pk: int):
    result = deck_copy(deck=_visible_deck(request, pk), owner=request.user)
    messages.success(request, f"Copied as “{result.deck.name}” (private).")
    return redirect(result.deck.get_absolute_url())


@login_required
@require_POST
def deck_import(request):
    text = request.POST.get("text", "")[:100_001]
    name = request.POST.get("name", "").strip() or "Imported deck"
    try:
        if len(text) > 100_000:
            raise DeckInputError("The decklist is too long: at most 100,000 characters.")
        result = deck_import_text(owner=request.user, text=text, name=name)
    except DeckInputError as e:
        context = _list_context(request, text=text, name=name, error=e.summary, problems=e.problems)
        return render(request, "decks/list.html", context, status=400)
    messages.success(request, f"Imported “{result.deck.name}”.")
    return redirect(result.deck.get_absolute_url())


def deck_detail(request, pk: int):
    deck = _visible_deck(request, pk)
    pool = CardPool.from_db()
    counts = deck.counts
    verdict = check_deck(counts, pool, format_active())
    versions = list(deck_versions(deck=deck)[:50])
    history = [{"version": v, "changes": version_changes(versions[i + 1].cards if i + 1 < len(versions) else None,
                                                         v.cards)} for i, v in enumerate(versions)]
    for row in history:
        row["changes"] = {side: {_title(pool, c): n for c, n in cards.items()}
                          for side, cards in row["changes"].items()}
    context = {
        "deck": deck, "is_owner": deck.owner_id == request.user.pk, "verdict": _with_fixes(verdict.to_json(), counts, pool),
        "groups": _grouped(counts, pool, verdict.faction, verdict.to_json()), "stats": _page_stats(counts, pool),
        "history": history,
        "faction_name": FACTION_NAMES.get(verdict.faction or "", ""),
        "buildable": _buildable(request.user, counts, pool),
        "publications": deck.publications.order_by("-published_at")[:10],
        "notes": render_markdown(deck.notes),
    }
    context["charts"] = deck_charts(context["stats"])
    context.update(_deck_tools(request, counts, pool, name=deck.name))
    context["doctor"] = _doctor(counts, user=request.user, name=deck.name)
    return render(request, "decks/detail.html", context)


def _doctor(counts: dict[str, int], *, user=None, name: str = "") -> dict | None:
    """The deck doctor's reading for a page (decks/doctor.py), or None for an empty deck."""
    from .doctor import diagnose_counts, for_page
    if not counts:
        return None
    return for_page(diagnose_counts(counts, user=user, name=name))


def _deck_tools(request, counts: dict[str, int], pool: CardPool, *, name: str) -> dict:
    """What a deck's and a decklist's pages offer besides the list: the list or an image grid
    (`?view=images`), the text export to copy, and a sample hand — drawn here for `?hand=1` (no JavaScript),
    redrawn in the browser by static/js/deck-tools.js from `hand_deck`."""
    import random

    draw = [{"code": code, "title": card_title(pool.get(code)), "count": n}
            for code, n in sorted(counts.items()) if pool.get(code) is not None and is_draw_card(pool.get(code))]
    tools = {"view": "images" if request.GET.get("view") == "images" else "list",
             "export_text": export_decklist(counts, pool, name=name), "hand_deck": draw,
             "hand_size": sum(c["count"] for c in draw)}
    if request.GET.get("hand") == "1":
        tools["hand"] = sample_hand(counts, pool, random.SystemRandom())
    return tools


def _page_stats(counts: dict[str, int], pool: CardPool) -> dict:
    """deck_stats plus what pages show: each opening-hand chance as a percentage."""
    stats = deck_stats(counts, pool)
    for row in stats["opening_hand"]:
        row["percent"] = f"{100 * row['p']:.1f}"
    return stats


def charts_stylesheet(request):
    """The deck charts' CSS (pygal's, scoped), as a file: the Content-Security-Policy forbids inline styles."""
    response = HttpResponse(chart_css(), content_type="text/css; charset=utf-8")
    response["Cache-Control"] = "public, max-age=3600"
    return response


def _buildable(user, counts: dict[str, int], pool: CardPool) -> dict | None:
    """What the deck lacks beyond the user's collection; None until they record one."""
    if not collection_counts(user=user):
        return None
    result = deck_buildability(deck_counts=counts, user=user)
    result["missing_titles"] = [(code, _title(pool, code), n) for code, n in result["missing"].items()]
    result["missing_total"] = sum(result["missing"].values())
    return result


def _title(pool: CardPool, code: str) -> str:
    card = pool.get(code)
    return card_title(card) if card else code


@login_required
def deck_restore(request, pk: int, number: int):
    """GET: what restoring version `number` would change, with a button to do it (a restore replaces the list
    the deck shows, so it is never one click from the history); POST: restore it as a new version."""
    deck = _owned_deck(request, pk)
    if request.method != "POST":
        old = deck_versions(deck=deck).filter(number=number).first()
        if old is None:
            raise Http404(f"Deck {deck.pk} has no version {number}.")
        pool = CardPool.from_db()
        changes = version_changes(deck.counts, old.cards)
        context = {"deck": deck, "old": old,
                   "added": sorted(((_title(pool, c), n) for c, n in changes["added"].items()),
                                   key=lambda r: r[0].casefold()),
                   "removed": sorted(((_title(pool, c), n) for c, n in changes["removed"].items()),
                                     key=lambda r: r[0].casefold()),
                   "renamed": old.name != deck.name}
        return render(request, "decks/restore_confirm.html", context)
    try:
        result = deck_restore_version(deck=deck, number=number)
    except DeckInputError as e:
        messages.error(request, e.message)
    else:
        messages.success(request, f"Version {number} restored as version {result.version.number}.")
    return redirect(deck.get_absolute_url())


@login_required
@require_POST
def deck_publish(request, pk: int):
    deck = _owned_deck(request, pk)
    try:
        decklist = decklist_publish(deck=deck, title=request.POST.get("title", "")[:300],
                                    description=request.POST.get("description", "")[:20_001], fmt=format_active())
    except DeckInputError as e:
        messages.error(request, e.message)
        return redirect(deck.get_absolute_url())
    messages.success(request, "Published. Anyone with the link can see this decklist.")
    return redirect(decklist.get_absolute_url())


# ---- published decklists -----------------------------------------------------------------------------------
def decklist_list(request):
    from cards.search import SearchError

    get = request.GET
    from datetime import date

    from cards.models import Card

    state = {"faction": get.get("faction", "") if get.get("faction", "") in FACTION_NAMES else "",
             "destiny": get.get("destiny", "")[:32], "q": get.get("q", "").strip()[:500],
             "author": get.get("author", "").strip()[:150], "since": get.get("since", "").strip()[:20],
             "until": get.get("until", "").strip()[:20],
             "favourites": "1" if get.get("favourites") == "1" and request.user.is_authenticated else "",
             "sort": get.get("sort", "date") if get.get("sort", "date") in DECKLIST_SORTS else "date",
             "card": get.get("card", "").strip()[:32]}
    error, page, held = None, None, None
    # The page's form sends every field, empty ones too: here an empty field means "any" (the API, which no form
    # feeds, answers 400 to an empty parameter instead).
    bad = next((state[key] for key in ("since", "until") if state[key] and not _is_date(state[key])), None)
    try:
        if bad is not None:
            raise DecklistFilterError(f"'{bad}' is not a date: use YYYY-MM-DD.")
        since = date.fromisoformat(state["since"]) if state["since"] else None
        until = date.fromisoformat(state["until"]) if state["until"] else None
        if state["card"]:  # a code is [a-z0-9-]{1,32} (CONTRACTS §1); anything else names no card
            held = Card.objects.filter(code=state["card"]).first() if _CARD_CODE.fullmatch(state["card"]) else None
            if held is None:
                raise DecklistFilterError(f"No card with code {state['card']!r}: remove the card filter.")
        qs = decklist_search(faction=state["faction"] or None, destiny=state["destiny"] or None,
                             query=state["q"] or None, author=state["author"] or None, since=since, until=until,
                             sort=state["sort"], user=request.user, cards=[held.code] if held else None,
                             favourites_of=request.user if state["favourites"] else None)
        page = Paginator(qs, 30).get_page(get.get("page"))
    except (DecklistFilterError, SearchError) as e:
        error = str(e)
    tiles = _decklist_tiles(page.object_list) if page is not None else []
    context = {"state": state, "page": page, "error": error, "query_string": _query_string(state), "tiles": tiles,
               "held_card": held if not error else None,
               "without_card": _query_string({k: v for k, v in state.items() if k != "card"}),
               "factions": [(slug, name) for slug, name in FACTION_NAMES.items() if slug != "neutral"],
               "destinies": Card.objects.filter(type="destiny").order_by("name").values_list("code", "name")}
    return render(request, "decks/decklists.html", context, status=400 if error else 200)


_CARD_CODE = re.compile(r"[a-z0-9-]{1,32}")
CURVE_BAR_HEIGHT = 28


def _decklist_tiles(decklists) -> list[dict]:
    """A page of the decklist browser as tiles: each list with its key figures (draw cards by type, quests, cost
    curve) and its number of comments: a pure function of the frozen cards per list, one query for the comments."""
    pool = CardPool.from_db()
    decklists = list(decklists)
    comments = decklist_comment_counts(decklist_ids=[d.pk for d in decklists])
    tiles = []
    for d in decklists:
        figures = deck_key_figures(d.cards, pool)
        top = max(bar["n"] for bar in figures["curve"]) or 1
        for i, bar in enumerate(figures["curve"]):  # the sparkline: bars 15 px wide, up to 28 px high
            bar["height"] = round(CURVE_BAR_HEIGHT * bar["n"] / top)
            bar["x"], bar["y"] = 18 * i, CURVE_BAR_HEIGHT - bar["height"]
        tiles.append({"decklist": d, "figures": figures, "comments": comments.get(d.pk, 0)})
    return tiles


def _is_date(text: str) -> bool:
    import re
    from datetime import date

    try:
        date.fromisoformat(text)
    except ValueError:
        return False
    return re.fullmatch(r"\d{4}-\d{2}-\d{2}", text) is not None


def _query_string(state: dict) -> str:
    from urllib.parse import urlencode

    return urlencode({k: v for k, v in state.items() if v})


def decklist_detail(request, pk: int, slug: str = ""):
    decklist = get_object_or_404(Decklist.objects.select_related("owner", "faction", "destiny"), pk=pk)
    if slug != decklist.slug:
        return redirect(decklist.get_absolute_url(), permanent=True)
    pool = CardPool.from_db()
    verdict = check_deck(decklist.cards, pool)
    context = {
        "decklist": decklist, "groups": _grouped(decklist.cards, pool, verdict.faction),
        "stats": _page_stats(decklist.cards, pool),
        "description": render_markdown(decklist.description), "verdict": verdict.to_json(),
        "next_versions": decklist.next_versions.order_by("published_at"),
        "image_url": f"/decklists/{decklist.pk}/image.png",
        "liked": request.user.is_authenticated and decklist.likes.filter(user=request.user).exists(),
        "is_author": decklist.owner_id == request.user.pk,
        "favourite": request.user.is_authenticated and decklist.favourites.filter(user=request.user).exists(),
        "absolute_image_url": request.build_absolute_uri(f"/decklists/{decklist.pk}/image.png"),
    }
    context["charts"] = deck_charts(context["stats"])
    context.update(_deck_tools(request, decklist.cards, pool, name=decklist.title))
    context.update(_comments_context(request, decklist))
    return render(request, "decks/decklist_detail.html", context)


def decklist_image(request, pk: int):
    from cards.deck_images import render_deck_image_from_counts

    decklist = get_object_or_404(Decklist, pk=pk)
    png = render_deck_image_from_counts(
        {c: n for c, n in decklist.cards.items()}, CardPool.from_db(), title=decklist.title)
    response = HttpResponse(png, content_type="image/png")
    response["Cache-Control"] = "public, max-age=86400"  # a decklist never changes
    return response


def deck_image(request, pk: int):
    """The deck as one image (faction, destiny, quests, draw cards with counts), for the deck's owner or anyone
    when it is public."""
    from cards.deck_images import render_deck_image_from_counts

    deck = _visible_deck(request, pk)
    png = render_deck_image_from_counts(deck.counts, CardPool.from_db(), title=deck.name)
    response = HttpResponse(png, content_type="image/png")
    response["Cache-Control"] = "private, max-age=0, must-revalidate"  # a deck changes; its versions do not
    return response


@login_required
@require_POST
def decklist_copy_view(request, pk: int):
    decklist = get_object_or_404(Decklist, pk=pk)
    result = decklist_copy(decklist=decklist, owner=request.user)
    messages.success(request, f"Copied to your decks as “{result.deck.name}” (private).")
    return redirect(result.deck.get_absolute_url())


@login_required
@require_POST
def decklist_like_view(request, pk: int):
    decklist = get_object_or_404(Decklist, pk=pk)
    try:
        decklist_like(decklist=decklist, user=request.user, on=request.POST.get("on", "1") == "1")
    except DeckInputError as e:
        messages.error(request, e.message)
    return redirect(decklist.get_absolute_url())


@login_required
@require_POST
def decklist_favourite_view(request, pk: int):
    decklist = get_object_or_404(Decklist, pk=pk)
    decklist_favourite(decklist=decklist, user=request.user, on=request.POST.get("on", "1") == "1")
    return redirect(decklist.get_absolute_url())


# ---- comments on a decklist ----------------------------------------------------------------------
COMMENTS_PER_PAGE = 50


def _comments_context(request, decklist: Decklist, *, body: str = "", error: str | None = None) -> dict:
    """The comments panel: this visitor's view of the comments (a page of them), each with its sanitised HTML and
    the buttons this visitor may use; the form keeps `body` after an error."""
    draft = request.session.get("comment_draft") if hasattr(request, "session") else None
    if not body and draft and draft.get("decklist") == decklist.pk:  # a plain form's post that failed: kept
        body = str(draft.get("body", ""))
        del request.session["comment_draft"]
    qs = decklist_comments(decklist=decklist, user=request.user)
    paginator = Paginator(qs, COMMENTS_PER_PAGE)
    page = paginator.get_page(request.GET.get("comments") or paginator.num_pages)  # newest page first
    comments = list(page.object_list)
    for comment in comments:
        comment.decklist = decklist  # the permission checks read its owner; no query per comment
        comment.html = render_markdown(comment.body)
        comment.may_hide = comment_can_moderate(comment=comment, user=request.user)
        comment.may_delete = comment_can_delete(comment=comment, user=request.user)
    return {"comments": comments, "comments_page": page, "comment_total": paginator.count,
            "comment_body": body, "comment_error": error, "max_comment_chars": MAX_COMMENT_CHARS}


def _comments_answer(request, decklist: Decklist, *, status: int = 200, anchor: str = "comments", **extra):
    """htmx gets the comments panel (swapped in place, errors too: static/js/deck-tools.js lets a 400/429 panel
    through); a plain form post goes back to the decklist's page (an error shown there as a message)."""
    if request.htmx:
        response = render(request, "decks/_comments.html",
                          {"decklist": decklist} | _comments_context(request, decklist, **extra), status=status)
        patch_vary_headers(response, ("HX-Request",))
        return response
    if extra.get("error"):
        messages.error(request, extra["error"])
        if extra.get("body"):
            request.session["comment_draft"] = {"decklist": decklist.pk, "body": extra["body"]}
    return redirect(f"{decklist.get_absolute_url()}#{anchor}")


def _decklist_comment(decklist: Decklist, comment_id: int):
    from .models import DecklistComment

    return get_object_or_404(DecklistComment.objects.select_related("author"), pk=comment_id, decklist=decklist)


@login_required
@require_POST
def decklist_comment_post(request, pk: int):
    decklist = get_object_or_404(Decklist, pk=pk)
    body = request.POST.get("body", "")[:MAX_COMMENT_CHARS * 2]
    wait = comment_throttle(request)
    if wait:
        return _comments_answer(request, decklist, status=429, body=body, error=wait)
    try:
        comment = comment_create(decklist=decklist, author=request.user, body=body)
    except DeckInputError as e:
        return _comments_answer(request, decklist, status=400, body=body, error=e.message)
    return _comments_answer(request, decklist, anchor=f"comment-{comment.pk}")


@login_required
@require_POST
def decklist_comment_hide(request, pk: int, comment_id: int):
    decklist = get_object_or_404(Decklist, pk=pk)
    comment = _decklist_comment(decklist, comment_id)
    if not comment_can_moderate(comment=comment, user=request.user):
        raise PermissionDenied("Only the decklist's author and staff can hide comments.")
    comment_hide(comment=comment, by=request.user, hidden=request.POST.get("on", "1") == "1")
    return _comments_answer(request, decklist, anchor=f"comment-{comment.pk}")


@login_required
@require_POST
def decklist_comment_delete(request, pk: int, comment_id: int):
    decklist = get_object_or_404(Decklist, pk=pk)
    comment = _decklist_comment(decklist, comment_id)
    if not comment_can_delete(comment=comment, user=request.user):
        raise PermissionDenied("Only the comment's writer, the decklist's author and staff can delete it.")
    comment_delete(comment=comment, by=request.user)
    if not request.htmx:
        messages.success(request, "Comment deleted.")
    return _comments_answer(request, decklist)


# ---- collection ---------------------------------------------------------------------------------------------
@login_required
def collection_page(request):
    """The player's collection: what they own, CSV import/export, whole sets."""
    from cards.models import CardSet

    pool = CardPool.from_db()
    problems, error, pasted, mode = [], None, "", "add"
    if request.method == "POST":
        try:
            if request.POST.get("action") == "set":
                copies = request.POST.get("copies", "1")
                collection_add_set(user=request.user, set_code=request.POST.get("set", "")[:32],
                                   copies=int(copies) if copies.isdigit() and len(copies) < 3 else 0)
                messages.success(request, "Set added to your collection.")
            else:
                text = pasted = request.POST.get("csv", "")[:2_000_000]
                # Adding is the default; replacing (every card not in the file goes to 0) is asked for by name.
                mode = "replace" if request.POST.get("mode") == "replace" else "add"
                upload = request.FILES.get("file")
                if upload is not None:
                    if upload.size > 2_000_000:
                        raise DeckInputError("The file is larger than 2 MB; that is not a collection CSV.")
                    try:
                        text = upload.read().decode("utf-8-sig")
                    except UnicodeDecodeError as e:
                        raise DeckInputError("The file is not UTF-8 text.") from e
                counts = collection_import_csv(user=request.user, text=text, replace=mode == "replace")
                messages.success(request, f"Collection {'replaced' if mode == 'replace' else 'imported'}: you now "
                                          f"own {sum(counts.values())} cards, {len(counts)} different.")
            return redirect("/collection/")
        except DeckInputError as e:
            error, problems = e.summary, e.problems
    owned = collection_counts(user=request.user)
    rows = sorted(((code, _title(pool, code), n) for code, n in owned.items()), key=lambda r: r[1].casefold())
    context = {"rows": rows, "total": sum(owned.values()), "sets": CardSet.objects.all(), "error": error,
               "problems": problems, "pasted": pasted, "mode": mode}
    return render(request, "decks/collection.html", context, status=400 if error else 200)


@login_required
@require_POST
def collection_set_card(request, code: str):
    """Set how many copies of one card you own, from any page (a card page's form posts here)."""
    count = request.POST.get("count", "")
    try:
        if not count.isdigit() or len(count) > 3:
            raise DeckInputError("The number of copies must be a whole number from 0 to 999.")
        collection_set(user=request.user, counts={code: int(count)})
    except DeckInputError as e:
        if request.htmx:
            return HttpResponse(e.message, status=400, content_type="text/plain; charset=utf-8")
        messages.error(request, e.message)
    else:
        if request.htmx:  # set from the card browser beside the editor: stay on the page, keep unsaved edits
            return HttpResponse(status=204)
        messages.success(request, f"You own {int(count)} of {_title(CardPool.from_db(), code)}.")
    target = request.POST.get("next", "")
    return redirect(target if url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()})
                    and target.startswith("/") else f"/cards/{code}/")


@login_required
def collection_export(request):
    text = export_collection_csv(collection_counts(user=request.user), CardPool.from_db())
    response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="collection.csv"'
    return response


# ---- compare ------------------------------------------------------------------------------------------------
def deck_compare(request, pk: int):
    """Two versions of a deck side by side (?a=1&b=3), or this deck against another visible one (?other=ID)."""
    deck = _visible_deck(request, pk)
    pool = CardPool.from_db()
    versions = {v.number: v for v in deck_versions(deck=deck)}
    other_id = request.GET.get("other", "")
    a = b = None
    if other_id.isdigit():
        other = _visible_deck(request, int(other_id))
        left, right = (deck.name, deck.counts), (other.name, other.counts)
    else:
        def pick(key, default):
            value = request.GET.get(key, "")
            number = int(value) if value.isdigit() and len(value) < 9 else default
            if number not in versions:
                raise Http404(f"Deck {deck.pk} has no version {number}.")
            return number, (f"{deck.name} v{number}", versions[number].cards)

        latest = deck.version
        (a, left), (b, right) = pick("a", max(latest - 1, 1)), pick("b", latest)
    codes = sorted(set(left[1]) | set(right[1]), key=lambda c: _title(pool, c).casefold())
    rows = [{"code": c, "title": _title(pool, c), "a": left[1].get(c, 0), "b": right[1].get(c, 0)} for c in codes]
    for row in rows:
        row["diff"] = row["b"] - row["a"]
    mine = deck_list_owned(user=request.user).exclude(pk=deck.pk).values_list("pk", "name")[:200]
    context = {"deck": deck, "left": left[0], "right": right[0], "rows": rows, "my_decks": mine,
               "versions": sorted(versions), "a": a, "b": b, "only_changes": request.GET.get("changes") == "1",
               "changed": sum(1 for row in rows if row["diff"])}
    return render(request, "decks/compare.html", context)


# ---- editor ------------------------------------------------------------------------------------------------
def _editor_context(request, *, deck: Deck | None, text: str, name: str, notes: str, tags: str, is_private: bool,
                    base_version: int | None, error: str | None = None, problems=(), menus=None) -> dict:
    """The editor page. The Faction and Destiny menus show the list's cards, except after a refused save, where
    they keep what the player had chosen (`menus`, the POST) so that nothing they did is lost."""
    from cards.models import Card

    pool = CardPool.from_db()
    live = _live_context(text, pool, request.user)
    menu = dict(live["identity"])
    for kind, _, _ in IDENTITY_KINDS:
        chosen = (menus or {}).get(kind, "")
        if chosen and (pool.get(chosen) or {}).get("type") == kind:
            menu[kind] = chosen
    return live | {
        "menu": menu, "shown": live["identity"],
        "deck": deck, "text": text, "name": name, "notes": notes, "tags": tags, "is_private": is_private,
        "base_version": base_version, "error": error, "problems": problems, "notes_html": render_markdown(notes),
        "factions": Card.objects.filter(type="faction").select_related("faction").order_by("faction__position"),
        "destinies": [(d, _destiny_rules(d.deckbuilding)) for d in Card.objects.filter(type="destiny").order_by("name")],
        "browser_factions": list(FACTION_NAMES.items()), "browser_types": BROWSER_TYPE_LABELS,
        "chosen_faction_code": live["identity"]["faction"], "chosen_destiny": live["identity"]["destiny"],
        "chosen_faction": live["verdict"].get("faction") or ""}


def _destiny_rules(rules: dict | None) -> str:
    """A destiny's deckbuilding rules (§10.6) in words."""
    rules = rules or {}
    parts = []
    if "min_draw_cards" in rules:
        parts.append(f"at least {rules['min_draw_cards']} draw cards")
    if "max_copies" in rules:
        parts.append(f"at most {rules['max_copies']} copies of a card")
    if rules.get("bound_factions"):
        parts.append("Bound cards of " + ", ".join(FACTION_NAMES.get(f, f) for f in rules["bound_factions"]))
    if rules.get("forbidden_types"):
        parts.append("no " + ", ".join(f"{t}s" for t in rules["forbidden_types"]))
    if "max_cost" in rules:
        parts.append(f"no draw card costing more than {rules['max_cost']}")
    return "; ".join(parts)


IDENTITY_KINDS = (("faction", "faction card", "Faction"), ("destiny", "destiny", "Destiny"))


def _line_for(code: str, pool: CardPool) -> str:
    """"1x Title" for a card, as a player would write it; its code when the title names several cards."""
    title = _title(pool, code)
    return f"1x {title}" if parse_decklist(f"1x {title}", pool).counts == {code: 1} else f"1x {code}"


def _identity_of(counts: dict[str, int], pool: CardPool) -> dict[str, list[str]]:
    """The codes of the faction cards and destinies a list holds."""
    found: dict[str, list[str]] = {kind: [] for kind, _, _ in IDENTITY_KINDS}
    for code in counts:
        card = pool.get(code)
        if card and card["type"] in found:
            found[card["type"]].append(code)
    return found


def _with_identity(text: str, post, pool: CardPool | None = None) -> str:
    """The decklist text the editor saves, given its Faction and Destiny menus. The text is the one source of
    truth: with scripts on, the menus edit it and follow it, so they agree and this changes nothing.

    Without scripts the page cannot keep them in step, so each menu is compared with the value the page was
    drawn with (`faction_shown`, `destiny_shown`): a menu the player changed replaces that card in the list;
    a menu left alone leaves the list as typed; a list with no such card gets the menu's. If both the menu and
    the list were changed, to different cards, that is a DeckInputError naming both (nothing is dropped
    silently)."""
    pool = pool or CardPool.from_db()
    parsed = parse_decklist(text, pool)
    counts = dict(parsed.counts)
    found = _identity_of(counts, pool)
    add, changed = [], False
    for kind, label, menu in IDENTITY_KINDS:
        chosen = post.get(kind, "")
        card = pool.get(chosen) if chosen else None
        if card is None or card["type"] != kind:
            continue
        in_text = found[kind]
        shown = post.get(f"{kind}_shown", "")
        if not in_text:
            add.append(_line_for(chosen, pool))
        elif in_text == [chosen] or chosen == shown:
            continue  # they agree, or the menu was left alone: the list says what the deck holds
        elif in_text == [shown] or not parsed.problems and shown in in_text:
            for code in in_text:  # the menu changed and the list did not: the menu's card replaces the list's
                del counts[code]
            counts[chosen] = 1
            changed = True
        else:
            names = " and ".join(f"“{_title(pool, c)}”" for c in in_text)
            raise DeckInputError(f"The list names the {label} {names}, but the {menu} menu says "
                                 f"“{_title(pool, chosen)}”: change one of them so that they agree.")
    if changed and not parsed.problems:
        text = export_decklist(counts, pool)
    return "\n".join(add + [text]) if add else text


@login_required
def deck_new(request):
    """Start a deck: choose a faction card and a destiny (its rules explained), then list the cards."""
    if request.method != "POST":
        return render(request, "decks/editor.html", _editor_context(
            request, deck=None, text="", name="", notes="", tags="", is_private=True, base_version=None))
    post = request.POST
    text = post.get("text", "")[:100_000]
    try:
        text = _with_identity(text, post)
        result = deck_import_text(owner=request.user, text=text, name=post.get("name", "")[:300],
                                  notes=post.get("notes", "")[:20_001], tags=_tags(post.get("tags", "")),
                                  is_private=post.get("is_private") == "on")
    except DeckInputError as e:
        context = _editor_context(request, deck=None, text=text, name=post.get("name", ""),
                                  notes=post.get("notes", ""), tags=post.get("tags", ""),
                                  is_private=post.get("is_private") == "on", base_version=None, error=e.summary,
                                  problems=e.problems, menus=post)
        return render(request, "decks/editor.html", context, status=400)
    messages.success(request, f"Saved “{result.deck.name}” (version 1).")
    return redirect(result.deck.get_absolute_url())


def _tags(raw: str) -> list[str]:
    return [t for t in (part.strip() for part in raw[:2000].split(",")) if t]


@login_required
def deck_edit(request, pk: int):
    """Edit a deck as text. Every save is a version; a save from a stale tab is kept too and flagged."""
    deck = _owned_deck(request, pk)
    if request.method != "POST":
        text = export_decklist(deck.counts, CardPool.from_db())
        return render(request, "decks/editor.html", _editor_context(
            request, deck=deck, text=text, name=deck.name, notes=deck.notes, tags=", ".join(deck.tags),
            is_private=deck.is_private, base_version=deck.version))
    post = request.POST
    base = post.get("base_version", "")
    base_version = int(base) if base.isdigit() and len(base) < 9 else None
    text = post.get("text", "")[:100_000]
    try:
        text = _with_identity(text, post)
        result = deck_import_text(owner=request.user, text=text, name=post.get("name", "")[:300], deck=deck,
                                  notes=post.get("notes", "")[:20_001], tags=_tags(post.get("tags", "")),
                                  is_private=post.get("is_private") == "on", base_version=base_version)
    except DeckInputError as e:
        context = _editor_context(request, deck=deck, text=text, name=post.get("name", ""),
                                  notes=post.get("notes", ""), tags=post.get("tags", ""),
                                  is_private=post.get("is_private") == "on", base_version=base_version,
                                  error=e.summary, problems=e.problems, menus=post)
        return render(request, "decks/editor.html", context, status=400)
    number = result.version.number
    if result.conflict:
        messages.warning(request, f"This deck was saved elsewhere after you opened it (you started from version "
                                  f"{base_version}). Both saves are kept: yours is version {number}; compare them "
                                  "under History.")
    else:
        messages.success(request, f"Saved as version {number}.")
    return redirect(deck.get_absolute_url())


@require_POST
def deck_check_fragment(request):
    """htmx: the legality panel for the text being edited (no save)."""
    text = request.POST.get("text", "")
    if len(text) > 100_000:
        return HttpResponse('<p class="error">The decklist is too long (at most 100,000 characters).</p>',
                            status=400)
    pool = CardPool.from_db()
    try:
        text = _with_identity(text, request.POST, pool)
    except DeckInputError as e:  # the menus and the list disagree: what Save would answer, shown live
        return render(request, "decks/_live.html", _live_context(text, pool, request.user)
                      | {"identity_error": e.message})
    return render(request, "decks/_live.html", _live_context(text, pool, request.user))


def _live_context(text: str, pool: CardPool, user=None) -> dict:
    """The editor's live side: verdict with fixes, the list grouped by type (effective costs, problems inline),
    statistics as charts and the opening-hand odds, all from the text being edited."""
    counts = parse_decklist(text, pool).counts
    verdict = _with_fixes(check_decklist_text(text, pool, format_active()).to_json(), counts, pool)
    stats = _page_stats(counts, pool)
    found = _identity_of(counts, pool)
    return {"verdict": verdict, "stats": stats, "charts": deck_charts(stats), "editable": True,
            "groups": _grouped(counts, pool, verdict.get("faction"), verdict),
            # What the Faction and Destiny menus show: the list's one card of each kind (none when 0 or 2+).
            "identity": {kind: codes[0] if len(codes) == 1 else "" for kind, codes in found.items()},
            # the deck doctor on the lines that read (the verdict above names the others)
            "doctor": _doctor(counts, user=user)}


@require_POST
def markdown_preview(request):
    """htmx: sanitised Markdown preview of notes, a description or a comment."""
    text = request.POST.get("notes", request.POST.get("description", request.POST.get("body", "")))
    return HttpResponse(render_markdown(text[:20_000]))


# ---- card browser beside the editor ------------------------------------------------------------------------
BROWSER_TYPES = CARD_TYPES
BROWSER_TYPE_LABELS = (("unit", "units"), ("location", "locations"), ("attachment", "attachments"), ("deed", "deeds"),
                       ("quest", "quests"), ("destiny", "destinies"), ("faction", "faction cards"))
BROWSER_LIMIT = 60


def card_browser(request):
    """Cards to add to the deck being edited: the search syntax (CONTRACTS §5) plus faction/type buttons and
    "legal for this deck" / "owned only" toggles. htmx gets the results fragment; without JS, a full page."""
    from cards.search import SearchError, search_cards

    get = request.GET
    q = get.get("q", "").strip()[:500]
    terms = [q] if q else []
    faction = get.get("faction", "")
    if faction in FACTION_NAMES:
        terms.append(f"f:{faction}")
    kind = get.get("type", "")
    if kind in BROWSER_TYPES:
        terms.append(f"t:{kind}")
    legal = get.get("legal", "")
    if legal in FACTION_NAMES and legal != "neutral":
        terms.append(f"legal:{legal}")
    if get.get("owned") == "1" and request.user.is_authenticated:
        terms.append("owned:yes")
    error, cards, total, page, pages = None, [], 0, 1, 1
    try:
        found = search_cards(" ".join(f"({t})" if " " in t else t for t in terms), user=request.user, sort="name")
        total = found.count()
        pages = max(1, -(-total // BROWSER_LIMIT))
        raw = get.get("page", "1")
        page = min(max(int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 7 else 1, 1), pages)
        cards = list(found[(page - 1) * BROWSER_LIMIT:page * BROWSER_LIMIT])
    except SearchError as e:
        error = str(e)
    params = get.copy()
    params.pop("page", None)

    def page_url(n):
        if not 1 <= n <= pages or n == page:
            return None
        params["page"] = str(n)
        return f"{request.path}?{params.urlencode()}"

    owned = collection_counts(user=request.user) if request.user.is_authenticated else {}
    for card in cards:
        card.owned = owned.get(card.code, 0)
    first = (page - 1) * BROWSER_LIMIT + 1
    context = {"cards": cards, "error": error, "q": q, "limit": BROWSER_LIMIT, "total": total, "page": page,
               "pages": pages, "first": first, "last": first + len(cards) - 1, "prev_url": page_url(page - 1),
               "next_url": page_url(page + 1),
               "view": "images" if get.get("view") == "images" else "list",
               "types": BROWSER_TYPE_LABELS, "factions": [(k, v) for k, v in FACTION_NAMES.items() if k != "neutral"],
               "state": {"type": kind, "legal": legal, "owned": get.get("owned") == "1"}}
    partial = request.htmx and not request.htmx.boosted
    response = render(request, "decks/_browser_results.html" if partial else "decks/browser.html", context,
                      status=400 if error else 200)
    patch_vary_headers(response, ("HX-Request",))
    return response


# ---- the whole account as one file ---------------------------------------------------------
@login_required
def account_archive(request):
    """Download every deck (every version) and the collection as one JSON file."""
    import json

    from .services import account_export

    body = json.dumps(account_export(user=request.user), ensure_ascii=False, indent=1)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="reign-of-kings-account.json"'
    return response


@login_required
@require_POST
def account_archive_import(request):
    """Import an account file: checked whole first; decks are added (never overwritten), versions kept."""
    from roc_site.inputs import InputError, loads

    from .services import account_import

    upload = request.FILES.get("file")
    try:
        if upload is None:
            raise DeckInputError("Choose the account file (.json) to import.")
        if upload.size > 10_000_000:
            raise DeckInputError("The file is larger than 10 MB; that is not an account file.")
        try:
            data = loads(upload.read(), field="", max_bytes=None)
        except InputError as e:
            raise DeckInputError(f"The file: {str(e).lstrip(': ')}.") from e
        summary = account_import(user=request.user, data=data)
    except DeckInputError as e:
        context = _list_context(request, error=e.summary, problems=e.problems)
        return render(request, "decks/list.html", context, status=400)
    extra = ""
    if summary.decklists or summary.likes or summary.favourites:
        extra = (f" {summary.decklists} published decklist(s) re-created; {summary.likes} like(s) and "
                 f"{summary.favourites} favourite(s) restored.")
    if summary.missing_marks:
        extra += f" {summary.missing_marks} liked or favourite decklist(s) are no longer on this site."
    messages.success(request, f"Imported {len(summary.decks)} deck{'s' if len(summary.decks) != 1 else ''} "
                              f"({summary.versions} versions) and {summary.collection_cards} collection "
                              f"card count(s).{extra} Nothing you already had was changed.")
    return redirect("/decks/")


@login_required
@require_POST
def deck_import_into(request, pk: int):
    """Paste a list into an open deck: replace its cards, or add them to the current list. One new version;
    any unreadable line saves nothing and is listed with suggestions."""
    deck = _owned_deck(request, pk)
    text = request.POST.get("text", "")
    mode = "add" if request.POST.get("mode") == "add" else "replace"
    try:
        if len(text) > 100_000:
            raise DeckInputError("The decklist is too long: at most 100,000 characters.")
        if mode == "add":
            pool = CardPool.from_db()
            parsed = parse_decklist(text, pool)
            merged = dict(deck.counts)
            for code, n in parsed.counts.items():
                merged[code] = merged.get(code, 0) + n
            text = export_decklist(merged, pool) if not parsed.problems else text
        result = deck_import_text(owner=request.user, text=text, name=None, deck=deck)
    except DeckInputError as e:
        messages.error(request, " ".join([e.summary] + [p.message for p in e.problems[:5]] + (
            [f"(and {len(e.problems) - 5} more)"] if len(e.problems) > 5 else [])))
        return redirect(deck.get_absolute_url() + "#import-h")
    messages.success(request, f"{'Added the pasted cards' if mode == 'add' else 'Replaced the list'}: "
                              f"version {result.version.number}.")
    return redirect(deck.get_absolute_url())
