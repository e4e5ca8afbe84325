"""Policies: who decides what at each `Decision` of the game.

- `RandomPolicy` — a uniformly random legal option (fuzzing, property tests).
- `GreedyV1Policy` ("greedy-v1", greedy_base.py) — the first greedy player, frozen as the ladder's reference:
  quest by need, best opening board (`SetupSolver`, 8-wealth budget), the best value per wealth, attacks it expects
  to win with the fewest units that win (one unit per empty defence, spread across struggles), defends when it can
  win or when spoils would hurt.
- `GreedyPolicy` ("greedy") — greedy-v1 with its blind spots corrected: defends when the Influence and cards saved
  are worth the exhaustion (chump-defends to deny the unopposed Influence), aims pumps and tricks at participants,
  uses the secret area (secret-place, hide at setup, reveal as a surprise defender), chooses quests and the first
  player by the situation, plans setup with the whole budget, sends the weakest unit into an empty defence and
  weighs the last ready defender of each icon. docs/engine.md, "Policies", has the details and the measured play
  statistics.
- The goldfish opponent of CONTRACTS §3 needs no policy: `deck_b=None` makes a player that never decides.

A policy is any object with `choose(game, decision) -> action`; it is called directly on each decision.
"""
from __future__ import annotations

from typing import Any

import random

from .cards import KW_SECRET
from .game import COMBAT, CONFRONT_P, DONE, FAITH, GUILE, NO, PASS, SECRET_PLACE_COST, YES, Decision, PlayerView
from .setup import SETUP_BUDGET, SetupSolver   # the exact setup solver (§4), shared with the hands report
from .greedy_base import _ICON_COUNT, GreedyV1Policy, _AuthorityLead, ability_hint, card_value


class RandomPolicy:
    """Chooses uniformly among the legal options with its own random.Random (never the global one)."""

    name = "random"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, game: PlayerView | None, dec: Decision):   # uses no state: any game, or None
        opts = dec.options
        return opts[int(self.rng.random() * len(opts))]


class FirstPolicy:
    """Always the first option (handy in tests)."""

    name = "first"

    def choose(self, game: PlayerView | None, dec: Decision):
        return dec.options[0]


_SOLVERS: dict = {}   # (id(deck), budget) -> (deck, solver, index): setup solvers for budgets other than 8

AUTHORITY_WORTH = 1.2   # §5.5: 1 Influence and the emblem's +1 on the holder's attacks
EXHAUST_TO_ATTACK = 0.3   # a defender that exhausts before its own Confrontation turn loses that unit's attack
GUARD_WORTH = 0.8         # the last ready defender of an icon the opponent can still attack with (S.10)


def _effect_keys(ab) -> set:
    keys: set = set()
    for e in ab.effects:
        keys.update(e)
        for sub in e.get("then", ()):
            keys.update(sub)
    return keys


_EMBARK_KIND: dict[int, tuple] = {}   # id(ability) -> (ability, kind): what an Embark ability does, worked out once


def _embark_kind(ab) -> int:
    """How the quest choice scores an Embark ability (§5.1): 0 gains Influence, 1 draws or searches, 2 harmful
    and aimed at hand or deck (discard at random, mill), 3 other harmful, 4 modifies Power, 5 removes an
    emblem, 6 anything else. A card's abilities never change, so each is classified once per process."""
    got = _EMBARK_KIND.get(id(ab))
    if got is not None and got[0] is ab:
        return int(got[1])
    keys = _effect_keys(ab)
    if "gain_influence" in keys:
        kind = 0
    elif "draw" in keys or "search" in keys:
        kind = 1
    elif ab.harmful:
        kind = 2 if "discard_random" in keys or "mill" in keys else 3
    elif "modify_power" in keys:
        kind = 4
    elif "remove_emblem" in keys:
        kind = 5
    else:
        kind = 6
    if len(_EMBARK_KIND) > 4096:
        _EMBARK_KIND.clear()
    _EMBARK_KIND[id(ab)] = (ab, kind)
    return kind


def _fields_a_unit(ab) -> bool:
    """Whether an ability puts a card into the field (a search to the field, put into play)."""
    for e in ab.effects:
        if "put_into_play" in e or ("search" in e and e.get("to") == "field"):
            return True
    return False


def setup_budget(game: PlayerView, p: int) -> int:
    """§4: the 8-wealth setup budget plus what the faction card and destiny add (e.g. Vow of Poverty's +2; both
    are faceup from setup, §10.6/§10.7)."""
    extra = 0
    for iid in (game.faction_iid[p], game.destiny_iid[p]):
        if iid >= 0:
            for ab in game.cdef[iid].abilities:
                if ab.timing == "static" and ab.affects in (None, "you"):
                    v = ab.modify.get("setup_budget")
                    if isinstance(v, int):
                        extra += v
    return SETUP_BUDGET + extra


def _by_pw(ids: list[int], pw: dict[int, int], desc: bool) -> list[int]:
    """`sorted(ids, key=lambda i: -pw[i] if desc else pw[i])` without a key call per unit: ties keep their order."""
    keyed = [(-pw[i] if desc else pw[i], k, i) for k, i in enumerate(ids)]
    keyed.sort()
    return [x[2] for x in keyed]


def _guard_cost(guarded: list[list[int]], units: list[int]) -> float:
    """GUARD_WORTH for each threatened icon whose every ready guard is among `units` (the attack leaves no
    defender with that icon, S.10)."""
    c = 0.0
    for ids in guarded:
        left = False
        for i in ids:
            if i not in units:
                left = True
                break
        if not left:
            c += GUARD_WORTH
    return c


def _claim(mine: int, theirs: int) -> float:
    """§5.5: what the Authority outcome is worth to a player with total `mine` against `theirs`."""
    return AUTHORITY_WORTH if mine > theirs else (0.0 if mine == theirs else -AUTHORITY_WORTH)


class GreedyPolicy(GreedyV1Policy):
    """The greedy player: greedy-v1 with its blind spots corrected (see the module docstring)."""

    name = "greedy"

    def __init__(self, seed: int = 0):
        super().__init__(seed)
        self.def_declared: Any = None   # the struggle whose S.6 defenders this player has declared
        self.mull_plan: Any = None      # (hand, plan): the setup plan the mulligan decision worked out (§4)

    # the mulligan's setup plan is the one setup uses when the hand was kept (the same hand, the same plan) ----
    def _mulligan(self, game: PlayerView, dec: Decision):
        p = dec.player
        plan = self._plan_setup(game, p)
        self.mull_plan = (list(game.my_hand), plan)
        units = sum(1 for a in plan if a[0] == "place" and game.cdef[a[1]].is_unit)
        power = sum(game.cdef[a[1]].power for a in plan if a[0] == "place" and game.cdef[a[1]].is_unit)
        return YES if units < 2 and power < 3 else NO

    def _setup(self, game: PlayerView, dec: Decision):
        if dec.info["used"] == 0 and self.setup_plan is None:
            kept = self.mull_plan
            self.mull_plan = None
            if kept is not None and kept[0] == game.my_hand:
                self.setup_plan = list(kept[1])
        return GreedyV1Policy._setup(self, game, dec)

    # setup: the whole budget (§4), spare budget hides Secret cards (§10.9) ---------------------------
    def _plan_setup(self, game: PlayerView, p: int) -> list:
        budget = setup_budget(game, p)
        if budget == SETUP_BUDGET:
            plan = GreedyV1Policy._plan_setup(self, game, p)
        else:
            plan = self._plan_setup_budget(game, p, budget)
        return self._add_hides(game, p, plan, budget)

    def _plan_setup_budget(self, game: PlayerView, p: int, budget: int) -> list:
        hand = game.my_hand
        deck: Any = game.my_deck
        key = (id(deck), budget)
        got = _SOLVERS.get(key)
        try:
            if got is None or got[0] is not deck:
                distinct = list(dict.fromkeys(deck.draw))
                idx = {d: i for i, d in enumerate(distinct)}
                got = (deck, SetupSolver([d.raw for d in distinct], deck.faction_slug, budget), idx)
                if len(_SOLVERS) > 64:
                    _SOLVERS.clear()
                _SOLVERS[key] = got
            idx = got[2]
            choice = got[1].best([idx[game.cdef[i]] for i in hand])
            hidden = set(getattr(choice, "hidden", ()) or ())
            order = {"unit": 0, "location": 1, "attachment": 2}
            ks = sorted(choice.placed, key=lambda k: (k in hidden, order.get(game.cdef[hand[k]].type, 3)))
            return [("hide" if k in hidden else "place", hand[k]) for k in ks]
        except Exception:  # pragma: no cover - a broken solver must not stop games
            return self._own_setup(game, p)

    @staticmethod
    def _add_hides(game: PlayerView, p: int, plan: list, budget: int) -> list:
        """Budget the opening board leaves unused hides Secret cards (§4: cost + Loyalty + 2 each): they leave the
        hand (which is drawn back up to 7) and wait in the secret area to be revealed (§10.9)."""
        cdef = game.cdef
        used, names = 0, set()
        taken = {a[1] for a in plan}
        for kind, i in plan:
            d = cdef[i]
            dup = kind == "place" and d.unique and d.name in names
            used += 0 if dup else d.cost + game.loyalty_surcharge(p, d) + (SECRET_PLACE_COST if kind == "hide" else 0)
            if kind == "place":
                names.add(d.name)
        left = budget - used
        cands = [i for i in game.my_hand if i not in taken and cdef[i].kw & KW_SECRET and not cdef[i].is_deed
                 and cdef[i].cost >= 0]
        cands.sort(key=lambda i: -card_value(game, i))
        out = list(plan)
        for i in cands:
            c = cdef[i].cost + game.loyalty_surcharge(p, cdef[i]) + SECRET_PLACE_COST
            if c <= left:
                out.append(("hide", i))
                left -= c
        return out

    # quest phase: by the situation (§5.1) --------------------------------------------------------
    def _quest(self, game: PlayerView, dec: Decision):
        p = dec.player
        cdef = game.cdef
        opp = 1 - p
        hand = game.my_hand
        hand_cost = sum(max(cdef[i].cost, 0) for i in hand if not cdef[i].is_deed)
        my_units = [i for i in game.field[p] if cdef[i].is_unit]
        their_units = [] if game.goldfish else [i for i in game.field[opp] if cdef[i].is_unit]
        my_pw = sum(max(cdef[i].power, 0) for i in my_units)     # printed Power: a rough balance is enough
        their_pw = sum(max(cdef[i].power, 0) for i in their_units)
        mine, theirs = game.influence(p), (0 if game.goldfish else game.influence(opp))
        # wealth matters while the hand holds more to play than a round's income; spoils when attacks land
        need_wealth = 1.0 if hand_cost >= 6 else (0.6 if hand_cost >= 3 else 0.25)
        ahead = my_pw - their_pw
        spoils_w = 0.9 if ahead > 0 else (0.55 if ahead > -3 else 0.3)
        if mine >= 10:
            spoils_w += 0.4      # close to 15: every struggle's worth counts
        levy_w = 0.3 if len(hand) >= 6 else 0.05
        best, best_score = None, None
        for o in dec.options:
            q = cdef[o[1]]
            score = need_wealth * q.wealth + spoils_w * q.spoils + 0.3 * q.momentum + levy_w * q.levy
            for ab in q.embark:
                cat = _embark_kind(ab)
                if cat == 0:
                    score += 1.2 if mine + 1 < 15 else 5.0
                elif cat == 1:
                    score += 0.7 if len(hand) < 7 else 0.3
                elif cat == 2:
                    score += 0.5
                elif cat == 3:
                    score += 0.5 if their_units else 0.0
                elif cat == 4:
                    score += 0.45 if my_units else 0.0
                elif cat == 5:
                    score += 0.6 if any(game.emb[i] for i in game.field[p]) else 0.0
                else:
                    score += 0.15
            if theirs >= 12 and q.momentum:
                score += 0.2 * q.momentum   # choosing who goes first matters near the end
            if best_score is None or score > best_score:
                best, best_score = o, score
        return best

    def _first_player(self, game: PlayerView, dec: Decision):
        """§5.1: the second player attacks into a board already exhausted by the first player's attacks, so go
        second, unless close enough to 15 to win on the first attacks of the round."""
        p = dec.player
        mine, theirs = game.influence(p), game.influence(1 - p)
        if mine >= 12 and mine >= theirs:
            return ("first", p)
        return ("first", 1 - p)

    # windows ---------------------------------------------------------------------------------------
    def wants_window(self, game: PlayerView, p: int, kind: int) -> bool:
        """greedy-v1's rule, except that a secret card opens a window only where it would be revealed: a deed it
        can pay for, or a unit as a surprise defender before S.6 (units are otherwise revealed in its own turns)."""
        if kind >= 0:
            return True
        s: Any = game.struggle
        sec = game.my_secret
        if sec:
            pool = game.pool[p]
            if pool:
                cdef = game.cdef
                for i in sec:
                    d = cdef[i]
                    if (d.secret or 0) <= pool and (d.is_deed or (s is not None and self._reveal_defender(game, p, s, i))):
                        return True
        return s is not None and bool(game.n_act) and (p == s.attacker or p == s.defender) \
            and self._losing(game, p, s)

    def _useful_in_struggle(self, game: PlayerView, p: int, iid: int, ab, is_deed: bool, s) -> bool:
        """A pump is worth using only on a participant of its own side; a harmful trick only on an enemy
        participant (§6.3: only participants count)."""
        mine = s.attackers if p == s.attacker else s.defenders
        theirs = s.defenders if p == s.attacker else s.attackers
        if ab.harmful:
            if ab.target is None:
                return False
            cands = game.target_candidates(ab.target, iid, ab, is_deed)
            return any(c in theirs for c in cands)
        if "join_struggle" in _effect_keys(ab):
            return True
        if ab.target is None:
            return iid in mine
        cands = game.target_candidates(ab.target, iid, ab, is_deed)
        return any(c in mine for c in cands)

    def _reveal_defender(self, game: PlayerView, p: int, s, iid: int) -> bool:
        """Reveal a Secret unit (§10.9) as a surprise defender: before S.6, with the struggle's icon and Power."""
        d = game.cdef[iid]
        return p == s.defender and self.def_declared is not s and bool(d.icons & (1 << s.type)) and d.power > 0

    def _window(self, game: PlayerView, dec: Decision):
        p = dec.player
        opts = dec.options
        cdef = game.cdef
        kind = dec.info
        s: Any = game.struggle
        best, best_key = None, None
        struggles = []
        losing = s is not None and self._losing(game, p, s)
        for o in opts:
            k = o[0]
            key: Any = None
            if k == "play" or k == "haste" or k == "reveal":
                i = o[1]
                d = cdef[i]
                if k == "reveal" and d.is_deed:
                    ab = d.play_ability
                    hint = ability_hint(ab)
                    if s is not None:
                        if not (losing and self._useful_in_struggle(game, p, i, ab, True, s)):
                            continue
                    elif not (self._hint_fits(hint, kind, s, losing, ab) or (hint == "tempo" and kind == 2)):
                        continue
                    key = (3, 0.0, 0.0)
                elif k == "reveal" and s is not None:
                    if not self._reveal_defender(game, p, s, i):
                        continue
                    key = (3, 0.0, 0.0)
                elif k == "reveal" and kind != 2 and kind != 3:
                    continue   # units stay secret until its own turns, or a struggle they can defend
                else:
                    cost = max(game.play_cost(p, i), 1) if k == "play" else max((d.haste if k == "haste" else
                                                                                 d.secret) or 0, 1)
                    key = (2, card_value(game, i) / cost, card_value(game, i))
            elif k == "secret":
                i = o[1]
                d = cdef[i]
                if d.cost < 0:   # "–": the secret area is its only way into play (§2.5, §10.9), so first
                    key = (2, 9.0, card_value(game, i))
                elif kind == 2 and self._authority_spare(game, p, SECRET_PLACE_COST):
                    key = (0, card_value(game, i), 0.0)
                else:
                    continue
            elif k == "ability" or k == "deed":
                ab = game.cdef[o[1]].play_ability if k == "deed" else \
                    next(a for a in cdef[o[1]].abilities if a.index == o[2])
                hint = ability_hint(ab)
                if ab.sacrifices:
                    continue
                if s is not None and (hint == "pump" or hint == "tempo"):
                    if not (losing and self._useful_in_struggle(game, p, o[1], ab, k == "deed", s)):
                        continue
                elif not self._hint_fits(hint, kind, s, losing, ab):
                    continue
                if ab.harmful and isinstance(ab.target, dict) and ab.target.get("controller") == "any" \
                        and not any(game.ctrl[j] != p for j in
                                    game.target_candidates(ab.target, o[1], ab, k == "deed")):
                    continue
                free = not any("pay" in c for c in ab.cost) and not (k == "deed" and cdef[o[1]].cost > 0)
                key = (3 if free else 1, 0.0, 0.0)
                if k == "deed" and not free and _fields_a_unit(ab):
                    key = (2, 2.0, 0.0)   # e.g. Wild Summoning: a unit into play (a "–" Beast included)
            elif k == "struggle":
                struggles.append(o[1])
                continue
            else:
                continue
            if best_key is None or key > best_key:
                best, best_key = o, key
        if best is not None:
            return best
        if struggles:
            t = self._plan_struggle(game, p, struggles)
            if t is not None:
                return ("struggle", t)
        return PASS

    @staticmethod
    def _authority_spare(game: PlayerView, p: int, n: int) -> bool:
        """Whether spending n more wealth leaves the Authority outcome as it is (§5.5 counts wealth in pool)."""
        if game.goldfish:
            return True
        mine, theirs = game.authority_total(p), game.authority_total(1 - p)
        return mine < theirs or mine - n > theirs

    def _target(self, game: PlayerView, dec: Decision):
        s: Any = game.struggle
        if s is not None:
            p = dec.player
            src, harmful = dec.info
            mine = s.attackers if p == s.attacker else s.defenders
            theirs = s.defenders if p == s.attacker else s.attackers
            want = theirs if harmful else mine
            cands = [o for o in dec.options if o != DONE and o[1] in want]
            if cands:
                return max(cands, key=lambda o: (game.power(o[1]), card_value(game, o[1])))
        return GreedyV1Policy._target(self, game, dec)

    # struggles ---------------------------------------------------------------------------------------
    def _plan_struggle(self, game: PlayerView, p: int, types: list[int]):
        """Attack when the win is worth more than what the attackers' exhaustion gives away: Authority (§5.5) and,
        as first player, the last ready defender of an icon the opponent can still attack with (S.10 unopposed).
        Against an empty defence: one unit, the one that costs least, then the weakest that wins.

        Speed (docs/performance.md): effective Power is read only for the units a decision looks at (the icons of
        the struggle types examined, and for the guard rule every ready unit), each at most once; the quest's
        spoils only when a struggle is worth weighing. The plan is the one the eager reading gave."""
        cdef = game.cdef
        opp = 1 - p
        gold = game.goldfish
        bonus = 1 if game.authority == p else 0
        ready = self._ready_units(game, p, "cannot_attack")
        pw: dict[int, int] = {}          # effective Power (floored at 0) of our ready units, read when needed
        mine = {t: [i for i in ready if cdef[i].icons & (1 << t)] for t in types}
        their: list[int] = [] if gold else self._ready_units(game, opp, "cannot_defend")
        tv: dict[int, int] = {}          # the same for the opponent's ready units that may defend
        threat: list[int] = []
        guards: list[tuple] = []
        if not gold and game.first == p and game.phase == CONFRONT_P:
            # the icons the opponent can still attack with (its ready units: the ones that could defend now) and
            # our ready units with Power that could defend them
            for t in range(4):
                bit = 1 << t
                for j in their:
                    if cdef[j].icons & bit:
                        v = tv.get(j)
                        if v is None:
                            v = tv[j] = max(game.power(j), 0)
                        if v > 0:
                            threat.append(t)
                            break
            if threat:
                for i in ready:
                    v = pw.get(i)
                    if v is None:
                        v = pw[i] = max(game.power(i), 0)
                    if v > 0:
                        guards.append((i, cdef[i].icons))

        # per threatened icon that some guard bears: those guards (an attack that sends all of them costs the guard)
        guarded: list[list[int]] = []
        for t in threat:
            bit = 1 << t
            ids = [i for i, ic in guards if ic & bit]
            if ids:
                guarded.append(ids)

        order = sorted(types, key=lambda t: (len(mine[t]), t))
        lead = None
        spoils = -1
        for t in order:
            atk = mine[t]
            if not atk:
                continue
            bit = 1 << t
            defence = 0
            if not gold:
                for j in their:
                    if cdef[j].icons & bit:
                        v = tv.get(j)
                        if v is None:
                            v = tv[j] = max(game.power(j), 0)
                        defence += v
            for i in atk:
                if i not in pw:
                    pw[i] = max(game.power(i), 0)
            if defence == 0:
                cands = [i for i in atk if pw[i] + bonus >= 1]
                if not cands:
                    continue
                i = min(cands, key=lambda i: (_guard_cost(guarded, [i]), pw[i], _ICON_COUNT[cdef[i].icons]))
                if spoils < 0:
                    spoils = game.quest_stat(p, "spoils")
                gain = 1 + self._spoils_worth(t, spoils, game, opp) - _guard_cost(guarded, [i])
                if gain < 0.5:
                    continue
                if gain < 1.5:
                    if lead is None:
                        lead = _AuthorityLead(game, p, pw, game.authority_total(opp, tv))
                    if not lead.worth(pw[i], gain):
                        continue
                self.attack_plan = [i]
                return t
            need = defence - bonus
            chosen, total = [], 0
            for i in _by_pw(atk, pw, True):
                if total >= need and total > 0:
                    break
                chosen.append(i)
                total += pw[i]
            if total >= need and total + bonus > 0:
                for i in _by_pw(chosen, pw, False):
                    if total - pw[i] >= need and total - pw[i] + bonus > 0 and len(chosen) > 1:
                        chosen.remove(i)
                        total -= pw[i]
                spare = _by_pw([u for u in atk if u not in chosen], pw, False)
                for i in _by_pw(chosen, pw, True):
                    for u in spare:
                        if pw[u] < pw[i] and total - pw[i] + pw[u] >= need and total - pw[i] + pw[u] + bonus > 0:
                            chosen[chosen.index(i)] = u
                            spare.remove(u)
                            spare.append(i)
                            spare.sort(key=lambda x: pw[x])
                            total += pw[u] - pw[i]
                            break
                # the defender may chump (deny S.10) rather than lose for nothing: count the spoils, not the +1
                if spoils < 0:
                    spoils = game.quest_stat(p, "spoils")
                gain = self._spoils_worth(t, spoils, game, opp) + 0.5 - _guard_cost(guarded, chosen)
                if gain < 0.3:
                    continue
                if gain < 1.5:
                    if lead is None:
                        lead = _AuthorityLead(game, p, pw, game.authority_total(opp, tv))
                    if not lead.worth(total, gain):
                        continue
                self.attack_plan = chosen
                return t
        return None

    def declare(self, game: PlayerView, kind: str, p: int, elig: list[int], t: int) -> list[int]:
        if kind == "defenders":
            self.def_declared = game.struggle
            # a fresh plan for every struggle (greedy-v1 kept a plan left over when its last unit filled `elig`)
            return [i for i in self._defence_plan(game, p, elig) if i in elig]
        return GreedyV1Policy.declare(self, game, kind, p, elig, t)

    def _defenders(self, game: PlayerView, dec: Decision):
        if self.def_declared is not game.struggle:
            self.defend_plan = None    # a fresh plan for each struggle
        self.def_declared = game.struggle
        return GreedyV1Policy._defenders(self, game, dec)

    @staticmethod
    def _defence_plan(game: PlayerView, p: int, elig: list[int]) -> list[int]:
        """§6.2 S.6: defend when what it saves is worth the exhaustion. Winning (the defender must exceed the
        attacker, S.8) denies the spoils (§6.1) and the unopposed Influence (S.10); any defender with Power
        denies the unopposed Influence. Exhausted defenders stop counting for Authority (§5.5) and cannot attack
        later in the round."""
        s: Any = game.struggle
        att, dfn = game.struggle_totals(s)
        opp = s.attacker
        cdef = game.cdef
        pw = {i: max(game.power(i), 0) for i in elig}
        n = max(game.quest_stat(opp, "spoils") + s.spoils_mod, 0)   # §6.1 N
        t = s.type
        mine_inf, their_inf = game.influence(p), game.influence(opp)
        # what the attacker's win costs us, in Influence (Combat's card values: only when a win is weighed)
        moved = min(n, mine_inf) if t == FAITH else 0
        unopp = 1.0 if dfn == 0 else 0.0
        lose_now = their_inf + moved + (1 if unopp else 0) >= 15     # §1.1: they would reach 15
        lose_anyway = their_inf + moved >= 15                         # even with the unopposed Influence denied
        # the exhaustion: Authority (§5.5), and our own attacks still to come this round (§5.4); the Authority
        # totals are read when the first plan is weighed
        auth: list[int] = []
        to_attack = game.phase == CONFRONT_P and game.first == opp

        def cost(units: list[int]) -> float:
            if not auth:
                auth.append(game.authority_total(p))
                auth.append(game.authority_total(opp))
            my_auth, their_auth = auth[0], auth[1]
            lost = sum(pw[i] for i in units)
            c = _claim(my_auth, their_auth) - _claim(my_auth - lost, their_auth)
            if to_attack:
                c += EXHAUST_TO_ATTACK * sum(1 for i in units if pw[i] > 0)
            return c

        best: list[int] = []
        best_v = 0.0
        # win: the fewest, then the weakest, units whose Power exceeds the attack
        if sum(pw.values()) + dfn > att:
            if t == FAITH:
                spoils = 2.0 * moved
            elif t == COMBAT:
                units = sorted(card_value(game, i) for i in game.field[p] if cdef[i].is_unit)
                spoils = 0.45 * sum(units[:n])
            elif t == GUILE:
                spoils = 0.5 * min(n, len(game.my_hand))
            else:
                spoils = 0.35 * min(n, len(game.field[p]))
            plan: list[int] = []
            run = dfn
            for i in _by_pw(elig, pw, True):
                if run > att:
                    break
                plan.append(i)
                run += pw[i]
            for i in _by_pw(plan, pw, False):
                if run - pw[i] > att:
                    plan.remove(i)
                    run -= pw[i]
            v = (100.0 if lose_now else 0.0) + spoils + unopp + 0.3 - cost(plan)
            if v > best_v:
                best, best_v = plan, v
        # deny the unopposed Influence with the weakest unit with Power
        weak = [i for i in elig if pw[i] > 0]
        if unopp and weak:
            i = min(weak, key=lambda i: (pw[i], card_value(game, i)))
            v = (100.0 if lose_now and not lose_anyway else 0.0) + unopp - cost([i])
            if t == COMBAT and n > 0:
                v += 0.1   # the exhausted chump is the unit the Combat spoils then kill
            if v > best_v:
                best, best_v = [i], v
        return best


def _expert(seed: int = 0, arg: str | None = None) -> Any:
    from .search import make_expert   # the search player (search.py, not compiled); imported when first asked for
    return make_expert(seed, arg)


POLICIES: dict[str, Any] = {"greedy": GreedyPolicy, "greedy-v1": GreedyV1Policy, "random": RandomPolicy,
                            "first": FirstPolicy, "expert": _expert}


def make_policy(spec, seed: int = 0):
    """'greedy' / 'random' / 'first' or any object with choose(game, decision)."""
    if isinstance(spec, str):
        name, _, arg = spec.partition(":")   # "expert:200": a policy with a setting (its budget)
        cls = POLICIES.get(name)
        if cls is None or (arg and name != "expert"):
            raise ValueError(f"unknown policy {spec!r}; known: {', '.join(sorted(POLICIES))}")
        if arg:
            return cls(seed, arg)
        return cls(seed) if cls is not FirstPolicy else cls()
    if not hasattr(spec, "choose"):
        raise ValueError("a policy needs a choose(game, decision) method")
    return spec
