"""The policy ladder (docs/engine.md, "Policy ladder"): for each game, every player against every other on a fixed
schedule of decks and seats, with win rates, 95% Wilson intervals, Elo ratings and each player's CPU time.

    python -m scripts.ladder --all-games [--quick] [--workers K] [--write]       # the three games, one run
    python -m scripts.ladder [--game G ...] [--games N] [--expert-games N] [--players G=a,b,...]
                             [--policies a,b,...] [--camelot N] [--legacy-first] [--from-log FILE ...]

The games and their players come from scripts/ladder_games.py (each game's players from its engine's policy
table). Every pair of players meets on the game's schedule of deck pairs (r1 and realms: the starter mirrors,
then cross matches of every ordered pair of different starters, cycled; regions: each player with its Hero),
each deal played twice with the seats swapped; the first player alternates so that, over each cycle of deals,
each side starts half of its games in each seat. Game i of a pairing has seed i, so a run is reproducible game
for game. `--legacy-first` gives the schedule of the runs before the first player alternated (the first-named
player started every game).

Game counts: each game's standard counts (`default_games` in scripts/ladder_games.py, stated in the output), or
`--games N` for every pairing of two fast players and `--expert-games N` for every pairing with a search player;
`--quick` is 8 and 2. `--camelot N` adds N Camelot mirrors of r1's expert against greedy. `--write` rewrites the
"Policy ladder" section of docs/engine.md with what is printed. LADDER_LOG=FILE appends one JSON line per finished
game; `--from-log FILE...` prints the tables from such files (runs done in parts, or stopped early).

Elo: the maximum-likelihood Bradley-Terry ratings of all of a game's games (a draw counts half), scaled to Elo
(400 log10) with the game's greedy player at 1500. CPU-s a game: a pairing's is the whole game's (both players
and the engine); a search player's is its own decisions' CPU time a game over all its ladder games, a fast
player's the whole game's over its games against the other fast players.
Needs no database.
"""
from __future__ import annotations

import argparse
import ast
import datetime
import json
import math
import multiprocessing as mp
import os
import re
import sys
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "engine.md"
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from scripts import ladder_games  # noqa: E402

LADDER = ladder_games.R1.ORDER       # r1's players, the ladder's default before it covered every game
QUICK = (8, 2)                        # --quick: games per fast pairing, per pairing with a search player
CAMELOT_SEED = 100_000                # the Camelot mirror's game i has this seed + i
WRAP = 116                            # docs/engine.md's prose width


def _decks() -> dict:
    """r1's frozen starters (kept for scripts that read them through the ladder)."""
    return ladder_games.get("r1").decks()


def schedule(n: int, pairs: list[tuple[str, str]], legacy_first: bool = False) -> list[tuple[str, str, int, int]]:
    """n games of a pairing (a, b): (a's deck, b's deck, a's seat, the first player's seat).

    Deal k of cycle c (a cycle is every deck pair of `pairs` twice) is games 2(cL + k) and 2(cL + k) + 1, a in
    seat 0 then seat 1; a starts when s + c + k is even (s its seat), so each side starts half of each deck pair's
    games over two cycles and half of each cycle's games. `legacy_first`: a starts every game."""
    out = []
    L = len(pairs)
    for i in range(n):
        s = i % 2
        k = (i // 2) % L
        c = (i // 2) // L
        da, db = pairs[k]
        a_first = legacy_first or (s + c + k) % 2 == 0
        out.append((da, db, s, s if a_first else 1 - s))
    return out


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


# ---- the games ---------------------------------------------------------------------------------------------------
def plan(game: str, players: list[str], games: int | None, expert_games: int | None, camelot: int = 0,
         legacy_first: bool = False) -> list[dict]:
    """Every game of one game's ladder, as job dicts (`label` is the pairing's, "camelot" for the Camelot mirror)."""
    lg = ladder_games.get(game)
    jobs = []
    for i, a in enumerate(players):
        for b in players[i + 1:]:
            slow = lg.slow(a) or lg.slow(b)
            n = (expert_games if slow else games)
            if n is None:
                n = lg.default_games(a, b)
            for seed, (da, db, a_seat, first) in enumerate(schedule(n, lg.deck_pairs(a, b), legacy_first)):
                jobs.append({"game": game, "a": a, "b": b, "da": da, "db": db, "seed": seed, "a_seat": a_seat,
                             "first": first, "slow": slow})
    if camelot and game == "r1":
        # r1's earlier target: expert against greedy in the Camelot mirror (kept for the old command lines)
        for i, (da, db, a_seat, first) in enumerate(schedule(camelot, [("camelot", "camelot")], legacy_first)):
            jobs.append({"game": game, "a": "expert", "b": "greedy", "da": da, "db": db, "seed": CAMELOT_SEED + i,
                         "a_seat": a_seat, "first": first, "slow": True, "label": "camelot"})
    return jobs


def _play(job: dict) -> dict:
    lg = ladder_games.get(job["game"])
    score, secs, ca, cb = lg.play(job["a"], job["b"], job["da"], job["db"], job["seed"], job["a_seat"], job["first"])
    return {**{k: v for k, v in job.items() if k != "slow"}, "score": score, "cpu": round(secs, 6),
            "cpu_a": None if ca is None else round(ca, 6), "cpu_b": None if cb is None else round(cb, 6)}


def play_all(jobs: list[dict], workers: int, log: str | None = None, progress: bool = True) -> list[dict]:
    """Play every job, results in the jobs' order: the fast pairings first (a minute or two in all), then the
    pairings with a search player, their games interleaved (game 0 of each, then game 1, ...), so a run cut short
    keeps every fast pairing and a balanced sample of each searching one."""
    index: dict = {}
    order = []
    for j, job in enumerate(jobs):
        key = (job["game"], job.get("label"), job["a"], job["b"])
        k = index[key] = index.get(key, -1) + 1
        order.append((job["slow"], k, j))
    order.sort()
    out: list = [None] * len(jobs)
    started = time.perf_counter()
    step = max(1, len(jobs) // 20)

    def done(n, j, r):
        out[j] = r
        if log:   # with when it finished and the load then, so that a report from the log can say both
            with open(log, "a", encoding="utf-8") as fh:
                fh.write(json.dumps({**r, "t": round(time.time()), "load": round(os.getloadavg()[0], 1)}) + "\n")
        if progress and (n % step == 0 or n == len(jobs)):
            print(f"ladder: {n}/{len(jobs)} games, {time.perf_counter() - started:.0f} s", file=sys.stderr,
                  flush=True)

    todo = [jobs[j] for _, _, j in order]
    if workers <= 1:
        for n, (job, (_, _, j)) in enumerate(zip(todo, order), 1):
            done(n, j, _play(job))
    else:
        with mp.get_context("fork").Pool(workers) as pool:
            for n, (pos, r) in enumerate(pool.imap_unordered(_indexed, list(enumerate(todo)), chunksize=1), 1):
                done(n, order[pos][2], r)
    return out


def _indexed(item: tuple) -> tuple:
    pos, job = item
    return pos, _play(job)


def tally(game: str, players: list[str], records: list[dict]) -> dict:
    """One game's tables from its game records."""
    lg = ladder_games.get(game)
    table: dict = {}
    for r in records:
        key = (r.get("label") or "", r["a"], r["b"])
        t = table.setdefault(key, {"score": 0.0, "games": 0, "cpu": 0.0, "m_score": 0.0, "m_games": 0,
                                   "a_first": 0, "by_deck": {}})
        t["score"] += r["score"]
        t["games"] += 1
        t["cpu"] += r["cpu"]
        t["a_first"] += r["first"] == r["a_seat"]
        if r["da"] == r["db"]:
            t["m_score"] += r["score"]
            t["m_games"] += 1
        for side, deck, score in (("a", r["da"], r["score"]), ("b", r["db"], 1 - r["score"])):
            s, g = t["by_deck"].setdefault(side, {}).get(deck, (0.0, 0))
            t["by_deck"][side][deck] = (s + score, g + 1)
        for p in (r["a"], r["b"]):
            if p not in players:
                players.append(p)
    # a search player's own decisions, timed; a fast player's whole games against other fast players (its own
    # decisions are a part of those, too cheap to time without the timer costing as much)
    own: dict = {}
    for r in records:
        ca, cb = r.get("cpu_a"), r.get("cpu_b")
        for p, secs, other in ((r["a"], ca, cb), (r["b"], cb, ca)):
            o = own.setdefault(p, {"games": 0, "timed": 0.0, "timed_n": 0, "whole": 0.0, "whole_n": 0})
            o["games"] += 1
            if secs is not None:
                o["timed"] += secs
                o["timed_n"] += 1
            elif other is None and not (lg.slow(r["a"]) or lg.slow(r["b"])):
                o["whole"] += r["cpu"]
                o["whole_n"] += 1
    results = {}
    for (_, a, b), t in table.items():
        s, g = results.get((a, b), (0.0, 0))
        results[(a, b)] = (s + t["score"], g + t["games"])
    ratings = elo(results, players, lg.anchor) if players else {}
    return {"game": game, "players": players, "table": table, "own": own, "elo": ratings,
            "games": len(records), "cpu": sum(r["cpu"] for r in records)}


# ---- the report --------------------------------------------------------------------------------------------------
def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def game_markdown(res: dict, counts_text: str) -> list[str]:
    lg = ladder_games.get(res["game"])
    lines = [f"### {res['game']}", "",
             f"Players: {', '.join(res['players'])}. Each pairing plays "
             f"{lg.decks_text}; {counts_text}. {res['games']} games, {res['cpu'] / 60:.1f} CPU-minutes.", "",
             "| pairing | games | win rate | 95% interval | mirrors only | CPU-s a game (both players) |",
             "| --- | --- | --- | --- | --- | --- |"]
    for (label, a, b), t in res["table"].items():
        lo, hi = wilson(t["score"], t["games"])
        mirror = f"{100 * t['m_score'] / t['m_games']:.0f}% of {t['m_games']}" if t["m_games"] else "–"
        name = f"{a} vs {b}" + (f" ({label} mirror)" if label else "")
        lines.append(f"| {name} | {t['games']} | {_pct(t['score'] / t['games'])} | {100 * lo:.1f}–{100 * hi:.1f}% | "
                     f"{mirror} | {t['cpu'] / t['games']:.4f} |")
    tg = lg.target
    if tg:
        def base(p):
            return p.partition(":")[0]   # expert:N is the search player at another budget

        hit = [(k, t) for k, t in res["table"].items()
               if not k[0] and {base(k[1]), base(k[2])} == {tg.searcher, tg.greedy}]
        if hit:
            (_, a, b), t = hit[0]
            score = t["score"] if base(a) == tg.searcher else t["games"] - t["score"]
            rate = score / t["games"]
            lo, hi = wilson(score, t["games"])
            cpu = t["cpu"] / t["games"]
            met = lo > tg.lower and (tg.rate is None or rate >= tg.rate) and (tg.cpu is None or cpu <= tg.cpu) \
                and (tg.games is None or t["games"] >= tg.games)
            lines += ["", f"Target ({tg.text()}): {a if base(a) == tg.searcher else b} **{_pct(rate)}** of "
                          f"{t['games']} games (95% interval "
                          f"{100 * lo:.1f}–{100 * hi:.1f}%) at {cpu:.2f} CPU-s a game: "
                          f"**{'met' if met else 'not met'}**."]
            decks = t["by_deck"].get("a" if base(a) == tg.searcher else "b", {})
            if len(decks) > 1:
                ranked = sorted(decks.items(), key=lambda kv: -kv[1][0] / kv[1][1])
                lines += ["", f"By {tg.searcher}'s deck (its score against {tg.greedy}): "
                              + ", ".join(f"{d} {_pct(s / g)} of {g}" for d, (s, g) in ranked) + "."]
    lines += ["", "| player | Elo | games | CPU-s a game |", "| --- | --- | --- | --- |"]
    for p in sorted(res["players"], key=lambda p: -res["elo"].get(p, 0)):
        o = res["own"].get(p, {"games": 0, "timed_n": 0, "whole_n": 0})
        if o["timed_n"]:
            cpu = f"{o['timed'] / o['timed_n']:.4f} (own decisions)"
        elif o["whole_n"]:
            cpu = f"≤ {o['whole'] / o['whole_n']:.4f} (whole games)"
        else:
            cpu = "–"
        lines.append(f"| {p} | {res['elo'][p]:.0f} | {o['games']} | {cpu} |")
    return lines


def markdown(results: list[dict], meta: dict) -> str:
    when = meta.get("when") or "(from LADDER_LOG files)"
    lines = ["## Policy ladder", "",
             f"`{meta['command']}` — {when}; engines {meta['builds']}, {meta['workers']} worker process"
             f"{'es' if meta['workers'] != 1 else ''} on this "
             f"machine's 2 shared cores, load average {meta['load']}"
             + (f"; {meta['wall'] / 60:.1f} minutes wall" if meta.get("wall") else "")
             + f", {sum(r['cpu'] for r in results) / 60:.1f} CPU-minutes in all. "
             + ("The tables are rebuilt from the games a run logged (LADDER_LOG); " if meta.get("from_log") else
                "The same command plays the same games (game i of a pairing has seed i) and prints this section; ")
             + "`--write` puts it here.", "",
             "Win rate is the first-named player's, draws counting half; the interval is the 95% Wilson interval. "
             "Each deal is played twice with the seats swapped and the first player alternating (`--legacy-first`: "
             "the first-named player starts every game, as the ladder had it until 2026-12-06). Elo is the "
             "maximum-likelihood Bradley-Terry fit of all of the game's games, scaled to Elo with its greedy player "
             "at 1500 (" + ", ".join(f"{r['game']} {ladder_games.get(r['game']).anchor}" for r in results)
             + "); with samples this size a difference under "
             "about 50 points is within the noise. CPU-s a game: a pairing's counts both players and the engine; "
             "a search player's, its own decisions only (timed in these games); a fast player's, the whole of its "
             "games against the other fast players (an upper bound of its own: timing decisions that take "
             "microseconds would slow its games by a third)."
             + (f" CPU seconds were taken at load average {meta['load']} on 2 cores: read them as upper bounds."
                if meta.get("loaded") else "")]
    for res in results:
        lines += [""] + game_markdown(res, meta["counts"][res["game"]])
    # prose wrapped as the rest of the docs are (tables and headings as they are)
    out = []
    for line in lines:
        if line.startswith(("|", "#")) or len(line) <= WRAP:
            out.append(line)
        else:
            out += textwrap.wrap(line, WRAP, break_long_words=False, break_on_hyphens=False)
    return "\n".join(out) + "\n"


def counts_text(game: str, players: list[str], records: list[dict]) -> str:
    lg = ladder_games.get(game)
    fast, slow = set(), set()
    for i, a in enumerate(players):
        for b in players[i + 1:]:
            n = sum(1 for r in records if r["a"] == a and r["b"] == b and not r.get("label"))
            (slow if lg.slow(a) or lg.slow(b) else fast).add(n)
    parts = []
    if fast:
        parts.append(f"{'/'.join(map(str, sorted(fast)))} games a pairing of two fast players")
    if slow:
        parts.append(f"{'/'.join(map(str, sorted(slow)))} a pairing with a search player")
    return ", ".join(parts) or "no games"


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


def read_logs(paths: list[str]) -> list[dict]:
    """Game records from LADDER_LOG files: JSON lines, or the r1-only lines of the runs before
    ("('a', 'b') deck_a deck_b score secs", "('camelot',) ..." for the Camelot mirror)."""
    out = []
    for path in paths:
        for line in Path(path).read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            if line.startswith("{"):
                out.append(json.loads(line))
                continue
            key_txt, rest = line.rsplit(")", 1)
            key = ast.literal_eval(key_txt + ")")
            da, db, score, secs = rest.split()
            a, b, label = (key[0], key[1], None) if len(key) == 2 else ("expert", "greedy", "camelot")
            out.append({"game": "r1", "a": a, "b": b, "da": da, "db": db, "score": float(score), "cpu": float(secs),
                        "cpu_a": None, "cpu_b": None, "first": 0, "a_seat": 0, "label": label})
    return out


def _when(t0: datetime.datetime, t1: datetime.datetime) -> str:
    return f"{t0:%Y-%m-%d %H:%M}–{t1:%H:%M} UTC"


def _logged_when(records: list[dict]) -> str:
    """When the logged games finished (logs written before the records carried the time: unknown)."""
    ts = [r["t"] for r in records if "t" in r]
    if not ts:
        return "(from LADDER_LOG files)"
    utc = datetime.timezone.utc
    return "games logged " + _when(datetime.datetime.fromtimestamp(min(ts), utc),
                                   datetime.datetime.fromtimestamp(max(ts), utc))


def _log_players(game: str, records: list[dict]) -> list[str]:
    """A logged run's players in the game's own order (`expert:N` where `expert` stands)."""
    known = ladder_games.get(game).players()
    seen: list[str] = []
    for r in records:
        if r["game"] == game:
            seen += [p for p in (r["a"], r["b"]) if p not in seen]

    def where(p):
        base = p.partition(":")[0]
        return (known.index(base) if base in known else len(known), p)
    return sorted(seen, key=where)


def speed(policies: list[str], games: int = 14) -> dict:
    """r1 self-play games per CPU-second on the seven starter mirrors (each policy against itself)."""
    from simulator.engines.r1 import play_game
    decks = _decks()
    names = sorted(decks)
    out = {}
    for p in policies:
        n = max(7, games // (20 if p.partition(":")[0] == "expert" else 1))
        c0 = time.process_time()
        for i in range(n):
            d = decks[names[i % len(names)]]
            play_game(d, d, seed=i, policies=(p, p))
        out[p] = n / (time.process_time() - c0)
    return out


def main(argv: list[str] | None = None) -> str:
    argv = list(sys.argv[1:] if argv is None else argv)
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--all-games", action="store_true", help="every game with a ladder (scripts/ladder_games.py)")
    ap.add_argument("--game", action="append", help="one game's ladder (repeat for more); default r1")
    ap.add_argument("--quick", action="store_true", help=f"{QUICK[0]} games a fast pairing, {QUICK[1]} with search")
    ap.add_argument("--games", type=int, help="games per pairing of two fast players (default: the game's own)")
    ap.add_argument("--expert-games", type=int, help="games per pairing with a search player")
    ap.add_argument("--camelot", type=int, default=0, help="r1: expert vs greedy Camelot mirror games")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--players", action="append", default=[], metavar="GAME=a,b,...", help="a game's players")
    ap.add_argument("--policies", help="the players when one game is chosen (r1 by default)")
    ap.add_argument("--legacy-first", action="store_true", help="the first-named player starts every game")
    ap.add_argument("--write", action="store_true", help="rewrite docs/engine.md's Policy ladder section")
    ap.add_argument("--from-log", nargs="+", metavar="FILE", help="report LADDER_LOG files instead of playing")
    # the players' CPU-s now come from the ladder games themselves (no self-play run): kept for old command lines
    ap.add_argument("--no-speed", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.all_games:
        games = ladder_games.games()
    else:
        games = args.game or ["r1"]
    chosen: dict = {}
    for item in args.players:
        g, _, names = item.partition("=")
        chosen[g] = names.split(",")
    if args.policies:
        if len(games) != 1:
            ap.error("--policies is for one game; use --players GAME=a,b,... with several")
        chosen.setdefault(games[0], args.policies.split(","))
    n_fast, n_slow = args.games, args.expert_games
    if args.quick:
        n_fast = QUICK[0] if n_fast is None else n_fast
        n_slow = QUICK[1] if n_slow is None else n_slow
    load0 = os.getloadavg()[0]
    started = time.perf_counter()
    t0 = datetime.datetime.now(datetime.timezone.utc)
    players = {}
    if args.from_log:
        records = read_logs(args.from_log)
        loads = [r["load"] for r in records if "load" in r] or [load0]
        load0, load1 = min(loads), max(loads)
        games = [g for g in ladder_games.games() if any(r["game"] == g for r in records)]
        for g in games:
            players[g] = _log_players(g, records)
        # the order a run plays them in (pairing by pairing, seed by seed), whatever order they finished in
        rank = {(g, p): i for g in games for i, p in enumerate(players[g])}
        records.sort(key=lambda r: (r["game"], r.get("label") or "", rank[r["game"], r["a"]],
                                    rank[r["game"], r["b"]], r.get("seed", 0)))
    else:
        jobs = []
        for g in games:
            lg = ladder_games.get(g)
            players[g] = chosen.get(g) or lg.players()
            for p in players[g]:
                lg.check(p)
            jobs += plan(g, players[g], n_fast, n_slow, args.camelot, args.legacy_first)
        records = play_all(jobs, args.workers, os.environ.get("LADDER_LOG"))
        load1 = os.getloadavg()[0]
    wall = time.perf_counter() - started
    t1 = datetime.datetime.now(datetime.timezone.utc)
    results = []
    counts = {}
    for g in games:
        recs = [r for r in records if r["game"] == g]
        res = tally(g, list(players[g]), recs)
        results.append(res)
        counts[g] = counts_text(g, res["players"], recs)
    meta = {"command": "python -m scripts.ladder " + " ".join(argv),
            "when": _when(t0, t1) if not args.from_log else _logged_when(records),
            "builds": ", ".join(f"{g} {ladder_games.get(g).build()}" for g in games),
            "workers": args.workers, "load": f"{load0:.1f}–{load1:.1f}", "loaded": max(load0, load1) > 2.5,
            "wall": 0 if args.from_log else wall, "counts": counts, "from_log": bool(args.from_log)}
    section = markdown(results, meta)
    if args.write:
        write_doc(section)
    print(section)
    return section


if __name__ == "__main__":
    main()
