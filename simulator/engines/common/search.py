"""The search player's engine-agnostic core: determinized Monte Carlo search over the protocol (protocol.py) only.

It needs what every engine here has: a pending decision (`pending`, `apply_action()`), `clone()`, and a way to deal
the hidden information at random from what the searching player may know (`view.determinize(rng)`). It is
determinized Monte Carlo search with information-set sampling (the flat, root-level form of ISMCTS; Cowling,
Powley & Whitehouse 2012, "Information Set Monte Carlo Tree Search"): each iteration deals one *world*
consistent with the player's information set, plays every candidate in that same world (common random numbers:
the candidates are compared on identical deals, which removes most of the noise of a card game), finishes the
game with the rollout policy and scores it. The candidate with the best mean wins; ties keep candidate 0 (each
game's adapter puts its default policy's choice there), so the search only departs from the default player when
the simulations say it pays.

Each engine's adapter (`r1/search.py`, `realms/search.py`, `regions/search.py`) says which decisions are worth
searching, what the candidates are, how a rollout plays and how a finished or cut-short game scores. The budget is
a number of simulated games, never wall time, and every world comes from the policy's own `random.Random`, so a
run gives the same moves on every machine (CONTRACTS §3).
"""
from __future__ import annotations

import random
from typing import Any, Callable, Sequence


def determinize(view: Any, rng: random.Random) -> Any:
    """The default dealing of a world: the engine's own `view.determinize(rng)`."""
    return view.determinize(rng)


def clone(game: Any) -> Any:
    return game.clone()


def choices_made(game: Any) -> int:
    """Choices made so far in a game: its history's length, or its turns begun for an engine keeping no history
    (the search's `steps`, which rewards a sooner win)."""
    h = getattr(game, "history", None)
    return len(h) if h is not None else int(getattr(game, "turn", 0))


def search_decision(view: Any, player: int, candidates: Sequence[Any], *, iterations: int,
                    rng: random.Random, align: Callable[[Any], bool], play: Callable[[Any, Any], None],
                    rollout: Callable[[Any], None], score: Callable[[Any, int, int], float],
                    deal: Callable[[Any, random.Random], Any] = determinize,
                    copy: Callable[[Any], Any] = clone) -> tuple[int, list[float]]:
    """Index of the best of `candidates` for `player`, and each one's mean score.

    Each iteration deals a world with `rng` (`deal(view, rng)`, by default the view's `determinize`);
    align(world) plays it on to the decision being searched (in a world the opponent's hidden cards differ, so a
    few of its decisions may differ on the way) and says whether every candidate is legal there (otherwise the
    world is dealt again); then every candidate is played in a copy of that world: play(world, candidate),
    rollout(world) to the end (or a horizon), score(world, player, steps) in [-1.5, 1.5] (steps: choices made
    since the decision, `choices_made`). `iterations` counts simulated games, so there are
    iterations // len(candidates) worlds (at least 2).

    >>> class Coin:                     # a one-decision game: heads wins
    ...     def __init__(self): self.pending, self.face = True, None
    ...     def determinize(self, rng): return Coin()
    ...     def clone(self): return Coin()
    ...     def apply_action(self, a): self.face, self.pending = a, None
    >>> search_decision(Coin(), 0, ["tails", "heads"], iterations=8, rng=random.Random(1),
    ...                 align=lambda w: True, play=lambda w, a: w.apply_action(a), rollout=lambda w: None,
    ...                 score=lambda w, p, steps: 1.0 if w.face == "heads" else -1.0)
    (1, [-1.0, 1.0])
    """
    n = len(candidates)
    if n <= 1:
        return 0, [0.0] * n
    worlds = max(2, iterations // n)
    totals = [0.0] * n
    done = tries = 0
    while done < worlds and tries < 3 * worlds:
        tries += 1
        base = deal(view, random.Random(rng.getrandbits(64)))
        if not align(base):
            continue
        done += 1
        mark = choices_made(base)
        for k, cand in enumerate(candidates):
            w = copy(base) if k + 1 < n else base
            play(w, cand)
            if w.pending is not None:
                rollout(w)
            totals[k] += score(w, player, choices_made(w) - mark)
    if not done:
        return 0, [0.0] * n
    means = [t / done for t in totals]
    best = 0
    for k in range(1, n):
        if means[k] > means[best] + 1e-9:
            best = k
    return best, means
