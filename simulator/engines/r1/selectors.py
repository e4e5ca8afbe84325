"""Selectors (docs/engine-abilities.md, "Selectors") compiled to tuples of small checks.

A selector names cards by zone, controller and characteristics. `_compile_selector` turns the characteristic
part into (op, value) pairs, cached by the selector's id, which `Characteristics._ops_match` answers inline; `_static_part_matches`
answers the part that depends only on the printed card, which the Power statics of §8.1 judge once per card
(Characteristics._power_candidates).
"""
from __future__ import annotations

from typing import Final

from .cards import ICON_BITS, KEYWORD_BITS, parse_keyword
from .state import FIELD, ZONE_BY_NAME


# Selectors compiled to tuples of small checks, keyed by id(); the entry keeps the selector alive, so an id is
# never reused while cached. Bounded, because effects may build selectors on the fly.
_COMPILED: dict[int, tuple] = {}


_STATIC_KEYS = frozenset({"type", "attribute", "faction", "name", "unique", "icon", "is_token", "cost_lte",
                          "cost_gte", "not_self"})


def _static_part_matches(sel: dict, d, iid: int, src: int) -> bool:
    """The selector's checks that depend only on the printed card (and which card is the source)."""
    for k, v in sel.items():
        if k not in _STATIC_KEYS:
            continue
        if k == "type":
            if (d.type not in v) if isinstance(v, list) else d.type != v:
                return False
        elif k == "attribute":
            if (not any(a in d.attributes for a in v)) if isinstance(v, list) else v not in d.attributes:
                return False
        elif k == "faction":
            if d.faction != v:
                return False
        elif k == "name":
            if d.name != v:
                return False
        elif k == "unique":
            if d.unique != bool(v):
                return False
        elif k == "icon":
            if not d.icons & ICON_BITS.get(v, 0):
                return False
        elif k == "is_token":
            if d.is_token != bool(v):
                return False
        elif k == "cost_lte":
            if not 0 <= d.cost <= v:
                return False
        elif k == "cost_gte":
            if d.cost < v:
                return False
        elif k == "not_self":
            if v and iid == src:
                return False
    return True


def _dynamic_part(ab) -> tuple:
    """(zone, controller, checks) of a static's `affects` selector without its printed-card checks, which
    `_power_candidates` has already applied. Cached on the ability."""
    sel = ab.affects
    dyn = {k: v for k, v in sel.items() if k not in _STATIC_KEYS}
    ab.dyn_affects = (ZONE_BY_NAME.get(sel.get("zone", "field"), FIELD), sel.get("controller", "you"),
                      _compile_selector_uncached(dyn))
    return ab.dyn_affects


# A compiled selector is a tuple of (op, value) pairs, one per characteristic or state key, in the selector's
# order; Characteristics._ops_match answers them inline (no call per check).
OP_TYPE: Final = 0
OP_TYPE_IN: Final = 1
OP_ATTR: Final = 2
OP_ATTR_ANY: Final = 3
OP_FACTION: Final = 4
OP_NAME: Final = 5
OP_UNIQUE: Final = 6
OP_KEYWORD: Final = 7
OP_ICON: Final = 8
OP_POWER_LT: Final = 9
OP_POWER_LTE: Final = 10
OP_POWER_GT: Final = 11
OP_POWER_GTE: Final = 12
OP_COST_LTE: Final = 13
OP_COST_GTE: Final = 14
OP_READY: Final = 15
OP_EXHAUSTED: Final = 16
OP_IN_ATTACK: Final = 17
OP_IN_DEFENCE: Final = 18
OP_IN_STRUGGLE: Final = 19
OP_NOT_SELF: Final = 20
OP_EMBLEM: Final = 21
OP_INFLUENCE: Final = 22
OP_TOKEN: Final = 23
_POWER_OPS = {"power_lt": OP_POWER_LT, "power_lte": OP_POWER_LTE, "power_gt": OP_POWER_GT, "power_gte": OP_POWER_GTE}


def _compile_selector(sel: dict) -> tuple:
    if len(_COMPILED) > 4096:
        _COMPILED.clear()
    entry = (sel, _compile_selector_uncached(sel))
    _COMPILED[id(sel)] = entry
    return entry


def _compile_selector_uncached(sel: dict) -> tuple:
    ops: list = []
    for k, v in sel.items():
        if k in ("zone", "controller", "count", "up_to", "each"):
            continue
        if k == "type":
            ops.append((OP_TYPE_IN, frozenset(v)) if isinstance(v, list) else (OP_TYPE, v))
        elif k == "attribute":
            ops.append((OP_ATTR_ANY, frozenset(v)) if isinstance(v, list) else (OP_ATTR, v))
        elif k == "faction":
            ops.append((OP_FACTION, v))
        elif k == "name":
            ops.append((OP_NAME, v))
        elif k == "unique":
            ops.append((OP_UNIQUE, bool(v)))
        elif k == "keyword":
            ops.append((OP_KEYWORD, parse_keyword(v)[0] or KEYWORD_BITS.get(str(v).lower(), 0)))
        elif k == "icon":
            ops.append((OP_ICON, ICON_BITS.get(v, 0)))
        elif k in _POWER_OPS:
            ops.append((_POWER_OPS[k], v))
        elif k == "cost_lte":
            ops.append((OP_COST_LTE, v))
        elif k == "cost_gte":
            ops.append((OP_COST_GTE, v))
        elif k == "ready":
            ops.append((OP_READY, bool(v)))
        elif k == "exhausted":
            ops.append((OP_EXHAUSTED, bool(v)))
        elif k in ("participating", "attacking", "defending"):
            # attacking / defending / either side of the struggle in progress; the value says in or out
            if k == "attacking" or v == "attacking":
                ops.append((OP_IN_ATTACK, bool(v)))
            elif k == "defending" or v == "defending":
                ops.append((OP_IN_DEFENCE, bool(v)))
            else:
                ops.append((OP_IN_STRUGGLE, bool(v)))
        elif k == "not_self":
            if v:
                ops.append((OP_NOT_SELF, True))
        elif k in ("blanked", "has_emblem"):
            ops.append((OP_EMBLEM, bool(v)))
        elif k == "has_influence":
            ops.append((OP_INFLUENCE, bool(v)))
        elif k == "is_token":
            ops.append((OP_TOKEN, bool(v)))
    return tuple(ops)


def matches_printed(sel: dict, d, iid: int, src: int) -> bool:
    """The selector's checks (zone and controller aside) on a card out of play, where nothing but its printed
    characteristics can apply: ready, no emblem, no counters, in no struggle, only its printed keywords and Power.
    What `_compile_selector`'s checks answer for such a card; §4 setup judges the facedown board with it."""
    if not _static_part_matches(sel, d, iid, src):
        return False
    for k, v in sel.items():
        if k == "keyword":
            bit = parse_keyword(v)[0] or KEYWORD_BITS.get(str(v).lower(), 0)
            if not d.kw & bit:
                return False
        elif k in ("power_lt", "power_lte", "power_gt", "power_gte"):
            if not d.is_unit:
                return False
            pw = d.power if d.power > 0 else 0
            if not (pw < v if k == "power_lt" else pw <= v if k == "power_lte" else pw > v if k == "power_gt"
                    else pw >= v):
                return False
        elif k == "ready":
            if not bool(v):
                return False
        elif k in ("exhausted", "participating", "attacking", "defending", "blanked", "has_emblem",
                   "has_influence"):
            if bool(v):
                return False
    return True
