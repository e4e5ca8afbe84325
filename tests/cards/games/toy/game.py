"""A toy game for the seam test: one package, registered by the tests alone (docs/games/adding-a-game.md).

Cards are tokens with a colour and a value; a deck is at least 10 tokens, at most 2 copies of each, all of one
colour. Everything the site needs comes from here through the registry; no app names this game."""
from __future__ import annotations

import json

from PIL import Image, ImageDraw

from cards.cardfile import CardError, CardFile, CardFileError
from cards.games.query import QueryKey
from cards.games.registry import Game, Section

COLOURS = ("red", "blue")


def parse_card_file(text: str, *, source: str = "file") -> CardFile:
    try:
        doc = json.loads(text)
    except ValueError as exc:
        raise CardFileError(f"{source}: not JSON ({exc})") from None
    result = CardFile(set_code=doc["set"]["code"], set_name=doc["set"]["name"], cards=[])
    for raw in doc.get("cards", []):
        card = {"code": raw.get("code"), "name": raw.get("name"), "type": "token",
                "colour": raw.get("colour"), "value": raw.get("value"), "text": raw.get("text", "")}
        if card["colour"] not in COLOURS:
            result.errors.append(CardError(str(card["code"]), "colour", f"one of {', '.join(COLOURS)}"))
        if not isinstance(card["value"], int):
            result.errors.append(CardError(str(card["code"]), "value", "a whole number"))
        result.cards.append(card)
    return result


def card_to_json(card: dict) -> dict:
    return {k: card.get(k) for k in ("code", "name", "type", "colour", "value", "text")}


def set_to_json(code, name, cards):
    return {"set": {"code": code, "name": name, "game": "toy"}, "cards": [card_to_json(c) for c in cards]}


def search_keys(cards=()):
    return (QueryKey("col", "colour", "choice", lambda c: c.get("colour"), choices=COLOURS, example="col:red"),
            QueryKey("v", "value", "number", lambda c: c.get("value"), example="v>=2"))


def parse_decklist(text, cards):
    by_name = {c["name"].lower(): c["code"] for c in cards}
    counts, problems = {}, []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.endswith(":"):
            continue
        n, _, name = line.partition("x ")
        code = by_name.get(name.lower())
        if not n.isdigit() or code is None:
            problems.append({"code": "bad_line", "rule": "toy §1", "message": f"Line {number}: {line}",
                             "cards": [], "line": number})
            continue
        counts[code] = counts.get(code, 0) + int(n)
    return counts, problems


def export_decklist(counts, cards, name=None):
    by_code = {c["code"]: c for c in cards}
    return "Tokens:\n" + "\n".join(f"{n}x {by_code[c]['name']}" for c, n in counts.items() if c in by_code) + "\n"


def check_deck(counts, cards, fmt="standard"):
    by_code = {c["code"]: c for c in cards}
    errors = []
    total = sum(counts.values())
    if total < 10:
        errors.append({"code": "deck_size", "rule": "toy §2", "message": f"{total} tokens (at least 10)",
                       "cards": []})
    for code, n in counts.items():
        if n > 2:
            errors.append({"code": "copy_limit", "rule": "toy §3", "message": f"{n} copies of "
                           f"{by_code[code]['name']} (at most 2)", "cards": [by_code[code]["name"]]})
    colours = {by_code[c]["colour"] for c in counts if c in by_code}
    if len(colours) > 1:
        errors.append({"code": "colour", "rule": "toy §4", "message": "tokens of one colour", "cards": []})
    return {"legal": not errors, "errors": errors, "warnings": [], "counts": {"tokens": total},
            "colour": next(iter(colours)) if len(colours) == 1 else None, "format": fmt}


def check_text(text, cards, fmt="standard"):
    counts, problems = parse_decklist(text, cards)
    verdict = check_deck(counts, cards, fmt)
    verdict["errors"][:0] = problems
    verdict["legal"] = verdict["legal"] and not problems
    return verdict


def identity(counts, cards):
    by_code = {c["code"]: c for c in cards}
    colours = {by_code[c]["colour"] for c in counts if c in by_code}
    colour = next(iter(colours)) if len(colours) == 1 else None
    return {"colour": colour, "group": colour}


def render_card(card, size="normal"):
    w, h = {"small": (250, 350), "normal": (500, 700), "large": (1000, 1400)}[size]
    image = Image.new("RGB", (w, h), (200, 40, 40) if card.get("colour") == "red" else (40, 40, 200))
    ImageDraw.Draw(image).text((10, 10), f"{card['name']} {card.get('value')}", fill=(255, 255, 255))
    return image


def card_summary(card):
    return [("Colour", card["colour"]), ("Value", str(card["value"]))]


def card_group(card):
    return card.get("colour")


TOY = Game(
    slug="toy", name="Toy tokens", rules="toy rules", card_types=("token",),
    sections=(Section("Tokens", ("token",)),),
    parse_card_file=parse_card_file, card_to_json=card_to_json, set_to_json=set_to_json,
    search_keys=search_keys, search_examples=(("col:red v>=2", "red tokens of value 2 or more"),),
    parse_decklist=parse_decklist, export_decklist=export_decklist, check_deck=check_deck, check_text=check_text,
    identity=identity, render_card=render_card, card_summary=card_summary, card_group=card_group,
    colors={"red": "#c82828", "blue": "#2828c8"},
    engine="tests.cards.games.toy.engine:SPEC", runs="tests.cards.games.toy.runs",
)


def card_file() -> dict:
    return {"set": {"code": "t1", "name": "Toy Set", "game": "toy"},
            "cards": [{"code": f"t-{i}", "name": f"Token {i}", "colour": "red" if i <= 6 else "blue", "value": i}
                      for i in range(1, 11)]}
