"""§4 setup's cost and host rules, in one place for the engine's setup (opening.py) and the setup solver
(setup.py): what a card placed facedown counts against the setup budget, and which units an attachment placed
with them may go on.
"""
from __future__ import annotations

from cards.games.r1 import facts

from .cards import KW_NO_ATTACH, CardDef
from .selectors import matches_printed


def can_be_placed(d: CardDef) -> bool:
    """§4: units, locations and attachments with a printed number as cost (§2.5: never X or –; never a deed)."""
    return d.type in facts.SETUP_TYPES and d.cost >= 0


def setup_cost(d: CardDef, faction: str, hide: bool = False) -> int:
    """What placing the card counts against the budget: printed cost + its Loyalty when it is off-faction (§9.3),
    + 2 when it is hidden in the secret area instead (§10.9). A duplicate of a unique placed with it costs 0 (§3.7,
    the caller's to know)."""
    c = d.cost
    if d.loyalty and d.faction != "neutral" and d.faction != faction:
        c += d.loyalty
    return c + facts.SECRET_PLACE_COST if hide else c


def attach_selector(d: CardDef) -> dict | None:
    """The selector of the attachment's `attach` ability (None: any unit, §10.3)."""
    ab = d.attach_ability
    return ab.target if ab is not None and ab.target else None


def fits_host(att: CardDef, unit: CardDef) -> bool:
    """§10.3 at setup: the attachment may go on this unit of its player placed with it — a unit without No
    Attachments that its `attach` selector accepts (an attachment for an enemy unit has no host at setup: the
    opponent's board is facedown). Nothing is in play yet, so only printed characteristics count."""
    if not unit.is_unit or unit.kw & KW_NO_ATTACH:
        return False
    sel = attach_selector(att)
    if sel is None:
        return True
    if sel.get("controller", "you") == "opponent":
        return False
    return matches_printed(sel, unit, 0, 1)
