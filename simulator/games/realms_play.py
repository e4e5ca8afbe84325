"""The realms playtest table and judge sandbox (/realms/play/, /realms/play/sandbox/): what the shared pages
(simulator/views_play.py, templates/simulator/play_*.html) ask of a game, for the Leaders, Places and Warriors duel
(rules 002_…).

- The person's side is a deck (a starter, one of their decks, a published decklist or a pasted list); the AI's too.
- The board is the engine's public board (simulator/engines/realms/replay.py board_of: both Settlements, the
  Borderlands and Strike Forces, Reserves, VP) plus the person's own hand; the AI's hand is only a count (002 §3).
- Options and log lines name cards by their names: an engine text names a card by its code or its label
  ("fb-058", "fb-001#2"), which the page never shows.
"""
from __future__ import annotations

import re

from simulator.engines import realms as engine
from simulator.engines.realms import replay as realms_replay
from simulator.engines.realms.state import Z_HAND

SLUG = "realms"
ENGINE_VERSION = engine.ENGINE_VERSION
IllegalAction = engine.IllegalAction
PositionError = engine.PositionError
HAS_DECKS = True
TRACK = {"name": "VP", "title": "Victory Points"}
IMAGES = f"/{SLUG}/cards/"   # a card's image is IMAGES + its code + ".png" (cards/game_views.py)
BOARD_TEMPLATE = "games/realms/_play_board.html"
REPLAY_TEMPLATE = "games/realms/play_replay.html"   # the run replay's page (games/realms/replay.html), extended
SANDBOX_HELP = ("A position is the game at a step of a turn: each player's Leader, Settlement, Borderlands, Strike "
                "Force, hand, deck and Reserve. Cards are named by their code in the position; the board and the "
                "options name them.")

TACTICS = {"left": "the Left Flank", "front": "the Front", "right": "the Right Flank"}
REWARDS = {"vp": "take the VP", "gold": "gain Gold", "discard": "make the opponent discard"}
KIND_HELP = {
    "leader": "Choose the Leader you reveal (§8).",
    "mulligan": "Keep this opening hand, or take the Gift of Fate: a new hand (§8).",
    "actions": "Your Actions step: build a Place, recruit or move a Warrior, play an Intrigue, form a Group — or "
               "be done (§10).",
    "cell": "Choose where the new Place goes in your Settlement (§10, §15).",
    "balance": "Resource Balancing: pay for what your cards consume, or discard what you cannot pay for (§12).",
    "attack": "Attack step: choose attackers, a target and a Tactic — or be done (§13).",
    "raid": "Raid step: choose a raid party and an exposed Place — or pass (§14).",
    "combat": "The fight: play an Intrigue or use an ability now — or pass (§13).",
    "raid_mods": "The raid: play an Intrigue or use an ability now — or pass (§14).",
    "reward": "Choose the raid's reward (§14).",
    "target": "Choose a target.",
    "take": "Choose the card to take.",
    "kill": "Choose the Warrior to kill.",
    "discard": "Choose the card to discard.",
    "recruit": "Choose where the Warrior goes.",
    "trigger": "Use this ability?",
}
PASSES = ("pass", "done", "keep", "no")
_LINE = re.compile(r"^T(\d+) P([01]) (.*)$")
_RULE = re.compile(r"^((?:\d{3} )?§[\d.]+|R\d+)[: ]\s*")


class SetupError(ValueError):
    """A side of the set-up form that cannot be played; `field` is the form's field to show it at."""

    def __init__(self, message: str, field: str):
        super().__init__(message)
        self.field = field


# ---------------------------------------------------------------- setting up
def side_choices(request, spec) -> dict:
    """What the set-up form lists for both sides: starters, my decks and published decklists (picks.py)."""
    from . import picks
    return {"decks": picks.options(request, spec)}


def read_side(request, spec, post, prefix: str) -> dict:
    """One side of the set-up form as the engine's deck part: {"name", "entries": [[card, n], ...]}. The side is
    a pasted list (`PREFIX_text`) or else a pick (`PREFIX_pick`: starter:NAME, deck:ID, decklist:ID)."""
    from cards.games import registry
    from cards.selectors import game_cards
    from decks.game_services import GameDeckError, read_text

    from . import picks
    label = "Your deck" if prefix == "deck" else "The AI's deck"
    text = (post.get(f"{prefix}_text") or "").strip()
    name = ""
    if len(text) > 20_000:
        raise SetupError(f"{label}: at most 20,000 characters", prefix)
    if not text:
        try:
            text, name = picks.resolve(request, spec, post.get(f"{prefix}_pick") or "")
        except picks.PickError as exc:
            raise SetupError(f"{label}: {exc}", prefix) from None
    cards = game_cards(spec.slug)
    try:
        counts = read_text(spec, text, cards)
    except GameDeckError as exc:
        raise SetupError(f"{label}: {exc.message} " + "; ".join(p["message"] for p in exc.problems), prefix) from None
    entries = [[c, n] for c, n in registry.entries(counts, cards)]
    try:
        deck = engine.build_deck([(c, n) for c, n in entries], name=name)
    except engine.DeckError as exc:
        raise SetupError(f"{label}: {exc}", prefix) from None
    if not name:
        name = "your pasted deck" if prefix == "deck" else "a pasted deck"
    return {"name": name, "entries": entries, "leaders": [d.title for d in deck.leaders]}


def _deck(part: dict):
    return engine.build_deck([(c, n) for c, n in part["entries"]], name=part.get("name", ""))


def new_game(mine: dict, theirs: dict, seed: int, first_player: int | None):
    """A game of the person's deck (player 0) against the AI's (player 1), logged, at its first decision."""
    return engine.Game(_deck(mine), _deck(theirs), seed=seed, first_player=first_player, log=True)


def ai_policy(policy: str, theirs: dict, seed: int):
    return engine.make_policy(policy, engine._policy_seed(seed, 1))


def option_texts(g) -> list[str]:
    return [g.action_text(o) for o in g.pending.options] if g.pending is not None else []


def winner(g):
    return g.winner


def reason(g) -> str:
    return {"vp": "reached the VP to win (§1)", "stalemate": "the round limit"}.get(g.reason or "", g.reason or "")


# ---------------------------------------------------------------- words
def _names_of(g) -> dict[str, tuple[str, int]]:
    """Every way an action text names a card (its label, and its code) -> (its name, its owner)."""
    out: dict[str, tuple[str, int]] = {}
    for i, d in enumerate(g.cdef):
        out[g.labels[i]] = (d.name, g.owner[i])
        out.setdefault(d.code, (d.name, g.owner[i]))
    return out


def _card(tok: str, names: dict, me: int) -> str:
    got = names.get(tok)
    if got is None:
        return tok
    name, owner = got
    return name if owner == me else f"the opponent's {name}"


def _cards(tok: str, names: dict, me: int) -> str:
    return " + ".join(_card(t, names, me) for t in tok.split("+"))


def _where(xy: str) -> str:
    x, _, y = xy.partition(",")
    try:
        x_, y_ = int(x), int(y)
    except ValueError:
        return xy
    parts = ([f"{abs(y_)} north"] if y_ > 0 else [f"{-y_} south"] if y_ < 0 else []) + (
        [f"{x_} east"] if x_ > 0 else [f"{-x_} west"] if x_ < 0 else [])
    return " and ".join(parts) + " of the Leader" if parts else "at the Leader"


def option_label(g, text: str, seat: int = 0) -> str:
    """An action text in words, cards by name: "recruit fb-058 strike" -> "Recruit Chaplain of the Dawn into the
    Strike Force"; cards of the other player are "the opponent's …"."""
    names = _names_of(g)
    w = text.split()
    if not w:
        return text
    verb, args = w[0], w[1:]

    def c(t):
        return _cards(t, names, seat)
    simple = {"keep": "Keep this hand", "mulligan": "Gift of Fate: a new hand", "done": "Done", "pass": "Pass",
              "yes": "Yes", "no": "No"}
    if verb in simple and not args:
        return simple[verb]
    if verb == "pay" and args == ["all"]:
        return "Pay for everything"
    if verb == "leader" and len(args) == 1:
        return f"Reveal {c(args[0])} as your Leader"
    if verb == "at" and len(args) == 1:
        return f"Place it {_where(args[0])}"
    if verb == "recruit" and len(args) == 2:
        zone = "the Strike Force" if args[1] == "strike" else "the Borderlands"
        return f"Recruit {c(args[0])} into {zone}"
    if verb == "play" and len(args) == 3:
        return f"Play {c(args[0])} on {c(args[2])}"
    if verb == "use" and len(args) == 2:
        return f"Use {c(args[0])} (ability {args[1]})"
    if verb == "group" and len(args) == 2:
        return f"Form a{'n' if args[0] == 'offensive' else ''} {args[0].title()} Group: {c(args[1])}"
    if verb == "attack" and len(args) == 3:
        return f"Attack {c(args[1])} with {c(args[0])} on {TACTICS.get(args[2], args[2])}"
    if verb == "raid" and len(args) == 3:
        target = "the opponent's Leader" if args[0] == "leader" else c(args[0])
        return f"Raid {target} on {TACTICS.get(args[1], args[1])} with {c(args[2])}"
    if verb == "reward" and len(args) == 1:
        return f"Reward: {REWARDS.get(args[0], args[0])}"
    if verb == "pay" and len(args) == 1:
        return f"Pay for {c(args[0])}"
    if len(args) == 1 and verb in ("build", "move", "play", "use", "discard", "target", "take", "kill"):
        return f"{verb.title()} {c(args[0])}"
    return " ".join([verb.title()] + [c(a) for a in args])


def is_pass(text: str) -> bool:
    return text in PASSES


def decision_help(g) -> str:
    d = g.pending
    return KIND_HELP.get(d.kind, d.kind.replace("_", " ").capitalize()) if d is not None else ""


def line(raw: str, names: tuple[str, str]) -> dict:
    """A log line in words: "T3 P0 002 §10 builds Farmstead at 0,1 (1 Gold)" -> who ("You", "AI (…)"), what
    ("build Farmstead at 0,1 (1 Gold)"), and the rule it cites (a link to the rulebook on the page)."""
    from simulator.playtest import with_subject
    m = _LINE.match(raw)
    if not m:
        return {"who": None, "text": raw, "seat": None, "rule": ""}
    seat = int(m.group(2))
    text = m.group(3)
    r = _RULE.match(text)
    rule = r.group(1) if r else ""
    text = text[r.end():] if r else text
    who, text = with_subject(names[seat], text)
    return {"who": who, "text": text, "seat": seat, "rule": rule}


def visible_line(raw: str, seat: int) -> str | None:
    """The log line as the person may read it: the realms log names no hidden card (a draw is a count)."""
    return raw


# ---------------------------------------------------------------- the board
def _hand(g, p: int) -> list[dict]:
    out = []
    for i in g.z[p][Z_HAND]:
        d = g.cdef[i]
        out.append({"code": d.code, "name": d.name, "label": g.labels[i]})
    return out


def board(g, names, *, judge: bool = False) -> dict:
    """What the table shows: the public board (both Realms), the person's hand (both hands for a judge) and
    the VP race."""
    b = realms_replay.board_of(g)
    target = b["target_vp"] or 1
    for p, pl in enumerate(b["players"]):
        pl["name"] = names[p]
        pl["seat"] = p
        pl["pct"] = min(100, round(100 * pl["vp"] / target))
        pl["hand_cards"] = _hand(g, p) if (p == 0 or judge) and not pl["goldfish"] else None
        pl["active"] = b["active"] == p and not b["over"]
    d = g.pending
    if d is not None and d.kind == "cell" and (d.player == 0 or judge):
        _mark_cells(b["players"][d.player]["settlement"], option_texts(g))
    b["score"] = [{"name": names[p], "value": pl["vp"], "of": b["target_vp"], "pct": pl["pct"], "seat": p}
                  for p, pl in enumerate(b["players"])]
    b["title"] = f"Turn {b['turn']} · {b['step_title']}"
    b["rule"] = b["step_rule"]
    return b


def _mark_cells(settlement: dict, options: list[str]) -> None:
    """The empty cells of the grid where the new Place may go (the "cell" decision's options `at X,Y`): each gets
    its option, so the page offers it on the grid itself."""
    filled = [c for row in settlement["rows"] for c in row if c]
    if not filled:
        return
    x0, y1 = min(c["x"] for c in filled) - 1, max(c["y"] for c in filled) + 1
    offered = set(options)
    for r, row in enumerate(settlement["rows"]):
        for k, c in enumerate(row):
            at = f"at {x0 + k},{y1 - r}"
            if c is None and at in offered:
                row[k] = {"empty": True, "at": at, "label": f"Place it {_where(at.split()[1])}"}


SHORT = {"build": "Build", "play": "Play", "discard": "Discard", "pay": "Pay"}


def hand_actions(g, options: list[dict]) -> dict[str, list[dict]]:
    """The options that name a card of the person's hand, by that card's code, each with a short verb: the card
    offers them too ("Build", "Play", "→ Strike Force")."""
    hand = {g.labels[i]: g.cdef[i].code for i in g.z[0][Z_HAND]}
    codes = set(hand.values())
    names = _names_of(g)
    out: dict[str, list[dict]] = {}
    for o in options:
        w = o["text"].split()
        if len(w) >= 2 and w[0] in ("build", "recruit", "play", "discard", "pay"):
            code = hand.get(w[1]) or (w[1] if w[1] in codes else None)
            if not code:
                continue
            if w[0] == "recruit" and len(w) == 3:
                verb = "→ Strike Force" if w[2] == "strike" else "→ Borderlands"
            elif w[0] == "play" and len(w) == 4:
                verb = f"Play on {_card(w[3], names, 0)}"
            else:
                verb = SHORT[w[0]]
            out.setdefault(code, []).append(dict(o, verb=verb))
    return out


# ---------------------------------------------------------------- the replay of a table game
def replay_board(g) -> dict:
    """The board a run's replay draws (both Realms in public, 002 §3: a hand is only its count)."""
    return realms_replay.board_of(g)


def replay_context(frame: dict, names) -> dict:
    """What games/realms/replay.html draws from a step's board besides the board (seat 0 is "You")."""
    from simulator.games.realms_replay import board_context
    return board_context(frame, names, your_turn="Your")   # the page reads "· Your turn", "· AI (…)'s turn"


# ---------------------------------------------------------------- the sandbox
def load_position(pos: dict):
    from cards.selectors import game_cards
    catalogue = {c["code"]: c for c in game_cards(SLUG)} or None
    return engine.from_position(pos, catalogue, log=True)


def to_position(g) -> dict | None:
    try:
        return engine.to_position(g)
    except PositionError:
        return None


def sample_position() -> dict:
    """A position to start from: two starters at the first turn's Actions step (a game played to there)."""
    decks = engine.starter_decks()
    keys = sorted(decks)
    g = engine.Game(decks[keys[0]], decks[keys[1]], seed=1, first_player=0, log=False)
    for _ in range(200):
        if g.pending is None or g.pending.kind == "actions":
            break
        g.apply_action(g.pending.options[0])
    return engine.to_position(g)


def seat_names(g) -> tuple[str, str]:
    """Each side by its Leader's name (a side with no Leader revealed yet: by its seat)."""
    out = []
    for p, default in ((0, "The first seat"), (1, "The second seat")):
        i = g.leader[p]
        out.append(g.cdef[i].name if i >= 0 else default)
    return tuple(out)
