"""What the search players cost, for the simulate pages' time estimates (simulator/runner.py `CPU_S_PER_GAME`,
simulator/games/realms.py and regions.py `PLAYERS`) and the playtest table's strong AI (simulator/playtest.py).

    python -m scripts.search_costs [--games 14] [--only r1,realms,regions]

CPU seconds (this process's, so the figures hold on a busy machine) per game of a Strong run as the simulate
pages play it — the search player on both sides of a head-to-head, and against the goldfish — on each game's
starters (r1: the frozen 2026 starters, each one's mirror in turn; realms: the four starters' mirrors; regions:
the Big Money mirror), and for r1 the slowest and the 99th-percentile decision of the expert (what the playtest
table's AI takes to answer). Prints JSON.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


class _Timed:
    """A policy whose decisions are timed (the hooks play_game asks for pass through)."""

    def __init__(self, pol, times: list):
        self.pol, self.times = pol, times

    def choose(self, view, dec):
        t = time.process_time()
        a = self.pol.choose(view, dec)
        self.times.append(time.process_time() - t)
        return a

    def __getattr__(self, name):
        return getattr(self.pol, name)


def r1(games: int) -> dict:
    sys.path.insert(0, str(ROOT))
    from scripts.bench_engine import starter_decks
    from simulator.engines.r1 import ENGINE_BUILD, _policy_seed, make_policy
    from simulator.engines.r1.game import Game
    decks = starter_decks()
    names = sorted(decks)
    times: list = []
    c0 = time.process_time()
    for i in range(games):
        d = decks[names[i % len(names)]]
        pols = [_Timed(make_policy("expert", _policy_seed(i, p)), times) for p in (0, 1)]
        Game(d, d, seed=i, autostart=False, policies=pols).play()
    versus = (time.process_time() - c0) / games
    c0 = time.process_time()
    for i in range(games):
        d = decks[names[i % len(names)]]
        Game(d, None, seed=i, autostart=False, policies=[make_policy("expert", _policy_seed(i, 0)), None]).play()
    goldfish = (time.process_time() - c0) / games
    times.sort()
    return {"build": ENGINE_BUILD, "games": games, "versus_cpu_s": round(versus, 3), "goldfish_cpu_s": round(goldfish, 3),
            "decisions": len(times), "slowest_decision_s": round(times[-1], 3),
            "p99_decision_s": round(times[int(0.99 * (len(times) - 1))], 3)}


def realms(games: int) -> dict:
    from cards.games.realms import starter_files
    from simulator.engines.realms import ENGINE_BUILD, deck_from_decklist, play_game
    decks = [deck_from_decklist(p.read_text()) for p in starter_files()]
    c0 = time.process_time()
    for i in range(games):
        d = decks[i % len(decks)]
        play_game(d, d, seed=i, policies=("expert", "expert"))
    versus = (time.process_time() - c0) / games
    c0 = time.process_time()
    for i in range(games):
        play_game(decks[i % len(decks)], None, seed=i, policies=("expert", "greedy"))
    goldfish = (time.process_time() - c0) / games
    return {"build": ENGINE_BUILD, "games": games, "versus_cpu_s": round(versus, 3), "goldfish_cpu_s": round(goldfish, 3)}


def regions(games: int) -> dict:
    from simulator.engines.regions import STRATEGY_DIR, sim
    from simulator.engines.regions.buildinfo import COMPILED_MODULES, is_compiled, source_hash, stamp
    text = (STRATEGY_DIR / "big-money.txt").read_text()
    c0 = time.process_time()
    out = sim.versus(text, text, games=games, seed=1, policy="search", opponent_policy="search")
    versus = (time.process_time() - c0) / games
    compiled = all(is_compiled(m) for m in COMPILED_MODULES) and stamp() == source_hash()
    return {"build": "native" if compiled else "pure", "games": games, "versus_cpu_s": round(versus, 3),
            "search_wins": out.get("wins")}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=14)
    ap.add_argument("--only", default="r1,realms,regions")
    a = ap.parse_args(argv)
    out = {}
    for name in a.only.split(","):
        out[name] = {"r1": r1, "realms": realms, "regions": regions}[name](a.games)
        print(json.dumps({name: out[name]}), flush=True)


if __name__ == "__main__":
    main()
