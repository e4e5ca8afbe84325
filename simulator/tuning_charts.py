"""Charts (pygal, server-rendered SVG like charts.py) and table rows of the tuning reports."""
from __future__ import annotations

import pygal

from .charts import _config, _percent, _render


def _signed(v: float) -> str:
    return f"{v:+.2f}"


def _signed_points(v: float) -> str:
    return f"{v:+.1f} pts"


def short(name: str, limit: int = 22) -> str:
    """A deck's name short enough for an axis ("Starter deck: Camelot — The Fellowship..." -> "Camelot")."""
    if name.lower().startswith("starter deck:"):
        name = name.split(":", 1)[1].split("—")[0].strip()
    if len(name) > limit and " — " in name:   # "The Sunward Throne — Knights of the Dawn": its first part
        name = name.split(" — ")[0].strip()
    return name if len(name) <= limit else name[: limit - 1] + "…"


def compare_chart(result: dict) -> str:
    chart = _config(pygal.Bar, "Win rate against each opponent", show_legend=True, legend_at_bottom=True,
                    value_formatter=_percent, range=(0, 1), x_label_rotation=20 if len(result["opponents"]) > 3
                    else 0)
    rows = result["opponents"]
    chart.x_labels = [short(r["opponent"]) for r in rows]
    chart.add(f"A: {short(result['a']['name'])}", [r["a_win_rate"] for r in rows])
    chart.add(f"B: {short(result['b']['name'])}", [r["b_win_rate"] for r in rows])
    return _render(chart)


def delta_chart(title: str, labels: list[str], deltas: list[float], cis: list, *, scale: float = 1.0) -> str:
    """Each delta with its 95% interval as the bar's error range (pygal's ci metadata); `scale` 100 draws a
    difference of rates in percentage points."""
    deltas = [None if d is None else d * scale for d in deltas]
    cis = [None if not c else (c[0] * scale, c[1] * scale) for c in cis]
    chart = _config(pygal.Bar, title, value_formatter=_signed if scale == 1.0 else _signed_points, x_label_rotation=20 if len(labels) > 3 else 0,
                    max_scale=6, min_scale=3,
                    truncate_label=24)
    chart.x_labels = [short(label, 24) for label in labels]
    chart.add("delta", [{"value": d or 0.0, "ci": {"low": c[0], "high": c[1]}} if c else (d or 0.0)
                        for d, c in zip(deltas, cis)])
    return _render(chart)


def ratings_chart(result: dict) -> str:
    chart = _config(pygal.Bar, "Rating (Bradley–Terry, Elo scale) with 95% interval",
                    value_formatter=lambda v: f"{v:+.0f}", x_label_rotation=20 if len(result["ratings"]) > 3 else 0)
    rows = result["ratings"]
    chart.x_labels = [short(r["name"]) for r in rows]
    chart.add("rating", [{"value": r["rating"], "ci": {"low": r["ci95"][0], "high": r["ci95"][1]}} for r in rows])
    return _render(chart)


def _heat(rate: float | None) -> str:
    """A cell's background: red under 50%, blue over, pale near even."""
    if rate is None:
        return ""
    d = max(-1.0, min(1.0, (rate - 0.5) * 2))
    if d >= 0:
        return f"background: rgba(47, 95, 168, {0.1 + 0.5 * d:.2f})"
    return f"background: rgba(178, 58, 42, {0.1 + 0.5 * -d:.2f})"


def report_context(result: dict) -> dict:
    kind = result["kind"]
    charts: list[tuple[str, str]] = []
    context: dict = {"charts": charts}
    if kind == "compare":
        if result["opponents"]:
            charts.append(("Win rates", compare_chart(result)))
            charts.append(("A − B win rate in percentage points, with 95% intervals",
                           delta_chart("A − B win rate (percentage points)",
                                       [r["opponent"] for r in result["opponents"]],
                                       [r["delta"] for r in result["opponents"]],
                                       [r["ci95"] for r in result["opponents"]], scale=100.0)))
    elif kind == "tune":
        top = [s for s in result["swaps"] if s["delta"] is not None][:10]
        if top:
            charts.append(("Best swaps", delta_chart(f"Improvement ({result['delta_means']})" if result.get("target") == "goldfish"
                                                     else "Improvement (percentage points of win rate)",
                                                     [f"#{i + 1}" for i in range(len(top))],
                                                     [s["delta"] for s in top],
                                                     [s["ci95"] for s in top],
                                                     scale=1.0 if result.get("target") == "goldfish" else 100.0)))
        context["top_swaps"] = top
    else:
        names = [d["name"] for d in result["decks"]]
        by = {(c["deck"], c["opponent"]): c for c in result["cells"]}
        context["ratings_rows"] = [{**r, "short": short(r["name"], 28)} for r in result["ratings"]]
        context["matrix_rows"] = [
            {"name": short(names[i], 16), "full": names[i],
             "cells": [({**by[(i, j)], "style": _heat(by[(i, j)]["win_rate"])} if (i, j) in by else None)
                       for j in range(len(names))]}
            for i in range(len(names))]
        context["matrix_names"] = [(short(n, 12), n) for n in names]
        charts.append(("Ratings", ratings_chart(result)))
    return context
