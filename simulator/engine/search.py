"""The search player `expert`: determinized Monte Carlo search over the engine's own actions (docs/engine.md,
"The search player").

Two layers, like the rules engine itself:

1. `search_decision` — game-agnostic. It needs only what every engine here has: a pending decision
   (`current_player()`, `legal_actions()`, `apply_action()`), `clone()`, `is_terminal()`, `returns()`, and a
   way to deal the hidden information at random from what the searching player may know (`determinize`).
   It is determinized Monte Carlo search with information-set sampling (the flat, root-level form of ISMCTS;
   Cowling, Powley & Whitehouse 2012, "Information Set Monte Carlo Tree Search"): each iteration deals one
   *world* consistent with the player's information set, plays every candidate in that same world (common
   random numbers: the candidates are compared on identical deals, which removes most of the noise of a
   card game), finishes the game with the rollout policy and scores it. The candidate with the best mean
   wins; ties keep the default policy's choice (candidate 0), so the search only departs from the greedy
   player when the simulations say it pays.
2. `ExpertPolicy` — the r1 adapter: which decisions are worth searching and what the candidates are. It
   searches the decisions that matter (which struggle to start, or none; who defends; which unit dies to
   Combat spoils; which card gets a Sorcery emblem; the quest; the first player) and answers the rest
   directly with the greedy player (one option, pass-only windows, the one-by-one declarations it already
   planned, every minor choice).

The budget is a number of simulated games per searched decision (`expert:N`; default `DEFAULT_ITERATIONS`),
never wall time, so a run gives the same moves on every machine: the worlds are dealt from the policy's own
`random.Random`, seeded from the game's seed stream (play_game's per-player policy seed).

A policy decides only from what its player may know (CONTRACTS §3): every world comes from
`game.view(p).determinize(rng)`, which deals the opponent's hand and secret area and both decks' order again
from the cards that could be there. (An engine without `view` would be searched on clones of the true state;
`EXPERT_REQUIRE_VIEW` makes that an error.)
"""
from __future__ import annotations

import math
import random
from typing import Any, Callable, Sequence

DEFAULT_ITERATIONS = 24     # simulated games per searched decision (expert = expert:24)
MAX_CANDIDATES = 5          # at most this many candidates per searched decision
EXPERT_REQUIRE_VIEW = False


# ---------------------------------------------------------------------------------------------------------
# 1. the game-agnostic search
# ---------------------------------------------------------------------------------------------------------
def world_of(game: Any, player: int, rng: random.Random) -> Any:
    """A copy of `game` in which what `player` cannot see is dealt again at random from what it could be."""
    view = getattr(game, "view", None)
    if view is not None:
        return view(player).determinize(rng)
    if EXPERT_REQUIRE_VIEW:
        raise RuntimeError("this engine has no game.view(p).determinize(rng): the search would see hidden cards")
    return game.clone()


def search_decision(game: Any, player: int, candidates: Sequence[Any], *, iterations: int,
                    rng: random.Random, play: Callable[[Any, Any], None],
                    rollout: Callable[[Any], None], score: Callable[[Any, int], float]) -> tuple[int, list[float]]:
    """Index of the best of `candidates` for `player`, and each one's mean score.

    play(world, candidate) applies a candidate in a world; rollout(world) plays it on (to the end, or to a
    horizon); score(world, player) is the result for `player` in [-1.5, 1.5]. Each iteration deals a world with
    `rng` and plays every candidate in a copy of it; `iterations` counts simulated games, so there are
    iterations // len(candidates) worlds (at least 2).
    """
    n = len(candidates)
    if n <= 1:
        return 0, [0.0] * n
    worlds = max(2, iterations // n)
    totals = [0.0] * n
    for _ in range(worlds):
        wseed = rng.getrandbits(64)
        base = None
        for k, cand in enumerate(candidates):
            if base is None:
                base = world_of(game, player, random.Random(wseed))
                w = base.clone() if k + 1 < n else base
            else:
                w = base.clone() if k + 1 < n else base
            play(w, cand)
            if not w.is_terminal():
                rollout(w)
            totals[k] += score(w, player)
    means = [t / worlds for t in totals]
    best = 0
    for k in range(1, n):
        if means[k] > means[best] + 1e-9:
            best = k
    return best, means


# ---------------------------------------------------------------------------------------------------------
# 2. the r1 adapter
# ---------------------------------------------------------------------------------------------------------
PASS = ("pass",)   # the engine's own action values (game.py)
DONE = ("done",)


def _greedy(seed: int = 0):
    from .policies import GreedyPolicy   # late: policies registers this module
    return GreedyPolicy(seed)


def _rollout_greedy(seed: int):
    from .policies import make_policy
    return make_policy("greedy", seed)


def continue_with(game: Any, pols: list, horizon_round: int | None = None) -> None:
    """Play `game` on from its pending decision with policies `pols` (what play_with does from the start),
    with their fast-path hooks, up to the end of the game or the first decision after round `horizon_round`."""
    game.fast_pass = [getattr(pols[0], "wants_window", None), getattr(pols[1], "wants_window", None)]
    game.ability_filter = [getattr(pols[0], "ability_filter", None), getattr(pols[1], "ability_filter", None)]
    game.declare_hook = [getattr(pols[0], "declare", None), getattr(pols[1], "declare", None)]
    gen = game._gen
    dec = game.pending
    choose = [pols[0].choose, pols[1].choose]
    try:
        while dec is not None:
            if horizon_round is not None and game.round_no > horizon_round:
                break
            game._pcache = {}
            a = choose[dec.player](game, dec)
            game._pcache = None
            dec = gen.send(a)
    except StopIteration:
        dec = None
    game.pending = dec
    if dec is None:
        game.over = True if game.winner is not None or game.over else game.over


def r1_score(game: Any, p: int) -> float:
    """+1 / -1 for a win / loss (0 for a draw), plus a small Influence-margin term that breaks ties between
    lines that end the same way; an unfinished game scores its position (Influence, ready Power, cards)."""
    o = 1 - p
    margin = game.influence(p) - (game.influence(o) if not game.goldfish else 0)
    if game.winner is not None or game.over:
        w = game.winner
        base = 0.0 if w is None else (1.0 if w == p else -1.0)
        return base + 0.02 * max(-15, min(15, margin))
    cdef, exh = game.cdef, game.exh
    ready = [sum(max(game.power(i), 0) for i in game.field[q] if cdef[i].is_unit and not exh[i]) for q in (0, 1)]
    x = margin + 0.25 * (ready[p] - ready[o]) + 0.2 * (len(game.hand[p]) - len(game.hand[o]))
    return math.tanh(x / 6.0)


class ExpertPolicy:
    """The search player (see the module docstring). `iterations`: simulated games per searched decision."""

    name = "expert"

    def __init__(self, seed: int = 0, iterations: int | None = None, horizon: int | None = None):
        self.rng = random.Random(seed ^ 0x5EA4C4)
        self.seed = seed
        self.iterations = DEFAULT_ITERATIONS if iterations is None else int(iterations)
        self.horizon = horizon            # rounds past the current one a rollout plays (None: to the end)
        self.greedy = _greedy(seed)
        self.plan: list = []             # the rest of a declaration it chose (attackers / defenders)
        self.plan_kind = ""
        self.searched = 0                # decisions searched (statistics)
        self._rollouts = 0

    # hooks play_game asks for: the greedy player's, except that expert answers declarations one by one
    def wants_window(self, game, p: int, kind: int) -> bool:
        return self.greedy.wants_window(game, p, kind)

    def ability_filter(self, game, ab, kind: int) -> bool:
        return self.greedy.ability_filter(game, ab, kind)

    # ------------------------------------------------------------------
    def choose(self, game, dec):
        opts = dec.options
        if len(opts) == 1:
            return opts[0]
        kind = dec.kind
        if kind == "defenders" and game.struggle is not None and not game.struggle.defenders:
            self.plan_kind = ""   # a new S.6 declaration: search it afresh
        if kind in ("attackers", "defenders") and self.plan_kind == kind:
            a = self._from_plan(dec)
            if a is not None:
                return a
        cands = self._candidates(game, dec)
        if cands is None or len(cands) <= 1:
            return self._greedy_choice(game, dec)
        self.searched += 1
        me = dec.player
        seed = self.rng.getrandbits(48)
        counter = [0]

        def rollout(w):
            counter[0] += 1
            s = (seed + 7919 * counter[0]) & 0xFFFFFFFFFFFF
            hr = None if self.horizon is None else w.round_no + self.horizon
            continue_with(w, [_rollout_greedy(s), _rollout_greedy(s + 1)], hr)

        best, _means = search_decision(game, me, [c[1] for c in cands], iterations=self.iterations,
                                       rng=self.rng, play=_play_macro, rollout=rollout, score=r1_score)
        first, rest = cands[best][1][0], list(cands[best][1][1:])
        self.plan = rest
        self.plan_kind = cands[best][0] if rest else ""
        return first

    def _from_plan(self, dec):
        while self.plan:
            a = self.plan.pop(0)
            if a in dec.options:
                return a
        self.plan_kind = ""
        return DONE if DONE in dec.options else None

    def _greedy_choice(self, game, dec):
        a = self.greedy.choose(game, dec)
        return a

    # candidates: (plan kind, macro = [first action, follow-up actions of the same declaration ...])
    def _candidates(self, game, dec) -> list | None:
        kind = dec.kind
        p = dec.player
        if kind == "window":
            if dec.info != 3 or game.struggle is not None:
                return None
            types = [o[1] for o in dec.options if isinstance(o, tuple) and o[0] == "struggle"]
            if not types:
                return None
            out: list = []
            seen = set()
            g = _greedy(self.seed)
            a0 = g.choose(game, dec)
            if a0[0] == "struggle" if isinstance(a0, tuple) else False:
                macro = [a0] + [("attacker", i) for i in g.attack_plan] + [DONE]
            else:
                macro = [a0]
            out.append(("attackers", macro))
            seen.add(_key(macro))
            for t in types:
                for units in self._attack_sets(game, p, t):
                    macro = [("struggle", t)] + [("attacker", i) for i in units] + [DONE]
                    if _key(macro) not in seen:
                        seen.add(_key(macro))
                        out.append(("attackers", macro))
            if PASS in dec.options and _key([PASS]) not in seen:
                out.append(("", [PASS]))
            return out[:MAX_CANDIDATES + 1]
        if kind == "defenders":
            s = game.struggle
            if s is None or s.defenders:
                return None
            elig = [o[1] for o in dec.options if o != DONE]
            g = _greedy(self.seed)
            plan = g._defence_plan(game, p, list(elig))
            sets = [plan, []]
            pw = {i: max(game.power(i), 0) for i in elig}
            withp = sorted((i for i in elig if pw[i] > 0), key=lambda i: (pw[i], i))
            if withp:
                sets.append([withp[0]])
                att, _ = game.struggle_totals(s)
                run, win = 0, []
                for i in sorted(withp, key=lambda i: -pw[i]):
                    if run > att:
                        break
                    win.append(i)
                    run += pw[i]
                if run > att:
                    sets.append(win)
                sets.append(withp)
            out = []
            seen = set()
            for st in sets:
                k = tuple(sorted(st))
                if k in seen:
                    continue
                seen.add(k)
                out.append(("defenders", [("defender", i) for i in st] + [DONE]))
            return out[:MAX_CANDIDATES]
        if kind in ("kill_own", "emblem", "first_player", "quest"):
            opts = list(dec.options)
            a0 = self.greedy.choose(game, dec)
            opts.sort(key=lambda o: o != a0)
            return [("", [o]) for o in opts[:MAX_CANDIDATES]]
        return None

    @staticmethod
    def _attack_sets(game, p: int, t: int) -> list[list[int]]:
        """Attackers worth trying for a struggle of type t: the greedy planner's pick for t alone, and every
        ready unit bearing the icon (the all-in line), when those differ."""
        g = _greedy(0)
        out = []
        if g._plan_struggle(game, p, [t]) == t and g.attack_plan:
            out.append(list(g.attack_plan))
        ready = [i for i in game._eligible_attackers(p, t)] if hasattr(game, "_eligible_attackers") else []
        if ready and (not out or sorted(out[0]) != sorted(ready)):
            out.append(ready)
        return out


def _key(macro: list) -> tuple:
    first = macro[0]
    rest = tuple(sorted(str(a) for a in macro[1:]))
    return (first,) + rest


def _play_macro(w, macro: list) -> None:
    """Apply a macro in world w: its first action, then each follow-up while it is an option of a decision of
    the same declaration (the rest of the game is the rollout's)."""
    w.apply_action(macro[0])
    p = None
    for a in macro[1:]:
        dec = w.pending
        if dec is None:
            return
        if dec.kind not in ("attackers", "defenders"):
            # windows of the declaration (S.4-S.5) may come first; the greedy player passes them for us
            return
        if a in dec.options:
            w.apply_action(a)
        elif DONE in dec.options:
            w.apply_action(DONE)
            return
    del p


def make_expert(seed: int = 0, arg: str | None = None) -> ExpertPolicy:
    """`expert` or `expert:N` (N simulated games per searched decision)."""
    if arg in (None, ""):
        return ExpertPolicy(seed)
    try:
        n = int(arg)
    except ValueError:
        raise ValueError(f"expert:{arg}: the budget must be a whole number of simulations, e.g. expert:24") from None
    if not 2 <= n <= 10_000:
        raise ValueError(f"expert:{arg}: the budget must be from 2 to 10000 simulations per decision")
    return ExpertPolicy(seed, iterations=n)
