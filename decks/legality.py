"""Deck legality under §11: a pure function from (deck contents, card pool, format) to a verdict.

No database access happens here, so the editor, the API, `validatedeck` and the simulator share one
implementation. Every problem is reported at once, each with its CONTRACTS §3 code, the rulebook section
it comes from, a message a player understands and the cards it concerns.

    >>> verdict = check_deck({"c1": 1}, CardPool.from_cards(
    ...     [{"code": "c1", "name": "Camelot", "type": "faction", "faction": "camelot"}]))
    >>> verdict.legal, [e.code for e in verdict.errors]
    (False, ['destiny_count', 'quest_count', 'draw_count'])
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from .pool import CardPool, card_title, has_keyword, is_draw_card, normalise_name

from cards.games.r1.facts import FACTION_NAMES, MAX_COPIES, MIN_DRAW_CARDS, QUEST_DECK_SIZE  # §2.1, §11



def faction_name(slug: str | None) -> str:
    return FACTION_NAMES.get(slug or "", slug or "no faction")


@dataclass(frozen=True)
class Problem:
    """One error or warning of a verdict (CONTRACTS §3)."""

    code: str
    rule: str
    message: str
    cards: tuple[str, ...] = ()
    line: int | None = None  # decklist line, for problems found while reading text

    def to_json(self) -> dict:
        data = {"code": self.code, "rule": self.rule, "message": self.message, "cards": list(self.cards)}
        if self.line is not None:
            data["line"] = self.line
        return data


@dataclass(frozen=True)
class FormatRules:
    """An organised-play format (§11): a banned list and a restricted list, both by card name.

    The restricted list means "at most one card from this list per deck"; it has nothing to do with the
    Restricted keyword of §9.3. The default format (``None``) has neither: none is active pre-launch (§11).
    """

    name: str
    banned: frozenset[str] = frozenset()  # card names, as printed
    restricted: frozenset[str] = frozenset()

    @classmethod
    def of(cls, name: str, *, banned: Iterable[str] = (), restricted: Iterable[str] = ()) -> FormatRules:
        return cls(name=name, banned=frozenset(banned), restricted=frozenset(restricted))


@dataclass
class Verdict:
    legal: bool
    errors: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    faction: str | None = None
    destiny: str | None = None
    format: str | None = None

    def to_json(self) -> dict:
        """Exactly the `validatedeck --json` object of CONTRACTS §3 (plus the name of the format applied)."""
        return {
            "legal": self.legal,
            "errors": [p.to_json() for p in self.errors],
            "warnings": [p.to_json() for p in self.warnings],
            "counts": dict(self.counts),
            "faction": self.faction,
            "destiny": self.destiny,
            "format": self.format,
        }


def loyalty_surcharge(card: dict, deck_faction: str | None) -> int:
    """§9.3: an off-faction card costs its printed Loyalty extra; Neutral and Loyalty-less cards cost nothing."""
    faction = card.get("faction")
    if deck_faction is None or faction in (None, "neutral", deck_faction):
        return 0
    return card.get("loyalty") or 0


def effective_cost(card: dict, deck_faction: str | None) -> int | str | None:
    """Printed cost plus the off-faction Loyalty surcharge (§9.3); X and – are returned unchanged (§2.5)."""
    cost = card.get("cost")
    if isinstance(cost, bool) or not isinstance(cost, int):
        return "-" if cost == "\u2013" else cost
    return cost + loyalty_surcharge(card, deck_faction)


def check_deck(counts: Mapping[str, int], pool: CardPool, fmt: FormatRules | None = None) -> Verdict:
    """Judge a deck (card code -> count) against §2.1, §2.3, §9.3, §10.6 and §11, and the format if one is given."""
    errors: list[Problem] = []
    warnings: list[Problem] = []

    # Read the deck: cards we know, grouped by role. Unknown codes and impossible counts are problems too.
    factions: list[tuple[dict, int]] = []
    destinies: list[tuple[dict, int]] = []
    quests: list[tuple[dict, int]] = []
    draws: list[tuple[dict, int]] = []
    # Sorted by code so that the verdict never depends on the order the deck was written in.
    for code, n in sorted(counts.items(), key=lambda item: str(item[0])):
        card = pool.get(code)
        if card is None:
            errors.append(Problem("unknown_card", "§11", f"Unknown card code {code!r}: it is not in the catalogue.",
                                  (str(code),)))
            continue
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            errors.append(Problem("bad_line", "§11", f"{card_title(card)}: the number of copies must be a whole "
                                  f"number of at least 1, not {n!r}.", (card_title(card),)))
            continue
        kind = card.get("type")
        if kind == "faction":
            factions.append((card, n))
        elif kind == "destiny":
            destinies.append((card, n))
        elif kind == "quest":
            quests.append((card, n))
        elif is_draw_card(card):
            draws.append((card, n))
        else:  # pragma: no cover - the catalogue only holds the seven types of §2.2
            errors.append(Problem("bad_line", "§2.2", f"{card_title(card)} has no card type a deck can hold.",
                                  (card_title(card),)))

    n_faction = sum(n for _, n in factions)
    n_destiny = sum(n for _, n in destinies)
    n_quests = sum(n for _, n in quests)
    n_draw = sum(n for _, n in draws)
    deck_factions = {c.get("faction") for c, _ in factions}
    deck_faction = next(iter(deck_factions)) if len(deck_factions) == 1 else None
    destiny = destinies[0][0] if n_destiny == 1 else None
    rules = (destiny or {}).get("deckbuilding") or {}
    destiny_title = card_title(destiny) if destiny else None

    # §2.1, §11: exactly one faction card and one destiny.
    if n_faction != 1:
        names = [card_title(c) for c, _ in factions]
        detail = "none" if not names else ", ".join(names)
        errors.append(Problem("faction_count", "§2.1, §11",
                              f"A deck needs exactly 1 faction card; this one has {n_faction} ({detail}).",
                              tuple(names)))
    if n_destiny != 1:
        names = [card_title(c) for c, _ in destinies]
        detail = "none" if not names else ", ".join(names)
        errors.append(Problem("destiny_count", "§2.1, §11",
                              f"A deck needs exactly 1 destiny card; this one has {n_destiny} ({detail}).",
                              tuple(names)))

    # §2.1, §10.5, §11: the quest deck is exactly 7 quests.
    if n_quests != QUEST_DECK_SIZE:
        fix = ("add" if n_quests < QUEST_DECK_SIZE else "remove")
        errors.append(Problem("quest_count", "§2.1, §11",
                              f"The quest deck must be exactly {QUEST_DECK_SIZE} quests; this one has {n_quests} "
                              f"({fix} {abs(QUEST_DECK_SIZE - n_quests)}).", ()))

    # §2.1, §11: at least 60 draw cards; a destiny may ask for more, or allow fewer (card text wins, §10.6).
    destiny_min = rules.get("min_draw_cards")
    required = destiny_min if destiny_min is not None else MIN_DRAW_CARDS
    if n_draw < required:
        if n_draw < MIN_DRAW_CARDS and (destiny_min is None or destiny_min >= MIN_DRAW_CARDS):
            errors.append(Problem("draw_count", "§2.1, §11",
                                  f"The draw deck needs at least {MIN_DRAW_CARDS} cards (units, locations, "
                                  f"attachments, deeds); this one has {n_draw} (add {MIN_DRAW_CARDS - n_draw}).", ()))
        else:
            errors.append(Problem("destiny_rule", "§10.6",
                                  f"{destiny_title} requires at least {destiny_min} draw cards; this deck has "
                                  f"{n_draw} (add {destiny_min - n_draw}).", (destiny_title,)))

    # §2.3, §11: at most 3 copies of one card NAME across quests and draw cards; subtitles share the limit.
    destiny_max = rules.get("max_copies")
    limit = destiny_max if destiny_max is not None else MAX_COPIES
    by_name: dict[str, list] = {}
    for card, n in quests + draws:
        entry = by_name.setdefault(normalise_name(card["name"]), [card["name"], 0, []])
        entry[1] += n
        entry[2].append(card_title(card))
    for name, total, titles in by_name.values():
        if total <= limit:
            continue
        shared = f" ({' and '.join(titles)} share one name, §2.3)" if len(titles) > 1 else ""
        if total > MAX_COPIES or destiny_max is None:
            source = f"; {destiny_title} allows {limit}" if destiny_max is not None else ""
            errors.append(Problem("copy_limit", "§2.3, §11",
                                  f"{total} copies of {name} (at most {limit}{source}){shared}.", (name,)))
        else:
            errors.append(Problem("destiny_rule", "§10.6",
                                  f"{total} copies of {name}: {destiny_title} allows at most {limit} of each card"
                                  f"{shared}.", (name, destiny_title)))

    # §9.3, §11: Bound cards only in their own faction's deck, unless the destiny permits that faction.
    # Neutral cards are always legal; off-faction non-Bound cards pay their Loyalty (a warning, not an error).
    if deck_faction is not None:
        permitted = set(rules.get("bound_factions") or ())
        for card, _ in destinies + quests + draws:
            faction = card.get("faction")
            if faction in (None, "neutral", deck_faction):
                continue
            title = card_title(card)
            if has_keyword(card, "Bound") and faction not in permitted:
                errors.append(Problem("bound_off_faction", "§9.3, §11",
                                      f"{title} is Bound to {faction_name(faction)}: only a deck whose faction "
                                      f"card is {faction_name(faction)} may include it (this deck's faction: "
                                      f"{faction_name(deck_faction)}).",
                                      (title,)))
            elif is_draw_card(card) and card.get("loyalty"):
                # A destiny-permitted Bound card is off-faction all the same: it pays its Loyalty (§9.3).
                surcharge = loyalty_surcharge(card, deck_faction)
                warnings.append(Problem("loyalty_surcharge", "§9.3",
                                        f"{title} ({faction_name(faction)}) is off-faction for "
                                        f"{faction_name(deck_faction)}: it costs {surcharge} more to play "
                                        f"(Loyalty {surcharge}), at setup too (§4).", (title,)))

    # §10.6: the destiny's other deckbuilding rules.
    forbidden = set(rules.get("forbidden_types") or ())
    if forbidden:
        bad = [card_title(c) for c, _ in draws if c.get("type") in forbidden]
        if bad:
            kinds = ", ".join(sorted(f"{t}s" for t in forbidden))
            errors.append(Problem("destiny_rule", "§10.6",
                                  f"{destiny_title} forbids {kinds} in the draw deck: remove {', '.join(bad)}.",
                                  (*bad, destiny_title)))
    max_cost = rules.get("max_cost")
    if max_cost is not None:
        bad = [card_title(c) for c, _ in draws
               if isinstance(c.get("cost"), int) and not isinstance(c.get("cost"), bool) and c["cost"] > max_cost]
        if bad:
            errors.append(Problem("destiny_rule", "§10.6",
                                  f"{destiny_title} allows no draw card with a printed cost above {max_cost}: "
                                  f"remove {', '.join(bad)}.", (*bad, destiny_title)))

    # §11: an organised-play format's banned and restricted lists (never the Restricted keyword of §9.3).
    if fmt is not None:
        everything = factions + destinies + quests + draws
        banned = {normalise_name(n) for n in fmt.banned}
        restricted = {normalise_name(n) for n in fmt.restricted}
        seen: set[str] = set()
        listed: list[str] = []
        for card, _ in everything:
            key = normalise_name(card["name"])
            if key in banned and key not in seen:
                errors.append(Problem("banned", "§11", f"{card['name']} is banned in the {fmt.name} format.",
                                      (card["name"],)))
            if key in restricted and key not in seen:
                listed.append(card["name"])
            seen.add(key)
        if len(listed) > 1:
            errors.append(Problem("restricted_list", "§11",
                                  f"The {fmt.name} restricted list allows at most one of its cards per deck; this "
                                  f"deck has {len(listed)}: {', '.join(listed)}. (This list is not the Restricted "
                                  f"keyword of §9.3.)", tuple(listed)))

    return Verdict(
        legal=not errors,
        errors=errors,
        warnings=warnings,
        counts={"draw": n_draw, "quests": n_quests, "faction": n_faction, "destiny": n_destiny},
        faction=deck_faction,
        destiny=destiny["name"] if destiny else None,
        format=fmt.name if fmt else None,
    )


__all__ = ["Problem", "FormatRules", "Verdict", "check_deck", "effective_cost",
           "loyalty_surcharge"]
