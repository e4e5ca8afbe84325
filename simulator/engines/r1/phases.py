"""§5 the round: Quest, Draw, Kingdom, Confrontation, Authority, Refresh, Toll, until the game ends (§12) or the
round limit; each phase opens and closes as §8.8 says.

The flow is held as data: `State.steps` is a stack of steps (the pipeline, as throneteki's game pipeline) — §4
setup, a round, a phase, the opening of the Kingdom and Confrontation phases, each player's turn in them, their
closing — each a small tuple (kind, player, start). `Phases._run` pops the next step and runs it as a generator
made from that tuple: it yields a `Decision` whenever a player must choose and is resumed with the answer
(game.py drives it). A step that opens a round or a phase with turns pushes the steps it is made of. So the rest
of the game after a step's start is data that can be copied (`Game.clone`, `PlayerView.determinize`): only the
choices made inside the current step live in generator frames, and a copy replays just those.
"""
from __future__ import annotations

from typing import Final

from .opening import Setup
from .state import (
    AUTHORITY_P, CONFRONT_P, DISCARD, DRAW_P, DRAW_PER_ROUND, FIELD, KINGDOM_P, PHASES, QDECK, QUEST, QUEST_P,
    QUSED, REFRESH_P, TOLL_P, Decision, GameOver, fisher_yates,
)


# the kinds of step on the pipeline (State.steps): each a tuple (kind, player, start). Final, so that the compiled
# build reads them as constants rather than looking each name up in the module at every step.
S_SETUP: Final = 0
S_ROUND: Final = 1
S_QUEST: Final = 2
S_DRAW: Final = 3
S_KOPEN: Final = 4
S_KTURN: Final = 5
S_KCLOSE: Final = 6
S_COPEN: Final = 7
S_CTURN: Final = 8
S_CCLOSE: Final = 9
S_AUTHORITY: Final = 10
S_REFRESH: Final = 11
S_TOLL: Final = 12
S_KWIN: Final = 13   # the rest of a Kingdom turn's window, after an action (§8.2)
S_CWIN: Final = 14   # the rest of a Confrontation turn's window, after an action


class Phases(Setup):

    def _initial_steps(self) -> list[tuple[int, int, int]]:
        """The pipeline of a game about to start: §4 setup then the rounds; a game loaded from a position
        (positions.py) starts inside its round instead: at the start of phase `start_phase`, for Kingdom and
        Confrontation at the start of `start_active`'s turn."""
        if self.start_phase < 0:
            return [(S_ROUND, -1, -1), (S_SETUP, -1, -1)]
        return [(S_ROUND, self.start_phase, self.start_active)]

    def _run(self):
        """§4 setup, then rounds of the seven phases (§5) until the game ends (§12) or the round limit: the steps
        of `steps`, one after the other. With `keep_snap`, the state at the start of each step is kept
        (`_snap`, a Game that never runs) for the copies."""
        try:
            if self.steps is None:
                self.steps = self._initial_steps()
            steps = self.steps
            fresh = self._snap is not None   # a copy resumed from a snapshot of this very step
            while steps:
                if fresh:
                    fresh = False
                elif self.keep_snap:
                    self._snap = self._take_snapshot()
                elif self._snap is not None:
                    self._snap = None
                kind, p, start = steps.pop()
                self.pos_at = -1   # the step sets it again where a position would start the game there
                if kind == S_CWIN:   # the rest of a Confrontation turn's window, after an action (§8.2)
                    if start == self.first:   # the window as a loaded position opens it (below)
                        self.pos_at = len(self.history)
                    yield from self._action_window(p, CONFRONT_P, p=start, cont=S_CWIN)
                elif kind == S_KWIN:
                    if start == self.first:
                        self.pos_at = len(self.history)
                    yield from self._action_window(p, KINGDOM_P, p=start, cont=S_KWIN)
                elif kind == S_CTURN:
                    yield from self._confrontation_turn(p, start)
                elif kind == S_KTURN:
                    yield from self._kingdom_turn(p, start)
                elif kind == S_QUEST:
                    yield from self._quest_phase()
                elif kind == S_DRAW:
                    yield from self._draw_phase()
                elif kind == S_KOPEN:
                    yield from self._kingdom_open(start)
                elif kind == S_KCLOSE:
                    self.active = -1
                    yield from self._phase_end(KINGDOM_P)
                elif kind == S_COPEN:
                    yield from self._confrontation_open(start)
                elif kind == S_CCLOSE:
                    self.active = -1
                    yield from self._phase_end(CONFRONT_P)
                elif kind == S_AUTHORITY:
                    yield from self._authority_phase()
                elif kind == S_REFRESH:
                    yield from self._refresh_phase()
                elif kind == S_TOLL:
                    yield from self._toll_phase()
                    self._record_round()
                elif kind == S_ROUND:
                    self._round(p, start)
                else:
                    yield from self._setup()
        except GameOver as end:
            self.winner = end.winner
            self.reason = end.reason
            if getattr(self, "_round_open", False):
                self._record_round()
        self.over = True
        self.pending = None

    def _round(self, ph0: int, start: int) -> None:
        """A round's steps (§5), pushed on the pipeline, the next round's after them; `ph0` >= 0: a loaded
        position's round, from that phase (`start`: its active player in Kingdom or Confrontation). At the round
        limit, nothing more: the game ends without a winner."""
        if ph0 < 0:
            if self.round_no >= self.max_rounds:
                self.winner = None
                self.reason = "round_limit"
                if self.logs is not None:
                    self._log(f"round limit {self.max_rounds} reached: no winner")
                return
            self.round_no += 1
            ph0 = QUEST_P
        self._round_open = True
        steps = self.steps
        assert steps is not None
        steps.append((S_ROUND, -1, -1))
        steps.append((S_TOLL, -1, -1))   # the round's phases, last first: the stack pops the top
        if ph0 <= REFRESH_P:
            steps.append((S_REFRESH, -1, -1))
        if ph0 <= AUTHORITY_P:
            steps.append((S_AUTHORITY, -1, -1))
        if ph0 <= CONFRONT_P:
            steps.append((S_COPEN, -1, start if ph0 == CONFRONT_P else -1))
        if ph0 <= KINGDOM_P:
            steps.append((S_KOPEN, -1, start if ph0 == KINGDOM_P else -1))
        if ph0 <= DRAW_P:
            steps.append((S_DRAW, -1, -1))
        if ph0 <= QUEST_P:
            steps.append((S_QUEST, -1, -1))

    def _turns(self, close: int, turn: int, start: int) -> None:
        """Push a phase's turns (each player in first-player order, from a loaded position's `start`) and its
        closing step."""
        order = self.players()
        if start >= 0:
            order = order[order.index(start):]
        steps = self.steps
        assert steps is not None
        steps.append((close, -1, -1))
        for p in reversed(order):
            steps.append((turn, p, start))

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

    def _kingdom_open(self, start: int):
        """§5.3: the Kingdom phase opens (ordinary windows) and each active player gets a turn. `start`: a loaded
        position's active player, whose turn it is (wealth collected)."""
        self._turns(S_KCLOSE, S_KTURN, start)
        if start < 0:
            yield from self._phase_start(KINGDOM_P)
            m = self._window_needed()
            if m is not None:
                yield from self._action_window(memo=m)
        else:
            self.phase = KINGDOM_P

    def _kingdom_turn(self, p: int, start: int):
        """§5.3: player p's Kingdom turn: it collects wealth and may play cards."""
        self.active = p
        if p != start:
            self.pool[p] += self.quest_stat(p, "wealth")
            if self.logs is not None:
                self._log(f"§5.3 Kingdom: player {p} collects {self.quest_stat(p, 'wealth')} wealth")
            if self.stops:
                yield from self._boundary("turn", KINGDOM_P, p)
        # the rest of the window after each action is a step of its own where copies are made (keep_snap): a
        # copy then replays the choices since that action; elsewhere the window runs on in one go
        self.pos_at = len(self.history)
        yield from self._action_window(p, KINGDOM_P, cont=S_KWIN if self.keep_snap else -1)

    def _confrontation_open(self, start: int):
        """§5.4: the Confrontation phase opens and each active player gets a turn, in which it may initiate up to
        one struggle of each type. `start`: a loaded position's active player, whose turn it is
        (`struggles_done[start]` as the position says)."""
        self._turns(S_CCLOSE, S_CTURN, start)
        if start < 0:
            yield from self._phase_start(CONFRONT_P)
            m = self._window_needed()
            if m is not None:
                yield from self._action_window(memo=m)
        else:
            self.phase = CONFRONT_P

    def _confrontation_turn(self, p: int, start: int):
        """§5.4: player p's Confrontation turn."""
        self.active = p
        if p != start:
            self.struggles_done[p] = set()
            if self.stops:
                yield from self._boundary("turn", CONFRONT_P, p)
        self.pos_at = len(self.history)
        yield from self._action_window(p, CONFRONT_P, cont=S_CWIN if self.keep_snap else -1)

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
