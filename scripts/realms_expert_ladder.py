"""The realms search player against the greedy player, each starter in a mirror: win rate with a 95%
Wilson interval. Every game is a game of the site's own versus run (simulator/engines/realms/sim.py: the same spec,
chunks and seeds as `python manage.py simulate STARTER --game realms --mode versus --opponent STARTER --policy expert
--opponent-policy greedy --games N --seed S`), so the figures are reproducible from the seed, game for game.

    python -m scripts.realms_expert_ladder --games 60 --seed 1 --workers 2 --out var/realms-expert.jsonl

`--start K` plays games K.. only and appends to --out (a run resumed; merge the lines of --out for the total).
Games alternate who goes first (game g: the expert's side first when g is even). Each finished game is appended to
--out as it ends (a run cut short keeps the games played: games 0..k-1 of each starter's run, in order).
"""
from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import time
from pathlib import Path


def _job(args):
    name, spec, index = args
    from simulator.engines.realms import sim
    t = time.process_time()
    part = sim.run_chunk(spec, index)
    return name, index, part, time.process_time() - t


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=60, help="games per starter")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--policy", default="expert")
    ap.add_argument("--opponent-policy", default="greedy")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--start", type=int, default=0, help="skip each starter's games before this one (resume a run)")
    ap.add_argument("--out", default="var/realms-expert.jsonl")
    a = ap.parse_args(argv)
    from cards.games.realms import starter_files
    from simulator.engines.realms import deck_from_decklist, sim
    from simulator.reports import wilson_interval

    specs = {}
    for path in starter_files():
        deck = deck_from_decklist(path.read_text())
        e = sim.entries_of(deck)
        specs[path.stem] = sim.make_spec("versus", e, e, games=a.games, seed=a.seed, policy=a.policy,
                                         opponent_policy=a.opponent_policy, deck_name=path.stem,
                                         opponent_name=path.stem)
    jobs = []
    for name, spec in specs.items():
        plan = sim.chunk_plan("versus", spec["games"], spec["settings"])
        jobs.extend((name, spec, i) for i, _, _ in plan if i >= a.start)
    jobs.sort(key=lambda j: (j[2], j[0]))   # game 0 of every starter, then game 1, ...
    out = Path(a.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    parts: dict[str, dict[int, dict]] = {n: {} for n in specs}
    cpu = 0.0
    with out.open("a" if a.start else "w") as f, mp.get_context("fork").Pool(a.workers) as pool:
        for name, index, part, secs in pool.imap(_job, jobs):
            parts[name][index] = part
            cpu += secs
            f.write(json.dumps({"starter": name, "chunk": index, "wins": part["wins"], "losses": part["losses"],
                                "draws": part["draws"], "games": part["games"], "cpu_s": round(secs, 2)}) + "\n")
            f.flush()
    wins = games = 0
    rows = {}
    for name, spec in specs.items():
        merged = sim.merge("versus", [parts[name][i] for i in sorted(parts[name])])
        rep = sim.finalize(spec, merged)
        rows[name] = {"games": rep["games"], "wins": rep["wins"], "losses": rep["losses"], "draws": rep["draws"],
                      "win_rate": rep["win_rate"], "ci95": rep["ci95"]}
        wins += rep["wins"]
        games += rep["games"]
    print(json.dumps({"policy": a.policy, "opponent_policy": a.opponent_policy, "seed": a.seed, "per_starter": rows,
                      "games": games, "wins": wins, "win_rate": wins / games if games else None,
                      "ci95": wilson_interval(wins, games), "cpu_s_per_game": round(cpu / max(games, 1), 2)},
                     indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
