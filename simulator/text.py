"""Plain-text rendering of a report, for `manage.py simulate` without --json."""
from __future__ import annotations


def _pct(p) -> str:
    return "–" if p is None else f"{100 * p:.1f}%"


def _num(x, digits=2) -> str:
    return "–" if x is None else f"{x:.{digits}f}"


def _deck_lines(result: dict) -> list[str]:
    lines = []
    for key in ("deck", "opponent"):
        deck = result.get(key)
        if not deck:
            continue
        legal = "legal" if deck.get("legal") else "NOT LEGAL (§11): " + "; ".join(deck.get("problems", [])[:5])
        lines.append(f"{key.capitalize()}: {deck.get('name')} ({deck.get('faction')}, {deck.get('draw_cards')} draw "
                     f"cards) — {legal}")
    return lines


def report_text(result: dict) -> str:
    mode = result["mode"]
    lines = [f"Simulation: {mode}", *_deck_lines(result)]
    if mode == "hands":
        setup = result["setup"]
        lines.append(f"Sampled {setup['samples']} opening hands (seed {result.get('seed')}); best legal setup (§4) "
                     f"of each:")
        lines.append(f"  mean units {_num(setup['mean_units'])}, mean Power {_num(setup['mean_power'])}, "
                     f"mean budget used {_num(setup['mean_budget_used'])} of {setup.get('budget', 8)}, empty setup {_pct(setup['p_empty'])}")
        mull = result["mulligan"]
        lines.append(f"  mulligan policy: {mull['policy']} — rate {_pct(mull['rate'])}")
        lines.append("Exact probabilities (at least k copies): opening 7 / with mulligan / seen by round 1..")
        for row in result["cards"]:
            seen = " ".join(_pct(p) for p in row["p_seen_by_round"])
            lines.append(f"  {row['name']} (k={row['k']}, {row['copies']} copies): {_pct(row['p_opening'])} / "
                         f"{_pct(row['p_with_mulligan'])} / {seen}")
    elif mode == "goldfish":
        wr = result["win_round"]
        lines.append(f"{result['games']} games against the goldfish (seed {result['seed']}): won "
                     f"{_pct(result['win_rate'])}, eliminated {_pct(result['eliminated_rate'])}")
        lines.append(f"  winning round: mean {_num(wr['mean'])}, median {wr['median']}, min {wr['min']}, "
                     f"max {wr['max']}")
        lines.append("  Influence by round: " + " ".join(_num(x, 1) for x in result["influence_by_round"][:15]))
        if result["unsupported_cards"]:
            lines.append("  Cards whose text the engine does not run: " + ", ".join(result["unsupported_cards"]))
    else:
        lo, hi = result["ci95"] or (None, None)
        lines.append(f"{result['games']} games (seed {result['seed']}): {result['wins']} wins, {result['losses']} "
                     f"losses, {result['draws']} draws — win rate {_pct(result['win_rate'])} "
                     f"(95% CI {_pct(lo)}–{_pct(hi)})")
        lines.append(f"  mean length {_num(result['mean_rounds'])} rounds; whoever was first player in round 1 "
                     f"won {_pct(result['first_player_win_rate'])}")
        for label, key in (("first", "going_first"), ("second", "going_second")):
            side = result.get(key)
            if side:  # the first deck's record by who was first player in round 1 (§5.1: Momentum decides)
                lo, hi = side["ci95"] or (None, None)
                lines.append(f"  the deck went {label} in round 1 in {side['games']} games and won "
                             f"{_pct(side['win_rate'])} of them (95% CI {_pct(lo)}–{_pct(hi)})")
    lines.append(f"Elapsed: {result.get('elapsed_s')} s")
    return "\n".join(lines) + "\n"
