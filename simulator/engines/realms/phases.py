"""The turn's frame (002 §8, §9, §14 victory, R13, R22): setup (Leaders, the Gift of Fate), the start of a
turn, drawing and reshuffling, Victory Points, the end of a turn and of the game."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import (
    DUR_NEXT_TURN, DUR_TURN, EV_TURN_START,
)
from .state import (
    Z_DECK, Z_HAND, Z_DISCARD, Z_ASIDE, Z_SETTLE, Z_RITUAL, ST_MULLIGAN, ST_TURN_START, ST_DRAW, ST_ACTIONS,
    ST_OVER, A_LEADER, A_KEEP, A_MULLIGAN, G_DEFENSIVE, S_RESHUFFLES, CELL0, tactics_text,
)
from . import settlement, actions, abilities

if TYPE_CHECKING:
    from .game import Game


# ---- 002 §8 setup ---------------------------------------------------------------------------------
def setup_leader(g: Game) -> None:
    # 002 §8 step 1: each player secretly chooses one of its Leaders; both are revealed at once
    while g.setup_p < 2:
        p = g.setup_p
        ids = g.leader_ids[p]
        if g.leader_choice[p] < 0:
            opts = []
            seen_codes: set[str] = set()
            for i in ids:
                if g.cdef[i].code not in seen_codes:
                    seen_codes.add(g.cdef[i].code)
                    opts.append((A_LEADER, i))
            if len(opts) > 1:
                g._decide("leader", p, opts)
                return
            g.leader_choice[p] = ids[0]
        g.setup_p += 1
    for p in (0, 1):
        i = g.leader_choice[p]
        g.leader[p] = i
        settlement.move(g, i, Z_SETTLE, p)
        g.cell[i] = CELL0
        g.grid[p][CELL0] = i
        g.supplied[i] = True
        if g.logs is not None:
            g._log(p, "002 §8", f"reveals {g.cdef[i].title} as Leader (CV {g.cdef[i].cv}, "
                                   f"{tactics_text(g.cdef[i].tactics)})")
    # 002 §8 steps 2-4: shuffle, set aside 3 unseen (the starting discard pile, R12), draw 7
    for p in (0, 1):
        if g.decks[p] is None:
            continue
        deck = g.z[p][Z_DECK]
        g._shuffle(deck)
        for _ in range(min(3, len(deck))):
            i = deck.pop()
            g.zone[i] = Z_ASIDE
            g.z[p][Z_ASIDE].append(i)
        draw(g, p, 7, log=False)
        if g.logs is not None:
            g._log(p, "002 §8", f"sets aside 3 cards unseen and draws {len(g.z[p][Z_HAND])}")
    g.step = ST_MULLIGAN
    g.setup_p = 0


def setup_mulligan(g: Game) -> None:
    # 002 §8 step 4: the Gift of Fate, once per player, decided before turn order is known (R12)
    while g.setup_p < 2:
        p = g.setup_p
        g.setup_p += 1
        if g.decks[p] is not None:
            g._decide("mulligan", p, [(A_KEEP,), (A_MULLIGAN,)])
            return
    # 002 §8 step 6: 5 Gold each (the goldfish opponent has nothing but its Leader)
    for p in (0, 1):
        g.reserve[p] = 0 if g.decks[p] is None else 5
    # 002 §8 step 7 (R13): turn order at random; the goldfish opponent never takes a turn
    if g.goldfish:
        g.first = 0
    elif g.first_arg is not None:
        g.first = g.first_arg
    else:
        g.first = int(g._rand() * 2)
    if g.logs is not None:
        g._log(g.first, "002 §8", "goes first (R13: skips the Attack and Raid steps of its first turn)")
    g.active = g.first
    g.step = ST_TURN_START


def mulligan(g: Game, p: int, take: bool) -> None:
    if take:
        hand = g.z[p][Z_HAND]
        for i in hand:
            g.zone[i] = Z_ASIDE
            g.seen[i] = 1 << p
            g.z[p][Z_ASIDE].append(i)
        hand.clear()
        draw(g, p, 7, log=False)
        g.mulliganed[p] = True
        if g.logs is not None:
            g._log(p, "002 §8", "takes the Gift of Fate: the hand is set aside onto the discard pile (R12), "
                                   "7 new cards drawn")
    else:
        if g.logs is not None:
            g._log(p, "002 §8", "keeps its opening hand")


# ---- start of turn, draw ------------------------------------------------------------------------------
def turn_start(g: Game) -> None:
    p = g.active
    if g.decks[p] is None:   # the goldfish opponent takes no turns
        g.active = 1 - p
        return
    if p == g.first and g.turns_taken[p] >= g.max_rounds:
        stalemate(g)
        return
    g.turn += 1
    g.turns_taken[p] += 1
    g.uses.clear()
    g.add_res[p] = [0, 0, 0, 0]
    if g.logs is not None:
        g._log(p, "002 §9", f"turn {g.turns_taken[p]} begins (VP {g.vp[0]}-{g.vp[1]}, "
                               f"Reserve {g.reserve[p]})")
    # R14: the start of the turn clears what lasted until this player's next turn
    for gid in [k for k, (kind, o, _) in g.groups.items() if o == p and kind == G_DEFENSIVE]:
        actions.disband(g, gid, "002 §11", "a Defensive Group lasts until the start of its owner's next turn")
    for i in list(g.z[p][Z_RITUAL]):
        if g.logs is not None:
            g._log(p, "002 §7.4", f"{g.cdef[i].name} ends (R9) and is discarded")
        settlement.leave(g, i, Z_DISCARD)
    abilities.expire(g, DUR_NEXT_TURN, p)
    g.attack_skip = p == g.first and g.turns_taken[p] == 1   # R13
    g.step = ST_DRAW
    abilities.fire_simple(g, EV_TURN_START, p)


def draw_step(g: Game) -> None:
    p = g.active
    need = 7 - len(g.z[p][Z_HAND])
    if need > 0:   # 002 §9 step 1: draw up to 7; nothing interrupts drawing
        draw(g, p, need)
    g.step = ST_ACTIONS


def draw(g: Game, p: int, n: int, log: bool = True) -> int:
    """Draw n cards; when the deck runs out the discard pile (set-aside cards too) is shuffled into a new deck
    (002 §9); with both empty, drawing stops (R15). Returns the number drawn."""
    deck = g.z[p][Z_DECK]
    hand = g.z[p][Z_HAND]
    drawn = 0
    bit = 1 << p
    for _ in range(n):
        if not deck:
            if not reshuffle(g, p):
                if g.logs is not None:
                    g._log(p, "R15", "deck and discard pile are empty: drawing stops")
                break
        i = deck.pop()
        g.zone[i] = Z_HAND
        g.seen[i] = bit
        hand.append(i)
        drawn += 1
    if log and drawn:
        if g.logs is not None:
            g._log(p, "002 §9", f"draws {drawn}")
    return drawn


def reshuffle(g: Game, p: int) -> bool:
    zs = g.z[p]
    pile = zs[Z_DISCARD] + zs[Z_ASIDE]
    if not pile:
        return False
    zs[Z_DISCARD] = []
    zs[Z_ASIDE] = []
    deck = zs[Z_DECK]
    for i in pile:
        g.zone[i] = Z_DECK
        g.seen[i] = 0
        deck.append(i)
    g._shuffle(deck)
    g.stats[p][S_RESHUFFLES] += 1
    if g.logs is not None:
        g._log(p, "002 §9", f"the deck ran out: the discard pile ({len(pile)} cards) is shuffled into a new "
                               "deck")
    return True


def gain_vp(g: Game, p: int, n: int, tokens: bool) -> None:
    g.vp[p] += n
    if tokens:
        g.vp_tokens[p] += n
    # 002 §1, §14: the first to the required VP wins at once (50; 30 in the simplified format, 002 §17)
    if g.vp[p] >= g.target_vp:
        if g.logs is not None:
            g._log(p, "002 §1", f"reaches {g.vp[p]} VP and wins")
        finish(g, p, "vp")


def finish(g: Game, winner: int | None, reason: str) -> None:
    g.over = True
    g.winner = winner
    g.reason = reason
    g.step = ST_OVER
    g.pending = None
    g.stack.clear()
    g.cb = None
    # the cached views refer back to the game: forgotten at the end, so a finished game is freed at once
    # instead of waiting for the cycle collector (view() makes a new one when asked)
    g._views = [None, None]
    p = g.active
    t = g.turns_taken[p]
    if g.rec_turn[p] != t:   # the figures of the turn the game ended in
        g.rec_turn[p] = t
        g.vp_by_turn[p].append(g.vp[p])
        g.gold_by_turn[p].append(g.reserve[p])
        if g.rec_unpaid[p] != t:
            g.rec_unpaid[p] = t
            g.unpaid_by_turn[p].append(1 if g.bal_forced else 0)


def stalemate(g: Game) -> None:
    # R22 (002 §19): at the turn cap the game ends as a stalemate: most VP wins, equal VP is a draw
    a, b = g.vp
    w = 0 if a > b else 1 if b > a else None
    if g.logs is not None:
        g._log(-1, "R22", f"round cap {g.max_rounds} reached: stalemate, VP {a}-{b}")
    finish(g, w, "stalemate")


# ---- end of turn ----------------------------------------------------------------------------------
def end_of_turn(g: Game) -> None:
    p = g.active
    # R14: step 6, effects lasting "this turn" end
    abilities.expire(g, DUR_TURN, -1)
    g.vp_by_turn[p].append(g.vp[p])
    g.gold_by_turn[p].append(g.reserve[p])
    g.rec_turn[p] = g.turns_taken[p]
    actions.check_groups(g)
    g.active = 1 - p
    g.step = ST_TURN_START
