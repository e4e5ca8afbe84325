"""The hosted games' report charts (pygal, server-rendered SVG; styles from /simulate/charts.css as r1's)."""
from __future__ import annotations

from simulator.charts import histogram, line


def _labels(n: int) -> list[str]:
    return [str(t) for t in range(1, n + 1)]


def _active_turns(per_turn: list[dict], games: int) -> int:
    """Turns still played in at least 5% of the games: a lone long game does not stretch every chart's axis."""
    floor = max(1, games * 0.05)
    n = 0
    for i, row in enumerate(per_turn):
        if row["games"] >= floor:
            n = i + 1
    return max(n, 1)


def realms_goldfish(r: dict) -> list[tuple[str, str]]:
    n = _active_turns(r["per_turn"], r["games"])
    out = []
    if r["win_turn"]["histogram"]:
        out.append(("Turns to the VP", histogram(f"Turn the deck reached {r['target_vp']} VP",
                                                 r["win_turn"]["histogram"], x_title="turn",
                                                 y_title="share of winning games")))
    out.append(("VP by turn", line("Mean VP after each turn (§14)", {"VP": r["vp_by_turn"][:n]},
                                   x_labels=_labels(n), x_title="turn", y_title="VP")))
    out.append(("Gold by turn", line("Mean Gold after each turn (§12)", {"Gold": r["gold_by_turn"][:n]},
                                     x_labels=_labels(n), x_title="turn", y_title="Gold")))
    out.append(("Unpaid red icons", line("Share of games with cards discarded unpaid (§12)",
                                         {"unpaid": r["unpaid"]["by_turn"][:n]}, x_labels=_labels(n), x_title="turn",
                                         y_title="share of games", percent=True)))
    return out


def realms_versus(r: dict) -> list[tuple[str, str]]:
    out = [("Game length", histogram("Rounds per game", r["rounds"]["histogram"], x_title="rounds",
                                     y_title="share of games"))]
    return out


def regions_versus(r: dict) -> list[tuple[str, str]]:
    turns = r["by_turn"][:_active_turns(r["by_turn"], r["games"])]
    labels = _labels(len(turns))
    a = r["deck"]["name"] or "first"
    b = r["opponent"]["name"] or "second"
    if a == b:
        a, b = f"{a} (1)", f"{b} (2)"

    def pair(key):
        return {a: [row[key][0] for row in turns], b: [row[key][1] for row in turns]}

    return [
        ("Game length", histogram("Turns per game", r["rounds"]["histogram"], x_title="turns",
                                  y_title="share of games")),
        ("Recognition by turn", line("Recognition cards held (§9.2)", pair("recognition_cards"),
                                     x_labels=labels, x_title="turn", y_title="cards")),
        ("Score by turn", line("Score if the game ended now (§9.2)", pair("score"), x_labels=labels,
                               x_title="turn", y_title="points")),
        ("Regions held", line("Regions controlled (§5.1)", pair("control"), x_labels=labels, x_title="turn",
                              y_title="Regions")),
    ]


def charts_for(result: dict, game: str | None = None) -> list[tuple[str, str]]:
    """The report's charts, by the game's run module (simulator/games/<game>.py `charts`)."""
    from . import run_hook

    return run_hook(game or result.get("game"), "charts", lambda result: [])(result)


def matrix_chart(rr: dict, names: list[str] | None = None) -> str:
    """The round-robin standings as bars (score: a win 1, a draw ½)."""
    import pygal

    from simulator.charts import STYLE, _percent, _render

    chart = pygal.HorizontalBar(title="Round-robin score", style=STYLE, width=640, height=320,
                                disable_xml_declaration=True, js=[], no_prefix=True, explicit_size=False,
                                show_legend=False, value_formatter=_percent, range=(0, 1))
    shown = dict(zip(rr["strategies"], names or rr["strategies"]))   # the strategies' own names, when given
    chart.x_labels = [shown.get(s["name"], s["name"]) for s in rr["standings"]]
    chart.add("score", [s["score"] for s in rr["standings"]])
    return _render(chart)
