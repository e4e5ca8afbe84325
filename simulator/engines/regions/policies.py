"""Players: a policy that plays a strategy (strategy.py) and a random policy.

A policy answers `choose(view, decision)` with one of the decision's options (the protocol of
simulator/engines/common/protocol.py). `act(view, decision)` is the same answer for the fast loop (`Game.play`, which hands
each player its view and never lists options). A policy is given the player's view, never the game: the strategy
policy reads only what its player may know (its own Hand and Pocket, the public board, counts), and the view refuses
the rest; tests also check it by asking it the same decision on determinized games.
"""
from __future__ import annotations

import random

from .cards import CITIZEN, CONTEST, POSITION, PURCHASE, RECOGNITION, STRUCTURE, SUPPLIES, TACTIC, CardDef
from .game import (
    A_BUY, A_PLACE, A_PLAY, A_REGION, A_STASH, A_TAKE, A_TARGET, A_TRASH, A_USE, DONE, KEEP, N_REGIONS, N_STANDING,
    YES, Decision, Game,
)
from .view import PlayerView
from .strategy import Rule, Strategy

MAX_BUYS = 12          # a strategy buys at most this many cards in one Purchase phase (guards rules like "Goods")
MAX_USES = 6           # and uses at most this many Hand abilities in one phase (a "Discard me: +1 card" can
                       # draw itself back from a reshuffled Discard for ever)


def _value(c: CardDef) -> int:
    """How much a card is worth keeping out of the Pocket: what it pays, or what it cost."""
    return c.goods if c.type == SUPPLIES else c.cost


class StrategyPolicy:
    """Plays a `Strategy`: its buy rules in order (re-read after every purchase), its place rules for each card in
    hand, its pocket, use, trash and target rules (docs/games/regions.md, "How a strategy plays")."""

    def __init__(self, strategy: Strategy, seed: int = 0):
        self.strategy = strategy
        self.name = f"strategy:{strategy.name}"
        self._want_region: list = []
        self._zero_turn = -1
        self._zero_rules: set[int] = set()
        self._uses_key = (-1, -1)
        self._uses = 0
        self._plan_key: tuple = ()
        self._plan: list = []
        self._plan_game: PlayerView | None = None
        self._plan_sizes: tuple = ()
        # pocket rules without conditions rank every card the same way all game: look the rank up by card index
        self._static_rank: list | None = None
        if all(r.cond is None for r in strategy.pocket):
            sels = [r.selector for r in strategy.pocket]
            self._static_sels = sels

    def choose(self, view, decision: Decision):
        return self.act(view, decision)

    def clone(self) -> "StrategyPolicy":
        """A copy with the same memory of this phase (uses, buys of cost-0 cards, a planned Pocket)."""
        c = StrategyPolicy(self.strategy)
        c._want_region = list(self._want_region)
        c._zero_turn = self._zero_turn
        c._zero_rules = set(self._zero_rules)
        c._uses_key = self._uses_key
        c._uses = self._uses
        c._plan_key = self._plan_key
        c._plan = list(self._plan)
        c._plan_game = self._plan_game
        c._plan_sizes = self._plan_sizes
        c._static_rank = self._static_rank
        return c

    # ------------------------------------------------------------------ the fast entry point
    def act(self, v: PlayerView | Game, d: Decision):
        """The answer to `d` from the player's view (given a game, its view of it: the policy reads nothing else)."""
        if isinstance(v, Game):
            v = v.view(d.player)
        kind = d.kind
        p = d.player
        if kind == "purchase":
            return self._purchase(v, p)
        if kind == "hero":
            return self._arrange_pocket(v, p, hero_phase=True)
        if kind == "pocket":
            return self._arrange_pocket(v, p, hero_phase=False)
        if kind == "position":
            return self._place(v, p, POSITION)
        if kind == "contest":
            return self._contest(v, p)
        if kind == "capacity":
            return self._capacity(v, p)
        if kind == "target":
            return self._target(v, p, d)
        if kind == "region":
            return self._region_choice(v, p)
        if kind == "trash":
            return self._trash(v, p)
        return YES   # "may": abilities are worth using

    # ------------------------------------------------------------------ Purchase
    def _purchase(self, v: PlayerView, p: int):
        hand = v.hand[p]
        st = self.strategy
        if st.use:
            a = self._use(v, p, PURCHASE)
            if a is not None:
                return a
        for c in hand:   # Supplies with a Hand ability the use rules did not call for: play them for their Goods
            if c.type == SUPPLIES and not c.plain:
                return (A_PLAY, c.index)
        if v.bought[p] >= MAX_BUYS:
            return DONE
        general = v.bank[p]
        restricted = list(v.rbank[p])
        for c in hand:
            if c.plain:
                if c.only < 0:
                    general += c.goods
                else:
                    restricted[c.only] += c.goods
        if v.turn != self._zero_turn:
            self._zero_turn = v.turn
            self._zero_rules = set()
        for k, rule in enumerate(st.buy):
            if rule.cond is not None and not rule.cond(v, p):
                continue
            pick = self._buy_pick(v, rule, general, restricted)
            if pick is not None:
                cost = v.standing[pick].cost if pick < N_STANDING else v.mpiles[pick - N_STANDING][-1].cost
                if cost == 0:
                    key = k * 1000 + p
                    if key in self._zero_rules:
                        continue
                    self._zero_rules.add(key)
                return (A_BUY, pick)
        return DONE

    @staticmethod
    def _buy_pick(v: PlayerView, rule: Rule, general: int, restricted: list[int]) -> int | None:
        sel = rule.selector
        card = sel.card
        if card is not None:
            if card.cost > general + restricted[card.type]:
                return None
            if card.pile == "standing":
                if card.type == RECOGNITION and v.rec_pile <= 0:
                    return None
                return v.standing.index(card)
            m = 0
            for pile in v.mpiles:
                if pile and pile[-1] is card:
                    return N_STANDING + m
                m += 1
            return None
        best = None
        best_cost = -1
        ty = rule.ty
        for k, c in enumerate(v.standing):
            if (ty < 0 or c.type == ty) and c.cost > best_cost and c.cost <= general + restricted[c.type]:
                if c.type == RECOGNITION and v.rec_pile <= 0:
                    continue
                best, best_cost = k, c.cost
        for m, pile in enumerate(v.mpiles):
            if pile:
                c = pile[-1]
                if (ty < 0 or c.type == ty) and c.cost > best_cost and \
                        c.cost <= general + restricted[c.type]:
                    best, best_cost = N_STANDING + m, c.cost
        return best

    # ------------------------------------------------------------------ Hand abilities (use rules)
    def _use(self, v: PlayerView, p: int, phase: int):
        key = (v.turn, phase)
        if key != self._uses_key:
            self._uses_key = key
            self._uses = 0
        if self._uses >= MAX_USES:
            return None
        hand = v.hand[p]
        for rule in self.strategy.use:
            sel = rule.selector
            for c in hand:
                if c.hand_ab[phase] and sel.matches(c):
                    if rule.cond is not None and not rule.cond(v, p):
                        break
                    for k, ab in enumerate(c.hand_ab[phase]):
                        if ab.req < 0 or v.req_count(ab.req) >= ab.req_n:
                            self._want_region = rule.regions
                            self._uses += 1
                            return (A_USE, c.index, k)
        return None

    # ------------------------------------------------------------------ Pocket (003 §4.1, §4.2)
    def _ranks(self, v: PlayerView, p: int) -> list:
        """The pocket rules whose condition holds now, best first."""
        return [r.selector for r in self.strategy.pocket if r.cond is None or r.cond(v, p)]

    @staticmethod
    def _rank(sels: list, c: CardDef) -> int:
        for i, s in enumerate(sels):
            if s.matches(c):
                return i
        return 99

    def skip(self, v: PlayerView, kind: str, p: int) -> bool:
        """Whether this policy would answer "done" to the window about to open (Game.play asks first)."""
        if kind == "hero" or kind == "pocket":
            plan = self._get_plan(v, p, kind == "hero")
            return not plan
        return False

    def _get_plan(self, v: PlayerView, p: int, hero_phase: bool) -> list:
        sizes = (len(v.pocket[p]), len(v.hand[p]))
        if self._plan_game is v and self._plan_key == (v.turn, hero_phase) and self._plan_sizes == sizes:
            return self._plan
        self._plan_game = v
        self._plan_key = (v.turn, hero_phase)
        self._plan_sizes = sizes
        self._plan = plan = self._pocket_plan(v, p, hero_phase)
        return plan

    def _arrange_pocket(self, v: PlayerView, p: int, *, hero_phase: bool):
        """Keep in the Pocket the cards the pocket rules rank best (up to its capacity), move the rest to the
        hand: the Hand-to-Pocket moves one by one, then every card to take in one action. Planned once per window
        (nobody else acts while this player moves cards); a plan is dropped when the game is not the one it was
        made for or its zones are not as the plan left them."""
        plan = self._get_plan(v, p, hero_phase)
        if not plan:
            return DONE
        move = plan.pop()
        pk, hd = self._plan_sizes
        if move[0] == A_STASH:
            self._plan_sizes = (pk + 1, hd - 1)
        else:
            k = len(move) - 1
            self._plan_sizes = (pk - k, hd + k)
        return move

    def _pocket_plan(self, v: PlayerView, p: int, hero_phase: bool) -> list:
        pocket = v.pocket[p]
        hand = v.hand[p]
        static = self._static_rank
        if static is not None and len(pocket) == 1:
            # the common case, by table: one card in the Pocket that is either the best kept or nothing in hand
            # ranks at all, so nothing moves
            if not hero_phase or static[pocket[0].index] == 0:
                return []
            for c in hand:
                if static[c.index] < 99:
                    break
            else:
                return []
        if self._static_rank is None and all(r.cond is None for r in self.strategy.pocket):
            cache = self.strategy.cache    # shared by every game this strategy plays
            table = cache.get(("pocket_rank", id(v.cs)))
            if table is None:
                sels0 = [r.selector for r in self.strategy.pocket]
                table = cache[("pocket_rank", id(v.cs))] = [self._rank(sels0, c) for c in v.cs.cards]
            self._static_rank = table
        if self._static_rank is not None:
            table = self._static_rank
            sels = self._static_sels

            def rank(_sels: list, c: CardDef) -> int:
                return table[c.index]
        else:
            sels = self._ranks(v, p)
            rank = self._rank   # type: ignore[assignment]
        if len(pocket) == 1:
            if not hero_phase:
                return []
            if not sels:
                return []
            if rank(sels, pocket[0]) == 0:
                return []
            for c in hand:
                if rank(sels, c) < 99:
                    break
            else:
                return []           # the common case: nothing ranks, nothing moves
        cap = v.pocket_capacity(p)
        # at the end of the Purchase phase only the cards bought in it may move (003 §4.2)
        movable: dict[int, int] = {}
        for c in (pocket if hero_phase else v.fresh[p]):
            movable[c.index] = movable.get(c.index, 0) + 1
        cands = [(rank(sels, c), 0, c) for c in pocket]
        if hero_phase:
            cands += [(rank(sels, c), 1, c) for c in hand]
        ranked = sorted((x for x in cands if x[0] < 99), key=lambda x: (x[0], x[1]))
        desired = [x[2] for x in ranked[:cap]]
        moves: list = []
        if not desired:
            # nothing to keep by the rules: keep one card, the one least worth having in hand
            keep = min(pocket, key=_value)
            takes = []
            kept = False
            for c in pocket:
                if c is keep and not kept:
                    kept = True
                elif movable.get(c.index, 0) > 0:
                    movable[c.index] -= 1
                    takes.append(c.index)
            return [(A_TAKE, *takes)] if takes else []
        want: dict[int, int] = {}
        for c in desired:
            want[c.index] = want.get(c.index, 0) + 1
        have: dict[int, int] = {}
        for c in pocket:
            have[c.index] = have.get(c.index, 0) + 1
        size = len(pocket)
        if hero_phase:
            for c in hand:
                if want.get(c.index, 0) > have.get(c.index, 0):
                    moves.append((A_STASH, c.index))
                    have[c.index] = have.get(c.index, 0) + 1
                    size += 1
        takes = []
        for c in list(pocket):
            while have.get(c.index, 0) > want.get(c.index, 0) and size > 1 and movable.get(c.index, 0) > 0:
                takes.append(c.index)
                have[c.index] -= 1
                movable[c.index] -= 1
                size -= 1
        if takes:
            moves.append((A_TAKE, *takes))
        moves.reverse()
        return moves

    def _capacity(self, v: PlayerView, p: int):
        sels = self._ranks(v, p)
        worst = max(v.pocket[p], key=lambda c: (self._rank(sels, c), -_value(c)))
        return (A_TAKE, worst.index)

    # ------------------------------------------------------------------ Position and Contest
    def _place(self, v: PlayerView, p: int, phase: int):
        rules = self.strategy.place
        if not rules:
            return DONE
        for c in v.hand[p]:
            t = c.type
            if phase == POSITION:
                if t != CITIZEN and t != STRUCTURE:
                    continue
            elif t != TACTIC:
                continue
            ci = c.index
            for rule in rules:
                if (rule.ci < 0 or rule.ci == ci) and (rule.ty < 0 or rule.ty == t) and \
                        (rule.cond is None or rule.cond(v, p)):
                    r = self._resolve(v, p, rule.regions, c, phase)
                    if r is not None:
                        return (A_PLACE, c.index, r)
        return DONE

    def _contest(self, v: PlayerView, p: int):
        if self.strategy.use:
            a = self._use(v, p, CONTEST)
            if a is not None:
                return a
        return self._place(v, p, CONTEST)

    def _resolve(self, v: PlayerView, p: int, words: list, card: CardDef | None, phase: int) -> int | None:
        """The first Region of a rule's list that applies now (docs/games/regions.md, "Region words")."""
        mine = v.stacks[p]
        n = v.n
        for w in words:
            if isinstance(w, int):
                return w
            if w == "any":
                return 0
            if w == "empty":
                for r in range(N_REGIONS):
                    if not mine[r]:
                        return r
            elif w == "safe":
                for r in range(N_REGIONS):
                    if not any(v.stacks[q][r] for q in range(n) if q != p):
                        return r
            elif w == "contested":
                best, best_n = None, 0
                for r in range(N_REGIONS):
                    k = max(len(v.stacks[q][r]) for q in range(n) if q != p)
                    if k > best_n:
                        best, best_n = r, k
                if best is not None:
                    return best
            elif w == "weakest":
                best, best_gap = None, None
                for r in range(N_REGIONS):
                    if not mine[r]:
                        continue
                    threat = sum(v.stack_damage(q, r) for q in range(n) if q != p)
                    if not threat:
                        continue
                    gap = threat - sum(c.health for c in mine[r])
                    if best_gap is None or gap > best_gap:
                        best, best_gap = r, gap
                if best is not None:
                    return best
            elif w == "mine":
                best, best_threat = None, -1
                for r in range(N_REGIONS):
                    if v.ctrl[r] == p:
                        threat = sum(v.stack_damage(q, r) for q in range(n) if q != p)
                        if threat > best_threat:
                            best, best_threat = r, threat
                if best is not None:
                    return best
            elif w == "biggest":
                best, best_n = None, 0
                for r in range(N_REGIONS):
                    if len(mine[r]) > best_n:
                        best, best_n = r, len(mine[r])
                if best is not None:
                    return best
            elif w == "quest":
                qr = self._quest_region(v, p, card, phase)
                if qr is not None:
                    return qr
        return None

    @staticmethod
    def _quest_region(v: PlayerView, p: int, card: CardDef | None, phase: int) -> int | None:
        """An open Region whose Quest this placement completes now; else the open Region of this phase's Quest
        where p's Stack is biggest (003 §5.4)."""
        best, best_n = None, 0
        for r, region in enumerate(v.regions):
            if v.ctrl[r] >= 0 or region.quest_phase != phase:
                continue
            stack = v.stacks[p][r]
            if card is not None:
                stack.append(card)
                met = v.quest_met(p, r)
                stack.pop()
                if met:
                    return r
            if len(stack) > best_n:
                best, best_n = r, len(stack)
        return best

    # ------------------------------------------------------------------ choices
    def _target(self, v: PlayerView, p: int, d: Decision):
        amount, r, where = d.info
        targets = v.strike_targets(r, where)
        prefs = [rule.selector for rule in self.strategy.target if rule.cond is None or rule.cond(v, p)]
        best = None
        best_key = None
        for q, rr, i in targets:
            c = v.stacks[q][rr][i]
            kills = amount >= c.health
            pref = self._rank(prefs, c) if prefs else 99
            # rules first, then a card it destroys (the dearest; one that holds a Region; the exposed one)
            key = (pref if kills else 100 + pref, 0 if kills else 1, -c.cost, 0 if v.ctrl[rr] == q else 1,
                   0 if i == len(v.stacks[q][rr]) - 1 else 1, rr, q, i)
            if best_key is None or key < best_key:
                best, best_key = (q, rr, i), key
        assert best is not None
        return (A_TARGET,) + best

    def _region_choice(self, v: PlayerView, p: int):
        if self._want_region:
            r = self._resolve(v, p, self._want_region, None, CONTEST)
            self._want_region = []
            if r is not None and v.stacks[p][r]:
                return (A_REGION, r)
        best, best_key = None, None
        for r in range(N_REGIONS):
            if not v.stacks[p][r]:
                continue
            opp = max(sum(c.health for c in v.stacks[q][r]) for q in range(v.n) if q != p)
            key = (0 if opp else 1, -opp, r)
            if best_key is None or key < best_key:
                best, best_key = r, key
        return (A_REGION, best)

    def _trash(self, v: PlayerView, p: int):
        for rule in self.strategy.trash:
            if rule.cond is not None and not rule.cond(v, p):
                continue
            for c in v.hand[p]:
                if rule.selector.matches(c):
                    return (A_TRASH, c.index)
        return KEEP


class RandomPolicy:
    """Uniformly random among the options of each decision (its own seeded stream; a fuzzing baseline)."""

    name = "random"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, view, decision: Decision):
        options = decision.options
        return options[int(self.rng.random() * len(options))]

    def act(self, v: PlayerView | Game, d: Decision):
        options = d.options
        return options[int(self.rng.random() * len(options))]
