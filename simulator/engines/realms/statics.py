"""What the cards in play make true (§14.5): the static abilities in force, and through them a card's CV,
Tactics, keywords, icons, costs and rules; selectors and conditions (`match`, `select`, `cond`)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .cards import (
    AF_HOST, AF_LEADER, AF_OPP, AF_SEL, AF_SELF, AF_YOU, C_ALL, C_ANY, C_BEHIND, C_CONTROLS, C_HAND_GTE, C_HAND_LTE,
    C_NOT, C_OPP_CONTROLS, C_RESERVE_GTE, C_TACTIC, C_TAKING_PART, C_VP_GTE, C_VP_LTE, C_ZONE, CTRL_ANY, CTRL_OPP,
    CTRL_YOU, IK_EQUIPMENT, K_DISCARD_HAND, K_KILL, K_PAY_GOLD, KW_LONER, M_ALWAYS, M_CAN, M_CANNOT, M_NEVER,
    N_EVENTS, R_BE_MOVED, R_JOIN, ROLE_ATTACKER, ROLE_DEFENDER, ROLE_RAIDED, ROLE_RAIDER, SZ_BORDER, SZ_DECK,
    SZ_DISCARD, SZ_HAND, SZ_PLAY, SZ_SETTLEMENT, SZ_STRIKE, W_VEHICLE, Ability, Cond, CvMod, Sel, Static,
)
from .state import (
    Z_DECK, Z_HAND, Z_DISCARD, Z_SETTLE, Z_BORDER, Z_STRIKE, Z_ATTACHED, Z_RITUAL, TE_CV, TE_TACTIC, TE_RULE,
    pipeline,
)
from . import abilities

if TYPE_CHECKING:
    from .game import Game


# =================================================================================================
# static abilities, CV, Tactics, keywords, icons, rules
def in_play(g: Game, p: int) -> list[int]:
    """p's cards in play in a canonical order: the Settlement, the Borderlands, the Strike Force, the Rituals,
    then each host's attachments in the order they were attached (what a position reproduces). Built once per
    change of the cards in play and shared: callers only read it."""
    got = g._ipc[p]
    if got is None:
        got = build_in_play(g, p)
        g._ipc[p] = got
    return got


def build_in_play(g: Game, p: int) -> list[int]:
    zs = g.z[p]
    # one list extended (a chain of + makes a list per step)
    out = zs[Z_SETTLE][:]
    out.extend(zs[Z_BORDER])
    out.extend(zs[Z_STRIKE])
    rituals = zs[Z_RITUAL]
    if rituals:
        out.extend(rituals)
    if not zs[Z_ATTACHED]:
        return out
    atts = g.atts
    for k in range(len(out)):   # the hosts: the cards before any attachment
        lst = atts.get(out[k])
        if lst:
            out.extend(lst)
    return out


def active_source(g: Game, i: int) -> bool:
    """§14.2: a Place's abilities work while it is supplied (002 §15); attached cards while attached; a Ritual
    until its owner's next turn; a Leader always."""
    z = g.zone[i]
    if z == Z_SETTLE:
        return g.supplied[i]
    return Z_BORDER <= z <= Z_RITUAL


# what refresh() leaves for a kind of static or an event nothing in play has: one shared empty list, never written
# (most kinds are empty in most positions, and making then freeing a list for each was most of a refresh)
_NO_STATICS: Final[list[tuple[int, Static]]] = []
_NO_TRIGGERS: Final[list[tuple[int, Ability]]] = []


def refresh(g: Game) -> None:
    if not g._dirty:
        return
    g._dirty = False
    cv = _NO_STATICS
    cv_roles = False
    icon = _NO_STATICS
    cost = _NO_STATICS
    grant = _NO_STATICS
    rule = _NO_STATICS
    trig: list[list[tuple[int, Ability]]] = [_NO_TRIGGERS] * N_EVENTS
    cdef = g.cdef
    for p in (0, 1):
        for i in in_play(g, p):
            d = cdef[i]
            if not d.in_play_abilities or not active_source(g, i):
                continue
            for st in d.statics:
                if st.cvmod is not None:
                    if cv is _NO_STATICS:
                        cv = []
                    cv.append((i, st))
                    if st.reads_roles:
                        cv_roles = True
                if st.icons:
                    if icon is _NO_STATICS:
                        icon = []
                    icon.append((i, st))
                if st.has_cost:
                    if cost is _NO_STATICS:
                        cost = []
                    cost.append((i, st))
                if st.tactics or st.kw:
                    if grant is _NO_STATICS:
                        grant = []
                    grant.append((i, st))
                if st.rules:
                    if rule is _NO_STATICS:
                        rule = []
                    rule.append((i, st))
            for ab in d.triggers:
                lst = trig[ab.event]
                if lst is _NO_TRIGGERS:
                    lst = []
                    trig[ab.event] = lst
                lst.append((i, ab))
    g._st_cv = cv
    g._st_cv_roles = cv_roles
    g._st_icon = icon
    g._st_cost = cost
    g._st_grant = grant
    g._st_rule = rule
    g._trig = trig


def affects(g: Game, src: int, st: Static, i: int) -> bool:
    a = st.affects
    if a == AF_SELF:
        return i == src
    if a == AF_HOST:
        return i == g.host[src]
    if a == AF_LEADER:
        return i == g.leader[g.owner[src]]
    if a == AF_SEL:
        sel = st.sel
        assert sel is not None
        return match(g, sel, i, g.owner[src], src)
    if a == AF_YOU:
        return g.owner[i] == g.owner[src]
    return g.owner[i] != g.owner[src]


def static_on(g: Game, src: int, st: Static, i: int) -> bool:
    # inside a static's own tests, selectors read printed CV, Tactics, keywords and icons (no loops)
    g._in_static += 1
    ok = affects(g, src, st, i)
    if ok:
        c = st.cond
        ok = c is None or cond(g, c, g.owner[src], abilities.subject(g, src))
    g._in_static -= 1
    return ok


def cv(g: Game, i: int) -> int:
    """The card's CV now: printed CV with its static and lasting modifiers, in 002 §16's order (R18)."""
    memo = g._cvc
    if memo is not None:
        v = memo.get(i)
        if v is not None:
            return v
    if g._dirty:
        refresh(g)
    d = g.cdef[i]
    mods: list[CvMod] = []
    owner = g.owner
    for src, st in g._st_cv:
        sel = st.sel
        if sel is not None:
            # cheap tests first (§14.5): the card's type and controller
            if sel.types and not d.type_bit & sel.types:
                continue
            c = sel.controller
            if c != CTRL_ANY and (owner[i] == owner[src]) != (c == CTRL_YOU):
                continue
        elif st.affects == AF_SELF and i != src or st.affects == AF_HOST and g.host[src] != i:
            continue
        if static_on(g, src, st, i):
            m = st.cvmod
            assert m is not None
            mods.append(m)
    if g.tmp:
        for te in g.tmp:
            if te.kind == TE_CV and te.target == i:
                assert te.mod is not None
                mods.append(te.mod)
    v = pipeline(d.cv, mods) if mods else d.cv
    if memo is not None:
        memo[i] = v
    return v


def tactics(g: Game, i: int) -> int:
    """Printed Tactics, plus those granted by statics and effects (002 §6)."""
    bits = g.cdef[i].tactics
    if g._in_static:
        return bits
    if g._dirty:
        refresh(g)
    if not g._st_grant and not g._n_tmp_tac:
        return bits
    for src, st in g._st_grant:
        if not st.tactics or bits & st.tactics == st.tactics:
            continue
        if st.affects == AF_SELF and i != src or st.affects == AF_HOST and g.host[src] != i:
            continue
        if static_on(g, src, st, i):
            bits |= st.tactics
    if g._n_tmp_tac:
        for te in g.tmp:
            if te.kind == TE_TACTIC and te.target == i:
                bits |= te.bits
    return bits


def keywords(g: Game, i: int) -> int:
    bits = g.cdef[i].kw
    if g._in_static:
        return bits
    if g._dirty:
        refresh(g)
    if not g._st_grant:
        return bits
    for src, st in g._st_grant:
        if st.kw and static_on(g, src, st, i):
            bits |= st.kw
    return bits


def icons(g: Game, i: int) -> tuple[tuple[int, int, int, int], tuple[int, int, int, int]]:
    """The card's blue and red icons with static modifiers, never below 0 (002 §4)."""
    d = g.cdef[i]
    if g._dirty:
        refresh(g)
    if not g._st_icon or g._in_static:
        return d.prov, d.cons
    memo = None
    if g._cvc is not None:   # a decision waits: the answers keep, as cv()'s
        memo = g._icc
        if memo is None:
            memo = {}
            g._icc = memo
        else:
            got = memo.get(i)
            if got is not None:
                return got
    # the icons as local ints (a list item's += is a generic object add in compiled code, and a variable index
    # into the fixed icon tuples boxes them)
    hit = False
    p0 = d.p0
    p1 = d.p1
    p2 = d.p2
    p3 = d.p3
    c0 = d.c0
    c1 = d.c1
    c2 = d.c2
    c3 = d.c3
    owner = g.owner
    for src, st in g._st_icon:
        sel = st.sel
        if sel is not None:
            # the cheap tests first, as in cv()
            if sel.types and not d.type_bit & sel.types:
                continue
            c = sel.controller
            if c != CTRL_ANY and (owner[i] == owner[src]) != (c == CTRL_YOU):
                continue
        elif st.affects == AF_SELF and i != src or st.affects == AF_HOST and g.host[src] != i:
            continue
        if static_on(g, src, st, i):
            hit = True
            sp = st.prov
            sc = st.cons
            p0 += sp[0]
            p1 += sp[1]
            p2 += sp[2]
            p3 += sp[3]
            c0 += sc[0]
            c1 += sc[1]
            c2 += sc[2]
            c3 += sc[3]
    if not hit:
        res = (d.prov, d.cons)
    else:
        res = ((max(p0, 0), max(p1, 0), max(p2, 0), max(p3, 0)),
               (max(c0, 0), max(c1, 0), max(c2, 0), max(c3, 0)))
    if memo is not None:
        memo[i] = res
    return res


def allowed(g: Game, i: int, rule: int) -> bool:
    """002 §16 (R18): NEVER forbids over everything; else ALWAYS or can allows; else cannot forbids; else the
    default (Loner: `join_group` cannot, 002 §11; a Vehicle: `be_moved` cannot, R8)."""
    d = g.cdef[i]
    if g._dirty:
        refresh(g)
    if not g._st_rule and not g._n_tmp_rule:
        if rule == R_JOIN:
            return not keywords(g, i) & KW_LONER
        if rule == R_BE_MOVED:
            return d.wtype != W_VEHICLE or g.simplified
        return True
    modes = 0
    if rule == R_JOIN:
        if keywords(g, i) & KW_LONER:
            modes = M_CANNOT
    elif rule == R_BE_MOVED:
        if d.wtype == W_VEHICLE and not g.simplified:
            modes = M_CANNOT
    owner = g.owner
    for src, st in g._st_rule:
        sel = st.sel
        if sel is not None:
            if sel.types and not d.type_bit & sel.types:
                continue
            c = sel.controller
            if c != CTRL_ANY and (owner[i] == owner[src]) != (c == CTRL_YOU):
                continue
        elif st.affects == AF_SELF and i != src:
            continue
        for r, m in st.rules:
            if r == rule and static_on(g, src, st, i):
                modes |= m
    if g._n_tmp_rule:
        for te in g.tmp:
            if te.kind == TE_RULE and te.target == i and te.rule == rule:
                modes |= te.mode
    if not modes:
        return True
    if modes & M_NEVER:
        return False
    if modes & (M_ALWAYS | M_CAN):
        return True
    return False


def cost(g: Game, i: int, p: int) -> int:
    """The Starting Cost card i costs p now (static cost modifiers, never below 0; 002 §4)."""
    d = g.cdef[i]
    c = d.cost
    if g._dirty:
        refresh(g)
    if not g._st_cost:
        return c
    for src, st in g._st_cost:
        ctrl = g.owner[src]
        a = st.affects
        if a == AF_OPP:
            ok = p != ctrl
        elif a == AF_SEL:
            sel = st.sel
            assert sel is not None
            ok = match_card(g, sel, i) and (sel.controller == CTRL_ANY
                                               or (p == ctrl) == (sel.controller == CTRL_YOU))
        else:
            ok = p == ctrl
        if ok and (st.cond is None or cond(g, st.cond, ctrl, abilities.subject(g, src))):
            c += st.cost
    return c if c > 0 else 0


def copy_in_play(g: Game, p: int, name: str) -> bool:
    for i in in_play(g, p):
        if g.cdef[i].name == name:
            return True
    return False


def supplied_place(g: Game, i: int) -> bool:
    return g.supplied[i]


# =================================================================================================
# selectors and conditions (§14.3, §14.5)
def match_card(g: Game, sel: Sel, i: int) -> bool:
    """The card's own characteristics only (type, warrior type, affiliation, keyword, name, cost, unique)."""
    d = g.cdef[i]
    if sel.types and not d.type_bit & sel.types:
        return False
    if sel.wtypes and not d.wbit & sel.wtypes:
        return False
    if sel.has_aff and d.affiliation != sel.aff:
        return False
    if sel.kw_ik >= 0 and (not d.is_intrigue or d.ik != sel.kw_ik):
        return False
    if sel.name is not None and d.name != sel.name:
        return False
    if sel.cost_lte >= 0 and d.cost > sel.cost_lte:
        return False
    if sel.unique >= 0 and d.unique != bool(sel.unique):
        return False
    return True


def match(g: Game, sel: Sel, i: int, ctrl: int, src: int, any_zone: bool = False) -> bool:
    """Whether card i matches selector sel, seen from player ctrl (the ability's controller)."""
    d = g.cdef[i]
    if sel.types and not d.type_bit & sel.types:
        return False
    c = sel.controller
    if c != CTRL_ANY and (g.owner[i] == ctrl) != (c == CTRL_YOU):
        return False
    z = g.zone[i]
    if not any_zone:
        sz = sel.zone
        if sz == SZ_PLAY:
            if not (Z_SETTLE <= z <= Z_RITUAL):
                return False
        elif sz == SZ_BORDER:
            if z != Z_BORDER:
                return False
        elif sz == SZ_STRIKE:
            if z != Z_STRIKE:
                return False
        elif sz == SZ_SETTLEMENT:
            if z != Z_SETTLE:
                return False
        elif sz == SZ_HAND:
            if z != Z_HAND:
                return False
        elif sz == SZ_DISCARD:
            if z != Z_DISCARD:
                return False
        elif sz == SZ_DECK:
            if z != Z_DECK:
                return False
    if sel.not_self and i == src:
        return False
    if not match_card(g, sel, i):
        return False
    if sel.kw_bit and not keywords(g, i) & sel.kw_bit:
        return False
    if sel.tactic and not tactics(g, i) & sel.tactic:
        return False
    if sel.provides >= 0 and not _nth(icons(g, i)[0], sel.provides):
        return False
    if sel.consumes >= 0 and not _nth(icons(g, i)[1], sel.consumes):
        return False
    if sel.supplied >= 0 and (g.supplied[i] if d.is_place else True) != bool(sel.supplied):
        return False
    if sel.in_group >= 0 and bool(g.group[i]) != bool(sel.in_group):
        return False
    if sel.equipped >= 0:
        eq = any(g.cdef[a].ik == IK_EQUIPMENT for a in g.atts.get(i, ()))
        if eq != bool(sel.equipped):
            return False
    if sel.taking_part >= 0:
        role = g.part[i]
        if sel.taking_part == 0:
            if not role:
                return False
        elif role != sel.taking_part:
            return False
    if sel.needs_cv:
        # inside a static's own test, the printed CV (a static cannot depend on the CV it changes)
        v = d.cv if g._in_static else cv(g, i)
        if sel.cv_lte >= 0 and v > sel.cv_lte:
            return False
        if sel.cv_gte >= 0 and v < sel.cv_gte:
            return False
    return True


def _nth(t: tuple[int, int, int, int], r: int) -> int:
    # a fixed tuple read at a variable index without boxing it (compiled code)
    if r == 0:
        return t[0]
    if r == 1:
        return t[1]
    if r == 2:
        return t[2]
    return t[3]


def select(g: Game, sel: Sel, ctrl: int, src: int) -> list[int]:
    """Every card matching sel now, seen from ctrl: in play by default, or the zone the selector names."""
    sz = sel.zone
    out: list[int] = []
    c = sel.controller
    players = (ctrl,) if c == CTRL_YOU else (1 - ctrl,) if c == CTRL_OPP else (0, 1)
    for p in players:
        zs = g.z[p]
        if sz == SZ_PLAY:
            pool = in_play(g, p)
        elif sz == SZ_BORDER:
            pool = zs[Z_BORDER]
        elif sz == SZ_STRIKE:
            pool = zs[Z_STRIKE]
        elif sz == SZ_SETTLEMENT:
            pool = zs[Z_SETTLE]
        elif sz == SZ_HAND:
            pool = zs[Z_HAND]
        elif sz == SZ_DISCARD:
            pool = zs[Z_DISCARD]
        else:
            pool = zs[Z_DECK]
        for i in pool:
            if match(g, sel, i, ctrl, src):
                out.append(i)
    return out


def side_role(g: Game, p: int) -> int:
    cb = g.cb
    if cb is None:
        return 0
    if cb.raid:
        return ROLE_RAIDER if p == cb.attacker else ROLE_RAIDED
    return ROLE_ATTACKER if p == cb.attacker else ROLE_DEFENDER


def cond(g: Game, c: Cond, ctrl: int, subject: int) -> bool:
    k = c.kind
    if k == C_CONTROLS or k == C_OPP_CONTROLS:
        sel = c.sel
        assert sel is not None
        who = ctrl if k == C_CONTROLS else 1 - ctrl
        n = len(select(g, sel, who, subject))
        return n >= c.lo and (c.hi < 0 or n <= c.hi)
    if k == C_TAKING_PART:
        role = g.part[subject] if subject >= 0 else side_role(g, ctrl)
        return role != 0 if c.n == 0 else role == c.n
    if k == C_RESERVE_GTE:
        return g.reserve[ctrl] >= c.n
    if k == C_VP_GTE:
        return g.vp[ctrl] >= c.n
    if k == C_VP_LTE:
        return g.vp[ctrl] <= c.n
    if k == C_BEHIND:
        return g.vp[ctrl] < g.vp[1 - ctrl]
    if k == C_HAND_LTE:
        return len(g.z[ctrl][Z_HAND]) <= c.n
    if k == C_HAND_GTE:
        return len(g.z[ctrl][Z_HAND]) >= c.n
    if k == C_TACTIC:
        return g.cb is not None and g.cb.tactic == c.n
    if k == C_ZONE:
        if subject < 0:
            return False
        z = g.zone[subject]
        return (z == Z_BORDER) if c.n == SZ_BORDER else (z == Z_STRIKE)
    if k == C_ALL:
        return all(cond(g, s, ctrl, subject) for s in c.subs)
    if k == C_ANY:
        return any(cond(g, s, ctrl, subject) for s in c.subs)
    if k == C_NOT:
        return not cond(g, c.subs[0], ctrl, subject)
    return False


def usable(g: Game, ab: Ability, src: int, ctrl: int, subject: int, extra_gold: int = 0) -> bool:
    """§14.2: its condition holds, its costs can be paid, a legal target exists."""
    if ab.cond is not None and not cond(g, ab.cond, ctrl, subject):
        return False
    gold = extra_gold
    for c in ab.costs:
        k = c.kind
        if k == K_PAY_GOLD:
            gold += c.n
        elif k == K_DISCARD_HAND:
            others = len(g.z[ctrl][Z_HAND]) - (1 if g.zone[src] == Z_HAND else 0)
            if others < c.n:
                return False
        elif k == K_KILL:
            sel = c.sel
            assert sel is not None
            if not any(g.zone[w] in (Z_BORDER, Z_STRIKE) and g.owner[w] == ctrl
                       for w in select(g, sel, ctrl, src)):
                return False
    if gold > g.reserve[ctrl]:
        return False
    sel = ab.target
    if sel is not None:
        n = len(select(g, sel, ctrl, src))
        if n < (1 if sel.up_to else sel.count):
            return False
    return True
