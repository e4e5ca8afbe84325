"""§5 the round: Quest, Draw, Kingdom, Confrontation, Authority, Refresh, Toll, until the game ends (§12) or the
round limit; each phase opens and closes as §8.8 says. `Phases._run` is the whole game as one generator: it
yields a `Decision` whenever a player must choose and is resumed with the answer (game.py drives it).
"""
from __future__ import annotations

from .opening import Setup
from .state import (
    AUTHORITY_P, CONFRONT_P, DISCARD, DRAW_P, DRAW_PER_ROUND, FIELD, KINGDOM_P, PHASES, QDECK, QUEST, QUEST_P,
    QUSED, REFRESH_P, TOLL_P, Decision, GameOver, fisher_yates,
)


class Phases(Setup):

    def _run(self):
        """§4 setup, then rounds of the seven phases (§5) until the game ends (§12) or the round limit. A game
        loaded from a position (positions.py) starts inside its round instead: at the start of phase
        `start_phase`, for Kingdom and Confrontation at the start of `start_active`'s turn."""
        try:
            ph0 = self.start_phase
            if ph0 < 0:
                yield from self._setup()
            while True:
                if ph0 < 0:
                    if self.round_no >= self.max_rounds:
                        self.winner = None
                        self.reason = "round_limit"
                        if self.logs is not None:
                            self._log(f"round limit {self.max_rounds} reached: no winner")
                        break
                    self.round_no += 1
                    ph0 = QUEST_P
                self._round_open = True
                if ph0 <= QUEST_P:
                    yield from self._quest_phase()
                if ph0 <= DRAW_P:
                    yield from self._draw_phase()
                if ph0 <= KINGDOM_P:
                    yield from self._kingdom_phase(self.start_active if ph0 == KINGDOM_P else -1)
                if ph0 <= CONFRONT_P:
                    yield from self._confrontation_phase(self.start_active if ph0 == CONFRONT_P else -1)
                if ph0 <= AUTHORITY_P:
                    yield from self._authority_phase()
                if ph0 <= REFRESH_P:
                    yield from self._refresh_phase()
                yield from self._toll_phase()
                self._record_round()
                ph0 = -1
        except GameOver as end:
            self.winner = end.winner
            self.reason = end.reason
            if getattr(self, "_round_open", False):
                self._record_round()
        self.over = True
        self.pending = None

    def _record_round(self) -> None:
        br = self.by_round
        br["influence"].append([self.influence(0), self.influence(1)])
        br["spent"].append(self.stat_spent[:])
        br["played"].append(self.stat_played[:])
        br["won"].append(self.stat_won[:])
        self.stat_spent = [0, 0]
        self.stat_played = [0, 0]
        self.stat_won = [0, 0]
        self._round_open = False

    def _phase_start(self, ph: int):
        self.phase = ph
        if self.uses:
            self.uses = {k: v for k, v in self.uses.items() if k[2] != "phase"}
        if self.live_ev.get("phase_start"):
            yield from self._event("phase_start", {"phase": PHASES[ph]}, response_only=True)

    def _phase_end(self, ph: int):
        if self.observer is not None:
            self.observer(self, "phase_end", ph)
        if self.live_ev.get("phase_end"):
            yield from self._event("phase_end", {"phase": PHASES[ph]}, response_only=True)
        self._expire("phase")   # §8.8
        if self.delayed:
            yield from self._run_delayed("phase")

    def _quest_phase(self):
        """§5.1: choose quests secretly, reveal, momentum decides who chooses the first player, Embark."""
        if self.stops:
            yield from self._boundary("phase", QUEST_P)
        yield from self._phase_start(QUEST_P)
        m = self._window_needed()
        if m is not None:
            yield from self._action_window(memo=m)
        chosen = [-1, -1]
        for p in self.players():
            if not self.qdeck[p]:
                # only with fewer than 2 quests: the active quest is the only one left to choose again (§10.5)
                old = self.quest[p]
                if old >= 0:
                    if self.cdef[old].hooks:
                        self._hook(old, FIELD, -1, p)
                    self.quest[p] = -1
                    self.qdeck[p].append(old)
                    self.zone[old] = QDECK
                    self._statics_cache = None
            opts = [("quest", q) for q in self.qdeck[p]]
            a = opts[0] if len(opts) == 1 else (yield Decision("quest", p, opts))
            chosen[p] = a[1]
        quest_statics = False   # only a quest with static abilities changes the set of statics (§8.1)
        for p in self.players():
            old = self.quest[p]
            if old >= 0:
                self.zone[old] = QUSED
                self.qused[p].append(old)
                if self.cdef[old].hooks:
                    self._hook(old, FIELD, -1, p)
                if self.cdef[old].statics:
                    quest_statics = True
            q = chosen[p]
            if self.cdef[q].statics:
                quest_statics = True
            self.qdeck[p].remove(q)
            self.quest[p] = q
            self.zone[q] = QUEST
            if self.cdef[q].hooks:
                self._hook(q, FIELD, 1, p)
            if not self.qdeck[p]:   # §5.1/§10.5: the used-quest pile reshuffles into the quest deck
                self.qdeck[p] = self.qused[p]
                self.qused[p] = []
                for x in self.qdeck[p]:
                    self.zone[x] = QDECK
                fisher_yates(self.rng, self.qdeck[p])
        if quest_statics:
            self._statics_cache = None
        if self.logs is not None:
            self._log("§5.1 Quest: " + "; ".join(
                f"player {p} embarks on {self.name(self.quest[p])}" for p in self.players()))
        # First player: highest momentum chooses; tie: lowest Influence chooses; still tied: at random.
        if self.goldfish:
            chooser = 0
        else:
            m0, m1 = self.quest_stat(0, "momentum"), self.quest_stat(1, "momentum")
            if m0 != m1:
                chooser = 0 if m0 > m1 else 1
            else:
                i0, i1 = self.influence(0), self.influence(1)
                if i0 != i1:
                    chooser = 0 if i0 < i1 else 1
                else:
                    chooser = 0 if self.rng.random() < 0.5 else 1
        if self.goldfish:
            a = ("first", 0)
        else:
            a = yield Decision("first_player", chooser, [("first", chooser), ("first", 1 - chooser)])
        self.first = a[1]
        if self.round_no == 1:
            self.round1_first = self.first
        if self.logs is not None:
            self._log(f"§5.1 player {chooser} chooses player {self.first} as first player")
        if self.live_ev.get("quest_revealed"):
            for p in self.players():
                yield from self._event("quest_revealed", {"player": p, "card": self.quest[p]})
        for p in self.players():
            q = self.quest[p]
            for ab in self.cdef[q].embark:
                if self._usable(p, q, ab, None, forced=True):
                    yield from self._use_ability(p, q, ab, None)
        m = self._window_needed()
        if m is not None:
            yield from self._action_window(memo=m)
        yield from self._phase_end(QUEST_P)

    def _draw_phase(self):
        """§5.2: both draw 2 simultaneously; an empty deck eliminates (simultaneity, §12)."""
        if self.stops:
            yield from self._boundary("phase", DRAW_P)
        yield from self._phase_start(DRAW_P)
        m = self._window_needed()
        if m is not None:
            yield from self._action_window(memo=m)
        short = [p for p in self.players() if len(self.deck[p]) < DRAW_PER_ROUND]
        if short:
            self._eliminate(sorted(short))
        for p in self.players():
            self._draw(p, DRAW_PER_ROUND)
        m = self._window_needed()
        if m is not None:
            yield from self._action_window(memo=m)
        yield from self._phase_end(DRAW_P)

    def _kingdom_phase(self, start: int = -1):
        """§5.3: each active player in turn collects wealth and may play cards; ordinary windows otherwise.
        `start`: a loaded position's active player, whose turn it is (wealth collected)."""
        order = self.players()
        if start < 0:
            yield from self._phase_start(KINGDOM_P)
            m = self._window_needed()
            if m is not None:
                yield from self._action_window(memo=m)
        else:
            self.phase = KINGDOM_P
            order = order[order.index(start):]
        for p in order:
            self.active = p
            if p != start:
                self.pool[p] += self.quest_stat(p, "wealth")
                if self.logs is not None:
                    self._log(f"§5.3 Kingdom: player {p} collects {self.quest_stat(p, 'wealth')} wealth")
                if self.stops:
                    yield from self._boundary("turn", KINGDOM_P, p)
            yield from self._action_window(p, KINGDOM_P)
        self.active = -1
        yield from self._phase_end(KINGDOM_P)

    def _confrontation_phase(self, start: int = -1):
        """§5.4: each active player in turn may initiate up to one struggle of each type. `start`: a loaded
        position's active player, whose turn it is (`struggles_done[start]` as the position says)."""
        order = self.players()
        if start < 0:
            yield from self._phase_start(CONFRONT_P)
            m = self._window_needed()
            if m is not None:
                yield from self._action_window(memo=m)
        else:
            self.phase = CONFRONT_P
            order = order[order.index(start):]
        for p in order:
            self.active = p
            if p != start:
                self.struggles_done[p] = set()
                if self.stops:
                    yield from self._boundary("turn", CONFRONT_P, p)
            yield from self._action_window(p, CONFRONT_P)
        self.active = -1
        yield from self._phase_end(CONFRONT_P)

    def _authority_phase(self):
        """§5.5: highest total gains 1 Influence and the emblem; a tie strips the emblem."""
        if self.stops:
            yield from self._boundary("phase", AUTHORITY_P)
        yield from self._phase_start(AUTHORITY_P)
        a0, a1 = self.authority_total(0), self.authority_total(1)
        if a0 == a1:
            self.authority = -1
            if self.logs is not None:
                self._log(f"§5.5 Authority: {a0} vs {a1}, tie: the emblem is unheld")
        else:
            w = 0 if a0 > a1 else 1
            self.authority = w
            if self.logs is not None:
                self._log(f"§5.5 Authority: {a0} vs {a1}, player {w} claims it")
            yield from self._gain_influence(w, 1, "§5.5 Authority")
            if self.live_ev.get("authority_claimed"):
                yield from self._event("authority_claimed", {"player": w})
        m = self._window_needed()
        if m is not None:
            yield from self._action_window(memo=m)
        yield from self._phase_end(AUTHORITY_P)

    def _refresh_phase(self):
        """§5.6: ready everything (unless "does not ready"); each player removes one sorcery emblem."""
        if self.stops:
            yield from self._boundary("phase", REFRESH_P)
        yield from self._phase_start(REFRESH_P)
        exh = self.exh
        for p in (0, 1):
            for i in self.field[p]:
                if exh[i] and not self.has_rule(i, "does_not_ready"):
                    exh[i] = 0
            if self.faction_iid[p] >= 0:
                exh[self.faction_iid[p]] = 0   # a faction card exhausted to pay a cost readies too
        for p in self.players():
            marked = [i for i in self.field[p] if self.emb[i]]
            if not marked:
                continue
            if len(marked) == 1:
                i = marked[0]
            else:
                i = (yield Decision("refresh_emblem", p, [("emblem", j) for j in marked]))[1]
            self.emb[i] -= 1
            self._statics_cache = None
        m = self._window_needed()
        if m is not None:
            yield from self._action_window(memo=m)
        yield from self._phase_end(REFRESH_P)

    def _toll_phase(self):
        """§5.7: wealth returns to the treasury; hands are reduced to Levy."""
        if self.stops:
            yield from self._boundary("phase", TOLL_P)
        yield from self._phase_start(TOLL_P)
        self.pool[0] = self.pool[1] = 0
        for p in self.players():
            levy = self.quest_stat(p, "levy")
            hand = self.hand[p]
            while len(hand) > levy:
                a = yield Decision("toll_discard", p, [("discard", i) for i in hand], levy)
                self._move(a[1], DISCARD)
            if self.logs is not None:
                self._log(f"§5.7 Toll: player {p} keeps {len(hand)} card(s) (levy {levy})")
        if self.observer is not None:
            self.observer(self, "toll_done", TOLL_P)
        m = self._window_needed()
        if m is not None:
            yield from self._action_window(memo=m)
        yield from self._phase_end(TOLL_P)
        self.pool[0] = self.pool[1] = 0   # §3.4: wealth gained in Toll's closing window never carries over
        # End of round (§5.7, §8.8): "until end of round" effects expire; per-round counters reset.
        self._expire("round")
        if self.delayed:
            yield from self._run_delayed("round")
        self.restricted_used = [0, 0]
        self.plays_by_name = [{}, {}]
        if self.uses:
            self.uses = {k: v for k, v in self.uses.items() if k[2] == "game"}
