"""Step 4, Attack (002 §13, R16): who may attack whom, the CV of each side, the modification phase (shared
with raids) and the result."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import (
    DUR_ATTACK, EV_ATTACK_WON, IK_NEEDS, R_ATTACK, R_BE_ATTACKED, ROLE_ATTACKER, ROLE_DEFENDER, TACTIC_NAMES,
    TACTIC_ORDER, TM_COMBAT, TM_RAID, W_VEHICLE, CardDef, CvMod,
)
from .state import (
    Z_HAND, Z_BORDER, Z_STRIKE, ST_RAID, A_PLAY, A_USE, A_PASS, A_ATTACK, G_OFFENSIVE, G_DEFENSIVE,
    F_ABILITY, S_ATTACKS, S_ATTACKS_WON, S_ATTACKS_LOST, S_ATTACKS_TIED, DONE_OPT, PASS_OPT, Combat, pipeline,
)
from . import settlement, actions, raids, abilities, statics, texts

if TYPE_CHECKING:
    from .game import Game


# =================================================================================================
# 002 §13 Attack
def attack_step(g: Game) -> None:
    p = g.active
    cb = g.cb
    if cb is not None:
        window(g, cb)
        return
    if g.attack_skip:
        end_attack_step(g, p)
        return
    opts = attack_options(g, p)
    if not opts:
        end_attack_step(g, p)
        return
    opts.append(DONE_OPT)
    g._decide("attack", p, opts)


def attackers(g: Game, p: int) -> list[tuple[int, ...]]:
    """002 §13: the attacking units: a Strike Force warrior in no Group that has not attacked, or an Offensive
    Group whose members all can attack."""
    units: list[tuple[int, ...]] = []
    t = g.turn
    for w in g.z[p][Z_STRIKE]:
        if not g.group[w] and can_attack(g, w, t):
            units.append((w,))
    for gid, (kind, o, members) in g.groups.items():
        if o == p and kind == G_OFFENSIVE and all(can_attack(g, w, t) for w in members):
            units.append(members)
    return units


def can_attack(g: Game, w: int, t: int) -> bool:
    if g.zone[w] != Z_STRIKE or g.attacked_t[w] == t:
        return False
    if not g.simplified and g.cdef[w].wtype == W_VEHICLE and g.recruited_t[w] == t:
        return False   # R8: a Vehicle cannot act the turn it is recruited
    return statics.allowed(g, w, R_ATTACK)


def defenders(g: Game, q: int) -> list[tuple[int, ...]]:
    """002 §13: an opposing warrior not in a Defensive Group, or an opposing Defensive Group."""
    units: list[tuple[int, ...]] = []
    for zone in (Z_BORDER, Z_STRIKE):
        for w in g.z[q][zone]:
            gid_w = g.group[w]
            if gid_w and g.groups[gid_w][0] == G_DEFENSIVE:
                continue
            if statics.allowed(g, w, R_BE_ATTACKED):
                units.append((w,))
    for gid, (kind, o, members) in g.groups.items():
        if o == q and kind == G_DEFENSIVE and all(statics.allowed(g, w, R_BE_ATTACKED) for w in members):
            units.append(members)
    return units


def attack_options(g: Game, p: int) -> list:
    statics.refresh(g)
    # the defenders first: with none (a goldfish opponent, an empty board) the attackers need not be found
    dfn = defenders(g, 1 - p)
    if not dfn:
        return []
    att = attackers(g, p)
    if not att:
        return []
    opts: list = []
    for a in att:
        ta = actions.group_tactics(g, a) if len(a) > 1 else statics.tactics(g, a[0])
        if not ta:
            continue
        for d in dfn:
            shared = ta & (actions.group_tactics(g, d) if len(d) > 1 else statics.tactics(g, d[0]))
            for t in TACTIC_ORDER:
                if shared & t:
                    opts.append((A_ATTACK, a, d, t))
    return opts


def declare_attack(g: Game, p: int, a: tuple) -> None:
    att, dfn, t = a[1], a[2], a[3]
    for w in att:
        g.attacked_t[w] = g.turn
        g.part[w] = ROLE_ATTACKER
    for w in dfn:
        g.part[w] = ROLE_DEFENDER
    g.cb = Combat(False, p, list(att), list(dfn), t)
    g.stats[p][S_ATTACKS] += 1
    if g.logs is not None:
        g._log(p, "002 §13", f"attacks {texts.names(g, dfn)} with {texts.names(g, att)} on the {TACTIC_NAMES[t]}")


def cv_as(g: Game, members: list[int] | tuple[int, ...], role: int) -> int:
    """The total CV of members fighting in `role` now (their 'while attacking/defending/raiding' statics
    counted), without changing the game: what a player weighs before declaring a fight."""
    if g._dirty:
        statics.refresh(g)
    # a typed list: walking the union type is a generic iterator walk in compiled code
    ms: list[int] = members if isinstance(members, list) else list(members)
    if not g._st_cv and not g.tmp:
        # no static or lasting effect changes a CV: the printed CVs, whatever the role
        cdef = g.cdef
        total = 0
        for w in ms:
            total += cdef[w].cv
        return total
    if not g._st_cv_roles:
        # no CV static reads roles: a card's CV is the same in every role (the decision's memo holds)
        total = 0
        for w in ms:
            total += statics.cv(g, w)
        return total
    part = g.part
    n = len(ms)
    saved: list[int] = []
    for w in ms:
        saved.append(part[w])
    for w in ms:
        part[w] = role
    memo = g._cvc
    g._cvc = None
    total = 0
    for w in ms:
        total += statics.cv(g, w)
    g._cvc = memo
    for k in range(n):
        part[ms[k]] = saved[k]
    return total


def side_cv(g: Game, members: list[int] | tuple[int, ...], mods: list[CvMod]) -> int:
    """002 §13, §16 (R18): the sum of the members' CVs, then the side's own modifiers."""
    total = 0
    for w in members:
        total += statics.cv(g, w)
    return pipeline(total, mods) if mods else total


def resolve_attack(g: Game, cb: Combat) -> None:
    p = cb.attacker
    q = 1 - p
    if not cb.att or not cb.dfn:
        g.cb = None
        if g.logs is not None:
            g._log(p, "002 §13", "the attack has no side left to fight: nobody dies")
        abilities.expire(g, DUR_ATTACK, -1)
        clear_parts(g)
        return
    # CVs are computed when the modification phase ends (002 §16: "all at once")
    a_cv = side_cv(g, cb.att, cb.mods[p])
    d_cv = side_cv(g, cb.dfn, cb.mods[q])
    g.cb = None
    if a_cv > d_cv:
        winners, losers, role = cb.att, cb.dfn, ROLE_ATTACKER
        g.stats[p][S_ATTACKS_WON] += 1
        verdict = "the attacker wins"
    elif d_cv > a_cv:
        winners, losers, role = cb.dfn, cb.att, ROLE_DEFENDER
        g.stats[p][S_ATTACKS_LOST] += 1
        verdict = "the defender wins"
    else:
        winners, losers, role = [], [], 0
        g.stats[p][S_ATTACKS_TIED] += 1
        verdict = "a tie: nobody dies"
    if g.logs is not None:
        g._log(p, "002 §13", f"{texts.names(g, cb.att)} {a_cv} vs {texts.names(g, cb.dfn)} {d_cv}: {verdict}")
    frames: list[tuple] = abilities.collect_side(g, EV_ATTACK_WON, list(winners), role) if winners else []
    for w in list(losers):
        settlement.kill(g, w, "002 §13")   # R16: every member of a losing Group dies
    # effects lasting "this attack" end once it is resolved (after the deaths they may prevent)
    abilities.expire(g, DUR_ATTACK, -1)
    clear_parts(g)
    abilities.push_frames(g, frames)


def clear_parts(g: Game) -> None:
    part = g.part
    for i in range(len(part)):
        if part[i]:
            part[i] = 0


def end_attack_step(g: Game, p: int) -> None:
    # 002 §13: after the Attack Step all Offensive Groups disband
    for gid in [k for k, (kind, o, _) in g.groups.items() if kind == G_OFFENSIVE and o == p]:
        actions.disband(g, gid, "002 §13", "Offensive Groups disband after the Attack step")
    g.step = ST_RAID
    g.raid_done = g.attack_skip


# =================================================================================================
# the modification phase of an attack or raid (002 §13 step 4, §14, §16; R16)
def window(g: Game, cb: Combat) -> None:
    while cb.passes < 2:
        p = cb.to_act
        opts = window_options(g, p, cb)
        if opts:
            opts.append(PASS_OPT)
            g._decide("raid_mods" if cb.raid else "combat", p, opts)
            return
        cb.passes += 1
        cb.to_act = 1 - p
    if cb.raid:
        raids.resolve_raid(g, cb)
    else:
        resolve_attack(g, cb)


def window_options(g: Game, p: int, cb: Combat) -> list:
    """The Intrigues p may play and the abilities of p's cards taking part that p may use (once each)."""
    if g.decks[p] is None:
        return []
    opts: list = []
    raid = cb.raid
    reserve = g.reserve[p]
    seen_defs: list[CardDef] = []   # distinct cards by identity (a short native scan, no boxed id())
    needs = -1
    for i in g.z[p][Z_HAND]:
        d = g.cdef[i]
        if not (d.hand_raid if raid else d.hand_combat):
            continue
        dup = False
        for e in seen_defs:
            if e is d:
                dup = True
                break
        if dup:
            continue
        seen_defs.append(d)
        need = IK_NEEDS.get(d.ik, -1)
        if need >= 0:
            if needs < 0:
                needs = actions.types_in_play(g, p)
            if not (needs >> need) & 1:
                continue
        cost = statics.cost(g, i, p)
        if cost > reserve:
            continue
        ab = (d.raid if raid else d.combat)[0]
        if statics.usable(g, ab, i, p, -1, extra_gold=cost):
            opts.append((A_PLAY, i, -1))
    side = cb.att if p == cb.attacker else cb.dfn
    timing = TM_RAID if raid else TM_COMBAT
    for w in side:
        for i in [w] + g.atts.get(w, []):
            d = g.cdef[i]
            if not (d.raid if raid else d.combat):
                continue
            if not statics.active_source(g, i):
                continue
            for k, ab in enumerate(d.abilities):
                if ab.timing == timing and i * 32 + k not in cb.used and statics.usable(g, ab, i, p, abilities.subject(g, i)):
                    opts.append((A_USE, i, k))
    return opts


def window_act(g: Game, p: int, a: tuple) -> None:
    cb = g.cb
    assert cb is not None
    if a[0] == A_PASS:
        cb.passes += 1
        cb.to_act = 1 - p
        return
    cb.passes = 0
    cb.to_act = 1 - p
    if a[0] == A_PLAY:
        actions.play_card(g, p, a)
    else:
        i, k = a[1], a[2]
        cb.used.append(i * 32 + k)
        if g.logs is not None:
            g._log(p, "002 §16", f"uses {g.cdef[i].name}: {g.cdef[i].abilities[k].text}")
        g.stack.append((F_ABILITY, i, k, p, 0, (), -1))
