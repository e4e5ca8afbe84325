"""Server-rendered SVG charts of a report (pygal): no JavaScript build, readable without scripts."""
from __future__ import annotations

import html
import math
import re
from functools import lru_cache

import pygal
from pygal.style import Style

STYLE = Style(background="transparent", plot_background="transparent", foreground="#333",
              foreground_strong="#111", foreground_subtle="#999", opacity=".85", opacity_hover=".95",
              colors=("#2f5fa8", "#b23a2a", "#2e7d32", "#d98b1a", "#6a2c91", "#4fa3c7", "#6b6b6b", "#8c7b62"),
              font_family="system-ui, sans-serif", title_font_size=19, label_font_size=15,
              major_label_font_size=15, legend_font_size=14, value_font_size=14, tooltip_font_size=14)
# The charts are drawn 640 wide and shown about half that size beside each other, so the fonts are large.


_STYLE_ELEMENT = re.compile(r"<style[^>]*>(.*?)</style>", re.S)
_SCRIPT_ELEMENT = re.compile(r"<script[^>]*>.*?</script>", re.S)


def _config(chart_class, title: str, **kwargs):
    # no_prefix: the chart's CSS does not name the chart's id, so one stylesheet (chart_css) serves them all.
    return chart_class(title=title, style=STYLE, width=640, height=kwargs.pop("height", 320), disable_xml_declaration=True, js=[],
                       no_prefix=True, explicit_size=False, show_legend=kwargs.pop("show_legend", False),
                       print_values=False, **kwargs)


def _render(chart) -> str:
    """The chart's SVG without the <style> and <script> pygal puts in it: the site's Content-Security-Policy
    allows neither inline, so the styles come from chart_css() (served at /simulate/charts.css) instead."""
    svg = chart.render(is_unicode=True).replace(' id=""', "", 1)
    return _SCRIPT_ELEMENT.sub("", _STYLE_ELEMENT.sub("", svg))


@lru_cache(maxsize=1)
def chart_css() -> str:
    """pygal's chart CSS for this module's style, every selector scoped to `.sim-chart svg`."""
    rules: dict[str, None] = {}
    for chart_class in (pygal.Bar, pygal.Line):
        chart = _config(chart_class, "x")
        # One series per colour: pygal styles each series by its own rule (.color-0, .color-1, ...). With one
        # series only, the hand-probability lines after the first were drawn as unstyled black dots.
        for n in range(len(STYLE.colors)):
            chart.add(f"s{n}", [1, 2])
        for block in _STYLE_ELEMENT.findall(chart.render(is_unicode=True)):
            for rule in html.unescape(block).split("}"):  # the SVG is XML: '>' arrives as '&gt;'
                if "{" not in rule:
                    continue
                selectors, body = rule.split("{", 1)
                scoped = ",".join(f".sim-chart svg {sel.strip()}".rstrip() for sel in selectors.split(","))
                rules[f"{scoped}{{{body}}}"] = None
    return "\n".join(rules) + "\n"


def histogram(title: str, hist: dict, *, x_title: str, y_title: str = "share of samples") -> str:
    """A bar chart of an integer histogram {"value": count}, as shares of the total."""
    total = sum(hist.values()) or 1
    if hist:
        lo, hi = min(map(int, hist)), max(map(int, hist))
    else:
        lo, hi = 0, 0
    xs = list(range(lo, hi + 1))
    labels = [str(x) for x in xs]
    chart = _config(pygal.Bar, title, x_title=x_title, y_title=y_title, max_scale=6, min_scale=3,
                    value_formatter=_percent, **_x_axis(labels))
    chart.x_labels = labels
    chart.add(y_title, [hist.get(str(x), 0) / total for x in xs])
    return _render(chart)


def _percent(v: float) -> str:
    pct = round(100 * v, 6)   # 0.14 * 100 is 14.000000000000002: a tick at 14% reads "14%", not "14.0%"
    return f"{pct:.0f}%" if pct % 1 == 0 else f"{pct:.1f}%"


def _number(v: float) -> str:
    v = round(v, 6)
    return f"{v:.0f}" if v % 1 == 0 else f"{v:.1f}"


MAX_X_LABELS = 12   # more than this across 640 px and pygal draws them over each other ("123456789…")


def _x_axis(labels: list[str]) -> dict:
    """Chart options that write every label when they fit and otherwise one in every 2, 5, 10, 20… (each shown
    label whole, never cut to "…"), so a 60-round axis reads 1, 10, 20… instead of a smear of digits."""
    options: dict = {"truncate_label": -1}
    n = len(labels)
    if n > MAX_X_LABELS:
        every = next(k for k in (2, 5, 10, 20, 25, 50, 100, 200, 500, 1000, 10**9) if n / k <= MAX_X_LABELS)
        round_numbers = [label for label in labels if label.isdigit() and int(label) % every == 0]
        options["show_minor_x_labels"] = False
        if len(round_numbers) >= 2:
            options["x_labels_major"] = [labels[0], *(x for x in round_numbers if x != labels[0])]
        else:
            options["x_labels_major_every"] = every
    return options


def line(title: str, series: dict[str, list[float | None]], *, x_labels: list[str], x_title: str, y_title: str,
         percent: bool = False, y_range: tuple[float, float] | None = None, y_labels: list[float] | None = None,
         ) -> str:
    """A line per series. `y_range` fixes the axis (probabilities 0-1, Influence 0-15) so charts of different runs
    compare at a glance; `y_labels` are its ticks."""
    extra = {}
    if y_range is not None:
        extra["range"] = y_range
    if y_labels is not None:
        extra["y_labels"] = y_labels
    # One legend entry a line, never cut (card names run to 40 characters and more): the chart grows to hold them.
    legend = len(series) > 1
    chart = _config(pygal.Line, title, x_title=x_title, y_title=y_title, show_legend=legend,
                    height=320 + (22 * len(series) if legend else 0),
                    legend_at_bottom=True, legend_at_bottom_columns=1, truncate_legend=-1, dots_size=4,
                    value_formatter=_percent if percent else _number, **_x_axis(x_labels), **extra)
    chart.x_labels = x_labels
    for name, values in series.items():
        chart.add(name, values)
    return _render(chart)


def hands_charts(result: dict) -> list[tuple[str, str]]:
    setup = result["setup"]
    charts = [
        ("Setup budget used", histogram(f"Budget used by the best setup (§4, of {setup.get('budget', 8)})", setup["budget_used"],
                                        x_title="budget used")),
        ("Units placed", histogram("Units placed by the best setup", setup["units"], x_title="units")),
    ]
    # Cards with the same number of copies have the same curve: one line per (copies, k), naming its cards.
    series: dict[str, list] = {}
    curves: dict[tuple, list[str]] = {}
    for r in result["cards"]:
        if r["kind"] != "card":
            series[f"{r['name']} (k={r['k']})"] = [r["p_opening"], *r["p_seen_by_round"]]
        else:
            curves.setdefault((r["copies"], r["k"], tuple([r["p_opening"], *r["p_seen_by_round"]])), []).append(
                r["name"])
    # Short legends (pygal cut long ones off mid-name); the table below names every card of each line.
    for (copies, k, values), names in sorted(curves.items(), key=lambda kv: -kv[0][0]):
        cards = names[0] if len(names) == 1 else f"{len(names)} cards"
        series[f"{copies} cop{'y' if copies == 1 else 'ies'}{'' if k == 1 else f', k={k}'} ({cards})"] = list(values)
    series = dict(list(series.items())[:8])
    labels = ["opening 7"] + [f"round {i + 1}" for i in range(len(result["seen_cards_by_round"]))]
    charts.append(("Hand probabilities by round", line(
        "Chance to have seen at least k copies", series, x_labels=labels, x_title="", y_title="probability",
        percent=True, y_range=(0, 1), y_labels=[0, 0.25, 0.5, 0.75, 1])))
    return charts


def goldfish_charts(result: dict) -> list[tuple[str, str]]:
    charts = []
    if result["win_round"]["histogram"]:
        charts.append(("Winning round", histogram("Round of reaching 15 Influence", result["win_round"]["histogram"],
                                                  x_title="round", y_title="share of wins")))
    influence = result["influence_by_round"]
    if influence:
        charts.append(("Influence by round", line("Mean Influence at the end of each round",
                                                  {"Influence": influence},
                                                  x_labels=[str(i + 1) for i in range(len(influence))],
                                                  x_title="round", y_title="Influence", y_range=(0, 15),
                                                  y_labels=[0, 3, 6, 9, 12, 15])))
    return charts


def versus_charts(result: dict) -> list[tuple[str, str]]:
    charts = []
    if result["rounds"]["histogram"]:
        charts.append(("Game length", histogram("Game length", result["rounds"]["histogram"], x_title="rounds",
                                                y_title="share of games")))
    return charts


def charts_for(result: dict) -> list[tuple[str, str]]:
    return {"hands": hands_charts, "goldfish": goldfish_charts, "versus": versus_charts}[result["mode"]](result)


def margin_95(p: float | None, n: int) -> float | None:
    """Half-width of a normal 95% interval for a rate p over n samples (for the plain-words statement)."""
    if p is None or not n:
        return None
    return 1.96 * math.sqrt(max(p * (1 - p), 0.0) / n)
