"""The deck doctor's shared frame (pure Python, no Django): a structural reading of a deck as findings.

Each game contributes its checks through its registration (`Game.doctor`, cards/games/registry.py): a function
`(deck: DoctorDeck) -> [Finding]`. This module holds what every game shares: the finding and suggestion
shapes (CONTRACTS §3, `doctor`), the evidence a game's simulated games bring (`GameSample`), the rule that says a
card is dead, and the report. The codes and what each one checks are in docs/decks.md, "The deck doctor".

    >>> f = Finding("dead_card", "§5.3", "Never played.", cards=("X",), evidence={"played_per_copy": {"X": 0.0}})
    >>> report({"name": "d"}, [f])["findings"][0]["code"]
    'dead_card'
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

# A copy played in fewer than 5% of the sample's games is dead ... when that is also under a fifth of the deck's
# median card (a slow deck plays everything rarely; only the cards far below the rest are dead). The card-swap
# search (simulator/tuning.py) judges its dead weight by the same two numbers.
DEAD_PLAYED = 0.05
DEAD_SHARE = 0.2


@dataclass(frozen=True)
class Suggestion:
    """A concrete change: a card to add (from the pool or the user's collection), one to cut, and why."""

    add: str | None
    remove: str | None
    why: str

    def to_json(self) -> dict:
        return {"add": self.add, "remove": self.remove, "why": self.why}


@dataclass(frozen=True)
class Finding:
    """One finding (CONTRACTS §3, `doctor`): a code, the rule it rests on, a plain message, the cards concerned,
    the evidence (exact probabilities, figures from games) and suggestions. `severity` orders the page:
    "error" (the deck is not legal), "warning" (it will lose games for this), "info" (worth knowing)."""

    code: str
    rule: str
    message: str
    cards: tuple[str, ...] = ()
    evidence: Mapping = field(default_factory=dict)
    suggestions: tuple[Suggestion, ...] = ()
    severity: str = "warning"

    def to_json(self) -> dict:
        return {"code": self.code, "rule": self.rule, "message": self.message, "cards": list(self.cards),
                "evidence": dict(self.evidence), "suggestions": [s.to_json() for s in self.suggestions],
                "severity": self.severity}


@dataclass(frozen=True)
class GameSample:
    """What simulated games say of a deck: how often each card (by name) was played, over `games` games.

    `source` is "goldfish" (the deck alone against the goldfish of CONTRACTS §3: nothing there defends, targets
    or discards, so a card only a real opponent makes playable is never played) or "versus" (stored games
    against real decks). `struggles` (versus only): per struggle type, what the opponents initiated against the
    deck and how many of those went unopposed (S.6)."""

    source: str
    games: int
    played: Mapping[str, int] = field(default_factory=dict)
    mean_rounds: float | None = None
    struggles: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    note: str = ""

    def to_json(self) -> dict:
        return {"source": self.source, "games": self.games, "mean_rounds": self.mean_rounds, "note": self.note}


@dataclass
class DoctorDeck:
    """The deck as a game's checks read it: (card, count) pairs of its known cards, the whole card pool of the
    game, what the user owns (None: not signed in, or no collection recorded: suggestions come from the pool),
    the legality verdict's problems, and simulated games when there are any."""

    entries: list[tuple[dict, int]]
    pool: Sequence[dict]
    owned: Mapping[str, int] | None = None
    problems: Sequence[Mapping] = ()
    samples: Sequence[GameSample] = ()
    name: str = ""

    def sample(self, source: str) -> GameSample | None:
        return next((s for s in self.samples if s.source == source and s.games), None)


def played_per_copy(entries: Iterable[tuple[dict, int]], sample: GameSample) -> dict[str, float]:
    """Plays per copy per game of each card name (the engines count plays by name)."""
    copies: dict[str, int] = {}
    for card, n in entries:
        copies[card["name"]] = copies.get(card["name"], 0) + n
    return {name: round(sample.played.get(name, 0) / max(sample.games, 1) / n, 4) for name, n in copies.items()}


def dead_names(rates: Mapping[str, float]) -> list[str]:
    """The names played in fewer than DEAD_PLAYED of the games per copy and under DEAD_SHARE of the median card."""
    values = sorted(rates.values())
    median = values[len(values) // 2] if values else 0.0
    return sorted((n for n, r in rates.items() if r < DEAD_PLAYED and r <= DEAD_SHARE * median),
                  key=lambda n: (rates[n], n))


def legality_findings(problems: Iterable[Mapping]) -> list[Finding]:
    """The legality verdict's errors as findings, first in the report (a deck that is not legal is read all the
    same)."""
    return [Finding(p["code"], p.get("rule", ""), p["message"], tuple(p.get("cards") or ()), severity="error")
            for p in problems]


SEVERITY_ORDER = {"error": 0, "warning": 1, "info": 2}


def report(deck: Mapping, findings: Sequence[Finding], samples: Sequence[GameSample] = ()) -> dict:
    """`{"deck": {...}, "findings": [...]}` (CONTRACTS §3): errors first, then warnings, then notes, each group
    in the order its game's checks gave them."""
    ordered = sorted(findings, key=lambda f: SEVERITY_ORDER.get(f.severity, 3))
    return {"deck": dict(deck), "findings": [f.to_json() for f in ordered],
            "samples": [s.to_json() for s in samples]}


def pct(p: float) -> str:
    """0.4321 -> '43%'; under 1% and over 99% keep one decimal so that 0 and 100 mean exactly that."""
    value = p * 100
    if value == 0 or value == 100:
        return f"{value:.0f}%"
    if value < 1 or value > 99:
        return f"{value:.1f}%"
    return f"{value:.0f}%"


__all__ = ["DEAD_PLAYED", "DEAD_SHARE", "DoctorDeck", "Finding", "GameSample", "Suggestion", "dead_names",
           "legality_findings", "pct", "played_per_copy", "report"]
