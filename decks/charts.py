"""A deck's statistics as server-rendered SVG charts (pygal): readable without JavaScript, redrawn by htmx.

The simulator has its own chart module; decks cannot import it (dependencies point cards <- decks <- simulator), so
this one follows the same recipe: no <style>/<script> inside the SVG (the Content-Security-Policy forbids inline
ones) and one stylesheet, `chart_css()`, served at /decks/charts.css and scoped to `.deck-chart svg`.
"""
from __future__ import annotations

import html
import json
import re
from functools import lru_cache

import pygal
from pygal.style import Style

from cards.games.r1.facts import DRAW_TYPES, ICONS

STYLE = Style(background="transparent", plot_background="transparent", foreground="#333",
              foreground_strong="#111", foreground_subtle="#bbb", opacity=".9", opacity_hover="1",
              colors=("#7a1f1f", "#d98b1a", "#2f5fa8", "#2e7d32", "#6a2c91", "#4fa3c7", "#6b6b6b", "#8c7b62"),
              font_family="system-ui, sans-serif", title_font_size=14, label_font_size=12,
              major_label_font_size=12, legend_font_size=12, value_font_size=11)
_STYLE_ELEMENT = re.compile(r"<style[^>]*>(.*?)</style>", re.S)
_SCRIPT_ELEMENT = re.compile(r"<script[^>]*>.*?</script>", re.S)
FACTION_LABELS = {"camelot": "Camelot", "eleven": "Eleven", "lefay": "Le Fay", "keepers": "Keepers",
                  "summer": "Summer", "winter": "Winter", "saracen": "Saracen", "neutral": "Neutral"}


def _chart(kind, title: str, *, height: int = 220, **kwargs):
    return kind(title=title, style=STYLE, width=420, height=height, disable_xml_declaration=True, js=[],
                no_prefix=True, explicit_size=False, show_legend=kwargs.pop("show_legend", False),
                legend_at_bottom=True, print_values=kwargs.pop("print_values", True), show_y_guides=False,
                margin=6, **kwargs)


def _render(chart, title: str) -> str:
    svg = chart.render(is_unicode=True).replace(' id=""', "", 1)
    svg = _SCRIPT_ELEMENT.sub("", _STYLE_ELEMENT.sub("", svg))
    return svg.replace("<svg ", f'<svg role="img" aria-label="{html.escape(title)}" ', 1)


def _bar(title: str, labels: list[str], series: dict[str, list[int]], *, horizontal: bool = False,
         stacked: bool = False, x_title: str | None = None) -> str:
    """Bars in the order given: left to right, or top to bottom when horizontal (pygal draws a horizontal
    chart's first label at the bottom, so the order is turned over for it: the largest bar first, on top)."""
    kind = (pygal.HorizontalStackedBar if stacked else pygal.HorizontalBar) if horizontal else \
        (pygal.StackedBar if stacked else pygal.Bar)
    if horizontal:
        labels = labels[::-1]
        series = {name: values[::-1] for name, values in series.items()}
    axis = {"show_x_guides": False} if horizontal else {"show_y_labels": False}
    axis["y_labels"] = _count_ticks(labels, series, stacked)  # whole numbers: these are counts of cards
    chart = _chart(kind, title, show_legend=len(series) > 1, x_title=x_title, **axis,
                   height=max(160, 26 * len(labels) + 70) if horizontal else 220,
                   print_zeroes=False, value_formatter=lambda v: f"{v:g}")
    chart.x_labels = labels
    for name, values in series.items():
        chart.add(name, values)
    return _render(chart, title)


def _count_ticks(labels: list[str], series: dict[str, list[int]], stacked: bool) -> list[int]:
    """0, step, 2*step ... up to the tallest bar, with a step of 1, 2 or 5 times a power of ten: at most seven
    ticks (pygal's own scale put 0.1 steps under a bar of 1 card).

    >>> _count_ticks(["a"], {"n": [1]}, False), _count_ticks(["a", "b"], {"n": [39, 20]}, False)
    ([0, 1], [0, 10, 20, 30, 40])
    """
    columns = [list(values) for values in series.values()]
    heights = [sum(col[i] for col in columns) if stacked else max(col[i] for col in columns)
               for i in range(len(labels))] or [0]
    top = max(1, max(heights))
    magnitude = 1
    while True:
        step = next((m * magnitude for m in (1, 2, 5) if top / (m * magnitude) <= 6), None)
        if step is not None:
            break
        magnitude *= 10
    last = -(-top // step) * step  # the tallest bar, rounded up to a tick
    return list(range(0, last + 1, step))


def _every_value(curve: dict[str, int]) -> dict[str, int]:
    """A curve with every whole value from its lowest to its highest, the missing ones at 0: a cost or Power
    nobody has is a gap in the curve, not a value to skip (0, 1, 2, 3, 5 read as if 5 came after 3)."""
    numbers = [int(k) for k in curve]
    if not numbers:
        return {}
    return {str(v): curve.get(str(v), 0) for v in range(min(numbers), max(numbers) + 1)}


_CACHE: dict[str, list[dict]] = {}
_CACHE_SIZE = 256


def deck_charts(stats: dict) -> list[dict]:
    """`_deck_charts`, remembered for the last few hundred distinct statistics: pygal takes tens of milliseconds,
    and a deck page or an unchanged list in the editor asks for the same charts again and again."""
    key = json.dumps(stats, sort_keys=True, default=str)
    charts = _CACHE.get(key)
    if charts is None:
        charts = _deck_charts(stats)
        if len(_CACHE) >= _CACHE_SIZE:
            _CACHE.pop(next(iter(_CACHE)))  # oldest first: dicts keep insertion order
        _CACHE[key] = charts
    return [dict(chart) for chart in charts]


def _deck_charts(stats: dict) -> list[dict]:
    """The editor's and the deck page's charts from `deck_stats(...)`: [{"id", "title", "svg"}], only those with
    data. Each chart also has a short text summary (`alt`) for screen readers and for pages without images."""
    out: list[dict] = []

    def add(key: str, title: str, alt: str, svg: str) -> None:
        out.append({"id": key, "title": title, "alt": alt, "svg": svg})

    curve, raised = _every_value(stats["cost_curve"]), stats.get("surcharged_curve", {})
    if curve:
        # §9.3: the Loyalty surcharge moves an off-faction card up the curve; its part of each bar is drawn apart.
        labels = list(curve)
        series = {"in faction / neutral": [curve[k] - raised.get(k, 0) for k in labels]}
        if raised:
            series["off-faction, cost + Loyalty (§9.3)"] = [raised.get(k, 0) for k in labels]
        extra = (f"; cost X {stats['cost_x']}" if stats["cost_x"] else "") + \
            (f"; cost – {stats['cost_dash']}" if stats["cost_dash"] else "")
        add("cost", "Cost curve (with Loyalty)", ", ".join(f"cost {k}: {v}" for k, v in curve.items()) + extra,
            _bar("Cost curve (with Loyalty)", labels, series, stacked=True, x_title="cost to play"))
    power = _every_value(stats["power_curve"])
    if power:
        add("power", "Power curve (units)", ", ".join(f"Power {k}: {v}" for k, v in power.items()),
            _bar("Power curve (units)", list(power), {"units": list(power.values())}, x_title="Power"))
    icons = stats["icons"]
    if any(v["units"] for v in icons.values()):
        add("icons", "Icon coverage", ", ".join(f"{i}: {icons[i]['units']} units, {icons[i]['power']} Power"
                                                for i in ICONS),
            _bar("Icon coverage", list(ICONS), {"units": [icons[i]["units"] for i in ICONS],
                                                 "their Power": [icons[i]["power"] for i in ICONS]}))
    order = [t for t in (*DRAW_TYPES, "quest") if stats["by_type"].get(t)]
    if order:  # a list of only a faction card and a destiny has nothing to chart (pygal drew a huge "No data")
        add("types", "Card types", ", ".join(f"{t}s: {stats['by_type'][t]}" for t in order),
            _bar("Card types", [f"{t}s" for t in order], {"cards": [stats["by_type"][t] for t in order]},
                 horizontal=True))
    if stats["by_faction"]:
        items = sorted(stats["by_faction"].items(), key=lambda kv: -kv[1])
        add("factions", "Draw cards by faction", ", ".join(f"{FACTION_LABELS.get(f, f)}: {n}" for f, n in items),
            _bar("Draw cards by faction", [FACTION_LABELS.get(f, f) for f, _ in items],
                 {"cards": [n for _, n in items]}, horizontal=True))
    if stats["by_attribute"]:
        items = list(stats["by_attribute"].items())[:10]
        add("attributes", "Attributes (top 10)", ", ".join(f"{a}: {n}" for a, n in items),
            _bar("Attributes (top 10)", [a for a, _ in items], {"cards": [n for _, n in items]}, horizontal=True))
    quests = stats["quests"]
    if quests["count"]:
        names = ("wealth", "momentum", "spoils", "levy")
        add("quests", f"Quest deck totals ({quests['count']} quests)",
            ", ".join(f"{s} {quests['totals'][s]} (average {quests['averages'][s]})" for s in names),
            _bar(f"Quest deck totals ({quests['count']} quests)", list(names),
                 {"total": [quests["totals"][s] for s in names]}))
    if stats["draw"]:
        placeable = stats["setup_placeable"]
        add("setup", "Setup-placeable draw cards (§4)", f"{placeable} of {stats['draw']} draw cards can be placed "
            "at setup (numeric cost, not a deed)",
            _bar("Setup-placeable draw cards (§4)", ["placeable", "not placeable"],
                 {"cards": [placeable, stats["draw"] - placeable]}, horizontal=True))
    return out


@lru_cache(maxsize=1)
def chart_css() -> str:
    """pygal's CSS for this module's style, every selector scoped to `.deck-chart svg`."""
    rules: dict[str, None] = {}
    for kind in (pygal.Bar, pygal.HorizontalBar, pygal.StackedBar):
        chart = _chart(kind, "x", show_legend=True)
        for n in range(len(STYLE.colors)):  # a rule for each series colour, not only the first two
            chart.add(f"s{n}", [1, 2])
        for block in _STYLE_ELEMENT.findall(chart.render(is_unicode=True)):
            for rule in html.unescape(block).split("}"):
                if "{" not in rule:
                    continue
                selectors, body = rule.split("{", 1)
                scoped = ",".join(f".deck-chart svg {sel.strip()}".rstrip() for sel in selectors.split(","))
                rules[f"{scoped}{{{body}}}"] = None
    # Values are printed on the bars: the value axis' dashed guide lines only add noise at this size.
    rules[".deck-chart svg .guides .guide.line{stroke:transparent}"] = None
    return "\n".join(rules) + "\n"
