"""Benchmark of the realms engine: games per CPU-second, machine instructions per game, the search hooks' costs.

    python -m scripts.bench realms                 # the docs/performance.md section ("Realms engine")
    python -m scripts.bench_realms                 # goldfish, greedy vs greedy, random vs random; hooks
    python -m scripts.bench_realms --games 400     # more games per starter
    python -m scripts.bench_realms --callgrind     # instructions per game under valgrind --tool=callgrind
    python -m scripts.bench_realms --fingerprint   # a hash of 200 whole seeded games (prove a change plays the same)
    python -m scripts.bench_realms --json          # the figures as JSON

Goldfish games are the four starter decks (cards/games/realms/data/starters) played by the greedy player against
the goldfish opponent; head-to-head games are the starters in every pairing. CPU time is `time.process_time()` of
this process (the machines are shared and noisy: compare runs on one machine, back to back). The figures and the
command go into docs/performance.md ("Realms engine").
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _decks():
    from simulator.engines.realms import starter_decks
    return starter_decks()


def goldfish_rate(decks, games: int) -> dict:
    from simulator.engines.realms import play_game
    out = {}
    total_g = 0
    total_t = 0.0
    for name, deck in decks.items():
        t = time.process_time()
        for s in range(games):
            play_game(deck, None, seed=s)
        dt = time.process_time() - t
        out[name] = round(games / dt, 1)
        total_g += games
        total_t += dt
    out["all"] = round(total_g / total_t, 1)
    return out


def versus_rate(decks, games: int, policies=("greedy", "greedy")) -> float:
    from simulator.engines.realms import play_game
    names = list(decks)
    n = 0
    t = time.process_time()
    for a in names:
        for b in names:
            for s in range(games):
                play_game(decks[a], decks[b], seed=s, first_player=s % 2, policies=policies)
                n += 1
    return round(n / (time.process_time() - t), 1)


def hook_costs(decks, samples: int = 300) -> dict:
    """Per-call cost (µs) of clone(), view(p).determinize(rng), legal_actions() + action_text over mid-game states."""
    from simulator.engines.realms import Game, make_policy
    rng = random.Random(5)
    states = []
    names = list(decks)
    k = 0
    while len(states) < samples:
        a, b = names[k % 4], names[(k // 4) % 4]
        g = Game(decks[a], decks[b], seed=k)
        pols = [make_policy("greedy", k), make_policy("greedy", k + 1)]
        stop = 8 + k % 20
        steps = 0
        while not g.is_terminal() and steps < 400:
            dec = g.pending
            if g.round >= stop and dec.kind == "actions":
                states.append(g.clone())
                break
            g.apply_action(pols[dec.player].choose(g.view(dec.player), dec))
            steps += 1
        k += 1

    def per_call(fn, reps: int = 5) -> float:
        t = time.process_time()
        for _ in range(reps):
            for g in states:
                fn(g)
        return round((time.process_time() - t) / (reps * len(states)) * 1e6, 2)

    return {
        "clone_us": per_call(lambda g: g.clone()),
        "determinize_us": per_call(lambda g: g.view(g.current_player()).determinize(rng)),
        "legal_actions_us": per_call(lambda g: g.legal_actions()),
        "options_rebuilt_us": per_call(lambda g: g.action_options(g.current_player())),
        "action_texts_us": per_call(lambda g: [g.action_text(a) for a in g.legal_actions()]),
        "states": len(states),
    }


def fingerprint() -> str:
    """One hash over 200 whole seeded games with logs: goldfish, greedy/greedy, greedy/random, random/random."""
    from simulator.engines.realms import play_game
    decks = _decks()
    names = list(decks)
    h = hashlib.sha256()
    for s in range(200):
        a, b = names[s % 4], names[(s // 4) % 4]
        kind = s % 4
        if kind == 0:
            r = play_game(decks[a], None, seed=s, log=True)
        else:
            pols = [("greedy", "greedy"), ("greedy", "random"), ("random", "random")][kind - 1]
            r = play_game(decks[a], decks[b], seed=s, first_player=s % 2, policies=pols, log=True)
        h.update(json.dumps([r.winner, r.reason, r.turns, r.vp, r.vp_by_turn, r.gold_by_turn, r.stats,
                             r.log], sort_keys=True).encode())
    return h.hexdigest()[:16]


# ---- callgrind -------------------------------------------------------------------------------------------
_WORK = """
import sys
from simulator.engines.realms import starter_decks, play_game
decks = starter_decks()
n = int(sys.argv[1]); mode = sys.argv[2]
names = list(decks)
for s in range(n):
    d = decks[names[s % 4]]
    if mode == "goldfish":
        play_game(d, None, seed=s)
    else:
        play_game(d, decks[names[(s // 4) % 4]], seed=s, first_player=s % 2)
"""


def _instructions(n: int, mode: str) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "work.py"
        script.write_text(_WORK, encoding="utf-8")
        out = Path(tmp) / "callgrind.out"
        proc = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable,
                               str(script), str(n), mode], cwd=ROOT, capture_output=True, text=True,
                              env=dict(os.environ, PYTHONPATH=str(ROOT)))
        m = re.search(r"Collected\s*:\s*(\d+)", proc.stderr)
        if proc.returncode != 0 or not m:
            raise SystemExit(f"valgrind failed:\n{proc.stderr[-2000:]}")
        return int(m.group(1))


def callgrind(games: int) -> dict:
    """Instructions per game: (a run of `games` games - a run of none) / games, so imports and deck building
    cancel out."""
    out = {}
    for mode in ("goldfish", "versus"):
        n = games if mode == "goldfish" else max(4, games // 4)   # head-to-head games are several times longer
        base = _instructions(0, mode)
        full = _instructions(n, mode)
        out[mode] = {"games": n, "instructions_per_game": (full - base) // n}
    return out


RUNS = 3


def _rates_in(build: str, games: int) -> dict:
    """The rates measured in a fresh process of the given build ("native" or "pure"), as JSON."""
    env = dict(os.environ, ROC_REALMS_PURE="1" if build == "pure" else "0", PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-m", "scripts.bench_realms", "--json", "--games", str(games)],
                          cwd=ROOT, env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(proc.stderr[-2000:])
    return json.loads(proc.stdout)


def _r1_goldfish_rate() -> float | None:
    """r1's engine, same machine, same moment: 350 goldfish games (scripts/bench_engine.py's starters)."""
    try:
        from scripts.bench_engine import starter_decks as r1_decks
        from simulator.engines.r1 import play_game as r1_play
    except Exception:   # noqa: BLE001 - the calibration is optional
        return None
    decks = r1_decks()
    names = sorted(decks)
    t = time.process_time()
    for i in range(350):
        r1_play(decks[names[i % len(names)]], None, seed=i)
    return 350 / (time.process_time() - t)


def main() -> str:
    """The docs/performance.md section (scripts/bench.py calls this)."""
    import statistics
    import simulator.engines.realms as realms
    from simulator.engines.r1 import ENGINE_BUILD as R1_BUILD
    runs = []
    r1 = []
    loads = []
    for _ in range(RUNS):
        loads.append(os.getloadavg()[0])
        runs.append(_rates_in("native", 250))
        rate = _r1_goldfish_rate()
        if rate is not None:
            r1.append(rate)
    pure = _rates_in("pure", 100)
    cg = callgrind(40)
    med = lambda xs: statistics.median(xs)   # noqa: E731
    gold = {k: med([r["goldfish_games_per_cpu_s"][k] for r in runs]) for k in runs[0]["goldfish_games_per_cpu_s"]}
    gg = med([r["greedy_vs_greedy_games_per_cpu_s"] for r in runs])
    rr = med([r["random_vs_random_games_per_cpu_s"] for r in runs])
    hooks = {k: med([r["hooks"][k] for r in runs]) for k in runs[0]["hooks"] if k != "states"}
    per = ", ".join(f"{k} {v:,.0f}" for k, v in gold.items() if k != "all")
    lines = [
        "## Realms engine",
        "",
        "`.venv/bin/python -m scripts.bench realms` (also `python -m scripts.bench_realms [--callgrind] "
        "[--fingerprint]`) — the four realms starters, engine "
        f"{realms.ENGINE_VERSION}, build `{runs[0]['build']}` (mypyc, `python -m scripts.build_realms`, run by "
        "`make install`); CPU time of one process (`time.process_time()`), medians of "
        f"{RUNS} runs; load average at the runs: {', '.join(f'{x:.1f}' for x in loads)} on 2 cores.",
        "",
        "| what | games per CPU-second (compiled) | plain Python | instructions per game (compiled) | target |",
        "| --- | --- | --- | --- | --- |",
        f"| goldfish, greedy player, 4 starters × 250 games ({per}) | {gold['all']:,.0f} | "
        f"{pure['goldfish_games_per_cpu_s']['all']:,.0f} | {cg['goldfish']['instructions_per_game']:,} | ≥ 1,000 |",
        f"| greedy vs greedy, every starter pairing | {gg:,.0f} | {pure['greedy_vs_greedy_games_per_cpu_s']:,.0f} | "
        f"{cg['versus']['instructions_per_game']:,} | |",
        f"| random vs random, every starter pairing | {rr:,.0f} | {pure['random_vs_random_games_per_cpu_s']:,.0f} | "
        "| |",
    ]
    if r1:
        lines += ["", f"Calibration, the same machine at the same moments: r1's compiled engine (build `{R1_BUILD}`), 350 "
                  f"goldfish games of its starters, ran at {med(r1):,.0f} games per CPU-second (median; "
                  f"{', '.join(f'{x:,.0f}' for x in r1)}); docs/engine.md records 2,024–2,386 for it on a quiet machine."]
    lines += ["", "Costs per call for a search player (mid-game states of greedy-vs-greedy games; compiled):", "",
              "| call | µs |", "| --- | --- |"]
    names = {"clone_us": "`clone()`", "determinize_us": "`view(p).determinize(rng)` (a clone, then the unseen "
             "cards dealt again)", "legal_actions_us": "`legal_actions()` (the waiting decision's list)",
             "options_rebuilt_us": "building the Actions options afresh (what each Actions decision costs)",
             "action_texts_us": "`action_text` of every option"}
    for k, v in hooks.items():
        lines.append(f"| {names.get(k, k)} | {v:,.1f} |")
    lines += ["", f"Instructions per game: valgrind --tool=callgrind, ({cg['goldfish']['games']} games − none) ÷ games, "
              "so imports and deck building cancel out; deterministic, unlike the CPU figures."]
    return "\n".join(lines) + "\n"


def cli(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--games", type=int, default=250, help="goldfish games per starter (default 250)")
    ap.add_argument("--callgrind", action="store_true", help="instructions per game under valgrind")
    ap.add_argument("--cg-games", type=int, default=40, help="games per callgrind run (default 40)")
    ap.add_argument("--fingerprint", action="store_true", help="print the fingerprint of 200 seeded games")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    import simulator.engines.realms as realms
    if args.fingerprint:
        print(fingerprint())
        return 0
    res: dict = {"build": realms.ENGINE_BUILD, "engine_version": realms.ENGINE_VERSION}
    if args.callgrind:
        res["callgrind"] = callgrind(args.cg_games)
    else:
        decks = _decks()
        res["goldfish_games_per_cpu_s"] = goldfish_rate(decks, args.games)
        res["greedy_vs_greedy_games_per_cpu_s"] = versus_rate(decks, max(1, args.games // 25))
        res["random_vs_random_games_per_cpu_s"] = versus_rate(decks, max(1, args.games // 25), ("random", "random"))
        res["hooks"] = hook_costs(decks)
    res["load_average"] = os.getloadavg()[0]
    if args.json:
        print(json.dumps(res, indent=1))
    else:
        for k, v in res.items():
            print(f"{k}: {v}")
    return 0


if __name__ == "__main__":
    sys.exit(cli())
