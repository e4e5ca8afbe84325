"""State changes that never ask a player: Influence and the end of the game (§1.1, §12), drawing and milling
(§5.2), wealth spent (§3.4), cards leaving the field and what goes with them (§7.1, §7.2 consequences, §10.3
attachments, §3.7 duplicates, §3.8 tokens), lasting effects expiring (§8.8, §8.9), type changes (§2.2) and
changes of control (§3.2).
"""
from __future__ import annotations

from .cards import KW_LASTING, KW_NO_ATTACH, CardDef
from .characteristics import Characteristics
from .state import DEAD, DECK, DISCARD, FIELD, GONE, HAND, OUT, WIN_INFLUENCE, ZONE_NAMES, GameOver


class Changes(Characteristics):

    # §12 winning and elimination

    def _check_win(self) -> None:
        """§12: 15 or more Influence wins at once; both at once -> the first player decides (takes the win)."""
        a = self.influence(0) >= WIN_INFLUENCE
        b = self.influence(1) >= WIN_INFLUENCE
        if a or b:
            winner = self.first if (a and b) else (0 if a else 1)
            if self.logs is not None:
                self._log(f"§12 player {winner} controls {self.influence(winner)} Influence and wins")
            raise GameOver(winner, "influence")

    def _eliminate(self, players: list[int]):
        """§12 elimination; if every player is eliminated at once: highest Influence, then Authority, then the
        first player decides."""
        if len(players) == 1:
            winner = 1 - players[0]
        else:
            i0, i1 = self.influence(0), self.influence(1)
            if i0 != i1:
                winner = 0 if i0 > i1 else 1
            elif self.authority in (0, 1):
                winner = self.authority
            else:
                winner = self.first
        if self.logs is not None:
            self._log(f"§12 player(s) {players} must draw from an empty deck: eliminated; player {winner} wins")
        raise GameOver(winner, "elimination")

    # §5.2 drawing, §8.10 milling, §3.4 spending

    def _draw(self, p: int, n: int) -> int:
        """Draw n cards; drawing from an empty deck eliminates (§5.2, §12). Returns cards drawn."""
        if self.goldfish and p == 1:
            return 0
        deck = self.deck[p]
        hand = self.hand[p]
        zone = self.zone
        shown = self.shown
        for k in range(n):
            if not deck:
                self._eliminate([p])
            i = deck.pop()
            hand.append(i)
            zone[i] = HAND
            shown.append(i)
            if self.cdef[i].hooks:
                self._hook(i, HAND, 1, p)
        return n

    def _mill(self, p: int, n: int) -> None:
        deck = self.deck[p]
        for _ in range(min(n, len(deck))):
            i = deck.pop()
            self.shown.append(i)
            self.discard[p].append(i)
            self.zone[i] = DISCARD
            self.seen[i] = 1

    def _spend(self, p: int, n: int) -> None:
        if n:
            self.pool[p] -= n
            self.stat_spent[p] += n

    def _note_played(self, p: int, iid: int) -> None:
        self.stat_played[p] += 1
        name = self.cdef[iid].name
        pb = self.plays_by_name[p]
        pb[name] = pb.get(name, 0) + 1
        if p == 0:
            self.cards_played[name] = self.cards_played.get(name, 0) + 1

    # §7.1–§7.2 a card leaves the field: its consequences

    def _drop_from_struggle(self, iid: int) -> None:
        """The card no longer takes part in the struggle in progress (it left play, changed sides or type, or an
        effect removed it, §6.5); it counts for neither side."""
        s = self.struggle
        if s is not None:
            if iid in s.attackers:
                s.attackers.remove(iid)
            if iid in s.defenders:
                s.defenders.remove(iid)

    def _remove_from_field(self, i: int, how: str, position: str = "top") -> None:
        if i in self.retyped:   # §2.2: it leaves play as what it functioned as; elsewhere it is the printed card
            self._set_def(i, self.retyped.pop(i)[0])
        d = self.cdef[i]
        if self.lasting:   # a card that leaves play is a new object if it returns (§3.2 control ends with it)
            self.lasting = [x for x in self.lasting if not (x[2] == i and x[1] in ("control", "type"))]
        self.emb[i] = 0
        self.cnt[i] = 0     # §3.5 counters and emblems return to the supply
        self.exh[i] = 0
        self.pmod.pop(i, None)
        self.kgrant.pop(i, None)
        self.host.pop(i, None)
        for dup in self.dups.pop(i, []):      # duplicates go to their owner's discard pile (§3.7)
            self.zone[dup] = DISCARD
            self.seen[dup] = 1
            self.discard[self.owner[dup]].append(dup)
        self._drop_from_struggle(i)
        if d.is_token:
            self.field[self.ctrl[i]].remove(i)
            if d.hooks:
                self._hook(i, FIELD, -1, self.ctrl[i])
            self.zone[i] = GONE    # §3.8 a token ceases to exist
            self.ctrl[i] = self.owner[i]
            self._statics_cache = None
        elif how == "killed":
            self._move(i, DEAD)
        elif how == "returned":
            self._move(i, HAND)
        elif how == "returned_deck":
            self._move(i, DECK, top=position != "bottom")
        elif how == "removed":
            self._move(i, OUT)
        else:
            self._move(i, DISCARD)
        if self.logs is not None:
            self._log(f"§7.1 {d.name} is {how} ({ZONE_NAMES[self.zone[i]]})")
        # attachments on it are discarded, or return to hand with Lasting (§10.3)
        for a in [a for a, h in self.host.items() if h == i]:
            self.host.pop(a, None)
            if self.kw(a) & KW_LASTING:
                self._remove_attachment(a, HAND)
            else:
                self._remove_attachment(a, DISCARD)

    def _remove_attachment(self, a: int, z: int) -> None:
        self.emb[a] = self.cnt[a] = self.exh[a] = 0
        self.pmod.pop(a, None)
        self.kgrant.pop(a, None)
        self.host.pop(a, None)
        if self.cdef[a].is_token:
            self.field[self.ctrl[a]].remove(a)
            if self.cdef[a].hooks:
                self._hook(a, FIELD, -1, self.ctrl[a])
            self.zone[a] = GONE
        else:
            self._move(a, z)

    def _check_attachments(self) -> None:
        """§8.1/§10.3 state-based: an illegally attached attachment is discarded."""
        if not self.host:
            return
        for a, h in list(self.host.items()):
            if self.zone[h] != FIELD or (self.kw(h) & KW_NO_ATTACH) or not self._still_legal_host(a, h):
                self._remove_attachment(a, DISCARD)

    # §8.8 lasting effects expire; §2.2 type changes; §3.2 control

    def _expire(self, until: str) -> None:
        if not self.lasting:
            return
        keep = []
        for e in self.lasting:
            if e[0] != until:
                keep.append(e)
                continue
            _, kind, who, value = e
            if kind == "power":
                if who in self.pmod:
                    self.pmod[who] -= value
                    if not self.pmod[who]:
                        del self.pmod[who]
            elif kind == "type":
                stack = self.retyped.get(who)
                if stack is not None and value in stack:
                    stack.remove(value)
                    if len(stack) == 1:
                        del self.retyped[who]
                    self._set_def(who, stack[-1])
            elif kind == "control":
                # §3.2 a lasting change of control ends: the card goes back to who controlled it before
                if self.zone[who] == FIELD and self.ctrl[who] != value:
                    self._change_control(who, value)
            elif kind == "keyword":
                g = self.kgrant.get(who)
                if g:
                    for x in g:
                        if x[0] == value[0] and x[2] == until:
                            g.remove(x)
                            break
                    if not g:
                        del self.kgrant[who]
        self.lasting = keep

    def _set_def(self, iid: int, new: CardDef) -> None:
        """Swap the definition a card in play functions as (§2.2 type change and its end), keeping the
        listener counts, the static-ability caches, attachments and the struggle consistent."""
        old = self.cdef[iid]
        if old is new:
            return
        inplay = self.zone[iid] == FIELD
        if inplay and old.hooks:
            self._hook(iid, FIELD, -1, self.ctrl[iid])
        self.cdef[iid] = new
        self.shown.append(iid)   # the players' views read the new definition
        if inplay and new.hooks:
            self._hook(iid, FIELD, 1, self.ctrl[iid])
        self._statics_cache = None
        self._pw_cands = {}
        if old.is_attachment and not new.is_attachment:
            self.host.pop(iid, None)         # it no longer is an attachment: it stands on its own
        if not new.is_unit:
            self._drop_from_struggle(iid)
        if self.host:
            # attachments whose host stopped being a legal host (a unit by default, §10.3) are discarded
            for a, h in list(self.host.items()):
                if h == iid and h not in self.legal_hosts(self.ctrl[a], a):
                    self._remove_attachment(a, DISCARD)
        self._check_attachments()

    def _change_control(self, iid: int, p: int) -> bool:
        """§3.2 control of a card in the field passes to p. §3.7: it never becomes p's duplicate — a unique card
        whose name p already controls does not change control (the collision is prevented at the effect).
        A participating unit leaves the struggle (it is no longer on the side it was declared for); attachments
        stay on it and keep their own controller; its duplicates stay with their owner."""
        d = self.cdef[iid]
        old = self.ctrl[iid]
        if self.zone[iid] != FIELD or old == p or (d.unique and self.controls_unique_name(p, d.name)):
            return False
        if d.hooks:
            self._hook(iid, FIELD, -1, old)
        self.field[old].remove(iid)
        self.field[p].append(iid)
        self.ctrl[iid] = p
        if d.hooks:
            self._hook(iid, FIELD, 1, p)
        self._drop_from_struggle(iid)
        self._statics_cache = None
        self._pw_cands = {}
        if self.logs is not None:
            self._log(f"§3.2 player {p} takes control of {d.name}")
        self._check_attachments()
        self._check_win()   # Influence on the card now counts for its new controller (§3.2)
        return True
