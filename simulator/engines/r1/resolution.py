"""The resolution core: events and their reaction windows (§8.4, §8.5), initiating and resolving abilities (§8,
§8.7 X, §8.11, Appendix A), playing cards — from hand (§5.3, §9.3 Haste), revealed (§10.9), deeds (§10.4) —,
entering play (§8.6) and leaving it (§7.2–§7.4), delayed effects (§8.9).

These procedures call one another (an effect makes a card leave play, which opens a Halt window, where a deed is
played, whose effect ...), so they stay together in one layer. Each effect is one primitive of the table in
effects.py (`EFFECTS`), which also holds the compile check abilities.py runs.
"""
from __future__ import annotations

from typing import Any

from .abilities import Ability
from .cards import COST_DASH, COST_X, KW_HASTE, KW_RESTRICTED, KW_SCOUT, KW_SECRET, STRUGGLE_TYPES
from .changes import Changes
from .effect_base import player_named
from .effects import Ctx, primitive_of
from .state import DISCARD, DONE, DUP, FACTION, FIELD, HAND, LIMBO, NO, PASS, PHASES, YES, ZONE_BY_NAME, Decision


_LIVE_KEYS: dict[str, tuple[str, str]] = {}   # event name -> its "halt:" and "disrupt:" keys in Game.live


class Resolution(Changes):

    # §1.1 gaining Influence (an event)

    def _gain_influence(self, p: int, n: int, why: str):
        """A *gain* of Influence (§1.1); fires influence_gained; the 15-check is immediate (§12)."""
        if n <= 0 or (self.goldfish and p == 1):
            return
        self.infl[p] += n
        if self.logs is not None:
            self._log(f"{why}: player {p} gains {n} Influence ({self.influence(p)})")
        self._check_win()
        if self.live_ev.get("influence_gained"):
            yield from self._event("influence_gained", {"player": p, "amount": n})

    # events and reaction windows (§8.4)

    def _event(self, name: str, info: dict, halt_only: bool = False, response_only: bool = False):
        """Halt → Disrupt → (the caller resolves) → Response windows for one event; each window opens only
        when some card where it lies could act in it (`live`)."""
        live = self.live
        if not response_only:
            keys = _LIVE_KEYS.get(name)
            if keys is None:
                keys = _LIVE_KEYS[name] = ("halt:" + name, "disrupt:" + name)
            if live.get(keys[0]):
                yield from self._reaction_window("halt", name, info)
            if live.get(keys[1]):
                yield from self._reaction_window("disrupt", name, info)
        if halt_only:
            return
        if live.get(name):
            yield from self._reaction_window("response", name, info)

    def _listeners(self, p: int, name: str) -> list:
        """(card, ability) pairs of p that react to event `name` where they lie, and reaction deeds in hand."""
        cdef, emb = self.cdef, self.emb
        out = []
        for i in (self.faction_iid[p], self.destiny_iid[p], self.quest[p]):
            if i >= 0 and not emb[i]:
                for ab in cdef[i].triggers.get(name, ()):
                    out.append((i, ab, False))
        for i in self.field[p]:
            trig = cdef[i].triggers
            if trig and not emb[i]:
                for ab in trig.get(name, ()):
                    out.append((i, ab, False))
        for i in self.hand[p]:
            d = cdef[i]
            pab = d.play_ability
            if d.hand_event is not None and pab is not None and pab.event == name:
                out.append((i, pab, True))
        return out

    def _reaction_window(self, timing: str, name: str, info: dict):
        """Forced abilities first (first player first), then optional ones with priority passing (§8.4)."""
        fired: set = set()
        pre: list[Any] = [None, None]   # each player's listeners, reused below while no Forced ability has resolved
        if timing == "response":
            for p in self.players():
                pre[p] = lst = self._listeners(p, name)
                for i, ab, is_deed in lst:
                    if not is_deed and ab.timing == "forced" and (i, ab.index) not in fired \
                            and self._when_matches(ab, p, i, info) and self._usable(p, i, ab, info, forced=True):
                        fired.add((i, ab.index))
                        yield from self._use_ability(p, i, ab, info)
            if fired:
                pre = [None, None]
        listeners: list[Any] = [None, None]
        p = self.first
        passes = 0
        while passes < 2:
            opts: list[tuple] = []
            if not (self.goldfish and p == 1):
                if listeners[p] is None:
                    base = pre[p]
                    if base is None:
                        base = self._listeners(p, name)
                    listeners[p] = [x for x in base if x[1].timing == timing]
                for i, ab, is_deed in listeners[p]:
                    if is_deed:
                        if self.zone[i] == HAND and self._when_matches(ab, p, i, info) \
                                and self._usable(p, i, ab, info, deed=True):
                            opts.append(("deed", i))
                    elif (i, ab.index) not in fired and self._when_matches(ab, p, i, info) \
                            and self._usable(p, i, ab, info):
                        opts.append(("ability", i, ab.index))
            if not opts:
                passes += 1
                p = 1 - p
                continue
            opts.append(PASS)
            a = yield Decision("react", p, opts, (timing, name))
            if a == PASS:
                passes += 1
            else:
                passes = 0
                listeners = [None, None]   # the action may have changed who can react
                pre = [None, None]
                if a[0] == "deed":
                    yield from self._play_deed(p, a[1], info)
                else:
                    i = a[1]
                    ab = next(x for x in self.cdef[i].abilities if x.index == a[2])
                    fired.add((i, ab.index))
                    yield from self._use_ability(p, i, ab, info)
            p = 1 - p

    def _when_matches(self, ab: Ability, p: int, src: int, info: dict) -> bool:
        w = ab.when
        if not w:
            return True
        for k, v in w.items():
            if k == "event":
                continue
            if k == "card":
                card = info.get("card", -1)
                if v == "self":
                    cards = info.get("cards") or [card]
                    if src not in cards:
                        return False
                elif isinstance(v, dict):
                    cards = info.get("cards") or [card]
                    if not any(c >= 0 and self._event_card_matches(v, c, p, src, info) for c in cards):
                        return False
            elif k == "how":
                if v != "any" and info.get("how") != v:
                    return False
            elif k == "type":
                t = info.get("type")
                if t is None or STRUGGLE_TYPES[t] != v:
                    return False
            elif k == "side":
                att = info.get("attacker")
                if att is None or (v == "attacker") != (att == p):
                    return False
            elif k == "participating":
                s = self.struggle
                if s is None or (v in ("self", True) and src not in s.attackers and src not in s.defenders):
                    return False
            elif k == "unopposed":
                if bool(info.get("unopposed")) != bool(v):
                    return False
            elif k == "phase":
                if info.get("phase") != v:
                    return False
            elif k == "player":
                pl = info.get("player")
                if pl is None or (v == "you") != (pl == p):
                    return False
        ev = ab.event
        if ev == "struggle_won" and info.get("winner") != p:
            return False
        if ev == "struggle_lost" and (info.get("winner") is None or info.get("winner") == p):
            return False
        return True

    def _event_card_matches(self, sel: dict, c: int, p: int, src: int, info: dict) -> bool:
        """An event's card against a `when.card` selector: its controller at the time of the event (the card
        may already have left play for leaves_play), then its characteristics."""
        who = sel.get("controller", "you")
        holder = info.get("player", self.ctrl[c])
        if (who == "you" and holder != p) or (who == "opponent" and holder == p):
            return False
        return self._match_props(sel, c, p, src)

    # whether an ability may be initiated (§8.11)

    def _limit_key(self, iid: int, ab):
        return (iid, ab.index, ab.limit_per)

    def _usable(self, p: int, iid: int, ab: Ability, info, *, deed: bool = False, forced: bool = False,
                extra_cost: int = 0) -> bool:
        """§8.11: conditions hold, limit not reached, costs payable, a legal target exists, a real effect."""
        if ab.limit is not None and self.uses.get(self._limit_key(iid, ab), 0) >= ab.limit:
            return False
        if ab.phase is not None and ab.timing == "action":
            if ab.phase == "struggle":
                if self.struggle is None:
                    return False
            elif self.phase < 0 or PHASES[self.phase] != ab.phase:
                return False
        if ab.condition is not None and not self._cond(ab.condition, p, iid):
            return False
        d = self.cdef[iid]
        pay = 0
        if deed:
            if extra_cost >= 0:
                if d.cost == COST_DASH:
                    return False   # §2.5: "–" cannot be played from hand
                pay = max(d.cost, 0) + self.loyalty_surcharge(p, d)   # X costs: X = 0 is always payable
            if not self._max_ok(p, d):
                return False
        if not self._costs_payable(p, iid, ab, pay):
            return False
        if ab.target is not None and not self._has_target(ab.target, p, iid, info, deed):
            return False
        return self._can_change_state(p, iid, ab, info)

    def _has_target(self, sel, p: int, src: int, info, is_deed: bool) -> bool:
        """Whether at least one legal target exists (stops at the first)."""
        if not isinstance(sel, dict) or "each" in sel:
            return bool(self._target_candidates(sel, p, src, None, info, is_deed))
        z = ZONE_BY_NAME.get(sel.get("zone", "field"), FIELD)
        c = sel.get("controller", "you")
        players = (p,) if c == "you" else (1 - p,) if c == "opponent" else (0, 1)
        ops = self._ops_of(sel)
        for q in players:
            for j in self._zone_list(q, z):
                if (not ops or self._ops_match(ops, j, src)) and not (z == FIELD and self._immune(j, p, src, is_deed)):
                    return True
        return False

    def _can_change_state(self, p, iid, ab, info) -> bool:
        """§8.11: an ability may be initiated only if it could change the game state. Effects that need a
        struggle, an event or cards to act on must have them; one effect that could change something suffices
        (targets were checked already)."""
        if ab.target is not None:
            return self._effects_possible(p, iid, ab, info, require_all=True)
        return self._effects_possible(p, iid, ab, info, require_all=False)

    def _effects_possible(self, p, iid, ab, info, require_all: bool) -> bool:
        """Each effect's own test (effects.py `possible`): one that cannot happen at all (a save with nothing to
        save, a struggle effect outside a struggle) makes the ability unusable."""
        any_ok = False
        for e in ab.effects:
            prim = primitive_of(e)
            ok = prim.possible(self, p, iid, e[prim.key], e, info)
            if ok < 0:
                return False
            if ok:
                any_ok = True
                if not require_all:
                    return True
        return any_ok or not ab.effects

    def _costs_payable(self, p: int, iid: int, ab: Ability, extra_pay: int) -> bool:
        pay = extra_pay
        for c in ab.cost:
            k, v = next(iter(c.items()))
            if k == "pay":
                pay += 0 if v == "X" else self._amount(v, p, iid, None)
            elif k == "exhaust":
                if v == "self":
                    if self.zone[iid] not in (FIELD, FACTION) or self.exh[iid]:
                        return False
                elif not any(not self.exh[j] for j in self._select(v, p, iid)):
                    return False
            elif k == "sacrifice":
                if v == "self":
                    if self.zone[iid] != FIELD:
                        return False
                elif not self._select(v, p, iid):
                    return False
            elif k == "discard_from_hand":
                need = self._amount(v, p, iid, None) + (1 if self.zone[iid] == HAND else 0)
                if len(self.hand[p]) < need:
                    return False
            elif k == "remove_influence":
                if self.infl[p] < self._amount(v, p, iid, None):
                    return False
            elif k == "return_to_hand":
                if self.zone[iid] != FIELD:
                    return False
        return self.pool[p] >= pay

    def _max_x(self, p: int, iid: int, ab, base_pay: int) -> int:
        return max(self.pool[p] - base_pay - sum(self._amount(c["pay"], p, iid, None) for c in ab.cost
                                                 if "pay" in c and c["pay"] != "X"), 0)

    # initiating and resolving (§8, Appendix A)

    def _use_ability(self, p: int, iid: int, ab, info, *, is_deed: bool = False, x_preset: int | None = None):
        """Initiate and resolve one ability (§8.4, Appendix A): choose X and targets, pay the costs, resolve the
        effects. `x_preset`: X already chosen and paid (a deed printed with cost X)."""
        ctx = Ctx(iid, ab, p, info, is_deed)
        if x_preset is not None:
            ctx.x = x_preset
        elif ab.x is not None:
            # §8.7: X is chosen at initiation; never more than can be paid
            top = self._max_x(p, iid, ab, 0)
            xopts = [("x", n) for n in range(top + 1)]
            a = xopts[0] if len(xopts) == 1 else (yield Decision("x", p, xopts, iid))
            ctx.x = a[1]
        # targets, chosen at initiation
        if ab.target is not None:
            sel = ab.target
            cands = self._target_candidates(sel, p, iid, ab, info, is_deed)
            n = sel.get("count", 1) if isinstance(sel, dict) else 1
            if n == "X":
                n = ctx.x
            up_to = isinstance(sel, dict) and sel.get("up_to")
            while cands and len(ctx.targets) < n:
                opts: list[tuple] = [("target", j) for j in cands]
                if up_to:
                    opts.append(DONE)
                a = opts[0] if len(opts) == 1 else (yield Decision("target", p, opts, (iid, ab.harmful)))
                if a == DONE:
                    break
                ctx.targets.append(a[1])
                cands.remove(a[1])
        if self.logs is not None:
            tgt = (" on " + ", ".join(self.name(t) for t in ctx.targets)) if ctx.targets else ""
            xs = f", X = {ctx.x}" if (ab.x is not None or x_preset is not None) else ""
            self._log(f"§8 player {p} uses {self.name(iid)} ({ab.timing}{xs}){tgt}")
        if ab.limit is not None:
            key = self._limit_key(iid, ab)
            self.uses[key] = self.uses.get(key, 0) + 1
        # costs (immunity blocks effects, not costs)
        for c in ab.cost:
            k, v = next(iter(c.items()))
            if k == "pay":
                self._spend(p, ctx.x if v == "X" else self._amount(v, p, iid, ctx))
            elif k == "exhaust":
                if v == "self":
                    self.exh[iid] = 1
                else:
                    cands = [j for j in self._select(v, p, iid) if not self.exh[j]]
                    j = cands[0] if len(cands) == 1 else (yield Decision("cost", p, [("pick", j) for j in cands],
                                                                         "exhaust"))[1]
                    self.exh[j] = 1
            elif k == "sacrifice":
                if v == "self":
                    yield from self._leave([iid], "sacrificed")
                else:
                    cands = self._select(v, p, iid)
                    j = cands[0] if len(cands) == 1 else (yield Decision("cost", p, [("pick", j) for j in cands],
                                                                         "sacrifice"))[1]
                    yield from self._leave([j], "sacrificed")
            elif k == "discard_from_hand":
                for _ in range(self._amount(v, p, iid, ctx)):
                    cands = [j for j in self.hand[p] if j != iid]
                    if not cands:
                        break
                    j = (yield Decision("cost", p, [("pick", j) for j in cands], "discard"))[1]
                    self._move(j, DISCARD)
            elif k == "remove_influence":
                self.infl[p] -= min(self._amount(v, p, iid, ctx), self.infl[p])
            elif k == "return_to_hand":
                yield from self._leave([iid], "returned")
        yield from self._resolve(ctx, ab.effects)

    def _refs(self, ctx: Ctx, ref) -> list[int]:
        if ref == "target":
            return list(ctx.targets)
        if ref == "self":
            return [ctx.src]
        if ref == "host":
            h = self.host.get(ctx.src, -1)
            return [h] if h >= 0 else []
        if ref == "event_card":
            c = (ctx.event or {}).get("card", -1)
            return [c] if c is not None and c >= 0 else []
        if isinstance(ref, dict):
            return [j for j in self._select(ref, ctx.p, ctx.src, ctx.event)
                    if not (self.zone[j] == FIELD and self._immune(j, ctx.p, ctx.src, ctx.is_deed))]
        return []

    def _player_of(self, ctx: Ctx, e: dict) -> int:
        return player_named(ctx.p, e)

    def _resolve(self, ctx: Ctx, effects):
        """Resolve effects in order, each by its primitive (effects.py); returns True when every one happened in
        full ("then", §8.11)."""
        full = True
        for e in effects:
            prim = primitive_of(e)
            v = e[prim.key]
            if prim.nested:
                if full:
                    ok = yield from self._resolve(ctx, v)
                    full = full and ok
                elif self.logs is not None:
                    self._log(prim.log(self, ctx, e, None))   # §8.11: "then" does not resolve
                continue
            if prim.asks:
                ok = yield from prim.run(self, ctx, v, e)
            else:
                ok = prim.apply(self, ctx, v, e)
            if not ok:
                full = False
        return full

    def _run_delayed(self, at: str):
        """§8.8 (3): the delayed effects waiting for the end of this phase / struggle / round resolve, after the
        lasting effects have expired; the first player's before the other's ("first player orders
        simultaneous ones"), each player's in the order they were created. Ones created now wait for the next
        such point."""
        if not self.delayed:
            return
        due = [x for x in self.delayed if x[0] == at]
        if not due:
            return
        self.delayed = [x for x in self.delayed if x[0] != at]
        due.sort(key=lambda x: x[1].p != self.first)   # stable: creation order within each player
        for _at, ctx, effects in due:
            if self.logs is not None:
                self._log(f"§8.9 delayed effect of {self.name(ctx.src)} resolves at the end of the {at}")
            yield from self._resolve(ctx, effects)

    # playing cards and entering play (§5.3, §8.6, §9.3, §10.4, §10.9)

    def _play_deed(self, p: int, iid: int, info, cost_override: int | None = None):
        """§10.4: pay, (Halt may cancel; still played), resolve, discard before the Response window.
        A deed printed with cost X has X chosen and paid here (§8.7); `cost_override` is a Secret reveal cost."""
        d = self.cdef[iid]
        ab: Any = d.play_ability
        x_preset = None
        if cost_override is not None:
            cost = cost_override
        else:
            cost = max(d.cost, 0) + self.loyalty_surcharge(p, d)
            if d.cost == COST_X:
                top = self._max_x(p, iid, ab, cost) if ab.x is not None else 0   # an X the text never uses: 0
                opts = [("x", n) for n in range(top + 1)]
                a = opts[0] if len(opts) == 1 else (yield Decision("x", p, opts, iid))
                x_preset = a[1]
                cost += x_preset
        self._spend(p, cost)
        self._move(iid, LIMBO)
        self._note_played(p, iid)
        if self.logs is not None:
            self._log(f"§10.4 player {p} plays the deed {d.name} for {cost}")
        pinfo = {"card": iid, "player": p, "cancelled": False}
        if self.live_ev.get("card_played") and not d.uncancelable:   # §8.11 "cannot be canceled"
            yield from self._event("card_played", pinfo, halt_only=True)
        if not pinfo["cancelled"]:
            yield from self._use_ability(p, iid, ab, info, is_deed=True, x_preset=x_preset)
        if self.zone[iid] == LIMBO:
            self._move(iid, DISCARD)
        if self.live_ev.get("card_played"):
            yield from self._event("card_played", {"card": iid, "player": p}, response_only=True)

    def _play_from_hand(self, p: int, iid: int, how: str):
        """§5.3 play (cost + Loyalty) or §9.3 Haste (X + Loyalty): pay, then the card enters the field."""
        d = self.cdef[iid]
        if self.is_duplicate_entry(p, iid) >= 0:
            cost = 0   # §3.7: a duplicate costs 0
        elif how == "haste":
            cost = max(self._kw_x(iid, KW_HASTE, self._granted_anywhere(KW_HASTE)), 0) + self.loyalty_surcharge(p, d)
        else:
            cost = self.play_cost(p, iid)
        self._spend(p, cost)
        self._move(iid, LIMBO)
        self._note_played(p, iid)
        if self.logs is not None:
            self._log(f"{'§9.3 Haste' if how == 'haste' else '§5.3 Kingdom'}: player {p} plays {d.name} for {cost}")
        cancelled: Any = False
        if self.live_ev.get("card_played") and not d.uncancelable:   # §8.11 "cannot be canceled"
            info = {"card": iid, "player": p, "cancelled": False}
            yield from self._event("card_played", info, halt_only=True)
            cancelled = info["cancelled"]
        if cancelled:
            self._move(iid, DISCARD)
            return
        yield from self._enter(p, iid, "played")
        if self.live_ev.get("card_played"):
            yield from self._event("card_played", {"card": iid, "player": p}, response_only=True)

    def _reveal(self, p: int, iid: int):
        """§10.9: pay Secret (X) (+ Loyalty); a permanent enters the field, a deed is played."""
        d = self.cdef[iid]
        cost = max(self._kw_x(iid, KW_SECRET, self._granted_anywhere(KW_SECRET)), 0) + self.loyalty_surcharge(p, d)
        if self.logs is not None:
            self._log(f"§10.9 player {p} reveals {d.name} from the secret area for {cost}")
        if d.is_deed:
            yield from self._play_deed(p, iid, None, cost_override=cost)
            return
        self._spend(p, cost)
        self._move(iid, LIMBO)
        self._note_played(p, iid)
        yield from self._enter(p, iid, "revealed")
        if self.live_ev.get("card_played"):
            yield from self._event("card_played", {"card": iid, "player": p}, response_only=True)

    def _enter(self, p: int, iid: int, how: str):
        """§8.6 a card enters p's field: duplicate (§3.7), Restricted count (§9.3), attachment host (§10.3),
        then "when this enters play" (forced) and enters_play responses; Scout (§9.3)."""
        d = self.cdef[iid]
        under = self.is_duplicate_entry(p, iid)
        if under >= 0:
            self._move(iid, DUP)
            self.dups.setdefault(under, []).append(iid)
            if self.logs is not None:
                self._log(f"§3.7 {d.name} goes under the copy in play as a duplicate")
            return
        if d.unique and self.controls_unique_name(p, d.name):
            self._move(iid, DISCARD)  # §3.7: the collision is prevented
            return
        if d.kw & KW_RESTRICTED:
            if self.restricted_used[p] >= 1:
                self._move(iid, DISCARD)
                return
            self.restricted_used[p] += 1
        host = -1
        if d.is_attachment:
            hosts = self.legal_hosts(p, iid)
            if not hosts:
                self._move(iid, DISCARD)  # §10.9: an attachment with no legal host is discarded
                return
            if len(hosts) == 1:
                host = hosts[0]
            else:
                a = yield Decision("host", p, [("host", h) for h in hosts], iid)
                host = a[1]
        self._move(iid, FIELD, p)
        self.exh[iid] = 0
        if host >= 0:
            self.host[iid] = host
            self._pw_cands = {}   # Power statics of attachments apply to their host only
        if (d.kw & KW_SCOUT and not self.emb[iid]) or (self.has_abilities and self._granted_anywhere(KW_SCOUT)
                                                      and self.kw(iid) & KW_SCOUT):
            for x in self.kw_params(iid, KW_SCOUT):   # §9.3, each distinct Scout (X)
                yield from self._scout(p, x)
        if d.enters and self.zone[iid] == FIELD:
            for ab in d.enters:
                if self._usable(p, iid, ab, None, forced=True):
                    yield from self._use_ability(p, iid, ab, None)
        if self.live_ev.get("enters_play"):
            yield from self._event("enters_play", {"card": iid, "player": p})

    def _scout(self, p: int, n: int):
        """§9.3 Scout (X): look at the top X, put each on top or bottom (in the order chosen)."""
        deck = self.deck[p]
        n = min(n, len(deck))
        if n <= 0:
            return
        looked = deck[-n:][::-1]   # top first; they stay in the deck while being looked at (§8.10)
        top: list[int] = []
        bottom: list[int] = []
        for iid in looked:
            self.shown.append(iid)   # its player sees the card while it chooses (PlayerView.cdef)
            a = yield Decision("scout", p, [("top", iid), ("bottom", iid)], iid)
            self.shown.append(iid)
            (top if a[0] == "top" else bottom).append(iid)
        del deck[-n:]
        for iid in reversed(top):
            deck.append(iid)
        for iid in bottom:
            deck.insert(0, iid)

    # leaving play (§7.2–§7.4)

    def _leave(self, iids: list[int], how: str, cannot_be_saved: bool = False, position: str = "top"):
        """§7.2: Halt (save) window, then the cards leave together; their consequences fire; responses."""
        cards = [i for i in iids if self.zone[i] == FIELD]
        if how == "killed":
            cards = [i for i in cards if self.cdef[i].is_unit and not self.has_rule(i, "cannot_be_killed")]
        if not cards:
            return
        saveable = how != "sacrificed" and not cannot_be_saved
        saved: set[int] = set()
        if saveable and self.live_ev.get("would_leave_play"):
            # one Halt (save) window per card, so a save names the card it saves (§7.3)
            for i in cards:
                info = {"cards": [i], "card": i, "how": how, "saved": saved, "player": self.ctrl[i]}
                yield from self._event("would_leave_play", info, halt_only=True)
        if saveable and self.dups:
            for i in cards:
                if i in saved or not self.dups.get(i):
                    continue
                own = self.owner[i]
                if (yield Decision("dup_save", own, [YES, NO], i)) == YES:
                    d = self.dups[i].pop()
                    self.zone[d] = DISCARD
                    self.seen[d] = 1
                    self.discard[self.owner[d]].append(d)
                    if self.logs is not None:
                        self._log(f"§7.3 a duplicate is discarded to save {self.name(i)}")
                    # §7.3: the opponent may cancel a duplicate save; the duplicate is still discarded
                    if self.live_ev.get("duplicate_save"):
                        dinfo = {"card": i, "cards": [i], "player": own, "cancelled": False}
                        yield from self._event("duplicate_save", dinfo, halt_only=True)
                        if dinfo["cancelled"]:
                            if self.logs is not None:
                                self._log(f"§7.3 the duplicate save of {self.name(i)} is cancelled")
                            continue
                    saved.add(i)
        leaving = [i for i in cards if i not in saved]
        replaced = []
        if self.has_replace and leaving:
            # §7.4: a replacement ("instead") swaps how the event resolves for that card (a saved card never
            # got here: a canceled event is never replaced)
            for i in leaving:
                r = self._replacement_for(i, how)
                if r is not None:
                    replaced.append(r)
            if replaced:
                swapped = {r[3]["card"] for r in replaced}
                leaving = [i for i in leaving if i not in swapped]
        prev_ctrl = {i: self.ctrl[i] for i in leaving}
        for i in leaving:
            self._remove_from_field(i, how, position)
        self._check_attachments()
        for q, src, ab, info in replaced:
            key = (src, ab.index, info["card"])
            self._replacing.add(key)
            try:
                if self.logs is not None:
                    self._log(f"§7.4 {self.name(info['card'])} would be {how}; {self.name(src)} replaces it")
                yield from self._use_ability(q, src, ab, info)
            finally:
                self._replacing.discard(key)
        if leaving and self.live_ev.get("leaves_play"):
            for i in leaving:
                yield from self._event("leaves_play", {"card": i, "how": how, "player": prev_ctrl[i]})

    def _replacement_for(self, i: int, how: str):
        """§7.4: the replacement that applies to card i leaving play `how` — the most recent one (the source that
        entered play last; faction, destiny and quest count as oldest) — as (controller, source, ability,
        event info), or None."""
        best, best_seq = None, -1
        cdef, emb = self.cdef, self.emb
        for q in (0, 1):
            for src in (self.faction_iid[q], self.destiny_iid[q], self.quest[q], *self.field[q]):
                if src < 0 or emb[src]:
                    continue
                reps = cdef[src].replacements
                if not reps:
                    continue
                for ab in reps:
                    if (src, ab.index, i) in self._replacing:
                        continue   # the replacement's own result is not replaced by it again
                    info = {"cards": [i], "card": i, "how": how, "player": self.ctrl[i]}
                    if self._when_matches(ab, q, src, info) and self._usable(q, src, ab, info, forced=True):
                        seq = self.entry_seq.get(src, 0)
                        if seq > best_seq:
                            best, best_seq = (q, src, ab, info), seq
        return best
