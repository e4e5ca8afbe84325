"""Card data of the Heroes and Regions game (`regions`, rules 003): the card schema, its validation, the set rules.

Pure Python, no Django import. `parse_card_file(text)` reads a CONTRACTS §1 file whose set names
`"game": "regions"` and returns a `CardFile` with every card normalised (every field present) and a list of
`CardError`s naming each bad card's code and field, like r1's `cards/cardfile.py`; `set_errors(cards)` adds the
rules a whole set must keep (six standing piles, Heroes with a full Skill Tree and an 8-card starting deck, five
Regions). The fields and the ability format are documented in docs/games/regions.md.

>>> card, errors = normalise_card({"code": "x-1", "name": "Silver", "type": "supplies", "cost": 2, "goods": 2,
...                                 "pile": "standing"})
>>> errors, card["goods"], card["damage"]
([], 2, None)
>>> for e in normalise_card({"code": "x-2", "name": "Oops", "type": "citizen", "cost": 1, "damage": -1,
...                          "pile": "market"})[1]:
...     print(e)
card 'x-2', field 'damage': must be between 0 and 9, not -1
card 'x-2', field 'health': a citizen needs its Health (003 §6.1)
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

GAME = "regions"

CARD_TYPES = ("hero", "region", "supplies", "citizen", "structure", "tactic", "recognition")
PLAYABLE_TYPES = ("supplies", "citizen", "structure", "tactic", "recognition")   # 003 §6.2: the five card types
STACK_TYPES = ("citizen", "structure", "tactic")                                  # 003 §5.3: what goes into Stacks
PILES = ("standing", "market", "starting")
PHASES = ("hero", "purchase", "position", "contest")                              # 003 §4.1-§4.4
WHENS = (*PHASES, "reveal", "finish", "static")                                   # 003 §6.4 marks
HAND_PHASES = ("purchase", "contest")                                             # 003 §4.2, §4.4: "Discard me"
HAND_COSTS = ("discard", "trash")                                                 # 003 §6.3
REQUIREMENTS = ("citizens", "structures", "tactics", "stack_cards", "bank", "hand", "level", "controlled")
WHERES = ("here", "any", "choose", "all")
QUEST_NEEDS = ("stack_cards", "stack_damage", "stack_citizens", "stack_structures", "spent", "bought", "level",
               "structures", "hand")

# 003 §1.1, §8.3: the six standing piles, in cost order, and their types.
STANDING = (("Goods", 0, "supplies"), ("Aim", 1, "tactic"), ("Silver", 2, "supplies"), ("Worker", 3, "citizen"),
            ("Shop", 4, "structure"), ("Recognition", 5, "recognition"))
RECOGNITION_IN_PLAY = 10      # 003 §1.1: ten Recognition are in play
STARTING_DECK = 8             # 003 §1.1: a unique starting deck of 8 cards
REGIONS = 5                   # 003 §1.1: five Region cards
LEVELS = 6                    # 003 §5.2: Level 0 to 5

CODE_RE = re.compile(r"^[a-z0-9-]{1,32}$")
KNOWN_KEYS = (
    "code", "name", "subtitle", "type", "cost", "goods", "goods_only", "damage", "health", "pile", "hero",
    "quantity", "abilities", "skills", "quest", "reward", "order", "short_name", "text", "flavor", "illustrator",
    "number",
)
EFFECT_KEYS = ("draw", "goods", "strike", "might", "pocket", "trash", "recognition")


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
    game: str
    cards: list[dict]
    errors: list[CardError] = field(default_factory=list)


class CardFileError(ValueError):
    """The file as a whole cannot be read (not JSON, wrong shape, another game)."""


def _int(value, *, minimum=0, maximum=None):
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"must be a whole number, not {value!r}")
    if value < minimum or (maximum is not None and value > maximum):
        bound = f"between {minimum} and {maximum}" if maximum is not None else f"at least {minimum}"
        raise ValueError(f"must be {bound}, not {value}")
    return value


# ---- abilities -----------------------------------------------------------------------------------------------
def normalise_effect(raw, *, when: str) -> dict:
    """One effect primitive, e.g. {"draw": 1}, {"goods": 3, "only": "citizen"}, {"strike": 1, "where": "here"}."""
    if not isinstance(raw, dict):
        raise ValueError("each effect must be an object such as {\"draw\": 1}")
    prims = [k for k in raw if k in EFFECT_KEYS]
    if len(prims) != 1:
        raise ValueError(f"an effect names exactly one of {', '.join(EFFECT_KEYS)}, not {sorted(raw)}")
    prim = prims[0]
    allowed = {prim, "only"} if prim == "goods" else {prim, "where"} if prim in ("strike", "might") else {prim}
    extra = sorted(set(raw) - allowed)
    if extra:
        raise ValueError(f"effect {prim!r} takes no {', '.join(extra)}")
    amount = _int(raw[prim], minimum=1, maximum=9)
    out = {prim: amount}
    if prim == "goods":
        only = raw.get("only")
        if only is not None and only not in PLAYABLE_TYPES:
            raise ValueError(f"goods 'only' must be one of {', '.join(PLAYABLE_TYPES)}, not {only!r}")
        out["only"] = only
    if prim in ("strike", "might"):
        where = raw.get("where", "here")
        ok = ("here", "any") if prim == "strike" else ("here", "choose", "all")
        if where not in ok:
            raise ValueError(f"{prim} 'where' must be one of {', '.join(ok)}, not {where!r}")
        out["where"] = where
    if prim == "pocket" and when != "static":
        raise ValueError("pocket (capacity) is a static effect: put it in an ability with \"when\": \"static\"")
    if prim != "pocket" and when == "static" and prim != "might":
        raise ValueError(f"a static ability can only raise the Pocket or the Damage of a Stack, not {prim}")
    return out


def normalise_ability(raw, *, ctype: str, in_skill: bool = False, in_reward: bool = False) -> dict:
    """An ability object (docs/games/regions.md, "Abilities"). Raises ValueError with the reason."""
    if not isinstance(raw, dict):
        raise ValueError("each ability must be an object")
    known = {"when", "from", "white", "cost", "may", "requires", "effects", "points", "text"}
    extra = sorted(set(raw) - known)
    if extra:
        raise ValueError(f"unknown ability key(s) {', '.join(extra)}; keys are {', '.join(sorted(known))}")
    when = raw.get("when")
    if when not in WHENS:
        raise ValueError(f"'when' must be one of {', '.join(WHENS)}, not {when!r}")
    src = raw.get("from", "stack")
    if src not in ("stack", "hand"):
        raise ValueError(f"'from' must be stack or hand, not {src!r}")
    white = raw.get("white", False)
    if not isinstance(white, bool):
        raise ValueError("'white' must be true or false")
    may = raw.get("may", False)
    if not isinstance(may, bool):
        raise ValueError("'may' must be true or false")
    out: dict = {"when": when, "from": src, "white": white or in_reward, "may": may, "cost": None,
                 "requires": None, "effects": [], "points": None}
    if src == "hand":
        if in_skill or in_reward:
            raise ValueError("Skill Tree steps and Region rewards have no Hand abilities")
        if when not in HAND_PHASES:
            raise ValueError(f"Hand abilities are used in the {' or '.join(HAND_PHASES)} phase (003 §4.2, §4.4)")
        if raw.get("cost") not in HAND_COSTS:
            raise ValueError("a Hand ability needs 'cost': 'discard' (Discard me) or 'trash' (Trash me) (003 §6.3)")
        if white:
            raise ValueError("a white box is a Stack ability (003 §6.4); a Hand ability has none")
        if any(isinstance(e, dict) and e.get("where") == "here" for e in raw.get("effects") or []):
            raise ValueError("a Hand ability is at no Region: use where 'any' (strike) or 'choose' / 'all' (might)")
        out["cost"] = raw["cost"]
    else:
        if raw.get("cost") is not None:
            raise ValueError("only Hand abilities have a 'cost' (Discard me / Trash me)")
        if not in_skill and not in_reward and ctype not in STACK_TYPES:
            raise ValueError(f"a {ctype} never sits in a Stack (003 §5.3): its abilities are used from the hand")
    req = raw.get("requires")
    if req is not None:
        if (not isinstance(req, dict) or set(req) != {"what", "at_least"} or req["what"] not in REQUIREMENTS):
            raise ValueError("'requires' is {\"what\": W, \"at_least\": N} with W one of " + ", ".join(REQUIREMENTS))
        out["requires"] = {"what": req["what"], "at_least": _int(req["at_least"], minimum=1, maximum=20)}
    if when == "finish":
        if raw.get("effects"):
            raise ValueError("a Finish ability scores 'points' and has no effects (003 §6.4)")
        out["points"] = _int(raw.get("points"), minimum=1, maximum=9)
        if out["points"] is None:
            raise ValueError("a Finish ability needs 'points' (the Recognition it scores)")
        if out["may"] or out["requires"]:
            raise ValueError("a Finish ability has no 'may' or 'requires'")
        return out
    if raw.get("points") is not None:
        raise ValueError("only Finish abilities have 'points'")
    effects = raw.get("effects")
    if not isinstance(effects, list) or not effects:
        raise ValueError("'effects' must be a non-empty list")
    out["effects"] = [normalise_effect(e, when=when) for e in effects]
    if when == "reveal" and (white or in_skill or in_reward):
        raise ValueError("Reveal fires as a card is placed or uncovered; it has no white box (003 §6.4)")
    if when == "static" and src == "hand":
        raise ValueError("a static ability works in a Stack, not from the hand")
    if in_skill and when not in ("hero", "static", "finish"):
        raise ValueError("a Skill Tree step is resolved in the Hero phase (003 §4.1): 'when' is hero, static or finish")
    if in_skill and any(e.get("where") == "here" for e in out["effects"]):
        raise ValueError("a Skill Tree step is on the Hero card, not at a Region: use where 'any', 'choose' or 'all'")
    return out


def _abilities(value, err, fld, *, ctype, in_skill=False, in_reward=False) -> list:
    if value is None:
        return []
    if not isinstance(value, list):
        err(fld, "must be a list of ability objects")
        return []
    out = []
    for k, raw in enumerate(value, 1):
        try:
            out.append(normalise_ability(raw, ctype=ctype, in_skill=in_skill, in_reward=in_reward))
        except ValueError as e:
            err(fld, f"ability {k}: {e}")
    return out


# ---- one card ------------------------------------------------------------------------------------------------
def normalise_card(raw) -> tuple[dict, list[CardError]]:
    """Validate one card dict. Returns (the card with every field present, errors)."""
    errors: list[CardError] = []
    if not isinstance(raw, dict):
        return {}, [CardError("?", "card", "each card must be a JSON object")]
    code = raw.get("code")
    label = code if isinstance(code, str) and code else "?"

    def err(fld, msg):
        errors.append(CardError(label, fld, msg))

    for key in raw:
        if key not in KNOWN_KEYS:
            err(key, f"unknown field {key!r}; fields are {', '.join(KNOWN_KEYS)}")
    card: dict = {}
    if not isinstance(code, str) or not CODE_RE.match(code):
        err("code", "required; 1-32 characters of a-z, 0-9 and '-'")
    card["code"] = code if isinstance(code, str) else ""
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip():
        err("name", "required; a non-empty string")
    elif len(name) > 60:
        err("name", "at most 60 characters")
    card["name"] = name.strip() if isinstance(name, str) else ""
    for key in ("subtitle", "short_name", "flavor", "illustrator"):
        value = raw.get(key)
        if value is not None and not isinstance(value, str):
            err(key, "must be a string or null")
            value = None
        card[key] = value.strip() or None if isinstance(value, str) else None
    ctype = raw.get("type")
    if ctype not in CARD_TYPES:
        err("type", f"required; one of {', '.join(CARD_TYPES)}, not {ctype!r}")
    card["type"] = ctype
    playable = ctype in PLAYABLE_TYPES

    for key, minimum, maximum in (("cost", 0, 20), ("goods", 0, 9), ("damage", 0, 9), ("health", 1, 20),
                                  ("order", 1, REGIONS), ("number", 0, 9999), ("quantity", 1, 40)):
        try:
            card[key] = _int(raw.get(key), minimum=minimum, maximum=maximum)
        except ValueError as e:
            err(key, str(e))
            card[key] = None
    if playable and card["cost"] is None and "cost" not in {e.field for e in errors}:
        err("cost", f"a {ctype} card needs its cost in Goods (003 §6.1)")
    if not playable and card["cost"] is not None:
        err("cost", f"a {ctype} card is not bought and has no cost")
    if card["goods"] is not None and ctype != "supplies":
        err("goods", "only Supplies pay with a Goods value (003 §6.2)")
    if ctype == "supplies" and card["goods"] is None:
        card["goods"] = 0
    only = raw.get("goods_only")
    if only is not None and (ctype != "supplies" or only not in PLAYABLE_TYPES):
        err("goods_only", f"restricted Goods: a Supplies card's goods_only is one of {', '.join(PLAYABLE_TYPES)}"
                          " (003 §6.5)")
        only = None
    card["goods_only"] = only
    combat = ctype in STACK_TYPES
    for key in ("damage", "health"):
        if combat and card[key] is None and key not in {e.field for e in errors}:
            if key == "damage":
                card[key] = 0
            else:
                err(key, f"a {ctype} needs its Health (003 §6.1)")
        if not combat and card[key] is not None:
            err(key, f"only Citizens, Structures and Tactics have a combat box (003 §6.1), not a {ctype}")
    if card["order"] is not None and ctype != "region":
        err("order", "only Regions have an order (1 = nearest the Market)")
    if ctype == "region" and card["order"] is None and "order" not in {e.field for e in errors}:
        err("order", "a Region needs its place in the row: 1 (nearest the Market) to 5")

    pile = raw.get("pile")
    if playable:
        if pile not in PILES:
            err("pile", f"a {ctype} card comes from one of {', '.join(PILES)}, not {pile!r}")
            pile = None
    elif pile is not None:
        err("pile", f"a {ctype} card is in no pile")
        pile = None
    card["pile"] = pile
    hero = raw.get("hero")
    if pile == "starting":
        if not isinstance(hero, str) or not CODE_RE.match(hero):
            err("hero", "a starting-deck card names its Hero's code (the portrait in its corner, 003 §6.1)")
            hero = None
    elif hero is not None:
        err("hero", "only starting-deck cards carry a Hero's portrait")
        hero = None
    card["hero"] = hero
    if pile in ("market", "starting") and card["quantity"] is None and "quantity" not in {e.field for e in errors}:
        card["quantity"] = 1
    if pile == "standing" and card["quantity"] is not None:
        err("quantity", "standing piles are never exhausted (003 §8.3); Recognition always has ten")

    card["abilities"] = _abilities(raw.get("abilities"), err, "abilities", ctype=ctype or "")
    if not playable and card["abilities"]:
        err("abilities", f"a {ctype} has no card abilities: use 'skills' (Heroes) or 'reward' (Regions)")
    skills = raw.get("skills")
    card["skills"] = None
    if ctype == "hero":
        card["skills"] = _skills(skills, err)
    elif skills is not None:
        err("skills", "only Heroes have a Skill Tree")
    card["quest"] = None
    card["reward"] = None
    if ctype == "region":
        card["quest"] = _quest(raw.get("quest"), err)
        card["reward"] = _abilities(raw.get("reward"), err, "reward", ctype="region", in_reward=True)
    else:
        for key in ("quest", "reward"):
            if raw.get(key) is not None:
                err(key, "only Regions have a Quest and a Reward side")
    text = raw.get("text") or ""
    if not isinstance(text, str):
        err("text", "must be a string")
        text = ""
    card["text"] = text
    return card, errors


def _skills(value, err) -> list | None:
    """003 §5.2: a Level 0 step that draws 4, then steps 1-5."""
    if not isinstance(value, list) or len(value) != LEVELS:
        err("skills", "a Hero's Skill Tree is a list of six steps, Level 0 to 5 (003 §1.1, §5.2)")
        return None
    out = []
    for level, step in enumerate(value):
        if not isinstance(step, dict) or step.get("level") != level:
            err("skills", f"step {level + 1} must be an object with \"level\": {level}")
            return None
        text = step.get("text", "")
        if not isinstance(text, str):
            err("skills", f"Level {level}: text must be a string")
            text = ""
        extra = sorted(set(step) - {"level", "text", "abilities"})
        if extra:
            err("skills", f"Level {level}: unknown key(s) {', '.join(extra)}")
        abilities = _abilities(step.get("abilities"), lambda f, m, lv=level: err(f, f"Level {lv}: {m}"), "skills",
                               ctype="hero", in_skill=True)
        out.append({"level": level, "text": text, "abilities": abilities})
    if out and out[0]["abilities"] != [normalise_ability({"when": "hero", "effects": [{"draw": 4}]}, ctype="hero",
                                                          in_skill=True)]:
        err("skills", "Level 0 always draws 4 cards and does nothing else (003 §4.1)")
    return out


def _quest(value, err) -> dict | None:
    """003 §5.4: a Quest prints its phase and its condition."""
    if not isinstance(value, dict):
        err("quest", "a Region needs its Quest: {\"phase\": P, \"need\": {...}, \"text\": ...}")
        return None
    phase = value.get("phase")
    if phase not in PHASES:
        err("quest", f"the Quest's phase is one of {', '.join(PHASES)}, not {phase!r}")
        return None
    need = value.get("need")
    if not isinstance(need, dict) or not need:
        err("quest", "the Quest's 'need' is an object of conditions, e.g. {\"stack_cards\": 3}")
        return None
    out_need = {}
    for key, n in need.items():
        if key not in QUEST_NEEDS:
            err("quest", f"unknown Quest condition {key!r}; conditions are {', '.join(QUEST_NEEDS)}")
            continue
        try:
            out_need[key] = _int(n, minimum=1, maximum=30)
        except ValueError as e:
            err("quest", f"{key}: {e}")
    if phase != "purchase" and ("spent" in out_need or "bought" in out_need):
        err("quest", "'spent' and 'bought' are counted in the Purchase phase: such a Quest is a Purchase Quest")
    extra = sorted(set(value) - {"phase", "need", "text"})
    if extra:
        err("quest", f"unknown key(s) {', '.join(extra)}")
    text = value.get("text", "")
    return {"phase": phase, "need": out_need, "text": text if isinstance(text, str) else ""}


# ---- a whole set ---------------------------------------------------------------------------------------------
def set_errors(cards: list[dict]) -> list[CardError]:
    """The rules a playable set keeps (003 §1.1): what one game needs, reported per card and field."""
    errors: list[CardError] = []
    by_code = {c["code"]: c for c in cards if c.get("code")}
    standing = [c for c in cards if c.get("pile") == "standing"]
    for name, cost, ctype in STANDING:
        found = [c for c in standing if c["name"] == name]
        if len(found) != 1:
            errors.append(CardError("set", "pile", f"the standing pile {name} (cost {cost}) must be in the set once "
                                                   f"(found {len(found)}; 003 §1.1)"))
        elif found[0]["cost"] != cost or found[0]["type"] != ctype:
            errors.append(CardError(found[0]["code"], "cost", f"the standing pile {name} is a {ctype} of cost {cost}"
                                                            " (003 §1.1)"))
    extra = [c["code"] for c in standing if c["name"] not in {s[0] for s in STANDING}]
    for code in extra:
        errors.append(CardError(code, "pile", "the six standing piles are Goods, Aim, Silver, Worker, Shop and "
                                              "Recognition (003 §8.3)"))
    heroes = [c for c in cards if c.get("type") == "hero"]
    if len(heroes) < 2:
        errors.append(CardError("set", "type", f"a set needs at least two Heroes, found {len(heroes)}"))
    for h in heroes:
        deck = sum(c.get("quantity") or 0 for c in cards if c.get("hero") == h["code"])
        if deck != STARTING_DECK:
            errors.append(CardError(h["code"], "hero", f"the starting deck of {h['name']} has {deck} cards, "
                                                       f"not {STARTING_DECK} (003 §1.1)"))
    for c in cards:
        if c.get("hero") and (c["hero"] not in by_code or by_code[c["hero"]].get("type") != "hero"):
            errors.append(CardError(c["code"], "hero", f"no Hero with code {c['hero']!r} in the set"))
    regions = [c for c in cards if c.get("type") == "region"]
    orders = sorted(c.get("order") or 0 for c in regions)
    if orders != list(range(1, REGIONS + 1)):
        errors.append(CardError("set", "order", f"the set needs five Regions ordered 1 to 5 from the Market, "
                                                f"found orders {orders} (003 §1.1)"))
    market = sum(c.get("quantity") or 0 for c in cards if c.get("pile") == "market")
    if market < 8:
        errors.append(CardError("set", "quantity", f"the Market Deck has {market} cards; it refills four Market "
                                                   "Piles each turn, so it needs at least 8 (003 §8.3)"))
    names: dict[str, str] = {}
    for c in cards:
        key = c.get("name", "").lower().replace("\u2019", "'")
        if key in names and c.get("type") in PLAYABLE_TYPES:
            errors.append(CardError(c["code"], "name", f"the name {c['name']!r} is also card {names[key]!r}: "
                                                       "actions and strategies name cards, so names are unique"))
        names.setdefault(key, c.get("code", ""))
    return errors


def parse_card_file(text: str, *, source: str = "file", check_set: bool = True) -> CardFile:
    """Parse and validate a regions card file. Raises CardFileError when the file itself is unreadable."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        raise CardFileError(f"{source}: not valid JSON (line {e.lineno}, column {e.colno}: {e.msg})") from e
    if not isinstance(doc, dict) or not isinstance(doc.get("cards"), list):
        raise CardFileError(f'{source}: expected an object {{"set": {{...}}, "cards": [...]}}')
    card_set = doc.get("set")
    if (not isinstance(card_set, dict) or not isinstance(card_set.get("code"), str)
            or not CODE_RE.match(card_set.get("code", "")) or not isinstance(card_set.get("name"), str)):
        raise CardFileError(f'{source}: "set" must be an object with a "code" ([a-z0-9-]) and a "name"')
    if card_set.get("game") != GAME:
        raise CardFileError(f'{source}: the set names the game {card_set.get("game")!r}, not "{GAME}" '
                            "(CONTRACTS §7)")
    result = CardFile(set_code=card_set["code"], set_name=card_set["name"].strip(), game=GAME, cards=[])
    seen: set[str] = set()
    for raw in doc["cards"]:
        card, errors = normalise_card(raw)
        if card.get("code") and card["code"] in seen:
            errors.append(CardError(card["code"], "code", "duplicate code in this file"))
        seen.add(card.get("code", ""))
        result.errors.extend(errors)
        result.cards.append(card)
    if check_set and not result.errors:
        result.errors.extend(set_errors(result.cards))
    return result
