"""Card data files (CONTRACTS §1): parsing, validation and normalisation, with no database access.

`parse_card_file(text)` turns the text of one card file into a `CardFile` with every card normalised to
current terms (rulebook Appendix B) and a list of `CardError`s naming each bad card's code and field.
The loader stores nothing unless the error list is empty.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from cards.games.r1.facts import (  # noqa: F401 - the names the loader's users import from here
    CARD_TYPES, DRAW_TYPES, FACTION_NAMES, FACTIONS, ICONS, OLD_KEYWORDS, PARAM_KEYWORDS, PLAIN_KEYWORDS, QUEST_STATS,
    format_keyword, split_keyword,
)

CODE_RE = re.compile(r"^[a-z0-9-]{1,32}$")
DECKBUILDING_KEYS = ("min_draw_cards", "max_copies", "bound_factions", "forbidden_types", "max_cost")
OPTIONAL_KEYS = ("flavor", "illustrator", "number", "quantity")
KNOWN_KEYS = (
    "code", "name", "subtitle", "type", "faction", "cost", "power", "icons", "attributes", "unique", "loyalty",
    "keywords", "text", *QUEST_STATS, "deckbuilding", "abilities", *OPTIONAL_KEYS,
)

# Appendix B: older field names, keyword spellings and words in rules text.
OLD_KEYS = {"gold": "wealth", "initiative": "momentum", "claim": "spoils", "reserve": "levy",
            "strength": "power", "str": "power"}
_OLD_WORDS = {
    "Gold": "Wealth", "Initiative": "Momentum", "Claim": "Spoils", "Reserve": "Levy", "Bond": "Bound",
    "STR": "Power", "Strength": "Power", "Kneel": "Exhaust", "Kneels": "Exhausts", "Knelt": "Exhausted",
    "Stand": "Ready", "Stands": "Readies", "Standing": "Ready",
}
_OLD_WORD_RE = re.compile(r"\b(" + "|".join(sorted(_OLD_WORDS, key=len, reverse=True)) + r")\b", re.IGNORECASE)


def _rewrite_old_word(match: re.Match) -> str:
    word = match.group(0)
    for old, new in _OLD_WORDS.items():
        if old.lower() == word.lower():
            if word.isupper() and len(word) > 1 and old != "STR":
                return new.upper()
            if word[0].islower():
                return new.lower()
            return new
    return word  # pragma: no cover - the regex only matches known words


def modernise_text(text: str) -> str:
    """Rewrite Appendix B's old terms in rules text as whole words: 'Kneel a Knight' -> 'Exhaust a Knight'."""
    return _OLD_WORD_RE.sub(_rewrite_old_word, text)


@dataclass(frozen=True)
class CardError:
    code: str
    field: str
    message: str

    def __str__(self) -> str:
        return f"card {self.code!r}, field {self.field!r}: {self.message}"


@dataclass
class CardFile:
    set_code: str
    set_name: str
    cards: list[dict]
    errors: list[CardError] = field(default_factory=list)
    rewritten: list[str] = field(default_factory=list)  # codes of cards whose old terms were rewritten


class CardFileError(ValueError):
    """The file as a whole cannot be read (not JSON, wrong shape)."""


def parse_keyword(raw: str) -> tuple[str, str | None]:
    """Split 'Haste (2)' into ('Haste', '2'); raise ValueError for anything not in §9."""
    split = split_keyword(raw)
    if split is None:
        raise ValueError(f"unknown keyword {raw!r}; keywords are those of §9: "
                         + ", ".join((*PLAIN_KEYWORDS, *(k + " (X)" for k in PARAM_KEYWORDS))))
    canonical, param = split
    if canonical in PARAM_KEYWORDS:
        if param is None or not param.isdigit():
            raise ValueError(f"keyword {canonical} needs a number in parentheses, e.g. '{canonical} (2)'")
        return canonical, str(int(param))
    if canonical == "No Attachments" and param:
        # Attribute variants (§9.3): 'No Attachments (Weapon)' rejects attachments with that attribute.
        return canonical, param
    if param is not None:
        raise ValueError(f"keyword {canonical} takes no parameter")
    return canonical, None


def _int_or_none(value, *, minimum=0, maximum=None):
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"must be a whole number, not {value!r}")
    if value < minimum or (maximum is not None and value > maximum):
        bound = f"between {minimum} and {maximum}" if maximum is not None else f"at least {minimum}"
        raise ValueError(f"must be {bound}, not {value}")
    return value


def normalise_cost(value):
    """A cost is an integer >= 0, 'X', '-' (also '–'), or null (§2.5)."""
    if value is None:
        return None
    if isinstance(value, str):
        v = value.strip()
        if v.upper() == "X":
            return "X"
        if v in ("-", "–", "—"):
            return "-"
        if v.isdigit():
            return int(v)
        raise ValueError(f"must be a whole number, 'X' or '-', not {value!r}")
    return _int_or_none(value)


def normalise_power(value):
    if value is None:
        return None
    if isinstance(value, str):
        v = value.strip()
        if v.upper() == "X":
            return "X"
        if v.isdigit():
            return int(v)
        raise ValueError(f"must be a whole number or 'X', not {value!r}")
    return _int_or_none(value)


def _string_list(value, what):
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise ValueError(f"must be a list of {what}")
    return [v.strip() for v in value]


def normalise_card(raw: dict) -> tuple[dict, list[CardError], bool]:
    """Validate one card dict. Returns (card in current terms with every field present, errors, rewritten?)."""
    errors: list[CardError] = []
    rewritten = False
    if not isinstance(raw, dict):
        return {}, [CardError("?", "card", "each card must be a JSON object")], False
    code = raw.get("code")
    label = code if isinstance(code, str) and code else "?"

    def err(fld, msg):
        errors.append(CardError(label, fld, msg))

    data = {}
    for key, value in raw.items():
        new_key = OLD_KEYS.get(key.lower(), key) if isinstance(key, str) else key
        if new_key != key:
            rewritten = True
            if new_key in raw:
                err(key, f"both {key!r} (old term) and {new_key!r} are given")
                continue
        data[new_key] = value
    for key in data:
        if key not in KNOWN_KEYS:
            err(key, f"unknown field {key!r}")

    card: dict = {}
    if not isinstance(code, str) or not CODE_RE.match(code):
        err("code", "required; 1-32 characters of a-z, 0-9 and '-'")
    card["code"] = code if isinstance(code, str) else ""
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        err("name", "required; a non-empty string")
    elif len(name) > 100:
        err("name", "at most 100 characters")
    card["name"] = name.strip() if isinstance(name, str) else ""
    subtitle = data.get("subtitle")
    if subtitle is not None and (not isinstance(subtitle, str) or len(subtitle) > 100):
        err("subtitle", "must be a string of at most 100 characters, or null")
    card["subtitle"] = subtitle.strip() or None if isinstance(subtitle, str) else None
    ctype = data.get("type")
    if ctype not in CARD_TYPES:
        err("type", f"required; one of {', '.join(CARD_TYPES)}, not {ctype!r}")
    card["type"] = ctype
    faction = data.get("faction")
    if faction not in FACTIONS:
        err("faction", f"required; one of {', '.join(FACTIONS)}, not {faction!r}")
    card["faction"] = faction

    try:
        card["cost"] = normalise_cost(data.get("cost"))
    except ValueError as e:
        err("cost", str(e))
        card["cost"] = None
    try:
        card["power"] = normalise_power(data.get("power"))
    except ValueError as e:
        err("power", str(e))
        card["power"] = None
    if card["power"] is not None and ctype != "unit":
        err("power", "only units have Power (§2.3)")

    try:
        icons = _string_list(data.get("icons"), "icons")
        bad = [i for i in icons if i not in ICONS]
        if bad:
            raise ValueError(f"unknown icon(s) {', '.join(bad)}; icons are {', '.join(ICONS)}")
        if len(set(icons)) != len(icons):
            raise ValueError("an icon is listed twice")
        if icons and ctype != "unit":
            raise ValueError("only units have struggle icons (§2.3)")
        card["icons"] = [i for i in ICONS if i in icons]
    except ValueError as e:
        err("icons", str(e))
        card["icons"] = []
    try:
        card["attributes"] = _string_list(data.get("attributes"), "attribute words")
    except ValueError as e:
        err("attributes", str(e))
        card["attributes"] = []

    unique = data.get("unique", False)
    if unique is None:
        unique = False
    if not isinstance(unique, bool):
        err("unique", "must be true or false")
        unique = False
    card["unique"] = unique
    try:
        card["loyalty"] = _int_or_none(data.get("loyalty"), minimum=1, maximum=3)
    except ValueError as e:
        err("loyalty", str(e))
        card["loyalty"] = None

    keywords = []
    try:
        for raw_kw in _string_list(data.get("keywords"), "keywords"):
            name_kw, param = parse_keyword(raw_kw)
            if name_kw.lower() != raw_kw.split("(")[0].strip().lower():
                rewritten = True
            kw = format_keyword(name_kw, param)
            if kw not in keywords:
                keywords.append(kw)
    except ValueError as e:
        err("keywords", str(e))
    card["keywords"] = keywords

    text = data.get("text") or ""
    if not isinstance(text, str):
        err("text", "must be a string")
        text = ""
    new_text = modernise_text(text)
    if new_text != text:
        rewritten = True
    card["text"] = new_text

    for stat in QUEST_STATS:
        try:
            card[stat] = _int_or_none(data.get(stat), minimum=0, maximum=20)
        except ValueError as e:
            err(stat, str(e))
            card[stat] = None
        if card[stat] is not None and ctype != "quest":
            err(stat, "only quests have wealth, momentum, spoils and levy (§2.4)")

    deckbuilding = data.get("deckbuilding")
    if deckbuilding is not None:
        if ctype != "destiny":
            err("deckbuilding", "only destinies carry deckbuilding rules (§10.6)")
        elif not isinstance(deckbuilding, dict):
            err("deckbuilding", "must be an object")
            deckbuilding = None
        else:
            deckbuilding = _validate_deckbuilding(deckbuilding, err)
    card["deckbuilding"] = deckbuilding or None

    abilities = data.get("abilities")
    if abilities is not None and not isinstance(abilities, list):
        err("abilities", "must be a list of ability objects, or null")
        abilities = None
    if abilities and not all(isinstance(a, dict) for a in abilities):
        err("abilities", "each ability must be an object")
    card["abilities"] = abilities

    for key in ("flavor", "illustrator"):
        value = data.get(key)
        if value is not None and not isinstance(value, str):
            err(key, "must be a string")
            value = None
        card[key] = value or None
    for key in ("number", "quantity"):
        value = data.get(key)
        if isinstance(value, str) and value.isdigit():
            value = int(value)
        try:
            card[key] = _int_or_none(value, minimum=0, maximum=100000)
        except ValueError as e:
            err(key, str(e))
            card[key] = None
    return card, errors, rewritten


def _validate_deckbuilding(rules: dict, err) -> dict:
    out = {}
    for key, value in rules.items():
        if key not in DECKBUILDING_KEYS:
            err("deckbuilding", f"unknown rule {key!r}; rules are {', '.join(DECKBUILDING_KEYS)}")
            continue
        if key in ("min_draw_cards", "max_copies", "max_cost"):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                err("deckbuilding", f"{key} must be a whole number >= 0")
                continue
        elif key == "bound_factions":
            if not isinstance(value, list) or any(v not in FACTIONS for v in value):
                err("deckbuilding", f"bound_factions must be a list of faction slugs ({', '.join(FACTIONS)})")
                continue
        elif key == "forbidden_types":
            if not isinstance(value, list) or any(v not in DRAW_TYPES for v in value):
                err("deckbuilding", f"forbidden_types must be a list of draw-card types ({', '.join(DRAW_TYPES)})")
                continue
        out[key] = value
    return out


def parse_card_documents(text: str, *, source: str = "file") -> list[CardFile]:
    """Parse a file holding one set object, or a list of them (what `exportcards` writes for several sets)."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        raise CardFileError(f"{source}: not valid JSON (line {e.lineno}, column {e.colno}: {e.msg})") from e
    docs = doc if isinstance(doc, list) else [doc]
    return [_parse_set_object(d, source) for d in docs]


def parse_card_file(text: str, *, source: str = "file") -> CardFile:
    """Parse and validate a card file holding one set. Raises CardFileError when the file itself is unreadable."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        raise CardFileError(f"{source}: not valid JSON (line {e.lineno}, column {e.colno}: {e.msg})") from e
    return _parse_set_object(doc, source)


def _parse_set_object(doc, source: str) -> CardFile:
    if not isinstance(doc, dict) or not isinstance(doc.get("cards"), list):
        raise CardFileError(f'{source}: expected an object {{"set": {{...}}, "cards": [...]}}')
    card_set = doc.get("set")
    if (not isinstance(card_set, dict) or not isinstance(card_set.get("code"), str)
            or not CODE_RE.match(card_set.get("code", "")) or not isinstance(card_set.get("name"), str)):
        raise CardFileError(f'{source}: "set" must be an object with a "code" ([a-z0-9-]) and a "name"')
    result = CardFile(set_code=card_set["code"], set_name=card_set["name"].strip(), cards=[])
    seen: set[str] = set()
    for raw in doc["cards"]:
        card, errors, rewritten = normalise_card(raw)
        if card.get("code") and card["code"] in seen:
            errors.append(CardError(card["code"], "code", "duplicate code in this file"))
        seen.add(card.get("code", ""))
        result.errors.extend(errors)
        result.cards.append(card)
        if rewritten and not errors:
            result.rewritten.append(card["code"])
    return result


def card_to_json(card: dict) -> dict:
    """The export form of a normalised card: every field of CONTRACTS §1, in its order."""
    return {key: card.get(key) if key not in ("icons", "attributes", "keywords") else list(card.get(key) or [])
            for key in KNOWN_KEYS}
