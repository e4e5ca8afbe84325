"""Step 5, Raid (002 §14, R17, R27, R35): targets, blocking, raid parties, the result and a Leader raid's
reward."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import (
    DUR_RAID, R_BE_BLOCKED, R_BE_RAIDED, R_BLOCK, R_RAID, ROLE_RAIDED, ROLE_RAIDER, TACTIC_NAMES, TACTIC_ORDER,
    W_VEHICLE,
)
from .state import (
    Z_DISCARD, Z_ASIDE, Z_ANNIH, Z_VP, Z_SETTLE, Z_BORDER, Z_STRIKE, ST_END, A_RAID, A_REWARD, RW_GOLD,
    RW_ATTACHMENTS, RW_DISCARD, RW_VP, G_DEFENSIVE, S_RAIDS, S_RAIDS_FAILED, S_PLACES_DESTROYED, S_PLACES_LOST,
    S_LEADER_RAIDS, S_REWARD_GOLD, PASS_OPT, Combat,
)
from . import settlement, phases, actions, combat, abilities, statics, texts

if TYPE_CHECKING:
    from .game import Game


# =================================================================================================
# 002 §14 Raid
def raid_step(g: Game) -> None:
    p = g.active
    cb = g.cb
    if g.raid_done:
        g.step = ST_END
        return
    if cb is not None:
        combat.window(g, cb)
        return
    if g.reward_pending:
        g._decide("reward", p, reward_options(g, p))
        return
    opts = raid_options(g, p)
    if not opts:
        g.raid_done = True
        return
    opts.append(PASS_OPT)
    g._decide("raid", p, opts)


def raid_targets(g: Game, q: int) -> list[int]:
    """002 §14: q's Places with an exposed edge (R2) that can be raided, or, with no Place left, q's Leader."""
    settle = g.z[q][Z_SETTLE]
    leader = g.leader[q]
    if len(settle) > 1:
        out = []
        for i in settle:
            if i != leader and settlement.neighbours(g, q, g.cell[i]) < 4 and statics.allowed(g, i, R_BE_RAIDED):
                out.append(i)
        return out
    return [leader] if leader >= 0 and statics.allowed(g, leader, R_BE_RAIDED) else []


def blocked(g: Game, q: int, t: int) -> bool:
    """002 §14: a Borderlands warrior not in a Group, or a Borderlands Defensive Group (all members), of q's
    having Tactic t blocks a raid on it."""
    for w in g.z[q][Z_BORDER]:
        gid_w = g.group[w]
        if gid_w:
            continue
        if statics.tactics(g, w) & t and statics.allowed(g, w, R_BLOCK):
            return True
    for gid, (kind, o, members) in g.groups.items():
        if o == q and kind == G_DEFENSIVE and g.zone[members[0]] == Z_BORDER:
            if actions.group_tactics(g, members) & t and all(statics.allowed(g, w, R_BLOCK) for w in members):
                return True
    return False


def raiders(g: Game, p: int, t: int) -> list[int]:
    """R17: p's Strike Force warriors having Tactic t that may raid (attacking earlier does not stop them)."""
    out = []
    turn = g.turn
    for w in g.z[p][Z_STRIKE]:
        if statics.tactics(g, w) & t and statics.allowed(g, w, R_RAID):
            if not g.simplified and g.cdef[w].wtype == W_VEHICLE and g.recruited_t[w] == turn:
                continue   # R8
            out.append(w)
    return out


def raid_options(g: Game, p: int) -> list:
    """One option per target and Tactic, with every warrior that may raid there (`raid T front a+b`; the engine
    accepts any of them). A blocked Tactic cannot be announced (R17) unless the raiders cannot be blocked."""
    statics.refresh(g)
    q = 1 - p
    targets = raid_targets(g, q)
    if not targets or not g.z[p][Z_STRIKE]:
        return []
    opts: list = []
    # a Tactic's raiding party (its raiders, less those a block stops) depends on the Tactic alone, not on the
    # target: found when first needed, by Tactic bit, and the one tuple shared by its targets' options
    by_tactic: list[tuple[int, ...] | None] = [None, None, None, None, None]
    for tgt in targets:
        tt = statics.tactics(g, tgt)
        for t in TACTIC_ORDER:
            if not tt & t:
                continue
            got = by_tactic[t]
            if got is None:
                party = raiders(g, p, t)
                if party and blocked(g, q, t):
                    party = [w for w in party if not statics.allowed(g, w, R_BE_BLOCKED)]
                got = tuple(party)
                by_tactic[t] = got
            if got:
                opts.append((A_RAID, tgt, t, got))
    return opts


def declare_raid(g: Game, p: int, a: tuple) -> None:
    tgt, t = a[1], a[2]
    chosen = set(a[3])   # in Strike Force order, however listed
    party = [w for w in g.z[p][Z_STRIKE] if w in chosen]
    for w in party:
        g.part[w] = ROLE_RAIDER
    g.part[tgt] = ROLE_RAIDED
    g.cb = Combat(True, p, list(party), [tgt], t)
    g.stats[p][S_RAIDS] += 1
    if g.logs is not None:
        g._log(p, "002 §14", f"raids {g.cdef[tgt].name} on the {TACTIC_NAMES[t]} with {texts.names(g, party)}")


def resolve_raid(g: Game, cb: Combat) -> None:
    p = cb.attacker
    q = 1 - p
    g.raid_done = True
    if not cb.att or not cb.dfn:
        g.cb = None
        if g.logs is not None:
            g._log(p, "002 §14", "the raid has no raider or no target left: nothing happens")
        abilities.expire(g, DUR_RAID, -1)
        combat.clear_parts(g)
        return
    r_cv = combat.side_cv(g, cb.att, cb.mods[p])
    t_cv = combat.side_cv(g, cb.dfn, cb.mods[q])
    tgt = cb.dfn[0]
    g.cb = None
    abilities.expire(g, DUR_RAID, -1)
    combat.clear_parts(g)
    if r_cv <= t_cv:   # 002 §14: a tie cannot be broken; a smaller total does nothing (R17)
        if g.logs is not None:
            g._log(p, "002 §14", f"raiders {r_cv} vs {g.cdef[tgt].name} {t_cv}: "
                                    f"{'a tie: nothing happens' if r_cv == t_cv else 'the raid fails'}")
        g.stats[p][S_RAIDS_FAILED] += 1
        return
    d = g.cdef[tgt]
    if d.is_leader:
        if g.logs is not None:
            g._log(p, "002 §14", f"raiders {r_cv} vs the Leader {t_cv}: the raid succeeds; the raider chooses a "
                                    "reward")
        g.stats[p][S_LEADER_RAIDS] += 1
        g.reward_pending = True
        g.raid_done = False
        return
    if g.logs is not None:
        g._log(p, "002 §14", f"raiders {r_cv} vs {d.name} {t_cv}: {d.name} is destroyed, {d.cv} VP")
    g.stats[p][S_PLACES_DESTROYED] += 1
    g.stats[q][S_PLACES_LOST] += 1
    frames = abilities.collect_destroyed(g, tgt, q, p)
    settlement.leave(g, tgt, Z_VP, p)   # the card becomes a VP marker in the raider's pile (002 §14)
    abilities.push_frames(g, frames)
    phases.gain_vp(g, p, d.cv, tokens=False)   # 002 §1: VP = the base CV


def reward_options(g: Game, p: int) -> list:
    q = 1 - p
    opts: list = []
    if g.reserve[q] > 0:
        opts.append((A_REWARD, RW_GOLD))
    if g.atts.get(g.leader[q]):
        opts.append((A_REWARD, RW_ATTACHMENTS))
    if g.z[q][Z_DISCARD] or g.z[q][Z_ASIDE]:
        opts.append((A_REWARD, RW_DISCARD))
    opts.append((A_REWARD, RW_VP))
    return opts


def reward(g: Game, p: int, k: int) -> None:
    q = 1 - p
    g.reward_pending = False
    g.raid_done = True
    g.stats[p][S_REWARD_GOLD + k] += 1
    leader = g.leader[q]
    if k == RW_GOLD:
        gold = g.reserve[q]
        g.reserve[q] = 0
        g.reserve[p] += gold
        if g.logs is not None:
            g._log(p, "002 §14", f"takes the opponent's whole Reserve: {gold} Gold")
    elif k == RW_ATTACHMENTS:
        lst = list(g.atts.get(leader, ()))
        for a in lst:
            settlement.leave(g, a, Z_ANNIH)
        if g.logs is not None:
            g._log(p, "002 §14", f"annihilates the cards attached to the opponent's Leader ({len(lst)})")
    elif k == RW_DISCARD:
        pile = g.z[q][Z_DISCARD] + g.z[q][Z_ASIDE]
        for i in pile:
            settlement.move(g, i, Z_ANNIH, q)
        if g.logs is not None:
            g._log(p, "002 §14", f"annihilates the opponent's discard pile ({len(pile)} cards)")
    frames = abilities.collect_raid_won(g, p, leader)
    if k == RW_VP:
        v = g.cdef[leader].cv
        if g.logs is not None:
            g._log(p, "002 §14", f"takes {v} VP tokens (the Leader's base CV)")
        abilities.push_frames(g, frames)
        phases.gain_vp(g, p, v, tokens=True)
        return
    abilities.push_frames(g, frames)
