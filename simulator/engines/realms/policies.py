"""Policies for realms: who decides what at each `Decision`, from the deciding player's view only.

- `RandomPolicy` — a uniformly random legal option (fuzzing, property tests, the weakest opponent).
- `GreedyPolicy` — a sensible player: reveals its strongest Leader, takes the Gift of Fate without a Place,
  builds the Places its economy can keep (cells close to the Leader), recruits the warriors the Resource
  Balancing can pay, equips and plays Intrigues that pay off, keeps Borderlands blockers on the Tactics of its
  raidable Places when the opponent can raid, sends the rest to the Strike Force; balances paying everything it
  can (producers first, then the most valuable cards); attacks only when it wins for sure, blockers first; raids
  the target worth the most VP that its party beats; plays combat tricks that turn a fight; takes VP from a
  Leader raid.
- `evaluate(view_or_game, player)` — a heuristic value in [-1, 1] of a position for `player` (VP race, board,
  economy, cards), for the search player's cut-off playouts.

A policy is an object with `name` and `choose(view, decision) -> action`; `make_policy(name, seed)` builds one.
"""
from __future__ import annotations

import math
import random
from typing import Any

from .cards import (
    E_ADD_RESOURCES, E_DISCARD_HAND, E_DRAW, E_GAIN_GOLD, E_KILL, E_MODIFY_CV, E_RECOVER, E_RECRUIT, E_SEARCH,
    E_TAKE_GOLD, IK_EQUIPMENT, IK_HARMONY, IK_PROPHECY, IK_RITUAL, OP_ADD, OP_MUL, OP_SUB, REF_OUR, REF_THEIR,
    W_VEHICLE, CardDef,
)
from .game import (
    A_ATTACK, A_BUILD, A_DISCARD, A_DONE, A_GROUP, A_KEEP, A_MOVE, A_MULLIGAN, A_PAY, A_PAY_ALL, A_PLAY,
    A_RAID, A_RECRUIT, A_USE, A_YES, RW_GOLD, RW_VP, Z_BORDER, Z_STRIKE, Decision, Game,
)
from .state import DONE_OPT, PASS_OPT
from . import statics
from .view import PlayerView


def _options(dec: Decision) -> list[tuple]:
    """The decision's options typed as tuples (they always are): reading o[0] is then a native tuple read in compiled
    code, not a generic item lookup."""
    return dec.options


class RandomPolicy:
    """Chooses uniformly among the legal options with its own random.Random (never the global one)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: Any, dec: Decision) -> Any:
        opts = dec.options
        return opts[int(self.rng.random() * len(opts))]


class FirstPolicy:
    """Always the first option (tests)."""

    name = "first"

    def choose(self, view: Any, dec: Decision) -> Any:
        return dec.options[0]


# ---- how much cards are worth ----------------------------------------------------------------------------
def _static_value(d: CardDef) -> float:
    """The worth of the card's static abilities (cached on the card, as card_value)."""
    if not d.svalue_set:
        d.svalue = _compute_static_value(d)
        d.svalue_set = True
    return d.svalue


def _compute_static_value(d: CardDef) -> float:
    v = 0.0
    for st in d.statics:
        m = st.cvmod
        if m is not None:
            base = m.value if m.op in (OP_ADD, OP_SUB) else 2.0
            scale = 1.0 if st.cond is None else 0.6
            if st.affects >= 3:   # a selector: several cards
                scale *= 2.0
            v += (base if m.op in (OP_ADD, OP_MUL) else -base) * scale
        if st.tactics:
            v += 0.5 * bin(st.tactics).count("1")
        v += 0.6 * sum(st.prov) - 0.6 * sum(st.cons)
        if st.has_cost:
            v += 0.8
        if st.rules:
            v += 1.0
    return v


def card_value(d: CardDef) -> float:
    """A rough worth of a card in play or in hand, to rank plays, targets and discards (cached on the card)."""
    if d.gvalue >= -0.5:
        return d.gvalue
    d.gvalue = _compute_value(d)
    return d.gvalue


def _compute_value(d: CardDef) -> float:
    if d.is_place:
        v = 2.0 + 1.2 * sum(d.prov) - 0.9 * sum(d.cons) + 0.15 * d.cv + 0.5 * bool(d.unlocks)
    elif d.is_warrior:
        v = 1.0 + d.cv + 0.4 * bin(d.tactics).count("1") - 0.5 * (sum(d.cons) - 1)
    elif d.is_leader:
        v = 5.0 + d.cv
    else:
        v = 1.0 + 0.4 * d.cost
    v += _static_value(d)
    if d.abilities:
        v += 0.8 * len(d.abilities)
    return max(v, -0.4)


class GreedyPolicy:
    """The sensible one-ply player described in the module docstring. Reads only its view."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self._rng: random.Random | None = None

    @property
    def rng(self) -> random.Random:
        """The player's own random.Random (made when first asked for: the greedy player's choices draw nothing, and
        seeding one costs more than a goldfish game's decision; search playouts make two players each)."""
        if self._rng is None:
            self._rng = random.Random(self.seed)
        return self._rng

    def choose(self, view: Any, dec: Decision) -> Any:
        k = dec.kind
        if k == "actions":
            return self._actions(view, dec)
        if k == "balance":
            return self._balance(view, dec)
        if k == "raid":
            return self._raid(view, dec)
        if k == "attack":
            return self._attack(view, dec)
        if k == "combat" or k == "raid_mods":
            return self._window(view, dec)
        if k == "cell":
            return self._cell(view, dec)
        if k == "reward":
            return self._reward(view, dec)
        if k == "target":
            return self._target(view, dec)
        if k == "discard" or k == "kill":
            return self._lowest(view, dec)
        if k == "take":
            return self._highest(view, dec)
        if k == "recruit":
            return self._recruit_effect(view, dec)
        if k == "leader":
            return self._leader(view, dec)
        if k == "mulligan":
            return self._mulligan(view, dec)
        if k == "trigger":
            return (A_YES,)
        return dec.options[0]

    # ---- setup -----------------------------------------------------------------------------------------
    def _leader(self, view: PlayerView, dec: Decision) -> tuple:
        # the strongest Leader: highest CV, fewer Tactics (harder to raid), then the most resources
        def key(o):
            d = view.card(o[1])   # the viewer's own Leaders: known to it
            return (d.cv, -bin(d.tactics).count("1"), sum(d.prov))
        return max(dec.options, key=key)

    def _mulligan(self, view: PlayerView, dec: Decision) -> tuple:
        hand = view.hand()
        places = [i for i in hand if view.card(i).is_place]
        cheap = [i for i in places if view.card(i).cost <= 5]
        return (A_KEEP,) if cheap else (A_MULLIGAN,)

    # ---- the economy -------------------------------------------------------------------------------------
    def _project(self, view: PlayerView) -> list[int] | None:
        """What is left after this turn's Resource Balancing if every card in play is kept (R4), or None."""
        return view.project_balance()

    @staticmethod
    def _fits(left: list[int] | None, d: CardDef, cost: int, reserve: int = 0) -> bool:
        """Whether the card can be kept through the Resource Balancing after paying `cost` now; a card eating
        Gold only while the Gold income stays positive (else the Reserve drains to nothing and the hand sticks)."""
        if left is None:
            return not d.has_red and cost <= 0
        c = d.cons
        if not (left[0] - cost - c[0] >= 0 and left[1] >= c[1] and left[2] >= c[2] and left[3] >= c[3]):
            return False
        if c[0]:
            income = left[0] - reserve   # Gold gained per turn net of upkeep
            return income - c[0] >= 1 or left[0] - cost - c[0] >= 4
        return True

    # ---- the Actions step --------------------------------------------------------------------------------
    def _threats(self, view: PlayerView) -> int:
        """The Tactics on which the opponent could raid this player's Settlement before its next turn."""
        q = view.opponent
        if view.is_goldfish(q):
            return 0
        bits = 0
        for i in view.raid_targets(view.player):
            bits |= view.tactics(i)
        return bits

    def _covered(self, view: PlayerView, exclude: int = -1) -> int:
        bits = 0
        for w in view.borderlands(view.player):
            if w != exclude and view.group_of(w) is None:
                bits |= view.tactics(w)
        return bits

    def action_values(self, view: PlayerView, dec: Decision) -> list[tuple[float, tuple]]:
        """(value, option) of each Actions option the player scores, in the options' order (the search player's
        candidates come from these); forming a Group, discarding on purpose and unkeepable recruits are left out."""
        out: list[tuple[float, tuple]] = []
        self._score_actions(view, dec, out)
        return out

    def _score_actions(self, view: PlayerView, dec: Decision,
                       out: list[tuple[float, tuple]] | None) -> tuple[tuple | None, float]:
        """Scores the Actions options (into `out` when given, as action_values lists them) and returns the first
        best scored above 0 with its value: the player's own choice makes no (value, option) pairs."""
        p = view.player
        # the Resource Balancing projection is made when a first option needs it (often none does: nothing
        # left to play but moves and `done`)
        left: list[int] | None = None
        projected = False
        reserve = view.reserve(p)
        threats = self._threats(view)
        gap = threats & ~self._covered(view) if threats else 0   # nothing threatened: nothing to cover
        best: tuple | None = None
        best_v = 0.0
        for o in _options(dec):
            k: int = o[0]   # a native int: the kind tests below are then integer compares
            v = 0.0
            if not projected and (k == A_BUILD or k == A_RECRUIT or k == A_PLAY or k == A_USE):
                left = self._project(view)
                projected = True
            if k == A_BUILD:
                d = view.card(o[1])
                if self._fits(left, d, view.cost(o[1]), reserve):
                    v = 6.0 + card_value(d)
            elif k == A_RECRUIT:
                i = o[1]
                d = view.card(i)
                cost = view.cost(i)
                if not self._fits(left, d, cost, reserve):
                    continue
                v = 4.0 + card_value(d) - 0.3 * cost
                to_border = o[2] == Z_BORDER
                if to_border:
                    v += 3.0 if d.tactics & gap else -1.0
                elif d.wtype != W_VEHICLE and d.tactics & gap and not self._has_zone_option(dec, i, Z_BORDER):
                    v -= 0.5
            elif k == A_PLAY:
                v = self._play_value(view, o, left, reserve)
            elif k == A_MOVE:
                v = self._move_value(view, o[1], gap, threats)
            elif k == A_USE:
                v = self._use_value(view, o, left)
            elif k == A_GROUP or k == A_DISCARD:
                continue
            if out is not None:
                out.append((v, o))
            if v > best_v:
                best, best_v = o, v
        return best, best_v

    def _actions(self, view: PlayerView, dec: Decision) -> tuple:
        p = view.player
        best, best_v = self._score_actions(view, dec, None)
        if best_v < 3.0 and view.attack_this_turn() and not view.is_goldfish(view.opponent):
            group = self._group_wish(view, dec)
            if group is not None:
                return group
        if best is None and view.hand_size(p) >= 7:
            # a full hand the board cannot keep never draws (002 §9 draws up to 7): play the cheapest card and
            # let the Resource Balancing discard it, the one way the rules leave to cycle a stuck hand
            cycle = [o for o in dec.options if o[0] in (A_BUILD, A_RECRUIT, A_PLAY)]
            if cycle:
                return min(cycle, key=lambda o: (view.cost(o[1]), card_value(view.card(o[1])), o[0] == A_BUILD))
        return best if best is not None else DONE_OPT

    def _group_wish(self, view: PlayerView, dec: Decision) -> tuple | None:
        """An Offensive Group of two that kills a Borderlands blocker no single warrior of ours beats (002 §11),
        when that blocker stands between the Strike Force and a raid."""
        p = view.player
        q = view.opponent
        wish = self._raid_wish(view)
        if not wish:
            return None
        risk = 1 if view.hand_size(q) else 0
        free = [w for w in view.strike_force(p) if view.group_of(w) is None and not view.attacked(w)]
        singles = [(w, view.cv_as((w,), 1), view.tactics(w)) for w in free]
        for unit in view.defenders(q):
            if view.zone(unit[0]) != Z_BORDER:
                continue
            ut = view.group_tactics(unit) if len(unit) > 1 else view.tactics(unit[0])
            if not ut & wish:
                continue
            need = view.cv_as(unit, 2) + risk
            if any(cv > need and t & ut for _, cv, t in singles):
                continue   # a single attack does it
            best: tuple | None = None
            best_sum = 1_000
            for a in range(len(singles)):
                for b in range(a + 1, len(singles)):
                    wa, ca, ta = singles[a]
                    wb, cb, tb = singles[b]
                    if ta & tb & ut and need < ca + cb < best_sum:
                        cand = (A_GROUP, 1, (wa, wb))   # Strike Force order
                        if any(o[0] == A_GROUP and o[1] == 1 and wa in o[2] and wb in o[2] for o in dec.options):
                            best, best_sum = cand, ca + cb
            if best is not None:
                return best
        return None

    @staticmethod
    def _has_zone_option(dec: Decision, i: int, zone: int) -> bool:
        for o in _options(dec):
            k0: int = o[0]
            if k0 == A_RECRUIT and o[1] == i and o[2] == zone:
                return True
        return False

    def _move_value(self, view: PlayerView, w: int, gap: int, threats: int) -> float:
        z = view.zone(w)
        t = view.tactics(w)
        if z == Z_STRIKE:
            # cover a Tactic the opponent could raid on, if no one else does
            return 2.5 if t & gap else 0.0
        # a Borderlands warrior whose Tactics are all covered by others or not threatened goes raiding
        if not threats:
            return 1.5
        others = self._covered(view, exclude=w)
        if not t & threats & ~others:
            return 1.5
        return 0.0

    def _play_value(self, view: PlayerView, o: tuple, left: list[int] | None, reserve: int) -> float:
        i, host = o[1], o[2]
        d = view.card(i)
        cost = view.cost(i)
        ik = d.ik
        if ik in (IK_EQUIPMENT, IK_HARMONY, IK_PROPHECY, IK_RITUAL):
            if not self._fits(left, d, cost, reserve):
                return 0.0
            v = 2.0 + _static_value(d) - 0.3 * cost
            if ik == IK_EQUIPMENT or ik == IK_HARMONY:
                if host < 0:
                    return 0.0
                hd = view.card(host)
                if hd.is_warrior:
                    v += 0.2 * view.cv(host) + (0.5 if view.zone(host) == Z_STRIKE else 0.0)
                if ik == IK_HARMONY and not hd.is_warrior:
                    v -= 0.5
            return v
        ab = d.play_ab
        if ab is None:
            return 0.0
        v = 0.0
        q = view.opponent
        for e in ab.effects:
            k = e.kind
            if k == E_GAIN_GOLD:
                v += 1.0 * (e.amount if e.amount_sel is None else len(view.places(view.player)))
            elif k == E_DRAW:
                v += 1.2 * e.amount if view.hand_size(view.player) < 9 else 0.2
            elif k == E_TAKE_GOLD:
                v += 1.0 * min(e.amount, view.reserve(q))
            elif k == E_KILL:
                targets = [t for t in _opp_warriors(view) if ab.target is None or
                           view.matches(ab.target, t, i)]
                v += max((view.cv(t) + 1.0 for t in targets), default=0.0)
            elif k == E_DISCARD_HAND:
                v += 1.0 if e.opponent and view.hand_size(q) else -1.0
            elif k == E_ADD_RESOURCES:
                v += 0.6 if left is None else 0.0
            elif k == E_RECRUIT:
                v += 1.5 if any(view.card(h).is_warrior for h in view.hand() if h != i) else 0.0
            elif k in (E_RECOVER, E_SEARCH):
                v += 1.0 if view.discard(view.player) else 0.0
            else:
                v += 0.3
        for c in ab.costs:
            if c.kind == 4:   # kill one of your warriors
                v -= 2.5
        return v - 0.5 * cost

    def _use_value(self, view: PlayerView, o: tuple, left: list[int] | None) -> float:
        i, k = o[1], o[2]
        ab = view.card(i).abilities[k]
        gold = sum(c.n for c in ab.costs if c.kind == 0)
        if left is not None and left[0] - gold < 1:
            return 0.0
        v = 0.0
        for e in ab.effects:
            if e.kind == E_DRAW:
                v += 1.2 * e.amount
            elif e.kind == E_RECOVER:
                v += 1.5 if any(view.card(x).is_warrior for x in view.discard(view.player)) else 0.0
            elif e.kind == E_GAIN_GOLD:
                v += e.amount
        return v - 0.5 * gold

    def _cell(self, view: PlayerView, dec: Decision) -> tuple:
        # close to the Leader (a short Supply Line), on its axes rather than diagonals, then the lowest cell
        best = dec.options[0]
        best_key = -1_000_000
        for o in _options(dec):
            # cell_xy written out on native ints (its tuple, and abs() on its items, were generic object operations);
            # products of non-negative ints only (compiled code multiplies a negative int as a generic object)
            c: int = o[1]
            x = c // 256 - 128
            y = c % 256 - 128
            ax = x if x >= 0 else -x
            ay = y if y >= 0 else -y
            key = -((ax + ay) * 1000) - ax * ay
            if key > best_key:   # ties: the first, i.e. the lowest cell
                best, best_key = o, key
        return best

    # ---- Resource Balancing --------------------------------------------------------------------------------
    def _balance(self, view: PlayerView, dec: Decision) -> tuple:
        for o in _options(dec):
            k0: int = o[0]   # a native int compare, not a generic one
            if k0 == A_PAY_ALL:
                # a Reserve stuck at nothing with no Gold income: shed the cheapest Gold eater instead
                avail, unpaid = view.balance_state()
                gold = avail[0]
                eaters = []
                modified = view.icon_statics()
                for i in unpaid:
                    d = view.card(i)
                    if d.p0 or d.c0 or modified:
                        prov, cons = view.icons(i)
                        gold += prov[0] - cons[0]
                        if cons[0] and d.is_warrior:
                            eaters.append(i)
                if eaters and gold <= 1 and gold <= view.reserve(view.player):
                    worst = min(eaters, key=lambda i: card_value(view.card(i)))
                    return (A_DISCARD, worst)
                return o
        # pay producers first, then the most valuable cards (what cannot be paid then is discarded)
        best = None
        best_v = -1e9
        printed = not view.icon_statics()
        for o in _options(dec):
            kind: int = o[0]
            if kind != A_PAY:
                continue
            pi: int = o[1]
            d = view.card(pi)
            if printed:
                net = d.net   # the printed icons' sum, blue less red
            else:
                prov, cons = view.icons(pi)
                net = prov[0] + prov[1] + prov[2] + prov[3] - (cons[0] + cons[1] + cons[2] + cons[3])
            v = card_value(d) + (5.0 if net > 0 else 0.0)
            if v > best_v:
                best, best_v = o, v
        return best if best is not None else dec.options[0]

    # ---- Attack ------------------------------------------------------------------------------------------
    def _attack(self, view: PlayerView, dec: Decision) -> tuple:
        p = view.player
        q = view.opponent
        threatened = self._raid_wish(view)
        risk = 1 if view.hand_size(q) else 0
        best = None
        best_v = 0.0
        for o in _options(dec):
            k0: int = o[0]
            if k0 != A_ATTACK:
                continue
            att, dfn, t = o[1], o[2], o[3]
            a_cv = _unit_cv(view, att, 1)
            d_cv = _unit_cv(view, dfn, 2)
            if a_cv <= d_cv + risk:
                continue
            v = sum(card_value(view.card(w)) for w in dfn)
            for w in dfn:
                if view.zone(w) == Z_BORDER and view.tactics(w) & threatened:
                    v += 4.0
            v -= 0.1 * a_cv   # the smallest sufficient attacker
            if v > best_v:
                best, best_v = o, v
        return best if best is not None else DONE_OPT

    def _raid_wish(self, view: PlayerView) -> int:
        """The Tactics on which this player's Strike Force could raid a target, blocked now or not."""
        bits = 0
        for i in view.raid_targets(view.opponent):
            bits |= view.tactics(i)
        sf = 0
        for w in view.strike_force(view.player):
            sf |= view.tactics(w)
        return bits & sf

    # ---- Raid --------------------------------------------------------------------------------------------
    def _raid(self, view: PlayerView, dec: Decision) -> tuple:
        q = view.opponent
        risk = 1 if view.hand_size(q) and not view.is_goldfish(q) else 0
        best = None
        best_v = 0.0
        # a Tactic's party comes with every target on that Tactic, and its raiding CV does not depend on the
        # target: weighed once per party
        parties: list[tuple] = []
        party_cvs: list[int] = []
        for o in _options(dec):
            k0: int = o[0]
            if k0 != A_RAID:
                continue
            tgt, party = o[1], o[3]
            r_cv = 0
            known = False
            for k in range(len(parties)):
                if parties[k] == party:
                    r_cv = party_cvs[k]
                    known = True
                    break
            if not known:
                r_cv = _raid_cv(view, party)
                parties.append(party)
                party_cvs.append(r_cv)
            t_cv = view.cv(tgt)
            if r_cv <= t_cv:
                continue
            d = view.card(tgt)
            v = float(d.cv) + (0.5 if r_cv > t_cv + risk else 0.0) + 0.01 * (r_cv - t_cv)
            if d.is_leader:
                v = max(v, 0.5 * view.reserve(q))
            if v > best_v:
                best, best_v = o, v
        return best if best is not None else PASS_OPT

    def _reward(self, view: PlayerView, dec: Decision) -> tuple:
        q = view.opponent
        lead = view.card(view.leader(q))
        vp_left = view.target_vp - view.vp(view.player)
        gold = view.reserve(q)
        if gold >= 2 * lead.cv and vp_left > lead.cv:
            for o in dec.options:
                if o[1] == RW_GOLD:
                    return o
        for o in dec.options:
            if o[1] == RW_VP:
                return o
        return dec.options[-1]

    # ---- modification phases: play what turns the fight --------------------------------------------------
    def _window(self, view: PlayerView, dec: Decision) -> tuple:
        cb = view.combat()
        if cb is None:
            return PASS_OPT
        p = view.player
        mine = cb.att if p == cb.attacker else cb.dfn
        theirs = cb.dfn if p == cb.attacker else cb.att
        my_mods = list(cb.mods[p])
        their_mods = list(cb.mods[1 - p])
        mine_cv = view.side_cv(mine, my_mods)
        their_cv = view.side_cv(theirs, their_mods)
        attacking = p == cb.attacker
        now = _outcome(mine_cv, their_cv, attacking, cb.raid)
        if now >= 1:
            return PASS_OPT
        best = None
        best_key = (now, 0.0)
        for o in dec.options:
            if o[0] not in (A_PLAY, A_USE):
                continue
            i = o[1]
            d = view.card(i)
            if o[0] == A_PLAY:
                ab = (d.raid if cb.raid else d.combat)[0]
                cost = view.cost(i)
            else:
                ab = d.abilities[o[2]]
                cost = 0
            m1, m2 = list(my_mods), list(their_mods)
            for e in ab.effects:
                if e.kind == E_MODIFY_CV and e.cvmod is not None:
                    if e.who == REF_OUR:
                        m1.append(e.cvmod)
                    elif e.who == REF_THEIR:
                        m2.append(e.cvmod)
            cost += sum(c.n for c in ab.costs if c.kind == 0)
            res = _outcome(view.side_cv(mine, m1), view.side_cv(theirs, m2), attacking, cb.raid)
            key = (res, -cost)
            if res > now and key > best_key:
                best, best_key = o, key
        return best if best is not None else PASS_OPT

    # ---- small choices ---------------------------------------------------------------------------------
    def _target(self, view: PlayerView, dec: Decision) -> tuple:
        p = view.player
        src, k = dec.ctx
        ab = view.ability(src, k)
        best = None
        best_v = -1e9
        for o in dec.options:
            if o[0] == A_DONE:
                continue
            i = o[1]
            d = view.card(i)
            v = card_value(d) + (view.cv(i) if d.is_warrior else 0)
            if view.owner(i) == p:
                v = -v if ab.harmful else v
            elif not ab.harmful:
                v = -v
            if v > best_v:
                best, best_v = o, v
        return best if best is not None else dec.options[0]

    def _lowest(self, view: PlayerView, dec: Decision) -> tuple:
        return min(dec.options, key=lambda o: card_value(view.card(o[1])) if o[0] != A_DONE else 99.0)

    def _highest(self, view: PlayerView, dec: Decision) -> tuple:
        return max(dec.options, key=lambda o: card_value(view.card(o[1])) if o[0] != A_DONE else -99.0)

    def _recruit_effect(self, view: PlayerView, dec: Decision) -> tuple:
        gap = self._threats(view) & ~self._covered(view)

        def key(o):
            d = view.card(o[1])
            return (card_value(d), (o[2] == Z_BORDER) == bool(d.tactics & gap))
        return max(dec.options, key=key)



def _opp_warriors(view: PlayerView) -> list[int]:
    return view.warriors(view.opponent)


def _unit_cv(view: PlayerView, members: Any, role: int) -> int:
    return view.cv_as(members, role)


def _raid_cv(view: PlayerView, party: Any) -> int:
    return _unit_cv(view, party, 3)


def _outcome(mine: int, theirs: int, attacking: bool, raid: bool) -> int:
    """1 when this side wins the fight, 0 for a tie, -1 when it loses (a raid tie is the raided side's)."""
    if mine > theirs:
        return 1
    if mine == theirs:
        return 0 if not raid else (-1 if attacking else 1)
    return -1


# ---- evaluation --------------------------------------------------------------------------------------------
def evaluate(state: Any, player: int) -> float:
    """A heuristic value of the position for `player`, in [-1, 1] (1 = won): the VP race, then the board (warriors'
    CV, Places, the economy), the Reserve and the cards in hand. Reads only what `player` may know.

    >>> evaluate(game, 0)                               # doctest: +SKIP
    0.12
    """
    g = state if isinstance(state, Game) else state._g   # public figures only (VP, board, Reserve, hand sizes)
    if g.over:
        if g.winner is None:
            return 0.0
        return 1.0 if g.winner == player else -1.0
    q = 1 - player
    target = float(g.target_vp)
    score = 3.0 * (g.vp[player] - g.vp[q]) / target

    def board(p: int) -> float:
        s = 0.0
        for w in g.z[p][7] + g.z[p][8]:
            s += statics.cv(g, w)
        places = g.z[p][6]
        income = 0
        for i in places:
            if g.supplied[i]:
                prov, cons = statics.icons(g, i)
                income += sum(prov) - sum(cons)
        return 0.06 * s + 0.08 * (len(places) - 1) + 0.03 * income + 0.01 * g.reserve[p] + 0.02 * len(g.z[p][1])

    score += board(player) - board(q)
    return math.tanh(score)


def play_out(game: Game, pol0: Any, pol1: Any) -> None:
    """Play `game` to its end, each player's decisions made by its policy from its own view (play_game's loop,
    here in a compiled module: the greedy player's choose() is then a native call, not a Python-level one)."""
    v0 = game.view(0)
    v1 = game.view(1)
    g0: GreedyPolicy | None = pol0 if isinstance(pol0, GreedyPolicy) else None
    g1: GreedyPolicy | None = pol1 if isinstance(pol1, GreedyPolicy) else None
    while not game.over:
        dec = game.pending
        assert dec is not None
        if dec.player == 0:
            a = g0.choose(v0, dec) if g0 is not None else pol0.choose(v0, dec)
        else:
            a = g1.choose(v1, dec) if g1 is not None else pol1.choose(v1, dec)
        game.apply_action(a)


POLICIES = {"random": RandomPolicy, "greedy": GreedyPolicy, "first": FirstPolicy}


# search.py: `expert` or `expert:N` (N simulated games per searched decision), and its tree version `expert-tree`
SEARCH_POLICIES = ("expert", "expert-tree")


def make_policy(name: str, seed: int = 0) -> Any:
    """A policy by name ('random', 'greedy', 'expert' or 'expert:N', 'expert-tree' or 'expert-tree:N'; 'first' for
    tests)."""
    base, _, arg = name.partition(":")
    if base in SEARCH_POLICIES:
        from .search import make_expert, make_expert_tree
        return (make_expert_tree if base == "expert-tree" else make_expert)(seed, arg or None)
    cls = POLICIES.get(name)
    if cls is None:
        raise ValueError(f"unknown realms policy {name!r}; policies are expert (expert:N), "
                         f"{', '.join(sorted(POLICIES))}")
    return cls() if cls is FirstPolicy else cls(seed)
