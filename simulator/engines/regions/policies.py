"""Players: a policy that plays a strategy (strategy.py) and a random policy.

A policy answers `choose(view, decision)` with one of the decision's options (the protocol of
simulator/engines/common/protocol.py). `act(game, decision)` is the same answer for the fast loop (`Game.play`), which
never lists options: `choose` is `act` on the game behind the view. The strategy policy reads only what its player
may know (its own Hand and Pocket, the public board, counts); tests check this by asking it the same decision on
determinized games.
"""
from __future__ import annotations

import random

from .cards import CITIZEN, CONTEST, POSITION, PURCHASE, RECOGNITION, STRUCTURE, SUPPLIES, TACTIC, CardDef
from .game import (
    A_BUY, A_PLACE, A_PLAY, A_REGION, A_STASH, A_TAKE, A_TARGET, A_TRASH, A_USE, DONE, KEEP, N_REGIONS, N_STANDING,
    YES, Decision, Game,
)
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
        self._plan_game: Game | None = None
        self._plan_sizes: tuple = ()
        # pocket rules without conditions rank every card the same way all game: look the rank up by card index
        self._static_rank: list | None = None
        if all(r.cond is None for r in strategy.pocket):
            sels = [r.selector for r in strategy.pocket]
            self._static_sels = sels

    def choose(self, view, decision: Decision):
        return self.act(view.game_for_policy(), decision)

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
    def act(self, g: Game, d: Decision):
        kind = d.kind
        p = d.player
        if kind == "purchase":
            return self._purchase(g, p)
        if kind == "hero":
            return self._arrange_pocket(g, p, hero_phase=True)
        if kind == "pocket":
            return self._arrange_pocket(g, p, hero_phase=False)
        if kind == "position":
            return self._place(g, p, POSITION)
        if kind == "contest":
            return self._contest(g, p)
        if kind == "capacity":
            return self._capacity(g, p)
        if kind == "target":
            return self._target(g, p, d)
        if kind == "region":
            return self._region_choice(g, p)
        if kind == "trash":
            return self._trash(g, p)
        return YES   # "may": abilities are worth using

    # ------------------------------------------------------------------ Purchase
    def _purchase(self, g: Game, p: int):
        hand = g.hand[p]
        st = self.strategy
        if st.use:
            a = self._use(g, p, PURCHASE)
            if a is not None:
                return a
        for c in hand:   # Supplies with a Hand ability the use rules did not call for: play them for their Goods
            if c.type == SUPPLIES and not c.plain:
                return (A_PLAY, c.index)
        if g.bought[p] >= MAX_BUYS:
            return DONE
        general = g.bank[p]
        restricted = list(g.rbank[p])
        for c in hand:
            if c.plain:
                if c.only < 0:
                    general += c.goods
                else:
                    restricted[c.only] += c.goods
        if g.turn != self._zero_turn:
            self._zero_turn = g.turn
            self._zero_rules = set()
        for k, rule in enumerate(st.buy):
            if rule.cond is not None and not rule.cond(g, p):
                continue
            pick = self._buy_pick(g, rule, general, restricted)
            if pick is not None:
                cost = g.standing[pick].cost if pick < N_STANDING else g.mpiles[pick - N_STANDING][-1].cost
                if cost == 0:
                    key = k * 1000 + p
                    if key in self._zero_rules:
                        continue
                    self._zero_rules.add(key)
                return (A_BUY, pick)
        return DONE

    @staticmethod
    def _buy_pick(g: Game, rule: Rule, general: int, restricted: list[int]) -> int | None:
        sel = rule.selector
        card = sel.card
        if card is not None:
            if card.cost > general + restricted[card.type]:
                return None
            if card.pile == "standing":
                if card.type == RECOGNITION and g.rec_pile <= 0:
                    return None
                return g.standing.index(card)
            m = 0
            for pile in g.mpiles:
                if pile and pile[-1] is card:
                    return N_STANDING + m
                m += 1
            return None
        best = None
        best_cost = -1
        ty = rule.ty
        for k, c in enumerate(g.standing):
            if (ty < 0 or c.type == ty) and c.cost > best_cost and c.cost <= general + restricted[c.type]:
                if c.type == RECOGNITION and g.rec_pile <= 0:
                    continue
                best, best_cost = k, c.cost
        for m, pile in enumerate(g.mpiles):
            if pile:
                c = pile[-1]
                if (ty < 0 or c.type == ty) and c.cost > best_cost and \
                        c.cost <= general + restricted[c.type]:
                    best, best_cost = N_STANDING + m, c.cost
        return best

    # ------------------------------------------------------------------ Hand abilities (use rules)
    def _use(self, g: Game, p: int, phase: int):
        key = (g.turn, phase)
        if key != self._uses_key:
            self._uses_key = key
            self._uses = 0
        if self._uses >= MAX_USES:
            return None
        hand = g.hand[p]
        for rule in self.strategy.use:
            sel = rule.selector
            for c in hand:
                if c.hand_ab[phase] and sel.matches(c):
                    if rule.cond is not None and not rule.cond(g, p):
                        break
                    for k, ab in enumerate(c.hand_ab[phase]):
                        if ab.req < 0 or g._req_count(p, ab.req) >= ab.req_n:
                            self._want_region = rule.regions
                            self._uses += 1
                            return (A_USE, c.index, k)
        return None

    # ------------------------------------------------------------------ Pocket (003 §4.1, §4.2)
    def _ranks(self, g: Game, p: int) -> list:
        """The pocket rules whose condition holds now, best first."""
        return [r.selector for r in self.strategy.pocket if r.cond is None or r.cond(g, p)]

    @staticmethod
    def _rank(sels: list, c: CardDef) -> int:
        for i, s in enumerate(sels):
            if s.matches(c):
                return i
        return 99

    def skip(self, g: Game, kind: str, p: int) -> bool:
        """Whether this policy would answer "done" to the window about to open (Game.play asks first)."""
        if kind == "hero" or kind == "pocket":
            plan = self._get_plan(g, p, kind == "hero")
            return not plan
        return False

    def _get_plan(self, g: Game, p: int, hero_phase: bool) -> list:
        sizes = (len(g.pocket[p]), len(g.hand[p]))
        if self._plan_game is g and self._plan_key == (g.turn, hero_phase) and self._plan_sizes == sizes:
            return self._plan
        self._plan_game = g
        self._plan_key = (g.turn, hero_phase)
        self._plan_sizes = sizes
        self._plan = plan = self._pocket_plan(g, p, hero_phase)
        return plan

    def _arrange_pocket(self, g: Game, p: int, *, hero_phase: bool):
        """Keep in the Pocket the cards the pocket rules rank best (up to its capacity), move the rest to the
        hand: the Hand-to-Pocket moves one by one, then every card to take in one action. Planned once per window
        (nobody else acts while this player moves cards); a plan is dropped when the game is not the one it was
        made for or its zones are not as the plan left them."""
        plan = self._get_plan(g, p, hero_phase)
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

    def _pocket_plan(self, g: Game, p: int, hero_phase: bool) -> list:
        pocket = g.pocket[p]
        hand = g.hand[p]
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
            table = cache.get(("pocket_rank", id(g.cs)))
            if table is None:
                sels0 = [r.selector for r in self.strategy.pocket]
                table = cache[("pocket_rank", id(g.cs))] = [self._rank(sels0, c) for c in g.cs.cards]
            self._static_rank = table
        if self._static_rank is not None:
            table = self._static_rank
            sels = self._static_sels

            def rank(_sels: list, c: CardDef) -> int:
                return table[c.index]
        else:
            sels = self._ranks(g, p)
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
        cap = g.pocket_capacity(p)
        cands = [(rank(sels, c), 0, c) for c in pocket]
        if hero_phase:
            cands += [(rank(sels, c), 1, c) for c in hand]
        ranked = sorted((x for x in cands if x[0] < 99), key=lambda x: (x[0], x[1]))
        desired = [x[2] for x in ranked[:cap]]
        moves: list = []
        if not desired:
            # nothing to keep by the rules: keep one card, the one least worth having in hand
            keep = min(pocket, key=_value)
            takes = [c.index for c in pocket]
            takes.remove(keep.index)
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
            while have.get(c.index, 0) > want.get(c.index, 0) and size > 1:
                takes.append(c.index)
                have[c.index] -= 1
                size -= 1
        if takes:
            moves.append((A_TAKE, *takes))
        moves.reverse()
        return moves

    def _capacity(self, g: Game, p: int):
        sels = self._ranks(g, p)
        worst = max(g.pocket[p], key=lambda c: (self._rank(sels, c), -_value(c)))
        return (A_TAKE, worst.index)

    # ------------------------------------------------------------------ Position and Contest
    def _place(self, g: Game, p: int, phase: int):
        rules = self.strategy.place
        if not rules:
            return DONE
        for c in g.hand[p]:
            t = c.type
            if phase == POSITION:
                if t != CITIZEN and t != STRUCTURE:
                    continue
            elif t != TACTIC:
                continue
            ci = c.index
            for rule in rules:
                if (rule.ci < 0 or rule.ci == ci) and (rule.ty < 0 or rule.ty == t) and \
                        (rule.cond is None or rule.cond(g, p)):
                    r = self._resolve(g, p, rule.regions, c, phase)
                    if r is not None:
                        return (A_PLACE, c.index, r)
        return DONE

    def _contest(self, g: Game, p: int):
        if self.strategy.use:
            a = self._use(g, p, CONTEST)
            if a is not None:
                return a
        return self._place(g, p, CONTEST)

    def _resolve(self, g: Game, p: int, words: list, card: CardDef | None, phase: int) -> int | None:
        """The first Region of a rule's list that applies now (docs/games/regions.md, "Region words")."""
        mine = g.stacks[p]
        n = g.n
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
                    if not any(g.stacks[q][r] for q in range(n) if q != p):
                        return r
            elif w == "contested":
                best, best_n = None, 0
                for r in range(N_REGIONS):
                    k = max(len(g.stacks[q][r]) for q in range(n) if q != p)
                    if k > best_n:
                        best, best_n = r, k
                if best is not None:
                    return best
            elif w == "weakest":
                best, best_gap = None, None
                for r in range(N_REGIONS):
                    if not mine[r]:
                        continue
                    threat = sum(g.stack_damage(q, r) for q in range(n) if q != p)
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
                    if g.ctrl[r] == p:
                        threat = sum(g.stack_damage(q, r) for q in range(n) if q != p)
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
                qr = self._quest_region(g, p, card, phase)
                if qr is not None:
                    return qr
        return None

    @staticmethod
    def _quest_region(g: Game, p: int, card: CardDef | None, phase: int) -> int | None:
        """An open Region whose Quest this placement completes now; else the open Region of this phase's Quest
        where p's Stack is biggest (003 §5.4)."""
        best, best_n = None, 0
        for r, region in enumerate(g.regions):
            if g.ctrl[r] >= 0 or region.quest_phase != phase:
                continue
            stack = g.stacks[p][r]
            if card is not None:
                stack.append(card)
                met = g._quest_met(p, r)
                stack.pop()
                if met:
                    return r
            if len(stack) > best_n:
                best, best_n = r, len(stack)
        return best

    # ------------------------------------------------------------------ choices
    def _target(self, g: Game, p: int, d: Decision):
        amount, r, where = d.info
        targets = g._strike_targets(p, r, where)
        prefs = [rule.selector for rule in self.strategy.target if rule.cond is None or rule.cond(g, p)]
        best = None
        best_key = None
        for q, rr, i in targets:
            c = g.stacks[q][rr][i]
            kills = amount >= c.health
            pref = self._rank(prefs, c) if prefs else 99
            # rules first, then a card it destroys (the dearest; one that holds a Region; the exposed one)
            key = (pref if kills else 100 + pref, 0 if kills else 1, -c.cost, 0 if g.ctrl[rr] == q else 1,
                   0 if i == len(g.stacks[q][rr]) - 1 else 1, rr, q, i)
            if best_key is None or key < best_key:
                best, best_key = (q, rr, i), key
        assert best is not None
        return (A_TARGET,) + best

    def _region_choice(self, g: Game, p: int):
        if self._want_region:
            r = self._resolve(g, p, self._want_region, None, CONTEST)
            self._want_region = []
            if r is not None and g.stacks[p][r]:
                return (A_REGION, r)
        best, best_key = None, None
        for r in range(N_REGIONS):
            if not g.stacks[p][r]:
                continue
            opp = max(sum(c.health for c in g.stacks[q][r]) for q in range(g.n) if q != p)
            key = (0 if opp else 1, -opp, r)
            if best_key is None or key < best_key:
                best, best_key = r, key
        return (A_REGION, best)

    def _trash(self, g: Game, p: int):
        for rule in self.strategy.trash:
            if rule.cond is not None and not rule.cond(g, p):
                continue
            for c in g.hand[p]:
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

    def act(self, g: Game, d: Decision):
        options = d.options
        return options[int(self.rng.random() * len(options))]
