"""Turning what a player sends (decklist text, settings) into a run spec (see runner.py).

Decklists are read with the decks app's pure functions (interface 3: `CardPool`, `parse_decklist`,
`check_deck`). An illegal deck can still be simulated — players test work in progress — and the report says
so; a list with unreadable lines, or a deck that cannot play a game at all, is a `SpecError` with a message
that says what to fix.
"""
from __future__ import annotations

from decks.decklist import content_hash, parse_decklist
from cards.games.r1.facts import DRAW_TYPES
from decks.legality import check_deck
from decks.pool import CardPool

from . import hands as hands_mod
from .runner import (DEFAULT_GAMES, DEFAULT_MAX_ROUNDS, DEFAULT_POLICY, MODES, SpecError, deck_data_hash,
                     draw_entries, engine_module, engine_version)

MAX_TEXT_CHARS = 20_000
MAX_SEED = 2**63 - 1
MAX_TARGETS = 10


def read_deck(text, pool: CardPool, *, label: str = "deck", name: str | None = None) -> dict:
    """A deck spec from decklist text: counts, hash, card dicts, faction and the §11 verdict."""
    if not isinstance(text, str) or not text.strip():
        raise SpecError(f"The {label} is empty: paste a decklist, one card per line, e.g. '3x Gawain'.")
    if len(text) > MAX_TEXT_CHARS:
        raise SpecError(f"The {label} is {len(text)} characters long; a decklist is at most {MAX_TEXT_CHARS}.")
    parsed = parse_decklist(text, pool)
    if parsed.problems:
        lines = "; ".join(p.message for p in parsed.problems[:10])
        more = f" (and {len(parsed.problems) - 10} more)" if len(parsed.problems) > 10 else ""
        raise SpecError(f"The {label} has lines that cannot be read: {lines}{more}")
    entries = [(pool.get(code), count) for code, count in parsed.counts.items()]
    factions = [(c, n) for c, n in entries if c["type"] == "faction"]
    quests = sum(n for c, n in entries if c["type"] == "quest")
    draw = sum(n for c, n in entries if c["type"] in DRAW_TYPES)
    if sum(n for _, n in factions) != 1:
        found = ", ".join(c["name"] for c, _ in factions) or "none"
        raise SpecError(f"The {label} cannot play a game: it needs exactly one faction card (§2.1), found {found}.")
    if quests == 0:
        raise SpecError(f"The {label} cannot play a game: it has no quests, and every round starts by embarking "
                        f"on one (§5.1, §10.5). Add the quest deck (7 quests).")
    if draw == 0:
        raise SpecError(f"The {label} cannot play a game: its draw deck is empty, and drawing from an empty deck "
                        f"eliminates the player (§5.2, §12).")
    verdict = check_deck(parsed.counts, pool)
    return {
        "name": name or _title_from_comment(text) or f"pasted {label}",
        "counts": dict(parsed.counts),
        "hash": content_hash(parsed.counts),
        "data_hash": deck_data_hash(entries),
        "faction": factions[0][0]["faction"],
        "entries": [[c, n] for c, n in entries],
        "legal": verdict.legal,
        "problems": [p["message"] for p in verdict.to_json()["errors"]],
    }


def _title_from_comment(text: str) -> str | None:
    """A list's first '# ...' line names it (what export and the starters write), if there is one."""
    for line in text.splitlines()[:5]:
        line = line.strip()
        if line.startswith("#") and line.lstrip("# ").strip():
            return line.lstrip("# ").strip()[:120]
    return None


def _int_setting(data: dict, key: str, default: int, low: int, high: int, what: str) -> int:
    value = data.get(key, default)
    if value is None:
        value = default
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise SpecError(f"{key} must be a whole number ({what}), not {value!r}.")
    if not low <= value <= high:
        raise SpecError(f"{key} must be from {low} to {high} ({what}), not {value}.")
    return value


def policy_names() -> list[str]:
    """The policies a run may name (CONTRACTS §3), as `simulate --help` lists them."""
    try:
        from simulator.engines.r1.policies import POLICIES
    except Exception:  # pragma: no cover - an engine that cannot load has no policies to offer
        return [DEFAULT_POLICY]
    return sorted(n for n in POLICIES if n != "first")


def _policy_setting(settings: dict, key: str, engine) -> str:
    """A policy name from the settings ('greedy' when missing): one of policy_names(), or 'expert:N' (its
    budget in simulations per decision)."""
    value = settings.get(key)
    if value in (None, ""):
        return DEFAULT_POLICY
    names = policy_names()
    if not isinstance(value, str) or value.partition(":")[0] not in names:
        raise SpecError(f"{key} must be one of {', '.join(names)} (or expert:N), not {value!r}.")
    _, colon, arg = value.partition(":")
    if colon and not (arg.isascii() and arg.isdigit()):   # int() would take " 24", "2_4" and "٢٤" and store them
        raise SpecError(f"{key}: {value!r}: after the colon goes the budget, a whole number of simulations per "
                        "decision (e.g. expert:24), or no colon at all.")
    try:
        engine.make_policy(value, 0)
    except ValueError as exc:
        raise SpecError(f"{key}: {exc}") from exc
    return value


def _targets(raw, draw) -> list[dict]:
    """Extra probability rows: {"query": "t:unit c<=2", "k": 1} (CONTRACTS §5) or {"codes": [...], "k": 1}."""
    if raw in (None, ""):
        return []
    if not isinstance(raw, list) or len(raw) > MAX_TARGETS:
        raise SpecError(f"targets must be a list of at most {MAX_TARGETS} objects like "
                        '{"query": "t:unit c<=2", "k": 1}.')
    out = []
    for i, item in enumerate(raw):
        if isinstance(item, str):
            item = {"query": item}
        if not isinstance(item, dict):
            raise SpecError(f"targets[{i}] must be an object with a query or a list of codes.")
        k = _int_setting(item, "k", 1, 1, 7, "at least k copies")
        if "query" in item:
            from cards.search import SearchError, card_matches, parse_query

            query = item["query"]
            if not isinstance(query, str) or not query.strip():
                raise SpecError(f"targets[{i}].query must be a search query such as 't:unit c<=2'.")
            try:
                parsed = parse_query(query)
            except SearchError as exc:
                raise SpecError(f"targets[{i}].query {query!r}: {exc}") from exc
            row = hands_mod.query_target(draw, query, lambda c: card_matches(parsed, c), k=k)
        elif "codes" in item:
            codes = item["codes"]
            if not isinstance(codes, list) or not all(isinstance(c, str) for c in codes):
                raise SpecError(f"targets[{i}].codes must be a list of card codes.")
            wanted = set(codes)
            label = item.get("label") or ", ".join(codes)
            row = hands_mod.query_target(draw, str(label), lambda c: c["code"] in wanted, k=k, kind="codes")
        else:
            raise SpecError(f"targets[{i}] needs a 'query' (e.g. 't:unit c<=2') or 'codes'.")
        out.append({"label": row.label, "copies": row.copies, "k": row.k, "kind": row.kind})
    return out


def build_spec(*, mode, text, opponent_text=None, games=None, seed=None, settings=None, pool: CardPool | None = None,
               max_games: int | None = None, deck_name: str | None = None, opponent_name: str | None = None) -> dict:
    """Validate a request and build its run spec. Raises SpecError (-> 400) or EngineUnavailable."""
    if mode not in MODES:
        raise SpecError(f"Unknown mode {mode!r}: choose one of {', '.join(MODES)}.")
    pool = pool or CardPool.from_db()
    if settings is not None and not isinstance(settings, dict):
        raise SpecError("settings must be an object.")
    settings = dict(settings or {})
    limit = max_games or 10**7
    what = "hands sampled" if mode == "hands" else "games"
    games = _int_setting({"games": games}, "games", DEFAULT_GAMES[mode], 1, limit, f"{what}, at most {limit}")
    if seed is None:
        seed = 1
    seed = _int_setting({"seed": seed}, "seed", 1, 0, MAX_SEED, "the run's random seed")
    deck = read_deck(text, pool, label="deck", name=deck_name)
    opponent = None
    clean: dict = {}
    if mode == "versus":
        if not opponent_text:
            raise SpecError("A head-to-head (versus) run needs an opponent decklist.")
        opponent = read_deck(opponent_text, pool, label="opponent deck", name=opponent_name)
    elif opponent_text:
        raise SpecError(f"An opponent deck only goes with mode 'versus', not {mode!r}.")
    if mode == "hands":
        if any(settings.get(k) not in (None, "") for k in ("policy", "opponent_policy")):
            raise SpecError("policy and opponent_policy go with mode goldfish or versus (hands plays no games).")
        try:
            clean["mulligan"] = hands_mod.MulliganPolicy.from_setting(settings.get("mulligan")).to_setting()
        except ValueError as exc:
            raise SpecError(str(exc)) from exc
        clean["rounds"] = _int_setting(settings, "rounds", hands_mod.DEFAULT_ROUNDS, 1, 20, "rounds in the table")
        clean["setup_refill"] = _int_setting(settings, "setup_refill", hands_mod.DEFAULT_SETUP_REFILL, 0, 7,
                                             "cards drawn back after setup")
        clean["targets"] = _targets(settings.get("targets"), draw_entries(deck))
    else:
        clean["max_rounds"] = _int_setting(settings, "max_rounds", DEFAULT_MAX_ROUNDS, 1, 50, "round limit")
        engine = engine_module()
        clean["policy"] = _policy_setting(settings, "policy", engine)
        if mode == "versus":
            clean["opponent_policy"] = _policy_setting(settings, "opponent_policy", engine)
        elif settings.get("opponent_policy") not in (None, ""):
            raise SpecError("opponent_policy only goes with mode 'versus' (the goldfish opponent never decides).")
        for d in (deck, opponent):
            if d is None:
                continue
            try:
                built = engine.build_deck([(c, n) for c, n in d["entries"]])
            except getattr(engine, "DeckError", ValueError) as exc:
                raise SpecError(f"The {d['name']} cannot play a game: {exc}") from exc
            d["unsupported_cards"] = sorted(set(getattr(built, "unsupported_cards", []) or []))
    play_settings, hands_settings = {"max_rounds", "policy", "opponent_policy"}, {"mulligan", "rounds",
                                                                                   "setup_refill", "targets"}
    other = sorted(k for k in set(settings) & ((play_settings | hands_settings) - set(clean))
                   if settings[k] not in (None, ""))
    if other:   # a setting of the other kind of run would be dropped without a word
        modes = "'goldfish' and 'versus'" if mode == "hands" else "'hands'"
        raise SpecError(f"Setting(s) {', '.join(other)} go with mode {modes}, not {mode!r}; leave them out.")
    unknown = set(settings) - set(clean) - play_settings - hands_settings
    if unknown:
        raise SpecError(f"Unknown setting(s) {', '.join(sorted(unknown))} for mode {mode!r}.")
    spec = {"mode": mode, "games": games, "seed": seed, "settings": clean, "deck": deck, "opponent": opponent,
            "engine_version": engine_version(mode)}
    return spec
