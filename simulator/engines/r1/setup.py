"""The best legal opening board of a hand (§4 Setup). Pure Python: no Django, no other app.

`SetupSolver(cards, faction)` is built once per deck from the deck's distinct card dicts (CONTRACTS §1) and
precomputes everything about each card that setup cares about; `solver.best(hand)` then finds the best legal
setup of a hand (indices into `cards`) exactly, by searching every legal choice with budget pruning, and caches
the answer under the hand's placeable cards, so repeated hands cost a dictionary look-up.

§4, as implemented here (the cost and host rules are the engine's own, simulator/engines/r1/setup_rules.py):

- only units, locations and attachments are placed (deeds never; quests, destiny and faction are not in hand);
- a card whose printed cost is X or – cannot be placed (§2.5); a missing cost counts 0, as in the engine;
- the 8-wealth budget counts printed cost + off-faction Loyalty (§9.3) + 2 for each Secret card hidden in the
  secret area (§10.9); the budget is a cap, not a payment;
- at most one Restricted card enters the field at setup (§9.3 "+1 at setup"); a card hidden in the secret area
  does not enter the field and uses no Restricted allowance;
- a unique (•) name enters the field once; further copies of that name placed with it are duplicates (§3.7):
  they cost 0, use no Restricted allowance and have no Power or icons;
- an attachment needs a unit placed in the same setup that can legally take it (§10.3): not a unit with
  No Attachments, and matching the attachment's `attach` ability target selector (on printed characteristics)
  when it has one.

"Best" is lexicographic, so the answer is unique and explainable: the most total Power in the field, then the
most units, then the most struggle icons covered, then the most budget used, then the most cards placed (every
card placed is redrawn, "draw back up to 7"), then the earliest positions in the hand.

>>> cards = [{"code": "a", "name": "A", "type": "unit", "faction": "camelot", "cost": 3, "power": 2,
...           "icons": ["combat"]},
...          {"code": "b", "name": "B", "type": "unit", "faction": "camelot", "cost": 6, "power": 4, "icons": []}]
>>> SetupSolver(cards, "camelot").best([0, 0, 1]).power    # 3 + 3 fits in 8 (Power 4); 6 + 3 does not fit
4
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from cards.games.r1 import facts

from .cards import KW_RESTRICTED, KW_SECRET, CardDef
from .setup_rules import can_be_placed, fits_host, setup_cost

SECRET_PLACE_COST = facts.SECRET_PLACE_COST

SETUP_BUDGET = facts.SETUP_BUDGET
ICON_NAMES = facts.ICONS


@dataclass(frozen=True)
class SetupChoice:
    """The chosen opening board. `placed` holds positions in the hand that was solved."""

    placed: tuple[int, ...]
    budget_used: int
    units: int
    power: int
    icons: frozenset
    hidden: tuple[int, ...] = ()      # positions hidden in the secret area (§10.9), a subset of `placed`
    duplicates: tuple[int, ...] = ()  # positions placed as duplicates of a unique (§3.7), a subset of `placed`

    @property
    def is_empty(self) -> bool:
        return not self.placed


EMPTY_CHOICE = SetupChoice(placed=(), budget_used=0, units=0, power=0, icons=frozenset())


def _numeric(value) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    return None


def _host_power_bonus(card: dict) -> int:
    """An attachment's unconditional static Power bonus to its host ("Attached unit gets +2 Power")."""
    bonus = 0
    for ability in card.get("abilities") or []:
        if (isinstance(ability, dict) and ability.get("timing") == "static" and ability.get("affects") == "host"
                and not ability.get("condition")):
            value = (ability.get("modify") or {}).get("power")
            if isinstance(value, int) and not isinstance(value, bool):
                bonus += value
    return bonus


def attachment_fits(attachment: dict, unit: dict) -> bool:
    """§10.3 / §9.3: can this attachment go on this unit of ours (setup_rules.fits_host)?"""
    return fits_host(CardDef(attachment), CardDef(unit))


def setup_charge(card: dict, faction: str) -> int | None:
    """What placing this card counts against the §4 budget (cost + off-faction Loyalty), or None if it can't be
    placed (setup_rules)."""
    d = CardDef(card)
    return setup_cost(d, faction) if can_be_placed(d) else None


class SetupSolver:
    """Exact best setup (§4) for hands drawn from one deck. Build once per deck; call `best(hand)` per hand."""

    # Solved hands kept per solver: enough for the repeats of a long sample, bounded so that a worker's memory
    # does not grow with the number of hands it has solved.
    MAX_CACHED_HANDS = 200_000

    def __init__(self, cards: list[dict], faction: str, budget: int = SETUP_BUDGET):
        self.cards = list(cards)
        self.faction = faction
        self.budget = budget
        n = len(self.cards)
        self.charge: list[int | None] = []
        self.power: list[int] = []
        self.is_unit: list[bool] = []
        self.is_attachment: list[bool] = []
        self.icon_mask: list[int] = []
        self.restricted: list[bool] = []
        self.secret: list[bool] = []
        self.unique_group: list[int] = []  # -1, or an id shared by unique cards with the same name (§3.7)
        self.host_bonus: list[int] = []
        groups: dict[str, int] = {}
        defs = [CardDef(card) for card in self.cards]
        for card, d in zip(self.cards, defs):
            charge = setup_cost(d, faction) if can_be_placed(d) else None
            self.charge.append(charge if charge is not None and charge <= budget else None)
            self.power.append(_numeric(card.get("power")) or 0 if card.get("type") == "unit" else 0)
            self.is_unit.append(card.get("type") == "unit")
            self.is_attachment.append(card.get("type") == "attachment")
            self.icon_mask.append(d.icons if card.get("type") == "unit" else 0)
            self.restricted.append(bool(d.kw & KW_RESTRICTED))
            self.secret.append(bool(d.kw & KW_SECRET))
            if card.get("unique"):
                self.unique_group.append(groups.setdefault(card.get("name", "").strip().lower(), len(groups)))
            else:
                self.unique_group.append(-1)
            self.host_bonus.append(_host_power_bonus(card) if card.get("type") == "attachment" else 0)
        # fits[a] = bitmask over card indices of the units attachment a may go on.
        self.fits: list[int] = [0] * n
        for a in range(n):
            if self.is_attachment[a]:
                bits = 0
                for u in range(n):
                    if self.is_unit[u] and fits_host(defs[a], defs[u]):
                        bits |= 1 << u
                self.fits[a] = bits
        # Cards that are interchangeable for setup (same budget charge, Power, icons, keywords that matter,
        # unique name, and the same attachments / hosts) share one representative index, so hands that differ
        # only by such cards share one cached answer.
        accepted_by = [frozenset(a for a in range(n) if self.fits[a] >> u & 1) for u in range(n)]
        unit_rep: dict[tuple, int] = {}
        self.rep: list[int] = list(range(n))
        for u in range(n):
            if self.is_unit[u] and self.charge[u] is not None:
                self.rep[u] = unit_rep.setdefault(self._signature(u, accepted_by[u]), u)
        attachment_rep: dict[tuple, int] = {}
        for i in range(n):
            if self.charge[i] is None or self.is_unit[i]:
                continue
            hosts = frozenset(self.rep[u] for u in range(n) if self.fits[i] >> u & 1)
            self.rep[i] = attachment_rep.setdefault(self._signature(i, hosts), i)
        self._cache: dict[tuple, tuple] = {}
        self._group_cache: dict[tuple, tuple] = {}

    def _signature(self, i: int, links: frozenset) -> tuple:
        return (self.cards[i].get("type"), self.charge[i], self.power[i], self.host_bonus[i], self.icon_mask[i],
                self.restricted[i], self.secret[i],
                self.cards[i].get("name", "").strip().lower() if self.unique_group[i] >= 0 else None, links)

    # ---- public -----------------------------------------------------------------------------------
    def best(self, hand: Sequence[int]) -> SetupChoice:
        """The best legal setup of `hand` (indices into `cards`), with positions into `hand`."""
        solved = self._solved(hand)
        if solved is None:
            return EMPTY_CHOICE
        template = solved[1]
        placed, hidden, dups = self._positions(hand, solved)
        return SetupChoice(placed=placed, budget_used=template[0], units=template[1], power=template[2],
                           icons=frozenset(ICON_NAMES[b] for b in range(4) if template[3] >> b & 1),
                           hidden=hidden, duplicates=dups)

    def plan(self, hand: Sequence[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """`best(hand)`'s (placed, hidden) positions alone, without building the SetupChoice (what a player needs
        at every mulligan)."""
        solved = self._solved(hand)
        if solved is None:
            return (), ()
        placed, hidden, _dups = self._positions(hand, solved)
        return placed, hidden

    def _solved(self, hand: Sequence[int]) -> tuple | None:
        """The cached (counts, (spent, units, power, icon mask), dups, hidden) of the hand, None when it places
        nothing."""
        charge = self.charge
        rep = self.rep
        key = tuple(sorted([rep[i] for i in hand if charge[i] is not None]))
        if not key:
            return None
        solved = self._cache.get(key)
        if solved is None:
            solved = self._solve(key)
            if len(self._cache) >= self.MAX_CACHED_HANDS:
                self._cache.clear()
            self._cache[key] = solved
        return solved if solved[1] is not None else None

    def _positions(self, hand: Sequence[int], solved: tuple) -> tuple[tuple[int, ...], tuple[int, ...],
                                                                      tuple[int, ...]]:
        """(placed, hidden, duplicates) positions in `hand` of a solved hand."""
        counts, _template, dups, hidden = solved
        rep = self.rep
        # Map the chosen card indices back to the earliest positions of the hand that hold them.
        need: dict[int, int] = dict(counts)
        placed: list[int] = []
        for pos, idx in enumerate(hand):
            r = rep[idx]
            left = need.get(r, 0)
            if left:
                placed.append(pos)
                need[r] = left - 1
        if not (dups or hidden):
            return tuple(placed), (), ()
        by_index: dict[int, list[int]] = {}
        for pos in placed:
            by_index.setdefault(rep[hand[pos]], []).append(pos)
        # Within one card index, hidden copies take the last positions, duplicates the ones before them.
        hidden_pos = [by_index[i].pop() for i in hidden]
        dup_pos = [by_index[i].pop() for i in dups]
        return tuple(placed), tuple(sorted(hidden_pos)), tuple(sorted(dup_pos))

    def cache_size(self) -> int:
        return len(self._cache)

    # ---- search -----------------------------------------------------------------------------------
    def _plain_group(self, idx: int, c: int) -> tuple:
        """Every way to place some of `c` copies of a non-unique card (cached per deck).

        An option is (charge, power (attachments: their bonus to the host), units, icon_mask, restricted_used,
        real, dups, hidden, attachments): real/dups/hidden are tuples of card indices; attachments are the real
        attachments placed. Returns (options strongest first, max power, max units).
        """
        ch: Any = self.charge[idx]   # an int: cards whose cost the budget cannot pay are never grouped
        opts: list[tuple] = [(0, 0, 0, 0, 0, (), (), (), ())]
        max_hide = c if self.secret[idx] else 0
        for p in range(c + 1):
            if self.restricted[idx] and p > 1:
                break  # §9.3: one Restricted card at setup
            for h in range(max_hide + 1 - p if max_hide else 1):
                if p == 0 and h == 0:
                    continue
                cost = p * ch + h * (ch + SECRET_PLACE_COST)  # §4, §10.9: a Secret card hidden counts 2 more
                if cost > self.budget:
                    continue
                opts.append((cost, p * (self.power[idx] + self.host_bonus[idx]), p if self.is_unit[idx] else 0,
                             self.icon_mask[idx] if p else 0, p if self.restricted[idx] else 0,
                             (idx,) * p, (), (idx,) * h, (idx,) * p if self.is_attachment[idx] else ()))
        return self._finish_group(opts)

    def _unique_group(self, members: tuple) -> tuple:
        """Every way to place copies of one unique name (§3.7); `members` is ((card index, count), ...)."""
        opts: list[tuple] = [(0, 0, 0, 0, 0, (), (), (), ())]
        for real, _ in members:  # which copy is the real one; every other copy in hand goes under it
            ch = self.charge[real]
            dups: list[int] = []
            for m, c in members:
                dups.extend([m] * (c - (1 if m == real else 0)))
            opts.append((ch, self.power[real] + self.host_bonus[real], 1 if self.is_unit[real] else 0,
                         self.icon_mask[real], 1 if self.restricted[real] else 0, (real,), tuple(dups), (),
                         (real,) if self.is_attachment[real] else ()))
        for m, c in members:  # or hide copies in the secret area instead (§10.9)
            if self.secret[m]:
                for h in range(1, c + 1):
                    cost = h * (self.charge[m] + SECRET_PLACE_COST)
                    if cost <= self.budget:
                        opts.append((cost, 0, 0, 0, 0, (), (), (m,) * h, ()))
        return self._finish_group(opts)

    def _finish_group(self, opts: list[tuple]) -> tuple:
        # Append (cards placed, attachments placed) so the search can count them as it goes.
        opts = [o + (len(o[5]) + len(o[6]) + len(o[7]), len(o[8])) for o in opts]
        opts.sort(key=lambda o: (-o[1], -o[2], o[0]))
        ratio = 0.0
        for o in opts:
            if o[1] > 0:
                ratio = max(ratio, o[1] / o[0] if o[0] else float("inf"))
        max_units = max(o[2] for o in opts)
        return (tuple(opts), opts[0][1], max_units, -(opts[0][1] + 0.5 * max_units), ratio,
                _Columns(opts, self.fits, self.is_unit))

    def _groups(self, key: tuple) -> list[tuple]:
        counts: dict[int, int] = {}
        for idx in key:
            counts[idx] = counts.get(idx, 0) + 1
        unique_members: dict[int, list[tuple[int, int]]] = {}
        groups = []
        cache = self._group_cache
        for idx, c in counts.items():
            g = self.unique_group[idx]
            if g >= 0:
                unique_members.setdefault(g, []).append((idx, c))
                continue
            group = cache.get((idx, c))
            if group is None:
                group = cache[(idx, c)] = self._plain_group(idx, c)
            groups.append(group)
        for members in unique_members.values():
            members_key = tuple(sorted(members))
            group = cache.get(members_key)
            if group is None:
                group = cache[members_key] = self._unique_group(members_key)
            groups.append(group)
        return groups

    def _solve(self, key: tuple) -> tuple:
        # Strongest groups first, each group's options strongest first, so a good setup is found early and the
        # Power bound below cuts most of the remaining branches.
        groups = self._groups(key)
        groups.sort(key=lambda grp: grp[3])
        ngroups = len(groups)
        # Upper bounds on the Power / units the remaining groups can still add (attachment bonuses included).
        rem_power = [0] * (ngroups + 1)
        rem_units = [0] * (ngroups + 1)
        for g in range(ngroups - 1, -1, -1):
            rem_power[g] = rem_power[g + 1] + groups[g][1]
            rem_units[g] = rem_units[g + 1] + groups[g][2]
        # Power per unit of budget: no mix of the remaining options can add more Power than the best ratio
        # times the budget left (a fractional-knapsack bound), which cuts most branches of a full hand.
        rem_ratio = [0.0] * (ngroups + 1)
        for g in range(ngroups - 1, -1, -1):
            rem_ratio[g] = max(rem_ratio[g + 1], groups[g][4])
        options = [grp[0] for grp in groups]
        search = _Search([grp[5] for grp in groups], self.budget, rem_power, rem_units, rem_ratio)
        search.run(0, 0, 0, 0, 0, 0, 0, 0)
        picks = [options[g][search.best_pick[g]] for g in range(ngroups)]
        chosen_all = [i for o in picks for i in (*o[5], *o[6], *o[7])]
        if not chosen_all:
            return {}, None, (), ()
        counts: dict[int, int] = {}
        for i in chosen_all:
            counts[i] = counts.get(i, 0) + 1
        template = (search.best_spent, search.best_units, search.best_power, search.best_mask)
        dups = tuple(i for o in picks for i in o[6])
        hidden = tuple(i for o in picks for i in o[7])
        return counts, template, dups, hidden


class _Columns:
    """A group's options (strongest first) as typed columns, built once per cached group: the search runs on
    machine ints instead of tuples of objects."""

    def __init__(self, opts: list[tuple], fits: list[int], is_unit: list[bool]):
        self.cost: list[int] = [o[0] for o in opts]
        self.power: list[int] = [o[1] for o in opts]
        self.units: list[int] = [o[2] for o in opts]
        self.mask: list[int] = [o[3] for o in opts]
        self.restricted: list[int] = [o[4] for o in opts]
        self.placed: list[int] = [o[9] for o in opts]
        self.attached: list[int] = [o[10] for o in opts]
        self.unit_bits: list[int] = []          # the real units an option places, as a bitmask of card indices
        self.host_masks: list[list[int]] = []   # per attachment an option places: the units it may go on
        for o in opts:
            bits = 0
            for i in o[5]:
                if is_unit[i]:
                    bits |= 1 << i
            self.unit_bits.append(bits)
            self.host_masks.append([fits[a] for a in o[8]])


class _Search:
    """The exact search of `SetupSolver._solve`: depth first over the groups, each group's options in order, a
    leaf kept only when its score beats the best so far (so the first of equal setups wins)."""

    def __init__(self, columns: list[_Columns], budget: int, rem_power: list[int], rem_units: list[int],
                 rem_ratio: list[float]):
        self.ngroups = len(columns)
        self.budget = budget
        self.rem_power = rem_power
        self.rem_units = rem_units
        self.rem_ratio = rem_ratio
        self.cost: list[list[int]] = [c.cost for c in columns]
        self.power: list[list[int]] = [c.power for c in columns]
        self.units: list[list[int]] = [c.units for c in columns]
        self.mask: list[list[int]] = [c.mask for c in columns]
        self.restricted: list[list[int]] = [c.restricted for c in columns]
        self.placed: list[list[int]] = [c.placed for c in columns]
        self.attached: list[list[int]] = [c.attached for c in columns]
        self.unit_bits: list[list[int]] = [c.unit_bits for c in columns]
        self.host_masks: list[list[list[int]]] = [c.host_masks for c in columns]
        self.chosen: list[int] = [0] * self.ngroups
        self.found = False
        self.best_power = -1
        self.best_units = 0
        self.best_icons = 0
        self.best_spent = 0
        self.best_placed = 0
        self.best_mask = 0
        self.best_pick: list[int] = []

    def run(self, g: int, spent: int, power: int, units: int, mask: int, restricted: int, placed: int,
            attached: int) -> None:
        if g == self.ngroups:
            self.leaf(spent, power, units, mask, placed, attached)
            return
        if self.found:
            rem = self.rem_power[g]
            room = self.rem_ratio[g] * (self.budget - spent)
            # the same float arithmetic as power + min(rem, room) on Python numbers (room may be inf or nan)
            bound_power = power + (float(rem) if rem < room else room)
            if bound_power < self.best_power or (bound_power == self.best_power
                                                 and units + self.rem_units[g] < self.best_units):
                return
        cost, pw, un, mk = self.cost[g], self.power[g], self.units[g], self.mask[g]
        rs, pl, at = self.restricted[g], self.placed[g], self.attached[g]
        budget = self.budget
        for k in range(len(cost)):
            if spent + cost[k] > budget or restricted + rs[k] > 1:
                continue  # over the 8-wealth budget, or a second Restricted card (§4, §9.3)
            self.chosen[g] = k
            self.run(g + 1, spent + cost[k], power + pw[k], units + un[k], mask | mk[k], restricted + rs[k],
                     placed + pl[k], attached + at[k])

    def leaf(self, spent: int, power: int, units: int, mask: int, placed: int, attached: int) -> None:
        chosen = self.chosen
        if attached:
            unit_bits = 0
            for g in range(self.ngroups):
                unit_bits |= self.unit_bits[g][chosen[g]]
            for g in range(self.ngroups):
                for hosts in self.host_masks[g][chosen[g]]:
                    if not hosts & unit_bits:
                        return  # §10.3: no legal host in this setup
        icons = (mask & 1) + (mask >> 1 & 1) + (mask >> 2 & 1) + (mask >> 3 & 1)
        # (power, units, icons, spent, placed) beats the best so far, compared as a tuple would be
        if self.found:
            if power != self.best_power:
                if power < self.best_power:
                    return
            elif units != self.best_units:
                if units < self.best_units:
                    return
            elif icons != self.best_icons:
                if icons < self.best_icons:
                    return
            elif spent != self.best_spent:
                if spent < self.best_spent:
                    return
            elif placed <= self.best_placed:
                return
        self.found = True
        self.best_power, self.best_units, self.best_icons = power, units, icons
        self.best_spent, self.best_placed, self.best_mask = spent, placed, mask
        self.best_pick = list(chosen)
