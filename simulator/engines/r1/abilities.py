"""The ability format of docs/engine-abilities.md: compiling and checking a card's `abilities` list.

Compilation happens once per distinct card (when a deck is built). Anything the interpreter does not know (a
timing, event, effect, cost, condition or selector key) makes the card *unsupported*: it still plays with its
keywords and stats, and `Deck.unsupported_cards` names it. The effects are the primitives of effects.py; the game's
layers (resolution.py) resolve them.
"""
from __future__ import annotations

from typing import Any

from cards.games.r1 import facts

TIMINGS = frozenset({"static", "action", "response", "disrupt", "halt", "forced", "enters", "embark", "attach",
                     "replace"})
# Events a replacement ("instead", §7.4) may swap: the leaving-play event, the one the rules let cards replace.
REPLACEABLE_EVENTS = frozenset({"would_leave_play"})
EVENTS = frozenset({
    "enters_play", "would_leave_play", "leaves_play", "struggle_declared", "defenders_declared",
    "struggle_resolving", "struggle_won", "struggle_lost", "phase_start", "phase_end", "card_played",
    "influence_gained", "authority_claimed", "quest_revealed", "duplicate_save",
})
WHEN_FILTERS = frozenset({"event", "card", "how", "type", "side", "participating", "unopposed", "phase", "player"})
PHASES = facts.PHASES   # §5
_PHASE_OK = (None, "struggle") + PHASES   # where an ability's `phase` may point
SELECTOR_KEYS = frozenset({
    "zone", "controller", "type", "attribute", "faction", "name", "unique", "keyword", "icon",
    "power_lt", "power_lte", "power_gt", "power_gte", "cost_lte", "cost_gte", "ready", "exhausted",
    "participating", "not_self", "blanked", "has_emblem", "has_influence", "is_token", "count", "up_to",
    "attacking", "defending",
})
ZONES = frozenset({"field", "hand", "deck", "discard", "dead", "secret"})
# The effects an ability may have are the primitives of effects.py (`EFFECTS`), one class each.
DURATIONS = frozenset({"phase", "struggle", "round"})
COST_KEYS = frozenset({"exhaust", "pay", "sacrifice", "discard_from_hand", "remove_influence", "return_to_hand"})
CONDITION_KEYS = frozenset({
    "controls", "opponent_controls", "min", "influence_lte", "influence_gte", "behind_on_influence",
    "hand_gte", "hand_lte", "phase", "in_struggle", "participating", "holds_authority", "all", "any", "not",
})
MODIFY_KEYS = frozenset({"power", "cost", "authority", "struggle_total", "levy", "wealth", "spoils", "momentum",
                         "setup_budget", "type"})
RULES = frozenset({
    "cannot_be_killed", "cannot_attack", "cannot_defend", "cannot_be_exhausted_by_opponent", "does_not_ready",
    "immune_to_deeds", "immune_to_opponent_effects", "cannot_be_canceled",
})
ABILITY_KEYS = frozenset({
    "timing", "when", "phase", "condition", "limit", "limit_per", "max", "cost", "target", "effects", "x",
    "text", "affects", "modify", "grant", "rule", "cannot_be_canceled",
})
# The escape hatch: Python functions registered by name, called as fn(game, ctx) -> bool (happened in full).
SCRIPTS: dict = {}


def register_script(name: str):
    """Decorator: `@register_script("name")` makes `{"script": "name"}` run the function."""
    def deco(fn):
        SCRIPTS[name] = fn
        return fn
    return deco


class Ability:
    """One compiled ability of a card. `raw` keeps the dict; the hot fields are attributes."""

    __slots__ = ("index", "timing", "when", "event", "phase", "condition", "limit", "limit_per", "max", "cost",
                 "target", "effects", "x", "affects", "modify", "grant", "rule", "raw", "harmful", "deed_only",
                 "grant_bits", "hint", "dyn_affects", "smatch", "sacrifices")

    def __init__(self, index: int, raw: dict):
        self.index = index
        self.raw = raw
        self.timing = raw.get("timing")
        self.when = raw.get("when") or None
        self.event = self.when.get("event") if isinstance(self.when, dict) else None
        self.phase = raw.get("phase")
        self.condition = raw.get("condition")
        self.limit = raw.get("limit")
        self.limit_per = raw.get("limit_per", "round")
        self.max = raw.get("max")
        self.cost = tuple(raw.get("cost") or ())
        self.target = raw.get("target")
        self.effects = tuple(raw.get("effects") or ())
        self.x = raw.get("x")
        self.affects = raw.get("affects")
        self.modify = raw.get("modify") or {}
        self.grant = tuple(raw.get("grant") or ())
        self.rule = frozenset(raw.get("rule") or ())
        self.harmful = False   # an effect harms the cards it acts on (effects.is_harmful; compile_abilities)
        self.deed_only = False
        self.grant_bits: tuple = ()   # (keyword bit, parameter) of each keyword it grants, set by compile_abilities
        self.hint: str | None = None   # policies.ability_hint caches its answer here
        self.dyn_affects: Any = None   # characteristics.py: the part of `affects` that can change during a game, compiled
        self.smatch: dict | None = None        # characteristics.py: CardDef -> whether `affects` matches its printed characteristics
        self.sacrifices = any(isinstance(c, dict) and "sacrifice" in c for c in self.cost)

    def __repr__(self) -> str:
        return f"Ability({self.timing}, {self.event or self.phase or ''})"


def _check_amount(v, where: str, problems: list[str]) -> None:
    if isinstance(v, bool):
        problems.append(f"{where}: amount must be a number")
    elif isinstance(v, int) or v == "X":
        return
    elif isinstance(v, dict) and set(v) == {"count"}:
        _check_selector(v["count"], where, problems)
    else:
        problems.append(f"{where}: unknown amount {v!r}")


def _check_selector(sel, where: str, problems: list[str]) -> None:
    if sel in ("self", "host", "target", "event_card", "you", "opponent"):
        return
    if not isinstance(sel, dict):
        problems.append(f"{where}: unknown selector {sel!r}")
        return
    if "each" in sel and len(sel) == 1:
        _check_selector(sel["each"], where, problems)
        return
    unknown = set(sel) - SELECTOR_KEYS
    if unknown:
        problems.append(f"{where}: unknown selector key(s) {', '.join(sorted(unknown))}")
    if sel.get("zone", "field") not in ZONES:
        problems.append(f"{where}: unknown zone {sel.get('zone')!r}")


def _check_condition(cond, where: str, problems: list[str]) -> None:
    if cond is None:
        return
    if not isinstance(cond, dict):
        problems.append(f"{where}: a condition must be an object")
        return
    unknown = set(cond) - CONDITION_KEYS
    if unknown:
        problems.append(f"{where}: unknown condition(s) {', '.join(sorted(unknown))}")
    for k in ("controls", "opponent_controls"):
        if k in cond:
            _check_selector(cond[k], where, problems)
    for k in ("all", "any"):
        for c in cond.get(k) or ():
            _check_condition(c, where, problems)
    if "not" in cond:
        _check_condition(cond["not"], where, problems)
    if "phase" in cond and cond["phase"] not in PHASES:
        problems.append(f"{where}: unknown phase {cond['phase']!r}")


def _check_duration(effect: dict, where: str, problems: list[str]) -> None:
    """A lasting effect's `until` (default: the end of the phase, §8.9)."""
    if effect.get("until", "phase") not in DURATIONS:
        problems.append(f"{where}: unknown duration {effect.get('until')!r}")


def _check_cost(costs, where: str, problems: list[str]) -> None:
    for c in costs or ():
        if not isinstance(c, dict) or len(c) != 1 or next(iter(c)) not in COST_KEYS:
            problems.append(f"{where}: unknown cost {c!r}")
            continue
        k, v = next(iter(c.items()))
        if k in ("pay", "discard_from_hand", "remove_influence"):
            _check_amount(v, f"{where} cost", problems)
        else:
            _check_selector(v, f"{where} cost", problems)


def check_ability(raw, where: str = "ability") -> list[str]:
    """Every problem that keeps the interpreter from running this ability (empty list: it runs)."""
    problems: list[str] = []
    if not isinstance(raw, dict):
        return [f"{where}: an ability must be an object"]
    unknown = set(raw) - ABILITY_KEYS
    if unknown:
        problems.append(f"{where}: unknown key(s) {', '.join(sorted(unknown))}")
    timing = raw.get("timing")
    if timing not in TIMINGS:
        problems.append(f"{where}: unknown timing {timing!r}")
        return problems
    when = raw.get("when")
    if timing == "replace" and (not isinstance(when, dict) or when.get("event") not in REPLACEABLE_EVENTS):
        problems.append(f"{where}: a replacement (\"instead\", §7.4) needs a `when` event among "
                        f"{', '.join(sorted(REPLACEABLE_EVENTS))}")
    if raw.get("cannot_be_canceled") not in (None, True, False):
        problems.append(f"{where}: cannot_be_canceled is true or false")
    if timing in ("response", "forced", "halt", "disrupt", "replace"):
        if not isinstance(when, dict) or when.get("event") not in EVENTS:
            problems.append(f"{where}: {timing} needs a known `when` event")
        else:
            bad = set(when) - WHEN_FILTERS
            if bad:
                problems.append(f"{where}: unknown event filter(s) {', '.join(sorted(bad))}")
            if isinstance(when.get("card"), dict):
                _check_selector(when["card"], where, problems)
    if raw.get("phase") not in _PHASE_OK:
        problems.append(f"{where}: unknown phase {raw.get('phase')!r}")
    if raw.get("limit_per", "round") not in ("phase", "round", "game"):
        problems.append(f"{where}: unknown limit_per {raw.get('limit_per')!r}")
    _check_condition(raw.get("condition"), where, problems)
    _check_cost(raw.get("cost"), where, problems)
    if raw.get("target") is not None:
        _check_selector(raw["target"], f"{where} target", problems)
    if raw.get("x") is not None and raw["x"] != {"max": "wealth"}:
        problems.append(f"{where}: unknown x {raw['x']!r}")
    if timing == "static":
        if "affects" in raw:
            _check_selector(raw["affects"], f"{where} affects", problems)
        modify = raw.get("modify") or {}
        if not isinstance(modify, dict) or set(modify) - MODIFY_KEYS:
            problems.append(f"{where}: unknown modifier(s) {sorted(set(modify) - MODIFY_KEYS)}")
        from .cards import parse_keyword
        for g in raw.get("grant") or ():
            if not parse_keyword(g)[0]:
                problems.append(f"{where}: cannot grant {g!r}")
        bad_rules = set(raw.get("rule") or ()) - RULES
        if bad_rules:
            problems.append(f"{where}: unknown rule(s) {', '.join(sorted(bad_rules))}")
    elif timing != "attach":
        from .effects import check_effects   # here: effects.py needs cards.py, which imports this module
        check_effects(raw.get("effects") or [], where, problems)
    return problems


def compile_abilities(raw_list, card) -> tuple[list[Ability], list[str]]:
    """Compile a card's `abilities` (None or a list). Returns the abilities that run and the problems found."""
    from .effects import is_harmful   # here: effects.py needs cards.py, which imports this module
    if raw_list is None:
        return [], []
    if not isinstance(raw_list, list):
        return [], ["abilities must be a list"]
    out, problems = [], []
    for i, raw in enumerate(raw_list):
        p = check_ability(raw, f"ability {i + 1}")
        if p:
            problems.extend(p)
            continue
        ab = Ability(i, raw)
        ab.harmful = is_harmful(ab.effects)
        if ab.grant:
            from .cards import parse_keyword
            ab.grant_bits = tuple(parse_keyword(g) for g in ab.grant)
        out.append(ab)
    return out, problems
