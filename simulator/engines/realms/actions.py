"""Step 2, Actions (002 §10, §11): the options of the Actions decision and what each does — playing a card,
recruiting, attaching, Groups."""
from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .cards import (
    EV_RECRUITED, IK_EQUIPMENT, IK_HARMONY, IK_NEEDS, IK_PROPHECY, IK_RITUAL, KW_LONER, KW_WORTHY, R_BE_MOVED,
    R_JOIN, TAC_ALL, TAC_FRONT, TAC_LEFT, TAC_RIGHT, W_CAVALRY, W_VEHICLE, Ability, CardDef,
)
from .state import (
    Z_HAND, Z_SETTLE, Z_BORDER, Z_STRIKE, Z_ATTACHED, Z_RITUAL, Z_LIMBO, A_BUILD, A_CELL, A_RECRUIT, A_PLAY,
    A_USE, A_GROUP, G_OFFENSIVE, G_DEFENSIVE, F_ABILITY, F_DISCARD_LIMBO, S_CARDS_PLAYED,
    S_WARRIORS_RECRUITED, DONE_OPT, build_opt, discard_opt, move_opt, play_opt, recruit_opt, tactics_text,
)
from . import settlement, abilities, statics

if TYPE_CHECKING:
    from .game import Game


# ---- 002 §10 Actions -----------------------------------------------------------------------------------
def actions_decision(g: Game) -> None:
    g._decide("actions", g.active, action_options(g, g.active))


def action_options(g: Game, p: int) -> list:
    """Every legal action of p's Actions step (002 §10), `done` last. Alike cards in hand are one option."""
    statics.refresh(g)
    opts: list = []
    zs = g.z[p]
    reserve = g.reserve[p]
    cdef = g.cdef
    # the hand's distinct cards, by identity (a short list scanned natively: hashing id() boxed it)
    seen_defs: list[CardDef] = []
    warriors = zs[Z_BORDER] + zs[Z_STRIKE]
    needs = -1   # the warrior types p has in play (R11), read only for a card that needs one
    for i in zs[Z_HAND]:
        d = cdef[i]
        dup = False
        for e in seen_defs:
            if e is d:
                dup = True
                break
        if dup:
            continue
        seen_defs.append(d)
        if d.unique and statics.copy_in_play(g, p, d.name):
            continue   # 002 §15 (R19)
        cost = statics.cost(g, i, p)
        if cost > reserve:
            continue
        if d.is_place:
            if settlement.has_cell(g, p, d.nc):
                opts.append(build_opt(i))
        elif d.is_warrior:
            for zone in recruit_zones(g, p, d):
                opts.append(recruit_opt(i, zone))
        else:
            ik = d.ik
            need = IK_NEEDS.get(ik, -1)
            if need >= 0:
                if needs < 0:
                    needs = 0
                    for w in warriors:
                        needs |= cdef[w].wbit
                if not (needs >> need) & 1:
                    continue   # R11
            if ik == IK_EQUIPMENT:
                for w in warriors:
                    if can_equip(g, w, d):
                        opts.append((A_PLAY, i, w))
            elif ik == IK_HARMONY:
                for h in statics.in_play(g, p):
                    if statics.keywords(g, h) & KW_WORTHY and g.zone[h] != Z_ATTACHED:
                        opts.append((A_PLAY, i, h))
            elif ik in (IK_RITUAL, IK_PROPHECY):
                opts.append(play_opt(i))
            else:
                ab = d.play_ab
                if ab is not None and statics.usable(g, ab, i, p, -1, extra_gold=cost):
                    opts.append(play_opt(i))
    for w in warriors:
        if g.moved_t[w] != g.turn and not g.group[w] and statics.allowed(g, w, R_BE_MOVED):
            opts.append(move_opt(w))
    for i in statics.in_play(g, p):
        d = cdef[i]
        if d.actions and statics.active_source(g, i):
            for k, ab in enumerate(d.abilities):
                if ab.timing == 3 and g.uses.get(i * 32 + k, 0) < ab.limit and \
                        statics.usable(g, ab, i, p, abilities.subject(g, i)):
                    opts.append((A_USE, i, k))
    if zs[Z_ATTACHED]:
        for w in warriors:
            for i in g.atts.get(w, ()):
                if cdef[i].ik == IK_EQUIPMENT:
                    opts.append(discard_opt(i))   # R9: you may discard your own Equipment in your Actions
    if len(warriors) >= 2:
        group_options(g, p, opts)
    opts.append(DONE_OPT)
    return opts


def group_options(g: Game, p: int, opts: list) -> None:
    """002 §11: for each kind and zone, the warriors that could group under each Tactic (the engine accepts
    any 2+ of one listed set: `group offensive a+b`)."""
    statics.refresh(g)
    # with no static or lasting effect on rules or Tactics: printed Tactics, and only Loners cannot join
    printed = not g._st_rule and not g._n_tmp_rule and not g._st_grant and not g._n_tmp_tac
    if printed:
        # then they depend only on the warriors in p's two zones, in order, and their Groups: kept until one of
        # those changes (the tuples are immutable, so the kept ones are shared)
        got = g._grp_c[p]
        if got is not None and got[0] == g._grp_v:
            opts.extend(got[1])
            return
        mine: list = []
        _zone_groups(g, p, Z_STRIKE, printed, g.cdef, g.group, mine)
        _zone_groups(g, p, Z_BORDER, printed, g.cdef, g.group, mine)
        g._grp_c[p] = (g._grp_v, mine)
        opts.extend(mine)
        return
    cdef = g.cdef
    group = g.group
    _zone_groups(g, p, Z_STRIKE, printed, cdef, group, opts)
    _zone_groups(g, p, Z_BORDER, printed, cdef, group, opts)


def _zone_groups(g: Game, p: int, zone: int, printed: bool, cdef: list[CardDef], group: list[int],
                 opts: list) -> None:
    ws: list[int] = []
    # each Tactic's warriors as a mask over ws, in TACTIC_ORDER; a set listed for an earlier Tactic is not listed
    # again (masks compared instead of hashing member tuples)
    m_left = m_front = m_right = 0
    for w in g.z[p][zone]:
        if group[w]:
            continue
        if printed:
            d = cdef[w]
            if d.kw & KW_LONER:
                continue
            bits = d.tactics
        else:
            if not statics.allowed(g, w, R_JOIN):
                continue
            bits = statics.tactics(g, w)
        bit = 1 << len(ws)
        ws.append(w)
        if bits & TAC_LEFT:
            m_left |= bit
        if bits & TAC_FRONT:
            m_front |= bit
        if bits & TAC_RIGHT:
            m_right |= bit
    if len(ws) < 2:
        return
    _group_option(ws, m_left, zone, opts)
    if m_front != m_left:
        _group_option(ws, m_front, zone, opts)
    if m_right != m_left and m_right != m_front:
        _group_option(ws, m_right, zone, opts)


def _group_option(ws: list[int], mask: int, zone: int, opts: list) -> None:
    if not mask & (mask - 1):
        return   # fewer than 2 members
    members_l: list[int] = []
    for k in range(len(ws)):
        if mask >> k & 1:
            members_l.append(ws[k])
    members = tuple(members_l)
    if zone == Z_STRIKE:
        opts.append((A_GROUP, G_OFFENSIVE, members))
    opts.append((A_GROUP, G_DEFENSIVE, members))


def types_in_play(g: Game, p: int) -> int:
    bits = 0
    for w in g.z[p][Z_BORDER] + g.z[p][Z_STRIKE]:
        bits |= g.cdef[w].wbit
    return bits


# recruit_zones()'s answers, shared (callers only read them)
_BOTH_ZONES: Final[tuple[int, ...]] = (Z_BORDER, Z_STRIKE)
_STRIKE_ZONE: Final[tuple[int, ...]] = (Z_STRIKE,)
_NO_ZONE: Final[tuple[int, ...]] = ()


def recruit_zones(g: Game, p: int, d: CardDef) -> tuple[int, ...]:
    """R7, R8: where a warrior of this type may be recruited now (none when its type is locked)."""
    if g.simplified:   # 002 §17: Cavalry and Vehicle restrictions ignored
        return _BOTH_ZONES
    wt = d.wtype
    if wt == W_CAVALRY or wt == W_VEHICLE:
        bit = 1 << wt
        cdef = g.cdef
        supplied = g.supplied
        unlocked = False
        for q in g.z[p][Z_SETTLE]:
            if cdef[q].unlocks & bit and supplied[q]:
                unlocked = True
                break
        if not unlocked:
            return _NO_ZONE
        if wt == W_VEHICLE:
            return _STRIKE_ZONE
    return _BOTH_ZONES


def can_equip(g: Game, w: int, d: CardDef) -> bool:
    """R10: at most 1 Weapon and 1 Armor on each Warrior (ignored in the simplified format, 002 §17)."""
    if g.simplified or not d.slot:
        return True
    for a in g.atts.get(w, ()):
        if g.cdef[a].slot & d.slot:
            return False
    return True


# ---- playing cards ------------------------------------------------------------------------------------
def play_card(g: Game, p: int, a: tuple) -> None:
    kind = a[0]
    i = a[1]
    d = g.cdef[i]
    if kind == A_BUILD:
        cells = settlement.build_cells(g, p, d)
        if len(cells) == 1:
            settlement.build(g, p, i, cells[0])
        else:
            g._decide("cell", p, [(A_CELL, c) for c in cells], (i,))
        return
    cost = statics.cost(g, i, p)
    g.reserve[p] -= cost
    count_play(g, p, d)
    if kind == A_RECRUIT:
        recruit(g, p, i, a[2], cost)
        return
    host = a[2]
    ik = d.ik
    if ik == IK_EQUIPMENT or ik == IK_HARMONY:
        attach(g, i, host)
        if g.logs is not None:
            g._log(p, "002 §10", f"{'equips' if ik == IK_EQUIPMENT else 'bestows'} {d.name} on "
                                    f"{g.cdef[host].name} ({cost} Gold)")
        enters(g, i, p)
    elif ik == IK_PROPHECY:
        attach(g, i, g.leader[p])
        if g.logs is not None:
            g._log(p, "002 §10", f"utters {d.name}: attached to the Leader for the game ({cost} Gold)")
        enters(g, i, p)
    elif ik == IK_RITUAL:
        settlement.move(g, i, Z_RITUAL, p)
        if g.logs is not None:
            g._log(p, "002 §10", f"performs {d.name} until the start of its next turn ({cost} Gold)")
        enters(g, i, p)
    else:
        # a plain Intrigue or an Art Spell: it resolves, then it is discarded (R9)
        settlement.move(g, i, Z_LIMBO, p)
        if g.logs is not None:
            g._log(p, "002 §10", f"plays {d.name} ({cost} Gold)")
        g.stack.append((F_DISCARD_LIMBO, i))
        ab = hand_ability(g, d)
        if ab is not None:
            g.stack.append((F_ABILITY, i, d.abilities.index(ab), p, 0, (), -1))


def hand_ability(g: Game, d: CardDef) -> Ability | None:
    cb = g.cb
    if cb is None:
        return d.play_ab
    lst = d.raid if cb.raid else d.combat
    return lst[0] if lst else None


def count_play(g: Game, p: int, d: CardDef) -> None:
    g.stats[p][S_CARDS_PLAYED] += 1
    g.played[p][d.name] = g.played[p].get(d.name, 0) + 1


def recruit(g: Game, p: int, i: int, zone: int, cost: int) -> None:
    d = g.cdef[i]
    settlement.move(g, i, zone, p)
    g.recruited_t[i] = g.turn
    if g.logs is not None:
        g._log(p, "002 §10", f"recruits {d.name} (CV {d.cv}) into the "
                                f"{'Borderlands' if zone == Z_BORDER else 'Strike Force'} ({cost} Gold)")
    g.stats[p][S_WARRIORS_RECRUITED] += 1
    abilities.fire_card(g, EV_RECRUITED, i)
    enters(g, i, p)


def enters(g: Game, i: int, p: int) -> None:
    d = g.cdef[i]
    if d.enters:
        for ab in reversed(d.enters):
            g.stack.append((F_ABILITY, i, d.abilities.index(ab), p, 0, (), -1))


def attach(g: Game, i: int, host: int) -> None:
    p = g.owner[i]
    settlement.move(g, i, Z_ATTACHED, p)
    g.host[i] = host
    g.atts.setdefault(host, []).append(i)


# ---- groups ---------------------------------------------------------------------------------------
def form_group(g: Game, p: int, kind: int, members: tuple[int, ...]) -> None:
    chosen = set(members)   # in the order of their zone (what a position reproduces), however listed
    members = tuple(w for w in g.z[p][g.zone[members[0]]] if w in chosen)
    gid = g.next_gid
    g.next_gid += 1
    g._grp_v += 1
    g.groups[gid] = (kind, p, members)
    for w in members:
        g.group[w] = gid
    if g.logs is not None:
        g._log(p, "002 §11", f"forms {'an Offensive' if kind == G_OFFENSIVE else 'a Defensive'} Group: "
                                f"{', '.join(g.cdef[w].name for w in members)} "
                                f"({tactics_text(group_tactics(g, members))})")


def group_tactics(g: Game, members: tuple[int, ...] | list[int]) -> int:
    bits = TAC_ALL
    for w in members:
        bits &= statics.tactics(g, w)
    return bits


def disband(g: Game, gid: int, section: str, why: str = "") -> None:
    grp = g.groups.pop(gid, None)
    if grp is None:
        return
    g._grp_v += 1
    for w in grp[2]:
        if g.group[w] == gid:
            g.group[w] = 0
    if g.logs is not None:
        g._log(grp[1], section, f"the Group of {', '.join(g.cdef[w].name for w in grp[2])} disbands"
                                 + (f" ({why})" if why else ""))


def leave_group(g: Game, w: int, gid: int) -> None:
    grp = g.groups.get(gid)
    g.group[w] = 0
    g._grp_v += 1
    if grp is None:
        return
    members = tuple(m for m in grp[2] if m != w)
    g.groups[gid] = (grp[0], grp[1], members)
    check_group(g, gid)


def check_group(g: Game, gid: int) -> None:
    grp = g.groups.get(gid)
    if grp is not None and (len(grp[2]) < 2 or not group_tactics(g, grp[2])):
        disband(g, gid, "002 §11", "fewer than 2 members, or no Tactic they all share")


def check_groups(g: Game) -> None:
    for gid in list(g.groups):
        check_group(g, gid)
