"""Fit the r1 search player's evaluation (simulator/engines/r1/evaluation.py) on greedy self-play games.

    python -m scripts.r1_fit_evaluation [--games-per-pair 20] [--seed 0]

Plays greedy against greedy over every ordered pair of the frozen 2026 starters (tests/fixtures/starters_2026,
the ladder's decks), records the evaluation's features at the first decision of every round from round 2 on
(where the search cuts its play-outs) and who won, and fits the logistic model by Newton's method on the games of
even seeds; prints the weights, and the log-loss and accuracy on the games of odd seeds against the model that
counts Influence only.
"""
from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def samples(games_per_pair: int, seed0: int) -> list[tuple[int, list[float], float]]:
    """(game seed, feature differences for player 0, 1.0 if player 0 won else 0.0), draws left out."""
    sys.path.insert(0, str(ROOT))
    from scripts.bench_engine import starter_decks
    from simulator.engines.r1.evaluation import features
    from simulator.engines.r1.game import Game
    from simulator.engines.r1.policies import make_policy

    decks = starter_decks()
    names = sorted(decks)
    out = []
    seed = seed0
    for a in names:
        for b in names:
            for _ in range(games_per_pair):
                g = Game(decks[a], decks[b], seed=seed, first_player=seed % 2, autostart=False,
                         policies=[make_policy("greedy", 2 * seed + 1), make_policy("greedy", 2 * seed + 2)])
                rows = []
                r = 1
                while True:
                    g.play(stop=lambda game, dec, r=r: game.round_no > r)
                    if g.pending is None:
                        break
                    r = g.round_no
                    f0, f1 = features(g, 0), features(g, 1)
                    rows.append([x - y for x, y in zip(f0, f1)])
                if g.winner is not None:
                    out.extend((seed, x, 1.0 if g.winner == 0 else 0.0) for x in rows)
                seed += 1
    return out


def fit(xs: list[list[float]], ys: list[float], ridge: float = 1e-3, steps: int = 30) -> list[float]:
    """Logistic regression without intercept (the model is antisymmetric in the players), Newton's method."""
    k = len(xs[0])
    w = [0.0] * k
    for _ in range(steps):
        grad = [ridge * wi for wi in w]
        hess = [[ridge if i == j else 0.0 for j in range(k)] for i in range(k)]
        for x, y in zip(xs, ys):
            z = sum(wi * xi for wi, xi in zip(w, x))
            p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
            d = p - y
            s = p * (1 - p)
            for i in range(k):
                grad[i] += d * x[i]
                xi = s * x[i]
                row = hess[i]
                for j in range(k):
                    row[j] += xi * x[j]
        step = _solve(hess, grad)
        w = [wi - si for wi, si in zip(w, step)]
        if max(abs(s) for s in step) < 1e-7:
            break
    return w


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        piv = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[piv] = m[piv], m[c]
        for r in range(n):
            if r != c and m[c][c]:
                f = m[r][c] / m[c][c]
                for j in range(c, n + 1):
                    m[r][j] -= f * m[c][j]
    return [m[i][n] / m[i][i] if m[i][i] else 0.0 for i in range(n)]


def loss(w: list[float], xs: list[list[float]], ys: list[float]) -> tuple[float, float]:
    ll = acc = 0.0
    for x, y in zip(xs, ys):
        z = sum(wi * xi for wi, xi in zip(w, x))
        p = min(1 - 1e-9, max(1e-9, 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))))
        ll -= y * math.log(p) + (1 - y) * math.log(1 - p)
        acc += (p > 0.5) == (y > 0.5)
    return ll / len(xs), acc / len(xs)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games-per-pair", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args(argv)
    from simulator.engines.r1.evaluation import FEATURES
    data = samples(a.games_per_pair, a.seed)
    train = [(x, y) for s, x, y in data if s % 2 == 0]
    test = [(x, y) for s, x, y in data if s % 2 == 1]
    w = fit([x for x, _ in train], [y for _, y in train])
    only = fit([[x[0]] + [0.0] * (len(x) - 1) for x, _ in train], [y for _, y in train])
    tx, ty = [x for x, _ in test], [y for _, y in test]
    print(f"{len(train)} training positions, {len(test)} held out")
    print("WEIGHTS = (" + ", ".join(f"{v:.4f}" for v in w) + ")   # " + ", ".join(FEATURES))
    print("held out: log-loss %.4f, accuracy %.3f" % loss(w, tx, ty))
    print("Influence only: log-loss %.4f, accuracy %.3f" % loss(only, tx, ty))


if __name__ == "__main__":
    main()
