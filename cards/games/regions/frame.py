"""The Heroes and Regions card frame, drawn with Pillow from a card dict (003 §6.1, "Reading a card").

    render_card(card, "normal")    -> a 500 x 700 RGB image (also "small" 250 x 350 and "large" 1000 x 1400)
    contact_sheet(cards)           -> every card of a set in a grid
    python -m cards.games.regions.frame --sheet sheet.png [--size small] [FILE]

What a card shows (003 §6.1): the type icon top left (Supplies, Citizen, Structure, Tactic, Recognition), the cost
badge top right (in Goods), the white combat box (Damage on the left, Health on the right: a heart for Citizens, a
tower for Structures, a shield for Tactics), ability boxes tinted by the phase they fire in (white boxes stay white,
003 §6.4), the Hero's portrait mark in the corner of a starting-deck card. Heroes show their Skill Tree, Regions
their Quest and Reward side. Pure drawing: no database, no settings, no Django; the fonts are the DejaVu fonts
shipped in cards/fonts/, drawn at twice the size and scaled down (antialiasing), as r1's cards/images.py does.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import math
import random
import sys
from pathlib import Path

from PIL import Image, ImageDraw

from cards.images import Canvas, darken, font, lighten, luminance, mix, text_width

from .text import PHASE_LABELS, ability_parts

BASE_W, BASE_H = 500, 700
SIZES = {"normal": (500, 700), "small": (250, 350), "large": (1000, 1400)}
SUPERSAMPLE = 2
RENDERER_VERSION = "regions-1"

INK = (34, 28, 22)
PARCHMENT = (247, 241, 226)
BORDER = (24, 20, 17)
GOLD = (218, 178, 86)
GOLD_DARK = (138, 100, 34)
WHITE = (255, 255, 255)

TYPE_COLORS = {
    "supplies": (172, 124, 40), "citizen": (44, 100, 150), "structure": (104, 94, 84), "tactic": (156, 40, 40),
    "recognition": (108, 58, 138), "hero": (38, 106, 78), "region": (28, 104, 124),
}
TYPE_LABELS = {"supplies": "Supplies", "citizen": "Citizen", "structure": "Structure", "tactic": "Tactic",
               "recognition": "Recognition", "hero": "Hero", "region": "Region"}
# 003 §6.1: ability boxes are tinted by the phase they fire in
PHASE_TINTS = {"hero": (210, 232, 208), "purchase": (248, 228, 170), "position": (204, 222, 244),
               "contest": (244, 206, 200), "reveal": (228, 212, 242), "finish": (236, 236, 236),
               "static": (255, 255, 255)}
PHASE_INKS = {"hero": (34, 96, 54), "purchase": (128, 88, 10), "position": (34, 76, 140), "contest": (150, 34, 30),
              "reveal": (100, 52, 140), "finish": (40, 40, 40), "static": (60, 60, 60)}


# ---------------------------------------------------------------------------------------------------------------
# Icons, drawn as shapes (the rulebook's glyphs were lost, and fonts lack most of them)
# ---------------------------------------------------------------------------------------------------------------
def star_points(cx: float, cy: float, r: float, inner: float = 0.45, n: int = 5) -> list[tuple[float, float]]:
    pts = []
    for i in range(n * 2):
        rr = r if i % 2 == 0 else r * inner
        a = -math.pi / 2 + i * math.pi / n
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    return pts


def shield_points(x0, y0, x1, y1) -> list[tuple[float, float]]:
    w, h = x1 - x0, y1 - y0
    return [(x0, y0), (x1, y0), (x1, y0 + h * 0.55), (x0 + w / 2, y1), (x0, y0 + h * 0.55)]


def draw_type_icon(c: Canvas, ctype: str, cx: float, cy: float, d: float, color) -> None:
    """The type icon of 003 §6.1 (and a crown for Heroes, peaks for Regions), d units across."""
    r = d / 2
    if ctype == "supplies":      # a coin
        c.ellipse((cx - r, cy - r, cx + r, cy + r), fill=color)
        c.ellipse((cx - r * 0.7, cy - r * 0.7, cx + r * 0.7, cy + r * 0.7), outline=lighten(color, 0.55),
                  width=d * 0.07)
        c.rect((cx - r * 0.12, cy - r * 0.42, cx + r * 0.12, cy + r * 0.42), fill=lighten(color, 0.55))
    elif ctype == "citizen":     # a figure
        c.ellipse((cx - r * 0.32, cy - r * 0.9, cx + r * 0.32, cy - r * 0.26), fill=color)
        c.draw.pieslice(c.box(cx - r * 0.75, cy - r * 0.15, cx + r * 0.75, cy + r * 1.35), 180, 360, fill=color)
    elif ctype == "structure":   # a tower with a roof
        c.rect((cx - r * 0.55, cy - r * 0.2, cx + r * 0.55, cy + r * 0.85), fill=color)
        c.polygon([(cx - r * 0.75, cy - r * 0.15), (cx, cy - r * 0.95), (cx + r * 0.75, cy - r * 0.15)], fill=color)
        c.rect((cx - r * 0.16, cy + r * 0.3, cx + r * 0.16, cy + r * 0.85), fill=lighten(color, 0.6))
    elif ctype == "tactic":      # crossed blades
        for sign in (1, -1):
            c.line([(cx - sign * r * 0.8, cy - r * 0.8), (cx + sign * r * 0.55, cy + r * 0.55)], color, d * 0.14)
            c.line([(cx + sign * r * 0.35, cy + r * 0.75), (cx + sign * r * 0.75, cy + r * 0.35)], color, d * 0.12)
    elif ctype == "recognition":  # a star
        c.polygon(star_points(cx, cy + r * 0.05, r), fill=color)
    elif ctype == "hero":        # a crown
        c.polygon([(cx - r * 0.85, cy + r * 0.55), (cx - r * 0.85, cy - r * 0.45), (cx - r * 0.4, cy + r * 0.05),
                   (cx, cy - r * 0.75), (cx + r * 0.4, cy + r * 0.05), (cx + r * 0.85, cy - r * 0.45),
                   (cx + r * 0.85, cy + r * 0.55)], fill=color)
    else:                        # region: two peaks
        c.polygon([(cx - r, cy + r * 0.7), (cx - r * 0.3, cy - r * 0.6), (cx + r * 0.1, cy + r * 0.05),
                   (cx + r * 0.45, cy - r * 0.35), (cx + r, cy + r * 0.7)], fill=color)


def draw_damage_icon(c: Canvas, cx: float, cy: float, d: float, color) -> None:
    """Damage: a sword."""
    r = d / 2
    c.line([(cx - r * 0.7, cy + r * 0.7), (cx + r * 0.75, cy - r * 0.75)], color, d * 0.15)
    c.line([(cx - r * 0.6, cy + r * 0.1), (cx - r * 0.1, cy + r * 0.6)], color, d * 0.13)
    c.ellipse((cx - r * 0.95, cy + r * 0.62, cx - r * 0.62, cy + r * 0.95), fill=color)


def draw_health_icon(c: Canvas, ctype: str, cx: float, cy: float, d: float, color) -> None:
    """Health: a heart for Citizens, a structure mark for Structures, shields for Tactics (003 §6.1)."""
    r = d / 2
    if ctype == "tactic":
        c.polygon(shield_points(cx - r * 0.75, cy - r * 0.85, cx + r * 0.75, cy + r * 0.9), fill=color)
    elif ctype == "structure":
        c.rect((cx - r * 0.75, cy - r * 0.35, cx + r * 0.75, cy + r * 0.85), fill=color)
        for i in range(3):
            x = cx - r * 0.75 + i * r * 0.6
            c.rect((x, cy - r * 0.8, x + r * 0.32, cy - r * 0.3), fill=color)
    else:
        c.ellipse((cx - r * 0.85, cy - r * 0.7, cx + r * 0.05, cy + r * 0.15), fill=color)
        c.ellipse((cx - r * 0.05, cy - r * 0.7, cx + r * 0.85, cy + r * 0.15), fill=color)
        c.polygon([(cx - r * 0.82, cy - r * 0.1), (cx + r * 0.82, cy - r * 0.1), (cx, cy + r * 0.85)], fill=color)


# ---------------------------------------------------------------------------------------------------------------
# Text: wrapped and shrunk to fit a box, never cutting a word
# ---------------------------------------------------------------------------------------------------------------
def wrap(text: str, style: str, size: float, width: float) -> list[str] | None:
    """Greedy line breaking at one size; None when a single word is wider than the box."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        if text_width(style, max(1, int(size)), word) > width:
            return None
        trial = f"{current} {word}" if current else word
        if text_width(style, max(1, int(size)), trial) <= width:
            current = trial
        else:
            lines.append(current)
            current = word
    if current:
        lines.append(current)
    return lines


def fit_text(text: str, style: str, width: float, height: float, start: float, minimum: float,
             line_gap: float = 1.2) -> tuple[float, list[str]]:
    """The largest size (canvas pixels) at which `text` fits `width` x `height` (canvas pixels)."""
    size = start
    while size >= minimum:
        lines = wrap(text, style, size, width)
        if lines is not None and len(lines) * size * line_gap <= height:
            return size, lines
        size -= 1
    return minimum, wrap(text, style, minimum, width) or [text]


def _text_block(c: Canvas, lines: list[str], style: str, size_px: float, x: float, y: float, color,
                line_gap: float = 1.2, center_width: float | None = None) -> None:
    """Draw lines whose size is in canvas pixels at a position in design units."""
    px, py = c.s(x), c.s(y)
    f = font(style, max(1, int(size_px)))
    for i, line in enumerate(lines):
        yy = py + i * size_px * line_gap
        if center_width is not None:
            w = text_width(style, max(1, int(size_px)), line)
            c.draw.text((px + (c.s(center_width) - w) / 2, yy), line, font=f, fill=color)
        else:
            c.draw.text((px, yy), line, font=f, fill=color)


# ---------------------------------------------------------------------------------------------------------------
# The card
# ---------------------------------------------------------------------------------------------------------------
def _boxes(card: dict) -> list[tuple[str, str, str, bool]]:
    """The ability boxes of a card, top to bottom: (phase key for the tint, label, body, white box?)."""
    out = []
    ctype = card.get("type")
    if ctype == "supplies" and card.get("goods") is not None:
        only = card.get("goods_only")
        body = f"{card['goods']} Goods" + (f" toward {TYPE_LABELS[only]}s" if only and only != "recognition"
                                           else " toward Recognition" if only else "") + "."
        out.append(("purchase", "Pays", body, False))
    if ctype == "recognition":
        out.append(("finish", "Score", "1 Recognition, wherever it sits. Does nothing in play.", False))
    for ab in card.get("abilities") or []:
        label, body = ability_parts(ab)
        tint = ab["when"]
        out.append((tint, label or "Always", body, bool(ab.get("white"))))
    return out


def render_card(card: dict, size: str | tuple[int, int] = "normal", *, set_name: str = "",
                hero_names: dict | None = None) -> Image.Image:
    """Draw one card (a normalised card dict, cards/games/regions/schema.py). Returns an RGB image.

    >>> render_card({"code": "x", "name": "Silver", "type": "supplies", "cost": 2, "goods": 2}, "small").size
    (250, 350)
    """
    out_w, out_h = SIZES[size] if isinstance(size, str) else size
    k = SUPERSAMPLE * out_w / BASE_W
    c = Canvas(BASE_W, BASE_H, k, background=WHITE)
    ctype = card.get("type") or "citizen"
    color = TYPE_COLORS.get(ctype, TYPE_COLORS["citizen"])
    on_frame = WHITE if luminance(darken(color, 0.35)) < 0.6 else INK

    # frame: dark border, the type's colour inside
    c.rect((0, 0, BASE_W, BASE_H), fill=BORDER, radius=24)
    c.gradient((9, 9, BASE_W - 9, BASE_H - 9), lighten(color, 0.15), darken(color, 0.35), radius=17)
    c.rect((9, 9, BASE_W - 9, BASE_H - 9), outline=lighten(color, 0.45), width=1.2, radius=17)

    # top row: type icon (left), name plate, cost badge (right)
    c.ellipse((20, 20, 98, 98), fill=BORDER)
    c.ellipse((24, 24, 94, 94), fill=PARCHMENT)
    draw_type_icon(c, ctype, 59, 59, 46, color)
    cost = card.get("cost")
    badge = None
    if cost is not None:
        badge = str(cost)
    elif ctype == "region" and card.get("order"):
        badge = str(card["order"])
    if badge is not None:
        c.ellipse((402, 20, 480, 98), fill=BORDER)
        c.ellipse((406, 24, 476, 94), fill=GOLD_DARK if ctype != "region" else darken(color, 0.3))
        c.ellipse((411, 29, 471, 89), fill=GOLD if ctype != "region" else lighten(color, 0.35))
        c.text((441, 61), badge, "number", 38, INK, anchor="mm")
    plate_right = 396 if badge is not None else 478
    c.rect((104, 26, plate_right, 92), fill=PARCHMENT, outline=darken(color, 0.5), width=1.5, radius=10)
    name = card.get("name") or ""
    subtitle = card.get("subtitle")
    plate_w = plate_right - 104 - 20
    name_px = c.s(30)
    while name_px > c.s(14) and text_width("name", int(name_px), name) > c.s(plate_w):
        name_px -= 1
    name_y = 48 if subtitle else 59
    c.draw.text((c.s(114), c.s(name_y)), name, font=font("name", int(name_px)), fill=INK, anchor="lm")
    if subtitle:
        sub_px = c.s(16)
        while sub_px > c.s(9) and text_width("serif_italic", int(sub_px), subtitle) > c.s(plate_w):
            sub_px -= 1
        c.draw.text((c.s(114), c.s(76)), subtitle, font=font("serif_italic", int(sub_px)),
                    fill=mix(INK, PARCHMENT, 0.3), anchor="lm")

    # art panel: the type's colour with its icon as a watermark; Supplies show their Goods in a coin
    art_top, art_bottom = 104, 300 if ctype not in ("hero", "region") else 236
    c.gradient((22, art_top, 478, art_bottom), lighten(color, 0.55), lighten(color, 0.15), radius=8)
    _art(c, card, ctype, color, art_top, art_bottom)
    c.rect((22, art_top, 478, art_bottom), outline=darken(color, 0.55), width=1.5, radius=8)

    # type line: the type and where the card comes from
    bar_top = art_bottom + 8
    c.rect((22, bar_top, 478, bar_top + 28), fill=darken(color, 0.55), outline=lighten(color, 0.2), width=1,
           radius=6)
    c.text((250, bar_top + 15), _type_line(card, hero_names).upper(), "bold", 14, WHITE, anchor="mm")

    # the text area: ability boxes (cards), the Skill Tree (Heroes), Quest and Reward (Regions)
    text_top = bar_top + 38
    combat = ctype in ("citizen", "structure", "tactic")
    text_bottom = 600 if combat else 652
    if ctype == "hero":
        _skill_tree(c, card, text_top, text_bottom)
    elif ctype == "region":
        _region(c, card, text_top, text_bottom)
    else:
        _ability_boxes(c, _boxes(card), text_top, text_bottom, card)

    # combat box: Damage left, Health right (003 §6.1), white and never covered
    if combat:
        c.rect((22, 608, 478, 660), fill=WHITE, outline=BORDER, width=2, radius=10)
        c.line([(250, 616), (250, 652)], mix(INK, WHITE, 0.6), 1.2)
        draw_damage_icon(c, 62, 634, 34, (150, 36, 30))
        c.text((110, 635), str(card.get("damage") or 0), "number", 34, INK, anchor="lm")
        c.text((150, 636), "DAMAGE", "bold", 12, mix(INK, WHITE, 0.35), anchor="lm")
        draw_health_icon(c, ctype, 438, 634, 34, (176, 40, 60) if ctype == "citizen" else darken(color, 0.15))
        c.text((390, 635), str(card.get("health") or 0), "number", 34, INK, anchor="rm")
        label = {"citizen": "HEALTH", "structure": "HEALTH", "tactic": "SHIELDS"}[ctype]
        c.text((350, 636), label, "bold", 12, mix(INK, WHITE, 0.35), anchor="rm")

    # the Hero's portrait in the corner of a starting-deck card (003 §6.1)
    if card.get("hero"):
        hname = (hero_names or {}).get(card["hero"], card["hero"])
        initials = "".join(w[0] for w in hname.split()[:2]).upper() or "?"
        c.ellipse((424, 662, 476, 714 - 20), fill=BORDER)
        c.ellipse((427, 665, 473, 691), fill=TYPE_COLORS["hero"])
        c.text((450, 678), initials, "bold", 13, WHITE, anchor="mm")

    # footer: set, number, code
    foot = set_name or ""
    if card.get("number") is not None:
        foot = f"{foot} · #{card['number']}" if foot else f"#{card['number']}"
    foot = f"{foot} · {card.get('code', '')}" if foot else card.get("code", "")
    c.text((28, 680), foot, "bold", 12, on_frame, anchor="lm")

    factor = c.image.width / out_w
    if factor == int(factor) and c.image.height / out_h == factor:
        return c.image.reduce(int(factor))
    return c.image.resize((out_w, out_h), Image.Resampling.LANCZOS)


def _type_line(card: dict, hero_names: dict | None) -> str:
    ctype = card.get("type")
    label = TYPE_LABELS.get(ctype, str(ctype))
    pile = card.get("pile")
    if pile == "standing":
        return f"{label}  ·  standing pile"
    if pile == "market":
        return f"{label}  ·  Market Deck ×{card.get('quantity') or 1}"
    if pile == "starting":
        hname = (hero_names or {}).get(card.get("hero"), card.get("hero"))
        return f"{label}  ·  {hname} ×{card.get('quantity') or 1}"
    if ctype == "region":
        n = card.get("order")
        nth = {1: "nearest the Market", 2: "2nd from the Market", 3: "3rd from the Market"}.get(n, f"{n}th from the Market")
        return f"Region  ·  {nth}"
    if ctype == "hero":
        return "Hero  ·  Skill Tree"
    return label


def _scene(c: Canvas, code: str, color, top: float, bottom: float) -> None:
    """A small landscape behind the art (a sun and two ranges of hills), different for every card code."""
    seed = int(hashlib.sha256(code.encode()).hexdigest()[:8], 16)
    rnd = random.Random(seed)
    h = bottom - top
    sx, sy, sr = rnd.uniform(80, 420), top + rnd.uniform(0.2, 0.38) * h, rnd.uniform(16, 26)
    c.ellipse((sx - sr, sy - sr, sx + sr, sy + sr), fill=lighten(GOLD, 0.45))
    for layer, (shade, base) in enumerate(((0.25, 0.62), (0.0, 0.8))):
        pts = [(22, bottom)]
        x = 22.0
        while x < 478:
            pts.append((x, top + h * (base - rnd.uniform(0.0, 0.22 if layer == 0 else 0.14))))
            x += rnd.uniform(40, 90)
        pts += [(478, top + h * base), (478, bottom)]
        c.polygon(pts, fill=mix(darken(color, 0.15), lighten(color, 0.5), shade))


def _art(c: Canvas, card: dict, ctype: str, color, top: float, bottom: float) -> None:
    cx, cy = 250, (top + bottom) / 2
    h = bottom - top
    _scene(c, card.get("code") or card.get("name") or "", color, top + 2, bottom - 2)
    draw_type_icon(c, ctype, cx, cy, h * 0.5, lighten(color, 0.6))
    if ctype == "supplies" and card.get("goods") is not None:
        r = 52
        c.ellipse((cx - r - 4, cy - r - 4, cx + r + 4, cy + r + 4), fill=BORDER)
        c.ellipse((cx - r, cy - r, cx + r, cy + r), fill=GOLD_DARK)
        c.ellipse((cx - r + 6, cy - r + 6, cx + r - 6, cy + r - 6), fill=GOLD)
        c.text((cx, cy - 4), str(card["goods"]), "number", 54, INK, anchor="mm")
        c.text((cx, cy + 32), "GOODS", "bold", 12, INK, anchor="mm")
        if card.get("goods_only"):
            c.ellipse((cx + r - 14, cy - r - 8, cx + r + 30, cy - r + 36), fill=BORDER)
            c.ellipse((cx + r - 11, cy - r - 5, cx + r + 27, cy - r + 33), fill=PARCHMENT)
            only = card["goods_only"]
            draw_type_icon(c, only, cx + r + 8, cy - r + 14, 26, TYPE_COLORS[only])
    elif ctype == "recognition":
        c.polygon(star_points(cx, cy, 70), fill=BORDER)
        c.polygon(star_points(cx, cy, 62), fill=GOLD)
        c.text((cx, cy + 4), "1", "number", 44, INK, anchor="mm")
    elif ctype == "hero":
        r = 56
        c.ellipse((cx - r - 4, cy - r - 4, cx + r + 4, cy + r + 4), fill=BORDER)
        c.ellipse((cx - r, cy - r, cx + r, cy + r), fill=lighten(color, 0.7))
        initials = "".join(w[0] for w in (card.get("name") or "?").split()[:2]).upper()
        c.text((cx, cy + 2), initials, "name", 44, darken(color, 0.3), anchor="mm")


def _ability_boxes(c: Canvas, boxes: list, top: float, bottom: float, card: dict) -> None:
    if not boxes:
        flavor = card.get("flavor") or ""
        c.rect((22, top, 478, bottom), fill=PARCHMENT, outline=mix(INK, PARCHMENT, 0.5), width=1.2, radius=9)
        if flavor:
            size, lines = fit_text(flavor, "serif_italic", c.s(420), c.s(bottom - top - 30), c.s(20), c.s(11))
            block = len(lines) * size * 1.2 / c.k
            _text_block(c, lines, "serif_italic", size, 40, (top + bottom - block) / 2, mix(INK, PARCHMENT, 0.25),
                        center_width=420)
        return
    gap = 8
    flavor = card.get("flavor")
    avail = bottom - top - gap * (len(boxes) - 1) - (40 if flavor else 0)
    heights = _box_heights(c, boxes, avail)
    y = top
    for (tint, label, body, white), hgt in zip(boxes, heights):
        fill = WHITE if white else PHASE_TINTS.get(tint, PARCHMENT)
        ink = PHASE_INKS.get(tint, INK)
        c.rect((22, y, 478, y + hgt), fill=fill, outline=BORDER if white else darken(fill, 0.35),
               width=2 if white else 1.2, radius=9)
        if tint == "finish":      # the checkered flag: a strip of squares down the left edge
            sq = 8
            for row in range(int((hgt - 12) // sq)):
                for col in range(2):
                    if (row + col) % 2 == 0:
                        c.rect((28 + col * sq, y + 6 + row * sq, 28 + (col + 1) * sq, y + 6 + (row + 1) * sq),
                               fill=BORDER)
        chip = label.upper() + ("  ·  WHITE BOX" if white else "")
        chip_w = text_width("bold", c.s(12), chip) / c.k + 18
        left = 56 if tint == "finish" else 40
        c.rect((left, y + 8, left + chip_w, y + 28), fill=ink, radius=6)
        c.text((left + 9, y + 19), chip, "bold", 12, WHITE, anchor="lm")
        body = body[:1].upper() + body[1:]
        size, lines = fit_text(body, "regular", c.s(464 - left), c.s(hgt - 42), c.s(21), c.s(11))
        _text_block(c, lines, "regular", size, left, y + 34, INK)
        y += hgt + gap
    if flavor:
        size, lines = fit_text(flavor, "serif_italic", c.s(420), c.s(34), c.s(15), c.s(9))
        _text_block(c, lines[:2], "serif_italic", size, 40, bottom - 36, lighten(PARCHMENT, 0.2), center_width=420)


def _box_heights(c: Canvas, boxes: list, avail: float) -> list[float]:
    """Share the text area between the boxes by how much text each holds (at least 64 units each)."""
    weights = [max(1.0, text_width("regular", c.s(18), b[2]) / c.s(400)) + 1.2 for b in boxes]
    total = sum(weights)
    heights = [max(64.0, avail * w / total) for w in weights]
    scale = avail / sum(heights) if sum(heights) > avail else 1.0
    if scale == 1.0:
        return [min(h, 150.0) for h in heights]
    return [h * scale for h in heights]


def _skill_tree(c: Canvas, card: dict, top: float, bottom: float) -> None:
    skills = card.get("skills") or []
    n = max(1, len(skills))
    gap = 5
    flavor = card.get("flavor")
    row_h = (bottom - top - gap * (n - 1) - (34 if flavor else 0)) / n
    y = top
    tint, ink = PHASE_TINTS["hero"], PHASE_INKS["hero"]
    for step in skills:
        c.rect((22, y, 478, y + row_h), fill=tint, outline=darken(tint, 0.35), width=1.2, radius=8)
        c.ellipse((30, y + row_h / 2 - 17, 64, y + row_h / 2 + 17), fill=ink)
        c.text((47, y + row_h / 2 + 1), str(step["level"]), "number", 20, WHITE, anchor="mm")
        text = step.get("text") or ""
        size, lines = fit_text(text, "regular", c.s(396), c.s(row_h - 8), c.s(19), c.s(10))
        _text_block(c, lines, "regular", size, 74, y + row_h / 2 - len(lines) * size * 1.2 / (2 * c.k), INK)
        y += row_h + gap
    if flavor:
        size, lines = fit_text(flavor, "serif_italic", c.s(420), c.s(30), c.s(14), c.s(9))
        _text_block(c, lines[:2], "serif_italic", size, 40, bottom - 30, lighten(PARCHMENT, 0.2), center_width=420)


def _region(c: Canvas, card: dict, top: float, bottom: float) -> None:
    quest = card.get("quest") or {}
    phase = quest.get("phase", "hero")
    tint, ink = PHASE_TINTS[phase], PHASE_INKS[phase]
    mid = top + (bottom - top) * 0.48
    c.rect((22, top, 478, mid), fill=tint, outline=darken(tint, 0.35), width=1.2, radius=9)
    chip = f"QUEST  ·  {PHASE_LABELS[phase].upper()} PHASE"
    chip_w = text_width("bold", c.s(12), chip) / c.k + 18
    c.rect((36, top + 10, 36 + chip_w, top + 30), fill=ink, radius=6)
    c.text((45, top + 21), chip, "bold", 12, WHITE, anchor="lm")
    body = (quest.get("text") or "") + " You need a card in your Stack here."
    size, lines = fit_text(body, "regular", c.s(420), c.s(mid - top - 46), c.s(22), c.s(11))
    _text_block(c, lines, "regular", size, 36, top + 40, INK)
    y = mid + 8
    c.rect((22, y, 478, bottom), fill=WHITE, outline=BORDER, width=2, radius=9)
    chip = "REWARD SIDE  ·  WHILE YOU HOLD IT"
    chip_w = text_width("bold", c.s(12), chip) / c.k + 18
    c.rect((36, y + 10, 36 + chip_w, y + 30), fill=darken(TYPE_COLORS["region"], 0.2), radius=6)
    c.text((45, y + 21), chip, "bold", 12, WHITE, anchor="lm")
    parts = ["Hero: 1 Recognition onto the top of your Deck."]
    for ab in card.get("reward") or []:
        label, text = ability_parts(ab)
        text = text[:1].upper() + text[1:]
        parts.append(f"{label}: {text}" if label else text)
    size, lines = fit_text(" ".join(parts), "regular", c.s(420), c.s(bottom - y - 46), c.s(20), c.s(10))
    _text_block(c, lines, "regular", size, 36, y + 40, INK)


# ---------------------------------------------------------------------------------------------------------------
# A whole set
# ---------------------------------------------------------------------------------------------------------------
def sort_key(card: dict) -> tuple:
    order = {"hero": 0, "region": 1}
    pile = {"standing": 0, "starting": 1, "market": 2}
    return (order.get(card["type"], 2), pile.get(card.get("pile"), 0), card.get("hero") or "",
            card.get("number") or 0, card["code"])


def contact_sheet(cards: list[dict], *, columns: int = 9, size: str = "small", set_name: str = "") -> Image.Image:
    """Every card in a grid (Heroes, Regions, standing piles, starting decks, Market Deck), its code beneath."""
    heroes = {c["code"]: c["name"] for c in cards if c["type"] == "hero"}
    cards = sorted(cards, key=sort_key)
    tw, th = SIZES[size]
    label_h, gap = 20, 12
    cols = min(columns, max(1, len(cards)))
    rows = max(1, math.ceil(len(cards) / cols))
    sheet = Image.new("RGB", (gap + cols * (tw + gap), gap + rows * (th + label_h + gap)), (236, 232, 224))
    draw = ImageDraw.Draw(sheet)
    label_font = font("bold", 13)
    for i, card in enumerate(cards):
        x = gap + (i % cols) * (tw + gap)
        y = gap + (i // cols) * (th + label_h + gap)
        sheet.paste(render_card(card, size, set_name=set_name, hero_names=heroes), (x, y))
        draw.text((x + tw / 2, y + th + 3), card["code"], font=label_font, fill=INK, anchor="ma")
    return sheet


def main(argv: list[str] | None = None) -> int:
    from .schema import parse_card_file
    from . import DATA_FILE

    ap = argparse.ArgumentParser(description="Draw Heroes and Regions cards.")
    ap.add_argument("file", nargs="?", default=str(DATA_FILE), help="a regions card file (default: the shipped set)")
    ap.add_argument("--sheet", help="write a contact sheet of every card to this PNG")
    ap.add_argument("--card", help="write one card (by code) to --out")
    ap.add_argument("--out", help="the PNG for --card")
    ap.add_argument("--size", default="small", choices=sorted(SIZES))
    args = ap.parse_args(argv)
    parsed = parse_card_file(Path(args.file).read_text(encoding="utf-8"), source=args.file)
    if parsed.errors:
        for e in parsed.errors:
            print(e, file=sys.stderr)
        return 1
    if args.sheet:
        contact_sheet(parsed.cards, size=args.size, set_name=parsed.set_name).save(args.sheet)
        print(f"wrote {args.sheet} ({len(parsed.cards)} cards)")
    if args.card:
        card = next((c for c in parsed.cards if c["code"] == args.card), None)
        if card is None:
            print(f"no card {args.card!r} in {args.file}", file=sys.stderr)
            return 1
        heroes = {c["code"]: c["name"] for c in parsed.cards if c["type"] == "hero"}
        render_card(card, args.size, set_name=parsed.set_name, hero_names=heroes).save(args.out or f"{args.card}.png")
    if not args.sheet and not args.card:
        print(json.dumps({"cards": len(parsed.cards)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
