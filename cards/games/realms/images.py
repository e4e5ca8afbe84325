"""The realms card frame: a card image drawn from its data with Pillow, no database and no settings.

`render_card(card, size)` draws one card (a normalised realms card dict, `schema.normalise_card`);
`contact_sheet(cards)` lays many out on one sheet. The frame is this game's own (002 §4, §6, §7):

- the **Combat Value** in a shield at the top left (Leaders, Places, Warriors), the **Starting Cost** in a gold
  coin at the top right (002 §4, §8);
- the **affiliation** as the frame's colour and an emblem (sun, oak, flame, wave); General cards have no
  emblem, as they have no faction icon (002 §5);
- the **resource icons** on a band across the foot of the art: blue discs for what the card provides, red
  discs for what it consumes, one disc per icon, each with the resource's glyph (Gold coin, Food sheaf,
  Timber log, Iron ingot) (002 §4);
- the three **Tactic** slots on the type line, lit for the directions the card has (002 §6), and the
  **Neighbor Count** of Leaders and Places as a square with its countable edges marked (002 §7.1, §10);
- the **text box**: the action line (a warrior's type, 002 §7.3) and the keyword lines in bold, the timing
  words ACTION:, COMBAT:, RAID: in bold, then flavour if there is room.

Drawn at twice the output size and averaged down (antialiasing), with the DejaVu fonts of `cards/fonts/` and
the text fitting of r1's frame (`cards/images.py`), so both games' cards read alike at every size.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass

from PIL import Image, ImageDraw

from cards.images import (
    BORDER, GOLD, GOLD_DARK, INK, PARCHMENT, PARCHMENT_DARK, RENDER_LOCK, SIZES, SUPERSAMPLE, Canvas, Paragraph,
    _draw_layout_scaled, _title_lines, _words, darken, fit_font_size,
    fit_paragraphs, hex_to_rgb, lighten, luminance, mix, shield_points, vertical_gradient,
)

from .abilities import INTRIGUE_KEYWORDS, TACTICS, WARRIOR_TYPES
from .schema import (
    RESOURCES, TYPE_NAMES, affiliation_color, affiliation_name, equipment_slot, intrigue_keyword,
)

# Bump when the drawing changes, so a cache keyed on it renders every card again.
RENDERER_VERSION = "realms-1"
BASE_W, BASE_H = 500, 700

BLUE = (38, 96, 178)
BLUE_EDGE = (16, 46, 96)
# The fixed layout, in 500x700 design units.
ART_BOTTOM = 382
BAR_TOP, BAR_BOTTOM = ART_BOTTOM + 7, ART_BOTTOM + 43
TEXT_TOP, TEXT_BOTTOM = BAR_BOTTOM + 7, BASE_H - 42
TEXT_PAD_X, TEXT_PAD_Y = 16, 10
TEXT_W = 456 - 2 * TEXT_PAD_X
TEXT_H = TEXT_BOTTOM - TEXT_TOP - 2 * TEXT_PAD_Y
RED = (176, 40, 34)
RED_EDGE = (92, 18, 14)
LIT = (255, 246, 214)

_TIMING = re.compile(r"^(ACTION|COMBAT|RAID):")
_STRUCTURAL = re.compile(
    r"^(?:(?:" + "|".join(WARRIOR_TYPES) + r")\.(?: Loner\.)?(?: Worthy\.)?"
    r"|(?:" + "|".join(re.escape(k) for k in INTRIGUE_KEYWORDS) + r")(?: \u2014 (?:Weapon|Armor))?\."
    r"|Worthy\.|Loner\.|Unlocks (?:CAVALRY|VEHICLE)\.|UNLIMITED COPIES IN DECK\."
    r"|(?:Until your next turn|For the rest of the game), this (?:Ritual|Prophecy) provides [^.]*\.)$")


def is_structural_line(line: str) -> bool:
    """A line the card's fields already say (action line, keyword lines, Unlocks, UNLIMITED, a Ritual's or
    Prophecy's own icons): no ability runs it."""
    return bool(_STRUCTURAL.match(line.strip()))


def card_color(card: dict) -> tuple[int, int, int]:
    return hex_to_rgb(affiliation_color(card.get("affiliation")))


# ---------------------------------------------------------------------------------------------------------------
# Glyphs: resources, tactics, Neighbor Count, affiliation emblems
# ---------------------------------------------------------------------------------------------------------------
def draw_resource_glyph(c: Canvas, resource: str, cx: float, cy: float, d: float, color) -> None:
    """A resource's glyph (002 §4) centred on (cx, cy), d units across."""
    r = d / 2
    if resource == "gold":
        c.ellipse((cx - r * 0.72, cy - r * 0.72, cx + r * 0.72, cy + r * 0.72), outline=color, width=d * 0.11)
        c.ellipse((cx - r * 0.32, cy - r * 0.32, cx + r * 0.32, cy + r * 0.32), fill=color)
    elif resource == "food":
        # A sheaf: three stalks bound at the middle, grains at the top.
        for dx in (-0.32, 0, 0.32):
            c.line([(cx + dx * r * 0.4, cy + r * 0.78), (cx + dx * r, cy - r * 0.25)], color, d * 0.08)
            gx, gy = cx + dx * r, cy - r * 0.42
            c.ellipse((gx - r * 0.15, gy - r * 0.34, gx + r * 0.15, gy + r * 0.2), fill=color)
        c.line([(cx - r * 0.3, cy + r * 0.2), (cx + r * 0.3, cy + r * 0.2)], color, d * 0.1)
    elif resource == "timber":
        # A log seen end-on beside its length: a rounded bar and a ring.
        c.rect((cx - r * 0.78, cy - r * 0.3, cx + r * 0.42, cy + r * 0.3), fill=color, radius=r * 0.28)
        c.ellipse((cx + r * 0.12, cy - r * 0.42, cx + r * 0.82, cy + r * 0.42), fill=color)
        c.ellipse((cx + r * 0.3, cy - r * 0.22, cx + r * 0.64, cy + r * 0.22), outline=BORDER, width=d * 0.05)
    elif resource == "iron":
        # An ingot: a trapezoid with a bevel line.
        c.polygon([(cx - r * 0.8, cy + r * 0.42), (cx + r * 0.8, cy + r * 0.42), (cx + r * 0.48, cy - r * 0.38),
                   (cx - r * 0.48, cy - r * 0.38)], fill=color)
        c.line([(cx - r * 0.36, cy - r * 0.16), (cx + r * 0.36, cy - r * 0.16)], BORDER, d * 0.05)


def draw_resource_disc(c: Canvas, resource: str, cx: float, cy: float, d: float, blue: bool) -> None:
    fill, edge = (BLUE, BLUE_EDGE) if blue else (RED, RED_EDGE)
    r = d / 2
    c.ellipse((cx - r - 1.5, cy - r - 1.5, cx + r + 1.5, cy + r + 1.5), fill=BORDER)
    c.ellipse((cx - r, cy - r, cx + r, cy + r), fill=edge)
    c.ellipse((cx - r + 2.2, cy - r + 2.2, cx + r - 2.2, cy + r - 2.2), fill=fill)
    draw_resource_glyph(c, resource, cx, cy, d * 0.72, LIT)


def draw_tactic(c: Canvas, tactic: str, cx: float, cy: float, d: float, lit: bool) -> None:
    """A Tactic icon (002 §6): an arrow from the left flank, the front or the right flank."""
    angle = {"left": -135, "front": -90, "right": -45}[tactic]
    a = math.radians(angle)
    r = d / 2
    fill = LIT if lit else (0, 0, 0)
    c.ellipse((cx - r, cy - r, cx + r, cy + r), fill=BORDER if lit else (70, 64, 58),
              outline=GOLD if lit else (110, 100, 88), width=1.4)
    ux, uy = math.cos(a), math.sin(a)
    px, py = -uy, ux
    tip = (cx + ux * r * 0.62, cy + uy * r * 0.62)
    base = (cx - ux * r * 0.55, cy - uy * r * 0.55)
    neck = (cx + ux * r * 0.05, cy + uy * r * 0.05)
    color = fill if lit else (120, 110, 98)
    c.line([base, neck], color, d * 0.13)
    c.polygon([tip, (neck[0] + px * r * 0.42, neck[1] + py * r * 0.42),
               (neck[0] - px * r * 0.42, neck[1] - py * r * 0.42)], fill=color)


def draw_neighbor_count(c: Canvas, n: int, cx: float, cy: float, d: float) -> None:
    """The Neighbor Count (002 §10): a square whose first n edges (top, right, bottom, left) are marked."""
    r = d / 2
    c.rect((cx - r, cy - r, cx + r, cy + r), fill=BORDER, radius=3)
    c.rect((cx - r * 0.55, cy - r * 0.55, cx + r * 0.55, cy + r * 0.55), fill=PARCHMENT_DARK, radius=2)
    edges = [((cx - r * 0.5, cy - r * 0.8), (cx + r * 0.5, cy - r * 0.8)),
             ((cx + r * 0.8, cy - r * 0.5), (cx + r * 0.8, cy + r * 0.5)),
             ((cx - r * 0.5, cy + r * 0.8), (cx + r * 0.5, cy + r * 0.8)),
             ((cx - r * 0.8, cy - r * 0.5), (cx - r * 0.8, cy + r * 0.5))]
    for i, (p0, p1) in enumerate(edges):
        c.line([p0, p1], GOLD if i < n else (90, 82, 72), d * 0.12)
    c.text((cx, cy + 1), str(n), "number", d * 0.5, INK, anchor="mm")


def draw_emblem(c: Canvas, affiliation: str | None, cx: float, cy: float, d: float, color, width: float = 0) -> None:
    """The affiliation's emblem: a sun (Sunward), an oak leaf (Deepwood), a flame (Ashen), a wave (Tideholm); any
    other affiliation a set brings, a plain four-pointed star. General cards have none (002 §5). `width` > 0 draws
    outlines, else filled shapes."""
    r = d / 2
    if affiliation == "sunward":
        for i in range(12):
            ang = i * math.pi / 6
            p0 = (cx + math.cos(ang) * r * 0.55, cy + math.sin(ang) * r * 0.55)
            p1 = (cx + math.cos(ang) * r * 0.95, cy + math.sin(ang) * r * 0.95)
            c.line([p0, p1], color, max(width, d * 0.07))
        if width:
            c.ellipse((cx - r * 0.42, cy - r * 0.42, cx + r * 0.42, cy + r * 0.42), outline=color, width=width)
        else:
            c.ellipse((cx - r * 0.42, cy - r * 0.42, cx + r * 0.42, cy + r * 0.42), fill=color)
    elif affiliation == "deepwood":
        pts = []
        for i in range(41):
            t = i / 40 * 2 * math.pi
            lobes = 1 + 0.16 * math.cos(5 * t)
            rx, ry = r * 0.55 * lobes, r * 0.9 * lobes
            pts.append((cx + math.sin(t) * rx, cy - math.cos(t) * ry))
        if width:
            c.polygon(pts, outline=color, width=width)
        else:
            c.polygon(pts, fill=color)
        c.line([(cx, cy - r * 0.7), (cx, cy + r * 1.05)], color if width else BORDER, max(width, d * 0.05))
    elif affiliation == "ashen":
        pts = []
        for i in range(31):
            t = i / 30
            y = cy + r * 0.9 - t * r * 1.85
            w = r * 0.62 * math.sin(math.pi * min(1.0, t * 1.15)) * (1 - 0.5 * t)
            pts.append((cx + w + r * 0.12 * math.sin(t * 7), y))
        back = [(2 * cx - x, y) for x, y in reversed(pts)]
        shape = pts + back
        if width:
            c.polygon(shape, outline=color, width=width)
        else:
            c.polygon(shape, fill=color)
    elif affiliation == "tideholm":
        for row in (-0.35, 0.2):
            pts = []
            for i in range(25):
                t = i / 24
                x = cx - r * 0.95 + t * r * 1.9
                y = cy + row * r - math.sin(t * math.pi * 2) * r * 0.22
                pts.append((x, y))
            c.line(pts, color, max(width, d * 0.1))
        c.line([(cx - r * 0.8, cy + r * 0.72), (cx + r * 0.8, cy + r * 0.72)], color, max(width, d * 0.08))
    elif affiliation:
        star = []
        for i in range(8):
            ang = i * math.pi / 4 - math.pi / 2
            rr = r * (0.95 if i % 2 == 0 else 0.32)
            star.append((cx + math.cos(ang) * rr, cy + math.sin(ang) * rr))
        if width:
            c.polygon(star, outline=color, width=width)
        else:
            c.polygon(star, fill=color)


# ---------------------------------------------------------------------------------------------------------------
# Placeholder art and text
# ---------------------------------------------------------------------------------------------------------------
def placeholder_art(card: dict, w: int, h: int, k: float) -> Image.Image:
    """Generated art: an affiliation-coloured dusk gradient, a faint emblem (or, for General cards, a road
    winding to the horizon) and the silhouette of the card type (crown, towers, banner, scroll)."""
    color = card_color(card)
    img = vertical_gradient(w, h, lighten(color, 0.45), darken(color, 0.5))
    mask = Canvas(w / k, h / k, k, background=(0, 0, 0))
    cw, ch = w / k, h / k
    white = (255, 255, 255)
    # Hills on the horizon.
    for i, (amp, base, shade) in enumerate(((18, 0.70, 60), (12, 0.80, 90))):
        pts: list[tuple[float, float]] = [(0, ch)]
        for j in range(41):
            x = cw * j / 40
            pts.append((x, ch * base - amp * math.sin(j / 40 * math.pi * (2 + i) + i)))
        pts.append((cw, ch))
        mask.polygon(pts, fill=(shade, shade, shade))
    aff = card.get("affiliation")
    if aff:
        draw_emblem(mask, aff, cw * 0.5, ch * 0.38, ch * 0.5, (48, 48, 48), width=3.5)
    else:
        road = [(cw * 0.38, ch), (cw * 0.62, ch), (cw * 0.51, ch * 0.62), (cw * 0.49, ch * 0.62)]
        mask.polygon(road, fill=(70, 70, 70))
    ctype = card.get("type")
    sil = (120, 120, 120)
    bx, by = cw * 0.5, ch * 0.9
    if ctype == "place":
        for dx, tw, th in ((-60, 34, 90), (0, 44, 128), (60, 34, 90)):
            x0, x1 = bx + dx - tw / 2, bx + dx + tw / 2
            mask.rect((x0, by - th, x1, by), fill=sil)
            for m in range(3):
                mx = x0 + m * tw / 2.5
                mask.rect((mx, by - th - 10, mx + tw / 5, by - th), fill=sil)
    elif ctype == "leader":
        pts = [(bx - 70.0, by - 20), (bx - 70, by - 90), (bx - 35, by - 55), (bx, by - 105), (bx + 35, by - 55),
               (bx + 70, by - 90), (bx + 70, by - 20)]
        mask.polygon(pts, fill=sil)
    elif ctype == "warrior":
        mask.polygon(shield_points(bx - 45, by - 120, bx + 45, by - 8), fill=sil)
        mask.line([(bx + 60, by - 130), (bx + 60, by)], sil, 6)
    elif ctype == "intrigue":
        mask.rect((bx - 62, by - 100, bx + 62, by - 18), fill=sil, radius=8)
        for y in (-78, -60, -42):
            mask.line([(bx - 42, by + y), (bx + 42, by + y)], (60, 60, 60), 3)
    lum = mask.image.convert("L").point(lambda v: int(v * 0.55))
    img.paste(Image.new("RGB", img.size, darken(color, 0.75)), (0, 0), lum)
    # A faint light from the top.
    glow = Image.linear_gradient("L").resize(img.size).point(lambda v: int((255 - v) * 0.18))
    img.paste(Image.new("RGB", img.size, white), (0, 0), glow)
    return img


def text_paragraphs(card: dict) -> list[Paragraph]:
    """The text box: structural lines in bold, timing words in bold, rules text, flavour (dropped first)."""
    paragraphs: list[Paragraph] = []
    for line in (card.get("text") or "").split("\n"):
        line = line.strip()
        if not line:
            continue
        if is_structural_line(line):
            paragraphs.append(Paragraph(_words(line, "bold", False), gap_before=0.3))
            continue
        m = _TIMING.match(line)
        if m:
            tokens = _words(m.group(0), "bold", False) + _words(line[m.end():], "regular", True)
        else:
            tokens = _words(line, "regular", False)
        paragraphs.append(Paragraph(tokens, gap_before=0.45))
    if card.get("flavor"):
        paragraphs.append(Paragraph(_words(card["flavor"].strip(), "serif_italic", False), align="center",
                                    rule_before=True, optional=True, gap_before=0.35))
    return paragraphs


def type_label(card: dict) -> str:
    ctype = card.get("type") or "warrior"
    label = TYPE_NAMES.get(ctype, ctype).upper()
    if ctype == "warrior" and card.get("warrior_type"):
        label += " \u2014 " + card["warrior_type"]
    elif ctype == "intrigue" and (kind := intrigue_keyword(card)):
        label += " \u2014 " + kind
        if slot := equipment_slot(card):
            label += " (" + slot + ")"
    return label


@dataclass
class _Icons:
    provides: list[str]
    consumes: list[str]


def _icons(card: dict) -> _Icons:
    prov = [r for r in RESOURCES for _ in range((card.get("provides") or {}).get(r, 0))]
    cons = [r for r in RESOURCES for _ in range((card.get("consumes") or {}).get(r, 0))]
    return _Icons(prov, cons)


# ---------------------------------------------------------------------------------------------------------------
# The card
# ---------------------------------------------------------------------------------------------------------------
def render_card(card: dict, size: str | tuple[int, int] = "normal") -> Image.Image:
    """Draw one realms card; `size` is a key of r1's SIZES (small, normal, large) or a (width, height) pair.

        >>> render_card({"code": "x", "name": "Farmstead", "type": "place", "cv": 3, "tactics": ["front"],
        ...              "neighbor_count": 3, "provides": {"food": 2}, "cost": 1}, "small").size
        (250, 350)
    """
    with RENDER_LOCK:
        return _render(card, size)


def _render(card: dict, size) -> Image.Image:
    out_w, out_h = SIZES[size] if isinstance(size, str) else size
    k = SUPERSAMPLE * out_w / BASE_W
    c = Canvas(BASE_W, BASE_H, k, background=(255, 255, 255))
    ctype = card.get("type") or "warrior"
    color = card_color(card)
    aff = card.get("affiliation")
    frame_top, frame_bottom = lighten(color, 0.1), darken(color, 0.42)
    on_frame = (255, 255, 255) if luminance(frame_bottom) < 0.6 else INK
    has_cv = card.get("cv") is not None
    cost = card.get("cost")

    # Frame: a dark border, the affiliation colour inside, a gold inner line; Leaders get a double gold line.
    c.rect((0, 0, BASE_W, BASE_H), fill=BORDER, radius=22)
    c.gradient((9, 9, BASE_W - 9, BASE_H - 9), frame_top, frame_bottom, radius=16)
    c.rect((14, 14, BASE_W - 14, BASE_H - 14), outline=GOLD if ctype == "leader" else lighten(color, 0.35),
           width=1.6 if ctype == "leader" else 1.0, radius=13)
    if ctype == "leader":
        c.rect((19, 19, BASE_W - 19, BASE_H - 19), outline=GOLD_DARK, width=1.0, radius=11)

    # ---- title plate -----------------------------------------------------------------------------------------
    plate_top, plate_left, plate_right = 24, (92 if has_cv else 26), (408 if cost is not None else 474)
    subtitle = card.get("subtitle")
    title = ("\u25c6 " if card.get("unique") else "") + (card.get("name") or "")
    s = lambda v: int(round(v * k))  # noqa: E731
    name_size, name_lines = _title_lines(s, title, plate_right - plate_left - 24)
    name_line_h = name_size * 1.16
    plate_bottom = plate_top + 18 + len(name_lines) * name_line_h + (24 if subtitle else 0) + 8
    plate_bottom = max(plate_bottom, plate_top + 68)
    c.rect((plate_left, plate_top, plate_right, plate_bottom), fill=PARCHMENT, outline=darken(color, 0.5),
           width=1.5, radius=9)
    text_h = len(name_lines) * name_line_h + (22 if subtitle else 0)
    y = plate_top + (plate_bottom - plate_top - text_h) / 2 + name_line_h / 2
    cx_title = (plate_left + plate_right) / 2
    for line in name_lines:
        c.text((cx_title, y), line, "name", name_size, INK, anchor="mm")
        y += name_line_h
    if subtitle:
        sub_size = fit_font_size("serif_italic", subtitle, c.s(plate_right - plate_left - 24), c.s(17), c.s(8)) / k
        c.text((cx_title, y - name_line_h / 2 + 14), subtitle, "serif_italic", sub_size, mix(INK, PARCHMENT, 0.25),
               anchor="mm")

    # ---- Combat Value shield (002 §7) and Starting Cost coin (002 §4) ----------------------------------------
    if has_cv:
        sx0, sy0, sx1, sy1 = 22, 18, 86, 96
        c.polygon(shield_points(sx0 - 3, sy0 - 3, sx1 + 3, sy1 + 5), fill=BORDER)
        c.polygon(shield_points(sx0, sy0, sx1, sy1), fill=GOLD)
        c.polygon(shield_points(sx0 + 5, sy0 + 5, sx1 - 5, sy1 - 3), fill=darken(color, 0.3))
        cv = str(card["cv"])
        c.text(((sx0 + sx1) / 2, sy0 + 33), cv, "number", 34 if len(cv) == 1 else 27, (255, 255, 255), anchor="mm")
        c.text(((sx0 + sx1) / 2, sy0 + 60), "CV", "bold", 12, GOLD, anchor="mm")
    if cost is not None:
        cx, cy, r = 444, 58, 33
        c.ellipse((cx - r - 3, cy - r - 3, cx + r + 3, cy + r + 3), fill=BORDER)
        c.ellipse((cx - r, cy - r, cx + r, cy + r), fill=GOLD_DARK)
        c.ellipse((cx - r + 4, cy - r + 4, cx + r - 4, cy + r - 4), fill=GOLD)
        c.ellipse((cx - r + 8, cy - r + 6, cx + r - 8, cy + r - 11), fill=lighten(GOLD, 0.25))
        label = str(cost)
        c.text((cx, cy + 1), label, "number", 34 if len(label) == 1 else 27, INK, anchor="mm")

    # ---- art, with the resource band across its foot (002 §4) ---------------------------------------------
    art_top = plate_bottom + 10
    art_bottom = ART_BOTTOM
    art = placeholder_art(card, int(round(456 * k)), int(round((art_bottom - art_top) * k)), k)
    mask = Image.new("L", art.size, 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, art.size[0] - 1, art.size[1] - 1), radius=c.s(8), fill=255)
    c.image.paste(art, (c.s(22), c.s(art_top)), mask)
    c.rect((22, art_top, 478, art_bottom), outline=darken(color, 0.55), width=1.5, radius=8)
    if aff:
        draw_emblem(c, aff, 452, art_top + 26, 34, lighten(color, 0.7))
    icons = _icons(card)
    if icons.provides or icons.consumes:
        band_top = art_bottom - 50
        band = Image.new("RGBA", (c.s(456), c.s(50)), (0, 0, 0, 120))
        c.image.paste(band, (c.s(22), c.s(band_top)), band)
        disc, gap = 34, 5
        x = 44
        for resource in icons.provides:
            draw_resource_disc(c, resource, x, band_top + 25, disc, blue=True)
            x += disc + gap
        x = 456
        for resource in icons.consumes:
            draw_resource_disc(c, resource, x, band_top + 25, disc, blue=False)
            x -= disc + gap

    # ---- type line: type (and warrior type or intrigue keyword), Tactic slots, Neighbor Count ------------------
    bar_top, bar_bottom = BAR_TOP, BAR_BOTTOM
    c.rect((22, bar_top, 478, bar_bottom), fill=darken(color, 0.55), outline=lighten(color, 0.2), width=1, radius=6)
    right_edge = 470
    nc = card.get("neighbor_count")
    if nc and ctype in ("leader", "place"):
        draw_neighbor_count(c, nc, right_edge - 14, (bar_top + bar_bottom) / 2, 26)
        right_edge -= 36
    tactics = card.get("tactics") or []
    if ctype != "intrigue":
        for i, tactic in enumerate(reversed(TACTICS)):
            draw_tactic(c, tactic, right_edge - 14 - i * 31, (bar_top + bar_bottom) / 2, 27, tactic in tactics)
        right_edge -= 3 * 31 + 4
    label = type_label(card)
    aff_label = affiliation_name(aff).upper()
    full = f"{label}  \u00b7  {aff_label}"
    width = right_edge - 34
    size = fit_font_size("bold", full, c.s(width), c.s(14), c.s(9)) / k
    if size < 10.5:
        full = label
        size = fit_font_size("bold", full, c.s(width), c.s(14), c.s(8)) / k
    c.text((32, (bar_top + bar_bottom) / 2 + 1), full, "bold", size, (255, 255, 255), anchor="lm")

    # ---- text box ------------------------------------------------------------------------------------------
    c.rect((22, TEXT_TOP, 478, TEXT_BOTTOM), fill=PARCHMENT, outline=darken(color, 0.5), width=1.5, radius=9)
    paragraphs = text_paragraphs(card)
    if paragraphs:
        layout = _fit_text(paragraphs, k)
        offset = max(0.0, (c.s(TEXT_H) - layout.height) / 2) / k if len(paragraphs) <= 2 else 0.0
        _draw_layout_scaled(c, layout, 22 + TEXT_PAD_X, TEXT_TOP + TEXT_PAD_Y + offset, TEXT_W)

    # ---- footer: set, number, UNLIMITED -------------------------------------------------------------------------
    foot_y = BASE_H - 24
    set_label = "First Banners" if card.get("set") in (None, "fb") else str(card.get("set")).upper()
    if card.get("number") is not None:
        set_label = f"{set_label} \u00b7 #{card['number']}"
    c.text((30, foot_y), set_label, "bold", 12, on_frame, anchor="lm")
    c.text((470, foot_y), "REALMS", "bold", 12, on_frame, anchor="rm")

    factor = c.image.width / out_w
    if factor == int(factor) and c.image.height / out_h == factor:
        return c.image.reduce(int(factor))
    return c.image.resize((out_w, out_h), Image.Resampling.LANCZOS)


def _fit_text(paragraphs: list[Paragraph], k: float):
    s = lambda v: int(round(v * k))  # noqa: E731
    return fit_paragraphs(paragraphs, s(TEXT_W), s(TEXT_H), max_size=s(20), min_size=s(12), floor_size=s(7))


def card_legibility(card: dict) -> dict:
    """The pixel size of the rules text on the normal 500x700 image, whether flavour was dropped or text cut."""
    paragraphs = text_paragraphs(card)
    if not paragraphs:
        return {"text_px": None, "truncated": False, "flavour_dropped": False}
    layout = _fit_text(paragraphs, SUPERSAMPLE)
    return {"text_px": layout.size / SUPERSAMPLE, "truncated": layout.truncated,
            "flavour_dropped": bool(layout.dropped_optional and card.get("flavor"))}


def contact_sheet(cards: list[dict], *, columns: int = 10, thumb: tuple[int, int] = (250, 350)) -> Image.Image:
    """A grid of card thumbnails with each card's code underneath."""
    from cards.images import font

    tw, th = thumb
    label_h, gap = 22, 12
    rows = max(1, math.ceil(len(cards) / columns))
    cols = min(columns, max(1, len(cards)))
    sheet = Image.new("RGB", (gap + cols * (tw + gap), gap + rows * (th + label_h + gap)), (236, 232, 224))
    draw = ImageDraw.Draw(sheet)
    label_font = font("bold", 14)
    for i, card in enumerate(cards):
        x = gap + (i % columns) * (tw + gap)
        y = gap + (i // columns) * (th + label_h + gap)
        sheet.paste(render_card(card, thumb), (x, y))
        draw.text((x + tw / 2, y + th + 4), card.get("code", ""), font=label_font, fill=INK, anchor="ma")
    return sheet


def main(argv: list[str] | None = None) -> int:
    """`python -m cards.games.realms.images OUT.png [CODE ...]`: a contact sheet of the bundled set."""
    import sys

    from . import bundled_cards

    args = list(sys.argv[1:] if argv is None else argv)
    if not args:
        print("usage: python -m cards.games.realms.images OUT.png [CODE ...]", file=sys.stderr)
        return 2
    out, codes = args[0], set(args[1:])
    cards = [c for c in bundled_cards() if not codes or c["code"] in codes]
    if len(cards) == 1:
        render_card(cards[0], "normal").save(out)
    else:
        contact_sheet(cards).save(out)
    print(f"{out}: {len(cards)} cards")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())

__all__ = ["RENDERER_VERSION", "card_legibility", "contact_sheet", "draw_resource_glyph", "is_structural_line",
           "render_card", "type_label"]
