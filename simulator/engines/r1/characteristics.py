"""Read-only characteristics: what a card or player is *now* — static abilities (§8.1), effective Power (§6.3,
§6.6), keywords (§9, §3.6 blanking), play costs and Loyalty (§2.5, §9.3), quest stats (§2.4), uniqueness (§3.7),
legal hosts (§10.3), Authority totals (§5.5), selectors and conditions (docs/engine-abilities.md).

Nothing here changes the game or asks a player. The active statics are cached (`_statics`) until the field
changes, split by the reading that needs them.
"""
from __future__ import annotations

from typing import Any

from .abilities import Ability
from .cards import (
    KW_HASTE, KW_NO_ATTACH, KW_RAVAGE, KW_RESTRICTED, KW_SCOUT, KW_SECRET, STRUGGLE_TYPES, CardDef,
)
from .selectors import (
    _COMPILED, OP_ATTR, OP_ATTR_ANY, OP_COST_GTE, OP_COST_LTE, OP_EMBLEM, OP_EXHAUSTED, OP_FACTION, OP_ICON,
    OP_IN_ATTACK, OP_IN_DEFENCE, OP_IN_STRUGGLE, OP_INFLUENCE, OP_KEYWORD, OP_NAME, OP_NOT_SELF, OP_POWER_GT,
    OP_POWER_GTE, OP_POWER_LT, OP_POWER_LTE, OP_READY, OP_TOKEN, OP_TYPE, OP_TYPE_IN, OP_UNIQUE, _compile_selector,
    _dynamic_part, _static_part_matches,
)
from .state import (
    FACTION, FIELD, HAND, LIMBO, PHASES, ZONE_BY_NAME, PowerCand, State, StaticEntry,
)


class Characteristics(State):

    # §9.3 factions and Loyalty

    def off_faction(self, p: int, d: CardDef) -> bool:
        """§9.3: a card whose faction is neither neutral nor its player's faction card's."""
        deck = self.decks[p]
        return d.faction != "neutral" and deck is not None and d.faction != deck.faction_slug

    def loyalty_surcharge(self, p: int, d: CardDef) -> int:
        """§9.3: an off-faction card's Loyalty (off_faction inlined: this is read for every card in hand)."""
        lo = d.loyalty
        if not lo:
            return 0
        f = d.faction
        if f == "neutral":
            return 0
        dk = self.decks[p]
        return lo if dk is not None and f != dk.faction_slug else 0

    # §8.1 static abilities in force

    def _statics(self) -> list:
        """(source, controller, ability) for every static ability now active; cached until the field changes,
        and split by the reading that needs it (Power, keywords, rules, costs, player modifiers)."""
        cache = self._statics_cache
        if cache is not None:
            return cache
        out: list[StaticEntry] = []
        st_power: list[StaticEntry] = []
        st_grant: list[StaticEntry] = []
        st_rule: list[StaticEntry] = []
        st_cost: list[StaticEntry] = []
        st_player: list[StaticEntry] = []
        if self.has_abilities:
            cdef, emb = self.cdef, self.emb
            for p in (0, 1):
                for i in (self.faction_iid[p], self.destiny_iid[p], self.quest[p], *self.field[p]):
                    if i >= 0:
                        sts = cdef[i].statics
                        if sts and not emb[i]:
                            for a in sts:
                                x: StaticEntry = (i, p, a)
                                out.append(x)
                                m = a.modify
                                if "power" in m:
                                    st_power.append(x)
                                if a.grant_bits:
                                    st_grant.append(x)
                                if a.rule:
                                    st_rule.append(x)
                                if "cost" in m:
                                    st_cost.append(x)
                                if len(m) > ("power" in m) + ("cost" in m) + ("type" in m):
                                    st_player.append(x)
        if st_power != self._st_power:
            self._pw_cands = {}   # the candidates depend only on the Power statics (and printed cards)
            self._st_power_prep = None
        self._st_power, self._st_grant, self._st_rule = st_power, st_grant, st_rule
        mask = 0
        for _s, _c, a in st_grant:
            for b, _param in a.grant_bits:
                mask |= b
        self._st_grant_mask = mask   # every keyword some static ability in force grants (§9)
        self._st_cost, self._st_player = st_cost, st_player
        by_rule: dict[str, list[StaticEntry]] = {}
        for x in st_rule:
            for r in x[2].rule:
                by_rule.setdefault(r, []).append(x)
        self._st_rule_by = by_rule
        self._statics_cache = out
        return out

    def _power_statics(self) -> list[tuple[int, int, Ability, Any, bool, PowerCand]]:
        """The Power statics in force, each judged once for what `_power_candidates` asks of it: (kind 0 self /
        1 host / 2 selector / 3 never, source, the ability, its `affects` selector, its not_self, the candidate
        tuple `power` reads). Rebuilt with the statics (`_statics`)."""
        prep = self._st_power_prep
        if prep is not None:
            return prep
        prep = []
        for src, c, ab in self._st_power:
            aff = ab.affects
            amt = ab.modify["power"]
            not_self = False
            cand: PowerCand = (src, c, 0, 0, None, (), ab.condition, amt)
            if aff is None or aff == "self":
                kind = 0
            elif aff == "host":
                kind = 1
                cand = (src, c, 1, 0, None, (), ab.condition, amt)
            elif isinstance(aff, dict):
                kind = 2
                not_self = bool(aff.get("not_self"))
                dyn = ab.dyn_affects
                if dyn is None:
                    dyn = _dynamic_part(ab)
                z, who, checks = dyn
                cand = (src, c, 2, z, None if who == "any" else who == "you", checks, ab.condition, amt)
            else:
                kind = 3
            prep.append((kind, src, ab, aff, not_self, cand))
        self._st_power_prep = prep
        return prep

    def _power_candidates(self, iid: int) -> list[PowerCand]:
        """The Power statics that could ever apply to this card, judged on what cannot change while the set of
        statics stays the same (its printed type, attributes, name, faction, icons; which card is the source).
        Each is a flat tuple (source, controller, kind 0 self / 1 host / 2 selector, zone, "you" True / "opponent"
        False / "any" None, the selector's remaining checks, condition, Power amount) so `power` reads no
        attributes."""
        d = self.cdef[iid]
        out: list[PowerCand] = []
        prep = self._st_power_prep
        if prep is None:
            prep = self._power_statics()
        for kind, src, ab, aff, not_self, cand in prep:
            if kind == 0:
                if src == iid:
                    out.append(cand)
            elif kind == 1:
                if self.host.get(src, -1) == iid:   # only on its own host (the cache is cleared when a host is set)
                    out.append(cand)
            elif kind == 2:
                cache = ab.smatch
                if cache is None or len(cache) > 512:
                    cache = ab.smatch = {}
                ok = cache.get(d)
                if ok is None:
                    ok = cache[d] = _static_part_matches(aff, d, -1, -2)   # not_self aside: it is per copy
                if ok and not (not_self and iid == src):
                    out.append(cand)
        self._pw_cands[iid] = out
        return out

    def _static_applies(self, src: int, p: int, ab, iid: int) -> bool:
        aff = ab.affects
        if aff is None or aff == "self":
            if iid != src:
                return False
            ok = True
        elif aff == "host":
            if self.host.get(src) != iid:
                return False
            ok = True
        elif isinstance(aff, dict):
            ok = self._match(aff, iid, p, src)
        else:
            ok = False
        return ok and (ab.condition is None or self._cond(ab.condition, p, src))

    def _player_static(self, p: int, key: str, stype: int | None = None) -> int:
        """Sum of a player-level static modifier (authority, levy, wealth, spoils, momentum, setup_budget...)."""
        total = 0
        if self._statics_cache is None:
            self._statics()
        for src, c, ab in self._st_player:
            v = ab.modify.get(key)
            if not v:
                continue
            if key == "struggle_total" and "type" in ab.modify and stype is not None \
                    and ab.modify["type"] != STRUGGLE_TYPES[stype]:
                continue
            aff = ab.affects
            who = 1 - c if aff == "opponent" else c
            if who != p:
                continue
            if ab.condition is not None and not self._cond(ab.condition, c, src):
                continue
            total += v
        return total

    # §6.3 effective Power, §9 keywords, §3.6 blanking

    def power(self, iid: int) -> int:
        """Effective Power (may be negative; totals floor each unit at 0, §6.6)."""
        pc = self._pcache
        if pc is not None:
            v = pc.get(iid)
            if v is not None:
                return v
        pw = self.cdef[iid].power
        pm = self.pmod
        if pm:
            pw += pm.get(iid, 0)
        if self.has_abilities:
            if self._statics_cache is None:
                self._statics()
            cands = self._pw_cands.get(iid)
            if cands is None:
                cands = self._power_candidates(iid)
            if not cands:
                return pw   # no static can apply: as cheap as a memo read, so not memoised
            for src, c, kind, z, you, checks, cond, amt in cands:
                if kind == 2:
                    if self.zone[iid] != z:
                        continue
                    if you is not None:
                        holder = self.ctrl[iid] if z == FIELD else self.owner[iid]
                        if (holder == c) != you:
                            continue
                    if checks and not self._ops_match(checks, iid, src):
                        continue
                elif kind == 1 and self.host.get(src) != iid:
                    continue
                if cond is None or self._cond(cond, c, src):
                    pw += amt
        if pc is not None:
            pc[iid] = pw
        return pw

    def kw(self, iid: int) -> int:
        """Keyword bitmask: printed (unless blanked, §3.6) plus granted ones."""
        k = 0 if self.emb[iid] else self.cdef[iid].kw
        g = self.kgrant.get(iid)
        if g:
            for bit, _param, _until in g:
                k |= bit
        if self.has_abilities:
            if self._statics_cache is None:
                self._statics()
            for src, c, ab in self._st_grant:
                if self._static_applies(src, c, ab, iid):
                    for bit, _param in ab.grant_bits:
                        k |= bit
        return k

    def kw_params(self, iid: int, bit: int) -> list[int]:
        """§9: the X of each instance of a parameterised keyword the card has — printed (unless blanked), granted
        by an effect, granted by a static ability — once per distinct X: Ravage (1) and Ravage (2) are two
        keywords, two Ravage (2) are one (§9 "a card cannot have the same keyword twice")."""
        d = self.cdef[iid]
        out: list[int] = []
        if not self.emb[iid] and d.kw & bit:
            v = {KW_HASTE: d.haste, KW_SECRET: d.secret, KW_SCOUT: d.scout, KW_RAVAGE: d.ravage}.get(bit)
            out.append(v or 0)
        for b, param, _u in self.kgrant.get(iid, ()):
            if b == bit and (param or 0) not in out:
                out.append(param or 0)
        if self.has_abilities:
            if self._statics_cache is None:
                self._statics()
            for src, c, ab in self._st_grant:
                for b, param in ab.grant_bits:
                    if b == bit and (param or 0) not in out and self._static_applies(src, c, ab, iid):
                        out.append(param or 0)
        return out

    def _granted_anywhere(self, bit: int) -> bool:
        """Whether any static ability in force or lasting effect grants this keyword to some card (§9)."""
        if self.has_abilities and self._statics_cache is None:
            self._statics()
        if self._st_grant_mask & bit:
            return True
        if self.kgrant:
            for lst in self.kgrant.values():
                for b, _param, _u in lst:
                    if b == bit:
                        return True
        return False

    def _kw_x(self, iid: int, bit: int, granted: bool) -> int:
        """The X of Haste (X) / Secret (X) on a card out of play (§9.3, §10.9), printed or granted: -1 without it.
        `granted`: _granted_anywhere(bit); without a grant in force only the printed keyword is read."""
        d = self.cdef[iid]
        if not granted:
            if not d.kw & bit:
                return -1
            return (d.haste if bit == KW_HASTE else d.secret) or 0
        return self.kw_param(iid, bit) if self.kw(iid) & bit else -1

    def kw_param(self, iid: int, bit: int) -> int:
        """The X of a parameterised keyword: for a cost (Haste, Secret) the lowest of its instances (§9)."""
        xs = self.kw_params(iid, bit)
        return min(xs) if xs else 0

    def has_rule(self, iid: int, rule: str) -> bool:
        if not self.has_abilities:
            return False
        if self._statics_cache is None:
            self._statics()
        for src, c, ab in self._st_rule_by.get(rule, ()):
            if self._static_applies(src, c, ab, iid):
                return True
        return False

    def blanked(self, iid: int) -> bool:
        return self.emb[iid] > 0

    def _printed(self, iid: int) -> CardDef:
        """The card's printed definition, whatever type change applies now (§2.2)."""
        stack = self.retyped.get(iid)
        return stack[0] if stack else self.cdef[iid]

    # costs (§2.5, §9.3), quest stats (§2.4), Authority totals (§5.5)

    def play_cost(self, p: int, iid: int) -> int:
        """§5.3/§9.3: printed cost + off-faction Loyalty + static cost modifiers (floor 0)."""
        d = self.cdef[iid]
        c = max(d.cost, 0) + self.loyalty_surcharge(p, d)
        if self.has_abilities:
            if self._statics_cache is None:
                self._statics()
            for src, cp, ab in self._st_cost:
                v = ab.modify.get("cost")
                if v and cp == p and (ab.affects is None or self._match_props(ab.affects, iid, cp, src)) \
                        and (ab.condition is None or self._cond(ab.condition, cp, src)):
                    c += v
        return max(c, 0)

    def quest_stat(self, p: int, stat: str) -> int:
        q = self.quest[p]
        base = getattr(self.cdef[q], stat) if q >= 0 else 0
        if self.has_abilities:
            base += self._player_static(p, stat)
        return max(base, 0)

    def authority_total(self, p: int, known: dict[int, int] | None = None) -> int:
        """§5.5: Power of ready units (each floored at 0) + 1 per wealth in pool + bonuses. `known`: Power a
        player has already read at this decision (unit -> max(Power, 0)), used instead of reading it again."""
        if self.goldfish and p == 1:
            return 0   # CONTRACTS §3: the goldfish's Authority total is 0
        total = self.pool[p]
        cdef, exh = self.cdef, self.exh
        for i in self.field[p]:
            if cdef[i].is_unit and not exh[i]:
                got = known.get(i) if known is not None else None
                if got is not None:
                    pw = got
                else:
                    pw = self.power(i) if self.has_abilities or self.pmod else cdef[i].power
                if pw > 0:
                    total += pw
        if self.has_abilities:
            total += self._player_static(p, "authority")
        return total

    def _max_ok(self, p: int, d: CardDef) -> bool:
        return d.max_per_round is None or self.plays_by_name[p].get(d.name, 0) < d.max_per_round

    # §3.7 uniqueness, §10.3 hosts, §9.3 Restricted: whether a card may enter the field

    def is_duplicate_entry(self, p: int, iid: int) -> int:
        """§3.7: the copy in play this card would go under as a duplicate (-1 if none)."""
        d = self.cdef[iid]
        if not d.unique or self.owner[iid] != p:
            return -1
        for j in self.field[p]:
            if self.cdef[j].name == d.name and self.owner[j] == p and not self.cdef[j].is_token:
                return j
        return -1

    def controls_unique_name(self, p: int, name: str) -> bool:
        return any(self.cdef[j].name == name and self.cdef[j].unique for j in self.field[p])

    def legal_hosts(self, p: int, iid: int, src_ab=None, first: bool = False) -> list[int]:
        """§10.3: cards an attachment may go on — by default any unit in the field (either side); its `attach`
        selector narrows that; No Attachments rejects. `first`: stop at the first legal host."""
        ab = src_ab or self.cdef[iid].attach_ability
        sel = ab.target if ab is not None and ab.target else None
        out = []
        cdef = self.cdef
        if sel is not None:
            who = sel.get("controller", "you")
            sides = (p,) if who == "you" else (1 - p,) if who == "opponent" else (0, 1)
        else:
            sides = (0, 1)
        for q in sides:
            for j in self.field[q]:
                if sel is None:
                    if not cdef[j].is_unit:
                        continue
                elif not self._match(sel, j, p, iid):
                    continue
                if self.kw(j) & KW_NO_ATTACH:
                    continue
                out.append(j)
                if first:
                    return out
        return out

    def _still_legal_host(self, a: int, h: int) -> bool:
        """§10.3: the host still fits the attachment's `attach` requirement (e.g. "a unit you control", read
        from the attachment's controller), as when it was attached."""
        ab = self.cdef[a].attach_ability
        sel = ab.target if ab is not None and ab.target else None
        if sel is None:
            return self.cdef[h].is_unit
        c = self.ctrl[a]
        who = sel.get("controller", "you")
        if (who == "you" and self.ctrl[h] != c) or (who == "opponent" and self.ctrl[h] == c):
            return False
        return self._match(sel, h, c, a)

    def can_enter(self, p: int, iid: int) -> bool:
        """Whether a card may enter p's field now: Restricted allowance (§9.3), attachment host (§10.3)."""
        d = self.cdef[iid]
        if d.is_deed or d.type not in ("unit", "location", "attachment"):
            return False
        if not d.unique and not d.is_attachment and not (d.kw & KW_RESTRICTED):
            return True
        if self.is_duplicate_entry(p, iid) >= 0:
            return True
        if d.unique and self.controls_unique_name(p, d.name):
            # §3.7: p controls a copy it cannot put this one under (the opponent's, by a change of control):
            # the play is prevented, not paid for and discarded
            return False
        if d.kw & KW_RESTRICTED and self.restricted_used[p] >= 1:
            return False
        if d.is_attachment and not self.legal_hosts(p, iid, first=True):
            return False
        return True

    # selectors and conditions (docs/engine-abilities.md); §8.11 immunity

    def _target_candidates(self, sel, p, src, ab, info, is_deed=False) -> list[int]:
        cands = self._select(sel, p, src, info)
        if not cands:
            return cands
        out = []
        for j in cands:
            if self.zone[j] == FIELD and self._immune(j, p, src, is_deed):
                continue
            out.append(j)
        return out

    def _immune(self, j: int, p: int, src: int, is_deed: bool) -> bool:
        """§8.11 immunity: blocks targeting and effects (not costs)."""
        if not self.has_abilities:
            return False
        if self.ctrl[j] != p and self.has_rule(j, "immune_to_opponent_effects"):
            return True
        if (is_deed or self.cdef[src].is_deed) and self.has_rule(j, "immune_to_deeds"):
            return True
        return False

    def _select(self, sel, p: int, src: int, info=None) -> list[int]:
        """Cards matching a selector (relative to controller p and source card src)."""
        if sel == "self":
            return [src] if self.zone[src] in (FIELD, FACTION, HAND, LIMBO) else []
        if sel == "host":
            h = self.host.get(src, -1)
            return [h] if h >= 0 else []
        if sel == "event_card":
            c = (info or {}).get("card", -1)
            return [c] if c >= 0 else []
        if isinstance(sel, dict) and "each" in sel:
            sel = sel["each"]
        if not isinstance(sel, dict):
            return []
        z = ZONE_BY_NAME.get(sel.get("zone", "field"), FIELD)
        c = sel.get("controller", "you")
        players = (p,) if c == "you" else (1 - p,) if c == "opponent" else (0, 1)
        out = []
        ops = self._ops_of(sel)
        for q in players:
            for j in self._zone_list(q, z):
                if not ops or self._ops_match(ops, j, src):
                    out.append(j)
        return out

    def _match(self, sel, j: int, p: int, src: int) -> bool:
        """Does card j match the selector, including its zone and controller?"""
        if sel == "self":
            return j == src
        if not isinstance(sel, dict):
            return False
        if "each" in sel:
            sel = sel["each"]
        z = ZONE_BY_NAME.get(sel.get("zone", "field"), FIELD)
        if self.zone[j] != z:
            return False
        c = sel.get("controller", "you")
        holder = self.ctrl[j] if z == FIELD else self.owner[j]
        if (c == "you" and holder != p) or (c == "opponent" and holder == p):
            return False
        return self._match_props(sel, j, p, src)

    def _match_props(self, sel, j: int, p: int, src: int) -> bool:
        """Does card j have the characteristics and state the selector asks for (zone/controller aside)?"""
        ops = self._ops_of(sel)
        return not ops or self._ops_match(ops, j, src)

    @staticmethod
    def _ops_of(sel) -> tuple[tuple[int, Any], ...]:
        """The selector compiled to (op, value) checks (selectors.py), cached by its id."""
        got = _COMPILED.get(id(sel))
        if got is None or got[0] is not sel:
            got = _compile_selector(sel)
        ops: tuple[tuple[int, Any], ...] = got[1]
        return ops

    def _ops_match(self, ops: tuple[tuple[int, Any], ...], j: int, src: int) -> bool:
        """A compiled selector's (op, value) checks on card j (selectors.py), answered in order, inline."""
        d = self.cdef[j]
        for op, v in ops:
            if op == OP_TYPE:
                if d.type != v:
                    return False
            elif op == OP_ATTR:
                if v not in d.attributes:
                    return False
            elif op == OP_IN_DEFENCE or op == OP_IN_ATTACK or op == OP_IN_STRUGGLE:
                s = self.struggle
                if s is None:
                    if v:
                        return False
                elif op == OP_IN_DEFENCE:
                    if (j in s.defenders) != v:
                        return False
                elif op == OP_IN_ATTACK:
                    if (j in s.attackers) != v:
                        return False
                elif (j in s.attackers or j in s.defenders) != v:
                    return False
            elif op == OP_TYPE_IN:
                if d.type not in v:
                    return False
            elif op == OP_ATTR_ANY:
                if v.isdisjoint(d.attributes):
                    return False
            elif op == OP_EXHAUSTED:
                if bool(self.exh[j]) != v:
                    return False
            elif op == OP_READY:
                if (not self.exh[j]) != v:
                    return False
            elif op == OP_NOT_SELF:
                if j == src:
                    return False
            elif op == OP_ICON:
                if not d.icons & v:
                    return False
            elif op == OP_KEYWORD:
                if not self.kw(j) & v:
                    return False
            elif op == OP_FACTION:
                if d.faction != v:
                    return False
            elif op == OP_NAME:
                if d.name != v:
                    return False
            elif op == OP_UNIQUE:
                if d.unique != v:
                    return False
            elif op == OP_COST_LTE:
                if not 0 <= d.cost <= v:
                    return False
            elif op == OP_COST_GTE:
                if d.cost < v:
                    return False
            elif op == OP_EMBLEM:
                if bool(self.emb[j]) != v:
                    return False
            elif op == OP_INFLUENCE:
                if bool(self.cnt[j]) != v:
                    return False
            elif op == OP_TOKEN:
                if d.is_token != v:
                    return False
            else:   # effective Power, floored at 0 (printed Power out of play)
                if not d.is_unit:
                    return False
                pw = self.power(j) if self.zone[j] == FIELD else d.power
                if pw < 0:
                    pw = 0
                if op == OP_POWER_LT:
                    if not pw < v:
                        return False
                elif op == OP_POWER_LTE:
                    if not pw <= v:
                        return False
                elif op == OP_POWER_GT:
                    if not pw > v:
                        return False
                elif not pw >= v:
                    return False
        return True

    def _amount(self, v, p: int, src: int, ctx) -> int:
        if isinstance(v, int):
            return v
        if v == "X":
            return ctx.x if ctx is not None else 0
        if isinstance(v, dict) and "count" in v:
            return len(self._select(v["count"], p, src))
        return 0

    def _cond(self, cond: dict, p: int, src: int) -> bool:
        for k, v in cond.items():
            if k == "min":
                continue
            if k == "controls":
                if len(self._select(v, p, src)) < cond.get("min", 1):
                    return False
            elif k == "opponent_controls":
                sel = dict(v)
                sel["controller"] = "opponent"
                if len(self._select(sel, p, src)) < cond.get("min", 1):
                    return False
            elif k == "influence_lte":
                if self.influence(p) > v:
                    return False
            elif k == "influence_gte":
                if self.influence(p) < v:
                    return False
            elif k == "behind_on_influence":
                if (self.influence(p) < self.influence(1 - p)) != bool(v):
                    return False
            elif k == "hand_gte":
                if len(self.hand[p]) < v:
                    return False
            elif k == "hand_lte":
                if len(self.hand[p]) > v:
                    return False
            elif k == "phase":
                if self.phase < 0 or PHASES[self.phase] != v:
                    return False
            elif k == "in_struggle":
                if (self.struggle is not None) != bool(v):
                    return False
            elif k == "participating":
                s = self.struggle
                if s is None or (src not in s.attackers and src not in s.defenders):
                    return False
            elif k == "holds_authority":
                if (self.authority == p) != bool(v):
                    return False
            elif k == "all":
                if not all(self._cond(c, p, src) for c in v):
                    return False
            elif k == "any":
                if not any(self._cond(c, p, src) for c in v):
                    return False
            elif k == "not":
                if self._cond(v, p, src):
                    return False
        return True
