"""The policy ladder (docs/engine.md, "Policy ladder"): a round-robin of the engine's players on the seven starter
decks, mirror and cross matches, with win rates, 95% Wilson intervals, Elo ratings and each player's speed.

    python -m scripts.ladder [--games N] [--expert-games N] [--camelot N] [--workers K] [--policies a,b,...]
                             [--write]

Every pair of players meets on a fixed schedule of deck pairs (the seven mirrors, then cross matches of every
ordered pair of different starters, cycled), each deal played twice with the seats swapped, so neither the
decks, the seat nor the first player favours one side; game i of a pairing has seed i. `--camelot N` adds the
Camelot mirror of expert against greedy (the ladder's target). `--write` rewrites the "Policy ladder" section of
docs/engine.md. Needs no database (the core set is read from cards/data/, the 2026 starters from
tests/fixtures/starters_2026 as scripts/bench_engine.py reads them, so the figures stay comparable).

Elo: the maximum-likelihood Bradley-Terry ratings of all the games (a draw counts half), scaled to Elo
(400 log10) with greedy at 1500. Speed: self-play games per CPU-second over the starter mirrors.
"""
from __future__ import annotations

import argparse
import math
import multiprocessing as mp
import os
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "engine.md"
LADDER = ("random", "greedy-v1", "greedy", "expert")
SLOW = ("expert",)

_DECKS: dict = {}


def _decks() -> dict:
    if not _DECKS:
        sys.path.insert(0, str(ROOT))
        from scripts.bench_engine import starter_decks
        _DECKS.update(starter_decks())
    return _DECKS


def schedule(n: int, names: list[str]) -> list[tuple[str, str, int]]:
    """n games: (deck of seat 0's policy, deck of seat 1's, which policy sits in seat 0 (0 = the first))."""
    pairs = [(d, d) for d in names] + [(a, b) for a in names for b in names if a != b]
    out = []
    i = 0
    while len(out) < n:
        a, b = pairs[(i // 2) % len(pairs)]
        swap = i % 2
        out.append((a, b, swap))
        i += 1
    return out


def _play(job: tuple) -> tuple:
    """One game: (pA, pB, deck for pA, deck for pB, swap, seed) -> (score for pA, cpu seconds)."""
    pa, pb, da, db, swap, seed = job
    from simulator.engines.r1 import play_game
    decks = _decks()
    c0 = time.process_time()
    if swap:
        r = play_game(decks[db], decks[da], seed=seed, first_player=seed % 2, policies=(pb, pa))
        score = 0.5 if r.winner is None else (1.0 if r.winner == 1 else 0.0)
    else:
        r = play_game(decks[da], decks[db], seed=seed, first_player=seed % 2, policies=(pa, pb))
        score = 0.5 if r.winner is None else (1.0 if r.winner == 0 else 0.0)
    return score, time.process_time() - c0, da == db


def wilson(k: float, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


def elo(results: dict, players: list[str], anchor: str = "greedy") -> dict:
    """Bradley-Terry by minorisation-maximisation (Hunter 2004), then 400*log10 with `anchor` at 1500."""
    w = {p: 0.0 for p in players}
    n: dict = {}
    for (a, b), (score, games) in results.items():
        w[a] += score
        w[b] += games - score
        n[(a, b)] = n.get((a, b), 0) + games
        n[(b, a)] = n.get((b, a), 0) + games
    gamma = {p: 1.0 for p in players}
    for _ in range(2000):
        new = {}
        for p in players:
            den = sum(n.get((p, q), 0) / (gamma[p] + gamma[q]) for q in players if q != p)
            new[p] = max(w[p], 0.5) / den if den else gamma[p]   # a player that never scores gets half a win
        s = sum(math.log(v) for v in new.values()) / len(new)
        gamma = {p: v / math.exp(s) for p, v in new.items()}
    base = anchor if anchor in gamma else players[0]
    return {p: 1500 + 400 * math.log10(gamma[p] / gamma[base]) for p in players}


def run(games: int, expert_games: int, camelot: int, workers: int, policies: list[str]) -> dict:
    from simulator.engines.r1 import ENGINE_BUILD
    from simulator.engines.r1.policies import POLICIES
    names = sorted(_decks())
    policies = [p for p in policies if p.partition(":")[0] in POLICIES]
    pairs = [(a, b) for i, a in enumerate(policies) for b in policies[i + 1:]]
    jobs, keys = [], []
    for a, b in pairs:
        n = expert_games if any(x.partition(":")[0] in SLOW for x in (a, b)) else games
        for seed, (da, db, swap) in enumerate(schedule(n, names)):
            jobs.append((a, b, da, db, swap, seed))
            keys.append((a, b))
    if camelot:
        for seed in range(camelot):
            jobs.append(("expert", "greedy", "camelot", "camelot", seed % 2, 100_000 + seed))
            keys.append(("camelot",))
    started = time.perf_counter()
    log = os.environ.get("LADDER_LOG")   # a file that gets one line per finished game (progress, partial data)
    out = []
    with mp.Pool(workers) as pool:
        for k, r in enumerate(pool.imap(_play, jobs, chunksize=1)):
            out.append(r)
            if log:
                with open(log, "a", encoding="utf-8") as fh:
                    fh.write(f"{keys[k]!r} {jobs[k][2]} {jobs[k][3]} {r[0]} {r[1]:.3f}\n")
    wall = time.perf_counter() - started
    table: dict = {}
    mirror: dict = {}
    cpu: dict = {}
    pair_cpu: dict = {}
    for key, (score, secs, is_mirror) in zip(keys, out):
        c, k = pair_cpu.get(key, (0.0, 0))
        pair_cpu[key] = (c + secs, k + 1)
        if key == ("camelot",):
            s, g = table.get(key, (0.0, 0))
            table[key] = (s + score, g + 1)
            continue
        s, g = table.get(key, (0.0, 0))
        table[key] = (s + score, g + 1)
        ms, mg = mirror.get(key, (0.0, 0))
        if is_mirror:
            mirror[key] = (ms + score, mg + 1)
        for p in key:
            c, k = cpu.get(p, (0.0, 0))
            cpu[p] = (c + secs / 2, k + 1)
    results = {k: v for k, v in table.items() if len(k) == 2}
    if ("camelot",) in table and "greedy" in policies and "expert" in policies:
        cs, cg = table[("camelot",)]
        s0, g0 = results.get(("greedy", "expert"), (0.0, 0))
        results[("greedy", "expert")] = (s0 + cg - cs, g0 + cg)
    return {"build": ENGINE_BUILD, "policies": policies, "table": table, "mirror": mirror,
            "elo": elo(results, policies), "cpu": cpu, "pair_cpu": pair_cpu, "wall": wall, "workers": workers,
            "games": games, "expert_games": expert_games, "camelot": camelot, "load": os.getloadavg()[0]}


def from_logs(paths: list[str], workers: int) -> dict:
    """The ladder's results rebuilt from LADDER_LOG files (runs done in parts, or stopped early)."""
    import ast
    from simulator.engines.r1 import ENGINE_BUILD
    table: dict = {}
    mirror: dict = {}
    pair_cpu: dict = {}
    policies: list[str] = []
    for path in paths:
        for line in Path(path).read_text(encoding="utf-8").splitlines():
            key_txt, rest = line.rsplit(")", 1)
            key = ast.literal_eval(key_txt + ")")
            da, db, score, secs = rest.split()
            s, g = table.get(key, (0.0, 0))
            table[key] = (s + float(score), g + 1)
            c, k = pair_cpu.get(key, (0.0, 0))
            pair_cpu[key] = (c + float(secs), k + 1)
            if len(key) == 2:
                for p in key:
                    if p not in policies:
                        policies.append(p)
                if da == db:
                    ms, mg = mirror.get(key, (0.0, 0))
                    mirror[key] = (ms + float(score), mg + 1)
    results = {k: v for k, v in table.items() if len(k) == 2}
    if ("camelot",) in table:   # the Camelot mirror games are expert against greedy games too
        cs, cg = table[("camelot",)]
        s0, g0 = results.get(("greedy", "expert"), (0.0, 0))
        results[("greedy", "expert")] = (s0 + cg - cs, g0 + cg)
        policies += [p for p in ("greedy", "expert") if p not in policies]
    order = [p for p in LADDER if p in policies] + [p for p in policies if p not in LADDER]
    games = max((g for k, (_, g) in results.items() if not any(x in SLOW for x in k)), default=0)
    expert_games = max((g for k, (_, g) in results.items() if any(x in SLOW for x in k)), default=0)
    return {"build": ENGINE_BUILD, "policies": order, "table": table, "mirror": mirror, "elo": elo(results, order),
            "cpu": {}, "pair_cpu": pair_cpu, "wall": 0.0, "workers": workers, "games": games,
            "expert_games": expert_games,
            "camelot": table.get(("camelot",), (0, 0))[1], "load": os.getloadavg()[0]}


def speed(policies: list[str], games: int = 14) -> dict:
    """Self-play games per CPU-second on the seven starter mirrors (each policy against itself)."""
    from simulator.engines.r1 import play_game
    decks = _decks()
    names = sorted(decks)
    out = {}
    for p in policies:
        n = max(7, games // (20 if p.partition(":")[0] in SLOW else 1))
        c0 = time.process_time()
        for i in range(n):
            d = decks[names[i % len(names)]]
            play_game(d, d, seed=i, policies=(p, p))
        out[p] = n / (time.process_time() - c0)
    return out


def markdown(res: dict, rates: dict | None, command: str) -> str:
    lines = ["## Policy ladder", "",
             f"Measured with `{command}` ({res['build']} engine, {res['workers']} worker processes on the project's "
             f"2 shared cores, load {res['load']:.1f}). Each pairing plays the seven starter "
             "mirrors and then cross matches of every ordered pair of different starters, each deal with the seats "
             f"swapped; {res['games']} games per pairing of the fast players, {res['expert_games']} per pairing "
             "with expert (hundreds of times slower, so its samples are smaller: read the intervals). "
             "Win rate is the first-named player's, draws counting half; the interval is the 95% Wilson interval.",
             "", "| pairing | games | win rate | 95% interval | mirrors only | CPU-s a game (both players) |",
             "| --- | --- | --- | --- | --- | --- |"]
    for key, (score, games) in res["table"].items():
        if len(key) != 2:
            continue
        lo, hi = wilson(score, games)
        ms, mg = res["mirror"].get(key, (0.0, 0))
        mtxt = f"{100 * ms / mg:.0f}% of {mg}" if mg else "–"
        pc, pk = res.get("pair_cpu", {}).get(key, (0.0, 0))
        ctxt = f"{pc / pk:.4f}" if pk else "–"
        lines.append(f"| {key[0]} vs {key[1]} | {games} | {100 * score / games:.1f}% | "
                     f"{100 * lo:.1f}–{100 * hi:.1f}% | {mtxt} | {ctxt} |")
    cam = res["table"].get(("camelot",))
    if cam:
        lo, hi = wilson(*cam)
        lines += ["", f"Target, expert against the greedy player in the Camelot mirror: "
                      f"**{100 * cam[0] / cam[1]:.1f}%** of {cam[1]} games (95% interval {100 * lo:.1f}–"
                      f"{100 * hi:.1f}%; target at least 60% with the lower bound above 50%)."]
    if not rates:
        lines += ["", "| player | Elo |", "| --- | --- |"]
        lines += [f"| {p} | {res['elo'][p]:.0f} |" for p in sorted(res["policies"], key=lambda p: -res["elo"][p])]
    else:
        lines += ["", "| player | Elo | self-play games per CPU-second | CPU-s per self-play game |",
                  "| --- | --- | --- | --- |"]
    for p in sorted(res["policies"], key=lambda p: -res["elo"][p]) if rates else []:
        rate = rates.get(p) if rates else None
        lines.append(f"| {p} | {res['elo'][p]:.0f} | {rate:.2f} | {1 / rate:.4f} |" if rate
                     else f"| {p} | {res['elo'][p]:.0f} | – | – |")
    lines += ["", "Elo is the maximum-likelihood Bradley-Terry fit of every ladder game (the Camelot mirror games "
                  "counted as expert against greedy), scaled to Elo with greedy at "
                  "1500; with samples this size a difference under about 50 points is within the noise."]
    return "\n".join(lines) + "\n"


def write_doc(section: str) -> None:
    text = DOC.read_text(encoding="utf-8")
    start = text.find("## Policy ladder")
    if start < 0:
        at = text.find("## How the rules map to code")
        text = (text[:at] + section + "\n" + text[at:]) if at >= 0 else text.rstrip() + "\n\n" + section
    else:
        nxt = re.search(r"^## ", text[start + 3:], flags=re.M)
        end = start + 3 + nxt.start() if nxt else len(text)
        text = text[:start] + section + ("\n" + text[end:] if nxt else "")
    DOC.write_text(text, encoding="utf-8")


def main(argv: list[str] | None = None) -> str:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=196, help="games per pairing of the fast players")
    ap.add_argument("--expert-games", type=int, default=42, help="games per pairing with expert")
    ap.add_argument("--camelot", type=int, default=120, help="expert vs greedy Camelot mirror games (0: none)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--policies", default=",".join(LADDER))
    ap.add_argument("--write", action="store_true", help="rewrite docs/engine.md's Policy ladder section")
    ap.add_argument("--from-log", nargs="+", metavar="FILE", help="report LADDER_LOG files instead of playing")
    ap.add_argument("--no-speed", action="store_true", help="skip the self-play speed measurement")
    args = ap.parse_args(argv)
    policies = args.policies.split(",")
    if args.from_log:
        res = from_logs(args.from_log, args.workers)
    else:
        res = run(args.games, args.expert_games, args.camelot, args.workers, policies)
    rates = None if args.no_speed else speed(res["policies"])
    command = ("python -m scripts.ladder --games {} --expert-games {} --camelot {} --workers {}"
               .format(res["games"], res["expert_games"], res["camelot"], args.workers))
    section = markdown(res, rates, command)
    if args.write:
        write_doc(section)
    print(section)
    return section


if __name__ == "__main__":
    main()
