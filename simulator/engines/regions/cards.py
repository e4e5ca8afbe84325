"""The card table of a Heroes and Regions game: immutable definitions built once per set (STYLE §2).

A `CardSet` turns validated card dicts (cards/games/regions/schema.py) into `CardDef`s, `HeroDef`s and
`RegionDef`s whose abilities are small tuples the engine reads without parsing anything per game. Zones in a game
hold `CardDef` objects themselves: two copies of a card are alike in every way (damage does not persist, 003 §7.1),
so a card needs no per-copy state.
"""
from __future__ import annotations

from cards.games.regions import load_default_set
from cards.games.regions.schema import (
    PHASES, PLAYABLE_TYPES, RECOGNITION_IN_PLAY, STANDING, CardError, normalise_card, set_errors,
)

SUPPLIES, CITIZEN, STRUCTURE, TACTIC, RECOGNITION = range(5)
TYPE_INDEX = {name: i for i, name in enumerate(PLAYABLE_TYPES)}
TYPE_NAMES = PLAYABLE_TYPES
HERO, PURCHASE, POSITION, CONTEST = range(4)          # 003 §4.1-§4.4
PHASE_INDEX = {name: i for i, name in enumerate(PHASES)}
PHASE_NAMES = ("Hero", "Purchase", "Position", "Contest")

# effect primitives: (prim, amount, param)
E_DRAW, E_GOODS, E_STRIKE, E_MIGHT, E_TRASH, E_RECOGNITION = range(6)
PRIM_INDEX = {"draw": E_DRAW, "goods": E_GOODS, "strike": E_STRIKE, "might": E_MIGHT, "trash": E_TRASH,
              "recognition": E_RECOGNITION}
PRIM_NAMES = {v: k for k, v in PRIM_INDEX.items()}
W_HERE, W_ANY, W_CHOOSE, W_ALL = range(4)
WHERE_INDEX = {"here": W_HERE, "any": W_ANY, "choose": W_CHOOSE, "all": W_ALL}
REQ_INDEX = {"citizens": 0, "structures": 1, "tactics": 2, "stack_cards": 3, "bank": 4, "hand": 5, "level": 6,
             "controlled": 7}
QUEST_INDEX = {"stack_cards": 0, "stack_damage": 1, "stack_citizens": 2, "stack_structures": 3, "spent": 4,
               "bought": 5, "level": 6, "structures": 7, "hand": 8}


class SetError(ValueError):
    """A card set the engine cannot play; `errors` lists each card and field."""

    def __init__(self, errors: list[CardError]):
        super().__init__("; ".join(str(e) for e in errors[:20]) + (" ..." if len(errors) > 20 else ""))
        self.errors = errors


class Ability:
    """One ability (docs/games/regions.md, "Abilities"): when it fires, where from, and its effects.

    `ref` names it in positions: ("card", code, k), ("skill", hero code, level, k) or ("reward", region code, k).
    """

    __slots__ = ("when", "hand", "white", "may", "cost", "req", "req_n", "effects", "points", "ref", "text")

    def __init__(self, raw: dict, ref: tuple, text: str = ""):
        self.when = raw["when"]
        self.hand = raw["from"] == "hand"
        self.white = raw["white"]
        self.may = raw["may"]
        self.cost = raw["cost"]                       # "discard" / "trash" for Hand abilities
        req = raw["requires"]
        self.req = REQ_INDEX[req["what"]] if req else -1
        self.req_n = req["at_least"] if req else 0
        effects: list[tuple[int, int, int]] = []
        for e in raw["effects"]:
            (prim, amount), = ((k, v) for k, v in e.items() if k in PRIM_INDEX or k == "pocket")
            if prim == "pocket":
                effects.append((-1, amount, 0))
                continue
            param = -1
            if prim == "goods":
                param = TYPE_INDEX[e["only"]] if e.get("only") else -1
            elif prim in ("strike", "might"):
                param = WHERE_INDEX[e["where"]]
            effects.append((PRIM_INDEX[prim], amount, param))
        self.effects: tuple[tuple[int, int, int], ...] = tuple(effects)
        self.points = raw["points"] or 0
        self.ref = ref
        self.text = text

    def __repr__(self) -> str:
        return f"Ability({self.when}, {self.ref})"


class CardDef:
    """A playable card (Supplies, Citizen, Structure, Tactic, Recognition), its numbers and its abilities by use."""

    __slots__ = ("code", "name", "type", "cost", "goods", "only", "damage", "health", "pile", "hero", "index",
                 "plain", "exposed_ab", "white_ab", "reveal", "hand_ab", "finish_exposed", "finish_white",
                 "pocket_exposed", "pocket_white", "might_exposed", "might_white", "abilities", "data", "quantity",
                 "lname", "has_stack_ab", "ab_phases")

    def __init__(self, data: dict, index: int):
        self.data = data
        self.index = index
        self.code = data["code"]
        self.name = data["name"]
        self.lname = data["name"].lower().replace("\u2019", "'")
        self.type = TYPE_INDEX[data["type"]]
        self.cost = data["cost"] or 0
        self.goods = data["goods"] or 0
        self.only = TYPE_INDEX[data["goods_only"]] if data["goods_only"] else -1
        self.damage = data["damage"] or 0
        self.health = data["health"] or 0
        self.pile = data["pile"]
        self.hero = data["hero"]
        self.quantity = data["quantity"] or 0
        abilities = [Ability(a, ("card", self.code, k)) for k, a in enumerate(data["abilities"])]
        self.abilities = tuple(abilities)
        exposed: list[list[Ability]] = [[], [], [], []]
        white: list[list[Ability]] = [[], [], [], []]
        hand: list[list[Ability]] = [[], [], [], []]
        self.finish_exposed = self.finish_white = 0
        self.pocket_exposed = self.pocket_white = 0
        self.might_exposed = self.might_white = 0
        reveal = []
        for a in abilities:
            if a.hand:
                hand[PHASE_INDEX[a.when]].append(a)
            elif a.when in PHASE_INDEX:
                (white if a.white else exposed)[PHASE_INDEX[a.when]].append(a)
            elif a.when == "reveal":
                reveal.append(a)
            elif a.when == "finish":
                if a.white:
                    self.finish_white += a.points
                else:
                    self.finish_exposed += a.points
            elif a.when == "static":
                for prim, amount, param in a.effects:
                    if prim == -1:
                        if a.white:
                            self.pocket_white += amount
                        else:
                            self.pocket_exposed += amount
                    elif prim == E_MIGHT:
                        if a.white:
                            self.might_white += amount
                        else:
                            self.might_exposed += amount
        self.exposed_ab = tuple(tuple(x) for x in exposed)
        self.white_ab = tuple(tuple(x) for x in white)
        self.hand_ab = tuple(tuple(x) for x in hand)
        self.reveal = tuple(reveal)
        self.has_stack_ab = bool(abilities) and any(not a.hand for a in abilities)
        # the phases in which this card has a Stack ability (exposed or white box)
        self.ab_phases = tuple(ph for ph in range(4) if exposed[ph] or white[ph])
        # 003 §8.4: a Supplies card whose only use is paying; `buy` spends these by itself
        self.plain = self.type == SUPPLIES and not any(self.hand_ab)

    def __repr__(self) -> str:
        return f"<{self.code} {self.name}>"


class HeroDef:
    """A Hero and its Skill Tree (003 §5.2): per Level, the Hero-phase abilities, static Pocket and Damage, Finish."""

    __slots__ = ("code", "name", "subtitle", "data", "hero_ab", "pocket", "might", "finish", "deck", "index")

    def __init__(self, data: dict, index: int):
        self.data = data
        self.index = index
        self.code = data["code"]
        self.name = data["name"]
        self.subtitle = data["subtitle"]
        hero_ab = []
        pocket = []
        might = []
        finish = []
        for step in data["skills"]:
            lv = step["level"]
            abilities = [Ability(a, ("skill", self.code, lv, k), step["text"]) for k, a in enumerate(step["abilities"])]
            hero_ab.append(tuple(a for a in abilities if a.when == "hero"))
            pocket.append(sum(e[1] for a in abilities if a.when == "static" for e in a.effects if e[0] == -1))
            might.append(sum(e[1] for a in abilities if a.when == "static" for e in a.effects if e[0] == E_MIGHT))
            finish.append(sum(a.points for a in abilities if a.when == "finish"))
        self.hero_ab = tuple(hero_ab)
        # totals by Level: what Level L has from steps 0..L (003 §4.1: "from Level 0 up to your current Level")
        self.pocket = tuple(sum(pocket[:lv + 1]) for lv in range(len(pocket)))
        self.might = tuple(sum(might[:lv + 1]) for lv in range(len(might)))
        self.finish = tuple(sum(finish[:lv + 1]) for lv in range(len(finish)))
        self.deck: tuple[CardDef, ...] = ()

    def __repr__(self) -> str:
        return f"<Hero {self.code} {self.name}>"


class RegionDef:
    """A Region: its place from the Market, its Quest (003 §5.4) and its Reward side (white box while held)."""

    __slots__ = ("code", "name", "short", "order", "index", "quest_phase", "need", "reward_ab", "pocket", "might",
                 "finish", "data", "lname")

    def __init__(self, data: dict, index: int):
        self.data = data
        self.index = index
        self.code = data["code"]
        self.name = data["name"]
        self.short = data["short_name"] or data["name"]
        self.lname = self.short.lower().replace("\u2019", "'")
        self.order = data["order"]
        quest = data["quest"]
        self.quest_phase = PHASE_INDEX[quest["phase"]]
        self.need = tuple((QUEST_INDEX[k], n) for k, n in quest["need"].items())
        abilities = [Ability(a, ("reward", self.code, k)) for k, a in enumerate(data["reward"])]
        reward: list[list[Ability]] = [[], [], [], []]
        self.pocket = self.might = self.finish = 0
        for a in abilities:
            if a.when in PHASE_INDEX:
                reward[PHASE_INDEX[a.when]].append(a)
            elif a.when == "finish":
                self.finish += a.points
            elif a.when == "static":
                for prim, amount, _ in a.effects:
                    if prim == -1:
                        self.pocket += amount
                    elif prim == E_MIGHT:
                        self.might += amount
        self.reward_ab = tuple(tuple(x) for x in reward)

    def __repr__(self) -> str:
        return f"<Region {self.order} {self.name}>"


class CardSet:
    """Everything a game needs from a set, built once: the card table, standing piles, Heroes, Regions, Market Deck.

    >>> cs = CardSet.default()
    >>> [d.name for d in cs.standing]
    ['Goods', 'Aim', 'Silver', 'Worker', 'Shop', 'Recognition']
    >>> [r.short for r in cs.regions]
    ['Gig Harbour', 'Atos', "Mangan's Landing", 'Ios', 'Pinehurst']
    """

    def __init__(self, cards: list[dict], *, code: str = "custom", check_set: bool = True):
        normalised = []
        errors: list[CardError] = []
        for raw in cards:
            card, errs = normalise_card(raw)
            errors.extend(errs)
            normalised.append(card)
        if not errors and check_set:
            errors.extend(set_errors(normalised))
        if errors:
            raise SetError(errors)
        self.code = code
        self.cards: list[CardDef] = []
        self.heroes: list[HeroDef] = []
        regions = []
        for data in normalised:
            if data["type"] == "hero":
                self.heroes.append(HeroDef(data, len(self.heroes)))
            elif data["type"] == "region":
                regions.append(data)
            else:
                self.cards.append(CardDef(data, len(self.cards)))
        self.regions = [RegionDef(d, i) for i, d in enumerate(sorted(regions, key=lambda d: d["order"]))]
        self.by_code = {c.code: c for c in self.cards}
        self.by_name = {c.lname: c for c in self.cards}
        self.hero_by_code = {h.code: h for h in self.heroes}
        self.hero_by_name = {h.name.lower(): h for h in self.heroes}
        self.region_by_code = {r.code: r for r in self.regions}
        standing = {c.name: c for c in self.cards if c.pile == "standing"}
        self.standing = [standing[name] for name, _, _ in STANDING if name in standing]
        if len(self.standing) != len(STANDING):
            raise SetError([CardError("set", "pile", "the six standing piles are needed to play (003 §1.1)")])
        self.goods_card = self.standing[0]
        self.recognition = self.standing[5]
        self.market_deck: list[CardDef] = [c for c in self.cards if c.pile == "market" for _ in range(c.quantity)]
        for h in self.heroes:
            h.deck = tuple(c for c in self.cards if c.hero == h.code for _ in range(c.quantity))
        self.recognition_total = RECOGNITION_IN_PLAY
        # per phase, the Regions whose Quest is checked in it (003 §5.4)
        self.quest_regions = tuple(tuple(r.index for r in self.regions if r.quest_phase == ph) for ph in range(4))
        # per phase, the Regions whose Reward side has an ability of that phase
        self.reward_regions = tuple(tuple(r.index for r in self.regions if r.reward_ab[ph]) for ph in range(4))

    @classmethod
    def default(cls) -> "CardSet":
        """The shipped set (cards/games/regions/data/regions.json), built once per process."""
        global _DEFAULT
        if _DEFAULT is None:
            _DEFAULT = cls(load_default_set(), code="hr")
        return _DEFAULT

    def hero(self, key: "str | HeroDef") -> HeroDef:
        """A Hero by code or name (case-insensitive)."""
        if isinstance(key, HeroDef):
            return key
        h = self.hero_by_code.get(key) or self.hero_by_name.get(str(key).lower())
        if h is None:
            raise KeyError(f"no Hero {key!r}; Heroes are {', '.join(x.name for x in self.heroes)}")
        return h

    def ability(self, ref) -> Ability:
        """The Ability a position names by its ref."""
        kind = ref[0]
        if kind == "card":
            return self.by_code[ref[1]].abilities[ref[2]]
        if kind == "skill":
            return _skill_ability(self.hero_by_code[ref[1]], ref[2], ref[3])
        region = self.region_by_code[ref[1]]
        for group in region.reward_ab:
            for a in group:
                if a.ref[2] == ref[2]:
                    return a
        raise KeyError(f"no reward ability {ref!r}")


_DEFAULT: CardSet | None = None


def _skill_ability(hero: HeroDef, level: int, k: int) -> Ability:
    for a in hero.hero_ab[level]:
        if a.ref[3] == k:
            return a
    raise KeyError(f"no Skill Tree ability {hero.code} Level {level} #{k}")
