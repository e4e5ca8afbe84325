"""Server time of each playtest decision against the greedy AI: the person's action applied and the
AI played to the person's next decision (simulator/playtest.py act), over whole games of the starter decks.

    python -m scripts.bench_playtest [--games N] [--player fast|strong]
                                                      # prints median, 95th percentile and max in ms (r1's table
                                                      # against the greedy AI, or the expert with strong)
    python -m scripts.bench_playtest --http           # the whole request (POST /play/T/act/ with htmx, the
                                                      # table rendered), on DATABASE_URL with the core cards loaded
    python -m scripts.bench_playtest --game G [--player fast|strong] [--games N]
                                                      # a hosted game's table (simulator/games/G_play.py): the
                                                      # person's choice at random, the AI Fast or Strong
"""
from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--http", action="store_true")
    ap.add_argument("--game", default="", help="a hosted game's table instead of r1's")
    ap.add_argument("--player", default="fast", choices=("fast", "strong"))
    args = ap.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "roc_site.settings.test")
    import django
    django.setup()
    from decks.pool import CardPool
    from simulator import playtest
    from simulator.engines import r1 as engine
    from simulator.deckinput import read_deck
    from simulator.engines.r1.actions import option_texts
    if args.http:
        return http(args.games)
    if args.game:
        return hosted(args.game, args.player, args.games)
    policy = {"fast": "greedy", "strong": "expert"}[args.player]
    pool = CardPool.from_cards(json.loads((ROOT / "cards/data/core.json").read_text())["cards"])
    starters = sorted((ROOT / "cards/data/starters").glob("*.txt"))
    times, rebuilds, n_dec = [], [], 0
    for k in range(args.games):
        a, b = starters[k % len(starters)], starters[(k + 3) % len(starters)]
        da, db = read_deck(a.read_text(), pool), read_deck(b.read_text(), pool)
        rng = random.Random(k)
        g = playtest.start(da, db, policy, seed=1000 + k)
        while not g.is_terminal():
            opts = option_texts(g)
            t0 = time.process_time()
            playtest.act(g, rng.choice(opts))
            times.append(time.process_time() - t0)
            n_dec += 1
        t0 = time.process_time()
        playtest.rebuild(da, db, policy, 1000 + k, playtest.history_of(g))
        rebuilds.append(time.process_time() - t0)
    times.sort()
    ms = lambda x: round(x * 1000, 2)  # noqa: E731
    print(json.dumps({"engine_build": engine.ENGINE_BUILD, "policy": policy, "games": args.games, "decisions": n_dec,
                      "median_ms": ms(statistics.median(times)), "p95_ms": ms(times[int(len(times) * .95)]),
                      "max_ms": ms(times[-1]), "rebuild_whole_game_ms_max": ms(max(rebuilds))}))
    return 0


def http(games: int) -> int:
    """Wall time of whole requests through Django's test client (no network): the person's click answered."""
    import html
    import re
    from django.test import Client
    from django.test.utils import setup_test_environment
    from simulator.engines import r1 as engine
    setup_test_environment()
    times, cpu = [], []
    for k in range(games):
        c = Client()
        r = c.post("/play/", {"deck_source": "starter:camelot", "opponent_source": "starter:winter",
                              "policy": "greedy"})
        url = r["Location"]
        rng = random.Random(k)
        body = c.get(url).content.decode()
        while True:
            opts = [html.unescape(v) for v in re.findall(r'data-action="([^"]+)"', body)]
            if not opts:
                break
            t0, c0 = time.perf_counter(), time.process_time()
            r = c.post(url + "act/", {"action": rng.choice(opts)}, HTTP_HX_REQUEST="true")
            times.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
            body = r.content.decode()
    times.sort()
    cpu.sort()
    ms = lambda x: round(x * 1000, 1)  # noqa: E731
    print(json.dumps({"engine_build": engine.ENGINE_BUILD, "games": games, "requests": len(times),
                      "wall_median_ms": ms(statistics.median(times)), "wall_p95_ms": ms(times[int(len(times) * .95)]),
                      "wall_max_ms": ms(times[-1]), "cpu_median_ms": ms(statistics.median(cpu)),
                      "cpu_p95_ms": ms(cpu[int(len(cpu) * .95)]), "cpu_max_ms": ms(cpu[-1])}))
    return 0


def hosted(game: str, player: str, games: int) -> int:
    """The engine's part of a decision at a hosted game's table (playtest.hosted_act), whole games of the two
    sides its set-up form offers first (two starter decks; a Hero against a shipped strategy), CPU time."""
    from django.test import RequestFactory

    from cards.games import registry
    from simulator import playtest
    from simulator.games import picks
    kit = playtest.kit_for(game)
    spec = registry.get(game)
    request = RequestFactory().get("/")
    request.user = type("Anonymous", (), {"is_authenticated": False, "pk": None})()
    choices = kit.side_choices(request, spec)
    if kit.HAS_DECKS:
        starters = [f"starter:{name}" for name in choices["decks"]["starters"]]
        sides = [{"deck_pick": starters[k % len(starters)], "opponent_pick": starters[(k + 1) % len(starters)]}
                 for k in range(games)]
    else:
        heroes, strategies = [c for c, _ in choices["heroes"]], [v for v, _ in choices["strategies"]]
        sides = [{"deck_hero": heroes[k % len(heroes)], "opponent_pick": strategies[k % len(strategies)]}
                 for k in range(games)]
    policy = {p["key"]: p["policy"] for p in picks.players(spec)}[player]
    times, rebuilds = [], []
    for k, form in enumerate(sides):
        mine, theirs = kit.read_side(request, spec, form, "deck"), kit.read_side(request, spec, form, "opponent")
        rng = random.Random(k)
        t, _ = playtest.hosted_start(kit, mine, theirs, policy, 1000 + k, None)
        while not t.g.is_terminal():
            c0 = time.process_time()
            playtest.hosted_act(t, rng.choice(kit.option_texts(t.g)))
            times.append(time.process_time() - c0)
        rec = type("Saved", (), {"deck": mine, "opponent": theirs, "seed": 1000 + k, "first_player": None,
                                 "policy": policy, "history": t.history})()
        c0 = time.process_time()
        playtest.hosted_rebuild(kit, rec)
        rebuilds.append(time.process_time() - c0)
    times.sort()
    ms = lambda x: round(x * 1000, 2)  # noqa: E731
    print(json.dumps({"game": game, "engine_version": kit.ENGINE_VERSION, "player": player, "games": games,
                      "decisions": len(times), "median_ms": ms(statistics.median(times)),
                      "p95_ms": ms(times[int(len(times) * .95)]), "max_ms": ms(times[-1]),
                      "rebuild_whole_game_ms_max": ms(max(rebuilds))}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
