"""A slow, obviously-correct §4 setup search used as the oracle for SetupSolver: every position of the hand is
left in hand, placed, or (if Secret) hidden, and the rules are checked on the whole board at once."""
from itertools import product

from cards.games.r1.facts import ICONS
from simulator.engines.r1.setup import attachment_fits, setup_charge


def _keywords(card):
    return {k.split("(")[0].strip().lower() for k in card.get("keywords") or []}


def _host_bonus(card):
    return sum((a.get("modify") or {}).get("power", 0) for a in card.get("abilities") or []
               if a.get("timing") == "static" and a.get("affects") == "host" and not a.get("condition"))


def brute_force_best(cards, faction, hand, budget=8):
    """Return the best score tuple (power, units, icons, budget_used, cards_placed) over every legal setup."""
    best = (0, 0, 0, 0, 0)
    for choice in product((0, 1, 2), repeat=len(hand)):  # 0 keep, 1 place in the field, 2 hide (Secret)
        spent = 0
        field = []      # positions entering the field as real cards
        duplicates = 0
        hidden = 0
        ok = True
        seen_unique = {}
        for pos, how in enumerate(choice):
            if how == 0:
                continue
            card = cards[hand[pos]]
            charge = setup_charge(card, faction)
            if charge is None:
                ok = False
                break
            if how == 2:
                if "secret" not in _keywords(card):
                    ok = False
                    break
                spent += charge + 2
                hidden += 1
                continue
            field.append(pos)
        if not ok:
            continue
        # §3.7: one real copy per unique name; further copies placed are free duplicates.
        real = []
        for pos in field:
            card = cards[hand[pos]]
            if card.get("unique"):
                name = card["name"].lower()
                if name in seen_unique:
                    duplicates += 1
                    continue
                seen_unique[name] = pos
            real.append(pos)
        spent += sum(setup_charge(cards[hand[p]], faction) for p in real)
        if spent > budget:
            continue
        if sum(1 for p in real if "restricted" in _keywords(cards[hand[p]])) > 1:
            continue
        units = [cards[hand[p]] for p in real if cards[hand[p]]["type"] == "unit"]
        power = sum(u["power"] if isinstance(u.get("power"), int) else 0 for u in units)
        for p in real:
            card = cards[hand[p]]
            if card["type"] == "attachment":
                if not any(attachment_fits(card, u) for u in units):
                    ok = False
                    break
                power += _host_bonus(card)
        if not ok:
            continue
        icons = {i for u in units for i in u.get("icons") or [] if i in ICONS}
        score = (power, len(units), len(icons), spent, len(real) + duplicates + hidden)
        best = max(best, score)
    return best
