"""Information-set Monte Carlo tree search over the engine protocol (protocol.py): the search player's tree, written
once for every game.

Single-observer ISMCTS (Cowling, Powley & Whitehouse 2012, "Information Set Monte Carlo Tree Search"): one tree
over the searching player's information set. Every iteration deals a fresh *world* consistent with what the player
may know (the engine's `view.determinize(rng)`, through the game's `deal`), walks the tree from the root in that
world, choosing at each searched decision of either player by UCB among the candidates that are legal *in this
world* (the availability count stands in for the parent's visits, since a candidate is not offered in every
world), adds one node, plays the rest out with the game's cheap default policy to a horizon (the end of the
round, say) and scores the position there with the game's evaluation; the score goes back up the path, each node
counting it for the player who chose there.

The tree is keyed by what happened: a node's child is the candidate chosen there together with every action
played after it up to the next searched decision (the default policy's answers, which may differ from world to
world as the hidden cards do). So when the real game reaches its next decision by a sequence of actions the tree
has already seen, the subtree under it is the next search's root (`Tree.advance`): what was learned about the
rest of the round is kept.

What a game supplies (a `TreeGame`, built by its adapter for each search; this module names no game):

- `deal(view, rng)`: a world at the decision being searched, or None when this deal cannot reach it;
- `candidates(world, decision)`: the options worth comparing as `(key, macro)` pairs, the default policy's own
  choice first; a key names the candidate the same way in every world; None or a single one: not searched;
- `play(world, macro)`: apply a candidate (a macro may be several actions of one declaration);
- `advance(world, tree)`: play the default policy on from the pending decision; with `tree` True stop at the
  next decision `candidates` would search (return True), else (or first) at the horizon or the end of the game
  (return False);
- `evaluate(world, player)`: the player's score in [-1, 1] (its result when the game is over);
- `history(world)`: the actions played so far (optional: without it the tree is not reused);
- `copy(world)`: an independent copy of a world (optional: needed only by `sweep`).

The budget is a number of iterations, never wall time, and every world comes from the caller's `random.Random`,
so a search gives the same answer on every machine (CONTRACTS §3).
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any, Callable, Optional, Sequence


@dataclass
class TreeGame:
    deal: Callable[[Any, random.Random], Any]
    candidates: Callable[[Any, Any], Optional[list]]
    play: Callable[[Any, Any], None]
    advance: Callable[[Any, bool], bool]
    evaluate: Callable[[Any, int], float]
    history: Optional[Callable[[Any], Sequence]] = None
    copy: Optional[Callable[[Any], Any]] = None


class Node:
    """One searched decision of the tree: per candidate key [visits, total score for the chooser, availability],
    and the children by (key, the actions played from here to the next searched decision)."""

    __slots__ = ("stats", "children")

    def __init__(self) -> None:
        self.stats: dict = {}
        self.children: dict = {}

    def size(self) -> int:
        return 1 + sum(c.size() for c in self.children.values())


class Tree:
    """A search tree kept between the decisions of one game (`advance` moves its root along the real game)."""

    def __init__(self) -> None:
        self.root = Node()
        self.at = -1          # the real game's history length at the root (-1: no root yet)

    def advance(self, history: Sequence) -> bool:
        """Move the root to the node the real game's `history` reached, if the tree saw the actions since the
        root; else start afresh. True when a subtree was kept."""
        if self.at < 0 or len(history) < self.at:
            self.root, self.at = Node(), len(history)
            return False
        node, pos, n = self.root, self.at, len(history)
        while pos < n:
            for (_key, trail), child in node.children.items():
                k = len(trail)
                if k and pos + k <= n and _frozen(history[pos:pos + k]) == trail:
                    node, pos = child, pos + k
                    break
            else:
                self.root, self.at = Node(), n
                return False
        self.root, self.at = node, n
        return True


def _settled(stats: dict, left: int) -> bool:
    """Whether the most visited of `stats` ({key: [visits, ...]}) leads every other by more than `left` visits."""
    top = second = 0
    for st in stats.values():
        n = st[0]
        if n > top:
            top, second = n, top
        elif n > second:
            second = n
    return top - second > left


def _iterate(game: TreeGame, world: Any, root: Node, player: int, order: list, explore: float,
             widen: float | None, forced: Any, max_depth: int | None = None) -> None:
    """One iteration in a dealt world: walk the tree from `root` (with `forced`, that root candidate rather than
    UCB's), add a node, play out, and count the score along the path."""
    hist = game.history
    node = root
    path: list = []
    depth = 0
    while True:
        dec = world.pending
        cands = game.candidates(world, dec)
        if not cands:
            game.advance(world, False)
            break
        if depth == 0:
            for key, _ in cands:
                if key not in order:
                    order.append(key)
        stats = node.stats
        if depth and widen is not None:
            seen = sum(st[0] for st in stats.values())
            cands = cands[:1 + int(widen * math.sqrt(seen))]
        fresh = None
        if depth == 0 and forced is not None:
            macro = None
            for k, m in cands:
                st = stats.get(k)
                if st is not None:
                    st[2] += 1
                if k == forced:
                    macro = m
            if macro is None:
                return                  # not offered in this world
            key = forced
            s = stats.get(key)
            if s is None:
                s = stats[key] = [0, 0.0, 1]
            if s[0] == 0:
                fresh = (key, macro)
        else:
            for key, macro in cands:
                s = stats.get(key)
                if s is None:
                    if fresh is None:
                        fresh = (key, macro)
                else:
                    s[2] += 1
            if fresh is not None:
                key, macro = fresh
                s = stats[key] = [0, 0.0, 1]
            else:
                best = -1e18
                key = macro = s = None
                for k, m in cands:
                    st = stats[k]
                    u = st[1] / st[0] + explore * math.sqrt(math.log(st[2]) / st[0])
                    if u > best + 1e-12:
                        best, key, macro, s = u, k, m, st
        path.append((s, dec.player))
        mark = len(hist(world)) if hist is not None else 0
        game.play(world, macro)
        if world.pending is None:
            break
        if fresh is not None or (max_depth is not None and depth + 1 >= max_depth):
            game.advance(world, False)    # a new leaf, or as deep as asked: play out to the horizon
            break
        more = game.advance(world, True)
        trail = _frozen(hist(world)[mark:]) if hist is not None else ()
        child = node.children.get((key, trail))
        if child is None:
            child = node.children[(key, trail)] = Node()
        node = child
        depth += 1
        if not more or world.pending is None:
            break
    v = game.evaluate(world, player)
    for s, who in path:
        s[0] += 1
        s[1] += v if who == player else -v


def _frozen(actions: Sequence) -> tuple:
    """Actions as a tuple usable as a key (an action holding a list gets a tuple in its place)."""
    return tuple(tuple(_frozen(x) if isinstance(x, list) else x for x in a) if isinstance(a, tuple)
                 else (_frozen(a) if isinstance(a, list) else a) for a in actions)


def search(game: TreeGame, view: Any, player: int, *, iterations: int, rng: random.Random,
           tree: Tree | None = None, explore: float = 0.7, margin: float = 0.0,
           widen: float | None = None, sweep: bool = False, decided: bool = False,
           max_depth: int | None = None) -> tuple[Any, dict]:
    """The key of the best candidate at the view's decision for `player`, and the root's statistics
    ({key: [visits, mean score]}). `iterations` worlds are dealt (a deal that cannot reach the decision is
    dealt again, up to twice as many times). The answer is the candidate visited most (ties: the first in the
    game's order); with `margin`, the default choice (the first candidate) is kept unless another's mean beats
    it by that much.

    `widen`: progressive widening below the root. A node there offers only its first
    `1 + int(widen * sqrt(visits))` candidates (the default policy's choice first), so a reply is tried only
    once the node has been visited enough to tell it apart; without it (None) every candidate of every node is
    tried once before UCB chooses, and with a budget of a few worlds a decision most of the root's iterations
    then score lines in which the other player replies with its untried, mostly poor, options.

    `decided`: stop dealing worlds once the answer is settled, i.e. the most visited root candidate leads every
    other by more visits than there are iterations left (a root candidate not yet tried counts 0): the answer is
    then the one the whole budget would give, and the worlds it would still have dealt are saved. The count is of
    iterations, never of time, so the search stays reproducible. Not with `margin` (whose answer reads means) nor
    with `sweep` (whose answer is the best mean).

    `max_depth`: searched decisions at most this many deep in the tree (1: the root only, a flat search with
    UCB); past them an iteration plays out (`advance(world, False)`). Deep nodes are seldom visited often enough
    for the widening to offer them a second candidate, so walking them mostly costs the game's candidates at
    every searched decision of the play-out and buys nothing.

    `sweep` (with the game's `copy`): every root candidate is played in a copy of each dealt world (common random
    numbers: the root's candidates are compared on the same deals, which removes most of a card game's noise
    when a decision gets only a few worlds), `iterations` then counting play-outs (so about iterations divided
    by the root's candidates worlds), the tree below the root walked as usual; the answer is the root candidate
    with the best mean (each has as many visits).

    >>> class Call:
    ...     player = 0
    >>> class Coin:          # a one-decision game: heads wins
    ...     def __init__(self): self.pending, self.face = Call(), None
    ...     def determinize(self, rng): return Coin()
    >>> def play(w, a): w.face, w.pending = a, None
    >>> g = TreeGame(deal=lambda v, r: v.determinize(r), candidates=lambda w, d: [("tails", "tails"),
    ...              ("heads", "heads")], play=play, advance=lambda w, tree: False,
    ...              evaluate=lambda w, p: 1.0 if w.face == "heads" else -1.0)
    >>> search(g, Coin(), 0, iterations=10, rng=random.Random(1))[0]
    'heads'
    """
    t = tree if tree is not None else Tree()
    root = t.root
    order: list = []            # the root's candidate keys in the game's order, as first seen
    done = tries = 0
    if sweep and game.copy is not None:
        worlds = 0
        while (done < iterations or worlds < 2) and tries < 2 * iterations + 2:
            tries += 1
            world = game.deal(view, random.Random(rng.getrandbits(64)))
            if world is None or world.pending is None:
                continue
            cands = game.candidates(world, world.pending)
            if not cands:
                done += 1
                continue
            worlds += 1
            keys = [key for key, _ in cands]
            for i, key in enumerate(keys):
                w = game.copy(world) if i + 1 < len(keys) else world
                _iterate(game, w, root, player, order, explore, widen, key, max_depth)
                done += 1
    else:
        while done < iterations and tries < 2 * iterations + 2:
            tries += 1
            world = game.deal(view, random.Random(rng.getrandbits(64)))
            if world is None or world.pending is None:
                continue
            done += 1
            _iterate(game, world, root, player, order, explore, widen, None, max_depth)
            if decided and not margin and _settled(root.stats, iterations - done):
                break
    stats = {k: [s[0], s[1] / s[0] if s[0] else 0.0] for k, s in root.stats.items()}
    if not order:
        return None, stats
    best = order[0]
    for k in order[1:]:
        if k not in stats:
            continue
        if best not in stats:
            best = k
        elif sweep:
            if stats[k][1] > stats[best][1] + 1e-12:
                best = k
        elif stats[k][0] > stats[best][0] or (stats[k][0] == stats[best][0]
                                              and stats[k][1] > stats[best][1] + 1e-12):
            best = k
    if margin and best != order[0] and order[0] in stats and stats[best][1] - stats[order[0]][1] < margin:
        best = order[0]
    return best, stats
