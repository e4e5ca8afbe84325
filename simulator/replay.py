"""Game replays: any game of a simulation run played again from its run, index and seed, with a frame
per event — the board as a player sees it, the log line in plain words and the rule it cites.

Games are reproducible: `runner.run_chunk` gives game g of a run the g-th seed drawn from its chunk's
`random.Random(chunk_seed(run seed, chunk))`, and head-to-head games alternate the first player (g % 2). So
`game_args(spec, g)` finds the same arguments and `replay_game` plays the same game (it asserts nothing: a test
compares its outcome with `play_game`'s).

A board (`board_of`) is built from a `PlayerView` only (what that player may know): the fields, counters,
quests, Influence, counts of hands and decks; a hand is listed only for the viewer when asked (the playtest
table). Nothing hidden reaches a page.
"""
from __future__ import annotations

import random
import re
from typing import Any

from . import runner

PHASE_TITLES = {"quest": "Quest", "draw": "Draw", "kingdom": "Kingdom", "confrontation": "Confrontation",
                "authority": "Authority", "refresh": "Refresh", "toll": "Toll"}
PHASE_RULES = {"quest": "§5.1", "draw": "§5.2", "kingdom": "§5.3", "confrontation": "§5.4", "authority": "§5.5",
               "refresh": "§5.6", "toll": "§5.7"}
STRUGGLE_STEPS = ("declared", "attackers", "defenders", "totals", "resolved")
MAX_FRAMES = 3000

RULE_RE = re.compile(r"\s*(?:§\s?\d+(?:\.\d+)*(?:\s+S\.\d+)?|\b\d{3} §\s?\d+(?:\.\d+)*|\bS\.\d+|Appendix [A-Z])")
ROUND_RE = re.compile(r"^R(\d+)\s+")


class ReplayError(ValueError):
    """A game that cannot be replayed (no such game in the run, a hands run, an engine that changed)."""


# ---------------------------------------------------------------- which game
def game_args(spec: dict, index: int) -> dict:
    """The arguments `run_chunk` gave game `index` of the run `spec`: seed, first player, policies, max rounds."""
    mode = spec.get("mode")
    if mode not in ("goldfish", "versus"):
        raise ReplayError("only goldfish and head-to-head games can be replayed (a hands run plays no games)")
    games = int(spec["games"])
    if not isinstance(index, int) or not 0 <= index < games:
        raise ReplayError(f"game {index + 1 if isinstance(index, int) else index} is not in this run "
                          f"(it played {games} games)")
    for chunk, start, size in runner.chunk_plan(mode, games):
        if start <= index < start + size:
            rng = random.Random(runner.chunk_seed(spec["seed"], chunk))
            seed = 0
            for _ in range(index - start + 1):
                seed = rng.getrandbits(63)
            break
    settings = spec.get("settings") or {}
    pols = settings.get("policies") or [settings.get("policy", "greedy"), settings.get("opponent_policy", "greedy")]
    return {"seed": seed, "first_player": index % 2 if mode == "versus" else None,
            "policies": (str(pols[0]), str(pols[1])),
            "max_rounds": settings.get("max_rounds", runner.DEFAULT_MAX_ROUNDS)}


def _policy_seed(seed: int, player: int) -> int:
    from simulator.engines import r1 as engine
    return engine._policy_seed(seed, player)


# ---------------------------------------------------------------- which step a page shows
def step_targets(frames: list[dict], step: int) -> dict:
    """Where each stepping control goes from `step`: event, struggle (the step that declares it, §6.2 S.1-S.3)
    and round, back and forward."""
    n = len(frames)

    def find(rng, pred):
        return next((i for i in rng if pred(frames[i])), None)

    starts = [i for i in range(n) if i == 0 or frames[i]["round"] != frames[i - 1]["round"]]

    def struggle_start(f):
        return f.get("struggle_start") or any(DECLARE_RE.search(x) for x in f["raw"])
    return {
        "prev": step - 1 if step > 0 else None, "next": step + 1 if step < n - 1 else None,
        "first": 0, "last": n - 1,
        "prev_struggle": find(range(step - 1, -1, -1), struggle_start),
        "next_struggle": find(range(step + 1, n), struggle_start),
        "prev_round": max((i for i in starts if i < step), default=None),
        "next_round": min((i for i in starts if i > step), default=None),
    }


class StepError(Exception):
    """A replay address whose `?step=` is not a step of the game: `status` 400 (not a number) or 404 (none such)."""

    def __init__(self, message: str, status: int):
        super().__init__(message)
        self.status = status


def step_of(raw, total: int) -> int:
    """The replay step a hand-written `?step=` names (0 when absent): StepError when it is not a whole number or
    not one of the game's `total` steps, so an edited address is told so instead of shown another step."""
    if raw is None or raw == "":
        return 0
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 9:
        raise StepError(f"step: a whole number from 0 to {total - 1}, not {raw[:20]!r}.", 400)
    step = int(raw)
    if step >= total:
        raise StepError(f"This game has {total} steps (0 to {total - 1}); there is no step {step}.", 404)
    return step


def select_step(frames: list[dict], asked, url_prefix: str, targets=step_targets) -> tuple[int, dict, dict]:
    """The step a replay page shows and its stepping links: `asked` is the `?step=` text (`step_of`: StepError
    when it names no step), `url_prefix` the address a step number is appended to (ending in "?step=" or
    "&step="), `targets` the game's stepping controls (`step_targets`; realms has its own).
    Returns (step, its frame, {control: address or None})."""
    step = step_of(asked, len(frames))
    links = {k: (f"{url_prefix}{v}" if v is not None else None) for k, v in targets(frames, step).items()}
    return step, frames[step], links


# ---------------------------------------------------------------- the board as one player may know it
def _card(view, i: int, host_of: dict) -> dict:
    d = view.cdef[i]
    out = {"code": d.code, "name": d.name, "exhausted": bool(view.exh[i]), "emblems": int(view.emb[i]),
           "influence": int(view.cnt[i]), "power": None, "attachments": []}
    if d.type == "unit":
        try:
            out["power"] = view.power(i)
        except Exception:   # a card without Power (the engine answers for units only)
            out["power"] = None
    return out


def board_of(view, *, show_hand: bool = False, labels: dict | None = None) -> dict:
    """A JSON-able board from a PlayerView: what `view.player` may know, and the hand only with `show_hand`."""
    g = view._g   # read for the hosts of attachments only (public, §3.1)
    host = g.host
    players = []
    for p in (0, 1):
        if p == 1 and view.goldfish:
            players.append({"goldfish": True, "field": [], "influence": 0, "faction": None, "quest": None,
                            "hand": 0, "deck": 0, "secret": 0, "pool": 0, "discard": 0, "dead": 0})
            continue
        field = []
        by_id: dict[int, dict] = {}
        for i in view.field[p]:
            if i in host:
                continue
            c = _card(view, i, host)
            by_id[i] = c
            field.append(c)
        for q in (0, 1):
            for a in view.field[q]:
                h = host.get(a)
                if h is not None and h in by_id:
                    by_id[h]["attachments"].append(_card(view, a, host))
        fac = view.faction_iid[p]
        qi = view.quest[p]
        row: dict[str, Any] = {
            "goldfish": False,
            "faction": {"code": view.cdef[fac].code, "name": view.cdef[fac].name} if fac >= 0 else None,
            "influence": view.influence(p), "faction_influence": int(view.infl[p]), "pool": int(view.pool[p]),
            "quest": {"code": view.cdef[qi].code, "name": view.cdef[qi].name} if qi >= 0 else None,
            "hand": view.hand_count(p), "deck": view.deck_count(p), "secret": view.secret_count(p),
            "discard": len(view.discard[p]), "dead": len(view.dead[p]), "field": field,
        }
        if show_hand and p == view.player:
            row["hand_cards"] = [{"code": view.cdef[i].code, "name": view.cdef[i].name} for i in view.my_hand]
            row["secret_cards"] = [{"code": view.cdef[i].code, "name": view.cdef[i].name} for i in view.my_secret]
        players.append(row)
    from cards.games.r1.facts import ICONS as STRUGGLE_TYPES, PHASES
    phase = PHASES[view.phase] if 0 <= view.phase < len(PHASES) else "setup"
    s = view.struggle
    struggle = None
    if s is not None:
        if s.winner is not None or s.margin:
            step = "resolved"
        elif s.declared_defenders or s.defenders:
            step = "defenders"
        elif s.declared_attackers or s.attackers:
            step = "attackers"
        else:
            step = "declared"
        struggle = {"type": STRUGGLE_TYPES[s.type], "attacker": s.attacker, "step": step,
                    "attackers": [view.cdef[i].name for i in s.attackers],
                    "defenders": [view.cdef[i].name for i in s.defenders]}
    return {"round": view.round_no, "phase": phase, "phase_title": PHASE_TITLES.get(phase, "Setup"),
            "phase_rule": PHASE_RULES.get(phase, "§4"),
            "active": view.active if phase in ("kingdom", "confrontation") else None,
            "first": view.first, "authority": view.authority if view.authority in (0, 1) else None,
            "players": players, "struggle": struggle}


# ---------------------------------------------------------------- log lines in plain words
CODE_RE = re.compile(r"\b[a-z][a-z0-9]*(?:-[a-z0-9]+)+\b")


def plain_line(line: str, names: tuple[str, str], cards: dict[str, str] | None = None) -> dict:
    """{"text", "rules", "round"}: the engine's log line without its round and rule codes, with deck names for
    "player 0/1", card names for card codes (`cards`), and the rules it cited (shown as small links)."""
    m = ROUND_RE.match(line)
    rnd = int(m.group(1)) if m else None
    body = line[m.end():] if m else line
    rules = [r.strip() for r in RULE_RE.findall(body)]
    text = RULE_RE.sub("", body).strip()
    for phase in PHASE_TITLES.values():   # "Confrontation Combat: ..." reads after the phase is dropped
        if text.startswith(phase + " ") and len(text) > len(phase) + 1:
            text = text[len(phase) + 1:]
            break
    text = re.sub(r"\bplayer ([01])\b", lambda k: names[int(k.group(1))], text)
    if cards:
        text = CODE_RE.sub(lambda k: cards.get(k.group(0), k.group(0)), text)
    if "You" in names:   # the playtest table: "You gains" -> "You gain"
        text = re.sub(r"\bYou (\w+)\b", lambda k: "You " + _plural_verb(k.group(1)), text)
    text = re.sub(r"\s{2,}", " ", text).strip(" :")
    if text:
        text = text[0].upper() + text[1:]
    return {"text": text, "rules": rules, "round": rnd}


def _plural_verb(word: str) -> str:
    special = {"has": "have", "is": "are", "was": "were", "does": "do"}
    if word in special:
        return special[word]
    if word.endswith(("ches", "shes", "sses", "xes", "zes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith("ss") and len(word) > 2:
        return word[:-1]
    return word


def rule_url(rule: str) -> str | None:
    """Where a rule reference points: the rules page's anchor for its section (roc_site/rulebook.py)."""
    from roc_site.rulebook import rule_href
    return rule_href(rule)


# ---------------------------------------------------------------- events in plain words
DECLARE_RE = re.compile(r"player ([01]) declares an? (\w+) struggle")
RESULT_RE = re.compile(r"S\.8 (\w+): (\d+) vs (\d+), (attacker|defender) wins, margin (\d+)")


class Narrator:
    """Log lines as events in plain words, one at a time: keeps who attacks the current struggle so a result
    reads "Camelot wins the Faith struggle 4–0, attacking (margin 4)" instead of the engine's "attacker wins"."""

    def __init__(self, names: tuple[str, str], cards: dict[str, str] | None = None):
        self.names = names
        self.cards = cards or {}
        self.attacker: int | None = None

    def line(self, raw: str) -> dict:
        pl = plain_line(raw, self.names, self.cards)
        m = DECLARE_RE.search(raw)
        if m:
            self.attacker = int(m.group(1))
        m = RESULT_RE.search(raw)
        if m and self.attacker is not None:
            who = self.attacker if m.group(4) == "attacker" else 1 - self.attacker
            won, lost = (m.group(2), m.group(3)) if who == self.attacker else (m.group(3), m.group(2))
            pl["text"] = (f"{self.names[who]} {'win' if self.names[who] == 'You' else 'wins'} the {m.group(1)} "
                          f"struggle {won}–{lost}, {'attacking' if who == self.attacker else 'defending'} "
                          f"(margin {m.group(5)})")
            pl["winner"] = who
        return pl


# ---------------------------------------------------------------- replaying
class _Recorder:
    """Wraps a policy: answers exactly as it does (its shortcuts too), and records each decision's text. The
    shortcuts (`wants_window`, `declare`) are asked at each action window and declaration, so they are also where
    the game is looked at (`on_point`); a declaration answered at once is told to `on_declare` (its picks)."""

    def __init__(self, policy, on_choice, on_point=None, on_declare=None):
        self._p = policy
        self._on = on_choice
        self._point = on_point
        self._on_declare = on_declare
        if hasattr(policy, "ability_filter"):
            self.ability_filter = policy.ability_filter
        if hasattr(policy, "wants_window"):
            self.wants_window = self._wants_window
        if hasattr(policy, "declare"):
            self.declare = self._declare

    def _wants_window(self, game, p, kind):
        if self._point is not None:
            self._point()
        return self._p.wants_window(game, p, kind)

    def _declare(self, game, kind, p, elig, t):
        if self._point is not None:
            self._point()
        offered = list(elig)   # the policy may use its list as it likes
        picks = self._p.declare(game, kind, p, elig, t)
        if self._on_declare is not None:
            self._on_declare(kind, p, offered, list(picks))
        return picks

    def choose(self, view, decision):
        a = self._p.choose(view, decision)
        self._on(view, decision, a)
        return a


def card_names_of(g) -> dict[str, str]:
    """code -> name of every card of a game, to read an action text's codes as names."""
    out: dict[str, str] = {}
    for d in g.cdef:
        if d is not None and getattr(d, "code", None):
            out.setdefault(d.code, d.name)
    return out


def _board_now(g, player: int = 0) -> dict | None:
    """The board of `player`'s view now, read in the middle of the rules (the engine's log hook): Power is worked
    out without touching the engine's Power memo; None if the state cannot be read at this moment."""
    saved = g._pcache
    g._pcache = None
    try:
        return board_of(g.view(player))
    except Exception:   # a state half-way through a change: the board taken at the next point serves
        return None
    finally:
        g._pcache = saved


def _position_now(g) -> dict | None:
    """The CONTRACTS §6 position of the game now, when one loaded from it goes on exactly from here: inside a
    Kingdom or Confrontation turn (its start, a window of it, after a struggle), which is where a position is
    taken. Anywhere else (a window of the Quest, Draw, Authority, Refresh or Toll phase, the end of a phase) a
    position says "the start of this phase", and a game loaded from it would play the phase again from its start
    (the Authority emblem's Influence a second time, the Refresh phase's readying after it): None there."""
    from simulator.engines.r1.game import CONFRONT_P, KINGDOM_P
    from simulator.engines.r1.positions import to_position
    if g.phase not in (KINGDOM_P, CONFRONT_P) or g.active < 0:
        return None
    try:
        return to_position(g)
    except ValueError:
        return None


def _info(decision) -> int | None:
    info = decision.info
    return info if isinstance(info, int) and not isinstance(info, bool) else None


def replay_game(deck_a, deck_b, *, seed: int, first_player, policies=("greedy", "greedy"), max_rounds: int = 50,
                names=("Deck", "Opponent")) -> dict:
    """Play the game again and return {"frames": [...], "trail": [...], "winner", "reason", "rounds", ...}.

    A frame is one event: one log line (`raw`, and `lines` holding it in plain words; `log_index`, its place in
    the game's log), the board right after it (the engine's `log_hook` takes one at each line), and, on the last
    event before a decision, that decision (`actor`, `action`). The game is also looked at at every decision,
    action window, declaration, struggle end and phase end (the engine's observer hook and the policies'
    shortcuts): there `position` is the CONTRACTS §6 position when one can be taken (between steps), and
    `base_position` is the last one taken before the event (`base_log`: the log's length then, `base_trail`: the
    trail's). The trail lists the decisions made, in order, as action texts: {"n": log length when it was asked,
    "kind", "player", "info", "text", "single": only one option}, a declaration answered at once by a policy's
    shortcut as one (`attack a b`, `defend none`) — what `sandbox.at_replay_step` replays from a base position."""
    from simulator.engines import r1 as engine
    from simulator.engines.r1.actions import action_text, names_for, option_texts

    pols = [engine.make_policy(policies[0], _policy_seed(seed, 0)),
            engine.make_policy(policies[1], _policy_seed(seed, 1))]
    frames: list[dict] = []
    trail: list[dict] = []
    boards: dict[int, Any] = {}
    state: dict[str, Any] = {"seen": 0, "struggles": 0, "base": (None, 0, 0), "narrator": None}
    g: Any = None

    def on_log(game):
        n = len(game.logs) - 1
        if n >= MAX_FRAMES:
            return
        b = _board_now(game)
        prev = boards.get(n - 1)
        boards[n] = prev if b is not None and prev == b else b   # an unchanged board is kept once

    def snap(actor=None, action=None, waits=None):
        """Frames for the lines logged since the last call. `waits`: at a decision of the replay's player that a
        game loaded here (the sandbox) waits at too, "window" (an action window: a position taken now opens
        there) or "other" (any other decision of more than one option); None at the other points (the policies'
        shortcuts, phase and struggle ends), where a loaded game would run on."""
        logs = g.logs or []
        new = logs[state["seen"]:]
        here_pos = _position_now(g)
        if not new:
            if action is not None and frames and frames[-1]["action"] is None:
                frames[-1]["actor"], frames[-1]["action"] = actor, action
            if waits and frames and frames[-1]["log_index"] == len(logs) - 1:
                # what happened since the last line without a line of its own (an attachment put on the host
                # chosen after "plays ... for 1", a choice answered) shows on that line's step, up to the
                # decision the sandbox would wait at: the board now, and the position now when it opens here
                b = _board_now(g)
                if b is not None:
                    frames[-1]["board"] = b
                frames[-1]["position"] = here_pos if waits == "window" else None
            if here_pos is not None and state["base"][1] < len(logs):   # the last position is older than the log
                state["base"] = (here_pos, len(logs), len(trail))
            return
        first = state["seen"]
        state["seen"] = len(logs)
        if len(frames) >= MAX_FRAMES:
            return
        pos = here_pos
        before = state["base"]
        if pos is not None:
            state["base"] = (pos, len(logs), len(trail))
        here = None
        nar = state["narrator"]
        for k, raw in enumerate(new):
            last = k == len(new) - 1
            # the last line before this point shows the board now: what its event did after the line was
            # written (a card played is logged before it enters) is done by now
            b = None if last else boards.get(first + k)
            if b is None:   # the one now
                here = here if here is not None else _board_now(g)
                b = here if here is not None else boards.get(first + k)
            base = state["base"] if last else before
            if DECLARE_RE.search(raw):
                state["struggles"] += 1
            frames.append({"board": b, "raw": [raw], "lines": [nar.line(raw)], "log_index": first + k,
                           "actor": actor if last else None, "action": action if last else None,
                           "position": pos if last and waits == "window" else None, "base_position": base[0],
                           "base_log": base[1], "base_trail": base[2], "round": b["round"],
                           "struggle_no": state["struggles"], "struggle_start": bool(DECLARE_RE.search(raw))})

    def on_choice(view, decision, a):
        try:
            text = action_text(g, a, decision)
            single = len(option_texts(g, decision)) == 1
        except Exception:
            text, single = None, False
        snap(decision.player, text, None if single else ("window" if decision.kind == "window" else "other"))
        if text is not None:
            trail.append({"n": len(g.logs), "kind": decision.kind, "player": decision.player,
                          "info": _info(decision), "text": text, "single": single})

    def on_declare(kind, p, elig, picks):
        names = names_for(g, elig)
        verb = "attack" if kind == "attackers" else "defend"
        if any(i not in names for i in picks):
            return   # not a declaration from these units: the engine refuses it
        text = f"{verb} {' '.join(names[i] for i in picks)}" if picks else f"{verb} none"
        trail.append({"n": len(g.logs), "kind": kind, "player": p, "info": None, "text": text,
                      "single": kind == "attackers" and len(set(names.values())) == 1})   # alike copies: one option

    def observer(game, what, info):
        if what in ("struggle_end", "phase_end", "toll_done"):
            snap()

    wrapped = [_Recorder(pols[0], on_choice, snap, on_declare), _Recorder(pols[1], on_choice, snap, on_declare)]
    g = engine.Game(deck_a, deck_b, seed=seed, first_player=first_player, max_rounds=max_rounds, log=True,
                    autostart=False, policies=wrapped, observer=observer)
    g.log_hook = on_log
    state["narrator"] = Narrator(names, card_names_of(g))
    g.play()
    snap()
    return {"frames": frames, "trail": trail, "winner": g.winner, "reason": g.reason or "round_limit",
            "cards": card_names_of(g), "rounds": len(g.by_round["influence"]), "first_player": g.round1_first,
            "influence_by_round": g.by_round["influence"]}


def short_name(name: str | None, default: str) -> str:
    """A deck's name as a log line reads it: "Starter deck: Camelot — The Fellowship ..." -> "Camelot"."""
    name = (name or "").strip()
    if name.lower().startswith("starter deck:"):
        name = name.split(":", 1)[1].strip().split(" — ")[0].strip()
    return name or default


def replay_run_game(spec: dict, index: int) -> dict:
    """Game `index` of the run `spec`, replayed (ReplayError when it cannot be)."""
    args = game_args(spec, index)
    deck_a = runner.engine_deck(spec["deck"])
    deck_b = runner.engine_deck(spec["opponent"]) if spec["mode"] == "versus" else None
    names = (short_name(spec["deck"].get("name"), "Your deck"),
             short_name((spec.get("opponent") or {}).get("name"), "Opponent" if deck_b else "the goldfish"))
    if names[0] == names[1]:
        names = (names[0] + " (1)", names[1] + " (2)")
    out = replay_game(deck_a, deck_b, seed=args["seed"], first_player=args["first_player"],
                      policies=args["policies"], max_rounds=args["max_rounds"], names=names)
    out.update({"names": names, "seed": args["seed"], "index": index, "mode": spec["mode"]})
    return out


INFLUENCE_EVENT_RE = re.compile(r"player [01] gains \d+ Influence|\d+ Influence moves? from player|"
                                r"\d+ Influence on |player [01] loses \d+ Influence")


def summary(lines: list[str], names=("Deck", "Opponent"), cards: dict[str, str] | None = None,
            influence: list | None = None) -> list[dict]:
    """A game log read as a summary: [{"round": n, "score": [a, b] or None, "events": [{"text", "rules"}]}] —
    who won each struggle, attacking or defending, and by how much, Influence gained and moved, Authority, the
    end — with the score at the end of each round.

    The score is `influence`, the game's Influence at the end of each round (GameResult.influence_by_round):
    the engine's `influence(p)`, the very figure a replay's board shows (Influence on the faction card and on
    units, §1.1). It is never added up from the log lines, which carry no running total of Influence placed on
    units (Glory, §9.2) or gone with them; without `influence` (a run stored before its sample game kept it)
    a round has no score."""
    rounds: list[dict] = []
    cur: dict | None = None
    nar = Narrator(tuple(names), cards)
    for raw in lines:
        pl = nar.line(raw)
        rnd = pl["round"] if pl["round"] is not None else (cur["round"] if cur else 0)
        if cur is None or rnd != cur["round"]:
            score = None
            if rnd == 0:
                score = [0, 0]   # §4 setup: nobody has Influence yet
            elif influence and rnd <= len(influence):
                score = [int(x) for x in influence[rnd - 1]]
            cur = {"round": rnd, "events": [], "score": score}
            rounds.append(cur)
        event = {"text": pl["text"], "rules": pl["rules"]}
        if "winner" in pl or re.search(r"S\.8 (\w+): .*no winner", raw):
            cur["events"].append(event)
            continue
        low = raw.lower()
        if INFLUENCE_EVENT_RE.search(raw) or "claims" in low or "wins" in low or "eliminat" in low \
                or "tie" in low and "§5.5" in raw:
            cur["events"].append(event)
    return rounds
