"""Tuning realms decks: version against version, card swaps and the meta matrix (simulator/tuning.py) played by
the realms engine. This module is what differs from r1's decks: how a decklist is read (CONTRACTS §2, realms
names), which cards may be cut and added (002 §2, §5, §18), and how one game is played.

A realms deck races to its Victory Points alone (the goldfish: a Leader that never acts, docs/games/realms.md R26),
so it has the same three questions as r1's, with the same statistics.
"""
from __future__ import annotations

from simulator.engines.realms import sim
from simulator.tuning import TuningError

GOLDFISH = True
GOLDFISH_GOAL = "victory"             # a goldfish game ends at the Victory Points of 002 §14
COUNTS_PLAYS = True                   # the engine counts the cards each game plays and leaves in hand
DRAW_TYPES = ("warrior", "place", "intrigue")   # what may be cut or added: every card but the Leaders (002 §2)
DEFAULT_MAX_ROUNDS = sim.DEFAULT_MAX_ROUNDS
SIDE = "deck"                         # the pages' word for one side, and for several
SIDES = "decks"
SWAPS = "Card swaps"


def engine_version() -> str:
    from simulator.engines.realms import ENGINE_VERSION
    return ENGINE_VERSION


def players() -> dict[str, str]:
    """Fast and Strong, as the simulate page offers them: key -> the engine's policy."""
    from .realms import PLAYERS
    return {key: policy for key, (_, policy, _, _) in PLAYERS.items()}


def check_policy(name: str, what: str) -> str:
    try:
        sim.check_policy(what, name)
    except sim.SpecError as exc:
        raise TuningError(str(exc)) from None
    return name


def seconds_per_game(policies) -> float:
    """A unit's time allowance per game on the workers (simulator/tasks.py chunk_time_limits): a versus chunk's
    (realms.py CHUNK_PER_GAME_S), or the search player's (sim.SLOW_POLICIES) about a CPU-second a game, times 20."""
    from .realms import CHUNK_PER_GAME_S
    slow = any(str(p).partition(":")[0] in sim.SLOW_POLICIES for p in policies)
    return 20.0 if slow else CHUNK_PER_GAME_S["versus"]


def default_policy() -> str:
    return "greedy"


def _cards() -> list[dict]:
    from cards.selectors import game_cards
    cards = game_cards("realms")
    if not cards:
        raise TuningError("No realms cards are loaded: run python manage.py loadcards on its card file.")
    return cards


def read(name: str, text: str, label: str) -> dict:
    """A side of the run from decklist text: its entries, data hash, Leaders and affiliation (the swaps' pool
    follows the affiliation, 002 §5). A list that cannot be read or played is an error naming `label`."""
    from cards.games import registry
    from cards.games.realms.legality import check_deck
    from decks.game_services import GameDeckError, read_text

    cards = _cards()
    if not isinstance(text, str) or not text.strip():
        raise TuningError(f"{label}: give the deck as decklist text.")
    try:
        counts = read_text(registry.get("realms"), text, cards)
    except GameDeckError as exc:
        raise TuningError(f"{label}: {exc.message} " + "; ".join(p["message"] for p in exc.problems)) from None
    if not counts:
        raise TuningError(f"{label}: the decklist names no card.")
    entries = registry.entries(counts, cards)
    try:
        part = sim._deck_part(entries, name)
    except sim.SpecError as exc:
        raise TuningError(f"The {label} cannot play a game: {exc}") from None
    verdict = check_deck(entries)
    part["affiliation"] = verdict.affiliation
    part["summary"] = {"leaders": part["leaders"], "cards": part["cards"], "legal": verdict.legal,
                       "problems": [p.message for p in verdict.errors]}
    return part


def default_gauntlet() -> list[tuple[str, str]]:
    """The shipped starter decks, one per affiliation."""
    from cards.games import registry
    return registry.get("realms").hook("starters")()


def engine_deck(deck: dict, uses: int = 0):
    return sim._engine_deck(deck)


def play_game(deck, opponent, *, seed: int, policies, max_rounds: int, first_player: int = 0, log: bool = False):
    from simulator.engines.realms import play_game as play
    if opponent is None:
        return play(deck, None, seed=seed, policies=policies, max_rounds=max_rounds)
    return play(deck, opponent, seed=seed, first_player=first_player, policies=policies, max_rounds=max_rounds,
                log=log)


def opponent_only(card: dict) -> str | None:
    """Why a goldfish cannot judge the card (the deck doctor's reading: it needs an enemy), or None."""
    from cards.games.realms.doctor import opponent_only as needs_enemy
    return needs_enemy(card)


def swap_pool(deck: dict, owned: dict[str, int] | None) -> tuple[list[dict], dict[str, int]]:
    """The cards the deck could take more copies of: for each, how many more (1 or 2) without a new problem of
    002 §5 (affiliation) or §18 (copy limits); a realms collection is not kept, so `owned` must be None."""
    from cards.games.realms.legality import check_deck

    if owned is not None:
        raise TuningError("owned: the realms card swaps use every card (no collection is kept for this game).")
    counts = {c["code"]: n for c, n in deck["entries"]}
    cards = _cards()
    by_code = {c["code"]: c for c in cards}

    def problems(trial):
        return {(p.code, tuple(p.cards)) for p in check_deck([(by_code[c], n) for c, n in trial.items()]).errors}
    base = problems(counts)
    affiliation = deck.get("affiliation")
    pool, room = [], {}
    for card in cards:
        if card["type"] not in DRAW_TYPES or card.get("affiliation") not in (None, affiliation):
            continue
        allowed = 0
        for k in (1, 2):
            trial = dict(counts)
            trial[card["code"]] = trial.get(card["code"], 0) + k
            if problems(trial) - base:
                break
            allowed = k
        if allowed:
            pool.append(card)
            room[card["code"]] = allowed
    pool.sort(key=lambda c: c["code"])
    return pool, room



def replay_page(request, run, setup: dict, where: dict):
    """One game of a tuning run on the realms board (the replay of realms runs, games/realms/replay.html, with its
    words: realms_replay.py), played again from the run's decks, seed and players (tuning.game_setup); cached an
    hour per run and game."""
    from django.core.cache import cache
    from django.shortcuts import render

    from cards.games import registry
    from simulator.engines.realms import replay as rr
    from simulator.views_play import replay_share_context

    from .realms_replay import _outcome, board_context, card_names, choice, event
    from .views import asked_step

    key = f"realms-tune-replay:{run.pk}:{run.created_at.timestamp()}:{where['key']}:{engine_version()}"
    data = cache.get(key)
    if data is None:
        deck_b = sim._engine_deck(setup["opponent"]) if setup["opponent"] else None
        data = rr.replay_game(sim._engine_deck(setup["deck"]), deck_b, seed=setup["seed"],
                              first_player=setup["first_player"], policies=setup["policies"],
                              max_rounds=setup["max_rounds"])
        cache.set(key, data, 3600)
    frames = data["frames"]
    step = asked_step(request, len(frames))
    frame = frames[step]
    base = where["step_url"]
    links = {k: (f"{base}{v}" if v is not None else None) for k, v in rr.step_targets(frames, step).items()}
    a = setup["deck"].get("name") or "First deck"
    b = ((setup["opponent"] or {}).get("name") or "Second deck") if setup["opponent"] else "the goldfish"
    names = [a, b + " (2)" if a == b else b]
    cards = card_names({"deck": setup["deck"], "opponent": setup["opponent"]})
    board = frame["board"]
    actor = names[frame["actor"]] if frame["actor"] in (0, 1) else None
    return render(request, "games/realms/replay.html", {
        **board_context(frame, names), "outcome": _outcome(data, names),
        "game": registry.get("realms"), "run": run, "data": data, "frame": frame, "board": board, "names": names,
        "events": [event(line, names, cards) for line in frame["lines"]],
        "step": step, "steps": len(frames), "links": links, "index": where["index"],
        "actor_name": actor,
        "next_choice": choice(frame["action"], cards) if actor else None,
        "games": [], "run_url": run.get_absolute_url(),
        **replay_share_context(request, run, lambda ref: base.replace(f"/runs/{run.ref}/", f"/runs/{ref}/")
                               + str(step))})
