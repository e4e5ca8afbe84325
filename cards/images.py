"""Card images rendered from card data with Pillow.

Two layers:

* `render_card(face, size)` draws one card from a `CardFace` (a CONTRACTS §1 dict plus its faction colour, set
  name and optional illustration). It is pure drawing: no database, no settings.
* `card_png(card, size)` is the Django side: it renders a `Card` row once and keeps the PNG on disk under
  `settings.CARD_IMAGE_CACHE_DIR`, keyed by a hash of everything drawn (`card_cache_key`), so an edited card or a
  new illustration renders anew and an unchanged card is read from disk.

Everything is drawn at twice the output size and scaled down, which antialiases the shapes (Pillow's polygons
and ellipses have none). Fonts are the DejaVu fonts shipped in `cards/fonts/`, so a machine without system fonts
renders the same cards; struggle icons (§2.3, §6.1: ⚔ combat, 🕷 guile, ⭕ sorcery, ✦ faith) are drawn as shapes
because fonts lack most of those glyphs.
"""
from __future__ import annotations

import hashlib
import io
import json
import logging
import math
import os
import re
import tempfile
import threading
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont, ImageOps

from cards.games.r1.facts import FACTION_NAMES, ICON_GLYPHS, ICONS, PHASES, format_keyword

from .cardfile import parse_keyword

log = logging.getLogger(__name__)

# Bump when the drawing changes, so every cached PNG is rendered again.
RENDERER_VERSION = "8"

BASE_W, BASE_H = 500, 700
SIZES = {"normal": (500, 700), "small": (250, 350), "large": (1000, 1400)}
SUPERSAMPLE = 2  # drawn at 2x, then averaged down (antialiasing)

FONT_DIR = Path(__file__).resolve().parent / "fonts"
FONT_FILES = {
    "name": "DejaVuSerif-Bold.ttf",
    "serif_italic": "DejaVuSerif-Italic.ttf",
    "regular": "DejaVuSansCondensed.ttf",
    "bold": "DejaVuSansCondensed-Bold.ttf",
    "oblique": "DejaVuSansCondensed-Oblique.ttf",
    "number": "DejaVuSans-Bold.ttf",
}

FALLBACK_COLORS = {
    "camelot": "#2f5fa8", "eleven": "#6b6b6b", "lefay": "#6a2c91", "keepers": "#2e7d32",
    "summer": "#d98b1a", "winter": "#4fa3c7", "saracen": "#b23a2a", "neutral": "#8c7b62",
}

INK = (34, 28, 22)
PARCHMENT = (246, 239, 222)
PARCHMENT_DARK = (226, 214, 186)
BORDER = (22, 19, 16)
GOLD = (214, 174, 84)
GOLD_DARK = (140, 104, 36)

ICON_COLORS = {
    "combat": (150, 36, 30),
    "guile": (36, 36, 36),
    "sorcery": (88, 44, 140),
    "faith": (176, 128, 20),
}

# Icons as they may appear inside rules text: the rulebook's glyphs (with or without an emoji variation
# selector) or a bracketed name.
_ICON_TEXT = {glyph: name for name, glyph in ICON_GLYPHS.items()}
_TOKEN_RE = re.compile(
    r"(?P<icon>" + "".join(f"{g}\ufe0f?|" for g in ICON_GLYPHS.values()) + r"\[(?:" + "|".join(ICONS) + r")\])"
    r"|(?<![A-Za-z])(?P<timing>(?:(?:(?:" + "|".join(p.title() for p in PHASES) + r"|Struggle) )?Action"
    r"|Forced(?: (?:Response|Disrupt|Halt))?|Response|Disrupt|Halt|Embark|Deckbuilding|Reaction|Interrupt|Setup"
    r"|When revealed)(?: \((?:[^()]*)\))?:)"
)

TYPE_LABELS = {
    "unit": "Unit", "location": "Location", "attachment": "Attachment", "deed": "Deed",
    "quest": "Quest", "destiny": "Destiny", "faction": "Faction",
}


# ---------------------------------------------------------------------------------------------------------------
# What a card image is drawn from
# ---------------------------------------------------------------------------------------------------------------
@dataclass
class CardFace:
    """Everything a card image shows. `data` is a CONTRACTS §1 card dict."""

    data: dict
    color: str
    faction_name: str
    set_name: str = ""
    illustration: Image.Image | None = None


def face_from_dict(data: dict, *, color: str | None = None, faction_name: str | None = None,
                   set_name: str = "", illustration: Image.Image | None = None) -> CardFace:
    """A CardFace for a plain card dict, with the faction's default colour and name when none is given."""
    faction = data.get("faction") or "neutral"
    return CardFace(
        data=data,
        color=color or FALLBACK_COLORS.get(faction, FALLBACK_COLORS["neutral"]),
        faction_name=faction_name or FACTION_NAMES.get(faction, faction.title()),
        set_name=set_name,
        illustration=illustration,
    )


# ---------------------------------------------------------------------------------------------------------------
# Small helpers: colours, fonts, measuring
# ---------------------------------------------------------------------------------------------------------------
def hex_to_rgb(value: str) -> tuple[int, int, int]:
    value = (value or "").strip().lstrip("#")
    if not re.fullmatch(r"[0-9a-fA-F]{6}", value):
        return hex_to_rgb(FALLBACK_COLORS["neutral"])
    return tuple(int(value[i:i + 2], 16) for i in (0, 2, 4))  # type: ignore[return-value]


def mix(a, b, t: float) -> tuple[int, int, int]:
    """Blend colour a towards b by t (0 = a, 1 = b)."""
    return tuple(int(round(a[i] + (b[i] - a[i]) * t)) for i in range(3))  # type: ignore[return-value]


def lighten(c, t):
    return mix(c, (255, 255, 255), t)


def darken(c, t):
    return mix(c, (0, 0, 0), t)


def vertical_gradient(w: int, h: int, top, bottom) -> Image.Image:
    """A w x h RGB image fading from `top` to `bottom` (computed in C by Pillow, not pixel by pixel)."""
    mask = Image.linear_gradient("L").resize((max(1, w), max(1, h)), Image.Resampling.BILINEAR)
    return Image.composite(Image.new("RGB", mask.size, bottom), Image.new("RGB", mask.size, top), mask)


def luminance(c) -> float:
    return (0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]) / 255


@lru_cache(maxsize=512)
def font(style: str, size: int) -> ImageFont.FreeTypeFont:
    """A shipped DejaVu font; the basic layout engine keeps output identical with or without libraqm."""
    return ImageFont.truetype(str(FONT_DIR / FONT_FILES[style]), max(1, int(size)),
                              layout_engine=ImageFont.Layout.BASIC)


@lru_cache(maxsize=65536)
def text_width(style: str, size: int, text: str) -> float:
    return font(style, size).getlength(text)


def fit_font_size(style: str, text: str, max_width: float, start: int, minimum: int) -> int:
    size = start
    while size > minimum and text_width(style, size, text) > max_width:
        size -= 1
    return size


def faction_initial(faction_name: str) -> str:
    words = [w for w in re.split(r"\s+", faction_name) if w.lower() not in ("the", "of", "le", "la")]
    return (words[0][0] if words else faction_name[:1] or "?").upper()


# ---------------------------------------------------------------------------------------------------------------
# Rich text: words with a style, inline icons, wrapped and shrunk to fit a box
# ---------------------------------------------------------------------------------------------------------------
@dataclass
class Token:
    kind: str  # "word" or "icon"
    value: str  # the word, or the icon name
    style: str  # a FONT_FILES key
    space_before: bool
    can_break: bool = False  # a piece of an over-long word: a line may end before it


@dataclass
class Paragraph:
    tokens: list[Token]
    align: str = "left"  # "left" or "center"
    gap_before: float = 0.45  # in line heights
    rule_before: bool = False  # a thin line above (flavour text)
    optional: bool = False  # dropped first when space runs out (flavour text)


def _words(text: str, style: str, first_space: bool) -> list[Token]:
    tokens = []
    parts = re.split(r"(\s+)", text)
    space = first_space
    for part in parts:
        if not part:
            continue
        if part.isspace():
            space = True
            continue
        tokens.append(Token("word", part, style, space))
        space = False
    return tokens


def keyword_line(line: str) -> list[str] | None:
    """The keywords of a line made only of §9 keywords ('Bound. Haste (2).'), else None."""
    parts = [p.strip() for p in line.strip().rstrip(".").split(".")]
    if not parts or not all(parts):
        return None
    try:
        return [format_keyword(*parse_keyword(p)) for p in parts]
    except ValueError:
        return None


def rules_paragraphs(text: str, *, style: str = "regular") -> list[Paragraph]:
    """Rules text as paragraphs: keyword lines and timing words (Action:, Response:, …, §8.3) in bold, icon
    glyphs as icons."""
    paragraphs = []
    for line in (text or "").replace("\r\n", "\n").split("\n"):
        if not line.strip():
            continue
        if keyword_line(line):
            paragraphs.append(Paragraph(_words(line.strip(), "bold", False)))
            continue
        tokens: list[Token] = []
        pos = 0
        for m in _TOKEN_RE.finditer(line):
            before = line[pos:m.start()]
            tokens += _words(before, style, first_space=bool(tokens) and before[:1].isspace())
            space = bool(tokens) and (m.start() > 0 and line[m.start() - 1].isspace())
            if m.group("icon"):
                raw = m.group("icon").replace("\ufe0f", "")
                name = raw.strip("[]") if raw.startswith("[") else _ICON_TEXT[raw]
                tokens.append(Token("icon", name, style, space))
            else:
                words = _words(m.group("timing"), "bold", first_space=space)
                tokens += words
            pos = m.end()
        rest = line[pos:]
        tokens += _words(rest, style, first_space=bool(tokens) and rest[:1].isspace())
        if tokens:
            tokens[0].space_before = False
            paragraphs.append(Paragraph(tokens))
    return paragraphs


@dataclass
class LaidOutLine:
    items: list[tuple[float, Token]]  # x offset, token
    width: float
    align: str
    y: float


@dataclass
class TextLayout:
    size: int
    line_height: float
    lines: list[LaidOutLine]
    rules: list[float]  # y positions of separator lines
    height: float
    dropped_optional: bool = False
    truncated: bool = False


def _token_width(token: Token, size: int) -> float:
    if token.kind == "icon":
        return size * 1.05
    return text_width(token.style, size, token.value)


def _split_long_word(token: Token, size: int, width: float) -> list[Token]:
    """A single word wider than the box (only at the smallest size) is broken between characters."""
    pieces, current = [], ""
    for ch in token.value:
        if current and text_width(token.style, size, current + ch) > width:
            pieces.append(current)
            current = ch
        else:
            current += ch
    if current:
        pieces.append(current)
    return [Token("word", p, token.style, token.space_before if i == 0 else False, can_break=i > 0)
            for i, p in enumerate(pieces)]


def layout_paragraphs(paragraphs: list[Paragraph], width: float, size: int, *,
                      break_long_words: bool = False) -> TextLayout | None:
    """Greedy line breaking at one font size. None when a word does not fit the width at this size."""
    line_height = size * 1.24
    lines: list[LaidOutLine] = []
    rules: list[float] = []
    y = 0.0
    for p_index, para in enumerate(paragraphs):
        if p_index:
            y += line_height * para.gap_before
        if para.rule_before:
            rules.append(y + line_height * 0.1)
            y += line_height * 0.35
        tokens = para.tokens
        if break_long_words:
            tokens = [piece for t in tokens for piece in (
                _split_long_word(t, size, width) if t.kind == "word" and _token_width(t, size) > width else [t])]
        current: list[tuple[float, Token]] = []
        x = 0.0
        for token in tokens:
            w = _token_width(token, size)
            if w > width:
                return None
            gap = text_width(token.style, size, " ") if (current and token.space_before) else 0.0
            if current and x + gap + w > width and (token.space_before or token.can_break):
                lines.append(LaidOutLine(current, x, para.align, y))
                y += line_height
                current, x, gap = [], 0.0, 0.0
            current.append((x + gap, token))
            x += gap + w
        if current:
            lines.append(LaidOutLine(current, x, para.align, y))
            y += line_height
    return TextLayout(size=size, line_height=line_height, lines=lines, rules=rules, height=y)


def fit_paragraphs(paragraphs: list[Paragraph], width: float, height: float, *, max_size: int, min_size: int,
                   floor_size: int | None = None) -> TextLayout:
    """The largest font size at which the text fits the box, never cutting a word.

    Optional paragraphs (flavour) are kept only if they fit at a comfortable size; below `min_size` they are
    dropped first, then the text shrinks to `floor_size`. Text that still does not fit at the floor is cut at a
    line boundary and ends with an ellipsis rather than spill out of the box.
    """
    floor_size = floor_size or max(5, min_size - 3)
    with_optional = paragraphs
    without_optional = [p for p in paragraphs if not p.optional]
    for candidate, smallest in ((with_optional, min_size + 1), (without_optional, floor_size)):
        if candidate is with_optional and len(without_optional) == len(with_optional):
            continue
        for size in range(max_size, smallest - 1, -1):
            result = layout_paragraphs(candidate, width, size)
            if result is not None and result.height <= height:
                result.dropped_optional = candidate is not with_optional
                return result
    # Pathological text: break over-long words at the floor size, keep whole lines that fit, add an ellipsis.
    result = layout_paragraphs(without_optional, width, floor_size, break_long_words=True)
    assert result is not None
    kept = [line for line in result.lines if line.y + result.line_height <= height]
    if len(kept) < len(result.lines) and kept:
        last = kept[-1]
        ell = Token("word", "…", "regular", True)
        ell_w = _token_width(ell, floor_size) + text_width("regular", floor_size, " ")
        while last.items and last.width + ell_w > width:
            last.items.pop()
            last.width = (last.items[-1][0] + _token_width(last.items[-1][1], floor_size)) if last.items else 0.0
        last.items.append((last.width + text_width("regular", floor_size, " "), ell))
        last.width += ell_w
    result.lines = kept
    result.rules = [r for r in result.rules if r < height]
    result.height = min(result.height, height)
    result.dropped_optional = len(without_optional) != len(paragraphs)
    result.truncated = True
    return result


# ---------------------------------------------------------------------------------------------------------------
# Drawing primitives (coordinates in output pixels at 500x700, scaled by the canvas)
# ---------------------------------------------------------------------------------------------------------------
class Canvas:
    """An RGB image drawn in 500x700 design units, scaled by `k`."""

    def __init__(self, width: int, height: int, k: float, background=(0, 0, 0)):
        self.k = k
        self.image = Image.new("RGB", (int(round(width * k)), int(round(height * k))), background)
        self.draw = ImageDraw.Draw(self.image)

    def s(self, v: float) -> int:
        return int(round(v * self.k))

    def box(self, x0, y0, x1, y1) -> tuple[int, int, int, int]:
        return (self.s(x0), self.s(y0), self.s(x1), self.s(y1))

    def rect(self, xy, fill=None, outline=None, width=0, radius=0):
        self.draw.rounded_rectangle(self.box(*xy), radius=self.s(radius), fill=fill, outline=outline,
                                    width=self.s(width) if width else 0)

    def gradient(self, xy, top, bottom, radius=0):
        x0, y0, x1, y1 = self.box(*xy)
        w, h = max(1, x1 - x0), max(1, y1 - y0)
        fill = vertical_gradient(w, h, top, bottom)
        mask = Image.new("L", (w, h), 0)
        ImageDraw.Draw(mask).rounded_rectangle((0, 0, w - 1, h - 1), radius=self.s(radius), fill=255)
        self.image.paste(fill, (x0, y0), mask)

    def text(self, xy, text, style, size, fill, anchor="la"):
        self.draw.text((self.s(xy[0]), self.s(xy[1])), text, font=font(style, self.s(size)), fill=fill,
                       anchor=anchor)

    def polygon(self, points, fill=None, outline=None, width=1):
        pts = [(self.s(x), self.s(y)) for x, y in points]
        self.draw.polygon(pts, fill=fill, outline=outline, width=self.s(width) if outline else 0)

    def ellipse(self, xy, fill=None, outline=None, width=0):
        self.draw.ellipse(self.box(*xy), fill=fill, outline=outline, width=self.s(width) if width else 0)

    def line(self, points, fill, width):
        self.draw.line([(self.s(x), self.s(y)) for x, y in points], fill=fill, width=max(1, self.s(width)),
                       joint="curve")


def draw_icon(c: Canvas, name: str, cx: float, cy: float, d: float, color=None) -> None:
    """One struggle icon as a shape, centred on (cx, cy), d units across (§6.1)."""
    color = color or ICON_COLORS[name]
    r = d / 2
    if name == "combat":
        # Two crossed swords; each has a blade, a crossguard at the hilt, a grip and a pommel.
        for sign in (1, -1):
            tip = (cx - sign * r * 0.8, cy - r * 0.8)
            hilt = (cx + sign * r * 0.4, cy + r * 0.4)
            c.line([tip, hilt], color, d * 0.13)
            px, py = -1 / math.sqrt(2) * r * 0.3, sign / math.sqrt(2) * r * 0.3
            c.line([(hilt[0] - px, hilt[1] - py), (hilt[0] + px, hilt[1] + py)], color, d * 0.1)
            end = (cx + sign * r * 0.7, cy + r * 0.7)
            c.line([hilt, end], color, d * 0.1)
            c.ellipse((end[0] - d * 0.08, end[1] - d * 0.08, end[0] + d * 0.08, end[1] + d * 0.08), fill=color)
    elif name == "guile":
        # A spider: abdomen, head and eight bent legs.
        c.ellipse((cx - r * 0.3, cy - r * 0.12, cx + r * 0.3, cy + r * 0.58), fill=color)
        c.ellipse((cx - r * 0.19, cy - r * 0.4, cx + r * 0.19, cy - r * 0.04), fill=color)
        for sign in (1, -1):
            for i, (ky, fy) in enumerate(((-0.55, -0.95), (-0.2, -0.45), (0.1, 0.35), (0.3, 0.9))):
                hip = (cx + sign * r * 0.15, cy - r * 0.2 + i * r * 0.1)
                knee = (cx + sign * r * 0.62, cy + ky * r)
                foot = (cx + sign * r * 0.92, cy + fy * r)
                c.line([hip, knee, foot], color, d * 0.07)
    elif name == "sorcery":
        # A ring (⭕) with a small centre point.
        c.ellipse((cx - r * 0.78, cy - r * 0.78, cx + r * 0.78, cy + r * 0.78), outline=color, width=d * 0.17)
        c.ellipse((cx - r * 0.14, cy - r * 0.14, cx + r * 0.14, cy + r * 0.14), fill=color)
    elif name == "faith":
        # A four-pointed star (✦).
        pts = []
        for i in range(8):
            ang = -math.pi / 2 + i * math.pi / 4
            rad = r * (0.95 if i % 2 == 0 else 0.3)
            pts.append((cx + rad * math.cos(ang), cy + rad * math.sin(ang)))
        c.polygon(pts, fill=color)


def shield_points(x0, y0, x1, y1, steps=12):
    """A heraldic shield: flat top, straight sides, curving to a point."""
    w = x1 - x0
    mid = x0 + w / 2
    shoulder = y0 + (y1 - y0) * 0.45
    pts = [(x0, y0), (x1, y0), (x1, shoulder)]
    for i in range(1, steps + 1):  # right side: quadratic curve to the point
        t = i / steps
        bx = (1 - t) ** 2 * x1 + 2 * (1 - t) * t * x1 + t * t * mid
        by = (1 - t) ** 2 * shoulder + 2 * (1 - t) * t * (y1 - (y1 - shoulder) * 0.25) + t * t * y1
        pts.append((bx, by))
    for i in range(1, steps + 1):
        t = i / steps
        bx = (1 - t) ** 2 * mid + 2 * (1 - t) * t * x0 + t * t * x0
        by = (1 - t) ** 2 * y1 + 2 * (1 - t) * t * (y1 - (y1 - shoulder) * 0.25) + t * t * shoulder
        pts.append((bx, by))
    return pts


# ---------------------------------------------------------------------------------------------------------------
# The card
# ---------------------------------------------------------------------------------------------------------------
def _cost_label(cost) -> str | None:
    if cost is None:
        return None
    return "–" if cost == "-" else str(cost)


def placeholder_art(color_rgb, initial: str, w: int, h: int, card_type: str) -> Image.Image:
    """Generated art for a card without an illustration: a faction-coloured gradient, a faint emblem of the card
    type behind the faction's initial, so that cards stay recognisable as thumbnails."""
    top, bottom = lighten(color_rgb, 0.35), darken(color_rgb, 0.45)
    img = vertical_gradient(w, h, top, bottom)
    overlay = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(overlay)
    cx, cy = w / 2, h / 2
    big = min(w, h)
    # Diagonal sheen for depth.
    for i in range(-h, w, max(6, big // 18)):
        d.line([(i, h), (i + h, 0)], fill=(255, 255, 255, 10), width=max(1, big // 60))
    r = big * 0.6
    d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=(255, 255, 255, 30), width=max(1, big // 90))
    _type_emblem(d, card_type, cx, cy, big * 0.46, (255, 255, 255, 46), max(2, big // 45))
    size = int(big * 0.46)
    f = ImageFont.truetype(str(FONT_DIR / FONT_FILES["name"]), size, layout_engine=ImageFont.Layout.BASIC)
    d.text((cx + big * 0.012, cy + big * 0.02), initial, font=f, fill=(0, 0, 0, 70), anchor="mm")
    d.text((cx, cy), initial, font=f, fill=(255, 255, 255, 160), anchor="mm")
    img.paste(overlay, (0, 0), overlay)
    return img


def _type_emblem(d: ImageDraw.ImageDraw, card_type: str, cx: float, cy: float, r: float, fill, width: int) -> None:
    """A faint outline emblem per card type: shield (unit), tower (location), sword (attachment), scroll (deed),
    compass star (quest), crown (destiny), banner (faction)."""
    if card_type == "unit":
        d.polygon(shield_points(cx - r * 0.8, cy - r * 0.9, cx + r * 0.8, cy + r), outline=fill, width=width)
    elif card_type == "location":
        x0, x1, y0, y1 = cx - r * 0.7, cx + r * 0.7, cy - r * 0.7, cy + r
        merlon = (x1 - x0) / 5
        pts = [(x0, y1), (x0, y0)]
        for i in range(5):
            top = y0 if i % 2 == 0 else y0 + merlon * 0.8
            pts += [(x0 + i * merlon, top), (x0 + (i + 1) * merlon, top)]
        pts += [(x1, y0), (x1, y1)]
        d.line(pts, fill=fill, width=width, joint="curve")
        d.arc((cx - r * 0.25, cy + r * 0.35, cx + r * 0.25, cy + r * 0.85), 180, 360, fill=fill, width=width)
        d.line([(cx - r * 0.25, cy + r * 0.6), (cx - r * 0.25, y1)], fill=fill, width=width)
        d.line([(cx + r * 0.25, cy + r * 0.6), (cx + r * 0.25, y1)], fill=fill, width=width)
    elif card_type == "attachment":
        d.polygon([(cx, cy - r), (cx + r * 0.12, cy - r * 0.8), (cx + r * 0.12, cy + r * 0.45),
                   (cx - r * 0.12, cy + r * 0.45), (cx - r * 0.12, cy - r * 0.8)], outline=fill, width=width)
        d.line([(cx - r * 0.45, cy + r * 0.5), (cx + r * 0.45, cy + r * 0.5)], fill=fill, width=width * 2)
        d.line([(cx, cy + r * 0.5), (cx, cy + r * 0.85)], fill=fill, width=width * 2)
        d.ellipse((cx - r * 0.1, cy + r * 0.85, cx + r * 0.1, cy + r * 1.05), outline=fill, width=width)
    elif card_type == "deed":
        x0, x1, y0, y1 = cx - r * 0.75, cx + r * 0.75, cy - r * 0.6, cy + r * 0.6
        d.rectangle((x0, y0, x1, y1), outline=fill, width=width)
        for x in (x0, x1):
            d.ellipse((x - r * 0.12, y0 - r * 0.12, x + r * 0.12, y1 + r * 0.12), outline=fill, width=width)
        for i in range(1, 4):
            y = y0 + (y1 - y0) * i / 4
            d.line([(x0 + r * 0.25, y), (x1 - r * 0.25, y)], fill=fill, width=max(1, width // 2))
    elif card_type == "quest":
        pts = []
        for i in range(16):
            ang = -math.pi / 2 + i * math.pi / 8
            rad = r * (1.0 if i % 4 == 0 else 0.55 if i % 2 == 0 else 0.22)
            pts.append((cx + rad * math.cos(ang), cy + rad * math.sin(ang)))
        d.polygon(pts, outline=fill, width=width)
    elif card_type == "destiny":
        x0, x1, y0, y1 = cx - r * 0.85, cx + r * 0.85, cy - r * 0.6, cy + r * 0.5
        pts = [(x0, y1), (x0, y0), (cx - r * 0.42, cy), (cx, y0 - r * 0.2), (cx + r * 0.42, cy), (x1, y0), (x1, y1)]
        d.polygon(pts, outline=fill, width=width)
        d.line([(x0, y1 + r * 0.2), (x1, y1 + r * 0.2)], fill=fill, width=width)
    elif card_type == "faction":
        x0, x1, y0, y1 = cx - r * 0.55, cx + r * 0.55, cy - r * 0.85, cy + r
        d.polygon([(x0, y0), (x1, y0), (x1, y1), (cx, y1 - r * 0.35), (x0, y1)], outline=fill, width=width)
        d.line([(x0 - r * 0.2, y0), (x1 + r * 0.2, y0)], fill=fill, width=width * 2)


def _deckbuilding_lines(rules: dict | None) -> list[str]:
    """Destiny deckbuilding rules (CONTRACTS §1) in plain words."""
    if not rules:
        return []
    out = []
    if rules.get("min_draw_cards") is not None:
        out.append(f"Your draw deck has at least {rules['min_draw_cards']} cards.")
    if rules.get("max_copies") is not None:
        n = rules["max_copies"]
        out.append(f"At most {n} {'copy' if n == 1 else 'copies'} of each card name.")
    if rules.get("bound_factions"):
        names = [FACTION_NAMES.get(f, f) for f in rules["bound_factions"]]
        out.append("You may include Bound cards of " + _join_words(names) + ".")
    if rules.get("forbidden_types"):
        plural = {"unit": "units", "location": "locations", "attachment": "attachments", "deed": "deeds"}
        out.append("No " + _join_words([plural.get(t, t) for t in rules["forbidden_types"]], "or")
                   + " in your draw deck.")
    if rules.get("max_cost") is not None:
        out.append(f"No draw card with a printed cost above {rules['max_cost']}.")
    return out


def _join_words(words: list[str], conj: str = "and") -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + f" {conj} " + words[-1]


def text_box_paragraphs(data: dict) -> list[Paragraph]:
    """The text box: attributes (italic), keywords (bold), rules text, destiny rules, then flavour if room."""
    paragraphs: list[Paragraph] = []
    if data.get("attributes"):
        paragraphs.append(Paragraph(_words(". ".join(data["attributes"]) + ".", "serif_italic", False),
                                    align="center", gap_before=0.2))
    text = data.get("text") or ""
    # Cards usually print their keywords as the text's first line; any keyword the text does not print is
    # shown in bold above it, so the image never hides a keyword the rules engine applies.
    printed = {k.lower() for line in text.splitlines() for k in (keyword_line(line) or [])}
    missing = [k for k in data.get("keywords") or [] if k.lower() not in printed]
    if missing:
        paragraphs.append(Paragraph(_words(". ".join(missing) + ".", "bold", False)))
    lines = _deckbuilding_lines(data.get("deckbuilding")) if data.get("type") == "destiny" else []
    if lines:
        # The data's rules are what legality checks (§10.6, §11): show them, instead of a printed
        # "Deckbuilding:" sentence that would say the same thing twice.
        text = "\n".join(line for line in text.splitlines() if not line.strip().startswith("Deckbuilding:"))
        paragraphs.append(Paragraph(_words("Deckbuilding:", "bold", False)))
        for line in lines:
            paragraphs.append(Paragraph([Token("word", "–", "bold", False)] + _words(line, "regular", True),
                                        gap_before=0.1))
    paragraphs += rules_paragraphs(text)
    if data.get("flavor"):
        flavour = Paragraph(_words(data["flavor"].strip(), "serif_italic", False), align="center",
                            rule_before=True, optional=True, gap_before=0.35)
        paragraphs.append(flavour)
    return paragraphs


@dataclass
class CardGeometry:
    """Where everything goes on a card, in 500x700 design units; the text layouts are in canvas pixels."""

    cost: str | None
    plate_top: float
    plate_bottom: float
    plate_left: float
    title_left: float
    title_width: float
    name_size: float
    name_lines: list[str]
    art_top: float
    art_bottom: float
    bar_top: float
    bar_bottom: float
    stats_top: float | None  # quests: the wealth/momentum/spoils/levy boxes
    text_top: float
    text_bottom: float
    box_x: float
    box_y: float
    box_w: float
    box_h: float
    layout: TextLayout | None
    k: float


def card_geometry(data: dict, k: float = SUPERSAMPLE) -> CardGeometry:
    """Lay a card out without drawing it: title plate, art box, type line, text box and the fitted text."""

    def s(v: float) -> int:
        return int(round(v * k))

    ctype = data.get("type") or "unit"
    cost = _cost_label(data.get("cost"))
    has_cost = cost is not None
    subtitle = data.get("subtitle")
    plate_top = 20
    plate_bottom = 100 if subtitle else 84
    plate_left = 70 if has_cost else 22
    title = ("• " if data.get("unique") else "") + (data.get("name") or "")
    title_left = plate_left + (34 if has_cost else 14)
    title_width = 478 - title_left - 14
    name_size, name_lines = _title_lines(s, title, title_width)
    if len(name_lines) > 1:
        plate_bottom = plate_top + 12 + len(name_lines) * name_size * 1.18 + (24 if subtitle else 0) + 8
    art_top = plate_bottom + 8
    art_bottom = {"faction": 420, "quest": 340, "destiny": 330}.get(ctype, 372)
    bar_top = art_bottom + 7
    bar_bottom = bar_top + 28
    text_top = bar_bottom + 7
    stats_top = None
    if ctype == "quest":
        stats_top = text_top
        text_top += 70
    text_bottom = BASE_H - 46
    pad_x, pad_y = 16, 10
    is_unit = ctype == "unit"
    box_w = 456 - 2 * pad_x
    # Units leave room at the bottom for the Power shield's point.
    box_h = text_bottom - text_top - 2 * pad_y - (14 if is_unit else 0)
    paragraphs = text_box_paragraphs(data)
    layout = None
    if paragraphs:
        layout = fit_paragraphs(paragraphs, s(box_w), s(box_h), max_size=s(21), min_size=s(12), floor_size=s(7))
    return CardGeometry(
        cost=cost, plate_top=plate_top, plate_bottom=plate_bottom, plate_left=plate_left, title_left=title_left,
        title_width=title_width, name_size=name_size, name_lines=name_lines, art_top=art_top,
        art_bottom=art_bottom, bar_top=bar_top, bar_bottom=bar_bottom, stats_top=stats_top, text_top=text_top,
        text_bottom=text_bottom, box_x=22 + pad_x, box_y=text_top + pad_y + (4 if is_unit else 0), box_w=box_w,
        box_h=box_h, layout=layout, k=k,
    )


@dataclass
class Legibility:
    """How a card's words come out on the standard 500x700 image, in pixels."""

    name_px: float
    text_px: float | None
    truncated: bool
    flavour_dropped: bool

    @property
    def problems(self) -> list[str]:
        out = []
        if self.name_px < 14:
            out.append(f"name at {self.name_px:.0f} px")
        if self.text_px is not None and self.text_px < 10:
            out.append(f"rules text at {self.text_px:.1f} px")
        if self.truncated:
            out.append("rules text cut short (far too long for the text box)")
        return out


def card_legibility(data: dict) -> Legibility:
    g = card_geometry(data, SUPERSAMPLE)
    layout = g.layout
    return Legibility(
        name_px=g.name_size,
        text_px=None if layout is None else layout.size / SUPERSAMPLE,
        truncated=bool(layout and layout.truncated),
        flavour_dropped=bool(layout and layout.dropped_optional and data.get("flavor")),
    )


# FreeType faces are shared (font() caches them) and are not safe to use from two threads at once.
RENDER_LOCK = threading.RLock()


def render_card(face: CardFace, size: str | tuple[int, int] = "normal") -> Image.Image:
    """Draw one card. `size` is a key of SIZES or a (width, height) pair; returns an RGB image.

        >>> render_card(face_from_dict({"code": "c1", "name": "Gawain", "type": "unit", "faction": "camelot",
        ...                             "cost": 3, "power": 4, "icons": ["combat"]}), "small").size
        (250, 350)
    """
    with RENDER_LOCK:
        return _render_card(face, size)


def _render_card(face: CardFace, size) -> Image.Image:
    out_w, out_h = SIZES[size] if isinstance(size, str) else size
    k = SUPERSAMPLE * out_w / BASE_W
    c = Canvas(BASE_W, BASE_H, k, background=(255, 255, 255))
    data = face.data
    ctype = data.get("type") or "unit"
    is_unit = ctype == "unit"
    color = hex_to_rgb(face.color)
    frame_top, frame_bottom = lighten(color, 0.12), darken(color, 0.35)
    on_frame = (255, 255, 255) if luminance(frame_bottom) < 0.6 else INK
    g = card_geometry(data, k)
    cost, has_cost = g.cost, g.cost is not None
    subtitle = data.get("subtitle")
    plate_top, art_top, art_bottom = g.plate_top, g.art_top, g.art_bottom

    # Frame: dark outer border, faction colour inside.
    c.rect((0, 0, BASE_W, BASE_H), fill=BORDER, radius=24)
    c.gradient((9, 9, BASE_W - 9, BASE_H - 9), frame_top, frame_bottom, radius=17)
    c.rect((9, 9, BASE_W - 9, BASE_H - 9), outline=lighten(color, 0.4), width=1.2, radius=17)

    # ---- title plate: • unique mark (§3.7), name, subtitle -----------------------------------------------
    c.rect((g.plate_left, plate_top, 478, g.plate_bottom), fill=PARCHMENT, outline=darken(color, 0.5),
           width=1.5, radius=10)
    name_size, name_lines = g.name_size, g.name_lines
    name_line_h = name_size * 1.18
    name_y = plate_top + (34 if subtitle else 44) if len(name_lines) == 1 else plate_top + 12 + name_line_h / 2
    for i, line in enumerate(name_lines):
        c.text((g.title_left, name_y + i * name_line_h), line, "name", name_size, INK, anchor="lm")
    if subtitle:
        sub_size = fit_font_size("serif_italic", subtitle, c.s(g.title_width), c.s(18), c.s(8)) / c.k
        sub_y = name_y + (len(name_lines) - 1) * name_line_h + (36 if len(name_lines) == 1 else name_line_h / 2 + 13)
        c.text((g.title_left, sub_y), _ellipsize("serif_italic", c.s(sub_size), subtitle, c.s(g.title_width)),
               "serif_italic", sub_size, mix(INK, PARCHMENT, 0.25), anchor="lm")

    # ---- cost coin and Loyalty ---------------------------------------------------------------------------
    if has_cost:
        cx, cy, r = 58, plate_top + 38, 38
        c.ellipse((cx - r - 3, cy - r - 3, cx + r + 3, cy + r + 3), fill=BORDER)
        c.ellipse((cx - r, cy - r, cx + r, cy + r), fill=GOLD_DARK)
        c.ellipse((cx - r + 4, cy - r + 4, cx + r - 4, cy + r - 4), fill=GOLD)
        c.ellipse((cx - r + 9, cy - r + 7, cx + r - 9, cy + r - 12), fill=lighten(GOLD, 0.25))
        size = 40 if len(cost) == 1 else 32
        c.text((cx, cy + 2), cost, "number", size, INK, anchor="mm")
    # ---- art box and the stat areas that depend on the type ----------------------------------------------
    art_w, art_h = 456, art_bottom - art_top
    art = _art_image(face, color, int(round(art_w * k)), int(round(art_h * k)), ctype)
    mask = Image.new("L", art.size, 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, art.size[0] - 1, art.size[1] - 1), radius=c.s(8), fill=255)
    c.image.paste(art, (c.s(22), c.s(art_top)), mask)
    c.rect((22, art_top, 478, art_bottom), outline=darken(color, 0.55), width=1.5, radius=8)
    loyalty = data.get("loyalty")
    if loyalty:
        # Loyalty (§9.3): a banner of 1-3 diamonds under the cost coin (over the art's corner).
        lx, ly = (58, plate_top + 90) if has_cost else (60, art_top + 20)
        bw = 16 + 15 * loyalty
        c.rect((lx - bw / 2, ly - 12, lx + bw / 2, ly + 12), fill=BORDER, outline=GOLD, width=1.2, radius=6)
        for i in range(loyalty):
            px = lx - (loyalty - 1) * 7.5 + i * 15
            c.polygon([(px, ly - 7.5), (px + 6, ly), (px, ly + 7.5), (px - 6, ly)], fill=GOLD)

    icons = [i for i in ICONS if i in (data.get("icons") or [])]
    if ctype == "unit" and icons:
        # Struggle icons (§2.3) down the right edge of the art.
        ix = 446
        iy = art_top + 34
        for name_ in icons:
            c.ellipse((ix - 24, iy - 24, ix + 24, iy + 24), fill=BORDER)
            c.ellipse((ix - 21, iy - 21, ix + 21, iy + 21), fill=PARCHMENT)
            draw_icon(c, name_, ix, iy, 30)
            iy += 54

    # ---- type line ---------------------------------------------------------------------------------------
    bar_top, bar_bottom = g.bar_top, g.bar_bottom
    c.rect((22, bar_top, 478, bar_bottom), fill=darken(color, 0.55), outline=lighten(color, 0.2), width=1,
           radius=6)
    type_label = TYPE_LABELS.get(ctype, ctype).upper() + "  ·  " + face.faction_name.upper()
    type_left = 110 if is_unit else 30
    type_size = fit_font_size("bold", type_label, 478 - type_left - 10, 15, 9)
    c.text(((type_left + 470) / 2, (bar_top + bar_bottom) / 2 + 1), type_label, "bold", type_size,
           (255, 255, 255), anchor="mm")

    # ---- quest stats (§2.4) ------------------------------------------------------------------------------
    if g.stats_top is not None:
        text_top = g.stats_top
        stats = [("Wealth", data.get("wealth")), ("Momentum", data.get("momentum")),
                 ("Spoils", data.get("spoils")), ("Levy", data.get("levy"))]
        sw = (456 - 3 * 6) / 4
        for i, (label, value) in enumerate(stats):
            x0 = 22 + i * (sw + 6)
            c.rect((x0, text_top, x0 + sw, text_top + 62), fill=PARCHMENT_DARK, outline=darken(color, 0.5),
                   width=1.2, radius=7)
            c.text((x0 + sw / 2, text_top + 26), "–" if value is None else str(value), "number", 28, INK,
                   anchor="mm")
            c.text((x0 + sw / 2, text_top + 51), label.upper(), "bold", 12, mix(INK, PARCHMENT, 0.2),
                   anchor="mm")

    # ---- text box: attributes, keywords, rules text, flavour (fitted by card_geometry) -------------------
    c.rect((22, g.text_top, 478, g.text_bottom), fill=PARCHMENT, outline=darken(color, 0.5), width=1.5, radius=9)
    if g.layout is not None:
        _draw_layout_scaled(c, g.layout, g.box_x, g.box_y, g.box_w)

    # ---- Power shield (units) ----------------------------------------------------------------------------
    if is_unit:
        power = data.get("power")
        label = "X" if power == "X" else ("–" if power is None else str(power))
        sx0, sy0 = 28, art_bottom - 34
        sx1, sy1 = 96, art_bottom + 50
        c.polygon(shield_points(sx0 - 3, sy0 - 3, sx1 + 3, sy1 + 5), fill=BORDER)
        c.polygon(shield_points(sx0, sy0, sx1, sy1), fill=GOLD)
        c.polygon(shield_points(sx0 + 5, sy0 + 5, sx1 - 5, sy1 - 3), fill=darken(color, 0.35))
        c.text(((sx0 + sx1) / 2, sy0 + 34), label, "number", 36 if len(label) == 1 else 28, (255, 255, 255),
               anchor="mm")

    # ---- footer: set and number, illustrator ------------------------------------------------------------
    foot_y = BASE_H - 26
    set_label = face.set_name or ""
    if data.get("number") is not None:
        set_label = f"{set_label} · #{data['number']}" if set_label else f"#{data['number']}"
    if set_label:
        c.text((28, foot_y), set_label, "bold", 12, on_frame, anchor="lm")
    if data.get("illustrator"):
        illus = f"Illus. {data['illustrator']}"
        ill_size = fit_font_size("oblique", illus, 220, 12, 8)
        c.text((472, foot_y), illus, "oblique", ill_size, on_frame, anchor="rm")

    factor = c.image.width / out_w
    if factor == int(factor) and c.image.height / out_h == factor:
        return c.image.reduce(int(factor))  # a box average of each 2x2 block: exact supersampling, and fast
    return c.image.resize((out_w, out_h), Image.Resampling.LANCZOS)


def _title_lines(s, title: str, width: float) -> tuple[float, list[str]]:
    """The card name on one line (30 down to 19 units), else on two lines (24 down to 10): never cut a word.
    `s` scales design units to canvas pixels."""
    w = s(width)
    for size in range(30, 18, -1):
        if text_width("name", s(size), title) <= w:
            return size, [title]
    words = title.split()
    for size in range(24, 9, -1):
        for i in range(len(words) - 1, 0, -1):
            first, second = " ".join(words[:i]), " ".join(words[i:])
            if text_width("name", s(size), first) <= w and text_width("name", s(size), second) <= w:
                return size, [first, second]
    size = 10
    while size > 5 and text_width("name", s(size), title) > w:
        size -= 0.5
    return size, [_ellipsize("name", s(size), title, w)]


def _ellipsize(style: str, size: int, text: str, width: float) -> str:
    """Only for a subtitle or name that cannot fit even at the smallest size: end it with an ellipsis."""
    if text_width(style, size, text) <= width:
        return text
    while text and text_width(style, size, text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"


def _draw_layout_scaled(c: Canvas, layout: TextLayout, x: float, y: float, width: float) -> None:
    """Draw a layout computed in canvas pixels at a position given in design units."""
    px, py, pw = c.s(x), c.s(y), c.s(width)
    size = layout.size
    for rule_y in layout.rules:
        yy = py + rule_y
        c.draw.line([(px + pw * 0.28, yy), (px + pw * 0.72, yy)], fill=mix(INK, PARCHMENT, 0.55),
                    width=max(1, c.s(0.8)))
    for line in layout.lines:
        offset = (pw - line.width) / 2 if line.align == "center" else 0
        baseline = py + line.y + size * 0.98
        for tx, token in line.items:
            if token.kind == "icon":
                d = size * 0.98
                _draw_icon_px(c, token.value, px + offset + tx + size * 0.52, baseline - size * 0.36, d)
            else:
                c.draw.text((px + offset + tx, baseline), token.value, font=font(token.style, size), fill=INK,
                            anchor="ls")


def _draw_icon_px(c: Canvas, name: str, cx: float, cy: float, d: float) -> None:
    k = c.k
    draw_icon(c, name, cx / k, cy / k, d / k)


def _art_image(face: CardFace, color, w: int, h: int, ctype: str) -> Image.Image:
    """The illustration cover-cropped to the art box (transparent parts show the placeholder beneath), or the
    generated placeholder when there is none."""
    if face.illustration is not None:
        try:
            ill = face.illustration
            has_alpha = ill.mode in ("RGBA", "LA", "PA") or "transparency" in ill.info
            fitted = ImageOps.fit(ill.convert("RGBA" if has_alpha else "RGB"), (w, h), Image.Resampling.LANCZOS,
                                  centering=(0.5, 0.4))
            if not has_alpha:
                return fitted
            base = placeholder_art(color, faction_initial(face.faction_name), w, h, ctype)
            base.paste(fitted, (0, 0), fitted)
            return base
        except (OSError, ValueError) as exc:  # a damaged stored file must not break the card
            log.warning("card %s: illustration unusable (%s); drawing the placeholder", face.data.get("code"), exc)
    return placeholder_art(color, faction_initial(face.faction_name), w, h, ctype)


def card_to_png_bytes(image: Image.Image) -> bytes:
    buf = io.BytesIO()
    image.save(buf, format="PNG", optimize=False, compress_level=6)
    return buf.getvalue()


# ---------------------------------------------------------------------------------------------------------------
# Django side: Card rows, the disk cache
# ---------------------------------------------------------------------------------------------------------------
_DRAWN_FIELDS = ("code", "name", "subtitle", "type", "faction", "cost", "power", "icons", "attributes", "unique",
                 "loyalty", "keywords", "text", "wealth", "momentum", "spoils", "levy", "deckbuilding", "flavor",
                 "illustrator", "number")


def card_cache_key(card) -> str:
    """A hash of everything the image of `card` shows: its drawn fields, faction colour and name, set name,
    illustration file and the renderer's version. Any edit changes the key."""
    data = card.to_data()
    payload = {
        "v": RENDERER_VERSION,
        "data": {k: data.get(k) for k in _DRAWN_FIELDS},
        "color": card.faction.color,
        "faction": card.faction.name,
        "set": card.card_set.name,
        "illustration": card.illustration.name if card.illustration else None,
    }
    blob = json.dumps(payload, sort_keys=True, ensure_ascii=False, default=str).encode("utf-8")
    return hashlib.sha256(blob).hexdigest()[:32]


def face_for_card(card) -> CardFace:
    return CardFace(data=card.to_data(), color=card.faction.color, faction_name=card.faction.name,
                    set_name=card.card_set.name, illustration=load_illustration(card))


def load_illustration(card) -> Image.Image | None:
    """The stored illustration (already validated on upload, cards/uploads.py), or None if absent/unreadable."""
    if not card.illustration:
        return None
    from .uploads import open_image_safely

    try:
        with card.illustration.open("rb") as fh:
            return open_image_safely(fh.read())
    except Exception as exc:  # noqa: BLE001 - a missing or damaged file falls back to the placeholder
        log.warning("card %s: cannot read illustration %s (%s)", card.code, card.illustration.name, exc)
        return None


def cache_dir() -> Path:
    from django.conf import settings

    path = Path(settings.CARD_IMAGE_CACHE_DIR)
    path.mkdir(parents=True, exist_ok=True)
    return path


def cache_path(code: str, key: str, size: str) -> Path:
    # '_' never occurs in a code ([a-z0-9-]), so one code's files never match another code's glob.
    return cache_dir() / f"{code}_{key}_{size}.png"


@dataclass
class CachedImage:
    path: Path
    key: str
    size: str
    rendered: bool  # False when it came from the disk cache
    png: bytes | None = None  # the bytes, when just rendered (also when the cache could not be written)
    stored: bool = True  # False when the cache directory could not be written

    @property
    def etag(self) -> str:
        return f'"{self.key}-{self.size}"'

    def read(self) -> bytes:
        return self.png if self.png is not None else self.path.read_bytes()


def card_png(card, size: str = "normal", *, key: str | None = None) -> CachedImage:
    """The card's PNG, from the disk cache or rendered (and then cached) when the cache has none for the card's
    current key. An unwritable cache directory is logged and the image is still returned."""
    if size not in SIZES:
        raise ValueError(f"unknown image size {size!r}; sizes are {', '.join(SIZES)}")
    key = key or card_cache_key(card)
    try:
        path = cache_path(card.code, key, size)
    except OSError as exc:
        log.warning("card image cache %s unusable (%s); rendering without it", _cache_setting(), exc)
        path = None
    if path is not None and path.exists():
        return CachedImage(path, key, size, rendered=False)
    png = card_to_png_bytes(render_card(face_for_card(card), size))
    if path is None:
        return CachedImage(Path(), key, size, rendered=True, png=png, stored=False)
    try:
        _write_atomically(path, png, prefix=f".{card.code}_")
    except OSError as exc:
        log.warning("cannot write card image %s (%s); serving it uncached", path, exc)
        return CachedImage(path, key, size, rendered=True, png=png, stored=False)
    for stale in path.parent.glob(f"{card.code}_*_{size}.png"):
        if stale != path:  # an edited card's old render: keep the cache from growing with every edit
            stale.unlink(missing_ok=True)
    return CachedImage(path, key, size, rendered=True, png=png)


def _cache_setting():
    from django.conf import settings

    return settings.CARD_IMAGE_CACHE_DIR


def _write_atomically(path: Path, data: bytes, *, prefix: str) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=prefix, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)  # atomic: a concurrent reader sees the old file or the whole new one
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def contact_sheet(images: list[tuple[str, Path]], *, columns: int = 8, thumb: tuple[int, int] = (250, 350)):
    """A grid of card thumbnails with each card's code underneath (rendercards --sheet)."""
    tw, th = thumb
    label_h, gap = 22, 12
    rows = max(1, math.ceil(len(images) / columns))
    cols = min(columns, max(1, len(images)))
    sheet = Image.new("RGB", (gap + cols * (tw + gap), gap + rows * (th + label_h + gap)), (236, 232, 224))
    draw = ImageDraw.Draw(sheet)
    label_font = font("bold", 14)
    for i, (code, path) in enumerate(images):
        x = gap + (i % columns) * (tw + gap)
        y = gap + (i // columns) * (th + label_h + gap)
        with Image.open(path) as im:
            sheet.paste(im.convert("RGB").resize((tw, th), Image.Resampling.LANCZOS), (x, y))
        draw.text((x + tw / 2, y + th + 4), code, font=label_font, fill=INK, anchor="ma")
    return sheet


def prune_cache(cards) -> int:
    """Delete cached card images that no card shows any more (deleted cards, old keys, abandoned temp files).
    `cards` must be every card in the catalogue. Returns the number of files removed."""
    import time

    current = {card.code: card_cache_key(card) for card in cards}
    removed = 0
    folder = cache_dir()
    for path in folder.glob("*.png"):
        code, _, rest = path.stem.partition("_")
        key = rest.rsplit("_", 1)[0] if "_" in rest else None
        if current.get(code) != key:
            path.unlink(missing_ok=True)
            removed += 1
    for tmp in folder.glob(".*.tmp"):
        if tmp.stat().st_mtime < time.time() - 3600:  # a render that died half-way
            tmp.unlink(missing_ok=True)
            removed += 1
    return removed
