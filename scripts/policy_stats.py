"""Play statistics of the r1 policies over the starter round-robin ("Measured, not claimed").

    python -m scripts.policy_stats                         # greedy vs greedy, 5 games per ordered starter pair
    python -m scripts.policy_stats --a greedy-v1 --b greedy-v1 --games 5
    python -m scripts.policy_stats --a greedy --b greedy-v1 --games 10   # head-to-head, both seats, Wilson 95%
    python -m scripts.policy_stats --speed                 # greedy-vs-greedy games per CPU-second (play_game)
    python -m scripts.policy_stats --instructions --games 49   # instructions per game (callgrind), load-free

Every ordered pair of the seven starters (cards/data/starters, read as scripts/bench_engine.py reads them) is
played `--games` times with seeds 0.., and policy A takes seat 0 in even seeds and seat 1 in odd ones, so each
policy plays each deck from both seats. Needs no database.

What is counted (per policy, over the struggles it initiates and the decisions it makes):
- struggles: initiated, won by the attacker, won unopposed (§6.2 S.10), defended (any defender declared at S.6);
- attacks into an empty defence (the defender had no ready unit with the icon that may defend) and the attackers
  sent into them;
- Power pumps used during a struggle (abilities the greedy player files as "pump"), on a participant or not;
- Secret: secret-places (§10.9), hides at setup (§4), reveals; and how often each was legal;
- quests chosen (round 1 and all rounds) per deck, the first-player choice (§5.1), the setup budget used (§4);
- every Secret and "–"-cost card of the starters: how many times it entered play (played, revealed or put in).
"""
from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scripts.bench_engine import starter_decks  # noqa: E402


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, mid - half), min(1.0, mid + half))


class Stats:
    def __init__(self):
        self.c: Counter = Counter()
        self.quests_r1: dict = defaultdict(Counter)
        self.quests_all: dict = defaultdict(Counter)
        self.special: Counter = Counter()      # Secret / "–" cards entering play
        self.budget_used: list = []
        self.budget_bonus: list = []            # setups with a budget above 8: (used, budget)

    def merge(self, o: "Stats") -> None:
        self.c.update(o.c)
        for k, v in o.quests_r1.items():
            self.quests_r1[k].update(v)
        for k, v in o.quests_all.items():
            self.quests_all[k].update(v)
        self.special.update(o.special)
        self.budget_used += o.budget_used
        self.budget_bonus += o.budget_bonus


def _special_cards(deck) -> set:
    """Names of the deck's Secret cards and "–"-cost cards (cards that can only be revealed or put into play)."""
    from simulator.engines.r1.cards import KW_SECRET
    out = set()
    for d in deck.draw:
        if d.kw & KW_SECRET or (d.raw.get("cost") in ("–", "-")):
            out.add(d.name)
    return out


def _pump_ab(game, src: int, a):
    from simulator.engines.r1.policies import ability_hint
    cd = game.cdef[src]
    if a[0] == "deed" or a[0] == "reveal":
        ab = cd.play_ability
    else:
        ab = next((x for x in cd.abilities if x.index == a[2]), None)
    return ab if ab is not None and not ab.harmful and ability_hint(ab) == "pump" else None


class _Recorder:
    """A policy that answers like `pol` and records what it chose (choose and declare are wrapped)."""

    def __init__(self, pol, choose, declare):
        self.choose = choose
        self.declare = declare
        self.wants_window = getattr(pol, "wants_window", None)
        self.ability_filter = getattr(pol, "ability_filter", None)


def play_one(deck_a, deck_b, seed: int, pol_names, stats: list, names: tuple):
    """One game like play_game, with the choices of both players recorded into stats[seat]."""
    from simulator.engines.r1 import _policy_seed, make_policy
    from simulator.engines.r1.game import DONE, Game
    from simulator.engines.r1.policies import GreedyV1Policy

    pols = [make_policy(pol_names[0], _policy_seed(seed, 0)), make_policy(pol_names[1], _policy_seed(seed, 1))]
    game = Game(deck_a, deck_b, seed=seed, max_rounds=50, autostart=False)
    special = [_special_cards(deck_a), _special_cards(deck_b)]
    pending_pump: list = [None]       # (player, src, ab) chosen in a struggle, waiting for its target
    setup_used = [0, 0]
    setup_budget = [8, 8]
    setup_names: list = [set(), set()]
    hide_seen = [False, False]
    from simulator.engines.r1.game import FIELD
    sp_iids = [[i for i in range(len(game.cdef)) if game.owner[i] == q and game.cdef[i].name in special[q]]
               for q in (0, 1)]
    entered: list = [set(), set()]     # Secret / "–" cards seen in the field, or revealed deeds

    def look():
        for q in (0, 1):
            for i in sp_iids[q]:
                if game.zone[i] == FIELD:
                    entered[q].add(i)

    def observe(g, what, s):
        if what != "struggle_end":
            return
        st = stats[s.attacker].c
        st["struggles"] += 1
        if g.first == s.attacker:
            st["struggles_by_first"] += 1
            st["unopposed_by_first"] += 1 if s.unopposed else 0
        if s.winner == s.attacker:
            st["attacker_won"] += 1
        if s.unopposed:
            st["unopposed"] += 1
        if s.declared_defenders:
            st["defended"] += 1
            stats[s.defender].c["defences"] += 1
        stats[s.defender].c["struggles_against"] += 1

    game.observer = observe

    def wrap(p):
        pol = pols[p]
        st = stats[p]

        def record_pump(target: int):
            s = game.struggle
            part = s is not None and (target in s.attackers or target in s.defenders)
            st.c["pump_on_participant" if part else "pump_elsewhere"] += 1

        def choose(g, dec):
            look()
            a = pol.choose(g, dec)
            k = dec.kind
            if pending_pump[0] is not None and k != "target":
                pending_pump[0] = None
            if k == "window" or k == "react":
                if k == "window":
                    if any(o[0] == "secret" for o in dec.options if isinstance(o, tuple)):
                        st.c["secret_place_legal"] += 1
                    if any(o[0] == "reveal" for o in dec.options if isinstance(o, tuple)):
                        st.c["reveal_legal"] += 1
                if isinstance(a, tuple) and a[0] == "secret":
                    st.c["secret_place"] += 1
                elif isinstance(a, tuple) and a[0] == "reveal":
                    st.c["reveal"] += 1
                    entered[p].add(a[1])
                if isinstance(a, tuple) and a[0] in ("ability", "deed") and game.struggle is not None:
                    ab = _pump_ab(game, a[1], a)
                    if ab is not None:
                        if ab.target is None:
                            record_pump(a[1])
                        else:
                            cands = game._target_candidates(ab.target, p, a[1], ab, None, a[0] == "deed")
                            if len(cands) == 1:
                                record_pump(cands[0])
                            elif cands:
                                pending_pump[0] = (p, a[1])
            elif k == "target":
                if pending_pump[0] is not None and pending_pump[0][0] == p and dec.info[0] == pending_pump[0][1]:
                    if a != DONE:
                        record_pump(a[1])
                    pending_pump[0] = None
            elif k == "setup":
                setup_budget[p] = dec.info["budget"]
                if not hide_seen[p] and any(o[0] == "hide" for o in dec.options if isinstance(o, tuple)):
                    st.c["hide_legal_setups"] += 1
                    hide_seen[p] = True
                if a != DONE:
                    d = game.cdef[a[1]]
                    dup = d.unique and d.name in setup_names[p] and a[0] == "place"
                    cost = 0 if dup else d.cost + game.loyalty_surcharge(p, d) + (2 if a[0] == "hide" else 0)
                    setup_used[p] += cost
                    if a[0] == "place":
                        setup_names[p].add(d.name)
                    if a[0] == "hide":
                        st.c["setup_hide"] += 1
            elif k == "quest":
                q = game.cdef[a[1]].name
                st.quests_all[names[p]][q] += 1
                if game.round_no <= 1:
                    st.quests_r1[names[p]][q] += 1
            elif k == "first_player":
                st.c["first_player_choices"] += 1
                if a[1] == p:
                    st.c["first_player_me"] += 1
            return a
        return choose

    def declare_wrap(p):
        fn = getattr(pols[p], "declare", None)
        if fn is None:
            return None

        def declare(g, kind, pl, elig, t):
            if kind == "attackers":
                opp = 1 - pl
                their = [j for j in GreedyV1Policy._ready_units(g, opp, "cannot_defend")
                         if g.cdef[j].icons & (1 << t)]
            can_deny = kind == "defenders" and any(g.power(j) > 0 for j in elig)
            out = fn(g, kind, pl, elig, t)
            if can_deny:
                stats[pl].c["could_deny"] += 1
                stats[pl].c["denied" if any(g.power(j) > 0 for j in out) else "declined"] += 1
            if kind == "attackers" and not their:
                stats[pl].c["empty_defence_attacks"] += 1
                stats[pl].c["empty_defence_attackers"] += len(out)
            return out
        return declare

    game._set_policies([_Recorder(pols[0], wrap(0), declare_wrap(0)), _Recorder(pols[1], wrap(1), declare_wrap(1))])
    game.play()
    for p in (0, 1):
        stats[p].c["games"] += 1
        stats[p].budget_used.append((setup_used[p], setup_budget[p]))
        if setup_budget[p] > 8:
            stats[p].budget_bonus.append((setup_used[p], setup_budget[p]))
        if game.winner == p:
            stats[p].c["wins"] += 1
    look()
    for p in (0, 1):
        for i in entered[p]:
            stats[p].special[(names[p], game.cdef[i].name)] += 1
    return game


def run(pa: str, pb: str, games: int, only=None) -> dict:
    decks = starter_decks()
    dnames = sorted(decks)
    if only:
        dnames = [n for n in dnames if n in only]
    sa, sb = Stats(), Stats()
    head = Counter()
    per_deck = defaultdict(Counter)
    c0 = time.process_time()
    n = 0
    for a in dnames:
        for b in dnames:
            for k in range(games):
                seed = (dnames.index(a) * 10 + dnames.index(b)) * 1000 + k
                swap = k % 2 == 1
                s0, s1 = Stats(), Stats()
                if not swap:
                    g = play_one(decks[a], decks[b], seed, (pa, pb), [s0, s1], (a, b))
                    sa.merge(s0)
                    sb.merge(s1)
                    wa = g.winner == 0
                    wb = g.winner == 1
                    da, db = a, b
                else:
                    g = play_one(decks[b], decks[a], seed, (pb, pa), [s0, s1], (b, a))
                    sa.merge(s1)
                    sb.merge(s0)
                    wa = g.winner == 1
                    wb = g.winner == 0
                    da, db = a, b
                n += 1
                head["games"] += 1
                head["a_wins"] += wa
                head["b_wins"] += wb
                per_deck[da]["a_games"] += 1
                per_deck[da]["a_wins"] += wa
                per_deck[db]["b_games"] += 1
                per_deck[db]["b_wins"] += wb
    cpu = time.process_time() - c0
    return {"a": pa, "b": pb, "sa": sa, "sb": sb, "head": head, "per_deck": per_deck, "cpu": cpu, "n": n}


def summary(st: Stats) -> dict:
    c = st.c
    s = max(c["struggles"], 1)
    pumps = c["pump_on_participant"] + c["pump_elsewhere"]
    top_r1 = {}
    for deck, cnt in sorted(st.quests_r1.items()):
        tot = sum(cnt.values())
        q, m = cnt.most_common(1)[0]
        top_r1[deck] = {"top": q, "share": round(m / tot, 3), "distinct": len(cnt), "games": tot}
    used = [u for u, _ in st.budget_used]
    return {
        "games": c["games"], "struggles": c["struggles"],
        "unopposed_share": round(c["unopposed"] / s, 3),
        "defended_share": round(c["defended"] / s, 3),
        "struggles_by_first_player_share": round(c["struggles_by_first"] / s, 3),
        "unopposed_share_first_player": round(c["unopposed_by_first"] / max(c["struggles_by_first"], 1), 3),
        "unopposed_share_second_player": round((c["unopposed"] - c["unopposed_by_first"])
                                               / max(c["struggles"] - c["struggles_by_first"], 1), 3),
        "attacker_win_share": round(c["attacker_won"] / s, 3),
        "pumps_in_struggles": pumps,
        "pumps_on_participants_share": round(c["pump_on_participant"] / pumps, 3) if pumps else None,
        "secret_place": c["secret_place"], "secret_place_legal_windows": c["secret_place_legal"],
        "setup_hide": c["setup_hide"], "setups_with_legal_hide": c["hide_legal_setups"],
        "reveal": c["reveal"], "reveal_legal_windows": c["reveal_legal"],
        "first_player_me_share": round(c["first_player_me"] / c["first_player_choices"], 3)
        if c["first_player_choices"] else None,
        "first_player_choices": c["first_player_choices"],
        "setup_budget_used_mean": round(sum(used) / max(len(used), 1), 2),
        "setups_with_bonus_budget": len(st.budget_bonus),
        "bonus_budget_used_mean": round(sum(u for u, _ in st.budget_bonus) / len(st.budget_bonus), 2)
        if st.budget_bonus else None,
        "bonus_setups_over_8": sum(1 for u, _ in st.budget_bonus if u > 8),
        "empty_defence_attacks": c["empty_defence_attacks"],
        "defences_with_a_unit_with_power": c["could_deny"], "of_them_declined": c["declined"],
        "attackers_per_empty_defence": round(c["empty_defence_attackers"] / c["empty_defence_attacks"], 2)
        if c["empty_defence_attacks"] else None,
        "opening_quest": top_r1,
        "secret_and_dash_cards_entered": {f"{d}: {n}": v for (d, n), v in sorted(st.special.items())},
    }


def speed(games: int = 147, runs: int = 3, policies=("greedy", "greedy")) -> float:
    from simulator.engines.r1 import ENGINE_BUILD, play_game
    decks = starter_decks()
    names = sorted(decks)
    pairs = [(a, b) for a in names for b in names]
    for i in range(49):
        play_game(decks[pairs[i][0]], decks[pairs[i][1]], seed=10_000 + i, policies=policies)
    rates = []
    for _ in range(runs):
        c0 = time.process_time()
        for i in range(games):
            a, b = pairs[i % 49]
            play_game(decks[a], decks[b], seed=i, policies=policies)
        rates.append(games / (time.process_time() - c0))
    rates.sort()
    print(f"engine build: {ENGINE_BUILD}; {policies[0]} vs {policies[1]}: "
          f"{rates[len(rates) // 2]:.0f} games per CPU-second (median of {runs} runs of {games})")
    return rates[len(rates) // 2]


_IR_SCRIPT = r"""
import sys
sys.path.insert(0, sys.argv[3])
from scripts.bench_engine import starter_decks
from simulator.engines.r1 import play_game
decks = starter_decks(); names = sorted(decks)
pairs = [(a, b) for a in names for b in names]
pol, n = sys.argv[1].split(","), int(sys.argv[2])
for i in range(20):
    play_game(decks[names[i % 7]], decks[names[(i + 3) % 7]], seed=1000 + i, policies=pol)   # warm the caches
rounds = 0
for i in range(n):
    a, b = pairs[i % 49]
    rounds += play_game(decks[a], decks[b], seed=i, policies=pol).rounds
print("ROUNDS", rounds)
"""


def instructions(policies=("greedy", "greedy"), games: int = 49) -> dict:
    """Machine instructions per game under callgrind (the same on every run whatever the machine's load), and
    rounds per game: (count(games) - count(0)) / games."""
    import os
    import re
    import subprocess
    import tempfile
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(_IR_SCRIPT)

    def count(n: int) -> tuple[int, int]:
        out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
                              f.name, ",".join(policies), str(n), str(ROOT)], capture_output=True, text=True,
                             timeout=3600)
        m = re.search(r"Collected\s*:\s*(\d+)", out.stderr)
        r = re.search(r"ROUNDS (\d+)", out.stdout)
        if not m or not r:
            raise RuntimeError(out.stderr[-2000:])
        return int(m.group(1)), int(r.group(1))
    try:
        base, _ = count(0)
        total, rounds = count(games)
        return {"policies": list(policies), "games": games, "instructions_per_game": (total - base) / games,
                "rounds_per_game": rounds / games}
    finally:
        os.unlink(f.name)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--a", default="greedy")
    ap.add_argument("--b", default="greedy")
    ap.add_argument("--games", type=int, default=5, help="games per ordered pair of starters")
    ap.add_argument("--decks", default="", help="comma-separated starter names (default: all seven)")
    ap.add_argument("--speed", action="store_true")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--instructions", action="store_true",
                    help="instructions per game under valgrind's callgrind for --a vs --b (load-independent)")
    args = ap.parse_args(argv)
    if args.speed:
        speed(policies=(args.a, args.b))
        return 0
    if args.instructions:
        print(json.dumps(instructions((args.a, args.b), args.games)))
        return 0
    r = run(args.a, args.b, args.games, [d for d in args.decks.split(",") if d] or None)
    h = r["head"]
    out = {"a": args.a, "b": args.b, "games": h["games"], "cpu_s": round(r["cpu"], 1),
           "a_wins": h["a_wins"], "b_wins": h["b_wins"], "draws": h["games"] - h["a_wins"] - h["b_wins"]}
    lo, hi = wilson(h["a_wins"] + 0.5 * out["draws"], h["games"])
    out["a_score"] = round((h["a_wins"] + 0.5 * out["draws"]) / max(h["games"], 1), 3)
    out["a_score_95"] = [round(lo, 3), round(hi, 3)]
    out["per_deck_a_win"] = {d: round(v["a_wins"] / v["a_games"], 2) for d, v in sorted(r["per_deck"].items())
                             if v["a_games"]}
    both = Stats()
    both.merge(r["sa"])
    both.merge(r["sb"])
    out["stats_a"] = summary(r["sa"])
    if args.a != args.b:
        out["stats_b"] = summary(r["sb"])
    else:
        out["stats_both"] = summary(both)
        del out["stats_a"]
    print(json.dumps(out, indent=1 if args.json else 1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
