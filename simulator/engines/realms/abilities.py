"""The ability interpreter (§14 of docs/games/realms.md): the stack of frames being resolved (targets, costs,
effects), every effect, lasting effects, and the triggers an event fires."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import (
    CTRL_OPP, CTRL_YOU, DUR_ATTACK, DUR_RAID, DUR_TURN, E_ADD_RESOURCES, E_ANNIHILATE, E_DISBAND, E_DISCARD,
    E_DISCARD_HAND, E_DRAW, E_GAIN_GOLD, E_GRANT_TACTIC, E_KILL, E_MODIFY_CV, E_MOVE, E_RECOVER, E_RECRUIT,
    E_RETURN, E_RULE, E_SEARCH, E_TAKE_GOLD, EV_DIES, EV_PLACE_DESTROYED, EV_RAID_WON, K_ANNIHILATE_SELF,
    K_DISCARD_HAND, K_DISCARD_SELF, K_KILL, K_PAY_GOLD, R_BE_MOVED, REF_EACH, REF_EVENT, REF_HOST, REF_LEADER,
    REF_OUR, REF_SELF, REF_TARGET, REF_THEIR, TM_COMBAT, TM_RAID, Ability, Eff, Sel,
)
from .state import (
    Z_DECK, Z_HAND, Z_DISCARD, Z_ASIDE, Z_ANNIH, Z_SETTLE, Z_BORDER, Z_STRIKE, Z_ATTACHED, Z_RITUAL, Z_LIMBO,
    A_RECRUIT, A_DISCARD, A_DONE, A_TARGET, A_TAKE, A_KILL, A_YES, A_NO, F_ABILITY, F_EFFECT, F_DISCARD_LIMBO,
    F_CHOOSE_DISCARD, F_COST_KILL, TE_CV, TE_TACTIC, TE_RULE, DURATION_WORDS, Decision, TmpEff, resources_text,
    effect_text, DONE_OPT,
)
from . import settlement, phases, actions, statics, texts

if TYPE_CHECKING:
    from .game import Game


# =================================================================================================
# abilities: the stack
def step_stack(g: Game) -> None:
    f = g.stack.pop()
    op = f[0]
    if op == F_ABILITY:
        step_ability(g, f)
    elif op == F_EFFECT:
        step_effect(g, f)
    elif op == F_DISCARD_LIMBO:
        i = f[1]
        if g.zone[i] == Z_LIMBO:
            settlement.move(g, i, Z_DISCARD, g.owner[i])
    elif op == F_CHOOSE_DISCARD:
        step_choose_discard(g, f)
    elif op == F_COST_KILL:
        step_cost_kill(g, f)


def subject(g: Game, src: int) -> int:
    """§14.2: the subject is the card, its host when attached, or its player's side (-1) for an Intrigue played
    from hand."""
    z = g.zone[src]
    if z == Z_ATTACHED:
        return g.host[src]
    if z == Z_LIMBO or z == Z_HAND:
        return -1
    return src


def step_ability(g: Game, f: tuple) -> None:
    _, src, k, ctrl, stage, targets, ev = f
    ab = g.cdef[src].abilities[k]
    if stage == -1:   # an optional trigger (one with a cost): use it?
        if statics.usable(g, ab, src, ctrl, subject(g, src)):
            g.stack.append((F_ABILITY, src, k, ctrl, 0, targets, ev))
            g._decide("trigger", ctrl, [(A_YES,), (A_NO,)], (src, k))
        return
    if stage == 0:
        if ab.cond is not None and not statics.cond(g, ab.cond, ctrl, subject(g, src)):
            return   # §14.2: the condition must hold (a trigger whose condition fails does nothing)
        sel = ab.target
        if sel is not None and len(targets) < sel.count:
            cands = [c for c in statics.select(g, sel, ctrl, src) if c not in targets]
            if cands:
                opts: list = [(A_TARGET, c) for c in cands]
                if sel.up_to and targets:
                    opts.append(DONE_OPT)
                g.stack.append(f)
                g._decide("target", ctrl, opts, (src, k))
                return
            if not targets and not sel.up_to:
                if g.logs is not None:
                    g._log(ctrl, "§14.2", f"{g.cdef[src].name}: no legal target, nothing happens")
                return
        stage = 1
    costs = ab.costs
    while stage <= len(costs):
        c = costs[stage - 1]
        stage += 1
        if c.kind == K_PAY_GOLD:
            g.reserve[ctrl] -= min(c.n, g.reserve[ctrl])
        elif c.kind == K_DISCARD_SELF:
            if Z_SETTLE <= g.zone[src] <= Z_RITUAL:
                settlement.leave(g, src, Z_DISCARD)
        elif c.kind == K_ANNIHILATE_SELF:
            if Z_SETTLE <= g.zone[src] <= Z_RITUAL or g.zone[src] == Z_LIMBO:
                if g.zone[src] == Z_LIMBO:
                    settlement.move(g, src, Z_ANNIH, g.owner[src])
                else:
                    settlement.leave(g, src, Z_ANNIH)
        elif c.kind == K_DISCARD_HAND:
            g.stack.append((F_ABILITY, src, k, ctrl, stage, targets, ev))
            g.stack.append((F_CHOOSE_DISCARD, ctrl, c.n, 0, src))
            return
        elif c.kind == K_KILL:
            g.stack.append((F_ABILITY, src, k, ctrl, stage, targets, ev))
            g.stack.append((F_COST_KILL, src, k, ctrl, stage - 2))
            return
    if ab.effects:
        g.stack.append((F_EFFECT, src, k, ctrl, 0, targets, ev))


def step_choose_discard(g: Game, f: tuple) -> None:
    _, p, n, rnd, src = f
    hand = g.z[p][Z_HAND]
    if n <= 0 or not hand:
        return
    if rnd:
        rng = g._event_rng()
        for _ in range(min(n, len(hand))):
            i = hand[int(rng.random() * len(hand))]
            if g.logs is not None:
                g._log(p, "§14.4", f"discards {g.cdef[i].name} at random")
            settlement.move(g, i, Z_DISCARD, p)
        return
    g.stack.append(f)
    g._decide("discard", p, texts.dedupe_hand(g, hand, A_DISCARD), (n,))


def step_cost_kill(g: Game, f: tuple) -> None:
    _, src, k, ctrl, ci = f
    sel = g.cdef[src].abilities[k].costs[ci].sel
    assert sel is not None
    cands = [w for w in statics.select(g, sel, ctrl, src) if g.zone[w] in (Z_BORDER, Z_STRIKE)
             and g.owner[w] == ctrl]
    if not cands:
        return
    g._decide("kill", ctrl, [(A_KILL, w) for w in cands], (src, k))


def handle_sub(g: Game, dec: Decision, a: tuple) -> None:
    kind = a[0]
    p = dec.player
    k = dec.kind
    if k == "target":
        f = g.stack.pop()
        if kind == A_DONE:
            g.stack.append((F_ABILITY, f[1], f[2], f[3], 1, f[5], f[6]))
        else:
            g.stack.append((F_ABILITY, f[1], f[2], f[3], 0, f[5] + (a[1],), f[6]))
    elif k == "trigger":
        if kind == A_NO:
            g.stack.pop()   # the frame that would have used it
    elif k == "discard":
        f = g.stack.pop()
        i = a[1]
        if g.logs is not None:
            g._log(p, "§14.4", f"discards {g.cdef[i].name} from hand")
        settlement.move(g, i, Z_DISCARD, p)
        if f[2] > 1:
            g.stack.append((F_CHOOSE_DISCARD, f[1], f[2] - 1, f[3], f[4]))
    elif k == "kill":
        settlement.kill(g, a[1], "§14.5")
    elif k == "take":
        i = a[1]
        src_zone = g.zone[i]
        settlement.move(g, i, Z_HAND, p)
        g.seen[i] = 3
        if src_zone == Z_DECK:
            if g.logs is not None:
                g._log(p, "§14.4", f"searches its deck for {g.cdef[i].name} (revealed) and shuffles")
            deck = g.z[p][Z_DECK]
            for j in deck:
                g.seen[j] = 0
            g._shuffle(deck)
        else:
            if g.logs is not None:
                g._log(p, "§14.4", f"takes {g.cdef[i].name} from its discard pile into its hand")
    elif k == "recruit":
        i, zone = a[1], a[2]
        free = bool(dec.ctx[0])
        cost = 0 if free else statics.cost(g, i, p)
        g.reserve[p] -= cost
        actions.count_play(g, p, g.cdef[i])
        actions.recruit(g, p, i, zone, cost)


def step_effect(g: Game, f: tuple) -> None:
    _, src, k, ctrl, ei, targets, ev = f
    ab = g.cdef[src].abilities[k]
    effects = ab.effects
    if ei + 1 < len(effects):
        g.stack.append((F_EFFECT, src, k, ctrl, ei + 1, targets, ev))
    effect(g, effects[ei], ab, src, k, ctrl, targets, ev)


def amount(g: Game, e: Eff, ctrl: int, src: int) -> int:
    if e.amount_sel is not None:
        return len(statics.select(g, e.amount_sel, ctrl, src))
    return e.amount


def effect(g: Game, e: Eff, ab: Ability, src: int, k: int, ctrl: int, targets: tuple, ev: int) -> None:
    kind = e.kind
    name = g.cdef[src].name
    q = 1 - ctrl
    if kind == E_DRAW:
        phases.draw(g, ctrl, amount(g, e, ctrl, src))
    elif kind == E_GAIN_GOLD:
        n = amount(g, e, ctrl, src)
        g.reserve[ctrl] += n
        if g.logs is not None:
            g._log(ctrl, "§14.4", f"{name}: gains {n} Gold (Reserve {g.reserve[ctrl]})")
    elif kind == E_TAKE_GOLD:
        n = min(amount(g, e, ctrl, src), g.reserve[q])
        g.reserve[q] -= n
        g.reserve[ctrl] += n
        if g.logs is not None:
            g._log(ctrl, "§14.4", f"{name}: takes {n} Gold from the opponent's Reserve")
    elif kind in (E_MODIFY_CV, E_GRANT_TACTIC, E_RULE):
        lasting(g, e, ab, src, ctrl, targets, ev)
    elif kind == E_KILL:
        for i in refs(g, e.ref, e.ref_sel, src, ctrl, targets, ev):
            settlement.kill(g, i, "§14.4")
    elif kind == E_DISCARD or kind == E_ANNIHILATE:
        dest = Z_DISCARD if kind == E_DISCARD else Z_ANNIH
        for i in refs(g, e.ref, e.ref_sel, src, ctrl, targets, ev):
            z = g.zone[i]
            d = g.cdef[i]
            if Z_SETTLE <= z <= Z_RITUAL and not d.is_leader and not d.is_place:
                if g.logs is not None:
                    g._log(ctrl, "002 §3", f"{name}: {'discards' if dest == Z_DISCARD else 'annihilates'} "
                                              f"{d.name}")
                settlement.leave(g, i, dest)
            elif dest == Z_ANNIH and z in (Z_DISCARD, Z_ASIDE):
                if g.logs is not None:
                    g._log(ctrl, "002 §3", f"{name}: annihilates {d.name} from a discard pile")
                settlement.move(g, i, Z_ANNIH, g.owner[i])
    elif kind == E_RETURN:
        for i in refs(g, e.ref, e.ref_sel, src, ctrl, targets, ev):
            z = g.zone[i]
            if z in (Z_BORDER, Z_STRIKE, Z_ATTACHED):
                if g.logs is not None:
                    g._log(ctrl, "§14.4", f"{name}: {g.cdef[i].name} returns to its owner's hand")
                settlement.leave(g, i, Z_HAND)
    elif kind == E_MOVE:
        for i in refs(g, e.ref, e.ref_sel, src, ctrl, targets, ev):
            z = g.zone[i]
            if z in (Z_BORDER, Z_STRIKE) and not g.group[i] and statics.allowed(g, i, R_BE_MOVED):
                dest = Z_STRIKE if z == Z_BORDER else Z_BORDER
                settlement.move(g, i, dest, g.owner[i])
                if g.logs is not None:
                    g._log(ctrl, "§14.4", f"{name}: {g.cdef[i].name} moves to the "
                                             f"{'Borderlands' if dest == Z_BORDER else 'Strike Force'}")
    elif kind == E_DISBAND:
        for i in refs(g, e.ref, e.ref_sel, src, ctrl, targets, ev):
            if g.group[i]:
                actions.disband(g, g.group[i], "§14.4")
    elif kind == E_RECOVER or kind == E_SEARCH:
        sel = e.sel
        assert sel is not None
        zone = Z_DISCARD if kind == E_RECOVER else Z_DECK
        cands = [i for i in g.z[ctrl][zone] if statics.match(g, sel, i, ctrl, src, any_zone=True)]
        if not cands:
            if kind == E_SEARCH:
                if g.logs is not None:
                    g._log(ctrl, "§14.4", f"{name}: the search finds nothing; the deck is shuffled")
                g._shuffle(g.z[ctrl][Z_DECK])
            return
        if kind == E_SEARCH:
            for i in cands:   # the searcher looks through its deck (then shuffles it)
                g.seen[i] |= 1 << ctrl
        g._decide("take", ctrl, texts.dedupe_hand(g, cands, A_TAKE), (kind,))
    elif kind == E_RECRUIT:
        sel = e.sel
        assert sel is not None
        opts: list = []
        seen_defs: set[int] = set()
        for i in g.z[ctrl][Z_HAND]:
            d = g.cdef[i]
            if not d.is_warrior or id(d) in seen_defs or not statics.match(g, sel, i, ctrl, src, any_zone=True):
                continue
            seen_defs.add(id(d))
            if d.unique and statics.copy_in_play(g, ctrl, d.name):
                continue
            if not e.free and statics.cost(g, i, ctrl) > g.reserve[ctrl]:
                continue
            for zone in actions.recruit_zones(g, ctrl, d):
                opts.append((A_RECRUIT, i, zone))
        if opts:
            g._decide("recruit", ctrl, opts, (1 if e.free else 0,))
    elif kind == E_DISCARD_HAND:
        p = q if e.opponent else ctrl
        g.stack.append((F_CHOOSE_DISCARD, p, amount(g, e, ctrl, src), 1 if e.random else 0, src))
    elif kind == E_ADD_RESOURCES:
        for r in range(4):
            g.add_res[ctrl][r] += e.resources[r]
        if g.logs is not None:
            g._log(ctrl, "§14.4", f"{name}: this turn's Resource Balancing has {resources_text(e.resources)} "
                                     "more")


def lasting(g: Game, e: Eff, ab: Ability, src: int, ctrl: int, targets: tuple, ev: int) -> None:
    until = e.until
    if until < 0:   # §14.4: the default duration follows the timing
        until = DUR_ATTACK if ab.timing == TM_COMBAT else DUR_RAID if ab.timing == TM_RAID else DUR_TURN
    cb = g.cb
    name = g.cdef[src].name
    if e.who in (REF_OUR, REF_THEIR) and cb is not None and e.kind == E_MODIFY_CV and \
            until in (DUR_ATTACK, DUR_RAID):
        side = ctrl if e.who == REF_OUR else 1 - ctrl
        assert e.cvmod is not None
        cb.mods[side].append(e.cvmod)
        if g.logs is not None:
            g._log(ctrl, "002 §16", f"{name}: {'our' if side == ctrl else 'the opposing'} side "
                                       f"{e.cvmod.text()} CV")
        return
    for i in refs(g, e.who, e.who_sel, src, ctrl, targets, ev):
        if not (Z_SETTLE <= g.zone[i] <= Z_RITUAL):
            continue
        if e.kind == E_MODIFY_CV:
            g.tmp.append(TmpEff(TE_CV, i, e.cvmod, 0, 0, 0, until, ctrl))
        elif e.kind == E_GRANT_TACTIC:
            g.tmp.append(TmpEff(TE_TACTIC, i, None, e.tactics, 0, 0, until, ctrl))
        else:
            for rule, mode in e.rules:
                g.tmp.append(TmpEff(TE_RULE, i, None, 0, rule, mode, until, ctrl))
        if g.logs is not None:
            g._log(ctrl, "§14.4", f"{name}: {g.cdef[i].name} {effect_text(e)} "
                                     f"({DURATION_WORDS[until]})")
    count_tmp(g)
    actions.check_groups(g)


def count_tmp(g: Game) -> None:
    r = t = 0
    for te in g.tmp:
        if te.kind == TE_RULE:
            r += 1
        elif te.kind == TE_TACTIC:
            t += 1
    g._n_tmp_rule = r
    g._n_tmp_tac = t


def expire(g: Game, dur: int, p: int) -> None:
    if not g.tmp:
        return
    keep = [t for t in g.tmp if not (t.dur == dur and (p < 0 or t.ctrl == p))]
    if len(keep) != len(g.tmp):
        g.tmp = keep
        count_tmp(g)
        actions.check_groups(g)


def refs(g: Game, ref: int, sel: Sel | None, src: int, ctrl: int, targets: tuple, ev: int) -> list[int]:
    if ref == REF_SELF:
        return [src]
    if ref == REF_TARGET:
        return list(targets)
    if ref == REF_HOST:
        h = g.host[src]
        return [h] if h >= 0 else []
    if ref == REF_LEADER:
        return [g.leader[ctrl]]
    if ref == REF_EVENT:
        return [ev] if ev >= 0 else []
    if ref == REF_EACH:
        assert sel is not None
        return statics.select(g, sel, ctrl, src)
    cb = g.cb
    if cb is None:
        return []
    side = ctrl if ref == REF_OUR else 1 - ctrl
    return list(cb.att if side == cb.attacker else cb.dfn)


# =================================================================================================
# events and triggers
def fire_simple(g: Game, ev: int, p: int) -> None:
    """turn_start / balancing: the active player's triggers."""
    if not g.n_trig[ev]:
        return
    statics.refresh(g)
    frames = []
    for src, ab in g._trig[ev]:
        if g.owner[src] == p:
            frames.append(trigger_frame(g, src, ab, -1))
    push_frames(g, frames)


def fire_card(g: Game, ev: int, card: int) -> None:
    push_frames(g, collect(g, ev, card))


def collect(g: Game, ev: int, card: int) -> list[tuple]:
    """recruited / built / dies: listeners whose `card` filter matches (g, a selector seen from the listener's
    controller, or — with no filter — a card of the listener's controller). Collected before a dying card
    leaves, so a card's own `dies` trigger fires."""
    if not g.n_trig[ev]:
        return []   # nobody in play listens (a dying card's own triggers count: it is still in play)
    statics.refresh(g)
    lst = g._trig[ev]
    if not lst and not (ev == EV_DIES and g.cdef[card].triggers):
        return []
    frames = []
    cands = list(lst)
    if ev == EV_DIES and g.cdef[card].triggers:
        for ab in g.cdef[card].triggers:
            if ab.event == ev and all(s != card for s, _ in cands):
                cands.append((card, ab))
    for src, ab in cands:
        ctrl = g.owner[src]
        if ab.when_self:
            ok = src == card
        elif ab.when_sel is not None:
            ok = statics.match(g, ab.when_sel, card, ctrl, src, any_zone=True)
        else:
            ok = g.owner[card] == ctrl
        if ok:
            frames.append(trigger_frame(g, src, ab, card))
    return frames


def collect_side(g: Game, ev: int, side: list[int], role: int) -> list[tuple]:
    """attack_won: once per attack won, for listeners whose filter matches a card on the winning side."""
    if not g.n_trig[ev]:
        return []
    statics.refresh(g)
    frames = []
    for src, ab in g._trig[ev]:
        ctrl = g.owner[src]
        if ab.when_as and ab.when_as != role:
            continue
        hit = -1
        for w in side:
            if ab.when_self:
                ok = w == src or g.host[src] == w
            elif ab.when_sel is not None:
                ok = statics.match(g, ab.when_sel, w, ctrl, src, any_zone=True)
            else:
                ok = g.owner[w] == ctrl
            if ok:
                hit = w
                break
        if hit >= 0:
            frames.append(trigger_frame(g, src, ab, hit))
    return frames


def collect_destroyed(g: Game, place: int, owner: int, raider: int) -> list[tuple]:
    if not g.n_trig[EV_PLACE_DESTROYED] and not g.n_trig[EV_RAID_WON]:
        return []
    statics.refresh(g)
    frames = []
    for src, ab in g._trig[EV_PLACE_DESTROYED]:
        ctrl = g.owner[src]
        if ab.when_ctrl == CTRL_YOU and owner != ctrl or ab.when_ctrl == CTRL_OPP and owner == ctrl:
            continue
        if src == place:
            continue
        frames.append(trigger_frame(g, src, ab, place))
    frames.extend(collect_raid_won(g, raider, place))
    return frames


def collect_raid_won(g: Game, raider: int, target: int) -> list[tuple]:
    if not g.n_trig[EV_RAID_WON]:
        return []
    statics.refresh(g)
    frames = []
    tt = g.cdef[target].type
    for src, ab in g._trig[EV_RAID_WON]:
        if g.owner[src] != raider:
            continue
        if ab.when_target >= 0 and ab.when_target != tt:
            continue
        frames.append(trigger_frame(g, src, ab, target))
    return frames


def trigger_frame(g: Game, src: int, ab: Ability, ev: int) -> tuple:
    k = g.cdef[src].abilities.index(ab)
    return (F_ABILITY, src, k, g.owner[src], -1 if ab.optional else 0, (), ev)


def push_frames(g: Game, frames: list[tuple]) -> None:
    # the active player's triggers resolve first, each player's in card order (the stack is LIFO)
    if not frames:
        return
    a = g.active
    if len(frames) > 1:
        rank: dict[int, int] = {}
        for p in (a, 1 - a):
            for i in statics.in_play(g, p):
                rank[i] = len(rank)
        frames.sort(key=lambda f: (f[3] != a, rank.get(f[1], 9999)))
    for k in range(len(frames) - 1, -1, -1):
        g.stack.append(frames[k])
