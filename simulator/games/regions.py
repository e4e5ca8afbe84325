"""Regions runs (rules 003_…): the run interface of simulator/games over
simulator/engines/regions/sim.py (strategy against strategy; the strategy format is docs/games/regions-strategies.md).
"""
from __future__ import annotations

from simulator.engines.regions import sim

MODES = ("versus",)
# plain Python about 2 ms a game (docs/performance.md, "Heroes and Regions engine"): 25 times that
CHUNK_PER_GAME_S = {"versus": 0.05}
# the search player (search:24 against a strategy) takes about SEARCH_S_PER_GAME CPU-s a game compiled
# (docs/performance.md, "Heroes and Regions engine"): its chunks are sim.SEARCH_CHUNK games with this allowance
# each, scaled by its budget
CHUNK_PER_SEARCH_GAME_S = 12.0
SpecError = sim.SpecError
# the simulate page's choices (search[:N]: simulator/engines/regions/search.py) and the strategies it starts with
POLICIES = ("strategy", "random", "search", "search:8")
MODE_LABELS = (("versus", "Strategy against strategy"),)
DEFAULT_STRATEGIES = ("big-money", "region-control")
REPORT_ROUNDS = "turns"   # the command's report: a regions game counts turns, not rounds


def chunk_plan(mode: str, games: int, settings: dict | None = None) -> list[tuple[int, int, int]]:
    return sim.chunk_plan(games, sim.is_slow(settings))


def chunk_allowance(settings: dict | None) -> dict:
    """Seconds allowed per game of a chunk, by mode (simulator/tasks.py): longer when a side searches, in
    proportion to its budget (search:N simulates N games per searched decision)."""
    if not sim.is_slow(settings):
        return CHUNK_PER_GAME_S
    budget = sum(int(n.partition(":")[2] or 24) for n in (settings or {})["search"] if n.startswith("search"))
    return {"versus": CHUNK_PER_SEARCH_GAME_S * max(1.0, budget / 24)}


def run_chunk(spec: dict, index: int) -> dict:
    return sim.run_chunk(spec, index)


def merge(mode: str, parts: list[dict]) -> dict:
    return sim.merge(parts)


def finalize(spec: dict, merged: dict) -> dict:
    return sim.finalize(spec, merged)


def request_key(spec: dict) -> str:
    return sim.request_key(spec)


def make_spec(strategy: str, opponent: str, **kwargs) -> dict:
    return sim.versus_spec(strategy, opponent, **kwargs)


def run_fields(spec: dict) -> dict:
    return {"deck_name": spec["deck"]["name"] or "", "deck_hash": spec["deck"]["hash"],
            "deck_counts": {"hero": spec["deck"]["hero"]}, "deck_legal": True,
            "opponent_name": spec["opponent"]["name"] or "", "opponent_hash": spec["opponent"]["hash"],
            "opponent_counts": {"hero": spec["opponent"]["hero"]}}


def shipped_strategies() -> dict[str, str]:
    """The shipped strategies by name (strategies/NAME.txt): the page's and API's `strategy` names, the command's
    stems."""
    return sim.shipped_texts()


def build_spec(*, mode: str, text: str, opponent_text: str | None, games=None, seed=0,
               policy: str | None = None, opponent_policy: str | None = None, fmt=None, deck_name="",
               opponent_name="") -> dict:
    """A regions versus spec from two strategy texts (docs/games/regions-strategies.md); a strategy that does not
    parse fails here with its line and column. A strategy has no format and names itself (`fmt`, `deck_name`
    and `opponent_name`, the decks' fields, are ignored)."""
    from simulator.engines.regions.strategy import StrategyError

    from .services import MAX_TEXT, GameSpecError

    if mode != "versus":
        raise GameSpecError(f"mode: regions runs are versus (strategy against strategy), not {mode!r}")
    for label, body in (("text", text), ("opponent", opponent_text)):
        if not isinstance(body, str) or not body.strip():
            raise GameSpecError(f"{label}: give a strategy's text (or the name of a shipped one)")
        if len(body) > MAX_TEXT:
            raise GameSpecError(f"{label}: at most {MAX_TEXT:,} characters")
    kwargs = {"seed": seed, "policy": policy, "opponent_policy": opponent_policy}
    if games is not None:
        kwargs["games"] = games
    try:
        return make_spec(text, opponent_text, **kwargs)
    except StrategyError as exc:
        raise GameSpecError(f"strategy: {exc}") from None
    except SpecError as exc:
        raise GameSpecError(str(exc)) from None


def charts(result: dict) -> list[tuple[str, str]]:
    from .charts import regions_versus
    return regions_versus(result)


def report_sides(r: dict) -> list[str]:
    """The command's versus report, per side: score, Regions held, cards bought."""
    lines = []
    for label, side in (("deck", r.get("deck", {})), ("opponent", r.get("opponent", {}))):
        held = side.get("regions_held", {})
        lines.append(f"  {label} {side.get('name')} ({side.get('hero')}): mean score "
                     f"{side.get('mean_score') or 0:.2f}, Regions controlled {held.get('control') or 0:.2f}, "
                     f"cards bought {side.get('cards_bought', {}).get('per_game') or 0:.1f} a game")
    return lines


def run_context(run, result: dict) -> dict:
    """The run page's extras: the two Heroes' names and the sample games to replay."""
    from simulator.engines.regions.replay import MAX_SAMPLE_GAMES
    return {"heroes": [_hero_name(result["deck"]["hero"]), _hero_name(result["opponent"]["hero"])],
            "sample_games": list(range(1, min(MAX_SAMPLE_GAMES, run.games)))}


def _hero_name(code: str) -> str:
    from simulator.engines.regions import CardSet
    try:
        return CardSet.default().hero(code).name
    except KeyError:
        return code


def replay_board(request, run, game_spec, index: int):
    """Game `index` of a run on a board of five Regions (regions_replay.py)."""
    from .regions_replay import replay_page
    return replay_page(request, run, game_spec, index)


# The simulate page's one player choice (simulator/games/picks.py `players`): the strategy's own rules, or the
# search player over it; CPU seconds a game compiled (docs/performance.md, "Heroes and Regions engine": 1,542
# strategy games a CPU-second; the search player 0.24-0.35 CPU-s a game).
PLAYERS = {"fast": ("Fast", "strategy", "each side plays its strategy's rules as written", {"versus": 1 / 1542}),
           "strong": ("Strong", "search", "each side searches its decisions by playing them out, its strategy "
                      "guiding the rest", {"versus": 0.35})}


def heroes() -> list[str]:
    """Every Hero's name (the page's Hero picker)."""
    from simulator.engines.regions import CardSet
    return [h.name for h in CardSet.default().heroes]


def play_kit():
    """The playtest table and the judge sandbox of this game (regions_play.py)."""
    from . import regions_play
    return regions_play


def tuning():
    """What the tune pages (simulator/tuning.py) need of this game: regions_tune.py."""
    from . import regions_tune
    return regions_tune
