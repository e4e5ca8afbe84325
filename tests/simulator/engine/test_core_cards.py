"""Every core card's abilities are executed by the engine: one test per card (parametrised by name).

For each ability the test lays out a position where it can be used (a helper unit matching each selector, the
phase, a struggle when it needs one, the triggering event), checks that the engine lets it be initiated, runs
it, and checks the state change each effect promises (cards drawn, wealth gained, Power changed, a unit
exhausted, killed, returned, an emblem placed, a token created, a card saved, ...). Static abilities are checked
through the engine's own readings (effective Power, Authority, Levy, keywords, rules).
"""
import pytest

from simulator.engine import build_deck
from simulator.engine.cards import parse_keyword
from simulator.engine.game import (
    DEAD, DISCARD, FIELD, HAND, PHASES, SECRET, Struggle, STRUGGLE_TYPES,
)

from .helpers import card, core_cards, drive, find, set_quest, starter_decks

CORE = [c for c in core_cards() if c.get("abilities")]
TEXT_ONLY = [c for c in core_cards() if not c.get("abilities") and c.get("text")
             and c["type"] not in ("faction",)]


def _selectors(c: dict) -> list[dict]:
    out = []

    def add(sel):
        if isinstance(sel, dict):
            out.append(sel.get("each", sel))

    for ab in c["abilities"]:
        add(ab.get("target"))
        add(ab.get("affects"))
        cond = ab.get("condition") or {}
        add(cond.get("controls"))
        w = ab.get("when") or {}
        add(w.get("card"))
        for e in ab.get("effects") or []:
            for k, v in e.items():
                if isinstance(v, dict) and "each" in v:
                    add(v["each"])
                if k == "search":
                    add(v)
                if k == "who":
                    add(v if not isinstance(v, dict) else v.get("each", v))
    return out


def helper_for(sel: dict, k: int, faction: str) -> dict:
    """A card that matches `sel` (attributes, keyword, icon, name, Power bounds)."""
    t = sel.get("type", "unit")
    t = t[0] if isinstance(t, list) else t
    power = 2
    if "power_lte" in sel:
        power = min(power, sel["power_lte"])
    if "power_lt" in sel:
        power = min(power, sel["power_lt"] - 1)
    if "power_gte" in sel:
        power = max(power, sel["power_gte"])
    if "power_gt" in sel:
        power = max(power, sel["power_gt"] + 1)
    kws = []
    if "keyword" in sel:
        kws.append(sel["keyword"] + (" (1)" if sel["keyword"].lower() in ("haste", "secret", "scout", "ravage")
                                     else ""))
    attrs = sel["attribute"] if isinstance(sel.get("attribute"), list) else \
        [sel["attribute"]] if "attribute" in sel else []
    extra = {"faction": sel.get("faction", faction)}
    c = card(f"helper-{k}", t, name=sel.get("name", f"Helper {k}"), cost=1, attributes=attrs, keywords=kws,
             unique=bool(sel.get("unique")), **extra)
    if t == "unit":
        c["power"] = max(power, 0)
        c["icons"] = ["combat", "guile", "sorcery", "faith"]
    return c


class Scenario:
    def __init__(self, c: dict):
        self.c = c
        fac = c["faction"] if c["faction"] != "neutral" else "camelot"
        self.faction = card("fac", "faction", faction=fac, name="Faction")
        quest = card("q", "quest", wealth=3, spoils=1, levy=7)
        self.sels = _selectors(c)
        self.helpers = [helper_for(s, k, fac) for k, s in enumerate(self.sels)]
        filler = card("filler", faction=fac, name="Filler", cost=9, power=1, icons=[])
        base = [(self.faction, 1)]
        quests = [(quest, 7)]
        draw = [(filler, 30)] + [(h, 3) for h in self.helpers]
        if c["type"] == "quest":
            quests = [(c, 7)]
        elif c["type"] == "destiny":
            base.append((c, 1))
        else:
            draw.append((c, 3))
        self.deck = build_deck(base + quests + draw)
        from .helpers import new_game
        self.g = new_game(self.deck, self.deck)
        if c["type"] != "quest":
            set_quest(self.g, 0)
        set_quest(self.g, 1)
        g = self.g
        for _ in range(3):
            g._move(find(g, 1, "filler"), HAND, 1)
            g._move(find(g, 0, "filler"), HAND, 0)
        g.pool[0] = 10

    def place_helper(self, sel: dict, p: int | None = None, zone: str | None = None) -> int:
        g = self.g
        k = self.sels.index(sel)
        code = f"helper-{k}"
        who = {"you": 0, "opponent": 1, "any": 1}.get(sel.get("controller", "you"), 0) if p is None else p
        zone = zone or sel.get("zone", "field")
        i = find(g, who, code)
        if zone == "field":
            g._move(i, FIELD, who)
            if sel.get("exhausted") or sel.get("ready") is False:
                g.exh[i] = 1
            if sel.get("has_emblem"):
                g.emb[i] = 1
                g._statics_cache = None
        elif zone == "hand":
            g._move(i, HAND, who)
        return i


def orientation(c: dict, ab: dict) -> int:
    """Who attacks in the struggle the ability needs: 1 when our unit must be defending."""
    for sel in _selectors({"abilities": [ab]}):
        part = sel.get("participating")
        ctrl = sel.get("controller", "you")
        if (part == "defending" and ctrl == "you") or (part == "attacking" and ctrl == "opponent"):
            return 1
    if (ab.get("when") or {}).get("side") == "defender":
        return 1
    return 0


def needs_struggle(ab: dict) -> bool:
    if ab.get("phase") == "struggle":
        return True
    w = ab.get("when") or {}
    if w.get("event") in ("struggle_won", "struggle_resolving", "struggle_lost"):
        return True
    if (ab.get("condition") or {}).get("participating") or (ab.get("condition") or {}).get("in_struggle"):
        return True
    return any("participating" in s for s in _selectors({"abilities": [ab]}))


def run_ability(c: dict, idx: int):
    sc = Scenario(c)
    g = sc.g
    ab_raw = c["abilities"][idx]
    # the source card
    if c["type"] == "quest":
        src = set_quest(g, 0, c["code"])
    elif c["type"] == "destiny":
        src = g.destiny_iid[0]
    elif c["type"] == "deed":
        src = find(g, 0, c["code"])
        g._move(src, HAND, 0)
    else:
        src = find(g, 0, c["code"])
        g._move(src, FIELD, 0)
    ab = next(a for a in g.cdef[src].abilities if a.index == idx)
    # phase
    phase = ab_raw.get("phase") or (ab_raw.get("condition") or {}).get("phase") or \
        (ab_raw.get("when") or {}).get("phase")
    g.phase = PHASES.index(phase) if phase in PHASES else 3
    # host for attachments
    host = -1
    if c["type"] == "attachment":
        att = next(a for a in c["abilities"] if a["timing"] == "attach")
        host = sc.place_helper(att["target"])
        g.host[src] = host
    # struggle
    if needs_struggle(ab_raw):
        w = ab_raw.get("when") or {}
        t = STRUGGLE_TYPES.index(w["type"]) if "type" in w else 0
        s = Struggle(t, orientation(c, ab_raw))
        g.struggle = s
        if c["type"] in ("unit",):
            (s.attackers if s.attacker == 0 else s.defenders).append(src)
    placed = {}
    for key in ("target",):
        if isinstance(ab_raw.get(key), dict):
            placed[key] = sc.place_helper(ab_raw[key])
    for sel in _selectors({"abilities": [ab_raw]}):
        if sel is ab_raw.get("target") or id(sel) in placed:
            continue
        if sel.get("zone", "field") == "deck":
            continue
        if sel == (ab_raw.get("when") or {}).get("card"):
            continue
        if any(k == "search" for e in ab_raw.get("effects") or [] for k in e) and sel in [
                e.get("search") for e in ab_raw.get("effects") or []]:
            continue
        placed[id(sel)] = sc.place_helper(sel)
    cond = ab_raw.get("condition") or {}
    if "controls" in cond:
        for _ in range(cond.get("min", 1) - 1):
            sc.place_helper(cond["controls"])
    if cond.get("behind_on_influence"):
        g.infl[1] = 2
    # participating helpers go into the struggle on their controller's side
    if g.struggle is not None:
        s = g.struggle
        for i in list(g.field[0]) + list(g.field[1]):
            if g.cdef[i].is_unit and i not in s.attackers and i not in s.defenders and i != src:
                (s.attackers if g.ctrl[i] == s.attacker else s.defenders).append(i)
        if any(sel.get("participating") == "attacking" and sel.get("controller", "you") == "you"
               for sel in sc.sels) and s.attacker != 0:
            pass
    # the triggering event
    info = None
    w = ab_raw.get("when") or {}
    ev = w.get("event")
    if ev:
        s = g.struggle
        if ev in ("struggle_won", "struggle_lost"):
            info = {"type": s.type, "attacker": s.attacker, "winner": 0, "unopposed": False}
        elif ev == "struggle_resolving":
            info = {"type": s.type, "attacker": s.attacker}
        elif ev == "would_leave_play":
            victim = src if w.get("card") == "self" else sc.place_helper(w["card"])
            info = {"cards": [victim], "card": victim, "how": w.get("how", "killed"), "saved": set(), "player": 0}
        elif ev == "leaves_play":
            victim = sc.place_helper(w["card"])
            g._move(victim, DEAD)
            info = {"card": victim, "how": w.get("how", "killed"), "player": 0}
        elif ev == "phase_start":
            info = {"phase": w["phase"]}
        elif ev == "card_played":
            played = sc.place_helper(w["card"], zone="hand")
            g._move(played, DISCARD)
            info = {"card": played, "player": 0}
        elif ev == "authority_claimed":
            info = {"player": 0}
        else:
            info = {}
        assert g._when_matches(ab, 0, src, info), f"{c['name']}: its event does not match its `when`"
    is_deed = c["type"] == "deed"
    return sc, g, src, ab, info, placed, host, is_deed


@pytest.mark.parametrize("c", CORE, ids=[c["name"] for c in CORE])
def test_core_card_abilities_are_executed(c):
    for idx, raw in enumerate(c["abilities"]):
        if raw["timing"] == "attach":
            check_attach(c, idx)
        elif raw["timing"] == "static":
            check_static(c, idx)
        else:
            check_triggered(c, idx)


def check_attach(c, idx):
    sc, g, src, ab, info, placed, host, _ = run_ability(c, idx)
    sel = c["abilities"][idx]["target"]
    assert host in g.legal_hosts(0, src), f"{c['name']}: its host selector finds no host"
    if sel.get("attribute") or sel.get("controller"):
        wrong_side = 0 if sel.get("controller") == "opponent" else 1
        other = find(g, wrong_side, "filler", HAND)
        g._move(other, FIELD, wrong_side)
        assert other not in g.legal_hosts(0, src), f"{c['name']}: attaches to a unit it should not"


def _affected(g, src, host, placed, raw):
    aff = raw.get("affects")
    if aff in (None, "self"):
        return [src]
    if aff == "host":
        return [host]
    if aff in ("you", "opponent"):
        return []
    return [i for i in placed.values() if g._match(aff, i, 0, src)]


def check_static(c, idx):
    sc, g, src, ab, info, placed, host, _ = run_ability(c, idx)
    raw = c["abilities"][idx]
    g._statics_cache = None
    targets = _affected(g, src, host, placed, raw)
    mod = raw.get("modify") or {}
    checked = False
    if "power" in mod:
        assert targets, f"{c['name']}: nothing it affects"
        for t in targets:
            assert g.power(t) == g.cdef[t].power + mod["power"], f"{c['name']}: Power not modified"
        checked = True
    for key in ("authority", "levy", "wealth", "spoils", "momentum", "setup_budget"):
        if key in mod:
            who = 1 if raw.get("affects") == "opponent" else 0
            assert g._player_static(who, key) == mod[key], f"{c['name']}: {key} not modified"
            if key in ("levy", "wealth", "spoils", "momentum"):
                base = getattr(g.cdef[g.quest[who]], key)
                assert g.quest_stat(who, key) == max(base + mod[key], 0)
            if key == "authority":
                before = g.authority_total(who)
                g.emb[src] = 1 if c["type"] not in ("destiny",) else 0
                g._statics_cache = None
                if c["type"] != "destiny":
                    assert g.authority_total(who) == before - mod[key], f"{c['name']}: blanking keeps it"
            checked = True
    for kw in raw.get("grant") or []:
        bit = parse_keyword(kw)[0]
        for t in targets:
            assert g.kw(t) & bit, f"{c['name']}: {kw} not granted"
        checked = True
    for rule in raw.get("rule") or []:
        for t in targets:
            assert g.has_rule(t, rule), f"{c['name']}: rule {rule} not applied"
        checked = True
    assert checked, f"{c['name']}: a static ability that changes nothing the engine reads"


def check_triggered(c, idx):
    sc, g, src, ab, info, placed, host, is_deed = run_ability(c, idx)
    raw = c["abilities"][idx]
    forced = raw["timing"] in ("forced", "enters", "embark")
    if is_deed and c.get("cost") == "-":
        # §10.9: a deed printed with cost "–" is only ever revealed from the secret area (Secret cost instead)
        assert not g._usable(0, src, ab, info, deed=True), f"{c['name']}: playable from hand despite cost –"
        g._move(src, SECRET, 0)
        assert ("reveal", src) in g._window_options(0, -1) or g.phase != 3 or raw.get("phase"), \
            f"{c['name']}: cannot be revealed"
        assert g._usable(0, src, ab, info, deed=True, extra_cost=-1), f"{c['name']}: cannot be initiated"
    else:
        assert g._usable(0, src, ab, info, deed=is_deed, forced=forced), f"{c['name']}: cannot be initiated"
    target = placed.get("target", -1)
    hand0, hand1 = len(g.hand[0]), len(g.hand[1])
    deck0, deck1 = len(g.deck[0]), len(g.deck[1])
    pool0, infl0 = g.pool[0], g.influence(0)
    tokens0 = sum(1 for i in g.field[0] if g.cdef[i].is_token)
    watched = [i for i in set(placed.values()) | {src} if i >= 0]
    power0 = {i: g.power(i) for i in watched if g.cdef[i].is_unit}
    emb0 = {i: g.emb[i] for i in watched}
    x = 2
    seen = drive(g._use_ability(0, src, ab, info, is_deed=is_deed),
                 [("target", target), ("x", x), lambda d: d.options[0] if d.kind == "search" else None])
    kinds = {getattr(d, "kind", None) for d in seen}
    # costs
    pay = sum((x if cst["pay"] == "X" else cst["pay"]) for cst in raw.get("cost") or [] if "pay" in cst)
    exp_hand0, exp_hand1, exp_pool, exp_infl, exp_deck1 = hand0, hand1, pool0 - pay, infl0, deck1
    # (a deed's printed cost, X included, is paid by _play_deed, which this test does not call)

    def refs(r):
        if r == "target":
            return [target]
        if r == "self":
            return [src]
        if r == "host":
            return [host]
        if r == "event_card":
            return [info["card"]]
        if isinstance(r, dict):
            sel = r.get("each", r)
            return [i for i in placed.values() if g.cdef[i].is_unit and (
                g._match_props(sel, i, 0, src))]
        return []

    def amount(v):
        return x if v == "X" else v

    def walk(effects):
        nonlocal exp_hand0, exp_hand1, exp_pool, exp_infl, exp_deck1
        for e in effects:
            k = next(k for k in e if k not in ("player", "on", "position", "who", "until", "zone", "to", "count"))
            v = e[k]
            opp = e.get("player") == "opponent"
            if k == "then":
                walk(v)
            elif k == "draw":
                if opp:
                    exp_hand1 += amount(v)
                else:
                    exp_hand0 += amount(v)
            elif k == "gain_wealth":
                exp_pool += amount(v)
            elif k == "gain_influence":
                exp_infl += amount(v)
            elif k == "discard_random" or k == "discard_from_hand":
                if opp:
                    exp_hand1 -= amount(v)
                else:
                    exp_hand0 -= amount(v)
            elif k == "mill":
                exp_deck1 -= amount(v) if opp else 0
            elif k == "modify_power":
                for i in refs(e.get("who", "self")):
                    assert g.power(i) == power0[i] + amount(v), f"{c['name']}: Power change missing"
            elif k == "exhaust":
                for i in refs(v):
                    assert g.exh[i] == 1, f"{c['name']}: not exhausted"
            elif k == "ready":
                for i in refs(v):
                    assert g.exh[i] == 0, f"{c['name']}: not readied"
            elif k == "kill":
                for i in refs(v):
                    assert g.zone[i] == DEAD, f"{c['name']}: not killed"
            elif k == "discard":
                for i in refs(v):
                    assert g.zone[i] == DISCARD, f"{c['name']}: not discarded"
            elif k == "return_to_hand":
                for i in refs(v):
                    assert g.zone[i] == HAND, f"{c['name']}: not returned to hand"
                    if g.owner[i] == 1:
                        exp_hand1 += 1
                    else:
                        exp_hand0 += 1
            elif k == "place_emblem":
                for i in refs(v):
                    assert g.emb[i] == emb0[i] + 1, f"{c['name']}: no emblem placed"
            elif k == "remove_emblem":
                for i in refs(v):
                    assert g.emb[i] == emb0[i] - 1, f"{c['name']}: no emblem removed"
            elif k == "create_token":
                assert sum(1 for i in g.field[0] if g.cdef[i].is_token) == tokens0 + 1, f"{c['name']}: no token"
            elif k == "save":
                assert info["card"] in info["saved"], f"{c['name']}: nothing saved"
            elif k == "search":
                dest = e.get("to", "hand")
                sel = dict(v)
                got = [i for i in (g.hand[0] if dest == "hand" else g.field[0]) if g._match_props(sel, i, 0, src)]
                assert got, f"{c['name']}: the search found nothing"
                if dest == "hand":
                    exp_hand0 += 1
            elif k == "scout":
                assert "scout" in kinds, f"{c['name']}: no cards looked at"
            else:
                raise AssertionError(f"{c['name']}: effect {k} has no check")

    walk(raw.get("effects") or [])
    if c["type"] == "deed":
        exp_hand0 -= 0   # the deed itself was not moved by _use_ability
    assert len(g.hand[0]) == exp_hand0, f"{c['name']}: hand {len(g.hand[0])}, expected {exp_hand0}"
    assert len(g.hand[1]) == exp_hand1, f"{c['name']}: opponent hand {len(g.hand[1])}, expected {exp_hand1}"
    assert g.pool[0] == exp_pool, f"{c['name']}: pool {g.pool[0]}, expected {exp_pool}"
    assert g.influence(0) == exp_infl, f"{c['name']}: Influence {g.influence(0)}, expected {exp_infl}"
    assert len(g.deck[1]) == exp_deck1, f"{c['name']}: opponent deck {len(g.deck[1])}, expected {exp_deck1}"
    for cst in raw.get("cost") or []:
        if cst.get("exhaust") == "self":
            assert g.exh[src] == 1, f"{c['name']}: its exhaust cost was not paid"
        if cst.get("sacrifice") == "self":
            assert g.zone[src] == DISCARD, f"{c['name']}: its sacrifice cost was not paid"


@pytest.mark.parametrize("c", TEXT_ONLY, ids=[c["name"] for c in TEXT_ONLY])
def test_core_cards_without_abilities_only_have_keyword_text(c):
    """A card with text and no abilities must be fully covered by its keywords (or be deckbuilding text)."""
    deck = build_deck([(card("fac", "faction", faction="camelot"), 1), (card("q", "quest"), 7),
                       (c, 1) if c["type"] not in ("quest", "destiny") else (card("f", "unit"), 1)]
                      + ([(c, 7)] if c["type"] == "quest" else [])
                      + ([(c, 1)] if c["type"] == "destiny" else []))
    assert c["name"] not in deck.unsupported_cards


def test_starter_decks_have_no_unsupported_cards():
    for name, deck in starter_decks().items():
        assert deck.unsupported_cards == [], f"{name}: {deck.unsupported_cards}"
