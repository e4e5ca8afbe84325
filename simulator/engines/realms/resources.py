"""Step 3, Resource Balancing (002 §4, §12, §15, R4, R25, R37): what is available, paying card by card or in
the engine's `pay all` order, discarding, and a Place cut off from the Supply Line in the middle of it."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import (
    EV_BALANCING,
)
from .state import (
    Z_DISCARD, Z_SETTLE, ST_BALANCE, ST_ATTACK, S_UNPAID_DISCARDS, PAY_ALL_OPT,
    discard_opt, pay_opt,
)
from . import settlement, abilities, statics

if TYPE_CHECKING:
    from .game import Game

Icons = tuple[int, int, int, int]   # a card's four resources (Gold, and the other three)


# =================================================================================================
# 002 §12 Resource Balancing (R4)
def balancing_start(g: Game) -> None:
    p = g.active
    g.step = ST_BALANCE
    g.bal_forced = 0
    g.bal_unpaid = []
    # the balancing's inputs are taken after its triggers resolve: see _balance_init
    g.bal_avail = [-1, 0, 0, 0]
    abilities.fire_simple(g, EV_BALANCING, p)


def balance_init(g: Game, p: int) -> None:
    if g._dirty:
        statics.refresh(g)
    # the four resources as local ints: a list item's += is a generic object add in compiled code
    extra = g.add_res[p]
    a0 = g.reserve[p] + extra[0]
    a1 = extra[1]
    a2 = extra[2]
    a3 = extra[3]
    unpaid: list[int] = []
    fast = not g._st_icon
    cdef = g.cdef
    for i in statics.in_play(g, p):
        if g.zone[i] == Z_SETTLE and not g.supplied[i]:
            continue   # 002 §15: an unsupplied Place neither provides nor pays
        if fast:
            d = cdef[i]
            if d.has_red:
                unpaid.append(i)
            else:
                a0 += d.p0
                a1 += d.p1
                a2 += d.p2
                a3 += d.p3
            continue
        prov, cons = statics.icons(g, i)
        if cons[0] or cons[1] or cons[2] or cons[3]:
            unpaid.append(i)
        else:
            a0 += prov[0]
            a1 += prov[1]
            a2 += prov[2]
            a3 += prov[3]
    avail = [a0, a1, a2, a3]
    g.bal_avail = avail
    g.bal_unpaid = unpaid


def balance_decision(g: Game) -> None:
    p = g.active
    if g._dirty:
        statics.refresh(g)
    if g.bal_avail[0] < 0:
        balance_init(g, p)
    unpaid = g.bal_unpaid
    if not unpaid:
        balance_end(g, p)
        return
    avail = g.bal_avail
    if not g._st_icon:
        # printed icons (no static changes them): affordable() on the cards' int fields, inline
        a0: int = avail[0]
        a1: int = avail[1]
        a2: int = avail[2]
        a3: int = avail[3]
        cdef = g.cdef
        payable: list[int] = []
        for i in unpaid:
            d = cdef[i]
            if a0 >= d.c0 and a1 >= d.c1 and a2 >= d.c2 and a3 >= d.c3:
                payable.append(i)
    else:
        payable = [i for i in unpaid if affordable(g, i, avail)]

    if not payable:
        # 002 §12: the cards that cannot be paid are discarded
        for i in list(unpaid):
            if i in unpaid:   # a Place cut off by an earlier discard pays nothing and stays (002 §15)
                bal_discard(g, p, i, forced=True)
        return
    opts: list = []
    order = pay_all_order(g, avail, unpaid)
    ctx: tuple = ()
    if order is not None:
        opts.append(PAY_ALL_OPT)
        ctx = tuple(order)   # the engine's order, which `pay all` follows
    for i in payable:
        opts.append(pay_opt(i))
    for i in unpaid:
        opts.append(discard_opt(i))
    g._decide("balance", p, opts, ctx)


def affordable(g: Game, i: int, avail: list[int]) -> bool:
    if g._dirty:
        statics.refresh(g)
    if not g._st_icon:
        d = g.cdef[i]
        return avail[0] >= d.c0 and avail[1] >= d.c1 and avail[2] >= d.c2 and avail[3] >= d.c3
    cons = statics.icons(g, i)[1]
    return avail[0] >= cons[0] and avail[1] >= cons[1] and avail[2] >= cons[2] and avail[3] >= cons[3]


def pay_all_order(g: Game, avail: list[int], unpaid: list[int]) -> list[int] | None:
    """An order that pays every card of `unpaid` from `avail` (R4: a card's blue icons count once its red ones
    are paid), or None. The engine's order: the cards that also provide something first (the most net
    first, each as soon as it can be paid), then the cards that only consume, whose order does not matter.
    (`pay all` is offered when this order pays everything; a player may always pay card by card.)"""
    order: list[int] = []
    if g._dirty:
        statics.refresh(g)
    if not g._st_icon:
        return order if settle_fast(g, list(avail), unpaid, order) else None
    items: list[tuple[int, Icons, Icons]] = []
    for i in unpaid:
        prov, cons = statics.icons(g, i)
        items.append((i, prov, cons))
    if settle_order(g, list(avail), items, order) is None:
        return None
    return order


def settle_fast(g: Game, a: list[int], ids: list[int], order: list[int] | None) -> bool:
    """_settle_order for printed icons (no static changes them): the same order, on the cards' int fields."""
    cdef = g.cdef
    conv: list[int] = []
    n0 = n1 = n2 = n3 = 0
    for i in ids:
        d = cdef[i]
        if d.has_blue:
            conv.append(i)
        else:
            n0 += d.c0
            n1 += d.c1
            n2 += d.c2
            n3 += d.c3
    a0, a1, a2, a3 = a[0], a[1], a[2], a[3]
    while conv:
        best = -1
        best_key = -99
        for k in range(len(conv)):
            d = cdef[conv[k]]
            if a0 >= d.c0 and a1 >= d.c1 and a2 >= d.c2 and a3 >= d.c3 and d.net > best_key:
                best, best_key = k, d.net
        if best < 0:
            return False
        i = conv.pop(best)
        d = cdef[i]
        a0 += d.p0 - d.c0
        a1 += d.p1 - d.c1
        a2 += d.p2 - d.c2
        a3 += d.p3 - d.c3
        if order is not None:
            order.append(i)
    if a0 < n0 or a1 < n1 or a2 < n2 or a3 < n3:
        return False
    a[0] = a0 - n0
    a[1] = a1 - n1
    a[2] = a2 - n2
    a[3] = a3 - n3
    if order is not None:
        for i in ids:
            if not cdef[i].has_blue:
                order.append(i)
    return True


def settle_order(g: Game, a: list[int], items: list[tuple[int, Icons, Icons]],
                 order: list[int] | None) -> list[int] | None:
    """Pay `items` ((card, provides, consumes) triples) from `a` in the engine's order; `a` ends as what is
    left (or the function returns None when some card cannot be paid). Appends the order to `order`."""
    # typed items and local ints: an untyped item, or a list item's +=, is a generic object operation in
    # compiled code
    converters: list[tuple[int, Icons, Icons]] = []
    n0 = n1 = n2 = n3 = 0
    for it in items:
        prov = it[1]
        if prov[0] or prov[1] or prov[2] or prov[3]:
            converters.append(it)
        else:
            cons = it[2]
            n0 += cons[0]
            n1 += cons[1]
            n2 += cons[2]
            n3 += cons[3]
    a0: int = a[0]
    a1: int = a[1]
    a2: int = a[2]
    a3: int = a[3]
    while converters:
        best = -1
        best_key = -99
        for k in range(len(converters)):
            cv = converters[k]
            prov = cv[1]
            cons = cv[2]
            if a0 >= cons[0] and a1 >= cons[1] and a2 >= cons[2] and a3 >= cons[3]:
                key = prov[0] + prov[1] + prov[2] + prov[3] - (cons[0] + cons[1] + cons[2] + cons[3])
                if key > best_key:
                    best, best_key = k, key
        if best < 0:
            a[0] = a0
            a[1] = a1
            a[2] = a2
            a[3] = a3
            return None
        cv = converters.pop(best)
        prov = cv[1]
        cons = cv[2]
        a0 += prov[0] - cons[0]
        a1 += prov[1] - cons[1]
        a2 += prov[2] - cons[2]
        a3 += prov[3] - cons[3]
        if order is not None:
            order.append(cv[0])
    if a0 < n0 or a1 < n1 or a2 < n2 or a3 < n3:
        a[0] = a0
        a[1] = a1
        a[2] = a2
        a[3] = a3
        return None
    a[0] = a0 - n0
    a[1] = a1 - n1
    a[2] = a2 - n2
    a[3] = a3 - n3
    if order is not None:
        for it in items:
            p = it[1]
            if not (p[0] or p[1] or p[2] or p[3]):
                order.append(it[0])
    return a


def project_balance(g: Game, p: int) -> list[int] | None:
    """What p would have left after a Resource Balancing now that keeps every card in play (R4): the four
    resources, Gold being the next Reserve; None when the engine's order could not pay some card."""
    if g._dirty:
        statics.refresh(g)
    # the four resources as local ints until the end (a list made, then read back, then made again boxed each)
    extra = g.add_res[p]
    a0: int = g.reserve[p] + extra[0]
    a1: int = extra[1]
    a2: int = extra[2]
    a3: int = extra[3]
    zone = g.zone
    supplied = g.supplied
    if not g._st_icon:
        cdef = g.cdef
        ids: list[int] = []
        for i in statics.in_play(g, p):
            if zone[i] == Z_SETTLE and not supplied[i]:
                continue
            d = cdef[i]
            if d.has_red:
                ids.append(i)
            else:
                a0 += d.p0
                a1 += d.p1
                a2 += d.p2
                a3 += d.p3
        a = [a0, a1, a2, a3]
        if not ids:
            return a
        return a if settle_fast(g, a, ids, None) else None
    items: list[tuple[int, Icons, Icons]] = []
    for i in statics.in_play(g, p):
        if zone[i] == Z_SETTLE and not supplied[i]:
            continue
        prov, cons = statics.icons(g, i)
        if cons[0] or cons[1] or cons[2] or cons[3]:
            items.append((i, prov, cons))
        else:
            a0 += prov[0]
            a1 += prov[1]
            a2 += prov[2]
            a3 += prov[3]
    a = [a0, a1, a2, a3]
    if not items:
        return a
    return settle_order(g, a, items, None)


def bal_withdraw(g: Game, p: int, cut: list[int]) -> None:
    """002 §15: a Place cut off from the Supply Line neither provides nor pays, also when the Line breaks in
    the middle of the Resource Balancing (a card discarded unpaid, on purpose or not). What it was counted for
    leaves what is available at once: its blue icons, less the red ones it paid. Resources already spent
    cannot be taken back, so a resource left below zero unpays every paid card that consumed it; they must
    be paid again or are discarded (002 §12). (docs/games/realms.md, R37.)"""
    if g._dirty:
        statics.refresh(g)
    fast = not g._st_icon
    cdef = g.cdef
    avail = g.bal_avail
    unpaid = g.bal_unpaid
    for q in cut:
        if q in unpaid:
            continue   # never counted: _bal_discard drops it from the cards to pay
        if fast:
            prov, cons = cdef[q].prov, cdef[q].cons
        else:
            prov, cons = statics.icons(g, q)
        for r in range(4):
            avail[r] -= prov[r] - cons[r]


def bal_unpay(g: Game, p: int) -> None:
    """After _bal_withdraw: while a resource is below zero, every paid card that consumed it is unpaid."""
    fast = not g._st_icon
    cdef = g.cdef
    avail = g.bal_avail
    unpaid = g.bal_unpaid
    zone = g.zone
    while avail[0] < 0 or avail[1] < 0 or avail[2] < 0 or avail[3] < 0:
        back: list[int] = []
        for i in statics.in_play(g, p):
            if i in unpaid or zone[i] == Z_SETTLE and not g.supplied[i]:
                continue
            if fast:
                prov, cons = cdef[i].prov, cdef[i].cons
            else:
                prov, cons = statics.icons(g, i)
            for r in range(4):
                if avail[r] < 0 and cons[r]:
                    back.append(i)
                    break
        if not back:
            break
        for i in back:
            if fast:
                prov, cons = cdef[i].prov, cdef[i].cons
            else:
                prov, cons = statics.icons(g, i)
            for r in range(4):
                avail[r] -= prov[r] - cons[r]
            unpaid.append(i)
            if g.logs is not None:
                g._log(p, "002 §15", f"{cdef[i].name} is no longer paid: what paid it was cut off")


def bal_pay(g: Game, p: int, i: int) -> None:
    if g._dirty:
        statics.refresh(g)
    avail = g.bal_avail
    # local ints, then stored: a list item's += is a generic object add in compiled code
    if not g._st_icon:
        d = g.cdef[i]
        d0 = d.p0 - d.c0
        d1 = d.p1 - d.c1
        d2 = d.p2 - d.c2
        d3 = d.p3 - d.c3
    else:
        prov, cons = statics.icons(g, i)
        d0 = prov[0] - cons[0]
        d1 = prov[1] - cons[1]
        d2 = prov[2] - cons[2]
        d3 = prov[3] - cons[3]
    a0: int = avail[0]
    a1: int = avail[1]
    a2: int = avail[2]
    a3: int = avail[3]
    avail[0] = a0 + d0
    avail[1] = a1 + d1
    avail[2] = a2 + d2
    avail[3] = a3 + d3
    g.bal_unpaid.remove(i)


def bal_discard(g: Game, p: int, i: int, forced: bool) -> None:
    d = g.cdef[i]
    if forced:
        g.bal_forced += 1
        g.stats[p][S_UNPAID_DISCARDS] += 1
    if g.logs is not None:
        g._log(p, "002 §12", f"{d.name} {'cannot be paid' if forced else 'is not paid'} and is discarded")
    gone = [i] + list(g.atts.get(i, ()))
    settlement.leave(g, i, Z_DISCARD)
    unpaid = g.bal_unpaid
    for c in gone:
        if c in unpaid:
            unpaid.remove(c)
    # a Place that lost its Supply Line pays nothing (002 §15)
    for q in list(unpaid):
        if g.zone[q] == Z_SETTLE and not g.supplied[q]:
            unpaid.remove(q)


def balance_end(g: Game, p: int) -> None:
    # 002 §12, §4: Gold still available is the Reserve; the other resources are lost (R23: never below 0)
    gold = g.bal_avail[0]
    if g.logs is not None:
        g._log(p, "002 §12", f"Resource Balancing done: Reserve {g.reserve[p]} -> {gold}")
    g.reserve[p] = gold if gold > 0 else 0
    g.add_res[p] = [0, 0, 0, 0]
    g.unpaid_by_turn[p].append(1 if g.bal_forced else 0)
    g.rec_unpaid[p] = g.turns_taken[p]
    g.bal_avail = [-1, 0, 0, 0]
    g.bal_unpaid = []
    g.step = ST_ATTACK
    if g.attack_skip:
        if g.logs is not None:
            g._log(p, "R13", "the first player's first turn has no Attack and no Raid")
