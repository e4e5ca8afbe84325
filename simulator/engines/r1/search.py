"""The search player `expert`: information-set Monte Carlo tree search over the engine's own actions
(docs/engine.md, "The search player").

Two layers:

1. `simulator/engines/common/ismcts.py` — the engine-agnostic tree search every game's search player can share,
   written over the engine protocol only. Here it deals its worlds with `world_of` (`view.determinize`'s cheap
   deal into a copy of the current step's start, giving up after `DEAL_TRIES` deals that do not replay or wait at
   another decision, deals kept from earlier decisions tried first; for a game loaded from a position, that
   position dealt again) and keeps its tree between the decisions of a game.
2. `ExpertPolicy` — the r1 adapter: which decisions are worth searching and what the candidates are, for either
   player inside the tree (which struggle to start and with whom, or none; who defends; the Subtle bar; which
   unit dies to Combat spoils; which card gets a Sorcery emblem; the quest; the first player), greedy play
   between them and to the end of the round, and the position then scored by `evaluation.evaluate`. Everything
   else is the greedy player's answer, at once (one option, pass-only windows, the one-by-one declarations it
   already planned, every minor choice).

The budget is a number of worlds per searched decision (`expert:N`; default `DEFAULT_ITERATIONS`), never wall
time, so a run gives the same moves on every machine: the worlds are dealt from the policy's own
`random.Random`, seeded from the game's seed stream (play_game's per-player policy seed).

A policy decides only from what its player may know (CONTRACTS §3): it is handed the engine's `PlayerView`,
never the Game, and every world comes from dealing again the cards the player has not seen (its own deck order;
the opponent's unseen hand, secret area and deck) and replaying the current step's recorded choices on that deal.
`search_decision` (the flat search, common/search.py) stays importable from here for the tests of the common core.
"""
from __future__ import annotations

import math
import random
from typing import Any, Sequence

from simulator.engines.common.ismcts import Tree, TreeGame, search as tree_search
from simulator.engines.common.search import search_decision
from simulator.engines.common.shuffle import fisher_yates

from .evaluation import evaluate

DEFAULT_ITERATIONS = 24     # worlds dealt per searched decision (expert = expert:24)
DEFAULT_HORIZON = 0         # play-outs stop at the end of the round the decision is in (+ this many rounds)
MAX_CANDIDATES = 5          # at most this many candidates per searched decision
DEAL_TRIES = 3              # deals tried per world before the iteration is given up (each costs a replay)
# the decisions that get the whole budget: the struggles and the defences; the quest, the first player, Combat
# spoils' kill and the Sorcery emblem get half (their candidates are few and seldom close)
MAJOR = frozenset(("window", "defenders"))
LONG = frozenset(("kill_own", "emblem"))   # decisions whose play-outs run LONG_ROUNDS rounds longer
LONG_ROUNDS = 3
PER_CANDIDATE = 4           # ... and at most this many worlds per candidate of the decision
POOLED = 32                 # deals kept from earlier decisions
WIDEN = 0.5                 # progressive widening below the root (common/ismcts.py `search`)
EXPLORE = 0.7               # UCB's exploration constant, for scores in [-1, 1]
SEARCHED = frozenset(("window", "defenders", "kill_own", "emblem", "first_player", "quest", "subtle"))


# ---------------------------------------------------------------------------------------------------------
# 1. the game-agnostic search
# ---------------------------------------------------------------------------------------------------------
# Games loaded from a position (CONTRACTS §6) do not start from §4 setup, so the engine's clone() and
# determinize(), which replay a game's choices from its seed, cannot copy them yet: such a game is registered
# here with its position (load_position) and copied by loading that position again and replaying the choices
# made since. id(game) -> (position, catalogue); games are dropped from it when `forget` is called or the
# table grows large.
_ORIGINS: dict[int, tuple] = {}


def load_position(position: dict, catalogue: Any, **kw) -> Any:
    """from_position(position, catalogue) for a game the search player will be asked about."""
    from .positions import from_position
    g = from_position(position, catalogue, **kw)
    _remember(g, position, catalogue)
    return g


def _remember(g: Any, position: dict, catalogue: Any) -> None:
    if len(_ORIGINS) > 5000:
        _ORIGINS.clear()
    _ORIGINS[id(g)] = (g, position, catalogue)


def forget(g: Any) -> None:
    _ORIGINS.pop(id(g), None)


def _from_origin(position: dict, catalogue: Any, history: list, reseeds: Sequence = ()) -> Any:
    """The position loaded again with the choices of `history` replayed (the engine's own replay loop), its
    random stream seeded again where `reseeds` says (Game.reseed)."""
    from .positions import from_position
    g = from_position(position, catalogue, advance=False)
    g._replay_choices(history, list(reseeds))
    _remember(g, position, catalogue)
    return g


def copy_game(g: Any) -> Any:
    """g.clone(), also for a game loaded with load_position."""
    o = _ORIGINS.get(id(g))
    if o is not None and o[0] is g and getattr(g, "origin", None) is None:
        return _from_origin(o[1], o[2], list(g.history), g.reseeds)
    return g.clone()


def _dealt_position(position: dict, me: int, rng: random.Random) -> dict:
    """The position with what player `me` cannot see dealt again: its own deck order, and the opponent's hand,
    secret area and deck shuffled together (sizes kept)."""
    import copy
    pos = copy.deepcopy(position)
    players = pos.get("players", [])
    if me < len(players):
        deck = list(players[me].get("deck", []))
        fisher_yates(rng, deck)
        players[me]["deck"] = deck
    q = 1 - me
    if q < len(players) and players[q].get("faction"):
        pl = players[q]
        zones = [(z, len(pl.get(z, []))) for z in ("hand", "secret", "deck")]
        pool = [c for z, _ in zones for c in pl.get(z, [])]
        fisher_yates(rng, pool)
        k = 0
        for z, n in zones:
            pl[z] = pool[k:k + n]
            k += n
    return pos


def _dealt(view: Any, rng: random.Random, tries: int, pool: list | None = None, dec: Any = None,
           prep: dict | None = None) -> Any:
    """The engine's `view.determinize(rng)` (PlayerView.determinize: the unseen cards dealt again at random into a
    copy of the state at the start of the current step, the choices made since in this step replayed on the
    deal), giving up after `tries` deals on which a recorded choice is no longer legal or the world would wait at
    another decision than `dec`, the decision the player is asked (default: the game's pending one), as the
    player sees it (`_same_decision`): None then. The engine's own last resorts (deal
    only the decks, then nothing) would show the searcher the opponent's real hand.

    `pool`: deals that were accepted at this player's earlier decisions (a list the caller keeps; the successful
    deal is appended). The first one is tried first, with every card the player has seen since given back its
    real identity: a deal consistent with what was known then and with what was seen since is as good a sample
    of the hidden cards as a fresh one (rejection sampling), and it seldom fails, where a fresh deal fails
    more often (a recorded Secret placement or a card taken from the top of a deck rarely fits a random deal).

    `prep`: a dict the caller keeps for the deals of one view at one decision (one search): what every deal
    there starts from (the unseen groups, the card map, the step's snapshot) is worked out once into it."""
    from .state import IllegalAction, fisher_yates as shuffle
    from .view import _dealt as dealt_into
    g = view._g
    if dec is None:
        dec = g.pending
    if prep:
        groups, base, where, snap = prep["groups"], prep["base"], prep["where"], prep["snap"]
    else:
        groups = [[i for i in grp if i < g.printed] for grp in view.unseen_groups()]
        if dec is not None and dec.player == view.player:
            # the cards its own decision names are known to it (the card a Scout looks at, 000 §9.3)
            named = {x for o in dec.options if type(o) is tuple for x in o if type(x) is int}
            groups = [[i for i in grp if i not in named] for grp in groups]
        base = list(g.card_map) if g.card_map is not None else list(range(g.printed))
        where = {c: j for j, c in enumerate(base)}
        snap = g._snapshot()
        if prep is not None:
            prep.update(groups=groups, base=base, where=where, snap=snap)
    attempts = 0
    while attempts < tries:
        if pool:
            cards = _known_fixed(pool.pop(0), base, groups)
        else:
            attempts += 1
            cards = list(base)
            for grp in groups:
                dealt = list(grp)
                shuffle(rng, dealt)
                for i, j in zip(grp, dealt):
                    cards[i] = base[j]
        # the deal as the engine's cheap copy takes it: card id i becomes the card id j was (cards[i] = base[j]),
        # dealt into a copy of the step's snapshot instead of a replay of the whole game from its seed
        pairs = [(i, where[c]) for i, c, b in zip(range(len(cards)), cards, base) if c != b]
        try:
            out = g._resumed(dealt_into(snap, pairs), False)
        except IllegalAction:
            continue
        if pairs and not _same_decision(g, view.player, dec, out.pending):
            continue
        out.reseed(int(rng.random() * 281474976710656))
        if pool is not None:
            pool.append(cards)
        return out
    return None


def _same_decision(g: Any, me: int, a: Any, b: Any) -> bool:
    """PlayerView._same_decision for decision `a` (a policy asked from inside play_game, the game's `pending` is
    not set): whether a world waiting at `b` waits at `a` as player `me` sees it, the same kind and player, and
    for its own decision the same options (where the game's policy filters the options of its windows, the
    world, which has no policy, offers those and maybe more)."""
    if a is None or b is None:
        return a is b
    if a.kind != b.kind or a.player != b.player:
        return False
    if a.player != me or a.options == b.options:
        return True
    if g.ability_filter[a.player] is None:
        return False
    return all(o in b.options for o in a.options)


def _known_fixed(cards: list, base: list, groups: list) -> list:
    """`cards` with every card id outside the unseen `groups` given back its real identity `base[i]` (swapped
    with the id that held it, so the deal stays a permutation)."""
    if len(cards) != len(base):
        return list(base)
    cards = list(cards)
    unseen = set()
    for grp in groups:
        unseen.update(grp)
    where = {c: i for i, c in enumerate(cards)}
    for i, want in enumerate(base):
        if i in unseen or cards[i] == want:
            continue
        j = where[want]
        cards[i], cards[j] = want, cards[i]
        where[want], where[cards[j]] = i, j
    return cards


def world_of(view: Any, rng: random.Random, tries: int | None = None, pool: list | None = None,
             dec: Any = None, prep: dict | None = None) -> Any:
    """A whole game consistent with what the view's player knows: what it cannot see is dealt again at random
    from what it could be (the engine's `view.determinize(rng)`; for a loaded position, the position dealt
    again and the choices since replayed, or, when a choice no longer applies on a deal, the position as it is).
    With `tries`, None when that many deals all fail (`_dealt`; `dec`: the decision the player is asked)."""
    g = getattr(view, "_g", None)
    o = _ORIGINS.get(id(g)) if g is not None else None
    if o is None or o[0] is not g or getattr(g, "origin", None) is not None:
        if tries is not None and g is not None and getattr(g, "origin", None) is None:
            return _dealt(view, rng, tries, pool, dec, prep)
        return view.determinize(rng)   # the engine copies a loaded position itself (Game.origin)
    from .game import IllegalAction
    for attempt in range(11):
        pos = _dealt_position(o[1], view.player, rng) if attempt < 10 else o[1]
        try:
            w = _from_origin(pos, o[2], list(g.history), g.reseeds)
        except (IllegalAction, ValueError):
            continue
        w.reseed(int(rng.random() * 281474976710656))   # the random events from here on: this world's own
        return w
    raise AssertionError("unreachable: the position as it is always replays")


# ---------------------------------------------------------------------------------------------------------
# 2. the r1 adapter
# ---------------------------------------------------------------------------------------------------------
PASS = ("pass",)   # the engine's own action values (game.py)
DONE = ("done",)


_GREEDY: list = []   # the greedy player's class, imported late (policies registers this module)


def _greedy_class() -> Any:
    if not _GREEDY:
        from .policies import GreedyPolicy
        _GREEDY.append(GreedyPolicy)
    return _GREEDY[0]


def _greedy(seed: int = 0):
    return _greedy_class()(seed)


def _rollout_greedy(seed: int):
    return _greedy_class()(seed)


def continue_with(game: Any, pols: list, horizon_round: int | None = None) -> None:
    """Play `game` on from its pending decision with the policies `pols` (and their shortcuts), to the end of
    the game or to the first decision after round `horizon_round`."""
    game._set_policies(pols)
    if horizon_round is None:
        game.play()
    else:
        game.play(stop=lambda g, d: g.round_no > horizon_round)


def r1_score(game: Any, p: int, steps: int = 0) -> float:
    """+1 / -1 for a win / loss (0 for a draw), plus small terms that break ties between lines that end the
    same way: a sooner win (a later loss) is worth up to 0.25 more, since the rollout player's mistakes make
    slow lines look safer than they are, and the Influence margin up to 0.15. An unfinished game scores its
    position (Influence, ready Power, cards)."""
    o = 1 - p
    margin = game.influence(p) - (game.influence(o) if not game.goldfish else 0)
    if game.winner is not None or game.pending is None:
        w = game.winner
        if w is None:
            return 0.01 * max(-15, min(15, margin))
        soon = 0.25 * 0.97 ** max(steps, 0)
        base = 1.0 + soon if w == p else -1.0 - soon
        return base + 0.01 * max(-15, min(15, margin))
    cdef, exh = game.cdef, game.exh
    ready = [sum(max(game.power(i), 0) for i in game.field[q] if cdef[i].is_unit and not exh[i]) for q in (0, 1)]
    x = margin + 0.25 * (ready[p] - ready[o]) + 0.2 * (len(game.hand[p]) - len(game.hand[o]))
    return math.tanh(x / 6.0)


class ExpertPolicy:
    """The search player (see the module docstring). `iterations`: worlds dealt per searched decision;
    `horizon`: rounds past the current one a play-out runs before the evaluation scores it (0: to the end of
    this round)."""

    name = "expert"
    decided = True       # stop a search once its answer is settled (common/ismcts.py `search`)
    max_depth: int | None = None   # searched decisions deep in the tree (common/ismcts.py `search`)
    credit = True        # the root's visits kept from the previous search count towards the budget

    def __init__(self, seed: int = 0, iterations: int | None = None, horizon: int | None = None,
                 per_candidate: int | None = None):
        self.rng = random.Random(seed ^ 0x5EA4C4)
        self.seed = seed
        self.iterations = DEFAULT_ITERATIONS if iterations is None else int(iterations)
        self.horizon = DEFAULT_HORIZON if horizon is None else int(horizon)
        self.per_candidate = PER_CANDIDATE if per_candidate is None else int(per_candidate)
        self.greedy = _greedy(seed)
        self.plan: list = []             # the rest of a declaration it chose (attackers / defenders)
        self.plan_kind = ""
        self.searched = 0                # decisions searched (statistics)
        self.reused = 0                  # ... of which started from a subtree of the previous search
        self.by_kind: dict[str, int] = {}   # ... by decision kind
        self.worlds = 0                  # worlds dealt for them (statistics)
        self.tree = Tree()
        self._owner: Any = None          # the game the tree belongs to
        self._deals: list = []           # deals that replayed at its earlier decisions (_dealt)

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
        cands = self._candidates(game, dec, self.greedy)
        if cands is None or len(cands) <= 1:
            return self._greedy_choice(game, dec)
        self.searched += 1
        self.by_kind[kind] = self.by_kind.get(kind, 0) + 1
        me = dec.player
        real = getattr(game, "_g", None)
        hist = getattr(real, "history", None)
        owner = (id(real), getattr(real, "seed", None))
        if hist is None or owner != self._owner:
            self.tree, self._owner = Tree(), owner
            self._deals = []
        del self._deals[:-POOLED]
        if hist is not None and self.tree.advance(hist):
            self.reused += 1
        n = self.iterations if kind in MAJOR else max(2, self.iterations // 2)
        # fewer candidates need fewer worlds to tell apart; and where few candidates are close, the choice
        # between them matters less
        n = max(2, min(n, self.per_candidate * len(cands)))
        if self.credit:
            # a kept subtree's root visits were spent on this very decision, in worlds dealt from what the player
            # knew a moment ago: they count towards its budget
            n = max(2, n - sum(st[0] for st in self.tree.root.stats.values()))
        key, _stats = tree_search(self._tree_game(game, dec, me), game, me, iterations=n,
                                  rng=self.rng, tree=self.tree, explore=EXPLORE, widen=WIDEN,
                                  decided=self.decided, max_depth=self.max_depth)
        by_key = {_key(m): (k, m) for k, m in cands}
        plan_kind, macro = by_key.get(key, cands[0])
        self.plan = list(macro[1:])
        self.plan_kind = plan_kind if self.plan else ""
        return macro[0]

    def _tree_game(self, view: Any, dec: Any, me: int) -> TreeGame:
        """The r1 game as the tree search sees it from this decision: worlds dealt from the view and played on to
        this decision, the candidates of every searched decision of either player, greedy play between them and
        to the end of the round (or `horizon` rounds later), scored by `evaluate`."""
        seed = self.rng.getrandbits(48)
        counter = [0, 0]
        prep: dict = {}               # what every deal of this search starts from (_dealt)
        last: list = [None, None]     # the decision the last stop computed candidates for, and them
        planner = _greedy(self.seed)
        dkind, dinfo = dec.kind, dec.info
        # a unit lost to Combat spoils or a card blanked by Sorcery counts for the rest of the game, more than the
        # evaluation at the end of a round can tell (it weighs Influence most): those play-outs run to the end
        hr = view.round_no + (self.horizon if dkind not in LONG else LONG_ROUNDS)

        def candidates(w: Any, d: Any) -> list | None:
            if last[0] is d:
                return last[1]
            if d.kind not in SEARCHED or len(d.options) < 2:
                return None
            c = self._candidates(w.view(d.player), d, planner)
            out = [(_key(m), (k, m)) for k, m in c] if c is not None and len(c) > 1 else None
            last[0], last[1] = d, out
            return out

        def at_decision(g: Any, d: Any) -> bool:
            return d.player == me and d.kind == dkind and (dkind != "window" or d.info == dinfo)

        def deal(v: Any, rng: random.Random) -> Any:
            w = world_of(v, rng, DEAL_TRIES, self._deals if counter[1] % 2 == 0 else None, dec, prep)
            counter[1] += 1
            self.worlds += 1
            if w is None or w.pending is None:
                return None
            if not at_decision(w, w.pending):
                w._set_policies(_plain_pair(me, seed))
                w.play(stop=at_decision)
                w._set_policies((None, None))
                if w.pending is None:
                    return None
            return w

        def advance(w: Any, tree: bool) -> bool:
            counter[0] += 1
            s = (seed + 7919 * counter[0]) & 0xFFFFFFFFFFFF
            w._set_policies((_rollout_greedy(s), _rollout_greedy(s + 1)))

            def stop(g: Any, d: Any) -> bool:
                if g.round_no > hr:
                    return True
                return tree and candidates(g, d) is not None

            w.play(stop=stop)
            return tree and w.pending is not None and w.round_no <= hr

        mark = len(view._g.history) if getattr(view, "_g", None) is not None else 0

        def score(w: Any, p: int) -> float:
            # a finished play-out: its result with r1_score's tie-breaks (a sooner win, the Influence margin),
            # which tell apart lines that all win; else the evaluation of the position
            if w.pending is None or w.winner is not None:
                return r1_score(w, p, len(w.history) - mark)
            return evaluate(w, p)

        return TreeGame(deal=deal, candidates=candidates, play=lambda w, c: _play_macro(w, c[1]),
                        advance=advance, evaluate=score, history=lambda w: w.history)

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
    def _candidates(self, game, dec, planner) -> list | None:
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
        if kind in ("kill_own", "emblem", "first_player", "quest", "subtle"):
            opts = list(dec.options)
            a0 = planner.choose(game, dec)
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
        bit = 1 << t
        ready = [i for i in g._ready_units(game, p, "cannot_attack") if game.cdef[i].icons & bit]
        if ready and (not out or sorted(out[0]) != sorted(ready)):
            out.append(ready)
        return out


class _Plain:
    """The greedy player's choices without its shortcuts (so every decision of this player is asked)."""

    def __init__(self, seed: int):
        self.g = _rollout_greedy(seed)

    def choose(self, view, dec):
        return self.g.choose(view, dec)


def _plain_pair(me: int, seed: int) -> tuple:
    pols: list = [None, None]
    pols[me] = _Plain(seed)
    pols[1 - me] = _rollout_greedy(seed + 1)
    return tuple(pols)


def _key(macro: list) -> tuple:
    """A candidate's name, the same in every world: its first action and the set of its follow-ups (the
    follow-ups of a declaration are ("attacker" | "defender", card id) and DONE, so they sort as tuples)."""
    if len(macro) == 1:
        return (macro[0],)
    return (macro[0],) + tuple(sorted(macro[1:]))


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
    """`expert` or `expert:N` (N worlds per searched struggle or defence, N // 2 for the other searched decisions)."""
    if arg in (None, ""):
        return ExpertPolicy(seed)
    try:
        n = int(arg)
    except ValueError:
        raise ValueError(f"expert:{arg}: the budget must be a whole number of simulations, e.g. expert:9") from None
    if not 2 <= n <= 10_000:
        raise ValueError(f"expert:{arg}: the budget must be from 2 to 10000 simulations per decision")
    return ExpertPolicy(seed, iterations=n)
