"""§4 Setup: the first player, shuffling, the opening hand and its mulligan, the facedown opening board within
the setup budget (one Restricted card, duplicates free, attachments on a unit placed with them, Secret cards
hidden for 2 more), the simultaneous reveal, and drawing back up to the hand size.
"""
from __future__ import annotations

from .cards import KW_RESTRICTED, KW_SECRET
from .setup_rules import can_be_placed, fits_host, setup_cost
from .state import ASIDE, DECK, DONE, DUP, FIELD, HAND_SIZE, NO, SECRET, SETUP_BUDGET, YES, \
    Decision, fisher_yates
from .struggles import Struggles


class Setup(Struggles):

    def _setup(self):
        rng = self.rng
        first = self.first_arg if self.first_arg is not None else (0 if rng.random() < 0.5 else 1)
        self.first = first
        self.round1_first = first
        if self.logs is not None:
            self.round_no = 0
            self._log(f"§4 setup: player {first} is the first player")
        for p in (0, 1):
            fisher_yates(rng, self.deck[p])
        for p in self.players():
            self._draw(p, HAND_SIZE)
        # §4 mulligan: once, all or nothing, first player first.
        for p in self.players():
            a = yield Decision("mulligan", p, [YES, NO])
            if a == YES:
                old = list(self.hand[p])
                for i in old:
                    self._move(i, ASIDE)
                self._draw(p, HAND_SIZE)
                for i in old:
                    self._move(i, DECK)
                fisher_yates(rng, self.deck[p])
                if self.logs is not None:
                    self._log(f"§4 player {p} mulligans")
        # §4 opening board: placed facedown within the 8-wealth budget, first player first.
        placed: list[list[tuple]] = [[], []]
        for p in self.players():
            budget = SETUP_BUDGET + self._player_static(p, "setup_budget") if self.has_abilities else SETUP_BUDGET
            used = 0
            restricted = 0
            chosen: list[tuple] = []   # (iid, how, host)
            while True:
                opts = self._setup_options(p, budget - used, restricted, chosen)
                if len(opts) == 1:
                    break
                a = yield Decision("setup", p, opts, {"budget": budget, "used": used})
                if a == DONE:
                    break
                kind, iid = a
                cost = self._setup_cost(p, iid, kind, chosen)
                host = -1
                if kind == "place" and self.cdef[iid].is_attachment:
                    hosts = self._setup_hosts(p, iid, chosen)
                    host = hosts[0] if len(hosts) == 1 else (yield Decision("setup_host", p,
                                                                            [("host", h) for h in hosts], iid))[1]
                used += cost
                if self.cdef[iid].kw & KW_RESTRICTED and kind == "place" \
                        and self._setup_dup_target(p, iid, chosen) < 0:
                    restricted += 1   # §4: one Restricted card at setup; a duplicate does not use it (§3.7)
                self._move(iid, ASIDE)
                chosen.append((iid, kind, host))
            placed[p] = chosen
            if self.logs is not None:
                self._log(f"§4 player {p} places {len(chosen)} card(s) facedown, budget {used}/{budget}")
        # §4 reveal simultaneously: no "enters play" triggers; attachments and duplicates resolve.
        for p in self.players():
            for iid, kind, host in placed[p]:
                self.aside[p].remove(iid)
                self.shown.append(iid)
                if kind == "hide":
                    self.secret[p].append(iid)
                    self.zone[iid] = SECRET
                    continue
                under = self.is_duplicate_entry(p, iid)
                if under >= 0:
                    self.dups.setdefault(under, []).append(iid)
                    self.zone[iid] = DUP
                    self.seen[iid] = 1
                    continue
                self.field[p].append(iid)
                self.zone[iid] = FIELD
                self.seen[iid] = 1
                self.ctrl[iid] = p
                if self.cdef[iid].hooks:
                    self._hook(iid, FIELD, 1, p)
                if host >= 0:
                    self.host[iid] = host
                    self._pw_cands = {}   # Power statics of attachments apply to their host only
            self._statics_cache = None
            if self.logs is not None and placed[p]:
                self._log("§4 reveal: player %d fields %s" % (
                    p, ", ".join(self.name(i) for i, k, _ in placed[p] if k == "place") or "nothing"))
        for p in self.players():
            need = HAND_SIZE - len(self.hand[p])
            if need > 0:
                self._draw(p, need)

    def _setup_dup_of(self, iid: int, chosen: list) -> bool:
        d = self.cdef[iid]
        if not d.unique:
            return False
        for j, k, _h in chosen:
            if j == iid:
                return False
            if k == "place" and self.cdef[j].name == d.name:
                return True
        return False

    def _setup_dup_target(self, p: int, iid: int, chosen: list) -> int:
        d = self.cdef[iid]
        if not d.unique:
            return -1
        for j, k, _h in chosen:
            if k == "place" and self.cdef[j].name == d.name:
                return j
        return -1

    def _setup_cost(self, p: int, iid: int, kind: str, chosen: list) -> int:
        """What placing (or hiding) the card counts against p's budget (setup_rules.setup_cost)."""
        if kind == "place" and self._setup_dup_target(p, iid, chosen) >= 0:
            return 0  # §4: duplicates of your uniques are free
        d = self.cdef[iid]
        dk = self.decks[p]
        return setup_cost(d, dk.faction_slug if dk is not None else d.faction, kind == "hide")

    def _setup_hosts(self, p: int, iid: int, chosen: list) -> list[int]:
        """§4/§10.3: units placed in this setup that this attachment may legally go on (setup_rules.fits_host),
        duplicates aside."""
        att = self.cdef[iid]
        return [j for j, k, _h in chosen
                if k == "place" and fits_host(att, self.cdef[j]) and not self._setup_dup_of(j, chosen)]

    def _setup_options(self, p: int, left: int, restricted: int, chosen: list) -> list:
        opts: list[tuple] = []
        for iid in self.hand[p]:
            d = self.cdef[iid]
            if not can_be_placed(d):   # §4: deeds and X/– costs cannot be placed
                continue
            dup = self._setup_dup_target(p, iid, chosen) >= 0
            if d.is_attachment and (dup or not self._setup_hosts(p, iid, chosen)):
                pass
            elif not (d.kw & KW_RESTRICTED and restricted >= 1 and not dup) \
                    and self._setup_cost(p, iid, "place", chosen) <= left:
                opts.append(("place", iid))
            # hiding a Secret card uses no Restricted allowance: it does not enter the field (§9.3, §10.9)
            if d.kw & KW_SECRET and self._setup_cost(p, iid, "hide", chosen) <= left:
                opts.append(("hide", iid))
        opts.append(DONE)
        return opts
