"""Small card dicts and a driver for pinned rule scenarios (no database, no Django).

Scenario tests build a `Game` without starting it, lay out the exact position they need with `field()`,
`to_hand()` and `set_quest()`, then run one rule procedure (a struggle, a phase, leaving play) with `drive()`,
which answers every decision from a script (and with a neutral default when the script has nothing to say).
"""
from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

from simulator.engines.r1 import build_deck
from simulator.engines.r1.game import DECK, DONE, FIELD, HAND, NO, PASS, YES, Game

ROOT = Path(__file__).resolve().parents[4]
CORE = ROOT / "cards" / "data" / "core.json"
STARTERS = ROOT / "cards" / "data" / "starters"


def card(code: str, type: str = "unit", faction: str = "camelot", **kw) -> dict:
    c = {"code": code, "name": kw.pop("name", code.replace("-", " ").title()), "type": type, "faction": faction}
    if type == "unit":
        c.update({"cost": 2, "power": 2, "icons": ["combat", "guile", "sorcery", "faith"]})
    elif type in ("location", "attachment", "deed"):
        c.update({"cost": 1})
    elif type == "quest":
        c.update({"wealth": 4, "momentum": 1, "spoils": 1, "levy": 7})
    c.update(kw)
    return c


FACTION = card("camelot-faction", "faction", name="Camelot")
QUEST = card("quest", "quest", name="Plain Quest")
FILLER = card("filler", "unit", name="Filler", cost=9, power=1, icons=[])


def make_deck(*entries, faction=FACTION, quests=None, destiny=None, filler=40):
    """A deck of the given (card, count) pairs (or bare cards, count 3) plus filler units."""
    pairs = [(faction, 1)]
    if destiny is not None:
        pairs.append((destiny, 1))
    for q in quests or [QUEST]:
        pairs.append((q, 7 if quests is None else 1))
    for e in entries:
        pairs.append(e if isinstance(e, tuple) else (e, 3))
    if filler:
        pairs.append((FILLER, filler))
    return build_deck(pairs)


def new_game(deck_a, deck_b=None, seed=0, first=0) -> Game:
    """A game laid out but not started: decks unshuffled, hands empty, round 1, `first` is the first player."""
    g = Game(deck_a, deck_b, seed=seed, first_player=first, autostart=False)
    g.first = first
    g.round_no = 1
    return g


def two_player(*entries, **kw) -> Game:
    """Both players with the same deck of `entries` (make_deck), laid out by new_game, each on a quest."""
    d = make_deck(*entries, **kw)
    g = new_game(d, d)
    set_quest(g, 0)
    set_quest(g, 1)
    return g


def find(g: Game, p: int, code: str, zone: int = DECK) -> int:
    for i, d in enumerate(g.cdef):
        if d.code == code and g.owner[i] == p and g.zone[i] == zone:
            return i
    raise LookupError(f"no {code} for player {p} in zone {zone}")


def field(g: Game, p: int, code: str, exhausted: bool = False) -> int:
    i = find(g, p, code)
    g._move(i, FIELD, p)
    g.exh[i] = 1 if exhausted else 0
    return i


def to_hand(g: Game, p: int, code: str) -> int:
    i = find(g, p, code)
    g._move(i, HAND, p)
    return i


def set_quest(g: Game, p: int, code: str | None = None) -> int:
    from simulator.engines.r1.game import QUEST as QZONE
    q = next(i for i in g.qdeck[p] if code is None or g.cdef[i].code == code)
    g.qdeck[p].remove(q)
    g.quest[p] = q
    g.zone[q] = QZONE
    g._statics_cache = None
    return q


def attach(g: Game, p: int, code: str, host: int) -> int:
    i = field(g, p, code)
    g.host[i] = host
    return i


def default_choice(dec):
    opts = dec.options
    if dec.kind in ("window", "react"):
        return PASS
    if dec.kind in ("attackers", "defenders", "search", "setup") and DONE in opts:
        return DONE
    if dec.kind in ("onwin", "dup_save"):
        return YES
    if dec.kind in ("mulligan", "subtle", "compel"):
        return NO
    return opts[0]


def drive(gen, script=(), default=default_choice, seen=None):
    """Run a rule procedure to its end. `script` items are actions or callables dec -> action | None; each
    decision takes the first unused item that is legal for it. Returns the decisions seen."""
    script = list(script)
    seen = [] if seen is None else seen
    try:
        dec = next(gen)
        while True:
            seen.append(dec)
            action = None
            for k, item in enumerate(script):   # the first script item that fits this decision
                cand = item(dec) if callable(item) else item
                if cand is not None and cand in dec.options:
                    action = cand
                    del script[k]
                    break
            if action is None:
                action = default(dec)
            dec = gen.send(action)
    except StopIteration as stop:
        seen.append(("returned", stop.value))
    return seen


@lru_cache(maxsize=None)
def core_cards() -> tuple:
    return tuple(json.loads(CORE.read_text(encoding="utf-8"))["cards"])


def core_by_name() -> dict:
    out = {}
    for c in core_cards():
        out[c["name"].lower()] = c
        if c.get("subtitle"):
            out[f"{c['name']}, {c['subtitle']}".lower()] = c
    return out


def core_card(code: str) -> dict:
    return next(c for c in core_cards() if c["code"] == code)


def starter_entries(path: Path) -> list[tuple[dict, int]]:
    """Resolve a starter decklist (`3x Name` lines under headers) against core.json, without the decks app."""
    names = core_by_name()
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        m = re.match(r"^\s*(\d+)\s*x\s+(.+?)\s*$", line)
        if m:
            key = m.group(2).lower().replace("\u2019", "'")
            if key not in names:
                raise LookupError(f"{path.name}: unknown card {m.group(2)!r}")
            out.append((names[key], int(m.group(1))))
    return out


@lru_cache(maxsize=None)
def starter_decks() -> dict:
    return {p.stem: build_deck(starter_entries(p)) for p in sorted(STARTERS.glob("*.txt"))}


# ---- positions (CONTRACTS §6): the tests' way in --------------------------------------------------------------
# A scenario is a position of the small cards above, run by the judge with action texts, and read back as the
# position the run ends in (its log cites the rule of each step). No private method of the engine is called.
def catalogue(*cards) -> dict:
    """The catalogue of a scenario: the faction, quest and filler above plus `cards`, by code."""
    return {c["code"]: c for c in (FACTION, QUEST, FILLER, *cards)}


def side(field=(), hand=(), deck=None, **more) -> dict:
    """One player of a position. A field entry is a code, or a dict of CONTRACTS §6 (`{"card": c, "id": "x",
    "exhausted": True, "attachments": [...]}`); `deck` is top first (default: ten fillers)."""
    out = {"faction": FACTION["code"], "quest": QUEST["code"],
           "field": [e if isinstance(e, dict) else {"card": e} for e in field], "hand": list(hand),
           "deck": list(deck) if deck is not None else [FILLER["code"]] * 10}
    out.update(more)
    return out


def position(me=None, them=None, *, phase="confrontation", active=0, first=0, **more) -> dict:
    """A position of player 0 (`me`, a `side`) and player 1 (`them`), by default at the start of player 0's
    Confrontation turn in round 1."""
    pos = {"game": "r1", "seed": 0, "round": 1, "phase": phase, "first_player": first, "active_player": active,
           "players": [me if me is not None else side(), them if them is not None else side()]}
    pos.update(more)
    return pos


def load(pos: dict, cards, **kw) -> Game:
    """The game of `pos` (from_position), logging, pausing at every boundary (a struggle's, a turn's, a phase's
    end) so that a test can stop there; its first decision is pending."""
    from simulator.engines.r1.positions import from_position
    return from_position(pos, catalogue(*cards), log=True, stops=True, **kw)


WINDOW_VERBS = ("pass", "play", "secret", "reveal", "haste", "use", "struggle")


def _step_alone(g: Game) -> bool:
    """Take a boundary, or a decision with one option (CONTRACTS §6: taken by itself); False if one waits."""
    from simulator.engines.r1.actions import apply_text, option_texts
    d = g.pending
    if d is None:
        return False
    if d.kind == "boundary":
        g.apply_action(d.options[0])
        return True
    opts = option_texts(g)
    if len(opts) == 1:
        apply_text(g, opts[0])
        return True
    return False


def play(g: Game, *actions: str) -> Game:
    """Apply action texts as CONTRACTS §6 says: single-option decisions are taken by themselves (an action naming
    that very option is consumed there), and an action that is not a window verb passes the windows before it."""
    from simulator.engines.r1.actions import apply_text, option_texts
    for n, text in enumerate(actions):
        while True:
            d = g.pending
            assert d is not None, f"action {n} ({text!r}): the game is over"
            if d.kind == "boundary":
                g.apply_action(d.options[0])
                continue
            opts = option_texts(g)
            if len(opts) == 1 and text != opts[0]:
                apply_text(g, opts[0])
                continue
            if d.kind in ("window", "react") and text.split()[0] not in WINDOW_VERBS:
                g.apply_action(("pass",))
                continue
            apply_text(g, text)   # IllegalAction naming the options when it is not one
            break
    return g


def settle(g: Game) -> Game:
    """Take boundaries and single-option decisions until a decision with a choice waits (or the game ends)."""
    while _step_alone(g):
        pass
    return g


def finish(g: Game, until: str = "struggle") -> Game:
    """Run on, every window passing and single options taken, to the end of the struggle / turn / phase in
    progress (the boundary where the next one begins) or to a decision that waits (one that is not a window)."""
    start = (g.round_no, g.phase, g.active)
    while g.pending is not None:
        d = g.pending
        if d.kind == "boundary":
            what = d.info[0]
            now = (g.round_no, g.phase, g.active)
            if until == "struggle" and what == "struggle":
                return g
            if until == "turn" and what in ("turn", "phase") and now != start:
                return g
            if until == "phase" and what in ("turn", "phase") and now[:2] != start[:2]:
                return g
        if _step_alone(g):
            continue
        if d.kind in ("window", "react"):
            g.apply_action(("pass",))
            continue
        return g
    return g


def after(pos: dict, cards, *actions: str, until: str = "struggle"):
    """(game, position) after `actions` over `pos` and the run to the end of the `until` in progress."""
    from simulator.engines.r1.positions import to_position
    g = finish(play(load(pos, cards), *actions), until)
    return g, to_position(g)


def entry(pos: dict, player: int, code: str, zone: str = "field") -> dict:
    """The entry of the one card `code` in a player's zone of a position (a field entry, or {"card": code})."""
    found = [e if isinstance(e, dict) else {"card": e} for e in pos["players"][player][zone]
             if (e["card"] if isinstance(e, dict) else e) == code]
    assert len(found) == 1, f"player {player} has {len(found)} {code} in {zone}: {pos['players'][player][zone]}"
    return found[0]


def codes(pos: dict, player: int, zone: str) -> list[str]:
    """The codes of a player's zone of a position, in its order (a deck top first; a field without attachments)."""
    return [e["card"] if isinstance(e, dict) else e for e in pos["players"][player][zone]]


def logged(g: Game, *words: str) -> list[str]:
    """The log lines of a game that contain all `words`."""
    return [line for line in g.logs or () if all(w in line for w in words)]


def policy_turn(pos: dict, cards, policies) -> Game:
    """The game of `pos` after its active player's turn (or phase) played by `policies` (a pair, through
    `Game.play`: their public choose / declare / wants_window); the log kept."""
    from simulator.engines.r1.positions import from_position
    g = from_position(pos, catalogue(*cards), log=True, stops=True, policies=policies)
    start = (g.round_no, g.phase, g.active)
    while True:
        g.play(stop=lambda game, dec: dec.kind == "boundary")   # policies never see a boundary (not a choice)
        d = g.pending
        if d is None or (d.info[0] in ("turn", "phase") and (g.round_no, g.phase, g.active) != start):
            return g
        g.apply_action(d.options[0])
