"""The regions game's hooks for the registry (cards/games/registry.py): its catalogue (card file, search keys,
card page facts, frame). Heroes and Regions has no deckbuilding (003 §1.1: each Hero has its fixed starting deck),
so it declares no decklist, legality or hands hooks and the site shows no deck editor for it. Pure Python."""
from __future__ import annotations

from collections.abc import Iterable

from .query import QueryKey
from .regions import DATA_FILE
from .regions.schema import CARD_TYPES, KNOWN_KEYS, PILES


def card_to_json(card: dict) -> dict:
    return {key: card.get(key) for key in KNOWN_KEYS if card.get(key) is not None}


def set_to_json(set_code: str, set_name: str, cards: list[dict]) -> dict:
    return {"set": {"code": set_code, "name": set_name, "game": "regions"},
            "cards": [card_to_json(c) for c in cards]}


def search_keys(cards: Iterable[dict] = ()) -> tuple[QueryKey, ...]:
    return (
        QueryKey("t", "type", "choice", lambda c: c.get("type"), choices=CARD_TYPES, aliases=("type",),
                 example="t:citizen"),
        QueryKey("c", "cost", "number", lambda c: c.get("cost"), aliases=("cost",), example="c<=3"),
        QueryKey("g", "Goods", "number", lambda c: c.get("goods"), example="g>=2"),
        QueryKey("d", "damage", "number", lambda c: c.get("damage"), example="d>=1"),
        QueryKey("h", "health", "number", lambda c: c.get("health"), example="h>=2"),
        QueryKey("pile", "pile", "choice", lambda c: c.get("pile"), choices=PILES, example="pile:market"),
        QueryKey("x", "rules text", "text", lambda c: c.get("text") or "", aliases=("text", "o"),
                 example="x:recognition"),
        QueryKey("n", "name", "text", lambda c: c.get("name") or "", aliases=("name",), example="n:silver"),
    )


def render_card(card: dict, size="normal"):
    from .regions.frame import render_card as draw
    return draw(card, size)


def card_summary(card: dict) -> list[tuple[str, str]]:
    out = [("Type", str(card.get("type") or "").capitalize())]
    for label, key in (("Cost", "cost"), ("Goods", "goods"), ("Damage", "damage"), ("Health", "health"),
                       ("Pile", "pile"), ("Copies", "quantity")):
        if card.get(key) is not None:
            out.append((label, str(card[key])))
    return out


def data_files() -> list:
    return [DATA_FILE]
