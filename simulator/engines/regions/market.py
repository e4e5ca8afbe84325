"""Buying and paying (003 §4.2, §8.3, §8.4): the Pocket's capacity, the Goods a hand can pay, paying a cost,
buying from the standing piles and the Market Piles."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import (
    RECOGNITION, CardDef,
)
from .state import (
    N_REGIONS, N_STANDING, A_BUY, IllegalAction,
)
from . import effects

if TYPE_CHECKING:
    from .game import Game


def pocket_capacity(g: Game, p: int) -> int:
    """003 §4.2: one card plus any increase granted by cards in play (Skill Tree, held Regions, Stacks)."""
    cap = 1 + g.heroes[p].pocket[g.level[p]]
    ctrl = g.ctrl
    for r in range(N_REGIONS):
        if ctrl[r] == p:
            cap += g.regions[r].pocket
        stack = g.stacks[p][r]
        if stack:
            for c in stack:
                if c.pocket_white:
                    cap += c.pocket_white
            cap += stack[-1].pocket_exposed
    return cap


def hand_money(g: Game, p: int) -> tuple[int, list[int]]:
    """Goods the plain Supplies in hand can pay: (general, restricted by type)."""
    general = 0
    restricted = [0, 0, 0, 0, 0]
    for c in g.hand[p]:
        if c.plain:
            if c.only < 0:
                general += c.goods
            else:
                restricted[c.only] += c.goods
    return general, restricted


def goods_for(g: Game, p: int, ctype: int) -> int:
    """Goods available now toward a card of type `ctype`: bank plus what the plain Supplies in hand pay."""
    total = g.bank[p] + g.rbank[p][ctype]
    for c in g.hand[p]:
        if c.plain and (c.only < 0 or c.only == ctype):
            total += c.goods
    return total


def pay(g: Game, p: int, cost: int, ctype: int) -> None:
    """003 §4.2, §8.4: pay with restricted Goods toward this type first, then the bank, then plain Supplies
    from the hand (played cards wait in the play area until Clean Up); overpayment stays in the bank."""
    need = cost
    rb = g.rbank[p]
    hand = g.hand[p]
    if need and (rb[ctype] or g._has_restricted(hand, ctype)):
        i = 0
        while rb[ctype] < need and i < len(hand):
            c = hand[i]
            if c.plain and c.only == ctype:
                del hand[i]
                g.played[p].append(c)
                rb[ctype] += c.goods
            else:
                i += 1
        x = need if rb[ctype] >= need else rb[ctype]
        rb[ctype] -= x
        need -= x
    if need:
        bank = g.bank[p]
        i = 0
        while bank < need and i < len(hand):
            c = hand[i]
            if c.plain and c.only < 0:
                del hand[i]
                g.played[p].append(c)
                bank += c.goods
            else:
                i += 1
        if bank < need:  # pragma: no cover - buy options are affordable by construction
            raise IllegalAction("not enough Goods")
        g.bank[p] = bank - need
    g.spent[p] += cost


def buy(g: Game, p: int, k: int) -> None:
    """003 §4.2: buy from a standing pile (k < 6) or the top of Market Pile k - 6; the card goes to the Pocket."""
    if k < N_STANDING:
        card = g.standing[k]
        if card.type == RECOGNITION:
            effects.take_recognition(g)
    else:
        card = g.mpiles[k - N_STANDING].pop()   # buying the top card exposes the one beneath
    effects.gain(g, p, card)
    pay(g, p, card.cost, card.type)
    g.pocket[p].append(card)
    g.fresh[p].append(card)
    g.bought[p] += 1
    sb = g.stat_bought[p]
    sb[card.name] = sb.get(card.name, 0) + 1
    if g.logs is not None:
        g._log(f"003 §4.2: buys {card.name} for {card.cost} Goods"
                  + (f" ({g.rec_pile} Recognition left)" if card.type == RECOGNITION else ""), p)


# ------------------------------------------------------------------ options and their texts
def usable(g: Game, p: int, card: CardDef, phase: int) -> bool:
    for ab in card.hand_ab[phase]:
        if ab.req < 0 or effects.req_count(g, p, ab.req) >= ab.req_n:
            return True
    return False


def buy_options(g: Game, p: int) -> list[tuple]:
    """The piles p can afford now: standing piles first (cost order), then the Market Piles."""
    general, restricted = hand_money(g, p)
    base = g.bank[p] + general
    rb = g.rbank[p]
    out = []
    for k, card in enumerate(g.standing):
        if card.type == RECOGNITION and g.rec_pile <= 0:
            continue
        if card.cost <= base + rb[card.type] + restricted[card.type]:
            out.append((A_BUY, k))
    for m, pile in enumerate(g.mpiles):
        if pile:
            card = pile[-1]
            if card.cost <= base + rb[card.type] + restricted[card.type]:
                out.append((A_BUY, N_STANDING + m))
    return out
