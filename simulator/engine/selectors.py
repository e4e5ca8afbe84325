"""Selectors (docs/engine-abilities.md, "Selectors") compiled to tuples of small checks.

A selector names cards by zone, controller and characteristics. `_compile_selector` turns the characteristic
part into closures `check(game, card, source) -> bool`, cached by the selector's id; `_static_part_matches`
answers the part that depends only on the printed card, which the Power statics of §8.1 judge once per card
(Characteristics._power_candidates).
"""
from __future__ import annotations

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


def _power_check(op: str, v: int):
    def check(g, j, src):
        d = g.cdef[j]
        if not d.is_unit:
            return False
        pw = g.power(j) if g.zone[j] == FIELD else d.power
        pw = pw if pw > 0 else 0
        if op == "power_lt":
            return pw < v
        if op == "power_lte":
            return pw <= v
        if op == "power_gt":
            return pw > v
        return pw >= v
    return check


def _struggle_check(k: str, v):
    want = bool(v)
    if k == "attacking" or v == "attacking":
        def member(s, j):
            return j in s.attackers
    elif k == "defending" or v == "defending":
        def member(s, j):
            return j in s.defenders
    else:
        def member(s, j):
            return j in s.attackers or j in s.defenders

    def check(g, j, src):
        s = g.struggle
        if s is None:
            return not want
        return member(s, j) == want
    return check


def _compile_selector(sel: dict) -> tuple:
    if len(_COMPILED) > 4096:
        _COMPILED.clear()
    entry = (sel, _compile_selector_uncached(sel))
    _COMPILED[id(sel)] = entry
    return entry


def _compile_selector_uncached(sel: dict) -> tuple:
    checks: list = []
    for k, v in sel.items():
        if k in ("zone", "controller", "count", "up_to", "each"):
            continue
        if k == "type":
            if isinstance(v, list):
                vs = frozenset(v)
                checks.append(lambda g, j, src, vs=vs: g.cdef[j].type in vs)
            else:
                checks.append(lambda g, j, src, v=v: g.cdef[j].type == v)
        elif k == "attribute":
            if isinstance(v, list):
                vs = frozenset(v)
                checks.append(lambda g, j, src, vs=vs: not vs.isdisjoint(g.cdef[j].attributes))
            else:
                checks.append(lambda g, j, src, v=v: v in g.cdef[j].attributes)
        elif k == "faction":
            checks.append(lambda g, j, src, v=v: g.cdef[j].faction == v)
        elif k == "name":
            checks.append(lambda g, j, src, v=v: g.cdef[j].name == v)
        elif k == "unique":
            checks.append(lambda g, j, src, v=bool(v): g.cdef[j].unique == v)
        elif k == "keyword":
            bit = parse_keyword(v)[0] or KEYWORD_BITS.get(str(v).lower(), 0)
            checks.append(lambda g, j, src, bit=bit: bool(g.kw(j) & bit))
        elif k == "icon":
            bit = ICON_BITS.get(v, 0)
            checks.append(lambda g, j, src, bit=bit: bool(g.cdef[j].icons & bit))
        elif k in ("power_lt", "power_lte", "power_gt", "power_gte"):
            checks.append(_power_check(k, v))
        elif k == "cost_lte":
            checks.append(lambda g, j, src, v=v: 0 <= g.cdef[j].cost <= v)
        elif k == "cost_gte":
            checks.append(lambda g, j, src, v=v: g.cdef[j].cost >= v)
        elif k == "ready":
            checks.append(lambda g, j, src, v=bool(v): (not g.exh[j]) == v)
        elif k == "exhausted":
            checks.append(lambda g, j, src, v=bool(v): bool(g.exh[j]) == v)
        elif k in ("participating", "attacking", "defending"):
            checks.append(_struggle_check(k, v))
        elif k == "not_self":
            if v:
                checks.append(lambda g, j, src: j != src)
        elif k in ("blanked", "has_emblem"):
            checks.append(lambda g, j, src, v=bool(v): bool(g.emb[j]) == v)
        elif k == "has_influence":
            checks.append(lambda g, j, src, v=bool(v): bool(g.cnt[j]) == v)
        elif k == "is_token":
            checks.append(lambda g, j, src, v=bool(v): g.cdef[j].is_token == v)
    return tuple(checks)


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
