"""Tuning regions strategies: version against version, Hero swaps and the meta matrix (simulator/tuning.py)
played by the regions engine. A regions side has no deck: it is a written strategy (docs/games/regions-
strategies.md) and the Hero it plays (003 §5.2), so this module is what differs from a game of decks:

- a side is read from strategy text (its `hero:` line names its Hero);
- there is no goldfish (a regions game needs two players), so a comparison and a swap search play the gauntlet,
  whose default is the shipped strategies;
- a swap is the strategy played with another Hero (`{"out": {hero: 1}, "in": {other hero: 1}}`), every Hero
  tried against the strategy with its own on the same games.
"""
from __future__ import annotations

from types import SimpleNamespace

from simulator.engines.regions import sim
from simulator.tuning import TuningError

GOLDFISH = False
GOLDFISH_GOAL = ""
COUNTS_PLAYS = False          # a strategy plays the market's cards, not its own: nothing to cut
DRAW_TYPES = ("hero",)
DEFAULT_MAX_ROUNDS = sim.DEFAULT_MAX_TURNS   # a regions game is capped in turns (003 §3)
SIDE = "strategy"
SIDES = "strategies"
SWAPS = "Hero swaps"


def engine_version() -> str:
    from simulator.engines.regions import ENGINE_VERSION
    return ENGINE_VERSION


def players() -> dict[str, str]:
    """Fast and Strong, as the simulate page offers them: key -> the engine's policy."""
    from .regions import PLAYERS
    return {key: policy for key, (_, policy, _, _) in PLAYERS.items()}


def check_policy(name: str, what: str) -> str:
    from simulator.engines.regions.search import parse_policy
    try:
        parse_policy(name)
    except ValueError as exc:
        raise TuningError(f"{what}: {exc}") from None
    return name


def seconds_per_game(policies) -> float:
    """A unit's time allowance per game on the workers (simulator/tasks.py chunk_time_limits): regions.py's, the
    search player's when a side searches."""
    from .regions import CHUNK_PER_GAME_S, CHUNK_PER_SEARCH_GAME_S
    slow = any(str(p).startswith("search") for p in policies)
    return CHUNK_PER_SEARCH_GAME_S if slow else CHUNK_PER_GAME_S["versus"]


def default_policy() -> str:
    return "strategy"


def _hero_card(code: str) -> dict:
    from simulator.engines.regions import CardSet
    hero = CardSet.default().hero(code)
    return {"code": hero.code, "name": hero.name, "type": "hero"}


def read(name: str, text: str, label: str) -> dict:
    """A side from strategy text: its name (the strategy's own `name:` line first), text, Hero and hash. A
    strategy that does not parse is an error with its line and column."""
    from simulator.engines.regions.strategy import StrategyError

    if not isinstance(text, str) or not text.strip():
        raise TuningError(f"{label}: give a strategy's text.")
    try:
        strategy = sim._strategy(text)
    except StrategyError as exc:
        raise TuningError(f"{label}: {exc}") from None
    hero = _hero_card(strategy.hero.code)
    return {"name": strategy.name or name, "text": text, "hero": hero["code"], "entries": [[hero, 1]],
            "data_hash": sim.text_hash(text + "\n#hero " + hero["code"]), "summary": {"hero": hero["name"]}}


def default_gauntlet() -> list[tuple[str, str]]:
    """The shipped strategies."""
    return list(sim.shipped_texts().items())


def engine_deck(deck: dict, uses: int = 0):
    return sim._strategy(deck["text"]), deck["hero"]


def play_game(deck, opponent, *, seed: int, policies, max_rounds: int, first_player: int = 0, log: bool = False):
    """One game of strategy against strategy, each with its side's Hero (sim.play_one's, with the run's Heroes)."""
    from simulator.engines.regions import CardSet, policy_seed
    from simulator.engines.regions.game import Game

    if opponent is None:
        raise TuningError("A regions game needs two sides: there is no goldfish.")
    (a, hero_a), (b, hero_b) = deck, opponent
    pa = sim._policy(policies[0], a, policy_seed(seed, 0))
    pb = sim._policy(policies[1], b, policy_seed(seed, 1))
    game = Game(CardSet.default(), [hero_a, hero_b], seed=seed, first_player=first_player, max_turns=max_rounds,
                log=log)
    game.play([pa.act, pb.act], [getattr(pa, "skip", None), getattr(pb, "skip", None)])
    return SimpleNamespace(winner=game.winner, rounds=game.turn, first_player=game.first_player, reason=game.reason,
                           log=game.logs, cards_played={}, stuck_in_hand={})


def opponent_only(card: dict) -> str | None:
    return None


def swap_pool(deck: dict, owned: dict[str, int] | None) -> tuple[list[dict], dict[str, int]]:
    """Every other Hero (the strategy may be played with any of them)."""
    from simulator.engines.regions import CardSet

    if owned is not None:
        raise TuningError("owned: a regions strategy may play any Hero; there is no collection to limit it.")
    pool = [_hero_card(h.code) for h in CardSet.default().heroes if h.code != deck["hero"]]
    return pool, {c["code"]: 1 for c in pool}


def candidates(spec: dict) -> list[dict]:
    """The strategy with each other Hero, in the pool's order."""
    own = spec["decks"][0]["hero"]
    return [{"out": {own: 1}, "in": {c["code"]: 1}} for c in spec["pool"]]


def apply_swap(deck: dict, swap: dict, pool_cards: dict[str, dict]) -> dict:
    (hero,) = swap["in"]
    card = pool_cards.get(hero) or _hero_card(hero)
    return {**deck, "hero": hero, "entries": [[card, 1]],
            "data_hash": sim.text_hash(deck["text"] + "\n#hero " + hero),
            "name": f"{deck['name']} with {card['name']}", "summary": {"hero": card["name"]}}


def swap_label(swap: dict, cards: dict[str, dict]) -> str:
    (out,), (into,) = swap["out"], swap["in"]
    return f"{cards[out]['name']} → {cards[into]['name']}"


def swap_why(spec: dict, swap: dict, cards: dict[str, dict], games: int) -> str:
    (out,), (into,) = swap["out"], swap["in"]
    return (f"The same strategy played with {cards[into]['name']} instead of {cards[out]['name']}, on the same "
            "games against the gauntlet.")



def replay_page(request, run, setup: dict, where: dict):
    """One game of a tuning run on the board of five Regions (games/regions/replay.html, with the words and board
    of regions_replay.py), played again from the run's strategies, Heroes, seed and players (tuning.game_setup);
    cached a day per run and game. The page's list of games is this cell's first ten."""
    from django.core.cache import cache
    from django.shortcuts import render

    from cards.games import registry
    from simulator.engines.regions import policy_seed
    from simulator.engines.regions.replay import play_recorded
    from simulator.views_play import replay_share_context

    from .regions_replay import board_context
    from .views import asked_step

    key = f"regions-tune-replay:{run.pk}:{run.created_at.timestamp()}:{where['key']}:{engine_version()}"
    data = cache.get(key)
    if data is None:
        deck, opponent = setup["deck"], setup["opponent"]
        a, b = sim._strategy(deck["text"]), sim._strategy(opponent["text"])
        seed, pols = setup["seed"], setup["policies"]
        players = [sim._policy(pols[0], a, policy_seed(seed, 0)), sim._policy(pols[1], b, policy_seed(seed, 1))]
        game, steps = play_recorded([deck["hero"], opponent["hero"]], players, seed=seed,
                                    first_player=setup["first_player"], max_turns=setup["max_rounds"])
        data = {"game": where["index"], "seed": seed, "first_player": setup["first_player"], "steps": steps,
                "matches": None, "winner": game.winner, "reason": game.reason, "turns": game.turn,
                "heroes": [h.name for h in game.heroes], "policies": list(pols)}
        cache.set(key, data, 24 * 3600)
    at = asked_step(request, len(data["steps"]))
    names = [setup["deck"]["name"], setup["opponent"]["name"]]
    if names[0] == names[1]:
        names = [names[0] + " (1)", names[1] + " (2)"]
    def url(k, step=None):   # game k of this cell (the same version), at a step
        return where["game_url"].format(game=k) + str(step or 0)
    context = board_context(data, at, where["index"], min(where["games"], 10), names, url)
    context.update({"game": registry.get("regions"), "run": run, "back_url": where["cell_url"],
                    "back_label": "The games of this cell"})
    context.update(replay_share_context(request, run, lambda ref: url(where["index"], at).replace(
        f"/runs/{run.ref}/", f"/runs/{ref}/")))
    return render(request, "games/regions/replay.html", context)
