"""The first greedy player ("greedy-v1"), frozen as the policy ladder's reference, and the base class of
`GreedyPolicy` (policies.py), which corrects its blind spots: quest by need, best opening board (`SetupSolver`, 8-wealth
budget), the best value per wealth, attacks it expects to win with the fewest units that win (one unit per empty
defence, spread across struggles), defends when it can win or when spoils would hurt. Also the card-value and
ability-reading helpers both greedy players use.
"""
from __future__ import annotations

from typing import Any, ClassVar

from .cards import (
    KW_COMPEL, KW_CUNNING, KW_GLORY, KW_MASTERY, KW_NO_ATTACH, KW_PROWESS, KW_RAVAGE, KW_RESTRICTED, KW_RUTHLESS,
    KW_SUBTLE, KW_WARY, CardDef,
)
from .game import DONE, NO, PASS, YES, FIELD, Decision, PlayerView
from .setup import SetupSolver   # the exact setup solver (§4), shared with the hands report

_GOOD_KW = KW_GLORY | KW_MASTERY | KW_CUNNING | KW_COMPEL | KW_RAVAGE | KW_PROWESS | KW_WARY | KW_RUTHLESS | KW_SUBTLE


_VALUES: dict = {}
_MISSING = object()


def card_value(game: PlayerView, iid: int) -> float:
    """A rough worth of a card, used to rank plays, targets and discards (cached per card definition)."""
    d = game.cdef[iid]
    v = _VALUES.get(d)
    if v is None:
        if d.is_unit:
            v = max(d.power, 0) + 0.5 * bin(d.icons).count("1")
            v += 0.5 * bin(d.kw & _GOOD_KW).count("1")
            if d.abilities:
                v += 1.0
        elif d.is_deed:
            v = 0.5 + 0.8 * max(d.cost, 0)
        else:
            v = 1.0 + 0.8 * max(d.cost, 0)
        if len(_VALUES) > 20000:
            _VALUES.clear()
        _VALUES[d] = v
    return v


def ability_hint(ab) -> str:
    """What an ability is for, roughly: 'economy' (cards, wealth, Influence), 'tempo' (hurts enemy cards),
    'pump' (Power, readying, joining a struggle) or 'other'."""
    if ab is None:
        return "other"
    h = ab.hint
    if h is None:
        keys = set()
        for e in ab.effects:
            keys.update(e)
            for sub in e.get("then", ()):
                keys.update(sub)
        if ab.harmful:
            h = "tempo"
        elif keys & {"modify_power", "ready", "join_struggle", "gain_keyword", "modify_spoils"}:
            h = "pump"
        elif keys & {"draw", "gain_wealth", "gain_influence", "search", "create_token", "put_into_play", "scout",
                     "mill", "discard_random", "place_influence", "move_influence", "remove_emblem"}:
            h = "economy"
        else:
            h = "other"
        ab.hint = h
    return h


def _hits_participants(ab) -> bool:
    """Whether a harmful ability is aimed at cards in the struggle (its target selector asks for them)."""
    t = ab.target if ab is not None else None
    return isinstance(t, dict) and bool(t.get("participating") or t.get("attacking") or t.get("defending"))



def _next_planned(plan: list[int], elig: list[int]) -> int | None:
    """Pop planned cards until one that is still eligible comes up (None when the plan runs out)."""
    while plan:
        i = plan.pop(0)
        if i in elig:
            return i
    return None

_ICON_COUNT = tuple(bin(m).count("1") for m in range(16))   # icons are a 4-bit mask (combat, guile, sorcery, faith)


def _fewest_icons(cdef: list[CardDef], cands: list[int], pw: dict[int, int]) -> int:
    """The first of `cands` with the fewest icons, then the least Power (what min() with that key gives)."""
    best, best_n, best_p = -1, 0, 0
    for i in cands:
        n = _ICON_COUNT[cdef[i].icons]
        v = pw[i]
        if best < 0 or n < best_n or (n == best_n and v < best_p):
            best, best_n, best_p = i, n, v
    return best


class _AuthorityLead:
    """`GreedyV1Policy._worth_authority(lead, committed, gain)` with lead = p's Authority total minus the
    opponent's (§5.5), the lead read only as far as the answer needs: p's units add Power (each floored at 0) to
    a lower bound that starts from its pool, its static bonuses, the Power already read into `pw`, and minus
    `theirs`; once the bound exceeds what the attack commits, the lead does too, and the rest is not read."""

    def __init__(self, game: PlayerView, p: int, pw: dict[int, int], theirs: int):
        self.game = game
        self.pw = pw
        self.bound = -theirs
        self.unread: list[int] = []
        if game.goldfish and p == 1:
            return   # CONTRACTS §3: the goldfish's Authority total is 0
        bound = game.pool[p] - theirs
        cdef, exh = game.cdef, game.exh
        for i in game.field[p]:
            if cdef[i].is_unit and not exh[i]:
                v = pw.get(i)
                if v is None:
                    self.unread.append(i)
                elif v > 0:
                    bound += v
        if game.has_abilities:
            bound += game.authority_bonus(p)
        self.bound = bound

    def worth(self, committed: int, gain: float) -> bool:
        bound = self.bound
        if bound <= committed and self.unread:
            game, pw = self.game, self.pw
            unread = self.unread
            while unread:
                i = unread.pop(0)
                v = max(game.power(i), 0)
                pw[i] = v   # what _plan_struggle would read for it later
                bound += v
                if bound > committed:
                    break
            self.bound = bound
        if bound > committed:
            return True   # the lead is at least the bound: Authority stays ours after these attackers exhaust
        # every unit read: the bound is the lead
        return GreedyV1Policy._worth_authority(bound, committed, gain)


class GreedyV1Policy:
    """The first greedy player ("greedy-v1"), frozen so the policy ladder can measure the players against a fixed
    reference; `GreedyPolicy` (policies.py) overrides the decisions it gets wrong."""

    name = "greedy-v1"

    def __init__(self, seed: int = 0):
        self._handlers: dict[str, Any] = {}
        self.setup_plan: list | None = None
        self.attack_plan: list[int] = []
        self.defend_plan: list[int] | None = None
        self._setup_memo: Any = None   # (the game's card list, hand, plan): the last opening board planned

    # dispatch ------------------------------------------------------------
    _dispatch: ClassVar[dict] = {}   # (class, decision kind) -> the handler function (no getattr per decision)

    def choose(self, game: PlayerView, dec: Decision):
        # the handler by decision kind, looked up once per player (a str key: no tuple built per decision)
        fn = self._handlers.get(dec.kind, _MISSING)
        if fn is _MISSING:
            key = (type(self), dec.kind)
            fn = GreedyV1Policy._dispatch.get(key, _MISSING)
            if fn is _MISSING:
                fn = GreedyV1Policy._dispatch[key] = getattr(type(self), "_" + dec.kind, None)
            self._handlers[dec.kind] = fn
        a = fn(self, game, dec) if fn is not None else None
        if a is None or a not in dec.options:
            a = self._fallback(dec)
        return a

    @staticmethod
    def _fallback(dec: Decision):
        for o in dec.options:
            if o != PASS and o != DONE:
                return o if dec.kind not in ("window", "react") else (PASS if PASS in dec.options else o)
        return dec.options[0]

    # setup ---------------------------------------------------------------
    def _mulligan(self, game: PlayerView, dec: Decision):
        p = dec.player
        plan = self._plan_setup(game, p)
        units = sum(1 for a in plan if a[0] == "place" and game.cdef[a[1]].is_unit)
        power = sum(game.cdef[a[1]].power for a in plan if a[0] == "place" and game.cdef[a[1]].is_unit)
        return YES if units < 2 and power < 3 else NO

    def _plan_setup(self, game: PlayerView, p: int) -> list:
        hand = game.my_hand
        deck: Any = game.my_deck
        try:
            solver = deck._setup_solver
            if solver is None:
                distinct = list(dict.fromkeys(deck.draw))
                deck._setup_index = {d: i for i, d in enumerate(distinct)}
                solver = SetupSolver([d.raw for d in distinct], deck.faction_slug)
                deck._setup_solver = solver
            idx = deck._setup_index
            # the mulligan and the setup that follows a kept hand ask for the same hand: one answer for both
            memo = self._setup_memo
            if memo is not None and memo[0] is game.cdef and memo[1] == hand:
                return list(memo[2])
            placed, hidden = solver.plan([idx[game.cdef[i]] for i in hand])
            order = {"unit": 0, "location": 1, "attachment": 2}
            ks = sorted(placed, key=lambda k: (k in hidden, order.get(game.cdef[hand[k]].type, 3)))
            plan = [("hide" if k in hidden else "place", hand[k]) for k in ks]
            self._setup_memo = (game.cdef, list(hand), plan)
            return list(plan)
        except Exception:  # pragma: no cover - a broken solver must not stop games
            pass
        return self._own_setup(game, p)

    def _own_setup(self, game: PlayerView, p: int) -> list:
        """Fallback: units by Power per cost, then attachments, inside the 8 budget, one Restricted card."""
        cdef = game.cdef
        budget = 8
        plan, names, restricted, has_unit = [], set(), 0, False
        cands = [i for i in game.my_hand if not cdef[i].is_deed and cdef[i].cost >= 0]
        cands.sort(key=lambda i: (-(cdef[i].is_unit), -(card_value(game, i) / max(cdef[i].cost, 1)),
                                  -card_value(game, i)))
        for i in cands:
            d = cdef[i]
            dup = d.unique and d.name in names
            cost = 0 if dup else d.cost + game.loyalty_surcharge(p, d)
            if d.is_attachment and (not has_unit or dup):
                continue
            if d.kw & KW_RESTRICTED and not dup:
                if restricted:
                    continue
            if cost > budget:
                continue
            if dup and not d.is_unit:
                continue
            budget -= cost
            plan.append(("place", i))
            if d.kw & KW_RESTRICTED and not dup:
                restricted += 1
            names.add(d.name)
            if d.is_unit and not dup and not (d.kw & KW_NO_ATTACH):
                has_unit = True
        return plan

    def _setup(self, game: PlayerView, dec: Decision):
        if dec.info["used"] == 0 and self.setup_plan is None:
            self.setup_plan = self._plan_setup(game, dec.player)
        plan = self.setup_plan or []
        while plan:
            a = plan.pop(0)
            if a in dec.options:
                return a
        self.setup_plan = None
        return DONE

    def _setup_host(self, game: PlayerView, dec: Decision):
        return max(dec.options, key=lambda o: game.power(o[1]))

    # quest phase ---------------------------------------------------------
    def _quest(self, game: PlayerView, dec: Decision):
        p = dec.player
        cdef = game.cdef
        hand_cost = sum(max(cdef[i].cost, 0) for i in game.my_hand if not cdef[i].is_deed)
        opp = 1 - p
        opp_ready = 0 if game.goldfish else sum(1 for i in game.field[opp] if cdef[i].is_unit)
        my_units = sum(1 for i in game.field[p] if cdef[i].is_unit)
        need_wealth = 1.0 if hand_cost >= 6 else 0.4
        spoils_w = 0.9 if my_units > opp_ready else 0.4
        best, best_score = None, None
        for o in dec.options:
            q = cdef[o[1]]
            score = need_wealth * q.wealth + spoils_w * q.spoils + 0.3 * q.momentum + 0.15 * q.levy
            if best_score is None or score > best_score:
                best, best_score = o, score
        return best

    def _first_player(self, game: PlayerView, dec: Decision):
        return ("first", dec.player)

    # windows -------------------------------------------------------------
    def wants_window(self, game: PlayerView, p: int, kind: int) -> bool:
        """Asked before an action window's options are built: the greedy player acts in its own Kingdom and
        Confrontation turns, in struggles it takes part in while its side is losing, and when it can reveal a
        secret card."""
        if kind >= 0:
            return True
        if game.my_secret and game.pool[p]:
            return True
        s = game.struggle
        # inside a struggle it only ever pumps or strikes while its side is losing
        return s is not None and bool(game.n_act) and (p == s.attacker or p == s.defender) \
            and self._losing(game, p, s)

    def ability_filter(self, game: PlayerView, ab, kind: int) -> bool:
        """Asked before an Action ability or deed is checked for a window: only those it might use there.
        It never pays a sacrifice cost (a unit is worth more than what such abilities give)."""
        if ab.sacrifices:
            return False
        hint = ability_hint(ab)
        s = game.struggle
        if hint == "economy":
            return kind == 2 or (kind < 0 and s is None)
        if hint == "tempo":
            return kind == 3 or (s is not None and _hits_participants(ab))
        if hint == "pump":
            return s is not None
        return kind == 2

    def _window(self, game: PlayerView, dec: Decision):
        p = dec.player
        opts = dec.options
        cdef = game.cdef
        kind = dec.info
        s = game.struggle
        best, best_key = None, None
        struggles = []
        losing = s is not None and self._losing(game, p, s)
        for o in opts:
            k = o[0]
            if k == "play" or k == "haste" or k == "reveal":
                i = o[1]
                d = cdef[i]
                if k == "reveal" and d.is_deed:
                    hint = ability_hint(d.play_ability)
                    if not self._hint_fits(hint, kind, s, losing, d.play_ability):
                        continue
                    key = (3, 0.0, 0.0)
                else:
                    if s is not None and k == "reveal" and not d.is_unit:
                        continue
                    cost = max(game.play_cost(p, i), 1) if k == "play" else max((d.haste if k == "haste" else
                                                                                 d.secret) or 0, 1)
                    cv = card_value(game, i)
                    key = (2, cv / cost, cv)
            elif k == "ability" or k == "deed":
                ab = game.cdef[o[1]].play_ability if k == "deed" else \
                    next(a for a in cdef[o[1]].abilities if a.index == o[2])
                hint = ability_hint(ab)
                if ab.sacrifices or not self._hint_fits(hint, kind, s, losing, ab):
                    continue
                if ab.harmful and isinstance(ab.target, dict) and ab.target.get("controller") == "any" \
                        and not any(game.ctrl[j] != p for j in
                                    game.target_candidates(ab.target, o[1], ab, k == "deed")):
                    continue   # e.g. Siege Engineer's "Discard a location": never aimed at its own cards
                free = not any("pay" in c for c in ab.cost) and not (k == "deed" and cdef[o[1]].cost > 0)
                key = (3 if free else 1, 0.0, 0.0)
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
    def _hint_fits(hint: str, kind: int, s, losing: bool, ab=None) -> bool:
        if hint == "economy":
            return kind == 2 or (kind < 0 and s is None)
        if hint == "tempo":
            # in its Confrontation turn (before attacking); inside a struggle only against participants
            return (kind == 3 and s is None) or (s is not None and losing and _hits_participants(ab))
        if hint == "pump":
            return s is not None and losing
        return kind == 2

    @staticmethod
    def _losing(game: PlayerView, p: int, s) -> bool:
        att, dfn = game.struggle_totals(s)
        if p == s.attacker:
            return not (att >= dfn and att > 0)
        return not dfn > att

    def _plan_struggle(self, game: PlayerView, p: int, types: list[int]):
        """Attack when it expects to win: the fewest units that reach the possible defence (ties go to the
        attacker, §6.2 S.8), one unit against an empty defence, scarce icons first so attackers spread."""
        cdef = game.cdef
        opp = 1 - p
        bonus = 1 if game.authority == p else 0
        ready = self._ready_units(game, p, "cannot_attack")
        # each unit's Power read when a struggle it could attack in is weighed (most plans stop at the first)
        pw: dict[int, int] = {}
        mine = {t: [i for i in ready if cdef[i].icons & (1 << t)] for t in types}
        if not game.goldfish:
            their = self._ready_units(game, opp, "cannot_defend")
            their_pw = [(cdef[j].icons, max(game.power(j), 0)) for j in their]
        # by how few units could attack there, then the icon (int keys: no key function, no tuples)
        order = [k & 7 for k in sorted([len(mine[t]) * 8 + t for t in types])]
        # §5.5: attackers exhaust and stop counting for Authority; do not give up a won Authority claim
        # (1 Influence and the emblem) for a struggle worth less
        lead = None
        spoils = game.quest_stat(p, "spoils")
        for t in order:
            atk = mine[t]
            if not atk:
                continue
            for i in atk:
                if i not in pw:
                    pw[i] = max(game.power(i), 0)
            if game.goldfish:
                defence = 0
            else:
                bit = 1 << t
                defence = sum(v for icons, v in their_pw if icons & bit)
            if defence == 0:
                # one unit with Power >= 1 wins unopposed (0-0 has no winner); prefer the one with fewest icons
                cands = [i for i in atk if pw[i] + bonus >= 1]
                if not cands:
                    continue
                i = _fewest_icons(cdef, cands, pw)
                gain = 1 + self._spoils_worth(t, spoils, game, opp)
                if gain < 1.5:
                    if lead is None:
                        lead = _AuthorityLead(game, p, pw, game.authority_total(opp))
                    if not lead.worth(pw[i], gain):
                        continue
                self.attack_plan = [i]
                return t
            need = defence - bonus
            chosen, total = [], 0
            for i in sorted(atk, key=lambda i: -pw[i]):
                if total >= need and total > 0:
                    break
                chosen.append(i)
                total += pw[i]
            if total >= need and total + bonus > 0:
                # drop units that are not needed, weakest first
                for i in sorted(chosen, key=lambda i: pw[i]):
                    if total - pw[i] >= need and total - pw[i] + bonus > 0 and len(chosen) > 1:
                        chosen.remove(i)
                        total -= pw[i]
                # as few units as that, but the weakest that still reach the defence (keep Power for Authority)
                spare = sorted((u for u in atk if u not in chosen), key=lambda u: pw[u])
                for i in sorted(chosen, key=lambda i: -pw[i]):
                    for u in spare:
                        if pw[u] < pw[i] and total - pw[i] + pw[u] >= need and total - pw[i] + pw[u] + bonus > 0:
                            chosen[chosen.index(i)] = u
                            spare.remove(u)
                            spare.append(i)
                            spare.sort(key=lambda x: pw[x])
                            total += pw[u] - pw[i]
                            break
                gain = self._spoils_worth(t, spoils, game, opp)
                if gain < 1.5:
                    if lead is None:
                        lead = _AuthorityLead(game, p, pw, game.authority_total(opp))
                    if not lead.worth(total, gain):
                        continue
                self.attack_plan = chosen
                return t
        return None

    @staticmethod
    def _spoils_worth(t: int, spoils: int, game: PlayerView, opp: int) -> float:
        """Rough Influence-equivalent of winning a struggle's spoils (§6.1)."""
        if t == 3:   # Faith moves real Influence
            return float(min(spoils, game.infl[opp])) * 2 if not game.goldfish else 0.0
        return 0.0 if game.goldfish else 0.6 * spoils

    @staticmethod
    def _worth_authority(lead: int, committed: int, gain: float) -> bool:
        if lead <= 0 or lead - committed > 0:
            return True       # Authority is not ours anyway, or stays ours after these attackers exhaust
        return gain >= 1.5    # the claim is worth 1 Influence and the emblem's +1 on our attacks

    @staticmethod
    def _ready_units(game: PlayerView, p: int, rule: str) -> list[int]:
        """Ready units of p with at least one icon that no "cannot attack/defend" rule stops (§6.5)."""
        cdef, exh = game.cdef, game.exh
        out = [i for i in game.field[p] if cdef[i].is_unit and cdef[i].icons and not exh[i]]
        if out and game.has_abilities:
            if game.rule_active(rule):
                out = [i for i in out if not game.has_rule(i, rule)]
        return out

    def _attackers(self, game: PlayerView, dec: Decision):
        while self.attack_plan:
            i = self.attack_plan.pop(0)
            a = ("attacker", i)
            if a in dec.options:
                return a
        return DONE if DONE in dec.options else dec.options[0]

    def declare(self, game: PlayerView, kind: str, p: int, elig: list[int], t: int) -> list[int]:
        """play_game's declare_hook: the whole S.3 / S.6 declaration at once, exactly the cards that `_attackers`
        / `_defenders` would pick one decision at a time (no Decision per unit)."""
        chosen: list[int] = []
        if kind == "attackers":
            plan = self.attack_plan
            while elig:
                a = _next_planned(plan, elig)
                if a is None:
                    if chosen:
                        break          # DONE
                    a = elig[0]        # S.1: at least one attacker
                chosen.append(a)
                elig.remove(a)
            return chosen
        if self.defend_plan is None:
            self.defend_plan = self._defence_plan(game, p, elig)
        plan = self.defend_plan
        while elig:
            a = _next_planned(plan, elig)
            if a is None:
                self.defend_plan = None   # DONE
                break
            chosen.append(a)
            elig.remove(a)
        return chosen

    def _subtle(self, game: PlayerView, dec: Decision):
        bars = [o for o in dec.options if o != NO]
        return max(bars, key=lambda o: game.power(o[1])) if bars else NO

    def _defenders(self, game: PlayerView, dec: Decision):
        p = dec.player
        if self.defend_plan is None:
            self.defend_plan = self._defence_plan(game, p, [o[1] for o in dec.options if o != DONE])
        while self.defend_plan:
            i = self.defend_plan.pop(0)
            if ("defender", i) in dec.options:
                return ("defender", i)
        self.defend_plan = None
        return DONE

    @staticmethod
    def _defence_plan(game: PlayerView, p: int, elig: list[int]) -> list[int]:
        """Defend with the fewest units that win (the defender must exceed the attacker), or chump-defend with
        the weakest unit to deny the unopposed Influence when the attacker is close to 15."""
        s: Any = game.struggle
        att, _ = game.struggle_totals(s)
        pw = {i: max(game.power(i), 0) for i in elig}
        total = sum(pw.values())
        plan: list[int] = []
        if total > att:   # the defender must exceed the attacker (ties go to the attacker)
            run = 0
            for i in sorted(elig, key=lambda i: -pw[i]):
                if run > att:
                    break
                plan.append(i)
                run += pw[i]
            for i in sorted(plan, key=lambda i: pw[i]):
                if run - pw[i] > att:
                    plan.remove(i)
                    run -= pw[i]
        elif game.influence(1 - p) >= 12 and att > 0:
            # spoils will land anyway; deny the unopposed Influence with the weakest unit with Power
            weak = [i for i in elig if pw[i] > 0]
            if weak:
                plan = [min(weak, key=lambda i: pw[i])]
        return plan

    # struggle results ----------------------------------------------------
    def _kill_own(self, game: PlayerView, dec: Decision):
        return min(dec.options, key=lambda o: card_value(game, o[1]))

    def _emblem(self, game: PlayerView, dec: Decision):
        return max(dec.options, key=lambda o: (not game.emb[o[1]], card_value(game, o[1])))

    def _onwin(self, game: PlayerView, dec: Decision):
        kw, i = dec.info
        if kw == "Mastery" and game.deck_count(dec.player) <= 2:
            return NO   # drawing the last cards brings elimination closer (§12)
        return YES

    def _compel(self, game: PlayerView, dec: Decision):
        cands = [o for o in dec.options if o != NO]
        return max(cands, key=lambda o: game.power(o[1])) if cands else NO

    def _refresh_emblem(self, game: PlayerView, dec: Decision):
        return max(dec.options, key=lambda o: card_value(game, o[1]))

    def _toll_discard(self, game: PlayerView, dec: Decision):
        return min(dec.options, key=lambda o: card_value(game, o[1]))

    def _discard_choice(self, game: PlayerView, dec: Decision):
        return min(dec.options, key=lambda o: card_value(game, o[1]))

    def _dup_save(self, game: PlayerView, dec: Decision):
        return YES

    def _scout(self, game: PlayerView, dec: Decision):
        d = game.cdef[dec.info]
        return ("top", dec.info) if d.is_unit and 0 <= d.cost <= 4 else ("bottom", dec.info)

    def _host(self, game: PlayerView, dec: Decision):
        p = dec.player
        own = [o for o in dec.options if game.ctrl[o[1]] == p]
        pool = own or dec.options
        return max(pool, key=lambda o: game.power(o[1]))

    def _x(self, game: PlayerView, dec: Decision):
        return dec.options[-1]

    def _cost(self, game: PlayerView, dec: Decision):
        return min(dec.options, key=lambda o: card_value(game, o[1]))

    def _target(self, game: PlayerView, dec: Decision):
        p = dec.player
        _src, harmful = dec.info
        cands = [o for o in dec.options if o != DONE]
        if harmful:
            theirs = [o for o in cands if game.ctrl[o[1]] != p or game.zone_of(o[1]) != FIELD]
            if theirs:
                return max(theirs, key=lambda o: card_value(game, o[1]))
            return DONE if DONE in dec.options else min(cands, key=lambda o: card_value(game, o[1]))
        mine = [o for o in cands if game.ctrl[o[1]] == p]
        return max(mine or cands, key=lambda o: card_value(game, o[1]))

    def _search(self, game: PlayerView, dec: Decision):
        cands = [o for o in dec.options if o != DONE]
        return max(cands, key=lambda o: card_value(game, o[1])) if cands else DONE

    def _react(self, game: PlayerView, dec: Decision):
        """Saves and Responses are taken at once; a Disrupt pump only when its side is losing the struggle."""
        timing = dec.info[0] if isinstance(dec.info, tuple) else None
        s = game.struggle
        for o in dec.options:
            if o == PASS:
                continue
            if timing == "disrupt" and s is not None:
                ab = game.cdef[o[1]].play_ability if o[0] == "deed" else \
                    next(a for a in game.cdef[o[1]].abilities if a.index == o[2])
                if ability_hint(ab) == "pump" and not self._losing(game, dec.player, s):
                    continue
            return o
        return PASS
