"""The regions playtest table and judge sandbox (/regions/play/, /regions/play/sandbox/): what the shared pages
(simulator/views_play.py, templates/simulator/play_*.html) ask of a game, for Heroes and Regions (rules 003_…).

A regions player has no deck to bring (each Hero starts with its fixed deck of 8, 003 §2): the person picks a Hero
and plays every decision of it; the AI plays a strategy (a shipped one or a pasted text,
docs/games/regions-strategies.md), Fast by its rules as written or Strong searching over them. The board is the five
Regions with both players' Stacks, the Market and the Recognition track; the person sees their own Hand and Pocket,
the AI's only as counts (003: Hand and Pocket are private), and a log line naming the AI's drawn cards is shown as
a count.
"""
from __future__ import annotations

import re

from simulator.engines import regions as engine
from simulator.engines.regions import replay as regions_replay

SLUG = "regions"
ENGINE_VERSION = engine.ENGINE_VERSION
IllegalAction = engine.IllegalAction
PositionError = engine.PositionError
HAS_DECKS = False
TRACK = {"name": "Recognition", "title": "Recognition"}
IMAGES = f"/{SLUG}/cards/"   # a card's image is IMAGES + its code + ".png" (cards/game_views.py)
BOARD_TEMPLATE = "games/regions/_play_board.html"
REPLAY_TEMPLATE = "games/regions/play_replay.html"   # the run replay's page (games/regions/replay.html), extended
SANDBOX_HELP = ("A position is the game at a decision: each player's Hero, Level, Hand, Pocket, Deck and Stacks at "
                "the five Regions, the Market and the Recognition pile. Cards are named by their code in the "
                "position; the board and the options name them.")
MAX_TURNS = 60
KIND_HELP = {
    "hero": "Hero phase: stash cards into your Pocket, level up — or be done (§3).",
    "purchase": "Purchase phase: buy cards with your Goods — or be done (§4).",
    "pocket": "End of the Purchase phase: take cards from your Pocket into your Hand — or be done (§4.2).",
    "capacity": "Your Pocket is over its capacity: choose the card to take out (§4.2).",
    "position": "Position phase: place cards at the Regions — or be done (§5).",
    "contest": "Contest phase: place more cards at contested Regions — or be done (§6).",
    "target": "Choose a target.",
    "region": "Choose a Region.",
    "yes_no": "Use this ability?",
    "trash": "Choose a card to trash, or none.",
}
PASSES = ("done", "no", "trash none")
PHASE_TITLES = {"hero": "Hero phase", "purchase": "Purchase phase", "position": "Position phase",
                "contest": "Contest phase", "cleanup": "Damage & Clean Up", "over": "Game over"}
_LINE = re.compile(r"^T(\d+) (\w+)(?: p(\d))? ?(.*)$")
_RULE = re.compile(r"^(\d{3} §[\d.]+)\s*:?\s*")
_SETUP = re.compile(r"p0 ([^,;]+), p1 ([^,;]+); p([01]) has Priority on the first turn")
_POCKET = re.compile(r"\b(moves|takes) .+? (from the (?:Hand to the Pocket|Pocket into the Hand))")
_DRAWN = re.compile(r"\bdraws (\d+) \([^)]*\)")


class SetupError(ValueError):
    def __init__(self, message: str, field: str):
        super().__init__(message)
        self.field = field


def _cardset():
    return engine.CardSet.default()


# ---------------------------------------------------------------- setting up
def side_choices(request, spec) -> dict:
    """The Heroes the person can play and the strategies the AI can play (picks.py)."""
    from . import picks
    return {"heroes": [(h.code, h.name) for h in _cardset().heroes], "strategies": picks.options(request, spec)["strategies"]}


def read_side(request, spec, post, prefix: str) -> dict:
    """The person's side: {"hero": code, "name": the Hero's name}; the AI's: {"strategy": text, "hero", "name"}
    (a pasted strategy, else a shipped one: `opponent_pick` strategy:NAME)."""
    from simulator.engines.regions.strategy import StrategyError

    from . import picks
    cs = _cardset()
    if prefix == "deck":
        code = (post.get("deck_hero") or "").strip()
        hero = next((h for h in cs.heroes if h.code == code or h.name == code), None)
        if hero is None:
            raise SetupError("Your Hero: choose one of the Heroes in the list", prefix)
        return {"hero": hero.code, "name": hero.name}
    text = (post.get("opponent_text") or "").strip()
    name = ""
    if len(text) > 20_000:
        raise SetupError("The AI's strategy: at most 20,000 characters", prefix)
    if not text:
        try:
            text, name = picks.resolve(request, spec, post.get("opponent_pick") or "")
        except picks.PickError as exc:
            raise SetupError(f"The AI's strategy: {exc}", prefix) from None
    try:
        strategy = engine.parse_strategy(text, cs)
    except StrategyError as exc:
        raise SetupError(f"The AI's strategy: {exc}", prefix) from None
    return {"strategy": text, "hero": strategy.hero.code, "name": name or strategy.name or "a pasted strategy"}


def new_game(mine: dict, theirs: dict, seed: int, first_player: int | None):
    return engine.Game(_cardset(), [mine["hero"], theirs["hero"]], seed=seed, first_player=first_player,
                       max_turns=MAX_TURNS, log=True)


def ai_policy(policy: str, theirs: dict, seed: int):
    from simulator.engines.regions.search import make_search
    strategy = engine.parse_strategy(theirs["strategy"], _cardset())
    pseed = engine.policy_seed(seed, 1)
    if policy.startswith("search"):
        return make_search(strategy, pseed, policy)
    return engine.make_policy(strategy, pseed)


def option_texts(g) -> list[str]:
    return [g.action_text(o) for o in g.pending.options] if g.pending is not None else []


def winner(g):
    return g.winner


def reason(g) -> str:
    return {"recognition": "the Recognition pile ran out (§9)", "turns": "the turn limit"}.get(
        g.reason or "", (g.reason or "").replace("_", " "))


# ---------------------------------------------------------------- words
def option_label(g, text: str, seat: int = 0) -> str:
    """The engine's texts already name cards; a player is "yours" or "the opponent's", never "p0"."""
    out = re.sub(r"\bof p(\d)\b", lambda m: "of yours" if int(m.group(1)) == seat else "of the opponent's", text)
    out = {"done": "Done", "yes": "Yes", "no": "No", "trash none": "Trash nothing"}.get(out, out)
    return out[:1].upper() + out[1:]


def is_pass(text: str) -> bool:
    return text in PASSES


def decision_help(g) -> str:
    d = g.pending
    return KIND_HELP.get(d.kind, d.kind.replace("_", " ").capitalize()) if d is not None else ""


def visible_line(raw: str, seat: int) -> str | None:
    """The line as player `seat` may read it: another player's draw is a count, and a card it moves between its
    Hand and its Pocket is "a card" (003: the Hand and the Pocket are private)."""
    m = _LINE.match(raw)
    if m and m.group(3) is not None and int(m.group(3)) != seat:
        raw = _DRAWN.sub(lambda k: f"draws {k.group(1)}", raw)
        # the Pocket is face down (003 §2): a card moved between it and the Hand is "a card"
        raw = _POCKET.sub(lambda k: f"{k.group(1)} a card {k.group(2)}", raw)
    return raw


def line(raw: str, names: tuple[str, str]) -> dict:
    """"T1 Purchase p0 003 §4.2: buys Silver for 2 Goods" -> who (the player's name), what ("buy Silver for 2
    Goods"), the rule it cites."""
    from simulator.playtest import with_subject
    m = _LINE.match(raw)
    if not m:
        return {"who": None, "text": raw, "seat": None, "rule": ""}
    seat = int(m.group(3)) if m.group(3) is not None else None
    text = m.group(4)
    r = _RULE.match(text)
    rule = r.group(1) if r else ""
    text = (text[r.end():] if r else text).lstrip(": ")
    setup = _SETUP.search(text)
    if setup:   # 003 §2: "p0 Corin Vale, p1 Asha Thorne; p0 has Priority on the first turn"
        first = names[int(setup.group(3))]
        text = (f"{names[0]} play{'' if names[0] == 'You' else 's'} {setup.group(1)}, {names[1]} plays "
                f"{setup.group(2)}; {first} {'have' if first == 'You' else 'has'} Priority on the first turn")
    text = re.sub(r"\bp([0-3])'s\b", lambda k: f"{names[int(k.group(1))]}'s" if int(k.group(1)) < 2 else k.group(0), text)
    text = re.sub(r"\bp([0-3])\b", lambda k: names[int(k.group(1))] if int(k.group(1)) < 2 else k.group(0), text)
    text = text.replace("You's", "your")
    who, text = with_subject(names[seat] if seat is not None and seat < 2 else None, text)
    return {"who": who, "text": text, "seat": seat, "rule": rule}


# ---------------------------------------------------------------- the board
def _cards(cs_cards) -> list[dict]:
    return [{"code": c.code, "name": c.name} for c in cs_cards]


def board(g, names, *, judge: bool = False) -> dict:
    """The five Regions with both Stacks, the Market and standing piles, the Recognition race, and the person's
    Hand and Pocket (both players' for a judge)."""
    b = regions_replay.board(g)
    top = max([b["recognition_total"]] + [p["score"] for p in b["players"]]) or 1
    for p, pl in enumerate(b["players"]):
        pl["name"] = names[p] if p < len(names) else f"player {p + 1}"
        pl["seat"] = p
        pl["pct"] = min(100, round(100 * pl["score"] / top))
        pl["hand_cards"] = _cards(g.hand[p]) if p == 0 or judge else None
        pl["pocket_cards"] = _cards(g.pocket[p]) if p == 0 or judge else None
        pl["active"] = g.pending is not None and g.pending.player == p
    for r in b["regions"]:
        r["controller"] = names[r["control"]] if r["control"] is not None and r["control"] >= 0 else None
        r["sides"] = [{"seat": p, "name": names[p], "cards": r["stacks"][p], "damage": r["damage"][p],
                       "health": r["health"][p]} for p in (1, 0)]
    b["score"] = [{"name": pl["name"], "value": pl["score"], "of": None, "pct": pl["pct"], "seat": p}
                  for p, pl in enumerate(b["players"])]
    phase = b["phase"]
    b["title"] = f"Turn {b['turn']} · {PHASE_TITLES.get(phase, phase.title())}"
    b["rule"] = {"hero": "003 §3", "purchase": "003 §4", "position": "003 §5", "contest": "003 §6",
                 "cleanup": "003 §7"}.get(phase, "")
    return b


def hand_actions(g, options: list[dict]) -> dict[str, list[dict]]:
    """The options that name a card of the person's Hand or Pocket, by that card's code, each with a short verb
    ("Stash", "→ Ios")."""
    by_name = {c.name: c.code for c in list(g.hand[0]) + list(g.pocket[0])}
    out: dict[str, list[dict]] = {}
    for o in options:
        m = re.match(r"^(stash|play|use|place|take|trash) (.+?)(?: at (.*)| (\d+))?$", o["text"])
        if m and m.group(2) in by_name:
            verb = f"→ {m.group(3)}" if m.group(3) else m.group(1).title() + (f" {m.group(4)}" if m.group(4) else "")
            out.setdefault(by_name[m.group(2)], []).append(dict(o, verb=verb))
    return out


# ---------------------------------------------------------------- the replay of a table game
def replay_board(g) -> dict:
    """The board a run's replay draws: the Regions, the Market and the Recognition in public, each player's Hand,
    Pocket and Deck only as counts (003 §2)."""
    return regions_replay.board(g)


def replay_context(frame: dict, names) -> dict:
    """What games/regions/replay.html draws from a step besides the board: the Heroes, each Region's two Stacks,
    the phases, the Recognition track (the run replay's own helpers, simulator/games/regions_replay.py) and the
    decision taken there — in words, and only the person's: the AI's (a card stashed in its face-down Pocket)
    shows in the next step's log as the table told it."""
    from .regions_replay import PHASE_LABELS, PHASES, _stack_rows, _track
    board = frame["board"]
    n = len(board["players"])
    players = [dict(p, index=i, name=names[i] if i < len(names) else f"player {i + 1}")
               for i, p in enumerate(board["players"])]
    return {"players": players, "regions": [dict(r, rows=_stack_rows(r, n), number=k + 1)
                                            for k, r in enumerate(board["regions"])],
            "phase_label": PHASE_LABELS.get(board["phase"], board["phase"]),
            "phases": [{"key": k, "label": PHASE_LABELS[k], "now": k == board["phase"]} for k in PHASES],
            "track": _track(board["players"], board["recognition_total"]),
            "step": {"decision": frame["kind"] if frame["label"] else None, "player": frame["actor"],
                     "action": frame["label"], "setup": frame["first"]},
            "actor": names[frame["actor"]] if frame["label"] else None}


# ---------------------------------------------------------------- the sandbox
def load_position(pos: dict):
    return engine.Game.from_position(pos, _cardset(), log=True)


def to_position(g) -> dict | None:
    try:
        return g.to_position()
    except (PositionError, ValueError):
        return None


def sample_position() -> dict:
    """A position to start from: the first two Heroes at the first Hero phase."""
    cs = _cardset()
    g = engine.Game(cs, [cs.heroes[0].code, cs.heroes[1].code], seed=1, first_player=0, max_turns=MAX_TURNS)
    return g.to_position()


def seat_names(g) -> tuple[str, str]:
    """Each side by its Hero's name."""
    return tuple(h.name for h in g.heroes[:2])
