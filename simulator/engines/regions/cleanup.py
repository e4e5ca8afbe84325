"""Damage & Clean Up, Quests and the end (003 §4.5, §5, §7.1, §9): the exchange at each Region, the Clean Up
steps, Quests, scoring and the tiebreakers."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import (
    CITIZEN, STRUCTURE, TACTIC,
)
from .state import (
    OVER, N_REGIONS, J_REVEAL, fisher_yates,
)
from . import effects

if TYPE_CHECKING:
    from .game import Game


# ------------------------------------------------------------------ Damage & Clean Up (003 §4.5, §7)
def stack_damage(g: Game, p: int, r: int) -> int:
    """003 §7.1: the total Damage of p's Stack at r: every card, Tactics included, plus this turn's bonuses."""
    stack = g.stacks[p][r]
    if not stack:
        return 0
    total = g.might[p][r] + g.heroes[p].might[g.level[p]]
    for c in stack:
        total += c.damage + c.might_white
    total += stack[-1].might_exposed
    if g.ctrl[r] == p:
        total += g.regions[r].might
    return total


def cleanup_step(g: Game) -> None:
    while g.cu_r < N_REGIONS:
        r = g.cu_r
        g.cu_r = r + 1
        busy = 0
        for ss in g.stacks:
            if ss[r]:
                busy += 1
                if busy > 1 or ss[r][-1].type == TACTIC:
                    break
        else:
            continue                           # nobody fights here and there is no Tactic to discard
        exchange(g, r)
        return
    cleanup_rest(g)


def exchange(g: Game, r: int) -> None:
    """003 §4.5 steps 1-2 at one Region: both Stacks deal their Damage at once, front card first, excess
    carrying on (§7.1); then every destroyed card and every Tactic is discarded together; then Reveals on
    cards left exposed fire, Priority Player first."""
    n = g.n
    stacks = [g.stacks[p][r] for p in range(n)]
    if sum(1 for s in stacks if s) < 2:
        if not any(s and s[-1].type == TACTIC for s in stacks):
            return
        dmg = [0] * n
    else:
        dmg = [stack_damage(g, p, r) for p in range(n)]
    total = sum(dmg)
    logs = g.logs
    reveals: list[tuple] = []
    for p in g.order:
        stack = stacks[p]
        if not stack:
            continue
        incoming = total - dmg[p]          # every opposing Stack's Damage (docs: more than two players)
        # our reading of §4.4/§6.2: a Tactic's Shields absorb damage for the cards behind it, so Contest
        # damage meets the Stack's Tactics first (in the order placed), then the front card and on back
        k = len(stack)
        while k > 0 and stack[k - 1].type == TACTIC:
            k -= 1
        keep = [True] * len(stack)
        left = incoming
        if left:
            for i in list(range(k, len(stack))) + list(range(k)):
                h = stack[i].health
                if left >= h:
                    keep[i] = False
                    left -= h
                    if not left:
                        break
                else:
                    break
        for i in range(k, len(stack)):
            keep[i] = False                  # every Tactic is discarded at Clean Up
        if all(keep):
            continue
        last = len(stack) - 1
        survivors = []
        disc = g.discard[p]
        top = -1
        for i, c in enumerate(stack):
            if keep[i]:
                survivors.append(c)
                top = i
            else:
                disc.append(c)
                if c.has_stack_ab:
                    for ph in c.ab_phases:
                        g.n_ab[p][ph] -= 1
        if logs is not None:
            gone = [c.name for i, c in enumerate(stack) if not keep[i]]
            g._log(f"003 §7.1 at {g.regions[r].short}: takes {incoming} Damage; discards "
                      f"{', '.join(gone)}", p)
        stack[:] = survivors
        if survivors and top != last and survivors[-1].reveal:
            reveals.append((J_REVEAL, p, r, survivors[-1]))
    if logs is not None and total:
        g._log(f"003 §7.1 at {g.regions[r].short}: Damage dealt "
                  f"{', '.join(f'p{p} {dmg[p]}' for p in range(n) if stacks[p] or dmg[p])}")
    if reveals:
        reveals.reverse()                    # the Priority Player resolves theirs first
        g.jobs.extend(reveals)


def cleanup_rest(g: Game) -> None:
    n = g.n
    # step 3: reset any Region whose holder has no cards left in that Stack (003 §5.1)
    for r in range(N_REGIONS):
        c = g.ctrl[r]
        if c >= 0 and not g.stacks[c][r]:
            g.ctrl[r] = -1
            if g.logs is not None:
                g._log(f"003 §5.4: {g.regions[r].short} resets (p{c}'s Stack is empty)")
    # step 4: recount every Hero Level (003 §5.2)
    for p in range(n):
        g.level[p] = N_REGIONS - g.stacks[p].count([])
    # step 5: top each Market Pile with one fresh card (003 §8.3), reshuffling the Market Discard when needed
    for pile in g.mpiles:
        if not g.mdeck:
            if not g.mdiscard:
                break
            g.mdeck = g.mdiscard
            g.mdiscard = []
            fisher_yates(g._own_rng(), g.mdeck)
            if g.logs is not None:
                g._log(f"003 §8.3: the Market Discard is shuffled into a new Market Deck "
                          f"({len(g.mdeck)} cards)")
        pile.append(g.mdeck.pop())
    # step 6: discard all Hands (and the cards played this turn)
    for p in range(n):
        disc = g.discard[p]
        if g.hand[p]:
            disc.extend(g.hand[p])
            g.hand[p] = []
        if g.played[p]:
            disc.extend(g.played[p])
            g.played[p] = []
        m = g.might[p]
        if m.count(0) != N_REGIONS:
            for r in range(N_REGIONS):
                m[r] = 0
    record_turn(g)
    # step 7: the Recognition clock (003 §9.1), run out this turn even if a Recognition was trashed back since
    if g.ending or g.rec_pile <= 0:
        finish(g, "recognition")
        return
    g._begin_turn()


def record_turn(g: Game) -> None:
    n = g.n
    g.stat_score.append([score(g, p) for p in range(n)])
    g.stat_presence.append([N_REGIONS - g.stacks[p].count([]) for p in range(n)])
    g.stat_control.append([g.ctrl.count(p) for p in range(n)])
    g.stat_rec.append(list(g.rec_owned))


# ------------------------------------------------------------------ Quests (003 §5.4)
def check_quests(g: Game, phase: int) -> None:
    regions = g.regions
    for r in g.cs.quest_regions[phase]:
        if g.ctrl[r] >= 0:
            continue
        region = regions[r]
        for p in g.order:                   # if several meet it, the Priority Player takes it
            if g.stacks[p][r] and quest_met(g, p, r):
                g.ctrl[r] = p
                if g.logs is not None:
                    g._log(f"003 §5.4: completes the Quest of {region.short} and takes control", p)
                break


def quest_met(g: Game, p: int, r: int) -> bool:
    stack = g.stacks[p][r]
    for what, n in g.regions[r].need:
        if what == 0:
            v = len(stack)
        elif what == 1:
            v = stack_damage(g, p, r)
        elif what == 2:
            v = sum(1 for c in stack if c.type == CITIZEN)
        elif what == 3:
            v = sum(1 for c in stack if c.type == STRUCTURE)
        elif what == 4:
            v = g.spent[p]
        elif what == 5:
            v = g.bought[p]
        elif what == 6:
            v = g.level[p]
        elif what == 7:
            v = effects.req_count(g, p, 1)
        else:
            v = len(g.hand[p])
        if v < n:
            return False
    return True


# ------------------------------------------------------------------ end and scoring (003 §9)
def score_parts(g: Game, p: int) -> dict:
    """003 §1.2, §9.2: Recognition cards owned, presence, control, exposed Finish abilities."""
    presence = control = finish = 0
    ctrl = g.ctrl
    for r in range(N_REGIONS):
        stack = g.stacks[p][r]
        if stack:
            presence += 1
            for c in stack:
                finish += c.finish_white
            finish += stack[-1].finish_exposed
        if ctrl[r] == p:
            control += 1
            finish += g.regions[r].finish
    finish += g.heroes[p].finish[g.level[p]]
    return {"cards": g.rec_owned[p], "presence": presence, "control": control, "finish": finish}


def score(g: Game, p: int) -> int:
    presence = control = finish = 0
    ctrl = g.ctrl
    stacks = g.stacks[p]
    regions = g.regions
    for r in range(N_REGIONS):
        stack = stacks[r]
        if stack:
            presence += 1
            for c in stack:
                if c.finish_white:
                    finish += c.finish_white
            finish += stack[-1].finish_exposed
        if ctrl[r] == p:
            control += 1
            finish += regions[r].finish
    return g.rec_owned[p] + presence + control + finish + g.heroes[p].finish[g.level[p]]


def tiebreak_key(g: Game, p: int) -> tuple:
    """Our reading of 003 §9.3 (its list was lost): Regions controlled, then Recognition cards owned, then
    cards in Stacks, then the fewer cards owned (docs/games/regions.md)."""
    control = g.ctrl.count(p)
    in_stacks = sum(len(s) for s in g.stacks[p])
    return (score(g, p), control, g.rec_owned[p], in_stacks, -sum(g.owned_t[p]))


def finish(g: Game, reason: str) -> None:
    g.over = True
    g.reason = reason
    g.phase = OVER
    g.pending = None
    g.jobs.clear()
    keys = [tiebreak_key(g, p) for p in range(g.n)]
    best = max(keys)
    g.winners = [p for p in range(g.n) if keys[p] == best]
    if g.logs is not None:
        scores = ", ".join(f"p{p} {keys[p][0]}" for p in range(g.n))
        why = "the Recognition pile is empty" if reason == "recognition" else f"turn limit {g.max_turns}"
        won = (f"p{g.winners[0]} wins" if len(g.winners) == 1
               else "tie between " + " and ".join(f"p{p}" for p in g.winners))
        g._log(f"003 §9: game over ({why}); Recognition {scores}; {won}")
