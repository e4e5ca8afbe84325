"""Action windows (§8.2) and struggles (§6: S.1–S.14 of §6.2, spoils §6.1, totals §6.3, §9.1 Subtle, §9.2
on-win keywords). A window's actions include initiating a struggle, and a struggle opens windows (S.4–S.5, S.7),
so the two stay together.
"""
from __future__ import annotations

from typing import Any

from .cards import (
    KW_COMPEL, KW_CUNNING, KW_GLORY, KW_HASTE, KW_MASTERY, KW_PROWESS, KW_RAVAGE, KW_RUTHLESS, KW_SECRET,
    KW_SUBTLE, KW_WARY, STRUGGLE_TYPES,
)
from .resolution import Resolution
from .state import (
    COMBAT, CONFRONT_P, CONTINUE, DISCARD, DONE, FIELD, GUILE, KINGDOM_P, NO, PASS, SECRET, SECRET_PLACE_COST,
    SORCERY, YES, Decision, IllegalAction, Struggle,
)
from .view import PlayerView


class Struggles(Resolution):

    # action windows (§8.2)

    def _boundary(self, what: str, ph: int, p: int = -1):
        """Where a position can be taken (with `stops` on): the start of a phase, of a Kingdom or Confrontation
        turn, the end of a struggle."""
        if self.stops:
            self.phase = ph
            if what != "struggle" or p != self.first:
                # after a struggle the window goes on with the other player's priority, and a loaded position's
                # window starts with the first player's: the same only when the active player is second
                self.pos_at = len(self.history)
            yield Decision("boundary", -1, [CONTINUE], (what, ph, p))

    def _window_needed(self) -> dict | None:
        """Whether an ordinary action window (no active player) could see anyone act. Nobody can when no card
        offers an action and no secret card can be revealed; and under play_game, when each player's policy says
        up front (`wants_window`, which has no side effects) that it would pass — the window would close after
        two passes with nothing changed, so it is not opened at all. Returns None for "no window", else the Power
        memo to open it with."""
        n_act = self.n_act
        if not n_act[0] and not n_act[1] and not (self.secret[0] and self.pool[0]) \
                and not (self.secret[1] and self.pool[1]):
            return None
        fast = self.fast_pass
        memo: dict = {}
        for p in (0, 1):
            if p == 1 and self.goldfish:
                continue
            f = fast[p]
            r = self._replayed_entry(0, p) if self._replay is not None else None
            if r is not None:
                if r:
                    return memo
                continue
            if f is None:
                return memo
            self._pcache = memo
            v: PlayerView | None = self._views[p]   # typed: look() is a direct call in the compiled build
            if v is None:
                v = self.view(p)
            else:
                v.look()
            try:
                wants = bool(f(v, p, -1))
            finally:
                self._pcache = None
            self.history.append(2 * p + (1 if wants else 0))
            if wants:
                return memo   # what was worked out stays valid for the window (nothing changed yet)
        return None

    def _action_window(self, active: int = -1, kind: int = -1, memo: dict | None = None, p: int = -1,
                       cont: int = -1):
        """§8.2: priority from the first player (or from `p`), alternating; closes when both pass in a row.
        `memo`: effective Power already worked out for this state (by `_window_needed`). `cont` >= 0: the window
        of a turn (phases.py): once an action has resolved, the rest of the window (priority to the other
        player, no pass yet) is a step of the flow of its own, (cont, active, that player), pushed on the
        pipeline, so that a copy made later replays only the choices since that action."""
        if p < 0:
            p = self.first
        passes = 0
        fast = self.fast_pass
        goldfish = self.goldfish
        if memo is None:
            memo = {}   # effective Power, valid until someone acts: passing changes nothing
        while passes < 2:
            if goldfish and p == 1:
                passes += 1    # CONTRACTS §3: the goldfish never acts (it has no options in any window)
                p = 0
                continue
            f = fast[p]
            self._pcache = memo
            r = self._replayed_entry(0, p) if self._replay is not None else None
            if r is not None or f is not None:
                if r is not None:
                    wants = bool(r)
                else:
                    v: PlayerView | None = self._views[p]   # as in _window_needed
                    if v is None:
                        v = self.view(p)
                    else:
                        v.look()
                    wants = bool(f(v, p, kind if p == active else -1))
                    self.history.append(2 * p + (1 if wants else 0))
                if not wants:
                    self._pcache = None
                    passes += 1    # the policy said up front that it passes here: no options materialised
                    p = 1 - p
                    continue
            if self._replay is not None and self._replayed_entry(1, p) is not None:
                opts = []
            else:
                opts = self._window_options(p, kind if p == active else -1)
                if not opts and self.ability_filter[p] is not None:
                    self.history.append(4 + p)   # the filter may have emptied them: replays must pass here too
            self._pcache = None
            if not opts:
                passes += 1
                p = 1 - p
                continue
            a = yield Decision("window", p, opts, kind)
            if a == PASS:
                passes += 1
            else:
                passes = 0
                yield from self._window_action(p, a)
                if cont >= 0:
                    steps = self.steps
                    assert steps is not None
                    steps.append((cont, active, 1 - p))
                    return
                if active >= 0 and p != self.first:
                    # a turn's window after the second player acted: as a loaded position opens it (a fresh
                    # window, the first player's priority, no pass yet)
                    self.pos_at = len(self.history)
                memo = {}
            p = 1 - p

    def _window_options(self, p: int, kind: int) -> list:
        if self.goldfish and p == 1:
            return []
        if self._pcache is not None:
            return self._window_options_uncached(p, kind)
        self._pcache = {}
        try:
            return self._window_options_uncached(p, kind)
        finally:
            self._pcache = None

    def _window_options_uncached(self, p: int, kind: int) -> list:
        opts: list[tuple] = []
        pool = self.pool[p]
        cdef = self.cdef
        if kind == KINGDOM_P:
            if self._statics_cache is None:
                self._statics()
            cost_mods = self._st_cost
            for iid in self.hand[p]:
                d = cdef[iid]
                if d.is_deed:
                    # §10.9: a Secret deed is secret-placed like any Secret card (and played when revealed);
                    # deeds are played from hand in their own timing windows, not as a Kingdom play
                    if d.kw & KW_SECRET and pool >= SECRET_PLACE_COST:
                        opts.append(("secret", iid))
                    continue
                c = d.cost
                if c >= 0:
                    if cost_mods:
                        c = self.play_cost(p, iid)
                    elif d.loyalty:
                        c += self.loyalty_surcharge(p, d)
                    if (c <= pool or (d.unique and self.is_duplicate_entry(p, iid) >= 0)) \
                            and (d.enters_freely or self.can_enter(p, iid)) \
                            and (d.max_per_round is None or self._max_ok(p, d)):
                        opts.append(("play", iid))
                if d.kw & KW_SECRET and pool >= SECRET_PLACE_COST:
                    opts.append(("secret", iid))
        elif kind == CONFRONT_P:
            granted = self._granted_anywhere(KW_HASTE) if self.has_abilities else False
            for iid in self.hand[p]:
                d = cdef[iid]
                if not (d.kw & KW_HASTE or granted):
                    continue
                hx = self._kw_x(iid, KW_HASTE, granted)
                if hx >= 0 and not d.is_deed and self.can_enter(p, iid) and self._max_ok(p, d) \
                        and (hx + self.loyalty_surcharge(p, d) <= pool or self.is_duplicate_entry(p, iid) >= 0):
                    opts.append(("haste", iid))   # §3.7: a duplicate costs 0, whatever Haste (X) says
            done = self.struggles_done[p]
            icons = self.attack_icons(p)
            for t in range(4):
                if icons & (1 << t) and t not in done:
                    opts.append(("struggle", t))
        secret_granted = False
        if self.secret[p] and self.has_abilities:
            secret_granted = self._granted_anywhere(KW_SECRET)
        for iid in self.secret[p]:
            d = cdef[iid]
            sx = self._kw_x(iid, KW_SECRET, secret_granted)
            if sx >= 0 and sx + self.loyalty_surcharge(p, d) <= pool:
                if d.is_deed:
                    ab = d.play_ability
                    if ab is not None and ab.timing == "action" and self._usable(p, iid, ab, None, deed=True,
                                                                                 extra_cost=-1):
                        opts.append(("reveal", iid))
                elif self.can_enter(p, iid):
                    opts.append(("reveal", iid))
        if self.n_act[p]:
            # play_game: a policy may name up front the abilities it would ever use in this window, so the
            # others are never checked (it chooses among legal actions either way)
            flt = self.ability_filter[p]
            view = self.view(p) if flt is not None else None
            for iid in (self.faction_iid[p], self.destiny_iid[p], *self.field[p]):
                if iid < 0:
                    continue
                d = cdef[iid]
                if d.actions and not self.emb[iid]:
                    for ab in d.actions:
                        if (flt is None or flt(view, ab, kind)) and self._usable(p, iid, ab, None):
                            opts.append(("ability", iid, ab.index))
            for iid in self.hand[p]:
                d = cdef[iid]
                ab = d.play_ability
                if d.is_deed and ab is not None and ab.timing == "action" and d.cost <= pool \
                        and (flt is None or flt(view, ab, kind)) and self._usable(p, iid, ab, None, deed=True):
                    opts.append(("deed", iid))
        if opts:
            opts.append(PASS)
        return opts

    def _window_action(self, p: int, a: tuple):
        kind = a[0]
        if kind == "play":
            yield from self._play_from_hand(p, a[1], "play")
        elif kind == "haste":
            yield from self._play_from_hand(p, a[1], "haste")
        elif kind == "secret":
            iid = a[1]
            self._spend(p, SECRET_PLACE_COST)
            self._move(iid, SECRET, p)
            if self.logs is not None:
                self._log(f"§10.9 player {p} secret-places a card for 2")
        elif kind == "reveal":
            yield from self._reveal(p, a[1])
        elif kind == "struggle":
            yield from self._struggle(p, a[1])
        elif kind == "ability":
            iid, idx = a[1], a[2]
            ab = next(x for x in self.cdef[iid].abilities if x.index == idx)
            yield from self._use_ability(p, iid, ab, None)
        elif kind == "deed":
            yield from self._play_deed(p, a[1], None)

    # struggles (§6)

    def _can_declare(self, iid: int, t: int, attack: bool) -> bool:
        """§6.5: a declared unit must be ready and bear the icon (and no "cannot attack/defend" applies)."""
        d = self.cdef[iid]
        if not d.is_unit or self.exh[iid] or not (d.icons & (1 << t)):
            return False
        if self.has_abilities:
            if self._statics_cache is None:
                self._statics()
            if self._st_rule_by and self.has_rule(iid, "cannot_attack" if attack else "cannot_defend"):
                return False
        return True

    def attack_icons(self, p: int) -> int:
        """Bitmask of the struggle types p could declare attackers for now (one pass over the field)."""
        mask = 0
        cdef, exh = self.cdef, self.exh
        rules = False
        if self.has_abilities:
            if self._statics_cache is None:
                self._statics()
            rules = "cannot_attack" in self._st_rule_by
        for i in self.field[p]:
            d = cdef[i]
            if d.is_unit and d.icons and not exh[i] and (d.icons | mask) != mask:
                if rules and self.has_rule(i, "cannot_attack"):
                    continue
                mask |= d.icons
        return mask

    def _eligible_attackers(self, p: int, t: int) -> list[int]:
        """§6.5: p's units that may be declared as attackers in a struggle of type t."""
        return [iid for iid in self.field[p] if self._can_declare(iid, t, True)]

    def _struggle(self, p: int, t: int):
        """§6.2 S.1–S.14."""
        s = Struggle(t, p)
        self.struggle = s
        self.struggles_done[p].add(t)
        opp = s.defender
        ci = (p * 4 + t) * 5   # self._sc: initiated, won, unopposed, defended, won_defending
        sc = self._sc
        sc[ci] += 1
        exh = self.exh
        # S.1–S.3 declare at least one ready attacker bearing the icon; each exhausts; Subtle.
        yield from self._declare("attackers", p, self._eligible_attackers(p, t), t, s.attackers)
        for i in s.attackers:
            exh[i] = 1
        s.declared_attackers = s.attackers[:]
        if self.logs is not None:
            self._log(f"§6.2 S.3 player {p} declares a {STRUGGLE_TYPES[t].title()} struggle with "
                      + ", ".join(self.name(i) for i in s.attackers))
        for i in s.attackers:
            if self.kw(i) & KW_SUBTLE:
                cands = [j for j in self.field[opp] if j not in s.barred and self._can_declare(j, t, False)
                         and not (self.kw(j) & KW_SUBTLE)]
                if cands:
                    a = yield Decision("subtle", p, [("bar", j) for j in cands] + [NO], i)
                    if a != NO:
                        s.barred.add(a[1])
                        if self.logs is not None:
                            self._log(f"§9.1 Subtle: {self.name(i)} bars {self.name(a[1])} from defending")
        if self.live_ev.get("struggle_declared"):
            yield from self._event("struggle_declared", {"type": t, "attacker": p})
        # S.4–S.5
        m = self._window_needed()
        if m is not None:
            yield from self._action_window(memo=m)
        # S.6 defenders: ready, bearing the icon, not barred by Subtle.
        if not (self.goldfish and opp == 1):
            elig = [j for j in self.field[opp] if j not in s.barred and self._can_declare(j, t, False)]
            yield from self._declare("defenders", opp, elig, t, s.defenders)
            for j in s.defenders:
                exh[j] = 1
            s.declared_defenders = s.defenders[:]
            if s.defenders:
                sc[ci + 3] += 1   # S.6: the defending player declared at least one defender
            if self.logs is not None and s.defenders:
                self._log(f"§6.2 S.6 player {opp} defends with " + ", ".join(self.name(j) for j in s.defenders))
        if self.live_ev.get("defenders_declared"):
            yield from self._event("defenders_declared", {"type": t, "attacker": p})
        # S.7
        m = self._window_needed()
        if m is not None:
            yield from self._action_window(memo=m)
        # S.8 determine the winner
        if self.live_ev.get("struggle_resolving"):
            yield from self._event("struggle_resolving", {"type": t, "attacker": p})
        att, dfn = self.struggle_totals(s)
        s.att_total, s.def_total = att, dfn
        if att == 0 and dfn == 0:
            s.winner = None   # S.8: 0–0 has no winner (no spoils, no unopposed)
        elif att >= dfn:
            s.winner = p      # S.8: the attacker wins ties that are not 0–0
        else:
            s.winner = opp
        s.margin = abs(att - dfn)    # §6.4, fixed here
        s.unopposed = s.winner == p and dfn == 0
        if s.winner == p:
            sc[ci + 1] += 1
            if s.unopposed:
                sc[ci + 2] += 1
        elif s.winner == opp:
            sc[(opp * 4 + t) * 5 + 4] += 1
        if self.logs is not None:
            who = "no winner" if s.winner is None else ("attacker wins" if s.winner == p else "defender wins")
            self._log(f"Confrontation S.8 {STRUGGLE_TYPES[t].title()}: {att} vs {dfn}, {who}, margin {s.margin}")
        if s.winner is not None:
            self.stat_won[s.winner] += 1
            # S.9 responses
            if self.live_ev.get("struggle_won") or self.live_ev.get("struggle_lost"):
                info = {"type": t, "attacker": p, "winner": s.winner, "unopposed": s.unopposed}
                yield from self._event("struggle_won", info)
                yield from self._event("struggle_lost", info)
        if s.winner == p:
            # S.10 unopposed: the defending total is 0
            if s.unopposed:
                yield from self._gain_influence(p, 1, "§6.2 S.10 unopposed")
            # S.11 spoils
            yield from self._spoils(s)
        if s.winner is not None:
            yield from self._on_win_keywords(s)
        # S.13–S.14
        if self.observer is not None:
            self.observer(self, "struggle_end", s)
        self._expire("struggle")
        if self.delayed:
            yield from self._run_delayed("struggle")
        self.struggle = None
        if self.stops:
            yield from self._boundary("struggle", CONFRONT_P, p)

    def _declare(self, kind: str, p: int, elig: list, t: int, chosen: list):
        """S.3 attackers / S.6 defenders of a struggle of type t, into `chosen`: the whole declaration at once from a
        policy's `declare` (or the history being replayed), else one decision per unit among the eligible `elig`
        (attackers: at least one, S.1, so `done` is offered once one is declared; defenders: none is allowed)."""
        attacking = kind == "attackers"
        picks = self._declared(kind, p, elig, t, attacking) if elig else None
        if picks is not None:
            chosen.extend(picks)
            return
        verb = "attacker" if attacking else "defender"
        while elig:
            opts: list[tuple] = [(verb, i) for i in elig]
            if chosen or not attacking:
                opts.append(DONE)
            a = yield Decision(kind, p, opts, t)
            if a == DONE:
                break
            chosen.append(a[1])
            elig.remove(a[1])

    def _declared(self, kind: str, p: int, elig: list, t: int, need_one: bool) -> list | None:
        """A policy's whole declaration (S.3 attackers / S.6 defenders) through its `declare` shortcut, or the
        one recorded in the history being replayed; None when neither (the declaration is then one decision per
        unit). Checked like the one-by-one decisions: distinct eligible cards, at least one attacker (S.1)."""
        picks: Any = self._replayed_entry(2, p) if self._replay is not None else None
        if picks is None:
            hook = self.declare_hook[p]
            if hook is None:
                return None
            self._pcache = {}
            try:
                picks = hook(self.view(p), kind, p, elig[:], t)
            finally:
                self._pcache = None
            self.history.append([p, *picks])
        ok = set(elig)
        if len(set(picks)) != len(picks) or any(i not in ok for i in picks) or (need_one and not picks):
            raise IllegalAction(f"{kind}: {picks!r} is not a legal declaration from {elig!r}")
        return list(picks)

    def struggle_totals(self, s: Struggle) -> tuple[int, int]:
        """§6.3: each side's effective Power (each unit floored at 0, §6.6); +1 for the Authority holder's
        attacks (§5.5); units no longer in the field count 0 (§6.5). Memoised with effective Power while nothing
        can change (`_pcache`, key -1)."""
        pc = self._pcache
        if pc is not None:
            got = pc.get(-1)
            if got is not None and got[0] is s:
                return got[1]
        totals = []
        for side, pl in ((s.attackers, s.attacker), (s.defenders, s.defender)):
            tot = 0
            for i in side:
                if self.zone[i] == FIELD:
                    pw = self.power(i)
                    if pw > 0:
                        tot += pw
            if self.has_abilities:
                tot += self._player_static(pl, "struggle_total", s.type)
            totals.append(max(tot, 0))
        if self.authority == s.attacker:
            totals[0] += 1
        out = (totals[0], totals[1])
        if pc is not None:
            pc[-1] = (s, out)
        return out

    def spoils_value(self, s: Struggle) -> int:
        return max(self.quest_stat(s.attacker, "spoils") + s.spoils_mod, 0)

    def _spoils(self, s: Struggle):
        """§6.1 spoils with N = the attacker's quest Spoils, done as far as possible."""
        n = self.spoils_value(s)
        if n <= 0:
            return
        p, opp, t = s.attacker, s.defender, s.type
        if self.goldfish and opp == 1:
            return  # the goldfish has nothing to lose
        if t == COMBAT:
            units = [i for i in self.field[opp] if self.cdef[i].is_unit]
            chosen: list[int] = []
            while units and len(chosen) < n:
                if len(units) <= n - len(chosen):
                    chosen.extend(units)
                    break
                a = yield Decision("kill_own", opp, [("kill", i) for i in units], n - len(chosen))
                chosen.append(a[1])
                units.remove(a[1])
            if chosen:
                if self.logs is not None:
                    self._log(f"§6.1 Combat spoils: player {opp} kills " + ", ".join(self.name(i) for i in chosen))
                yield from self._leave(chosen, "killed")
        elif t == GUILE:
            hand = self.hand[opp]
            k = min(n, len(hand))
            for _ in range(k):
                i = hand[int(self.rng.random() * len(hand))]
                self._move(i, DISCARD)
                if self.logs is not None:
                    self._log(f"§6.1 Guile spoils: player {opp} discards {self.name(i)} at random")
        elif t == SORCERY:
            for _ in range(n):
                cards = list(self.field[opp])
                if not cards:
                    break
                a = cards[0] if len(cards) == 1 else (yield Decision("emblem", p, [("emblem", i) for i in cards]))[1]
                if isinstance(a, tuple):
                    a = a[1]
                self.emb[a] += 1
                self._statics_cache = None
                self._check_attachments()
                if self.logs is not None:
                    self._log(f"§6.1 Sorcery spoils: a sorcery emblem blanks {self.name(a)}")
        else:
            m = min(n, self.infl[opp])
            if m:
                self.infl[opp] -= m
                self.infl[p] += m   # a move, not a gain (§6.1): influence_gained does not fire
                if self.logs is not None:
                    self._log(f"§6.1 Faith spoils: {m} Influence moves from player {opp} to player {p}")
                self._check_win()

    def _on_win_keywords(self, s: Struggle):
        """§9.2 at S.12: each participating unit of the winning side, each keyword optional."""
        w = s.winner
        attacking = w == s.attacker
        side = s.attackers if attacking else s.defenders
        for i in list(side):
            if self.zone[i] != FIELD:
                continue
            k = self.kw(i)
            if not (k & (KW_GLORY | KW_MASTERY | KW_CUNNING | KW_COMPEL | KW_RAVAGE | KW_PROWESS | KW_WARY
                         | KW_RUTHLESS)):
                continue
            if k & KW_GLORY:
                if (yield Decision("onwin", w, [YES, NO], ("Glory", i))) == YES:
                    self.cnt[i] += 1
                    if self.logs is not None:
                        self._log(f"§9.2 Glory: 1 Influence on {self.name(i)}")
                    self._check_win()
            if k & KW_MASTERY:
                if (yield Decision("onwin", w, [YES, NO], ("Mastery", i))) == YES:
                    self._draw(w, 1)
            if k & KW_CUNNING:
                if (yield Decision("onwin", w, [YES, NO], ("Cunning", i))) == YES:
                    self.pool[w] += 1
            if attacking and k & KW_COMPEL:
                cands = [j for j in self.field[s.defender] if self.cdef[j].is_unit and not self.exh[j]
                         and max(self.power(j), 0) < s.margin
                         and not self.has_rule(j, "cannot_be_exhausted_by_opponent")]
                if cands:
                    a = yield Decision("compel", w, [("exhaust", j) for j in cands] + [NO], i)
                    if a != NO:
                        self.exh[a[1]] = 1
                        if self.logs is not None:
                            self._log(f"§9.2 Compel: {self.name(a[1])} exhausts")
            if attacking and k & KW_RAVAGE:
                for x in self.kw_params(i, KW_RAVAGE):   # §9: each Ravage (X) with a distinct X is its own keyword
                    if (yield Decision("onwin", w, [YES, NO], ("Ravage", i))) == YES:
                        self._mill(s.defender, x)
            if attacking and k & KW_PROWESS and self.exh[i]:
                if (yield Decision("onwin", w, [YES, NO], ("Prowess", i))) == YES:
                    self.exh[i] = 0
            if not attacking and k & KW_WARY and self.exh[i]:
                if (yield Decision("onwin", w, [YES, NO], ("Wary", i))) == YES:
                    self.exh[i] = 0
            if attacking and k & KW_RUTHLESS:
                defenders = [j for j in s.defenders if self.zone[j] == FIELD]
                if defenders and (yield Decision("onwin", w, [YES, NO], ("Ruthless", i))) == YES:
                    j = defenders[0] if len(defenders) == 1 else \
                        (yield Decision("kill_own", s.defender, [("kill", x) for x in defenders], 1))[1]
                    yield from self._leave([j], "killed")
