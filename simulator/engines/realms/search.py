"""The realms search player `expert`: the engines' shared determinized flat Monte Carlo search
(simulator/engines/common/search.py `search_decision`) over the realms engine's own actions.

The search itself is game-agnostic and shared by every engine: each iteration deals one *world* consistent with what the
searching player may know (`view.determinize(rng)`, view.py: the opponent's unseen hand, its set-aside cards and
both decks' order dealt again at random, and a fresh random future), plays every candidate in that same world
(common random numbers), finishes the game with the greedy player on both sides and scores it. The candidate with
the best mean wins; ties keep the greedy player's own choice (candidate 0), so the search departs from greedy only
when the simulations say it pays.

This module is the realms adapter: which decisions are searched and what their candidates are.

- Actions (002 §10): the greedy choice, ending the Actions, and the next best options by the greedy player's own
  scores (`GreedyPolicy.action_values`): builds, recruits (into the Borderlands or the Strike Force), moves,
  Intrigues, uses.
- Attack (002 §13): the greedy choice, no (more) attack, and the attacks the greedy player's test would reject
  (ties and narrow wins included), the most valuable defenders first.
- Raid (002 §14, R27): the greedy choice, no raid, and the largest party on each target and Tactic.
- Combat and raid modification windows (002 §13, R16), Leader-raid rewards (R35), the Leader and the mulligan
  (002 §8), optional triggers (R31), targets, kills, discards, takes and recruit effects: each option (up to
  MAX_CANDIDATES, the greedy choice first).
- Resource Balancing and building cells: the greedy player's (their order hardly changes the game, and a
  search there would spend most of the budget).

The budget is a number of simulated games per searched decision (`expert:N`, default DEFAULT_ITERATIONS), never
wall time, so a run gives the same moves on every machine: worlds come from the policy's own random.Random,
seeded from the game's seed stream (play_game's per-player policy seed). A policy decides from its PlayerView
only (CONTRACTS §3): the real game is never read, only worlds dealt from the view.
"""
from __future__ import annotations

import random
from typing import Any

from simulator.engines.common.ismcts import TreeGame, search as tree_search
from simulator.engines.common.search import search_decision

from .game import (
    A_ATTACK, A_DONE, A_NO, A_PASS, A_PLAY, A_RAID, A_USE, A_YES, Decision, Game,
)
from .policies import GreedyPolicy, card_value, evaluate
from .view import HiddenCard

DEFAULT_ITERATIONS = 32   # simulated games per searched decision (expert = expert:32)
MAX_CANDIDATES = 5        # at most this many candidates per searched decision
DEFAULT_HORIZON = 4       # turns (two rounds) a rollout plays before `evaluate` scores it (None: to the end)
MARGIN = 0.05            # the mean score by which a candidate must beat the greedy choice to be played instead
SEARCHED = ("actions", "attack", "raid", "combat", "raid_mods", "reward", "leader", "mulligan", "trigger",
            "target", "kill", "discard", "take", "recruit")
# the tree player `expert-tree` (ExpertTreePolicy)
TREE_EXPLORE = 0.15      # UCB's exploration constant below the root: `evaluate` tells positions apart by hundredths
TREE_WIDEN = 0.5         # progressive widening below the root (common/ismcts.py `search`)


def realms_score(g: Game, p: int, steps: int = 0) -> float:
    """+1 / -1 for a win / loss (a stalemate by VP, R22, counts the same), 0 for a draw, plus small terms that
    break ties between lines that end alike: a sooner win (a later loss) up to 0.25, the VP margin up to 0.15. An
    unfinished game (a rollout cut short) scores its position with `evaluate`."""
    q = 1 - p
    margin = max(-15, min(15, g.vp[p] - g.vp[q]))
    if g.over:
        w = g.winner
        if w is None:
            return 0.01 * margin
        soon = 0.25 * 0.85 ** max(steps, 0)
        return (1.0 + soon if w == p else -1.0 - soon) + 0.01 * margin
    return evaluate(g, p)


def _rollout(g: Game, seed: int, horizon_turn: int | None) -> None:
    """Play g on with the greedy player on both sides to the end (or past turn `horizon_turn`)."""
    pols = (GreedyPolicy(seed), GreedyPolicy(seed + 1))
    views = (g.view(0), g.view(1))
    c0 = pols[0].choose
    c1 = pols[1].choose
    while not g.over:
        if horizon_turn is not None and g.turn > horizon_turn:
            return
        dec = g.pending
        assert dec is not None
        g.apply_action(c0(views[0], dec) if dec.player == 0 else c1(views[1], dec))


def _play(w: Game, cand: Any) -> None:
    w.apply_action(cand)


class ExpertPolicy:
    """The realms search player (module docstring). `iterations`: simulated games per searched decision;
    `horizon`: turns past the current one a rollout plays before it is scored by `evaluate` (None: DEFAULT_HORIZON;
    0: to the end of the game)."""

    name = "expert"

    def __init__(self, seed: int = 0, iterations: int | None = None, horizon: int | None = None) -> None:
        self.rng = random.Random(seed ^ 0x5EA4C4)
        self.seed = seed
        self.iterations = DEFAULT_ITERATIONS if iterations is None else int(iterations)
        self.horizon = DEFAULT_HORIZON if horizon is None else (None if horizon <= 0 else horizon)
        self.greedy = GreedyPolicy(seed)
        self.searched = 0    # decisions searched (statistics)
        self.departed = 0    # of which the search chose other than the greedy player
        self.by_kind: dict[str, int] = {}

    def _to_search(self, view: Any, dec: Decision) -> tuple[Any, list | None]:
        """The greedy player's answer (or the one option) and the candidates to search, None when the decision is
        not searched (one option, a kind not in SEARCHED, or a single candidate); counts a searched decision."""
        opts = dec.options
        if len(opts) == 1:
            return opts[0], None
        a0 = self.greedy.choose(view, dec)
        if dec.kind not in SEARCHED:
            return a0, None
        cands = self.candidates(view, dec, a0)
        if len(cands) <= 1:
            return a0, None
        self.searched += 1
        return a0, cands

    def choose(self, view: Any, dec: Decision) -> Any:
        a0, cands = self._to_search(view, dec)
        if cands is None:
            return a0
        seed = self.rng.getrandbits(48)
        counter = [0]
        horizon = self.horizon

        def rollout(w: Game) -> None:
            counter[0] += 1
            _rollout(w, (seed + 7919 * counter[0]) & 0xFFFFFFFFFFFF,
                     None if horizon is None else w.turn + horizon)

        def align(w: Game) -> bool:
            # a world is dealt at this very decision (determinize copies the state), so every candidate is legal
            return w.pending is not None and all(c in w.pending.options for c in cands)

        best, means = search_decision(view, dec.player, cands, iterations=self.iterations, rng=self.rng,
                                      align=align, play=_play, rollout=rollout, score=realms_score)
        if best and means[best] - means[0] < MARGIN:
            best = 0   # a few worlds cannot tell small differences: keep the greedy choice unless clearly worse
        if best:
            self.departed += 1
            self.by_kind[dec.kind] = self.by_kind.get(dec.kind, 0) + 1
        return cands[best]

    # ---- candidates: the greedy choice first --------------------------------------------------------------
    def candidates(self, view: Any, dec: Decision, a0: Any) -> list:
        kind = dec.kind
        out: list = [a0]

        def add(o: Any) -> None:
            if o not in out and len(out) < MAX_CANDIDATES and o in dec.options:
                out.append(o)

        if kind == "actions":
            add((A_DONE,))
            scored = sorted(self.greedy.action_values(view, dec), key=lambda vo: -vo[0])
            for v, o in scored:
                if v > 0.0:
                    add(o)
            return out
        if kind == "attack":
            add((A_DONE,))
            atts = [o for o in dec.options if o[0] == A_ATTACK]
            # the attacks worth trying: the attacker's CV at least the defender's (a tie kills none, 002 §13),
            # the most valuable defenders first
            keyed = []
            for o in atts:
                a_cv = view.cv_as(o[1], 1)
                d_cv = view.cv_as(o[2], 2)
                if a_cv >= d_cv:
                    keyed.append((-sum(card_value(view.card(w)) for w in o[2]), a_cv, o))
            keyed.sort(key=lambda t: (t[0], t[1]))
            for _, _, o in keyed:
                add(o)
            return out
        if kind == "raid":
            add((A_PASS,))
            raids = [o for o in dec.options if o[0] == A_RAID]
            # the largest party on each target and Tactic (R27), the targets worth most VP first
            best: dict = {}
            for o in raids:
                key = (o[1], o[2])
                if key not in best or len(o[3]) > len(best[key][3]):
                    best[key] = o
            for o in sorted(best.values(), key=lambda o: (-view.card(o[1]).cv, o[1], o[2])):
                if view.cv_as(o[3], 3) > view.cv(o[1]):
                    add(o)
            return out
        if kind in ("combat", "raid_mods"):
            add((A_PASS,))
            for o in dec.options:
                if o[0] in (A_PLAY, A_USE):
                    add(o)
            return out
        if kind == "trigger":
            add((A_YES,))
            add((A_NO,))
            return out
        for o in dec.options:
            add(o)
        return out


class ExpertTreePolicy(ExpertPolicy):
    """The realms search player on the engines' shared tree search (`expert-tree`, common/ismcts.py): the same
    searched decisions, candidates, horizon, score and margin as `expert`, and every root candidate played in the
    same worlds (`sweep`), but the play-outs walk one tree over both players' later searched decisions (the
    greedy choice first, the next candidates tried as a node's visits grow), so a reply that punishes a line is
    found rather than assumed greedy."""

    name = "expert-tree"

    def choose(self, view: Any, dec: Decision) -> Any:
        a0, cands = self._to_search(view, dec)
        if cands is None:
            return a0
        key, _stats = tree_search(self._tree_game(view, dec, cands), view, dec.player,
                                  iterations=self.iterations, rng=self.rng, explore=TREE_EXPLORE,
                                  margin=MARGIN, widen=TREE_WIDEN, sweep=True)
        best = key if key in cands else a0
        if best != a0:
            self.departed += 1
            self.by_kind[dec.kind] = self.by_kind.get(dec.kind, 0) + 1
        return best

    def _tree_game(self, view: Any, dec: Decision, root_cands: list) -> TreeGame:
        """The realms game as the tree search sees it from this decision: worlds dealt from the view (at this very
        decision: determinize copies the state), the candidates of every searched decision of either player
        (the greedy choice first; at the root, this decision's own), greedy play between them and on to
        `horizon` turns past this one, scored by `realms_score`."""
        seed = self.rng.getrandbits(48)
        counter = [0]
        planner = GreedyPolicy(self.seed + 1)
        last: list = [None, None]
        g0 = view._g
        turn0 = g0.turn
        hr = None if self.horizon is None else turn0 + self.horizon
        me, kind0, opts0 = dec.player, dec.kind, dec.options
        root = [(a, a) for a in root_cands]
        trails: dict = {}           # id(world) -> the actions played in it since it was dealt

        def candidates(w: Game, d: Decision) -> list | None:
            if last[0] is d:
                return last[1]
            out = None
            if d.player == me and d.kind == kind0 and w.turn == turn0 and d.options == opts0:
                out = root
            elif d.kind in SEARCHED and len(d.options) > 1:
                v = w.view(d.player)
                try:
                    c = self.candidates(v, d, planner.choose(v, d))
                except HiddenCard:
                    # a world may offer a choice among cards the chooser has not seen there (the deal moved
                    # them): the play-out's answer stands
                    c = []
                if len(c) > 1:
                    out = [(a, a) for a in c]
            last[0], last[1] = d, out
            return out

        def deal(v: Any, rng: random.Random) -> Game | None:
            w = v.determinize(rng)
            if w.pending is None:
                return None
            trails[id(w)] = []
            return w

        def copy(w: Game) -> Game:
            c = w.clone()
            trails[id(c)] = list(trails[id(w)])
            return c

        def play(w: Game, a: Any) -> None:
            trails[id(w)].append(a)
            w.apply_action(a)

        def advance(w: Game, tree: bool) -> bool:
            counter[0] += 1
            s = (seed + 7919 * counter[0]) & 0xFFFFFFFFFFFF
            pols = (GreedyPolicy(s), GreedyPolicy(s + 1))
            views = (w.view(0), w.view(1))
            trail = trails[id(w)]
            while not w.over:
                if hr is not None and w.turn > hr:
                    return False
                d = w.pending
                assert d is not None
                if tree and candidates(w, d) is not None:
                    return True
                try:
                    a = pols[d.player].choose(views[d.player], d)
                except HiddenCard:
                    a = d.options[0]
                trail.append(a)
                w.apply_action(a)
            return False

        return TreeGame(deal=deal, candidates=candidates, play=play, advance=advance,
                        evaluate=lambda w, p: realms_score(w, p, w.turn - turn0),
                        history=lambda w: trails[id(w)], copy=copy)


def _budget(name: str, arg: str | None) -> int | None:
    if arg in (None, ""):
        return None
    try:
        n = int(str(arg))
    except ValueError:
        raise ValueError(f"{name}:{arg}: the budget must be a whole number of simulations, e.g. {name}:32") from None
    if not 2 <= n <= 10_000:
        raise ValueError(f"{name}:{arg}: the budget must be from 2 to 10000 simulations per decision")
    return n


def make_expert(seed: int = 0, arg: str | None = None) -> ExpertPolicy:
    """`expert` or `expert:N` (N simulated games per searched decision)."""
    return ExpertPolicy(seed, iterations=_budget("expert", arg))


def make_expert_tree(seed: int = 0, arg: str | None = None) -> ExpertTreePolicy:
    """`expert-tree` or `expert-tree:N` (N play-outs per searched decision)."""
    return ExpertTreePolicy(seed, iterations=_budget("expert-tree", arg))


def policy_name(name: Any) -> str:
    """'expert' for 'expert:24': the policy a setting names."""
    return str(name).split(":", 1)[0]


__all__ = ["DEFAULT_ITERATIONS", "ExpertPolicy", "ExpertTreePolicy", "make_expert", "make_expert_tree", "policy_name",
           "realms_score"]
