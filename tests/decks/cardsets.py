"""Small hand-made card sets for deck tests (CONTRACTS §1 dicts), independent of the core set."""
from __future__ import annotations


def _unit(code, name, *, faction="camelot", cost=2, power=2, icons=("combat",), subtitle=None, loyalty=None,
          keywords=(), attributes=("Knight",), unique=False):
    return {"code": code, "name": name, "subtitle": subtitle, "type": "unit", "faction": faction, "cost": cost,
            "power": power, "icons": list(icons), "attributes": list(attributes), "unique": unique,
            "loyalty": loyalty, "keywords": list(keywords), "text": ""}


def _card(code, name, type_, *, faction="camelot", cost=None, keywords=(), loyalty=None, **extra):
    card = {"code": code, "name": name, "subtitle": None, "type": type_, "faction": faction, "cost": cost,
            "keywords": list(keywords), "loyalty": loyalty, "attributes": [], "icons": [], "text": ""}
    card.update(extra)
    return card


def _quest(code, name, faction="camelot", wealth=3, momentum=2, spoils=1, levy=6):
    return _card(code, name, "quest", faction=faction, wealth=wealth, momentum=momentum, spoils=spoils, levy=levy)


def _destiny(code, name, rules=None, faction="neutral"):
    return _card(code, name, "destiny", faction=faction, deckbuilding=rules)


def small_cards() -> list[dict]:
    cards = [
        _card("fac-camelot", "Camelot", "faction", faction="camelot"),
        _card("fac-lefay", "Le Fay's Circle", "faction", faction="lefay"),
        _destiny("des-plain", "The Long Reign"),
        _destiny("des-seventy", "The Endless Road", {"min_draw_cards": 70}),
        _destiny("des-fifty", "The Short Road", {"min_draw_cards": 50}),
        _destiny("des-single", "One of Each", {"max_copies": 1}),
        _destiny("des-four", "Fourfold Oath", {"max_copies": 4}),
        _destiny("des-alliance", "The Sisters' Pact", {"bound_factions": ["lefay"]}),
        _destiny("des-nodeeds", "Vow of Deeds Undone", {"forbidden_types": ["deed"]}),
        _destiny("des-cheap", "The Frugal Court", {"max_cost": 3}),
        _destiny("des-bound-lefay", "Morgan's Design", faction="lefay") | {"keywords": ["Bound"]},
    ]
    for i in range(1, 10):
        cards.append(_quest(f"q{i}", f"Quest {i}", faction="camelot" if i % 2 else "neutral",
                            wealth=2 + i % 3, momentum=i % 4, spoils=1 + i % 2, levy=5 + i % 3))
    for i in range(1, 26):
        cards.append(_unit(f"u{i:02d}", f"Knight {i}", cost=i % 6, power=i % 5,
                           icons=[("combat", "guile", "sorcery", "faith")[i % 4]]))
    cards += [
        _unit("gawain-green", "Gawain", subtitle="the Green Knight", cost=3, power=4, unique=True),
        _unit("gawain-lot", "Gawain", subtitle="Son of Lot", cost=4, power=5, unique=True),
        _unit("spy", "Morgana's Spy", faction="lefay", cost=2, power=1, icons=("guile",), loyalty=2),
        _unit("morgause", "Morgause", faction="lefay", cost=3, power=3, icons=("sorcery",), loyalty=1,
              keywords=("Bound",)),
        _unit("hermit", "Wandering Hermit", faction="neutral", cost=1, power=1, icons=("faith",),
              keywords=("Bound",)),
        _unit("xknight", "Knight of X", cost="X", power="X"),
        _unit("hidden", "Hidden Blade", cost="-", power=2, keywords=("Secret (2)",)),
        _card("deed1", "Sudden Charge", "deed", cost=1),
        _card("deed-lefay", "Hex", "deed", faction="lefay", cost=1, loyalty=1),
        _card("loc1", "Round Table", "location", cost=2),
        _card("att1", "Excalibur", "attachment", cost=5),
        _card("att-x", "Borrowed Steel", "attachment", cost="X"),
    ]
    return cards


LEGAL_BASE = {"fac-camelot": 1, "des-plain": 1, **{f"q{i}": 1 for i in range(1, 8)},
              **{f"u{i:02d}": 3 for i in range(1, 21)}}
