"""The card table: CONTRACTS §1 card dicts compiled once per deck into small immutable records of ints.

A `CardDef` holds what the rules read many times per game (cost, Power, icon bitmask, keyword bitmask and
parameters, Loyalty, compiled abilities), so the game itself only moves card *indices* between zone lists.
`build_deck()` turns the (card dict, count) pairs of a decklist into a `Deck`.
"""
from __future__ import annotations

from typing import Any

import hashlib
import json
import re

from cards.games.r1 import facts

from .abilities import Ability, compile_abilities

# §6.1 struggle types in a fixed order; a unit's icons are a bitmask over them (r1's facts).
STRUGGLE_TYPES = facts.ICONS
ICON_BITS = facts.ICON_BITS

# §9 keywords as bits, in the order of r1's facts. Parameterised keywords keep their X in CardDef fields.
KW_SUBTLE = facts.keyword_bit("Subtle")
KW_GLORY = facts.keyword_bit("Glory")
KW_MASTERY = facts.keyword_bit("Mastery")
KW_CUNNING = facts.keyword_bit("Cunning")
KW_COMPEL = facts.keyword_bit("Compel")
KW_PROWESS = facts.keyword_bit("Prowess")
KW_WARY = facts.keyword_bit("Wary")
KW_RUTHLESS = facts.keyword_bit("Ruthless")
KW_RESTRICTED = facts.keyword_bit("Restricted")
KW_NO_ATTACH = facts.keyword_bit("No Attachments")
KW_LASTING = facts.keyword_bit("Lasting")
KW_BOUND = facts.keyword_bit("Bound")
KW_HASTE = facts.keyword_bit("Haste")
KW_SECRET = facts.keyword_bit("Secret")
KW_SCOUT = facts.keyword_bit("Scout")
KW_RAVAGE = facts.keyword_bit("Ravage")

# lower-case name (and Appendix B's old spellings) -> bit
KEYWORD_BITS = {k.lower(): facts.keyword_bit(k) for k in facts.KEYWORDS}
KEYWORD_BITS.update({old: facts.keyword_bit(new) for old, new in facts.OLD_KEYWORDS.items()})
PARAM_KEYWORDS = {k.lower(): facts.keyword_bit(k) for k in facts.PARAM_KEYWORDS}
# On-win keywords of §9.2, in the order the engine offers them at S.12.
ON_WIN_KEYWORDS = tuple(facts.keyword_bit(k) for k in facts.ON_WIN_KEYWORDS)
KEYWORD_NAMES = {facts.keyword_bit(k): k for k in facts.KEYWORDS}

COST_X = -1     # §2.5 / §8.7: X
COST_DASH = -2  # §2.5: "–", cannot be played from hand

DRAW_TYPES = facts.DRAW_TYPES


class DeckError(ValueError):
    """No game can be played with this deck (no faction card, no quests, empty draw deck, bad card data)."""


def parse_keyword(text: str) -> tuple[int, int | None]:
    """'Haste (2)' -> (KW_HASTE, 2); 'Subtle' -> (KW_SUBTLE, None); unknown -> (0, None). Haste (X) and the like:
    X counts as 0 (§8.7 has no value to choose at entry)."""
    got = facts.split_keyword(str(text))
    if got is None:
        return 0, None
    name, param = got
    bit = facts.keyword_bit(name)
    if name in facts.PARAM_KEYWORDS:
        return bit, facts.keyword_x(param)
    return bit, None


def _int_or(value, default=0):
    if isinstance(value, bool):
        return default
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value)
    return default


CARD_FIELDS = (   # every attribute of a CardDef (its __slots__)
    "code", "name", "subtitle", "type", "faction", "cost", "power", "power_x", "icons", "attributes", "unique",
    "loyalty", "kw", "haste", "secret", "scout", "ravage", "text", "wealth", "momentum", "spoils", "levy",
    "abilities", "supported", "unsupported_reason", "statics", "actions", "triggers", "play_ability",
    "attach_ability", "enters", "embark", "is_token", "raw", "is_unit", "is_attachment", "is_deed",
    "is_location", "max_per_round", "field_events", "hand_event", "hand_action", "hooks", "enters_freely",
    "replacements", "uncancelable", "retypes",
)


class CardDef:
    """One distinct card, compiled. Immutable by convention; shared by every game that uses the deck."""

    __slots__ = CARD_FIELDS

    def __init__(self, card: Any, *, is_token: bool = False):   # Any: a non-dict is a DeckError, below
        if not isinstance(card, dict):
            raise DeckError(f"a card must be a JSON object, not {type(card).__name__}")
        for key in ("name", "type", "faction"):
            if not card.get(key):
                raise DeckError(f"card {card.get('code', '?')!r} has no {key}")
        self.raw = card
        self.code = str(card.get("code") or card["name"])
        self.name = str(card["name"])
        self.subtitle = card.get("subtitle")
        self.type = str(card["type"]).lower()
        self.faction = str(card["faction"]).lower()
        cost = card.get("cost")
        if cost in ("X", "x"):
            self.cost = COST_X
        elif cost in ("-", "–", "—"):
            self.cost = COST_DASH
        else:
            self.cost = max(0, _int_or(cost, 0))
        power = card.get("power")
        self.power_x = power in ("X", "x")
        self.power = max(0, _int_or(power, 0))
        icons = 0
        for icon in card.get("icons") or ():
            icons |= ICON_BITS.get(str(icon).lower(), 0)
        self.icons = icons
        self.attributes = frozenset(str(a) for a in (card.get("attributes") or ()))
        self.unique = bool(card.get("unique"))
        self.loyalty = _int_or(card.get("loyalty"), 0)
        self.text = card.get("text") or ""
        kw = 0
        self.haste = self.secret = self.scout = self.ravage = None
        unknown_kw = []
        for keyword in card.get("keywords") or ():
            bit, param = parse_keyword(keyword)
            if not bit:
                unknown_kw.append(str(keyword))
                continue
            kw |= bit
            if bit == KW_HASTE:
                self.haste = param
            elif bit == KW_SECRET:
                self.secret = param
            elif bit == KW_SCOUT:
                self.scout = param
            elif bit == KW_RAVAGE:
                self.ravage = param
        self.kw = kw
        self.wealth = _int_or(card.get("wealth"), 0)
        self.momentum = _int_or(card.get("momentum"), 0)
        self.spoils = _int_or(card.get("spoils"), 0)
        self.levy = _int_or(card.get("levy"), 0)
        self.is_token = is_token
        self.is_unit = self.type == "unit"
        self.is_attachment = self.type == "attachment"
        self.is_deed = self.type == "deed"
        self.is_location = self.type == "location"
        # Game.can_enter is always true for it: a non-unique unit or location without Restricted (§9.3, §10.3)
        self.enters_freely = self.type in ("unit", "location") and not self.unique and not (kw & KW_RESTRICTED)

        raw_abilities = card.get("abilities")
        abilities, problems = compile_abilities(raw_abilities, self)
        self.abilities: tuple[Ability, ...] = tuple(abilities)
        if unknown_kw:
            problems.append(f"unknown keyword(s) {', '.join(unknown_kw)}")
        if not raw_abilities and self.text.strip() and not _text_is_keywords_only(self.text, card):
            problems.append("no abilities for its text")
        self.supported = not problems
        self.unsupported_reason = "; ".join(problems)
        self.statics = tuple(a for a in self.abilities if a.timing == "static")
        self.actions = tuple(a for a in self.abilities if a.timing == "action")
        self.enters = tuple(a for a in self.abilities if a.timing == "enters")
        self.embark = tuple(a for a in self.abilities if a.timing == "embark")
        self.attach_ability = next((a for a in self.abilities if a.timing == "attach"), None)
        # §7.4 replacement ("instead") abilities, applied by Game._leave while this card is in play
        self.replacements = tuple(a for a in self.abilities if a.timing == "replace")
        # §8.11 "cannot be canceled": no Halt may answer this card being played
        self.retypes: dict | None = None   # as_type: (type, power, icons) -> the derived definition, built once each
        self.uncancelable = any(a.raw.get("cannot_be_canceled") or "cannot_be_canceled" in a.rule
                                for a in self.abilities)
        triggers: dict[str, list[Ability]] = {}
        for a in self.abilities:
            if a.timing in ("response", "forced", "halt", "disrupt") and a.event:
                triggers.setdefault(a.event, []).append(a)
        self.triggers = {k: tuple(v) for k, v in triggers.items()}
        # A deed's play timing is its first non-static ability (§10.4: the timing word sets the window).
        self.play_ability: Ability | None = None
        if self.is_deed:
            self.play_ability = next((a for a in self.abilities if a.timing in
                                      ("action", "response", "halt", "disrupt")), None)
        self.max_per_round = next((a.max for a in self.abilities if a.max), None)
        # What makes a card "listen" where it lies: triggers in play, a reaction or action deed in hand.
        # live keys: the event name for Response/Forced, "halt:EVENT" / "disrupt:EVENT" for the other windows
        self.field_events = tuple(sorted({_live_key(a) for a in self.abilities
                                          if a.timing in ("response", "forced", "halt", "disrupt") and a.event}))
        if self.is_deed:
            self.field_events = ()
        pa = self.play_ability
        self.hand_event = _live_key(pa) if pa is not None and pa.timing in ("response", "halt", "disrupt") else None
        self.hand_action = pa is not None and pa.timing == "action"
        self.hooks = bool(self.field_events or self.hand_event or self.hand_action or
                          (self.actions and not self.is_deed))

    def __repr__(self) -> str:
        return f"CardDef({self.name!r})"

    def as_type(self, new_type: str, power: int | None = None, icons=None) -> "CardDef":
        """§2.2: this card functioning wholly as `new_type` ('unit' or 'location') — it loses its other types (a
        location has no Power or icons; a unit has the Power and icons the effect gives, 0 and none by default);
        name, text, keywords and abilities stay. The printed definition is left as it is (the engine swaps the
        instance's definition for the effect's duration and swaps it back)."""
        key = (new_type, power, tuple(icons or ()))
        cache = self.retypes
        if cache is None:
            cache = self.retypes = {}
        got = cache.get(key)
        if got is not None:
            return got
        d = CardDef(self.raw, is_token=self.is_token)
        for slot in CARD_FIELDS:
            setattr(d, slot, getattr(self, slot))
        d.type = new_type
        d.is_unit = new_type == "unit"
        d.is_location = new_type == "location"
        d.is_attachment = d.is_deed = False
        bits = 0
        for icon in icons or ():
            bits |= ICON_BITS.get(str(icon).lower(), 0)
        d.icons = bits if d.is_unit else 0
        d.power = max(0, int(power or 0)) if d.is_unit else 0
        d.power_x = False
        d.attach_ability = None
        d.enters_freely = False
        d.retypes = None
        cache[key] = d
        return d


def _live_key(ab) -> str:
    return ab.event if ab.timing in ("response", "forced") else f"{ab.timing}:{ab.event}"


def _text_is_keywords_only(text: str, card: dict) -> bool:
    """A text box that only repeats the card's keywords ('Subtle. Haste (2).') and deckbuilding rules (a destiny's
    'Deckbuilding: …' line, enforced by deck legality, §10.6/§11) needs no abilities."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    lines = [ln for ln in lines if not ln.lower().startswith("deckbuilding:")]
    body = re.sub(r"\((?![0-9X]\))[^()]*\)", "", " ".join(lines))   # reminder text, not 'Haste (2)'
    words = [w.strip() for w in re.split(r"[.\n;]", body) if w.strip()]
    return all(parse_keyword(w)[0] for w in words)


def token_def(spec: dict) -> CardDef:
    """§3.8 a token unit from a create_token effect."""
    card = {"code": "token-" + re.sub(r"[^a-z0-9]+", "-", str(spec.get("name", "token")).lower())[:24],
            "name": spec.get("name", "Token"), "type": "unit", "faction": spec.get("faction", "neutral"),
            "cost": 0, "power": spec.get("power", 0), "icons": spec.get("icons", []),
            "attributes": spec.get("attributes", []), "keywords": spec.get("keywords", []),
            "abilities": spec.get("abilities", [])}
    return CardDef(card, is_token=True)


class Deck:
    """A whole deck compiled for the engine. Build it once and reuse it for every game."""

    def __init__(self, faction: CardDef, destiny: CardDef | None, quests: list[CardDef], draw: list[CardDef],
                 defs: list[CardDef]):
        self.faction = faction
        self.destiny = destiny
        self.quests = tuple(quests)
        self.draw = tuple(draw)
        self.defs = tuple(defs)
        self.faction_slug = faction.faction
        self.unsupported_cards = sorted({d.name for d in defs if not d.supported})
        self.unsupported_reasons = {d.name: d.unsupported_reason for d in defs if not d.supported}
        events: set[str] = set()
        action_cards = False
        for d in defs:
            events.update(d.triggers)
            if d.actions or (d.is_deed and d.play_ability is not None):
                action_cards = True
        self.events = frozenset(events)
        self.has_actions = action_cards
        self._setup_solver: Any = None   # policies: the exact setup solver for this deck, built on first use
        self._setup_index: dict = {}
        payload = json.dumps(sorted((d.code, d.name) for d in [faction, *(x for x in [destiny] if x),
                                                                 *quests, *draw]), sort_keys=True)
        self.hash = hashlib.sha256(payload.encode()).hexdigest()[:16]

    def __repr__(self) -> str:
        return f"Deck({self.faction.name!r}, {len(self.draw)} draw cards, {len(self.quests)} quests)"


def build_deck(cards: Any) -> Deck:   # a list of (card dict, count) pairs; anything else is a DeckError
    """Compile a deck from (CONTRACTS §1 card dict, count) pairs.

    >>> deck = build_deck([(faction, 1), (quest, 7), (knight, 60)])   # doctest: +SKIP

    Raises DeckError when no game can be played: no faction card (or two), no quests, an empty draw deck.
    """
    if not isinstance(cards, (list, tuple)):
        raise DeckError("a deck is a list of (card, count) pairs")
    faction = destiny = None
    quests: list[CardDef] = []
    draw: list[CardDef] = []
    defs: list[CardDef] = []
    by_code: dict[str, CardDef] = {}
    for entry in cards:
        try:
            card, count = entry
        except (TypeError, ValueError):
            raise DeckError("each deck entry must be a (card, count) pair") from None
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise DeckError(f"bad count {count!r} for {card.get('name', '?') if isinstance(card, dict) else card}")
        if count == 0:
            continue
        key = str(card.get("code") or card.get("name")) if isinstance(card, dict) else None
        d = by_code.get(key) if key else None
        if d is None:
            d = CardDef(card)
            by_code[d.code] = d
            defs.append(d)
        if d.type == "faction":
            if faction is not None or count > 1:
                raise DeckError(f"a deck has exactly one faction card (found a second: {d.name})")
            faction = d
        elif d.type == "destiny":
            if destiny is not None or count > 1:
                raise DeckError(f"a deck has at most one destiny card (found a second: {d.name})")
            destiny = d
        elif d.type == "quest":
            quests.extend([d] * count)
        elif d.type in DRAW_TYPES:
            draw.extend([d] * count)
        else:
            raise DeckError(f"{d.name} has an unknown card type {d.type!r}")
    if faction is None:
        raise DeckError("the deck has no faction card, so no game can be played (§2.1)")
    if not quests:
        raise DeckError("the deck has no quests, so no game can be played (§2.1, §5.1)")
    if not draw:
        raise DeckError("the draw deck is empty, so no game can be played (§2.1, §5.2)")
    return Deck(faction, destiny, quests, draw, defs)
