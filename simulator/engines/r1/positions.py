"""Positions (CONTRACTS §6): a two-player r1 game at the start of a phase saved as JSON and loaded again, and the
judge's run over one (`judge`, behind `python manage.py judge`).

A position is taken at the start of a phase (§5), for Kingdom and Confrontation at the start of the active
player's turn (Kingdom: after collecting wealth, §5.3), or in a Confrontation turn after a struggle ends
(`"struggles_made"`, §5.4). A field card's entry also holds its lasting effects still running (§8.9: Power, a
keyword, control that goes back; `"lasting"`). What a position does not hold: limits of the round in progress
("once per round"), delayed effects, type changes; a game saved with any of them loads without them.
"""
from __future__ import annotations

from typing import Any

from cards.games.r1.facts import DRAW_TYPES

from .actions import action_text, apply_text, option_texts
from .abilities import DURATIONS
from .cards import KEYWORD_NAMES, STRUGGLE_TYPES, CardDef, Deck, DeckError, parse_keyword
from .game import (
    CONFRONT_P, DEAD, DECK, DESTINY, DISCARD, DUP, FACTION, FIELD, HAND, KINGDOM_P, OUT, PHASES, PUBLIC_ZONE,
    QDECK, QUEST, QUSED, SECRET, Game, IllegalAction,
)

LIST_ZONES = (("hand", HAND), ("deck", DECK), ("discard", DISCARD), ("dead", DEAD), ("out_of_game", OUT),
              ("secret", SECRET))
UNTIL = ("decision", "struggle", "phase", "round", "game")


class PositionError(ValueError):
    """A position that cannot be loaded; the message names the player, the zone and the card."""


# ---------------------------------------------------------------- saving
def _entry(g: Game, iid: int) -> Any:
    lab = g.labels.get(iid)
    code = g.cdef[iid].code
    return {"card": code, "id": lab} if lab is not None else code


def to_position(g: Game) -> dict:
    """The position of `g` (CONTRACTS §6), labels kept. Only between steps: ValueError inside a struggle or
    while a card resolves."""
    if g.struggle is not None or g.limbo:
        raise ValueError("a position is taken at the start of a phase or turn, or after a struggle: not inside one")
    if g.round_no < 1 or not 0 <= g.phase < 7:
        raise ValueError("a position is taken from round 1 on (after §4 setup)")
    lasting = _lasting_of(g)
    players: list[dict[str, Any]] = []
    for p in (0, 1):
        if p == 1 and g.goldfish:
            players.append({"faction": None})
            continue
        field = []
        for i in g.field[p]:
            if i in g.host:
                continue   # written under its host
            e: dict[str, Any] = {"card": g.cdef[i].code}
            if i in g.labels:
                e["id"] = g.labels[i]
            e.update({"exhausted": bool(g.exh[i]), "emblems": g.emb[i], "influence": g.cnt[i],
                      "duplicates": len(g.dups.get(i, ())), "owner": g.owner[i], "attachments": []})
            if i in lasting:
                e["lasting"] = lasting[i]
            for a in [a for q in (p, 1 - p) for a in g.field[q] if g.host.get(a) == i]:
                ae: dict[str, Any] = {"card": g.cdef[a].code}
                if a in g.labels:
                    ae["id"] = g.labels[a]
                if g.exh[a]:
                    ae["exhausted"] = True
                if g.emb[a]:
                    ae["emblems"] = g.emb[a]
                if g.dups.get(a):   # a unique attachment's duplicates (§3.7), as a field card's
                    ae["duplicates"] = len(g.dups[a])
                if g.owner[a] != p:
                    ae["owner"] = g.owner[a]
                if g.ctrl[a] != p:
                    ae["controller"] = g.ctrl[a]
                if a in lasting:
                    ae["lasting"] = lasting[a]
                e["attachments"].append(ae)
            field.append(e)
        players.append({
            "faction": g.cdef[g.faction_iid[p]].code,
            "destiny": g.cdef[g.destiny_iid[p]].code if g.destiny_iid[p] >= 0 else None,
            "influence": g.infl[p], "pool": g.pool[p],
            "quest": g.cdef[g.quest[p]].code if g.quest[p] >= 0 else None,
            "quest_deck": [_entry(g, i) for i in reversed(g.qdeck[p])],
            "used_quests": [_entry(g, i) for i in g.qused[p]],
            "hand": [_entry(g, i) for i in g.hand[p]],
            "deck": [_entry(g, i) for i in reversed(g.deck[p])],   # top first
            "discard": [_entry(g, i) for i in g.discard[p]],
            "dead": [_entry(g, i) for i in g.dead[p]],
            "out_of_game": [_entry(g, i) for i in g.out[p]],
            "secret": [_entry(g, i) for i in g.secret[p]],
            "restricted_this_round": g.restricted_used[p],
            "field": field,
        })
    pos: dict[str, Any] = {
        "game": "r1", "seed": g.seed, "round": g.round_no, "phase": PHASES[g.phase], "first_player": g.first,
        "active_player": g.active if g.phase in (KINGDOM_P, CONFRONT_P) and g.active >= 0 else None,
        "authority": g.authority if g.authority in (0, 1) else None, "players": players}
    if g.phase == CONFRONT_P and g.active >= 0 and g.struggles_done[g.active]:
        pos["struggles_made"] = [STRUGGLE_TYPES[t] for t in sorted(g.struggles_done[g.active])]
    return pos


def exact_position(g: Game) -> dict:
    """The position of `g` where loading it gives this very state: the same cards where they are, the same
    decision with the same options. That is where a position starts a game again (CONTRACTS §6): the start of a
    phase or a turn as the judge stops there, or a Kingdom or Confrontation turn's window where the first player
    has priority and nobody passed yet (its start, or after an action of the second player), with none of what a
    position does not hold in force: a limit of an ability or of plays by name already counted, a delayed effect,
    a type change. ValueError elsewhere (`to_position` prints those as the phase's start)."""
    if g.pos_at != len(g.history):
        raise ValueError("inside a phase: a position holds a phase's start, a turn's window or a struggle's end")
    if g.uses or g.delayed or any(x[1] == "type" for x in g.lasting):
        raise ValueError("a limit of an ability, a delayed effect or a type change is in force: a position does "
                         "not hold them")
    limited = {d.name for d in g.cdef if d.max_per_round is not None}
    if limited and any(name in limited for pb in g.plays_by_name for name in pb):
        raise ValueError("a card limited per round was played this round: a position does not hold the count")
    return to_position(g)


def _lasting_of(g: Game) -> dict[int, list[dict]]:
    """card -> its lasting effects (§8.9) still running, as a position writes them on the card's entry: Power
    (`{"power": 2, "until": "round"}`), a keyword (`{"keyword": "Ravage (2)", "until": "phase"}`), control that
    goes back (`{"returns_to": 0, "until": "round"}`, §3.2). A type change (§2.2) is not written."""
    out: dict[int, list[dict]] = {}
    for until, kind, who, value in g.lasting:
        if kind == "power":
            e: dict[str, Any] = {"power": value, "until": until}
        elif kind == "keyword":
            bit, param = value
            e = {"keyword": KEYWORD_NAMES[bit] + (f" ({param})" if param is not None else ""), "until": until}
        elif kind == "control":
            e = {"returns_to": value, "until": until}
        else:
            continue
        out.setdefault(who, []).append(e)
    return out


def _read_lasting(raw: Any, where: str) -> list[tuple]:
    """A field entry's "lasting" list as (until, kind, value) (kind as in Game.lasting); PositionError else."""
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise PositionError(f"{where} lasting: a list of effects")
    out: list[tuple] = []
    for x in raw:
        if not isinstance(x, dict) or x.get("until") not in DURATIONS or len(x) != 2:
            raise PositionError(f"{where} lasting: {x!r} is not one effect with an \"until\" of "
                                f"{', '.join(sorted(DURATIONS))}")
        if "power" in x and isinstance(x["power"], int) and not isinstance(x["power"], bool):
            out.append((x["until"], "power", x["power"]))
        elif "keyword" in x and parse_keyword(str(x["keyword"]))[0]:
            out.append((x["until"], "keyword", parse_keyword(str(x["keyword"]))))
        elif "returns_to" in x and x["returns_to"] in (0, 1) and not isinstance(x["returns_to"], bool):
            out.append((x["until"], "control", x["returns_to"]))
        else:
            raise PositionError(f"{where} lasting: {x!r} (one of \"power\": N, \"keyword\": \"Ravage (2)\", "
                                "\"returns_to\": 0 or 1, with its \"until\")")
    return out


# ---------------------------------------------------------------- loading
class _Card:
    __slots__ = ("d", "label", "zone", "holder", "info")

    def __init__(self, d: CardDef, label: str | None, zone: int, holder: int, info: dict):
        self.d = d
        self.label = label
        self.zone = zone
        self.holder = holder
        self.info = info


def _count(v: Any, where: str, default: int = 0) -> int:
    if v is None:
        return default
    if isinstance(v, bool) or not isinstance(v, int):
        raise PositionError(f"{where}: {v!r} is not a whole number")
    if v < 0:
        raise PositionError(f"{where}: a negative count ({v})")
    return v


def from_position(data: Any, catalogue: Any, *, log: bool = False, max_rounds: int = 50,
                  policies: Any = None, stops: bool = False, advance: bool = True,
                  cards: list[int] | None = None) -> Game:
    """A Game in the state of a position (CONTRACTS §6), running from there: its first decision is pending.
    `catalogue` maps a card code to its CONTRACTS §1 dict (`.get(code)`: a dict or `decks.pool.CardPool`).
    PositionError for a broken position; nothing runs then. `advance=False`: laid out, not started (the rules
    start at the first apply_action, play() or `_advance(None, first=True)`)."""
    if not isinstance(data, dict):
        raise PositionError("a position is a JSON object")
    if data.get("game", "r1") != "r1":
        raise PositionError(f"game {data.get('game')!r}: this engine loads r1 positions")
    seed = data.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise PositionError(f"seed: {seed!r} is not a whole number")
    rnd = data.get("round", 1)
    if isinstance(rnd, bool) or not isinstance(rnd, int) or rnd < 1:
        raise PositionError(f"round: {rnd!r} (a position is in round 1 or later)")
    if rnd > max_rounds:   # the game would stop at its round limit before anything could be judged
        raise PositionError(f"round: {rnd} (a position is in round 1 to {max_rounds}, the game's round limit)")
    phase = data.get("phase", "quest")
    if phase not in PHASES:
        raise PositionError(f"phase: {phase!r} is not one of {', '.join(PHASES)}")
    ph = PHASES.index(phase)
    first = data.get("first_player", 0)
    if first not in (0, 1) or isinstance(first, bool):
        raise PositionError(f"first_player: {first!r} (0 or 1)")
    active: Any = data.get("active_player")
    if active not in (None, 0, 1) or isinstance(active, bool):   # outside a turn it is unused, but still a player
        raise PositionError(f"active_player: {active!r} (0, 1 or null)")
    if ph in (KINGDOM_P, CONFRONT_P):
        active = first if active is None else active
        if active not in (0, 1) or isinstance(active, bool):
            raise PositionError(f"active_player: {active!r} (0 or 1)")
    auth: Any = data.get("authority")
    if auth not in (None, 0, 1) or isinstance(auth, bool):
        raise PositionError(f"authority: {auth!r} (0, 1 or null)")
    made = data.get("struggles_made", [])
    if not isinstance(made, list) or any(t not in STRUGGLE_TYPES for t in made) or len(set(made)) != len(made):
        raise PositionError(f"struggles_made: {made!r} (distinct types among {', '.join(STRUGGLE_TYPES)})")
    if made and ph != CONFRONT_P:
        raise PositionError("struggles_made: only in a Confrontation position")
    players = data.get("players")
    if not isinstance(players, list) or len(players) != 2 or not all(isinstance(x, dict) for x in players):
        raise PositionError("players: a list of two player objects")
    goldfish = players[1].get("faction") is None and not any(v for k, v in players[1].items() if k != "faction")
    if players[0].get("faction") is None:
        raise PositionError("player 0, faction: required")

    defs: dict[str, CardDef] = {}
    labels: set[str] = set()

    def card(p: int, zone: str, raw: Any, types: tuple) -> tuple[CardDef, str | None]:
        if isinstance(raw, dict):
            code, label = raw.get("card"), raw.get("id")
            if label is not None and not isinstance(label, str):
                raise PositionError(f"player {p}, {zone}: the id of {code} must be a string")
        else:
            code, label = raw, None
        if not isinstance(code, str):
            raise PositionError(f"player {p}, {zone}: {raw!r} is not a card code")
        d = defs.get(code)
        if d is None:
            cd = catalogue.get(code)
            if cd is None:
                raise PositionError(f"player {p}, {zone}: unknown card {code}")
            try:
                d = defs[code] = CardDef(cd)
            except DeckError as exc:
                raise PositionError(f"player {p}, {zone}: {code}: {exc}") from None
        if d.type not in types:
            raise PositionError(f"player {p}, {zone}: {code} ({d.name}) is a {d.type}, not a "
                                f"{' or '.join(types)}")
        if label is not None:
            if label in labels or label in ("none", "on", "done"):
                raise PositionError(f"player {p}, {zone}: the id {label!r} of {code} is used twice or reserved")
            labels.add(label)
        return d, label

    # every card of each owner: faction, destiny, quests, draw cards with where they go
    own: list[dict[str, Any]] = [{"quests": [], "draw": []}, {"quests": [], "draw": []}]
    extra: list[dict[str, Any]] = [{}, {}]
    for p, pl in enumerate(players):
        if p == 1 and goldfish:
            continue
        unknown = set(pl) - {"faction", "destiny", "influence", "pool", "quest", "quest_deck", "used_quests",
                             "hand", "deck", "discard", "dead", "out_of_game", "secret", "restricted_this_round",
                             "field"}
        if unknown:
            raise PositionError(f"player {p}: unknown key(s) {', '.join(sorted(unknown))}")
        own[p]["faction"] = card(p, "faction", pl.get("faction"), ("faction",))[0]
        own[p]["destiny"] = card(p, "destiny", pl["destiny"], ("destiny",))[0] if pl.get("destiny") else None
        extra[p]["influence"] = _count(pl.get("influence"), f"player {p}, influence")
        extra[p]["pool"] = _count(pl.get("pool"), f"player {p}, pool")
        extra[p]["restricted"] = _count(pl.get("restricted_this_round"), f"player {p}, restricted_this_round")
        q = pl.get("quest")
        if isinstance(q, list):
            raise PositionError(f"player {p}, quest: a second active quest ({q!r}); a player has one")
        if q is not None:
            d, lab = card(p, "quest", q, ("quest",))
            own[p]["quests"].append(_Card(d, lab, QUEST, p, {}))
        for zname, z in (("quest_deck", QDECK), ("used_quests", QUSED)):
            lst = pl.get(zname, [])
            if not isinstance(lst, list):
                raise PositionError(f"player {p}, {zname}: a list of cards")
            seq = list(reversed(lst)) if z == QDECK else lst
            for raw in seq:
                d, lab = card(p, zname, raw, ("quest",))
                own[p]["quests"].append(_Card(d, lab, z, p, {}))
        for zname, z in LIST_ZONES:
            lst = pl.get(zname, [])
            if not isinstance(lst, list):
                raise PositionError(f"player {p}, {zname}: a list of cards")
            seq = list(reversed(lst)) if z == DECK else lst   # a position lists a deck top first
            for raw in seq:
                d, lab = card(p, zname, raw, DRAW_TYPES)
                own[p]["draw"].append(_Card(d, lab, z, p, {}))
    for p, pl in enumerate(players):
        if p == 1 and goldfish:
            continue
        fl = pl.get("field", [])
        if not isinstance(fl, list):
            raise PositionError(f"player {p}, field: a list of cards")
        names: dict[str, str] = {}
        for e in fl:
            raw = e if not isinstance(e, dict) else {"card": e.get("card"), "id": e.get("id")}
            code = raw["card"] if isinstance(raw, dict) else raw
            d, lab = card(p, "field", raw, ("unit", "location", "attachment"))
            if d.is_attachment:
                raise PositionError(f"player {p}, field: {code} ({d.name}) is an attachment with no host; list it "
                                    "under its host's \"attachments\"")
            e = e if isinstance(e, dict) else {}
            owner = e.get("owner", p)
            if owner not in (0, 1) or isinstance(owner, bool) or (owner == 1 and goldfish):
                raise PositionError(f"player {p}, field: {code} has owner {owner!r}")
            info: dict[str, Any] = {"exh": 1 if e.get("exhausted") else 0,
                    "emb": _count(e.get("emblems"), f"player {p}, field: {code} emblems"),
                    "cnt": _count(e.get("influence"), f"player {p}, field: {code} influence"),
                    "dups": _count(e.get("duplicates"), f"player {p}, field: {code} duplicates"),
                    "atts": [], "lasting": _read_lasting(e.get("lasting"), f"player {p}, field: {code}")}
            if d.unique:
                if d.name in names:
                    raise PositionError(f"player {p}, field: {code} ({d.name}) is unique and player {p} already "
                                        f"controls a copy ({names[d.name]}, §3.7)")
                names[d.name] = code
            elif info["dups"]:
                raise PositionError(f"player {p}, field: {code} ({d.name}) is not unique and cannot have "
                                    "duplicates (§3.7)")
            c = _Card(d, lab, FIELD, p, info)
            own[owner]["draw"].append(c)
            for _k in range(info["dups"]):
                own[owner]["draw"].append(_Card(d, None, DUP, p, {"under": c}))
            atts = e.get("attachments", [])
            if not isinstance(atts, list):
                raise PositionError(f"player {p}, field: {code} attachments: a list of cards")
            for ae in atts:
                ar = ae if not isinstance(ae, dict) else {"card": ae.get("card"), "id": ae.get("id")}
                ad, alab = card(p, f"field ({code}'s attachments)", ar, ("attachment",))
                ae = ae if isinstance(ae, dict) else {}
                a_owner = ae.get("owner", p)
                a_ctrl = ae.get("controller", p)
                if a_owner not in (0, 1) or a_ctrl not in (0, 1) or (goldfish and 1 in (a_owner, a_ctrl)):
                    raise PositionError(f"player {p}, field: {ad.code} on {code}: bad owner or controller")
                ac = _Card(ad, alab, FIELD, a_ctrl, {"exh": 1 if ae.get("exhausted") else 0,
                                                     "emb": _count(ae.get("emblems"), f"player {p}, field: "
                                                                   f"{ad.code} emblems"),
                                                     "cnt": 0, "host": c,
                                                     "lasting": _read_lasting(ae.get("lasting"),
                                                                              f"player {p}, field: {ad.code} on "
                                                                              f"{code}")})
                own[a_owner]["draw"].append(ac)
                info["atts"].append(ac)
                a_dups = _count(ae.get("duplicates"), f"player {p}, field: {ad.code} on {code} duplicates")
                if a_dups and not ad.unique:
                    raise PositionError(f"player {p}, field: {ad.code} ({ad.name}) on {code} is not unique and "
                                        "cannot have duplicates (§3.7)")
                for _k in range(a_dups):
                    own[a_owner]["draw"].append(_Card(ad, None, DUP, a_ctrl, {"under": ac}))

    decks: list[Deck | None] = []
    for p in (0, 1):
        if p == 1 and goldfish:
            decks.append(None)
            continue
        o = own[p]
        all_defs = list({id(d): d for d in [o["faction"], *([o["destiny"]] if o["destiny"] else []),
                                            *(c.d for c in o["quests"]), *(c.d for c in o["draw"])]}.values())
        decks.append(Deck(o["faction"], o["destiny"], [c.d for c in o["quests"]], [c.d for c in o["draw"]],
                          all_defs))
    deck_a = decks[0]
    assert deck_a is not None
    g = Game(deck_a, decks[1], seed=seed, first_player=first, max_rounds=max_rounds, log=log, autostart=False,
             policies=policies, cards=cards)
    g.stops = stops
    g.origin = lambda cards, log: from_position(data, catalogue, log=log, max_rounds=max_rounds, advance=False,
                                                cards=cards)
    # lay the cards out where the position says (ids: faction, destiny, quests, draw cards, per player)
    iid_of: dict[int, int] = {}
    for p in (0, 1):
        if decks[p] is None:
            continue
        g.deck[p].clear()
        g.qdeck[p].clear()
        base = g.faction_iid[p] + (2 if g.destiny_iid[p] >= 0 else 1)
        for k, c in enumerate(own[p]["quests"]):
            i = base + k
            if c.label:
                g.labels[i] = c.label
            g.zone[i] = c.zone
            if c.zone == QUEST:
                g.quest[p] = i
            else:
                (g.qdeck if c.zone == QDECK else g.qused)[p].append(i)
        base += len(own[p]["quests"])
        for k, c in enumerate(own[p]["draw"]):
            iid_of[id(c)] = base + k
    for p in (0, 1):
        if decks[p] is None:
            continue
        for c in own[p]["draw"]:
            i = iid_of[id(c)]
            if c.label:
                g.labels[i] = c.label
            g.zone[i] = c.zone
            if c.zone == DUP:
                g.dups.setdefault(iid_of[id(c.info["under"])], []).append(i)
            elif c.zone != FIELD:
                g._zone_list(p, c.zone).append(i)
    # the field in the order of the position: each card, then the attachments on it
    for p in (0, 1):
        if decks[p] is None:
            continue
        for e_card in [c for q in (0, 1) for c in own[q]["draw"] if c.zone == FIELD and "host" not in c.info
                       and c.holder == p]:
            i = iid_of[id(e_card)]
            for c in [e_card, *e_card.info["atts"]]:
                j = iid_of[id(c)]
                g.field[c.holder].append(j)
                g.ctrl[j] = c.holder
                g.exh[j] = c.info["exh"]
                g.emb[j] = c.info["emb"]
                g.cnt[j] = c.info["cnt"]
                if c is not e_card:
                    g.host[j] = i
                for until, kind, value in c.info["lasting"]:   # §8.9: as the effects that made them left them
                    if kind == "power":
                        g.pmod[j] = g.pmod.get(j, 0) + value
                    elif kind == "keyword":
                        g.kgrant.setdefault(j, []).append((value[0], value[1], until))
                    g.lasting.append((until, kind, j, value))
    for p in (0, 1):
        if decks[p] is None:
            continue
        g.infl[p] = extra[p]["influence"]
        g.pool[p] = extra[p]["pool"]
        g.restricted_used[p] = extra[p]["restricted"]
        for i in g.field[p]:
            if g.cdef[i].hooks:
                g._hook(i, FIELD, 1, p)
        for i in g.hand[p]:
            if g.cdef[i].hooks:
                g._hook(i, HAND, 1, p)
        q = g.quest[p]
        if q >= 0 and g.cdef[q].hooks:
            g._hook(q, FIELD, 1, p)
    for i, z in enumerate(g.zone):
        if PUBLIC_ZONE[z]:
            g.seen[i] = 1
    g.round_no = rnd
    g.first = first
    g.round1_first = first
    g.authority = auth if auth is not None else -1
    g.start_phase = ph
    g.phase = ph
    g.start_active = active if ph in (KINGDOM_P, CONFRONT_P) else -1
    if ph in (KINGDOM_P, CONFRONT_P):
        g.active = active
        if goldfish and active == 1:
            raise PositionError("active_player: 1 is the goldfish, which never acts")
    if ph == CONFRONT_P:
        g.struggles_done[active] = {STRUGGLE_TYPES.index(t) for t in made}
    g.pos_at = 0   # laid out: the state the position describes (until the flow starts)
    g._statics_cache = None
    g._pw_cands = {}
    if g.has_replace:
        for i in g.field[0] + g.field[1]:
            g._seq += 1
            g.entry_seq[i] = g._seq
    if advance:
        g._advance(None, first=True)
    return g


# ---------------------------------------------------------------- the judge
_NAMED = ("named",)   # what _settle returns at a single-option decision that the next action names


def _settle(g: Game, log: list[str], skip_windows: bool, stop: Any, action: str | None = None) -> Any:
    """Run on to the next decision that waits: boundaries that are not the stop point are passed, single-option
    decisions are taken by themselves (logged), queued hosts are named; with `skip_windows`, every window
    passes. Returns the boundary info where `stop(info)` said stop, `_NAMED` at a single-option decision whose
    option is `action` (CONTRACTS §6: an action naming that very option is consumed there), else None."""
    while g.pending is not None:
        d = g.pending
        if d.kind == "boundary":
            if stop is not None and stop(d.info):
                return d.info
            g.apply_action(d.options[0])
            continue
        if g.queued and d.kind in ("host", "setup_host") and g.queued[0][0] == d.player:
            _p, host = g.queued.pop(0)
            name = g.labels.get(d.info) or g.cdef[d.info].code
            apply_text(g, f"play {name} on {host}")
            continue
        opts = option_texts(g)
        if len(opts) == 1:
            if action is not None and opts[0].split() == action.split():
                return _NAMED
            if g.logs is not None:
                g.logs.append(f"R{g.round_no} player {d.player} {d.kind}: {opts[0]} (the only option: taken by "
                              "itself)")
            apply_text(g, opts[0])
            continue
        if skip_windows and d.kind in ("window", "react"):
            g.apply_action(("pass",))
            continue
        return None
    return None


WINDOW_VERBS = ("pass", "play", "secret", "reveal", "haste", "use", "struggle")


def judge(position: Any, catalogue: Any, actions: list[str] = (), until: str = "decision",  # type: ignore
          policy: str | None = None) -> dict:
    """CONTRACTS §6 judge: load, apply the position's "actions" then `actions`, run to `until`. Raises
    PositionError (refused position) or JudgeError (an action that is not an option where it was due)."""
    from .policies import make_policy
    if until not in UNTIL:
        raise ValueError(f"--until {until!r}: one of {', '.join(UNTIL)}")
    g = from_position(position, catalogue, log=True, stops=True)
    start = (g.round_no, g.phase)
    # the log of the loaded game from here (log lines of the engine cite their rule)
    extra: list[str] = []
    todo = list(position.get("actions", []) if isinstance(position, dict) else []) + list(actions)
    for n, text in enumerate(todo):
        if not isinstance(text, str):
            raise JudgeError(n, text, [], "an action is a text")
        named = _settle(g, extra, False, None, text) is _NAMED
        if g.pending is None:
            raise JudgeError(n, text, [], "the game is over")
        verb = text.split()[0] if text.split() else ""
        if verb not in WINDOW_VERBS and not named:
            # any other action passes the windows before it
            while g.pending is not None and g.pending.kind in ("window", "react", "boundary"):
                g.apply_action(g.pending.options[0] if g.pending.kind == "boundary" else ("pass",))
                if _settle(g, extra, False, None, text) is _NAMED:
                    break
            if g.pending is None:
                raise JudgeError(n, text, [], "the game ended before a decision it answers")
        opts = option_texts(g)
        try:
            apply_text(g, text)
        except IllegalAction:
            raise JudgeError(n, text, opts, f"not an option of the {g.pending.kind if g.pending else '-'} "
                                            f"decision of player {g.pending.player if g.pending else '-'}") from None
    pol = [make_policy(policy, 1), make_policy(policy, 2)] if policy else None
    choice = None

    def stop_at(info: Any) -> bool:
        what, ph, p = info
        if until == "struggle":
            return what == "struggle"
        # the start of a phase: its "phase" pause, or for Kingdom / Confrontation its first turn
        begins = what == "phase" or (what == "turn" and p == g.players()[0])
        if until == "phase":
            return begins and (g.round_no, ph) != start
        if until == "round":
            return begins and ph == 0 and g.round_no != start[0]
        return False

    stopped = None
    if until == "decision":
        _settle(g, extra, False, None)
        if pol is not None and g.pending is not None:
            d = g.pending
            choice = action_text(g, pol[d.player].choose(g.view(d.player), d))
    else:
        while True:
            stopped = _settle(g, extra, pol is None, stop_at)
            if stopped is not None or g.pending is None:
                break
            d = g.pending
            if pol is None:
                break   # a decision that is not a window waits
            g.apply_action(pol[d.player].choose(g.view(d.player), d))
    pending = None
    if g.pending is not None and stopped is None:
        d = g.pending
        pending = {"player": d.player, "decision": d.kind, "options": option_texts(g)}
    pos = None
    if not g.is_terminal():
        try:
            pos = to_position(g)
        except ValueError:
            pos = None   # inside a struggle or a resolution: only the pending decision describes it
    return {"position": pos, "pending": pending, "choice": choice, "winner": g.winner,
            "reason": g.reason if g.winner is not None else None, "log": (g.logs or []) + extra}


class JudgeError(Exception):
    """An action of the judge's run that is not an option where it was due."""

    def __init__(self, index: int, action: Any, options: list[str], why: str):
        super().__init__(f"action {index} ({action!r}): {why}; the options there: "
                         f"{', '.join(options) if options else 'none'}")
        self.index = index
        self.action = action
        self.options = options
