"""The human-readable form of a tuning report (the commands without --json)."""
from __future__ import annotations


def _pct(x) -> str:
    return "–" if x is None else f"{100 * x:.1f}%"


def _pts(x) -> str:
    return "–" if x is None else f"{100 * x:+.1f} pts"


def _ci(ci, scale: float = 100.0, unit: str = "") -> str:
    if not ci:
        return ""
    return f" [{scale * ci[0]:+.1f}, {scale * ci[1]:+.1f}]{unit}"


def tuning_text(result: dict) -> str:
    kind = result["kind"]
    lines = []
    if kind == "compare":
        a, b = result["a"]["name"], result["b"]["name"]
        gf = result["goldfish"]
        lines.append(f"{a} (A) against {b} (B), {result['games']} games per opponent, seed {result['seed']}, "
                     f"common random numbers")
        if gf and gf["delta_rounds"] is not None:
            lines.append(f"goldfish: A {gf['a_mean_rounds']:.2f} rounds, B {gf['b_mean_rounds']:.2f}; "
                         f"A - B {gf['delta_rounds']:+.2f}{_ci(gf['ci95'], 1.0, ' rounds')} (negative: A is faster)")
        for row in result["opponents"]:
            lines.append(f"  vs {row['opponent']}: A {_pct(row['a_win_rate'])}, B {_pct(row['b_win_rate'])}, "
                         f"A - B {_pts(row['delta'])}{_ci(row['ci95'])}")
        if result.get("overall"):
            o = result["overall"]
            lines.append(f"overall: A {_pct(o['a_win_rate'])}, B {_pct(o['b_win_rate'])}, "
                         f"A - B {_pts(o['delta'])}{_ci(o['ci95'])}")
    elif kind == "tune":
        base = result["baseline"]
        goldfish = result["target"] == "goldfish"
        gain = result["delta_means"] if goldfish else "percentage points of win rate against the gauntlet"
        lines.append(f"Swaps for {result['deck']['name']} (gain: {gain}), {result['candidates']} candidates, "
                     f"{result['games_spent']:,} games")
        for s in result["swaps"][:10]:
            if s["delta"] is None:
                continue
            # a win rate's gain in percentage points, as the page and the comparisons show it
            gained = (f"{s['delta']:+.2f} rounds{_ci(s['ci95'], 1.0)}" if goldfish
                      else f"{_pts(s['delta'])}{_ci(s['ci95'], 100.0, ' pts')}")
            lines.append(f"  {s['label']}: {gained} over {s['games']} games"
                         + (" (finalist)" if s["finalist"] else ""))
            if s.get("why"):
                lines.append(f"      why: {s['why']}")
        if result["dead_weight"]:
            lines.append("dead weight: " + ", ".join(f"{d['copies']}x {d['name']}" for d in result["dead_weight"]))
        if result.get("opponent_only"):
            lines.append("not judged against the goldfish (only an opponent gives them a use): "
                         + ", ".join(f"{d['copies']}x {d['name']}" for d in result["opponent_only"]))
        if "mean_rounds" in base:
            lines.append(f"the deck as it is: {base['mean_rounds']:.2f} rounds, won {_pct(base['win_rate'])} of "
                         f"{base['games']} goldfish games")
        else:
            lines.append(f"as it is: win rate {_pct(base['win_rate'])} over {base['games']} games")
    else:
        names = [d["name"] for d in result["decks"]]
        lines.append(f"Meta matrix of {len(names)} decks, {result['games']} games per pairing")
        for r in result["ratings"]:
            lines.append(f"  {r['rating']:+7.1f} ± {1.96 * r['se']:.1f}  {r['name']}")
        for c in result["cells"]:
            if c["deck"] < c["opponent"]:
                lines.append(f"  {names[c['deck']]} vs {names[c['opponent']]}: {_pct(c['win_rate'])}"
                             + (f" [{_pct(c['ci95'][0])}, {_pct(c['ci95'][1])}]" if c["ci95"] else ""))
    lines.append(f"elapsed {result.get('elapsed_s', 0):.1f} s")
    return "\n".join(lines) + "\n"
