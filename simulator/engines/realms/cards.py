"""Realms cards compiled for the engine: one `CardDef` per distinct card, abilities turned into small objects.

A card dict (the canonical form of `cards.games.realms.schema`) becomes a `CardDef` of ints and bitmasks: type,
Starting Cost, CV, Tactic bits, the four resource icon counts, warrior type, intrigue kind, keyword bits, what a
Place unlocks, and its abilities compiled (`Ability`, `Static`, `Sel`, `Cond`, `Eff`, `Cost`), so that a game
reads no dicts. `build_deck(entries)` makes a `Deck` (Leaders apart from the regular cards). Everything the
ability format names (cards/games/realms/abilities.py, docs/games/realms.md §14) compiles; anything else is a
`DeckError` naming the card, the ability and what is wrong.

    >>> d = CardDef({"code": "x", "name": "Farmstead", "type": "place", "cv": 3, "tactics": ["front"],
    ...              "neighbor_count": 3, "provides": {"food": 2}})
    >>> d.is_place, d.cv, d.tactics, d.prov
    (True, 3, 2, (0, 2, 0, 0))
"""
from __future__ import annotations

from typing import Any, Final

from cards.games.realms.abilities import check_abilities

# ---- small codes (ints inside, names at the edges) --------------------------------------------------------
T_LEADER: Final = 0
T_PLACE: Final = 1
T_WARRIOR: Final = 2
T_INTRIGUE: Final = 3
TYPE_CODES = {"leader": T_LEADER, "place": T_PLACE, "warrior": T_WARRIOR, "intrigue": T_INTRIGUE}
TYPE_NAMES = ("leader", "place", "warrior", "intrigue")

TAC_LEFT: Final = 1   # 002 §6 (R6): Left Flank, Front, Right Flank
TAC_FRONT: Final = 2
TAC_RIGHT: Final = 4
TAC_ALL: Final = 7
TACTIC_BITS = {"left": TAC_LEFT, "front": TAC_FRONT, "right": TAC_RIGHT}
TACTIC_NAMES: Final = {TAC_LEFT: "left", TAC_FRONT: "front", TAC_RIGHT: "right"}
TACTIC_ORDER: Final = (TAC_LEFT, TAC_FRONT, TAC_RIGHT)

RESOURCES: Final = ("gold", "food", "timber", "iron")     # 002 §4 (R3)
GOLD: Final = 0
FOOD: Final = 1
TIMBER: Final = 2
IRON: Final = 3

WARRIOR_TYPES: Final = ("INFANTRY", "CAVALRY", "VEHICLE", "PATRIARCH", "PROPHET", "SORCERER")   # R7
W_INFANTRY: Final = 0
W_CAVALRY: Final = 1
W_VEHICLE: Final = 2
W_PATRIARCH: Final = 3
W_PROPHET: Final = 4
W_SORCERER: Final = 5

# intrigue kinds (002 §7.4, R9)
IK_PLAIN: Final = 0
IK_EQUIPMENT: Final = 1
IK_RITUAL: Final = 2
IK_PROPHECY: Final = 3
IK_HARMONY: Final = 4
IK_ART: Final = 5
IK_CODES = {"EQUIPMENT": IK_EQUIPMENT, "RITUAL": IK_RITUAL, "PROPHECY": IK_PROPHECY, "DARK HARMONY": IK_HARMONY,
            "ART SPELL": IK_ART}
# R11: the warrior type an Intrigue kind needs in play
IK_NEEDS: Final = {IK_RITUAL: W_PATRIARCH, IK_PROPHECY: W_PROPHET, IK_ART: W_SORCERER}

KW_LONER: Final = 1
KW_WORTHY: Final = 2
KW_WEAPON: Final = 4
KW_ARMOR: Final = 8
KW_CODES = {"Loner": KW_LONER, "Worthy": KW_WORTHY, "Weapon": KW_WEAPON, "Armor": KW_ARMOR}

# timings
TM_STATIC: Final = 0
TM_PLAY: Final = 1
TM_ENTERS: Final = 2
TM_ACTION: Final = 3
TM_COMBAT: Final = 4
TM_RAID: Final = 5
TM_TRIGGER: Final = 6
TIMING_CODES = {"static": TM_STATIC, "play": TM_PLAY, "enters": TM_ENTERS, "action": TM_ACTION,
                "combat": TM_COMBAT, "raid": TM_RAID, "trigger": TM_TRIGGER}

# events (docs/games/realms.md §14.2)
EV_TURN_START: Final = 0
EV_BALANCING: Final = 1
EV_RECRUITED: Final = 2
EV_BUILT: Final = 3
EV_ATTACK_WON: Final = 4
EV_DIES: Final = 5
EV_PLACE_DESTROYED: Final = 6
EV_RAID_WON: Final = 7
EVENT_CODES = {"turn_start": EV_TURN_START, "balancing": EV_BALANCING, "recruited": EV_RECRUITED,
               "built": EV_BUILT, "attack_won": EV_ATTACK_WON, "dies": EV_DIES,
               "place_destroyed": EV_PLACE_DESTROYED, "raid_won": EV_RAID_WON}
N_EVENTS: Final = 8

# roles in an attack or a raid
ROLE_NONE: Final = 0
ROLE_ATTACKER: Final = 1
ROLE_DEFENDER: Final = 2
ROLE_RAIDER: Final = 3
ROLE_RAIDED: Final = 4
ROLE_CODES = {"attacker": ROLE_ATTACKER, "defender": ROLE_DEFENDER, "raider": ROLE_RAIDER, "raided": ROLE_RAIDED}

# rules with modes (002 §16, R18)
RULES: Final = ("attack", "be_attacked", "raid", "be_raided", "block", "be_blocked", "join_group", "be_moved",
                "be_killed")
R_ATTACK: Final = 0
R_BE_ATTACKED: Final = 1
R_RAID: Final = 2
R_BE_RAIDED: Final = 3
R_BLOCK: Final = 4
R_BE_BLOCKED: Final = 5
R_JOIN: Final = 6
R_BE_MOVED: Final = 7
R_BE_KILLED: Final = 8
RULE_CODES = {name: i for i, name in enumerate(RULES)}
M_CANNOT: Final = 1
M_CAN: Final = 2
M_ALWAYS: Final = 4
M_NEVER: Final = 8
MODE_CODES = {"cannot": M_CANNOT, "can": M_CAN, "always": M_ALWAYS, "never": M_NEVER}

# CV modifiers (002 §16): operations and orders
OP_ADD: Final = 0
OP_SUB: Final = 1
OP_MUL: Final = 2
OP_DIV: Final = 3
OP_CODES = {"add": OP_ADD, "subtract": OP_SUB, "multiply": OP_MUL, "divide": OP_DIV}
ORD_BEFORE: Final = 0
ORD_NORMAL: Final = 1
ORD_AFTER: Final = 2
ORD_CODES = {"before_all": ORD_BEFORE, "normal": ORD_NORMAL, "after_all": ORD_AFTER}

# durations
DUR_ATTACK: Final = 0
DUR_RAID: Final = 1
DUR_TURN: Final = 2
DUR_NEXT_TURN: Final = 3
DUR_CODES = {"attack": DUR_ATTACK, "raid": DUR_RAID, "turn": DUR_TURN, "next_turn": DUR_NEXT_TURN}

# references
REF_SELF: Final = 0
REF_HOST: Final = 1
REF_LEADER: Final = 2
REF_TARGET: Final = 3
REF_EVENT: Final = 4
REF_OUR: Final = 5
REF_THEIR: Final = 6
REF_EACH: Final = 7
REF_CODES = {"self": REF_SELF, "host": REF_HOST, "leader": REF_LEADER, "target": REF_TARGET,
             "event_card": REF_EVENT, "our_side": REF_OUR, "their_side": REF_THEIR}

# selector zones
SZ_PLAY: Final = 0
SZ_SETTLEMENT: Final = 1
SZ_BORDER: Final = 2
SZ_STRIKE: Final = 3
SZ_HAND: Final = 4
SZ_DISCARD: Final = 5
SZ_DECK: Final = 6
SZ_CODES = {"play": SZ_PLAY, "settlement": SZ_SETTLEMENT, "borderlands": SZ_BORDER, "strike_force": SZ_STRIKE,
            "hand": SZ_HAND, "discard": SZ_DISCARD, "deck": SZ_DECK}
CTRL_YOU: Final = 0
CTRL_OPP: Final = 1
CTRL_ANY: Final = 2
CTRL_CODES = {"you": CTRL_YOU, "opponent": CTRL_OPP, "any": CTRL_ANY}

# conditions
C_CONTROLS: Final = 0
C_OPP_CONTROLS: Final = 1
C_RESERVE_GTE: Final = 2
C_VP_GTE: Final = 3
C_VP_LTE: Final = 4
C_BEHIND: Final = 5
C_HAND_LTE: Final = 6
C_HAND_GTE: Final = 7
C_TAKING_PART: Final = 8
C_TACTIC: Final = 9
C_ZONE: Final = 10
C_ALL: Final = 11
C_ANY: Final = 12
C_NOT: Final = 13

# costs
K_PAY_GOLD: Final = 0
K_DISCARD_HAND: Final = 1
K_DISCARD_SELF: Final = 2
K_ANNIHILATE_SELF: Final = 3
K_KILL: Final = 4

# effects
E_DRAW: Final = 0
E_GAIN_GOLD: Final = 1
E_TAKE_GOLD: Final = 2
E_MODIFY_CV: Final = 3
E_GRANT_TACTIC: Final = 4
E_RULE: Final = 5
E_KILL: Final = 6
E_DISCARD: Final = 7
E_ANNIHILATE: Final = 8
E_RETURN: Final = 9
E_MOVE: Final = 10
E_DISBAND: Final = 11
E_RECOVER: Final = 12
E_SEARCH: Final = 13
E_RECRUIT: Final = 14
E_DISCARD_HAND: Final = 15
E_ADD_RESOURCES: Final = 16
EFFECT_CODES = {"draw": E_DRAW, "gain_gold": E_GAIN_GOLD, "take_gold": E_TAKE_GOLD, "modify_cv": E_MODIFY_CV,
                "grant_tactic": E_GRANT_TACTIC, "rule": E_RULE, "kill": E_KILL, "discard": E_DISCARD,
                "annihilate": E_ANNIHILATE, "return_to_hand": E_RETURN, "move": E_MOVE, "disband": E_DISBAND,
                "recover": E_RECOVER, "search": E_SEARCH, "recruit": E_RECRUIT,
                "discard_from_hand": E_DISCARD_HAND, "add_resources": E_ADD_RESOURCES}

# static "affects"
AF_SELF: Final = 0
AF_HOST: Final = 1
AF_LEADER: Final = 2
AF_SEL: Final = 3
AF_YOU: Final = 4
AF_OPP: Final = 5
AFFECTS_CODES: Final = {"self": AF_SELF, "host": AF_HOST, "leader": AF_LEADER, "you": AF_YOU, "opponent": AF_OPP}


class DeckError(ValueError):
    """A deck or card the engine cannot play, with a message a player understands."""


def _res4(value: Any) -> tuple[int, int, int, int]:
    if not value:
        return (0, 0, 0, 0)
    if isinstance(value, list):
        return (value.count("gold"), value.count("food"), value.count("timber"), value.count("iron"))
    return (int(value.get("gold", 0)), int(value.get("food", 0)), int(value.get("timber", 0)),
            int(value.get("iron", 0)))


def _tactic_bits(values: Any) -> int:
    bits = 0
    for t in values or ():
        if t == "all":
            bits |= TAC_ALL
        else:
            bits |= TACTIC_BITS[t]
    return bits


class Sel:
    """A compiled selector (docs/games/realms.md §14.3): every key must match; -1 means "any"."""

    def __init__(self, raw: dict, *, default_zone: int = SZ_PLAY) -> None:
        types = raw.get("type")
        self.types: int = 0
        for t in (types if isinstance(types, list) else [types] if types else []):
            self.types |= 1 << TYPE_CODES[t]
        self.zone: int = SZ_CODES[raw["zone"]] if "zone" in raw else default_zone
        self.controller: int = CTRL_CODES[raw.get("controller", "you")]
        wt = raw.get("warrior_type")
        self.wtypes: int = 0
        for t in (wt if isinstance(wt, list) else [wt] if wt else []):
            self.wtypes |= 1 << WARRIOR_TYPES.index(t)
        self.has_aff: bool = "affiliation" in raw
        self.aff: str | None = raw.get("affiliation")
        kw = raw.get("keyword")
        self.kw_ik: int = IK_CODES.get(kw, -1) if kw else -1
        self.kw_bit: int = KW_CODES.get(kw, 0) if kw else 0
        self.tactic: int = TACTIC_BITS[raw["tactic"]] if "tactic" in raw else 0
        self.name: str | None = raw.get("name")
        self.cv_lte: int = int(raw["cv_lte"]) if "cv_lte" in raw else -1
        self.cv_gte: int = int(raw["cv_gte"]) if "cv_gte" in raw else -1
        self.cost_lte: int = int(raw["cost_lte"]) if "cost_lte" in raw else -1
        self.not_self: bool = bool(raw.get("not_self", False))
        self.unique: int = -1 if "unique" not in raw else int(bool(raw["unique"]))
        self.provides: int = RESOURCES.index(raw["provides"]) if "provides" in raw else -1
        self.consumes: int = RESOURCES.index(raw["consumes"]) if "consumes" in raw else -1
        self.supplied: int = -1 if "supplied" not in raw else int(bool(raw["supplied"]))
        self.in_group: int = -1 if "in_group" not in raw else int(bool(raw["in_group"]))
        self.equipped: int = -1 if "equipped" not in raw else int(bool(raw["equipped"]))
        tp = raw.get("taking_part")
        self.taking_part: int = -1 if tp is None else (0 if tp is True else ROLE_CODES[tp])
        self.count: int = int(raw.get("count", 1))
        self.up_to: bool = bool(raw.get("up_to", False))
        # whether matching needs the card's modified CV (the costly part of a match)
        self.needs_cv: bool = self.cv_lte >= 0 or self.cv_gte >= 0


class Cond:
    """A compiled condition (§14.5)."""

    def __init__(self, raw: dict) -> None:
        self.kind: int = -1
        self.sel: Sel | None = None
        self.lo: int = 1
        self.hi: int = -1
        self.n: int = 0
        self.subs: list[Cond] = []
        # a condition object may hold several keys ("controls" with "min"); several independent keys are an "all"
        keys = [k for k in raw if k not in ("min", "max")]
        if len(keys) > 1:
            self.kind = C_ALL
            self.subs = [Cond({k: raw[k], **({m: raw[m] for m in ("min", "max") if m in raw}
                                              if k in ("controls", "opponent_controls") else {})}) for k in keys]
            return
        key = keys[0]
        v = raw[key]
        if key in ("controls", "opponent_controls"):
            self.kind = C_CONTROLS if key == "controls" else C_OPP_CONTROLS
            self.sel = Sel(v)
            # min defaults to 1 ("you control a ..."), or to 0 when only a max is given ("at most n")
            self.lo = int(raw.get("min", 0 if "max" in raw else 1))
            self.hi = int(raw["max"]) if "max" in raw else -1
        elif key == "reserve_gte":
            self.kind, self.n = C_RESERVE_GTE, int(v)
        elif key == "vp_gte":
            self.kind, self.n = C_VP_GTE, int(v)
        elif key == "vp_lte":
            self.kind, self.n = C_VP_LTE, int(v)
        elif key == "behind":
            self.kind = C_BEHIND
        elif key == "hand_lte":
            self.kind, self.n = C_HAND_LTE, int(v)
        elif key == "hand_gte":
            self.kind, self.n = C_HAND_GTE, int(v)
        elif key == "taking_part":
            self.kind, self.n = C_TAKING_PART, (0 if v is True else ROLE_CODES[v])
        elif key == "tactic":
            self.kind, self.n = C_TACTIC, TACTIC_BITS[v]
        elif key == "zone":
            self.kind, self.n = C_ZONE, (SZ_BORDER if v == "borderlands" else SZ_STRIKE)
        elif key in ("all", "any"):
            self.kind = C_ALL if key == "all" else C_ANY
            self.subs = [Cond(c) for c in v]
        elif key == "not":
            self.kind = C_NOT
            self.subs = [Cond(v)]
        else:  # pragma: no cover - check_abilities refuses it first
            raise DeckError(f"unknown condition {key!r}")


class Cost:
    def __init__(self, raw: dict) -> None:
        (key, v), = raw.items()
        self.kind: int = {"pay_gold": K_PAY_GOLD, "discard_from_hand": K_DISCARD_HAND, "kill": K_KILL}.get(key, -1)
        self.n: int = int(v) if key in ("pay_gold", "discard_from_hand") else 1
        self.sel: Sel | None = Sel(v) if key == "kill" else None
        if key == "discard":
            self.kind = K_DISCARD_SELF
        elif key == "annihilate":
            self.kind = K_ANNIHILATE_SELF


class CvMod:
    """One CV modifier (002 §16): an operation, a whole number and an order."""

    __slots__ = ("op", "value", "order")

    def __init__(self, op: int, value: int, order: int) -> None:
        self.op = op
        self.value = value
        self.order = order

    @staticmethod
    def of(raw: Any) -> "CvMod":
        if isinstance(raw, int):
            return CvMod(OP_ADD if raw >= 0 else OP_SUB, abs(raw), ORD_NORMAL)
        return CvMod(OP_CODES[raw.get("op", "add")], int(raw["value"]), ORD_CODES[raw.get("order", "normal")])

    def text(self) -> str:
        sign = {OP_ADD: "+", OP_SUB: "-", OP_MUL: "x", OP_DIV: "/"}[self.op]
        order = {ORD_BEFORE: " before all", ORD_NORMAL: "", ORD_AFTER: " after all"}[self.order]
        return f"{sign}{self.value}{order}"


class Eff:
    """One compiled effect (§14.4)."""

    def __init__(self, raw: dict) -> None:
        main = next(k for k in raw if k in EFFECT_CODES)
        self.kind: int = EFFECT_CODES[main]
        v = raw[main]
        self.amount: int = 0
        self.amount_sel: Sel | None = None
        self.ref: int = -1
        self.ref_sel: Sel | None = None
        self.cvmod: CvMod | None = None
        self.tactics: int = 0
        self.rules: list[tuple[int, int]] = []
        self.sel: Sel | None = None
        self.free: bool = bool(raw.get("free", False))
        self.opponent: bool = raw.get("player", "you") == "opponent"
        self.random: bool = bool(raw.get("random", False))
        self.resources: tuple[int, int, int, int] = (0, 0, 0, 0)
        self.until: int = DUR_CODES[raw["until"]] if "until" in raw else -1
        who = raw.get("who")
        self.who: int = -1
        self.who_sel: Sel | None = None
        if who is not None:
            self.who, self.who_sel = _ref(who)
        if self.kind in (E_DRAW, E_GAIN_GOLD, E_TAKE_GOLD, E_DISCARD_HAND):
            if isinstance(v, dict):
                self.amount_sel = Sel(v["count"])
            else:
                self.amount = int(v)
        elif self.kind == E_MODIFY_CV:
            self.cvmod = CvMod.of(v)
        elif self.kind == E_GRANT_TACTIC:
            self.tactics = TAC_ALL if v == "all" else TACTIC_BITS[v]
        elif self.kind == E_RULE:
            self.rules = [(RULE_CODES[r], MODE_CODES[m]) for r, m in v.items()]
        elif self.kind in (E_KILL, E_DISCARD, E_ANNIHILATE, E_RETURN, E_MOVE, E_DISBAND):
            self.ref, self.ref_sel = _ref(v)
        elif self.kind in SEL_ZONES:   # recover, search, recruit: a selector over the zone they look in
            self.sel = Sel(v, default_zone=SEL_ZONES[self.kind])
        elif self.kind == E_ADD_RESOURCES:
            self.resources = _res4(v)
        if self.kind in (E_MODIFY_CV, E_GRANT_TACTIC, E_RULE) and self.who < 0:
            self.who = REF_SELF


SEL_ZONES: Final = {E_RECOVER: SZ_DISCARD, E_SEARCH: SZ_DECK, E_RECRUIT: SZ_HAND}


def _ref(v: Any) -> tuple[int, Sel | None]:
    if isinstance(v, dict):
        return REF_EACH, Sel(v["each"])
    return REF_CODES[v], None


class Ability:
    """A compiled non-static ability: play, enters, action, combat, raid or trigger (§14.2)."""

    def __init__(self, raw: dict, index: int) -> None:
        self.index: int = index
        self.timing: int = TIMING_CODES[raw["timing"]]
        self.text: str = raw.get("text") or ""
        when = raw.get("when") or {}
        self.event: int = EVENT_CODES[when["event"]] if when else -1
        card = when.get("card")
        self.when_self: bool = card == "self"
        self.when_sel: Sel | None = Sel(card) if isinstance(card, dict) else None
        self.when_as: int = {"attacker": ROLE_ATTACKER, "defender": ROLE_DEFENDER}.get(when.get("as", ""), 0)
        self.when_ctrl: int = {"you": CTRL_YOU, "opponent": CTRL_OPP}.get(when.get("controller", ""), -1)
        self.when_target: int = {"place": T_PLACE, "leader": T_LEADER}.get(when.get("target", ""), -1)
        self.cond: Cond | None = Cond(raw["condition"]) if raw.get("condition") else None
        self.costs: list[Cost] = [Cost(c) for c in raw.get("cost") or []]
        self.target: Sel | None = Sel(raw["target"]) if raw.get("target") else None
        self.effects: list[Eff] = [Eff(e) for e in raw.get("effects") or []]
        self.limit: int = int(raw.get("limit", 1))
        # what the ability is for, for the greedy player: does it hurt the other side, help ours, pay off
        kinds = {e.kind for e in self.effects}
        self.harmful: bool = bool(kinds & {E_KILL, E_DISCARD, E_ANNIHILATE, E_TAKE_GOLD, E_DISCARD_HAND}) and (
            self.target is None or self.target.controller == CTRL_OPP or any(
                e.ref == REF_THEIR or (e.ref_sel is not None and e.ref_sel.controller == CTRL_OPP)
                or e.opponent for e in self.effects))
        self.optional: bool = self.timing == TM_TRIGGER and bool(self.costs)


class Static:
    """A compiled static ability (§14.5): what it affects, and its modifiers, grants and rules."""

    def __init__(self, raw: dict, index: int) -> None:
        self.index: int = index
        self.text: str = raw.get("text") or ""
        aff = raw.get("affects", "self")
        self.affects: int = (AF_SEL if isinstance(aff, dict) else
                             AFFECTS_CODES.get(aff, AF_SELF) if isinstance(aff, str) else AF_SELF)
        self.sel: Sel | None = Sel(aff) if isinstance(aff, dict) else None
        mod = raw.get("modify") or {}
        self.cvmod: CvMod | None = CvMod.of(mod["cv"]) if "cv" in mod else None
        self.prov: tuple[int, int, int, int] = _res4(mod.get("provides"))
        self.cons: tuple[int, int, int, int] = _res4(mod.get("consumes"))
        self.icons: bool = "provides" in mod or "consumes" in mod
        self.cost: int = int(mod.get("cost", 0))
        self.has_cost: bool = "cost" in mod
        grant = raw.get("grant") or {}
        self.tactics: int = _tactic_bits(grant.get("tactics"))
        self.kw: int = 0
        for k in grant.get("keywords") or ():
            self.kw |= KW_CODES[k]
        self.rules: list[tuple[int, int]] = [(RULE_CODES[r], MODE_CODES[m]) for r, m in (raw.get("rule") or {}).items()]
        self.cond: Cond | None = Cond(raw["condition"]) if raw.get("condition") else None
        # whether it reads the roles cards take in a fight (a "taking part" selector or condition): only then can
        # a card's CV depend on the role a player weighs it in
        self.reads_roles: bool = (self.sel is not None and self.sel.taking_part >= 0) or \
            (self.cond is not None and _cond_reads_roles(self.cond))


def _cond_reads_roles(c: Cond) -> bool:
    if c.kind == C_TAKING_PART or (c.sel is not None and c.sel.taking_part >= 0):
        return True
    for s in c.subs:
        if _cond_reads_roles(s):
            return True
    return False


class CardDef:
    """One distinct card, compiled (immutable once built; shared by every game that uses the deck)."""

    def __init__(self, card: dict) -> None:
        if not isinstance(card, dict):
            raise DeckError("a card must be a JSON object")
        self.raw: dict = card
        self.code: str = str(card.get("code") or "")
        self.name: str = str(card.get("name") or "")
        if not self.code or not self.name:
            raise DeckError(f"a card without code or name: {card!r:.80}")
        subtitle = card.get("subtitle")
        self.title: str = f"{self.name}, {subtitle}" if subtitle else self.name
        ctype = card.get("type")
        if ctype not in TYPE_CODES:
            raise DeckError(f"{self.name} ({self.code}) has no realms card type (leader, place, warrior, intrigue)")
        self.type: int = TYPE_CODES[ctype]
        self.is_leader: bool = self.type == T_LEADER
        self.is_place: bool = self.type == T_PLACE
        self.is_warrior: bool = self.type == T_WARRIOR
        self.is_intrigue: bool = self.type == T_INTRIGUE
        self.type_bit: int = 1 << self.type
        self.affiliation: str | None = card.get("affiliation")
        self.unique: bool = bool(card.get("unique"))
        self.cost: int = int(card.get("cost") or 0)
        self.cv: int = int(card.get("cv") or 0)
        self.tactics: int = _tactic_bits(card.get("tactics"))
        self.prov: tuple[int, int, int, int] = _res4(card.get("provides"))
        self.cons: tuple[int, int, int, int] = _res4(card.get("consumes"))
        self.has_red: bool = any(self.cons)
        self.has_blue: bool = any(self.prov)
        # the same icons as native ints (the Resource Balancing reads them without unboxing tuples)
        self.p0: int = self.prov[0]
        self.p1: int = self.prov[1]
        self.p2: int = self.prov[2]
        self.p3: int = self.prov[3]
        self.c0: int = self.cons[0]
        self.c1: int = self.cons[1]
        self.c2: int = self.cons[2]
        self.c3: int = self.cons[3]
        self.net: int = sum(self.prov) - sum(self.cons)
        self.nc: int = int(card.get("neighbor_count") or (4 if self.is_leader else 0))
        wt = card.get("warrior_type")
        self.wtype: int = WARRIOR_TYPES.index(wt) if self.is_warrior and wt in WARRIOR_TYPES else -1
        if self.is_warrior and self.wtype < 0:
            raise DeckError(f"{self.name} ({self.code}) is a Warrior without a warrior type (002 §7.3)")
        self.wbit: int = 1 << self.wtype if self.wtype >= 0 else 0
        kws = card.get("keywords") or []
        self.ik: int = IK_PLAIN
        self.kw: int = 0
        for k in kws:
            if k in IK_CODES:
                self.ik = IK_CODES[k]
            elif k in KW_CODES:
                self.kw |= KW_CODES[k]
        self.slot: int = self.kw & (KW_WEAPON | KW_ARMOR)   # 002 §7.4: an Equipment's Weapon/Armor slot
        self.unlocks: int = 0
        for u in card.get("unlocks") or ():
            self.unlocks |= 1 << WARRIOR_TYPES.index(u)
        # ---- abilities --------------------------------------------------------------------------------
        abilities = card.get("abilities")
        problems = check_abilities(abilities)
        self.supported: bool = True
        self.unsupported_reason: str = ""
        if problems:
            self.supported = False
            self.unsupported_reason = "; ".join(problems[:3])
            abilities = None
        text_lines = [line for line in str(card.get("text") or "").split("\n") if line.strip()]
        if not abilities and any(not is_structural_line(line) for line in text_lines) and not problems:
            self.supported = False
            self.unsupported_reason = "no abilities for its text"
        self.statics: list[Static] = []
        self.abilities: list[Ability] = []
        for i, ab in enumerate(abilities or []):
            try:
                if ab["timing"] == "static":
                    self.statics.append(Static(ab, i))
                else:
                    self.abilities.append(Ability(ab, i))
            except (KeyError, ValueError, TypeError) as exc:   # pragma: no cover - check_abilities guards it
                raise DeckError(f"{self.name} ({self.code}) ability {i + 1}: {exc}") from exc
        self.play_ab: Ability | None = next((a for a in self.abilities if a.timing == TM_PLAY), None)
        self.enters: list[Ability] = [a for a in self.abilities if a.timing == TM_ENTERS]
        self.actions: list[Ability] = [a for a in self.abilities if a.timing == TM_ACTION]
        self.combat: list[Ability] = [a for a in self.abilities if a.timing == TM_COMBAT]
        self.raid: list[Ability] = [a for a in self.abilities if a.timing == TM_RAID]
        self.triggers: list[Ability] = [a for a in self.abilities if a.timing == TM_TRIGGER]
        # the card's modification-phase uses from hand (an Intrigue with a COMBAT: or RAID: line)
        self.hand_combat: bool = self.is_intrigue and bool(self.combat)
        self.hand_raid: bool = self.is_intrigue and bool(self.raid)
        # an Intrigue that stays in the Realm once played (R9) meets the Resource Balancing
        self.stays: bool = self.is_intrigue and self.ik in (IK_EQUIPMENT, IK_RITUAL, IK_PROPHECY, IK_HARMONY)
        self.in_play_abilities: bool = bool(self.statics or self.triggers or self.actions or self.combat or self.raid)
        self.gvalue: float = -1.0   # the greedy player's worth of the card (policies.card_value), once computed
        self.svalue: float = 0.0    # the worth of its statics (policies._static_value), once svalue_set
        self.svalue_set: bool = False

    def __repr__(self) -> str:
        return f"CardDef({self.code} {self.name})"


_STRUCTURAL_RE: Any = None


def is_structural_line(line: str) -> bool:
    """A text line the card's fields already say (action line, keyword lines, Unlocks, UNLIMITED, a Ritual's or
    Prophecy's own icons): the same rule as the set's tests (cards/games/realms/images.py), without Pillow."""
    global _STRUCTURAL_RE
    if _STRUCTURAL_RE is None:
        import re

        from cards.games.realms.abilities import INTRIGUE_KEYWORDS
        _STRUCTURAL_RE = re.compile(
            r"^(?:(?:" + "|".join(WARRIOR_TYPES) + r")\.(?: Loner\.)?(?: Worthy\.)?"
            r"|(?:" + "|".join(re.escape(k) for k in INTRIGUE_KEYWORDS) + r")(?: \u2014 (?:Weapon|Armor))?\."
            r"|Worthy\.|Loner\.|Unlocks (?:CAVALRY|VEHICLE)\.|UNLIMITED COPIES IN DECK\."
            r"|(?:Until your next turn|For the rest of the game), this (?:Ritual|Prophecy) provides [^.]*\.)$")
    return bool(_STRUCTURAL_RE.match(line.strip()))


class Deck:
    """A realms deck compiled for play: its Leaders and its regular cards (each CardDef once, with counts)."""

    def __init__(self, entries: list[tuple[CardDef, int]], *, name: str = "") -> None:
        self.name: str = name
        self.entries: list[tuple[CardDef, int]] = entries
        self.leaders: list[CardDef] = [d for d, n in entries if d.is_leader for _ in range(n)]
        self.cards: list[CardDef] = [d for d, n in entries if not d.is_leader for _ in range(n)]
        self.unsupported_cards: list[str] = sorted({d.name for d, _ in entries if not d.supported})
        self.legality: dict | None = None   # set by deck_from_decklist: the verdict JSON (CONTRACTS §3)

    @property
    def size(self) -> int:
        return len(self.cards) + len(self.leaders)


_DEFS: dict[str, CardDef] = {}


def card_def(card: dict) -> CardDef:
    """The CardDef of a card dict, shared across decks when the dict is the same object content (by code)."""
    key = card.get("code", "") if isinstance(card, dict) else ""
    d = _DEFS.get(key) if key else None
    if d is not None and d.raw is card:
        return d
    d = CardDef(card)
    if key:
        if len(_DEFS) > 5000:
            _DEFS.clear()
        _DEFS[key] = d
    return d


def build_deck(entries, *, name: str = "") -> Deck:
    """A Deck from (card dict, count) pairs. Raises DeckError when no game can be played with it.

    >>> leader = {"code": "l", "name": "Queen", "type": "leader", "cv": 8, "tactics": ["front"],
    ...           "provides": {"gold": 2}, "affiliation": "sunward"}
    >>> farm = {"code": "f", "name": "Farmstead", "type": "place", "cv": 3, "tactics": ["front"],
    ...         "neighbor_count": 3, "provides": {"food": 2}}
    >>> deck = build_deck([(leader, 1), (farm, 59)])
    >>> len(deck.leaders), len(deck.cards), deck.unsupported_cards
    (1, 59, [])
    """
    out: list[tuple[CardDef, int]] = []
    for i, entry in enumerate(entries):
        try:
            card, count = entry
        except (TypeError, ValueError):
            raise DeckError(f"deck entry {i + 1} must be a (card, count) pair") from None
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise DeckError(f"deck entry {i + 1}: the count must be a whole number of at least 0, not {count!r}")
        if count:
            out.append((card_def(card), count))
    deck = Deck(out, name=name)
    if not deck.leaders:
        raise DeckError("the deck has no Leader: a realms deck needs 1 to 3 Leaders, one of which is revealed at "
                        "setup (002 §2, §8)")
    if not deck.cards:
        raise DeckError("the deck has no regular cards (Places, Warriors, Intrigues) to draw (002 §2)")
    return deck


# R26: the goldfish opponent's Leader — a stand-in with the set's typical Leader CV and every Tactic, no ability,
# no icons (the goldfish opponent has a Leader and nothing else, so raids on it always find a Tactic).
GOLDFISH_LEADER: Final = CardDef({"code": "goldfish-leader", "name": "Goldfish Leader", "type": "leader", "cv": 7,
                           "tactics": ["left", "front", "right"], "affiliation": None, "text": ""})
