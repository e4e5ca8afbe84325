"""Realms card data (CONTRACTS §1 file shape, §7 fields): parsing, validation and normalisation, no database.

`normalise_card(raw)` checks one card dict field by field and returns it with every field present in its
canonical form, plus a list of `CardError`s (card code, field, message) — the same error type and the same
style as r1's loader (`cards/cardfile.py`). `parse_card_file(text)` reads a whole file whose set names
`"game": "realms"`; a loader stores nothing unless its error list is empty. Every field is documented in
docs/games/realms.md, "Card fields".

    >>> card, errors = normalise_card({"code": "x-1", "name": "Farmstead", "type": "place", "cv": 3,
    ...                                "tactics": ["front"], "neighbor_count": 3, "provides": {"food": 2}})
    >>> errors, card["affiliation"], card["provides"]
    ([], None, {'gold': 0, 'food': 2, 'timber': 0, 'iron': 0})
"""
from __future__ import annotations

import colorsys
import json
import re
import zlib

from cards.cardfile import CODE_RE, CardError, CardFile, CardFileError

from .abilities import (
    CARD_TYPES, INTRIGUE_KEYWORDS, KEYWORDS, RESOURCES, TACTICS, WARRIOR_TYPES, check_abilities,
)

GAME = "realms"

# 002 §5: the affiliations of this site's card set (the rules name none; docs/games/realms.md, "Affiliations").
# A card set may bring others: any slug is an affiliation (CONTRACTS §7); these four have their own names, colours
# and emblems, a new one gets a name and a colour derived from its slug.
AFFILIATION_RE = re.compile(r"^[a-z0-9]+(?:[-_][a-z0-9]+)*$")
AFFILIATION_MAX = 32   # the decks tables keep it (a deck's identity group)
AFFILIATIONS = {
    "sunward": "The Sunward Throne",
    "deepwood": "The Deepwood Kin",
    "ashen": "The Ashen Covenant",
    "tideholm": "The Tideholm League",
}
GENERAL_NAME = "General"
AFFILIATION_COLORS = {
    "sunward": "#b3362b", "deepwood": "#3e7a37", "ashen": "#5e3b7e", "tideholm": "#1f6a8a", None: "#7a6d5c",
}
TACTIC_NAMES = {"left": "Left Flank", "front": "Front", "right": "Right Flank"}  # 002 §6 (reading)
RESOURCE_NAMES = {"gold": "Gold", "food": "Food", "timber": "Timber", "iron": "Iron"}  # 002 §4 (reading)
TYPE_NAMES = {"leader": "Leader", "place": "Place", "warrior": "Warrior", "intrigue": "Intrigue"}
EQUIPMENT_SLOTS = ("Weapon", "Armor")  # 002 §7.4
UNLOCKABLE = ("CAVALRY", "VEHICLE")  # 002 §7.2, §17: the warrior types a Place must unlock (reading)
LEADER_NEIGHBOR_COUNT = 4  # 002 §7.1
MAX_CV = 30
MAX_COST = 20
MAX_ICONS = 5  # icons of one resource on one card

# Intrigues that never stay in the Realm, so never meet Resource Balancing (002 §7.4, §12).
ONE_SHOT_INTRIGUES = (None, "ART SPELL")

KNOWN_KEYS = (
    "code", "name", "subtitle", "type", "affiliation", "unique", "unlimited", "cost", "cv", "tactics",
    "provides", "consumes", "neighbor_count", "warrior_type", "keywords", "unlocks", "text", "abilities",
    "flavor", "illustrator", "number", "quantity",
)
_KEYWORD_CANON = {k.casefold(): k for k in KEYWORDS}
_ACTION_WORD = re.compile(r"^\s*([A-Za-z]+)")


def empty_resources() -> dict[str, int]:
    return {r: 0 for r in RESOURCES}


def affiliation_name(slug: str | None) -> str:
    """The affiliation's name: the set's own for the four, else the slug's words capitalised
    ("sea-folk" -> "Sea Folk"); General for None."""
    if slug is None:
        return GENERAL_NAME
    known = AFFILIATIONS.get(slug)
    if known is not None:
        return known
    return " ".join(w.capitalize() for w in re.split(r"[-_]+", slug) if w) or slug


def affiliation_color(slug: str | None) -> str:
    """The affiliation's colour (#rrggbb): the set's own for the four and General, else one derived from the slug
    (a stable hue, dark enough for white text), so a new affiliation is told apart without a table entry."""
    known = AFFILIATION_COLORS.get(slug)
    if known is not None:
        return known
    h = zlib.crc32(slug.encode("utf-8")) if slug else 0
    r, g, b = colorsys.hls_to_rgb((h % 360) / 360, 0.36, 0.5)
    return f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}"


def intrigue_keyword(card: dict) -> str | None:
    """The card's intrigue keyword (EQUIPMENT, RITUAL, PROPHECY, DARK HARMONY, ART SPELL), or None."""
    for k in card.get("keywords") or ():
        if k in INTRIGUE_KEYWORDS:
            return k
    return None


def equipment_slot(card: dict) -> str | None:
    for k in card.get("keywords") or ():
        if k in EQUIPMENT_SLOTS:
            return k
    return None


def has_keyword(card: dict, keyword: str) -> bool:
    return keyword in (card.get("keywords") or ())


def action_line_type(text: str) -> str | None:
    """002 §7.3: the warrior type is the first word of the action line (the first line of its text)."""
    first = (text or "").strip().splitlines()[0] if (text or "").strip() else ""
    m = _ACTION_WORD.match(first)
    word = m.group(1).upper() if m else ""
    return word if word in WARRIOR_TYPES else None


def _int_field(value, *, minimum: int, maximum: int):
    if value is None:
        return None
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"must be a whole number, not {value!r}")
    if value < minimum or value > maximum:
        raise ValueError(f"must be between {minimum} and {maximum}, not {value}")
    return value


def _resources(value) -> dict[str, int]:
    """Icons of the four resources (002 §4) as {"gold": n, ...}; a list of names counts each name once."""
    out = empty_resources()
    if value is None:
        return out
    if isinstance(value, list):
        for name in value:
            key = name.strip().lower() if isinstance(name, str) else name
            if key not in RESOURCES:
                raise ValueError(f"unknown resource {name!r}; resources are {', '.join(RESOURCES)}")
            out[key] += 1
    elif isinstance(value, dict):
        for name, n in value.items():
            key = name.strip().lower() if isinstance(name, str) else name
            if key not in RESOURCES:
                raise ValueError(f"unknown resource {name!r}; resources are {', '.join(RESOURCES)}")
            if isinstance(n, bool) or not isinstance(n, int) or n < 0:
                raise ValueError(f"{key}: the number of icons must be a whole number of at least 0, not {n!r}")
            out[key] += n
    else:
        raise ValueError(f'must be an object like {{"gold": 1, "food": 2}} or a list of resource names, '
                         f"not {value!r}")
    for key, n in out.items():
        if n > MAX_ICONS:
            raise ValueError(f"{key}: at most {MAX_ICONS} icons of one resource, not {n}")
    return out


def _string_list(value, what: str) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise ValueError(f"must be a list of {what}")
    return [" ".join(v.split()) for v in value]


def normalise_card(raw: dict) -> tuple[dict, list[CardError]]:
    """Validate one realms card dict. Returns (the card with every field present, canonical; errors)."""
    if not isinstance(raw, dict):
        return {}, [CardError("?", "card", "each card must be a JSON object")]
    errors: list[CardError] = []
    code = raw.get("code")
    label = code if isinstance(code, str) and code else "?"

    def err(fld: str, msg: str) -> None:
        errors.append(CardError(label, fld, msg))

    for key in raw:
        if key not in KNOWN_KEYS:
            err(str(key), f"unknown field {key!r}")

    card: dict = {}
    # ---- identity ----------------------------------------------------------------------------------------
    if not isinstance(code, str) or not CODE_RE.match(code):
        err("code", "required; 1-32 characters of a-z, 0-9 and '-'")
    card["code"] = code if isinstance(code, str) else ""
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip():
        err("name", "required; a non-empty string")
    elif len(name) > 100:
        err("name", "at most 100 characters")
    card["name"] = " ".join(name.split()) if isinstance(name, str) else ""
    subtitle = raw.get("subtitle")
    if subtitle is not None and (not isinstance(subtitle, str) or len(subtitle) > 100):
        err("subtitle", "must be a string of at most 100 characters, or null")
    card["subtitle"] = (" ".join(subtitle.split()) or None) if isinstance(subtitle, str) else None
    ctype = raw.get("type")
    if isinstance(ctype, str):
        ctype = ctype.strip().lower()
    if ctype not in CARD_TYPES:
        err("type", f"required; one of {', '.join(CARD_TYPES)}, not {raw.get('type')!r}")
        ctype = None
    card["type"] = ctype
    is_body = ctype in ("leader", "place", "warrior")  # the cards with CV and Tactics (002 §6, §7)

    # ---- 002 §5: affiliation; null (or "general") is a General card, with no faction icon -------------------
    affiliation = raw.get("affiliation")
    if isinstance(affiliation, str) and affiliation.strip().lower() in ("general", ""):
        affiliation = None
    if affiliation is not None and not (isinstance(affiliation, str) and len(affiliation) <= AFFILIATION_MAX
                                        and AFFILIATION_RE.match(affiliation)):
        err("affiliation", f"a slug (lowercase letters and digits, words joined by - or _, at most {AFFILIATION_MAX} "
                           f"characters, e.g. {', '.join(AFFILIATIONS)}), or null for a General card; not "
                           f"{affiliation!r}")
        affiliation = None
    if ctype == "leader" and affiliation is None and "affiliation" not in [e.field for e in errors]:
        err("affiliation", "a Leader always has an affiliation (002 §7.1); General cards are never Leaders")
    card["affiliation"] = affiliation

    for flag in ("unique", "unlimited"):
        value = raw.get(flag, False)
        if value is None:
            value = False
        if not isinstance(value, bool):
            err(flag, "must be true or false")
            value = False
        card[flag] = value

    # ---- 002 §4, §8: the Starting Cost, in Gold Units ------------------------------------------------------
    try:
        card["cost"] = _int_field(raw.get("cost"), minimum=0, maximum=MAX_COST)
    except ValueError as e:
        err("cost", f"the Starting Cost {e}")
        card["cost"] = None
    if ctype == "leader" and card["cost"] is not None:
        err("cost", "a Leader is revealed, never played, so it has no Starting Cost (002 §7.1, §8)")

    # ---- 002 §1, §6, §7: Combat Value and Tactic icons ------------------------------------------------------
    try:
        card["cv"] = _int_field(raw.get("cv"), minimum=0, maximum=MAX_CV)
    except ValueError as e:
        err("cv", f"the Combat Value {e}")
        card["cv"] = None
    if is_body and card["cv"] is None and "cv" not in [e.field for e in errors]:
        err("cv", f"required for a {ctype}: its Combat Value (002 §7)")
    if ctype == "intrigue" and card["cv"] is not None:
        err("cv", "Intrigues have no Combat Value (002 §7.4); use a modify_cv ability instead")
    try:
        tactics = [t.strip().lower() for t in _string_list(raw.get("tactics"), f"tactics ({', '.join(TACTICS)})")]
        bad = [t for t in tactics if t not in TACTICS]
        if bad:
            raise ValueError(f"unknown tactic(s) {', '.join(bad)}; the three directions are {', '.join(TACTICS)}")
        if len(set(tactics)) != len(tactics):
            raise ValueError("a tactic is listed twice")
        if is_body and not tactics:
            raise ValueError(f"a {ctype} has one, two or three Tactic icons (002 §6)")
        if ctype == "intrigue" and tactics:
            raise ValueError("Intrigues have no Tactic icons (002 §6: Warriors, Leaders and Places do)")
        card["tactics"] = [t for t in TACTICS if t in tactics]
    except ValueError as e:
        err("tactics", str(e))
        card["tactics"] = []

    # ---- 002 §4: blue (provides) and red (consumes) resource icons ------------------------------------------
    for fld in ("provides", "consumes"):
        try:
            card[fld] = _resources(raw.get(fld))
        except ValueError as e:
            err(fld, str(e))
            card[fld] = empty_resources()
    if ctype == "leader":
        if any(card["consumes"].values()):
            err("consumes", "a Leader's resource icons are always blue (002 §7.1): it consumes nothing")
        if not any(card["provides"].values()) and "provides" not in [e.field for e in errors]:
            err("provides", "a Leader always has blue resource icons (002 §7.1): give at least one")

    # ---- 002 §7.1, §10, §15: Neighbor Count --------------------------------------------------------------
    try:
        nc = _int_field(raw.get("neighbor_count"), minimum=1, maximum=4)
    except ValueError as e:
        err("neighbor_count", f"the Neighbor Count {e} (edges of a card, 002 §10)")
        nc = None
    if ctype == "leader":
        if nc is None:
            nc = LEADER_NEIGHBOR_COUNT
        elif nc != LEADER_NEIGHBOR_COUNT:
            err("neighbor_count", f"a Leader's Neighbor Count is {LEADER_NEIGHBOR_COUNT} (002 §7.1), not {nc}")
    elif ctype == "place":
        if nc is None and "neighbor_count" not in [e.field for e in errors]:
            err("neighbor_count", "required for a Place: 1 to 4, how many cards may touch its edges (002 §10)")
    elif nc is not None:
        err("neighbor_count", "only Leaders and Places are built into the Settlement and have a Neighbor Count")
    card["neighbor_count"] = nc

    # ---- text, and 002 §7.3: the warrior type is the first word of the action line --------------------------
    text = raw.get("text") or ""
    if not isinstance(text, str):
        err("text", "must be a string")
        text = ""
    card["text"] = text.replace("\r\n", "\n").strip()
    wtype = raw.get("warrior_type")
    if isinstance(wtype, str):
        wtype = wtype.strip().upper() or None
    printed = action_line_type(card["text"]) if ctype == "warrior" else None
    if ctype == "warrior":
        if wtype is None:
            wtype = printed
            if wtype is None:
                err("warrior_type", "required for a Warrior: one of " + ", ".join(WARRIOR_TYPES)
                    + ", or start its text with the action line (002 §7.3), e.g. 'INFANTRY.'")
        elif wtype not in WARRIOR_TYPES:
            err("warrior_type", f"one of {', '.join(WARRIOR_TYPES)}, not {raw.get('warrior_type')!r}")
            wtype = None
        elif printed is not None and printed != wtype:
            err("warrior_type", f"the action line starts with {printed} but warrior_type is {wtype}: the first "
                                "word of the action line is the warrior's type (002 §7.3)")
    elif wtype is not None:
        err("warrior_type", "only Warriors have a warrior type (002 §7.3)")
        wtype = None
    card["warrior_type"] = wtype

    # ---- keywords: intrigue kinds (002 §7.4), Weapon/Armor, Loner (§11), Worthy (§7.4, Dark Harmony) ----------
    keywords: list[str] = []
    try:
        for raw_kw in _string_list(raw.get("keywords"), "keywords"):
            canon = _KEYWORD_CANON.get(raw_kw.casefold())
            if canon is None:
                raise ValueError(f"unknown keyword {raw_kw!r}; keywords are {', '.join(KEYWORDS)}")
            if canon not in keywords:
                keywords.append(canon)
        kinds = [k for k in keywords if k in INTRIGUE_KEYWORDS]
        slots = [k for k in keywords if k in EQUIPMENT_SLOTS]
        if kinds and ctype != "intrigue":
            raise ValueError(f"{kinds[0]} is an Intrigue keyword (002 §7.4)")
        if len(kinds) > 1:
            raise ValueError(f"an Intrigue has at most one of {', '.join(INTRIGUE_KEYWORDS)}, not "
                             f"{' and '.join(kinds)}")
        if slots and kinds != ["EQUIPMENT"]:
            raise ValueError(f"{slots[0]} only goes with EQUIPMENT (002 §7.4)")
        if len(slots) > 1:
            raise ValueError("a piece of Equipment is a Weapon or an Armor, not both (002 §7.4)")
        if "Loner" in keywords and ctype != "warrior":
            raise ValueError("only Warriors are Loners (002 §11)")
        if "Worthy" in keywords and ctype == "intrigue":
            raise ValueError("Worthy (of the Dark Harmony) goes on Leaders, Places and Warriors (002 §7.4)")
    except ValueError as e:
        err("keywords", str(e))
        keywords = []
    order = {k: i for i, k in enumerate(KEYWORDS)}
    card["keywords"] = sorted(keywords, key=order.__getitem__)
    if ctype == "intrigue" and intrigue_keyword(card) in ONE_SHOT_INTRIGUES:
        kind = intrigue_keyword(card) or "An Intrigue without a keyword"
        for fld in ("provides", "consumes"):
            if any(card[fld].values()):
                err(fld, f"{kind} is discarded once it resolves and never meets Resource Balancing "
                         "(002 §7.4, §12): it has no resource icons")
    if intrigue_keyword(card) == "PROPHECY" and any(card["consumes"].values()):
        err("consumes", "a Prophecy stays attached to the Leader for the rest of the game (002 §7.4): it has "
                        "no red icons that could go unpaid")

    # ---- 002 §7.2: what a Place unlocks ---------------------------------------------------------------------
    try:
        unlocks = [u.upper() for u in _string_list(raw.get("unlocks"), "warrior types")]
        bad = [u for u in unlocks if u not in UNLOCKABLE]
        if bad:
            raise ValueError(f"a Place unlocks {' or '.join(UNLOCKABLE)} warriors, not {', '.join(bad)}")
        if unlocks and ctype != "place":
            raise ValueError("only Places unlock cards (002 §7.2)")
        card["unlocks"] = [u for u in UNLOCKABLE if u in unlocks]
    except ValueError as e:
        err("unlocks", str(e))
        card["unlocks"] = []

    # ---- abilities: the engine's script for the text (docs/games/realms.md, "The ability format") ------------
    abilities = raw.get("abilities")
    problems = check_abilities(abilities)
    for problem in problems[:10]:
        err("abilities", problem)
    if len(problems) > 10:
        err("abilities", f"{len(problems) - 10} more problems in the abilities")
    card["abilities"] = abilities if isinstance(abilities, list) and not problems else None

    for key in ("flavor", "illustrator"):
        value = raw.get(key)
        if value is not None and not isinstance(value, str):
            err(key, "must be a string")
            value = None
        card[key] = value or None
    for key in ("number", "quantity"):
        try:
            card[key] = _int_field(raw.get(key), minimum=0, maximum=100000)
        except ValueError as e:
            err(key, str(e))
            card[key] = None
    return card, errors


def parse_card_file(text: str, *, source: str = "file") -> CardFile:
    """Parse and validate a realms card file. Raises CardFileError when the file itself is unreadable."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        raise CardFileError(f"{source}: not valid JSON (line {e.lineno}, column {e.colno}: {e.msg})") from e
    return parse_set_object(doc, source=source)


def parse_set_object(doc, *, source: str = "file") -> CardFile:
    if not isinstance(doc, dict) or not isinstance(doc.get("cards"), list):
        raise CardFileError(f'{source}: expected an object {{"set": {{...}}, "cards": [...]}}')
    card_set = doc.get("set")
    if (not isinstance(card_set, dict) or not isinstance(card_set.get("code"), str)
            or not CODE_RE.match(card_set.get("code", "")) or not isinstance(card_set.get("name"), str)):
        raise CardFileError(f'{source}: "set" must be an object with a "code" ([a-z0-9-]) and a "name"')
    if card_set.get("game") != GAME:
        raise CardFileError(f'{source}: this is not a realms card file: its set says "game": '
                            f'{card_set.get("game")!r}, not "{GAME}" (CONTRACTS §7)')
    result = CardFile(set_code=card_set["code"], set_name=card_set["name"].strip(), cards=[])
    seen: set[str] = set()
    for raw in doc["cards"]:
        card, errors = normalise_card(raw)
        if card.get("code") and card["code"] in seen:
            errors.append(CardError(card["code"], "code", "duplicate code in this file"))
        seen.add(card.get("code", ""))
        result.errors.extend(errors)
        result.cards.append(card)
    return result


def card_to_json(card: dict) -> dict:
    """The export form of a normalised card: every field, in the order of KNOWN_KEYS."""
    out = {}
    for key in KNOWN_KEYS:
        value = card.get(key)
        if key in ("tactics", "keywords", "unlocks"):
            value = list(value or [])
        elif key in ("provides", "consumes"):
            value = dict(value or empty_resources())
        elif key in ("unique", "unlimited"):
            value = bool(value)
        out[key] = value
    return out


def set_to_json(set_code: str, set_name: str, cards: list[dict]) -> dict:
    """A whole realms card file (CONTRACTS §1 shape with the §7 game)."""
    return {"set": {"code": set_code, "name": set_name, "game": GAME}, "cards": [card_to_json(c) for c in cards]}


__all__ = [
    "AFFILIATIONS", "AFFILIATION_COLORS", "CardError", "CardFileError", "GAME", "KNOWN_KEYS", "RESOURCES",
    "RESOURCE_NAMES", "TACTICS", "TACTIC_NAMES", "WARRIOR_TYPES", "action_line_type", "affiliation_color", "affiliation_name",
    "card_to_json", "equipment_slot", "has_keyword", "intrigue_keyword", "normalise_card", "parse_card_file",
    "set_to_json",
]
