"""A Reign of Kings (rulebook 000): the game's fixed facts, written out once.

Pure Python with no Django import and no import of the apps, typed for mypyc, so that the rules engine
(simulator/engines/r1/), the setup solver, the hands report (simulator/hands.py), deck statistics (decks/), the card
loader (cards/cardfile.py), search (cards/search.py) and the card images (cards/images.py) all read the same
names, orders and numbers.

Struggle icons are a bitmask in the order of §6.1:

>>> icon_mask(["faith", "combat"]), icon_names(0b1001)
(9, ['combat', 'faith'])

Keywords (§9) are split into their canonical name and the parameter as printed; Appendix B's old spellings
are rewritten, and anything that is not a §9 keyword is None:

>>> split_keyword("ravage (2)"), split_keyword("Bond"), split_keyword("Flying")
(('Ravage', '2'), ('Bound', None), None)
>>> keyword_x("2"), keyword_x("X"), keyword_x(None)     # the X of Haste (X): 0 when not a number (§8.7)
(2, 0, 0)
>>> keyword_bit("Ravage") == 1 << KEYWORDS.index("Ravage")
True
"""
from __future__ import annotations

import re
from typing import Final, Iterable

GAME: Final = "r1"

# ---- cards (§2) ------------------------------------------------------------------------------------------------
# §2.2: every card type; the four of the draw deck (§2.1); the order of the deck editor's sections.
CARD_TYPES: Final[tuple[str, ...]] = ("unit", "location", "attachment", "deed", "quest", "destiny", "faction")
DRAW_TYPES: Final[tuple[str, ...]] = ("unit", "location", "attachment", "deed")
SECTION_TYPES: Final[tuple[str, ...]] = ("faction", "destiny", "quest", "unit", "location", "attachment", "deed")

FACTIONS: Final[tuple[str, ...]] = ("camelot", "eleven", "lefay", "keepers", "summer", "winter", "saracen",
                                    "neutral")
FACTION_NAMES: Final[dict[str, str]] = {
    "camelot": "Camelot",
    "eleven": "The Eleven",
    "lefay": "Le Fay's Circle",
    "keepers": "Keepers of the Old Way",
    "summer": "The Summer Court",
    "winter": "The Winter Court",
    "saracen": "Saracen Envoy",
    "neutral": "Neutral",
}
MIN_DRAW_CARDS: Final = 60        # §2.1, §11: the least a draw deck holds
QUEST_DECK_SIZE: Final = 7        # §2.1, §11: the quest deck
MAX_COPIES: Final = 3             # §11: copies of one name (§2.3) in a deck
QUEST_STATS: Final[tuple[str, ...]] = ("wealth", "momentum", "spoils", "levy")   # §2.4

# §2.3, §6.1: the struggle types, which are also a unit's icons; bit i of an icon mask is ICONS[i].
ICONS: Final[tuple[str, ...]] = ("combat", "guile", "sorcery", "faith")
ICON_BITS: Final[dict[str, int]] = {"combat": 1, "guile": 2, "sorcery": 4, "faith": 8}
ICON_GLYPHS: Final[dict[str, str]] = {"combat": "⚔", "guile": "🕷", "sorcery": "⭕", "faith": "✦"}   # §2.3


def icon_mask(icons: Iterable[object]) -> int:
    """The bitmask of a card's icons (names in any case; unknown names are ignored)."""
    mask = 0
    for icon in icons:
        mask |= ICON_BITS.get(str(icon).lower(), 0)
    return mask


def icon_names(mask: int) -> list[str]:
    """The icons of a bitmask, in §6.1 order."""
    return [name for i, name in enumerate(ICONS) if mask >> i & 1]


# ---- keywords (§9) -------------------------------------------------------------------------------------------------
# In this order bit i of the engine's keyword mask is KEYWORDS[i] (keyword_bit).
PLAIN_KEYWORDS: Final[tuple[str, ...]] = (
    "Subtle", "Glory", "Mastery", "Cunning", "Compel", "Prowess", "Wary", "Ruthless",
    "Restricted", "No Attachments", "Lasting", "Bound",
)
PARAM_KEYWORDS: Final[tuple[str, ...]] = ("Haste", "Secret", "Scout", "Ravage")   # Haste (X) and the like
KEYWORDS: Final[tuple[str, ...]] = PLAIN_KEYWORDS + PARAM_KEYWORDS
# §9.2: the keywords that act when their unit's side wins a struggle, in the order they are offered (S.12).
ON_WIN_KEYWORDS: Final[tuple[str, ...]] = ("Glory", "Mastery", "Cunning", "Compel", "Ravage", "Prowess", "Wary",
                                           "Ruthless")
OLD_KEYWORDS: Final[dict[str, str]] = {"bond": "Bound"}   # Appendix B
KEYWORD_BY_LOWER: Final[dict[str, str]] = {k.lower(): k for k in KEYWORDS}

_KEYWORD_RE: Final = re.compile(r"^\s*(?P<name>[A-Za-z][A-Za-z ]*?)\s*(?:\(\s*(?P<param>[^()]*?)\s*\))?\s*$")


def canonical_keyword(name: str) -> str | None:
    """'no  attachments' -> 'No Attachments', 'bond' -> 'Bound' (Appendix B); None if not a §9 keyword."""
    low = " ".join(name.split()).lower()
    found = KEYWORD_BY_LOWER.get(low)
    return found if found is not None else OLD_KEYWORDS.get(low)


def split_keyword(text: str) -> tuple[str, str | None] | None:
    """'Haste (2)' -> ('Haste', '2'); 'Subtle' -> ('Subtle', None); None if the text is not a §9 keyword.

    The parameter is the text between the parentheses, stripped ('' for 'Subtle ()'); whether it suits the
    keyword is for the caller (the loader refuses it, the engine reads it with `keyword_x`)."""
    m = _KEYWORD_RE.match(text)
    if m is None:
        return None
    name = canonical_keyword(m.group("name"))
    if name is None:
        return None
    return name, m.group("param")


def keyword_x(param: str | None) -> int:
    """The X of a parameterised keyword: its number, 0 when it is X or missing (§8.7: no value to choose)."""
    if param is None:
        return 0
    p = param.strip()
    return int(p) if p.isdigit() else 0


def keyword_bit(name: str) -> int:
    """The engine's bit for a canonical keyword name, 0 for anything else."""
    return 1 << KEYWORDS.index(name) if name in KEYWORDS else 0


def format_keyword(name: str, param: str | None) -> str:
    return f"{name} ({param})" if param is not None else name


# ---- the game (§4, §5) -----------------------------------------------------------------------------------------
PHASES: Final[tuple[str, ...]] = ("quest", "draw", "kingdom", "confrontation", "authority", "refresh", "toll")   # §5
HAND_SIZE: Final = 7             # §4: the opening hand, and the hand refilled after setup
SETUP_BUDGET: Final = 8          # §4: the wealth a player's setup may place
SETUP_RESTRICTED: Final = 1      # §4, §9.3: Restricted cards that may enter the field at setup
SETUP_TYPES: Final[tuple[str, ...]] = ("unit", "location", "attachment")   # §4: what setup may place (no deeds)
SECRET_PLACE_COST: Final = 2     # §10.9: hiding a Secret card in the secret area (at setup: against the budget)
DRAWS_PER_ROUND: Final = 2       # §5.2: cards drawn in the draw phase
WIN_INFLUENCE: Final = 15        # §1.1, §12: the influence that wins the game
