"""The deck doctor's checks for the Realm duel (rulebook 002), registered as realms' `doctor` hook.

Pure Python over card dicts; the exact chances are the realms hands maths (`hands.p_at_least`, `seen_by_turn`:
the hand of 7, then 3 cards drawn per later turn, 002 §9). Leaders are not in the draw deck (002 §2, §8).
"""
from __future__ import annotations

from cards.games.doctor import (DoctorDeck, Finding, Suggestion, dead_names, legality_findings, pct,
                                played_per_copy)

from .hands import DEFAULT_PLAYS_PER_TURN, p_at_least, seen_by_turn

TACTICS = ("left", "front", "right")   # 002 §6: the three directions of attack and raid
TURNS_SHOWN = (2, 3, 4)
BLOCKED_BY_TURN3 = 0.8                   # below this chance of a Warrior of the tactic by turn 3, raids go through
RESOURCES = ("food", "timber", "iron")   # 002 §4, §12: balanced each turn; only Gold is stored
MAX_SUGGESTIONS = 4
MAX_COPIES = 5                           # 002 §18


def _title(card: dict) -> str:
    return f"{card['name']}, {card['subtitle']}" if card.get("subtitle") else card["name"]


def _room(deck: DoctorDeck, card: dict, copies: dict[str, int]) -> int:
    room = 99 if card.get("unlimited") else MAX_COPIES - copies.get(card["name"], 0)
    if deck.owned is not None:
        in_deck = sum(n for c, n in deck.entries if c["code"] == card["code"])
        room = min(room, deck.owned.get(card["code"], 0) - in_deck)
    return room


def check_undefended(deck: DoctorDeck, draw: list, affiliation: str | None, copies: dict[str, int]) -> list[Finding]:
    """002 §14: a raid announces a Tactic and is blocked only by a Borderlands Warrior (or Defensive Group) sharing
    that Tactic icon; a direction the deck's Warriors lack lets every raid from it through."""
    n = sum(c for _, c in draw)
    warriors = [(c, k) for c, k in draw if c.get("type") == "warrior"]
    if not n or not warriors:
        return []
    have = {t: sum(k for c, k in warriors if t in (c.get("tactics") or ())) for t in TACTICS}
    sizes = seen_by_turn(max(TURNS_SHOWN), DEFAULT_PLAYS_PER_TURN)
    chance = {t: {str(turn): float(p_at_least(1, n, have[t], sizes[turn - 1])) for turn in TURNS_SHOWN}
              for t in TACTICS}
    weak = [t for t in TACTICS if have[t] == 0 or chance[t]["3"] < BLOCKED_BY_TURN3]
    if not weak:
        return []
    parts = []
    for t in weak:
        if have[t] == 0:
            parts.append(f"no Warrior bears the {t} tactic, so no raid announced from the {t} can be blocked")
        else:
            parts.append(f"only {have[t]} Warriors bear the {t} tactic: the chance of having drawn one by turn 3 is "
                         f"{pct(chance[t]['3'])}")
    message = "; ".join(parts) + " (a raid is blocked only by a Borderlands Warrior sharing its Tactic)."
    adds = sorted((c for c in deck.pool if c.get("type") == "warrior" and set(c.get("tactics") or ()) & set(weak)
                   and c.get("affiliation") in (None, affiliation) and c["name"] not in copies
                   and "INFANTRY" == c.get("warrior_type") and _room(deck, c, copies) > 0),
                  key=lambda c: (-len(set(c.get("tactics") or ()) & set(weak)), c.get("cost") or 0,
                                 -(c.get("cv") or 0), c["code"]))
    source = "your collection" if deck.owned is not None else "the card pool"
    suggestions = tuple(Suggestion(_title(c), None,
                                   f"{_title(c)} (INFANTRY, cost {c.get('cost')}, CV {c.get('cv')}, tactics "
                                   f"{', '.join(c.get('tactics') or ())}, from {source}) blocks raids from the "
                                   f"{' and '.join(t for t in weak if t in (c.get('tactics') or ()))}.")
                        for c in adds[:MAX_SUGGESTIONS])
    return [Finding("undefended_icon", "002 §14, §6", message[0].upper() + message[1:], tuple(weak),
                    {"tactics": have, "draw_cards": n, "undefended": weak,
                     "p_warrior_by_turn": {t: chance[t] for t in weak},
                     "seen_by_turn": {str(t): sizes[t - 1] for t in TURNS_SHOWN},
                     "definition": "exact chance that at least one Warrior bearing the tactic is among the cards "
                                   "seen by the turn: the hand of 7, then 3 drawn a turn (002 §9)"},
                    suggestions)]


def check_upkeep(deck: DoctorDeck, draw: list) -> list[Finding]:
    """002 §4, §12: each turn a card's red icons are paid from the Realm's blue ones, or the card is discarded;
    only Gold is stored. A deck whose cards consume more of a resource than its cards provide loses cards."""
    provided = {r: sum(k * int((c.get("provides") or {}).get(r, 0) or 0) for c, k in draw) for r in RESOURCES}
    consumed = {r: sum(k * int((c.get("consumes") or {}).get(r, 0) or 0) for c, k in draw) for r in RESOURCES}
    leaders = [c for c, _ in deck.entries if c.get("type") == "leader"]
    for r in RESOURCES:   # one Leader plays (002 §2), its blue icons in play from the start (002 §7.1): the best
        provided[r] += max((int((c.get("provides") or {}).get(r, 0) or 0) for c in leaders), default=0)
    short = [r for r in RESOURCES if consumed[r] > provided[r]]
    if not short:
        return []
    eaters = sorted({_title(c) for c, _ in draw for r in short if (c.get("consumes") or {}).get(r)})
    message = "; ".join(f"the deck's cards consume {consumed[r]} {r} and provide {provided[r]}" for r in short) + \
        ": in play the shortfall is paid by discarding cards at Resource Balancing."
    source = "your collection" if deck.owned is not None else "the card pool"
    copies = {c["name"]: k for c, k in deck.entries}
    adds = sorted((c for c in deck.pool if c.get("type") == "place" and c["name"] not in copies
                   and any((c.get("provides") or {}).get(r) for r in short)
                   and not any((c.get("consumes") or {}).get(r) for r in short) and _room(deck, c, copies) > 0
                   and c.get("affiliation") in (None, *(x.get("affiliation") for x, _ in deck.entries
                                                        if x.get("type") == "leader"))),
                  key=lambda c: (-sum((c.get("provides") or {}).get(r, 0) for r in short), c.get("cost") or 0,
                                 c["code"]))
    suggestions = tuple(Suggestion(_title(c), None, f"{_title(c)} provides "
                                   + ", ".join(f"{v} {r}" for r, v in (c.get("provides") or {}).items() if v)
                                   + f" (from {source}).") for c in adds[:2])
    return [Finding("upkeep", "002 §4, §12", message[0].upper() + message[1:], tuple(eaters),
                    {"provided": provided, "consumed": consumed, "short": short,
                     "counted": "every copy in the deck, plus the best Leader's own icons"},
                    suggestions, severity="info")]


def opponent_only(card: dict) -> str | None:
    """Why the card does nothing without a real opponent, or None. The realms goldfish is a Leader alone: no
    Warrior to attack or be attacked by, no card to target. So a card whose every ability targets the opponent's
    cards, acts in combat (a `combat` timing, or while attacking or defending: an attack's target is an opposing
    Warrior or Defensive Group, 002 §13) or works only while defending does nothing against it."""
    reasons = []
    for ab in card.get("abilities") or ():
        if not isinstance(ab, dict):
            continue
        target = ab.get("target") if isinstance(ab.get("target"), dict) else {}
        condition = ab.get("condition") if isinstance(ab.get("condition"), dict) else {}
        affects = ab.get("affects") if isinstance(ab.get("affects"), dict) else {}
        if target.get("controller") == "opponent":
            reasons.append("it needs an opposing card to target")
        elif ab.get("timing") == "combat" or {condition.get("taking_part"), affects.get("taking_part")} & {
                "attacker", "defender"}:
            reasons.append("it acts in combat, and the goldfish fields no Warrior to fight (002 §13)")
        else:
            return None
    return reasons[0] if reasons else None


def check_dead_cards(deck: DoctorDeck, draw: list, affiliation: str | None, copies: dict[str, int]) -> list[Finding]:
    """Cards the goldfish games rarely or never play, the ones only an opponent makes playable said apart."""
    sample = next((s for s in deck.samples if s.played), None)
    if sample is None:
        return []
    rates = played_per_copy(draw, sample)
    dead = dead_names(rates)
    by_name = {c["name"]: c for c, _ in draw}
    apart = [(n, opponent_only(by_name[n])) for n in dead if sample.source == "goldfish" and opponent_only(by_name[n])]
    dead = [n for n in dead if n not in dict(apart)]
    out = []
    source = "your collection" if deck.owned is not None else "the card pool"
    if dead:
        suggestions = []
        taken: set[str] = set()
        for name in dead[:MAX_SUGGESTIONS]:
            card = by_name[name]
            adds = sorted((c for c in deck.pool if c.get("type") == card.get("type") and c["name"] not in copies
                           and c["name"] not in taken and c.get("affiliation") in (None, affiliation)
                           and _room(deck, c, copies) > 0 and not opponent_only(c)),
                          key=lambda c: (abs((c.get("cost") or 0) - (card.get("cost") or 0)), -(c.get("cv") or 0),
                                         c["code"]))
            if adds:
                taken.add(adds[0]["name"])
                suggestions.append(Suggestion(_title(adds[0]), _title(card),
                                              f"{_title(card)} was played {rates[name]:.2f} times per copy per game "
                                              f"in {sample.games} {sample.source} games; {_title(adds[0])} is a "
                                              f"{adds[0]['type']} of cost {adds[0].get('cost')} (from {source})."))
        out.append(Finding("dead_card", "002 §10", f"Rarely or never played in {sample.games} {sample.source} games "
                           f"(plays per copy per game): " + ", ".join(f"{n} ({rates[n]:.2f})" for n in dead) + ".",
                           tuple(dead), {"source": sample.source, "games": sample.games,
                                         "played_per_copy": {n: rates[n] for n in dead}},
                           tuple(suggestions)))
    if apart:
        out.append(Finding("needs_opponent", "002 §13, §14",
                           "Not judged by the goldfish games: " + "; ".join(f"{n} ({w})" for n, w in apart)
                           + ". Only games against a real deck say whether they earn their place.",
                           tuple(n for n, _ in apart), {"source": sample.source, "games": sample.games,
                                                        "why": dict(apart)}, (), severity="info"))
    return out


def diagnose(deck: DoctorDeck) -> list[Finding]:
    findings = legality_findings(deck.problems)
    draw = [(c, n) for c, n in deck.entries if c.get("type") != "leader"]
    leaders = [c for c, _ in deck.entries if c.get("type") == "leader"]
    affs = {c.get("affiliation") for c in leaders}
    affiliation = next(iter(affs)) if len(affs) == 1 else None
    copies: dict[str, int] = {}
    for c, n in deck.entries:
        copies[c["name"]] = copies.get(c["name"], 0) + n
    findings += check_undefended(deck, draw, affiliation, copies)
    findings += check_dead_cards(deck, draw, affiliation, copies)
    findings += check_upkeep(deck, draw)
    return findings


__all__ = ["diagnose"]
