"""Words for abilities (docs/games/regions.md, "Abilities"): what a card face, a page or a log says for an ability
object, written in the rulebook's terms (003 §6.4: Reveal, Finish, Trash, white box, May, Requirements).

>>> ability_parts({"when": "purchase", "from": "stack", "white": True, "may": False, "cost": None,
...                "requires": None, "effects": [{"goods": 1, "only": None}], "points": None})
('Purchase', '+1 Goods.')
>>> ability_parts({"when": "contest", "from": "hand", "white": False, "may": False, "cost": "trash",
...                "requires": None, "effects": [{"strike": 1, "where": "any"}], "points": None})
('Contest \u2014 Trash me', 'deal 1 damage to a card in an opposing Stack.')
"""
from __future__ import annotations

PHASE_LABELS = {"hero": "Hero", "purchase": "Purchase", "position": "Position", "contest": "Contest",
                "reveal": "Reveal", "finish": "Finish", "static": ""}
TYPE_PLURALS = {"supplies": "Supplies", "citizen": "Citizens", "structure": "Structures", "tactic": "Tactics",
                "recognition": "Recognition"}
REQUIREMENT_WORDS = {"citizens": "Citizens across your Stacks", "structures": "Structures across your Stacks",
                     "tactics": "Tactics across your Stacks", "stack_cards": "cards across your Stacks",
                     "bank": "Goods in your bank", "hand": "cards in your Hand", "level": "Levels",
                     "controlled": "Regions under your control"}


def effect_text(effect: dict, *, static: bool = False, may: bool = False) -> str:
    """One effect primitive in words (without the final full stop)."""
    if "draw" in effect:
        return f"+{effect['draw']} card" + ("s" if effect["draw"] > 1 else "")
    if "goods" in effect:
        only = effect.get("only")
        return f"+{effect['goods']} Goods" + (f" toward {TYPE_PLURALS[only]}" if only else "")
    if "strike" in effect:
        here = " here" if effect.get("where", "here") == "here" else ""
        return f"deal {effect['strike']} damage to a card in an opposing Stack{here}"
    if "might" in effect:
        n = effect["might"]
        where = effect.get("where", "here")
        whose = {"here": "your Stack here", "choose": "one of your Stacks", "all": "each of your Stacks"}[where]
        return f"{whose} deals +{n} Damage" + ("" if static else " this turn")
    if "pocket" in effect:
        n = effect["pocket"]
        return "your Pocket holds one more card" if n == 1 else f"your Pocket holds {n} more cards"
    if "trash" in effect:
        n = effect["trash"]
        what = "a card" if n == 1 else f"up to {n} cards"
        return ("you may " if may else "") + f"Trash {what} from your Hand"
    if "recognition" in effect:
        return f"gain {effect['recognition']} Recognition onto the top of your Deck"
    return "?"


def ability_parts(ab: dict) -> tuple[str, str]:
    """(label, body) of a normalised ability: the label names its phase and how it is used."""
    when = ab["when"]
    label = PHASE_LABELS[when]
    if ab.get("from") == "hand":
        label += " \u2014 " + ("Trash me" if ab["cost"] == "trash" else "Discard me")
    if when == "finish":
        return label, f"{ab['points']} Recognition."
    body_parts = []
    trash_may = False
    for e in ab["effects"]:
        if "trash" in e and ab.get("may"):
            trash_may = True
        body_parts.append(effect_text(e, static=when == "static", may=bool(ab.get("may") and "trash" in e)))
    body = ". ".join(p[0].upper() + p[1:] if i else p for i, p in enumerate(body_parts)) + "."
    if ab.get("may") and not trash_may:
        body = "you may: " + body
    req = ab.get("requires")
    if req:
        body = f"if you have {req['at_least']} or more {REQUIREMENT_WORDS[req['what']]}, {body}"
    if not label:
        body = body[0].upper() + body[1:]
    return label, body


def ability_line(ab: dict) -> str:
    """One line, as a log or a tooltip would print it: `Purchase: +1 Goods.`"""
    label, body = ability_parts(ab)
    line = f"{label}: {body}" if label else body
    return ("White box \u2014 " if ab.get("white") else "") + line


def quest_text(quest: dict) -> str:
    return f"{PHASE_LABELS[quest['phase']]} Quest: {quest['text']}"
