"""Abilities and their effects (003 §6, §7.2, §8.2): the rules' job stack, Stack abilities, what each effect
does, strikes, drawing, gaining and trashing cards, the Recognition clock.

Module-level functions taking the game (`g`), as every layer of the engine (docs/games/regions.md)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import (
    CITIZEN, E_DRAW, E_GOODS, E_MIGHT, E_RECOGNITION, E_STRIKE, E_TRASH, RECOGNITION, STRUCTURE, TACTIC, TYPE_NAMES,
    W_ALL, W_CHOOSE, W_HERE, Ability, CardDef,
)
from .state import (
    N_REGIONS, J_AB, J_EFF, J_PAY, J_STACK, J_REVEAL, fisher_yates, Decision,
)
from . import texts

if TYPE_CHECKING:
    from .game import Game


# ------------------------------------------------------------------ jobs: abilities and effects
def do_job(g: Game, job: tuple) -> bool:
    """Run one job; True when it left a decision pending."""
    kind = job[0]
    if kind == J_EFF:
        return effect(g, job[1], job[2], job[3], job[4], job[5])
    if kind == J_AB:
        p, r, ab = job[1], job[2], job[3]
        if ab.req >= 0 and req_count(g, p, ab.req) < ab.req_n:
            if g.logs is not None:
                g._log(f"003 §6.4: requirement not met, {texts.ab_name(g, ab)} does nothing", p)
            return False
        if ab.may:
            g.pending = Decision(g, "may", p, (r, ab))
            return True
        push_effects(g, p, r, ab)
        return False
    if kind == J_STACK:
        stack_abilities(g, job[1], job[2])
        return False
    if kind == J_PAY:
        region_pay(g, job[1])
        return False
    # J_REVEAL: 003 §6.4 Reveal fires as the card is placed and each time it is uncovered
    p, r, card = job[1], job[2], job[3]
    if g.logs is not None:
        g._log(f"003 §6.4 Reveal: {card.name} at {g.regions[r].short}", p)
    todo = [(J_AB, p, r, ab) for ab in card.reveal]
    todo.reverse()
    g.jobs.extend(todo)
    return False


def push_effects(g: Game, p: int, r: int, ab: Ability) -> None:
    effects = ab.effects
    if len(effects) == 1:
        e = effects[0]
        g.jobs.append((J_EFF, p, r, e[0], e[1], e[2]))
        return
    for e in reversed(effects):
        g.jobs.append((J_EFF, p, r, e[0], e[1], e[2]))


def stack_abilities(g: Game, p: int, phase: int) -> None:
    """Stack abilities of `phase` that can be read: white boxes anywhere, the exposed card's own; the Region
    cards this player holds (their Reward side sits at the front of the Stack, always readable).
    Worked from the Region nearest the Market outward, front to back (our reading, docs/games/regions.md)."""
    todo: list[tuple] = []
    ctrl = g.ctrl
    stacks = g.stacks[p]
    for r in range(N_REGIONS):
        if ctrl[r] == p:
            for ab in g.regions[r].reward_ab[phase]:
                todo.append((J_AB, p, r, ab))
        stack = stacks[r]
        if not stack:
            continue
        for c in stack:
            if c.has_stack_ab:
                for ab in c.white_ab[phase]:
                    todo.append((J_AB, p, r, ab))
        for ab in stack[-1].exposed_ab[phase]:
            todo.append((J_AB, p, r, ab))
    if todo:
        todo.reverse()
        g.jobs.extend(todo)


def region_pay(g: Game, p: int) -> None:
    """003 §4.1: each Region you control pays one Recognition onto the top of your Deck, from the Market out."""
    rec = g.cs.recognition
    for r in range(N_REGIONS):
        if g.ctrl[r] == p and g.rec_pile > 0:
            take_recognition(g)
            gain(g, p, rec)
            g.deck[p].append(rec)
            g.known_top[p] += 1
            if g.logs is not None:
                g._log(f"003 §4.1: {g.regions[r].short} pays 1 Recognition onto the Deck "
                          f"({g.rec_pile} left)", p)


def req_count(g: Game, p: int, what: int) -> int:
    """003 §6.4 Requirements: cards of a type across your Stacks, Goods in your bank, cards in Hand, ..."""
    if what <= 3:
        total = 0
        for stack in g.stacks[p]:
            if what == 3:
                total += len(stack)
            else:
                t = (CITIZEN, STRUCTURE, TACTIC)[what]
                for c in stack:
                    if c.type == t:
                        total += 1
        return total
    if what == 4:
        return g.bank[p]
    if what == 5:
        return len(g.hand[p])
    if what == 6:
        return g.level[p]
    return g.ctrl.count(p)


def effect(g: Game, p: int, r: int, prim: int, amount: int, param: int) -> bool:
    if prim == E_DRAW:
        draw(g, p, amount)
        return False
    if prim == E_GOODS:
        if param < 0:
            g.bank[p] += amount
        else:
            g.rbank[p][param] += amount
        if g.logs is not None:
            g._log(f"+{amount} Goods{' toward ' + TYPE_NAMES[param] + 's' if param >= 0 else ''} "
                      f"(bank {g.bank[p]})", p)
        return False
    if prim == E_STRIKE:
        targets = strike_targets(g, p, r, param)
        if not targets:
            return False
        if len(targets) == 1:
            q, rr, i = targets[0]
            strike(g, q, rr, i, amount, p)
            return False
        g.pending = Decision(g, "target", p, (amount, r, param))
        return True
    if prim == E_MIGHT:
        if param == W_HERE:
            if r >= 0:
                g.might[p][r] += amount
        elif param == W_ALL:
            m = g.might[p]
            for rr in range(N_REGIONS):
                m[rr] += amount
        else:
            regions = [rr for rr in range(N_REGIONS) if g.stacks[p][rr]]
            if not regions:
                return False
            if len(regions) == 1:
                g.might[p][regions[0]] += amount
            else:
                g.pending = Decision(g, "region", p, amount)
                return True
        if g.logs is not None:
            g._log(f"+{amount} Damage this turn ({'here' if param == W_HERE else 'chosen' if param == W_CHOOSE else 'each Stack'})", p)
        return False
    if prim == E_TRASH:
        if not g.hand[p]:
            return False
        g.pending = Decision(g, "trash", p, amount)
        return True
    if prim == E_RECOGNITION:
        for _ in range(amount):
            if g.rec_pile > 0:
                take_recognition(g)
                gain(g, p, g.cs.recognition)
                g.deck[p].append(g.cs.recognition)
                g.known_top[p] += 1
        return False
    return False  # pragma: no cover - the card table has no other primitive


def strike_targets(g: Game, p: int, r: int, where: int) -> list[tuple[int, int, int]]:
    """003 §7.2: the cards a non-Contest strike may name: in opposing Stacks here, or anywhere."""
    out = []
    regions = (r,) if where == W_HERE and r >= 0 else range(N_REGIONS)
    for q in range(g.n):
        if q == p:
            continue
        stacks = g.stacks[q]
        for rr in regions:
            for i in range(len(stacks[rr])):
                out.append((q, rr, i))
    return out


def strike(g: Game, q: int, r: int, i: int, amount: int, by: int) -> None:
    """003 §7.2: non-Contest damage hits the named card at once; it destroys it if it meets its Health and
    never carries to the card behind."""
    stack = g.stacks[q][r]
    card = stack[i]
    if amount >= card.health:
        last = i == len(stack) - 1
        del stack[i]
        g.discard[q].append(card)
        if card.has_stack_ab:
            for ph in card.ab_phases:
                g.n_ab[q][ph] -= 1
        if g.logs is not None:
            g._log(f"003 §7.2: {amount} damage destroys p{q}'s {card.name} at {g.regions[r].short}", by)
        if last and stack and stack[-1].reveal:
            g.jobs.append((J_REVEAL, q, r, stack[-1]))   # 003 §5.3: the card beneath is exposed again
    elif g.logs is not None:
        g._log(f"003 §7.2: {amount} damage to p{q}'s {card.name} at {g.regions[r].short} "
                  f"(Health {card.health}) is not enough", by)


# ------------------------------------------------------------------ zones
def draw(g: Game, p: int, n: int) -> None:
    """003 §4.1: "+N" draws; if the Deck runs out mid-draw, shuffle the Discard into a new Deck and keep going."""
    deck = g.deck[p]
    hand = g.hand[p]
    if len(deck) >= n:                          # the common case: no reshuffle
        drawn = n
        if n == 1:
            hand.append(deck.pop())
        else:
            taken = deck[-n:]
            taken.reverse()
            hand.extend(taken)
            del deck[-n:]
    else:
        drawn = 0
        for _ in range(n):
            if not deck:
                disc = g.discard[p]
                if not disc:
                    break
                fisher_yates(g._own_rng(), disc)    # 003 §8.1
                g.deck[p] = deck = disc
                g.discard[p] = []
                g.known_top[p] = 0
                if g.logs is not None:
                    g._log(f"003 §8.1: Discard shuffled into a new Deck ({len(deck)} cards)", p)
            hand.append(deck.pop())
            drawn += 1
    kt = g.known_top[p]
    if kt:
        g.known_top[p] = kt - drawn if kt > drawn else 0
    if g.logs is not None:
        g._log(f"draws {drawn} ({', '.join(c.name for c in hand[len(hand) - drawn:])})", p)


def gain(g: Game, p: int, card: CardDef) -> None:
    g.owned[p][card.index] += 1
    g.owned_t[p][card.type] += 1
    if card.type == RECOGNITION:
        g.rec_owned[p] += 1


def take_recognition(g: Game) -> None:
    """One Recognition leaves the pile. The last one starts the end: §8.3 "when its ten cards are gone, the
    pile stays empty and the game is ending", so a Recognition trashed back to the pile later in this turn
    (§8.2) does not stop it; Clean Up step 7 (§4.5) ends the game (docs/games/regions.md, "Readings")."""
    g.rec_pile -= 1
    if g.rec_pile <= 0:
        g.ending = True


def trash(g: Game, p: int, card: CardDef) -> None:
    """003 §8.2: standing-pile cards go back to their pile, everything else to the Market Discard."""
    g.owned[p][card.index] -= 1
    g.owned_t[p][card.type] -= 1
    if card.type == RECOGNITION:
        g.rec_owned[p] -= 1
    if card.pile == "standing":
        if card.type == RECOGNITION:
            g.rec_pile += 1
    else:
        g.mdiscard.append(card)
