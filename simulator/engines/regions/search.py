"""The search player of Heroes and Regions: determinized flat Monte Carlo over the engine's own actions, with a
strategy as its default and its rollouts (docs/games/regions.md, "The search player").

It plugs into the policy interface (simulator/engines/common/protocol.py) and reuses the engines' shared
game-agnostic search, `simulator.engines.common.search.search_decision`: each iteration deals one *world* consistent
with what the player may know (`PlayerView.determinize`: the Market Deck order, the other players' Hands,
Pockets and Decks pooled and dealt again, its own Deck order below the cards everyone knows are on top), plays
every candidate in that same world (common random numbers), finishes the game with strategy rollouts and scores
it. The candidate with the best mean wins; ties keep the strategy's own choice (candidate 0), so the search
departs from its strategy only when the simulations say it pays.

What it searches: every Purchase decision where the strategy would buy or stop (which pile, or nothing), and
every Position or Contest decision where it would place a card or stop (which Region, or not at all). The rest
(Pocket, Hand abilities, targets, "may" abilities, trash) it answers with its strategy.

Rollouts: the searching player plays its own strategy; every other player plays `OPPONENT_MODEL` (the shipped
Big Money, with that player's own Hero): the searcher does not know the others' strategies, only the board.

The budget is a number of simulated games per searched decision (`search:N`, default `DEFAULT_ITERATIONS`), never
wall time, and the worlds come from the policy's own `random.Random` seeded from the game's per-player policy
seed, so the same seed gives the same moves on every machine.
"""
from __future__ import annotations

import random

from .game import A_BUY, A_PLACE, DONE, N_STANDING, Decision, Game
from .state import WINDOW_KINDS
from .view import PlayerView
from .policies import MAX_BUYS, StrategyPolicy
from .strategy import Strategy

DEFAULT_ITERATIONS = 24     # simulated games per searched decision (search = search:24)
MAX_CANDIDATES = 5          # at most this many candidates per searched decision
MIN_ITERATIONS, MAX_ITERATIONS = 2, 10_000
OPPONENT_MODEL = "big-money"
SEARCHED = ("purchase", "position", "contest")
TREE_EXPLORE = 0.7          # `search-tree`: UCB's exploration constant below the root, for scores in [-1.2, 1.2]
TREE_WIDEN = 0.5            # ... and its progressive widening there (common/ismcts.py `search`)
KINDS = ("search", "search-tree")


def parse_policy(name: str | None) -> tuple[str, int | None]:
    """("strategy" | "random" | "search" | "search-tree", budget) from a policy name: `strategy`, `random`,
    `search`, `search:N`, `search-tree`, `search-tree:N`. Raises ValueError naming what is wrong.

    >>> parse_policy("search:8"), parse_policy("search"), parse_policy(None), parse_policy("search-tree")
    (('search', 8), ('search', 24), ('strategy', None), ('search-tree', 24))
    """
    if name in (None, "", "strategy"):
        return "strategy", None
    if name == "random":
        return "random", None
    known = "'strategy' (default), 'random', 'search', 'search:N', 'search-tree' or 'search-tree:N'"
    if not isinstance(name, str):
        raise ValueError(f"unknown policy {name!r}: {known}")
    base, sep, arg = name.partition(":")
    if base not in KINDS:
        raise ValueError(f"unknown policy {name!r}: {known}")
    if not sep:
        return base, DEFAULT_ITERATIONS
    try:
        n = int(arg)
    except ValueError:
        raise ValueError(f"{name}: the budget must be a whole number of simulated games, e.g. {base}:24") from None
    if not MIN_ITERATIONS <= n <= MAX_ITERATIONS:
        raise ValueError(f"{name}: the budget must be from {MIN_ITERATIONS} to {MAX_ITERATIONS} simulated games "
                         "per decision")
    return base, n


def regions_score(game: Game, p: int, steps: int = 0) -> float:
    """+1 / -1 for a win / loss (0 for a shared win), plus the Recognition margin at up to 0.2 to tell lines
    apart that end the same way. A game stopped at the turn limit scores the same way (the engine ranks it)."""
    others = [game.score(q) for q in range(game.n) if q != p]
    margin = game.score(p) - max(others)
    small = 0.02 * max(-10, min(10, margin))
    if not game.over:
        return small
    if len(game.winners) == 1:
        return (1.0 if game.winners[0] == p else -1.0) + small
    return (0.0 if p in game.winners else -1.0) + small


class SearchPolicy:
    """The search player over a strategy (see the module docstring). `iterations`: simulated games per searched
    decision."""

    def __init__(self, strategy: Strategy, seed: int = 0, iterations: int | None = None,
                 opponent_model: Strategy | None = None, tree: bool = False):
        self.strategy = strategy
        self.iterations = DEFAULT_ITERATIONS if iterations is None else int(iterations)
        self.tree = tree
        self.name = f"{KINDS[tree]}:{self.iterations}:{strategy.name}"
        self.rng = random.Random(seed ^ 0x5EA4C4)
        self.base = StrategyPolicy(strategy, seed)
        if opponent_model is None:
            from . import shipped_strategy
            opponent_model = shipped_strategy(OPPONENT_MODEL, strategy.cardset)
        self.model = opponent_model
        self.searched = 0           # decisions searched (statistics)
        self.departed = 0           # ... where it chose otherwise than its strategy

    # the protocol ---------------------------------------------------------------------------------------------
    def choose(self, view, decision: Decision):
        return self.act(view, decision)

    def skip(self, v: PlayerView, kind: str, p: int) -> bool:
        return self.base.skip(v, kind, p)

    def act(self, v: PlayerView | Game, d: Decision):
        """The answer to `d` from the player's view (given a game, its view of it): its worlds are the view's
        determinizations."""
        if isinstance(v, Game):
            v = v.view(d.player)
        if d.kind not in SEARCHED:
            return self.base.act(v, d)
        probe = self.base.clone()
        a0 = probe.act(v, d)
        cands = self._candidates(v, d, a0)
        if len(cands) <= 1:
            self.base = probe
            return a0
        self.searched += 1
        best = self._tree_search(v, d, cands, probe) if self.tree else self._search(v, d, cands)
        if best == 0:
            self.base = probe       # the strategy's own choice: keep its memory of this phase
        else:
            self.departed += 1
        return cands[best]

    # candidates ---------------------------------------------------------------------------------------------
    def _candidates(self, v: PlayerView, d: Decision, a0) -> list:
        """The strategy's choice first, then the alternatives worth a look (at most MAX_CANDIDATES in all)."""
        if not isinstance(a0, tuple) or a0[0] not in (A_BUY, A_PLACE, DONE[0]):
            return [a0]            # playing Supplies, using an ability: the strategy's business
        opts = d.options
        out = [a0]
        if d.kind == "purchase":
            buys = [o for o in opts if o[0] == A_BUY]
            if not buys or v.bought[d.player] >= MAX_BUYS:
                # past the strategies' cap on buys a phase only its own choice: Goods costs nothing and its pile
                # never runs out, so a search that kept finding one more Goods as good as stopping bought without
                # end (a search player on both sides stalled so)
                return out
            # the dearest distinct cards first (two piles with the same top card are one candidate)
            seen = {self._card(v, a0).index} if a0[0] == A_BUY else set()
            buys.sort(key=lambda o: (-self._card(v, o).cost, o[1]))
            if a0 != DONE:
                out.append(DONE)
            for o in buys:
                c = self._card(v, o)
                if c.index in seen:
                    continue
                seen.add(c.index)
                out.append(o)
                if len(out) >= MAX_CANDIDATES:
                    break
            return out
        places = [o for o in opts if o[0] == A_PLACE]
        if not places:
            return out
        if a0 != DONE:
            out.append(DONE)
            card = a0[1]
        else:
            card = places[0][1]
        # the same card at the other Regions, nearest the Market first
        for o in places:
            if o[1] == card and o not in out:
                out.append(o)
                if len(out) >= MAX_CANDIDATES:
                    break
        return out

    @staticmethod
    def _card(v: PlayerView, a):
        k = a[1]
        return v.standing[k] if k < N_STANDING else v.mpiles[k - N_STANDING][-1]

    # the search ---------------------------------------------------------------------------------------------
    def _search(self, v: PlayerView, d: Decision, cands: list) -> int:
        from simulator.engines.common.search import search_decision

        me = d.player
        seed = self.rng.getrandbits(48)
        counter = [0]
        base = self.base

        def play(w: Game, cand) -> None:
            w.apply_action(cand)

        def rollout(w: Game) -> None:
            counter[0] += 1
            s = (seed + 7919 * counter[0]) & 0xFFFFFFFFFFFF
            pols: list = [StrategyPolicy(self.model, s + q) for q in range(w.n)]
            pols[me] = base.clone()
            w.play([pol.act for pol in pols], [pol.skip for pol in pols])

        def align(w: Game) -> bool:
            return w.pending is not None and w.pending.player == me and w.pending.kind == d.kind

        best, _means = search_decision(v, me, cands, iterations=self.iterations, rng=self.rng,
                                       align=align, play=play, rollout=rollout, score=regions_score)
        return best


    def _tree_search(self, v: PlayerView, d: Decision, cands: list, probe: StrategyPolicy) -> int:
        """The index of the best of `cands` by the engines' shared tree search (common/ismcts.py): every
        candidate played in the same worlds (`sweep`), then one tree over this player's later searched
        decisions (the strategy's choice first, the next candidates tried as a node's visits grow), the others
        playing `OPPONENT_MODEL`, each play-out to the end of the game."""
        from simulator.engines.common.ismcts import TreeGame, search as tree_search

        me = d.player
        seed = self.rng.getrandbits(48)
        counter = [0]
        model = self.model
        base = self.base
        # per world (by id, while it is being played): this player's strategy with its memory of the phase, the
        # actions played since the deal (the tree's keys), and whether it still waits at the searched decision
        mem: dict = {}
        trails: dict = {}
        at_root: set = set()
        root = [(a, (a, probe if k == 0 else None)) for k, a in enumerate(cands)]
        last: list = [None, None]        # the decision the last stop computed candidates for, and them

        def mine(w: Game, dd: Decision) -> list:
            pr = mem[id(w)].clone()
            vv = w.view(me)
            a0 = pr.act(vv, dd)
            c = self._candidates(vv, dd, a0)
            return [(a, (a, pr if k == 0 else None)) for k, a in enumerate(c)]

        def candidates(w: Game, dd: Decision) -> list | None:
            if id(w) in at_root:
                return root
            if last[0] is dd:
                return last[1]
            out = None
            if dd.player == me and dd.kind in SEARCHED:
                out = mine(w, dd)
                if len(out) < 2:
                    out = None
            last[0], last[1] = dd, out
            return out

        def deal(vv: PlayerView, rng: random.Random) -> Game | None:
            w = vv.determinize(rng)
            pd = w.pending
            if pd is None or pd.player != me or pd.kind != d.kind:
                return None
            mem[id(w)], trails[id(w)] = base.clone(), []
            at_root.add(id(w))
            return w

        def copy(w: Game) -> Game:
            c = w.clone()
            mem[id(c)], trails[id(c)] = mem[id(w)].clone(), list(trails[id(w)])
            if id(w) in at_root:
                at_root.add(id(c))
            return c

        def play(w: Game, macro) -> None:
            a, pr = macro
            at_root.discard(id(w))
            if pr is not None:
                mem[id(w)] = pr.clone()    # the strategy's own choice: its memory of this phase goes on
            trails[id(w)].append(a)
            w.apply_action(a)

        def advance(w: Game, tree: bool) -> bool:
            """Play on with the strategies (this player's with its memory, the others `model`): to the end, or
            with `tree` to this player's next decision the tree searches (True)."""
            counter[0] += 1
            s = (seed + 7919 * counter[0]) & 0xFFFFFFFFFFFF
            pols: list = [StrategyPolicy(model, s + q) for q in range(w.n)]
            own = mem[id(w)]
            pols[me] = own
            skips = [pol.skip for pol in pols]
            trail = trails[id(w)]
            apply = w._apply
            w.skip = skips
            try:
                dd = w.pending
                if dd is not None and dd.kind in WINDOW_KINDS and skips[dd.player](w.view(dd.player), dd.kind,
                                                                                   dd.player):
                    w.pending = None
                    w._window_done(dd.player)
                    w._run()
                while w.pending is not None:
                    dd = w.pending
                    if tree and dd.player == me and candidates(w, dd) is not None:
                        return True
                    a = pols[dd.player].act(w.view(dd.player), dd)
                    trail.append(a)
                    apply(a)
            finally:
                w.skip = None
            return False

        def score(w: Game, p: int) -> float:
            for t in (mem, trails):
                t.pop(id(w), None)
            at_root.discard(id(w))
            return regions_score(w, p)

        game = TreeGame(deal=deal, candidates=candidates, play=play, advance=advance, evaluate=score,
                        history=lambda w: trails[id(w)], copy=copy)
        key, _stats = tree_search(game, v, me, iterations=self.iterations, rng=self.rng, explore=TREE_EXPLORE,
                                  widen=TREE_WIDEN, sweep=True)
        return cands.index(key) if key in cands else 0


def make_search(strategy: Strategy, seed: int = 0, name: str | None = "search") -> SearchPolicy:
    """The search player for `search` or `search:N` (the flat search) or `search-tree` or `search-tree:N` (the
    tree search) over `strategy`."""
    kind, n = parse_policy(name)
    if kind not in KINDS:
        raise ValueError(f"{name!r} is not the search player")
    return SearchPolicy(strategy, seed, n, tree=kind == "search-tree")
