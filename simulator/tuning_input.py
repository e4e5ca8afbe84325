"""Turning a tuning request (decklists, gauntlet, target, pool, policies) into a tuning spec (see tuning.py).

Decklists are read like the simulator's (deckinput.read_deck): a list with unreadable lines, or a deck that
cannot play a game, is a TuningError whose message says what to fix.
"""
from __future__ import annotations

from decks.legality import check_deck
from decks.pool import CardPool

from . import runner, tuning
from .deckinput import MAX_SEED, read_deck
from .tuning import TuningError

MAX_GAMES = 100_000


def policy_names() -> list[str]:
    try:
        from simulator.engines.r1.policies import POLICIES
    except Exception:  # pragma: no cover - the engine could not be imported at all
        return [tuning.DEFAULT_POLICY]
    return sorted(POLICIES)


def _check_policy(name, what: str) -> str:
    if name in (None, ""):
        return tuning.DEFAULT_POLICY
    if not isinstance(name, str):
        raise TuningError(f"{what} must be a policy name ({', '.join(policy_names())}), not {name!r}.")
    _, colon, arg = name.partition(":")
    if colon and not (arg.isascii() and arg.isdigit()):   # "expert:" would be stored as given
        raise TuningError(f"{what} {name!r}: after the colon goes the budget, a whole number of simulations per "
                          "decision (e.g. expert:24), or no colon at all.")
    engine = runner.engine_module()
    try:
        engine.make_policy(name, 0)
    except (ValueError, KeyError) as exc:
        raise TuningError(f"Unknown {what} {name!r}: choose one of {', '.join(policy_names())}.") from exc
    return name


def _int(value, default: int, low: int, high: int, what: str) -> int:
    if value is None:
        return default
    if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit():   # not "²", which int() refuses
        if len(value.strip()) > len(str(high)):   # nor thousands of digits, which int() refuses too
            raise TuningError(f"{what} must be from {low:,} to {high:,}, not a {len(value.strip()):,}-digit number.")
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise TuningError(f"{what} must be a whole number, not {value!r}.")
    if not low <= value <= high:
        raise TuningError(f"{what} must be from {low:,} to {high:,}, not {value:,}.")
    return value


def _read(text, pool, label, name=None) -> dict:
    try:
        deck = read_deck(text, pool, label=label, name=name)
    except runner.SpecError as exc:
        raise TuningError(str(exc)) from exc
    engine = runner.engine_module()
    try:
        built = engine.build_deck([(c, n) for c, n in deck["entries"]])
    except getattr(engine, "DeckError", ValueError) as exc:
        raise TuningError(f"The {label} cannot play a game: {exc}") from exc
    deck["unsupported_cards"] = sorted(set(getattr(built, "unsupported_cards", []) or []))
    return deck


def starter_gauntlet() -> list[tuple[str, str]]:
    """The default gauntlet: the seven starter decks, as (name, text)."""
    from cards.starters import starters

    return [(s.title or s.slug, s.text) for s in starters()]


def build_tuning_spec(*, kind, decks, gauntlet=None, games=None, seed=None, policy=None, opponent_policy=None,
                      target=None, owned: dict[str, int] | None = None, max_rounds=None, max_games=MAX_GAMES,
                      pool: CardPool | None = None, budget: int = MAX_GAMES, game: str | None = None) -> dict:
    """Validate a tuning request and build its spec. `decks` and `gauntlet` are lists of (name, text); a missing
    or empty gauntlet is the seven starter decks. `owned` (code -> copies) limits the swaps of `tune` to the
    user's collection; a card-swap search races as many candidates as fit in `budget` games (the visitor's limit
    per run; tuning.candidates_within). `game`: a hosted game's run (build_game_tuning_spec). Raises TuningError
    (-> 400 / exit 2) or EngineUnavailable."""
    if kind not in tuning.KINDS:
        raise TuningError(f"Unknown kind {str(kind)[:40]!r}: choose one of {', '.join(tuning.KINDS)}.")
    if game:
        return build_game_tuning_spec(game, kind=kind, decks=decks, gauntlet=gauntlet, games=games, seed=seed,
                                      policy=policy, opponent_policy=opponent_policy, target=target, owned=owned,
                                      max_rounds=max_rounds, max_games=max_games, budget=budget)
    runner.engine_module()
    pool = pool or CardPool.from_db()
    if not isinstance(decks, (list, tuple)) or not decks:
        raise TuningError("decks: give the decklist(s) to tune, compare or put in the matrix.")
    want = {"compare": (2, 2), "tune": (1, 1), "matrix": (2, tuning.MAX_DECKS["matrix"])}[kind]
    if not want[0] <= len(decks) <= want[1]:
        need = f"exactly {want[0]}" if want[0] == want[1] else f"from {want[0]} to {want[1]}"
        raise TuningError(f"{kind} takes {need} deck(s), not {len(decks)}.")
    games = _int(games, tuning.DEFAULT_GAMES[kind], 1, max_games, "games")
    seed = _int(seed, 1, 0, MAX_SEED, "seed")
    max_rounds = _int(max_rounds, runner.DEFAULT_MAX_ROUNDS, 1, 50, "max_rounds")
    policy = _check_policy(policy, "policy")
    opponent_policy = _check_policy(opponent_policy, "opponent policy")
    if target in (None, ""):
        target = "goldfish"
    if kind == "tune" and target not in tuning.TARGETS:
        raise TuningError(f"Unknown target {target!r}: choose goldfish or winrate.")
    read = [_read(text, pool, f"deck {i + 1}" if len(decks) > 1 else "deck", name)
            for i, (name, text) in enumerate(decks)]
    gauntlet_decks: list[dict] = []
    if kind in ("compare", "tune") and (kind == "compare" or target == "winrate"):
        entries = list(gauntlet or []) or starter_gauntlet()
        if len(entries) > tuning.MAX_GAUNTLET:
            raise TuningError(f"The gauntlet holds at most {tuning.MAX_GAUNTLET} decks, not {len(entries)}.")
        gauntlet_decks = [_read(text, pool, f"gauntlet deck {j + 1}", name) for j, (name, text) in
                          enumerate(entries)]
    elif gauntlet and kind == "matrix":
        raise TuningError("A matrix plays its own decks against each other; it takes no gauntlet.")
    spec = {"kind": kind, "games": games, "seed": seed, "policy": policy, "opponent_policy": opponent_policy,
            "max_rounds": max_rounds, "decks": read, "gauntlet": gauntlet_decks, "target": target if kind == "tune"
            else None, "engine_version": runner.engine_version("versus") + "/" + tuning.TUNING_VERSION,
            "pool": [], "room": {}, "max_candidates": 0, "owned": owned is not None}
    if kind == "tune":
        spec["pool"], spec["room"] = swap_pool(read[0], pool, owned)
        if not spec["pool"]:
            raise TuningError("No card can be swapped in: every legal card of the deck's types is already at its "
                              "copy limit" + (" or not in the collection" if owned is not None else "") + ".")
        spec["max_candidates"] = tuning.candidates_within(spec, budget) or tuning.FINALISTS
    return spec


def swap_pool(deck: dict, pool: CardPool, owned: dict[str, int] | None) -> tuple[list[dict], dict[str, int]]:
    """The draw cards the deck could take more copies of: for each, how many more (1 or 2) without a new §11
    problem (copy limits by name §2.3, faction and Bound rules §11, the destiny's rules §10.6), and no more than
    the collection holds beyond what the deck already has."""
    counts = tuning.deck_counts(deck)
    base = {(p.code, tuple(p.cards)) for p in check_deck(counts, pool).errors}
    faction = deck["faction"]
    cards, room = [], {}
    for card in pool:
        if card["type"] not in tuning.DRAW_TYPES or card.get("faction") not in (faction, "neutral"):
            continue
        allowed = 0
        for k in (1, 2):
            trial = dict(counts)
            trial[card["code"]] = trial.get(card["code"], 0) + k
            errors = {(p.code, tuple(p.cards)) for p in check_deck(trial, pool).errors}
            # Adding a card never fixes the draw count rule, so only new kinds of problem count.
            new = {e for e in errors - base if e[0] != "draw_count"}
            if new:
                break
            allowed = k
        if owned is not None:
            allowed = min(allowed, max(owned.get(card["code"], 0) - counts.get(card["code"], 0), 0))
        if allowed:
            cards.append(card)
            room[card["code"]] = allowed
    cards.sort(key=lambda c: c["code"])
    return cards, room


def _check_lists(kind: str, decks, side: str) -> None:
    if not isinstance(decks, (list, tuple)) or not decks:
        raise TuningError(f"decks: give the {side}(s) to tune, compare or put in the matrix.")
    want = {"compare": (2, 2), "tune": (1, 1), "matrix": (2, tuning.MAX_DECKS["matrix"])}[kind]
    if not want[0] <= len(decks) <= want[1]:
        need = f"exactly {want[0]}" if want[0] == want[1] else f"from {want[0]} to {want[1]}"
        raise TuningError(f"{kind} takes {need} {side}(s), not {len(decks)}.")


def build_game_tuning_spec(game: str, *, kind, decks, gauntlet=None, games=None, seed=None, policy=None,
                           opponent_policy=None, target=None, owned=None, max_rounds=None, max_games=MAX_GAMES,
                           budget: int = MAX_GAMES) -> dict:
    """The spec of a hosted game's tuning run: the same fields as r1's plus `game`, each side read by the game's
    tuning module (simulator/games/<game>_tune.py: a decklist, or a strategy and its Hero). A game with no
    goldfish tunes for win rate against its gauntlet only."""
    from .games import run_hook

    hook = run_hook(game, "tuning")
    if hook is None:
        raise TuningError(f"game: {str(game)[:20]!r} has no tuning here.")
    ops = hook()
    _check_lists(kind, decks, ops.SIDE)
    games = _int(games, tuning.DEFAULT_GAMES[kind], 1, max_games, "games")
    seed = _int(seed, 1, 0, MAX_SEED, "seed")
    max_rounds = _int(max_rounds, ops.DEFAULT_MAX_ROUNDS, 1, 200, "max_rounds")
    policies = []
    for value, what in ((policy, "policy"), (opponent_policy, "opponent policy")):
        if value in (None, ""):
            value = ops.default_policy()
        if not isinstance(value, str) or len(value) > 40:
            raise TuningError(f"{what}: a player's name (Fast: {ops.players()['fast']}, Strong: "
                              f"{ops.players()['strong']}), not {str(value)[:40]!r}.")
        policies.append(ops.check_policy(value, what))
    if target in (None, ""):
        target = "goldfish" if ops.GOLDFISH else "winrate"
    if kind == "tune" and target not in tuning.TARGETS:
        raise TuningError(f"Unknown target {str(target)[:40]!r}: choose goldfish or winrate.")
    if kind == "tune" and target == "goldfish" and not ops.GOLDFISH:
        raise TuningError("target: this game has no goldfish (a game needs two sides); tune for win rate "
                          "against the gauntlet.")
    read = [ops.read(name, text, f"{ops.SIDE} {i + 1}" if len(decks) > 1 else ops.SIDE)
            for i, (name, text) in enumerate(decks)]
    gauntlet_sides: list[dict] = []
    if kind == "compare" or (kind == "tune" and target == "winrate"):
        entries = list(gauntlet or []) or ops.default_gauntlet()
        if len(entries) > tuning.MAX_GAUNTLET:
            raise TuningError(f"The gauntlet holds at most {tuning.MAX_GAUNTLET}, not {len(entries)}.")
        gauntlet_sides = [ops.read(name, text, f"gauntlet {ops.SIDE} {j + 1}")
                          for j, (name, text) in enumerate(entries)]
    elif gauntlet and kind == "matrix":
        raise TuningError("A matrix plays its own sides against each other; it takes no gauntlet.")
    spec = {"game": game, "kind": kind, "games": games, "seed": seed, "policy": policies[0],
            "opponent_policy": policies[1], "max_rounds": max_rounds, "decks": read, "gauntlet": gauntlet_sides,
            "target": target if kind == "tune" else None,
            "engine_version": f"{ops.engine_version()}/{tuning.TUNING_VERSION}", "pool": [], "room": {},
            "max_candidates": 0, "owned": owned is not None}
    if kind == "tune":
        spec["pool"], spec["room"] = ops.swap_pool(read[0], owned)
        if not spec["pool"]:
            raise TuningError("Nothing can be swapped in: every legal card is already at its copy limit.")
        spec["max_candidates"] = tuning.candidates_within(spec, budget) or tuning.FINALISTS
    return spec
