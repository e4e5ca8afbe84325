"""Tuning decks: version against version (`compare`), card swaps (`tune`) and a meta matrix (`matrix`).

Like runner.py, everything here works on a JSON-able *spec* (the decks' card data included), so a Celery worker
needs no catalogue look-up and gives the numbers the web process would. A tuning run is a sequence of *stages*;
each stage is a list of *units* (one deck, one opponent or the goldfish, a range of games), and

    plan_stage(spec, done)      -> the units of the next stage, from the partials of the stages before, or None
    run_unit(spec, unit)        -> one unit's partial (a score per game, plus card counts)
    finalize(spec, done)        -> the report JSON

are pure functions of their arguments. `run_in_process` loops over them; the Celery tasks (tuning_tasks.py) run
each stage's units as a group and plan the next stage once every unit of this one is stored. Same spec, same
partials, same plan: the JSON is the same in-process and through the queue, on one worker or many (except
`elapsed_s`).

**Common random numbers.** Game g against opponent j uses the seed `game_seed(run seed, j, g)`, whatever deck
plays it, and deck A goes first in game g exactly when deck B does (g even). So two decks' results differ only by
what their cards do, and the paired differences have far less variance than two independent samples.

Statistics (docs/tuning.md): a paired mean difference with a normal 95% interval (mean ± 1.96·sd/√n), a Wilson
interval for one win rate, and Bradley–Terry ratings (minorization–maximization, draws as half a win) with standard
errors from the inverse Fisher information.
"""
from __future__ import annotations

import hashlib
import math
from typing import Callable

from cards.games.doctor import DEAD_PLAYED, DEAD_SHARE
from cards.games.r1.doctor import opponent_only
from cards.games.r1.facts import DRAW_TYPES

from simulator.engines.common import runs

from . import runner
from .reports import Z95, wilson_interval

KINDS = ("compare", "tune", "matrix")
TARGETS = ("goldfish", "winrate")
DEFAULT_POLICY = "greedy"
TUNING_VERSION = "tune-3"  # bump whenever the same request would give other numbers (plus the engine version)
UNIT_GAMES = 100            # games per unit (a Celery chunk)
DEFAULT_GAMES = {"compare": 200, "tune": 320, "matrix": 200}
MAX_DECKS = {"compare": 2, "tune": 1, "matrix": 12}
MAX_GAUNTLET = 12

# Card swaps: the search (docs/tuning.md, "Card swaps").
PROFILE_GAMES = 200         # goldfish games of the deck as it is, to find the cards it does not play
FIRST_ROUND_GAMES = 40      # games per candidate (per opponent) in the first round of successive halving
FINALISTS = 4               # halving stops at this many candidates, which then play up to the full games
MAX_CUTS = 12               # the cards considered for cutting (the least useful first)
COST_SLACK = 1              # an add matches a cut's cost when its printed cost is within 1 of it
MIN_ADDS = 8                # when fewer cards match, the closest others fill up to this many adds per cut
MIX_CUTS = 6                # mixed two-card swaps combine the 6 least useful cards ...
MIX_ADDS = 3                # ... with the 3 closest adds of each
MAX_CANDIDATES = 1000       # the most candidates a search races (fewer when the games budget is smaller)
DEAD_WEIGHT_PLAYED = DEAD_PLAYED   # a copy played in fewer than 5% of games is dead weight ... (the deck
DEAD_WEIGHT_SHARE = DEAD_SHARE     # doctor's dead_card rule) ... when that is also under a fifth of the median card


class TuningError(ValueError):
    """A request that cannot be run; the message says what to change (-> exit 2, HTTP 400)."""


# ---- the game --------------------------------------------------------------------------------------------
def hosted(spec: dict):
    """The tuning module of the spec's hosted game (simulator/games/<game>_tune.py, named by its run module's
    `tuning` hook), or None for the default game, r1, whose decks and engine are runner.py's. A hosted game's module
    gives what differs: how a side is read and played, whether it has a goldfish, and what a swap is."""
    game = spec.get("game")
    if not game:
        return None
    from .games import run_hook

    hook = run_hook(game, "tuning")
    if hook is None:
        raise TuningError(f"game: {str(game)[:20]!r} has no tuning here.")
    return hook()


def has_goldfish(spec: dict) -> bool:
    """Whether the game plays a side alone (the goldfish): a game of strategies (regions) does not."""
    game = hosted(spec)
    return True if game is None else bool(game.GOLDFISH)


def goldfish_goal(spec: dict) -> str:
    """What a goldfish game races to, in the report's words ("rounds sooner to 15 Influence")."""
    game = hosted(spec)
    return "15 Influence" if game is None else game.GOLDFISH_GOAL


# ---- seeds -----------------------------------------------------------------------------------------------
def game_seed(run_seed: int, cell: str, game: int) -> int:
    """The seed of game `game` in `cell` (an opponent, the goldfish, or a matrix pairing): every deck that plays
    that game gets the same seed (common random numbers)."""
    digest = hashlib.sha256(f"roc-tune:{run_seed}:{cell}:{game}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


# ---- decks -----------------------------------------------------------------------------------------------
def deck_counts(deck: dict) -> dict[str, int]:
    return {c["code"]: n for c, n in deck["entries"]}


def apply_swap(deck: dict, swap: dict, pool_cards: dict[str, dict], game=None) -> dict:
    """The deck with `swap` = {"out": {code: n}, "in": {code: n}} applied (card data from the deck or the pool);
    a hosted game whose swaps are not of cards (a strategy's Hero) applies its own."""
    if game is not None and hasattr(game, "apply_swap"):
        return game.apply_swap(deck, swap, pool_cards)
    counts = deck_counts(deck)
    cards = {c["code"]: c for c, _ in deck["entries"]}
    for code, n in swap["out"].items():
        counts[code] -= n
        if counts[code] <= 0:
            del counts[code]
    for code, n in swap["in"].items():
        counts[code] = counts.get(code, 0) + n
        cards.setdefault(code, pool_cards.get(code))
    entries = [[cards[code], n] for code, n in sorted(counts.items())]
    return {**deck, "entries": entries, "data_hash": runner.deck_data_hash(entries),
            "name": swap_label(swap, cards, game)}


def swap_label(swap: dict, cards: dict[str, dict], game=None) -> str:
    if game is not None and hasattr(game, "swap_label"):
        return game.swap_label(swap, cards)

    def side(d):
        return " + ".join(f"{n}x {cards[c]['name']}" for c, n in sorted(d.items()))
    return f"-{side(swap['out'])} / +{side(swap['in'])}"


def _cell_names(spec: dict) -> list[str]:
    """The opponents of compare/tune: "gf" (the goldfish) and "g0", "g1", ... (the gauntlet)."""
    return [f"g{j}" for j in range(len(spec["gauntlet"]))]


def _compare_cells(spec: dict) -> list[str]:
    """The cells of a comparison: the goldfish when the game has one, then every gauntlet deck."""
    return (["gf"] if has_goldfish(spec) else []) + _cell_names(spec)


# ---- one unit --------------------------------------------------------------------------------------------
def _deck_for(spec: dict, ref: str) -> dict:
    kind, _, arg = ref.partition(":")
    if kind == "deck":
        return spec["decks"][int(arg)]
    if kind == "gauntlet":
        return spec["gauntlet"][int(arg)]
    if kind == "cand":
        swap = candidate_by_id(spec, arg)
        return apply_swap(spec["decks"][0], swap, {c["code"]: c for c in spec["pool"]}, hosted(spec))
    raise TuningError(f"unknown deck reference {ref!r}")


def candidate_by_id(spec: dict, cid: str) -> dict:
    out_part, _, in_part = cid.partition(">")

    def parse(text):
        result = {}
        for item in text.split(","):
            code, _, n = item.rpartition("*")
            result[code] = int(n)
        return result
    return {"out": parse(out_part), "in": parse(in_part)}


def candidate_id(swap: dict) -> str:
    def fmt(d):
        return ",".join(f"{c}*{n}" for c, n in sorted(d.items()))
    return f"{fmt(swap['out'])}>{fmt(swap['in'])}"


def run_unit(spec: dict, unit: dict) -> dict:
    """One unit: `unit["deck"]` plays games [start, start+size) of `unit["cell"]` (goldfish "gf", gauntlet deck
    "gJ", or matrix pairing "mI-J" against deck J). Scores per game, in order: goldfish, the rounds to 15
    Influence (max_rounds + 1 when the deck did not get there); head-to-head, 2 win / 1 draw / 0 loss."""
    game = hosted(spec)
    if game is None:
        play_game, engine_deck = runner.engine_module().play_game, runner.engine_deck
    else:
        play_game, engine_deck = game.play_game, game.engine_deck
    cell, start, size = unit["cell"], unit["start"], unit["size"]
    deck = engine_deck(_deck_for(spec, unit["deck"]), size)
    max_rounds = spec["max_rounds"]
    policies = (spec["policy"], spec["opponent_policy"])
    if cell == "gf":
        opponent = None
    elif cell.startswith("g"):
        opponent = engine_deck(spec["gauntlet"][int(cell[1:])], size)
    else:
        opponent = engine_deck(spec["decks"][int(cell.split("-")[1])], size)
    scores: list[int] = []
    played: dict[str, int] = {}
    stuck: dict[str, int] = {}
    sample = None
    for g in range(start, start + size):
        seed = game_seed(spec["seed"], cell, g)
        want_log = unit.get("log", False) and g == 0
        if opponent is None:
            result = play_game(deck, None, seed=seed, policies=(policies[0], policies[0]),
                                      max_rounds=max_rounds)
            scores.append(result.rounds if result.winner == 0 else max_rounds + 1)
        else:
            # Alternate who goes first (game g: the deck when g is even), as runner.py's versus runs do.
            result = play_game(deck, opponent, seed=seed, first_player=g % 2, policies=policies,
                                      max_rounds=max_rounds, log=want_log)
            scores.append(2 if result.winner == 0 else 1 if result.winner is None else 0)
            if want_log:
                sample = {"game": 0, "seed": seed, "first_player": result.first_player, "winner": result.winner,
                          "reason": result.reason, "lines": list(result.log or [])[:400]}
        if unit.get("profile"):
            for name, n in (result.cards_played or {}).items():
                played[name] = played.get(name, 0) + n
            for name, n in (result.stuck_in_hand or {}).items():
                stuck[name] = stuck.get(name, 0) + n
    part: dict = {"unit": unit, "scores": scores}
    if unit.get("profile"):
        part["played"], part["stuck"] = played, stuck
    if sample is not None:
        part["sample_log"] = sample
    return part


def _unit(deck: str, cell: str, start: int, stop: int, **extra) -> list[dict]:
    return [{"deck": deck, "cell": cell, "start": s, "size": min(UNIT_GAMES, stop - s), **extra}
            for s in range(start, stop, UNIT_GAMES)]


# ---- one game again (the cell pages and their replays) -------------------------------------------------
def game_setup(spec: dict, deck_ref: str, cell: str, game: int) -> dict:
    """What `run_unit` gave game `game` of `deck_ref` in `cell` of a compare or matrix run: the two decks (the
    opponent None for the goldfish), the seed, who went first, the policies and the round cap. Games are
    reproducible from these, so any of them can be replayed (simulator/replay.py). TuningError when the run has
    no such game."""
    kind = spec["kind"]
    if kind == "matrix":
        try:
            i, j = (int(x) for x in cell[1:].split("-")) if cell.startswith("m") else (None, None)
        except ValueError:
            i = j = None
        if i is None or j is None or not 0 <= i < j < len(spec["decks"]) or deck_ref != f"deck:{i}":
            raise TuningError(f"This matrix has no pairing {cell!r}.")
        opponent = spec["decks"][j]
    elif kind == "compare":
        if deck_ref not in ("deck:0", "deck:1") or cell not in _compare_cells(spec):
            raise TuningError(f"This comparison has no games of {deck_ref!r} in {cell!r}.")
        opponent = None if cell == "gf" else spec["gauntlet"][int(cell[1:])]
    else:
        raise TuningError("Only the games of a comparison or a matrix are listed one by one.")
    if not 0 <= game < spec["games"]:
        raise TuningError(f"Game {game + 1} is not in this run (it played {spec['games']} per cell).")
    policies = (spec["policy"], spec["opponent_policy"]) if opponent is not None else (spec["policy"],) * 2
    return {"deck": _deck_for(spec, deck_ref), "opponent": opponent, "seed": game_seed(spec["seed"], cell, game),
            "first_player": game % 2 if opponent is not None else None, "policies": policies,
            "max_rounds": spec["max_rounds"]}


# ---- collecting partials ---------------------------------------------------------------------------------
def scores_of(done: list[list[dict]]) -> dict[tuple[str, str], list[int]]:
    """{(deck ref, cell): scores of games 0, 1, 2, ...} from every stored partial (contiguous ranges)."""
    pieces: dict[tuple[str, str], list[tuple[int, list[int]]]] = {}
    for stage in done:
        for part in stage:
            u = part["unit"]
            pieces.setdefault((u["deck"], u["cell"]), []).append((u["start"], part["scores"]))
    out = {}
    for key, items in pieces.items():
        items.sort()
        seq: list[int] = []
        for start, scores in items:
            if start == len(seq):
                seq.extend(scores)
        out[key] = seq
    return out


def paired(a: list[int], b: list[int], scale: float = 1.0) -> dict:
    """Mean of a_g - b_g over the games both played, with a normal 95% interval (common random numbers)."""
    n = min(len(a), len(b))
    if n == 0:
        return {"games": 0, "delta": None, "ci95": None}
    diffs = [(a[g] - b[g]) * scale for g in range(n)]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
    half = Z95 * math.sqrt(var / n)
    return {"games": n, "delta": round(mean, 6), "ci95": [round(mean - half, 6), round(mean + half, 6)]}


def _mean(xs: list[int], scale: float = 1.0) -> float | None:
    return round(sum(xs) * scale / len(xs), 6) if xs else None


# ---- compare ---------------------------------------------------------------------------------------------
def _plan_compare(spec: dict, done: list) -> list[dict] | None:
    if done:
        return None
    n = spec["games"]
    units = []
    for d in ("deck:0", "deck:1"):
        for cell in _compare_cells(spec):
            units += _unit(d, cell, 0, n)
    return units


def _finalize_compare(spec: dict, done: list) -> dict:
    scores = scores_of(done)
    a, b = spec["decks"]
    goldfish = None
    if has_goldfish(spec):
        gf_a, gf_b = scores[("deck:0", "gf")], scores[("deck:1", "gf")]
        cap = spec["max_rounds"]
        speed = paired(gf_a, gf_b)
        goldfish = {"games": len(gf_a), "a_mean_rounds": _mean(gf_a), "b_mean_rounds": _mean(gf_b),
                    "a_win_rate": _mean([int(s <= cap) for s in gf_a]),
                    "b_win_rate": _mean([int(s <= cap) for s in gf_b]),
                    "delta_rounds": speed["delta"], "ci95": speed["ci95"]}
    opponents = []
    all_a: list[int] = []
    all_b: list[int] = []
    for j, cell in enumerate(_cell_names(spec)):
        sa, sb = scores[("deck:0", cell)], scores[("deck:1", cell)]
        all_a += sa
        all_b += sb
        d = paired(sa, sb, 0.5)
        opponents.append({"opponent": spec["gauntlet"][j]["name"], "games": len(sa),
                          "a_win_rate": _mean(sa, 0.5), "b_win_rate": _mean(sb, 0.5),
                          "delta": d["delta"], "ci95": d["ci95"]})
    d = paired(all_a, all_b, 0.5)
    overall = {"games": len(all_a), "a_win_rate": _mean(all_a, 0.5), "b_win_rate": _mean(all_b, 0.5),
               "delta": d["delta"], "ci95": d["ci95"]}
    return {"kind": "compare", "a": _summary(a), "b": _summary(b), "goldfish": goldfish, "opponents": opponents,
            "overall": overall if opponents else None,
            "games_spent": sum(len(v) for v in scores.values())}


# ---- tune: candidates ------------------------------------------------------------------------------------
def profile_of(done: list) -> tuple[dict, dict, int]:
    played: dict[str, int] = {}
    stuck: dict[str, int] = {}
    games = 0
    for part in done[0]:
        games += len(part["scores"])
        for name, n in part.get("played", {}).items():
            played[name] = played.get(name, 0) + n
        for name, n in part.get("stuck", {}).items():
            stuck[name] = stuck.get(name, 0) + n
    return played, stuck, games


def _cost(card: dict) -> int | None:
    c = card.get("cost")
    return c if isinstance(c, int) and not isinstance(c, bool) else None


def cut_ranking(spec: dict, done: list) -> list[dict]:
    """The deck's draw cards that may be cut, least useful first: fewest plays per copy per game, then most often
    left in hand at the end of a game (per copy), then by code. The profile is the target's own games: goldfish
    games for goldfish speed, games against the gauntlet for win rate. On a goldfish target a card only a real
    opponent makes playable (`opponent_only`, the deck doctor's reading: it targets enemy cards, acts on the
    opponent, works in struggles or only adds Power) is never offered as a cut — the goldfish cannot judge it;
    `opponent_only_cards` lists them instead."""
    return [r for r in _profile_rows(spec, done) if not r.get("opponent_only")]


def opponent_only_cards(spec: dict, done: list) -> list[dict]:
    """The draw cards a goldfish target keeps out of the cuts, each with why (empty for a win-rate target)."""
    return [r for r in _profile_rows(spec, done) if r.get("opponent_only")]


def _profile_rows(spec: dict, done: list) -> list[dict]:
    played, stuck, games = profile_of(done)
    game = hosted(spec)
    goldfish = spec["target"] == "goldfish"
    draw_types = DRAW_TYPES if game is None else game.DRAW_TYPES
    needs_opponent = opponent_only if game is None else game.opponent_only
    rows = []
    for card, n in spec["decks"][0]["entries"]:
        if card["type"] not in draw_types:
            continue
        row = {"code": card["code"], "name": card["name"], "copies": n,
               "played_per_copy": round(played.get(card["name"], 0) / max(games, 1) / n, 4),
               "stuck_per_copy": round(stuck.get(card["name"], 0) / max(games, 1) / n, 4)}
        why = needs_opponent(card) if goldfish else None
        if why:
            row["opponent_only"] = why
        rows.append(row)
    rows.sort(key=lambda r: (r["played_per_copy"], -r["stuck_per_copy"], r["code"]))
    return rows


def swap_why(spec: dict, swap: dict, ranking: list[dict], cards: dict[str, dict], games: int) -> str:
    """Why the search tried this swap, in a sentence: what the profile games said of each card cut, and what each
    card added brings (its role and cost against the cut's)."""
    game = hosted(spec)
    if game is not None and hasattr(game, "swap_why"):
        return game.swap_why(spec, swap, cards, games)
    rows = {r["code"]: r for r in ranking}
    where = "goldfish" if spec["target"] == "goldfish" else "gauntlet"
    cuts = []
    for code in swap["out"]:
        r = rows.get(code)
        rate = f"played {r['played_per_copy']:.2f} times per copy per game" if r else "rarely played"
        stuck = f", left in hand {r['stuck_per_copy']:.2f}" if r and r["stuck_per_copy"] else ""
        cuts.append(f"{cards[code]['name']} ({rate}{stuck})")
    adds = []
    for code in swap["in"]:
        c = cards[code]
        adds.append(f"{c['name']} (a {c['type']} of cost {c.get('cost')})")
    verb = "was" if len(cuts) == 1 else "were"
    return (f"In {games} {where} games {' and '.join(cuts)} {verb} among the deck's least played cards; "
            f"{' and '.join(adds)} {'fills' if len(adds) == 1 else 'fill'} the same role at the closest cost "
            f"the pool offers.")


def _adds_for(spec: dict, cut_card: dict, counts: dict[str, int]) -> list[dict]:
    """The pool cards that may replace `cut_card`: every card of the same role (its type) whose printed cost
    matches (within COST_SLACK), that the deck may take more copies of; when fewer than MIN_ADDS match, the
    closest others (by cost, then most Power) fill up to MIN_ADDS. Closest first."""
    cost = _cost(cut_card)

    def closeness(card):
        c = _cost(card)
        distance = abs(c - cost) if c is not None and cost is not None else (0 if c == cost else 9)
        power = card.get("power") if isinstance(card.get("power"), int) else 0
        return (distance, -power, card["code"])
    same_role = sorted((c for c in spec["pool"] if c["type"] == cut_card["type"] and c["code"] != cut_card["code"]
                        and spec["room"].get(c["code"], 0) > 0), key=closeness)
    matching = [c for c in same_role if closeness(c)[0] <= COST_SLACK]
    return matching if len(matching) >= MIN_ADDS else same_role[:MIN_ADDS]


def candidates(spec: dict, done: list) -> list[dict]:
    """One- and two-card swaps (docs/tuning.md, "Card swaps"), most promising first by a prior (the cut's rank,
    then the add's closeness), at most `spec["max_candidates"]` of them (the games budget's share):

    - one for one, and two copies for two, of each of the MAX_CUTS least useful cards with each of its adds
      (`_adds_for`: every legal card of the same role and matching cost);
    - mixed two-card swaps among the MIX_CUTS least useful cards and their MIX_ADDS closest adds: two different
      cards cut for two different cards added (-1 a -1 b / +1 x +1 y, x replacing a and y replacing b), two
      copies of one card for two different cards (-2 a / +1 x +1 y), and two different cards for two copies of
      one card that fits both (-1 a -1 b / +2 x).

    `spec["room"]` (tuning_input.py) says how many more copies of each pool card the deck may take without a new
    §11 problem (and, with --owned, how many more the user owns). A hosted game whose swaps are not of cards
    (a strategy's Hero) lists its own."""
    game = hosted(spec)
    if game is not None and hasattr(game, "candidates"):
        return game.candidates(spec)[: spec["max_candidates"]]
    deck = spec["decks"][0]
    counts = deck_counts(deck)
    room = spec["room"]
    by_code = {c["code"]: c for c, _ in deck["entries"]}
    cuts = [by_code[r["code"]] for r in cut_ranking(spec, done)[:MAX_CUTS]]
    adds = {c["code"]: _adds_for(spec, c, counts) for c in cuts}
    ranked: dict[str, tuple[tuple, dict]] = {}

    def offer(prior: tuple, swap: dict) -> None:
        cid = candidate_id(swap)
        if cid not in ranked or prior < ranked[cid][0]:
            ranked[cid] = (prior, swap)
    for i, cut in enumerate(cuts):
        a = cut["code"]
        for r, add in enumerate(adds[a]):
            x = add["code"]
            offer((i + r, 0, i), {"out": {a: 1}, "in": {x: 1}})
            if counts[a] >= 2 and room[x] >= 2:
                offer((i + r + 1, 1, i), {"out": {a: 2}, "in": {x: 2}})
    mix = cuts[:MIX_CUTS]
    for i, cut in enumerate(mix):
        a = cut["code"]
        near_a = adds[a][:MIX_ADDS + 1]
        if counts[a] >= 2:  # -2 a / +1 x +1 y
            for r, x in enumerate(near_a):
                for s in range(r + 1, len(near_a)):
                    offer((i + r + s + 2, 2, i), {"out": {a: 2}, "in": {x["code"]: 1, near_a[s]["code"]: 1}})
        for j in range(i + 1, len(mix)):
            b = mix[j]["code"]
            for r, x in enumerate(adds[a][:MIX_ADDS]):
                for s, y in enumerate(adds[b][:MIX_ADDS]):
                    if x["code"] != y["code"] and x["code"] != b and y["code"] != a:
                        offer((i + j + r + s + 2, 3, i), {"out": {a: 1, b: 1}, "in": {x["code"]: 1, y["code"]: 1}})
            fits_b = {c["code"] for c in adds[b]}
            both = [c for c in adds[a] if c["code"] in fits_b and c["code"] not in (a, b)
                    and room[c["code"]] >= 2][:MIX_ADDS]
            for r, x in enumerate(both):
                offer((i + j + r + 2, 4, i), {"out": {a: 1, b: 1}, "in": {x["code"]: 2}})
    order = sorted(ranked.items(), key=lambda kv: (kv[1][0], kv[0]))
    return [swap for _, (_, swap) in order][: spec["max_candidates"]]


def tune_bound(spec: dict, n_candidates: int) -> int:
    """The most games a card-swap search of `n_candidates` plays: the profile, every round of the halving for the
    candidates, and the deck's own games up to the finalists' (per cell of the target)."""
    schedule = halving_schedule(max(n_candidates, 1), FIRST_ROUND_GAMES, spec["games"])
    cells = len(_tune_cells(spec))
    per_cell = sum(a * (g - (schedule[r - 1][1] if r else 0)) for r, (a, g) in enumerate(schedule))
    return (profile_games(spec) + per_cell + max(schedule[-1][1] - profile_games(spec), 0)) * cells


def candidates_within(spec: dict, budget: int) -> int:
    """The most candidates (up to MAX_CANDIDATES) whose search fits in `budget` games; 0 if not even FINALISTS do."""
    if tune_bound(spec, FINALISTS) > budget:
        return 0
    low, high = FINALISTS, MAX_CANDIDATES
    while low < high:  # the bound grows with the candidates
        mid = (low + high + 1) // 2
        if tune_bound(spec, mid) <= budget:
            low = mid
        else:
            high = mid - 1
    return low


def halving_schedule(n_candidates: int, first: int, full: int) -> list[tuple[int, int]]:
    """[(candidates alive, games each has played by the end of the round)]: half the candidates go on to twice
    the games, until FINALISTS are left and they have played `full` games (successive halving)."""
    rounds = []
    alive, games = n_candidates, min(first, full)
    while True:
        rounds.append((alive, games))
        if alive <= FINALISTS and games >= full:
            return rounds
        if games >= full:  # no more games to give: the ranking so far picks the finalists at once
            alive = min(alive, FINALISTS)
        else:
            alive = max(FINALISTS, math.ceil(alive / 2)) if alive > FINALISTS else alive
            games = min(full, games * 2)


def profile_games(spec: dict) -> int:
    """Games of the profile stage per cell: PROFILE_GAMES in all, against the goldfish or spread over the
    gauntlet (at least FIRST_ROUND_GAMES against each of its decks)."""
    cells = len(_tune_cells(spec))
    return max(FIRST_ROUND_GAMES, math.ceil(PROFILE_GAMES / cells))


def _tune_cells(spec: dict) -> list[str]:
    return ["gf"] if spec["target"] == "goldfish" else _cell_names(spec)


def _score_sign(spec: dict) -> float:
    # goldfish: fewer rounds is better; head-to-head: a higher score is better (and 2 points are one win)
    return -1.0 if spec["target"] == "goldfish" else 0.5


def _tune_delta(spec: dict, scores: dict, cid: str) -> dict:
    a: list[int] = []
    b: list[int] = []
    for cell in _tune_cells(spec):
        sa, sb = scores.get((f"cand:{cid}", cell), []), scores.get(("deck:0", cell), [])
        n = min(len(sa), len(sb))
        a += sa[:n]
        b += sb[:n]
    return paired(a, b, _score_sign(spec))


def _alive_after(spec: dict, done: list) -> tuple[list[str], list[tuple[int, int]], dict]:
    """The candidates still in the race before stage len(done), the schedule, and when each one dropped out."""
    cands = [candidate_id(s) for s in candidates(spec, done)]
    schedule = halving_schedule(len(cands), FIRST_ROUND_GAMES, spec["games"])
    scores = scores_of(done)
    alive = list(cands)
    dropped: dict[str, int] = {}
    for r in range(len(done) - 1):  # rounds already evaluated
        if r + 1 >= len(schedule):
            break
        keep = schedule[r + 1][0]
        ranked = sorted(alive, key=lambda c: (-(_tune_delta(spec, scores, c)["delta"] or 0), c))
        for c in ranked[keep:]:
            dropped[c] = r
        alive = ranked[:keep]
    return alive, schedule, dropped


def _plan_tune(spec: dict, done: list) -> list[dict] | None:
    if not done:  # stage 0: the deck as it is, counting what it plays and what it holds (these games also
        # count as the deck's own games for the comparison: the same seeds the candidates will get)
        return [u for cell in _tune_cells(spec) for u in _unit("deck:0", cell, 0, profile_games(spec), profile=True)]
    alive, schedule, _ = _alive_after(spec, done)
    r = len(done) - 1
    if r >= len(schedule) or not alive:
        return None
    games_before = schedule[r - 1][1] if r > 0 else 0
    games = schedule[r][1]
    scores = scores_of(done)
    units = []
    for cell in _tune_cells(spec):
        have = len(scores.get(("deck:0", cell), []))
        if have < games:
            units += _unit("deck:0", cell, have, games)
        for cid in alive:
            units += _unit(f"cand:{cid}", cell, games_before, games)
    return units


def _finalize_tune(spec: dict, done: list) -> dict:
    scores = scores_of(done)
    alive, schedule, dropped = _alive_after(spec, done)
    cands = candidates(spec, done)
    cards = {c["code"]: c for c, _ in spec["decks"][0]["entries"]}
    cards.update({c["code"]: c for c in spec["pool"]})
    ranking = cut_ranking(spec, done)
    profile_n = profile_of(done)[2]
    swaps = []
    for swap in cands:
        cid = candidate_id(swap)
        d = _tune_delta(spec, scores, cid)
        swaps.append({"out": [{"code": c, "name": cards[c]["name"], "copies": n} for c, n in swap["out"].items()],
                      "in": [{"code": c, "name": cards[c]["name"], "copies": n} for c, n in swap["in"].items()],
                      "label": swap_label(swap, cards, hosted(spec)), "why": swap_why(spec, swap, ranking, cards, profile_n),
                      "delta": d["delta"], "ci95": d["ci95"], "games": d["games"],
                      "finalist": cid in alive, "dropped_after_round": dropped.get(cid)})
    # Finalists first (they played the most games), best delta first; then the others by how far they got.
    swaps.sort(key=lambda s: (not s["finalist"], -(s["dropped_after_round"] or 0), -(s["delta"] or 0), s["label"]))
    base_cells = [scores.get(("deck:0", c), []) for c in _tune_cells(spec)]
    base_all = [x for cell in base_cells for x in cell]
    cap = spec["max_rounds"]
    rates = sorted(r["played_per_copy"] for r in ranking)
    median = rates[len(rates) // 2] if rates else 0.0
    dead = [dict(r) for r in ranking if r["played_per_copy"] < DEAD_WEIGHT_PLAYED
            and r["played_per_copy"] <= DEAD_WEIGHT_SHARE * median]
    game = hosted(spec)
    if game is not None and not game.COUNTS_PLAYS:   # a side that plays no cards of its own has none to judge
        dead, ranking = [], []
    baseline = {"games": len(base_all)}
    if spec["target"] == "goldfish":
        baseline.update(mean_rounds=_mean(base_all), win_rate=_mean([int(s <= cap) for s in base_all]))
    else:
        baseline.update(win_rate=_mean(base_all, 0.5))
    return {"kind": "tune", "target": spec["target"], "deck": _summary(spec["decks"][0]),
            "gauntlet": [g["name"] for g in spec["gauntlet"]] if spec["target"] == "winrate" else [],
            "baseline": baseline, "candidates": len(cands),
            "rounds": [{"candidates": a, "games": g} for a, g in schedule],
            "swaps": swaps, "best": swaps[0] if swaps and swaps[0]["finalist"] else None,
            "dead_weight": dead, "cut_ranking": ranking,
            # kept out of the cuts on a goldfish target (the deck doctor's needs_opponent): only an opponent
            # makes them playable, so the goldfish's zero plays say nothing of them
            "opponent_only": [{**r, "why": r.pop("opponent_only")} for r in opponent_only_cards(spec, done)],
            # the deltas are fractions like every rate of the report; the pages and the text show them in points
            "delta_means": f"rounds sooner to {goldfish_goal(spec)}" if spec["target"] == "goldfish" else
                           "win rate against the gauntlet, as a fraction like every rate here (0.05 = 5 "
                           "percentage points)",
            "games_spent": sum(len(v) for v in scores.values())}


# ---- matrix ----------------------------------------------------------------------------------------------
def _pairs(spec: dict) -> list[tuple[int, int]]:
    n = len(spec["decks"])
    return [(i, j) for i in range(n) for j in range(i + 1, n)]


def _plan_matrix(spec: dict, done: list) -> list[dict] | None:
    if done:
        return None
    units = []
    for i, j in _pairs(spec):
        units += _unit(f"deck:{i}", f"m{i}-{j}", 0, spec["games"], log=True)
    return units


def bradley_terry(n: int, results: dict[tuple[int, int], tuple[float, int]], iterations: int = 500) -> list[dict]:
    """Bradley–Terry strengths from {(i, j): (points of i, games)} (points: win 1, draw 0.5), by minorization-
    maximization with half a win and half a loss added to every pair played (so a deck that won every game still
    has a finite rating). Returned on the Elo scale (400·log10 of the strength, mean 0) with a standard error from
    the inverse Fisher information.

    >>> [r["rating"] for r in bradley_terry(2, {(0, 1): (50, 100)})]
    [0.0, 0.0]
    """
    wins = [[0.0] * n for _ in range(n)]
    games = [[0] * n for _ in range(n)]
    for (i, j), (points, g) in results.items():
        wins[i][j] += points + 0.5
        wins[j][i] += g - points + 0.5
        games[i][j] += g + 1
        games[j][i] += g + 1
    strength = [1.0] * n
    for _ in range(iterations):
        new = []
        for i in range(n):
            total = sum(wins[i])
            denom = sum(games[i][j] / (strength[i] + strength[j]) for j in range(n) if j != i and games[i][j])
            new.append(total / denom if denom else strength[i])
        geo = math.exp(sum(math.log(s) for s in new) / n) if n else 1.0
        strength = [s / geo for s in new]
    theta = [math.log(s) for s in strength]
    # Fisher information of theta: a graph Laplacian; its pseudo-inverse is inv(L + J/n) - J/n.
    info = [[0.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(n):
            if i != j and games[i][j]:
                p = strength[i] / (strength[i] + strength[j])
                w = games[i][j] * p * (1 - p)
                info[i][j] -= w
                info[i][i] += w
    cov = _inverse([[info[i][j] + 1.0 / n for j in range(n)] for i in range(n)]) if n else []
    scale = 400 / math.log(10)
    out = []
    for i in range(n):
        var = max(cov[i][i] - 1.0 / n, 0.0)
        se = scale * math.sqrt(var)
        rating = scale * theta[i]
        out.append({"deck": i, "rating": round(rating, 1), "se": round(se, 1),
                    "ci95": [round(rating - Z95 * se, 1), round(rating + Z95 * se, 1)]})
    return out


def _inverse(m: list[list[float]]) -> list[list[float]]:
    n = len(m)
    a = [row[:] + [1.0 if i == j else 0.0 for j in range(n)] for i, row in enumerate(m)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        p = a[col][col]
        a[col] = [x / p for x in a[col]]
        for r in range(n):
            if r != col and a[r][col]:
                f = a[r][col]
                a[r] = [x - f * y for x, y in zip(a[r], a[col])]
    return [row[n:] for row in a]


def _finalize_matrix(spec: dict, done: list) -> dict:
    scores = scores_of(done)
    logs = {part["unit"]["cell"]: part["sample_log"] for stage in done for part in stage if "sample_log" in part}
    cells = []
    bt: dict[tuple[int, int], tuple[float, int]] = {}
    for i, j in _pairs(spec):
        cell = f"m{i}-{j}"
        s = scores[(f"deck:{i}", cell)]
        wins, draws = s.count(2), s.count(1)
        losses = len(s) - wins - draws
        bt[(i, j)] = (wins + 0.5 * draws, len(s))
        for a, b, w, lo in ((i, j, wins, losses), (j, i, losses, wins)):
            rate = (w + 0.5 * draws) / len(s)
            ci = wilson_interval(w, len(s) - draws) if len(s) - draws else None
            cells.append({"deck": a, "opponent": b, "games": len(s), "wins": w, "losses": lo, "draws": draws,
                          "win_rate": round(rate, 6), "ci95": [round(x, 6) for x in ci] if ci else None,
                          "cell": cell, "first_game": logs.get(cell) if a == i else None})
    cells.sort(key=lambda c: (c["deck"], c["opponent"]))
    ratings = bradley_terry(len(spec["decks"]), bt)
    for r in ratings:
        r["name"] = spec["decks"][r["deck"]]["name"]
    return {"kind": "matrix", "decks": [_summary(d) for d in spec["decks"]], "cells": cells,
            "ratings": sorted(ratings, key=lambda r: (-r["rating"], r["deck"])),
            "games_spent": sum(len(v) for v in scores.values())}


# ---- the run ---------------------------------------------------------------------------------------------
PLANNERS = {"compare": _plan_compare, "tune": _plan_tune, "matrix": _plan_matrix}
FINALIZERS = {"compare": _finalize_compare, "tune": _finalize_tune, "matrix": _finalize_matrix}


def plan_stage(spec: dict, done: list[list[dict]]) -> list[dict] | None:
    """The units of stage len(done), or None when the run is complete. `done[k]` holds stage k's partials in
    unit order."""
    return PLANNERS[spec["kind"]](spec, done)


def planned_games(spec: dict) -> int:
    """How many games the run will play (for progress): exact for compare and matrix, the schedule's bound for
    tune (the candidate count is known only after the profile stage; `spec["max_candidates"]` is the most)."""
    kind = spec["kind"]
    if kind == "compare":
        return 2 * spec["games"] * len(_compare_cells(spec))
    if kind == "matrix":
        return spec["games"] * len(_pairs(spec))
    return profile_games(spec) * len(_tune_cells(spec))  # refined by tune_planned_games after the profile


def tune_planned_games(spec: dict, done: list) -> int:
    return tune_bound(spec, len(candidates(spec, done)))


def finalize(spec: dict, done: list[list[dict]]) -> dict:
    result = FINALIZERS[spec["kind"]](spec, done)
    result.update(seed=spec["seed"], games=spec["games"], policies=[spec["policy"], spec["opponent_policy"]],
                  max_rounds=spec["max_rounds"], engine_version=spec["engine_version"],
                  tuning_version=TUNING_VERSION)
    if spec["kind"] != "matrix" and spec["kind"] != "tune":
        result["gauntlet"] = [g["name"] for g in spec["gauntlet"]]
    if spec.get("game"):
        result["game"] = spec["game"]
    return result


def run_in_process(spec: dict, progress: Callable[[int, int], None] | None = None) -> dict:
    """Every stage's units in order in this process, planned and merged exactly as the Celery tasks do."""
    return runs.run_stages(lambda done: plan_stage(spec, done), lambda unit: run_unit(spec, unit),
                           lambda done: finalize(spec, done), size=lambda unit: unit["size"],
                           total=lambda done: (planned_games(spec) if spec["kind"] != "tune" or not done
                                               else tune_planned_games(spec, done)), progress=progress)


def _summary(deck: dict) -> dict:
    if deck.get("summary") is not None:   # a hosted game's side says what it is (its Leaders, its Hero)
        return {"name": deck.get("name"), **deck["summary"]}
    return runner.deck_summary(deck)
