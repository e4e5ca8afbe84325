"""The deck doctor's checks for A Reign of Kings (rulebook 000), registered as r1's `doctor` hook.

Pure Python over card dicts (CONTRACTS §1). The exact probabilities are the hands report's (simulator/hands.py:
hypergeometric, "seen by round r" = the first 7 + 3 drawn back after setup + 2 per Draw phase); the game figures
come from a `GameSample` the site passes in (a small cached goldfish sample, or stored versus runs). The hands
maths is imported when a check runs, not with this module: the registry resolves r1's hooks lazily, and the
cards app must not import the simulator when it loads.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from cards.games.doctor import (DoctorDeck, Finding, GameSample, Suggestion, dead_names, legality_findings, pct,
                                played_per_copy)
from cards.games.r1.facts import (DRAW_TYPES, HAND_SIZE, ICONS, MAX_COPIES, MIN_DRAW_CARDS, SETUP_BUDGET,
                                  SETUP_RESTRICTED, SETUP_TYPES)

ROUNDS_SHOWN = (2, 3, 4)          # the rounds whose chance of a defender the evidence gives
DEFENDED_BY_ROUND3 = 0.8          # below this chance of a unit of the icon by round 3, the icon is undefended
MAX_SUGGESTIONS = 4
CHEAP_SETUP_COST = 3              # a unit this cheap (effective cost) fits the 8-wealth setup with others (§4)
SETUP_UNITS = 2                   # the opening board the setup check asks for: two units
SETUP_CHANCE = 0.6                # below this chance of two cheap units in the opening 7, setup is thin
RESTRICTED_COPIES = 6             # more Restricted copies than this crowd the one-a-round allowance (§9.3)
ABOVE_MEAN_SHARE = 0.3            # more than this share of the draw deck costing above the mean quest wealth


def _title(card: dict) -> str:
    return f"{card['name']}, {card['subtitle']}" if card.get("subtitle") else card["name"]


def _int(value) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _loyalty(card: dict, faction: str | None) -> int:
    """§9.3: an off-faction card costs its Loyalty extra (Neutral and in-faction cards nothing)."""
    if faction is None or card.get("faction") in (None, "neutral", faction):
        return 0
    return card.get("loyalty") or 0


def _cost(card: dict, faction: str | None) -> int | None:
    c = _int(card.get("cost"))
    return None if c is None else c + _loyalty(card, faction)


def _keywords(card: dict) -> set[str]:
    return {str(k).split("(")[0].strip().lower() for k in card.get("keywords") or ()}


# ---- cards only a real opponent makes playable -------------------------------------------------------------
def opponent_only(card: dict) -> str | None:
    """Why the card does nothing without a real opponent, or None when it does something alone.

    The card's own abilities say it (the engine offers an option only when its target and condition can be met,
    and the greedy player uses a trick only in a struggle it could lose): every ability that gives the card its
    use is one of
      - aimed at the opponent's cards (a target with `"controller": "opponent"`): the goldfish has none;
      - acting on the opponent (`"player": "opponent"`, e.g. a discard): the goldfish has no hand or deck;
      - for a struggle (`"phase": "struggle"`, or a participating/attacking/defending target or scope): against
        the goldfish every struggle is unopposed and won already (S.6; it never declares a defender);
      - adding Power only: Power decides opposed struggles (§6.3) and Authority (§5.5), and the goldfish
        contests neither (CONTRACTS §3: its Authority total is 0).
    Keywords (Glory, Bound …) do not count either way; a card with no ability has a use alone."""
    reasons = []
    for ab in card.get("abilities") or ():
        if not isinstance(ab, dict):
            continue
        target = ab.get("target") if isinstance(ab.get("target"), dict) else {}
        affects = ab.get("affects") if isinstance(ab.get("affects"), dict) else {}
        effects = [e for e in ab.get("effects") or () if isinstance(e, dict)]
        if target.get("controller") == "opponent":
            reasons.append("it needs an enemy card to target")
            continue
        if ab.get("timing") == "attach":
            continue   # where an attachment goes says nothing of what it does
        if any(e.get("player") == "opponent" for e in effects):
            reasons.append("it acts on the opponent's hand or deck")
            continue
        if ab.get("phase") == "struggle" or any(target.get(k) for k in ("participating", "attacking", "defending")) \
                or any(affects.get(k) for k in ("participating", "defending")):
            reasons.append("it acts in a struggle, and only a defender makes a struggle worth a trick (§6.2 S.6)")
            continue
        modify = ab.get("modify") if isinstance(ab.get("modify"), dict) else {}
        effect_keys = {k for e in effects for k in e if k not in ("who", "until")}
        if (ab.get("timing") == "static" and modify and set(modify) <= {"power"}) or \
                (effects and effect_keys <= {"modify_power"}):
            reasons.append("it adds Power, which counts only against a defender or for Authority (§6.3, §5.5)")
            continue
        return None   # an ability with a use of its own
    return reasons[0] if reasons else None


# ---- the checks ----------------------------------------------------------------------------------------------
class _Deck:
    """The deck read once for every check."""

    def __init__(self, deck: DoctorDeck):
        self.deck = deck
        self.entries = deck.entries
        factions = [c for c, _ in deck.entries if c.get("type") == "faction"]
        self.faction = factions[0].get("faction") if len(factions) == 1 else None
        self.draw = [(c, n) for c, n in deck.entries if c.get("type") in DRAW_TYPES]
        self.quests = [(c, n) for c, n in deck.entries if c.get("type") == "quest"]
        self.n_draw = sum(n for _, n in self.draw)
        self.copies_by_name: dict[str, int] = {}
        for c, n in deck.entries:
            self.copies_by_name[c["name"]] = self.copies_by_name.get(c["name"], 0) + n
        self.goldfish = deck.sample("goldfish")
        self.versus = deck.sample("versus")
        # the games that count plays: stored versus games when they carry them, else the goldfish sample
        self.playing = next((s for s in (self.versus, self.goldfish) if s is not None and s.played), None)
        self.rates = played_per_copy(self.draw, self.playing) if self.playing else {}

    def room(self, card: dict) -> int:
        """More copies of this card the deck may take (§11 copy limit, and what the user owns when known)."""
        room = MAX_COPIES - self.copies_by_name.get(card["name"], 0)
        owned = self.deck.owned
        if owned is not None:
            in_deck = sum(n for c, n in self.entries if c["code"] == card["code"])
            room = min(room, owned.get(card["code"], 0) - in_deck)
        return room

    def fits(self, card: dict) -> bool:
        """A card this deck may add without a new problem: in faction or Neutral (no Loyalty, never Bound
        elsewhere, §9.3), with room under the copy limit (and in the collection)."""
        return card.get("faction") in ("neutral", self.faction) and self.room(card) > 0

    def source(self) -> str:
        return "your collection" if self.deck.owned is not None else "the card pool"


def _seen(rounds: Sequence[int]) -> list[int]:
    from simulator.hands import DEFAULT_SETUP_REFILL, seen_sizes
    sizes = seen_sizes(max(rounds), DEFAULT_SETUP_REFILL)
    return [sizes[r - 1] for r in rounds]


def _p(k: int, population: int, successes: int, draws: int) -> float:
    from simulator.hands import p_at_least_exact
    return float(p_at_least_exact(k, population, successes, draws))


def _goldfish_only(d: _Deck) -> bool:
    return d.playing is not None and d.playing.source == "goldfish"


def _cut_candidates(d: _Deck, keep: set[str]) -> list[dict]:
    """Cards to cut for a suggestion, least useful first: the ones the games played least (when there are
    games), else the most expensive; never a card in `keep` or one only an opponent makes playable."""
    cards = [c for c, _ in d.draw if c["name"] not in keep and not (_goldfish_only(d) and opponent_only(c))]
    if d.rates:
        return sorted(cards, key=lambda c: (d.rates.get(c["name"], 0.0), -(_int(c.get("cost")) or 0), c["code"]))
    return sorted(cards, key=lambda c: (-(_int(c.get("cost")) or 0), c["code"]))


def _cut_why(d: _Deck, card: dict) -> str:
    sample = d.playing
    if sample and card["name"] in d.rates:
        return (f"{_title(card)} was played {d.rates[card['name']]:.2f} times per copy per game in "
                f"{sample.games} {sample.source} games")
    return f"{_title(card)} costs {card.get('cost')}"


def check_undefended_icon(d: _Deck) -> list[Finding]:
    """§6.2 S.6: a defender may declare only units bearing the struggle's icon."""
    units = [(c, n) for c, n in d.draw if c.get("type") == "unit"]
    copies = {icon: sum(n for c, n in units if icon in (c.get("icons") or ())) for icon in ICONS}
    distinct = {icon: sorted({_title(c) for c, _ in units if icon in (c.get("icons") or ())}) for icon in ICONS}
    sizes = _seen(ROUNDS_SHOWN)
    chance = {icon: {str(r): _p(1, d.n_draw, copies[icon], s) for r, s in zip(ROUNDS_SHOWN, sizes)}
              for icon in ICONS}
    weak = [icon for icon in ICONS if copies[icon] == 0 or chance[icon]["3"] < DEFENDED_BY_ROUND3]
    if not weak or not units:
        return []
    evidence: dict = {
        "icons": copies, "units_by_icon": distinct, "draw_cards": d.n_draw, "undefended": weak,
        "p_unit_by_round": {i: chance[i] for i in weak},
        "seen_by_round": {str(r): s for r, s in zip(ROUNDS_SHOWN, sizes)},
        "definition": "exact chance that at least one unit bearing the icon is among the cards seen by the round's "
                      "Draw phase: the opening 7, 3 drawn back after setup (§4) and 2 a round (§5.2); it must "
                      "also be paid for and ready to defend, so the chance of a defender is at most this",
    }
    if d.versus and d.versus.struggles:
        evidence["games"] = {i: dict(d.versus.struggles.get(i, {})) for i in weak}
        evidence["games_note"] = (f"struggles the opponents started against this deck in {d.versus.games} stored "
                                  f"versus games, and how many went unopposed")
    per_icon = {icon: sorted((c for c in d.deck.pool if c.get("type") == "unit" and icon in (c.get("icons") or ())
                              and d.fits(c) and c["name"] not in d.copies_by_name),
                             key=lambda c: (-len(set(c.get("icons") or ()) & set(weak)),
                                            _int(c.get("cost")) if _int(c.get("cost")) is not None else 99,
                                            -(_int(c.get("power")) or 0), c["code"]))
                for icon in weak}
    evidence["available"] = {icon: {side: sum(1 for c in d.deck.pool if c.get("type") == "unit"
                                              and icon in (c.get("icons") or ()) and c.get("faction") == faction)
                                    for side, faction in (("faction", d.faction), ("neutral", "neutral"))}
                             for icon in weak}
    adds: list[dict] = []
    for i in range(MAX_SUGGESTIONS):   # the icons in turn, each its best unit not yet offered
        for icon in weak:
            best = next((c for c in per_icon[icon] if c not in adds), None)
            if best is not None and len(adds) < MAX_SUGGESTIONS:
                adds.append(best)
    none = [i for i in weak if copies[i] == 0]
    few = [i for i in weak if copies[i]]
    parts = []
    if none:
        parts.append(f"No unit can defend a {' or '.join(i.title() for i in none)} struggle: none of the deck's "
                     f"{sum(n for _, n in units)} units bears {'that icon' if len(none) == 1 else 'those icons'}, "
                     f"and a defender may declare only units bearing the struggle's icon, so every such struggle "
                     f"an opponent starts is won unopposed")
    if none:
        avail = [f"{i.title()}: {a['faction']} in faction, {a['neutral']} Neutral"
                 for i, a in evidence["available"].items() if i in none]
        parts[-1] += f" (units the deck could add — {'; '.join(avail)})"
    for i in few:
        parts.append(f"only {copies[i]} unit{'s' if copies[i] != 1 else ''} bear{'s' if copies[i] == 1 else ''} "
                     f"{i.title()}: the chance of having drawn one by round 3 is {pct(chance[i]['3'])}")
    message = "; ".join(parts) + "."
    message = message[0].upper() + message[1:]
    if d.versus and d.versus.struggles:
        seen = [(i, d.versus.struggles.get(i) or {}) for i in weak]
        seen = [f"{row.get('unopposed', 0):,} of {row.get('initiated', 0):,} {i.title()}" for i, row in seen
                if row.get("initiated")]
        if seen:
            message += (f" In {d.versus.games:,} stored versus games, {' and '.join(seen)} struggles started against "
                        f"it went unopposed.")
    defenders = {c["name"] for c, _ in units if set(c.get("icons") or ()) & set(weak)}
    cuts = _cut_candidates(d, keep=defenders)
    cuts = [c for c in cuts if c.get("type") == "unit"] or cuts
    suggestions = []
    for i, add in enumerate(adds[:MAX_SUGGESTIONS]):
        cut = cuts[i] if i < len(cuts) else None
        icons = ", ".join(x.title() for x in add.get("icons") or ())
        why = (f"{_title(add)} ({'Neutral' if add.get('faction') == 'neutral' else 'in faction'}, from {d.source()}, cost "
               f"{add.get('cost')}, Power {add.get('power')}, icons {icons}) can defend "
               f"{' and '.join(x.title() for x in weak if x in (add.get('icons') or ()))} struggles (§6.2 S.6)")
        if cut is not None:
            why += f"; {_cut_why(d, cut)}"
        suggestions.append(Suggestion(_title(add), _title(cut) if cut else None, why + "."))
    return [Finding("undefended_icon", "§6.2 S.6", message, tuple(i.title() for i in weak), evidence,
                    tuple(suggestions))]


def _same_role_adds(d: _Deck, card: dict, taken: set[str]) -> list[dict]:
    cost = _int(card.get("cost"))
    cands = [c for c in d.deck.pool if c.get("type") == card.get("type") and c["name"] not in d.copies_by_name
             and c["name"] not in taken and d.fits(c) and not opponent_only(c)]

    def closeness(c):
        cc = _int(c.get("cost"))
        gap = abs(cc - cost) if cc is not None and cost is not None else (0 if cc == cost else 9)
        return (gap, -(_int(c.get("power")) or 0), c["code"])
    return sorted(cands, key=closeness)


def check_dead_cards(d: _Deck) -> list[Finding]:
    """Cards the deck's games rarely or never play; against the goldfish, the cards only an opponent makes
    playable are said apart (they cannot be judged there)."""
    sample = d.playing
    if sample is None:
        return []
    dead = dead_names(d.rates)
    by_name = {c["name"]: c for c, _ in d.draw}
    apart: list[tuple[str, str]] = []
    if sample.source == "goldfish":
        for name in list(dead):
            why = opponent_only(by_name[name])
            if why:
                apart.append((name, why))
                dead.remove(name)
    out = []
    if dead:
        taken: set[str] = set()
        suggestions = []
        for name in dead[:MAX_SUGGESTIONS]:
            adds = _same_role_adds(d, by_name[name], taken)
            if not adds:
                continue
            add = adds[0]
            taken.add(add["name"])
            suggestions.append(Suggestion(
                _title(add), _title(by_name[name]),
                f"{_cut_why(d, by_name[name])}; {_title(add)} is a {add['type']} of cost {add.get('cost')} "
                f"({'Neutral' if add.get('faction') == 'neutral' else 'in faction'}, from {d.source()})."))
        listing = ", ".join(f"{n} ({d.rates[n]:.2f})" for n in dead)
        out.append(Finding(
            "dead_card", "§5.3",
            f"Rarely or never played in {sample.games} {sample.source} games (plays per copy per game): {listing}. "
            f"Each copy is a draw that does nothing.",
            tuple(dead),
            {"source": sample.source, "games": sample.games, "played_per_copy": {n: d.rates[n] for n in dead},
             "median_played_per_copy": sorted(d.rates.values())[len(d.rates) // 2] if d.rates else 0.0,
             "opponent_only": [{"card": n, "why": w} for n, w in apart]},
            tuple(suggestions)))
    if apart:
        out.append(Finding(
            "needs_opponent", "§6.2 S.6",
            "Not judged by the goldfish games: " + "; ".join(f"{n} ({w})" for n, w in apart)
            + ". Only games against a real deck say whether they earn their place.",
            tuple(n for n, _ in apart),
            {"source": sample.source, "games": sample.games,
             "played_per_copy": {n: d.rates[n] for n, _ in apart}, "why": {n: w for n, w in apart}},
            (), severity="info"))
    return out


def check_cost_curve(d: _Deck) -> list[Finding]:
    """§2.4, §5.3, §5.7: a card is paid from the round's wealth (its quest's Wealth), returned at the Toll."""
    wealth = sorted(w for c, n in d.quests for w in [_int(c.get("wealth"))] * n if w is not None)
    costed = [(c, n, _cost(c, d.faction)) for c, n in d.draw]
    costed = [(c, n, x) for c, n, x in costed if x is not None]
    if not wealth or not costed:
        return []
    mean = sum(wealth) / len(wealth)
    above_max = sorted({_title(c) for c, _, x in costed if x > wealth[-1]})
    total = sum(n for _, n, _ in costed)
    above_mean = sum(n for _, n, x in costed if x > mean)
    hist: dict[str, int] = {}
    for _, n, x in costed:
        hist[str(x)] = hist.get(str(x), 0) + n
    share = above_mean / total
    if not above_max and share <= ABOVE_MEAN_SHARE:
        return []
    parts = []
    if above_max:
        parts.append(f"{', '.join(above_max)} cost{'s' if len(above_max) == 1 else ''} more than any of the "
                     f"deck's quests gives in a round ({wealth[-1]} at most): only the setup budget or wealth gained "
                     f"on top pays for {'it' if len(above_max) == 1 else 'them'}")
    if share > ABOVE_MEAN_SHARE:
        parts.append(f"{above_mean} of {total} costed draw cards ({pct(share)}) cost more than the quests' mean "
                     f"Wealth of {mean:.1f}, so most rounds play one of them at most")
    suggestions = []
    rich = sorted((c for c in d.deck.pool if c.get("type") == "quest" and c["name"] not in d.copies_by_name
                   and (_int(c.get("wealth")) or 0) > mean), key=lambda c: (-(_int(c.get("wealth")) or 0), c["code"]))
    poor = sorted(d.quests, key=lambda cn: (_int(cn[0].get("wealth")) or 0, cn[0]["code"]))
    for add, (cut, _) in zip(rich[:2], poor[:2]):
        if (_int(add.get("wealth")) or 0) > (_int(cut.get("wealth")) or 0):
            suggestions.append(Suggestion(_title(add), _title(cut),
                                          f"{_title(add)} gives Wealth {add.get('wealth')} a round, "
                                          f"{_title(cut)} {cut.get('wealth')}."))
    return [Finding("cost_curve", "§2.4, §5.3", "; ".join(parts)[0].upper() + "; ".join(parts)[1:] + ".",
                    tuple(above_max),
                    {"quest_wealth": wealth, "mean_wealth": round(mean, 2), "cost_histogram": hist,
                     "above_mean_wealth": above_mean, "costed_cards": total, "above_max_wealth": above_max,
                     "costs": "printed cost plus the off-faction Loyalty surcharge (§9.3)"},
                    tuple(suggestions))]


SETUP_SAMPLES = 300               # opening hands whose best setup is solved for the budget figures
SETUP_USE = 0.75                  # below this share of the budget used on average, the setup is thin
_SETUP_CACHE: dict = {}


def _setup_sample(d: _Deck, budget: int) -> dict:
    """The hands report's setup figures for SETUP_SAMPLES opening hands (seed 1, the same every time): each hand's
    best legal setup solved exactly (§4: cost + Loyalty + 2 per Secret within the budget). Cached per deck."""
    import random

    from simulator.hands import HandsDeck, MulliganPolicy, hands_chunk
    key = (d.faction, budget, tuple(sorted((c["code"], n) for c, n in d.draw)))
    if key not in _SETUP_CACHE:
        if len(_SETUP_CACHE) > 64:
            _SETUP_CACHE.clear()
        deck = HandsDeck.build(d.draw, d.faction or "", budget=budget)
        out = hands_chunk(deck, SETUP_SAMPLES, random.Random(1), MulliganPolicy())
        _SETUP_CACHE[key] = {"samples": SETUP_SAMPLES, "mean_budget_used": round(out["sum_budget"] / SETUP_SAMPLES, 2),
                             "mean_units_placed": round(out["sum_units"] / SETUP_SAMPLES, 2),
                             "p_empty_setup": out["empty"] / SETUP_SAMPLES,
                             "mulligan_rate": out["mulligans"] / SETUP_SAMPLES}
    return _SETUP_CACHE[key]


def check_setup(d: _Deck, budget: int) -> list[Finding]:
    """§4: the opening board is placed from the opening 7 within the setup budget; cheap units fill it."""
    cheap = [(c, n) for c, n in d.draw if c.get("type") == "unit" and (_cost(c, d.faction) or 99) <= CHEAP_SETUP_COST]
    k = sum(n for _, n in cheap)
    if not d.n_draw or d.faction is None:
        return []
    from simulator.hands import p_at_least_with_mulligan
    p_open = _p(SETUP_UNITS, d.n_draw, k, HAND_SIZE)
    p_mull = p_at_least_with_mulligan(SETUP_UNITS, d.n_draw, k)
    sample = _setup_sample(d, budget)
    thin = sample["mean_budget_used"] < SETUP_USE * budget
    if p_open >= SETUP_CHANCE and not thin:
        return []
    adds = sorted((c for c in d.deck.pool if c.get("type") == "unit" and d.fits(c)
                   and c["name"] not in d.copies_by_name and (_int(c.get("cost")) or 99) <= CHEAP_SETUP_COST),
                  key=lambda c: (-(_int(c.get("power")) or 0), _int(c.get("cost")) or 0, c["code"]))
    cuts = [c for c in _cut_candidates(d, set()) if (_cost(c, d.faction) or 0) > CHEAP_SETUP_COST]
    suggestions = tuple(Suggestion(_title(a), _title(c) if c else None,
                                   f"{_title(a)} costs {a.get('cost')}: two such units fit the {budget}-wealth setup "
                                   f"budget with room to spare" + (f"; {_title(c)} costs {c.get('cost')}" if c else "")
                                   + ".")
                        for a, c in zip(adds[:3], cuts[:3] + [None] * 3))
    parts = []
    if p_open < SETUP_CHANCE:
        parts.append(f"Only {k} of {d.n_draw} draw cards are units costing {CHEAP_SETUP_COST} or less: the opening 7 "
                     f"holds two of them {pct(p_open)} of the time ({pct(p_mull)} with the mulligan)")
    parts.append(f"the best setup of an opening hand uses {sample['mean_budget_used']:.1f} of the {budget}-wealth "
                 f"budget on average and places {sample['mean_units_placed']:.1f} units "
                 f"({pct(sample['p_empty_setup'])} of hands place nothing)")
    message = "; ".join(parts) + "."
    return [Finding("setup_budget", "§4", message[0].upper() + message[1:],
                    tuple(sorted(_title(c) for c, _ in cheap)),
                    {"cheap_units": k, "draw_cards": d.n_draw, "setup_budget": budget, "p_two_in_opening": p_open,
                     "p_two_with_mulligan": p_mull, **sample,
                     "definition": f"exact chance that the opening 7 holds at least {SETUP_UNITS} units of effective "
                                   f"cost {CHEAP_SETUP_COST} or less (with the mulligan: when it does not, the whole "
                                   f"hand is redrawn once, §4); the budget figures are the hands report's, over "
                                   f"{SETUP_SAMPLES} sampled opening hands (seed 1) each with its best setup solved "
                                   f"exactly"},
                    suggestions)]


def check_loyalty(d: _Deck) -> list[Finding]:
    """§9.3: an off-faction card costs its Loyalty more, at setup too (§4)."""
    paying = [(c, n, _loyalty(c, d.faction)) for c, n in d.draw]
    paying = [(c, n, x) for c, n, x in paying if x]
    if not paying:
        return []
    total = sum(n * x for _, n, x in paying)
    copies = sum(n for _, n, _ in paying)
    taken: set[str] = set()
    suggestions = []
    for c, _, x in sorted(paying, key=lambda t: (-t[2], t[0]["code"]))[:MAX_SUGGESTIONS]:
        adds = [a for a in _same_role_adds(d, c, taken) if _int(a.get("cost")) == _int(c.get("cost"))]
        if adds:
            taken.add(adds[0]["name"])
            suggestions.append(Suggestion(_title(adds[0]), _title(c),
                                          f"{_title(adds[0])} costs {adds[0].get('cost')} with no surcharge; "
                                          f"{_title(c)} costs {c.get('cost')} + {x} Loyalty here."))
    return [Finding("loyalty_surcharge", "§9.3",
                    f"{copies} off-faction cards pay a Loyalty surcharge: {total} wealth in all over the deck "
                    f"({', '.join(f'{_title(c)} +{x}' for c, _, x in paying)}).",
                    tuple(_title(c) for c, _, _ in paying),
                    {"copies": copies, "surcharge_total": total,
                     "surcharge": {_title(c): x for c, _, x in paying}},
                    tuple(suggestions), severity="info")]


def check_restricted(d: _Deck) -> list[Finding]:
    """§9.3, §4: one Restricted card may enter the field a round (+1 at setup)."""
    restricted = [(c, n) for c, n in d.draw if "restricted" in _keywords(c)]
    k = sum(n for _, n in restricted)
    if k <= RESTRICTED_COPIES:
        return []
    p_two = _p(2, d.n_draw, k, HAND_SIZE)
    return [Finding("restricted_cards", "§9.3",
                    f"{k} Restricted cards: only one may enter your field a round ({SETUP_RESTRICTED} more at "
                    f"setup), so they queue behind each other; the opening 7 holds two or more "
                    f"{pct(p_two)} of the time.",
                    tuple(_title(c) for c, _ in restricted),
                    {"restricted_copies": k, "p_two_in_opening": p_two, "draw_cards": d.n_draw},
                    tuple(Suggestion(None, _title(c), f"{_title(c)} is Restricted; {RESTRICTED_COPIES} Restricted "
                                                     f"copies or fewer rarely collide.")
                          for c, _ in sorted(restricted, key=lambda cn: (-cn[1], cn[0]["code"]))[:2]),
                    severity="info")]


def check_draw_size(d: _Deck) -> list[Finding]:
    """§2.1, §5.2, §12: 60 cards at least; every card more dilutes the best ones, and the deck lasts long past
    any game (a player is eliminated only when a draw finds the deck empty)."""
    if d.n_draw <= MIN_DRAW_CARDS:
        return []
    from simulator.hands import DEFAULT_SETUP_REFILL
    from cards.games.r1.facts import DRAWS_PER_ROUND
    last_round = (d.n_draw - HAND_SIZE - DEFAULT_SETUP_REFILL) // DRAWS_PER_ROUND
    best = max(d.draw, key=lambda cn: (cn[1], d.rates.get(cn[0]["name"], 0.0), cn[0]["code"]))
    seen3 = _seen((3,))[0]
    p_now = _p(1, d.n_draw, best[1], seen3)
    p_60 = _p(1, MIN_DRAW_CARDS, min(best[1], MIN_DRAW_CARDS), seen3)
    sample = d.playing
    rounds = sample.mean_rounds if sample and sample.mean_rounds else None
    return [Finding("draw_size", "§2.1, §12",
                    f"{d.n_draw} draw cards, {d.n_draw - MIN_DRAW_CARDS} over the {MIN_DRAW_CARDS} minimum. The deck "
                    f"runs out only after round {last_round} (§12: drawing from an empty deck eliminates)"
                    + (f", while its games last {rounds:.1f} rounds" if rounds else "")
                    + f"; meanwhile each extra card dilutes the rest: {_title(best[0])} ({best[1]} copies) is seen "
                      f"by round 3 {pct(p_now)} of the time, {pct(p_60)} in {MIN_DRAW_CARDS} cards.",
                    (), {"draw_cards": d.n_draw, "last_round_before_elimination": last_round,
                         "mean_game_rounds": rounds, "example": _title(best[0]), "p_by_round3": p_now,
                         "p_by_round3_at_60": p_60},
                    tuple(Suggestion(None, _title(c), f"{_cut_why(d, c)}: cutting it brings the deck toward 60.")
                          for c in _cut_candidates(d, set())[:min(3, d.n_draw - MIN_DRAW_CARDS)]),
                    severity="info")]


def diagnose(deck: DoctorDeck) -> list[Finding]:
    """Every r1 check, the legality errors first."""
    d = _Deck(deck)
    findings = legality_findings(deck.problems)
    if not d.draw:
        return findings
    from simulator.hands import setup_budget
    budget = setup_budget(deck.entries) if d.faction else SETUP_BUDGET
    for check in (check_undefended_icon, check_dead_cards, check_cost_curve, check_loyalty, check_restricted,
                  check_draw_size):
        findings += check(d)
    findings += check_setup(d, budget)
    return findings


__all__ = ["diagnose", "opponent_only"]
