"""Realms deck legality (CONTRACTS §7; rules 002 §2, §5, §17, §18): pure functions, no database.

`check_deck(entries, fmt)` judges a deck given as (card dict, count) pairs; `check_counts(counts, pool, fmt)` a
deck of card codes; `check_decklist_text(text, pool, fmt)` decklist text (CONTRACTS §2). Every problem is
reported at once, each with its CONTRACTS §3 code, the rule it comes from, a message a player understands and
the cards it concerns. Formats: `standard`, and `simplified` (002 §17: affiliation ignored).

    >>> leader = {"code": "l1", "name": "Queen Ysolde", "type": "leader", "affiliation": "sunward"}
    >>> farm = {"code": "p1", "name": "Farmstead", "type": "place", "affiliation": None, "unlimited": True}
    >>> verdict = check_deck([(leader, 1), (farm, 59)])
    >>> verdict.legal, verdict.counts, verdict.affiliation
    (True, {'cards': 60, 'leaders': 1}, 'sunward')
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from .decklist import LINE_RULE, RealmsPool, card_title, normalise_name, parse_decklist
from .schema import affiliation_name, intrigue_keyword

MIN_DECK_CARDS = 60  # 002 §18: at least 60 cards, counting the Leaders (CONTRACTS §7)
MIN_LEADERS, MAX_LEADERS = 1, 3  # 002 §2: 1–3 Leader cards, one used per game
MAX_COPIES = 5  # 002 §18, unless the card says UNLIMITED COPIES IN DECK
FORMATS = ("standard", "simplified")  # 002 §17

RULE_SIZE = "002 §18, §2"
RULE_LEADERS = "002 §2, §18"
RULE_AFFILIATION = "002 §5"
RULE_COPIES = "002 §18"

# What an Intrigue needs in play before it can be played (002 §7.4), for the deckbuilding warnings.
_NEEDS = {"RITUAL": "PATRIARCH", "PROPHECY": "PROPHET", "ART SPELL": "SORCERER"}


@dataclass(frozen=True)
class Problem:
    """One error or warning of a verdict (CONTRACTS §3)."""

    code: str
    rule: str
    message: str
    cards: tuple[str, ...] = ()
    line: int | None = None

    def to_json(self) -> dict:
        data: dict = {"code": self.code, "rule": self.rule, "message": self.message, "cards": list(self.cards)}
        if self.line is not None:
            data["line"] = self.line
        return data


@dataclass
class Verdict:
    legal: bool
    errors: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    affiliation: str | None = None
    leaders: list[str] = field(default_factory=list)
    format: str = "standard"

    def to_json(self) -> dict:
        """The `validatedeck --game realms --json` object (CONTRACTS §3 shape, §7 fields)."""
        return {
            "legal": self.legal,
            "errors": [p.to_json() for p in self.errors],
            "warnings": [p.to_json() for p in self.warnings],
            "counts": dict(self.counts),
            "affiliation": self.affiliation,
            "leaders": list(self.leaders),
            "format": self.format,
        }


def check_deck(entries: Iterable[tuple[dict, int]], fmt: str = "standard") -> Verdict:
    """Judge a deck of (card dict, count) pairs under 002 §2, §5, §18 (and §17 in the simplified format)."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}; formats are {', '.join(FORMATS)}")
    errors: list[Problem] = []
    warnings: list[Problem] = []
    leaders: list[tuple[dict, int]] = []
    others: list[tuple[dict, int]] = []
    # Sorted by code so the verdict never depends on the order the deck was written in.
    for card, n in sorted(entries, key=lambda e: str(e[0].get("code"))):
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            errors.append(Problem("bad_line", RULE_COPIES, f"{card_title(card)}: the number of copies must be a "
                                  f"whole number of at least 1, not {n!r}.", (card_title(card),)))
            continue
        (leaders if card.get("type") == "leader" else others).append((card, n))

    n_leaders = sum(n for _, n in leaders)
    n_cards = n_leaders + sum(n for _, n in others)

    # 002 §18 (with §2): at least 60 cards counting the Leaders; no upper limit.
    if n_cards < MIN_DECK_CARDS:
        errors.append(Problem("deck_size", RULE_SIZE,
                              f"A deck needs at least {MIN_DECK_CARDS} cards, counting its Leaders; this one has "
                              f"{n_cards} (add {MIN_DECK_CARDS - n_cards}).", ()))

    # 002 §2: 1 to 3 Leader cards (only one is used in a game).
    leader_titles = [card_title(c) for c, _ in leaders]
    if not MIN_LEADERS <= n_leaders <= MAX_LEADERS:
        detail = "none" if not leader_titles else ", ".join(leader_titles)
        fix = "add one" if n_leaders < MIN_LEADERS else f"remove {n_leaders - MAX_LEADERS}"
        errors.append(Problem("leader_count", RULE_LEADERS,
                              f"A deck holds {MIN_LEADERS} to {MAX_LEADERS} Leader cards (one is revealed each "
                              f"game); this one has {n_leaders} ({detail}): {fix}.", tuple(leader_titles)))

    # 002 §5: the Leaders share one affiliation; the deck's affiliation is theirs.
    leader_affiliations = list(dict.fromkeys(c.get("affiliation") for c, _ in leaders))
    affiliation = leader_affiliations[0] if len(leader_affiliations) == 1 else None
    if fmt == "standard" and len(leader_affiliations) > 1:
        listed = ", ".join(f"{card_title(c)} ({affiliation_name(c.get('affiliation'))})" for c, _ in leaders)
        errors.append(Problem("leader_affiliation", RULE_AFFILIATION,
                              f"All of a deck's Leaders share one affiliation; these do not: {listed}. Keep the "
                              f"Leaders of one affiliation.", tuple(leader_titles)))

    # 002 §18: at most 5 copies of one card name, unless the card says UNLIMITED COPIES IN DECK.
    by_name: dict[str, list] = {}
    for card, n in leaders + others:
        entry = by_name.setdefault(normalise_name(card["name"]), [card["name"], 0, [], True])
        entry[1] += n
        entry[2].append(card_title(card))
        entry[3] = entry[3] and bool(card.get("unlimited"))
    for name, total, titles, unlimited in by_name.values():
        if total > MAX_COPIES and not unlimited:
            shared = f" ({' and '.join(titles)} share one name)" if len(titles) > 1 else ""
            errors.append(Problem("copy_limit", RULE_COPIES,
                                  f"{total} copies of {name} (at most {MAX_COPIES}, unless a card says UNLIMITED "
                                  f"COPIES IN DECK){shared}: remove {total - MAX_COPIES}.", (name,)))

    # 002 §5: every card shares its Leaders' affiliation or is General (no faction icon). §17: not in simplified.
    if fmt == "standard" and leader_affiliations:
        allowed = set(leader_affiliations)
        wanted = " or ".join(affiliation_name(a) for a in leader_affiliations)
        for card, n in others:
            card_aff = card.get("affiliation")
            if card_aff is None or card_aff in allowed:
                continue
            title = card_title(card)
            errors.append(Problem("affiliation", RULE_AFFILIATION,
                                  f"{title} ({n} {'copy' if n == 1 else 'copies'}) belongs to "
                                  f"{affiliation_name(card_aff)}: this deck's Leaders are {wanted}, so it may use "
                                  f"only their cards and General cards. Remove it, or play it in the simplified "
                                  f"format (002 §17).", (title,)))

    warnings.extend(_playability_warnings(leaders + others, simplified=fmt == "simplified"))
    return Verdict(legal=not errors, errors=errors, warnings=warnings,
                   counts={"cards": n_cards, "leaders": n_leaders},
                   affiliation=affiliation or None,
                   leaders=[c["name"] for c, _ in leaders], format=fmt)


def _playability_warnings(entries: list[tuple[dict, int]], *, simplified: bool) -> list[Problem]:
    """Legal but unplayable cards: an Intrigue with nothing in the deck to play it, a warrior nothing unlocks."""
    out: list[Problem] = []
    types_in_deck = {c.get("warrior_type") for c, _ in entries if c.get("type") == "warrior"}
    unlocked = {u for c, _ in entries if c.get("type") == "place" for u in c.get("unlocks") or ()}
    worthy = any("Worthy" in (c.get("keywords") or ()) for c, _ in entries)
    for card, _n in entries:
        title = card_title(card)
        kind = intrigue_keyword(card) if card.get("type") == "intrigue" else None
        if kind in _NEEDS and _NEEDS[kind] not in types_in_deck:
            out.append(Problem("unplayable_card", "002 §7.4", f"{title} is a {kind}, which needs a "
                               f"{_NEEDS[kind]} in play, and this deck has no {_NEEDS[kind]}.", (title,)))
        elif kind == "DARK HARMONY" and not worthy:
            out.append(Problem("unplayable_card", "002 §7.4", f"{title} is a DARK HARMONY, which is attached only "
                               "to a card worthy of the Dark Harmony (Worthy), and this deck has none.", (title,)))
        wtype = card.get("warrior_type")
        if not simplified and wtype in ("CAVALRY", "VEHICLE") and wtype not in unlocked:
            out.append(Problem("unplayable_card", "002 §7.2, §17", f"{title} is {wtype}, recruited only while you "
                               f"have a Place that unlocks {wtype}, and this deck has none (the simplified format "
                               "ignores this restriction).", (title,)))
    return out


def check_counts(counts: Mapping[str, int], pool: RealmsPool, fmt: str = "standard") -> Verdict:
    """Judge a deck of card code -> count; codes the pool does not know are `unknown_card` errors."""
    entries, unknown = [], []
    for code, n in counts.items():
        card = pool.get(code)
        if card is None:
            unknown.append(Problem("unknown_card", RULE_COPIES, f"Unknown card code {code!r}: it is not in the "
                                   "realms catalogue.", (str(code),)))
        else:
            entries.append((card, n))
    verdict = check_deck(entries, fmt)
    if unknown:
        verdict.errors[:0] = unknown
        verdict.legal = False
    return verdict


def check_decklist_text(text: str, pool: RealmsPool, fmt: str = "standard") -> Verdict:
    """Read a decklist (CONTRACTS §2) and judge it: the text's problems come first, then the deck's."""
    parsed = parse_decklist(text, pool)
    verdict = check_counts(parsed.counts, pool, fmt)
    if parsed.problems:
        line_problems = [Problem(p.code, LINE_RULE, p.message,
                                 tuple(p.suggestions) if p.code == "ambiguous_card" else ((p.text,) if p.text else ()),
                                 line=p.line) for p in parsed.problems]
        verdict.errors[:0] = line_problems
        verdict.legal = False
    return verdict


__all__ = ["FORMATS", "Problem", "Verdict", "check_counts", "check_deck", "check_decklist_text"]
