"""A deck as one image for sharing, sized for Open Graph (1200x630 or taller).

    png = render_deck_image(faction_card, destiny, quests, [(card, 3), (other, 2), ...], title="Knights of Summer")
    png = render_deck_image_from_counts({"core-001": 1, "core-002": 3, ...}, pool, title="Knights of Summer")

Cards may be `Card` rows or CONTRACTS §1 dicts (what `decks.pool.CardPool` holds). A dict whose code is in the
catalogue is drawn from the catalogue's cached card image, so the deck shows exactly what the card pages show;
a dict unknown to the catalogue is rendered from its own data. The result is cached on disk under
`CARD_IMAGE_CACHE_DIR/decks/`, keyed by everything it shows, so repeated requests for an unchanged deck are a
file read.

Layout: a header with the title and the deck's counts; on the left the faction card and the destiny side by side,
and the quest deck as a table of wealth / momentum / spoils / levy (§2.4) — legible where thumbnails of quests
would not be; on the right the draw deck as a grid of card thumbnails, each with its count.
"""
from __future__ import annotations

import hashlib
import io
import json
import math
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageDraw

from cards.games.r1.facts import FACTION_NAMES
from .images import (
    BORDER,
    RENDER_LOCK,
    GOLD,
    INK,
    PARCHMENT,
    card_cache_key,
    card_png,
    darken,
    face_from_dict,
    font,
    hex_to_rgb,
    lighten,
    mix,
    render_card,
    text_width,
    vertical_gradient,
)
from .images import RENDERER_VERSION as CARD_RENDERER_VERSION

DECK_IMAGE_VERSION = "3"
WIDTH, MIN_HEIGHT = 1200, 630
MAX_CACHED_DECK_IMAGES = 2000
TYPE_ORDER = {"unit": 0, "location": 1, "attachment": 2, "deed": 3}


@dataclass
class _Entry:
    data: dict
    key: str
    color: str
    card: object | None  # the Card row, when the catalogue has it


def _catalogue_rows(codes: list[str]) -> dict:
    from .models import Card

    return Card.objects.select_related("faction", "card_set").in_bulk(codes, field_name="code")


def _entries(cards: list) -> list[_Entry]:
    """Card rows or dicts as entries, using one query for every dict's catalogue row."""
    from .models import Card

    codes = [c["code"] for c in cards if isinstance(c, dict) and c.get("code")]
    rows = _catalogue_rows(codes) if codes else {}
    out = []
    for c in cards:
        row = c if isinstance(c, Card) else rows.get(c.get("code"))
        if row is not None:
            out.append(_Entry(row.to_data(), card_cache_key(row), row.faction.color, row))
        else:
            blob = json.dumps(c, sort_keys=True, default=str, ensure_ascii=False).encode()
            face = face_from_dict(c)
            out.append(_Entry(c, CARD_RENDERER_VERSION + hashlib.sha256(blob).hexdigest()[:24], face.color, None))
    return out


def _thumbnail(entry: _Entry, size: tuple[int, int]) -> Image.Image:
    if entry.card is not None:
        with Image.open(card_png(entry.card, "small", key=entry.key).path) as im:
            small = im.convert("RGB")
    else:
        small = render_card(face_from_dict(entry.data), "small")
    return small.resize(size, Image.Resampling.LANCZOS)


def _pairs(items) -> list[tuple[object, int]]:
    """(card, count) pairs from a list of cards and/or pairs; counts of the same code add up."""
    out: dict[str, list] = {}
    for item in items or []:
        card, count = (item if isinstance(item, tuple) else (item, 1))
        code = card["code"] if isinstance(card, dict) else card.code
        if code in out:
            out[code][1] += int(count)
        else:
            out[code] = [card, int(count)]
    return [(c, n) for c, n in out.values() if n > 0]


def render_deck_image(faction_card, destiny, quests, draw_cards_with_counts, *, title: str | None = None) -> bytes:
    """The deck as a PNG (bytes): faction, destiny, quests and the draw deck as a grid of thumbnails with counts.

    `faction_card` and `destiny` may be None (an unfinished deck); `quests` is a list of cards or (card, count)
    pairs; `draw_cards_with_counts` a list of (card, count) pairs. 1200 pixels wide, at least 630 tall.
    """
    quest_pairs = _pairs(quests)
    draw_pairs = _pairs(draw_cards_with_counts)
    singles = [c for c in (faction_card, destiny) if c is not None]
    entries = _entries(singles + [c for c, _ in quest_pairs] + [c for c, _ in draw_pairs])
    faction_entry = entries[0] if faction_card is not None else None
    destiny_entry = entries[len(singles) - 1] if destiny is not None else None
    quest_entries = list(zip(entries[len(singles):len(singles) + len(quest_pairs)], (n for _, n in quest_pairs)))
    draw_entries = list(zip(entries[len(singles) + len(quest_pairs):], (n for _, n in draw_pairs)))
    draw_entries.sort(key=lambda e: (TYPE_ORDER.get(e[0].data.get("type"), 9), _cost_sort(e[0].data.get("cost")),
                                     e[0].data.get("name") or ""))

    key_blob = json.dumps({
        "v": DECK_IMAGE_VERSION, "title": title,
        "faction": faction_entry.key if faction_entry else None,
        "destiny": destiny_entry.key if destiny_entry else None,
        "quests": [(e.key, n) for e, n in quest_entries],
        "draw": [(e.key, n) for e, n in draw_entries],
    }, sort_keys=True).encode()
    key = hashlib.sha256(key_blob).hexdigest()[:32]
    cached = _cache_path(key)
    if cached is not None and cached.exists():
        return cached.read_bytes()

    with RENDER_LOCK:
        image = _draw(faction_entry, destiny_entry, quest_entries, draw_entries, title)
    buf = io.BytesIO()
    image.save(buf, format="PNG", compress_level=6)
    png = buf.getvalue()
    if cached is not None:
        _store(cached, png)
    return png


def render_deck_image_from_counts(counts: dict[str, int], pool, *, title: str | None = None) -> bytes:
    """The deck image for a deck given as card code -> count (what decks keep) and anything with
    `.get(code) -> card dict` (a `decks.pool.CardPool`, or a plain dict). Codes the pool does not know are
    skipped: reporting them is the legality check's job, not the picture's."""
    faction = destiny = None
    quests: list[tuple[dict, int]] = []
    draws: list[tuple[dict, int]] = []
    for code, count in counts.items():
        card = pool.get(code)
        if card is None or count <= 0:
            continue
        ctype = card.get("type")
        if ctype == "faction":
            faction = faction or card
        elif ctype == "destiny":
            destiny = destiny or card
        elif ctype == "quest":
            quests.append((card, count))
        else:
            draws.append((card, count))
    return render_deck_image(faction, destiny, quests, draws, title=title)


def _cost_sort(cost) -> tuple[int, int]:
    if isinstance(cost, int):
        return (0, cost)
    return (1, 0 if cost == "X" else 1)


def _cache_path(key: str) -> Path | None:
    from django.conf import settings

    base = getattr(settings, "CARD_IMAGE_CACHE_DIR", None)
    if not base:
        return None
    folder = Path(base) / "decks"
    folder.mkdir(parents=True, exist_ok=True)
    return folder / f"{key}.png"


def _store(path: Path, png: bytes) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    with os.fdopen(fd, "wb") as fh:
        fh.write(png)
    os.replace(tmp, path)
    files = sorted(path.parent.glob("*.png"), key=lambda p: p.stat().st_mtime)
    for old in files[:max(0, len(files) - MAX_CACHED_DECK_IMAGES)]:  # keep the cache bounded
        old.unlink(missing_ok=True)


# ---------------------------------------------------------------------------------------------------------------
# Drawing
# ---------------------------------------------------------------------------------------------------------------
HEADER_H = 84
MARGIN = 24
SIDE_W, SIDE_H = 138, 193
LEFT_W = 2 * SIDE_W + 24  # faction + destiny side by side
QUEST_ROW = 30
GRID_X = MARGIN + LEFT_W + 24
GRID_W = WIDTH - GRID_X - MARGIN
GAP = 8


def _grid_geometry(n: int, available_h: int) -> tuple[int, int, int, int]:
    """(thumb width, thumb height, columns, rows): the largest thumbnails that fit, at least 84 wide."""
    n = max(1, n)
    for w in range(170, 83, -2):
        h = int(w * 1.4)
        cols = max(1, (GRID_W + GAP) // (w + GAP))
        rows = math.ceil(n / cols)
        if rows * (h + GAP) - GAP <= available_h:
            return w, h, cols, rows
    # Too many cards for 630 pixels: the image grows taller, with thumbnails big enough to recognise.
    w = 112
    h = int(w * 1.4)
    cols = (GRID_W + GAP) // (w + GAP)
    return w, h, cols, math.ceil(n / cols)


def _draw(faction, destiny, quests, draws, title) -> Image.Image:
    color = hex_to_rgb(faction.color if faction else destiny.color if destiny else "#8c7b62")
    grid_top = HEADER_H + 16
    grid_available = MIN_HEIGHT - grid_top - MARGIN
    tw, th, cols, rows = _grid_geometry(len(draws), grid_available)
    grid_h = rows * (th + GAP) - GAP if draws else 0
    quest_rows = len(quests)
    left_h = grid_top + SIDE_H + 16 + QUEST_ROW + max(1, quest_rows) * QUEST_ROW + 6 + MARGIN
    height = max(MIN_HEIGHT, grid_top + grid_h + MARGIN, left_h)

    img = vertical_gradient(WIDTH, height, darken(color, 0.55), darken(color, 0.82))
    d = ImageDraw.Draw(img)

    # ---- header ------------------------------------------------------------------------------------------
    d.rectangle((0, 0, WIDTH, HEADER_H), fill=darken(color, 0.25))
    d.rectangle((0, HEADER_H - 4, WIDTH, HEADER_H), fill=GOLD)
    faction_name = (faction.data.get("name") if faction else None) or "No faction card"
    heading = title or faction_name
    size = 34
    while size > 16 and text_width("name", size, heading) > WIDTH - 2 * MARGIN - 260:
        size -= 1
    d.text((MARGIN, 34), heading, font=font("name", size), fill=(255, 255, 255), anchor="lm")
    draw_total = sum(n for _, n in draws)
    quest_total = sum(n for _, n in quests)
    bits = []
    if title and faction:
        bits.append(FACTION_NAMES.get(faction.data.get("faction"), faction_name))
    if destiny:
        bits.append(f"Destiny: {destiny.data.get('name')}")
    bits += [f"{draw_total} draw cards", f"{quest_total} quests"]
    sub = "   ·   ".join(bits)
    sub_size = 18
    while sub_size > 11 and text_width("bold", sub_size, sub) > WIDTH - 2 * MARGIN - 200:
        sub_size -= 1
    d.text((MARGIN, HEADER_H - 14), sub, font=font("bold", sub_size), fill=lighten(color, 0.75), anchor="ls")
    d.text((WIDTH - MARGIN, 34), "Reign of Kings DB", font=font("name", 20), fill=GOLD, anchor="rm")

    # ---- faction and destiny -----------------------------------------------------------------------------
    x = MARGIN
    for entry, label in ((faction, "Faction"), (destiny, "Destiny")):
        box = (x, grid_top, x + SIDE_W, grid_top + SIDE_H)
        if entry is not None:
            img.paste(_thumbnail(entry, (SIDE_W, SIDE_H)), (x, grid_top))
        else:
            d.rounded_rectangle(box, radius=10, outline=lighten(color, 0.3), width=2)
            d.text((x + SIDE_W // 2, grid_top + SIDE_H // 2), f"No {label.lower()}", font=font("bold", 18),
                   fill=lighten(color, 0.5), anchor="mm")
        x += SIDE_W + 24

    # ---- quests: a table of §2.4 stats -------------------------------------------------------------------
    qy = grid_top + SIDE_H + 16
    d.rounded_rectangle((MARGIN, qy, MARGIN + LEFT_W, qy + QUEST_ROW + max(1, quest_rows) * QUEST_ROW + 6),
                        radius=10, fill=PARCHMENT)
    stat_x = [MARGIN + LEFT_W - 138 + i * 33 for i in range(4)]
    half = QUEST_ROW // 2
    d.text((MARGIN + 12, qy + half + 2), "Quests", font=font("bold", 17), fill=INK, anchor="lm")
    for sx, label in zip(stat_x, ("W", "M", "S", "L")):
        d.text((sx + 14, qy + half + 2), label, font=font("bold", 15), fill=mix(INK, PARCHMENT, 0.35),
               anchor="mm")
    if not quests:
        d.text((MARGIN + 12, qy + QUEST_ROW + half), "No quests", font=font("oblique", 16), fill=INK, anchor="lm")
    for i, (entry, count) in enumerate(quests):
        ry = qy + QUEST_ROW + i * QUEST_ROW
        if i % 2 == 0:
            d.rectangle((MARGIN + 4, ry, MARGIN + LEFT_W - 4, ry + QUEST_ROW), fill=mix(PARCHMENT, INK, 0.06))
        name = entry.data.get("name") or ""
        if count > 1:
            name = f"{count}× {name}"
        name_w = stat_x[0] - MARGIN - 22
        name_size = 15
        while name_size > 10 and text_width("regular", name_size, name) > name_w:
            name_size -= 1
        while text_width("regular", name_size, name) > name_w and len(name) > 2:
            name = name[:-2] + "…"
        d.text((MARGIN + 12, ry + half), name, font=font("regular", name_size), fill=INK, anchor="lm")
        for sx, stat in zip(stat_x, ("wealth", "momentum", "spoils", "levy")):
            value = entry.data.get(stat)
            d.text((sx + 14, ry + half), "–" if value is None else str(value), font=font("number", 16), fill=INK,
                   anchor="mm")

    # ---- the draw deck grid ------------------------------------------------------------------------------
    if not draws:
        d.text((GRID_X + GRID_W / 2, grid_top + 120), "No draw cards", font=font("bold", 24),
               fill=lighten(color, 0.5), anchor="mm")
    badge_font = font("number", max(14, tw // 7))
    grid_x = GRID_X + (GRID_W - (min(cols, max(1, len(draws))) * (tw + GAP) - GAP)) // 2  # centred
    for i, (entry, count) in enumerate(draws):
        gx = grid_x + (i % cols) * (tw + GAP)
        gy = grid_top + (i // cols) * (th + GAP)
        img.paste(_thumbnail(entry, (tw, th)), (gx, gy))
        label = f"×{count}"
        bw = text_width("number", badge_font.size, label) + 14
        bh = badge_font.size + 10
        bx1, by1 = gx + tw - 4, gy + th - 4
        d.rounded_rectangle((bx1 - bw, by1 - bh, bx1, by1), radius=bh // 2, fill=BORDER, outline=GOLD, width=2)
        d.text((bx1 - bw / 2, by1 - bh / 2), label, font=badge_font, fill=(255, 255, 255), anchor="mm")
    return img
