"""The realms ability format: the vocabulary of `abilities` in realms card data, and its checker.

A card's rules text is executed by the realms engine from its `abilities` list. This module is the contract
between the card data (`data/realms.json`) and the engine (`simulator/engines/realms/`): every timing, event,
effect, reference, selector key, condition, cost, modifier and rule the engine must implement is named here, and
`check_abilities(abilities)` lists every place a card's abilities step outside it (so a card the engine cannot
run is refused at load time, not discovered mid-game). The meaning of each word is in docs/games/realms.md,
"The ability format".

    >>> check_abilities([{"timing": "static", "affects": "host", "modify": {"cv": 2}}])
    []
    >>> check_abilities([{"timing": "play", "effects": [{"draw": "two"}]}])
    ['abilities[0].effects[0].draw: must be a whole number or {"count": SELECTOR}, not \\'two\\'']
"""
from __future__ import annotations

from typing import Any

TACTICS = ("left", "front", "right")
RESOURCES = ("gold", "food", "timber", "iron")
CARD_TYPES = ("leader", "place", "warrior", "intrigue")
WARRIOR_TYPES = ("INFANTRY", "CAVALRY", "VEHICLE", "PATRIARCH", "PROPHET", "SORCERER")
INTRIGUE_KEYWORDS = ("EQUIPMENT", "RITUAL", "PROPHECY", "DARK HARMONY", "ART SPELL")
KEYWORDS = (*INTRIGUE_KEYWORDS, "Weapon", "Armor", "Loner", "Worthy")

# When an ability is used (docs/games/realms.md, "Timings").
TIMINGS = ("static", "play", "enters", "action", "combat", "raid", "trigger")
# Events a `trigger` ability waits for, with the filters each one takes.
EVENTS: dict[str, tuple[str, ...]] = {
    "turn_start": (),                      # the start of your turn, after step 0 (002 §9)
    "balancing": (),                       # the start of your Resource Balancing (002 §12)
    "recruited": ("card",),                # a warrior entered play (002 §10)
    "built": ("card",),                    # a Place was built (002 §10)
    "attack_won": ("card", "as"),          # an attack was won by the side `card` was on (002 §13)
    "dies": ("card",),                     # a warrior died (002 §13, or an effect)
    "place_destroyed": ("controller",),    # a raid destroyed a Place (002 §14)
    "raid_won": ("target",),               # you won a raid (002 §14)
}
DURATIONS = ("attack", "raid", "turn", "next_turn")
REFERENCES = ("self", "host", "leader", "target", "event_card", "our_side", "their_side")
ZONES = ("play", "settlement", "borderlands", "strike_force", "hand", "discard", "deck")
CONTROLLERS = ("you", "opponent", "any")
ROLES = ("attacker", "defender", "raider", "raided")
CV_OPS = ("add", "subtract", "multiply", "divide")
CV_ORDERS = ("before_all", "normal", "after_all")  # 002 §16: the CV modifier order
RULES = ("attack", "be_attacked", "raid", "be_raided", "block", "be_blocked", "join_group", "be_moved",
         "be_killed")
RULE_MODES = ("cannot", "can", "never", "always")  # 002 §16: NEVER > ALWAYS > can > cannot

_SELECTOR_KEYS = ("type", "zone", "controller", "warrior_type", "affiliation", "keyword", "tactic", "name",
                  "cv_lte", "cv_gte", "cost_lte", "not_self", "unique", "provides", "consumes", "supplied",
                  "in_group", "taking_part", "equipped", "count", "up_to")
_CONDITION_KEYS = ("controls", "opponent_controls", "min", "max", "reserve_gte", "vp_gte", "vp_lte", "behind",
                   "hand_lte", "hand_gte", "taking_part", "tactic", "zone", "all", "any", "not")
_COST_KEYS = ("pay_gold", "discard_from_hand", "discard", "annihilate", "kill")
_STATIC_KEYS = ("timing", "affects", "modify", "grant", "rule", "condition", "text")
_ACTIVE_KEYS = ("timing", "when", "condition", "cost", "target", "effects", "limit", "text")
_MODIFY_KEYS = ("cv", "provides", "consumes", "cost")

# Effects: the main key's kind, and the other keys each one allows.
_EFFECTS: dict[str, tuple[str, tuple[str, ...]]] = {
    "draw": ("amount", ()),
    "gain_gold": ("amount", ()),
    "take_gold": ("amount", ()),
    "modify_cv": ("cvmod", ("who", "until")),
    "grant_tactic": ("tactic", ("who", "until")),
    "rule": ("rules", ("who", "until")),
    "kill": ("ref", ()),
    "discard": ("ref", ()),
    "annihilate": ("ref", ()),
    "return_to_hand": ("ref", ()),
    "move": ("ref", ()),
    "disband": ("ref", ()),
    "recover": ("selector", ()),
    "search": ("selector", ()),
    "recruit": ("selector", ("free",)),
    "discard_from_hand": ("amount", ("player", "random")),
    "add_resources": ("resources", ()),
}
EFFECTS = tuple(_EFFECTS)
COSTS = _COST_KEYS


def _refers_to_target(value) -> bool:
    """True when an effect names the reference "target" anywhere inside it."""
    if value == "target":
        return True
    if isinstance(value, dict):
        return any(_refers_to_target(v) for v in value.values())
    if isinstance(value, list):
        return any(_refers_to_target(v) for v in value)
    return False


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class _Checker:
    def __init__(self) -> None:
        self.errors: list[str] = []

    def err(self, path: str, message: str) -> None:
        self.errors.append(f"{path}: {message}")

    # ---- small values ---------------------------------------------------------------------------------
    def amount(self, path: str, value) -> None:
        if _is_int(value) and value >= 0:
            return
        if isinstance(value, dict) and set(value) == {"count"}:
            self.selector(f"{path}.count", value["count"])
            return
        self.err(path, f'must be a whole number or {{"count": SELECTOR}}, not {value!r}')

    def nonneg(self, path: str, value) -> None:
        if not (_is_int(value) and value >= 0):
            self.err(path, f"must be a whole number of at least 0, not {value!r}")

    def one_of(self, path: str, value, allowed, what: str) -> None:
        if value not in allowed:
            self.err(path, f"unknown {what} {value!r}; {what}s are {', '.join(map(str, allowed))}")

    def resources(self, path: str, value, *, signed: bool = False) -> None:
        if not isinstance(value, dict) or not value:
            self.err(path, f"must be an object of resources ({', '.join(RESOURCES)}) to numbers")
            return
        for res, n in value.items():
            if res not in RESOURCES:
                self.err(path, f"unknown resource {res!r}; resources are {', '.join(RESOURCES)}")
            elif not _is_int(n) or (not signed and n < 0):
                self.err(f"{path}.{res}", f"must be a whole number{'' if signed else ' of at least 0'}, not {n!r}")

    def cvmod(self, path: str, value) -> None:
        if _is_int(value):
            return  # a plain number adds (or, negative, subtracts) in the normal order (002 §16)
        if not isinstance(value, dict):
            self.err(path, f'must be a number or {{"op": ..., "value": n, "order": ...}}, not {value!r}')
            return
        for key in value:
            if key not in ("op", "value", "order"):
                self.err(path, f"unknown key {key!r}; a CV modifier has op, value and order")
        self.one_of(f"{path}.op", value.get("op", "add"), CV_OPS, "op")
        self.one_of(f"{path}.order", value.get("order", "normal"), CV_ORDERS, "order")
        n = value.get("value")
        if not _is_int(n) or n < 0:
            self.err(f"{path}.value", f"must be a whole number of at least 0, not {n!r}")
        elif value.get("op") in ("multiply", "divide") and n == 0:
            self.err(f"{path}.value", "a multiplier or divisor must be at least 1")

    def rules(self, path: str, value) -> None:
        if not isinstance(value, dict) or not value:
            self.err(path, f"must be an object of rules ({', '.join(RULES)}) to modes ({', '.join(RULE_MODES)})")
            return
        for name, mode in value.items():
            self.one_of(path, name, RULES, "rule")
            self.one_of(f"{path}.{name}", mode, RULE_MODES, "mode")

    # ---- references, selectors, conditions ------------------------------------------------------------
    def ref(self, path: str, value) -> None:
        if isinstance(value, str):
            self.one_of(path, value, REFERENCES, "reference")
        elif isinstance(value, dict) and set(value) == {"each"}:
            self.selector(f"{path}.each", value["each"])
        else:
            self.err(path, f'must be a reference ({", ".join(REFERENCES)}) or {{"each": SELECTOR}}, not {value!r}')

    def selector(self, path: str, value) -> None:
        if not isinstance(value, dict):
            self.err(path, f"a selector must be an object, not {value!r}")
            return
        for key, v in value.items():
            p = f"{path}.{key}"
            if key not in _SELECTOR_KEYS:
                self.err(path, f"unknown selector key {key!r}; keys are {', '.join(_SELECTOR_KEYS)}")
            elif key == "type":
                for t in v if isinstance(v, list) else [v]:
                    self.one_of(p, t, CARD_TYPES, "type")
            elif key == "zone":
                self.one_of(p, v, ZONES, "zone")
            elif key == "controller":
                self.one_of(p, v, CONTROLLERS, "controller")
            elif key == "warrior_type":
                for t in v if isinstance(v, list) else [v]:
                    self.one_of(p, t, WARRIOR_TYPES, "warrior type")
            elif key == "keyword":
                self.one_of(p, v, KEYWORDS, "keyword")
            elif key in ("tactic",):
                self.one_of(p, v, TACTICS, "tactic")
            elif key in ("provides", "consumes"):
                self.one_of(p, v, RESOURCES, "resource")
            elif key == "taking_part":
                if v is not True:
                    self.one_of(p, v, ROLES, "role")
            elif key in ("cv_lte", "cv_gte", "cost_lte"):
                self.nonneg(p, v)
            elif key == "count":
                if not (_is_int(v) and v >= 1):
                    self.err(p, f"must be a whole number of at least 1, not {v!r}")
            elif key in ("not_self", "unique", "supplied", "in_group", "equipped", "up_to"):
                if not isinstance(v, bool):
                    self.err(p, "must be true or false")
            elif key in ("name", "affiliation"):
                if not (isinstance(v, str) and v) and not (key == "affiliation" and v is None):
                    self.err(p, "must be a non-empty string")

    def condition(self, path: str, value) -> None:
        if not isinstance(value, dict) or not value:
            self.err(path, f"a condition must be a non-empty object, not {value!r}")
            return
        for key, v in value.items():
            p = f"{path}.{key}"
            if key not in _CONDITION_KEYS:
                self.err(path, f"unknown condition {key!r}; conditions are {', '.join(_CONDITION_KEYS)}")
            elif key in ("controls", "opponent_controls"):
                self.selector(p, v)
            elif key in ("min", "max", "reserve_gte", "vp_gte", "vp_lte", "hand_lte", "hand_gte"):
                self.nonneg(p, v)
            elif key == "behind":
                if v is not True:
                    self.err(p, "must be true")
            elif key == "taking_part":
                if v is not True:
                    self.one_of(p, v, ROLES, "role")
            elif key == "tactic":
                self.one_of(p, v, TACTICS, "tactic")
            elif key == "zone":
                self.one_of(p, v, ("borderlands", "strike_force"), "zone")
            elif key in ("all", "any"):
                if not isinstance(v, list) or not v:
                    self.err(p, "must be a non-empty list of conditions")
                else:
                    for i, c in enumerate(v):
                        self.condition(f"{p}[{i}]", c)
            elif key == "not":
                self.condition(p, v)
        if ("min" in value or "max" in value) and not ({"controls", "opponent_controls"} & set(value)):
            self.err(path, "min and max go with controls or opponent_controls")

    def cost(self, path: str, value) -> None:
        if not isinstance(value, dict) or len(value) != 1:
            self.err(path, f"a cost is an object with one key ({', '.join(_COST_KEYS)}), not {value!r}")
            return
        (key, v), = value.items()
        if key not in _COST_KEYS:
            self.err(path, f"unknown cost {key!r}; costs are {', '.join(_COST_KEYS)}")
        elif key in ("pay_gold", "discard_from_hand"):
            if not (_is_int(v) and v >= 1):
                self.err(f"{path}.{key}", f"must be a whole number of at least 1, not {v!r}")
        elif key in ("discard", "annihilate"):
            if v != "self":
                self.err(f"{path}.{key}", 'must be "self"')
        elif key == "kill":
            self.selector(f"{path}.kill", v)

    # ---- effects ---------------------------------------------------------------------------------------
    def effect(self, path: str, value) -> None:
        if not isinstance(value, dict) or not value:
            self.err(path, f"an effect must be an object, not {value!r}")
            return
        mains = [k for k in value if k in _EFFECTS]
        if len(mains) != 1:
            unknown = [k for k in value if k not in _EFFECTS and k not in ("who", "until", "free", "player",
                                                                              "random")]
            if unknown:
                self.err(path, f"unknown effect {unknown[0]!r}; effects are {', '.join(_EFFECTS)}")
            else:
                self.err(path, f"an effect has exactly one of {', '.join(_EFFECTS)}")
            return
        main = mains[0]
        kind, extras = _EFFECTS[main]
        for key in value:
            if key != main and key not in extras:
                self.err(path, f"{main} takes no {key!r}" + (f" (only {', '.join(extras)})" if extras else ""))
        v = value[main]
        p = f"{path}.{main}"
        if kind == "amount":
            self.amount(p, v)
        elif kind == "cvmod":
            self.cvmod(p, v)
        elif kind == "tactic":
            if v != "all":
                self.one_of(p, v, TACTICS, "tactic")
        elif kind == "rules":
            self.rules(p, v)
        elif kind == "ref":
            self.ref(p, v)
        elif kind == "selector":
            self.selector(p, v)
        elif kind == "resources":
            self.resources(p, v)
        if "who" in value:
            self.ref(f"{path}.who", value["who"])
        if "until" in value:
            self.one_of(f"{path}.until", value["until"], DURATIONS, "duration")
        if "player" in value:
            self.one_of(f"{path}.player", value["player"], ("you", "opponent"), "player")
        for flag in ("random", "free"):
            if flag in value and not isinstance(value[flag], bool):
                self.err(f"{path}.{flag}", "must be true or false")

    # ---- one ability -----------------------------------------------------------------------------------
    def ability(self, path: str, ab) -> None:
        if not isinstance(ab, dict):
            self.err(path, f"an ability must be an object, not {ab!r}")
            return
        timing = ab.get("timing")
        if timing not in TIMINGS:
            self.err(f"{path}.timing", f"required; one of {', '.join(TIMINGS)}, not {timing!r}")
            return
        if "text" in ab and not isinstance(ab["text"], str):
            self.err(f"{path}.text", "must be a string")
        if "condition" in ab:
            self.condition(f"{path}.condition", ab["condition"])
        if timing == "static":
            for key in ab:
                if key not in _STATIC_KEYS:
                    self.err(path, f"a static ability takes no {key!r} (keys: {', '.join(_STATIC_KEYS)})")
            if not ({"modify", "grant", "rule"} & set(ab)):
                self.err(path, "a static ability needs modify, grant or rule")
            affects = ab.get("affects", "self")
            if affects in ("you", "opponent"):
                pass
            elif isinstance(affects, dict) and "each" not in affects:
                self.selector(f"{path}.affects", affects)
            else:
                self.ref(f"{path}.affects", affects)
            if "modify" in ab:
                mod = ab["modify"]
                if not isinstance(mod, dict) or not mod:
                    self.err(f"{path}.modify", f"must be an object with {', '.join(_MODIFY_KEYS)}")
                else:
                    for key, v in mod.items():
                        p = f"{path}.modify.{key}"
                        if key not in _MODIFY_KEYS:
                            self.err(f"{path}.modify", f"unknown modifier {key!r}; modifiers are "
                                                       f"{', '.join(_MODIFY_KEYS)}")
                        elif key == "cv":
                            self.cvmod(p, v)
                        elif key in ("provides", "consumes"):
                            self.resources(p, v, signed=True)
                        elif key == "cost" and not _is_int(v):
                            self.err(p, f"must be a whole number (negative lowers the cost), not {v!r}")
            if "grant" in ab:
                grant = ab["grant"]
                if not isinstance(grant, dict) or not grant or set(grant) - {"tactics", "keywords"}:
                    self.err(f"{path}.grant", "must be an object with tactics and/or keywords")
                else:
                    for t in grant.get("tactics", []):
                        self.one_of(f"{path}.grant.tactics", t, TACTICS, "tactic")
                    for k in grant.get("keywords", []):
                        self.one_of(f"{path}.grant.keywords", k, ("Loner", "Worthy"), "keyword")
            if "rule" in ab:
                self.rules(f"{path}.rule", ab["rule"])
            return
        for key in ab:
            if key not in _ACTIVE_KEYS:
                self.err(path, f"a {timing} ability takes no {key!r} (keys: {', '.join(_ACTIVE_KEYS)})")
        if timing == "trigger":
            when = ab.get("when")
            if not isinstance(when, dict) or when.get("event") not in EVENTS:
                self.err(f"{path}.when", f"a trigger needs when: {{\"event\": ...}}, events are {', '.join(EVENTS)}")
            else:
                allowed = EVENTS[when["event"]]
                for key, v in when.items():
                    if key == "event":
                        continue
                    p = f"{path}.when.{key}"
                    if key not in allowed:
                        self.err(f"{path}.when", f"{when['event']} takes no filter {key!r}"
                                                 + (f" (only {', '.join(allowed)})" if allowed else ""))
                    elif key == "card":
                        if v != "self":
                            self.selector(p, v)
                    elif key == "as":
                        self.one_of(p, v, ("attacker", "defender"), "side")
                    elif key == "controller":
                        self.one_of(p, v, ("you", "opponent"), "controller")
                    elif key == "target":
                        self.one_of(p, v, ("place", "leader"), "raid target")
        elif "when" in ab:
            self.err(f"{path}.when", "only trigger abilities have when")
        if "limit" in ab and not (_is_int(ab["limit"]) and ab["limit"] >= 1):
            self.err(f"{path}.limit", "must be a whole number of uses per turn, at least 1")
        costs = ab.get("cost", [])
        if not isinstance(costs, list):
            self.err(f"{path}.cost", "must be a list of costs")
        else:
            for i, c in enumerate(costs):
                self.cost(f"{path}.cost[{i}]", c)
        if "target" in ab:
            self.selector(f"{path}.target", ab["target"])
        effects = ab.get("effects")
        if not isinstance(effects, list) or not effects:
            self.err(f"{path}.effects", "required; a non-empty list of effects")
        else:
            for i, e in enumerate(effects):
                self.effect(f"{path}.effects[{i}]", e)
                if _refers_to_target(e) and "target" not in ab:
                    self.err(f"{path}.effects[{i}]", 'refers to "target" but the ability has no target selector')


def check_abilities(abilities: Any) -> list[str]:
    """Every place where `abilities` (a card's list) leaves the format, as 'abilities[i].path: message'."""
    if abilities is None:
        return []
    if not isinstance(abilities, list):
        return ["abilities: must be a list of ability objects, or null"]
    checker = _Checker()
    for i, ab in enumerate(abilities):
        checker.ability(f"abilities[{i}]", ab)
    return checker.errors


def ability_timings(abilities: list | None) -> set[str]:
    return {a.get("timing") for a in abilities or [] if isinstance(a, dict)}
